"""glibc's float functions as PyTorch's scalar loops call them (``std::atan2(float, float)``).

glibc 2.36's ``atan2f``, ``log1pf`` and ``tanhf`` are fdlibm's algorithms in float arithmetic
(no fused multiply-adds: the x86-64 baseline build), an ulp or so from the correctly rounded
value in 5-13% of random arguments, so no wider arithmetic gives them; their steps, vectorised:

- ``atanf``: |x| reduced into one of five ranges (below 7/16, 11/16, 19/16, 39/16, above) by
  atan's addition formula about 0, 1/2, 1, 3/2 and infinity, the odd series in the reduced
  argument's square split into two polynomials in its fourth power, atan of the range's centre
  added as a high and a low part.
- ``atan2f``: the special values of x, y in 0, infinity, NaN first, then atanf(|y / x|) moved to
  the quadrant of (x, y) with pi's low part.
- ``log1pf``: 1 + x split into 2**k (1 + f) with a correction term for the rounding of 1 + x,
  log(1 + f) from s = f / (2 + f) and a degree-7 polynomial in s**2, k ln 2 in two parts.
- ``expm1f``: x reduced by k ln 2 (two parts, with the reduction's error), a rational
  approximation of degree 5 in x**2 / 2, then scaled by 2**k through the exponent bits.
- ``tanhf``: 1 - 2 / (expm1f(2|x|) + 2) for |x| >= 1, -t / (t + 2) with t = expm1f(-2|x|)
  below, 1 from 22 on, the sign of x.
- ``expf`` (glibc's own since 2.27, its FMA build): in double, x * 32/ln 2 = k + r, a table
  of 2^(i/32) and a cubic in r; an ulp from the correctly rounded value in 0.06%.
- ``logf`` (glibc's own since 2.27, its FMA build): x = 2^k z, log(c) + log1p(z / c - 1) in
  double with c from a table of 16 subintervals and a cubic, k ln 2 fused in.
- ``sinf`` (glibc's own since 2.28, its FMA build): in double, a polynomial below pi/4, else x
  reduced by n pi/2 and the sine or cosine polynomial by n's parity (below 120).
- ``erff``: fdlibm's four ranges (a rational function of x**2 below 0.84375, erx + P/Q of
  |x| - 1 below 1.25, 1 - exp(-z*z - 0.5625) exp((z - x)(z + x) + R/S) / x below 6 with z
  x's top bits, 1 above), with expf.
"""

from __future__ import annotations

import numpy as np

from ._vec_math import _count, _fma64, c32, fma_float

_F64 = np.float64


def _fma_d(a, b, c):
    """fma in double: _vec_math.fma's steps for float64 operands (one element each: on Python
    floats) without its dispatch and error state (the functions below run under
    np.errstate(all="ignore"))."""
    a, b, c = np.asarray(a, _F64), np.asarray(b, _F64), np.asarray(c, _F64)
    if a.size == 1 and b.size == 1 and c.size == 1:
        return np.array(fma_float(a.item(), b.item(), c.item())).reshape(np.broadcast_shapes(a.shape, b.shape, c.shape))
    return _fma64(a, b, c)

_F32 = np.float32
_I32 = np.int32

_ATANHI = np.array([4.6364760399e-01, 7.8539812565e-01, 9.8279368877e-01, 1.5707962513e+00], _F32)
_ATANLO = np.array([5.0121582440e-09, 3.7748947079e-08, 3.4473217170e-08, 7.5497894159e-08], _F32)
_AT = tuple(np.array(c, _F32) for c in (3.3333334327e-01, -2.0000000298e-01, 1.4285714924e-01, -1.1111110449e-01,
                              9.0908870101e-02, -7.6918758452e-02, 6.6610731184e-02, -5.8335702866e-02,
                              4.9768779427e-02, -3.6531571299e-02, 1.6285819933e-02))
_PI_O_4, _PI_O_2, _PI, _PI_LO = (np.array(7.8539818525e-01, _F32), np.array(1.5707963705e+00, _F32),
                                 np.array(3.1415927410e+00, _F32), np.array(-8.7422776573e-08, _F32))


def _i32(v):
    return np.array(v, _I32)


def _f32(v):
    return np.array(v, _F32)


#: the bounds of atanf's ranges (|x|'s bits) and each range's reduction r = (|x| * a - b) / (c + |x| * d):
#: (2|x| - 1) / (2 + |x|), (|x| - 1) / (|x| + 1), (|x| - 1.5) / (1 + 1.5|x|), -1 / |x| (0 * |x| is 0
#: where that range is used: |x| is finite; the same roundings as each expression's own)
_ATAN_EDGES = np.array([0x3ee00000, 0x3f300000, 0x3f980000, 0x401c0000], _I32)
_ATAN_RED = tuple(np.array(col, _F32) for col in zip((2, 1, 2, 1), (1, 1, 1, 1), (1, 1.5, 1, 1.5), (0, 1, 0, 1)))
_I_TINY, _I_BIG, _I_INF, _I_ONE = _i32(0x31000000), _i32(0x4c000000), _i32(0x7f800000), _i32(0x3f800000)
_ABS32 = _i32(0x7fffffff)
_I60, _IM60, _I23 = _i32(60), _i32(-60), _i32(23)
_I0, _I1, _IM1, _IM2, _I31, _I56 = _i32(0), _i32(1), _i32(-1), _i32(-2), _i32(31), _i32(56)
_I_TINY25, _I_EDGE, _I_TINY55, _I_22 = _i32(0x33000000), _i32(0x4195b844), _i32(0x24000000), _i32(0x41b00000)
_TWO31 = _f32(2.0 ** 31)
_Z32, _ONE32 = _f32(0), _f32(1)


def atanf(x):
    """glibc's atanf of a float32 array, bit for bit."""
    x = np.asarray(x, _F32)
    with np.errstate(all="ignore"):
        hx = x.view(_I32)
        ix = hx & _ABS32
        ax = np.abs(x)
        rng = np.searchsorted(_ATAN_EDGES, ix, side="right") - 1  # -1 (|x| < 7/16) to 3
        k = np.maximum(rng, 0)
        a, b, c, d = (t.take(k) for t in _ATAN_RED)
        r = (ax * a - b) / (c + ax * d)
        small = rng < 0
        r = np.where(small, x, r)
        z = r * r
        w = z * z
        s1 = z * (_AT[0] + w * (_AT[2] + w * (_AT[4] + w * (_AT[6] + w * (_AT[8] + w * _AT[10])))))
        s2 = w * (_AT[1] + w * (_AT[3] + w * (_AT[5] + w * (_AT[7] + w * _AT[9]))))
        far = _ATANHI.take(k) - ((r * (s1 + s2) - _ATANLO.take(k)) - r)
        out = np.where(small, r - r * (s1 + s2), np.where(hx < 0, -far, far))
        odd = (ix < _I_TINY) | (ix >= _I_BIG)  # (|x| < 2**-29, |x| >= 2**25, inf, NaN)
        if _count(odd):
            out = np.where(ix < _I_TINY, x, out)
            big = _ATANHI[3] + _ATANLO[3]
            out = np.where(ix >= _I_BIG, np.where(hx < 0, -big, big), out)
            out = np.where(ix > _I_INF, x + x, out)
        return out.astype(_F32, copy=False)


_U32 = np.uint32
_FINITE_NONZERO = np.array(0x7f7fffff, _U32)  # (bits - 1, unsigned, below it: a finite nonzero float)


def atan2f(y, x):
    """glibc's atan2f of float32 arrays (broadcast), bit for bit."""
    y, x = np.broadcast_arrays(np.asarray(y, _F32), np.asarray(x, _F32))
    with np.errstate(all="ignore"):
        hx, hy = x.view(_I32), y.view(_I32)
        ix, iy = hx & _ABS32, hy & _ABS32
        k = (iy - ix) >> _I23
        z = atanf(np.abs(y / x))
        z = np.where(k > _I60, _PI_O_2 + _F32(0.5) * _PI_LO, np.where((hx < 0) & (k < _IM60), _Z32, z))
        # the quadrant: z, -z, pi - (z - pi_lo), (z - pi_lo) - pi (the last the third negated:
        # it is never zero) by the signs of x and y
        out = np.where(hx < 0, _PI - (z - _PI_LO), z)
        out = np.where(hy < 0, -out, out)
        tame = ((ix - 1).view(_U32) < _FINITE_NONZERO) & ((iy - 1).view(_U32) < _FINITE_NONZERO) & (hx != _I_ONE)
        if type(tame) is not np.ndarray or _count(tame) != tame.size:  # (zeros, infinities, NaN, x = 1)
            out = _atan2f_special(y, x, hx, hy, ix, iy, out)
        return out.astype(_F32, copy=False)


def _atan2f_special(y, x, hx, hy, ix, iy, out):
    """atan2f's special values of x, y (0, infinity, NaN, x = 1) over ``out``."""
    m = ((hy >> 31) & 1) | ((hx >> 30) & 2)  # 2 * sign(x) + sign(y)
    y_inf = iy == 0x7f800000
    out = np.where(y_inf, np.where(hy < 0, -_PI_O_2, _PI_O_2), out)
    both = np.select([m == 0, m == 1, m == 2], [_PI_O_4, -_PI_O_4, _F32(3) * _PI_O_4], _F32(-3) * _PI_O_4)
    along = np.select([m == 0, m == 1, m == 2], [_F32(0), _F32(-0.0), _PI], -_PI)
    out = np.where(ix == 0x7f800000, np.where(y_inf, both, along), out)
    out = np.where(ix == 0, np.where(hy < 0, -_PI_O_2, _PI_O_2), out)
    out = np.where(iy == 0, np.select([m < 2, m == 2], [y, _PI], -_PI), out)
    one = hx == 0x3f800000  # (x = 1)
    if _count(one):
        out = np.where(one, atanf(y), out)
    return np.where((ix > 0x7f800000) | (iy > 0x7f800000), x + y, out)


def _bits(a):
    return np.asarray(a, _F32).view(_I32)


def _float(bits):
    return np.asarray(bits, _I32).view(_F32)


_LN2_HI, _LN2_LO = np.array(6.9313812256e-01, _F32), np.array(9.0580006145e-06, _F32)
_LP = tuple(np.array(c, _F32) for c in (6.6666668653e-01, 4.0000000596e-01, 2.8571429849e-01, 2.2222198546e-01,
                              1.8183572590e-01, 1.5313838422e-01, 1.4798198640e-01))


def log1pf(x):
    """glibc's log1pf of a float32 array, bit for bit."""
    x = np.asarray(x, _F32)
    one, half = c32(1), c32(0.5)
    with np.errstate(all="ignore"):
        hx = _bits(x)
        ax = hx & _I32(0x7fffffff)
        low = hx < 0x3ed413d7  # (x < 0.41422, and every negative x)
        near = low & ((hx > 0) | (hx <= _I32(-1097468385)))  # (-0.2929 < x < 0.41422: k = 0; 0xbe95f61f)
        # k != 0: 1 + x = 2**k (1 + f), c the rounding error of 1 + x over it
        u = one + x
        hu = _bits(u)
        k = (hu >> 23) - 127
        c = np.where(k > 0, one - (u - x), x - (u - one)) / u
        huge = hx >= 0x5a000000
        hu = np.where(huge, hx, hu)
        k = np.where(huge, (hx >> 23) - 127, k)
        c = np.where(huge, c32(0), c)
        hu = hu & _I32(0x007fffff)
        up = hu >= 0x3504f7
        u = np.where(up, _float(hu | _I32(0x3f000000)), _float(hu | _I32(0x3f800000)))
        k = np.where(up, k + 1, k)
        hu = np.where(up, (_I32(0x00800000) - hu) >> 2, hu)
        f = np.where(near, x, u - one)
        k = np.where(near, 0, k)
        hu = np.where(near, 1, hu)
        kf = k.astype(_F32)
        hfsq = half * f * f
        s = f / (c32(2) + f)
        z = s * s
        r = z * (_LP[0] + z * (_LP[1] + z * (_LP[2] + z * (_LP[3] + z * (_LP[4] + z * (_LP[5] + z * _LP[6]))))))
        out = np.where(k == 0, f - (hfsq - s * (hfsq + r)),
                       kf * _LN2_HI - ((hfsq - (s * (hfsq + r) + (kf * _LN2_LO + c))) - f))
        # the rare elements (|f| < 2**-20, inf, NaN, |x| < 2**-29, x <= -1), when there are any
        if _count((hu == _I0) | (ax >= _I_ONE) | (ax < _I_TINY)):
            out = _log1pf_rare(x, hx, ax, low, hu, f, k, kf, c, hfsq, out)
        return out.astype(_F32, copy=False)


def _log1pf_rare(x, hx, ax, low, hu, f, k, kf, c, hfsq, out):
    one, half = c32(1), c32(0.5)
    r0 = hfsq * (one - c32(0.66666666666666666) * f)
    tiny_f = np.where(f == 0, np.where(k == 0, c32(0), kf * _LN2_HI + (c + kf * _LN2_LO)),
                      np.where(k == 0, f - r0, kf * _LN2_HI - ((r0 - (kf * _LN2_LO + c)) - f)))
    out = np.where(hu == 0, tiny_f, out)
    out = np.where(hx >= 0x7f800000, x + x, out)
    small = low & (ax < 0x31000000)  # (|x| < 2**-29)
    out = np.where(small, np.where(ax < 0x24800000, x, x - x * x * half), out)
    below = low & (ax >= 0x3f800000)  # (x <= -1)
    return np.where(below, np.where(x == -one, c32(-np.inf), (x - x) / (x - x)), out)


_Q = tuple(np.array(c, _F32) for c in (-3.3333335072e-02, 1.5873016091e-03, -7.9365076090e-05, 4.0082177293e-06,
                             -2.0109921195e-07))


def expm1f(x):
    """glibc's expm1f of a float32 array, bit for bit."""
    x = np.asarray(x, _F32)
    one, half = c32(1), c32(0.5)
    with np.errstate(all="ignore"):
        bits = _bits(x)
        neg = bits < 0
        hx = bits & _I32(0x7fffffff)
        # argument reduction: x = k ln 2 + r, r as hi - lo (c: its rounding error)
        one_step = hx < 0x3F851592
        kk = (c32(1.4426950216e+00) * x + np.where(neg, c32(-0.5), half))
        ok = np.abs(kk) < _TWO31
        if type(ok) is np.ndarray and _count(ok) == ok.size:
            kk = kk.astype(_I32)  # (truncation)
        else:
            kk = np.where(np.isfinite(kk) & ok, kk, 0).astype(_I32)
        k = np.where(one_step, np.where(neg, -1, 1), kk).astype(_I32)
        t = k.astype(_F32)
        hi = np.where(one_step, np.where(neg, x + _LN2_HI, x - _LN2_HI), x - t * _LN2_HI)
        lo = np.where(one_step, np.where(neg, -_LN2_LO, _LN2_LO), t * _LN2_LO)
        reduce = hx > 0x3eb17218
        xr = np.where(reduce, hi - lo, x)
        c = np.where(reduce, (hi - xr) - lo, c32(0))
        k = np.where(reduce, k, 0)
        hfx = half * xr
        hxs = xr * hfx
        r1 = one + hxs * (_Q[0] + hxs * (_Q[1] + hxs * (_Q[2] + hxs * (_Q[3] + hxs * _Q[4]))))
        t = c32(3) - r1 * hfx
        e = hxs * ((r1 - t) / (c32(6) - xr * t))
        at0 = xr - (xr * e - hxs)
        e = xr * (e - c) - c
        e = e - hxs
        km1 = half * (xr - e) - half
        k1 = np.where(xr < c32(-0.25), c32(-2) * (e - (xr + half)), one + c32(2) * (xr - e))
        shift = k << 23
        y_far = _float(_bits(one - (e - xr)) + shift) - one
        tk = _float(_I32(0x3f800000) - (_I32(0x1000000) >> np.minimum(np.maximum(k, _I0), _I31)))  # (np.clip's)
        y_mid = _float(_bits(tk - (e - xr)) + shift)
        tb = _float((_I32(0x7f) - k) << 23)
        y_big = _float(_bits((xr - (e + tb)) + one) + shift)
        # (np.select of k == 0, -1, 1, (k <= -2) | (k > 56), k < 23: its choices in reverse)
        out = np.where(k < _I23, y_mid, y_big)
        out = np.where((k <= _IM2) | (k > _I56), y_far, out)
        out = np.where(k == _I1, k1, out)
        out = np.where(k == _IM1, km1, out)
        out = np.where(k == _I0, at0, out)
        if _count((hx < _I_TINY25) | (hx >= _I_EDGE)):  # (|x| < 2**-25, |x| >= 27 ln 2)
            out = np.where(~reduce & (hx < 0x33000000), x, out)
            edge = hx >= 0x4195b844
            out = np.where(edge & neg, c32(1e-30) - one, out)
            out = np.where(hx >= 0x42b17218, np.select([hx > 0x7f800000, hx == 0x7f800000, x > c32(8.8721679688e+01)],
                                                       [x + x, np.where(neg, -one, x), c32(np.inf)], out), out)
        return out.astype(_F32, copy=False)


def tanhf(x):
    """glibc's tanhf of a float32 array, bit for bit."""
    x = np.asarray(x, _F32)
    one, two = c32(1), c32(2)
    with np.errstate(all="ignore"):
        jx = _bits(x)
        ix = jx & _I32(0x7fffffff)
        ax = np.abs(x)
        big = ix >= 0x3f800000
        t = expm1f(np.where(big, two * ax, -two * ax))
        z = np.where(big, one - two / (t + two), -t / (t + two))
        if not _count((ix < _I_TINY55) | (ix >= _I_22)):  # (none of the special ranges below)
            return np.where(jx >= _I0, z, -z).astype(_F32, copy=False)
        z = np.where(ix < 0x24000000, x * (one + x), z)  # (|x| < 2**-55; its sign is x's)
        z = np.where(ix >= 0x41b00000, one - c32(1e-30), z)  # (|x| >= 22)
        out = np.where(jx >= 0, z, -z)
        out = np.where(ix < 0x24000000, z, out)
        out = np.where(ix == 0, x, out)
        return np.where(ix >= 0x7f800000, np.where(jx >= 0, one / x + one, one / x - one), out).astype(_F32, copy=False)


# glibc's expf (since 2.27; its FMA build on x86-64): x * 32/ln2 = k + r, exp(x) = 2^(k/32) *
# 2^(r/32), 2^(k/32) from a table of 2^(i/32) whose exponent field takes k // 32, 2^(r/32) a
# cubic in r (fused multiply-adds); in double, rounded once to float. An ulp off the correctly
# rounded result in 0.06% of values.
_EXPF_N = 32
_EXPF_TAB = np.array([np.exp2(np.longdouble(i) / _EXPF_N).astype(np.float64) for i in range(_EXPF_N)]).view(
    np.uint64) - (np.arange(_EXPF_N, dtype=np.uint64) << np.uint64(52 - 5))
_EXPF_INVLN2N = float.fromhex("0x1.71547652b82fep+0") * _EXPF_N
_EXPF_SHIFT = float.fromhex("0x1.8p+52")
_EXPF_C = (float.fromhex("0x1.c6af84b912394p-5") / _EXPF_N ** 3, float.fromhex("0x1.ebfce50fac4f3p-3") / _EXPF_N ** 2,
           float.fromhex("0x1.62e42ff0c52d6p-1") / _EXPF_N)


_MID_MASK = np.array((1 << 29) - 1, np.int64)
_MID = np.array(1 << 28, np.int64)
_NEAR_MID = np.array(8, np.int64)


def _expf_plain(r, s):
    """expf's polynomial with plain double steps in place of its three fmas, or None.  Each fma
    rounds once where the plain steps round twice: the products rounded first are below 2**-13
    of the sums they join (|r| <= ln 2 / 64), so 1 + C2 r differs by at most an ulp, and the
    result (in [0.99, 1.01] before s, a power of two, scales it) by at most two ulps, four
    units of 2**-53 of its power of two.  Rounded to float32 the two agree unless the plain one
    lies within 8 units of a float32 midpoint (its 29 dropped bits say so); then the fmas' steps
    run (for the whole array: one check for all of it)."""
    y = (_EXPF_C[0] * r + _EXPF_C[1]) * (r * r) + (_EXPF_C[2] * r + 1.0)
    y *= s
    low = y.view(np.int64) & _MID_MASK
    low -= _MID
    if _count(np.abs(low) <= _NEAR_MID):
        return None
    return y


def expf(a):
    """expf of a float32 array as glibc computes it (std::exp(float) of PyTorch's scalar loops)."""
    _fma = _fma_d

    x = np.asarray(a, _F32)
    with np.errstate(all="ignore"):
        xd = x.astype(np.float64)
        z = _EXPF_INVLN2N * xd
        kd = z + _EXPF_SHIFT
        ki = kd.view(np.uint64)
        kd = kd - _EXPF_SHIFT
        r = z - kd
        t = _EXPF_TAB[(ki % np.uint64(_EXPF_N)).astype(np.intp)] + (ki << np.uint64(52 - 5))
        s = t.view(np.float64)
        y = None
        if not _count(np.abs(x) >= c32(87.0)):  # (and no float32 subnormal result; NaN: below)
            y = _expf_plain(r, s)
        if y is None:
            zc = _fma(_EXPF_C[0], r, _EXPF_C[1])
            y = _fma(_EXPF_C[2], r, 1.0)
            y = _fma(zc, r * r, y) * s
        out = y.astype(_F32)
        big = np.abs(x) >= c32(88.0)
        if _count(big) or _count(np.isnan(x)):
            out = np.where(np.isnan(x), x + x, out)
            out = np.where(x > c32(float.fromhex("0x1.62e42ep6")), c32(np.inf), out)
            out = np.where(x < c32(float.fromhex("-0x1.9fe368p6")), c32(0), out)
    return out.astype(_F32, copy=False)


def _f32s(*values):
    return tuple(np.array(v, _F32) for v in values)


# glibc's erff (sysdeps/ieee754/flt-32/s_erff.c, Sun's fdlibm in float): its coefficients
_EFX = np.array(1.2837916613e-01, _F32)
_ERX = np.array(8.4506291151e-01, _F32)
_PP = _f32s(1.2837916613e-01, -3.2504209876e-01, -2.8481749818e-02, -5.7702702470e-03, -2.3763017452e-05)
_QQ = _f32s(3.9791721106e-01, 6.5022252500e-02, 5.0813062117e-03, 1.3249473704e-04, -3.9602282413e-06)
_PA = _f32s(-2.3621185683e-03, 4.1485610604e-01, -3.7220788002e-01, 3.1834661961e-01, -1.1089469492e-01,
            3.5478305072e-02, -2.1663755178e-03)
_QA = _f32s(1.0642088205e-01, 5.4039794207e-01, 7.1828655899e-02, 1.2617121637e-01, 1.3637083583e-02,
            1.1984500103e-02)
_RA = _f32s(-9.8649440333e-03, -6.9385856390e-01, -1.0558626175e+01, -6.2375331879e+01, -1.6239666748e+02,
            -1.8460508728e+02, -8.1287437439e+01, -9.8143291473e+00)
_SA = _f32s(1.9651271820e+01, 1.3765776062e+02, 4.3456588745e+02, 6.4538726807e+02, 4.2900814819e+02,
            1.0863500214e+02, 6.5702495575e+00, -6.0424413532e-02)
_RB = _f32s(-9.8649431020e-03, -7.9928326607e-01, -1.7757955551e+01, -1.6063638306e+02, -6.3756646729e+02,
            -1.0250950928e+03, -4.8351919556e+02)
_SB = _f32s(3.0338060379e+01, 3.2579251099e+02, 1.5367296143e+03, 3.1998581543e+03, 2.5530502930e+03,
            4.7452853394e+02, -2.2440952301e+01)


def _horner(coeffs, s, one_first=False):
    """c0 + s*(c1 + s*(c2 + ...)) in float32 (1 + s*(...) when ``one_first``: the Q polynomials)."""
    acc = coeffs[-1]  # (a 0-d array: the first step broadcasts it)
    for c in coeffs[-2::-1]:
        acc = c + s * acc
    return c32(1) + s * acc if one_first else acc


_ERF_EDGES = tuple(_i32(v) for v in (0x31800000, 0x3f580000, 0x3fa00000, 0x40c00000, 0x7f800000, 0x4036DB6E))


def erff(a):
    """erf of a float32 array as glibc's erff computes it (its branches, float32 steps and
    expf), which a float32 std::erf in PyTorch's scalar loops calls. (Each range's steps run
    only when an element is in it: the others' are not selected.)"""
    x = np.asarray(a, _F32)
    bits = x.view(np.int32)
    ix = bits & np.int32(0x7fffffff)
    one = c32(1)
    e_tiny, e_mid, e_big, e_six, e_inf, e_near = _ERF_EDGES
    with np.errstate(all="ignore"):
        ge_mid, ge_big, ge_six = ix >= e_mid, ix >= e_big, ix >= e_six
        n_mid, n_big, n_six = _count(ge_mid), _count(ge_big), _count(ge_six)
        if n_mid < ix.size:
            # |x| < 0.84375: x + x * P(x^2) / Q(x^2) (below 2**-28: x + efx * x)
            z = x * x
            small = x + x * (_horner(_PP, z) / _horner(_QQ, z, True))
            tiny = x + _EFX * x
            out = np.where(ix < e_tiny, tiny, small)
        else:
            out = x.copy()  # (every element is set below)
        if n_mid > n_big:
            # 0.84375 <= |x| < 1.25: +-(erx + P(s) / Q(s)), s = |x| - 1
            s = np.abs(x) - one
            pq = _horner(_PA, s) / _horner(_QA, s, True)
            mid = np.where(bits >= 0, _ERX + pq, -_ERX - pq)
            out = np.where(ge_mid, mid, out)
        if n_big > n_six:
            # 1.25 <= |x| < 6: 1 - exp(-z*z - 0.5625) * exp((z - ax)(z + ax) + R/S) / ax, z = ax's top bits
            ax = np.abs(x)
            s = one / (ax * ax)
            near = ix < e_near  # |x| < 1/0.35
            n_near = _count(near)
            if n_near == near.size:
                R, S = _horner(_RA, s), _horner(_SA, s, True)
            elif not n_near:
                R, S = _horner(_RB, s), _horner(_SB, s, True)
            else:
                R = np.where(near, _horner(_RA, s), _horner(_RB, s))
                S = np.where(near, _horner(_SA, s, True), _horner(_SB, s, True))
            zt = (ax.view(np.int32) & np.int32(-4096)).view(_F32)  # (0xfffff000)
            r = expf(-zt * zt - c32(0.5625)) * expf((zt - ax) * (zt + ax) + R / S)
            big = np.where(bits >= 0, one - r / ax, r / ax - one)
            out = np.where(ge_big, big, out)
        if n_six:
            out = np.where(ge_six, np.where(bits >= 0, one, -one), out)  # (1 - tiny rounds to 1)
            out = np.where(ix >= e_inf, np.where(np.isnan(x), x, np.where(bits >= 0, one, -one)), out)
    return out.astype(_F32, copy=False)


def erfcf(a):
    """erfc of a float32 array as glibc's erfcf computes it (erff's coefficients and branches:
    1 - erf below 0.84375, 1 - erx - P/Q below 1.25, exp(-z*z - 0.5625) exp(...) / x below 28)."""
    x = np.asarray(a, _F32)
    bits = x.view(np.int32)
    ix = bits & np.int32(0x7fffffff)
    one, half, two = c32(1), c32(0.5), c32(2)
    with np.errstate(all="ignore"):
        z = x * x
        y = _horner(_PP, z) / _horner(_QQ, z, True)
        small = np.where(bits < np.int32(0x3e800000), one - (x + x * y), half - (x * y + (x - half)))
        small = np.where(ix < np.int32(0x32800000), one - x, small)
        s = np.abs(x) - one
        pq = _horner(_PA, s) / _horner(_QA, s, True)
        mid = np.where(bits >= 0, (one - _ERX) - pq, one + (_ERX + pq))
        ax = np.abs(x)
        s = one / (ax * ax)
        near = ix < np.int32(0x4036DB6D)  # |x| < 1/0.35
        R = np.where(near, _horner(_RA, s), _horner(_RB, s))
        S = np.where(near, _horner(_SA, s, True), _horner(_SB, s, True))
        zt = (ax.view(np.int32) & np.int32(-8192)).view(_F32)  # (0xffffe000)
        r = expf(-zt * zt - c32(0.5625)) * expf((zt - ax) * (zt + ax) + R / S)
        big = np.where(bits > 0, r / ax, two - r / ax)
        big = np.where((bits < 0) & ~near & (ix >= np.int32(0x40c00000)), two, big)  # (2 - tiny rounds to 2)
        out = np.where(ix < np.int32(0x3f580000), small, np.where(ix < np.int32(0x3fa00000), mid, big))
        out = np.where(ix >= np.int32(0x41e00000), np.where(bits > 0, c32(0), two), out)  # (tiny * tiny: 0)
        inf_nan = np.where(np.isnan(x), x, np.where(bits >= 0, c32(0), two))
        return np.where(ix >= np.int32(0x7f800000), inf_nan, out).astype(_F32, copy=False)


def lgammaf_positive(a):
    """glibc's lgammaf (fdlibm's e_lgammaf_r: e_lgamma_r's steps in float, its coefficients
    rounded to float, tf split as 0xbdf8cdcd plus the tail tt) for x > 0; other values take
    the double lgamma rounded (a caller of positive arguments only: igamma's)."""
    from . import _lgamma_math as L

    x = np.asarray(a, _F32)
    ix = x.view(np.int32) & np.int32(0x7fffffff)
    f = _F32
    one, half = f(1), f(0.5)
    A = tuple(f(c) for c in L._A)
    T = tuple(f(c) for c in L._T)
    U = tuple(f(c) for c in L._U)
    V = (None,) + tuple(f(c) for c in L._V[1:])
    S = tuple(f(c) for c in L._S)
    R = (None,) + tuple(f(c) for c in L._R[1:])
    W = tuple(f(c) for c in L._W)
    tc, tf, tt = f(L._TC), np.array(0xbdf8cdcd, np.uint32).view(f)[()], f(6.6971006518e-09)
    with np.errstate(all="ignore"):
        # x < 2: lgamma(x + 1) - log(x) below 0.9, then three expansions by the range of y
        low = ix <= np.int32(0x3f666666)
        r0 = np.where(low, -logf(x), f(0))
        y0 = np.where(low, np.where(ix >= np.int32(0x3f3b4a20), one - x, np.where(ix >= np.int32(0x3e6d3308), x - (tc - one), x)),
                      np.where(ix >= np.int32(0x3fdda618), f(2) - x, np.where(ix >= np.int32(0x3f9da620), x - tc, x - one)))
        case = np.where(low, np.where(ix >= np.int32(0x3f3b4a20), 0, np.where(ix >= np.int32(0x3e6d3308), 1, 2)),
                        np.where(ix >= np.int32(0x3fdda618), 0, np.where(ix >= np.int32(0x3f9da620), 1, 2)))
        y = y0
        z = y * y
        p1 = A[0] + z * (A[2] + z * (A[4] + z * (A[6] + z * (A[8] + z * A[10]))))
        p2 = z * (A[1] + z * (A[3] + z * (A[5] + z * (A[7] + z * (A[9] + z * A[11])))))
        c0 = r0 + ((y * p1 + p2) - half * y)
        w = z * y
        q1 = T[0] + w * (T[3] + w * (T[6] + w * (T[9] + w * T[12])))
        q2 = T[1] + w * (T[4] + w * (T[7] + w * (T[10] + w * T[13])))
        q3 = T[2] + w * (T[5] + w * (T[8] + w * (T[11] + w * T[14])))
        c1 = r0 + (tf + (z * q1 - (tt - w * (q2 + y * q3))))
        u = y * (U[0] + y * (U[1] + y * (U[2] + y * (U[3] + y * (U[4] + y * U[5])))))
        v = one + y * (V[1] + y * (V[2] + y * (V[3] + y * (V[4] + y * V[5]))))
        c2 = r0 + (-half * y + u / v)
        below2 = np.where(case == 0, c0, np.where(case == 1, c1, c2))
        below2 = np.where((ix == np.int32(0x3f800000)) | (ix == np.int32(0x40000000)), f(0), below2)
        # 2 <= x < 8: the rational function of the fraction, log of the product (y + 2)...(y + i - 1)
        i = np.where(ix < np.int32(0x41000000), np.trunc(x), 2).astype(np.int64)
        y = x - i.astype(f)
        p = y * (S[0] + y * (S[1] + y * (S[2] + y * (S[3] + y * (S[4] + y * (S[5] + y * S[6]))))))
        q = one + y * (R[1] + y * (R[2] + y * (R[3] + y * (R[4] + y * (R[5] + y * R[6])))))
        r = half * y + p / q
        zz = np.full_like(x, one)
        for k in range(7, 2, -1):
            zz = np.where(i >= k, zz * (y + f(k - 1)), zz)
        mid = np.where(i >= 3, r + logf(zz), r)
        # 8 <= x < 2^58: Stirling; beyond, x (log x - 1)
        t = logf(x)
        zi = one / x
        yy = zi * zi
        ww = W[0] + zi * (W[1] + yy * (W[2] + yy * (W[3] + yy * (W[4] + yy * (W[5] + yy * W[6])))))
        big = (x - half) * (t - one) + ww
        huge = x * (t - one)
        out = np.where(ix < np.int32(0x40000000), below2, np.where(ix < np.int32(0x41000000), mid,
                                                                    np.where(ix < np.int32(0x5c800000), big, huge)))
        out = np.where(ix < np.int32(0x35000000), -logf(x), out)
        fallback = (x <= 0) | ~np.isfinite(x)
        if fallback.any():
            out = np.where(fallback, L.lgamma64(x.astype(np.float64)).astype(f), out)
        return out.astype(f, copy=False)


_h = float.fromhex
# glibc's logf (e_logf.c, its FMA build): log(c) + log1p(z / c - 1) + k ln2 in double, c from a
# table of 16 subintervals of [0x3f330000, 2 * that), a degree-3 polynomial
_LOGF_TAB = np.array([[_h(a), _h(b)] for a, b in (
    ("0x1.661ec79f8f3bep+0", "-0x1.57bf7808caadep-2"), ("0x1.571ed4aaf883dp+0", "-0x1.2bef0a7c06ddbp-2"),
    ("0x1.49539f0f010bp+0", "-0x1.01eae7f513a67p-2"), ("0x1.3c995b0b80385p+0", "-0x1.b31d8a68224e9p-3"),
    ("0x1.30d190c8864a5p+0", "-0x1.6574f0ac07758p-3"), ("0x1.25e227b0b8eap+0", "-0x1.1aa2bc79c81p-3"),
    ("0x1.1bb4a4a1a343fp+0", "-0x1.a4e76ce8c0e5ep-4"), ("0x1.12358f08ae5bap+0", "-0x1.1973c5a611cccp-4"),
    ("0x1.0953f419900a7p+0", "-0x1.252f438e10c1ep-5"), ("0x1p+0", "0x0p+0"),
    ("0x1.e608cfd9a47acp-1", "0x1.aa5aa5df25984p-5"), ("0x1.ca4b31f026aap-1", "0x1.c5e53aa362eb4p-4"),
    ("0x1.b2036576afce6p-1", "0x1.526e57720db08p-3"), ("0x1.9c2d163a1aa2dp-1", "0x1.bc2860d22477p-3"),
    ("0x1.886e6037841edp-1", "0x1.1058bc8a07ee1p-2"), ("0x1.767dcf5534862p-1", "0x1.4043057b6ee09p-2"))])
_LOGF_LN2 = _h("0x1.62e42fefa39efp-1")
_LOGF_A = tuple(_h(c) for c in ("-0x1.00ea348b88334p-2", "0x1.5575b0be00b6ap-2", "-0x1.ffffef20a4123p-2"))


def logf(a):
    """glibc's logf of a float32 array, bit for bit (NaN for a negative number with its sign set)."""
    x = np.asarray(a, _F32)
    fma64 = _fma_d

    with np.errstate(all="ignore"):
        ix = x.view(np.uint32).astype(np.int64)
        sub = (ix > 0) & (ix < 0x00800000)  # (a positive subnormal: normalised)
        ix = np.where(sub, (x * c32(2.0 ** 23)).view(np.uint32).astype(np.int64) - (23 << 23), ix)
        tmp = (ix - 0x3F330000) & 0xFFFFFFFF
        i = (tmp >> 19) % 16
        k = np.where(tmp >= 1 << 31, tmp - (1 << 32), tmp) >> 23
        iz = (ix - (tmp & (0x1FF << 23))) & 0xFFFFFFFF
        z = iz.astype(np.uint32).view(_F32).astype(np.float64)
        r = fma64(z, _LOGF_TAB[i, 0], np.float64(-1.0))
        y0 = fma64(k.astype(np.float64), np.float64(_LOGF_LN2), _LOGF_TAB[i, 1])
        r2 = r * r
        y = fma64(np.float64(_LOGF_A[1]), r, np.float64(_LOGF_A[2]))
        y = fma64(np.float64(_LOGF_A[0]), r2, y)
        y = fma64(y, r2, y0 + r)
        out = np.asarray(y).astype(_F32)
        out = np.where(x == 1, c32(0), out)
        out = np.where(x == 0, c32(-np.inf), out)
        out = np.where(x == c32(np.inf), x, out)
        out = np.where(x < 0, _F32(-np.nan), out)
        return np.where(np.isnan(x), x, out).astype(_F32, copy=False).reshape(x.shape)


# glibc's sinf (s_sinf.c, its FMA build; glibc's own since 2.28): in double, |x| < pi/4 a degree-7
# odd polynomial, below 120 x reduced by n pi/2 (n from x 2/pi, rounded through 2^24) and the sine
# or cosine polynomial of the remainder by n's parity, signs from n; from 120 on (Payne-Hanek's
# reduction in glibc) agrad takes the correctly rounded value
#: 2/pi's fraction bits, 32 at a time, each entry 8 bits on from the one before (glibc's __inv_pio4)
_INV_PIO4 = np.array([0xa2, 0xa2f9, 0xa2f983, 0xa2f9836e, 0xf9836e4e, 0x836e4e44, 0x6e4e4415, 0x4e441529, 0x441529fc,
                      0x1529fc27, 0x29fc2757, 0xfc2757d1, 0x2757d1f5, 0x57d1f534, 0xd1f534dd, 0xf534ddc0, 0x34ddc0db,
                      0xddc0db62, 0xc0db6295, 0xdb629599, 0x6295993c, 0x95993c43, 0x993c4390, 0x3c439041], np.uint64)
_PI63 = _h("0x1.921FB54442D18p-62")
_SC_HPI_INV = _h("0x1.45F306DC9C883p+23")
_SC_HPI = _h("0x1.921FB54442D18p0")
_SC_C = tuple(_h(c) for c in ("0x1p0", "-0x1.ffffffd0c621cp-2", "0x1.55553e1068f19p-5", "-0x1.6c087e89a359dp-10",
                              "0x1.99343027bf8c3p-16"))
_SC_S = tuple(_h(c) for c in ("-0x1.555545995a603p-3", "0x1.1107605230bc4p-7", "-0x1.994eb3774cf24p-13"))


def sinf(a):
    """glibc's sinf of a float32 array, bit for bit below |x| = 120."""
    return _sincosf(a, False)


def cosf(a):
    """glibc's cosf of a float32 array (sinf's steps, the other polynomial: n + 1's parity; 1
    below 2^-12), bit for bit below |x| = 120."""
    return _sincosf(a, True)


def _reduce_large(y):
    """glibc's reduce_large: |y| (120 and beyond) times 2/pi in fixed point from the window of
    __inv_pio4 its exponent selects (three 32x32-bit products, the top one's low word only),
    as (remainder * pi/2 in double, quadrant n)."""
    xi = y.view(np.uint32).astype(np.uint64)
    arr = (xi >> np.uint64(26)) & np.uint64(15)
    shift = (xi >> np.uint64(23)) & np.uint64(7)
    m = ((xi & np.uint64(0xFFFFFF)) | np.uint64(0x800000)) << shift
    res0 = (m * _INV_PIO4[arr]) & np.uint64(0xFFFFFFFF)
    res1 = m * _INV_PIO4[arr + np.uint64(4)]
    res2 = m * _INV_PIO4[arr + np.uint64(8)]
    res0 = (res2 >> np.uint64(32)) | (res0 << np.uint64(32))
    res0 = res0 + res1
    n = (res0 + np.uint64(1 << 61)) >> np.uint64(62)
    res0 = res0 - (n << np.uint64(62))
    return res0.view(np.int64).astype(np.float64) * _PI63, n.astype(np.int64)


def _sincosf(a, cos):
    fma = _fma_d

    y = np.asarray(a, _F32)
    x = y.astype(np.float64)
    top = (y.view(np.uint32) >> 20) & 0x7FF
    with np.errstate(all="ignore"):
        small = top < (np.array(_h("0x1.921FB6p-1"), _F32).view(np.uint32) >> 20)
        r = x * _SC_HPI_INV
        ri = np.where(np.abs(r) < 2.0 ** 31, np.trunc(r), 0).astype(np.int64)
        n = np.where(small, 0, (ri + 0x800000) >> 24)
        xr = np.where(small, x, fma(-n.astype(np.float64), np.float64(_SC_HPI), x))
        big = top >= (np.array(120.0, _F32).view(np.uint32) >> 20)
        quadrant = n
        if big.any():  # (from 120 on: glibc's reduce_large; sinf's quadrant takes y's sign in)
            xl, nl = _reduce_large(np.where(big, y, _F32(0)))
            xr = np.where(big, xl, xr)
            n = np.where(big, nl, n)
            quadrant = np.where(big & ~np.bool_(cos), nl + (y.view(np.uint32) >> 31).astype(np.int64), n)
        sign = np.where((quadrant & 3 == 1) | (quadrant & 3 == 2), -1.0, 1.0)
        neg_cos = (quadrant & 2) != 0  # (the second table: -cos)
        xs = xr * sign
        x2 = xr * xr
        x3 = xs * x2
        s1 = fma(x2, np.float64(_SC_S[2]), np.float64(_SC_S[1]))
        x7 = x3 * x2
        s = fma(x3, np.float64(_SC_S[0]), xs)
        sin_part = fma(x7, s1, s)
        c = np.where(neg_cos, -1.0, 1.0)
        x4 = x2 * x2
        c2 = fma(x2, c * _SC_C[4], c * _SC_C[3])
        c1 = fma(x2, c * _SC_C[1], c * _SC_C[0])
        x6 = x4 * x2
        cc = fma(x4, c * _SC_C[2], c1)
        cos_part = fma(x6, c2, cc)
        out = np.where((n ^ cos) & 1 == 0, sin_part, cos_part).astype(_F32)
        out = np.where(top < (np.array(2.0 ** -12, _F32).view(np.uint32) >> 20), _F32(1) if cos else y, out)
        return np.where(np.isfinite(y), out, y - y).astype(_F32, copy=False)


# acosf: fdlibm's e_acosf.c in float arithmetic (glibc 2.36's): |x| < 0.5 as pi/2 - (x + x r(x^2)),
# pi/2's low part first; beyond, 2 asin(sqrt((1 -+ x) / 2)) with the root split into a high part
# (its upper 12 bits) and a correction; r = p / q a rational function
def _from_bits(v):
    return np.array(v, np.uint32).view(_F32)[()]


_AC_PI = _from_bits(0x40490fda)
_AC_PIO2_HI = _from_bits(0x3fc90fda)
_AC_PIO2_LO = _from_bits(0x33a22168)
_AC_P = tuple(_from_bits(v) for v in (0x3e2aaaab, 0xbea6b090, 0x3e4e0aa8, 0xbd241146, 0x3a4f7f04, 0x3811ef08))
_AC_Q = tuple(_from_bits(v) for v in (0xc019d139, 0x4001572d, 0xbf303361, 0x3d9dc62e))


def _acos_r(z):
    p = z * (_AC_P[0] + z * (_AC_P[1] + z * (_AC_P[2] + z * (_AC_P[3] + z * (_AC_P[4] + z * _AC_P[5])))))
    q = _F32(1) + z * (_AC_Q[0] + z * (_AC_Q[1] + z * (_AC_Q[2] + z * _AC_Q[3])))
    return p / q


def acosf(a):
    """glibc's acosf of a float32 array, bit for bit."""
    x = np.asarray(a, _F32)
    hx = x.view(np.int32)
    ix = hx & 0x7FFFFFFF
    with np.errstate(all="ignore"):
        small = _AC_PIO2_HI - (x - (_AC_PIO2_LO - x * _acos_r(x * x)))
        small = np.where(ix <= 0x32800000, _AC_PIO2_HI + _AC_PIO2_LO, small)
        zn = (_F32(1) + x) * _F32(0.5)
        s = np.sqrt(zn)
        neg = _AC_PI - _F32(2) * (s + (_acos_r(zn) * s - _AC_PIO2_LO))
        zp = (_F32(1) - x) * _F32(0.5)
        s = np.sqrt(zp)
        df = (s.view(np.int32) & np.int32(-4096)).view(_F32)
        c = (zp - df * df) / (s + df)
        pos = _F32(2) * (df + (_acos_r(zp) * s + c))
        out = np.where(ix < 0x3F000000, small, np.where(hx < 0, neg, pos))
        out = np.where(ix == 0x3F800000, np.where(hx > 0, _F32(0), _AC_PI + _F32(2) * _AC_PIO2_LO), out)
        return np.where(ix > 0x3F800000, _F32(np.nan), out).astype(_F32, copy=False)
