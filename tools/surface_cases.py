"""Script snippets for the PyTorch surface of issue 11 (devices, legacy names and formatting,
standard-library modules, saved-tensor hooks): each runs under PyTorch 2.13 (by
tools/gen_surface_golden.py, which records what it prints or raises) and under agrad
(tests/lang/test_surface_golden.py).  Snippets print only what both can print the same way
(``torch.__version__`` is compared without PyTorch's local "+cpu" suffix)."""

CASES = {
    # --- devices -----------------------------------------------------------------------
    "device_tutorial_line": """
import torch
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
x = torch.ones(2, 3, device=device)
print(device, repr(device), x.device, repr(x.device), x.to(device).device, x.cpu().device)
print(torch.cuda.is_available(), torch.cuda.device_count(), torch.backends.mps.is_available())
print(torch.backends.mps.is_built(), torch.backends.cudnn.is_available(), torch.accelerator.is_available())
print(torch.accelerator.current_accelerator(), torch.accelerator.device_count(), x.is_cuda, x.get_device())
""",
    "device_objects": """
import torch
d = torch.device("cuda:1")
print(d, repr(d), d.type, d.index, torch.device("cuda", 0), torch.device("cpu", 0))
print(torch.device("cpu") == torch.device("cpu"), torch.device("cpu") == torch.device("cuda"))
print(torch.device(torch.device("cpu")), isinstance(d, torch.device), str(torch.device("mps")))
""",
    "device_default": """
import torch
torch.set_default_device("cpu")
print(torch.get_default_device(), torch.zeros(2), torch.ones(1, device="cpu").device)
torch.set_default_device(None)
print(torch.tensor([1.0]).to("cpu", torch.float64), torch.ones(1).to(device="cpu", dtype=torch.int64))
""",
    "device_cuda_noops": """
import torch
torch.cuda.manual_seed(0)
torch.cuda.manual_seed_all(0)
torch.cuda.empty_cache()
print(torch.cuda.is_initialized())
""",
    "error_device_to_cuda": "import torch\ntorch.ones(2).to('cuda')",
    "error_device_cuda_method": "import torch\ntorch.ones(2).cuda()",
    "error_device_factory_cuda": "import torch\ntorch.zeros(2, device='cuda:0')",
    "error_device_mps": "import torch\ntorch.ones(2).to(torch.device('mps'))",
    "error_device_unknown": "import torch\ntorch.device('gpu')",
    "error_device_default_cuda": "import torch\ntorch.set_default_device('cuda')\ntorch.ones(1)",
    "error_device_current": "import torch\ntorch.cuda.current_device()",
    "error_device_module_cuda": "import torch\nimport torch.nn as nn\nnn.Linear(2, 2).cuda()",
    "error_device_module_to": "import torch\nimport torch.nn as nn\nnn.Linear(2, 2).to('cuda')",
    # --- legacy names and formatting --------------------------------------------------
    "format_zero_dim": """
import torch
loss = (torch.tensor([1.5, 2.0], requires_grad=True) ** 2).sum()
print(f"{loss}", f"{loss:.4f}", "{:.2f}".format(loss), "{:>8.3f}|".format(loss), f"{loss:e}")
print(f"{torch.tensor(3)}", f"{torch.tensor(3):04d}", f"{torch.tensor(True)}", f"{torch.tensor(0.1)}")
print(f"{torch.ones(2)}", "{}".format(torch.zeros(2, dtype=torch.int64)))
""",
    "error_format_spec_on_vector": "import torch\nf'{torch.ones(2):.2f}'",
    "legacy_constructors": """
import torch
print(torch.FloatTensor([1, 2]), torch.DoubleTensor(2, 3).shape, torch.LongTensor([1.7, -2.5]))
print(torch.BoolTensor([1, 0]), torch.IntTensor([3]), torch.FloatTensor(2).dtype, torch.FloatTensor().shape)
x = torch.ones(2)
print(x.type(), x.type(torch.DoubleTensor), x.type("torch.LongTensor"), x.type(torch.int32))
print(isinstance(x, torch.FloatTensor), isinstance(x.double(), torch.FloatTensor), isinstance(x, torch.Tensor))
print(torch.LongTensor([2]).type(), torch.BoolTensor([True]).type())
""",
    "legacy_variable": """
import torch
from torch.autograd import Variable
x = torch.ones(2)
v = Variable(x, requires_grad=True)
y = (v * 3).sum()
y.backward()
print(v, v.is_leaf, v.grad, x.requires_grad, Variable(x).requires_grad)
w = Variable(y)
print(w.requires_grad, w.grad_fn)
""",
    "error_legacy_variable_list": "import torch\ntorch.autograd.Variable([1, 2])",
    "legacy_variable_class": """
import torch
from torch.autograd import Variable
print(Variable, torch.autograd.Variable is Variable)
print(isinstance(torch.ones(2), Variable), isinstance(3, Variable), isinstance(torch.nn.Parameter(torch.ones(1)), Variable))
print(Variable(), Variable(torch.ones(1), True), Variable(data=torch.ones(2)), type(Variable(torch.ones(1))))
print(issubclass(torch.Tensor, Variable), Variable(torch.ones(1), volatile=True))
""",
    "numpy_keyword_names": """
import torch
x = torch.arange(6.).reshape(2, 3)
print(x.sum(axis=0), torch.sum(x, axis=1, keepdims=True), x.mean(axis=0, keepdims=True), x.sum(axis=[0, 1]))
print(torch.add(x=x, other=x), torch.add(input=x, x2=x), torch.exp(x=x), torch.sum(a=x), x.max(axis=0))
print(x.softmax(axis=0), torch.cat([x, x], axis=0).shape, torch.stack([x, x], axis=1).shape, x.argmax(axis=1))
print(x.var(axis=0, keepdims=True), x.unsqueeze(axis=0).shape, x.cumsum(axis=0), torch.all(x, axis=0))
print(x.std(axis=0), torch.amax(x, axis=0), x.log_softmax(axis=1), torch.prod(x, axis=0), x.sort(axis=0)[0])
""",
    "error_numpy_keyword_with_its_name": "import torch\ntorch.sum(torch.ones(2), dim=0, axis=0)",
    "error_numpy_keyword_beside_unknown": "import torch\ntorch.sum(torch.ones(2), axis=0, foo=1)",
    "error_numpy_keyword_wrong_type": "import torch\ntorch.sum(torch.ones(2), axis='a')",
    "error_numpy_keyword_out_of_range": "import torch\ntorch.ones(2).sum(axis=5)",
    "error_numpy_keyword_python_function": "import torch\ntorch.norm(torch.ones(2), axis=0)",
    "error_numpy_keyword_functional": "import torch\ntorch.nn.functional.softmax(torch.ones(2), axis=0)",
    "range_index": """
import torch
x = torch.arange(12.).reshape(3, 4)
print(x[range(2)], x[range(3), [0, 1, 2]], x[1, range(1, 4)], x[range(0)], x[:, range(3, 0, -1)])
x[range(2), 0] = -1
print(x)
x[range(3)] = 5
print(x)
y = torch.tensor([0.1, 0.2], requires_grad=True)
print(y[range(2)], torch.arange(6).reshape(2, 3)[range(2), range(2)])
""",
    "error_legacy_variable_int_grad": "import torch\ntorch.autograd.Variable(torch.ones(1, dtype=torch.long), requires_grad=True)",
    "error_legacy_variable_keyword": "import torch\ntorch.autograd.Variable(torch.ones(1), foo=1)",
    "error_legacy_requires_grad": "import torch\ntorch.FloatTensor([1.0], requires_grad=True)",
    "torch_version": """
import torch
v = torch.__version__.split("+")[0]
print(v, v >= "2.0", v.split(".")[:2])
""",
    # --- standard-library modules ---------------------------------------------------------
    "stdlib_time": """
import time
t0 = time.time()
p0 = time.perf_counter()
m0 = time.monotonic()
time.sleep(0.01)
print(time.time() >= t0, time.perf_counter() - p0 >= 0.009, time.monotonic() >= m0, time.time_ns() > 0)
""",
    "stdlib_random": """
import random
random.seed(0)
print(random.random(), random.randint(1, 10), random.choice([1, 2, 3]), random.sample(range(10), 3))
items = [1, 2, 3, 4, 5]
random.shuffle(items)
print(items, random.gauss(0, 1), random.uniform(1, 2), random.randrange(0, 100, 5))
print(random.choices("abc", weights=[1, 2, 3], k=4), random.getrandbits(8))
random.seed(0)
print(random.random())
""",
    "stdlib_collections": """
from collections import Counter, OrderedDict, defaultdict, deque, namedtuple
import collections
d = defaultdict(list)
d["a"].append(1)
d["b"].append(2)
print(dict(d), sorted(d.keys()), d["c"])
c = Counter("abracadabra")
print(c.most_common(2), c["a"], c["z"])
q = deque([1, 2], maxlen=3)
q.append(3)
q.append(4)
q.appendleft(0)
print(q, q.popleft(), list(q), q.maxlen)
od = OrderedDict(a=1, b=2)
od.move_to_end("a")
print(list(od.items()))
Point = namedtuple("Point", ["x", "y"])
p = Point(1, y=2)
print(p, p.x + p.y, p[0], p.count(1), tuple(p), collections.Counter([1, 1, 2]))
""",
    "stdlib_itertools_functools_operator": """
import functools
import itertools
import operator
print(list(itertools.islice(itertools.count(5), 3)), list(itertools.product([1, 2], "ab")))
print(list(itertools.chain([1], [2, 3])), list(itertools.accumulate([1, 2, 3])), list(itertools.repeat(7, 2)))
print([k for k, g in itertools.groupby("aabbc")], list(itertools.combinations(range(4), 2))[:3])
print(list(itertools.zip_longest([1, 2], "a", fillvalue=0)), list(itertools.pairwise([1, 2, 3])))
print(functools.reduce(operator.add, [1, 2, 3]), functools.partial(operator.mul, 3)(4))
print(operator.itemgetter(1)([5, 6]), sorted([3, 1, 2], key=functools.cmp_to_key(lambda a, b: b - a)))
square = functools.lru_cache(maxsize=None)(lambda n: n * n)
print(square(4), square(4), operator.truediv(1, 4), operator.neg(2))
""",
    "stdlib_typing": """
from typing import Dict, List, Optional, Tuple
import typing
def total(xs: List[float], start: Optional[float] = None) -> float:
    return sum(xs) + (start or 0.0)
pairs: Dict[str, Tuple[int, int]] = {"a": (1, 2)}
print(total([1.0, 2.5]), total([1.0], 2.0), pairs)
""",
    "stdlib_copy": """
import copy
import torch
x = torch.ones(2, requires_grad=True)
x.grad = torch.full((2,), 3.0)
ys = copy.deepcopy([x, x, {"k": (1, 2)}])
print(ys[0] is ys[1], ys[0] is x, ys[0].grad, ys[0].requires_grad, ys[0].is_leaf, ys[2])
ys[0].data.add_(1)
print(x, ys[0])
z = copy.copy(x)
print(z is x, z.requires_grad, z.grad)
z.data.mul_(5)
print(x)
print(copy.copy([1, [2]]), copy.deepcopy({"a": [1, 2]}))
""",
    "error_stdlib_deepcopy_non_leaf": "import copy\nimport torch\nx = torch.ones(2, requires_grad=True)\ncopy.deepcopy(x * 2)",
    "stdlib_gc": """
import gc
import torch
x = torch.ones(3)
del x
print(gc.collect() >= 0)
""",
    # --- saved-tensor machinery --------------------------------------------------------------
    "saved_tensors_hooks": """
import torch
x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(x is y.grad_fn._saved_self, y.grad_fn._saved_self is y.grad_fn._saved_self)
y = x.exp()
r = y.grad_fn._saved_result
print(y is r, r is y.grad_fn._saved_result, r.grad_fn.name(), r.requires_grad, r._version, r.is_leaf, r.equal(y))
calls = []
def pack(t):
    calls.append(("pack", tuple(t.shape)))
    return ("P", t)
def unpack(p):
    calls.append(("unpack",))
    return p[1]
a = torch.ones(3, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    b = a * a
    c = b.exp()
    d = (c * 2).sum()
print(calls)
calls.clear()
d.backward()
print(calls, a.grad)
calls.clear()
try:
    print(c.grad_fn._saved_result)
except RuntimeError as e:
    print("RuntimeError", e)
a2 = torch.ones(3, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    b2 = a2 * a2
calls.clear()
s = b2.grad_fn._saved_self
print(calls, s is a2, s, s.is_leaf)
z = torch.ones(3, requires_grad=True) * 1
with torch.autograd.graph.save_on_cpu():
    w = z.pow(2)
z.add_(1)
w.sum().backward()
print("save_on_cpu: no error")
z = torch.ones(3, requires_grad=True) * 1
with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 10, lambda t: t):
    w = z.pow(2)
g, = torch.autograd.grad(w.sum(), z)
print(g)
with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
    try:
        with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
            pass
    except RuntimeError as e:
        print("RuntimeError", e)
class F(torch.autograd.Function):
    clear_saved_tensors_on_access = True
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        try:
            print(ctx.saved_tensors)
        except RuntimeError as e:
            print("RuntimeError", e)
        return g * 2
x = torch.ones(2, requires_grad=True)
F.apply(x).sum().backward()
print(x.grad)
""",
    "error_saved_tensors_unpack_not_tensor": """
import torch
x = torch.ones(2, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: 1, lambda p: p):
    y = x * x
y.sum().backward()
""",
    "error_saved_tensors_hooks_freed_after_backward": """
import torch
x = torch.ones(2, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda p: p):
    y = x.exp()
y.sum().backward()
y.grad_fn._saved_result
""",
    "saved_tensors_hooks_retain_graph": """
import torch
n = []
x = torch.ones(2, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: n.append("pack") or t, lambda p: n.append("unpack") or p):
    y = (x * x).sum()
y.backward(retain_graph=True)
y.backward()
print(n, x.grad)
""",
}
