"""Scatter-like in-place ops (scatter_, scatter_add_, scatter_reduce_, index_add_, index_reduce_,
index_copy_) whose ``src`` shares memory with ``self`` in a layout c10's get_overlap_status finds
"too hard" (one of them not dense: ``r[::2].scatter_add_(0, index, r)``): no overlap error, and the
kernel reads each source element from memory as its earlier writes left it.  agrad's forward reads
``src`` before writing; :func:`replayed` runs the kernel's loop again over a copy of the memory both
tensors span, in the kernel's order, and gives ``self``'s final values.

Orders: cpu_scatter_gather_base_kernel walks the index's shape (``dim`` squashed to 1) in
TensorIterator's order (dims sorted by self's, src's and index's strides, then coalesced into rows);
each row either element by element, each element's run along ``dim`` inside (``dim`` is self's last
dim), or ``dim``'s steps outside, the row inside.  index_add_ / index_reduce_ / index_copy_ take the index's entries in order, one slice
at a time (a self of one dim or none: one element); a slice is read whole before it is written.
"""

from __future__ import annotations

import numpy as np

from ..tensor import Tensor
from ._overlap_loop import LIMIT


def shared_source(self, src) -> bool:
    """Whether ``src`` (a Tensor argument) shares memory with ``self`` (c10 has let the op run)."""
    a, b = self._data, getattr(src, "_data", None)
    return (type(src) is Tensor and src is not self and type(a) is np.ndarray and type(b) is np.ndarray
            and 0 < a.size <= LIMIT and 0 < b.size <= LIMIT and a.dtype == b.dtype and np.may_share_memory(a, b)
            and np.shares_memory(a, b))


def _memory(arrays):
    """A copy of the memory ``arrays`` (one dtype) span, as a 1-d array, and each one's element offsets."""
    item = arrays[0].itemsize
    addrs = [a.__array_interface__["data"][0] for a in arrays]
    lo = min(addrs)
    offsets = []
    for a, addr in zip(arrays, addrs):
        o = np.asarray((addr - lo) // item, np.int64)
        for s, n in zip(a.strides, a.shape):
            o = np.add.outer(o, np.arange(n, dtype=np.int64) * (s // item))
        offsets.append(o)
    mem = np.zeros(max(int(o.max()) for o in offsets) + 1, arrays[0].dtype)
    for a, o in zip(arrays, offsets):
        mem[o] = a
    return mem, offsets


def _scatter_order(self, src, idx, dim):
    """The (index position, step along dim) pairs of cpu_scatter_gather_base_kernel's loop, in order."""
    from ._layout import reorder_dimensions

    shape = list(idx.shape)
    ndim = len(shape)
    steps = shape[dim]
    shape[dim] = 1  # (squashed)
    ops = [self, src, idx]
    strides = [[0 if shape[d] == 1 else a.strides[d] // a.itemsize for d in range(ndim)] for a in ops]
    perm = reorder_dimensions(ndim, shape, strides)  # (fastest first)
    perm = [d for d in perm if shape[d] != 1] or [dim]
    n, inner = shape[perm[0]], 1  # coalesce the row
    for k in range(1, len(perm)):
        prev, d = perm[k - 1], perm[k]
        if any(s[d] != shape[prev] * s[prev] for s in strides):
            break
        n *= shape[d]
        inner = k + 1
    row_dims, outer_dims = perm[:inner], perm[inner:]
    # (the kernel's loop takes the dim inside only when dim is self's last; its other test, a row shorter
    # than the index along dim, did not show in PyTorch 2.13's results: r[:, ::2].scatter_add_(0, index of
    # (5, 2), r.t()) walks dim outside)
    elem_first = dim == self.ndim - 1
    order = []
    for outer in np.ndindex(*[shape[d] for d in reversed(outer_dims)]):
        base = [0] * ndim
        for d, i in zip(reversed(outer_dims), outer):
            base[d] = i
        row = []
        for r in np.ndindex(*[shape[d] for d in reversed(row_dims)]):
            pos = list(base)
            for d, i in zip(reversed(row_dims), r):
                pos[d] = i
            row.append(pos)
        pairs = [(p, i) for p in row for i in range(steps)] if elem_first else \
            [(p, i) for i in range(steps) for p in row]
        for p, i in pairs:
            p = list(p)
            p[dim] = i
            order.append(tuple(p))
    return order


def scatter_replayed(self, src, idx, dim, combine, init=None):
    """``self``'s values after a scatter kernel whose ``src`` (arrays) shares its memory: ``combine(old, v)``
    each element in the loop's order (``init``: the value written at every indexed position first)."""
    if self.ndim == 0 or idx.ndim == 0 or src.ndim == 0:
        return None
    mem, (so, ro) = _memory([self, src])
    if init is not None:
        where = tuple(idx if d == dim else np.indices(idx.shape)[d] for d in range(idx.ndim))
        mem[so[where]] = init
    for pos in _scatter_order(self, src, idx, dim):
        j = list(pos)
        j[dim] = int(idx[pos])
        at = so[tuple(j)]
        mem[at] = combine(mem[at], mem[ro[pos]])
    return mem[so]


def _elements(shape, arrays_strides):
    """The positions of ``shape`` in TensorIterator's order over operands of these strides (in elements)."""
    from ._layout import reorder_dimensions

    ndim = len(shape)
    strides = [[0 if shape[d] == 1 else s[d] for d in range(ndim)] for s in arrays_strides]
    order = reorder_dimensions(ndim, list(shape), strides)[::-1]  # (slowest first)
    for pos in np.ndindex(*[shape[d] for d in order]):
        at = [0] * ndim
        for d, i in zip(order, pos):
            at[d] = i
        yield tuple(at)


def _strides(a):
    return [s // a.itemsize for s in a.strides]


def slices_replayed(self, src, idx, dim, step, elementwise=None, init=None):
    """``self``'s values after index_add_ / index_reduce_'s loop over the index: each entry k
    ``step(current self, current source slice k kept as a dim of one, k)`` (numpy arrays in, self's new
    values out); where the slice's loop runs no vector code, element by element in its order instead,
    ``elementwise(old, v)`` (``init``: the value written at every indexed slice first)."""
    from ._vector_loop import loop_lanes

    mem, (so, ro) = _memory([self, src])
    if init is not None:
        so_i = so[(slice(None),) * dim + (idx,)]
        mem[so_i] = init
    for k in range(idx.size):
        part = (slice(None),) * dim + (slice(k, k + 1),) if src.ndim else ()
        if elementwise is not None and self.ndim > 1 and src.ndim:
            at = (slice(None),) * dim + (int(idx[k]),)
            ours, theirs = self[at], src[(slice(None),) * dim + (k,)]
            if loop_lanes([ours, theirs]) is False:
                s_off, r_off = so[at], ro[(slice(None),) * dim + (k,)]
                for e in _elements(ours.shape, [_strides(ours), _strides(ours), _strides(theirs)]):
                    mem[s_off[e]] = elementwise(mem[s_off[e]], mem[r_off[e]])
                continue
        mem[so] = step(mem[so], mem[ro[part]] if src.ndim else mem[ro], k)
    return mem[so]


def copy_replayed(self, src, idx, dim):
    """``self``'s values after index_copy_'s kernel: one loop over the source's elements (self restrided to
    the source's shape, stride 0 along ``dim``; the index along ``dim``), each written where its index says."""
    mem, (so, ro) = _memory([self, src])
    if src.ndim == 0 or self.ndim == 0:
        return None
    self_st, src_st = _strides(self), _strides(src)
    self_r = [0 if d == dim else s for d, s in enumerate(self_st)]
    index_r = [idx.strides[0] // idx.itemsize if d == dim else 0 for d in range(src.ndim)]
    for e in _elements(src.shape, [self_r, index_r, src_st]):
        at = e[:dim] + (int(idx[e[dim]]),) + e[dim + 1:]
        mem[so[at]] = mem[ro[e]]
    return mem[so]


def write_replayed(self, values):
    """``self``'s memory set to the replayed ``values`` (after the op has run: its graph and version)."""
    if values is not None:
        self._data[...] = values


def _max(old, v):  # (ReduceMaximum: a NaN of src taken, else std::max: self on a tie)
    return v if v != v else (v if old < v else old)


def _min(old, v):
    return v if v != v else (v if v < old else old)


_COMBINE = {"sum": np.add, "mean": np.add, "add": np.add, "prod": np.multiply, "multiply": np.multiply,
            "amax": _max, "amin": _min, None: lambda old, v: v}


def _wrapped(dim, ndim):
    return dim + ndim if dim < 0 else dim


def _mean_divided(values, self, idx, dim, include_self, index_dim_only=False):
    """scatter_reduce / index_reduce's mean: the sums divided by the counts (self counted when included;
    integers floor-divided)."""
    count = np.full(self.shape, 1 if include_self else 0, np.int64)
    if index_dim_only:
        np.add.at(count, (slice(None),) * dim + (idx.reshape(-1),), 1)
    else:
        np.add.at(count, tuple(idx if d == dim else np.indices(idx.shape)[d] for d in range(idx.ndim)), 1)
    count[count == 0] = 1
    if values.dtype.kind in "fc":
        return (values / count.astype(values.dtype)).astype(values.dtype)
    return np.floor_divide(values, count.astype(values.dtype))


def scatter_values(self, dim, index, src=None, *args, value=None, reduce=None, include_self=True, **_):
    """scatter_ / scatter_add_ (``reduce='add'``) / scatter_reduce_'s replayed values, or None."""
    if value is not None or not shared_source(self, src) or type(index) is not Tensor:
        return None
    if args:  # (scatter_reduce_'s reduce, given by position)
        reduce = args[0]
    a, idx = self._data, index._data
    d = _wrapped(dim, a.ndim)
    init = None if include_self else _reduce_identity(reduce, a.dtype)
    values = scatter_replayed(a, src._data, idx, d, _COMBINE[reduce], init)
    if values is not None and reduce == "mean":
        values = _mean_divided(values, a, idx, d, include_self)
    return values


def scatter_add_values(self, dim, index, src):
    return scatter_values(self, dim, index, src, reduce="add")


def index_values(self, dim, index, source, *args, alpha=1, reduce=None, include_self=True, kind="add", **_):
    """index_add_ (``kind`` 'add') / index_copy_ ('copy') / index_reduce_ ('reduce')'s replayed values, or None."""
    if not shared_source(self, source) or type(index) is not Tensor:
        return None
    if args:
        reduce = args[0] if kind == "reduce" else reduce
        alpha = args[0] if kind == "add" else alpha
    a, idx = self._data, index._data.reshape(-1)
    d = _wrapped(dim, max(a.ndim, 1))
    if a.ndim == 0:
        return None

    def at(k):
        return (slice(None),) * d + (int(idx[k]),)

    def first(part):  # (the source's slice k, kept as a dim of one)
        return part if part.ndim == 0 else part[(slice(None),) * d + (0,)]

    if kind == "copy":
        return copy_replayed(a, source._data, idx, d)
    if kind == "add":
        scale = alpha if a.dtype.kind in "fc" else np.asarray(alpha).astype(a.dtype)

        def step(cur, part, k):
            p = first(part)
            if alpha != 1:
                p = p * scale
            cur[at(k)] = (cur[at(k)] + p).astype(a.dtype)
            return cur

        def elementwise(old, v):
            return (old + (v * scale if alpha != 1 else v)).astype(a.dtype)
    else:
        combine = {"prod": np.multiply, "mean": np.add, "amax": np.maximum, "amin": np.minimum}[reduce]
        if reduce in ("amax", "amin") and a.dtype.kind == "f":  # (each slice a maximum_stub / minimum_stub)
            from ._vector_loop import tie_by_loop
            ties = tie_by_loop(combine)

            def step(cur, part, k):
                cur[at(k)] = ties(cur[at(k)], first(part), a[at(k)]).astype(a.dtype)
                return cur
        else:
            def step(cur, part, k):
                cur[at(k)] = combine(cur[at(k)], first(part)).astype(a.dtype)
                return cur

        def elementwise(old, v):  # (the scalar loop: maximum / minimum's NaN, else std::max / min: self on a tie)
            if reduce in ("amax", "amin") and (old != old or v != v):
                return np.asarray(np.nan, a.dtype)[()]
            return np.asarray(_COMBINE[reduce](old, v), a.dtype)[()]
    init = None if kind != "reduce" or include_self else _reduce_identity(reduce, a.dtype)
    mem_values = slices_replayed(a, source._data, idx, d, step, elementwise, init)
    if kind == "reduce" and reduce == "mean":
        mem_values = _mean_divided(mem_values, a, idx, d, include_self, index_dim_only=True)
    return mem_values


def _reduce_identity(reduce, dtype):
    from .scatter_reduce import _identity  # (scatter_reduce imports this module)
    return _identity(reduce, dtype)
