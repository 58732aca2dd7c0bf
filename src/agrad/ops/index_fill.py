"""``index_fill`` / ``index_fill_``: ``value`` written into the slices of ``dim`` that ``index``
names (IndexFillBackward0 for a number, IndexFillBackward1 for a 0-d tensor value).

ATen's checks, in its order: the tensor value's dims, the index's dtype (int64 only), the dim,
the index's dims; then ``self`` is restrided for TensorIterator (``as_strided`` with ``dim`` of
the index's length and stride 0), which an empty ``self`` whose storage is too small refuses with
``setStorage``'s error; the kernel checks each index only when it visits one (an empty
restrided ``self`` checks none).  The out-of-place form fills a clone (a storage of its own).
"""

from __future__ import annotations

import numpy as np

from .._dense import zero_strided
from .. import dtypes
from ..tensor import Tensor, _wrap_dim
from ._layout import storage_of
from . import _written_before
from ._op import Op, export, inplace, keep_tensor, method
from .scatter_gather import _check_bounds, _check_vector_index, _dim_index, _index_array, index_select


def _index_fill_fwd(ctx, a, *value, dim, idx, fill=None):
    out = a.copy()
    if out.size and idx.size:  # (an empty self or index: nothing visited, nothing written)
        out[_dim_index(dim, idx) if a.ndim else ()] = value[0] if value else dtypes.checked_scalar(fill, a.dtype)
    return out


_index_fill0 = Op("IndexFillBackward0", _index_fill_fwd, jvp="element_wise", keeps={"idx": "index"})
_index_fill1 = Op("IndexFillBackward1", _index_fill_fwd, inputs=("self", "value"), keeps={"idx": "index"})


@_index_fill0.derivative
def _(ctx, grad):
    return index_fill(grad, ctx.dim, Tensor._make(ctx.idx), 0)


@_index_fill1.derivative
def _(ctx, grad):
    g_value = None
    if ctx._input_meta[1] is not None:
        g_value = index_select(grad, ctx.dim, Tensor._make(np.unique(ctx.idx))).sum()
    return index_fill(grad, ctx.dim, Tensor._make(ctx.idx), 0), g_value


#: the tensor index_fill_ writes in place while its call runs (its own storage is restrided), else None
_written = [None]


def _restrided_storage_check(input, d, count):
    """index_fill_'s ``self.as_strided(sizes, strides)`` with ``dim`` of ``count`` elements and stride 0:
    setStorage's error when the storage (a clone's for index_fill: of ``input``'s elements only) is
    smaller than those sizes and strides reach."""
    sizes = list(input.shape) or [1]
    if 0 in sizes[:d] + sizes[d + 1:] or not count or input.numel():
        return  # (nothing reached, or within a storage that holds every element)
    a = input._data
    item = a.itemsize
    # (an empty view's own strides, which stride() shows as contiguous: the clone keeps them)
    strides = [s // item for s in a.strides] if type(a) is np.ndarray and a.ndim and not zero_strided(a) \
        else list(input.stride()) or [1]
    sizes[d], strides[d] = count, 0
    storage, offset = 0, 0
    if _written[0] is input and type(a) is np.ndarray:
        found = storage_of(a)
        if found is not None:
            storage, offset = found[0].size * item, found[1]
    need = (offset + 1 + sum((n - 1) * s for n, s in zip(sizes, strides))) * item
    if need > storage:
        raise RuntimeError(f"setStorage: sizes {sizes}, strides {strides}, storage offset {offset}, and itemsize "
                           f"{item} requiring a storage size of {need} are out of bounds for storage of size {storage}")


def _fill_before_the_bad_index(error, input, d, idx, size, value):
    """index_fill_'s kernel visits the dims before ``dim``, the index and the dims after in C
    order: what it has filled when it meets the bad index (_written_before)."""
    good = idx[:_written_before.first_bad(idx, -size, size)]
    a = input._data
    fill = value._data.astype(a.dtype) if isinstance(value, Tensor) else dtypes.checked_scalar(value, a.dtype)
    return _written_before.attach(error, _written_before.c_order_slices(d, good, lambda part: fill))


@export(method=True)
def index_fill(input, dim, index, value):
    if isinstance(value, Tensor) and value.ndim and isinstance(index, Tensor):  # the Tensor overload's own check first
        raise RuntimeError("index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                           f"{value.ndim} dimension(s).")
    if isinstance(index, Tensor) and index.dtype is not dtypes.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    d = _wrap_dim(dim, input.ndim) if isinstance(index, Tensor) else None  # (the dim before the index's dims)
    _check_vector_index(index, "index_fill")
    idx = _index_array(index).reshape(-1)
    _restrided_storage_check(input, d, idx.size)
    visited = idx.size and all(n for k, n in enumerate(input.shape) if k != d)  # (the kernel's loop runs)
    size = input._data.shape[d] if input.ndim else 1
    if visited:
        try:
            idx = _check_bounds(idx, size, d, IndexError, wrap=True)
        except IndexError as e:
            raise _fill_before_the_bad_index(e, input, d, idx, size, value)
    else:
        idx = np.where(idx < 0, idx + size, idx)
    if not input.ndim:
        idx = idx[:1]
    if isinstance(value, Tensor):
        return keep_tensor(_index_fill1.apply((input, value), (input._data, value._data.astype(input._data.dtype)),
                                              {"dim": d, "idx": idx}), _index_fill1, "index", index)
    return keep_tensor(_index_fill0.apply((input,), (input._data,), {"dim": d, "idx": idx, "fill": value}),
                       _index_fill0, "index", index)


_index_fill_ = inplace(index_fill, overlap="index_fill_")


@method("index_fill_")
def index_fill_(self, *args, **kwargs):
    _written[0] = self
    try:
        return _index_fill_(self, *args, **kwargs)
    finally:
        _written[0] = None
