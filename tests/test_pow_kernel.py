"""pow's kernel (ops/_sleef_pow.py): Sleef's powf8_u10 / powd4_u10 where PyTorch's loop runs its vector
code, glibc's pow where it runs the scalar loop. The bits below are PyTorch 2.13's (AVX2); the digests of
tools/kernel_bits.json (sleef_pow*, op_pow*) keep the rest, tests/golden/exact.json the ops' results."""

import numpy as np
import pytest

from agrad.ops import _sleef_pow as P

# (x, y) -> PyTorch's vector code (the first 18 of a 32-float / 24-double tensor)
_PAIRS = [(0.0, -1.0), (-0.0, -3.0), (-0.0, 3.0), (-0.0, 2.5), (-np.inf, 3.0), (-np.inf, -3.0), (-np.inf, 2.0),
          (-2.0, 0.5), (-2.0, 3.0), (-1.0, np.inf), (0.5, -np.inf), (2.0, np.nan), (np.nan, 0.0), (1.0, np.nan),
          (1e-45, 0.5), (3.0, 100.0), (0.1, 1 / 3), (7.0, -1.3)]
_BITS32 = [0x7f800000, 0xff800000, 0x80000000, 0x0, 0xff800000, 0x80000000, 0x7f800000, 0x7fc00000, 0xc1000000,
           0x3f800000, 0x7f800000, 0xffffffff, 0x3f800000, 0x3f800000, 0x1a3504f3, 0x7f800000, 0x3eeda63b, 0x3da33181]
_BITS64 = [0x7ff0000000000000, 0xfff0000000000000, 0x8000000000000000, 0x0, 0xfff0000000000000, 0x8000000000000000,
           0x7ff0000000000000, 0x7ff8000000000000, 0xc020000000000000, 0x3ff0000000000000, 0x7ff0000000000000,
           0xffffffffffffffff, 0x3ff0000000000000, 0x3ff0000000000000, 0x3b431d633deb8924, 0x49d69194f299cdda,
           0x3fddb4c7760bcff3, 0x3fb466300df5b926]


@pytest.mark.parametrize("dtype,bits,fn", [(np.float32, _BITS32, P.sleef_powf), (np.float64, _BITS64, P.sleef_pow)])
def test_special_values_as_pytorchs_vector_code(dtype, bits, fn):
    x = np.array([p[0] for p in _PAIRS], dtype)
    y = np.array([p[1] for p in _PAIRS], dtype)
    with np.errstate(all="ignore"):
        got = fn(x, y).view(np.uint32 if dtype == np.float32 else np.uint64)
    assert [int(v) for v in got] == bits


def _apart(dtype, exponent):
    """x where Sleef's pow and glibc's differ (so that a lane's choice shows), and the rest."""
    x = (np.arange(1, 4001) / 37).astype(dtype)
    sleef = P.sleef_powf(x, np.float32(exponent)) if dtype == np.float32 else P.sleef_pow(x, exponent)
    glibc = P._glibc_number(x, exponent)
    return x[sleef != glibc], x[sleef == glibc]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_vector_blocks_then_scalar_tail(dtype):
    """A row of 2 blocks and a tail: Sleef's values in the blocks, std::pow(x, double)'s in the tail
    (float32: the exponent in double there, rounded to float in the vector code)."""
    apart, _ = _apart(dtype, 1 / 3)
    block = 64 // np.dtype(dtype).itemsize
    a = apart[:2 * block + 3]
    assert a.size == 2 * block + 3
    got = P.pow_number(a, 1 / 3)
    y = np.array(1 / 3, dtype)
    vec = P.sleef_powf(a, y) if dtype == np.float32 else P.sleef_pow(a, y)
    assert np.array_equal(got[:2 * block], vec[:2 * block])
    assert np.array_equal(got[2 * block:], P._glibc_number(a[2 * block:], 1 / 3))
    assert not np.array_equal(got[2 * block:], vec[2 * block:])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_tensor_exponent_lanes(dtype):
    """tensor ** tensor: a row contiguous in both runs the vector code; number ** a transposed tensor is
    written to a C-ordered result, so its loop walks the exponent with a stride: the scalar loop throughout."""
    apart, _ = _apart(dtype, 0.7)
    x = apart[:40].reshape(4, 10)
    e = np.full((4, 10), 0.7, dtype)
    got = P.pow_tensors(x, e)
    vec = P.sleef_powf(x, e) if dtype == np.float32 else P.sleef_pow(x, e)
    assert np.array_equal(got, vec)
    base = np.array(2.5, dtype)
    t = (apart[:40] / 50).astype(dtype).reshape(10, 4).T
    assert np.array_equal(P.pow_tensors(base, t, c_ordered=True), P._glibc_tensors(base, t))
    assert np.array_equal(P.pow_tensors(base, t), P.sleef_powf(base, t) if dtype == np.float32 else P.sleef_pow(base, t))


def test_small_tensors_take_glibc_only():
    """Fewer elements than a block: the scalar loop alone (glibc's pow: the cheap path, no Sleef steps)."""
    apart, _ = _apart(np.float32, 1 / 3)
    a = apart[:15]
    assert np.array_equal(P.pow_number(a, 1 / 3), P._glibc_number(a, 1 / 3))
