"""Backward formulas that write their product over a fresh array of their own (sin's g * cos(self),
cos's g * -sin(self)): the same bits and layout as the plain product, one large array fewer at once
(issue 12's 4M-element chain: peak memory within numpy's)."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import agrad
from agrad.ops import unary

N = unary.FRESH_MIN * 2


def _values(dtype, shape):
    rng = np.random.RandomState(7)
    v = (rng.randn(*shape) * 10.0 ** rng.randint(-3, 4, shape)).astype(dtype)
    flat = v.reshape(-1)
    flat[:6] = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e30]
    return v


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("layout", ["C", "F", "broadcast", "small"])
@pytest.mark.parametrize("name", ["sin", "cos"])
def test_fresh_product_gives_the_plain_products_bits_and_layout(dtype, layout, name):
    shape = (N // 256, 256) if layout != "small" else (3, 5)
    x0 = _values(dtype, shape)
    g0 = _values(dtype, shape)[::-1].copy()
    if layout == "F":
        x0, g0 = np.asfortranarray(x0), np.asfortranarray(g0)
    if layout == "broadcast":
        g0 = np.broadcast_to(g0[:1], shape)
    x = agrad.from_numpy(x0.copy(order="K")).requires_grad_()
    y = getattr(agrad, name)(x)
    y.backward(agrad.from_numpy(np.array(g0)) if layout != "broadcast" else agrad.from_numpy(g0[:1].copy()).expand(*shape))
    with np.errstate(all="ignore"):
        other = unary._cos(x0) if name == "sin" else np.negative(unary._sin(x0))
        want = np.multiply(g0, other)
    got = x.grad.numpy()
    assert got.dtype == want.dtype and got.shape == want.shape and got.strides == want.strides
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("name", ["sin", "cos"])
def test_fresh_product_holds_one_array_at_once(name):
    """The backward of sin (cos) of a large array, given a gradient array: one new array of its size
    at most (the product over cos's), where the plain product would hold two."""
    x = agrad.from_numpy(_values(np.float32, (N,))).requires_grad_()
    y = getattr(agrad, name)(x)
    g = agrad.from_numpy(_values(np.float32, (N,)))
    size = N * 4
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        y.backward(g)
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    assert size <= peak < 1.5 * size
