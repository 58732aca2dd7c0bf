"""torch.special's Airy and Bessel kernels (ATen's Math.h, from Cephes), their steps on numpy
arrays in the kernel's type (float64 in double, float32 in float): airy_ai, bessel_j0/j1/y0/y1,
modified_bessel_i0/i1/k0/k1, scaled_modified_bessel_k0/k1, spherical_bessel_j0.

As in _special_math.py, ``fma`` stands where the AVX2 build contracts ``a * b + c`` into one
rounding, libm's functions are glibc's (``libm``), and each branch of the scalar kernel is an
``np.where`` over the elements that take it.
"""

from __future__ import annotations

import numpy as np

from . import _special_tables as TB
from ._special_math import _I0E_A, _I0E_B, _I1E_A, _I1E_B, chbevl, fma, libm, polevl

_F64 = np.float64
_PI = 3.14159265358979323846


def _errstate():
    return np.errstate(all="ignore")


def _t(x):
    x = np.asarray(x)
    return x, x.dtype.type


# ---------------------------------------------------------------------------
# Airy Ai
# ---------------------------------------------------------------------------

def airy_ai(a):
    x, t = _t(a)
    with _errstate():
        # x < -2.09: the asymptotic expansion with sin and cos
        s = libm("sqrt", -x)
        zeta_neg = t(-2.0) * x * s / t(3.0)
        z = t(1.0) / zeta_neg
        zz = z * z
        afn, afd = polevl(zz, TB.AIRY_AFN, t), polevl(zz, TB.AIRY_AFD, t)
        agn, agd = polevl(zz, TB.AIRY_AGN, t), polevl(zz, TB.AIRY_AGD, t)
        ph = zeta_neg + t(0.25 * _PI)
        left = t(1.0) + zz * afn / afd
        right = z * agn / agd
        neg = t(5.64189583547756286948e-01) / libm("sqrt", s) * fma(libm("sin", ph), left, -(libm("cos", ph) * right))
        # x >= 2.09: exp(-zeta) times a rational function of 1 / zeta
        sx = libm("sqrt", x)
        zeta = t(2.0) * x * sx / t(3.0)
        iz = t(1.0) / zeta
        an, ad = polevl(iz, TB.AIRY_AN, t), polevl(iz, TB.AIRY_AD, t)
        pos = t(5.64189583547756286948e-01) * (an / ad) / (t(2.0) * libm("sqrt", sx) * libm("exp", zeta))
        # |x| < 2.09: the power series f, g until |m / f| <= eps
        series = _airy_series(x, t)
        out = np.where(x < t(-2.09), neg, np.where(x >= t(2.09), pos, series))
        out = np.where(x > t(103.892), t(0.0), out)
        return np.where(np.isinf(x), t(np.nan), out).astype(x.dtype, copy=False)


def _airy_series(x, t):
    """f and g of the power series, each element summed until |m / f| <= eps (NaN: one step)."""
    shape = x.shape
    x = x.reshape(-1)
    eps = t(np.finfo(x.dtype).eps)
    f, g, k, m, n = np.ones_like(x), x.copy(), np.ones_like(x), np.ones_like(x), x.copy()
    z = x * x * x
    idx = np.nonzero(~(x < t(-2.09)) & ~(x >= t(2.09)))[0]
    while idx.size:
        mi, ni, ki, zi = m[idx], n[idx], k[idx], z[idx]
        mi = mi * zi
        ki = ki + t(1.0)
        mi = mi / ki
        ni = ni * zi
        ki = ki + t(1.0)
        ni = ni / ki
        mi = mi / ki
        fi = f[idx] + mi
        ki = ki + t(1.0)
        ni = ni / ki
        gi = g[idx] + ni
        m[idx], n[idx], k[idx], f[idx], g[idx] = mi, ni, ki, fi, gi
        idx = idx[np.abs(mi / fi) > eps]
    return fma(t(0.355028053887817239260), f, -(t(0.258819403792806798405) * g)).reshape(shape)


# ---------------------------------------------------------------------------
# Bessel functions of the first and second kind, orders 0 and 1
# ---------------------------------------------------------------------------

def _asymptotic(x, t, w, pp, pq, qp, qq, phase, first, second):
    """(P cos(x - phase) -/+ 5/x Q sin(x - phase)) sqrt(2/pi) / sqrt(x), P and Q rational in w."""
    p = polevl(w, pp, t) / polevl(w, pq, t)
    q = polevl(w, qp, t) / polevl(w, qq, t)
    ph = x - t(phase)
    a, b = libm(first, ph), libm(second, ph)
    return fma(p, a, _second_sign(first) * (t(5.0) / x * q * b)) * t(0.797884560802865355879892119868763737) / libm("sqrt", x)


def _second_sign(first):
    return -1 if first == "cos" else 1


def bessel_j0(a):
    x, t = _t(a)
    with _errstate():
        x = np.abs(x)
        xx = x * x
        small = t(1.0) - xx / t(4.0)
        rp, rq = polevl(xx, TB.J0_RP, t), polevl(xx, TB.J0_RQ, t)
        near = (xx - t(5.78318596294678452118e+00)) * (xx - t(3.04712623436620863991e+01)) * rp / rq
        far = _asymptotic(x, t, t(25.0) / xx, TB.J0_PP, TB.J0_PQ, TB.J0_QP, TB.J0_QQ,
                          0.785398163397448309615660845819875721, "cos", "sin")
        out = np.where(x <= t(5.0), np.where(x < t(0.00001), small, near), far)
        return out.astype(x.dtype, copy=False)


def _j1_positive(x, t):
    xx = x * x
    rp, rq = polevl(xx, TB.J1_RP, t), polevl(xx, TB.J1_RQ, t)
    near = rp / rq * x * (xx - t(1.46819706421238932572e+01)) * (xx - t(4.92184563216946036703e+01))
    w5 = t(5.0) / x
    far = _asymptotic(x, t, w5 * w5, TB.J1_PP, TB.J1_PQ, TB.J1_QP, TB.J1_QQ,
                      2.356194490192344928846982537459627163, "cos", "sin")
    return np.where(x <= t(5.0), near, far)


def bessel_j1(a):
    x, t = _t(a)
    with _errstate():
        neg = x < t(0.0)
        out = _j1_positive(np.where(neg, -x, x), t)  # (-0.0 kept: J1(-0) is -0)
        return np.where(neg, -out, out).astype(x.dtype, copy=False)


def bessel_y0(a):
    x, t = _t(a)
    with _errstate():
        xx = x * x
        yp, yq = polevl(xx, TB.Y0_YP, t), polevl(xx, TB.Y0_YQ, t)
        near = fma(t(0.636619772367581343075535053490057448) * libm("log", x), bessel_j0(x), yp / yq)
        far = _asymptotic(x, t, t(25.0) / xx, TB.J0_PP, TB.J0_PQ, TB.J0_QP, TB.J0_QQ,
                          0.785398163397448309615660845819875721, "sin", "cos")
        near = np.where(x == t(0.0), t(-np.inf), np.where(x < t(0.0), t(np.nan), near))
        return np.where(x <= t(5.0), near, far).astype(x.dtype, copy=False)


def bessel_y1(a):
    x, t = _t(a)
    with _errstate():
        xx = x * x
        yp, yq = polevl(xx, TB.Y1_YP, t), polevl(xx, TB.Y1_YQ, t)
        inner = fma(_j1_positive(x, t), libm("log", x), -(t(1.0) / x))
        near = fma(x, yp / yq, t(0.636619772367581343075535053490057448) * inner)
        w5 = t(5.0) / x
        far = _asymptotic(x, t, w5 * w5, TB.J1_PP, TB.J1_PQ, TB.J1_QP, TB.J1_QQ,
                          2.356194490192344928846982537459627163, "sin", "cos")
        near = np.where(x == t(0.0), t(-np.inf), np.where(x <= t(0.0), t(np.nan), near))
        return np.where(x <= t(5.0), near, far).astype(x.dtype, copy=False)


# ---------------------------------------------------------------------------
# Modified Bessel functions: I0, I1 (i0e's and i1e's Chebyshev series), K0, K1 and the scaled K
# ---------------------------------------------------------------------------

def modified_bessel_i0(a):
    x, t = _t(a)
    with _errstate():
        ax = np.abs(x)
        e = libm("exp", ax)
        near = e * chbevl(ax / t(2.0) - t(2.0), _I0E_A, t)
        far = e * chbevl(t(32.0) / ax - t(2.0), _I0E_B, t) / libm("sqrt", ax)
        return np.where(ax <= t(8.0), near, far).astype(x.dtype, copy=False)


def modified_bessel_i1(a):
    x, t = _t(a)
    with _errstate():
        ax = np.abs(x)
        e = libm("exp", ax)
        near = chbevl(ax / t(2.0) - t(2.0), _I1E_A, t) * ax * e
        far = e * chbevl(t(32.0) / ax - t(2.0), _I1E_B, t) / libm("sqrt", ax)
        out = np.where(ax <= t(8.0), near, far)
        return np.where(x < t(0.0), -out, out).astype(x.dtype, copy=False)


def _k_parts(x, t, a_table, b_table):
    near = chbevl(fma(x, x, t(-2.0)), a_table, t)
    far = chbevl(t(8.0) / x - t(2.0), b_table, t)
    return near, far


def _k_edges(x, t, out):
    out = np.where(x == t(0.0), t(np.inf), np.where(x < t(0.0), t(np.nan), out))
    return out.astype(x.dtype, copy=False)


def _k0_near(x, t, near):
    """0.5 (a - p) - log(x / 2) I0(x); float32: ``std::log(0.5 * x)`` takes a double (0.5 is one),
    so the step is in double and rounded once."""
    if x.dtype == _F64:
        return fma(-libm("log", t(0.5) * x), modified_bessel_i0(x), near)
    xd = x.astype(_F64)
    return fma(-libm("log", 0.5 * xd), modified_bessel_i0(x).astype(_F64), near.astype(_F64)).astype(x.dtype)


def modified_bessel_k0(a):
    x, t = _t(a)
    with _errstate():
        near, far = _k_parts(x, t, TB.K0_A, TB.K0_B)
        out = np.where(x <= t(2.0), _k0_near(x, t, near), libm("exp", -x) * far / libm("sqrt", x))
        return _k_edges(x, t, out)


def modified_bessel_k1(a):
    x, t = _t(a)
    with _errstate():
        near, far = _k_parts(x, t, TB.K1_A, TB.K1_B)
        near = fma(libm("log", t(0.5) * x), modified_bessel_i1(x), near / x)
        out = np.where(x <= t(2.0), near, libm("exp", -x) * far / libm("sqrt", x))
        return _k_edges(x, t, out)


def scaled_modified_bessel_k0(a):
    x, t = _t(a)
    with _errstate():
        near, far = _k_parts(x, t, TB.K0_A, TB.K0_B)
        near = fma(-libm("log", t(0.5) * x), modified_bessel_i0(x), near) * libm("exp", x)
        out = np.where(x <= t(2.0), near, far / libm("sqrt", x))
        return _k_edges(x, t, out)


def scaled_modified_bessel_k1(a):
    x, t = _t(a)
    with _errstate():
        near, far = _k_parts(x, t, TB.K1_A, TB.K1_B)
        near = fma(libm("log", t(0.5) * x), modified_bessel_i1(x), near / x) * libm("exp", x)
        out = np.where(x <= t(2.0), near, far / libm("sqrt", x))
        return _k_edges(x, t, out)


# ---------------------------------------------------------------------------
# spherical_bessel_j0: sin(x) / x (a Taylor polynomial in x^2 below 0.5)
# ---------------------------------------------------------------------------

_SJ0 = ((1.0, 6227020800.0), (-1.0, 39916800.0), (1.0, 362880.0), (-1.0, 5040.0), (1.0, 120.0), (-1.0, 6.0))


def spherical_bessel_j0(a):
    x, t = _t(a)
    with _errstate():
        xx = x * x
        r = t(_SJ0[0][0]) / t(_SJ0[0][1])
        for num, den in _SJ0[1:]:
            r = fma(xx, r, t(num) / t(den))
        small = fma(xx, r, t(1.0))
        out = np.where(np.abs(x) < t(0.5), small, libm("sin", x) / x)
        return np.where(np.isinf(x), t(0.0), out).astype(x.dtype, copy=False)
