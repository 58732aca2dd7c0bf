"""exp2, expm1, log1p and sigmoid as PyTorch's loops run them (ops/unary.py): Sleef's vector code where
the loop runs it (exp2, float64 sigmoid: glibc's function in the scalar tail; expm1 and log1p through
vec::map, tail included), and the edges where PyTorch's Sleef differs from Sleef 3.6's source. The bits
below are PyTorch 2.13's (AVX2); tools/kernel_bits.json keeps the rest."""

import numpy as np
import pytest

from agrad.ops import _sleef, _vec_math
from agrad.ops import unary as U


def _apart(dtype, vec, lib):
    """Values where the vector code and the scalar loop's function differ (so that a lane shows)."""
    x = (np.arange(1, 8001) / 97 - 40).astype(dtype)
    if lib is np.arctanh:
        x = (np.arange(1, 80001) / 40001 - 1).astype(dtype)
    with np.errstate(all="ignore"):
        return x[vec(x) != lib(x)]


@pytest.mark.parametrize("dtype,vec", [(np.float32, _sleef.sleef_exp2f), (np.float64, _sleef.sleef_exp2)])
def test_exp2_vector_blocks_then_glibc_tail(dtype, vec):
    block = 64 // np.dtype(dtype).itemsize
    a = _apart(dtype, vec, np.exp2)[:2 * block + 3]
    got = U._exp2_kernel(a)
    assert np.array_equal(got[:2 * block], vec(a[:2 * block]))
    assert np.array_equal(got[2 * block:], np.exp2(a[2 * block:]))
    assert not np.array_equal(got[2 * block:], vec(a[2 * block:]))
    assert np.array_equal(U._exp2_kernel(a[:block - 1]), np.exp2(a[:block - 1]))  # (no block: glibc's alone)


def test_sigmoid64_vector_blocks_then_glibc_tail():
    def vec(v):
        return 1 / (1 + _sleef.sleef_exp(-v))

    def lib(v):
        return 1 / (1 + _sleef.libm("exp", -v))

    a = _apart(np.float64, vec, lib)[:19]
    got = U._sigmoid(a)
    assert np.array_equal(got[:16], vec(a[:16])) and np.array_equal(got[16:], lib(a[16:]))
    assert not np.array_equal(got[16:], vec(a[16:]))


@pytest.mark.parametrize("dtype,vec,fn,np_fn", [(np.float64, _sleef.sleef_log1p, U._log1p_kernel, np.log1p),
                                                 (np.float32, _sleef.sleef_expm1f, U._expm1_kernel, np.expm1),
                                                 (np.float64, _sleef.sleef_expm1, U._expm1_kernel, np.expm1)])
def test_mapped_kernels_take_sleef_in_the_tail_too(dtype, vec, fn, np_fn):
    """vec::map (log1p, expm1) loads the tail into a vector: Sleef's values for every element, not
    the correctly rounded ones (long double) agrad gave before."""
    x = (np.arange(1, 200001) / 6661 - 0.9).astype(dtype)
    apart = x[vec(x) != np_fn(x.astype(np.longdouble)).astype(dtype)]
    block = 64 // np.dtype(dtype).itemsize
    a = apart[:2 * block + 3]
    assert a.size == 2 * block + 3
    assert np.array_equal(fn(a), vec(a))


def test_double_exp_overflows_at_ln_dbl_max():
    """PyTorch's Sleef exp(d) is finite up to ln(DBL_MAX) (sigmoid's vector code shows it)."""
    x = np.full(16, -709.7827125)
    x[1], x[2] = -709.78271, -709.7827129
    assert [hex(v) for v in U._sigmoid(x).view(np.uint64)[:3]] == ['0x400001a664972', '0x40000c22c0804', '0x0']
    from agrad.ops import _sleef_pow

    r = _sleef_pow.sleef_pow(np.full(8, 2.0), np.full(8, 709.7827125 / np.log(2.0)))
    assert hex(int(r.view(np.uint64)[0])) == '0x7fefffff2ccdbaa6'


def test_log1pf_edges():
    """float32 log1p: d > 1e38 is logf(d), a NaN the default NaN, d < -1 the all-ones NaN."""
    y = np.full(16, 3e38, np.float32)
    y[1], y[2], y[3], y[4] = np.nan, -3, np.float32(-np.nan), 1.5e38
    got = _vec_math.sleef_log1pf(y).view(np.uint32)[:5]
    assert [hex(v) for v in got] == ['0x42b13196', '0x7fc00000', '0xffffffff', '0x7fc00000', '0x42afceb2']


@pytest.mark.parametrize("name,dtype,vec", [("sinh", np.float32, _sleef.sleef_sinhf), ("cosh", np.float32, _sleef.sleef_coshf),
                                            ("sinh", np.float64, _sleef.sleef_sinh), ("cosh", np.float64, _sleef.sleef_cosh),
                                            ("atanh", np.float32, _sleef.sleef_atanhf), ("atanh", np.float64, _sleef.sleef_atanh)])
def test_sinh_cosh_atanh_vector_blocks_then_glibc_tail(name, dtype, vec):
    import agrad

    np_fn = np.arctanh if name == "atanh" else getattr(np, name)
    block = 64 // np.dtype(dtype).itemsize
    a = _apart(dtype, vec, np_fn)[:2 * block + 3]
    got = getattr(agrad, name)(agrad.tensor(a)).numpy()
    assert np.array_equal(got[:2 * block], vec(a[:2 * block]))
    assert np.array_equal(got[2 * block:], np_fn(a[2 * block:]))
    assert not np.array_equal(got[2 * block:], vec(a[2 * block:]))


@pytest.mark.parametrize("n", [1, 3, 8, 15, 17, 100, 5000])
def test_expm1_64_nan_quieted_sign_and_payload_kept(n):
    """float64 expm1 (Sleef's expm1d4_u10, tail included) of a NaN: the NaN that went in, quieted as
    Sleef's arithmetic quiets it (sign and payload kept, a signaling NaN's quiet bit set), PyTorch
    2.13's bits; the input's own bits came out before (a signaling NaN stayed signaling: 17 of
    300,320 elements of tools/kernel_bits.py's 300K run)."""
    bits = np.array(([0x7FF15B48C26A8DAC, -0x000E8E7E02EDDC02, 0x7FF8000000000001, 0x7FF0000000000001,
                      -0x0001000000000000, 1 << 62] * n)[:n], np.int64)
    want = np.where(np.isnan(bits.view(np.float64)), bits | (1 << 51), 0x40198E64B8D4DDAE)
    for fn in (_sleef.sleef_expm1, U._expm1_kernel):
        got = fn(bits.view(np.float64)).view(np.int64)
        assert got.tolist() == want.tolist(), (fn.__name__, [hex(int(v) & (2 ** 64 - 1)) for v in got[:6]])
