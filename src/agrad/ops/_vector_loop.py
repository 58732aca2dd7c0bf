"""Which elements PyTorch's elementwise CPU loop gives to its vector code and which to its scalar loop.

TensorIterator coalesces the operands' dimensions into rows (the inner dimension: as many
trailing dimensions as every operand lays out one after another) and runs the kernel on each
row: in blocks of two AVX2 vectors (64 bytes: 16 floats, 8 doubles, 32 halves) while a whole
block is left, then element by element. The vector code runs only when every operand is
contiguous along the row, or exactly one input repeats a single value (a stride of 0); any
other row runs the scalar loop throughout. Where the two codes disagree (which of two equal
zeros ``maximum`` returns), agrad needs to know which ran. Rows are modelled for operands that
are all C-contiguous or all F-contiguous (broadcasting allowed); tensors split
between threads (over 32,768 elements) are not.
"""

from __future__ import annotations

import math

import numpy as np

from .._dense import dense
from ._vec_math import GRAIN_SIZE as _ONE_RANGE  # (a loop of this many elements or fewer is one range)

#: bytes in a block of two AVX2 vectors
BLOCK_BYTES = 64
#: the ``out=`` array a unary op writes into, while it runs (unary.py): its layout takes part in the loop
OUT_OPERAND = [None]


def vector_rows(shape: tuple, arrays) -> tuple[int, int, str] | None:
    """``(n, cut, order)``: the loop runs rows of ``n`` elements of the result (``order`` 'C' or
    'F': its layout) and the vector code takes the first ``cut`` of each; None where no row has
    a whole block in the vector code, or the layout is not modelled."""
    itemsize = arrays[0].dtype.itemsize
    size = int(np.prod(shape))
    if size < BLOCK_BYTES // itemsize or not all(type(a) is np.ndarray for a in arrays):
        return None
    if all(a.flags.c_contiguous for a in arrays):
        order = "C"
    elif all(a.flags.f_contiguous for a in arrays) and any(a.shape == shape for a in arrays):
        # (F order: the full-shape operands decide it; the others broadcast, as an expanded
        # gradient of a transposed input does)
        # (an operand of fewer dims broadcasts from the right: its dims padded in front, then reversed)
        order, shape, arrays = "F", shape[::-1], [a.reshape((1,) * (len(shape) - a.ndim) + a.shape).T for a in arrays]
    else:
        return None
    strides = [np.broadcast_to(a, shape).strides for a in arrays]
    dims = [d for d, s in enumerate(shape) if s != 1]
    n, inner = shape[dims[-1]], dims[-1]
    for d in reversed(dims[:-1]):  # coalesce: each operand lays dim d out right after the row
        if any(s[d] != n * s[inner] for s in strides):
            break
        n *= shape[d]
    steps = [s[inner] for s in strides]
    if steps.count(0) > 1 or any(step not in (0, itemsize) for step in steps):
        return None  # the scalar loop throughout
    cut = n - n % (BLOCK_BYTES // itemsize)
    return (n, cut, order) if cut else None


def binary_lanes(shape: tuple, arrays):
    """Where PyTorch's loop over ``arrays`` (operands broadcast to ``shape``; a fresh result)
    runs the vector code: a bool array of ``shape``, or None where it runs none (vector_rows).
    Operands dense in another order of their dims (``x.mT`` of a batch, a gradient expanded beside
    it) are walked in that order (TensorIterator's reorder_dimensions; the fresh result laid out so)."""
    rows = vector_rows(shape, arrays)
    if rows is None:
        perm = _dense_order(shape, arrays)
        if perm is None:
            return None
        inner = tuple(shape[d] for d in perm)
        padded = [a.reshape((1,) * (len(shape) - a.ndim) + a.shape).transpose(perm) for a in arrays]
        if vector_rows(inner, padded) is None:
            return None
        return binary_lanes(inner, padded).transpose(np.argsort(perm))
    n, cut, order = rows
    lanes = np.zeros((int(np.prod(shape)) // n, n), bool)
    lanes[:, :cut] = True
    return lanes.reshape(shape) if order == "C" else lanes.reshape(shape[::-1]).T


def _dense_order(shape, arrays):
    """The order of the dims (outermost first) in which the first operand of the full shape lays its
    elements out, where that is neither C's nor F's; None otherwise."""
    full = [a for a in arrays if type(a) is np.ndarray and a.shape == tuple(shape) and len(shape) > 2]
    if not full or full[0].flags.c_contiguous or full[0].flags.f_contiguous:
        return None
    a = full[0]
    perm = tuple(sorted(range(a.ndim), key=lambda d: -a.strides[d] if a.shape[d] != 1 else 0))
    return perm if a.transpose(perm).flags.c_contiguous else None


def unexpanded(a: np.ndarray) -> np.ndarray:
    """``a`` with each stride-0 dim (an expanded one) back at size 1, as binary_lanes takes its
    operands (a backward formula's gradient is often an expanded one)."""
    if 0 not in a.strides:
        return a
    return a[tuple(slice(0, 1) if st == 0 else slice(None) for st in a.strides)]


def unary_lanes(a: np.ndarray, block=None):
    """Where PyTorch's loop over ``a`` alone (a unary op's input; its output is new) runs the
    vector code: True for every element, False for none, else a bool array of ``a``'s shape.

    A dense ``a`` (any order of its dims) is one flat loop in memory order (TensorIterator's
    fast set-up: the output takes ``a``'s strides). Any other ``a`` (expanded, sliced with a
    step) is walked in the order of its sorted strides (reorder_dimensions; a stride of 0
    decides nothing), its output laid out that way, and the row is as many of the fastest dims
    as both lay out one after another; the row runs the vector code when ``a`` is contiguous
    or repeats one value (stride 0) along it, else the scalar loop throughout. Over GRAIN_SIZE
    elements, at::parallel_for's ranges split the loop, each range's pieces of rows starting
    their own blocks."""
    out = OUT_OPERAND[0]
    if out is not None and out.shape == a.shape and out.dtype == a.dtype and out.strides != a.strides:
        return loop_lanes([out, a])  # (an out= of its own layout: TensorIterator's operands, out first)
    block = block or BLOCK_BYTES // a.itemsize  # (``block``: a loop's own, copy's conversions of float16)
    n = a.size
    if n < block:
        return False
    if n <= _ONE_RANGE and a.flags.c_contiguous:  # (one flat row in C order, one range: _row_lanes' answer, directly)
        cut = n - n % block
        if cut == n:
            return True
        lanes = np.zeros(a.shape, bool)
        lanes.reshape(-1)[:cut] = True
        return lanes
    dims = [d for d in range(a.ndim) if a.shape[d] != 1]
    strides = [a.strides[d] for d in dims]
    shape = [a.shape[d] for d in dims]
    order = sorted(range(len(dims)), key=lambda i: -strides[i])  # (slowest first)
    expected, dense = a.itemsize, True
    for i in order[::-1]:
        if strides[i] != expected:
            dense = False
            break
        expected *= shape[i]
    if dense:
        row = n
    else:
        from ._layout import reorder_dimensions
        perm = reorder_dimensions(len(dims), shape, [strides])  # (fastest first)
        step, row = strides[perm[0]], shape[perm[0]]
        if step not in (0, a.itemsize):
            return False  # the scalar loop throughout
        for i in perm[1:]:
            if strides[i] != row * step:
                break
            row *= shape[i]
        order = perm[::-1]
    return _row_lanes(n, row, block, [shape[i] for i in order], np.argsort(order), a.shape)


def loop_lanes(arrays):
    """Where PyTorch's loop over the inputs ``arrays`` (a fresh result of their broadcast shape)
    runs the vector code, as unary_lanes says for one input: True, False or a bool array. Inputs
    of one shape and the same dense strides are one flat loop in memory order; otherwise the dims
    are sorted by the inputs' strides (reorder_dimensions), the row is as many of the fastest as
    every input lays out one after another (coalesced), and it runs the vector code when every
    input is contiguous along it or exactly one repeats a value (stride 0), the others contiguous."""
    shape = np.broadcast_shapes(*(a.shape for a in arrays))
    itemsize = arrays[0].dtype.itemsize
    block = BLOCK_BYTES // itemsize
    n = math.prod(shape)
    if n < block:
        return False
    row, loop_shape, back, steps = _loop_rows(arrays, shape, n, itemsize)
    if any(step not in (0, itemsize) for step in steps) or steps.count(0) > 1:
        return False  # the scalar loop throughout
    return _row_lanes(n, row, block, loop_shape, back, shape)


def _loop_rows(arrays, shape, n, itemsize):
    """``(row, loop_shape, back, steps)`` of TensorIterator's loop over the inputs ``arrays`` broadcast
    to ``shape`` (``n`` elements, more than one): the row's length, the dims in loop order (slowest
    first), the permutation that puts them back, and each input's stride (bytes) along the row."""
    dims = [d for d in range(len(shape)) if shape[d] != 1]
    sizes = [shape[d] for d in dims]
    # (an input of the result's shape has its own strides: broadcast_to is a slow call)
    strides = [[(a.strides if a.shape == shape else np.broadcast_to(a, shape).strides)[d] for d in dims]
               for a in arrays]
    order = sorted(range(len(dims)), key=lambda i: -strides[0][i])  # (slowest first)
    expected, dense = itemsize, all(a.shape == shape for a in arrays) and all(s == strides[0] for s in strides)
    for i in order[::-1]:
        if not dense or strides[0][i] != expected:
            dense = False
            break
        expected *= sizes[i]
    if dense:
        return n, [sizes[i] for i in order], np.argsort(order), [itemsize] * len(arrays)
    from ._layout import reorder_dimensions
    perm = reorder_dimensions(len(dims), sizes, strides)  # (fastest first)
    steps = [s[perm[0]] for s in strides]
    row = sizes[perm[0]]
    for i in perm[1:]:
        if any(s[i] != row * step for s, step in zip(strides, steps)):
            break
        row *= sizes[i]
    order = perm[::-1]
    return row, [sizes[i] for i in order], np.argsort(order), steps


def loop_rows(arrays):
    """``(steps, pos, length)`` of PyTorch's loop over the inputs ``arrays`` (numpy arrays; a fresh result
    of their broadcast shape), as loop_lanes finds its rows: each input's stride along the row (bytes:
    the kernel's vector code runs when every one is the itemsize or exactly one is 0), and for each
    element of the result its place in its piece of a row and that piece's length (arrays of the
    result's shape; at::parallel_for's ranges cut rows into pieces). One element: the strides along the
    outermost dim (TensorIterator keeps those as it coalesces dims of size 1); a 0-d result: None."""
    shape = np.broadcast_shapes(*(a.shape for a in arrays))
    n = math.prod(shape)
    if n == 1:
        zero = np.zeros(shape, np.int64)
        steps = [a.strides[0] if a.ndim == len(shape) else 0 for a in arrays] if shape else None
        return steps, zero, zero + 1
    row, loop_shape, back, steps = _loop_rows(arrays, shape, n, arrays[0].dtype.itemsize)
    pos, length = _pieces(n, row, loop_shape, back, shape)
    return steps, pos, length


def _pieces(n, row, loop_shape, back, shape):
    """Each element's place in its piece of a row, and that piece's length (see _row_lanes)."""
    from ._vec_math import GRAIN_SIZE, parallel_chunks
    chunks = parallel_chunks(n, GRAIN_SIZE)
    # f: each element's place in the loop (the output's memory order)
    f = np.arange(n).reshape(loop_shape).transpose(back).reshape(shape)
    begin = f // row * row
    end = begin + row
    for lo, hi in chunks[1:]:  # (a range's first and last rows are pieces)
        begin = np.where((f >= lo) & (begin < lo), lo, begin)
    for lo, hi in chunks[:-1]:
        end = np.where((f < hi) & (end > hi), hi, end)
    return f - begin, end - begin


def by_lanes(lanes, vec, scalar, arrays, dtype):
    """``vec(*arrays)`` where ``lanes`` (True, False, None or a bool array of the result's shape)
    says the vector code runs, ``scalar(*arrays)`` elsewhere."""
    with np.errstate(all="ignore"):
        if lanes is None or lanes is False:
            return np.asarray(scalar(*arrays), dtype)
        out = np.array(_in_blocks(vec, arrays), dtype)
        if lanes is not True:
            rest = ~lanes
            if rest.any():
                out[rest] = scalar(*(np.broadcast_to(a, out.shape)[rest] for a in arrays))
    return out


#: an elementwise kernel's steps (some hundred numpy passes over its operands, Sleef's in numpy)
#: go over arrays of more than twice this many elements a block at a time, so that their
#: temporaries stay in the cache (16,384-32,768 elements: 1.3-1.6x less time; the same bits)
VEC_BLOCK = 8192


def _in_blocks(vec, arrays):
    """``vec(*arrays)`` (elementwise) in equal blocks of about VEC_BLOCK elements where every
    operand is C-contiguous of the result's shape or 0-d (the result then laid out as the
    whole-array call lays it out: C order)."""
    shape = np.broadcast_shapes(*(np.shape(a) for a in arrays))
    n = math.prod(shape)
    if n <= 2 * VEC_BLOCK or not all(
            np.ndim(a) == 0 or (isinstance(a, np.ndarray) and a.shape == shape and a.flags.c_contiguous) for a in arrays):
        return vec(*arrays)
    count = -(-n // VEC_BLOCK)
    step = -(-n // count)
    flat = [a if np.ndim(a) == 0 else a.reshape(-1) for a in arrays]
    parts = [np.asarray(vec(*(f if np.ndim(f) == 0 else f[i:i + step] for f in flat))) for i in range(0, n, step)]
    return np.concatenate(parts).reshape(shape)


def _row_lanes(n, row, block, loop_shape, back, shape):
    """The vector lanes of a loop over ``n`` elements in rows of ``row`` (``loop_shape``: the dims
    in loop order, slowest first; ``back`` puts them back in the result's order), each row's
    whole blocks of ``block`` elements, rows cut where at::parallel_for's ranges split them."""
    from ._vec_math import GRAIN_SIZE, parallel_chunks
    if len(parallel_chunks(n, GRAIN_SIZE)) == 1:
        if row % block == 0:
            return True
        if row < block:
            return False
    pos, length = _pieces(n, row, loop_shape, back, shape)
    return pos < length - length % block


def keep_self(np_fn):
    """np_fn (np.fmax, np.fmin, ...) giving ``a`` on a tie (-0.0 and 0.0), as PyTorch's kernels do
    (numpy gives either operand, depending on the dtype)."""

    def kernel(a, b):
        r = np_fn(a, b)
        if r.dtype.kind != "f":
            return r
        return np.where(r == a, a, r)

    return kernel


def tie_by_loop(np_fn):
    """np.maximum / np.minimum as PyTorch's kernels give a tie of zeros: ``a`` in the scalar loop,
    ``b`` in the vector code (AVX2's max/min return their second operand), as loop_lanes says;
    and their NaNs' bits (vector_nans). ``layout``: an array of ``a``'s shape laid out as the
    kernel's output and first input are (an in-place or out= kernel's), where ``a`` is not."""
    keep_self_fn = keep_self(np_fn)

    def kernel(a, b, layout=None):
        r = keep_self_fn(a, b)
        if r.dtype.kind != "f":
            return r
        operands = (a if layout is None else layout, b)
        zeros = (r == 0) & (b == 0)  # (a tie that shows: two zeros, one of them negative)
        if zeros.any():
            lanes = loop_lanes([np.asarray(x) for x in operands])
            if lanes is not False:
                r = np.where(zeros & lanes, b, r).astype(r.dtype, copy=False)
        return vector_nans(r, operands)

    return kernel


_INTS = {2: np.int16, 4: np.int32, 8: np.int64}


def vector_nans(r: np.ndarray, arrays, scalar_nans=None) -> np.ndarray:
    """``r`` (a fresh float result of maximum / minimum / clamp with tensor bounds over ``arrays``) with
    the bits of PyTorch's NaNs: AVX2's max/min kernels OR their unordered-compare mask into the result,
    so a NaN the vector code makes has every bit set (float16's too: its kernel runs in float32 and
    converts back), while the scalar loop returns quiet_NaN() (positive, canonical) or, where given,
    ``scalar_nans()`` (an array broadcasting to ``r``'s shape: clamp's own NaN operand). Which code: loop_lanes."""
    nan = r != r
    if not nan.any():
        return r
    r = np.array(r, copy=True) if not (isinstance(r, np.ndarray) and r.flags.writeable and r.ndim) else r
    nan = np.asarray(nan)
    lanes = loop_lanes([np.asarray(a) for a in arrays])
    vector = nan if lanes is True else nan & lanes if lanes is not False else np.zeros(nan.shape, bool)
    scalar = nan & ~vector
    if scalar.any():
        r[scalar] = np.nan if scalar_nans is None else np.broadcast_to(scalar_nans(), r.shape)[scalar]
    if vector.any():
        r.view(_INTS[r.itemsize])[vector] = -1
    return r


_QUIET = {4: np.int32(0x00400000), 8: np.int64(0x0008000000000000)}


def fmax_nans(np_fn):
    """np.fmax / np.fmin (ties keep ``a``) with PyTorch's NaNs (std::fmax, and its AVX2 kernel alike): a
    quiet NaN gives the other operand, a signaling one (the quiet bit clear) itself made quiet, two NaNs
    the second made quiet. Float16 runs in float32, where its signaling NaNs arrive quiet."""
    keep_self_fn = keep_self(np_fn)

    def kernel(a, b):
        r = keep_self_fn(a, b)
        if r.dtype.kind != "f":
            return r
        a_nan, b_nan = np.isnan(a), np.isnan(b)
        if not (a_nan.any() or b_nan.any()):
            return r
        shape = r.shape
        a, b = np.broadcast_to(a, shape), np.broadcast_to(b, shape)
        a_nan, b_nan = np.broadcast_to(a_nan, shape), np.broadcast_to(b_nan, shape)
        r = np.array(r, copy=True).reshape(shape)
        ints = _INTS[r.itemsize]
        both = a_nan & b_nan
        if r.itemsize == 2:  # (the second NaN, through float32 and back: quiet)
            r[both] = b[both].astype(np.float32).astype(np.float16)
            return r
        quiet = _QUIET[r.itemsize]
        a_bits, b_bits = a.view(ints), b.view(ints)
        a_sig = a_nan & ~b_nan & ((a_bits & quiet) == 0)
        b_sig = b_nan & ~a_nan & ((b_bits & quiet) == 0)
        out = r.view(ints)
        out[both | b_sig] = (b_bits | quiet)[both | b_sig]
        out[a_sig] = (a_bits | quiet)[a_sig]
        return r

    return kernel


def fmod_nan_signs(r, a, b):
    """``r = np.fmod(a, b)`` (float16/32/64) as PyTorch's loop gives it: the scalar loop
    (libm's fmod) is numpy's, but a NaN over a NaN is negative only when both are. The vector
    code (Sleef's fmodf8/fmodd4, remainder's too) gives ``+nan`` for ``b == 0``, NaN where its
    first quotient overflows (_sleef_fmod_overflows), and else a NaN whose sign is ``a``'s
    flipped by the NaN its steps make: none for a NaN ``a``, the invalid operation's negative
    default NaN for an infinite ``a`` or an overflow, and for a NaN ``b`` (its absolute value
    enters) none in float32, a flip in float64. Float16's vector code converts to float32 and runs
    Sleef's float code (its blocks are 32 halves). Which elements run which code: binary_lanes."""
    if r.size == 1:  # (a number, or NaN from the scalar loop)
        v = r.item()
        if v == v:
            return r
    dtype = r.dtype
    if dtype.char not in "efd":
        return r
    if r.size < BLOCK_BYTES // dtype.itemsize:  # (the scalar loop only)
        nan = np.isnan(r)
        if not nan.any():
            return r
        lanes = None
    else:
        lanes = binary_lanes(r.shape, (np.asarray(a, dtype), np.asarray(b, dtype)))
        nan = np.isnan(r)
    a = np.asarray(a, dtype)
    b = np.asarray(b, dtype)
    if lanes is not None:
        wide = (a, b) if dtype.char != "e" else (a.astype(np.float32), b.astype(np.float32))
        over = _sleef_fmod_overflows(*wide) & lanes
        if over.any():
            nan = nan | over
    if not nan.any():
        return r
    sa = np.signbit(a)
    na, nb = np.isnan(a), np.isnan(b)
    neg = np.where(na & nb, sa & np.signbit(b), np.signbit(r))  # (the scalar loop)
    if lanes is not None:
        vec = np.where(b == 0, False, np.where(nb, sa ^ (dtype == np.float64), np.where(na, sa, ~sa)))
        neg = np.where(lanes, vec, neg)
    r = np.array(r, copy=True) if type(r) is not np.ndarray else r
    np.copyto(r, np.copysign(np.asarray(np.nan, dtype), np.where(neg, -1.0, 1.0)).astype(dtype), where=nan)
    return r if r.ndim else r[()]


def _sleef_fmod_overflows(a, b):
    """Where Sleef's fmod gives NaN for finite operands: |b| below the smallest normal is scaled
    by 2**25 (2**54 for double), |a| with it, and the first quotient, |a| times 1/|b| (each one
    ulp toward zero), overflows (it then subtracts inf from inf)."""
    dtype = a.dtype
    itype = np.int32 if dtype == np.float32 else np.int64
    with np.errstate(all="ignore"):
        nu, de = np.abs(a), np.abs(b)
        small = de < np.finfo(dtype).tiny
        if small.any():
            scale = dtype.type(2.0 ** 25 if dtype == np.float32 else 2.0 ** 54)
            nu = np.where(small, nu * scale, nu)
            de = np.where(small, de * scale, de)
        rde = dtype.type(1) / de
        rde = np.where(rde == 0, rde, (rde.view(itype) - itype(1)).view(dtype))
        nu0 = np.where(nu == 0, nu, (nu.view(itype) - itype(1)).view(dtype))
        return np.isinf(nu0 * rde) & (nu >= de) & (de != 0) & np.isfinite(a)


#: float16's bits that make a NaN quiet, and the shift from float32's / float64's mantissa to float16's
_HALF_QUIET = np.int16(0x7e00)
_TO_HALF_SHIFT = {4: 13, 8: 42}


def cast_nans(out: np.ndarray, a: np.ndarray) -> np.ndarray:
    """``out`` (``a.astype(...)``, a fresh array of ``a``'s shape) with the NaN bits of PyTorch's conversions
    to and from float16 (float32 and float64 between them convert as numpy does):
    float16 to float32 of a dense tensor converts in blocks of 8 (Vectorized<float>), each NaN made quiet, and
    element by element after the last whole block (in memory order), where every NaN becomes 0x7fffffff (of a
    tensor that is not dense, every NaN is made quiet);
    float16 to float64 makes each NaN quiet; float32 / float64 to float16 keep the sign and the mantissa's top
    ten bits with the quiet bit set (numpy keeps a signaling NaN signaling). Which elements: unary_lanes."""
    src, dst = a.dtype, out.dtype
    if src.kind != "f" or dst.kind != "f" or src == dst or 2 not in (src.itemsize, dst.itemsize) or a.size == 0:
        return out
    nan = np.isnan(a)
    if not nan.any():
        return out
    if not out.flags.writeable:
        out = out.copy()
    bits = out.view(_INTS[dst.itemsize])
    if dst.itemsize == 2:
        ints = a.view(_INTS[src.itemsize]) if a.ndim else a.reshape(1).view(_INTS[src.itemsize]).reshape(())
        shift = _TO_HALF_SHIFT[src.itemsize]
        sign = np.where(ints < 0, np.int16(-0x8000), np.int16(0))
        mantissa = ((ints >> shift) & 0x3FF).astype(np.int16)
        np.copyto(bits, sign | _HALF_QUIET | mantissa, where=nan)
        return out
    quiet = _QUIET[dst.itemsize]
    if dst.itemsize == 8:
        np.copyto(bits, bits | quiet, where=nan)
        return out
    if type(a) is not np.ndarray or not dense(a):  # (not dense: converted as the vector code does, every element)
        np.copyto(bits, bits | quiet, where=nan)
        return out
    lanes = unary_lanes(a, block=8)
    vector = nan if lanes is True else nan & lanes if lanes is not False else np.zeros(nan.shape, bool)
    np.copyto(bits, bits | quiet, where=vector)
    np.copyto(bits, np.int32(0x7FFFFFFF), where=nan & ~vector)
    return out
