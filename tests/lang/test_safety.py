"""Escape attempts: every one fails with a clear agrad error and touches nothing."""

from __future__ import annotations

import os

import pytest

from agrad.lang import Source, run

PRE = "import torch\nx = torch.ones(2)\n"


def blocked(text, *, type_name=None, contains=None, timeout=10, **kw):
    res = run(Source("attack.py", text), timeout=timeout, **kw)
    err = res.error
    assert err is not None, f"not blocked: {text!r} -> {res.stdout!r}"
    assert err.line is not None and err.source == "attack.py"
    if type_name:
        assert err.type_name == type_name, err.render()
    if contains:
        assert contains in err.message, err.render()
    # the rendering is one clear message, never a traceback
    assert "Traceback" not in err.render()
    return err


ISSUE_ESCAPES = [
    ("().__class__.__bases__", "AttributeError", "dunder names are blocked"),
    (PRE + "x.__dict__", "AttributeError", "'__dict__'"),
    ("__import__('os')", "NameError", "not available"),
    ("open('/etc/passwd')", "NameError", "cannot access files"),
    (PRE + "getattr(x, '__dict__', None)", "AttributeError", "'__dict__'"),
    ("exec('1')", "NameError", "'exec' is not available"),
    (PRE + "'{0.__class__.__mro__}'.format(x)", "AttributeError", "'__mro__'"),
    (PRE + "f'{x.__class__.__mro__}'", "AttributeError", "'__mro__'"),
    (PRE + "x.numpy().tofile('p.bin')", "AttributeError", "'tofile' of 'ndarray'"),
    ("import os", "ImportError", "'os'"),
    ("from os import path", "ImportError", "'os'"),
]


@pytest.mark.parametrize("text,type_name,contains", ISSUE_ESCAPES,
                         ids=[t.splitlines()[-1] for t, _, _ in ISSUE_ESCAPES])
def test_issue_escape_attempts(text, type_name, contains, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    blocked(text, type_name=type_name, contains=contains)
    assert os.listdir(tmp_path) == []          # touched nothing


MORE_ESCAPES = [
    # reaching Python through objects
    "[].__class__.__base__.__subclasses__()",
    "(lambda: 0).__globals__",
    "print.__self__",
    "isinstance.__self__",
    "staticmethod(print).__func__",
    "x = 1\nx.__class__.__mro__",
    "torch.Tensor.mro()",
    "torch.Tensor.__subclasses__()",
    "torch.ones(2).grad_fn.__class__.__mro__",
    "torch.nn.functional.__dict__",
    "math.__loader__",
    "'{0[0].__class__.__mro__}'.format([1])",
    "'{x.__init__.__globals__}'.format(x=1)",
    "'{0.__class__.__mro__}'.format_map({})",
    "str.format('{0.__class__.__mro__}', 1)",
    "f'{(1).__class__.__mro__!r}'",
    "e = None\ntry:\n    1/0\nexcept Exception as err:\n    e = err\ne.__traceback__",
    "e = None\ntry:\n    1/0\nexcept Exception as err:\n    e = err\ne.with_traceback",
    # modules and engine internals
    "torch.np", "torch.os", "torch.sys", "torch.dtypes", "torch.ops", "torch.printing",
    "torch.autograd.engine", "torch.lang", "torch._limits",
    "torch.set_limits(max_elements=None)", "torch.save", "torch.load", "torch.utils.bottleneck",
    "torch.utils.data.dataloader", "torch.utils.data._utils", "torch.optim.optimizer",
    "torch.ones(2).numpy().dtype.type",
    # numpy arrays: read-only allow-list
    "torch.ones(2).numpy().ctypes", "torch.ones(2).numpy().base", "torch.ones(2).numpy().data",
    "torch.ones(2).numpy().dump('f')", "torch.ones(2).numpy().dumps()",
    "torch.ones(2).numpy().__array_interface__", "torch.ones(2).numpy().view",
    "torch.ones(2).numpy().tobytes()",
    "torch.ones(2).numpy().sum().tofile('f')",
    # forbidden builtins
    "globals()", "locals()", "vars()", "dir()", "compile('1', 'f', 'eval')",
    "eval('1')", "input()", "breakpoint()", "help()", "memoryview(b'')", "object()",
    "setattr(1, 'a', 2)", "getattr(1, '__class__').__mro__", "__builtins__", "__name__", "exit()",
    # attribute assignment outside the allow-list
    "x = torch.ones(2)\nx.foo = 1", "x = torch.ones(2)\nx._version = 3",
    "x = torch.ones(2)\nx.__class__ = int", "torch.ones = 1", "x = [1]\nx.append = 1",
    "del torch.ones",
    # classes and decorators
    "class A(object):\n    pass", "class A(int):\n    pass",
    "@print\ndef f():\n    pass",
    # files
    "with open('x') as f:\n    pass", "print('a', file=None)\nprint('a', file=1)",
    "import torch.utils.checkpoint", "import importlib", "import sys", "import numpy.linalg",
    "from torch import *",
    # type(): one argument, and only classes a script may hold anyway
    "type('A', (), {})", "type(print)", "type(lambda: 0)", "type(iter([1]))", "type(math)",
    "type(torch.ones(2)).__subclasses__()", "type(1).__base__", "type(1).mro()", "type(torch.ones(2)).mro",
    "type(type(1))", "type(torch.ones(2).numpy()).__init__",
    "type(torch.ones(2, requires_grad=True).sum().grad_fn).__module__",
]


@pytest.mark.parametrize("text", MORE_ESCAPES)
def test_more_escape_attempts(text, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    blocked("import torch\nimport math\n" + text)
    assert os.listdir(tmp_path) == []


def test_blocked_messages_are_clear():
    e = blocked(PRE + "x.numpy().tofile('p.bin')")
    assert e.message == ("access to attribute 'tofile' of 'ndarray' object is not allowed "
                         "(it is not on agrad's allow-list)")
    e = blocked("import torch\ntorch.__dict__")
    assert e.message == ("access to attribute '__dict__' of 'module' object is not allowed "
                         "(dunder names are blocked in agrad scripts)")
    e = blocked("import torch\nclass M(torch.Tensor):\n    pass\n", type_name="TypeError")
    assert e.message.startswith("agrad scripts support classes without a base and subclasses")
    e = blocked("x = torch.ones(2)\nx.foo = 1")
    assert "only requires_grad, grad and data can be set" in e.message


def test_blocked_access_cannot_be_caught():
    e = blocked("try:\n    (1).__class__.__mro__\nexcept AttributeError:\n    print('caught')\n")
    assert "dunder" in e.message


def test_allowed_numpy_and_builtin_methods_still_work(run_ok):
    res = run_ok(PRE + "a = x.numpy()\nprint(a.shape, a.dtype, a.sum(), a.tolist(), "
                 "' '.join(['a', 'b']), [3, 1].index(1), 'abc'.upper())\n")
    assert res.stdout == "(2,) float32 2.0 [1.0, 1.0] a b 1 ABC\n"


def test_tensor_settable_attributes(run_ok):
    res = run_ok("import torch\nw = torch.ones(2)\nw.requires_grad = True\n"
                 "y = (w * 2).sum()\ny.backward()\nprint(w.grad)\nw.grad = None\n"
                 "print(w.grad)\nw.data = torch.zeros(2)\nprint(w)\n")
    assert res.stdout == ("tensor([2., 2.])\nNone\ntensor([0., 0.], requires_grad=True)\n")


LIMITS = [
    ("ones(100000, 100000)", "LimitError"),
    ("10**10**9", "LimitError"),
    ("a = [0]\nfor i in range(40):\n    a = a + a", "LimitError"),
    ("a = [0]\nfor i in range(40):\n    a += a", "LimitError"),
    ("a = [0]\nfor i in range(40):\n    a.extend(a)", "LimitError"),
    ("a = 'ab'\nfor i in range(40):\n    a = a * 2", "LimitError"),
    ("[0] * 2**40", "LimitError"),
    ("'x' * 10**12", "LimitError"),
    ("1 << 10**10", "LimitError"),
    ("pow(3, 10**9)", "LimitError"),
    ("x = 2\nx **= 10**9", "LimitError"),
    ("list(range(10**10))", "LimitError"),
    ("sum(range(10**12))", "LimitError"),
    ("f'{1:>1000000000}'", "LimitError"),
    ("'{:>1000000000}'.format(1)", "LimitError"),
    ("'%1000000000d' % 1", "LimitError"),
    ("'%*d' % (10**9, 1)", "LimitError"),
    ("format(1, '>1000000000')", "LimitError"),
    ("''.center(10**10)", "LimitError"),
    ("('ab' * 1000).replace('', 'x' * 1000)", "LimitError"),
    ("','.join(['x' * 1000] * 2000)", "LimitError"),
    ("[i for i in range(10**6) for j in range(2)]", "LimitError"),
    ("x = []\nwhile True:\n    x.append(1)", "LimitError"),
    ("import math\nmath.factorial(10**8)", "LimitError"),
    ("import math\nmath.prod([2**10**5] * 1000)", "LimitError"),
    ("import torch\na = torch.ones(100000)\na[:, None] * a[None, :]", "LimitError"),
    ("import torch\na = torch.ones(10000).numpy()\na[:, None] * a[None, :]", "LimitError"),
    ("import torch\ntorch.ones(4000, 1) @ torch.ones(1, 4000)", "LimitError"),
    ("def f():\n    return f()\nf()", "RecursionError"),
    ("f = lambda: f()\nf()", "RecursionError"),
]


@pytest.mark.parametrize("text,type_name", LIMITS, ids=[t.splitlines()[-1][:40] for t, _ in LIMITS])
def test_limits(text, type_name):
    # a loop up to the element limit takes ~6 s of CPU time; the timeout is only a backstop
    e = blocked(text, type_name=type_name, max_elements=10**6, timeout=60)
    if type_name == "LimitError":
        assert "(--max-elements)" in e.message


def test_limit_errors_cannot_be_caught():
    e = blocked("try:\n    x = [0] * 10**9\nexcept Exception:\n    print('caught')\n",
                max_elements=10**6)
    assert e.type_name == "LimitError"


CLASSES = """
import torch
import torch.nn as nn
class Net(nn.Module):
    pass
x = torch.ones(2)
print(type(x), type(x) is torch.Tensor, type(x) == torch.Tensor)
print(type(nn.Linear(1, 1)), type(nn.Dropout()), type(nn.Parameter(torch.ones(1))))
print(type(1), type(1.5), type("s"), type([1]), type((1,)), type({}), type(None), type(True))
print(type(x.shape), type(x.dtype), type(x.numpy()), type(Net()), Net, torch.Tensor)
print(f"{type(x)} {type(x)!r} {Net}", repr(type(x)), str(type(x)), isinstance("a", str), str(3))
print(type(torch.optim.SGD([nn.Parameter(torch.ones(1))], lr=0.1)), type(x.sum()), type(1)(2.5))
"""


def test_type_and_classes_print_as_pytorch_s(run_ok):
    assert run_ok(CLASSES).stdout.splitlines() == [
        "<class 'torch.Tensor'> True True",
        "<class 'torch.nn.modules.linear.Linear'> <class 'torch.nn.modules.dropout.Dropout'> "
        "<class 'torch.nn.parameter.Parameter'>",
        "<class 'int'> <class 'float'> <class 'str'> <class 'list'> <class 'tuple'> <class 'dict'> "
        "<class 'NoneType'> <class 'bool'>",
        "<class 'torch.Size'> <class 'torch.dtype'> <class 'numpy.ndarray'> <class '__main__.Net'> "
        "<class '__main__.Net'> <class 'torch.Tensor'>",
        "<class 'torch.Tensor'> <class 'torch.Tensor'> <class '__main__.Net'> <class 'torch.Tensor'> "
        "<class 'torch.Tensor'> True 3",
        "<class 'torch.optim.sgd.SGD'> <class 'torch.Tensor'> 2",
    ]


AUTOGRAD_CLASSES = """
import torch
print(torch.autograd.graph.saved_tensors_hooks, torch.autograd.graph.save_on_cpu, torch.autograd.graph.Node)
print(torch.autograd.Function, torch.autograd.forward_ad.dual_level, torch.autograd.forward_ad.UnpackedDualTensor)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t) as h:
    print(type(h))
"""


def test_autograd_graph_and_forward_ad_classes_print_as_pytorch_s(run_ok):
    assert run_ok(AUTOGRAD_CLASSES).stdout.splitlines() == [
        "<class 'torch.autograd.graph.saved_tensors_hooks'> <class 'torch.autograd.graph.save_on_cpu'> "
        "<class 'torch.autograd.graph.Node'>",
        "<class 'torch.autograd.function.Function'> <class 'torch.autograd.forward_ad.dual_level'> "
        "<class 'torch.autograd.forward_ad.UnpackedDualTensor'>",
        "<class 'NoneType'>",
    ]


CLASSES_IN_CONTAINERS = """
import torch
import torch.nn as nn
l = [torch.Tensor, nn.ReLU]
l.append(l)
print([type(torch.ones(1)), int], {"a": nn.Linear}, (nn.ReLU,), {nn.Tanh}, frozenset([nn.Tanh]))
print(l, str({nn.ReLU: (nn.Tanh, 1)}), repr([nn.ReLU, "s"]), f"{[nn.ReLU]} {[nn.ReLU]!r} {'q'!r}")
print("%s and %r" % (nn.ReLU, [nn.Tanh]), "%(k)s" % {"k": [torch.Tensor]}, [1, "a"], {"k": 2.5})
"""


def test_classes_inside_containers_print_as_pytorch_s(run_ok):
    relu, tanh, tensor = ("<class 'torch.nn.modules.activation.ReLU'>", "<class 'torch.nn.modules.activation.Tanh'>",
                          "<class 'torch.Tensor'>")
    assert run_ok(CLASSES_IN_CONTAINERS).stdout.splitlines() == [
        f"[{tensor}, <class 'int'>] {{'a': <class 'torch.nn.modules.linear.Linear'>}} ({relu},) {{{tanh}}} "
        f"frozenset({{{tanh}}})",
        f"[{tensor}, {relu}, [...]] {{{relu}: ({tanh}, 1)}} [{relu}, 's'] [{relu}] [{relu}] 'q'",
        f"{relu} and [{tanh}] [{tensor}] [1, 'a'] {{'k': 2.5}}",
    ]


DELETE_PRE = ("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
              "x = torch.ones(2, requires_grad=True)\nm = nn.Linear(2, 2)\n")

DELETE_BLOCKED = [
    ("del torch.nn", "AttributeError", "cannot delete attribute 'nn' of module 'torch'"),
    ("del F.relu", "AttributeError", "cannot delete attribute 'relu' of module 'torch.nn.functional'"),
    ("del torch.Tensor.add", "AttributeError", "cannot delete attribute 'add' of 'type'"),
    ("del nn.Linear.forward", "AttributeError", "cannot delete attribute 'forward' of 'type'"),
    ("del x.__class__", "AttributeError", "names starting with '_' cannot be deleted"),
    ("del m._parameters", "AttributeError", "names starting with '_' cannot be deleted"),
    ("del (1).real", "AttributeError", "cannot delete attribute 'real' of 'int'"),
    ("del print.__self__", "AttributeError", "names starting with '_'"),
    ("del x.grad_fn", "AttributeError", "attribute 'grad_fn' of 'torch._C.TensorBase' objects is not writable"),
    ("del x.data", "RuntimeError", "Deleting tensor data is not allowed. Delete tensor instead!"),
    ("del x.foo", "AttributeError", "'Tensor' object has no attribute 'foo'"),
]


@pytest.mark.parametrize("stmt,type_name,contains", DELETE_BLOCKED, ids=[s for s, _, _ in DELETE_BLOCKED])
def test_del_attribute_obeys_the_allow_lists(stmt, type_name, contains):
    blocked(DELETE_PRE + stmt + "\n", type_name=type_name, contains=contains)


def test_del_attribute_deletes_what_a_script_may_set():
    """``del`` of a script's own attributes, a Function's ctx (PyTorch's forward-AD tutorial
    deletes ``ctx.result`` in ``jvp``), a layer of a module and ``x.grad``, as in PyTorch."""
    text = DELETE_PRE + (
        "x.sum().backward()\ndel x.grad\nprint(x.grad)\n"
        "del m.weight\nprint(list(dict(m.named_parameters())))\n"
        "class A:\n    pass\na = A()\na.v = 1\ndel a.v\n"
        "try:\n    a.v\nexcept AttributeError as e:\n    print(e)\n"
        "class Exp(torch.autograd.Function):\n"
        "    @staticmethod\n    def forward(ctx, t):\n        ctx.result = t.exp()\n        return ctx.result\n"
        "    @staticmethod\n    def jvp(ctx, g):\n        out = g * ctx.result\n        del ctx.result\n        return out\n"
        "import torch.autograd.forward_ad as fwAD\n"
        "with fwAD.dual_level():\n"
        "    d = fwAD.make_dual(torch.zeros(2), torch.ones(2))\n"
        "    print(fwAD.unpack_dual(Exp.apply(d)).tangent)\n")
    res = run(Source("ok.py", text))
    assert res.error is None, res.error.render()
    assert res.stdout == "None\n['bias']\n'A' object has no attribute 'v'\ntensor([1., 1.])\n"
