"""The special functions of PyTorch's CPU kernels (ATen's Math.h, from Cephes and others), their
steps on numpy arrays in the kernel's type: float64 in double, float32 in float (float16 and
bfloat16 are computed in float, as ATen upcasts them). libm's functions are taken as correctly
rounded (double ones in long double, float ones in double), which glibc's are but in rare cases.
Where the AVX2 build fuses ``a * b + c`` into one rounding, ``fma`` below does too.
"""

from __future__ import annotations

import math

import numpy as np

from . import _vec_math
from . import _glibc_float
from ._erf_math import calerf
from ._lgamma_math import each, lgamma64

_F64 = np.float64
_F32 = np.float32
_LD = np.longdouble


#: glibc's double functions: numpy's sin/cos/sqrt are libm's; log, exp, pow, tan and log1p libm's
#: own, through Python's math module, element by element (numpy's exp and log are its own loops,
#: 3% and 0.02% of values an ulp away; long double's rounded 0.07%; tan and log1p are fdlibm's,
#: not correctly rounded)
_DOUBLE = {"sin": np.sin, "cos": np.cos, "sqrt": np.sqrt, "log": each(math.log, np.log), "exp": each(math.exp, np.exp),
           "tan": each(math.tan, np.tan), "log1p": each(math.log1p, np.log1p)}


def _pow1(a, b):
    try:
        return math.pow(a, b)
    except (ValueError, OverflowError):
        with np.errstate(all="ignore"):
            return float(np.power(a, b))


_pow_each = np.frompyfunc(_pow1, 2, 1)
_FLOAT = {"sin": np.sin, "cos": np.cos, "sqrt": np.sqrt, "log": None, "exp": np.exp, "tan": np.tan,
          "log1p": np.log1p}


def libm(name, x):
    """libm's function ``name`` of an array of x's type: glibc's double function, or its float
    function (computed in double and rounded once: correctly rounded but in rare cases)."""
    x = np.asarray(x)
    with np.errstate(all="ignore"):
        if x.dtype == _F64:
            return _DOUBLE[name](x)
        if x.dtype == np.float16:  # (c10::Half's std::log and co.: the float function, rounded to half)
            return libm(name, x.astype(_F32)).astype(np.float16)
        if name == "log":
            return _glibc_float.logf(x)
        if name == "exp":
            return _glibc_float.expf(x)
        if name == "sin":
            return _glibc_float.sinf(x)
        if name == "cos":
            return _glibc_float.cosf(x)
        if name == "log1p":
            return _glibc_float.log1pf(x)
        return _FLOAT[name](x.astype(_F64)).astype(x.dtype)


def libm_pow(a, b):
    """pow (powf for float32 operands) of arrays of one type, as libm()."""
    a, b = np.asarray(a), np.asarray(b)
    with np.errstate(all="ignore"):
        if a.dtype == _F64:
            a, b = np.broadcast_arrays(a, b.astype(_F64))
            return np.asarray(_pow_each(a, b), dtype=object).astype(_F64) if a.size else np.power(a, b)
        return np.power(a.astype(_F64), b.astype(_F64)).astype(a.dtype)


FUSED = True


def fma(a, b, c):
    """a * b + c rounded once (the AVX2 build's contraction)."""
    with np.errstate(all="ignore"):
        if not FUSED:
            return a * b + c
        return _vec_math.fma(a, b, c)


def lgamma(x):
    """std::lgamma: glibc's lgamma (float32 through double, rounded once: within an ulp of
    lgammaf)."""
    x = np.asarray(x)
    if x.dtype == _F64:
        return lgamma64(x)
    return lgamma64(x.astype(_F64)).astype(x.dtype)


def polevl(x, coeffs, t):
    """Cephes' polevl: Horner's scheme from the highest coefficient, result * x + c fused."""
    r = np.zeros_like(x)
    for c in coeffs:
        r = fma(r, x, t(c))
    return r


# ---------------------------------------------------------------------------
# digamma, trigamma, zeta, polygamma
# ---------------------------------------------------------------------------

_PSI_10 = 2.25175258906672110764
_DIGAMMA_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
              -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
              8.33333333333333333333E-2)


def _digamma_positive(x, t):
    """calc_digamma for x > 0 (or NaN, +inf): the recurrence up to 10, then the asymptotic series."""
    result = np.zeros_like(x)
    with np.errstate(all="ignore"):
        low = x < 10
        while low.any():
            result = np.where(low, result - t(1) / x, result)
            x = np.where(low, x + t(1), x)
            low = x < 10
        z = t(1) / (x * x)
        y = np.where(x < t(1.0e17), z * polevl(z, _DIGAMMA_A, t), t(0))
        out = result + libm("log", x) - t(0.5) / x - y
        return np.where(x == 10, result + t(_PSI_10), out)


def digamma(a):
    """calc_digamma of a float64 or float32 array."""
    x = np.asarray(a)
    t = x.dtype.type
    with np.errstate(all="ignore"):
        neg = x < 0
        pos = np.where(neg | (x == 0), t(1), x)
        res = _digamma_positive(np.where(neg, t(1) - x, pos), t)
        if neg.any():
            r = np.fmod(x, t(1)).astype(_F64)  # (modf's fraction, in double)
            cot = math.pi / libm("tan", math.pi * r)
            res = np.where(neg, res - cot.astype(t), res)
            res = np.where(neg & (x == np.trunc(x)), t(np.nan), res)
        res = np.where(x == 0, np.copysign(t(np.inf), -x), res)
    return res.astype(x.dtype, copy=False)


def trigamma(a):
    """ATen's trigamma of a float64 or float32 array (reflection below 0.5, six steps of the
    recurrence, then the asymptotic series)."""
    x = np.asarray(a)
    t = x.dtype.type
    with np.errstate(all="ignore"):
        pi = t(math.pi)
        refl = x < t(0.5)
        s = libm("sin", pi * x)
        result = np.where(refl, -((pi * pi) / (s * s)), t(0))
        sign = np.where(refl, t(-1), t(1))
        x = np.where(refl, t(1) - x, x)
        for _ in range(6):
            result = result + t(1) / (x * x)
            x = x + t(1)
        ixx = t(1) / (x * x)
        inner = fma(-ixx, t(1) / t(42) if t is _F32 else 1.0 / 42, t(1) / t(30) if t is _F32 else 1.0 / 30)
        inner = fma(-ixx, inner, t(1) / t(6) if t is _F32 else 1.0 / 6)
        series = fma(ixx, inner, t(1) + t(1) / (t(2) * x)) / x
        result = result + series
    return (sign * result).astype(x.dtype, copy=False)


_MACHEP = 1.11022302462515654042E-16
_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
           -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
           1.8152105401943546773e17, -7.1661652561756670113e18)


def zeta(x, q):
    """Cephes' Hurwitz zeta(x, q) as ATen's zeta: in its acc_type, double (float32's first term
    pow(q, -x) in float) or, for float16, float (powf throughout), rounded to the inputs' type."""
    x, q = np.broadcast_arrays(np.asarray(x), np.asarray(q))
    dtype = np.result_type(x, q)
    acc = _F32 if dtype == np.float16 else _F64
    xd = x.astype(acc)
    qd = q.astype(acc)
    one, machep = acc(1.0), acc(_MACHEP)
    with np.errstate(all="ignore"):
        s = libm_pow(q.astype(_F32) if acc is _F32 else q, -x.astype(_F32) if acc is _F32 else -x).astype(acc)
        a = qd.copy()
        b = np.zeros_like(s)
        # (the early returns: x <= 1, a pole at q a non-positive integer, NaN for a non-integer x there)
        done = (xd <= 1.0) | ((qd <= 0) & ((qd == np.floor(qd)) | (xd != np.floor(xd))))
        out = np.zeros_like(s)
        i = 0
        while True:
            active = ~done & ((i < 9) | (a <= acc(9.0)))
            if not active.any():
                break
            i += 1
            a = np.where(active, a + one, a)
            b = np.where(active, libm_pow(a, -xd), b)
            s = np.where(active, s + b, s)
            stop = active & (-machep * s < b) & (b < machep * s)
            out = np.where(stop, s, out)
            done |= stop
        w = a
        s = s + b * w / (xd - one)
        s = s - acc(0.5) * b
        aa = np.ones_like(s)
        k = np.zeros_like(s)
        for coeff in _ZETA_A:
            live = ~done
            aa = aa * (xd + k)
            b = b / w
            tt = aa * b / acc(coeff)
            s = np.where(live, s + tt, s)
            small = live & (np.abs(tt / s) < machep)
            out = np.where(small, s, out)
            done |= small
            k = k + one
            aa = aa * (xd + k)
            b = b / w
            k = k + one
        out = np.where(done, out, s)
        out = np.where((qd <= 0) & (xd != np.floor(xd)), np.nan, out)
        out = np.where((qd <= 0) & (qd == np.floor(qd)), np.inf, out)
        out = np.where(xd < 1.0, np.nan, out)
        out = np.where(xd == 1.0, np.inf, out)
    return out.astype(dtype)


def polygamma(n, a):
    """calc_polygamma for n >= 2: (-1)^(n+1) n! zeta(n + 1, x), n! as exp(lgamma(n + 1)). For
    float16 (c10::Half's arithmetic) the factor is float (lgammaf, expf of the half n + 1), zeta
    the half one, their product rounded once to half."""
    x = np.asarray(a)
    t = x.dtype.type
    if n == 0:
        return digamma(x)
    if n == 1:
        return trigamma(x)
    if x.dtype == np.float16:
        fact = libm("exp", lgamma(np.asarray(np.float16(n) + np.float16(1)).astype(_F32)))
        with np.errstate(all="ignore"):
            z = zeta(np.asarray(np.float16(n + 1)), x).astype(_F32)
            return ((_F32(1) if n % 2 else _F32(-1)) * fact * z).astype(np.float16)
    fact = libm("exp", lgamma(np.asarray(t(n) + t(1))))
    with np.errstate(all="ignore"):
        return ((t(1) if n % 2 else t(-1)) * fact * zeta(np.asarray(t(n + 1)), x)).astype(x.dtype, copy=False)


# ---------------------------------------------------------------------------
# erfinv
# ---------------------------------------------------------------------------

_ERFINV_A = (0.886226899, -1.645349621, 0.914624893, -0.140543331)
_ERFINV_B = (-2.118377725, 1.442710462, -0.329097515, 0.012229801)
_ERFINV_C = (-1.970840454, -1.624906493, 3.429567803, 1.641345311)
_ERFINV_D = (3.543889200, 1.637067800)


def _erf(x):
    """std::erf: glibc's erff for float32 (bit for bit); Cody's for float64 (glibc's fdlibm erf
    is within an ulp of it)."""
    if np.asarray(x).dtype == _F32:
        return _glibc_float.erff(x)
    return calerf(x, False)


_TWO_OVER_SQRT_PI_LD = np.longdouble(2) / np.sqrt(np.longdouble(np.pi))


def erfinv_vml(a):
    """MKL's vdErfInv/vsErfInv (torch.erfinv's kernel: at::vml's erfinv is MKL's), taken as
    correctly rounded: calc_erfinv's guess refined by Newton's steps in long double, on erf
    (erfc near 1, against 1 - |y|, exact there) from Cody's approximations; float32 through
    double, rounded once (as MKL's single-precision values are)."""
    y = np.asarray(a)
    if y.dtype != _F64:  # (vsErfInv's NaN outside [-1, 1] has its sign bit set, vdErfInv's not)
        out = erfinv_vml(y.astype(_F64)).astype(y.dtype)
        return np.where(np.abs(y) > 1, y.dtype.type(-np.nan), out)
    with np.errstate(all="ignore"):
        ay = np.abs(y)
        x = np.abs(erfinv(ay, steps=0)).astype(_LD)  # (its guess: some 7 digits)
        yl = ay.astype(_LD)
        tail = ay > 0.5
        rest = (1 - ay).astype(_LD)  # (exact for |y| >= 0.5)
        head = ~tail
        for _ in range(3):  # (quadratic: 1e-7, 1e-14, then long double's own precision)
            slope = _TWO_OVER_SQRT_PI_LD * np.exp(-x * x)
            miss = np.empty_like(x)
            miss[tail] = rest[tail] - calerf(x[tail], True)
            miss[head] = calerf(x[head], False) - yl[head]
            step = miss / slope
            x = np.where(np.isfinite(step), x - step, x)
        out = np.copysign(_rounded_erfinv(ay, x), y)
        out = np.where(ay == 1, np.copysign(np.inf, y), out)
        return np.where(ay > 1, np.nan, np.where(np.isnan(y), y, out))


#: how near (in ulps) a long-double erfinv may lie to a midpoint of two doubles before _rounded_erfinv decides
#: exactly (Cody's erf in long double leaves the Newton steps within some 0.012 ulp of erfinv), and how many
#: elements a call decides so at most (past that, the nearest double of the long-double value stays)
_MIDPOINT_ULPS = 0.03
_EXACT_CAP = 512
_PI80 = "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899863"


def _rounded_erfinv(ay, x):
    """The double nearest erfinv(ay) (MKL's vdErfInv is correctly rounded), from ``x``, its long-double value:
    where x lies within _MIDPOINT_ULPS of a midpoint m of two doubles, erf(m) in 80-digit decimals against ay
    picks the side."""
    out = x.astype(_F64)
    with np.errstate(all="ignore"):
        ulp = np.spacing(out).astype(_LD)
        mid = out.astype(_LD) + np.copysign(ulp / 2, x - out.astype(_LD))
        near = (np.abs(x - mid) < _MIDPOINT_ULPS * ulp) & (ay > 0) & (ay < 1) & np.isfinite(x)
    idx = np.flatnonzero(near)
    if not 0 < idx.size <= _EXACT_CAP:
        return out
    import decimal
    flat, ays = out.reshape(-1), ay.reshape(-1)
    with decimal.localcontext() as ctx:
        ctx.prec = 80
        two_over_sqrt_pi = 2 / decimal.Decimal(_PI80).sqrt()
        for i in idx:
            o = float(flat[i])
            up = x.reshape(-1)[i] > _LD(o)
            other = float(np.nextafter(flat[i], np.inf if up else 0.0))
            m = (decimal.Decimal(o) + decimal.Decimal(other)) / 2
            e = two_over_sqrt_pi * (-m * m).exp() * _erf_series(m)
            y = decimal.Decimal(float(ays[i]))
            if e != y:
                flat[i] = max(o, other) if e < y else min(o, other)
    return out


def _erf_series(m):
    """sum of 2^n m^(2n+1) / (2n+1)!!, erf(m) = 2/sqrt(pi) exp(-m^2) times it (positive terms: no cancellation)."""
    term, total, n, m2 = m, m, 0, 2 * m * m
    eps = total * _decimal_eps()
    while term > eps:
        n += 1
        term = term * m2 / (2 * n + 1)
        total += term
    return total


def _decimal_eps():
    import decimal
    return decimal.Decimal(10) ** (-decimal.getcontext().prec)


def erfinv(a, steps=2):
    """calc_erfinv: a rational first guess, two Newton steps with erf and exp (``steps``)."""
    y = np.asarray(a)
    t = y.dtype.type
    A, B, C, D = ([t(c) for c in g] for g in (_ERFINV_A, _ERFINV_B, _ERFINV_C, _ERFINV_D))
    with np.errstate(all="ignore"):
        y_abs = np.abs(y)
        z = y * y
        num = fma(fma(fma(A[3], z, A[2]), z, A[1]), z, A[0])
        dem = fma(fma(fma(fma(B[3], z, B[2]), z, B[1]), z, B[0]), z, t(1))
        central = y * num / dem
        zz = libm("sqrt", -libm("log", (t(1) - y_abs) / t(2)))
        num = fma(fma(fma(C[3], zz, C[2]), zz, C[1]), zz, C[0])
        dem = fma(fma(D[1], zz, D[0]), zz, t(1))
        tail = np.copysign(num, y) / dem
        x = np.where(y_abs <= t(0.7), central, tail)
        two_over_sqrt_pi = t(2) * t(0.564189583547756286948)
        for _ in range(steps):
            x = x - (_erf(x) - y) / (two_over_sqrt_pi * libm("exp", -x * x))
        x = np.where(y_abs == 1, np.copysign(t(np.inf), y), x)
        x = np.where(y_abs > 1, t(np.nan), x)
    return x.astype(y.dtype, copy=False)


# ---------------------------------------------------------------------------
# modified Bessel functions I0, I1 (and scaled): Chebyshev series
# ---------------------------------------------------------------------------

_I0E_A = (-4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
          1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
          -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
          9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,
          -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,
          1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,
          -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
          1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
          -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,
          1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1)
_I0E_B = (-7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
          3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
          1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
          -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,
          7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11,
          -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,
          3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7,
          2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,
          8.04490411014108831608E-1)
_I1E_A = (2.77791411276104639959E-18, -2.11142121435816608115E-17, 1.55363195773620046921E-16,
          -1.10559694773538630805E-15, 7.60068429473540693410E-15, -5.04218550472791168711E-14,
          3.22379336594557470981E-13, -1.98397439776494371520E-12, 1.17361862988909016308E-11,
          -6.66348972350202774223E-11, 3.62559028155211703701E-10, -1.88724975172282928790E-9,
          9.38153738649577178388E-9, -4.44505912879632808065E-8, 2.00329475355213526229E-7,
          -8.56872026469545474066E-7, 3.47025130813767847674E-6, -1.32731636560394358279E-5,
          4.78156510755005422638E-5, -1.61760815825896745588E-4, 5.12285956168575772895E-4,
          -1.51357245063125314899E-3, 4.15642294431288815669E-3, -1.05640848946261981558E-2,
          2.47264490306265168283E-2, -5.29459812080949914269E-2, 1.02643658689847095384E-1,
          -1.76416518357834055153E-1, 2.52587186443633654823E-1)
_I1E_B = (7.51729631084210481353E-18, 4.41434832307170791151E-18, -4.65030536848935832153E-17,
          -3.20952592199342395980E-17, 2.96262899764595013876E-16, 3.30820231092092828324E-16,
          -1.88035477551078244854E-15, -3.81440307243700780478E-15, 1.04202769841288027642E-14,
          4.27244001671195135429E-14, -2.10154184277266431302E-14, -4.08355111109219731823E-13,
          -7.19855177624590851209E-13, 2.03562854414708950722E-12, 1.41258074366137813316E-11,
          3.25260358301548823856E-11, -1.89749581235054123450E-11, -5.58974346219658380687E-10,
          -3.83538038596423702205E-9, -2.63146884688951950684E-8, -2.51223623787020892529E-7,
          -3.88256480887769039346E-6, -1.10588938762623716291E-4, -9.76109749136146840777E-3,
          7.78576235018280120474E-1)
#: float32's shorter series for I1 (the tail of the double ones)
_I1E_A32 = _I1E_A[12:]
_I1E_B32 = _I1E_B[18:]


def chbevl(x, coeffs, t, fused=True):
    """Cephes' chbevl: the Chebyshev series at x (b0 = x * b1 - b2 + c, the product and the
    difference fused; ``fused`` False: c10::Half's steps, each rounded), halved."""
    b0 = np.full_like(x, t(coeffs[0]))
    b1 = np.zeros_like(x)
    b2 = b1
    with np.errstate(all="ignore"):
        for c in coeffs[1:]:
            b2 = b1
            b1 = b0
            b0 = (fma(x, b1, -b2) if fused else x * b1 - b2) + t(c)
        return t(0.5) * (b0 - b2)


def _bessel_parts(a, small, large):
    x = np.asarray(a)
    t = x.dtype.type
    ax = np.abs(x)
    with np.errstate(all="ignore"):
        near = ax <= t(8)
        lo = chbevl(ax / t(2) - t(2), small, t)
        hi = chbevl(t(32) / ax - t(2), large, t)
    return x, t, ax, near, lo, hi


def i0(a):
    x, t, ax, near, lo, hi = _bessel_parts(a, _I0E_A, _I0E_B)
    with np.errstate(all="ignore"):
        e = libm("exp", ax)
        return np.where(near, e * lo, e * hi / libm("sqrt", ax)).astype(x.dtype, copy=False)


def i0e(a):
    x, t, ax, near, lo, hi = _bessel_parts(a, _I0E_A, _I0E_B)
    with np.errstate(all="ignore"):
        return np.where(near, lo, hi / libm("sqrt", ax)).astype(x.dtype, copy=False)


def i0e_half_steps(a):
    """calc_i0e of a float16 array in c10::Half's arithmetic (the scalar loop's lanes): the series
    rounded to half at each step, the last division by sqrt(x) in float."""
    x = np.asarray(a, np.float16)
    t = np.float16
    ax = np.abs(x)
    with np.errstate(all="ignore"):
        lo = chbevl(ax / t(2) - t(2), _I0E_A, t, fused=False)
        hi = chbevl(t(32) / ax - t(2), _I0E_B, t, fused=False)
        far = (hi.astype(_F32) / np.sqrt(ax.astype(_F32))).astype(t)
        return np.where(ax <= t(8), lo, far)


def _i1_tables(a):
    return (_I1E_A32, _I1E_B32) if np.asarray(a).dtype == _F32 else (_I1E_A, _I1E_B)


def i1(a):
    x, t, ax, near, lo, hi = _bessel_parts(a, *_i1_tables(a))
    with np.errstate(all="ignore"):
        e = libm("exp", ax)
        out = np.where(near, e * ax * lo, e * hi / libm("sqrt", ax))
        return np.where(x < 0, -out, out).astype(x.dtype, copy=False)


def i1e(a):
    x, t, ax, near, lo, hi = _bessel_parts(a, *_i1_tables(a))
    with np.errstate(all="ignore"):
        out = np.where(near, lo * ax, hi / libm("sqrt", ax))
        return np.where(x < 0, -out, out).astype(x.dtype, copy=False)


# ---------------------------------------------------------------------------
# ndtri, entr, xlog1py
# ---------------------------------------------------------------------------

_NDTRI_P0 = (-5.99633501014107895267E1, 9.80010754185999661536E1, -5.66762857469070293439E1,
             1.39312609387279679503E1, -1.23916583867381258016E0)
_NDTRI_Q0 = (1.00000000000000000000E0, 1.95448858338141759834E0, 4.67627912898881538453E0,
             8.63602421390890590575E1, -2.25462687854119370527E2, 2.00260212380060660359E2,
             -8.20372256168333339912E1, 1.59056225126211695515E1, -1.18331621121330003142E0)
_NDTRI_P1 = (4.05544892305962419923E0, 3.15251094599893866154E1, 5.71628192246421288162E1,
             4.40805073893200834700E1, 1.46849561928858024014E1, 2.18663306850790267539E0,
             -1.40256079171354495875E-1, -3.50424626827848203418E-2, -8.57456785154685413611E-4)
_NDTRI_Q1 = (1.00000000000000000000E0, 1.57799883256466749731E1, 4.53907635128879210584E1,
             4.13172038254672030440E1, 1.50425385692907503408E1, 2.50464946208309415979E0,
             -1.42182922854787788574E-1, -3.80806407691578277194E-2, -9.33259480895457427372E-4)
_NDTRI_P2 = (3.23774891776946035970E0, 6.91522889068984211695E0, 3.93881025292474443415E0,
             1.33303460815807542389E0, 2.01485389549179081538E-1, 1.23716634817820021358E-2,
             3.01581553508235416007E-4, 2.65806974686737550832E-6, 6.23974539184983293730E-9)
_NDTRI_Q2 = (1.00000000000000000000E0, 6.02427039364742014255E0, 3.67983563856160859403E0,
             1.37702099489081330271E0, 2.16236993594496635890E-1, 1.34204006088543189037E-2,
             3.28014464682127739104E-4, 2.89247864745380683936E-6, 6.79019408009981274425E-9)
_EXP_M2 = 0.13533528323661269189


def ndtri(a):
    """Cephes' ndtri: the inverse of the standard normal CDF."""
    y0 = np.asarray(a)
    t = y0.dtype.type
    with np.errstate(all="ignore"):
        upper = y0 > t(1) - t(_EXP_M2)
        y = np.where(upper, t(1) - y0, y0)
        yc = y - t(0.5)
        y2 = yc * yc
        central = fma(yc, y2 * polevl(y2, _NDTRI_P0, t) / polevl(y2, _NDTRI_Q0, t), yc) * t(2.50662827463100050242)
        # (::log and ::sqrt: the double functions, float32 arguments promoted)
        yd = y.astype(_F64)
        x = libm("sqrt", -2.0 * libm("log", yd)).astype(t)
        xd = x.astype(_F64)
        x0 = (xd - libm("log", xd) / xd).astype(t)
        z = t(1) / x
        x1 = np.where(x < t(8), z * polevl(z, _NDTRI_P1, t) / polevl(z, _NDTRI_Q1, t),
                      z * polevl(z, _NDTRI_P2, t) / polevl(z, _NDTRI_Q2, t))
        tail = x0 - x1
        tail = np.where(upper, tail, -tail)
        out = np.where(y > t(_EXP_M2), central, tail)
        out = np.where((y0 < 0) | (y0 > 1) | np.isnan(y0), t(np.nan), out)
        out = np.where(y0 == 0, t(-np.inf), out)
        out = np.where(y0 == 1, t(np.inf), out)
    return out.astype(y0.dtype, copy=False)


def entr(a):
    """-x log x (0 at 0, -inf below, NaN kept)."""
    x = np.asarray(a)
    t = x.dtype.type
    with np.errstate(all="ignore"):
        out = np.where(x > 0, -x * libm("log", x), np.where(x == 0, t(0), t(-np.inf)))
        return np.where(np.isnan(x), x, out).astype(x.dtype, copy=False)


def xlog1py(x, y):
    """x * log1p(y): NaN where y is NaN, else 0 where x is 0."""
    x, y = np.asarray(x), np.asarray(y)
    with np.errstate(all="ignore"):
        out = x * libm("log1p", y)
        out = np.where(x == 0, x.dtype.type(0), out)
        return np.where(np.isnan(y), y, out).astype(np.result_type(x, y), copy=False)
