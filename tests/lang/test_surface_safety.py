"""Escape attempts through the names issue 11 added (convolution, pooling, ...): each fails
with a clear agrad error, as any other attribute outside the allow-lists does."""

from __future__ import annotations

import re

import pytest

from agrad.lang import Source, run

PRE = ("import torch\nimport torch.nn.functional as F\n"
       "x = torch.ones(1, 1, 4, 4, requires_grad=True)\nw = torch.ones(1, 1, 2, 2)\n")

ESCAPES = [
    PRE + "F.conv2d.__globals__",
    PRE + "F.conv_transpose2d.__code__",
    PRE + "F.unfold.__wrapped__.__globals__",
    PRE + "y = F.max_pool2d(x, 2)\ny.grad_fn._op",
    PRE + "y = F.max_pool2d(x, 2)\ny.grad_fn.indices.ctypes",
    PRE + "y = F.max_pool2d(x, 2)\ny.grad_fn.indices.tofile('p.bin')",
    PRE + "y = F.conv2d(x, w)\ny.grad_fn.__class__.__mro__",
    PRE + "y = F.adaptive_avg_pool2d(x, 3)\ny.grad_fn.mats[0].dump('p.bin')",
    PRE + "y = F.avg_pool2d(x, 2)\n'{0.grad_fn._formula}'.format(y)",
    PRE + "y = F.fold(F.unfold(x, 2), (4, 4), 2)\nf'{y.grad_fn.__dict__}'",
]


@pytest.mark.parametrize("text", ESCAPES)
def test_new_ops_do_not_open_an_escape(text, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = run(Source("attack.py", text), timeout=10)
    assert res.error is not None, f"not blocked: {text!r}"
    assert res.error.type_name == "AttributeError", res.error.render()
    assert "Traceback" not in res.error.render()
    assert list(tmp_path.iterdir()) == []


def test_new_ops_run_in_scripts():
    text = PRE + ("y = F.conv2d(x, w, padding='same')\nz = F.max_pool2d(y, 2).sum()\nz.backward()\n"
                  "print(y.grad_fn, x.grad.sum().item())")
    res = run(Source("ok.py", text), timeout=10)
    assert res.error is None, res.error.render()
    assert res.stdout.startswith("<ConvolutionBackward0 object at 0x")
    assert res.stdout.rstrip().endswith(" 16.0")


STDLIB_ESCAPES = [
    ("import operator\nimport torch\noperator.attrgetter('__class__')(torch.ones(1))", "AttributeError"),
    ("import operator\noperator.methodcaller('__reduce__')", "AttributeError"),
    ("import copy\ncopy.deepcopy.__globals__", "AttributeError"),
    ("import time\ntime.sleep.__closure__", "AttributeError"),
    ("import time\ntime.strftime('%Y')", "AttributeError"),
    ("import random\nrandom.Random", "AttributeError"),
    ("import random\nrandom.seed.__self__", "AttributeError"),
    ("import gc\ngc.get_objects()", "AttributeError"),
    ("import gc\ngc.collect.__code__", "AttributeError"),
    ("import itertools\nitertools.chain.__subclasses__()", "AttributeError"),
    ("from collections import namedtuple\nP = namedtuple('P', ['x'])\nP(1)._asdict()", "AttributeError"),
    ("from collections import namedtuple\nP = namedtuple('P', ['x'])\nP._make", "AttributeError"),
    ("from collections import deque\ndeque([1]).__class__.__mro__", "AttributeError"),
    ("import typing\ntyping.get_type_hints", "AttributeError"),
    ("import typing\ntyping.List.__origin__", "AttributeError"),
    ("import functools\nfunctools.partial(open, 'x')", "NameError"),
    ("import functools\nfunctools.partial.__call__", "AttributeError"),
    ("from collections import defaultdict\ndefaultdict(type)['a']", "TypeError"),
    ("import os", "ImportError"),
    ("import dataclasses\ndataclasses.make_dataclass", "AttributeError"),
    ("import functools\n@functools.lru_cache(maxsize=None)\ndef f(x):\n    return x\nf.__wrapped__", "AttributeError"),
    ("from time import sleep as s, system", "ImportError"),
    ("import random\nrandom.choices([1], k=10**9)", "LimitError"),
    ("import itertools\nlist(itertools.repeat(1, 10**9))", "LimitError"),
    ("from collections import deque\nd = deque()\nd.extend(range(10**9))", "LimitError"),
    # operator's functions are the script's operators, with the same size checks
    ("import operator\noperator.mul([0], 10**10)", "LimitError"),
    ("import operator\noperator.mul(10**10, 'x')", "LimitError"),
    ("import operator\noperator.concat([0] * 10**6, [0] * 10**6)", "LimitError"),
    ("import operator\noperator.lshift(1, 10**9)", "LimitError"),
    ("import operator\noperator.pow(3, 10**9)", "LimitError"),
    ("import operator, functools\nfunctools.reduce(operator.mul, [[0], 10**5, 10**5])", "LimitError"),
]


def test_operator_functions_still_compute():
    text = ("import operator, functools\nprint(operator.add(2, 3), operator.mul([1], 3), "
            "operator.concat([1], [2]), operator.pow(2, 10), functools.reduce(operator.mul, [1, 2, 3, 4]))")
    res = run(Source("ok.py", text), timeout=10)
    assert res.error is None, res.error.render()
    assert res.stdout == "5 [1, 1, 1] [1, 2] 1024 24\n"


@pytest.mark.parametrize("text,type_name", STDLIB_ESCAPES)
def test_standard_modules_do_not_open_an_escape(text, type_name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = run(Source("attack.py", text), timeout=20, max_elements=10**6)
    assert res.error is not None, f"not blocked: {text!r}"
    assert res.error.type_name == type_name, res.error.render()
    assert "Traceback" not in res.error.render()
    assert list(tmp_path.iterdir()) == []


def test_a_missing_standard_name_lists_what_is_allowed():
    res = run(Source("x.py", "import time\ntime.strftime"), timeout=10)
    assert "allowed: monotonic, monotonic_ns, perf_counter" in res.error.message


def test_numpy_ufunc_out_writes_the_script_array():
    """PyTorch's tensor tutorial: ``np.add(n, 1, out=n)`` changes ``n`` and the tensor sharing it."""
    from agrad.lang import Source, run

    res = run(Source("t.py", "import torch\nimport numpy as np\nn = np.ones(3)\nt = torch.from_numpy(n)\n"
                             "r = np.add(n, 1, out=n)\nnp.multiply(n, 2, out=(n,))\nprint(t, n, r is n)"), timeout=30)
    assert res.error is None, res.error.render()
    assert res.stdout == "tensor([4., 4., 4.], dtype=torch.float64) [4. 4. 4.] True\n"


@pytest.mark.parametrize("code", [
    "np.add(n, 1, out=torch.ones(3))", "np.add(n, 1, out=[0, 0, 0])", "np.add(n, 1, out=(n, n))",
    "np.add(n, 1, out=n._a)", "np.add(n, 1, out=np.ones(2))", "np.exp(n, out=n.T.T.__array__())",
])
def test_numpy_ufunc_out_takes_only_script_arrays(code):
    from agrad.lang import Source, run

    res = run(Source("t.py", "import torch\nimport numpy as np\nn = np.ones(3)\n" + code), timeout=30)
    assert res.error is not None, res.stdout
    assert "Traceback" not in res.error.render()


# the tensor attributes and aliases of session 28 (ops/aliases.py, nanmean): reachable, and no further
ATTR_PRE = "import torch\nx = torch.tensor([[1.5, -2.0], [3.0, 0.5]], requires_grad=True)\n"
ATTR_ESCAPES = [
    ATTR_PRE + "x.real.__class__.__mro__",
    ATTR_PRE + "x.layout.__reduce_ex__(2)",
    ATTR_PRE + "x.is_signed.__func__.__globals__",
    ATTR_PRE + "x.swapaxes.__wrapped__",
    ATTR_PRE + "torch.positive.__code__",
    ATTR_PRE + "torch.nanmean.__globals__['np']",
    ATTR_PRE + "x.broadcast_to(2, 2, 2).grad_fn._op",
    ATTR_PRE + "x.nanmean().grad_fn._saved_other.__array_interface__",
    ATTR_PRE + "'{0.nbytes.__class__.__subclasses__}'.format(x)",
    ATTR_PRE + "x.divide(2).grad_fn.__dict__",
    ATTR_PRE + "x.detach().apply_(lambda v: v.__class__.__subclasses__())",
    ATTR_PRE + "x.detach().map_(x.detach(), lambda a, b: b.__class__.__mro__)",
    ATTR_PRE + "x.apply_.__self__",
    ATTR_PRE + "x.new(x)._base.__array_interface__",
    ATTR_PRE + "x.new(2, 2)._data.ctypes",
    ATTR_PRE + "torch.diff.__closure__",
    ATTR_PRE + "x.diff().grad_fn.next_functions[0][0].__reduce__()",
    ATTR_PRE + "torch.bincount(torch.tensor([1, 2]), x[0]).grad_fn._op",
    ATTR_PRE + "x.unfold(1, 2, 1)._base._data",
    ATTR_PRE + "x.unfold(1, 2, 1).grad_fn.__class__.__mro__",
    ATTR_PRE + "y = x * 1\ny.fill_diagonal_(2)\ny.grad_fn._inner",
]


@pytest.mark.parametrize("text", ATTR_ESCAPES)
def test_new_attributes_do_not_open_an_escape(text, tmp_path, monkeypatch):
    test_new_ops_do_not_open_an_escape(text, tmp_path, monkeypatch)


def test_new_attributes_run_in_scripts():
    text = ATTR_PRE + ("print(x.real is x, x.nbytes, x.itemsize, x.layout, x.is_cpu, x.is_signed(), x[0, 0].is_nonzero())\n"
                       "print(x.swapaxes(0, 1).grad_fn, x.broadcast_to(3, 2, 2).shape, x.divide(2).grad_fn)\n"
                       "m = x.nanmean(1)\nm.sum().backward()\nprint(m.grad_fn, x.grad.tolist())\n"
                       "try:\n    x.imag\nexcept RuntimeError as e:\n    print(e)\n"
                       "seen = []\nd = x.detach().clone().apply_(lambda v: seen.append(v) or v * 2)\n"
                       "print(d.tolist(), seen, d.map_(x.detach()[0], lambda a, b: a - b).tolist(), x.new(2, 3).shape)\n")
    res = run(Source("ok.py", text), timeout=10)
    assert res.error is None, res.error.render()
    assert re.sub(r" at 0x[0-9a-f]+", "", res.stdout).splitlines() == [
        "True 16 4 torch.strided True True True",
        "<TransposeBackward0 object> torch.Size([3, 2, 2]) <DivBackward0 object>",
        "<DivBackward0 object> [[0.5, 0.5], [0.5, 0.5]]",
        "imag is not implemented for tensors with non-complex dtypes.",
        "[[3.0, -4.0], [6.0, 1.0]] [1.5, -2.0, 3.0, 0.5] [[1.5, -2.0], [4.5, 3.0]] torch.Size([2, 3])",
    ]
