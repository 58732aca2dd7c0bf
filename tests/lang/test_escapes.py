"""The escape suite of issue 8: every way a script could hand numpy or Python
an object that runs code or reads memory fails with a clear agrad error.

Grows with every finding.  Each case asserts the error (type and text), that
the rendering is one message without a traceback, and, where the attack would
return something, that the script never holds the dangerous object.
"""

from __future__ import annotations

import os

import pytest

from agrad.lang import Source, run



def blocked(text, *, type_name=None, contains=None, **kw):
    """Run ``text``; it must fail with one clear error (no traceback)."""
    res = run(Source("attack.py", text), timeout=20, **kw)
    err = res.error
    assert err is not None, f"not blocked: {text!r} -> {res.stdout!r}"
    assert err.line is not None and err.source == "attack.py", err.render()
    if type_name:
        assert err.type_name == type_name, err.render()
    if contains:
        assert contains in err.message, err.render()
    assert "Traceback" not in err.render()
    return err

FN = "import torch\nclass G(torch.autograd.Function):\n"

# ----------------------------------------------------------------- the two attacks

RAW_READ = FN + """    __array_interface__ = {'shape': (32,), 'typestr': '|u1',
                           'data': (4096, True), 'version': 3}
torch.tensor(G(), dtype=torch.uint8)
"""

EXEC_VIA_OBJECT = FN + """    __array_interface__ = {'shape': (1,), 'typestr': '|O',
                           'data': (4096, False), 'version': 3}
o = torch.ones(1).numpy().astype('O')
o[0] = G()
"""

UFUNC_LEAK = FN + """    def __array_ufunc__(self, ufunc, method, *inputs, **kw):
        print(ufunc)
        return 0
torch.ones(2).numpy() + G()
"""


def test_array_interface_raw_memory_read_is_refused():
    e = blocked(RAW_READ, type_name="TypeError",
                contains="class G cannot define '__array_interface__'")
    assert e.line == 2                       # at the class, before any numpy call


def test_exec_through_object_dtype_is_refused():
    e = blocked(EXEC_VIA_OBJECT, type_name="TypeError", contains="'__array_interface__'")
    e = blocked("import torch\no = torch.ones(1).numpy().astype('O')\n",
                type_name="TypeError", contains="dtype '|O' is not available")
    assert "only bool, integer, float and complex dtypes" in e.message


def test_array_ufunc_never_receives_a_ufunc():
    e = blocked(UFUNC_LEAK, type_name="TypeError", contains="'__array_ufunc__'")
    assert "ufunc" not in e.render().split("cannot define")[0]


def test_exception_args_hold_only_text(run_ok):
    res = run_ok("import torch\ntry:\n    torch.ones(2).numpy().astype('U1') + 1\n"
                 "except TypeError as e:\n    print([isinstance(a, str) for a in e.args])\n")
    assert res.stdout == "[True]\n"
    # numpy's own exception (a ufunc in its args) reaches the script as its text only
    res = run_ok("import torch\na = torch.ones(2).numpy().astype('int64')\ntry:\n"
                 "    a += 0.5\nexcept TypeError as e:\n    print(e.args)\n")
    assert res.stdout.startswith("(\"Cannot cast ufunc 'add' output from dtype('float64')")
    res = run_ok("try:\n    [].index(3)\nexcept ValueError as e:\n    print(e.args)\n")
    assert res.stdout == "('3 is not in list',)\n"


def test_exception_args_of_numpy_errors_are_plain_values():
    from agrad.lang.safety import exception_args
    import numpy as np
    try:
        np.ones(2).astype("U1") + 1
    except TypeError as e:
        args = exception_args(e)
    assert args and all(isinstance(a, (str, tuple)) for a in args)
    assert not any(isinstance(a, np.ufunc) for a in args)
    assert "ufunc 'add'" in args[0]


# -------------------------------------------------- every dunder protocol

PROTOCOLS = ["__array__", "__array_interface__", "__array_struct__", "__array_ufunc__",
             "__array_function__", "__array_priority__", "__array_wrap__",
             "__array_finalize__", "__index__", "__int__", "__float__", "__complex__",
             "__buffer__", "__release_buffer__", "__dlpack__", "__dlpack_device__",
             "__del__", "__reduce__", "__reduce_ex__", "__getstate__", "__setstate__",
             "__copy__", "__deepcopy__", "__class_getitem__", "__init_subclass__",
             "__set_name__", "__format__", "__getattr__", "__getattribute__",
             "__setattr__", "__delattr__", "__new__", "__slots__", "__dict__",
             "__class__", "__weakref__", "__get__", "__set__", "__instancecheck__",
             "__subclasshook__", "__length_hint__", "__sizeof__", "__fspath__",
             "__mro_entries__", "__await__", "__aiter__", "__missing__", "__round__",
             "__trunc__", "__reversed__", "__dir__", "__module__", "__qualname__",
             "__doc__", "__annotations__"]


@pytest.mark.parametrize("name", PROTOCOLS)
def test_special_method_not_on_the_allow_list_is_refused(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    e = blocked(FN + f"    def {name}(self, *a, **k):\n        return 0\nG()\n",
                type_name="TypeError", contains=f"class G cannot define '{name}'")
    assert "may define only these special methods" in e.message
    blocked(FN + f"    {name} = 3\nG()\n", type_name="TypeError",
            contains=f"class G cannot define '{name}'")
    blocked(FN + f"    {name} = lambda self: 0\nG()\n", type_name="TypeError")
    assert os.listdir(tmp_path) == []


def test_refusal_cannot_be_caught():
    e = blocked("import torch\ntry:\n    class G(torch.autograd.Function):\n"
                "        def __index__(self):\n            return 2\nexcept TypeError:\n"
                "    print('caught')\n")
    assert "'__index__'" in e.message


@pytest.mark.parametrize("value", ["len", "3", "print", "staticmethod(lambda: 1)", "None"])
def test_allowed_special_names_must_be_script_methods(value):
    blocked(FN + f"    __len__ = {value}\n", type_name="TypeError",
            contains="'__len__' must be a method defined in the script")


def test_allowed_special_methods_work(run_ok):
    res = run_ok(FN + """    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        if i >= self.n:
            raise IndexError(i)
        return i * 10
    def __iter__(self):
        return iter([self.n])
    def __contains__(self, x):
        return x == 7
    def __eq__(self, o):
        return True
    def __hash__(self):
        return 1
    def __add__(self, o):
        return self.n + o
    def __radd__(self, o):
        return o - self.n
    def __bool__(self):
        return False
    def __call__(self, x):
        return x + 1
    def __str__(self):
        return 'G!'
g = G(3)
print(len(g), g[1], list(g), 7 in g, g == 1, len({g, g}), g + 1, 10 + g, bool(g), g(4), str(g))
print(repr(g))
""")
    assert res.stdout == "3 10 [3] True True 1 4 7 False 5 G!\n<__main__.G object>\n"


def test_script_reprs_show_no_address(run_ok):
    res = run_ok("import torch\nclass G(torch.autograd.Function):\n    pass\n"
                 "def f():\n    pass\nprint(G(), f, lambda: 0)\n")
    assert res.stdout == "<__main__.G object> <function f> <function <lambda>>\n"


def test_special_attributes_cannot_be_set_later():
    blocked(FN + "    pass\nG.__array_interface__ = {}\n", contains="'__array_interface__'")
    blocked(FN + "    pass\ng = G()\ng.__array_priority__ = 1\n", contains="'__array_priority__'")
    blocked(FN + "    def __init__(self):\n        self.__array__ = 1\nG()\n",
            contains="'__array__'")


# ----------------------------------------- values reaching numpy are converted

SEQ = FN + """    def __len__(self):
        return 2
    def __getitem__(self, i):
        if i >= 2:
            raise IndexError(i)
        return 1.0
"""


@pytest.mark.parametrize("use", [
    "torch.tensor(G())", "torch.tensor(G(), dtype=torch.float32)", "torch.tensor([G()])",
    "torch.tensor([[1.0, 2.0], G()], dtype=torch.float64)", "torch.Tensor(G())",
    "torch.as_tensor(G())", "torch.from_numpy(G())", "np.array(G())",
    "np.array([G()], dtype=np.float32)", "np.asarray(G())", "np.float32(G())",
    "np.sin(G())", "np.zeros(2) + G()", "torch.ones(2).numpy() * [G()]",
    "np.concatenate([G(), G()])", "np.where(G(), 1, 0)", "a = np.zeros(2)\na[0] = G()",
    "a = np.zeros(2)\na[G()]", "np.zeros(G())", "np.arange(G())",
])
def test_script_objects_never_reach_numpy(use):
    e = blocked(SEQ + "import numpy as np\n" + use + "\n")
    assert e.type_name in ("TypeError", "RuntimeError", "IndexError", "ValueError"), e.render()
    assert "G" in e.message or "object" in e.message or "ind" in e.message, e.message


@pytest.mark.parametrize("dtype", ["'O'", "'U250'", "'S3'", "'V8'", "str",
                                   "'M8[s]'", "'f8,f8'", "'(2,)f8'", "np.dtype"])
def test_no_object_string_or_void_dtype(dtype):
    e = blocked(f"import torch\nimport numpy as np\ntorch.ones(2).numpy().astype({dtype})\n")
    assert e.type_name == "TypeError"
    assert "not available in agrad scripts" in e.message or "data type" in e.message


@pytest.mark.parametrize("use", [
    "np.zeros(2, dtype='O')", "np.array([1], dtype='U3')",
    "np.full(2, 1, dtype='S2')", "np.arange(3, dtype='O')", "np.array('abc')",
    "np.array(['a', 'b'])", "np.array(None)", "np.array([1, None])", "np.array(print)",
])
def test_numpy_module_builds_only_numeric_arrays(use):
    e = blocked("import numpy as np\n" + use + "\n")
    assert e.type_name == "TypeError", e.render()


# -------------------------------------------------- the guarded array type

GUARDED_BLOCKED = ["ctypes", "data", "base", "view", "tofile", "dump", "dumps", "tobytes",
                   "__array_interface__", "__array__", "_a", "flat", "setflags", "flags",
                   "strides", "getfield", "setfield", "resize", "itemset", "byteswap",
                   "newbyteorder", "__reduce__", "__class__.__mro__", "__dict__", "choose",
                   "__array_ufunc__", "__array_function__", "__setstate__"]


@pytest.mark.parametrize("name", GUARDED_BLOCKED)
def test_guarded_array_exposes_no_internals(name):
    blocked(f"import torch\na = torch.ones(3).numpy()\na.{name}\n")
    blocked(f"import numpy as np\n(np.ones(3) + 1).{name}\n")
    blocked(f"import numpy as np\nnp.ones((2, 2))[0].{name}\n")


def test_guarded_results_stay_guarded(run_ok):
    res = run_ok("""import torch
import numpy as np
a = torch.arange(6.0).reshape(2, 3).numpy()
vals = [a + 1, 1 + a, a * a, -a, a.T, a[0], a[:, 1:], a[a > 2], a.sum(axis=0), a.copy(),
        a.reshape(3, 2), a.astype(np.float64), np.sin(a), np.where(a > 1, a, 0), abs(a),
        a @ a.T, a.round(1), np.stack([a, a]), np.zeros_like(a), a.clip(1, 2)]
ok = True
for v in vals:
    ok = ok and isinstance(v, np.ndarray)
print(ok, len(vals))
for r in a:
    print(isinstance(r, np.ndarray), r)
""")
    assert res.stdout == "True 20\nTrue [0. 1. 2.]\nTrue [3. 4. 5.]\n"


def test_guarded_array_prints_as_numpy(run_ok):
    import numpy as np
    res = run_ok("import torch\nimport numpy as np\na = torch.tensor([[1.5, 2.0], [3.0, 4.25]])"
                 ".numpy()\nprint(a)\nprint(repr(a))\nprint(a.sum(), a.dtype, a.shape)\n"
                 "print(f'{a.sum():.2f}')\nprint(np.arange(3), np.linspace(0, 1, 3))\n")
    ref = np.array([[1.5, 2.0], [3.0, 4.25]], np.float32)
    assert res.stdout == (f"{ref}\n{ref!r}\n{ref.sum()} float32 (2, 2)\n10.75\n"
                          f"{np.arange(3)} {np.linspace(0, 1, 3)}\n")


def test_engine_calls_take_guarded_arrays(run_ok):
    res = run_ok("import torch\nimport numpy as np\na = np.arange(3.0)\n"
                 "print(torch.from_numpy(a), torch.tensor(a), torch.as_tensor(a))\n"
                 "t = torch.from_numpy(a)\na[0] = 7\nprint(t)\n")
    assert res.stdout == ("tensor([0., 1., 2.], dtype=torch.float64) "
                          "tensor([0., 1., 2.], dtype=torch.float64) "
                          "tensor([0., 1., 2.], dtype=torch.float64)\n"
                          "tensor([7., 1., 2.], dtype=torch.float64)\n")


def test_function_apply_hands_the_guarded_array_to_forward(run_ok):
    res = run_ok("""import torch
import numpy as np
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, a):
        print(isinstance(a, np.ndarray))
        a.view
        return x * 1
F.apply(torch.ones(1), np.ones(2))
""".replace("        a.view\n", ""))
    assert res.stdout == "True\n"
    e = blocked("import torch\nimport numpy as np\nclass F(torch.autograd.Function):\n"
                "    @staticmethod\n    def forward(ctx, x, a):\n        return a.view\n"
                "F.apply(torch.ones(1), np.ones(2))\n")
    assert "'view'" in e.message


# ----------------------------------------------------------- the numpy module

def test_numpy_module_allowed_names(run_ok):
    res = run_ok("""import numpy as np
np.random.seed(0)
r = np.random.rand(2, 2)
print(r.shape, np.random.randn(3).shape, np.pi == 3.141592653589793, np.e > 2)
print(np.sum([1, 2, 3]), np.mean(np.array([1.0, 3.0])), np.max([4, 2]), np.argmax([1, 5, 2]))
print(np.dot([1, 2], [3, 4]), np.matmul(np.eye(2), [[1], [2]]).tolist())
print(np.allclose([1.0], [1.0 + 1e-9]), np.isclose(1.0, 2.0), np.clip([1, 5], 2, 3))
print(np.concatenate([[1], [2, 3]]), np.stack([[1], [2]]).shape, np.reshape(np.arange(4), (2, 2)).T)
print(np.full((2,), 7, dtype=np.int64), np.zeros(2, dtype=np.float32).dtype, np.ones(1, np.int64))
print(np.std([1.0, 3.0]), np.min([3, 1]), np.transpose(np.ones((2, 3))).shape, np.float32(1.5) * 2)
""")
    import numpy as np
    np.random.seed(0)
    r = np.random.rand(2, 2)
    assert res.stdout.splitlines()[0] == "(2, 2) (3,) True True"
    assert res.stdout.splitlines()[1] == "6 2.0 4 1"


def test_numpy_random_follows_numpys_legacy_stream(run_ok):
    import numpy as np
    res = run_ok("import numpy as np\nnp.random.seed(3)\nprint(np.random.rand(3).tolist())\n"
                 "print(np.random.randn(2).tolist())\n")
    rs = np.random.RandomState(3)
    assert res.stdout == f"{rs.rand(3).tolist()}\n{rs.randn(2).tolist()}\n"


@pytest.mark.parametrize("name", ["save", "load", "fromfile", "memmap", "savetxt", "loadtxt",
                                  "genfromtxt", "savez", "lib", "ctypeslib", "frombuffer",
                                  "fromstring", "DataSource", "core", "testing", "f2py",
                                  "distutils", "os", "sys", "set_printoptions", "vectorize",
                                  "frompyfunc", "apply_along_axis", "object_", "str_", "void",
                                  "dtype.type", "random.bit_generator", "random.Generator",
                                  "random.default_rng", "random.__dict__", "__dict__",
                                  "ndarray.view", "float32.__call__"])
def test_numpy_module_refuses_the_rest(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    e = blocked(f"import numpy as np\nnp.{name}\n")
    assert e.type_name == "AttributeError"
    assert os.listdir(tmp_path) == []


def test_numpy_missing_name_error_is_clear():
    e = blocked("import numpy as np\nnp.save('x.npy', np.ones(2))\n")
    assert e.message.startswith("module 'numpy' has no attribute 'save'")
    e = blocked("import numpy.linalg\n", type_name="ImportError")
    assert "numpy" in e.message


# -------------------------------------------------------------- files and pickles

@pytest.mark.parametrize("use", [
    "torch.save(torch.ones(1), 'x.pt')", "torch.load('x.pt')", "open('x.txt', 'w')",
    "import numpy as np\nnp.save('x.npy', np.ones(1))", "import numpy as np\nnp.load('x.npy')",
    "torch.ones(2).numpy().tofile('x.bin')", "torch.ones(2).numpy().dump('x.pkl')",
    "import pickle", "import copyreg", "import shelve", "import io",
])
def test_no_file_access(use, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    e = blocked("import torch\n" + use + "\n")
    assert os.listdir(tmp_path) == []
    if e.type_name in ("NameError", "AttributeError") and "import" not in use:
        assert "cannot access files" in e.message or "allow-list" in e.message, e.message


def test_deepcopy_of_script_objects_runs_no_script_hook():
    import copy
    from agrad.lang.interpreter import ENGINE
    res = run("import torch\nclass G(torch.autograd.Function):\n"
              "    def __init__(self):\n        self.x = [1, 2]\ng = G()\n")
    assert res.error is None
    g = res.namespace["g"]
    h = copy.deepcopy(g)
    assert h.x == [1, 2] and h.x is not g.x
    assert ENGINE.mod is not None


# ------------------------------------------------------------------- limits

LIMIT_CASES = [
    # counts taken from __index__ are checked before use
    "[0] * torch.tensor(2 * 10**9)", "torch.tensor(2 * 10**9) * [0]",
    "'x' * torch.tensor(10**9)", "[0] * np.int64(10**9)", "'x'.ljust(torch.tensor(10**9))",
    "'x'.center(np.int64(10**9))", "import math\nmath.factorial(torch.tensor(10**7))",
    # __len__ and __iter__ lies
    "list(L())", "tuple(L())", "set(L())", "sorted(L())", "[*L()]", "a, *b = L()",
    "x = []\nx.extend(L())", "x = []\nx[:] = L()", "''.join(L())", "set().union(L())",
    "d = {}\nd.update(K())", "dict(K())", "{**K()}", "print(*L())",
    # numpy sizes
    "np.zeros((10**5, 10**5))", "np.ones(10**9)",
    "np.arange(10**9)", "np.linspace(0, 1, 10**9)", "np.eye(10**5)", "np.full(10**9, 1.0)",
    "np.random.rand(10**5, 10**5)", "a = np.ones(10**5)\na[:, None] * a",
    "a = np.ones(10**5)\nnp.outer(a, a)", "a = np.ones((10**5, 1))\na @ a.T",
    "a = np.ones(10**5)\nnp.add(a[:, None], a)", "a = np.ones(10**5)\nnp.where(a[:, None] > 0, a, 0)",
    "a = np.ones((1000, 1000))\na[np.zeros(10**5, dtype=np.int64)]",
    "a = np.ones(10**5)\nnp.concatenate([a] * 20)",
]

LIAR = """class L(torch.autograd.Function):
    def __len__(self):
        return 1
    def __iter__(self):
        return self
    def __next__(self):
        return 'x'
class K(torch.autograd.Function):
    def __len__(self):
        return 1
    def keys(self):
        return L()
    def __getitem__(self, k):
        return 1
"""


@pytest.mark.parametrize("text", LIMIT_CASES)
def test_limits_hold_before_allocation(text):
    liar = "L()" in text or "K()" in text     # a script-level iterator: keep it short
    e = blocked("import torch\nimport numpy as np\n" + LIAR + text + "\n",
                max_elements=10**4 if liar else 10**6)
    assert e.type_name == "LimitError", e.render()
    assert "(--max-elements)" in e.message


def test_dtype_check_comes_before_the_size():
    e = blocked("import torch\ntorch.ones(10**6).numpy().astype('U250')\n",
                max_elements=10**7)
    assert e.type_name == "TypeError" and "'<U250'" in e.message


# Every op computes its result's size before numpy allocates it (issue 8 item 3):
# two vectors of 10^5 elements broadcast into 10^10, products, repeats, pads ...
TORCH_LIMIT_CASES = [
    "torch.mul(a[:, None], a)", "torch.add(a[:, None], a)", "a[:, None] - a", "a[:, None] >= a",
    "torch.where(a[:, None] > 0, a, a[:, None])", "torch.pow(a[:, None], a)",
    "torch.maximum(a[:, None], a)", "torch.atan2(a[:, None], a)", "torch.fmod(a[:, None], a)",
    "torch.lerp(a[:, None], a, 0.5)", "torch.addcmul(a[:, None], a, a)",
    "a.masked_fill(a[:, None] > 0, 1.0)", "b = a[:, None].clone()\nb += a",
    "torch.outer(a, a)", "torch.kron(a[:10**4], a[:10**4])", "torch.matmul(a[:, None], a[None])",
    "torch.mm(a[:, None], a[None])", "torch.bmm(a[None, :, None], a[None, None])",
    "torch.addmm(torch.zeros(1), a[:, None], a[None])",
    "torch.einsum('i,j->ij', a, a)", "torch.tensordot(a, a, dims=0)",
    "a.repeat(10**5)", "torch.tile(a, (10**5,))", "F.pad(a, (0, 10**9))",
    "F.one_hot(torch.tensor([10**9]))", "F.one_hot(torch.zeros(10**5, dtype=torch.long), 10**5)",
    "torch.cat([a] * 100)", "torch.stack([a] * 100)", "torch.diag(a)",
    "torch.arange(10**9)", "torch.linspace(0, 1, 10**9)", "torch.full((10**9,), 1.0)",
    "torch.zeros(10**9)", "torch.eye(10**5)", "a.expand(10**5, 10**5)",
    "torch.ones(1000, 1000)[torch.zeros(10**5, dtype=torch.long)]",
    "a.index_select(0, torch.zeros(10**7, dtype=torch.long))",
    "F.embedding(torch.zeros(10**5, dtype=torch.long), torch.ones(10, 100))",
]


@pytest.mark.parametrize("use", TORCH_LIMIT_CASES)
def test_ops_check_sizes_before_allocating(use):
    import time
    t0 = time.monotonic()
    e = blocked("import torch\nimport torch.nn.functional as F\na = torch.ones(10**5)\n" + use
                + "\n", max_elements=10**6)
    assert e.type_name == "LimitError", e.render()
    assert "exceeds the limit of 1,000,000 elements (--max-elements)" in e.message
    assert time.monotonic() - t0 < 10


def test_numpy_array_operands_of_tensor_operators(run_ok):
    res = run_ok("import torch\nimport numpy as np\nt = torch.ones(2)\na = np.arange(2.0)\n"
                 "print(t + a, t - a, t * a)\n")
    # as PyTorch 2.13 prints them
    assert res.stdout == ("tensor([1., 2.], dtype=torch.float64) tensor([1., 0.], dtype=torch.float64) "
                          "tensor([0., 1.], dtype=torch.float64)\n")


def test_tensor_indexing_refuses_script_objects_and_takes_guarded_arrays(run_ok):
    blocked(SEQ + "torch.ones(3)[G()]\n", type_name="IndexError")
    blocked(SEQ + "torch.ones(3)[[G()]]\n", type_name="IndexError")
    blocked(SEQ + "x = torch.ones(3)\nx[G()] = 1.0\n", type_name="IndexError")
    res = run_ok("import torch\nimport numpy as np\nx = torch.arange(4.0)\n"
                 "print(x[np.array([0, 2])], x[x.numpy() > 1])\n")
    assert res.stdout == "tensor([0., 2.]) tensor([2., 3.])\n"


def test_every_numpy_name_is_documented():
    """docs/language.md lists every name of the numpy module, and nothing else."""
    import re
    from pathlib import Path

    from agrad.lang.numpy_module import numpy_namespaces
    doc = (Path(__file__).resolve().parents[2] / "docs" / "language.md").read_text()
    section = doc[doc.index("### numpy"):doc.index("## Classes")]
    listed = section[:section.index("Anything else")]
    words = set()
    for code in re.findall(r"`([^`]+)`", listed):
        words.update(w.strip(",") for w in code.split())
    ns, random = numpy_namespaces()
    names = set(ns) | {f"np.random.{n}" for n in random}
    missing = {n for n in names if n not in words}
    assert not missing, f"not in docs/language.md: {sorted(missing)}"


def _cli(*args):
    import subprocess
    import sys
    from pathlib import Path
    src = str(Path(__file__).resolve().parents[2] / "src")
    return subprocess.run([sys.executable, "-m", "agrad", "eval", *args], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": src})


def test_cli_attack_exit_1_one_line_no_traceback(tmp_path):
    script = tmp_path / "attack.py"
    script.write_text(RAW_READ)
    r = _cli(str(script), "--format", "text")
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.splitlines()[0].endswith(
        "TypeError: class G cannot define '__array_interface__': agrad script classes may define "
        "only these special methods: __init__, __post_init__, __call__, __repr__, __str__, "
        "__len__, "
        "__getitem__, __setitem__, __iter__, __next__, __contains__, __bool__, __hash__, "
        "__enter__, __exit__, comparisons and arithmetic operators (docs/language.md)")
    assert "Traceback" not in r.stderr


def test_cli_fresh_process_numpy_to_torch():
    # a fresh process: the first guarded array comes from the numpy module
    r = _cli("-e", "import numpy as np", "-e", "np.random.seed(0)", "-e", "a = np.random.rand(2)",
             "-e", "print(torch.from_numpy(a))", "--format", "text")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("tensor([0.5488, 0.7152], dtype=torch.float64)\n")


def test_ndarray_type_cannot_wrap_script_objects(run_ok):
    for arg in ("(2,)", "G()", "[1, 2]"):
        e = blocked(SEQ + f"import numpy as np\nnp.ndarray({arg})\n", type_name="TypeError")
        assert "numpy.ndarray() cannot be called in agrad scripts" in e.message
    # a script object beside a guarded array gets the array, never numpy's internals
    res = run_ok("import numpy as np\nclass G:\n    def __radd__(self, o):\n"
                 "        return isinstance(o, np.ndarray)\nprint(np.ones(2) + G(), np.ones(2) == None)\n")
    assert res.stdout == "True False\n"


def test_index_bomb_from_the_issue():
    # `[0] * B()` with B.__index__ returning 2e9: the class itself is refused ...
    e = blocked("class B:\n    def __index__(self):\n        return 2 * 10**9\n[0] * B()\n",
                type_name="TypeError", contains="class B cannot define '__index__'")
    assert e.line == 1
    # ... and engine objects' __index__ is checked before the list is built
    e = blocked("import torch\n[0] * torch.tensor(2 * 10**9)\n", type_name="LimitError",
                max_elements=10**6)
    assert e.message.startswith("list of 2,000,000,000 elements exceeds the limit")


def test_guarded_arrays_inside_lists_for_the_engine(run_ok):
    res = run_ok("import torch\nimport numpy as np\na = np.ones(2)\n"
                 "print(torch.tensor([a, a * 2]).shape, torch.ones(2)[a > 0])\n")
    assert res.stdout == "torch.Size([2, 2]) tensor([1., 1.])\n"


@pytest.mark.parametrize("use", ["torch.Size.__module__", "torch.ones(2).shape.__reduce__()",
                                 "torch.ones(2).shape.__class__.__mro__", "torch.Size.__mro__",
                                 "torch.Size.mro()"])
def test_size_named_like_pytorch_exposes_no_internals(use):
    # torch.Size has PyTorch's module name "torch" (type(x.shape) prints <class 'torch.Size'>); the sandbox
    # admits that one class by identity, and its dunders stay out of reach
    blocked(f"import torch\nprint({use})\n", type_name="AttributeError")


def test_size_named_like_pytorch_still_works(run_ok):
    res = run_ok("import torch\ns = torch.ones(2, 3).shape\nprint(torch.Size, s, s.numel(), s[1:], "
                 "torch.Size([4]), isinstance(s, torch.Size))\n")
    assert res.stdout == "<class 'torch.Size'> torch.Size([2, 3]) 6 torch.Size([3]) torch.Size([4]) True\n"


SHIFT = "import torch\nx = torch.tensor([1, -2, 3])\n"


@pytest.mark.parametrize("use", ["torch.bitwise_left_shift.__globals__", "x.bitwise_right_shift_.__func__",
                                 "x.__lshift__.__self__", "x.bitwise_not_.__closure__",
                                 "torch.bitwise_right_shift.__code__", "(x << 1).__class__.__rlshift__",
                                 "x.__ilshift__.__wrapped__", "torch.bitwise_left_shift(x, 1).__dict__"])
def test_shift_ops_expose_no_internals(use):
    blocked(SHIFT + f"print({use})\n", type_name="AttributeError")


def test_shift_operators_hand_script_objects_nothing(run_ok):
    # a script object on the other side of << gets Python's NotImplemented protocol, never the engine's state
    blocked(SHIFT + "class A:\n    def __rlshift__(self, other):\n        return other.__dict__\nx << A()\n",
            type_name="AttributeError")
    blocked(SHIFT + "x <<= 'a'\n", type_name="TypeError", contains="unsupported operand type(s) for <<=")
    res = run_ok(SHIFT + "class A:\n    def __rrshift__(self, other):\n        return 'A'\n"
                 "y = x.clone()\ny >>= 1\nprint(x << 1, 1 << x, x >> A(), y, x.bitwise_not_())\n")
    assert res.stdout == "tensor([ 2, -4,  6]) tensor([2, 0, 8]) A tensor([ 0, -1,  1]) tensor([-2,  1, -4])\n"


def test_zerotensor_gradients_hand_scripts_plain_guarded_arrays(run_ok):
    # a ZeroTensor's data is a numpy subclass (agrad._zero.ZeroArray): scripts only ever see copies
    res = run_ok("""import torch
import numpy as np
x = torch.tensor([1.5, -2.0], requires_grad=True)
x.sgn().sum().backward()
g = x.grad
try:
    g.numpy()
except RuntimeError as e:
    print(str(e).strip())
a = g.numpy(force=True)
b = np.asarray(g)
print(isinstance(a, np.ndarray), isinstance(b, np.ndarray), a + 1)
""")
    assert res.stdout == ("Cannot convert a ZeroTensor to numpy. Set force=True if you need the zero array.\n"
                          "True True [1. 1.]\n")
    import numpy

    from agrad._zero import ZeroArray
    for name in "ab":
        assert not isinstance(res.namespace[name], ZeroArray)
        assert type(res.namespace[name]._a) is numpy.ndarray


TRI = "import torch\na = torch.tensor([[2.0, 0.0], [1.0, 4.0]], requires_grad=True)\nb = torch.ones(2, 2)\n"


@pytest.mark.parametrize("use", ["torch.linalg.solve_triangular.__globals__", "torch.linalg.solve_triangular.__code__",
                                 "torch.linalg.solve_triangular.__wrapped__",
                                 "torch.linalg.solve_triangular(a, b, upper=False).grad_fn.__dict__",
                                 "torch.linalg.solve_triangular(a, b, upper=False).grad_fn._saved_self.__dict__"])
def test_solve_triangular_exposes_no_internals(use):
    blocked(TRI + f"print({use})\n", type_name="AttributeError")


def test_solve_triangular_runs_in_scripts(run_ok):
    res = run_ok(TRI + "x = torch.linalg.solve_triangular(a, b, upper=False)\nx.sum().backward()\n"
                 "print(x, x.grad_fn.name(), a.grad)\n"
                 "try:\n    torch.linalg.solve_triangular(a, b, upper=1)\nexcept TypeError as e:\n    print(e)\n")
    assert res.stdout == ("tensor([[0.5000, 0.5000],\n        [0.1250, 0.1250]], grad_fn=<LinalgSolveTriangularBackward0>) "
                          "LinalgSolveTriangularBackward0 tensor([[-0.3750,  0.0000],\n        [-0.2500, -0.0625]])\n"
                          "linalg_solve_triangular(): argument 'upper' must be bool, not int\n")


SPECIAL = "import torch\nx = torch.tensor([0.5, 1.5], requires_grad=True)\n"


@pytest.mark.parametrize("use", ["torch.special.gammaln.__globals__", "torch.special.zeta.__code__",
                                 "torch.special.i0e.__wrapped__", "torch.special.i1e.__closure__", "torch.special.i0e.op",
                                 "torch.special.ndtr._parsed", "torch.special.__dict__", "torch.special.__loader__",
                                 "torch.special.i0e(x).grad_fn.__dict__",
                                 "torch.special.zeta(x + 2, x).grad_fn._saved_self.__dict__",
                                 "torch.polygamma(2, x).grad_fn._formula"])
def test_special_exposes_no_internals(use):
    blocked(SPECIAL + f"print({use})\n", type_name="AttributeError")


@pytest.mark.parametrize("name", ["_SPECIAL", "np", "S", "math", "Op", "export", "finish_out"])
def test_special_module_holds_only_the_ops(name):
    err = blocked(SPECIAL + f"print(torch.special.{name})\n", type_name="AttributeError")
    assert f"module 'torch.special' has no attribute '{name}'" in err.message


def test_special_runs_in_scripts(run_ok):
    res = run_ok("import torch.special\nfrom torch.special import gammaln, zeta\nimport torch\n"
                 "x = torch.tensor([0.5, 1.5], requires_grad=True)\n"
                 "y = gammaln(x) + zeta(2, x) + torch.special.i1e(x) + torch.polygamma(1, x)\n"
                 "y.sum().backward()\nprint(y.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0].name())\n"
                 "print(torch.special.i0e(x).grad_fn.name(), torch.special.xlog1py(x, 2).grad_fn.name())\n"
                 "try:\n    torch.special.zeta(x + 2, x).sum().backward()\nexcept NotImplementedError as e:\n    print(e)\n")
    assert res.stdout == ("LgammaBackward0\nSpecialI0EBackward0 SpecialXlog1PyBackward2\n"
                          "the derivative for 'zeta' is not implemented.\n")


@pytest.mark.parametrize("use", ["torch.special.bessel_j0.__globals__", "torch.special.airy_ai.__code__",
                                 "torch.special.chebyshev_polynomial_t.__wrapped__", "torch.special.legendre_polynomial_p._parsed",
                                 "torch.special.modified_bessel_k0.__closure__", "torch.special.bessel_y1.__kwdefaults__",
                                 "torch.special.hermite_polynomial_h(x, 2).__array_interface__",
                                 "torch.special.spherical_bessel_j0(x)._data", "torch.igamma.__globals__",
                                 "torch.special.gammaincc.__code__", "x.igamma_.__closure__",
                                 "torch.special.erfcx(x).grad_fn.__dict__", "torch.igamma(x, x).grad_fn._formula"])
def test_bessel_and_polynomials_expose_no_internals(use):
    blocked(SPECIAL + f"print({use})\n")


@pytest.mark.parametrize("name", ["B", "P", "TB", "G", "E", "_unary", "_polynomial", "_KERNEL_TYPES", "special_functions",
                                  "_igamma", "_igamma_call"])
def test_special_module_holds_none_of_the_bessel_internals(name):
    err = blocked(SPECIAL + f"print(torch.special.{name})\n", type_name="AttributeError")
    assert f"module 'torch.special' has no attribute '{name}'" in err.message


def test_bessel_and_polynomials_run_in_scripts(run_ok):
    res = run_ok("import torch\nfrom torch.special import bessel_j0, chebyshev_polynomial_t\n"
                 "x = torch.tensor([0.5, 1.5], requires_grad=True)\n"
                 "y = bessel_j0(x) + chebyshev_polynomial_t(x, 3) + torch.special.airy_ai(x=x)\n"
                 "print(y.requires_grad, y.grad_fn, torch.special.legendre_polynomial_p(0.5, torch.tensor([2, 3])).tolist())\n")
    assert res.stdout == "False None [-0.125, -0.4375]\n"


@pytest.mark.parametrize("fn", ["torch.cat", "torch.sort", "torch.linalg.qr", "torch.max"])
def test_out_wrappers_do_not_hand_out_the_inner_function(fn):
    # (functions given out= by ops._op.with_out keep the wrapped one in __wrapped__)
    blocked(f"import torch\nf = {fn}.__wrapped__\n", contains="dunder names are blocked")


# ----------------------------------------------------------------- legacy classes (tutorials, session 31)

def test_legacy_metaclasses_make_no_classes():
    """type(torch.FloatTensor) and type(torch.autograd.Variable) are metaclasses: calling one
    would make a class (a Tensor subclass with any namespace), as type() with three arguments,
    which scripts cannot call."""
    for name in ("torch.FloatTensor", "torch.autograd.Variable"):
        blocked(f"import torch\nt = type({name})\nX = t('X', (torch.Tensor,), {{'__array_interface__': 1}})\n",
                type_name="TypeError", contains="type() with three arguments is not supported")


def test_variable_class_exposes_no_attributes():
    blocked("from torch.autograd import Variable\nVariable.mro()\n", type_name="AttributeError")
    blocked("from torch.autograd import Variable\nVariable.__call__\n", type_name="AttributeError",
            contains="dunder names are blocked")


def test_module_registries_are_plain_dicts_of_the_module():
    """``_modules``, ``_parameters`` and ``_buffers`` of an nn.Module are readable (d2l's MySequential
    writes ``self._modules[str(i)] = m``); they lead nowhere else."""
    from agrad.lang import Source, run

    res = run(Source("ok.py", "import torch\nclass S(torch.nn.Module):\n    def __init__(self, *a):\n"
                     "        super().__init__()\n        for i, m in enumerate(a):\n            self._modules[str(i)] = m\n"
                     "    def forward(self, x):\n        for b in self._modules.values():\n            x = b(x)\n"
                     "        return x\nnet = S(torch.nn.Identity(), torch.nn.ReLU())\nprint(net(torch.tensor([-1.0, 2.0])), net)\n"),
              timeout=20)
    assert res.error is None and res.stdout.startswith("tensor([0., 2.]) S(\n  (0): Identity()")
    blocked("import torch\ntorch.nn.Linear(2, 2)._modules.__class__.__mro__\n", type_name="AttributeError",
            contains="dunder names are blocked")
    blocked("import torch\ntorch.nn.Linear(2, 2)._forward_hooks\n", type_name="AttributeError")
    blocked("import torch\ntorch.ones(2)._modules\n", type_name="AttributeError")
    blocked("import torch\nm = torch.nn.Sequential()\nm._modules['0'] = 5\nm(torch.ones(1))\n", type_name="TypeError",
            contains="'int' object is not callable")


def test_string_and_unicodedata_modules_are_allow_lists():
    """``string`` (constants, capwords) and ``unicodedata`` (lookups, normalize within the size
    limit), as the char-RNN tutorial imports them: no Template or Formatter (their format fields
    read attributes), nothing else of either module."""
    from agrad.lang import Source, run

    res = run(Source("ok.py", "import string\nimport unicodedata\nfrom string import ascii_letters\n"
                     "print(len(string.ascii_letters + \" .,;'\"), string.capwords('a b'), ascii_letters[:3])\n"
                     "print(unicodedata.normalize('NFD', 'Ślusàrski'), unicodedata.category('\\u0301'))\n"),
              timeout=20)
    import unicodedata
    assert res.error is None and res.stdout == f"57 A B abc\n{unicodedata.normalize('NFD', 'Ślusàrski')} Mn\n"
    for name in ("Formatter", "Template", "_re", "sys"):
        blocked(f"import string\nstring.{name}\n", type_name="AttributeError")
    blocked("import unicodedata\nunicodedata.ucd_3_2_0\n", type_name="AttributeError")
    blocked("from string import Formatter\n", type_name="ImportError")
    blocked("import unicodedata\nunicodedata.normalize('NFKD', '\\ufdfa' * 1000)\n", max_elements=10_000,
            contains="exceeds the limit")


LOSS = ("import torch\nimport torch.nn.functional as F\nx = torch.tensor([[0.25, 0.5]], requires_grad=True)\n"
        "r = F.nll_loss(x, torch.tensor([0]))\n")


@pytest.mark.parametrize("use", ["r.grad_fn._none_saved", "r.grad_fn._saved", "r.grad_fn._saved_target.__dict__"])
def test_saved_after_the_call_exposes_no_internals(use):
    """nll_loss and binary_cross_entropy save their target and weight after the call (graph.save_extra): the
    node's bookkeeping of an optional tensor not given is no ``_saved_*`` name a script reaches."""
    blocked(LOSS + f"print({use})\n", type_name="AttributeError")


def test_saved_after_the_call_reads_as_pytorchs(run_ok):
    res = run_ok(LOSS + "print(r.grad_fn._saved_weight, r.grad_fn._saved_target)\n")
    assert res.stdout == "None tensor([0])\n"
