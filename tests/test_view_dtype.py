"""Tensor.view(dtype) (agrad/ops/_view_dtype.py) against a live PyTorch: random inputs (every dtype, sliced,
transposed, unsqueezed, expanded, stepped), random target dtypes, positional or ``dtype=``: the result's
values, repr, sizes, strides, storage offset and pointer, its autograd state, ATen's errors, and writes
through the view seen by its base (values from torch.tensor only: no uninitialised memory)."""

from __future__ import annotations

import random

import pytest

import agrad

NAMES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]
VALUES = [0.0, -0.0, 1.5, -2.25, 3.0, 1e-3, 65504.0, float("inf"), float("nan"), 0.1, 7.0]


def _trace(mod, seed, n):
    rng = random.Random(seed)
    out = []

    def make(dt, shape):
        numel = 1
        for s in shape:
            numel *= s
        if dt is mod.bool:
            return (mod.arange(numel) % 3 == 0).reshape(shape)
        if dt.is_floating_point:
            return mod.tensor([rng.choice(VALUES) for _ in range(numel)], dtype=dt).reshape(shape)
        lo, hi = (0, 255) if dt is mod.uint8 else (-128, 127)
        return mod.tensor([rng.randint(lo, hi) for _ in range(numel)], dtype=dt).reshape(shape)

    def show(tag, f):
        try:
            r = f()
            if isinstance(r, mod.Tensor):
                r = (repr(r), tuple(r.shape), r.stride(), r.storage_offset(), r.requires_grad, r.grad_fn, r._version)
            out.append((tag, r))
        except Exception as e:  # noqa: BLE001 - compared like a value
            out.append((tag, type(e).__name__, str(e)))

    for _ in range(n):
        dt = getattr(mod, rng.choice(NAMES))
        shape = [rng.choice([1, 2, 3, 4, 6, 8]) for _ in range(rng.randint(0, 3))]
        base = x = make(dt, shape)
        for _ in range(rng.randint(0, 2)):
            k = rng.choice(["t", "slice", "slicelast", "none", "expand", "step"])
            if k == "t" and x.ndim >= 2:
                x = x.transpose(0, x.ndim - 1)
            elif k == "slice" and x.ndim and x.shape[0] > 1:
                x = x[1:]
            elif k == "slicelast" and x.ndim and x.shape[-1] > 1:
                x = x[..., rng.randint(1, x.shape[-1] - 1):]
            elif k == "none":
                x = x.unsqueeze(rng.randint(0, x.ndim))
            elif k == "expand" and x.ndim and 1 in x.shape:
                x = x.expand(*[3 if s == 1 else s for s in x.shape])
            elif k == "step" and x.ndim and x.shape[-1] > 2:
                x = x[..., ::2]
        if dt.is_floating_point and rng.random() < 0.3:
            base = x = x.clone().requires_grad_()
        to = getattr(mod, rng.choice(NAMES))
        keyword = rng.random() < 0.3
        show("view", lambda: x.view(dtype=to) if keyword else x.view(to))
        try:
            v = x.view(to)
        except RuntimeError:
            continue
        show("ptr", lambda: v.data_ptr() - x.data_ptr())
        show("storage", lambda: list(v.untyped_storage()) == list(x.untyped_storage()))
        if not x.requires_grad and v.numel() and 0 not in v.stride():
            with mod.no_grad():
                src = make(to, list(v.shape))
                show("copy_", lambda: v.copy_(src))
            show("base", lambda: base)
            show("version", lambda: (base._version, x._version, v._version))
    return out


@pytest.mark.torch
@pytest.mark.parametrize("seed", range(3))
def test_view_dtype_live(seed):
    torch = pytest.importorskip("torch")
    expected = _trace(torch, seed, 150)
    got = _trace(agrad, seed, 150)
    assert [str(e) for e in got] == [str(e) for e in expected]


def test_view_dtype_is_no_autograd_view():
    x = agrad.tensor([1.5, -2.0], requires_grad=True)
    v = x.view(agrad.int32)
    assert v._base is None and v.grad_fn is None and not v.requires_grad and v.is_leaf
    v.add_(1)
    assert x._version == v._version == 1
    assert x.view(agrad.float32)._base is None and not x.view(agrad.float32).requires_grad
