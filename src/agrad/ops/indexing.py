"""Indexing: ``x[...]`` as PyTorch decomposes it (select, slice, unsqueeze, index),
``torch.select``, and ``x[...] = v`` recorded as ``CopySlices``.

Indexing by index tensors and masks (gather, scatter, index_select, ...) is in
``scatter_gather.py``."""

from __future__ import annotations

import numbers

import numpy as np

from .. import dtypes
from .._dense import dense
from .._limits import check_numel
from ..autograd import _dual as _forward_ad, graph, view_errors
from ..tensor import Size, Tensor, _has_internal_overlap, _scalar_name, _wrap_dim
from . import _written_before
from ._layout import (_partial_overlap, dense_order, empty_like, in_order, iterator_layout, numpy_strides,
                      overlaps, promote, reshaped, setitem_value_strides, sliced, sliced_zero_strides, torch_strides)
from ._index_items import (_FULL, _as_index_array, _check_int, _check_mask_dims, _index_put_checked, _int_tensors,
                           _normalise, _ranges_as_lists, _uint8_masked_fill, uint8_mask, view_rewrite)
from ._op import Op, export, inplace, inplace_self, method
from ._shortcuts import _not_differentiable
from .views import _fmt, _view, expand_array, unsqueeze

_fw_active = _forward_ad._ACTIVE


# the backward ops: put a gradient back where the index took it from ----------------

def _embed_fwd(ctx, g, shape, index):
    out = np.zeros(shape, g.dtype)
    out[index] = g
    return out


_embed = Op("SliceBackwardBackward0", _embed_fwd, internal=True, jvp="linear")
_embed_select = Op("SelectBackwardBackward0", _embed_fwd, internal=True, jvp="linear")


@_embed.derivative
def _(ctx, grad):
    index = ctx.index if isinstance(ctx.index, tuple) else (ctx.index,)
    if index and all(type(i) is slice for i in index):  # slice_backward's derivative: grad.slice(...), a
        return _view(_slice, grad, grad._data, {"index": index})  # SliceBackward0 even over all of it
    return grad[ctx.index]


_embed_select.derivative(_embed._formula)


def _embed_add_fwd(ctx, g, shape, index):
    out = np.zeros(shape, g.dtype)
    np.add.at(out, index, g)
    return out


_embed_add = Op("IndexBackwardBackward0", _embed_add_fwd, internal=True, jvp="linear")


@_embed_add.derivative
def _(ctx, grad):
    return _take(grad, ctx.index)


def _take(grad, index):
    return _index.apply((grad,), (grad._data,), {"index": index})


def embed(grad, shape, index, accumulate=False, op=None):
    """A zero tensor of ``shape`` with ``grad`` placed (or added) at ``index`` (``op``: the
    node to record, SliceBackwardBackward0 by default)."""
    op = op or (_embed_add if accumulate else _embed)
    return op.apply((grad,), (grad._data,), {"shape": tuple(shape), "index": index})


def _scatter_fwd(ctx, g, shape, idx, dim):
    out = np.zeros(shape, g.dtype)
    np.put_along_axis(out, idx, g, axis=dim)
    return out


_scatter_along = Op("ValueSelectingReductionBackwardBackward0", _scatter_fwd, internal=True, jvp="linear")


@_scatter_along.derivative
def _(ctx, grad):
    return _gather_along.apply((grad,), (grad._data,), {"idx": ctx.idx, "dim": ctx.dim})


_gather_along = Op("TakeAlongDimBackward0", lambda ctx, a, idx, dim: np.take_along_axis(a, idx, axis=dim),
                   internal=True, jvp="linear")


@_gather_along.derivative
def _(ctx, grad):
    return scatter_into(grad, ctx.input_shape, ctx.idx, ctx.dim)


def scatter_into(grad, shape, idx, dim):
    """Zeros of ``shape`` with ``grad`` put along ``dim`` at index array ``idx``: PyTorch's
    value_selecting_reduction_backward, ``zeros(shape).scatter_(dim, idx, grad)``, which a
    gradient taken with create_graph records as ScatterBackward0 (edges: None, grad)."""
    if grad._requires_grad and graph._state["enabled"]:  # (a 0-d one too: zeros(()).scatter_)
        from .scatter_gather import _scatter0
        zeros = np.zeros(shape, grad._data.dtype)
        return _scatter0.apply((Tensor._make(zeros), grad), (zeros, grad._data), {"dim": dim, "idx": idx, "reduce": None})
    if not len(shape):
        return grad
    return _scatter_along.apply((grad,), (grad._data,), {"shape": tuple(shape), "idx": idx, "dim": dim})


# getitem ------------------------------------------------------------------------------

def _select_fwd(ctx, a, index):
    return a[index]


_select = Op("SelectBackward0", _select_fwd, jvp="linear")
_slice = Op("SliceBackward0", lambda ctx, a, index: sliced(a, index), jvp="linear")


def _index_fwd(ctx, a, index):
    out = a[index]
    return _index_layout(out, a, index) if type(out) is np.ndarray and out.ndim > 1 and type(a) is np.ndarray else out


def _index_layout(out, a, index):
    """``out`` (``a[index]``, ``index`` a tuple of slices and integer arrays) laid out as ATen's index
    kernel lays it out: TensorIterator over ``a`` restrided (the indexed dims replaced by the
    broadcast indices' shape, stride 0; indexed dims that are not adjacent moved to the front first,
    as numpy moves them) and then the indices, viewed with ones for the dims before and after."""
    indexed = [d for d, i in enumerate(index) if type(i) is not slice]
    arrays = [np.asarray(index[d]) for d in indexed]
    shape = np.broadcast_shapes(*[i.shape for i in arrays])
    dims = list(range(a.ndim))
    if indexed != list(range(indexed[0], indexed[-1] + 1)):  # not adjacent: transposed to the front
        dims = indexed + [d for d in dims if d not in indexed]
        indexed = list(range(len(indexed)))
    before, after = indexed[0], a.ndim - indexed[-1] - 1
    src_strides = [torch_strides(a)[d] for d in dims]  # (restride_src's 0 of a dim of one element too: ZERO1)
    src = np.lib.stride_tricks.as_strided(a, out.shape, numpy_strides(
        out.shape, src_strides[:before] + [0] * len(shape) + src_strides[before + len(indexed):]), writeable=False)
    views = [reshaped(expand_array(i, shape), (1,) * before + shape + (1,) * after) for i in arrays]  # (reshape_indexer)
    return iterator_layout(out, [src, *views])


_index = Op("IndexBackward0", _index_fwd, jvp="linear", keeps={"index": None})  # (PyTorch saves the indices)


@_select.derivative
def _(ctx, grad):
    return embed(grad, ctx.input_shape, ctx.index, op=_embed_select)


_slice.derivative(lambda ctx, grad: embed(grad, ctx.input_shape, ctx.index))
for _op in (_select, _slice):
    _op.raw_derivative(lambda ctx, g: _embed_fwd(None, g, tuple(ctx.input_shape), ctx.index))
def _index_put_fwd(ctx, a, values, index):
    out = a.copy()
    np.add.at(out, index, values)
    return out


# index_backward under create_graph: zeros(shape).index_put_(indices, grad, accumulate=True)
_index_put_impl = Op("IndexPutImplBackward0", _index_put_fwd, inputs=("self", "values"), internal=True, jvp="linear")


@_index_put_impl.derivative
def _(ctx, grad):
    return grad if ctx.needs(0) else None, _take(grad, ctx.index) if ctx.needs(1) else None


@_index.derivative
def _(ctx, grad):
    if grad._requires_grad and graph._state["enabled"]:  # recorded: PyTorch's nodes (edges: None, grad)
        zeros = np.zeros(ctx.input_shape, grad._data.dtype)
        return _index_put_impl.apply((Tensor._make(zeros), grad), (zeros, grad._data), {"index": ctx.index})
    return embed(grad, ctx.input_shape, ctx.index, accumulate=True)


def getitem(self, index):
    index = _int_tensors(index)
    if type(index) is range or type(index) is tuple:
        index = _ranges_as_lists(index)
    # A lone slice is always applied, even a full one (PyTorch only skips full
    # slices inside a tuple index).
    keep_full = isinstance(index, slice)
    positions = []
    items = _normalise(index, self.ndim, positions)
    result = self
    dim = 0
    advanced = {}
    for item, position in zip(items, positions):
        shape = result._data.shape
        if item is None:
            result = unsqueeze(result, dim)
            dim += 1
        elif isinstance(item, bool):  # (TensorIndexing.h: an unsqueeze, then an index of [0] or of none)
            result = unsqueeze(result, dim)
            advanced[dim] = np.zeros(1 if item else 0, np.int64)
            dim += 1
        elif isinstance(item, numbers.Integral) and not isinstance(item, Tensor):
            i = _check_int(int(item), shape[dim], position)
            idx = (_FULL,) * dim + (i, Ellipsis)  # the Ellipsis keeps a 0-d result a numpy view
            result = _view(_select, result, result._data, {"index": idx})
        elif isinstance(item, slice):
            size = shape[dim]
            start, stop, step = item.start, item.stop, item.step
            start, stop, step = (s.__index__() if isinstance(s, Tensor) else s for s in (start, stop, step))
            if step == 0:
                raise ValueError("slice step cannot be zero")
            if step is not None and step < 0:
                raise ValueError("step must be greater than zero")
            s = slice(*slice(start, stop, step).indices(size))
            # PyTorch skips a full slice by its written bounds, before wrapping: x[0:] and
            # x[:5] of 3 elements are skipped, x[-3:] and (0 elements) x[:-1] are sliced
            full = start in (None, 0) and step in (None, 1) and (stop is None or stop >= size)
            if keep_full or not full:
                idx = (_FULL,) * dim + (s,)
                result = _view(_slice, result, result._data, {"index": idx})
            dim += 1
        else:
            arr = _as_index_array(item)
            if arr.dtype.kind == "b":
                for k in range(arr.ndim):
                    if arr.shape[k] != shape[dim + k]:
                        raise IndexError(
                            f"The shape of the mask [{', '.join(map(str, arr.shape))}] at index {k} does not match "
                            f"the shape of the indexed tensor [{', '.join(map(str, shape))}] at index {dim + k}")
                if arr.ndim == 0:
                    result = unsqueeze(result, dim)
                    advanced[dim] = np.nonzero(np.atleast_1d(arr))[0]
                    dim += 1
                    continue
                for k, nz in enumerate(np.nonzero(arr)):
                    advanced[dim + k] = nz
                dim += arr.ndim
            else:
                size = shape[dim]
                if arr.size and (arr.max() >= size or arr.min() < -size):
                    if size == 0:  # (the index kernel's own words for an empty dimension)
                        raise IndexError("index is out of bounds for dimension with size 0")
                    bad = arr[(arr >= size) | (arr < -size)][0]  # (the first the kernel visits; its dim: the
                    raise IndexError(  # tensor's place among the tensors, a mask one a dim: a[:, idx] says "dimension 0")
                        f"index {bad} is out of bounds for dimension {len(advanced)} with size {size}")
                advanced[dim] = arr
                dim += 1
    if advanced:
        idx = tuple(advanced.get(d, _FULL) for d in range(max(advanced) + 1))
        _check_advanced_size(result._data.shape, advanced)  # (and make_info's error for indices that don't broadcast)
        result = _keep_indices(_index.apply((result,), (result._data,), {"index": idx}), _index, index)
    elif result is self:
        result = alias(self)
    return result


def _check_advanced_size(shape, advanced):
    """The size of an advanced-indexing result, before numpy builds it: the
    broadcast of the index arrays times the dimensions they leave alone."""
    try:
        n = Size(np.broadcast_shapes(*(a.shape for a in advanced.values()))).numel()
    except ValueError:  # (make_info's words: the indices after expandTensors, a mask's as its nonzero's)
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together with shapes "
                         + ", ".join(str(list(a.shape)) for a in advanced.values())) from None
    for d, s in enumerate(shape):
        if d not in advanced:
            n *= s
    check_numel(n)


_alias = Op("AliasBackward0", lambda ctx, a: a.view(), jvp="linear")
_alias.derivative(lambda ctx, grad: grad)


def alias(t):
    """``t.alias()``: a view of all of ``t`` (``x[...]``, the legacy ``torch.Tensor(t)``)."""
    return _view(_alias, t, t._data, {})


method("__getitem__")(getitem)


# select --------------------------------------------------------------------------------

@export(method=True)
def select(input, dim, index):
    if input.ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = _wrap_dim(dim, input.ndim)
    size = input._data.shape[d]
    i = int(index)
    if i < -size or i >= size:
        raise IndexError(f"select(): index {i} out of range for tensor of size {_fmt(input.shape)} at dimension {d}")
    if i < 0:
        i += size
    return _view(_select, input, input._data, {"index": (_FULL,) * d + (i, Ellipsis)})


# setitem -------------------------------------------------------------------------------

def _put_fwd(ctx, a, v, index, torch_index, accumulate=False, shared=(), base_overlaps=False):
    ctx.values_shape = np.shape(v)
    ctx.base_overlaps = base_overlaps  # (CopySlices: self's elements shared memory, as_strided_ with a stride 0)
    ctx.self_order = dense_order(a)  # (CopySlices' gradient of self is laid out as self was)
    if shared:  # index_put_ into an expanded tensor: the sums land in the memory its elements share
        return _accumulate_shared(a, v, index, shared)
    out = empty_like(a)  # (ATen's index_put clones self preserving its format: a transpose stays one)
    out[...] = a
    if accumulate:  # one value after the other, in index order (the CPU kernel's serial loop)
        np.add.at(out, index, np.broadcast_to(v, out[index].shape))
    else:
        out[index] = v if np.ndim(v) <= 1 or np.ndim(v) <= out[index].ndim else np.reshape(v, ())  # (masked_fill_'s)
    return out


def _accumulate_shared(a, v, index, shared):
    """``a[index] += v`` one value after the other into memory laid out as ``a`` was before its
    snapshot: dims ``shared`` of stride 0 (an expand), whose elements take every sum written to any
    of them (PyTorch's kernel adds into the memory itself)."""
    memory = a[tuple(slice(0, 1) if d in shared else slice(None) for d in range(a.ndim))].copy()
    out = np.lib.stride_tricks.as_strided(
        memory, a.shape, tuple(0 if d in shared else s for d, s in enumerate(memory.strides)))
    np.add.at(out, index, np.broadcast_to(v, out[index].shape))
    return np.ascontiguousarray(out)


def _put_backward(ctx, grad):
    # derivatives.yaml's index_put: self: accumulate ? grad : grad.index_put(indices, zeros_like(values),
    # false), values: grad.index(indices)
    g_values = grad[ctx.torch_index] if ctx.needs(1) else None
    if g_values is not None and not _expandable(ctx.values_shape, g_values.shape):
        # (a value of more dims than the indexed part, that masked_fill_ took: the engine's check)
        raise RuntimeError(f"Function IndexPutBackward0 returned an invalid gradient at index 1 - got "
                           f"{list(g_values.shape)} but expected shape compatible with {list(ctx.values_shape)}")
    if getattr(ctx, "accumulate", False):
        return grad, g_values
    zeros = np.zeros(ctx.values_shape, grad._data.dtype)
    g_self = _index_put.apply((grad, None), (grad._data, zeros), {"index": ctx.index, "torch_index": ctx.torch_index})
    return g_self, g_values


def _expandable(shape, to) -> bool:
    """ATen's is_expandable_to(shape, to)."""
    return len(shape) <= len(to) and all(n in (1, m) for n, m in zip(reversed(shape), reversed(to)))


# x[basic index] = v records CopySlices; an advanced index (mask, index tensor) IndexPutBackward0
# (PyTorch's CopySlices lets go of its op after a pass: a second backward through it fails, so the index
# is kept as freed with the graph)
_copy_slices = Op("CopySlices", _put_fwd, inputs=("self", "src"), jvp="linear", keeps={"index": None})
_copy_slices.node._name = "torch::autograd::CopySlices"


@_copy_slices.derivative
def _(ctx, grad):
    if ctx.base_overlaps:  # (PyTorch copies the gradient into a new tensor of self's strides: copy_ refuses)
        from .inplace_view import _OVERLAP as _WRITTEN_OVERLAP
        raise RuntimeError(_WRITTEN_OVERLAP)
    if not graph._state["enabled"]:
        g_self, g_src = _put_backward(ctx, grad)
        g_self._data = in_order(g_self._data, ctx.self_order)
        # (the value's: PyTorch's grad_slice.clone(), no view of the caller's gradient= that a leaf would take)
        return g_self, None if g_src is None else Tensor._make(np.array(g_src._data, order="C"))
    # create_graph: PyTorch's CopySlices steps around copy_'s backward, each recorded: the
    # gradient copied into a new tensor, its slice (as_strided) cloned for the value, zeros
    # copied into the slice for the tensor written to
    from .inplace_view import replace, take
    from .views import _clone, _copy
    result = _copy(Tensor._make(np.empty_like(grad._data)), grad)
    flat = np.arange(grad._data.size).reshape(grad._data.shape)[ctx.index]
    g_src = _clone(take(result, flat)) if ctx.needs(1) else None
    g_self = replace(result, Tensor._make(np.zeros((), grad._data.dtype)), flat) if ctx.needs(0) else None
    if g_self is not None:
        g_self._data = in_order(g_self._data, ctx.self_order)
    return g_self, g_src
_index_put = Op("IndexPutBackward0", _put_fwd, inputs=("self", "values"), jvp="linear",
                 keeps={"index": None})  # (PyTorch saves the indices)
_index_put.derivative(_put_backward)


def _keep_indices(result, op, index):
    """``result`` of ``op`` (IndexBackward0, IndexPutBackward0): its node saves the index's tensors, as
    PyTorch saves the indices (changed in place before the backward: its error).  Returns ``result``."""
    fn = result._grad_fn
    if fn is not None and type(fn) is op.node:
        for k, t in enumerate(index if type(index) is tuple else (index,)):
            if type(t) is Tensor:
                graph.save_extra(fn, f"indices{k}", t)
    return result


def _masked_fill_dispatch(index, value):
    """Whether PyTorch's index_put_ hands this write to masked_fill_ (canDispatchToMaskedFill):
    one value, and one bool index tensor of at least one dimension the only tensor index."""
    if isinstance(value, Tensor) and value.numel() != 1:
        return False
    items = index if isinstance(index, tuple) else (index,)
    found = False
    for i in items:
        if isinstance(i, (Tensor, list, np.ndarray)):
            arr = i._data if isinstance(i, Tensor) else np.asarray(i)
            if found or arr.dtype != np.bool_ or arr.ndim == 0:
                return False
            found = True
    return found


def _is_advanced(index):
    items = index if isinstance(index, tuple) else (index,)
    return any(isinstance(i, (Tensor, list, np.ndarray)) for i in items)


def _to_numpy_index(index, ndim):
    """A PyTorch index as a numpy one (same selection), for writes."""
    items = index if isinstance(index, tuple) else (index,)
    out = []
    for item in items:
        if isinstance(item, Tensor):
            out.append(_as_index_array(item))
        elif isinstance(item, list):
            out.append(_as_index_array(item))
        else:
            out.append(item)
    return tuple(out)


def _selects_all(index, shape) -> bool:
    """Whether ``index`` is only full slices and at most one Ellipsis (``x[:]``, ``x[..., :]``)."""
    items = index if isinstance(index, tuple) else (index,)
    if sum(item is Ellipsis for item in items) > 1:
        return False
    slices = [item for item in items if item is not Ellipsis]
    if len(slices) > len(shape) or any(type(item) is not slice for item in slices): return False  # noqa: E701
    cut = next((i for i, item in enumerate(items) if item is Ellipsis), len(items))  # (after it: the last dims)
    dims = list(shape[:cut]) + list(shape[len(shape) - (len(items) - cut - 1):]) if cut < len(items) else list(shape)
    # PyTorch's applySlice skips a slice from 0 (not -size) to the end or past it, step 1
    return all(item.start in (None, 0) and item.step in (None, 1) and (item.stop is None or
               isinstance(item.stop, numbers.Integral) and item.stop >= size) for item, size in zip(slices, dims))


def _setitem_value(value, shape):
    """The value as PyTorch's setitem writes it: leading size-1 dims stripped (a view,
    ViewBackward0), then, for a basic index (``shape``: the slice's), expanded to the
    slice (ExpandBackward0); advanced indexing views only when something is stripped."""
    stripped = value.shape
    while stripped and stripped[0] == 1:
        stripped = stripped[1:]
    if shape is None:
        return value if stripped == value.shape else value.view(stripped)
    value = value.view(stripped)
    return value if stripped == shape else value.expand(shape)


def _slices_to_view(items, shape, positions=None) -> bool:
    """Whether PyTorch's basic indexing of ``items`` (``_normalise``'s) gives a view, not the
    tensor itself (TensorIndexing.h: an int selects, None/True unsqueeze; a slice from 0 past
    the end with step 1 is skipped, as are tensor indices, left to index_put_).  An int out of
    range raises PyTorch's IndexError, as its select does before any in-place check."""
    view = False
    d = 0
    for i, item in enumerate(items):
        if isinstance(item, slice):
            start, stop, step = item.start, item.stop, item.step
            if not ((start is None or start == 0) and (stop is None or stop >= shape[d])
                    and (step is None or step == 1)):
                view = True
            d += 1
        elif isinstance(item, (Tensor, np.ndarray)) and item.ndim:
            d += item.ndim if _as_index_array(item).dtype.kind == "b" else 1
        elif isinstance(item, list):
            d += 1
        elif item is None or isinstance(item, (bool, np.bool_)) or \
                isinstance(item, (Tensor, np.ndarray)) and _as_index_array(item).dtype.kind == "b":
            view = True
        elif isinstance(item, (numbers.Integral, np.integer)) or isinstance(item, (Tensor, np.ndarray)) \
                and _as_index_array(item).dtype.kind in "iu":  # an int (a 0-d integer tensor): select
            _check_int(int(item), shape[d], i if positions is None else positions[i])
            view = True
            d += 1
        else:  # not an index: the general path says so
            return view
    return view


def _setitem_number(value, np_dtype):
    """A number written by setitem (THPVariable_setitem's valueToTensor): an int must fit a C
    long long; a half tensor takes any number unchecked (inf past its range), other dtypes as
    fill_ does (c10's checked_convert)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)) \
            and not -2 ** 63 <= value < 2 ** 63:
        raise ValueError("Overflow when unpacking long long")
    if np_dtype == np.float16:  # (through float32, as c10::Half is made: a double rounds twice)
        with np.errstate(over="ignore"):
            return np.asarray(np.asarray(value, np.float32), np_dtype)
    return np.asarray(dtypes.checked_scalar(value, np_dtype))


def _masked_fill_form(index, value) -> bool:
    """THPVariable_setitem's masked_fill_ for one bool mask and a one-element value (no dtype match needed)."""
    return value._data.size == 1 and isinstance(index, Tensor) and index.dtype is dtypes.bool_


def _expand_to_slice(self, index, value):
    """PyTorch's expand error when a tensor value does not broadcast to a basic slice."""
    target_shape = getitem(self.detach(), index)._data.shape
    stripped = value._data.shape
    while stripped and stripped[0] == 1:
        stripped = stripped[1:]
    if len(stripped) > len(target_shape) or any(s != 1 and s != t for s, t in zip(stripped[::-1], target_shape[::-1])):
        Tensor._make(value._data.reshape(stripped)).expand(tuple(target_shape))  # raises expand's error


_OVERLAP = ("unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
            "single memory location. Please clone() the tensor before performing the operation.")


def _check_copy_overlap(self, index, dst, value):
    """copy_to's checks of a basic write (a slice): the value, leading size-1 dims stripped and
    expanded to the slice unless it has the slice's shape, is copied with copy_, which does
    nothing for the very same elements (``v[:, 0] = v_base`` of an expanded ``v``), else refuses
    a slice whose elements share memory, then a value that partly overlaps it (``x[:2] = x[1:3]``;
    ``x[::2] = x`` of a size-1 dim: the same bytes, other strides).  A number or 0-d value is
    fill_'s: only the first check."""
    src = zero = None
    from_0d = False  # a value of size-1 dims only: stripped to 0-d, whose expand has strides 0 in PyTorch
    if isinstance(value, Tensor) and value.ndim:
        src = value._data
        src_strides = torch_strides(src)
        if src.shape != dst.shape:  # (the value's view (computeStride's strides) expanded)
            lead = next((d for d, n in enumerate(src.shape) if n != 1), src.ndim)
            from_0d, src_strides = lead == src.ndim, setitem_value_strides(src, dst.shape)
            src = _expanded(src[(0,) * lead + (Ellipsis,)], dst.shape)
        zero = sliced_zero_strides(self._data, _to_numpy_index(index, self.ndim))
        dst_strides = tuple(z * dst.itemsize for z in zero) if zero is not None else torch_strides(dst)
        if src.dtype == dst.dtype and src_strides == dst_strides \
                and src.shape == dst.shape and src.__array_interface__["data"][0] == dst.__array_interface__["data"][0]:
            return  # copy_'s early exit: self and src are views of the same data
        if zero is not None and (from_0d or dst_strides == src_strides):
            zero = None
    if _has_internal_overlap(dst):
        getitem(self.detach(), index)._check_inplace(False)
    if zero is not None and src.__array_interface__["data"][0] == dst.__array_interface__["data"][0] \
            and src.nbytes == dst.nbytes and dense(src) and dense(dst):
        raise RuntimeError(_OVERLAP)  # (a size-1 slice of an expanded dim keeps stride 0: other strides)
    if src is not None and (_partial_overlap(dst, src) or from_0d and dst.ndim and dst.size == 1
                            and src.__array_interface__["data"][0] == dst.__array_interface__["data"][0]):
        raise RuntimeError(_OVERLAP)  # (the one element, strides 0 against the slice's own)


def _expanded(a, shape):
    """``a`` broadcast to ``shape`` as PyTorch's expand lays it out: a dim that keeps its size keeps its
    stride (numpy's broadcast_to gives every size-1 dim stride 0), a broadcast one has stride 0."""
    lead = len(shape) - a.ndim
    strides = [0] * lead + [st if n == m else 0 for st, n, m in zip(a.strides, a.shape, shape[lead:])]
    return np.lib.stride_tricks.as_strided(a, shape, strides, writeable=False)


def _has_index_tensors(index) -> bool:
    """Whether index_put_ gets index tensors (0-d integer tensors select, as ints do)."""
    items = index if isinstance(index, tuple) else (index,)
    return any(isinstance(i, list) or isinstance(i, (Tensor, np.ndarray)) and
               (i.ndim or _as_index_array(i).dtype.kind == "b") for i in items)


def _sliced_part(np_index) -> tuple:
    """The basic part of an index: the tensor PyTorch's setitem hands index_put_ (index arrays as full dims)."""
    out = []
    for item in np_index:
        if isinstance(item, np.ndarray) and item.ndim:
            out.extend([slice(None)] * (item.ndim if item.dtype == np.bool_ else 1))
        elif isinstance(item, np.ndarray) and item.dtype == np.bool_:
            out.append(None)
        else:
            out.append(item)
    return tuple(out)


def _check_index_put_overlap(sliced, value, index, self=None, strip=False):
    """index_put_'s assert_no_overlap of the written tensor with the value and each index tensor
    (the written tensor itself as the value: a full overlap, whatever its layout, even empty; but
    setitem's value with leading dims of one is a view without them, another tensor: an empty one
    overlaps nothing)."""
    if value is self and not (strip and value.ndim and value.shape[0] == 1) and sliced.shape == self._data.shape \
            and sliced.strides == self._data.strides and \
            sliced.__array_interface__["data"][0] == self._data.__array_interface__["data"][0]:
        raise RuntimeError(_OVERLAP)
    items = index if isinstance(index, tuple) else (index,)
    for other in (value, *items):
        if isinstance(other, Tensor) and (other is value or other.ndim) and overlaps(sliced, other._data):
            raise RuntimeError(_OVERLAP)


def setitem(self, index, value):
    _uint8_masked_fill(index, value)
    index = _int_tensors(index)
    if graph.is_recording((self, value if isinstance(value, Tensor) else None)):
        rewrite = view_rewrite(index, self.shape)
        if rewrite is not None:  # (index tensors with Nones, bools, ints or slices: index_put_ on a view)
            self, index = getitem(self, rewrite[0]), rewrite[1]
    return _written_before.assigned(_assign, self, index, value, True)  # (a bad index: what came before)


def _assign(self, index, value, strip):
    """``self[index] = value``; ``strip``: as setitem, whose value loses its leading dims of one
    first (a view); index_put_ writes the value as it is, broadcast to the indexed shape."""
    if type(index) is range or type(index) is tuple:
        index = _ranges_as_lists(index)
    if not isinstance(value, (Tensor, bool, int, float, complex, np.integer)):  # (valueToTensor's: a numpy
        # integer is a long, numpy's float64 a float; its bool, float32, float16 and complex64 are refused)
        from ._pyargs import tp_name
        from ..autograd.graph import _LEGACY_TYPE

        raise TypeError(f"can't assign a {tp_name(value)} to a torch.{_LEGACY_TYPE.get(self.dtype.name, 'Tensor')}")
    # a number becomes a tensor of self's dtype first (valueToTensor: its conversion errors come first)
    number = None if isinstance(value, Tensor) else _setitem_number(value, self._data.dtype)
    if index is False:
        return  # PyTorch's THPVariable_setitem does nothing for a lone False
    if _selects_all(index, self.shape):
        # PyTorch writes into the tensor itself: fill_ for a number or 0-d tensor, else copy_
        from .views import copy_, fill_
        if number is not None:
            value = Tensor._make(number)
        elif value.ndim and value.shape != self.shape:
            from_0d = all(n == 1 for n in value.shape)
            value = _setitem_value(value, self.shape)
            if from_0d and self.ndim and self._data.size == 1 and any(torch_strides(self._data)) and \
                    value._data.__array_interface__["data"][0] == self._data.__array_interface__["data"][0]:
                # its one element, expanded from 0-d with strides 0 against self's own: a partial overlap
                self._check_inplace(graph._state["enabled"] and (self._requires_grad or value._requires_grad))
                raise RuntimeError(_OVERLAP)
            if from_0d and _has_internal_overlap(self._data) and any(torch_strides(self._data)):
                # (``v[:] = b`` of ``v = b.expand(2, 1)``: strides 0 only against v's: copy_ refuses v's overlap)
                self._check_inplace(graph._state["enabled"] and (self._requires_grad or value._requires_grad))
        (fill_ if value.ndim == 0 and self.ndim else copy_)(self, value)  # (copy_to: copy_ for equal shapes)
        return
    positions = []
    items = _normalise(index, self.ndim, positions)  # PyTorch indexes first: "too many indices ..." before
    advanced = _is_advanced(index)                    # the in-place checks
    view = _slices_to_view(items, self.shape, positions)  # (and PyTorch's error for an int out of range)
    if view and self._requires_grad and self._data.dtype.kind != "f" and graph._state["enabled"]:
        _not_differentiable(self._data.dtype)  # the slice's view node: autograd refuses an integer tensor
    if not advanced and isinstance(value, Tensor) and value.ndim:
        _expand_to_slice(self, index, value)  # copy_to expands the value before copy_'s in-place checks
    if not advanced and self._base is not None and self._view_meta is not None and graph.is_recording(
            (self, value if isinstance(value, Tensor) else None)):
        view_errors.check_view_meta(getitem(self, index))  # PyTorch writes into the slice, a view of the view
    if view and self._requires_grad and self._grad_fn is None and graph._state["enabled"]:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
    self._check_inplace(graph.is_recording((self, value if isinstance(value, Tensor) else None)),
                        "index_put_" if advanced else "allow")
    if advanced and _masked_fill_dispatch(index, value) and self._data.ndim and 0 in self._data.strides \
            and _has_internal_overlap(self._data):
        self._check_inplace(False, "masked_fill_")  # index_put_'s kernel runs masked_fill_: its warning too
    np_index = _to_numpy_index(index, self.ndim)
    if not advanced:
        _check_copy_overlap(self, index, self._data[np_index], value)
    elif _has_index_tensors(index) and not _masked_fill_dispatch(index, value):
        _check_index_put_overlap(self._data[_sliced_part(np_index)], value, index, self, strip)
    target_shape = getitem(self.detach(), index)._data.shape
    if isinstance(value, Tensor):
        v = value
        varr = promote(value._data, self._data.dtype)  # (NaNs to and from float16: PyTorch's bits)
    else:
        v = None
        varr = number
    basic = not advanced
    checked = varr
    if v is not None and v.ndim and (advanced or varr.shape != target_shape):
        if strip or basic:
            v = _setitem_value(v, target_shape if basic else None)
            checked = varr = promote(v._data, self._data.dtype)
        elif varr.ndim > len(target_shape) and _masked_fill_dispatch(index, value):
            checked = varr.reshape(())  # (masked_fill_ takes the one value, whatever its shape)
    try:
        np.broadcast_to(checked, target_shape)
    except ValueError:
        if basic:  # copy_ expands the value: PyTorch's expand error
            original = value._data if isinstance(value, Tensor) else varr
            Tensor._make(original.reshape(varr.shape)).expand(tuple(target_shape))
        raise RuntimeError(
            f"shape mismatch: value tensor of shape {list(varr.shape)} cannot be broadcast to indexing result "
            f"of shape {list(target_shape)}") from None
    masked = v is not None and advanced and (_masked_fill_form(index, value) or strip is not None and
                                             _masked_fill_dispatch(index, value))  # (setitem's, index_put_'s
    # masked_fill_ (not accumulating: ``strip`` None): value.item(), no dtype match)
    if advanced and v is not None and value.dtype is not self.dtype and not masked:
        raise RuntimeError(
            "Index put requires the source and destination dtypes match, got "
            f"{_scalar_name(self.dtype)} for the destination and {_scalar_name(value.dtype)} for the source.")
    if masked:  # (masked_fill_'s value.item(), converted by c10's checked_convert)
        dtypes.checked_scalar(value._data.reshape(-1)[0].item(), self._data.dtype)
    if v is not None and not self.dtype.is_floating_point and v._requires_grad and basic and (
            value.ndim or not target_shape):
        v = v.detach()  # (copy_ into an integer: nothing; index_put_ and copy_to's fill_ record into any dtype)
    recording = graph.is_recording((self, v))
    if not recording:
        self._data[np_index] = checked
        self._vc[0] += 1
        if _fw_active[0]:
            _forward_ad.setitem_tangent(self, np_index, v)
        for obs in graph.version_observers:
            obs(self)
        return
    src = v if v is not None else Tensor._make(varr)
    op = _index_put if _is_advanced(index) else _copy_slices
    kwargs = {"index": np_index, "torch_index": index}
    if op is _copy_slices and _has_internal_overlap(self._data):
        kwargs["base_overlaps"] = True

    def put(old):
        return _keep_indices(op.apply((old, src), (old._data, varr), kwargs), op, index)

    if self._base is not None and basic:
        # a view written through a basic index: PyTorch's copy_to on the slice (a view of the same base):
        # copy_ for the slice's shape, fill_ for a 0-d value, one CopySlices around that op alone
        from .views import copy_, fill_
        sliced = getitem(self, index)
        (fill_ if src.ndim == 0 and sliced.ndim else copy_)(sliced, src)
    elif self._base is not None:  # through a view: the base's history is rewritten
        from .inplace_view import inplace_through_view
        inplace_through_view(self, put, (), {})
    else:
        # index_put_ is an in-place op on self (an integer self that requires grad takes its node), and so is
        # copy_to's fill_ of a slice of an integer self (CopySlices)
        before = self._snapshot()
        if op is _index_put or self._data.dtype.kind != "f":  # (an integer self takes CopySlices too)
            inplace_self[0] = before
        try:
            result = put(before)
        finally:
            inplace_self[0] = None
        self._write(result)
    if advanced and type(self._data) is np.ndarray and 0 in self._data.strides and _has_internal_overlap(self._data):
        # (index_put's kernel writes each indexed element in turn, C order: where elements share memory (an
        # expanded self) the last write stays, though it be the old value; the result above wrote the changes)
        self._data[np_index] = checked


method("__setitem__")(setitem)


# index_put / index_put_ ------------------------------------------------------------------------

@export(method=True)
def index_put(input, indices, values, accumulate=False):
    """One IndexPutBackward0 on ``input`` and ``values`` (``x[indices] = values`` on a copy, or
    ``+=`` one value after the other with ``accumulate``)."""
    index = _index_put_checked("index_put", input, indices, values, accumulate)
    if not accumulate:
        _uint8_masked_fill(list(index), values)
    index = _int_tensors(index) if any(t._data.dtype == np.uint8 for t in index) else index
    _check_mask_dims(input, index)
    _assign(input.detach().clone(), index, values.detach(), False)  # (PyTorch's checks and errors, on a copy)
    varr = np.asarray(values._data)
    return _keep_indices(_index_put.apply((input, values), (input._data, varr), {
        "index": _to_numpy_index(index, input.ndim), "torch_index": index, "accumulate": accumulate}), _index_put, index)


@export(method=True)
def index_put_(input, indices, values, accumulate=False):
    index = _index_put_checked("index_put_", input, indices, values, accumulate)
    if not accumulate:
        _uint8_masked_fill(list(index), values)
    if any(t._data.dtype == np.uint8 for t in index):
        index = tuple(uint8_mask(t) if t._data.dtype == np.uint8 else t for t in index)
    if not accumulate:
        try:
            _check_mask_dims(input, index)
        except IndexError:  # (after autograd's checks and the warning of an expanded tensor)
            input._check_inplace(graph.is_recording((input, values)), "index_put_")
            raise
        _written_before.assigned(_assign, input, index, values, False)  # (``x[indices] = values`` is PyTorch's index_put_)
        return input
    data = input._data
    shared = ()
    if type(data) is np.ndarray and 0 in data.strides and _has_internal_overlap(data):  # (warned, not refused)
        shared = tuple(d for d, (n, s) in enumerate(zip(data.shape, data.strides)) if s == 0 and n > 1)
    return _index_put_inplace(input, index, values, True, shared)


def _index_put_accumulate(input, index, values, accumulate, shared):
    _written_before.assigned(_assign, input.detach().clone(), index, values.detach(), None, into=input)  # (on a copy)
    return _keep_indices(_index_put.apply((input, values), (input._data, np.asarray(values._data)), {
        "index": _to_numpy_index(index, input.ndim), "torch_index": index, "accumulate": True, "shared": shared}),
        _index_put, index)


def _index_put_overlaps(self, index, values, accumulate, shared):
    """_index_put_impl_'s assert_no_overlap of the written tensor with the value and each index."""
    if _has_index_tensors(index):
        _check_index_put_overlap(self._data, values, index, self)
    _check_mask_dims(self, index)


_index_put_inplace = inplace(_index_put_accumulate, overlap="index_put_", name="index_put",
                             checks=_index_put_overlaps)
