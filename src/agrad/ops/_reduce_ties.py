"""Which zero amin/amax return when -0.0 and 0.0 tie: the order of PyTorch's CPU reduction.

amin and amax (ATen's min_values/max_values kernels, binary_kernel_reduce_vec) keep, on a
tie of -0.0 and 0.0, the element their loops happen to keep, and numpy's own reductions may
keep the other.  The loops, for an input on one thread (under GRAIN_SIZE elements):

- TensorIterator orders the dims fastest first with the reduced ones in front, and merges
  neighbours that are contiguous in both input and output; the first two dims make the 2-D
  block that the kernel sees, the others are looped over;
- the output starts at +inf (amin) or -inf (amax) and the scalar step ``out = op(out, x)``
  keeps ``out`` on a tie; AVX2's vector min/max (``vop(a, b)``) keeps ``b``;
- a block reduced along contiguous rows reads each row as vectors of V lanes (AVX2: 8 floats,
  4 doubles, 16 halves) in groups of 4: every accumulator lane takes the later of tied values,
  the four accumulators fold as ``vop(vop(a0, a1), vop(a2, a3))``, the V lanes fold with the
  scalar step, then the elements past the last whole group follow one by one;
- a block reduced across rows (columns contiguous) takes the columns 4 x V at a time with
  vectors (each column's accumulator starts at row 0, ``vop(acc, row)`` per row, then
  ``vop(acc, out)``), and the remaining columns with the scalar step;
- any other block: the scalar step, element by element.

This module replays those steps with numpy over whole batches of outputs and returns the
result with the zeros PyTorch picks.
"""

from __future__ import annotations

import numpy as np

from .._dense import flipped
from ._layout import reorder_dimensions, torch_strides

GRAIN_SIZE = 32768  # at::internal::GRAIN_SIZE: larger reductions are split between threads


def pick_zeros(r, a, axes, keepdim, is_max):
    """``r`` (amin or amax of ``a`` over ``axes``) with the signed zeros PyTorch returns."""
    if r.dtype.kind != "f" or r.dtype.itemsize not in (2, 4, 8) or type(a) is not np.ndarray:
        return r
    if not 0 < a.size < GRAIN_SIZE or flipped(a) or r.all() or not axes:
        return r
    picked = _replay(a, set(axes), is_max)
    out_shape = tuple(1 if i in axes else n for i, n in enumerate(a.shape))
    picked = picked.reshape(out_shape if keepdim else r.shape)
    return np.where(r == 0, picked, r).astype(r.dtype, copy=False)


def _dims(a, axes):
    """TensorIterator's dims for reducing ``a`` over ``axes``, fastest first: [size, input
    stride, output stride] in elements (output: the kept-dims shape, C-contiguous; 0 if reduced),
    sorted by reorder_dimensions and merged by coalesce_dimensions."""
    out_strides, step = [0] * a.ndim, 1
    for i in reversed(range(a.ndim)):
        out_strides[i] = 0 if i in axes else step
        step *= 1 if i in axes else a.shape[i]
    in_strides = [s // a.itemsize for s in torch_strides(a)]
    order = reorder_dimensions(a.ndim, a.shape, [out_strides, in_strides], reduction=True)
    dims = [[a.shape[i], in_strides[i], out_strides[i]] for i in order]
    merged = []
    for d in dims:
        last = merged[-1] if merged else None
        if last is not None and (last[0] == 1 or d[0] == 1 or all(last[0] * last[k] == d[k] for k in (1, 2))):
            if last[0] == 1:
                last[1:] = d[1:]
            last[0] *= d[0]
        else:
            merged.append(list(d))
    return merged


def _replay(a, axes, is_max):
    if is_max:
        def op(acc, x): return np.where(x > acc, x, acc)
        def vop(p, q): return np.where(p > q, p, q)
    else:
        def op(acc, x): return np.where(x < acc, x, acc)
        def vop(p, q): return np.where(p < q, p, q)
    lanes = 32 // a.itemsize
    dims = _dims(a, axes)
    if not dims or dims[0][2] != 0:  # nothing reduced but dims of size 1: every output is its input
        return a.copy()
    while len(dims) < 2:
        dims.append([1, 0, 0])
    item = a.itemsize
    # the input as an array with the dims slowest first, and the output broadcast along the reduced ones
    view = np.lib.stride_tricks.as_strided(a, [d[0] for d in reversed(dims)], [d[1] * item for d in reversed(dims)])
    out_sizes = [1 if d[2] == 0 else d[0] for d in reversed(dims)]
    out = np.full(out_sizes, -np.inf if is_max else np.inf, a.dtype)
    (n0, s0, o0), (n1, s1, o1) = dims[0], dims[1]
    outer = dims[2:]
    reduced_outer = [k for k, d in enumerate(outer) if d[2] == 0]
    # reduced outer dims run one after the other (their order decides ties); kept ones are batched
    for combo in np.ndindex(*[outer[k][0] for k in reduced_outer][::-1]):
        where = [slice(None)] * len(outer)
        for k, i in zip(reduced_outer, reversed(combo)):
            where[k] = i
        index = tuple(reversed(where))
        keep = tuple(0 if isinstance(w, int) else w for w in reversed(where))
        block = view[index]  # (kept outer..., n1, n0)
        acc = out[keep]
        if o0 == 0 and s0 == 1:
            _inner(block, acc, o1 == 0, lanes, op, vop)
        elif o0 == 0 and o1 == 1 and s1 == 1:
            _outer(block, acc, lanes, op, vop)
        else:
            for j in range(n1):
                col = 0 if o1 == 0 else j
                for i in range(n0):
                    acc[..., col, 0] = op(acc[..., col, 0], block[..., j, i])
    return out


def _inner(block, acc, same_out, lanes, op, vop):
    """Rows reduced along their contiguous length (vectorized_inner_reduction), each row into
    its own output, or all into one (``same_out``: the second dim is reduced too), in order."""
    n = block.shape[-1]
    group = 4 * lanes
    count = n // group
    rows = [block[..., j:j + 1, :] for j in range(block.shape[-2])] if same_out else [block]
    for row in rows:
        if count:
            vec = row[..., 0:group]
            for g in range(1, count):
                vec = vop(vec, row[..., g * group:(g + 1) * group])
            parts = vec.reshape(vec.shape[:-1] + (4, lanes))
            folded = vop(vop(parts[..., 0, :], parts[..., 1, :]), vop(parts[..., 2, :], parts[..., 3, :]))
            first = folded[..., 0]
            for k in range(1, lanes):
                first = op(first, folded[..., k])
            acc[..., 0] = op(acc[..., 0], first)
        for k in range(count * group, n):
            acc[..., 0] = op(acc[..., 0], row[..., k])


def _outer(block, acc, lanes, op, vop):
    """Columns reduced across rows (vectorized_outer_reduction): 4 x V columns at a time with
    vectors, the rest with the scalar step."""
    n1, n0 = block.shape[-2], block.shape[-1]
    wide = n1 // (4 * lanes) * (4 * lanes)
    if wide:
        vec = block[..., :wide, 0]
        for i in range(1, n0):
            vec = vop(vec, block[..., :wide, i])
        acc[..., :wide, 0] = vop(vec, acc[..., :wide, 0])
    for i in range(n0):
        acc[..., wide:, 0] = op(acc[..., wide:, 0], block[..., wide:, i])
