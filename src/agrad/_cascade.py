"""PyTorch's order of additions in a float sum, so that ``loss.item()`` prints PyTorch's digits.

PyTorch's CPU sum of float32/float64 (``cascade_sum`` in ATen's SumKernel.cpp, behind
``sum``, ``mean`` and the losses' reductions) does not add in numpy's pairwise order:

- a row of n contiguous elements is read as ``n // V`` vectors of V lanes (AVX2: 8
  floats, 4 doubles), and those vectors as rows of 4 (four accumulators);
- each of the 4 x V accumulators adds its elements in a cascade: runs of 16 are summed
  from zero, the run sums go into a second level, and so on (4 levels);
- the 4 accumulators are added in order, then the leftover elements one by one, then
  the V lanes; the result is added to the zero-filled output.

This module makes the same additions, vectorised over rows with numpy (which adds
along a non-innermost axis of a row-major array one element after the other, in
order).  It covers what PyTorch runs on one thread (inputs under 32,768 elements, its
GRAIN_SIZE), any dims of any layout: TensorIterator's reordered and coalesced dims
(``_layout``), the two innermost in cascade_sum's inner or outer, vectorized or scalar
loop, the others one step at a time, each partial result added into the output in
order (``_general``).  A sum of every element of a contiguous array, of its last or
its leading dims keep shorter paths to the same additions.  Larger inputs (PyTorch's
threads) are covered where the split between threads leaves the order as it is
(``_split_plan``: each thread's columns summed as on one thread); the others return None and keep numpy's sum (the same value up
to float rounding).

A shape (with its strides, dtype and dims) summed again and again takes a plan of these same
additions made once (_cascade_plan: a few numpy calls a call rather than some thirty).
"""

from __future__ import annotations

import numpy as np

from ._dense import flipped, insertion_sort

#: PyTorch reduces inputs of this many elements or more on several threads
GRAIN_SIZE = 32768
#: above this many elements a sum over dims keeps numpy's (faster) order
_THREADED_MAX = 1 << 21
_LEVELS = 4
#: inputs of up to this many elements take a cached plan of the additions (_cascade_plan)
_PLAN_MAX = GRAIN_SIZE - 1


def _dense(a):
    """Whether ``a``'s elements fill its memory in some order of its dims (channels-last, a
    transpose): ``ravel(order="K")`` then reads them in memory order."""
    order = sorted(range(a.ndim), key=lambda i: -abs(a.strides[i]))
    return all(s > 0 for s in a.strides) and np.transpose(a, order).flags.c_contiguous


def cascade_sum(a, axes, keepdims, ignore_nan=False):
    """The sum of ``a`` (an ndarray) over ``axes`` in PyTorch's order, or None when not covered.
    ``ignore_nan``: nansum's (a NaN read as 0).  float16 is added in float (ATen's accumulation
    type), rounded to float16 at each store into the output, as ATen's Half kernel does."""
    if type(a) is not np.ndarray or a.size <= 4 or a.dtype.kind != "f" or not axes:
        # (up to 4 elements, numpy adds in PyTorch's order: one after the other)
        return None
    if a.size >= GRAIN_SIZE:  # PyTorch's threads: where their split leaves the order as it is
        return _general(a, axes, keepdims, ignore_nan, True) if a.size < _THREADED_MAX and a.dtype.itemsize >= 2 else None
    if a.dtype.itemsize < 4:
        if a.dtype != np.float16:
            return None
        return _general(a, axes, keepdims, ignore_nan)
    if ignore_nan:
        return _general(a, axes, keepdims, True)
    if a.size <= _PLAN_MAX:  # the same additions by a plan made once per shape (_cascade_plan)
        return _cascade_plan.planned(a, axes, keepdims, _paths)
    return _paths(a, axes, keepdims)


def _paths(a, axes, keepdims):
    """cascade_sum's paths for a float32/float64 array of under GRAIN_SIZE elements (or the index
    twin _cascade_plan runs them on, whose strides are the array's times 8 / its itemsize)."""
    shape = a.shape
    if keepdims:
        out_shape = tuple(1 if i in axes else n for i, n in enumerate(shape))
    else:
        out_shape = tuple(n for i, n in enumerate(shape) if i not in axes)
    # dims of size 1 do not count (TensorIterator drops them)
    kept = [i for i, n in enumerate(shape) if n != 1]
    reduced = [k for k, i in enumerate(kept) if i in axes]
    if not reduced:
        return None
    if len(reduced) == len(kept):  # every element: in memory order, as TensorIterator walks it
        if a.flags.c_contiguous or a.flags.f_contiguous or _dense(a):
            return _rows(a.ravel(order="K").reshape(1, -1)).reshape(out_shape)
    elif reduced == list(range(len(kept) - len(reduced), len(kept))) and a.flags.c_contiguous:
        # the last dim(s), row by row (TensorIterator coalesces contiguous trailing dims into one)
        return _rows(a.reshape(-1, _prod(shape[i] for i in kept[len(kept) - len(reduced):]))).reshape(out_shape)
    elif reduced == list(range(len(reduced))) and a.flags.c_contiguous:  # leading dims, column by column
        rows = _prod(shape[i] for i in kept[: len(reduced)])
        return _columns(a.reshape(rows, -1)).reshape(out_shape)
    return _general(a, axes, keepdims, False)


def as_float(a):
    """``a.to(torch.float)``'s copy: the same strides when ``a`` is dense (preserve_format), else
    row-major."""
    if a.flags.c_contiguous or a.flags.f_contiguous or _dense(a):
        return a.astype(np.float32, order="K")
    return np.ascontiguousarray(a, dtype=np.float32)


def _layout(a, axes):
    """TensorIterator's dims for a reduction of ``a`` over ``axes``, fastest first: [size, input
    stride, output stride] (bytes; 0 for a reduced dim), reordered (reduced dims first, then by
    the output's and the input's strides) and coalesced.  Dims of size 1 drop out."""
    nd = a.ndim
    out_strides = [0] * nd
    step = a.itemsize
    for i in range(nd - 1, -1, -1):  # the output: row-major over the kept dims
        if i not in axes:
            out_strides[i] = step
            step *= a.shape[i]
    dims = [[a.shape[i], a.strides[i], out_strides[i]] for i in range(nd - 1, -1, -1) if a.shape[i] != 1]
    insertion_sort(dims, _should_swap)  # reorder_dimensions (ambiguous: stays)
    out = [dims[0]]
    for d in dims[1:]:  # coalesce_dimensions
        p = out[-1]
        if p[0] * p[1] == d[1] and p[0] * p[2] == d[2]:
            p[0] *= d[0]
        else:
            out.append(d)
    return out


def _should_swap(d0, d1):
    o0, o1 = d0[2], d1[2]
    if (o0 == 0) != (o1 == 0):  # reduced dims to the front
        return 1 if o1 == 0 else -1
    for s0, s1 in ((o0, o1), (d0[1], d1[1])):  # the output, then the input
        if s0 == 0 or s1 == 0:
            continue
        if s0 != s1:
            return -1 if s0 < s1 else 1
        if d0[0] > d1[0]:
            return 1
    return 0


def _general(a, axes, keepdims, ignore_nan, threaded=False):
    """Any reduction TensorIterator runs on one thread: its two innermost dims in one of
    cascade_sum's four loops (vectorized or scalar, inner or outer), the other dims one step
    at a time, each result added into the zero-filled output in order."""
    if flipped(a):  # (PyTorch has no negative strides: flip copies)
        a = np.ascontiguousarray(a)
    half = a.dtype == np.float16
    dims = _layout(a, axes)
    if half and not ignore_nan and len(dims) >= 2 and dims[0][2] == 0 and dims[1][2] == 0:
        # sum_out's should_use_acc_buffer (nansum has none): the input taken to float, summed, rounded once
        wide = as_float(a)
        out = _general(wide, axes, keepdims, ignore_nan, threaded)
        if out is None:
            return None
        return out.astype(np.float16)
    d0 = dims[0]
    d1 = dims[1] if len(dims) > 1 else [1, 0, 0]
    if d0[2] != 0 and d1[2] == 0:
        d0, d1 = d1, d0
    if d0[2] != 0:  # nothing reduced (only dims of size 1)
        return None
    size = a.itemsize
    v = _lanes(a)  # lanes of an AVX2 vector of the input's dtype
    inner = d0[1] == size and d0[0] >= v or d0[1] < d1[1] and not (d1[1] == size and d1[0] >= v)
    if threaded:
        plan = _split_plan(dims, inner, size)
        if plan is None:
            return _two_pass(a, dims, axes, keepdims, ignore_nan)
        if plan is not True and not _split_whole(plan, dims, size, v, half):
            return _split_sum(a, dims, axes, keepdims, ignore_nan, plan)
    outer = dims[2:]
    kept = [d for d in outer if d[2] != 0][::-1]  # slowest first
    red = [d for d in outer if d[2] == 0][::-1]
    vdims = kept + red + [d1, d0]
    view = np.lib.stride_tricks.as_strided(a, [d[0] for d in vdims], [d[1] for d in vdims], writeable=False)
    view = _symbols(view)
    if half:
        view = view.astype(np.float32)
    if ignore_nan:
        view = np.where(np.isnan(view), view.dtype.type(0), view)
    nk, nr = _prod(d[0] for d in kept), _prod(d[0] for d in red)
    s0, s1 = d0[0], d1[0]
    x = view.reshape(nk * nr, s1, s0)
    vacc = _lanes(x)  # ... of the accumulation type
    if d0[1] == size and s0 >= v:  # vectorized_inner_sum
        part = _inner(x.reshape(-1, s0), v, vacc).reshape(nk * nr, s1)
    elif d0[1] < d1[1] and not (d1[1] == size and s1 >= v):  # scalar_inner_sum
        part = _row_sum(x.reshape(-1, s0, 1))[:, 0].reshape(nk * nr, s1)
    else:  # vectorized_outer_sum / scalar_outer_sum: whole groups of columns in the cascade
        group = 4 * vacc if d1[1] == size and s1 >= v else 4
        cut = (s1 // group) * group
        cols = x.transpose(0, 2, 1)
        part = np.empty((nk * nr, s1), x.dtype)
        if cut:
            part[:, :cut] = _multi_row_sum(cols[:, :, :cut].reshape(nk * nr, s0, 1, cut))[:, 0]
        if cut < s1:
            part[:, cut:] = _row_sum(cols[:, :, cut:])
    if d1[2] == 0:  # every step adds into the same output element
        seq = part.reshape(nk, nr * s1)
        outv = [d[0] for d in kept]
    else:
        seq = part.reshape(nk, nr, s1).transpose(0, 2, 1).reshape(nk * s1, nr)
        outv = [d[0] for d in kept] + [s1]
    total = _in_order(seq, a.dtype)
    if keepdims:
        out_shape = tuple(1 if i in axes else n for i, n in enumerate(a.shape))
    else:
        out_shape = tuple(n for i, n in enumerate(a.shape) if i not in axes)
    ostrides = [d[2] for d in kept] + ([d1[2]] if d1[2] else [])
    if total.dtype == object:  # (_cascade_plan's symbols: placed by their positions)
        out = np.empty(_prod(out_shape), object)
        at = np.arange(out.size)
        out[np.ndarray(outv, at.dtype, at, 0, [o // a.itemsize * at.itemsize for o in ostrides]).reshape(-1)] = total.reshape(-1)
        return out.reshape(out_shape)
    out = np.empty(_prod(out_shape), a.dtype)
    place = np.ndarray(outv, out.dtype, out, 0, [o // a.itemsize * out.itemsize for o in ostrides])
    place[...] = total.reshape(outv)
    return out.reshape(out_shape)


def _split_plan(dims, inner, itemsize):
    """How PyTorch's threads split a reduction of GRAIN_SIZE elements or more
    (parallel_dim_reduction, ``get_num_threads()`` of them): True where each output element's
    additions stay as on one thread, the column ranges of the threads where they do not (the
    split is the innermost kept dim of a loop across it), None for a single output element
    (two_pass_reduction: not covered).  find_split_dim takes the outermost dim of at least as
    many elements as threads; parallel_for gives each thread ceil(cols / threads) columns,
    rounded to 128 bytes where the columns are adjacent in memory."""
    if all(d[2] == 0 for d in dims):
        return None
    from .settings import get_num_threads

    threads = get_num_threads()
    best = split = len(dims) - 1
    for i in range(len(dims) - 1, -1, -1):
        if dims[i][2] == 0:
            break
        if dims[i][0] >= threads:
            split = i
            break
        if dims[i][0] > dims[best][0]:
            best = split = i
    if threads == 1 or split != 1 or inner:
        return True
    cols = dims[1][0]
    n = min(threads, cols)
    chunk = -(-cols // n)
    ranges = []
    for t in range(n):
        begin, end = t * chunk, min(cols, (t + 1) * chunk)
        if begin >= cols:
            break
        if dims[1][1] == itemsize:  # round_columns: multiples of 128 bytes (the last end as it is)
            m = 128 // itemsize
            begin -= begin % m
            if end != cols:
                end -= end % m
        if begin != end:
            ranges.append((begin, end))
    return True if ranges == [(0, cols)] else ranges


def _split_whole(ranges, dims, itemsize, v, half):
    """Whether the threads' column ranges make the additions of one pass over all the columns: a
    2-dim float32/float64 reduction down adjacent columns (vectorized_outer_sum), each range whole
    groups of 4 vectors.  Each column is then summed down the rows in the same cascade, on its
    thread or in one pass (no range has leftover columns for row_sum's scalar loop), and one pass
    reads the array as it lies (no copy of each range's columns)."""
    if half or len(dims) != 2 or dims[1][1] != itemsize:
        return False
    group = 4 * v
    return all((end - begin) % group == 0 for begin, end in ranges)


def _two_pass(a, dims, axes, keepdims, ignore_nan):
    """A float32/float64 sum into one element over GRAIN_SIZE (two_pass_reduction) of elements
    adjacent in memory: ``get_num_threads()`` threads, each summing ceil(n / threads) of them
    (parallel_for's chunks) as vectorized_inner_sum does into its own zero, then those sums
    summed into the zero-filled output.  Other layouts: None."""
    from .settings import get_num_threads

    if len(dims) != 1 or dims[0][1] != a.itemsize or a.dtype not in (np.float16, np.float32, np.float64):
        return None
    n = a.size
    flat = np.lib.stride_tricks.as_strided(a, [n], [a.itemsize], writeable=False)
    if ignore_nan:
        flat = np.where(np.isnan(flat), a.dtype.type(0), flat)
    slots = get_num_threads()
    chunk = -(-n // min(slots, -(-n // GRAIN_SIZE)))
    buffer = np.zeros((1, slots), a.dtype)
    for t, b in enumerate(range(0, n, chunk)):
        part = flat[b:b + chunk].reshape(1, -1)
        # (float16: the 16-half loads summed in float, stored into the Half buffer: rounded)
        buffer[0, t] = _inner(part.astype(np.float32), 16, 8)[0] if a.dtype == np.float16 else _rows(part)[0]
    if a.dtype == np.float16:  # the final reduce of the Half buffer: in float, one by one (scalar_inner_sum)
        total = np.float16(_row_sum(buffer.astype(np.float32)[:, :, None])[0, 0])
    else:
        total = a.dtype.type(0) + _rows(buffer)[0]
    out_shape = tuple(1 for _ in a.shape) if keepdims else tuple(n for i, n in enumerate(a.shape) if i not in axes)
    return np.full(out_shape, total)


def _split_sum(a, dims, axes, keepdims, ignore_nan, ranges):
    """The sum on PyTorch's threads: each thread's columns (of the iterator's dim 1) summed as
    on one thread, side by side."""
    vd = dims[::-1]  # the iterator's dims, slowest first (its kept dims in the output's order)
    view = np.lib.stride_tricks.as_strided(a, [d[0] for d in vd], [d[1] for d in vd], writeable=False)
    red = tuple(k for k, d in enumerate(vd) if d[2] == 0)
    at = sum(1 for d in vd[:-2] if d[2] != 0)  # dim 1 among the output's dims
    parts = []
    for begin, end in ranges:
        chunk = view[(slice(None),) * (len(vd) - 2) + (slice(begin, end),)]
        part = _general(chunk, red, False, ignore_nan)
        if part is None:
            return None
        parts.append(part)
    out = np.concatenate(parts, axis=at)
    if keepdims:
        out_shape = tuple(1 if i in axes else n for i, n in enumerate(a.shape))
    else:
        out_shape = tuple(n for i, n in enumerate(a.shape) if i not in axes)
    return out.reshape(out_shape)


def _in_order(seq, dtype):
    """Each row of ``seq`` added into a zero, one element after the other (float16: ``*out +=
    value`` into a Half output rounds the value to float16, adds in float, rounds again)."""
    if dtype == np.float16:
        out = np.zeros(seq.shape[0], np.float16)
        for t in range(seq.shape[1]):
            # (Half's ``+=`` takes a Half: the value is rounded first, then the sum)
            out = (out.astype(np.float32) + seq[:, t].astype(np.float16).astype(np.float32)).astype(np.float16)
        return out
    return seq.dtype.type(0) + np.cumsum(seq, axis=1)[:, -1]


def _inner(x, v, vacc):
    """ATen's vectorized_inner_sum of each row of ``x`` (R, n), without the store: V-wide loads
    (float16: 16 elements, neighbours added pairwise into 8 float lanes), row_sum's four
    accumulators, then the leftover elements and the lanes one by one."""
    r, n = x.shape
    vec = n // v
    body = x[:, : vec * v].reshape(r, vec, vacc, v // vacc)
    loaded = body[..., 0]
    if v != vacc:
        loaded = x.dtype.type(0) + loaded
        for k in range(1, v // vacc):
            loaded = loaded + body[..., k]
    lanes = _row_sum(loaded)
    seq = np.concatenate([np.zeros((r, 1), x.dtype), x[:, vec * v:], lanes], axis=1)
    return np.cumsum(seq, axis=1)[:, -1]  # from zero: the leftover elements, then the lanes


def _lanes(x):
    """32 // itemsize: the lanes of an AVX2 vector of ``x``'s float type (_cascade_plan's index
    twin and symbols: those of the array it plans for)."""
    return 32 // x.itemsize if x.dtype.kind == "f" else _cascade_plan.LANES[0]


def _symbols(x):
    """``x`` itself, or, for _cascade_plan's index twin, its symbols (the additions recorded)."""
    return x if x.dtype.kind != "i" else _cascade_plan.symbols(x)


def _prod(items):
    out = 1
    for n in items:
        out *= n
    return out


def _columns(x):
    """Each column of ``x`` (n, c) summed as ATen's vectorized_outer_sum / scalar_outer_sum do:
    whole groups of columns (4 vectors of V lanes, or 4 single columns when c < V) in the
    cascade down the rows, the other columns with row_sum's four accumulators."""
    x = _symbols(x)
    n, c = x.shape
    v = _lanes(x)
    group = 4 * v if c >= v else 4
    cut = (c // group) * group
    out = np.empty(c, x.dtype)
    if cut:
        out[:cut] = _multi_row_sum(x[:, :cut].reshape(1, n, 1, cut))[0, 0]
    if cut < c:
        out[cut:] = _row_sum(x[:, cut:].reshape(1, n, c - cut))[0]
    return x.dtype.type(0) + out


def _rows(x):
    """Each row of ``x`` (R, n) summed as ATen's vectorized_inner_sum / row_sum do."""
    x = _symbols(x)
    r, n = x.shape
    v = _lanes(x)  # lanes of an AVX2 vector
    if r == 1 and n < v:  # one short row, with numpy scalars (what _row_sum below does for it)
        e = x[0]
        zero = x.dtype.type(0)
        if n < 4:
            s = zero
            for k in range(n):
                s = s + e[k]
        else:  # the four accumulators hold e[0..3]; the rest goes into the first
            s = zero + e[0]
            for k in range(4, n):
                s = s + e[k]
            s = s + e[1] + e[2] + e[3]
        return np.array([zero + s])
    if n < v:  # a scalar loop: row_sum over single elements
        final = _row_sum(x[:, :, None])[:, 0]
    else:
        vec = n // v
        lanes = _row_sum(x[:, : vec * v].reshape(r, vec, v))
        final = np.zeros(r, x.dtype)
        for k in range(vec * v, n):
            final = final + x[:, k]
        for k in range(v):
            final = final + lanes[:, k]
    return x.dtype.type(0) + final


def _row_sum(e):
    """ATen's row_sum: ``e`` (R, size, W) summed over its elements (W-wide) with four accumulators."""
    r, size, w = e.shape
    ilp = size // 4
    partial = _multi_row_sum(e[:, : ilp * 4].reshape(r, ilp, 4, w))
    # the first accumulator, the leftover elements, the other accumulators, one after the other
    # (np.cumsum adds in order)
    return np.cumsum(np.concatenate([partial[:, :1], e[:, ilp * 4:], partial[:, 1:]], axis=1), axis=1)[:, -1]


def _multi_row_sum(b):
    """ATen's multi_row_sum: ``b`` (R, size, rows, W) summed over ``size`` in the 4-level cascade."""
    # row-major, so that numpy adds along ``size`` one row after the other (along an axis of
    # smaller stride than the others, its own order is pairwise)
    b = np.ascontiguousarray(b)
    r, size = b.shape[:2]
    log2 = (size - 1).bit_length() if size > 2 else 1  # CeilLog2
    power = max(4, log2 // _LEVELS)
    step = 1 << power
    zero = np.zeros((r,) + b.shape[2:], b.dtype)
    acc = [zero] * _LEVELS
    chunks = size // step
    if chunks:
        # one level-0 run: additions in order from zero (numpy adds a middle axis element by element)
        runs = np.add.reduce(b[:, : chunks * step].reshape((r, chunks, step) + b.shape[2:]), axis=2)
        i = 0
        for c in range(chunks):
            i += step
            acc[0] = zero + runs[:, c]
            for j in range(1, _LEVELS):
                acc[j] = acc[j] + acc[j - 1]
                acc[j - 1] = zero
                if i & ((step - 1) << (j * power)):
                    break
    rest = b[:, chunks * step:]
    if rest.shape[1]:
        acc[0] = acc[0] + np.add.reduce(rest, axis=1)
    total = acc[0]
    for j in range(1, _LEVELS):
        total = total + acc[j]
    return total


from . import _cascade_plan  # noqa: E402  (it runs the paths above on symbols)
