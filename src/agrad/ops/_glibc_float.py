"""glibc's float functions as PyTorch's scalar loops call them (``std::atan2(float, float)``).

glibc 2.36's ``atan2f``/``atanf`` are fdlibm's algorithms in float arithmetic (no fused
multiply-adds: the x86-64 baseline build), an ulp or so from the correctly rounded value in
about 13% of random pairs, so no wider arithmetic gives them; their steps, vectorised:

- ``atanf``: |x| reduced into one of five ranges (below 7/16, 11/16, 19/16, 39/16, above) by
  atan's addition formula about 0, 1/2, 1, 3/2 and infinity, the odd series in the reduced
  argument's square split into two polynomials in its fourth power, atan of the range's centre
  added as a high and a low part.
- ``atan2f``: the special values of x, y in 0, infinity, NaN first, then atanf(|y / x|) moved to
  the quadrant of (x, y) with pi's low part.
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
