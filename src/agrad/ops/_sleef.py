"""Sleef's functions as PyTorch's AVX2 vector code runs them (``Vectorized<double>``, ``<float>``).

- ``sleef_exp``: ``Vectorized<double>::exp`` (Sleef's ``expd4_u10``): a Cody-Waite reduction by
  ln 2, a degree-10 polynomial in Estrin's scheme and three fused steps to 1 + s + s**2/2 + ...,
  scaled by two powers of two.
- ``sleef_log1p``: ``Vectorized<double>::log1p`` (``log1pd4_u10``): the argument split by the
  exponent of (d + 1) * 4/3, x = m / (2 + m) as a double-double, ln 2 * e + 2x + x**3 times a
  degree-6 polynomial in x**2 (Estrin's), in double-doubles.
- ``sleef_tanh``: ``Vectorized<double>::tanh`` (``tanhd4_u10``): e = exp(|x|) as a double-double
  (expk2), (e - 1/e) / (e + 1/e) in double-doubles, 1 beyond 18.714973875, the sign of x;
  ``sleef_tanhf`` (``tanhf8_u10``) the same steps in float pairs.
- ``sleef_atan2f``: ``Vectorized<float>::atan2`` (``atan2f8_u10``): the quadrant from the signs
  and the larger of |x| and |y|, their quotient as a float pair, a degree-8 polynomial in its
  square, pi/2 times the quadrant added in float pairs; the special values as Sleef selects them.

Each step as the AVX2 build of Sleef takes it: every multiply-add Sleef writes is a fused one
(``_vec_math.fma``), the rest plain double arithmetic, so the results are Sleef's bit for bit
(each is within an ulp of the exact value, and in a few percent of values not the correctly
rounded one, which is where agrad's long-double steps differed from PyTorch).

Their cost is numpy's per call (about a microsecond whatever the size, some 25 calls a fused
multiply-add), so on small arrays it is kept down without changing a bit: constants are 0-d
arrays and float64 multipliers are split once (_vec_math.split_constant); an Estrin level's
independent fmas run as one call over rows (_poly10, _poly7), as do the double-double
products that do not wait for a sum (_chain, _products); special values are handled only when
present; and float64 arrays of up to 16 ordinary elements take the same steps on Python floats
(_sleef_scalar). tools/kernel_bits.py checks the bits over 300,000 values a kernel.
"""

from __future__ import annotations

import math

import numpy as np

from . import _sleef_scalar as _scalar
from ._vec_math import _count, _halves, _fma32, _fma64, _two_prod, fma64_sum, c32, cvt_i32, fma64_const as _fmak, split_constant as _k, _pow2i as _pow2if

_F64 = np.float64
_QUIET64 = np.int64(1 << 51)  # (the quiet bit of a float64 NaN)
_R_LN2 = 1.442695040888963407359924681001892137426645954152985934135449406931
_L2U = .69314718055966295651160180568695068359375
_L2L = .28235290563031577122588448175013436025525412068e-12
_LN2_DD = (0.693147180559945286226764, 2.319046813846299558417771e-17)


_F32_DT = np.dtype(np.float32)


def _single(*operands):
    """Whether float32 is the type of a fused multiply-add of ``operands`` (every typed one is
    float32; Python numbers take the others' type, float64 without any)."""
    single = False
    for x in operands:  # (0-d maths gives numpy scalars)
        d = getattr(x, "dtype", None)
        if d is not None:
            if d != _F32_DT:
                return False
            single = True
    return single


def _fma(a, b, c):
    """A fused multiply-add in the arrays' type (float32 or float64; Python numbers take it)."""
    if _single(a, b, c):
        return _fma32(np.asarray(a, _F32), np.asarray(b, _F32), np.asarray(c, _F32))
    return _fma64(np.asarray(a, _F64), np.asarray(b, _F64), np.asarray(c, _F64))


def _products(pairs, *others):
    """float64: the products a * b of ``pairs`` as p + e exactly (_two_prod), all in one call
    over rows (shaped as the pairs and ``others`` broadcast)."""
    shape = np.broadcast_shapes(*(np.shape(v) for pair in pairs for v in pair), *(np.shape(v) for v in others))
    a, b = np.empty((len(pairs),) + shape), np.empty((len(pairs),) + shape)
    for i, (x, y) in enumerate(pairs):
        a[i] = x
        b[i] = y
    return _two_prod(a, b)


#: from this many elements the products are made one pair at a time: the rows' copies and
#: larger temporaries cost more memory traffic than the calls they save (32,768 elements: tanh
#: 22 ms one at a time, 30-35 ms batched)
_BATCH_MAX = 4096


def _large(*operands):
    return max(np.size(v) for v in operands) > _BATCH_MAX


def _chain(pairs, c):
    """fma(a_k, b_k, ... fma(a_1, b_1, fma(a_0, b_0, c))) of ``pairs`` (the innermost first):
    float32 one fma after another; float64 with the products' exact parts made in one call
    (_products: they do not depend on the sums), then the sums in turn. The same steps as the
    nested _fma calls, each element's bits theirs."""
    if _single(c, *(v for pair in pairs for v in pair)) or _large(pairs[0][0], pairs[0][1], c):
        for a, b in pairs:
            c = _fma(a, b, c)
        return c
    p, e = _products(pairs, c)
    c = np.asarray(c, _F64)
    for i in range(len(pairs)):
        c = fma64_sum(p[i], e[i], c)
    return c


class _Estrin:
    """A float64 polynomial's coefficients as the row-batched evaluation below takes them: its
    first level's fma(x, c[i], c[i + 1]) (independent of each other) in one call over rows, the
    multipliers as a column with their halves made once, the addends as a column."""

    def __init__(self, coeffs, order):
        mul = [coeffs[i] for i in order]
        halves = [_k(v)[1:] for v in mul]
        self.mul = np.array(mul).reshape(-1, 1)
        self.halves = tuple(np.array([h[j] for h in halves]).reshape(-1, 1) for j in (0, 1))
        self.add = np.array([coeffs[i + 1] for i in order]).reshape(-1, 1)


def _first_level(x, k, x_halves=None):
    if x_halves is None:
        return _fma64(x, k.mul, k.add, k.halves)
    return _fma64(x, k.mul, k.add, k.halves, x_halves)  # (x's halves made once)


def _poly10(x, x2, x4, x8, k, x_halves=None):
    """Estrin's scheme of degree 9 as Sleef's POLY10 nests it: fma(x8, fma(x, c0, c1), fma(x4,
    fma(x2, F(c2, c3), F(c4, c5)), fma(x2, F(c6, c7), F(c8, c9)))), F(a, b) = fma(x, a, b); each
    level's independent fmas one call over rows (the same steps on each element)."""
    shape = x.shape
    x, x2, x4, x8 = (np.reshape(v, -1) for v in (x, x2, x4, x8))
    if x_halves is not None:
        x_halves = tuple(np.reshape(v, -1) for v in x_halves)
    f = _first_level(x, k, x_halves)  # rows F(c2, c3), F(c6, c7), F(c4, c5), F(c8, c9), F(c0, c1)
    g = _fma64(x2, f[0:2], f[2:4])
    return _fma64(x8, f[4], _fma64(x4, g[0], g[1])).reshape(shape)


def _poly7(x, x2, x4, k):
    """Sleef's POLY7: fma(x4, fma(x2, c0, F(c1, c2)), fma(x2, F(c3, c4), F(c5, c6))), batched as
    _poly10."""
    shape = x.shape
    x, x2, x4 = (np.reshape(v, -1) for v in (x, x2, x4))
    f = _first_level(x, k)  # rows F(c3, c4), F(c5, c6), F(c1, c2)
    mul = f[0:2].copy()
    mul[1] = k.c0
    g = _fma64(x2, mul, f[1:3])  # fma(x2, F(c3, c4), F(c5, c6)), fma(x2, c0, F(c1, c2))
    return _fma64(x4, g[1], g[0]).reshape(shape)


def _estrin10(coeffs):
    return _Estrin(coeffs, (2, 6, 4, 8, 0))


def _estrin7(coeffs):
    k = _Estrin(coeffs, (3, 5, 1))
    k.c0 = coeffs[0]
    return k


def _rint_int(u):
    """cvtpd2dq of an integral double: NaN and out-of-range lanes become INT_MIN."""
    return np.where(np.isfinite(u) & (np.abs(u) < 2.0 ** 31), u, -2.0 ** 31).astype(np.int64)


def _pow2i(q):
    """2**q from its exponent bits (q within the normal range; other lanes are garbage, as the
    vector code's are, and masked later)."""
    return (((q + 0x3ff) & 0x7ff) << 52).view(_F64)


def _ldexp2(d, q):
    h = q >> 1
    return d * _pow2i(h) * _pow2i(q - h)


_EXP_POLY = (+0.2081276378237164457e-8, +0.2511210703042288022e-7, +0.2755762628169491192e-6,
             +0.2755723402025388239e-5, +0.2480158687479686264e-4, +0.1984126989855865850e-3,
             +0.1388888888914497797e-2, +0.8333333333314938210e-2, +0.4166666666666602598e-1,
             +0.1666666666666669072e+0)


_EXP_K = _estrin10(_EXP_POLY)
_M_L2U, _M_L2L = _k(-_L2U), _k(-_L2L)
_HALF, _ONE = np.array(0.5), np.array(1.0)


#: sleef_exp's block: arrays over two blocks go a block at a time, each step's temporaries
#: (five rows of the polynomial's first level among them) staying in cache (512 x 1024 doubles:
#: 640 ns an element whole, ~95 in blocks; up to 32,768 elements whole is as fast); elementwise
#: steps, so the same bits
_EXP_BLOCK = 16384
_M_L2U_1 = np.array(-_L2U)
_L2L_P = _k(-_L2L)


def sleef_exp(d):
    """Vectorized<double>::exp (AVX2): Sleef's expd4_u10, bit for bit."""
    d = np.asarray(d, _F64)
    if d.size <= _scalar.MAX_SIZE:  # (a few ordinary elements: the same steps on floats)
        r = _scalar.each(_scalar.exp, d, _EXP_POLY, -700.0, 700.0)
        if r is not None:
            return r
    if d.size > 2 * _EXP_BLOCK and d.flags.c_contiguous:  # (C in, C out, as the whole steps lay it out)
        out = np.empty(d.shape)
        flat, flat_out = d.reshape(-1), out.reshape(-1)
        for i in range(0, flat.size, _EXP_BLOCK):
            flat_out[i:i + _EXP_BLOCK] = _exp_steps(flat[i:i + _EXP_BLOCK])
        return out
    return _exp_steps(d)


def _exp_steps(d):
    with np.errstate(all="ignore"):
        u = np.rint(d * _R_LN2)
        q = _rint_int(u)
        # fma(u, -L2U, d): L2U has 41 bits and |u| <= 1443 wherever the result is not replaced
        # by 0 or inf below (-1000 <= d <= 709.78), so u * -L2U is exact and the fma is the
        # plain sum (one rounding; NaN and infinities: the plain expression, as _fma64's)
        s = u * _M_L2U_1
        s += d
        # fma(u, -L2L, s): u is an integer of at most 11 bits there, its own high half (the
        # low one 0), so the product's exact error is (u * hi - p) + u * lo
        p = u * _L2L_P[0]
        e = u * _L2L_P[1]
        e -= p
        e += u * _L2L_P[2]
        s = fma64_sum(p, e, s)
        s2 = s * s
        s4 = s2 * s2
        sh = _halves(s)
        u = _poly10(s, s2, s4, s4 * s4, _EXP_K, sh)
        u = _fma64(u, s, _HALF, sh)
        u = _fma64(u, s, _ONE, sh)
        u = _fma64(u, s, _ONE, sh)
        u = _ldexp2(u, q)
        u = np.where(d > 709.782712893383996732223, np.inf, u)
        return np.where(d < -1000, 0.0, u)


# double-doubles (hi, lo), the FMA build's steps (float pairs too: Sleef's df.h takes the same steps)

def _dd_add_d_d(x, y):  # ddadd_vd2_vd_vd (|x| >= |y|)
    s = x + y
    return s, (x - s) + y


def _dd_add2_dd_d(x, y):  # ddadd2_vd2_vd2_vd
    s = x[0] + y
    v = s - x[0]
    return s, ((x[0] - (s - v)) + (y - v)) + x[1]


def _dd_add_d_dd(x, y):  # ddadd_vd2_vd_vd2 (|x| >= |y|)
    s = x + y[0]
    return s, ((x - s) + y[0]) + y[1]


def _dd_add_dd_dd(x, y):  # ddadd_vd2_vd2_vd2 (|x| >= |y|)
    s = x[0] + y[0]
    return s, (((x[0] - s) + y[0]) + x[1]) + y[1]


def _dd_add_dd_d(x, y):  # ddadd_vd2_vd2_vd (|x| >= |y|)
    s = x[0] + y
    return s, ((x[0] - s) + y) + x[1]


def _dd_add2_dd_dd(x, y):  # ddadd2_vd2_vd2_vd2
    s = x[0] + y[0]
    v = s - x[0]
    t = (x[0] - (s - v)) + (y[0] - v)
    return s, t + (x[1] + y[1])


def _dd_mul_dd_d(x, y):  # ddmul_vd2_vd2_vd
    s = x[0] * y
    return s, _chain(((x[0], y), (x[1], y)), -s)


def _dd_mul_dd_dd(x, y):  # ddmul_vd2_vd2_vd2
    s = x[0] * y[0]
    return s, _chain(((x[0], y[0]), (x[1], y[0]), (x[0], y[1])), -s)


def _dd_squ(x):  # ddsqu_vd2_vd2
    s = x[0] * x[0]
    return s, _chain(((x[0], x[0]), (x[0] + x[0], x[1])), -s)


def _dd_div(n, d):  # dddiv_vd2_vd2_vd2
    t = 1.0 / d[0]
    s = n[0] * t
    if _single(t, s, n[1], d[1]) or _large(t, s, n[1]):
        u = _fma(t, n[0], -s)
        v = _fma(-d[1], t, _fma(-d[0], t, 1.0))
        return s, _fma(s, v, _fma(n[1], t, u))
    # float64: the four products that do not wait for a sum in one call (_chain's way)
    p, e = _products(((t, n[0]), (-d[0], t), (-d[1], t), (n[1], t)), s)
    u = fma64_sum(p[0], e[0], np.asarray(-s, _F64))
    v = fma64_sum(p[2], e[2], fma64_sum(p[1], e[1], _ONE))
    return s, _fma64(np.asarray(s, _F64), v, fma64_sum(p[3], e[3], u))


def _dd_rec(d):  # ddrec_vd2_vd2
    s = 1.0 / d[0]
    return s, s * _chain(((-d[0], s), (-d[1], s)), 1.0)


_LOG1P_POLY = (0.1532076988502701353e+0, 0.1525629051003428716e+0, 0.1818605932937785996e+0,
               0.2222214519839380009e+0, 0.2857142932794299317e+0, 0.3999999999635251990e+0,
               0.6666666666667333541e+0)
_LOG1P_K = _estrin7(_LOG1P_POLY)


def sleef_log1p(d):
    """Vectorized<double>::log1p (AVX2): Sleef's log1pd4_u10, bit for bit. Out of range: d above
    1e307 is Sleef's log(d), d < -1 and NaN are NaN, -1 is -inf, -0.0 stays."""
    d = np.asarray(d, _F64)
    if d.size <= _scalar.MAX_SIZE:
        r = _scalar.each(_scalar.log1p, d, _LOG1P_POLY, -0.5, 1e300)
        if r is not None:
            return r
    with np.errstate(all="ignore"):
        dp1 = d + 1.0
        tiny = dp1 < 2.2250738585072014e-308
        dp1 = np.where(tiny, dp1 * (2.0 ** 64), dp1)
        e = (((dp1 * (1.0 / 0.75)).view(np.int64) >> 52) & 0x7ff) - 0x3ff
        t = _pow2i(-e)
        m = _fma(d, t, t - 1.0)
        e = np.where(tiny, e - 64, e).astype(_F64)
        s = _dd_mul_dd_d(_LN2_DD, e)
        x = _dd_div((m, 0.0), _dd_add_d_d(2.0, m))
        x2 = x[0] * x[0]
        x4 = x2 * x2
        t = _poly7(x2, x4, x4 * x4, _LOG1P_K)
        s = _dd_add_dd_dd(s, (x[0] * 2.0, x[1] * 2.0))
        s = _dd_add_dd_d(s, (x2 * x[0]) * t)
        r = s[0] + s[1]
        big = d > 1e307  # (beyond the core approximation's range: Sleef's log of d)
        if big.any():
            r = np.where(big, sleef_log(np.where(big, d, 1.0)), r)
        r = np.where((d < -1) | np.isnan(d), np.nan, r)
        r = np.where(d == -1, -np.inf, r)
        return np.where((d == 0) & np.signbit(d), -0.0, r)


def _dd_add2_d_d(x, y):  # ddadd2_vd2_vd_vd
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


def sleef_log(d):
    """Vectorized<double>::log (AVX2): Sleef's logd4_u10, bit for bit: d = 2**e m with m near 1
    (d below DBL_MIN scaled by 2**64 first), x = (m - 1) / (m + 1) as a double-double, ln 2 * e +
    2x + x**3 times a degree-6 polynomial in x**2 (Estrin's). +inf stays, d < 0 and NaN are NaN,
    0 is -inf."""
    d = np.asarray(d, _F64)
    with np.errstate(all="ignore"):
        tiny = d < 2.2250738585072014e-308
        dd = np.where(tiny, d * (2.0 ** 64), d)
        e = (((dd * (1.0 / 0.75)).view(np.int64) >> 52) & 0x7ff) - 0x3ff
        m = (dd.view(np.int64) + (-e << 52)).view(_F64)
        e = np.where(tiny, e - 64, e).astype(_F64)
        x = _dd_div(_dd_add2_d_d(-1.0, m), _dd_add2_d_d(1.0, m))
        x2 = x[0] * x[0]
        x4 = x2 * x2
        t = _poly7(x2, x4, x4 * x4, _LOG1P_K)
        s = _dd_mul_dd_d(_LN2_DD, e)
        s = _dd_add_dd_dd(s, (x[0] * 2.0, x[1] * 2.0))
        s = _dd_add_dd_d(s, (x2 * x[0]) * t)
        r = s[0] + s[1]
        r = np.where(d == np.inf, np.inf, r)
        r = np.where((d < 0) | np.isnan(d), np.nan, r)
        return np.where(d == 0, -np.inf, r)


_EXPK2_POLY = (+0.1602472219709932072e-9, +0.2092255183563157007e-8, +0.2505230023782644465e-7,
               +0.2755724800902135303e-6, +0.2755731892386044373e-5, +0.2480158735605815065e-4,
               +0.1984126984148071858e-3, +0.1388888888886763255e-2, +0.8333333333333347095e-2,
               +0.4166666666666669905e-1)
_EXPK2_K = _estrin10(_EXPK2_POLY)


def _expk2(d):
    """Sleef's expk2: exp of the double-double d, as a double-double."""
    u = (d[0] + d[1]) * _R_LN2
    dq = np.rint(u)
    q = _rint_int(dq)
    s = _dd_add2_dd_d(d, dq * -_L2U)
    s = _dd_add2_dd_d(s, dq * -_L2L)
    s2 = _dd_squ(s)
    s4 = _dd_squ(s2)
    u = _poly10(s[0], s2[0], s4[0], s4[0] * s4[0], _EXPK2_K)
    t = _dd_add_d_dd(0.5, _dd_mul_dd_d(s, 0.1666666666666666574e+0))
    t = _dd_add_d_dd(1.0, _dd_mul_dd_dd(t, s))
    t = _dd_add_d_dd(1.0, _dd_mul_dd_dd(t, s))
    t = _dd_add_dd_dd(t, _dd_mul_dd_d(s4, u))
    gone = d[0] < -1000
    return np.where(gone, 0.0, _ldexp2(t[0], q)), np.where(gone, 0.0, _ldexp2(t[1], q))


def sleef_tanh(x):
    """Vectorized<double>::tanh (AVX2): Sleef's tanhd4_u10, bit for bit."""
    x = np.asarray(x, _F64)
    if x.size <= _scalar.MAX_SIZE:
        r = _scalar.each(_scalar.tanh, x, _EXPK2_POLY, -18.7, 18.7)
        if r is not None:
            return r
    with np.errstate(all="ignore"):
        y = np.abs(x)
        d = _expk2((y, np.zeros_like(y)))
        e = _dd_rec(d)
        d = _dd_div(_dd_add2_dd_dd(d, (-e[0], -e[1])), _dd_add2_dd_dd(d, e))
        y = d[0] + d[1]
        y = np.where((np.abs(x) > 18.714973875) | np.isnan(y), 1.0, y)
        y = np.copysign(y, x)
        return np.where(np.isnan(x), np.nan, y)


# the scalar loop's functions: glibc's, which Python's math calls (glibc's log1p and tanh are an
# ulp from the correctly rounded value in 8% and 10% of values, so no wider arithmetic gives them)

def _exp1(v):
    try:
        return math.exp(v)
    except OverflowError:
        return math.inf


def _log1p1(v):
    if v <= -1:
        return -math.inf if v == -1 else math.nan
    return math.log1p(v)


def _log1(v):
    if v <= 0:
        return -math.inf if v == 0 else math.nan
    return math.log(v)


def _expm11(v):
    try:
        return math.expm1(v)
    except OverflowError:
        return math.inf


_LIBM = {"exp": np.frompyfunc(_exp1, 1, 1), "log1p": np.frompyfunc(_log1p1, 1, 1), "expm1": np.frompyfunc(_expm11, 1, 1),
         "tanh": np.frompyfunc(math.tanh, 1, 1), "log": np.frompyfunc(_log1, 1, 1)}


def libm(name, a):
    """glibc's double ``name`` (exp, expm1, log, log1p, tanh) of each element, as ``std::name`` in a
    scalar loop gives it."""
    a = np.asarray(a, _F64)
    return np.asarray(_LIBM[name](a), _F64) if a.size else a.copy()


_F32 = np.float32
_Z32 = np.array(0, _F32)
_I32_ONE = np.array(1, np.int32)
_EXPK2F_POLY = tuple(np.array(c, _F32) for c in (+0.1980960224e-3, +0.1394256484e-2, +0.8333456703e-2, +0.4166637361e-1))


def _expk2f(d):
    """Sleef's expk2f: exp of the float pair d, as a float pair."""
    u = (d[0] + d[1]) * c32(_R_LN2)
    # (cvtps2dq of rint(u): a float32 of 2**23 or more is an integer, so rint(u) is as far
    # below 2**31 as u is)
    q = cvt_i32(np.rint(u))
    qf = q.astype(_F32)
    s = _dd_add2_dd_d(d, qf * c32(-0.693145751953125))
    s = _dd_add2_dd_d(s, qf * c32(-1.428606765330187045e-06))
    u = _EXPK2F_POLY[0]
    for c in _EXPK2F_POLY[1:]:
        u = _fma32(u, s[0], c)
    t = _dd_add2_dd_d(_dd_mul_dd_d(s, u), c32(+0.166666659414234244790680580464e+0))
    t = _dd_add2_dd_d(_dd_mul_dd_dd(s, t), c32(0.5))
    t = _dd_add2_dd_dd(s, _dd_mul_dd_dd(_dd_squ(s), t))
    t = _dd_add_d_dd(c32(1), t)
    h = q >> _I32_ONE
    gone = d[0] < c32(-104)
    s0, s1 = _pow2if(h), _pow2if(q - h)
    return (np.where(gone, _Z32, t[0] * s0 * s1), np.where(gone, _Z32, t[1] * s0 * s1))


def sleef_tanhf(x):
    """Vectorized<float>::tanh (AVX2): Sleef's tanhf8_u10, bit for bit (sleef_tanh's steps in
    float pairs, 1 beyond 8.664339742)."""
    x = np.asarray(x, _F32)
    with np.errstate(all="ignore"):
        y = np.abs(x)
        d = _expk2f((y, np.zeros_like(y)))
        e = _dd_rec(d)
        d = _dd_div(_dd_add_dd_dd(d, (-e[0], -e[1])), _dd_add_dd_dd(d, e))
        y = d[0] + d[1]
        y = np.where((np.abs(x) > _F32(8.664339742)) | np.isnan(y), _F32(1), y)
        y = np.copysign(y, x)
        return np.where(np.isnan(x), _F32(np.nan), y).astype(_F32, copy=False)


_ATAN_POLY = tuple(np.array(c, _F32) for c in (
    -0.00176397908944636583328247, 0.0107900900766253471374512, -0.0309564601629972457885742,
    0.0577365085482597351074219, -0.0838950723409652709960938, 0.109463557600975036621094,
    -0.142626821994781494140625, 0.199983194470405578613281))
_PI2_DF = (_F32(1.5707963705062866211), _F32(-4.3711388286737928865e-08))


def _atan2kf(y, x):
    """Sleef's atan2kf_u1 of the floats y >= 0 and x: atan2 as a float pair (x negative: negated,
    the quadrant -2; |x| < y: -x / y in the next quadrant)."""
    neg = x < 0
    q = np.where(neg, np.int32(-2), np.int32(0))
    x = np.where(neg, -x, x)
    swap = x < y
    q = np.where(swap, q + np.int32(1), q)
    zero = np.zeros_like(x)
    s = _dd_div((np.where(swap, -x, y), zero), (np.where(swap, y, x), zero))
    t = _dd_squ(s)
    t = _dd_add_d_d(t[0], t[1])  # (dfnormalize)
    u = _ATAN_POLY[0]
    for c in _ATAN_POLY[1:]:
        u = _fma32(u, t[0], c)
    t = _dd_mul_dd_dd(t, _dd_add_d_d(_F32(-0.333332866430282592773438), u * t[0]))
    t = _dd_mul_dd_dd(s, _dd_add_d_dd(_F32(1), t))
    return _dd_add_dd_dd(_dd_mul_dd_d(_PI2_DF, q.astype(_F32)), t)


_NAN_ALL_ONES = np.array(-1, np.int32).view(_F32)
_ABS32 = np.array(0x7fffffff, np.int32)
_FINITE_NONZERO = np.array(0x7f7fffff, np.uint32)  # (|x|'s bits - 1, unsigned, below it: finite, nonzero)


def sleef_atan2f(y, x):
    """Vectorized<float>::atan2 (AVX2): Sleef's atan2f8_u10, bit for bit, NaN signs too (a NaN
    operand gives the all-ones NaN: negative)."""
    y, x = np.broadcast_arrays(np.asarray(y, _F32), np.asarray(x, _F32))
    with np.errstate(all="ignore"):
        tiny = np.abs(x) < c32(2.9387372783541830947e-39)
        if _count(tiny):
            x = np.where(tiny, x * _F32(1 << 24), x)
            y = np.where(tiny, y * _F32(1 << 24), y)
        d = _atan2kf(np.abs(y), x)
        r = d[0] + d[1]
        r = np.where(np.signbit(x), -r, r)
        # (finite nonzero x and y, the usual case: none of the special values below)
        tame = ((x.view(np.int32) & _ABS32) - _I32_ONE).view(np.uint32) < _FINITE_NONZERO
        tame &= ((y.view(np.int32) & _ABS32) - _I32_ONE).view(np.uint32) < _FINITE_NONZERO
        if type(tame) is np.ndarray and _count(tame) == tame.size:
            return np.where(np.signbit(y), -r, r).astype(_F32, copy=False)
        half_pi, pi = _F32(np.pi / 2), _F32(np.pi)
        x_inf = np.isinf(x)
        r = np.where(x_inf | (x == 0), half_pi - np.where(x_inf, np.copysign(half_pi, x), _F32(0)), r)
        r = np.where(np.isinf(y), half_pi - np.where(x_inf, np.copysign(_F32(np.pi / 4), x), _F32(0)), r)
        r = np.where(y == 0, np.where(np.signbit(x), pi, _F32(0)), r)
        r = np.where(np.signbit(y), -r, r)
        return np.where(np.isnan(x) | np.isnan(y), _NAN_ALL_ONES, r).astype(_F32, copy=False)


def sleef_expm1(a):
    """Vectorized<double>::expm1 (AVX2): Sleef's expm1d4_u10, bit for bit: expk2(a) - 1 in
    double-doubles; inf beyond 709.78..., -1 below -36.73..., -0.0 stays."""
    a = np.asarray(a, _F64)
    if a.size <= _scalar.MAX_SIZE:
        r = _scalar.each(_scalar.expm1, a, _EXPK2_POLY, -36.0, 700.0)
        if r is not None:
            return r
    with np.errstate(all="ignore"):
        d = _dd_add2_dd_d(_expk2((a, np.zeros_like(a))), -1.0)
        x = d[0] + d[1]
        x = np.where(a > 709.782712893383996732223, np.inf, x)
        x = np.where(a < -36.736800569677101399113302437, -1.0, x)
        # (a NaN comes out as it went in, quieted as Sleef's arithmetic quiets it: sign and payload
        # kept, a signaling NaN's quiet bit set; numpy's loops may flip the sign of d's NaN)
        x = np.where(np.isnan(a), (a.view(np.int64) | _QUIET64).view(_F64), x)
        return np.where((a == 0) & np.signbit(a), -0.0, x)


def sleef_expm1f(a):
    """Vectorized<float>::expm1 (AVX2): Sleef's expm1f8_u10, bit for bit (sleef_expm1's steps in
    float pairs; inf beyond 88.72..., -1 below -16.63...)."""
    a = np.asarray(a, _F32)
    with np.errstate(all="ignore"):
        d = _dd_add2_dd_d(_expk2f((a, np.zeros_like(a))), _F32(-1))
        x = d[0] + d[1]
        x = np.where(a > _F32(88.72283172607421875), _F32(np.inf), x)
        x = np.where(a < _F32(-16.635532333438687426013570), _F32(-1), x)
        return np.where((a == 0) & np.signbit(a), _F32(-0.0), x).astype(_F32, copy=False)


_EXP2F_POLY = tuple(np.array(c, _F32) for c in (+0.1535920892e-3, +0.1339262701e-2, +0.9618384764e-2,
                                                +0.5550347269e-1, +0.2402264476e+0, +0.6931471825e+0, 1.0))


def sleef_exp2f(d):
    """Vectorized<float>::exp2 (AVX2): Sleef's exp2f8_u10, bit for bit: s = d - rint(d), a
    degree-6 polynomial in s by fused multiply-adds (the last one adds 1), times 2**rint(d) in two
    steps; inf from d >= 128, 0 below -150."""
    d = np.asarray(d, _F32)
    with np.errstate(all="ignore"):
        u = np.rint(d)
        q = cvt_i32(u)
        s = d - u
        u = _EXP2F_POLY[0]
        for c in _EXP2F_POLY[1:]:
            u = _fma32(u, s, c)
        h = q >> _I32_ONE
        u = u * _pow2if(h) * _pow2if(q - h)
        u = np.where(d >= c32(128.0), c32(np.inf), u)
        return np.where(d < c32(-150.0), c32(0.0), u).astype(_F32, copy=False)


_EXP2_POLY = (+0.4434359082926529454e-9, +0.7073164598085707425e-8, +0.1017819260921760451e-6,
              +0.1321543872511327615e-5, +0.1525273353517584730e-4, +0.1540353045101147808e-3,
              +0.1333355814670499073e-2, +0.9618129107597600536e-2, +0.5550410866482046596e-1,
              +0.2402265069591012214e+0)
_EXP2_K = _estrin10(_EXP2_POLY)
_EXP2_LN2 = np.array(+0.6931471805599452862e+0)


def sleef_exp2(d):
    """Vectorized<double>::exp2 (AVX2): Sleef's exp2d4_u10, bit for bit: s = d - rint(d), a
    degree-9 polynomial in s (Estrin's), two fused multiply-adds to ln 2 and 1, times 2**rint(d)
    in two steps; inf from d >= 1024, 0 below -2000."""
    d = np.asarray(d, _F64)
    with np.errstate(all="ignore"):
        u = np.rint(d)
        q = _rint_int(u)
        s = d - u
        s2 = s * s
        s4 = s2 * s2
        u = _poly10(s, s2, s4, s4 * s4, _EXP2_K)
        u = _fma64(u, s, _EXP2_LN2)
        u = _fma64(u, s, _ONE)
        u = _ldexp2(u, q)
        u = np.where(d >= 1024, np.inf, u)
        return np.where(d < -2000, 0.0, u)


def _dd_sub_dd_dd(x, y):  # ddsub_vd2_vd2_vd2 / dfsub_vf2_vf2_vf2 (|x| >= |y|)
    s = x[0] - y[0]
    return s, (((x[0] - s) - y[0]) + x[1]) - y[1]


def _sinh_cosh(x, sign, f32):
    """Sleef's xsinh(f)/xcosh(f): e = exp(|x|) as a pair (expk2), (e -+ 1/e) / 2 in pairs, inf beyond
    |x| > 710 (float: 89) or a NaN on the way, sinh's sign from x, a NaN x the all-ones NaN."""
    with np.errstate(all="ignore"):
        y = np.abs(x)
        if f32:
            d = _expk2f((y, np.zeros_like(y)))
            half, big, inf, nan = c32(0.5), c32(89.0), c32(np.inf), _NAN_ALL_ONES
        else:
            d = _expk2((y, np.zeros_like(y)))
            half, big, inf, nan = 0.5, 710.0, np.inf, np.array(-1, np.int64).view(_F64)
        e = _dd_rec(d)
        d = _dd_sub_dd_dd(d, e) if sign else _dd_add_dd_dd(d, e)
        y = (d[0] + d[1]) * half
        y = np.where((np.abs(x) > big) | np.isnan(y), inf, y)
        if sign:
            y = np.where(np.signbit(x), -y, y)
        return np.where(np.isnan(x), nan, y)


def sleef_sinhf(x):
    """Vectorized<float>::sinh (AVX2): Sleef's sinhf8_u10, bit for bit."""
    return _sinh_cosh(np.asarray(x, _F32), True, True).astype(_F32, copy=False)


def sleef_coshf(x):
    """Vectorized<float>::cosh (AVX2): Sleef's coshf8_u10, bit for bit."""
    return _sinh_cosh(np.asarray(x, _F32), False, True).astype(_F32, copy=False)


def sleef_sinh(x):
    """Vectorized<double>::sinh (AVX2): Sleef's sinhd4_u10, bit for bit."""
    return _sinh_cosh(np.asarray(x, _F64), True, False)


def sleef_cosh(x):
    """Vectorized<double>::cosh (AVX2): Sleef's coshd4_u10, bit for bit."""
    return _sinh_cosh(np.asarray(x, _F64), False, False)


_LOGK2F_POLY = tuple(np.array(c, _F32) for c in (0.2392828464508056640625, 0.28518211841583251953125,
                                                 0.400005877017974853515625, 0.666666686534881591796875))
_LN2_DF32 = (np.array(0.69314718246459960938, _F32), np.array(-1.904654323148236017e-09, _F32))


def _logk2f(d):
    """Sleef's logk2f: log of the float pair d (> 0), as a float pair."""
    x0 = d[0] * c32(1.0 / 0.75)
    o = x0 < c32(5.421010862427522e-20)
    x0 = np.where(o, c32(1.8446744073709552e19) * x0, x0)
    e = ((x0.view(np.int32) >> np.int32(23)) & np.int32(0xff)) - np.where(o, np.int32(64 + 0x7f), np.int32(0x7f))
    p = _pow2if(-e)
    m = (d[0] * p, d[1] * p)
    x = _dd_div(_dd_add2_dd_d(m, c32(-1.0)), _dd_add2_dd_d(m, c32(1.0)))
    x2 = _dd_squ(x)
    t = _LOGK2F_POLY[0]
    for c in _LOGK2F_POLY[1:]:
        t = _fma32(t, x2[0], c)
    s = _dd_mul_dd_d(_LN2_DF32, e.astype(_F32))
    s = _dd_add_dd_dd(s, (x[0] * c32(2.0), x[1] * c32(2.0)))
    return _dd_add_dd_dd(s, _dd_mul_dd_d(_dd_mul_dd_dd(x2, x), t))


def sleef_atanhf(x):
    """Vectorized<float>::atanh (AVX2): Sleef's atanhf8_u10, bit for bit: log((1 + |x|) / (1 - |x|)) / 2
    in float pairs; |x| > 1 and infinities the all-ones NaN (its sign then x's), 1 inf."""
    x = np.asarray(x, _F32)
    with np.errstate(all="ignore"):
        y = np.abs(x)
        one = c32(1.0)
        d = _logk2f(_dd_div(_dd_add2_d_d(one, y), _dd_add2_d_d(one, -y)))
        r = np.where(y == one, c32(np.inf), (d[0] + d[1]) * c32(0.5))
        r = np.where(y > one, _NAN_ALL_ONES, r)
        r = np.where(np.isinf(x) | np.isnan(r), _NAN_ALL_ONES, r)
        r = np.where(np.signbit(x), -r, r)  # (mulsign: the sign bit flipped, a NaN's too)
        return np.where(np.isnan(x), _NAN_ALL_ONES, r).astype(_F32, copy=False)


_LOGK2_POLY = (0.13860436390467167910856, 0.131699838841615374240845, 0.153914168346271945653214,
               0.181816523941564611721589, 0.22222224632662035403996, 0.285714285511134091777308,
               0.400000000000914013309483)
_LOGK2_K = _estrin7(_LOGK2_POLY)
_ALL_ONES64 = np.array(-1, np.int64).view(_F64)


def _logk2(d):
    """Sleef's logk2: log of the double-double d (> 0), as a double-double."""
    x0 = d[0] * (1.0 / 0.75)
    o = x0 < 4.9090934652977266e-91
    x0 = np.where(o, 2.037035976334486e90 * x0, x0)
    e = ((x0.view(np.int64) >> 52) & 0x7ff) - np.where(o, 300 + 0x3ff, 0x3ff)
    m = (_ldexp2(d[0], -e), _ldexp2(d[1], -e))
    x = _dd_div(_dd_add2_dd_d(m, -1.0), _dd_add2_dd_d(m, 1.0))
    x2 = _dd_squ(x)
    x4 = x2[0] * x2[0]
    t = _poly7(x2[0], x4, x4 * x4, _LOGK2_K)
    t = _fma64(t, x2[0], np.asarray(0.666666666666664853302393))
    s = _dd_mul_dd_d(_LN2_DD, e.astype(_F64))
    s = _dd_add_dd_dd(s, (x[0] * 2.0, x[1] * 2.0))
    return _dd_add_dd_dd(s, _dd_mul_dd_d(_dd_mul_dd_dd(x2, x), t))


def sleef_atanh(x):
    """Vectorized<double>::atanh (AVX2): Sleef's atanhd4_u10, bit for bit (sleef_atanhf's steps in
    double-doubles; x's sign is given before the NaN of |x| > 1 and infinities is made)."""
    x = np.asarray(x, _F64)
    with np.errstate(all="ignore"):
        y = np.abs(x)
        d = _logk2(_dd_div(_dd_add2_d_d(1.0, y), _dd_add2_d_d(1.0, -y)))
        r = np.where(y == 1.0, np.inf, (d[0] + d[1]) * 0.5)
        r = np.where(y > 1.0, _ALL_ONES64, r)
        r = np.where(np.signbit(x), -r, r)
        r = np.where(np.isinf(x) | np.isnan(r), _ALL_ONES64, r)
        return np.where(np.isnan(x), _ALL_ONES64, r)
