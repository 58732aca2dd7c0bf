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
along a non-innermost axis one element after the other, in order).  It covers what
PyTorch runs on one thread (inputs under 32,768 elements, its GRAIN_SIZE): a sum of
every element of a contiguous array and a sum over the last dim of a C-contiguous
one.  Other reductions return None and keep numpy's sum (the same value up to float
rounding).
"""

from __future__ import annotations

import numpy as np

#: PyTorch reduces inputs of this many elements or more on several threads
GRAIN_SIZE = 32768
_LEVELS = 4


def _dense(a):
    """Whether ``a``'s elements fill its memory in some order of its dims (channels-last, a
    transpose): ``ravel(order="K")`` then reads them in memory order."""
    order = sorted(range(a.ndim), key=lambda i: -abs(a.strides[i]))
    return all(s > 0 for s in a.strides) and np.transpose(a, order).flags.c_contiguous


def cascade_sum(a, axes, keepdims):
    """The sum of ``a`` (an ndarray) over ``axes`` in PyTorch's order, or None when not covered.
    float16 is summed in float (ATen's accumulation type for it), rounded once."""
    if type(a) is np.ndarray and a.dtype == np.float16 and axes:
        wide = a.astype(np.float32)
        out = cascade_sum(wide, axes, keepdims)
        if out is None:
            out = np.add.reduce(wide, axis=axes, keepdims=keepdims)
        return np.asarray(out).astype(np.float16)
    if type(a) is not np.ndarray or not 4 < a.size < GRAIN_SIZE or a.dtype.kind != "f" or a.dtype.itemsize < 4:
        # (up to 4 elements, numpy adds in PyTorch's order: one after the other)
        return None
    if not axes:
        return None
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
        if not (a.flags.c_contiguous or a.flags.f_contiguous or _dense(a)):
            return None
        return _rows(a.ravel(order="K").reshape(1, -1)).reshape(out_shape)
    if reduced == list(range(len(kept) - len(reduced), len(kept))) and a.flags.c_contiguous:
        # the last dim(s), row by row (TensorIterator coalesces contiguous trailing dims into one)
        return _rows(a.reshape(-1, _prod(shape[i] for i in kept[len(kept) - len(reduced):]))).reshape(out_shape)
    if reduced == [len(kept) - 1] and a.strides[kept[-1]] == a.itemsize \
            and all(abs(a.strides[i]) >= a.itemsize for i in kept[:-1]):
        # the last dim is contiguous and innermost, the rows lie anywhere (a slice, Tensor.unfold's
        # overlapping windows): each row is summed as a contiguous one
        return _rows(np.ascontiguousarray(a).reshape(-1, shape[kept[-1]])).reshape(out_shape)
    if reduced == list(range(len(reduced))) and a.flags.c_contiguous:  # leading dims, column by column
        rows = _prod(shape[i] for i in kept[: len(reduced)])
        return _columns(a.reshape(rows, -1)).reshape(out_shape)
    return None


def _prod(items):
    out = 1
    for n in items:
        out *= n
    return out


def _columns(x):
    """Each column of ``x`` (n, c) summed as ATen's vectorized_outer_sum / scalar_outer_sum do:
    whole groups of columns (4 vectors of V lanes, or 4 single columns when c < V) in the
    cascade down the rows, the other columns with row_sum's four accumulators."""
    n, c = x.shape
    v = 32 // x.itemsize
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
    r, n = x.shape
    v = 32 // x.itemsize  # lanes of an AVX2 vector
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
    p = partial[:, 0]
    for i in range(ilp * 4, size):
        p = p + e[:, i]
    for k in range(1, 4):
        p = p + partial[:, k]
    return p


def _multi_row_sum(b):
    """ATen's multi_row_sum: ``b`` (R, size, rows, W) summed over ``size`` in the 4-level cascade."""
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
