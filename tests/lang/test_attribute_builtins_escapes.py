"""``getattr``/``setattr``/``delattr``/``hasattr`` with a name in a string: what ``obj.name`` reaches and
nothing more.  A blocked name raises the attribute syntax's own error (never a default, never False)."""

from __future__ import annotations

import os

import pytest

from agrad.lang import Source, run

PRE = ("import torch\nfrom torch import nn\nimport torch.nn.functional as F\nimport math\n"
       "m = nn.Linear(2, 2)\nx = torch.ones(2, requires_grad=True)\ndef f():\n    return 1\n"
       "class A:\n    pass\na = A()\n")


def test_string_names_reach_what_attribute_syntax_reaches(run_ok):
    res = run_ok(PRE + "print(getattr(nn, 'ReLU')(), getattr(F, 'relu').__name__, getattr(m, 'out_features'))\n"
                 "print(hasattr(m, 'weight'), hasattr(m, 'nope'), getattr(m, 'nope', 7), getattr(a, 'z', None))\n"
                 "setattr(m, 'act', nn.Tanh())\nprint(list(dict(m.named_children())), m.act)\n"
                 "delattr(m, 'act')\nprint(hasattr(m, 'act'))\n"
                 "setattr(a, 'v', 3)\nprint(a.v, getattr(a, 'v'))\ndelattr(a, 'v')\nprint(hasattr(a, 'v'))\n"
                 "w = m.weight\ndelattr(m, 'weight')\nsetattr(m, 'weight', w.detach() * 2)\n"
                 "print(m(torch.ones(1, 2)).shape, 'weight' in dict(m.named_parameters()))\n"
                 "setattr(x, 'grad', torch.zeros(2))\nprint(x.grad, getattr(x, 'grad_fn'))\n"
                 "print(getattr(x, '__class__').__name__, getattr(math, 'pi'))\n")
    assert res.stdout == ("ReLU() relu 2\nTrue False 7 None\n['act'] Tanh()\nFalse\n3 3\nFalse\n"
                          "torch.Size([1, 2]) False\ntensor([0., 0.]) None\nTensor 3.141592653589793\n")


@pytest.mark.parametrize("use,type_name,contains", [
    ("getattr(m)", "TypeError", "getattr expected at least 2 arguments, got 1"),
    ("getattr(m, 'a', 1, 2)", "TypeError", "getattr expected at most 3 arguments, got 4"),
    ("getattr(m, 1)", "TypeError", "attribute name must be string, not 'int'"),
    ("setattr(m, 'a')", "TypeError", "setattr expected 3 arguments, got 2"),
    ("delattr(m)", "TypeError", "delattr expected 2 arguments, got 1"),
    ("hasattr(m)", "TypeError", "hasattr expected 2 arguments, got 1"),
    ("delattr(m, 'zzz')", "AttributeError", "'Linear' object has no attribute 'zzz'"),
    ("getattr(m, 'zzz')", "AttributeError", "'Linear' object has no attribute 'zzz'"),
    ("setattr(x, 'foo', 1)", "AttributeError", "cannot set attribute 'foo' of 'Tensor'"),
])
def test_bad_calls_are_pythons_errors(use, type_name, contains):
    err = run(Source("bad.py", PRE + use + "\n"), timeout=20).error
    assert err is not None and err.type_name == type_name, (use, err and err.render())
    assert contains in err.message, err.message
    assert "Traceback" not in err.render()


ESCAPES = [
    "getattr(x, '__dict__')", "getattr(x, '__dict__', None)", "hasattr(x, '__dict__')",
    "getattr(x, '__class__').__mro__", "getattr(getattr(x, '__class__'), '__mro__')",
    "getattr(f, '__globals__')", "getattr(f, '__code__', 0)", "hasattr(f, '__globals__')",
    "getattr(print, '__self__')", "getattr(m, '__init__')",
    "getattr(torch, 'os')", "getattr(torch, 'np')", "getattr(torch, 'save')", "getattr(torch, 'load', None)",
    "getattr(torch, '_' + '_loader__')", "getattr(math, '__loader__', 1)", "getattr(nn, '__dict__')",
    "getattr(torch, 'utils').bottleneck", "getattr(x.numpy(), 'tofile')", "getattr(x.numpy(), 'ctypes', 0)",
    "getattr(x.grad_fn, '__class__', 0).__mro__", "getattr(a, '__dict__')", "getattr(A, '__subclasses__')",
    "getattr(type(x), 'mro')()", "getattr(1, '__class__').__base__", "getattr('{0.__class__.__mro__}', 'format')(1)",
    "setattr(m, '_modules', {})", "setattr(m, '__class__', int)", "setattr(a, '__class__', int)",
    "setattr(torch, 'ones', 1)", "setattr(x, '_version', 3)", "setattr(A, '__init__', f)",
    "setattr(x, '__class__', int)", "delattr(torch, 'ones')", "delattr(m, '_parameters')",
    "delattr(a, '__class__')", "delattr(x, 'data')", "delattr(F, 'relu')",
    "class S(str):\n    pass\ngetattr(x, S('__dict__'))",
    "g = getattr\ng(x, '__dict__')", "list(map(getattr, [x], ['__dict__']))",
    "getattr(getattr, '__self__')", "getattr(setattr, '__globals__', 1)", "hasattr.__closure__",
]


@pytest.mark.parametrize("use", ESCAPES)
def test_string_names_reach_nothing_more(use, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    err = run(Source("attack.py", PRE + use + "\nprint('not blocked')\n"), timeout=20).error
    assert err is not None, f"not blocked: {use!r}"
    assert "Traceback" not in err.render(), err.render()
    assert os.listdir(tmp_path) == []
