"""float32 tanh and tanh_backward at numpy speed, with the bits of the double path.

agrad's float32 tanh is glibc's double ``tanh`` of the float32 value rounded once to float32
(``_vec_math.via_double``: numpy's float64 loop); that costs 14 to 18 ns an element, ten times
numpy's own float32 tanh.  :func:`tanh` gives the same bits in twelve elementwise numpy steps
on cache-sized blocks and one table gather (some 4-5 ns an element; 64K-element blocks, whose
steps write over three reused buffers: ``h`` in float32 over x0's bits, ``s`` over the keys):

1. ``x`` is split as ``x0 + h``, ``x0`` being x rounded to 10 significant bits with x's sign
   (the buckets of ``_tanh64``: x's bits plus half a bucket, the bits below cleared); ``h`` is
   exact (float32 Sterbenz), ``|h| <= 2**-11 |x0|``.  The bits of ``x0`` shifted right, sign
   included, index a table of tanh(x0) rounded once (:func:`_signed_table`: 2**19 rows, one per
   float32 bucket of either sign; the rows outside ``2**-12 <= |x0| <= 19.5`` hold 1 + 2**-24
   below it and +-1 above it).
2. ``s = (t0 + h) / (1 + t0 h)``, in double: the addition formula of tanh with tanh(h)
   replaced by h.  That changes s by ``(1 - t0**2) (h - tanh(h)) / (1 + t0 tanh(h))**2``,
   at most ``(1 - t0**2) |h|**3 / 3 <= 2**-33 x0**3 (1 - t0**2) / (3 t0) |tanh(x)|``, at most
   ``2**-35.15 |tanh(x)|`` (the largest at x0 near 1.49); the roundings add a few 2**-53: ``s``
   is within 2**18 units of tanh(x), a unit being 2**-52 of the power of two below |s| (2**17.6
   the most measured, on every fifth float32 of the table's range against long double).
3. Rounding ``s`` to float32 keeps its top 24 bits: the 29 bits dropped tell how far s is from
   the nearest midpoint between two floats.  When that is at least 2**20 units, tanh(x) and
   glibc's double tanh (within 2 ulps of it) lie on s's side of the midpoint, and the float32
   s rounds to is the double path's result.  The table's rows beyond the ends give: below,
   s within 2**-46 of 1 + 2**-24, a midpoint (not accepted); above, s = +-1 exactly
   (``fl(1 + h) / fl(1 + h)``; tanh(x) rounds to +-1 from |x| = 9.01 on) or NaN (step 4).
4. The others (0.4% of normal values, every |x| below 2**-12) take the double path, and so do
   the NaNs s has: where x is NaN or inf, where x0 rounds to inf (|x| near the largest float),
   and where ``h = -+1`` above the table (|x| of 2048 or more: ``0 / 0``).  A float32 dot
   product of each block's result with itself tells whether to look for them there.

Where numpy's own double tanh loop is faster than these steps (its AVX-512 loop, which numpy
keeps when it is imported before agrad: some 2 ns an element), :func:`tanh` runs the double path
itself a block at a time instead (:func:`_direct`, chosen once per process by timing both): the
same bits, since every value the steps accept is the double path's.

tools/tanh32_exhaustive.py checks every float32 against the double path, both ways.

:func:`tanh_backward` is the float32 kernel ``g * fl32(1 - y*y)`` (``y*y`` exact in double, the
difference rounded in double and then to float32) a block at a time: no whole float64 temporary.
"""

from __future__ import annotations

import math

import numpy as np

from . import _tanh64

_F32 = np.float32
_F64 = np.float64
_D32, _D64 = np.dtype(_F32), np.dtype(_F64)
_I32 = np.int32
_I64 = np.int64
_U32 = np.uint32

#: the fast path's smallest array (below it the double path costs less than the steps' calls)
MIN_SIZE = 2048
_BLOCK = 65536
_BACK_BLOCK = 65536
_DIRECT_BLOCK = 65536  # (512x1024: 1.26 ms at 4,096 a block, 1.10 at 16,384, 1.02 at 65,536)

# (the constants are 0-d arrays: a ufunc call with a numpy scalar operand costs twice as much)
_SHIFT = np.array(23 - _tanh64.BITS, _U32)
_HALF = np.array(1 << (int(_SHIFT) - 1), _I32)
_LOW = np.array(-(1 << int(_SHIFT)), _I32)  # clears the bits below the bucket's
_ONE = np.array(1.0)
#: the float32 key (x's bits >> _SHIFT, rounded, sign included) of 2**LOW_EXP, and the count of
#: keys from there to the largest x0 (TOP)
_KEY_MIN = (127 + _tanh64.LOW_EXP) << _tanh64.BITS
_KEYS = _tanh64.KEY_MAX - _tanh64.KEY_MIN + 1
_NEG = 1 << (31 - int(_SHIFT))  # the sign bit's place in a key

#: step 3: s is rejected when its 29 dropped bits lie within 2**_MARGIN_BITS of the midpoint
_MARGIN_BITS = 20
_DROPPED = np.array((1 << 29) - 1, _I64)
_TO_MID = np.array((1 << _MARGIN_BITS) - (1 << 28), _I64)  # (dropped + this) & _DROPPED < 2 * 2**20: near it
_NEAR = np.array(2 << _MARGIN_BITS, _I64)
_TINY = 2.0 ** -12  # |x| below: tanh(x) rounds to x
_ONE_AT = 19.5  # |x| at or above: to +-1

_table = None


def _signed_table():
    """tanh(x0) by float32 key (2**19 rows, 4 MB): _tanh64's column for keys of 2**-12 to 19.5,
    negated for negative keys; 1 + 2**-24 for the keys below (|x| < 2**-12, zeros, subnormals)
    and +-1 for those above (up to inf and NaN) (step 3 of the module's doc)."""
    global _table
    if _table is None:
        t0 = _tanh64._table()[1:-1, 0]
        if t0.size != _KEYS:
            raise RuntimeError("_tanh64's table is not for this module's buckets")
        tab = np.full(2 * _NEG, 1.0 + 2.0 ** -24)
        for sign, base in ((1.0, 0), (-1.0, _NEG)):
            tab[base + _KEY_MIN:base + _KEY_MIN + _KEYS] = sign * t0
            tab[base + _KEY_MIN + _KEYS:base + _NEG] = sign
        _table = tab
    return _table


def _tanh_block(x, out, k, pk, t0, tab):
    """Steps 1-3 on one block (``x`` and ``out`` the block's input and output): returns where the
    float32 ``out`` gets is not certain (a NaN or inf in x aside), offsets within the block.  ``h``
    is float32 (exact), written over x0's bits; ``s`` is written over the keys, whose bits then
    give the test of step 3."""
    np.add(x.view(_I32), _HALF, out=k)
    np.right_shift(k.view(_U32), _SHIFT, out=pk)  # the key, its sign bit at _NEG (as intp: take's index)
    np.bitwise_and(k, _LOW, out=k)  # x0's bits
    h = k.view(_F32)
    np.subtract(x, h, out=h)  # h = x - x0 (exact)
    tab.take(pk, mode="clip", out=t0)
    p = pk.view(_F64)
    np.add(h, t0, out=p)  # (in double: h is converted exactly)
    np.multiply(t0, h, out=t0)
    np.add(t0, _ONE, out=t0)
    np.divide(p, t0, out=p)  # s
    np.copyto(out, p, casting="same_kind")
    np.add(pk, _TO_MID, out=pk)
    np.bitwise_and(pk, _DROPPED, out=pk)
    return np.flatnonzero(np.less(pk, _NEAR))


def tanh(x: np.ndarray, exact) -> np.ndarray:
    """tanh of a float32 array with ``exact``'s bits (the double path, a function of a float32
    array), ``exact`` computing only what step 3 leaves open (all of a small or not
    C-contiguous array).  Where numpy's own double tanh loop is the faster way (:func:`_direct_faster`),
    the double path itself, a block at a time (:func:`_direct`)."""
    if x.size < MIN_SIZE or not x.flags.c_contiguous:
        return exact(x)
    flat = x.reshape(-1)
    return (_direct(flat) if _direct_faster() else _steps(flat, exact)).reshape(x.shape)


def _steps(flat, exact):
    """The module's steps on a flat C-contiguous float32 array (``exact`` as for :func:`tanh`)."""
    n = flat.size
    out = np.empty(n, _F32)
    tab = _signed_table()
    b = min(_BLOCK, n)
    k, pk, t0 = np.empty(b, _I32), np.empty(b, _I64), np.empty(b)
    open_ = []
    with np.errstate(all="ignore"):
        for i in range(0, n, b):
            j = min(i + b, n)
            if j - i != b:
                k, pk, t0 = k[:j - i], pk[:j - i], t0[:j - i]
            o = out[i:j]
            idx = _tanh_block(flat[i:j], o, k, pk, t0, tab)
            if not math.isfinite(np.dot(o, o)):  # (a NaN in s: step 4)
                idx = np.union1d(idx, np.flatnonzero(np.isnan(o)))
            if idx.size:
                open_.append(idx + i if i else idx)
    if open_:
        idx = np.concatenate(open_)
        v = flat[idx]
        mag = np.abs(v)
        res = np.where(mag < _TINY, v, np.copysign(_F32(1), v))
        rest = ~((mag < _TINY) | (mag >= _ONE_AT))  # (NaN: the double path)
        if rest.any():
            res[rest] = exact(v[rest])
        out[idx] = res
    return out


def _direct(flat):
    """The double path (numpy's double tanh of the float32 values, rounded to float32), a block
    at a time through one reused double buffer: the same loop on the same doubles as
    ``np.tanh(x, dtype=float64).astype(float32)``, without its whole float64 temporary and its
    casts' small buffers."""
    n = flat.size
    out = np.empty(n, _F32)
    b = min(_DIRECT_BLOCK, n)
    buf = np.empty(b)
    with np.errstate(all="ignore"):
        for i in range(0, n, b):
            j = min(i + b, n)
            d = buf[:j - i] if j - i != b else buf
            np.copyto(d, flat[i:j])
            np.tanh(d, out=d)
            np.copyto(out[i:j], d, casting="same_kind")
    return out


_direct_choice = None


def _direct_faster() -> bool:
    """Whether numpy's double tanh loop (with the casts around it) beats the table's steps: it does
    where numpy runs an AVX-512 tanh (about 2 ns an element, the steps about 3.5; numpy imported
    before agrad keeps its AVX-512 kernels), not with its AVX2 one (about 6.5 ns) or libm's.  Timed
    once per process on a block of the steps' size (the best of three runs each; either way gives
    the same bits, step 3's margin being far wider than any double tanh's error)."""
    global _direct_choice
    if _direct_choice is None:
        import time

        x = np.linspace(-4.0, 4.0, _BLOCK, dtype=_F32)
        best = {}
        for name, fn in (("direct", _direct), ("steps", lambda v: _steps(v, _exact_for_timing))):
            t = []
            for _ in range(3):
                start = time.perf_counter()
                fn(x)
                t.append(time.perf_counter() - start)
            best[name] = min(t)
        _direct_choice = best["direct"] < 0.85 * best["steps"]
    return _direct_choice


def _exact_for_timing(v):
    return np.tanh(v, dtype=_F64).astype(_F32)


def tanh_backward(g: np.ndarray, y: np.ndarray) -> np.ndarray:
    """g * fl32(1 - y*y) of float32 arrays of one shape (y*y in double, where it is exact,
    1 - y*y rounded there and then to float32, the product in float32), a block at a time."""
    if y.size < MIN_SIZE or g.shape != y.shape or not (y.flags.c_contiguous and g.flags.c_contiguous):
        # (the same steps: y in double, squared there exactly, 1 - y*y rounded there, then to float32;
        # two numpy calls fewer than ufuncs with a dtype, on arrays of a few elements the cost)
        d = y.astype(_D64)
        d *= d
        return np.multiply(g, np.subtract(1.0, d, out=d).astype(_D32))
    yf, gf = y.reshape(-1), g.reshape(-1)
    n = yf.size
    out = np.empty(n, _F32)
    m = min(_BACK_BLOCK, n)
    buf = np.empty(m)
    for i in range(0, n, m):
        j = min(i + m, n)
        d, o = buf[:j - i], out[i:j]
        np.copyto(d, yf[i:j])
        d *= d
        np.subtract(1.0, d, out=d)
        np.copyto(o, d, casting="same_kind")
        o *= gf[i:j]
    return out.reshape(y.shape)
