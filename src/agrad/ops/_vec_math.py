"""The float maths of PyTorch's CPU kernels where numpy's own differs in the last bit.

- ``fma``: a fused multiply-add (one rounding), which the AVX2 build uses wherever the
  compiler contracts ``a * b + c`` and wherever Sleef asks for it.
- ``sleef_expf``: ``Vectorized<float>::exp`` of the AVX2 vector code (Sleef's ``expf8_u10``:
  a Cody-Waite reduction by ln 2, a degree-6 polynomial evaluated with fused multiply-adds,
  and a scaling by two powers of two), bit for bit.
- ``sleef_log1pf``: ``Vectorized<float>::log1p`` (Sleef's ``log1pf8_u10``: the argument split
  by its exponent, a float-pair division and a degree-2 polynomial in float-pair sums), bit
  for bit; PyTorch's float32 ``log1p``, ``logsigmoid`` and their users take it at every size.
- ``via_long_double``: a float64 function computed in x87 long double, rounded once (MKL's
  and Sleef's double functions are correctly rounded but in under 1% of values for tanh,
  log10, erf, expm1, sinh, cosh, atanh; numpy's are not in 10% to 35%).
- ``libm_float``: a float32 libm function (``std::exp(float)`` in a scalar loop) as glibc
  and MKL give it: computed in double and rounded once (correctly rounded but in rare cases;
  numpy's own float32 loops are often an ulp away).
- ``reduce_all_sum``: ``vec::reduce_all`` with ``+`` along the last axis: whole vectors
  summed lane by lane, then the lanes folded as the AVX2 shuffles fold them.
- ``parallel_chunks``: the ranges ``at::parallel_for`` gives its threads.

The ops that take these steps (sigmoid's vector code, batch_norm) do so for tensors under
GRAIN_SIZE elements, as agrad/_cascade.py does for sums: emulating them costs tens of numpy
calls per element-wise step, and larger tensors keep numpy's faster arithmetic (the same
values up to float rounding). softmax and log_softmax (and their backward) take them at every
size: a whole validation set's loss is printed to the last digit.
"""

from __future__ import annotations

import os

import numpy as np

_F32 = np.float32

#: threads of PyTorch's intra-op pool (one per core this process may use)
THREADS = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)

#: at::internal::GRAIN_SIZE; also the size under which ops take the kernels' steps (see above)
GRAIN_SIZE = 32768


def parallel_chunks(n: int, grain: int, threads: int = THREADS) -> list[tuple[int, int]]:
    """The ``[begin, end)`` ranges at::parallel_for(0, n, grain) runs: one range unless there
    are more than ``grain`` iterations and more than one thread; else min(threads, n / grain)
    ranges of n / that many iterations (rounded up)."""
    if n <= grain or n <= 1 or threads <= 1:
        return [(0, n)] if n > 0 else []
    tasks = min(threads, -(-n // grain)) if grain > 0 else threads
    size = -(-n // tasks)
    return [(b, min(n, b + size)) for b in range(0, n, size)]


_MID_MASK = np.array((1 << 29) - 1, np.int64)  # (0-d arrays: a numpy scalar or a Python number
_MID = np.array(1 << 28, np.int64)              # operand costs a ufunc call twice an array's)
_count = np.count_nonzero  # (the cheapest "any" of numpy: a tenth of ndarray.any's call)


def _fma32(a, b, c):
    """fma for float32 operands (arrays or numpy scalars): the product is exact in double, and so is rounding the double
    sum to float32, but where that sum is exactly halfway between two floats (the bits below
    float32's precision are 100...0) and the double sum itself was rounded; there the exact
    sum (two-sum's error term) decides."""
    # (the operands cast to double first: a ufunc's dtype= costs as much as six plain calls)
    s = a.astype(np.float64) * b.astype(np.float64) + c.astype(np.float64)
    if type(s) is not np.ndarray:
        s = np.asarray(s)
    r = s.astype(_F32)
    bits = s.view(np.int64)
    np.bitwise_and(bits, _MID_MASK, out=bits)  # (s is not needed again: recomputed where halfway)
    halfway = bits == _MID
    if not _count(halfway):
        return r
    idx = np.flatnonzero(halfway)
    sh, err = _sum_error(a, b, c, s.shape, idx)
    if not _count(err):
        return r
    even = sh.astype(_F32)
    above = even.astype(np.float64) > sh
    hi = np.where(above, even, np.nextafter(even, _F32(np.inf)))
    lo = np.where(above, np.nextafter(even, _F32(-np.inf)), even)
    r = np.array(r, copy=True, ndmin=1)
    r.reshape(-1)[idx] = np.where(err > 0, hi, np.where(err < 0, lo, even))
    return r.reshape(s.shape)


def _sum_error(a, b, c, shape, idx):
    """_fma32's double sum at the flat indices ``idx`` of its result (of ``shape``), and its
    rounding error (two-sum's: zero where the double sum is exact)."""
    def at(v):
        v = np.asarray(v)
        return (v.reshape(-1) if v.shape == shape else np.broadcast_to(v, shape).reshape(-1))[idx]

    ph = at(a).astype(np.float64) * at(b)
    ch = at(c).astype(np.float64)
    sh = ph + ch
    t = sh - ph
    return sh, (ph - (sh - t)) + (ch - t)


_SPLIT = np.array(134217729.0)  # 2**27 + 1


def _halves(a):
    """a as hi + lo, each of 26 bits (Dekker's splitting)."""
    t = _SPLIT * a
    hi = t - (t - a)
    return hi, a - hi


def split_constant(v: float):
    """A float64 constant ``b`` of fma(a, b, c) ready for fma64_const: (b, b's halves), 0-d arrays
    (the halves as _halves makes them, on Python floats: the same IEEE steps)."""
    t = 134217729.0 * v
    hi = t - (t - v)
    return np.array(v), np.array(hi), np.array(v - hi)


def _two_prod(a, b, b_halves=None, a_halves=None):
    """a * b as p + e exactly (Dekker's splitting into 26-bit halves; ``b_halves``: b's, made
    beforehand for a constant b; ``a_halves``: a's, made once for several products)."""
    p = a * b
    ah, al = _halves(a) if a_halves is None else a_halves
    bh, bl = _halves(b) if b_halves is None else b_halves
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def fma_float(x, y, z):
    """fma's steps on Python floats (IEEE doubles): x * y + z rounded once."""
    p = x * y  # (_two_prod's steps, inline: one frame fewer for each float64 tanh backward)
    ta = 134217729.0 * x
    ah = ta - (ta - x)
    al = x - ah
    tb = 134217729.0 * y
    bh = tb - (tb - y)
    bl = y - bh
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = p + z
    t = s - p
    r = s + (e + ((p - (s - t)) + (z - t)))
    if r - r != 0.0 or r == 0.0:  # (inf or NaN; a zero: exact, and its sign is the plain sum's)
        r = x * y + z
    return r


def fma(a, b, c):
    """a * b + c rounded once, in the operands' float type (float32 or float64)."""
    a, b, c = np.asarray(a), np.asarray(b), np.asarray(c)
    if np.result_type(a, b, c) == np.float32:
        return _fma32(a, b, c)
    a, b, c = (x.astype(np.float64, copy=False) for x in (a, b, c))
    if a.size == 1 and b.size == 1 and c.size == 1:  # the same steps on Python floats (IEEE doubles)
        return np.array(fma_float(a.item(), b.item(), c.item())).reshape(
            np.broadcast_shapes(a.shape, b.shape, c.shape))
    with np.errstate(all="ignore"):
        if a.size >= _IN_BLOCKS and _c_laid(a, b, c):
            # a large C-ordered operation a cache-sized block at a time: the twenty-odd steps
            # stay in cache rather than each making a whole temporary (the same bits)
            shape = np.broadcast_shapes(a.shape, b.shape, c.shape)
            a, b, c = (np.broadcast_to(x, shape).reshape(-1) for x in (a, b, c))
            out = np.empty(a.size)
            for i in range(0, a.size, _FMA_BLOCK):
                j = i + _FMA_BLOCK
                out[i:j] = _fma64(a[i:j], b[i:j], c[i:j])
            return out.reshape(shape)
        return _fma64(a, b, c)


_FMA_BLOCK = 8192


def _c_laid(a, b, c):
    """Whether a (the largest) and the other operands (numbers or of a's shape) are C-contiguous:
    then a blocked result in C order is laid out as the whole-array steps would lay it out."""
    return a.flags.c_contiguous and all(
        x.ndim == 0 or (x.shape == a.shape and x.flags.c_contiguous) for x in (b, c))


def _fma64(a, b, c, b_halves=None, a_halves=None):
    p, e = _two_prod(a, b, b_halves, a_halves)
    return fma64_sum(p, e, c)


def fma64_sum(p, e, c):
    """The sum step of _fma64: p + e (a product, exactly: _two_prod's) + c, rounded once."""
    s = p + c
    t = s - p
    e2 = (p - (s - t)) + (c - t)
    r = s + (e + e2)
    # infinities and NaN: the plain expression a * b + c, which is s (p is a * b); a zero too
    # (the product is exact there, and the plain sum gives the zero's sign: -0 * 1 + -0 is -0)
    if type(r) is np.ndarray and _count(r) == r.size and _count(np.isfinite(r)) == r.size:
        return r  # (the usual case, no zero and every number finite: no second pass)
    ok = np.isfinite(r)
    ok &= r != 0
    return np.where(ok, r, s)


def fma64_const(a, b, c):
    """_fma64(a, b, c) with ``b`` a constant made by split_constant (its halves made once)."""
    return _fma64(a, b[0], c, b[1:])


_LOG2E = _F32(1.442695040888963407359924681001892137426645954152985934135449406931)
_LN2_HI = _F32(0.693145751953125)
_LN2_LO = _F32(1.428606765330187045e-06)
_EXP_POLY = tuple(_F32(c) for c in (0.000198527617612853646278381, 0.00139304355252534151077271,
                                    0.00833336077630519866943359, 0.0416664853692054748535156,
                                    0.166666671633720397949219, 0.5))


_I32_127, _I32_23 = np.array(127, np.int32), np.array(23, np.int32)


def _pow2i(q):
    """2**q built from its exponent bits (as the vector code does; no range check)."""
    return ((q + _I32_127) << _I32_23).view(_F32)


_C32 = {}


def c32(v: float):
    """The float32 constant v (a number, not NaN) as a 0-d array (cached): a numpy scalar operand
    costs a ufunc call twice an array's, a Python number four times."""
    key = v if v else (v, str(v))  # (0.0 and -0.0 are equal keys)
    try:
        return _C32[key]
    except KeyError:
        return _C32.setdefault(key, np.array(v, _F32))


_I32_ONE = np.array(1, np.int32)
_TWO31 = np.array(2.0 ** 31, _F32)


def cvt_i32(t):
    """cvtps2dq of an integral float32 array (rint's): NaN and out-of-range values become INT_MIN."""
    ok = np.abs(t) < _TWO31  # (NaN: False)
    if type(ok) is np.ndarray and _count(ok) == ok.size:
        return t.astype(np.int32)
    return np.where(np.isfinite(t) & ok, t, -2.0 ** 31).astype(np.int32)


_EXP_POLY_A = tuple(np.array(c, _F32) for c in _EXP_POLY)
_LOG2E_A, _M_LN2_HI, _M_LN2_LO = np.array(_LOG2E), np.array(-_LN2_HI), np.array(-_LN2_LO)


_F64 = np.float64
_LOG2E_64, _M_LN2_HI_64, _M_LN2_LO_64 = (np.array(v, _F64) for v in (_LOG2E, -_LN2_HI, -_LN2_LO))
_EXP_POLY_64 = tuple(np.array(c, _F64) for c in _EXP_POLY)
_ONE32_A = np.array(1, _F32)
_FEW = 4096  # (sleef_log1pf's fused steps checked at once up to this size)
_EXPF_FEW = 16384  # (sleef_expf's: see _expf_steps; 16,384 elements 12.8 ns each, _fma32's steps 15.1)


def _expf_steps(d, q):
    """sleef_expf's fused multiply-adds, each as _fma32 takes it (the double sum of the exact
    product, rounded to float32) but with every operand carried in double as well, and the
    check for a sum exactly halfway between two floats made once for all the steps: None when
    one is (then _fma32's own steps decide), else (s, u) as sleef_expf's steps give them.  A
    third of the numpy calls: what a small array's exp costs is the calls.

    The reduction's two sums are exact in double wherever the result is not replaced (|d| <=
    104, so |q| <= 150): d and q * ln2_hi are multiples of 2**-25 (q is 0 below |d| = 0.34) and
    2**-15, below 2**8; s (a float32 multiple of 2**-25) and q * ln2_lo (2**-43) below 2**8: no
    double rounding, so only the polynomial's six sums are checked, rows of one buffer."""
    q64 = q.astype(_F64)  # (float32(q) is q: |q| < 2**24, or INT_MIN)
    t = q64 * _M_LN2_HI_64
    t += d
    s = t.astype(_F32)
    np.multiply(q64, _M_LN2_LO_64, out=t)
    t += s
    s = t.astype(_F32)
    s64 = s.astype(_F64)
    sums = np.empty((6,) + d.shape)
    np.multiply(s64, _EXP_POLY_64[0], out=sums[0])
    sums[0] += _EXP_POLY_64[1]
    r = np.empty(d.shape, _F32)
    for i, c in enumerate(_EXP_POLY_64[2:], 1):
        r[...] = sums[i - 1]  # (rounded to float32)
        np.multiply(r, s64, out=sums[i])
        sums[i] += c
    r[...] = sums[4]
    np.multiply((s * s).astype(_F64), r, out=sums[5])
    sums[5] += s64
    u = sums[5].astype(_F32)
    bits = sums.view(np.int64)
    np.bitwise_and(bits, _MID_MASK, out=bits)
    if _count(bits == _MID):
        return None
    return s, u


def _expf_few(d):
    """sleef_expf of an array of at least one dimension by _expf_steps; None where a sum is halfway.
    The result laid out as numpy's element-wise steps lay it out (empty_like's order)."""
    if not d.flags.c_contiguous:
        u = _expf_few(np.ascontiguousarray(d))
        if u is not None:
            out = np.empty_like(d)
            out[...] = u
            u = out
        return u
    with np.errstate(all="ignore"):
        q = cvt_i32(np.rint(d * _LOG2E_A))
        steps = _expf_steps(d, q)
        if steps is None:
            return None
        s, u = steps
        u += _ONE32_A
        half = q >> _I32_ONE
        u *= _pow2i(half)
        q -= half
        u *= _pow2i(q)
        u[d < c32(-104.0)] = c32(0.0)
        u[d > c32(100.0)] = c32(np.inf)
        return u


def sleef_expf(d):
    """Vectorized<float>::exp (AVX2): Sleef's expf8_u10, bit for bit: up to _EXPF_FEW elements by
    _expf_few, else (or where a sum is halfway) each fused multiply-add by _fma32 (larger arrays
    in blocks by _expf_few measured no faster: 12-13 ns an element either way)."""
    d = np.asarray(d, _F32)
    if 0 < d.ndim and d.size <= _EXPF_FEW:
        u = _expf_few(d)
        if u is not None:
            return u
    return _expf_fused(d)


def _expf_fused(d):
    with np.errstate(all="ignore"):
        q = cvt_i32(np.rint(d * _LOG2E_A))
        qf = q.astype(_F32)
        s = _fma32(qf, _M_LN2_HI, d)
        s = _fma32(qf, _M_LN2_LO, s)
        u = _EXP_POLY_A[0]
        for c in _EXP_POLY_A[1:]:
            u = _fma32(u, s, c)
        u = c32(1.0) + _fma32(s * s, u, s)
        half = q >> _I32_ONE
        u = u * _pow2i(half) * _pow2i(q - half)
        u = np.where(d < c32(-104.0), c32(0.0), u)
        u = np.where(d > c32(100.0), c32(np.inf), u)
    return u.astype(_F32, copy=False)


_I32 = np.int32
_LN2_DF = (np.array(0.69314718246459960938, _F32), np.array(-1.904654323148236017e-09, _F32))  # ln 2 as a float pair
_LOG_POLY = tuple(np.array(c, _F32) for c in (0.3027294874, 0.3996108174, 0.6666694880))
_F32_MIN = np.array(1.17549435e-38, _F32)
_NAN32 = np.array(np.nan, _F32)
_ALL_ONES_NAN32 = np.array(-1, np.int32).view(_F32)  # (Sleef ORs an all-ones mask into the result)
_I32_FF, _I32_64 = np.array(0xff, np.int32), np.array(64, np.int32)
_ONE_BITS = np.array(0x3f800000, np.int32)


class _Deferred:
    """_fma32 with its check for a double sum exactly halfway between two floats left for later:
    each call rounds the double sum to float32 and keeps it, and :meth:`certain` checks them all
    at once (a kernel of a few elements costs its numpy calls, a third of them _fma32's checks).
    A halfway sum that is exact (two-sum's error is zero) rounds as _fma32 rounds it; when one is
    not, the kernel runs again with _fma32's own steps: the same bits."""

    __slots__ = ("sums", "terms")

    def __init__(self):
        self.sums = []
        self.terms = []

    def __call__(self, a, b, c):
        p = a.astype(np.float64) * b.astype(np.float64)
        c = c.astype(np.float64)
        s = p + c
        self.sums.append(s.reshape(-1))
        self.terms.append((p, c))
        return s.astype(_F32)

    def certain(self):
        sums = self.sums
        bits = np.concatenate(sums).view(np.int64)
        np.bitwise_and(bits, _MID_MASK, out=bits)
        halfway = bits == _MID
        if not _count(halfway):
            return True
        at = 0
        for s, (p, c) in zip(sums, self.terms):
            flag = halfway[at:at + s.size]
            at += s.size
            if _count(flag):
                s = s.reshape(np.shape(p + c))
                t = s - p
                err = (p - (s - t)) + (c - t)
                if _count(np.broadcast_to(err, s.shape).reshape(-1)[flag]):
                    return False
        return True


def sleef_log1pf(d):
    """Vectorized<float>::log1p (AVX2): Sleef's log1pf8_u10, bit for bit. Steps (float32,
    fused multiply-adds where Sleef's FMA build has them): e = the exponent of (d + 1) * 4/3
    (d + 1 below FLT_MIN scaled by 2**64 first), m = d * 2**-e + (2**-e - 1); x = m / (2 + m)
    as a float pair (the division refined with fma); ln 2 * e as a float pair, plus 2x, plus
    x**3 times a degree-2 polynomial in x**2; the pair's sum. Out of range: d > 1e38 is
    sleef_logf(d), d < -1 the all-ones NaN, d == -1 -inf, -0.0 stays -0.0, a NaN the default NaN. Up to _FEW elements, the fused multiply-adds'
    checks are made once (_Deferred)."""
    d = np.asarray(d, _F32)
    if 0 < d.ndim and d.size <= _FEW:
        fma = _Deferred()
        r = _log1pf_steps(d, fma)
        if fma.certain():
            return r
    return _log1pf_steps(d, _fma32)


def _log1pf_steps(d, _fma32):
    """sleef_log1pf's steps with ``_fma32`` as the fused multiply-add; the special values' steps
    only when d holds one (below -0.5, above 1e38, NaN; -0.0 when d holds a value <= 0)."""
    with np.errstate(all="ignore"):
        one = c32(1)
        lo, ordinary = one, False
        if d.size:
            lo = d.min()
            ordinary = lo > -0.5 and d.max() <= 1e38  # (NaN: False)
        dp1 = d + one
        if not ordinary:
            tiny = dp1 < _F32_MIN
            dp1 = np.where(tiny, dp1 * c32(2.0 ** 64), dp1)
        scaled = (dp1 * c32(1.0 / 0.75)).astype(_F32, copy=False)
        e = ((scaled.view(_I32) >> _I32_23) & _I32_FF) - _I32_127
        t = (_ONE_BITS + (-e << _I32_23)).view(_F32)  # (2**-e)
        m = _fma32(d, t, t - one)
        e = (e if ordinary else np.where(tiny, e - _I32_64, e)).astype(_F32)
        # s = (ln2 pair) * e
        sx = _LN2_DF[0] * e
        sy = _fma32(_LN2_DF[1], e, _fma32(_LN2_DF[0], e, -sx))
        # the pair (2 + m): x + y with y the rounding error (|2| >= |m| here)
        dx = c32(2) + m
        dy = (c32(2) - dx) + m
        # x = (m, 0) / (dx, dy)
        rec = one / dx
        qx = m * rec
        u = _fma32(rec, m, -qx)
        qy = _fma32(-dy, rec, _fma32(-dx, rec, one))
        qy = _fma32(qx, qy, u)  # (the numerator's low part is 0: fma(0, rec, u) is u)
        x2 = qx * qx
        p = _fma32(_LOG_POLY[0], x2, _LOG_POLY[1])
        p = _fma32(p, x2, _LOG_POLY[2])
        # s += 2x (pair + pair), then s += x2 * x * p (pair + float)
        hx, hy = qx * c32(2), qy * c32(2)
        rx = sx + hx
        ry = (((sx - rx) + hx) + sy) + hy
        v = (x2 * qx) * p
        sx2 = rx + v
        sy2 = ((rx - sx2) + v) + ry
        r = np.asarray(sx2 + sy2, _F32)
        if not ordinary:
            big = d > c32(1e38)  # (PyTorch's Sleef: logf(d) there, as the float64 kernel's log(d))
            if _count(big):
                r = np.where(big, sleef_logf(np.where(big, d, one)), r)
            r = np.where(d < -one, _ALL_ONES_NAN32, r)  # (PyTorch's NaN here: every bit set)
            r = np.where(d == -one, c32(-np.inf), r)
        if lo <= 0 or not ordinary:
            r = np.where((d == 0) & np.signbit(d), c32(-0.0), r)
        if not ordinary:
            r = np.where(np.isnan(d), _NAN32, r)  # (a NaN operand: the default NaN, sign bit clear)
    return r.astype(_F32, copy=False)


def _df_div(nx, ny, dx, dy):
    """Sleef's dfdiv (FMA build): the float pair (nx, ny) / (dx, dy)."""
    one = c32(1)
    rec = one / dx
    qx = nx * rec
    u = _fma32(rec, nx, -qx)
    qy = _fma32(-dy, rec, _fma32(-dx, rec, one))
    return qx, _fma32(qx, qy, _fma32(ny, rec, u))


def _df_add2(x, y):
    """Sleef's dfadd2 of two floats: their sum as a pair, whatever their magnitudes."""
    rx = x + y
    v = rx - x
    return rx, (x - (rx - v)) + (y - v)


def sleef_logf(d):
    """Vectorized<float>::log (AVX2): Sleef's logf8_u10, bit for bit: e = the exponent of
    d * 4/3 (d below FLT_MIN scaled by 2**64 first), m = d * 2**-e, x = (m - 1) / (m + 1) as a
    float pair, ln 2 * e + 2x + x**3 times a degree-2 polynomial in x**2, in float pairs.
    +inf stays, d < 0 and NaN are NaN, 0 is -inf."""
    d = np.asarray(d, _F32)
    with np.errstate(all="ignore"):
        one = c32(1)
        tiny = d < _F32_MIN
        dd = np.where(tiny, d * c32(2.0 ** 64), d)
        scaled = (dd * c32(1.0 / 0.75)).astype(_F32, copy=False)
        e = ((scaled.view(_I32) >> _I32_23) & _I32_FF) - _I32_127
        m = (dd.view(_I32) + (-e << _I32_23)).view(_F32)
        e = np.where(tiny, e - _I32_64, e).astype(_F32)
        sx = _LN2_DF[0] * e
        sy = _fma32(_LN2_DF[1], e, _fma32(_LN2_DF[0], e, -sx))
        qx, qy = _df_div(*_df_add2(-one, m), *_df_add2(one, m))
        x2 = qx * qx
        p = _fma32(_LOG_POLY[0], x2, _LOG_POLY[1])
        p = _fma32(p, x2, _LOG_POLY[2])
        hx, hy = qx * c32(2), qy * c32(2)
        rx = sx + hx
        ry = (((sx - rx) + hx) + sy) + hy
        v = (x2 * qx) * p
        sx2 = rx + v
        sy2 = ((rx - sx2) + v) + ry
        r = np.asarray(sx2 + sy2, _F32)
        r = np.where(d == c32(np.inf), c32(np.inf), r)
        r = np.where((d < 0) | np.isnan(d), _NAN32, r)
        r = np.where(d == 0, c32(-np.inf), r)
    return r.astype(_F32, copy=False)


def libm_float(np_fn, a):
    """np_fn of a float32 array as glibc's or MKL's float function gives it: in double,
    rounded once."""
    return np.asarray(np_fn(np.asarray(a, np.float64))).astype(_F32)


_F32_DTYPE = np.dtype(np.float32)



#: numpy's float64 functions whose one-element result is libm's, math's (the same bits in 250,000
#: values of every magnitude; exp and log are not: numpy's own loops, 2% and 0.03% of values differ)
_SAME_ONE64 = frozenset(("sin", "cos"))


#: from this size a float32 array goes through double in numpy's buffered blocks (into its float32
#: result) rather than as a whole float64 temporary: same bits, a third of the memory
_IN_BLOCKS = 1 << 14
_FAST32_MIN = 2048  # (_tanh32.MIN_SIZE: smaller float32 arrays keep the double path)
#: float32 arrays of fewer elements than this (one element aside) go through numpy's float64 loop
#: and back: ``kernel.small32(a, dtype=float64).astype(float32)`` (the callers' short way)
SMALL32 = min(_FAST32_MIN, _IN_BLOCKS)


def via_double(np_fn, other=None, single64=None, fast32=None):
    """np_fn (a ufunc) taking float32 arrays through double (libm_float); other dtypes as
    numpy does, or as ``other`` computes them. A single float32 (a numpy scalar or 0-d array)
    goes through Python's math function of the same name, libm's double function too, when
    there is one and it does not refuse the value. (agrad runs numpy with its floating-point
    warnings off.) ``single64``: what a one-element float64 array takes instead of ``other``
    (a cheaper way to the same bits). ``fast32(a, exact)``: the same bits for a float32 array
    of _tanh32.MIN_SIZE elements or more by a faster way, ``exact`` (the double path) for what
    that way leaves open (tanh: _tanh32.tanh)."""
    plain = other is None
    import math

    scalar_fn = getattr(math, np_fn.__name__, None)

    def exact32(a):
        return np_fn(a, dtype=np.float64).astype(_F32)

    def kernel(a):
        if type(a) is np.ndarray and a.dtype is _F32_DTYPE:
            if scalar_fn is not None and a.size == 1 and a.ndim < 2:
                try:
                    v = scalar_fn(a.item())
                except (ValueError, OverflowError):  # (a domain error or an overflow: numpy's answer)
                    return np_fn(a, dtype=np.float64).astype(_F32)
                if not a.ndim:
                    return _F32(v)
                out = a.copy()  # (a fresh array of a's one element; cheaper than empty_like's dispatch)
                out[0] = v
                return out
            if fast32 is not None and a.size >= _FAST32_MIN:
                return fast32(a, exact32)
            if a.size >= _IN_BLOCKS and a.flags.c_contiguous:
                # numpy's buffered cast, a block at a time: no whole float64 temporary (a 4M-element
                # chain's peak memory), the same bits as the double result rounded with astype
                out = np.empty(a.shape, _F32)
                np_fn(a, out=out, dtype=np.float64, casting="same_kind")
                return out
            return np_fn(a, dtype=np.float64).astype(_F32)
        if type(a) is np.float32:
            return via_scalar(a)
        if plain:
            return np_fn(a)
        if single64 is not None and type(a) is np.ndarray and a.size == 1 and a.dtype is _F64_DTYPE:
            return single64(a)
        return other(a)

    def via_scalar(a):
        if scalar_fn is not None:
            try:
                return _F32(scalar_fn(float(a)))
            except (ValueError, OverflowError):
                pass
        return np_fn(a, dtype=np.float64).astype(_F32)

    kernel.__name__ = getattr(np_fn, "__name__", "kernel")
    kernel.small32 = np_fn  # (a float32 array of 2 to SMALL32 - 1 elements, or none: np_fn through double)
    # what it runs on float64 arrays: np_fn on any of them, or single64 on those of one element
    if plain:
        kernel.float64 = np_fn
    elif single64 is not None:
        kernel.single64 = single64
    if scalar_fn is not None:  # ... and on a float32 array of one element (shape (1,)): math's
        kernel.scalar32 = scalar_fn
        if plain and kernel.__name__ in _SAME_ONE64:  # ... and on one float64 element, a finite one
            kernel.scalar64 = scalar_fn
    return kernel


_F64_DTYPE = np.dtype(np.float64)
_LONG = np.longdouble


def nan_signed(r, x, negative):
    """``r``, a kernel's fresh result from ``x`` (of r's shape or broadcast to it), with the NaNs
    that x's numbers give (a domain error: sqrt(-1), log(-1)) signed as PyTorch's kernel signs
    them (``negative``: a bool, or a bool array broadcast to r): a NaN's sign bit shows in
    ``signbit`` and ``copysign``. A NaN input keeps its own NaN."""
    dtype = getattr(r, "dtype", None)
    if dtype is not _F32_DTYPE and dtype is not _F64_DTYPE:
        return r
    made = np.isnan(r)
    if not made.any():
        return r
    made &= ~np.isnan(x)
    if not made.any():
        return r
    nan = np.copysign(np.asarray(np.nan, dtype), np.where(negative, -1, 1).astype(dtype))
    if type(r) is not np.ndarray or not r.ndim:
        return dtype.type(nan) if type(r) is not np.ndarray else np.asarray(nan, dtype).reshape(())
    np.copyto(r, nan, where=made)
    return r


def via_long_double(np_fn, scalar_tail=False, single_direct=False, vector32=None, fast64=None, fast32=None,
                    vector64=None):
    """np_fn (a ufunc) with float64 arrays computed in x87 long double and rounded once: the
    correctly rounded double but in about 0.05% of values, which is what PyTorch's kernels give
    where they are MKL's VML (tanh, log10) or Sleef's 1-ulp vector code (expm1, sinh, cosh,
    atanh), both within 1% of correctly rounded, where numpy's and libm's double functions are
    an ulp away in 10% to 25% of values. float32 as via_double. With ``scalar_tail``, the
    elements cpu_kernel_vec gives its scalar loop (after each row's blocks of two AVX2 vectors,
    or whole rows: _vector_loop.unary_lanes) are libm's function (numpy's float64 and float32
    loops, which are libm's double and float functions; ``vector32``: the float32 vector code,
    by default np_fn through double; ``vector64``: the float64 one, by default the long double
    round trip). ``single_direct`` sends a
    one-element float64 array straight to the long double round trip, not through ``fast64``
    (tanh: that way is the cheaper one for one element; numpy's own tanh, which agrad took there
    before for speed, is an ulp off in a fifth of values, and a backward's 1 - y² makes that
    ulp visible). ``fast64(a, exact)``: the same bits for a float64 array by a faster way, ``exact`` (the long
    double path) for what that way leaves open (tanh: _tanh64.tanh); ``fast32``: as via_double's."""
    scalar_tail = bool(scalar_tail)

    def exact(a):
        return np_fn(a.astype(np.longdouble)).astype(np.float64)

    def long_double(a):
        if type(a) is np.ndarray and a.dtype is _F64_DTYPE:
            if fast64 is not None:
                return fast64(a, exact)
            if scalar_tail:
                return _scalar_lanes(vector64 or (lambda v: np_fn(v.astype(np.longdouble)).astype(np.float64)), a, np_fn)
            return np_fn(a.astype(np.longdouble)).astype(np.float64)
        if type(a) is np.float64:
            return np.float64(long_double(np.asarray(a))[()])
        return np_fn(a)

    double = via_double(np_fn, long_double, exact if single_direct else None, fast32)  # (float32 and single elements: no extra call)
    if not scalar_tail:
        return double

    def kernel(a):
        if type(a) is np.ndarray and a.dtype is _F32_DTYPE:
            return _scalar_lanes(vector32 or (lambda v: np_fn(v, dtype=np.float64).astype(_F32)), a, np_fn)
        return double(a)

    kernel.__name__ = getattr(np_fn, "__name__", "kernel")
    return kernel


def _scalar_lanes(vec_fn, a, np_fn):
    """np_fn(a) as PyTorch's loop over ``a`` gives it: ``vec_fn`` (the vector code's values)
    where it runs the vector code, libm's (numpy's own loop) where it runs the scalar code."""
    from ._vector_loop import unary_lanes

    lanes = unary_lanes(a)
    if lanes is False:
        return np_fn(a)
    out = vec_fn(a)
    if lanes is not True:
        scalar = ~lanes
        out[scalar] = np_fn(a[scalar])
    return out


def _fold_lanes(acc, lanes):
    """vec_reduce_all(+) of whole vectors (the last axis holds the lanes): AVX2 adds the upper
    128 bits to the lower, then swaps 64-bit and 32-bit neighbours (float), or 64-bit ones
    (double)."""
    while lanes > 1:
        half = lanes // 2
        acc = acc[..., :half] + acc[..., half:lanes]
        lanes = half
    return acc[..., 0]


def reduce_all_sum_first(t):
    """reduce_all_sum of moveaxis(t, 0, -1): the lanes along the first axis of ``t`` (a C array
    of short rows transposed), so each step adds whole contiguous rows: the same additions in
    the same order, so the same bits, without numpy's slow loops over a short last axis."""
    lanes = 32 // t.dtype.itemsize
    n = t.shape[0]
    if n < lanes:
        if not n:
            return np.zeros(t.shape[1:], t.dtype)
        acc = t[0].copy()
        for i in range(1, n):
            acc += t[i]
        return acc
    acc = t[:lanes].copy()
    full = n - n % lanes
    for start in range(lanes, full, lanes):
        acc += t[start:start + lanes]
    if full < n:
        acc[:n - full] += t[full:]
    if t.dtype == np.float64:
        total = acc[0]
        for i in range(1, lanes):
            total = total + acc[i]
        return total
    while lanes > 1:
        lanes //= 2
        acc = acc[:lanes] + acc[lanes:2 * lanes]
    return acc[0]


def reduce_all_sum(a):
    """vec::reduce_all(+) along the last axis of a float32/float64 array (AVX2 vectors of 8 or
    4 lanes): fewer elements than a vector are added one after another; otherwise whole vectors
    are summed lane by lane (the tail's lanes into the first), then the lanes are folded: float's
    by halves of the register, double's one after another (softmax's backward of float64 rows of
    4 to 33: 2,400 of 2,400 bit for bit)."""
    lanes = 32 // a.dtype.itemsize
    n = a.shape[-1]
    if n < lanes:
        acc = np.zeros(a.shape[:-1], a.dtype)
        if n:
            acc = a[..., 0].copy()
        for i in range(1, n):
            acc = acc + a[..., i]
        return acc
    acc = a[..., :lanes].copy()
    full = n - n % lanes
    for start in range(lanes, full, lanes):
        acc = acc + a[..., start:start + lanes]
    if full < n:
        rest = n - full
        acc[..., :rest] = acc[..., :rest] + a[..., full:]
    if a.dtype == np.float64:  # (no AVX2 shuffles for double: vec_reduce_all's loop, lane after lane)
        total = acc[..., 0]
        for i in range(1, lanes):
            total = total + acc[..., i]
        return total
    # the fold pairs lane i with lane i + 4 (then + 2, + 1): the halves of the register
    return _fold_lanes(acc, lanes)
