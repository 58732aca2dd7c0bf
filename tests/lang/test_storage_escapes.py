"""The storage surface of session 31 (ops/storage.py, ops/inplace_shapes.py): data_ptr, storage_offset,
untyped_storage, set_, resize_, as_strided_ ... run in scripts and open no way out: a storage is a
read-only object whose private parts a script cannot reach, and no address a script sees is real."""

from __future__ import annotations

import re

import pytest

from agrad.lang import Source, run

PRE = "import torch\nx = torch.arange(6.).view(2, 3)\ns = x.untyped_storage()\n"

ESCAPES = [
    PRE + "s._flat",
    PRE + "s._bytes()",
    PRE + "s.__class__.__mro__",
    PRE + "type(s)._of(x)",
    PRE + "s.tolist.__self__._flat",
    PRE + "s.data_ptr.__func__.__globals__",
    PRE + "'{0._flat}'.format(s)",
    PRE + "x.set_.__globals__",
    PRE + "x.resize_.__code__",
    PRE + "x.data_ptr.__closure__",
    PRE + "torch.storage",
    PRE + "y = x * 1\ny.requires_grad_()\nz = x.clone().requires_grad_() * 1\nz.set_(x)\nz.grad_fn._op",
    PRE + "x.squeeze_().grad_fn.__class__.__mro__",
    PRE + "y = torch.ones(2, 1, requires_grad=True) * 1\ny.t_().grad_fn.__dict__",
    PRE + "x.map2_(x, x, lambda a, b, c: a.__class__.__subclasses__())",
    PRE + "v = torch.ones(2, requires_grad=True)\nv.register_post_accumulate_grad_hook.__func__",
    PRE + "v = torch.ones(2, requires_grad=True)\nh = v.register_post_accumulate_grad_hook(print)\nh._hooks",
    PRE + "v = torch.ones(6, requires_grad=True)\ntorch.as_strided_scatter(v, v[:2], (2,), (1,)).grad_fn._op",
    PRE + "x.nonzero_static(size=2).__array_interface__",
]


@pytest.mark.parametrize("text", ESCAPES)
def test_storage_surface_opens_no_escape(text, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = run(Source("attack.py", text), timeout=10)
    assert res.error is not None, f"not blocked: {text!r}"
    assert res.error.type_name == "AttributeError", res.error.render()
    assert "Traceback" not in res.error.render()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("text", [
    PRE + "type(s)()",
    PRE + "x.set_(s, 0, (10 ** 9,), (0,))",
    PRE + "x.as_strided_((10 ** 9,), (0,))",
    PRE + "torch.zeros(1).resize_(10 ** 10)",
])
def test_storage_surface_refuses_what_it_cannot_do(text):
    res = run(Source("big.py", text), timeout=10)
    assert res.error is not None and res.error.type_name in ("NotImplementedError", "LimitError"), text
    assert "Traceback" not in res.error.render()


def test_storage_surface_runs_in_scripts():
    text = PRE + (
        "v = x[1:]\nprint(v.storage_offset(), v.data_ptr() - x.data_ptr(), s.nbytes(), len(s), s[6], s.tolist()[4:8])\n"
        "print(x.data_ptr() == x.view(6).data_ptr(), x.data_ptr() == x.clone().data_ptr(), s.data_ptr() == x.data_ptr())\n"
        "y = torch.zeros(1)\ny.set_(x)\nx.add_(1)\nprint(y.is_set_to(x), y.tolist(), y._version, x.dim_order())\n"
        "z = torch.ones(2, 1, 3)\nz.squeeze_()\nz.unsqueeze_(0)\nprint(z.shape, z.t_() if z.ndim <= 2 else z.ndim)\n"
        "w = torch.arange(4.)\nw.resize_(2, 2)\nprint(w.tolist(), torch.ones(2).logical_not_(), x.name, x.is_shared())\n"
        "try:\n    x.bfloat16()\nexcept NotImplementedError as e:\n    print(e)\n")
    text += ("v = torch.zeros(2, requires_grad=True)\nseen = []\nv.register_post_accumulate_grad_hook(lambda p: "
             "seen.append(p.grad.tolist()))\n(v * 3).sum().backward()\n"
             "print(seen, torch.as_strided_scatter(torch.zeros(4), torch.ones(2), (2,), (2,)).tolist(), "
             "x.nonzero_static(size=1).tolist())\n")
    res = run(Source("ok.py", text), timeout=10)
    assert res.error is None, res.error.render()
    assert res.stdout.splitlines() == [
        "3 12 24 24 128 [0, 0, 128, 63]",
        "True False True",
        "True [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]] 1 (0, 1)",
        "torch.Size([1, 2, 3]) 3",
        "[[0.0, 1.0], [2.0, 3.0]] tensor([0., 0.]) None False",
        "agrad has no bfloat16 dtype: Tensor.bfloat16() is not supported (float16, float32 and float64 are; "
        "docs/semantics.md)",
        "[[3.0, 3.0]] [1.0, 0.0, 1.0, 0.0] [[0, 0]]",
    ]
    assert not re.search(r"0x[0-9a-f]{6,}", res.stdout)
