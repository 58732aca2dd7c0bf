"""torch.special's orthogonal polynomials (ATen's Math.h): Chebyshev T, U, V, W and their shifted
forms, Hermite H and He, Laguerre L, Legendre P, of x at degree n, in the kernel's type.

The degree is an int64 made from n's float value as x86 converts (NaN, infinities and values
beyond int64 give INT64_MIN: a negative degree, 0).  Each kernel checks its special cases in
ATen's order, may take a closed form (cos(n acos x), ...), else runs the three-term recurrence
``r = (x + x) q - p`` (the product and the difference fused, as the AVX2 build contracts them)
up to n, stopping early where q is NaN, each element for its own degree.
"""

from __future__ import annotations

import math

import numpy as np

from . import _glibc_float
from ._lgamma_math import each
from ._special_math import fma, libm

_F64 = np.float64
_I64_MIN = np.iinfo(np.int64).min


def degree(n):
    """static_cast<int64_t>(n) on x86: truncation; NaN, +-inf and out-of-range values INT64_MIN."""
    n = np.asarray(n)
    if n.dtype.kind in "iub":
        return n.astype(np.int64)
    with np.errstate(all="ignore"):
        ok = np.isfinite(n) & (np.abs(n) < 2.0 ** 63)
        return np.where(ok, np.trunc(np.where(ok, n, 0)), 0).astype(np.int64) + np.where(ok, 0, _I64_MIN)


_acos64 = each(math.acos, np.arccos)  # (glibc's acos: numpy's own differs in 1 of 10 values)


def _acos(x):
    """std::acos: glibc's acos and acosf (fdlibm's float steps: an ulp from the correctly rounded
    value in some 8% of arguments)."""
    with np.errstate(all="ignore"):
        if x.dtype == _F64:
            return _acos64(x)
        return _glibc_float.acosf(x)


def _recur(x, n, p, q, step, first, last, nan_stop=True):
    """The recurrence from k = ``first`` while k <= last(n) (and q is not NaN): ``step(k, x, p, q)``
    gives r; (p, q) <- (q, r).  1-d arrays; returns r (q where no step ran, the value a caller
    replaces)."""
    r = q.copy()
    lim = last(np.maximum(n, -1))  # (INT64_MIN - 1 would wrap)
    idx = np.nonzero((lim >= first) & ~(np.isnan(q) if nan_stop else False))[0]
    k = first
    with np.errstate(all="ignore"):
        while idx.size:
            rk = step(k, x[idx], p[idx], q[idx])
            r[idx] = rk
            p[idx] = q[idx]
            q[idx] = rk
            k += 1
            keep = lim[idx] >= k
            if nan_stop:
                keep &= ~np.isnan(rk)
            idx = idx[keep]
    return r


def _prepare(x, n):
    x, n = np.broadcast_arrays(np.asarray(x), np.asarray(n))
    shape = x.shape
    return shape, x.reshape(-1).copy(), degree(n).reshape(-1), x.dtype.type


def _select(shape, t, cases, default):
    """np.select over (condition, value) in ATen's order, as the kernel's if-chain."""
    with np.errstate(all="ignore"):
        out = default
        for cond, val in reversed(cases):
            out = np.where(cond, val, out)
        return np.asarray(out).astype(t, copy=False).reshape(shape)


def _three_term(y2, q0, n):
    """r_k = y2 r_{k-1} - r_{k-2} from r_0 = 1, r_1 = q0 (y2 = 2y), up to k = n."""
    return _recur(y2, n, np.ones_like(q0), q0.copy(), lambda k, a, p, q: fma(a, q, -p), 2, lambda m: m)


def _int(t, v):
    return np.asarray(v).astype(t)


def chebyshev_t(x, n):
    shape, x, n, t = _prepare(x, n)
    with np.errstate(all="ignore"):
        ax = np.abs(x)
        one = ax == t(1)
        closed = libm("cos", _int(t, n) * _acos(x))
        rec = _three_term(x + x, x, n)
    return _select(shape, t, [(n < 0, t(0)), (one, np.where((x > 0) | (n % 2 == 0), t(1), t(-1))),
                              ((n > 6) & (ax < t(1)), closed), (n == 0, t(1)), (n == 1, x)], rec)


def chebyshev_u(x, n):
    shape, x, n, t = _prepare(x, n)
    with np.errstate(all="ignore"):
        ax = np.abs(x)
        ac = _acos(x)
        s = libm("sin", ac)
        n1 = _int(t, n + 1)
        closed = np.where(s != t(0), libm("sin", n1 * ac) / s, n1 * libm("cos", n1 * ac) / x)
        rec = _three_term(x + x, x + x, n)
    return _select(shape, t, [(n < 0, t(0)), (ax == t(1), np.where((x > 0) | (n % 2 == 0), n1, -n1)),
                              ((n > 8) & (ax < t(1)), closed), (n == 0, t(1)), (n == 1, x + x)], rec)


def chebyshev_v(x, n):
    shape, x, n, t = _prepare(x, n)
    with np.errstate(all="ignore"):
        ax = np.abs(x)
        ac = _acos(x)
        odd = _int(t, n + n + 1)
        alt = np.where(n % 2 == 0, odd, -odd)
        half = ac / t(2)
        closed = np.where(libm("sin", half) != t(1), libm("cos", (_int(t, n) + t(0.5)) * ac) / libm("cos", half), alt)
        q0 = x + x - t(1)
        rec = _three_term(x + x, q0, n)
    return _select(shape, t, [(n < 0, t(0)), (ax == t(1), np.where(x > 0, t(1), alt)),
                              ((n > 8) & (ax < t(1)), closed), (n == 0, t(1)), (n == 1, q0)], rec)


def chebyshev_w(x, n):
    shape, x, n, t = _prepare(x, n)
    with np.errstate(all="ignore"):
        ax = np.abs(x)
        ac = _acos(x)
        odd = _int(t, n + n + 1)
        edge = np.where(x > 0, odd, np.where(n % 2 == 0, t(1), t(-1)))
        half = ac / t(2)
        closed = np.where(libm("cos", half) != t(1), libm("sin", (_int(t, n) + t(0.5)) * ac) / libm("sin", half), edge)
        q0 = x + x + t(1)
        rec = _three_term(x + x, q0, n)
    return _select(shape, t, [(n < 0, t(0)), (ax == t(1), edge), ((n > 8) & (ax < t(1)), closed),
                              (n == 0, t(1)), (n == 1, q0)], rec)


def _shifted(x, n, t, last_closed, closed_fn, q_of_y, at_one, at_zero):
    """The shifted polynomial: the unshifted one's steps in y = 2x - 1, its own edge values at
    x = 1 and x = 0, its closed form from degree ``last_closed`` + 1."""
    with np.errstate(all="ignore"):
        y = x + x - t(1)
        q0 = q_of_y(y)
        rec = _three_term(y + y, q0, n)
        closed = closed_fn(y)
    return [(n < 0, t(0)), (x == t(1), at_one), (x == t(0), at_zero),
            ((n > last_closed) & (np.abs(y) < t(1)), closed), (n == 0, t(1)), (n == 1, q0)], rec


def shifted_chebyshev_t(x, n):
    shape, x, n, t = _prepare(x, n)
    cases, rec = _shifted(x, n, t, 6, lambda y: libm("cos", _int(t, n) * _acos(y)), lambda y: y,
                          t(1), np.where(n % 2 == 0, t(1), t(-1)))
    return _select(shape, t, cases, rec)


def shifted_chebyshev_u(x, n):
    shape, x, n, t = _prepare(x, n)
    n1 = _int(t, n + 1)

    def closed(y):
        ac = _acos(y)
        s = libm("sin", ac)
        return np.where(s != t(0), libm("sin", n1 * ac) / s, n1 * libm("cos", n1 * ac) / y)

    cases, rec = _shifted(x, n, t, 6, closed, lambda y: y + y, n1, np.where(n % 2 == 0, n1, -n1))
    return _select(shape, t, cases, rec)


def shifted_chebyshev_v(x, n):
    shape, x, n, t = _prepare(x, n)
    odd = _int(t, n + n + 1)
    alt = np.where(n % 2 == 0, odd, -odd)

    def closed(y):
        ac = _acos(y)
        half = ac / t(2)
        return np.where(libm("sin", half) != t(1), libm("cos", (_int(t, n) + t(0.5)) * ac) / libm("cos", half), alt)

    cases, rec = _shifted(x, n, t, 6, closed, lambda y: y + y - t(1), t(1), alt)
    return _select(shape, t, cases, rec)


def shifted_chebyshev_w(x, n):
    shape, x, n, t = _prepare(x, n)
    odd = _int(t, n + n + 1)
    sign = np.where(n % 2 == 0, t(1), t(-1))

    def closed(y):
        ac = _acos(y)
        half = ac / t(2)
        return np.where(libm("cos", half) != t(1), libm("sin", (_int(t, n) + t(0.5)) * ac) / libm("sin", half), sign)

    cases, rec = _shifted(x, n, t, 4, closed, lambda y: y + y + t(1), odd, sign)
    return _select(shape, t, cases, rec)


def _hermite_limit(t):
    return 128 if t is np.float32 else 512


def hermite_h(x, n):
    shape, x, n, t = _prepare(x, n)
    with np.errstate(all="ignore"):
        x2 = x + x
        m = np.where(n > _hermite_limit(t), 0, n)
        rec = _recur(x2, m, np.ones_like(x), x2.copy(), lambda j, a, p, q: fma(a, q, -(t(2 * j) * p)), 1,
                     lambda m: m - 1, nan_stop=False)
        rec = np.where(n >= 2, rec, t(0))
    return _select(shape, t, [(n < 0, t(0)), (n == 0, t(1)), (n == 1, x2), (n > _hermite_limit(t), t(np.nan))], rec)


def hermite_he(x, n):
    shape, x, n, t = _prepare(x, n)
    with np.errstate(all="ignore"):
        m = np.where(n > _hermite_limit(t), 0, n)
        rec = _recur(x, m, np.ones_like(x), x.copy(), lambda k, a, p, q: fma(a, q, -(t(k) * p)), 1,
                     lambda m: m - 1, nan_stop=False)
    return _select(shape, t, [(n < 0, t(0)), (n == 0, t(1)), (n == 1, x), (n > _hermite_limit(t), t(np.nan))], rec)


def laguerre_l(x, n):
    shape, x, n, t = _prepare(x, n)
    with np.errstate(all="ignore"):
        q0 = t(1) - x
        rec = _recur(x, n, np.ones_like(x), q0.copy(),
                     lambda k, a, p, q: fma(t(k + k) + (t(1) - a), q, -(t(k) * p)) / t(k + 1), 1, lambda m: m - 1)
    return _select(shape, t, [(n < 0, t(0)), (np.abs(x) == t(0), t(1)), (n == 0, t(1)), (n == 1, q0)], rec)


def legendre_p(x, n):
    shape, x, n, t = _prepare(x, n)
    with np.errstate(all="ignore"):
        rec = _recur(x, n, np.ones_like(x), x.copy(),
                     lambda k, a, p, q: fma(t(k + k + 1) * a, q, -(t(k) * p)) / t(k + 1), 1, lambda m: m - 1)
    return _select(shape, t, [(n < 0, t(0)), (np.abs(x) == t(1), np.where((x > 0) | (n % 2 == 0), t(1), t(-1))),
                              (n == 0, t(1)), (n == 1, x)], rec)
