"""Tensor.view(dtype) and torch.view_copy(x, dtype) in scripts (agrad/ops/_view_dtype.py): they run, and
a script reaches neither the numpy buffer they read nor any memory past the tensor's storage."""

from __future__ import annotations

import pytest

from agrad.lang import Source, run

PRE = "import torch\nx = torch.arange(6.).view(2, 3)\nv = x.view(torch.int16)\n"

ESCAPES = [
    PRE + "v._data",
    PRE + "v._values()",
    PRE + "v._vc",
    PRE + "x.view.__func__",
    PRE + "x.view.__wrapped__",
    PRE + "v.view.__globals__",
    PRE + "torch.view_copy.__wrapped__",
    PRE + "torch.view_copy(x, torch.int32).__array_interface__",
    PRE + "v.numpy().base",
    PRE + "v.numpy().view",
    PRE + "x.view(dtype=torch.uint8).untyped_storage()._flat",
    PRE + "'{0._data}'.format(v)",
]


@pytest.mark.parametrize("text", ESCAPES)
def test_view_dtype_opens_no_escape(text, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = run(Source("attack.py", text), timeout=10)
    assert res.error is not None, f"not blocked: {text!r}"
    assert res.error.type_name == "AttributeError", res.error.render()
    assert "Traceback" not in res.error.render()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("text", [
    PRE + "x[:, 1:].view(torch.float64)",  # (the size / offset / stride checks: never a read past the storage)
    PRE + "x.view(-1)[5:].view(torch.float64)",
    PRE + "x.t().view(torch.float64)",
    PRE + "torch.ones(1).expand(4).view(torch.float64)",
    PRE + "torch.tensor(1.).view(torch.uint8)",
])
def test_view_dtype_refuses_past_the_storage(text):
    res = run(Source("past.py", text), timeout=10)
    assert res.error is not None and res.error.type_name == "RuntimeError", text
    assert "to view Float as" in res.error.message
    assert "Traceback" not in res.error.render()


def test_view_dtype_runs_in_scripts(run_ok):
    res = run_ok(PRE + "print(v.shape, v.stride(), v.dtype)\nprint(x.view(-1)[:4].view(dtype=torch.float64).shape)\n"
                 "w = x[1:].view(torch.uint8)\nw[0, 0] = 1\nprint(x[1, 0].view(torch.int32).item(), w.storage_offset())\n"
                 "print(torch.view_copy(x.t(), torch.int32).stride())\n"
                 "print(x.view(torch.int32).grad_fn is None, x.view(torch.int32).requires_grad)\n")
    assert res.stdout.splitlines() == ["torch.Size([2, 6]) (6, 1) torch.int16", "torch.Size([2])",
                                       "1077936129 12", "(2, 1)", "True False"]
