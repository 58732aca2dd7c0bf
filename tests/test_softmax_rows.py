"""softmax / log_softmax (forward and backward) of many short rows take the kernels' steps on the
transposed array (ops/softmax.py _short_rows: contiguous rows instead of numpy's slow loops over a
short last axis). Those steps must give the last-dim steps' bits exactly: values, signs of zeros,
NaNs (a row with one goes the last-dim way), strides; the inputs are left as they were."""

import zlib

import numpy as np
import pytest

from agrad.ops import softmax as SM

SHAPES = [(300, 10), (1000, 7), (256, 8), (205, 16), (100, 32), (4, 60, 10), (2048, 1), (1024, 3), (3000, 2)]


def _input(rng, shape, kind, dtype):
    n = int(np.prod(shape))
    if kind == "normal":
        x = rng.standard_normal(n) * 5
    elif kind == "specials":  # zeros of both signs, infinities, NaNs with payloads, huge and tiny values
        x = rng.standard_normal(n)
        sp = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1e308, -1e308, 1e-310, 88.7, -104.0])
        idx = rng.integers(0, n, n // 5)
        x[idx] = sp[rng.integers(0, len(sp), idx.size)]
    else:  # rows whose max is a zero of either sign
        x = -np.abs(rng.standard_normal(n))
        x[rng.integers(0, n, n // 3)] = 0.0
        x[rng.integers(0, n, n // 3)] = -0.0
    x = x.astype(dtype).reshape(shape)
    if kind == "specials" and dtype != np.float16:
        bits = x.view(np.int32 if dtype == np.float32 else np.int64)
        nan = np.isnan(x)
        bits[nan] ^= rng.integers(0, 1000, nan.sum()).astype(bits.dtype)
    return x


def _same(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape and a.strides == b.strides
    assert a.tobytes() == b.tobytes()


def _all(x, g, gT):
    d = x.ndim - 1
    with np.errstate(all="ignore"):
        y = SM._softmax_fwd(None, x, dim=d)
        ly = SM._log_softmax_fwd(None, x, dim=d)
        return [y, ly, SM._softmax_backward_fwd(None, g, y, dim=d), SM._log_softmax_backward_fwd(None, g, ly, dim=d),
                SM._softmax_backward_fwd(None, gT, y, dim=d)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("kind", ["normal", "specials", "zero_max"])
def test_short_rows_give_the_last_dim_bits(dtype, kind, monkeypatch):
    rng = np.random.default_rng(zlib.crc32(f"{np.dtype(dtype).name} {kind}".encode()))
    for shape in SHAPES:
        x = _input(rng, shape, kind, dtype)
        g = (rng.standard_normal(x.shape) * 2).astype(dtype)
        if kind == "specials":
            g.reshape(-1)[rng.integers(0, g.size, g.size // 10)] = np.nan
        gT = np.ascontiguousarray(g.T).T  # (a gradient of other strides)
        x0, g0 = x.copy(), g.copy()
        fast = _all(x, g, gT)
        _same(x, x0)
        _same(g, g0)
        with monkeypatch.context() as m:
            m.setattr(SM, "_short_rows", lambda a, dim: False)
            slow = _all(x, g, gT)
        for a, b in zip(fast, slow):
            _same(a, b)


def test_short_rows_are_taken():
    """The cases above do reach the transposed steps (not only the fallbacks)."""
    x = np.random.default_rng(0).standard_normal((1000, 10)).astype(np.float32)
    assert SM._short_rows(x, 1) and SM._short_rows_max(x, 1) is not None
    assert SM._short_rows_max(np.where(x > 0, x, 0) * 0, 1) is None  # a zero max: numpy's own
    x[3, 4] = np.nan
    assert SM._short_rows_max(x, 1) is None  # a NaN: the last-dim steps
    assert not SM._short_rows(x[:100], 1) and not SM._short_rows(x, 0)


@pytest.mark.parametrize("order", ["C", "F"])
def test_float64_exp_in_blocks_gives_the_whole_arrays_bits(order):
    """sleef_exp of an array over two blocks goes a block at a time: the same bits, the same layout."""
    from agrad.ops import _sleef

    rng = np.random.default_rng(5)
    x = np.asarray((rng.standard_normal((300, 150)) * 300).reshape(300, 150), order=order)
    flat = x.reshape(-1, order=order)  # (a view: x is laid out in that order)
    flat[::997] = np.nan
    flat[1::991] = -0.0
    assert np.isnan(x).any()
    assert x.size > 2 * _sleef._EXP_BLOCK
    blocked = _sleef.sleef_exp(x)
    with np.errstate(all="ignore"):
        whole = _sleef._exp_steps(x)
    _same(blocked, whole)
