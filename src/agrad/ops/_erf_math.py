"""erf and erfc to some 18 digits: W. J. Cody's rational approximations (CALERF), evaluated in
float64 or x87 long double, as PyTorch's kernels' values need them (unary.erf/erfc, gelu)."""

from __future__ import annotations

import numpy as np

from ._vec_math import _count


# ---------------------------------------------------------------------------
# erf / erfc: W. J. Cody's rational approximations (CALERF), to some 18 digits
# ---------------------------------------------------------------------------

_ERF_A = ("3.16112374387056560e00", "1.13864154151050156e02", "3.77485237685302021e02",
          "3.20937758913846947e03", "1.85777706184603153e-1")
_ERF_B = ("2.36012909523441209e01", "2.44024637934444173e02", "1.28261652607737228e03",
          "2.84423683343917062e03")
_ERF_C = ("5.64188496988670089e-1", "8.88314979438837594e00", "6.61191906371416295e01",
          "2.98635138197400131e02", "8.81952221241769090e02", "1.71204761263407058e03",
          "2.05107837782607147e03", "1.23033935479799725e03", "2.15311535474403846e-8")
_ERF_D = ("1.57449261107098347e01", "1.17693950891312499e02", "5.37181101862009858e02",
          "1.62138957456669019e03", "3.29079923573345963e03", "4.36261909014324716e03",
          "3.43936767414372164e03", "1.23033935480374942e03")
_ERF_P = ("3.05326634961232344e-1", "3.60344899949804439e-1", "1.25781726111229246e-1",
          "1.60837851487422766e-2", "6.58749161529837803e-4", "1.63153871373020978e-2")
_ERF_Q = ("2.56852019228982242e00", "1.87295284992346725e00", "5.27905102951428412e-1",
          "6.05183413124413191e-2", "2.33520497626869185e-3")
_ONE_OVER_SQRT_PI = "5.6418958354775628695e-1"
_ERF_COEFFS = (_ERF_A, _ERF_B, _ERF_C, _ERF_D, _ERF_P, _ERF_Q, (_ONE_OVER_SQRT_PI,))
#: the coefficients as doubles (float32/float16 inputs) and as x87 long doubles (float64 inputs)
_ERF_BY_TYPE = {t: tuple(tuple(t(c) for c in group) for group in _ERF_COEFFS) for t in (float, np.longdouble)}


def calerf(a, complement):
    """erf(a) (or erfc(a)) in a's dtype: float64 computed in long double (Cody's approximations
    are good to some 18 digits, so the double result is the correctly rounded one but in about
    0.1% of erf, 0.4% of erfc; MKL's, which PyTorch takes, is within 0.5% and 5% of that, and
    the double arithmetic left 35% an ulp away), other float types in double."""
    dtype = np.asarray(a).dtype
    work = np.longdouble if dtype == np.float64 or dtype == np.longdouble else float  # (long double: kept)
    A, B, C, D, P, Q, (one_over_sqrt_pi,) = _ERF_BY_TYPE[work]
    x = np.asarray(a, np.longdouble if work is np.longdouble else np.float64)
    if not x.size:  # (no range has an element: nothing to select from)
        return _finish(x.copy(), x, dtype)
    y = np.abs(x)
    with np.errstate(all="ignore"):
        small = y <= 0.46875
        n_small = _count(small)
        # (each range's steps run only when an element is in it: the others' are not selected)
        if n_small:
            # |x| <= 0.46875: erf as x * P(x^2) / Q(x^2)
            ysq = np.where(y > 1.11e-16, y * y, 0.0)
            num = A[4] * ysq
            den = ysq
            for i in range(3):
                num = (num + A[i]) * ysq
                den = (den + B[i]) * ysq
            erf_small = x * (num + A[3]) / (den + B[3])
            if n_small == small.size:
                out = (1.0 - erf_small) if complement else erf_small
                return _finish(out, x, dtype)
        inside = y <= 4.0
        if _count(inside):
            # 0.46875 < |x| <= 4: erfc(|x|) = exp(-x^2) P(|x|) / Q(|x|)
            num = C[8] * y
            den = y
            for i in range(7):
                num = (num + C[i]) * y
                den = (den + D[i]) * y
            r = (num + C[7]) / (den + D[7])
        if _count(inside) != inside.size:  # (and NaN)
            # |x| > 4: erfc(|x|) = exp(-x^2) / |x| (1/sqrt(pi) + R(1/x^2) / x^2)
            inv = 1.0 / (y * y)
            num = P[5] * inv
            den = inv
            for i in range(4):
                num = (num + P[i]) * inv
                den = (den + Q[i]) * inv
            big = (one_over_sqrt_pi - inv * (num + P[4]) / (den + Q[4])) / y
            r = np.where(inside, r, big) if _count(inside) else big
        # exp(-y^2) split in two factors to keep the accuracy for large y
        y16 = np.trunc(y * 16.0) / 16.0
        erfc_abs = np.exp(-y16 * y16) * np.exp(-(y - y16) * (y + y16)) * r
        erfc_abs = np.where(np.isinf(y), 0.0, erfc_abs)
        if complement:
            out = np.where(x < 0, 2.0 - erfc_abs, erfc_abs)
            if n_small:
                out = np.where(small, 1.0 - erf_small, out)
        else:
            out = (0.5 - erfc_abs) + 0.5
            out = np.where(x < 0, -out, out)
            if n_small:
                out = np.where(small, erf_small, out)
    return _finish(out, x, dtype)


def _finish(out, x, dtype):
    out = np.where(np.isnan(x), np.nan, out)
    return out.astype(dtype if dtype.kind == "f" else np.float64, copy=False)


# ---------------------------------------------------------------------------
# float32 erf of PyTorch's vector code: Vectorized<float>::erf (AVX2); its scalar code's is
# glibc's erff (_glibc_float.erff)
# ---------------------------------------------------------------------------

_F32 = np.float32


def _f32s(*values):
    return tuple(_F32(v) for v in values)


_AS_P = np.array(0.3275911, _F32)
_AS_COEFFS = tuple(np.array(c, _F32) for c in (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592))  # p5 .. p1
_ONE32 = np.array(1, _F32)


def vec_erff(a):
    """Vectorized<float>::erf (AVX2): Abramowitz and Stegun's 7.1.26 with fused multiply-adds
    and Sleef's expf: t = 1 / (p|x| + 1), erf = sign(x) (1 - t r(t) exp(-x^2))."""
    from ._vec_math import _fma32, sleef_expf

    x = np.asarray(a, _F32)
    one = _ONE32
    with np.errstate(all="ignore"):
        ax = np.abs(x)
        t = one / _fma32(_AS_P, ax, one)  # (0-d constants: the fma broadcasts them)
        r = _AS_COEFFS[0]
        for c in _AS_COEFFS[1:]:
            r = _fma32(r, t, c)
        e = -sleef_expf(-(x * x))
        out = _fma32(e * t, r, one)
    return np.where(np.signbit(x), -out, out).astype(_F32)  # (the sign bit put back with xor)
