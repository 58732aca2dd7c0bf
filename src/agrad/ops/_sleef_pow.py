"""Sleef's pow as PyTorch's AVX2 vector code runs it (``Vectorized<float>::pow``: ``powf8_u10``,
``Vectorized<double>::pow``: ``powd4_u10``), bit for bit.

- ``sleef_powf``: log|x| as a float pair (logkf: |x| = 2**e m with m near 1, z = (m - 1) /
  (m + 1) in float pairs, ln 2 * e + 2z + z**3 (2/3 + z**2 p(z**2)) with p of degree 2),
  times y in float pairs, exp of that pair (expkf: a Cody-Waite reduction by ln 2 in float
  pairs, a degree-4 polynomial, 1 + s + s**2 p(s), scaled by Sleef's four-multiply ldexp); then
  the signs and special values as Sleef selects them (a NaN operand gives the all-ones NaN).
- ``sleef_pow``: the same steps in double-doubles (logk with a degree-8 polynomial in Estrin's
  scheme and the 2/3 term as a double-double; expk with a degree-9 one), inf beyond
  709.78...

Every multiply-add Sleef writes is a fused one (_vec_math._fma32, _sleef's float64 helpers),
the rest plain IEEE arithmetic in the operands' type. tools/kernel_bits.py keeps the bits.
"""

from __future__ import annotations

import math

import numpy as np

from . import _sleef as S
from ._vec_math import GRAIN_SIZE, _count, _fma32, c32, cvt_i32
from ._vector_loop import by_lanes, loop_lanes, unary_lanes

_F32, _F64, _I32, _I64 = np.float32, np.float64, np.int32, np.int64

# --- float32 ----------------------------------------------------------------------------------

_LN2_DF = (c32(0.69314718246459960938), c32(-1.904654323148236017e-09))
_LOGKF_POLY = tuple(c32(v) for v in (0.240320354700088500976562, 0.285112679004669189453125,
                                     0.400007992982864379882812))
_LOGKF_C = (c32(0.66666662693023681640625), c32(3.69183861259614332084311e-09))
_EXPKF_POLY = tuple(c32(v) for v in (0.00136324646882712841033936, 0.00836596917361021041870117,
                                     0.0416710823774337768554688, 0.166665524244308471679688,
                                     0.499999850988388061523438))
_R_LN2F, _M_L2UF, _M_L2LF = c32(S._R_LN2), c32(-0.693145751953125), c32(-1.428606765330187045e-06)
_FLT_MIN = c32(1.17549435e-38)
_TWO64F = c32(2.0 ** 64)
_FOUR_THIRDS = c32(1.0 / 0.75)
_ONE = c32(1.0)
_I32_ = {v: np.array(v, _I32) for v in (1, 4, 6, 23, 31, 0x7f, 0xff, 64)}
_ALL_ONES32 = np.array(-1, _I32).view(_F32)
_TWO24F = c32(float(1 << 24))


def _df_mul_dd_d(f, x, y):  # dfmul_vf2_vf2_vf (f: the fused multiply-add)
    s = x[0] * y
    return s, f(x[1], y, f(x[0], y, -s))


def _df_mul_dd_dd(f, x, y):  # dfmul_vf2_vf2_vf2
    s = x[0] * y[0]
    return s, f(x[0], y[1], f(x[1], y[0], f(x[0], y[0], -s)))


def _df_squ(f, x):  # dfsqu_vf2_vf2
    s = x[0] * x[0]
    return s, f(x[0] + x[0], x[1], f(x[0], x[0], -s))


def _df_div(f, n, d):  # dfdiv_vf2_vf2_vf2
    t = _ONE / d[0]
    s = n[0] * t
    u = f(t, n[0], -s)
    v = f(-d[1], t, f(-d[0], t, _ONE))
    return s, f(s, v, f(n[1], t, u))


def _logkf(f, d):
    """Sleef's logkf of the float32 array d >= 0: log d as a float pair."""
    i = _I32_
    tiny = d < _FLT_MIN
    if _count(tiny):
        d = np.where(tiny, d * _TWO64F, d)
    e = (((d * _FOUR_THIRDS).view(_I32) >> i[23]) & i[0xff]) - i[0x7f]
    m = (d.view(_I32) + (-e << i[23])).view(_F32)
    e = np.where(tiny, e - i[64], e).astype(_F32)
    x = _df_div(f, S._dd_add2_d_d(c32(-1.0), m), S._dd_add2_d_d(_ONE, m))
    x2 = _df_squ(f, x)
    t = f(f(_LOGKF_POLY[0], x2[0], _LOGKF_POLY[1]), x2[0], _LOGKF_POLY[2])
    s = _df_mul_dd_d(f, _LN2_DF, e)
    s = S._dd_add_dd_dd(s, (x[0] * c32(2.0), x[1] * c32(2.0)))
    return S._dd_add_dd_dd(s, _df_mul_dd_dd(f, _df_mul_dd_dd(f, x2, x), S._dd_add2_dd_dd(_df_mul_dd_d(f, x2, t), _LOGKF_C)))


def _ldexpf(x, q):
    """Sleef's vldexp_vf_vf_vi2: x * 2**q by four multiplies by 2**m and one by 2**(q - 4m), m
    clamped to the exponent range (int32 arithmetic, wrapping as the vector's)."""
    i = _I32_
    m = q >> i[31]
    m = (((m + q) >> i[6]) - m) << i[4]
    q = q - (m << np.array(2, _I32))
    m = m + i[0x7f]
    m = np.where(m > 0, m, 0).astype(_I32)
    m = np.where(m > i[0xff], i[0xff], m).astype(_I32)
    u = (m << i[23]).view(_F32)
    x = x * u * u * u * u
    return x * ((q + i[0x7f]) << i[23]).view(_F32)


def _expkf(f, d):
    """Sleef's expkf: exp of the float pair d, as a float32 array (0 where d < -104)."""
    q = cvt_i32(np.rint((d[0] + d[1]) * _R_LN2F))
    qf = q.astype(_F32)
    s = S._dd_add2_dd_d(d, qf * _M_L2UF)
    s = S._dd_add2_dd_d(s, qf * _M_L2LF)
    s = S._dd_add_d_d(s[0], s[1])  # (dfnormalize)
    u = _EXPKF_POLY[0]
    for c in _EXPKF_POLY[1:]:
        u = f(u, s[0], c)
    t = S._dd_add_dd_dd(s, _df_mul_dd_d(f, _df_squ(f, s), u))
    t = S._dd_add_d_dd(_ONE, t)
    u = _ldexpf(t[0] + t[1], q)
    return np.where(d[0] < c32(-104.0), c32(0.0), u)


def _special(x, y, result, yisint, yisodd, nan_all_ones, one, zero, inf):
    """xpow's and xpowf's selections after exp(y log|x|): the sign of a negative x's result, y
    infinite, x infinite or zero, a NaN operand, y == 0 or x == 1."""
    result = np.where(x > zero, result, np.where(yisint, np.where(yisodd, -result, result), np.nan))
    if not np.all(np.isfinite(x) & np.isfinite(y) & (x != zero)):
        efx = np.abs(x) - one
        efx = np.where(np.signbit(y), -efx, efx)
        result = np.where(np.isinf(y), np.where(efx < zero, zero, np.where(efx == zero, one, inf)), result)
        big = np.where(np.signbit(y) ^ (x == zero), zero, inf)
        big = np.where(np.signbit(np.where(yisodd, x, one)), -big, big)
        result = np.where(np.isinf(x) | (x == zero), big, result)
        result = np.where(np.isnan(x) | np.isnan(y), nan_all_ones, result)
    return np.where((y == zero) | (x == one), one, result)


def sleef_powf(x, y):
    """Vectorized<float>::pow (AVX2): Sleef's powf8_u10 of float32 arrays (broadcast), bit for bit."""
    x, y = np.broadcast_arrays(np.asarray(x, _F32), np.asarray(y, _F32))
    with np.errstate(all="ignore"):
        ay = np.abs(y)
        yisint = (np.trunc(y) == y) | (ay > _TWO24F)
        small = ay < _TWO24F
        yisodd = ((np.where(small, y, c32(0.0)).astype(_I32) & _I32_[1]) == _I32_[1]) & yisint & small
        f = _fma32
        result = _expkf(f, _df_mul_dd_d(f, _logkf(f, np.abs(x)), y))
        result = np.where(np.isnan(result), c32(np.inf), result)
        r = _special(x, y, result, yisint, yisodd, _ALL_ONES32, _ONE, c32(0.0), c32(np.inf))
    return np.asarray(r, _F32).reshape(x.shape)


# --- float64 ----------------------------------------------------------------------------------

_LOGK_POLY = (0.116255524079935043668677, 0.103239680901072952701192, 0.117754809412463995466069,
              0.13332981086846273921509, 0.153846227114512262845736, 0.181818180850050775676507,
              0.222222222230083560345903, 0.285714285714249172087875, 0.400000000000000077715612)
_LOGK_K = S._Estrin(_LOGK_POLY, (1, 5, 3, 7))
_LOGK_C8 = S._k(_LOGK_POLY[0])
_LOGK_C = (0.666666666666666629659233, 3.80554962542412056336616e-17)
_EXPK_POLY = (2.51069683420950419527139e-08, 2.76286166770270649116855e-07, 2.75572496725023574143864e-06,
              2.48014973989819794114153e-05, 0.000198412698809069797676111, 0.0013888888939977128960529,
              0.00833333333332371417601081, 0.0416666666665409524128449, 0.166666666666666740681535,
              0.500000000000000999200722)
_EXPK_K = S._estrin10(_EXPK_POLY)
_ALL_ONES64 = np.array(-1, _I64).view(_F64)
_DBL_MIN = 2.2250738585072014e-308


def _poly9(x, x2, x4, x8):
    """Sleef's POLY9 of logk: fma(x8, c8, fma(x4, F(F(c7, c6), F(c5, c4)), F(F(c3, c2), F(c1, c0))))
    with F(a, b) = fma(x, a, b) (the second level's in x2), each level one call over rows."""
    shape = x.shape
    x, x2, x4, x8 = (np.reshape(v, -1) for v in (x, x2, x4, x8))
    f = S._first_level(x, _LOGK_K)  # rows F(c7, c6), F(c3, c2), F(c5, c4), F(c1, c0)
    g = S._fma64(x2, f[0:2], f[2:4])
    return S._fmak(x8, _LOGK_C8, S._fma64(x4, g[0], g[1])).reshape(shape)


def _logk(d):
    """Sleef's logk of the float64 array d >= 0: log d as a double-double."""
    tiny = d < _DBL_MIN
    d = np.where(tiny, d * (2.0 ** 64), d)
    e = (((d * (1.0 / 0.75)).view(_I64) >> 52) & 0x7ff) - 0x3ff
    m = (d.view(_I64) + (-e << 52)).view(_F64)
    e = np.where(tiny, e - 64, e).astype(_F64)
    x = S._dd_div(S._dd_add2_d_d(-1.0, m), S._dd_add2_d_d(1.0, m))
    x2 = S._dd_squ(x)
    x4 = x2[0] * x2[0]
    x8 = x4 * x4
    t = _poly9(x2[0], x4, x8, x8 * x8)
    s = S._dd_mul_dd_d(S._LN2_DD, e)
    s = S._dd_add_dd_dd(s, (x[0] * 2.0, x[1] * 2.0))
    x = S._dd_mul_dd_dd(x2, x)
    s = S._dd_add_dd_dd(s, S._dd_mul_dd_dd(x, _LOGK_C))
    x = S._dd_mul_dd_dd(x2, x)
    return S._dd_add_dd_dd(s, S._dd_mul_dd_d(x, t))


def _expk(d):
    """Sleef's expk: exp of the double-double d, as a float64 array (0 where d < -1000)."""
    dq = np.rint((d[0] + d[1]) * S._R_LN2)
    q = S._rint_int(dq)
    s = S._dd_add2_dd_d(d, dq * -S._L2U)
    s = S._dd_add2_dd_d(s, dq * -S._L2L)
    s = S._dd_add_d_d(s[0], s[1])  # (ddnormalize)
    s2 = s[0] * s[0]
    s4 = s2 * s2
    u = S._poly10(s[0], s2, s4, s4 * s4, _EXPK_K)
    t = S._dd_add_d_dd(1.0, s)
    t = S._dd_add_dd_dd(t, S._dd_mul_dd_d(S._dd_squ(s), u))
    u = S._ldexp2(t[0] + t[1], q)
    return np.where(d[0] < -1000, 0.0, u)


def sleef_pow(x, y):
    """Vectorized<double>::pow (AVX2): Sleef's powd4_u10 of float64 arrays (broadcast), bit for bit."""
    x, y = np.broadcast_arrays(np.asarray(x, _F64), np.asarray(y, _F64))
    with np.errstate(all="ignore"):
        yisint = np.rint(y) == y
        half = y * 0.5
        yisodd = (np.rint(half) != half) & yisint
        d = S._dd_mul_dd_d(_logk(np.abs(x)), y)
        result = _expk(d)
        result = np.where(d[0] > 709.782712893383996732223, np.inf, result)
        r = _special(x, y, result, yisint, yisodd, _ALL_ONES64, 1.0, 0.0, np.inf)
    return np.asarray(r, _F64).reshape(x.shape)


# --- PyTorch's pow kernels --------------------------------------------------------------------

def _glibc_number(a, exponent):
    """The scalar loop of pow_tensor_scalar_optimized_kernel: std::pow(scalar_t, double), glibc's
    double pow (numpy's float64 power calls it), a float32 result rounded once."""
    if a.dtype == _F32:
        return np.power(a.astype(_F64), exponent).astype(_F32)
    return np.power(a, exponent)


def _glibc_tensors(a, b):
    """The scalar loop of pow_tensor_tensor_kernel: ::pow(scalar_t, scalar_t), glibc's powf or
    pow (numpy's float32 and float64 power call them)."""
    out = np.power(a, b)
    if _count_half(b):
        # numpy may take sqrt for a 0.5 exponent (a 0-d one): pow(-0.0, 0.5) is +0.0, pow(-inf, 0.5) +inf
        out = np.where(b == 0.5, np.where(a == -np.inf, np.inf, out + 0.0), out).astype(out.dtype, copy=False)
    return out


def _count_half(b):
    return np.count_nonzero(b == 0.5)


_BLOCK_BYTES = 64  # (two AVX2 vectors: _vector_loop.BLOCK_BYTES)


def _vector(dtype, size):
    """The vector code's function: Sleef's steps, or beyond GRAIN_SIZE elements (where their
    numpy calls would cost some forty times numpy's power) glibc's powf/pow, which is Sleef's
    value but in about 2% of elements (an ulp apart)."""
    if size > GRAIN_SIZE:
        return _glibc_tensors
    return sleef_powf if dtype == _F32 else sleef_pow


def pow_number(a, exponent):
    """PyTorch's pow of a float32/float64 array and a number (its kernel's general case, the
    exponent neither 0, 1, 2, 3, 0.5, -0.5, -1 nor -2): Sleef's vector code with the exponent
    rounded to a's type where the loop runs it (_vector_loop.unary_lanes), std::pow(scalar_t,
    double) where it runs the scalar loop."""
    exponent = float(exponent)
    if a.size * a.itemsize < _BLOCK_BYTES:  # (no whole block: the scalar loop alone)
        if a.size == 1:  # (one element: glibc's pow through Python's math, which calls it)
            v = a.item()
            if math.isfinite(v):
                try:
                    r = math.pow(v, exponent)
                except (ValueError, OverflowError):  # (a domain error or an overflow: numpy's answer)
                    return _glibc_number(a, exponent)
                out = a.copy()
                out[...] = r  # (float32: the double rounded once)
                return out
        return _glibc_number(a, exponent)  # (agrad runs numpy with its warnings off)
    vec = _vector(a.dtype, a.size)
    with np.errstate(all="ignore"):
        y = np.array(exponent, a.dtype)
    return by_lanes(unary_lanes(a), lambda v: vec(v, y), lambda v: _glibc_number(v, exponent), (a,), a.dtype)


def pow_tensors(a, b, c_ordered=False):
    """PyTorch's pow of two float32/float64 arrays of one dtype (broadcast): Sleef's vector code
    where the loop runs it (_vector_loop.loop_lanes: both contiguous along a row, or one
    repeating a value: number ** tensor's base), glibc's powf/pow where it runs the scalar loop.
    ``c_ordered``: the result is allocated in C order before the loop (number ** tensor), and its
    strides decide the loop's order."""
    shape = np.broadcast_shapes(a.shape, b.shape)
    if math.prod(shape) * a.itemsize < _BLOCK_BYTES:  # (no whole block: the scalar loop alone)
        return _glibc_tensors(a, b).reshape(shape)
    loop = (np.empty(shape, a.dtype), a, b) if c_ordered else (a, b)
    vec = _vector(a.dtype, math.prod(shape))
    return by_lanes(loop_lanes(loop), vec, _glibc_tensors, (a, b), a.dtype).reshape(shape)
