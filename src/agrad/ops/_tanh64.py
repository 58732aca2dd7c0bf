"""float64 tanh and tanh's derivative factor 1 - y*y at numpy speed, with the exact path's bits.

agrad's float64 tanh is x87 long double's (``np.tanh`` on ``np.longdouble``, glibc's
``tanhl``) rounded once to double: the correctly rounded value but in about 0.05% of values,
as PyTorch's (MKL VML's) is but in about 1% (``_vec_math.via_long_double``).  ``tanhl`` costs 27 to 100 ns an element (an idle
to a loaded machine), 30 to 100 times numpy's own float64 tanh, and numpy's is an ulp away in a
fifth of the values.  :func:`tanh` gives the long double path's bits in 25 elementwise numpy
steps and three gathers, one per table column (about 8 ns an element):

1. ``|x|`` is split as ``x0 + h``: ``x0`` is |x| rounded to 10 significant bits (a bucket of
   relative width 2**-10; ``h = |x| - x0`` is exact, |h| <= 2**-11 |x0|).  A table holds, for each
   ``x0`` in [2**-12, 19.5], tanh(x0) as a double pair ``t0h + t0l`` (to 2**-100) and
   ``om = 1 - tanh(x0)**2`` rounded once (tools/gen_tanh64_table.py, with mpmath).
2. tanh(x0 + h) = t0 + D with D = tanh(h) (1 - t0**2) / (1 + t0 tanh(h)), tanh(h) = h - h**3/3 +
   2h**5/15 (the next term is below 2**-64 of h).  |D| <= 2**-11 tanh(x) (|h| / x0 <= 2**-11,
   and 2 x0 / sinh(2 x0) <= 1), computed with 4.5 roundings' error (tanh(h), om, the product,
   the denominator, the division; u = 2**-53 each); ``D' = fl(D + t0l)`` adds one more (|t0l| <=
   u |t0h|), and ``t0h + D'`` is summed exactly as ``s + rem`` (Fast2Sum: |t0h| >= |D'|), so
   ``s + rem`` is within 5.5 * 2**-64 of tanh(x) relatively: 5.5 * 2**-11 of the result's smaller
   gap between doubles (2**-10.1 is the largest measured before D', on 300,000 values against
   mpmath).
3. ``r = s`` is the double the pair rounds to when ``|rem|`` is below half a gap, and ``rem``
   its distance.  tanhl is within a few long double ulps of tanh(x) (glibc lists 3 ulps; 2.84
   measured; each is 2**-11 of the double gap).  When ``|rem| <= (1/2 - E) gap`` with
   E = 17 * 2**-11 (room for 5.5 * 2**-11 gaps from step 2 and 11 long double ulps), the true
   tanh(x) and tanhl's value lie strictly inside r's rounding interval, so r is tanhl's value
   rounded: the long double path's bits.  (``gap`` is the gap beside r on rem's side: the
   errors above are at most E of the smaller gap, and the other side of r's interval is at least
   half that gap away.)  The test is ``fl(s + fl(rem / (1 - 2E))) == s`` (the factor rounded up):
   s + y rounds to s only where |y| is at most half the gap on y's side.  (A table column of each
   bucket's smallest gap served for the test before: a fourth gather, and a quarter of the
   elements left to step 4 where tanh(x) is near a power of two, against 1.7% now.)
4. The other elements (about 1.5% of them; every NaN, |x| below 2**-12 or above 19.5) take
   the long double path, except |x| < 2**-28 (tanh rounds to x: ±0, subnormals) and
   |x| >= 19.1 (tanh rounds to ±1: inf).

Each step runs on cache-sized blocks (writing into a few reused buffers: a fresh 4 MB temporary
costs page faults worth ten numpy steps).

:func:`one_minus_square` is ``fma(-y, y, 1)`` (PyTorch's tanh_backward kernel fuses it) for
|y| <= 1 in eighteen plain numpy steps: Dekker's exact square ``p + e`` (y split into two halves
of 26 bits by rounding its bits), ``s = fl(1 - p)``,
``t = 1 - s - p`` (exact), ``r = fl(s + fl(t - e))``: correctly rounded unless ``fl(t - e)`` is
exactly half of s's gap (2**-54: s is in [1/2, 1]), where the general ``fma`` decides (so does
a block's |y| > 1, seen as its largest p above 1).  A NaN
y gives y's NaN, as PyTorch's kernel does (the general fma's NaN sign varies with numpy's loop).
:func:`tanh_backward` multiplies the gradient in as each block's factor is made.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

_F64 = np.float64
_I64 = np.int64

#: significant bits of a bucket's x0 (besides the leading one), and the table's range
BITS = 10
LOW_EXP = -12  # the smallest x0 is 2**LOW_EXP
TOP = 19.5  # the largest x0
_SHIFT = 52 - BITS
KEY_MIN = (1023 + LOW_EXP) << BITS  # the key (|x|'s bits >> _SHIFT, rounded) of 2**LOW_EXP
KEY_MAX = int((np.array(TOP).view(_I64) + (1 << (_SHIFT - 1))) >> _SHIFT)

#: the acceptance margin, in the result's gaps (see the module's doc, step 3): 17 * 2**-11
MARGIN = 2.0 ** -7 + 2.0 ** -11
#: 1 / (1 - 2 MARGIN), rounded up: ``s + rem * _STRETCH`` rounds to s only where |rem| is
#: at most (1/2 - MARGIN) of the gap beside s on rem's side
_STRETCH = np.array(np.nextafter(1.0 / (1.0 - 2 * MARGIN), np.inf))

TABLE = Path(__file__).with_name("_tanh64_table.npy")

#: the fast path's smallest array (below it the long double path costs less than the steps' calls)
MIN_SIZE = 2048

#: the bound of step 3 is in x87 long double ulps (64-bit significands): elsewhere (a long double
#: that is a double, or IEEE quad) the long double path keeps every element
X87 = np.finfo(np.longdouble).nmant == 63
_BLOCK = 65536  # (a 512x1024 tanh: 6.7 ms at 16,384 a block, 4.9 at 65,536; the MLP step 2% faster)

_ABS = _I64(0x7FFFFFFFFFFFFFFF)
_SIGN = ~_ABS
_HALF = _I64(1 << (_SHIFT - 1))
_KEY_OFF = _I64(KEY_MIN - 1)  # row 0 (and the last row) of the table: NaN, for keys out of range
_TINY = 2.0 ** -28
_ONE_AT = 19.1

_rows = None
_cols = None


def bucket_x0() -> np.ndarray:
    """The table's x0, in key order (tools/gen_tanh64_table.py)."""
    return (np.arange(KEY_MIN, KEY_MAX + 1, dtype=_I64) << _SHIFT).view(_F64)


def _table() -> np.ndarray:
    """Rows [t0h, 1 - t0**2, t0l] for keys KEY_MIN - 1 .. KEY_MAX + 1 (the first and last rows
    NaN: an element whose key is clipped to them is not accepted)."""
    global _rows
    if _rows is None:
        table = np.load(TABLE)
        if table.shape != (KEY_MAX - KEY_MIN + 1, 3):
            raise RuntimeError(f"{TABLE.name}: shape {table.shape}, not for this module's buckets")
        rows = np.full((len(table) + 2, 3), np.nan)
        rows[1:-1] = table[:, [0, 2, 1]]
        _rows = rows
    return _rows


def _columns():
    """The table's columns, each contiguous (a gather of one column at a time into contiguous
    buffers costs a third of a gather of whole rows and then strided reads)."""
    global _cols
    if _cols is None:
        rows = _table()
        _cols = tuple(np.ascontiguousarray(rows[:, i]) for i in range(rows.shape[1]))
    return _cols


def _tanh_block(x, out, ok, a, k, h, p, q, cols, row):
    """Step 1-3 on one block: ``out`` gets r with x's sign, ``ok`` whether it is certain."""
    np.bitwise_and(x.view(_I64), _ABS, out=a.view(_I64))  # |x|
    np.add(a.view(_I64), _HALF, out=k)
    k >>= _SHIFT  # the bucket's key
    np.left_shift(k, _SHIFT, out=h.view(_I64))  # x0
    np.subtract(a, h, out=h)  # h = |x| - x0 (exact)
    k -= _KEY_OFF
    for col, r in zip(cols, row):
        col.take(k, mode="clip", out=r)  # (clipped keys: the NaN rows)
    t0h, om, t0l = row
    np.multiply(h, h, out=p)
    np.multiply(p, 2.0 / 15, out=q)
    q += -1.0 / 3
    p *= h
    p *= q
    p += h  # tanh(h)
    np.multiply(p, om, out=q)
    p *= t0h
    p += 1.0
    q /= p  # D
    q += t0l  # D + t0l, rounded once
    s = np.add(t0h, q, out=p)
    np.subtract(t0h, s, out=a)
    a += q  # rem = t0h + (D + t0l) - s (exact: Fast2Sum, |t0h| >= |D + t0l|); r = s
    _certain(s, a, ok)
    np.bitwise_and(x.view(_I64), _SIGN, out=k)
    np.bitwise_or(s.view(_I64), k, out=out.view(_I64))  # (copysign's numpy loop is not vectorised)


def _certain(s, rem, ok):
    """Step 3's test, into ``ok``: whether ``|rem| <= (1/2 - E) gap``, ``gap`` the one between s and
    the double beside it on rem's side: ``s + rem / (1 - 2E)`` (rounded up) rounds to s.  NaN: not
    certain.  ``rem`` is written over."""
    rem *= _STRETCH
    rem += s
    np.equal(rem, s, out=ok)


def tanh(x: np.ndarray, exact) -> np.ndarray:
    """tanh of a float64 array with ``exact``'s bits (the long double path, a function of a
    float64 array): ``exact`` computes only the elements step 3 leaves open (all of a small
    or not C-contiguous array: its result keeps the input's layout, as astype does)."""
    if x.size < MIN_SIZE or not x.flags.c_contiguous or not X87:
        return exact(x)
    flat = x.reshape(-1)
    n = flat.size
    out = np.empty(n)
    ok = np.empty(n, bool)
    cols = _columns()
    b = min(_BLOCK, n)
    a, h, p, q = np.empty(b), np.empty(b), np.empty(b), np.empty(b)
    k = np.empty(b, _I64)
    row = np.empty((3, b))
    with np.errstate(all="ignore"):
        for i in range(0, n, b):
            j = min(i + b, n)
            m = j - i
            _tanh_block(flat[i:j], out[i:j], ok[i:j], a[:m], k[:m], h[:m], p[:m], q[:m], cols, row[:, :m])
    np.logical_not(ok, out=ok)
    idx = np.flatnonzero(ok)
    if idx.size:
        v = flat[idx]
        mag = np.abs(v)
        res = np.where(mag < _TINY, v, np.copysign(1.0, v))
        rest = ~((mag < _TINY) | (mag >= _ONE_AT))  # (NaN: the exact path)
        if rest.any():
            res[rest] = exact(v[rest])
        out[idx] = res
    return out.reshape(x.shape)


_ROUND_27 = _I64(1 << 26)  # y's bits plus half of the 27 low bits' unit, then the low bits cleared:
_HIGH_26 = _I64(~((1 << 27) - 1))  # y rounded to nearest at 26 significant bits (a carry is a power of two)
_HALF_GAP = 2.0 ** -54


def _oms_block(y, out, bad, a, b, c, k):
    """one_minus_square on one block; ``bad``: where fl(t - e) is exactly +-2**-54, |y| > 1 or NaN."""
    np.add(y.view(_I64), _ROUND_27, out=k)
    np.bitwise_and(k, _HIGH_26, out=a.view(_I64))  # yh: y rounded to 26 significant bits
    np.subtract(y, a, out=b)  # yl = y - yh (exact, at most 26 bits)
    np.multiply(a, b, out=c)
    c += c  # 2 yh yl
    a *= a  # yh yh
    np.multiply(y, y, out=out)  # p
    a -= out
    a += c
    b *= b
    a += b  # e: y*y == p + e exactly
    np.subtract(1.0, out, out=c)  # s = fl(1 - p)
    np.subtract(1.0, c, out=b)
    b -= out  # t = 1 - s - p (exact)
    in_range = out.max() <= 1.0  # p <= 1 iff |y| <= 1 (False with a NaN)
    b -= a  # fl(t - e)
    np.add(c, b, out=out)  # r
    np.abs(b, out=b)
    np.equal(b, _HALF_GAP, out=bad)
    if not in_range:  # (|y| > 1: the steps do not hold; NaN: see one_minus_square)
        bad |= ~(np.abs(y) <= 1.0)


def one_minus_square(y: np.ndarray, exact) -> np.ndarray:
    """fma(-y, y, 1) of a float64 array, ``exact`` (the general fma, a function of a float64
    array) deciding the rare elements the steps leave open (and all of a small or not
    C-contiguous array)."""
    if y.size < MIN_SIZE or not y.flags.c_contiguous:
        return exact(y)
    return _blocks(y.reshape(-1), exact).reshape(y.shape)


def tanh_backward(g: np.ndarray, y: np.ndarray, exact) -> np.ndarray:
    """g * fma(-y, y, 1), tanh_backward's kernel, of float64 arrays (``exact``: as for
    one_minus_square): for C-contiguous ones of one shape the product is taken a block at a
    time as the factor is made (one pass over memory fewer), otherwise after it."""
    if y.size < MIN_SIZE or g.shape != y.shape or not (y.flags.c_contiguous and g.flags.c_contiguous):
        f = one_minus_square(y, exact)
        if f.size >= MIN_SIZE and g.shape == f.shape:
            return np.multiply(g, f, out=f)  # (f is fresh: no second large temporary)
        return np.multiply(g, f)
    return _blocks(y.reshape(-1), exact, g.reshape(-1)).reshape(y.shape)


def _blocks(flat, exact, gf=None):
    """fma(-y, y, 1) of a flat C-contiguous float64 array a block at a time, times ``gf`` (the
    incoming gradient) as each block is made when given; ``exact`` for the elements the steps
    leave open (a NaN y: itself, as PyTorch's kernel's y * y and 1 - (y * y) pass it on)."""
    n = flat.size
    out = np.empty(n)
    bad = np.empty(n, bool)
    m = min(_BLOCK, n)
    a, b, c = np.empty(m), np.empty(m), np.empty(m)
    k = np.empty(m, _I64)
    with np.errstate(all="ignore"):
        for i in range(0, n, m):
            j = min(i + m, n)
            w = j - i
            o = out[i:j]
            _oms_block(flat[i:j], o, bad[i:j], a[:w], b[:w], c[:w], k[:w])
            if gf is not None:
                np.multiply(gf[i:j], o, out=o)
    idx = np.flatnonzero(bad)
    if idx.size:
        v = flat[idx]
        r = exact(v)
        nan = np.isnan(v)
        r[nan] = v[nan]
        out[idx] = r if gf is None else np.multiply(gf[idx], r)
    return out
