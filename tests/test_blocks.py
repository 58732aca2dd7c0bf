"""Large arrays a block at a time: float32 maths through double (ops/_vec_math.via_double): a large contiguous array is cast a
block at a time into its float32 result, never as a whole float64 temporary (issue 12's memory
target: a 20-op chain on 4M floats within numpy's peak), with the bits of the whole-array path."""
import tracemalloc

import numpy as np
import pytest

import agrad as torch
from agrad.ops import _vec_math


_SIZES = [_vec_math._IN_BLOCKS - 1, _vec_math._IN_BLOCKS, 100_003]
# (float32 expm1 of up to 32,768 elements is Sleef's, as PyTorch's: tests/test_sleef_lanes.py)
_CASES = [(name, n) for name in ("sin", "cos", "exp", "log", "tanh", "expm1") for n in _SIZES
          if not (name == "expm1" and n <= 32_768)]


@pytest.mark.parametrize("name,n", _CASES)
def test_blocks_give_the_whole_array_bits(name, n):
    a = (np.random.default_rng(n).standard_normal(n) * 30).astype(np.float32)
    a[:4] = [np.inf, -np.inf, np.nan, -0.0]
    got = getattr(torch, name)(torch.from_numpy(a)).numpy()
    with np.errstate(all="ignore"):
        want = getattr(np, name)(a, dtype=np.float64).astype(np.float32)
    assert np.array_equal(got.view(np.int32), want.view(np.int32))


def test_non_contiguous_input_keeps_its_layout():
    a = np.random.default_rng(1).standard_normal((300, 200)).astype(np.float32)
    r = torch.sin(torch.from_numpy(a).t())
    assert r.stride() == (1, 200)
    assert np.array_equal(r.numpy(), np.sin(a.T, dtype=np.float64).astype(np.float32))


def test_no_float64_temporary():
    x = torch.from_numpy(np.ones(1_000_000, np.float32))
    torch.exp(x)  # (first call: whatever the op's set-up allocates once)
    tracemalloc.start()
    try:
        r = torch.exp(x)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert r.dtype == torch.float32
    assert peak < 1.25 * 4_000_000  # the float32 result (4 MB) and no 8 MB float64 array


def test_float64_fma_in_blocks_gives_the_whole_array_bits():
    # tanh's backward (1 - y*y fused) on a large C-ordered float64 array runs a block at a time
    y = np.tanh(np.random.default_rng(3).standard_normal(3 * _vec_math._IN_BLOCKS + 8) * 2)
    y[:6] = [np.inf, -np.inf, np.nan, 0.0, -0.0, 1.0]
    whole = _vec_math._fma64(-y, y, np.asarray(1.0))
    got = _vec_math.fma(-y, y, 1.0)
    assert np.array_equal(got.view(np.int64), whole.view(np.int64))
    t = _vec_math.fma(-y.reshape(5, -1).T, y.reshape(5, -1).T, 1.0)  # (not C-ordered: whole-array steps)
    assert np.array_equal(t, whole.reshape(5, -1).T, equal_nan=True)
