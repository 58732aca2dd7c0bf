"""torch.special.erfcx and log_ndtr (ATen's Math.h): the Faddeeva package's erfcx (Steven G.
Johnson's: a continued fraction above 50, else one of 100 Chebyshev pieces in y = 4 / (4 + x),
erfcx(-x) = 2 exp(x^2) - erfcx(x) below 0) and SciPy's log_ndtr built on it, in the kernel's
type.  The pieces' coefficients are double literals, so a float32 kernel sums them in double
and rounds once; the continued fraction mixes float and double as C's promotions do.
"""

from __future__ import annotations

import math

import numpy as np

from . import _glibc_float
from ._erf_math import calerf
from ._lgamma_math import each
from ._special_math import fma, libm
from ._special_tables import ERFCX_Y100

_F64 = np.float64
_F32 = np.float32
_Y100 = np.array(ERFCX_Y100, _F64)  # (100, 7): c0 .. c6
_ISPI = 0.56418958354775628694807945156  # 1 / sqrt(pi)
_erfc64 = each(math.erfc, lambda v: calerf(v, True))


def erfcx_y100(y100):
    """erfcx_y100: the piece int(y100) at t = 2 y100 - (2k + 1), Horner's steps in double (not
    fused, unlike calc_erfcx's continued fraction: so the build compiled it); 1.0 past the last
    piece (y100 = 100: x = 0)."""
    y = np.asarray(y100)
    t_ = y.dtype.type
    with np.errstate(all="ignore"):
        k = np.where(np.isfinite(y) & (y >= 0) & (y < 100), y, 100).astype(np.int64)
        t = (t_(2) * y - (2 * k + 1).astype(y.dtype)).astype(_F64)
        c = _Y100[np.minimum(k, 99)]
        r = c[..., 6]
        for j in range(5, -1, -1):
            r = r * t + c[..., j]
        return np.where(k >= 100, 1.0, r).astype(y.dtype)


def _two_exp_xx(x, mid):
    """2 exp(x * x) and 2 exp(x * x) - mid as calc_erfcx computes them: the unqualified ``exp`` is
    C's double one, so a float32 kernel takes exp of the float product in double, subtracts in
    double and rounds once."""
    xx = x * x
    if x.dtype == _F64:
        e2 = 2.0 * libm("exp", xx)
        return e2, e2 - mid
    e2 = 2.0 * libm("exp", xx.astype(_F64))
    return e2.astype(x.dtype), (e2 - mid.astype(_F64)).astype(x.dtype)


def erfcx(a):
    x = np.asarray(a)
    t = x.dtype.type
    with np.errstate(all="ignore"):
        pos = x >= 0
        mid = erfcx_y100(t(400) / (t(4) + np.where(pos, x, -x)))
        if x.dtype == _F64:
            xx = x * x
            frac = t(_ISPI) * fma(xx, xx + 4.5, 2.0) / (x * fma(xx, xx + 5.0, 3.75))
        else:  # (+ 4.5, + 2 and + 3.75 in double: the literals are doubles; (x*x) * (x*x + 5) in float)
            xx = x * x
            xd = xx.astype(_F64)
            num = _F64(t(_ISPI)) * fma(xd, xd + 4.5, 2.0)
            den = x.astype(_F64) * ((xx * (xx + t(5))).astype(_F64) + 3.75)
            frac = (num / den).astype(t)
        far = np.where(x > t(5e7), t(_ISPI) / x, frac)
        positive = np.where(x > t(50), far, mid)
        e2, e2_mid = _two_exp_xx(x, mid)
        negative = np.where(x < t(-6.1), e2, e2_mid)
        negative = np.where(x < t(-26.7), t(np.inf), negative)
        out = np.where(pos, positive, negative)
        return np.where(np.isnan(x), x, out).astype(x.dtype, copy=False)


def _erfc(x):
    """std::erfc: glibc's erfc and erfcf."""
    if x.dtype == _F64:
        return _erfc64(x)
    return _glibc_float.erfcf(x)


def log_ndtr(a):
    x = np.asarray(a)
    t = x.dtype.type
    with np.errstate(all="ignore"):
        s = x * t(0.70710678118654752440)  # (c10::frac_sqrt_2<T>)
        low = libm("log", erfcx(-s) / t(2)) - s * s
        high = libm("log1p", -_erfc(s) / t(2))
        return np.where(x < t(-1), low, high).astype(x.dtype, copy=False)

