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
"""

from __future__ import annotations

import numpy as np

_F32 = np.float32
_I32 = np.int32

_ATANHI = np.array([4.6364760399e-01, 7.8539812565e-01, 9.8279368877e-01, 1.5707962513e+00], _F32)
_ATANLO = np.array([5.0121582440e-09, 3.7748947079e-08, 3.4473217170e-08, 7.5497894159e-08], _F32)
_AT = tuple(_F32(c) for c in (3.3333334327e-01, -2.0000000298e-01, 1.4285714924e-01, -1.1111110449e-01,
                              9.0908870101e-02, -7.6918758452e-02, 6.6610731184e-02, -5.8335702866e-02,
                              4.9768779427e-02, -3.6531571299e-02, 1.6285819933e-02))
_PI_O_4, _PI_O_2, _PI, _PI_LO = (_F32(7.8539818525e-01), _F32(1.5707963705e+00), _F32(3.1415927410e+00),
                                 _F32(-8.7422776573e-08))


def atanf(x):
    """glibc's atanf of a float32 array, bit for bit."""
    x = np.asarray(x, _F32)
    one = _F32(1)
    with np.errstate(all="ignore"):
        hx = x.view(_I32)
        ix = hx & _I32(0x7fffffff)
        ax = np.abs(x)
        rng = np.select([ix < 0x3ee00000, ix < 0x3f300000, ix < 0x3f980000, ix < 0x401c0000], [-1, 0, 1, 2], 3)
        r = np.select([rng == -1, rng == 0, rng == 1, rng == 2],
                      [x, (_F32(2) * ax - one) / (_F32(2) + ax), (ax - one) / (ax + one),
                       (ax - _F32(1.5)) / (one + _F32(1.5) * ax)], _F32(-1) / ax).astype(_F32)
        z = r * r
        w = z * z
        s1 = z * (_AT[0] + w * (_AT[2] + w * (_AT[4] + w * (_AT[6] + w * (_AT[8] + w * _AT[10])))))
        s2 = w * (_AT[1] + w * (_AT[3] + w * (_AT[5] + w * (_AT[7] + w * _AT[9]))))
        k = np.maximum(rng, 0)
        far = _ATANHI[k] - ((r * (s1 + s2) - _ATANLO[k]) - r)
        out = np.where(rng < 0, r - r * (s1 + s2), np.where(hx < 0, -far, far))
        out = np.where(ix < 0x31000000, x, out)  # (|x| < 2**-29)
        big = _ATANHI[3] + _ATANLO[3]
        out = np.where(ix >= 0x4c000000, np.where(hx < 0, -big, big), out)  # (|x| >= 2**25)
        return np.where(ix > 0x7f800000, x + x, out).astype(_F32, copy=False)


def atan2f(y, x):
    """glibc's atan2f of float32 arrays (broadcast), bit for bit."""
    y, x = np.broadcast_arrays(np.asarray(y, _F32), np.asarray(x, _F32))
    with np.errstate(all="ignore"):
        hx, hy = x.view(_I32), y.view(_I32)
        ix, iy = hx & _I32(0x7fffffff), hy & _I32(0x7fffffff)
        m = ((hy >> 31) & 1) | ((hx >> 30) & 2)  # 2 * sign(x) + sign(y)
        k = (iy - ix) >> 23
        z = atanf(np.abs(y / x))
        z = np.where(k > 60, _PI_O_2 + _F32(0.5) * _PI_LO, np.where((hx < 0) & (k < -60), _F32(0), z))
        out = np.select([m == 0, m == 1, m == 2], [z, -z, _PI - (z - _PI_LO)], (z - _PI_LO) - _PI)
        y_inf = iy == 0x7f800000
        out = np.where(y_inf, np.where(hy < 0, -_PI_O_2, _PI_O_2), out)
        both = np.select([m == 0, m == 1, m == 2], [_PI_O_4, -_PI_O_4, _F32(3) * _PI_O_4], _F32(-3) * _PI_O_4)
        along = np.select([m == 0, m == 1, m == 2], [_F32(0), _F32(-0.0), _PI], -_PI)
        out = np.where(ix == 0x7f800000, np.where(y_inf, both, along), out)
        out = np.where(ix == 0, np.where(hy < 0, -_PI_O_2, _PI_O_2), out)
        out = np.where(iy == 0, np.select([m < 2, m == 2], [y, _PI], -_PI), out)
        out = np.where(hx == 0x3f800000, atanf(y), out)  # (x = 1)
        return np.where((ix > 0x7f800000) | (iy > 0x7f800000), x + y, out).astype(_F32, copy=False)


def _bits(a):
    return np.asarray(a, _F32).view(_I32)


def _float(bits):
    return np.asarray(bits, _I32).view(_F32)


_LN2_HI, _LN2_LO = _F32(6.9313812256e-01), _F32(9.0580006145e-06)
_LP = tuple(_F32(c) for c in (6.6666668653e-01, 4.0000000596e-01, 2.8571429849e-01, 2.2222198546e-01,
                              1.8183572590e-01, 1.5313838422e-01, 1.4798198640e-01))


def log1pf(x):
    """glibc's log1pf of a float32 array, bit for bit."""
    x = np.asarray(x, _F32)
    one, half = _F32(1), _F32(0.5)
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
        c = np.where(huge, _F32(0), c)
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
        # |f| < 2**-20
        r0 = hfsq * (one - _F32(0.66666666666666666) * f)
        tiny_f = np.where(f == 0, np.where(k == 0, _F32(0), kf * _LN2_HI + (c + kf * _LN2_LO)),
                          np.where(k == 0, f - r0, kf * _LN2_HI - ((r0 - (kf * _LN2_LO + c)) - f)))
        s = f / (_F32(2) + f)
        z = s * s
        r = z * (_LP[0] + z * (_LP[1] + z * (_LP[2] + z * (_LP[3] + z * (_LP[4] + z * (_LP[5] + z * _LP[6]))))))
        out = np.where(k == 0, f - (hfsq - s * (hfsq + r)),
                       kf * _LN2_HI - ((hfsq - (s * (hfsq + r) + (kf * _LN2_LO + c))) - f))
        out = np.where(hu == 0, tiny_f, out)
        out = np.where(hx >= 0x7f800000, x + x, out)
        small = low & (ax < 0x31000000)  # (|x| < 2**-29)
        out = np.where(small, np.where(ax < 0x24800000, x, x - x * x * half), out)
        below = low & (ax >= 0x3f800000)  # (x <= -1)
        out = np.where(below, np.where(x == -one, _F32(-np.inf), (x - x) / (x - x)), out)
        return out.astype(_F32, copy=False)


_Q = tuple(_F32(c) for c in (-3.3333335072e-02, 1.5873016091e-03, -7.9365076090e-05, 4.0082177293e-06,
                             -2.0109921195e-07))


def expm1f(x):
    """glibc's expm1f of a float32 array, bit for bit."""
    x = np.asarray(x, _F32)
    one, half = _F32(1), _F32(0.5)
    with np.errstate(all="ignore"):
        bits = _bits(x)
        neg = bits < 0
        hx = bits & _I32(0x7fffffff)
        # argument reduction: x = k ln 2 + r, r as hi - lo (c: its rounding error)
        one_step = hx < 0x3F851592
        kk = (_F32(1.4426950216e+00) * x + np.where(neg, _F32(-0.5), half))
        kk = np.where(np.isfinite(kk) & (np.abs(kk) < 2.0 ** 31), kk, 0).astype(_I32)  # (truncation)
        k = np.where(one_step, np.where(neg, -1, 1), kk).astype(_I32)
        t = k.astype(_F32)
        hi = np.where(one_step, np.where(neg, x + _LN2_HI, x - _LN2_HI), x - t * _LN2_HI)
        lo = np.where(one_step, np.where(neg, -_LN2_LO, _LN2_LO), t * _LN2_LO)
        reduce = hx > 0x3eb17218
        xr = np.where(reduce, hi - lo, x)
        c = np.where(reduce, (hi - xr) - lo, _F32(0))
        k = np.where(reduce, k, 0)
        hfx = half * xr
        hxs = xr * hfx
        r1 = one + hxs * (_Q[0] + hxs * (_Q[1] + hxs * (_Q[2] + hxs * (_Q[3] + hxs * _Q[4]))))
        t = _F32(3) - r1 * hfx
        e = hxs * ((r1 - t) / (_F32(6) - xr * t))
        at0 = xr - (xr * e - hxs)
        e = xr * (e - c) - c
        e = e - hxs
        km1 = half * (xr - e) - half
        k1 = np.where(xr < _F32(-0.25), _F32(-2) * (e - (xr + half)), one + _F32(2) * (xr - e))
        shift = k << 23
        y_far = _float(_bits(one - (e - xr)) + shift) - one
        tk = _float(_I32(0x3f800000) - (_I32(0x1000000) >> np.clip(k, 0, 31)))
        y_mid = _float(_bits(tk - (e - xr)) + shift)
        tb = _float((_I32(0x7f) - k) << 23)
        y_big = _float(_bits((xr - (e + tb)) + one) + shift)
        out = np.select([k == 0, k == -1, k == 1, (k <= -2) | (k > 56), k < 23],
                        [at0, km1, k1, y_far, y_mid], y_big)
        out = np.where(~reduce & (hx < 0x33000000), x, out)  # (|x| < 2**-25)
        edge = hx >= 0x4195b844  # (|x| >= 27 ln 2)
        out = np.where(edge & neg, _F32(1e-30) - one, out)
        out = np.where(hx >= 0x42b17218, np.select([hx > 0x7f800000, hx == 0x7f800000, x > _F32(8.8721679688e+01)],
                                                   [x + x, np.where(neg, -one, x), _F32(np.inf)], out), out)
        return out.astype(_F32, copy=False)


def tanhf(x):
    """glibc's tanhf of a float32 array, bit for bit."""
    x = np.asarray(x, _F32)
    one, two = _F32(1), _F32(2)
    with np.errstate(all="ignore"):
        jx = _bits(x)
        ix = jx & _I32(0x7fffffff)
        ax = np.abs(x)
        big = ix >= 0x3f800000
        t = expm1f(np.where(big, two * ax, -two * ax))
        z = np.where(big, one - two / (t + two), -t / (t + two))
        z = np.where(ix < 0x24000000, x * (one + x), z)  # (|x| < 2**-55; its sign is x's)
        z = np.where(ix >= 0x41b00000, one - _F32(1e-30), z)  # (|x| >= 22)
        out = np.where(jx >= 0, z, -z)
        out = np.where(ix < 0x24000000, z, out)
        out = np.where(ix == 0, x, out)
        return np.where(ix >= 0x7f800000, np.where(jx >= 0, one / x + one, one / x - one), out).astype(_F32, copy=False)
