"""Escape attempts through the names issue 11 added (convolution, pooling, ...): each fails
with a clear agrad error, as any other attribute outside the allow-lists does."""

from __future__ import annotations

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
