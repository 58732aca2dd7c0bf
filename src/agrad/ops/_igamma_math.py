"""torch.igamma / igammac (torch.special.gammainc / gammaincc): the regularized lower and upper
incomplete gamma functions as ATen's Math.h computes them (SciPy's igam/igamc: boundary values,
DLMF 8.12's uniform asymptotic series where a ~ x is large, else the power series, the series
for igamc or the continued fraction), element by element in the kernel's type on 1-d arrays,
each branch on the elements that take it, each loop until its own elements have converged.

A float32 kernel keeps C's promotions: the double literals 0.4, 0.5, 1.1 make their steps double
(``0.5 * erfc(...)``, ``exp(a * (log1p(u) - u) + x * (0.5 - g) / fac)`` in double, rounded once).
"""

from __future__ import annotations

import math

import numpy as np

from . import _glibc_float
from ._erf_math import calerf
from ._lgamma_math import each, lgamma64
from ._special_math import fma, libm, libm_pow
from ._special_tables import IGAM_D, LANCZOS_DEN, LANCZOS_NUM

_F64 = np.float64
_F32 = np.float32
_LANCZOS_G = 6.024680040776729583740234375
_EXP1 = 2.718281828459045
_MAXITER = 2000
_expm1_64 = each(math.expm1, np.expm1)
_erfc64 = each(math.erfc, lambda v: calerf(v, True))


def _consts(t):
    if t is _F64:
        return 1.11022302462515654042E-16, 7.09782712893383996843E2, 4.503599627370496e15, 2.22044604925031308085e-16
    return _F32(5.9604644775390625E-8), _F32(88.72283905206835), _F32(16777216.), _F32(5.9604644775390625E-8)


def _lgamma(v):
    """std::lgamma: glibc's lgamma and lgammaf (the arguments here are positive)."""
    if v.dtype == _F64:
        return lgamma64(v)
    return _glibc_float.lgammaf_positive(v)


def _expm1(v):
    return _expm1_64(v) if v.dtype == _F64 else _glibc_float.expm1f(v)


def _erfc(v):
    """std::erfc: glibc's erfc and erfcf."""
    return _erfc64(v) if v.dtype == _F64 else _glibc_float.erfcf(v)


def _mad(a, b, c, fused):
    """a * b + c: fused where the kernel's build contracts it (igammac's; igamma's is not)."""
    return fma(a, b, c) if fused else a * b + c


def _ratevl_lanczos(a, t, fused):
    """ratevl of the Lanczos sum: Horner's steps, in 1/a (reversed coefficients) above 1."""
    big = np.abs(a) > t(1)
    y = np.where(big, t(1) / a, a)
    num = np.where(big, t(LANCZOS_NUM[-1]), t(LANCZOS_NUM[0]))
    den = np.where(big, t(LANCZOS_DEN[-1]), t(LANCZOS_DEN[0]))
    for i in range(1, len(LANCZOS_NUM)):
        num = _mad(num, y, np.where(big, t(LANCZOS_NUM[-1 - i]), t(LANCZOS_NUM[i])), fused)
        den = _mad(den, y, np.where(big, t(LANCZOS_DEN[-1 - i]), t(LANCZOS_DEN[i])), fused)
    return num / den


def _fac(a, x, t, fused):
    """_igam_helper_fac: x^a exp(-x) / gamma(a), directly or through the Lanczos sum."""
    _, maxlog, _, _ = _consts(t)
    with np.errstate(all="ignore"):
        direct = np.abs(a - x).astype(_F64) > 0.4 * np.abs(a).astype(_F64)
        ax = _mad(a, libm("log", x), -x, fused) - _lgamma(a)
        d = np.where(ax < -maxlog, t(0), libm("exp", ax))
        g = t(_LANCZOS_G)
        fac = (a + g) - t(0.5)
        res = libm("sqrt", fac / t(_EXP1)) / _ratevl_lanczos(a, t, fused)
        small = (a < t(200)) & (x < t(200))
        near = res * (libm("exp", a - x) * libm_pow(x / fac, a))
        num = x - a - g + t(0.5)
        numfac = num / fac
        if t is _F64:
            far = res * libm("exp", _mad(a, libm("log1p", numfac) - numfac, x * (0.5 - g) / fac, fused))
        else:  # (a * (...) is float; the x * (0.5 - g) / fac term and the sum are double, so is exp)
            arg = (a * (libm("log1p", numfac) - numfac)).astype(_F64) + x.astype(_F64) * (0.5 - _F64(g)) / fac
            far = (res.astype(_F64) * libm("exp", arg)).astype(t)
        return np.where(direct, d, np.where(small, near, far))


def _loop(n, step):
    """Run ``step(idx)`` on the indices still active (step returns the mask of those to keep)."""
    idx = np.arange(n)
    for _ in range(_MAXITER):
        if not idx.size:
            break
        idx = idx[step(idx)]


def _igam_series(a, x, t, fused):
    machep = _consts(t)[0]
    with np.errstate(all="ignore"):
        ax = _fac(a, x, t, fused)
        r, c, ans = a.copy(), np.ones_like(a), np.ones_like(a)

        def step(i):
            r[i] += t(1)
            c[i] *= x[i] / r[i]
            ans[i] += c[i]
            return ~(c[i] <= machep * ans[i])

        _loop(a.size, step)
        return np.where(ax == 0, t(0), ans * ax / a)


def _igamc_series(a, x, t, fused):
    machep = _consts(t)[0]
    with np.errstate(all="ignore"):
        fac, total = np.ones_like(a), np.zeros_like(a)
        n = [1]

        def step(i):
            k = t(n[0])
            fac[i] *= -x[i] / k
            term = fac[i] / (a[i] + k)
            total[i] += term
            return ~(np.abs(term) <= machep * np.abs(total[i]))

        idx = np.arange(a.size)
        while idx.size and n[0] < _MAXITER:
            idx = idx[step(idx)]
            n[0] += 1
        logx = libm("log", x)
        term = -_expm1(_mad(a, logx, -_lgamma(t(1) + a), fused))
        return _mad(-libm("exp", _mad(a, logx, -_lgamma(a), fused)), total, term, fused)


_D = np.array(IGAM_D, _F64)


def _asymptotic(a, x, igam, t):
    machep = _consts(t)[0]
    d = _D.astype(t)
    sgn = -1 if igam else 1
    with np.errstate(all="ignore"):
        lam = x / a
        sigma = (x - a) / a
        root = libm("sqrt", t(-2) * (libm("log1p", sigma) - sigma))
        eta = np.where(lam > t(1), root, np.where(lam < t(1), -root, t(0)))
        arg = t(sgn) * eta * libm("sqrt", a / t(2))
        res = 0.5 * _erfc(arg).astype(_F64) if t is _F32 else t(0.5) * _erfc(arg)
        etapow = [np.ones_like(eta)]
        for _ in range(24):
            etapow.append(eta * etapow[-1])
        total = np.zeros_like(a)
        afac = np.ones_like(a)
        absold = np.full_like(a, np.inf)
        live = np.ones(a.shape, bool)
        for k in range(25):
            ck = np.full_like(a, d[k, 0])
            open_ = np.ones(a.shape, bool)
            for n in range(1, 25):
                ckterm = d[k, n] * etapow[n]
                ck = np.where(open_, ck + ckterm, ck)
                open_ &= ~(np.abs(ckterm) < machep * np.abs(ck))
            term = ck * afac
            absterm = np.abs(term)
            live &= ~(absterm > absold)
            total = np.where(live, total + term, total)
            live &= ~(absterm < machep * np.abs(total))
            absold = np.where(live, absterm, absold)
            afac = np.where(live, afac / a, afac)
        if t is _F64:
            tail = t(sgn) * libm("exp", -0.5 * a * eta * eta) * total / libm("sqrt", 2 * _F64(_F32(np.pi)) * a)
            return res + tail
        tail = (sgn * libm("exp", -0.5 * a.astype(_F64) * eta.astype(_F64) * eta.astype(_F64)) * total.astype(_F64)
                / libm("sqrt", t(2) * _F32(np.pi) * a).astype(_F64))
        return (res.astype(t).astype(_F64) + tail).astype(t)


def _continued_fraction(a, x, t, fused, one_minus=False):
    """_igamc_helper_continued_fraction (``one_minus``: 1 - it)."""
    machep, _, big, biginv = _consts(t)
    with np.errstate(all="ignore"):
        ax = _fac(a, x, t, fused)
        y = t(1) - a
        z = x + y + t(1)
        c = np.zeros_like(a)
        pkm2, qkm2 = np.ones_like(a), x.copy()
        pkm1 = x + t(1)
        qkm1 = z * x
        ans = pkm1 / qkm1

        def step(i):
            c[i] += t(1)
            y[i] += t(1)
            z[i] += t(2)
            yc = y[i] * c[i]
            pk = _mad(pkm1[i], z[i], -(pkm2[i] * yc), fused)
            qk = _mad(qkm1[i], z[i], -(qkm2[i] * yc), fused)
            nz = qk != 0
            r = pk / qk
            tt = np.where(nz, np.abs((ans[i] - r) / r), t(1))
            ans[i] = np.where(nz, r, ans[i])
            pkm2[i], pkm1[i], qkm2[i], qkm1[i] = pkm1[i], pk, qkm1[i], qk
            scale = np.abs(pk) > big
            for arr in (pkm2, pkm1, qkm2, qkm1):
                arr[i] = np.where(scale, arr[i] * biginv, arr[i])
            return ~(tt <= machep)

        _loop(a.size, step)
        out = np.where(ax == 0, t(0), ans * ax)
        return _one_minus(out, t) if one_minus else out


def _one_minus(v, t):
    """1.0 - v (a double literal: in double, rounded once; the same as in t)."""
    return (1.0 - v.astype(_F64)).astype(t)


def _evaluate(a, x, t, cases, out):
    """out[m] = fn(a[m], x[m]) for each (mask m, fn) in order, each element taking the first."""
    taken = np.zeros(a.shape, bool)
    for mask, fn in cases:
        m = mask & ~taken
        if m.any():
            out[m] = fn(a[m], x[m])
        taken |= m
    return out


def _asym_regime(a, x, t):
    with np.errstate(all="ignore"):
        r = np.abs(x - a) / a
        return (((a > t(20)) & (a < t(200)) & (r < t(0.3)))
                | ((a > t(200)) & (r < t(4.5) / libm("sqrt", a))))


def _igammac_core(a, x, t, fused, one_minus=False):
    """calc_igammac past its boundary values (the asymptotic regime excluded by the caller);
    ``one_minus``: 1 - it (calc_igamma's)."""
    out = np.empty_like(a)
    with np.errstate(all="ignore"):
        x64 = x.astype(_F64)
        gt = x64 > 1.1
        le = x64 <= 0.5
        lower_first = np.where(gt, x < a, np.where(le, (-0.4 / libm("log", x).astype(_F64)) < a.astype(_F64),
                                                   x64 * 1.1 < a.astype(_F64)))
    if one_minus:
        cases = [(gt & ~lower_first, lambda aa, xx: _continued_fraction(aa, xx, t, fused, True)),
                 (lower_first, lambda aa, xx: _one_minus(_one_minus(_igam_series(aa, xx, t, fused), t), t)),
                 (np.ones(a.shape, bool), lambda aa, xx: _one_minus(_igamc_series(aa, xx, t, fused), t))]
    else:
        cases = [(gt & ~lower_first, lambda aa, xx: _continued_fraction(aa, xx, t, fused)),
                 (lower_first, lambda aa, xx: _one_minus(_igam_series(aa, xx, t, fused), t)),
                 (np.ones(a.shape, bool), lambda aa, xx: _igamc_series(aa, xx, t, fused))]
    return _evaluate(a, x, t, cases, out)


def _boundaries(a, x, t, lower):
    """(mask, value) of the boundary cases in calc_igamma's (``lower``) or calc_igammac's order."""
    nan, one, zero = t(np.nan), t(1), t(0)
    with np.errstate(all="ignore"):
        return [((x < 0) | (a < 0), nan),
                (a == 0, np.where(x > 0, one if lower else zero, nan)),
                (x == 0, zero if lower else one),
                (np.isinf(a), np.where(np.isinf(x), nan, zero if lower else one)),
                (np.isinf(x), one if lower else zero)]


def _run(a, x, lower):
    a, x = np.broadcast_arrays(np.asarray(a), np.asarray(x))
    shape = a.shape
    t = a.dtype.type
    a, x = a.reshape(-1).copy(), x.reshape(-1).copy()
    out = np.empty_like(a)
    taken = np.zeros(a.shape, bool)
    for mask, value in _boundaries(a, x, t, lower):
        m = mask & ~taken
        out[m] = np.broadcast_to(value, a.shape)[m]
        taken |= m
    rest = ~taken
    asym = rest & _asym_regime(a, x, t)
    if asym.any():
        out[asym] = _asymptotic(a[asym], x[asym], lower, t)
    rest &= ~asym
    if lower:
        via_c = rest & (x > t(1)) & (x > a)
        if via_c.any():
            out[via_c] = _igammac_core(a[via_c], x[via_c], t, False, one_minus=True)
        rest &= ~via_c
        if rest.any():
            out[rest] = _igam_series(a[rest], x[rest], t, False)
    elif rest.any():
        out[rest] = _igammac_core(a[rest], x[rest], t, True)
    return out.reshape(shape)


def igamma(a, x):
    """calc_igamma(a, x): the regularized lower incomplete gamma function P(a, x)."""
    return _run(a, x, True)


def igammac(a, x):
    """calc_igammac(a, x): the regularized upper incomplete gamma function Q(a, x)."""
    return _run(a, x, False)
