"""What PyTorch's indexing kernels have written into ``self`` when they stop at a bad index.

The kernels check each index as they visit it, so an in-place call that raises leaves what it
visited before the bad index written, and PyTorch's tensor (a view's base too) keeps it:
``x.index_fill_(0, torch.tensor([1, 7]), 0.)`` fills row 1, then raises.  An op attaches
``written_before(array)`` to its error (:func:`attach`); the in-place wrapper (``_op.inplace``)
applies it to the tensor the caller named and raises the error on.  The out-of-place forms work
on a copy, so nothing is seen.

The visit orders (TensorIterator's, for contiguous tensors):
- index_fill_, index_copy_, index_add_ along the first or last dim: C order over (the dims
  before ``dim``, the index, the dims after): the first outer position's slices of the indices
  before the bad one (:func:`c_order_slices`);
- scatter_, scatter_add_: C order over the index tensor's elements (:func:`scatter_prefix`);
- put_: the index in flat order.
"""

from __future__ import annotations

import numpy as np


def attach(error: BaseException, write) -> BaseException:
    """``error`` carrying ``write(array)``, what the kernel wrote before raising it."""
    error.written_before = write
    return error


def first_bad(idx: np.ndarray, low: int, high: int) -> int:
    """The position (in C order) of the first entry of ``idx`` outside ``[low, high)``."""
    return int(np.flatnonzero((idx.reshape(-1) < low) | (idx.reshape(-1) >= high))[0])


def c_order_slices(d: int, good: np.ndarray, values):
    """Writes the slices ``good`` (in range, negatives counted from the end) of dim ``d`` at the
    first position of the dims before it: ``values(target_part)`` gives the new values of
    ``target[0, ..., 0, good]`` (an assignment, duplicates' last wins)."""
    def write(a):
        if a.ndim and good.size:
            part = (0,) * d + (np.where(good < 0, good + a.shape[d], good),)
            a[part] = values(a[part])
        elif good.size:  # (a 0-d tensor: each good entry writes its one element, the last one stays)
            a[()] = np.asarray(values(a[()])).reshape(-1)[-1]
    return write


def c_order_added(d: int, good: np.ndarray, rows: np.ndarray):
    """index_add_ along the first or last dim: ``rows`` (the source at the first outer position,
    one row a good index) added into those slices, duplicates each in turn."""
    def write(a):
        if a.ndim and good.size:
            np.add.at(a[(0,) * d], np.where(good < 0, good + a.shape[d], good), rows.astype(a.dtype))
    return write


def slices_added(d: int, good: np.ndarray, source: np.ndarray, alpha):
    """index_add_'s loop over the index (a middle dim, or alpha != 1): each good index's whole
    slice of ``source`` times alpha added (self.select(dim, i).add_(source.select(dim, k), alpha))."""
    def write(a):
        for k, i in enumerate(good):
            if a.ndim:
                part = (slice(None),) * d + (int(i),)
                a[part] = a[part] + (source[(slice(None),) * d + (k,)] * alpha).astype(a.dtype)
            else:
                a[()] = a[()] + source.reshape(-1)[k] * alpha
    return write


def scatter_prefix(d: int, idx: np.ndarray, count: int, src, add: bool = False):
    """scatter_ / scatter_add_: the first ``count`` entries of ``idx`` in C order written (``src``
    a tensor's array, read at the same positions, or a number)."""
    def write(a):
        if not count:
            return
        if not a.ndim:  # (a 0-d tensor: every entry before the bad one writes its one element, in turn)
            vals = np.asarray(src).reshape(-1)[:count] if isinstance(src, np.ndarray) and src.ndim else [src] * count
            for v in vals:
                v = np.asarray(v).astype(a.dtype)
                a[()] = a[()] + v if add is True else add(a[()], v) if add else v
            return
        coords = np.unravel_index(np.arange(count), idx.shape)
        target = tuple(idx[coords] if k == d else c for k, c in enumerate(coords))
        values = src[coords] if isinstance(src, np.ndarray) and src.ndim else src
        values = np.asarray(values).astype(a.dtype)
        if add is True:
            np.add.at(a, target, values)
        elif add:  # (scatter_reduce_: the reduction's ufunc, np.multiply, np.maximum, ...)
            add.at(a, target, values)
        else:
            a[target] = values
    return write


def flat_prefix(idx: np.ndarray, count: int, source: np.ndarray, accumulate: bool):
    """put_: the first ``count`` entries of the flat index written (or added) in order."""
    def write(a):
        n = a.size
        for i, v in zip(idx.reshape(-1)[:count], source.reshape(-1)[:count]):
            pos = np.unravel_index(int(i) % n, a.shape) if a.ndim else ()
            a[pos] = a[pos] + v if accumulate else v
    return write


def assigned(assign, target, index, value, *rest, into=None):
    """``assign(target, index, value, *rest)`` (``x[index] = value``, index_put_); when an index
    tensor is out of range, what PyTorch's index_put kernel wrote before it is written first (into
    ``into`` when given: index_put_ with accumulate checks on a copy, and the error carries those
    additions for the in-place wrapper)."""
    try:
        return assign(target, index, value, *rest)
    except IndexError as e:
        if into is not None:  # (index_put_ with accumulate runs in the in-place wrapper: the write goes
            target = into     # with the error, applied to the tensor the caller named, a view's base too)
        if "is out of bounds for dimension" in str(e) and type(target._data) is np.ndarray:
            write = _index_put_prefix(target._data.shape, index, value, into is not None)
            if write is not None:
                if into is not None:
                    raise attach(e, write)
                write(target._data)
        raise


def _index_put_prefix(shape, index, value, accumulate=False):
    """index_put's kernel visits the indexing result (the dims sliced before the index tensors, their
    broadcast shape, the dims after; index tensors apart: the broadcast shape, then every sliced dim)
    in C order, checking each index tensor's entry in turn: at the first position of the dims before,
    the broadcast entries before the first bad one, with every position of the dims after.  Full
    slices, ints and integer index tensors only (else None: nothing written)."""
    from ..tensor import Tensor

    items = index if isinstance(index, tuple) else (index,)
    if len(items) > len(shape):
        return None
    pre, post, fixed, tensor_dims, idxs = [], [], {}, [], []
    for d, item in enumerate(items):
        if isinstance(item, slice) and item == slice(None):
            (pre if not tensor_dims else post).append(d)
        elif type(item) is int and -shape[d] <= item < shape[d]:
            fixed[d] = item
        elif isinstance(item, Tensor) and item._data.dtype.kind in "iu":
            tensor_dims.append(d)
            idxs.append(np.asarray(item._data))
        else:
            return None
    if tensor_dims and any(d < tensor_dims[-1] for d in post):  # a slice between index tensors (ints are
        pre, post = [], sorted(pre + post)  # selects, made first): the broadcast dims come first, every slice after
    if not idxs or len(items) > len(shape) or any(shape[d] == 0 for d in pre):
        return None
    try:
        idxs = np.broadcast_arrays(*idxs)
    except ValueError:
        return None
    post += range(len(items), len(shape))
    bshape = idxs[0].shape
    flats = [i.reshape(-1) for i in idxs]
    bad = np.zeros(flats[0].shape, bool)
    for d, flat in zip(tensor_dims, flats):
        bad |= (flat < -shape[d]) | (flat >= shape[d])
    count = int(np.argmax(bad)) if bad.any() else len(bad)
    try:
        values = np.broadcast_to(np.asarray(value._data if isinstance(value, Tensor) else value),
                                 [shape[d] for d in pre] + list(bshape) + [shape[d] for d in post])
    except ValueError:
        return None
    values = values[(0,) * len(pre)].reshape((-1,) + values.shape[len(pre) + len(bshape):])[:count]
    good = {d: np.where(f[:count] < 0, f[:count] + shape[d], f[:count]) for d, f in zip(tensor_dims, flats)}
    where = tuple(fixed.get(d, 0) if d in fixed or d in pre else good[d] if d in good else slice(None)
                  for d in range(len(shape)))

    def write(a):
        if count and accumulate:  # (index_put_ with accumulate: the same visits, each added)
            np.add.at(a, where, values.astype(a.dtype))
        elif count:
            a[where] = values.astype(a.dtype)
    return write
