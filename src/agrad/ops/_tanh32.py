"""float32 tanh and tanh_backward at numpy speed, with the bits of the double path.

agrad's float32 tanh is glibc's double ``tanh`` of the float32 value rounded once to float32
(``_vec_math.via_double``: numpy's float64 loop); that costs 14 to 18 ns an element, ten times
numpy's own float32 tanh.  :func:`tanh` gives the same bits in about fifteen elementwise numpy
steps on cache-sized blocks and two table gathers (some 6 ns an element):

1. ``|x|`` is split as ``x0 + h``, ``x0`` being |x| rounded to 10 significant bits (the buckets
   of ``_tanh64``, whose table gives tanh(x0) and ``1 - tanh(x0)**2``, each rounded once; the
   float32 key plus a constant is the float64 key).  ``h`` is exact (float32 Sterbenz), and
   ``|h| <= 2**-11 x0``.
2. ``s = t0 + h om (1 - h t0)`` (Taylor to second order) in double.  The remainder is at most
   ``(2/3) om |h|**3 <= (4/3) x0**3 / sinh(2 x0) 2**-33 tanh(x) <= 2**-34.2 tanh(x)`` (the
   largest at x0 near 1.5), the roundings add a few 2**-53: ``s`` is within 2**18.8 units of
   tanh(x), a unit being 2**-52 of the power of two below s.
3. Rounding ``s`` to float32 keeps its top 24 bits: the 29 bits dropped tell how far s is from
   the nearest midpoint between two floats.  When that is at least 2**20 units, tanh(x) and
   glibc's double tanh (within 2 ulps of it) lie on s's side of the midpoint, and the float32
   s rounds to is the double path's result.
4. The others (0.4% of normal values, and every |x| below 2**-12 or above 19.5, inf and NaN)
   take the double path.

tools/tanh32_exhaustive.py checks every float32 against the double path.

:func:`tanh_backward` is the float32 kernel ``g * fl32(1 - y*y)`` (``y*y`` exact in double, the
difference rounded in double and then to float32) a block at a time: no whole float64 temporary.
"""

from __future__ import annotations

import numpy as np

from . import _tanh64

_F32 = np.float32
_F64 = np.float64
_I32 = np.int32
_I64 = np.int64

#: the fast path's smallest array (below it the double path costs less than the steps' calls)
MIN_SIZE = 2048
_BLOCK = 32768

_ABS = _I32(0x7FFFFFFF)
_SIGN = ~_ABS
_SHIFT = 23 - _tanh64.BITS
_HALF = _I32(1 << (_SHIFT - 1))
_LOW = _I32(-(1 << _SHIFT))  # clears the bits below the bucket's
#: a float32 key (|x|'s bits >> _SHIFT, rounded) plus this is the row of _tanh64's table
_ROW_OFF = _I64(((1023 - 127) << _tanh64.BITS) - int(_tanh64._KEY_OFF))

#: step 3: s is rejected when its 29 dropped bits lie within 2**_MARGIN_BITS of the midpoint
_MARGIN_BITS = 20
_DROPPED = _I64((1 << 29) - 1)
_TO_MID = _I64((1 << _MARGIN_BITS) - (1 << 28))  # (dropped + this) & _DROPPED < 2 * 2**20: near it
_NEAR = _I64(2 << _MARGIN_BITS)
_TINY = 2.0 ** -12  # |x| below: tanh(x) rounds to x
_ONE_AT = 19.5  # |x| at or above: to +-1

_cols = None


def _columns():
    """tanh(x0) and 1 - tanh(x0)**2 by row, contiguous; the rows beyond either end of the table
    (clipped keys) hold 1 + 2**-24 and 0: s is then 1 + 2**-24, exactly a midpoint (rejected)."""
    global _cols
    if _cols is None:
        rows = _tanh64._table()
        t0 = np.ascontiguousarray(rows[:, 0])
        om = np.ascontiguousarray(rows[:, 1])
        t0[0] = t0[-1] = 1.0 + 2.0 ** -24
        om[0] = om[-1] = 0.0
        _cols = (t0, om)
    return _cols


def _tanh_block(x, out, bad, a, k, key, h, p, t0, om, t0s, oms):
    """Steps 1-3 on one block: ``out`` gets the float32 s rounds to with x's sign, ``bad``
    where that is not certain."""
    xi = x.view(_I32)
    np.bitwise_and(xi, _ABS, out=a)  # |x|
    np.add(a, _HALF, out=k)
    k &= _LOW  # x0
    np.subtract(a.view(_F32), k.view(_F32), out=h)  # h = |x| - x0 (exact), in double
    k >>= _SHIFT
    np.add(k, _ROW_OFF, out=key)
    t0s.take(key, mode="clip", out=t0)
    oms.take(key, mode="clip", out=om)
    np.multiply(h, t0, out=p)
    np.subtract(1.0, p, out=p)
    p *= h
    p *= om
    p += t0  # s
    np.copyto(out, p, casting="same_kind")
    nan = np.add.reduce(out)  # (NaN when x is NaN or inf: h is NaN)
    pi = p.view(_I64)
    pi += _TO_MID
    pi &= _DROPPED
    np.less(pi, _NEAR, out=bad)
    if nan != nan:
        bad |= np.isnan(out)
    np.bitwise_and(xi, _SIGN, out=a)
    ov = out.view(_I32)
    ov |= a


def tanh(x: np.ndarray, exact) -> np.ndarray:
    """tanh of a float32 array with ``exact``'s bits (the double path, a function of a float32
    array), ``exact`` computing only what step 3 leaves open (all of a small or not
    C-contiguous array)."""
    if x.size < MIN_SIZE or not x.flags.c_contiguous:
        return exact(x)
    flat = x.reshape(-1)
    n = flat.size
    out = np.empty(n, _F32)
    bad = np.empty(n, bool)
    t0s, oms = _columns()
    b = min(_BLOCK, n)
    a, k = np.empty(b, _I32), np.empty(b, _I32)
    key = np.empty(b, _I64)
    h, p, t0, om = np.empty(b), np.empty(b), np.empty(b), np.empty(b)
    with np.errstate(all="ignore"):
        for i in range(0, n, b):
            j = min(i + b, n)
            m = j - i
            _tanh_block(flat[i:j], out[i:j], bad[i:j], a[:m], k[:m], key[:m], h[:m], p[:m], t0[:m], om[:m],
                        t0s, oms)
    idx = np.flatnonzero(bad)
    if idx.size:
        v = flat[idx]
        mag = np.abs(v)
        res = np.where(mag < _TINY, v, np.copysign(_F32(1), v))
        rest = ~((mag < _TINY) | (mag >= _ONE_AT))  # (NaN: the double path)
        if rest.any():
            res[rest] = exact(v[rest])
        out[idx] = res
    return out.reshape(x.shape)


def tanh_backward(g: np.ndarray, y: np.ndarray) -> np.ndarray:
    """g * fl32(1 - y*y) of float32 arrays of one shape (y*y in double, where it is exact,
    1 - y*y rounded there and then to float32, the product in float32), a block at a time."""
    if y.size < MIN_SIZE or g.shape != y.shape or not (y.flags.c_contiguous and g.flags.c_contiguous):
        return np.multiply(g, np.subtract(1.0, np.multiply(y, y, dtype=_F64)).astype(_F32))
    yf, gf = y.reshape(-1), g.reshape(-1)
    n = yf.size
    out = np.empty(n, _F32)
    m = min(_BLOCK, n)
    buf = np.empty(m)
    for i in range(0, n, m):
        j = min(i + m, n)
        d = buf[:j - i]
        np.multiply(yf[i:j], yf[i:j], out=d, dtype=_F64)
        np.subtract(1.0, d, out=d)
        np.multiply(gf[i:j], d, out=out[i:j], dtype=_F32, casting="same_kind")
    return out.reshape(y.shape)
