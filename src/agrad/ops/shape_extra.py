"""More shape and indexing ops: unflatten, repeat/tile, flip, roll, select, split/chunk,
index_select, gather/scatter, index_add/fill/copy, masked_select/scatter, take,
sort/topk, nonzero, unique, meshgrid, atleast_nd, column_stack/dstack.

Each op sits with its PyTorch node name and backward formula (taken from
``derivatives.yaml`` / ``FunctionsManual.cpp``); formulas use agrad tensor ops
only, so they are differentiable again.  Composite functions (take_along_dim,
meshgrid, atleast_2d, ...) are built from other ops exactly as PyTorch builds
them, so the graph shows the same nodes.
"""

from __future__ import annotations

import collections
import math
import numbers
import warnings

import numpy as np

from .. import dtypes
from ..tensor import Tensor, _scalar_name, _wrap_dim
from ._op import Op, export, finish_out, inplace, method
from .indexing import _select, _slice, embed, scatter_into
from .shape import _sizes, _view, cat, reshape

_FULL = slice(None)


# helpers -------------------------------------------------------------------------------

def _index_array(index):
    """An index tensor's data as an int64 array (after the caller's dtype check)."""
    return index._data.astype(np.int64, copy=False)


def _is_int(t):
    return t.dtype in (dtypes.int64, dtypes.int32, dtypes.int16, dtypes.int8, dtypes.uint8)


def _as_views(outs, input):
    """Mark ``outs`` as views of ``input`` (sharing its version counter)."""
    for o in outs:
        o._make_view_of(input)
    return outs


def _fmt(shape):
    return "[" + ", ".join(str(s) for s in shape) + "]"


def _bool_tensor(array):
    return Tensor._make(np.asarray(array, bool))


def _return_type(name):
    """torch.return_types.<name>: the (values, indices) pair sort and topk return."""
    t = collections.namedtuple(name, ["values", "indices"])
    t.__module__ = "torch.return_types"
    return t


SortResult = _return_type("sort")
TopkResult = _return_type("topk")


# unflatten -------------------------------------------------------------------------------

@export(method=True)
def unflatten(input, dim, sizes):
    d = _wrap_dim(dim, input.ndim)
    sizes = [int(s) for s in sizes]
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    size = input._data.shape[d]
    if sizes.count(-1) > 1:
        raise RuntimeError("unflatten got an unexpected error:\nonly one dimension can be inferred")
    if -1 in sizes:
        known = math.prod(s for s in sizes if s != -1)
        if known == 0 or size % known:
            raise RuntimeError(f"unflatten: Provided sizes {_fmt(sizes)} don't multiply up to the size of dim "
                               f"{dim} ({size}) in the input tensor")
        sizes[sizes.index(-1)] = size // known
    elif math.prod(sizes) != size:
        raise RuntimeError(f"unflatten: Provided sizes {_fmt(sizes)} don't multiply up to the size of dim "
                           f"{dim} ({size}) in the input tensor")
    shape = input._data.shape[:d] + tuple(sizes) + input._data.shape[d + 1:]
    return input.view(shape)


# repeat / tile ------------------------------------------------------------------------------

def _repeat_fwd(ctx, a, repeats):
    lead = len(repeats) - a.ndim
    return np.tile(a.reshape((1,) * lead + a.shape), repeats)


_repeat = Op("RepeatBackward0", _repeat_fwd)


@_repeat.derivative
def _(ctx, grad):
    # repeat_backward: fold each repeated dim into (repeat, size) and sum the repeats
    repeats, shape = ctx.repeats, tuple(ctx.input_shape)
    if 0 in repeats:
        return grad.new_zeros(shape)
    lead = len(repeats) - len(shape)
    for _ in range(lead):
        grad = grad.sum(0)
    folded, sum_dims = [], []
    for d, size in enumerate(shape):
        r = repeats[d + lead]
        if r != 1:
            folded.append(r)
            sum_dims.append(len(folded) - 1)
        folded.append(size)
    if sum_dims:
        grad = grad.reshape(folded).sum(tuple(sum_dims))
    return grad


@method("repeat")
def repeat(input, *sizes):
    repeats = _sizes(sizes)
    if len(repeats) < input.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    lead = len(repeats) - input.ndim
    out_shape = [r * s for r, s in zip(repeats, (1,) * lead + input._data.shape)]
    for s in out_shape:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {_fmt(out_shape)}")
    return _repeat.apply((input,), (input._data,), {"repeats": repeats})


@export(method=True)
def tile(input, dims):
    dims = _sizes((dims,)) if not isinstance(dims, numbers.Integral) else (int(dims),)
    if len(dims) < input.ndim:
        dims = (1,) * (input.ndim - len(dims)) + dims
    return repeat(input, dims)


# flip / roll -----------------------------------------------------------------------------------

_flip = Op("FlipBackward0", lambda ctx, a, dims: np.flip(a, dims).copy() if dims else a.copy())
_flip.derivative(lambda ctx, grad: flip(grad, ctx.dims))


@export(method=True)
def flip(input, *dims):
    if len(dims) == 1 and not isinstance(dims[0], numbers.Integral):
        dims = tuple(dims[0])
    wrapped = tuple(_wrap_dim(d, input.ndim) for d in dims)
    seen = set()
    for d in wrapped:
        if d in seen:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        seen.add(d)
    if input.ndim == 0:
        wrapped = ()
    return _flip.apply((input,), (input._data,), {"dims": wrapped})


@export(method=True)
def fliplr(input):
    if input.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return flip(input, 1)


@export(method=True)
def flipud(input):
    if input.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return flip(input, 0)


def _roll_fwd(ctx, a, shifts, dims):
    if not dims:
        return np.roll(a.reshape(-1), shifts[0]).reshape(a.shape)
    return np.roll(a, shifts, dims)


_roll = Op("RollBackward0", _roll_fwd)
_roll.derivative(lambda ctx, grad: roll(grad, tuple(-s for s in ctx.shifts), ctx.dims if ctx.dims else None))


@export(method=True)
def roll(input, shifts, dims=None):
    shifts = (int(shifts),) if isinstance(shifts, numbers.Integral) else tuple(int(s) for s in shifts)
    dims = () if dims is None else ((int(dims),) if isinstance(dims, numbers.Integral) else tuple(dims))
    if not shifts:
        raise RuntimeError("`shifts` required")
    if not dims and len(shifts) == 1:
        return _roll.apply((input,), (input._data,), {"shifts": shifts, "dims": ()})
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    dims = tuple(_wrap_dim(d, input.ndim) for d in dims)
    return _roll.apply((input,), (input._data,), {"shifts": shifts, "dims": dims})


# select / split / chunk / tensor_split -------------------------------------------------------------

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


def _split_fwd(ctx, a, dim, sizes):
    out, start = [], 0
    for n in sizes:
        out.append(a[(_FULL,) * dim + (slice(start, start + n),)])
        start += n
    return tuple(out)


def _split_back(ctx, grads):
    return cat(grads, ctx.dim)


_split = Op("SplitBackward0", _split_fwd, outputs=None, multi_grad=True)
_split_sizes = Op("SplitWithSizesBackward0", _split_fwd, outputs=None, multi_grad=True)
_split.derivative(_split_back)
_split_sizes.derivative(_split_back)


def _split_even(input, split_size, dim):
    d = _wrap_dim(dim, input.ndim)
    size = input._data.shape[d] if input.ndim else 1
    if split_size < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got split_size={split_size}")
    if split_size == 0 and size != 0:
        raise RuntimeError(
            f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}")
    n = max((size + split_size - 1) // split_size, 1) if split_size else 1
    sizes = [min(split_size, size - i * split_size) for i in range(n)]
    return _as_views(_split.apply((input,), (input._data,), {"dim": d, "sizes": sizes}), input)


def _split_with_sizes(input, sizes, dim):
    d = _wrap_dim(dim, input.ndim)
    size = input._data.shape[d]
    sizes = [int(s) for s in sizes]
    if any(s < 0 for s in sizes):
        raise RuntimeError(
            f"split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes={_fmt(sizes)}")
    if sum(sizes) != size:
        raise RuntimeError(
            f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's size at dimension {d}), "
            f"but got split_sizes={_fmt(sizes)}")
    return _as_views(_split_sizes.apply((input,), (input._data,), {"dim": d, "sizes": sizes}), input)


@export(method=True)
def split(input, split_size_or_sections, dim=0):
    if isinstance(split_size_or_sections, numbers.Integral):
        return _split_even(input, int(split_size_or_sections), dim)
    return _split_with_sizes(input, split_size_or_sections, dim)


@method("split_with_sizes")
def split_with_sizes(input, split_sizes, dim=0):
    return _split_with_sizes(input, split_sizes, dim)


export("split_with_sizes")(split_with_sizes)


@export(method=True)
def chunk(input, chunks, dim=0):
    if input.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    d = _wrap_dim(dim, input.ndim)
    size = input._data.shape[d]
    split_size = (size + chunks - 1) // chunks
    if split_size == 0 and size == 0:
        return _split_with_sizes(input, [0] * chunks, d)
    return _split_even(input, split_size, d)


def _slice_view(input, d, start, stop):
    return _view(_slice, input, input._data, {"index": (_FULL,) * d + (slice(start, stop),)})


@export(method=True)
def tensor_split(input, indices_or_sections, dim=0):
    if input.ndim == 0:
        raise RuntimeError(
            "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    d = _wrap_dim(dim, input.ndim)
    size = input._data.shape[d]
    spec = indices_or_sections
    if isinstance(spec, Tensor):
        if not _is_int(spec):
            raise RuntimeError(
                "tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
                f"{_scalar_name(spec.dtype)}")
        if spec.ndim > 1:
            raise RuntimeError(
                "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or one-dimensional "
                f"tensor, but got a tensor with {spec.ndim} dims")
        spec = int(spec.item()) if spec.ndim == 0 else [int(x) for x in spec._data]
    if isinstance(spec, numbers.Integral):
        n = int(spec)
        if n <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {n}")
        small, extra = divmod(size, n)
        bounds, start = [], 0
        for i in range(n):
            stop = start + small + (1 if i < extra else 0)
            bounds.append((start, stop))
            start = stop
    else:
        cuts = [int(i) for i in spec]
        bounds, start = [], 0
        for c in cuts + [size]:
            c = c + size if c < 0 else c
            c = min(max(c, 0), size)
            stop = max(c, start)
            bounds.append((start, stop))
            start = stop
    return tuple(_slice_view(input, d, s, e) for s, e in bounds)


def _split_dims(input, indices_or_sections, dim, name, min_dim):
    if input.ndim < min_dim:
        raise RuntimeError(
            f"torch.{name} requires a tensor with at least {min_dim} dimension, "
            f"but got a tensor with {input.ndim} dimensions!")
    if isinstance(indices_or_sections, numbers.Integral):
        size = input._data.shape[dim]
        if indices_or_sections == 0 or size % indices_or_sections:
            raise RuntimeError(
                f"torch.{name} attempted to split along dimension {dim}, but the size of the dimension {size} "
                f"is not divisible by the split_size {indices_or_sections}!")
    return tensor_split(input, indices_or_sections, dim)


@export(method=True)
def hsplit(input, indices_or_sections):
    return _split_dims(input, indices_or_sections, 1 if input.ndim > 1 else 0, "hsplit", 1)


@export(method=True)
def vsplit(input, indices_or_sections):
    return _split_dims(input, indices_or_sections, 0, "vsplit", 2)


@export(method=True)
def dsplit(input, indices_or_sections):
    return _split_dims(input, indices_or_sections, 2, "dsplit", 3)


# index_select / index_add / index_fill / index_copy --------------------------------------------------

def _check_vector_index(index, who):
    if not isinstance(index, Tensor):
        raise TypeError(f"{who}(): argument 'index' must be Tensor, not {type(index).__name__}")
    if index.ndim > 1:
        if who == "index_select":
            raise IndexError("index_select(): Index is supposed to be a vector")
        if who == "index_fill":
            raise RuntimeError("Index has to be a vector/scalar")
        if who == "index_add":
            from ..autograd.graph import _LEGACY_TYPE
            raise IndexError(
                f"index_add_(): Index is supposed to be a vector, but got dim: {index.ndim} with type: "
                f"{_LEGACY_TYPE[index.dtype.name][:-len('Tensor')]} and size: {_fmt(index.shape)}")
        raise IndexError(f"{who}_(): Index should have dimension 1 or 0 (got {index.ndim})")


def _check_bounds(idx, size, dim, err=RuntimeError, wrap=False, prefix=""):
    """Raise PyTorch's out-of-bounds error; negative indices count from the end only with ``wrap``."""
    if idx.size:
        low = -size if wrap else 0
        bad = idx[(idx >= size) | (idx < low)]
        if bad.size:
            raise err(f"{prefix}index {int(bad.flat[0])} is out of bounds for dimension {dim} with size {size}")
    return np.where(idx < 0, idx + size, idx) if wrap else idx


def _dim_index(d, idx):
    return (_FULL,) * d + (idx,)


_index_select = Op("IndexSelectBackward0", lambda ctx, a, dim, idx: np.take(a, idx, axis=dim) if a.ndim else a[idx])


@_index_select.derivative
def _(ctx, grad):
    shape = ctx.input_shape
    if not len(shape):
        return grad.sum()
    return embed(grad, shape, _dim_index(ctx.dim, ctx.idx), accumulate=True)


@export(method=True)
def index_select(input, dim, index, *, out=None):
    _check_vector_index(index, "index_select")
    if index.dtype not in (dtypes.int64, dtypes.int32):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    d = _wrap_dim(dim, input.ndim)
    idx = _index_array(index).reshape(-1)
    size = input._data.shape[d] if input.ndim else 1
    bad = idx[(idx < 0) | (idx >= size)]
    if bad.size:
        if d == 1:
            raise RuntimeError(f"INDICES element is out of DATA bounds, id={int(bad[0])} axis_dim={size}")
        raise IndexError("index out of range in self")
    if input.ndim == 0:
        if idx.size != 1:
            raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got {idx.size} value(s)")
        idx = idx.reshape(index._data.shape)
    return finish_out("index_select", _index_select.apply((input,), (input._data,), {"dim": d, "idx": idx}), out)


def _index_add_fwd(ctx, a, src, dim, idx, alpha):
    out = a.copy()
    np.add.at(out, _dim_index(dim, idx), src * alpha if alpha != 1 else src)
    return out


_index_add = Op("IndexAddBackward0", _index_add_fwd, inputs=("self", "source"))


@_index_add.derivative
def _(ctx, grad):
    src_shape = ctx._input_meta[1][0] if ctx._input_meta[1] else None
    g_src = None
    if src_shape is not None:
        g_src = index_select(grad, ctx.dim, Tensor._make(ctx.idx)).reshape(src_shape)
        if ctx.alpha != 1:
            g_src = g_src * ctx.alpha
    return grad, g_src


def _index_source_check(input, d, idx, source, who):
    n = idx.size
    src_n = source._data.shape[d] if source.ndim else 1
    if n != src_n:
        if who == "index_add":
            raise RuntimeError(
                f"index_add_(): Number of indices ({n}) should be equal to source.size(dim): ({src_n}), for dim: {d}")
        raise IndexError(f"index_copy_(): Number of indices ({n}) should be equal to source.size(dim) ({src_n})")
    if source.dtype is not input.dtype:
        if who == "index_add":
            raise RuntimeError(
                f"index_add_(): self ({_scalar_name(input.dtype)}) and source ({_scalar_name(source.dtype)}) "
                "must have the same scalar type")
        raise RuntimeError(
            f"index_copy_(): self and source expected to have the same dtype, but got (self) "
            f"{_scalar_name(input.dtype)} and (source) {_scalar_name(source.dtype)}")


@export(method=True)
def index_add(input, dim, index, source, *, alpha=1, out=None):
    _check_vector_index(index, "index_add")
    d = _wrap_dim(dim, input.ndim)
    idx = _index_array(index).reshape(-1)
    _index_source_check(input, d, idx, source, "index_add")
    idx = _check_bounds(idx, input._data.shape[d], d)
    src = source._data.reshape(_src_shape(input, d, idx))
    result = _index_add.apply((input, source), (input._data, src), {"dim": d, "idx": idx, "alpha": alpha})
    return finish_out("index_add", result, out)


def _src_shape(input, d, idx):
    shape = list(input._data.shape)
    shape[d] = idx.size
    return shape


def _index_fill_fwd(ctx, a, *value, dim, idx, fill=None):
    out = a.copy()
    out[_dim_index(dim, idx) if a.ndim else ()] = value[0] if value else fill
    return out


_index_fill0 = Op("IndexFillBackward0", _index_fill_fwd)
_index_fill1 = Op("IndexFillBackward1", _index_fill_fwd, inputs=("self", "value"))


@_index_fill0.derivative
def _(ctx, grad):
    return index_fill(grad, ctx.dim, Tensor._make(ctx.idx), 0)


@_index_fill1.derivative
def _(ctx, grad):
    g_value = None
    if ctx._input_meta[1] is not None:
        g_value = index_select(grad, ctx.dim, Tensor._make(np.unique(ctx.idx))).sum()
    return index_fill(grad, ctx.dim, Tensor._make(ctx.idx), 0), g_value


@export(method=True)
def index_fill(input, dim, index, value):
    _check_vector_index(index, "index_fill")
    d = _wrap_dim(dim, input.ndim)
    idx = _index_array(index).reshape(-1)
    idx = _check_bounds(idx, input._data.shape[d] if input.ndim else 1, d, IndexError, wrap=True)
    if not input.ndim:
        idx = idx[:1]
    if isinstance(value, Tensor):
        if value.ndim:
            raise RuntimeError(
                "index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                f"{value.ndim} dimension(s).")
        return _index_fill1.apply((input, value), (input._data, value._data.astype(input._data.dtype)),
                                  {"dim": d, "idx": idx})
    return _index_fill0.apply((input,), (input._data,), {"dim": d, "idx": idx, "fill": value})


def _index_copy_fwd(ctx, a, src, dim, idx):
    out = a.copy()
    out[_dim_index(dim, idx)] = src
    return out


_index_copy = Op("IndexCopyBackward0", _index_copy_fwd, inputs=("self", "source"))


@_index_copy.derivative
def _(ctx, grad):
    idx = Tensor._make(ctx.idx)
    g_src = None
    if ctx._input_meta[1] is not None:
        g_src = index_select(grad, ctx.dim, idx).reshape(ctx._input_meta[1][0])
    return index_fill(grad, ctx.dim, idx, 0), g_src


@export(method=True)
def index_copy(input, dim, index, source):
    _check_vector_index(index, "index_copy")
    d = _wrap_dim(dim, input.ndim)
    idx = _index_array(index).reshape(-1)
    _index_source_check(input, d, idx, source, "index_copy")
    idx = _check_bounds(idx, input._data.shape[d], d, IndexError, prefix="index_copy_(): ")
    return _index_copy.apply((input, source), (input._data, source._data.reshape(_src_shape(input, d, idx))),
                             {"dim": d, "idx": idx})


# gather / scatter / scatter_add ---------------------------------------------------------------------

def _along(idx, dim):
    """Fancy-index tuple that puts index array ``idx`` along ``dim`` (the other dims by position)."""
    out = []
    for d in range(idx.ndim):
        if d == dim:
            out.append(idx)
        else:
            shape = [1] * idx.ndim
            shape[d] = idx.shape[d]
            out.append(np.arange(idx.shape[d]).reshape(shape))
    return tuple(out)


def _gather_fwd(ctx, a, dim, idx, shape):
    return a.reshape(-1)[idx.reshape(-1)].reshape(shape) if a.ndim == 0 or idx.ndim == 0 else a[_along(idx, dim)]


_gather = Op("GatherBackward0", _gather_fwd)


@_gather.derivative
def _(ctx, grad):
    # gather_backward: zeros(self).scatter_add(dim, index, grad)
    shape = tuple(ctx.input_shape)
    if not len(shape) or ctx.idx.ndim == 0:  # 0-d self or index: work on 1-d views
        base = grad.new_zeros((max(math.prod(shape), 1),))
        flat = scatter_add(base, 0, Tensor._make(ctx.idx.reshape(-1)), grad.reshape(-1))
        return flat.reshape(shape)
    return scatter_add(grad.new_zeros(shape), ctx.dim, Tensor._make(ctx.idx), grad)


def _check_index_dtype(index, who):
    if index.dtype not in (dtypes.int64, dtypes.int32):
        raise RuntimeError(f"{who}(): Expected dtype int64 for index")


def _check_gather_shape(input, d, index, who, src=None):
    if index.ndim != input.ndim and not (index.ndim <= 1 and input.ndim <= 1):
        name = "input" if who == "gather" else "self"
        raise RuntimeError(f"Index tensor must have the same number of dimensions as {name} tensor")
    if src is not None and index.ndim != src.ndim and not (index.ndim <= 1 and src.ndim <= 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    if input.ndim == 0 or index.ndim == 0:
        return
    ishape, sshape = index._data.shape, input._data.shape
    for k in range(input.ndim):
        if k != d and ishape[k] > sshape[k]:
            if who == "gather":
                raise RuntimeError(
                    f"Size does not match at dimension {k} expected index {_fmt(ishape)} to be no larger than "
                    f"self {_fmt(sshape)} apart from dimension {d}")
            break
    else:
        k = None
    if who != "gather":
        bad = k is not None
        if src is not None:
            bad = bad or any(ishape[j] > src._data.shape[j] for j in range(index.ndim))
        if bad:
            msg = f"Expected index {_fmt(ishape)} to be no larger than self {_fmt(sshape)} apart from dimension {d}"
            if src is not None:
                msg += f" and to be no larger size than src {_fmt(src._data.shape)}"
            raise RuntimeError(msg)


@export(method=True)
def gather(input, dim, index, *, sparse_grad=False, out=None):
    _check_index_dtype(index, "gather")
    d = _wrap_dim(dim, input.ndim)
    _check_gather_shape(input, d, index, "gather")
    idx = _index_array(index)
    size = input._data.shape[d] if input.ndim else 1
    idx = _check_bounds(idx, size, d)
    result = _gather.apply((input,), (input._data,), {"dim": d, "idx": idx, "shape": idx.shape})
    return finish_out("gather", result, out)


def _scatter_fwd(ctx, a, *src, dim, idx, value=None, reduce=None):
    out = a.copy()
    if a.ndim == 0:
        if idx.size:
            out[()] = src[0].reshape(-1)[0] if src else value
        return out
    where = _along(idx, dim)
    if src:
        vals = src[0][tuple(slice(0, n) for n in idx.shape)] if src[0].ndim else np.broadcast_to(src[0], idx.shape)
    else:
        vals = np.broadcast_to(np.asarray(value, a.dtype), idx.shape)
    if reduce == "add":
        np.add.at(out, where, vals)
    elif reduce == "multiply":
        np.multiply.at(out, where, vals)
    else:
        out[where] = vals
    return out


def _scatter_add_fwd(ctx, a, src, dim, idx):
    return _scatter_fwd(ctx, a, src, dim=dim, idx=idx, reduce="add")


_scatter0 = Op("ScatterBackward0", _scatter_fwd, inputs=("self", "src"))
_scatter1 = Op("ScatterBackward1", _scatter_fwd)
_scatter_add = Op("ScatterAddBackward0", _scatter_add_fwd, inputs=("self", "src"))
_scatter_reduce = Op("NotImplemented", _scatter_fwd, inputs=("self", "src"))
_scatter_reduce.node._name = "torch::autograd::NotImplemented"


def _gathered(grad, ctx):
    return gather(grad, ctx.dim, Tensor._make(ctx.idx))


def _src_grad(grad, ctx):
    """grad.gather(dim, index) shaped as src (PyTorch requires src's shape to be index's)."""
    if ctx._input_meta[1] is None:
        return None
    g = _gathered(grad, ctx)
    src_shape = tuple(ctx._input_meta[1][0])
    if tuple(g.shape) != src_shape:
        raise RuntimeError(
            f"Function {ctx.name()} returned an invalid gradient at index 1 - got {_fmt(g.shape)} but expected "
            f"shape compatible with {_fmt(src_shape)}")
    return g


@_scatter0.derivative
def _(ctx, grad):
    return scatter(grad, ctx.dim, Tensor._make(ctx.idx), 0), _src_grad(grad, ctx)


@_scatter1.derivative
def _(ctx, grad):
    return scatter(grad, ctx.dim, Tensor._make(ctx.idx), 0)


@_scatter_add.derivative
def _(ctx, grad):
    return grad, _src_grad(grad, ctx)


@_scatter_reduce.derivative
def _(ctx, grad):
    raise RuntimeError("derivative for aten::scatter is not implemented")


def _scatter_prepare(input, dim, index, src, who):
    _check_index_dtype(index, "scatter" if who != "scatter_add" else "scatter_add")
    d = _wrap_dim(dim, input.ndim)
    _check_gather_shape(input, d, index, who, src if isinstance(src, Tensor) else None)
    if isinstance(src, Tensor) and src.dtype is not input.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    idx = _index_array(index)
    idx = _check_bounds(idx, input._data.shape[d] if input.ndim else 1, d)
    if input.ndim and idx.ndim == 0:
        idx = idx.reshape((1,) * input.ndim)
    return d, idx


@export(method=True)
def scatter(input, dim, index, src=None, *, value=None, reduce=None, out=None):
    if src is None:
        src = value
    d, idx = _scatter_prepare(input, dim, index, src, "scatter")
    if reduce is not None and reduce not in ("add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    if isinstance(src, Tensor):
        if reduce is not None:
            warnings.warn(
                "The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a future "
                "PyTorch release. Use torch.scatter_reduce instead for more reduction options.", UserWarning,
                stacklevel=2)
            op = _scatter_reduce
        else:
            op = _scatter0
        result = op.apply((input, src), (input._data, src._data), {"dim": d, "idx": idx, "reduce": reduce})
    else:
        op = _scatter1 if reduce is None else _scatter_reduce
        result = op.apply((input,), (input._data,), {"dim": d, "idx": idx, "value": src, "reduce": reduce})
    return finish_out("scatter", result, out)


@export(method=True)
def scatter_add(input, dim, index, src, *, out=None):
    d, idx = _scatter_prepare(input, dim, index, src, "scatter_add")
    result = _scatter_add.apply((input, src), (input._data, src._data), {"dim": d, "idx": idx})
    return finish_out("scatter_add", result, out)


method("scatter_")(inplace(scatter))
method("scatter_add_")(inplace(scatter_add))
method("index_add_")(inplace(index_add))
method("index_fill_")(inplace(index_fill))
method("index_copy_")(inplace(index_copy))


# masked_select / masked_scatter / take / take_along_dim ---------------------------------------------------

def _check_mask(mask, who):
    if mask.dtype is not dtypes.bool_:
        if who == "masked_select":
            raise RuntimeError("masked_select: expected BoolTensor for mask")
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype "
                           f"{_scalar_name(mask.dtype)}")


def _masked_select_fwd(ctx, a, mask):
    shape = np.broadcast_shapes(a.shape, mask.shape)
    ctx.shape = shape
    ctx.where = np.nonzero(np.broadcast_to(mask, shape))
    return np.broadcast_to(a, shape)[ctx.where]


_masked_select = Op("MaskedSelectBackward0", _masked_select_fwd)


@_masked_select.derivative
def _(ctx, grad):
    # masked_select_backward: zeros of the broadcast shape with grad where the mask is set
    return embed(grad, ctx.shape, ctx.where)


def _broadcast_or_raise(a, b):
    from .pointwise import _mismatch_message
    try:
        return np.broadcast_shapes(a, b)
    except ValueError:
        raise RuntimeError(_mismatch_message(a, b)) from None


@export(method=True)
def masked_select(input, mask, *, out=None):
    _check_mask(mask, "masked_select")
    _broadcast_or_raise(mask._data.shape, input._data.shape)
    return finish_out("masked_select", _masked_select.apply((input,), (input._data,), {"mask": mask._data}), out)


def _masked_scatter_fwd(ctx, a, src, mask):
    shape = np.broadcast_shapes(a.shape, mask.shape)
    out = np.broadcast_to(a, shape).copy()
    m = np.broadcast_to(mask, shape)
    n = int(m.sum())
    out[m] = src.reshape(-1)[:n]
    return out


_masked_scatter = Op("MaskedScatterBackward0", _masked_scatter_fwd, inputs=("self", "source"))


@_masked_scatter.derivative
def _(ctx, grad):
    from .pointwise import where
    mask = _bool_tensor(np.broadcast_to(ctx.mask, grad.shape))
    g_self = where(mask, 0.0, grad)
    g_src = None
    if ctx._input_meta[1] is not None:
        src_shape = tuple(ctx._input_meta[1][0])
        picked = masked_select(grad, mask)
        extra = math.prod(src_shape) - picked.numel()
        if extra > 0:
            picked = cat([picked, picked.new_zeros(extra)])
        g_src = picked.reshape(src_shape)
    return g_self, g_src


@export(method=True)
def masked_scatter(input, mask, source):
    _check_mask(mask, "masked_scatter")
    if source.dtype is not input.dtype:
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but got"
                           f"{_scalar_name(input.dtype)} and {_scalar_name(source.dtype)}")
    shape = _broadcast_or_raise(input._data.shape, mask._data.shape)
    if int(np.broadcast_to(mask._data, shape).sum()) > source.numel():
        raise RuntimeError("Number of elements of source < number of ones in mask")
    return _masked_scatter.apply((input, source), (input._data, source._data), {"mask": mask._data})


@method("masked_scatter_")
def masked_scatter_(input, mask, source):
    _check_mask(mask, "masked_scatter")
    shape = _broadcast_or_raise(input._data.shape, mask._data.shape)
    if shape != input._data.shape:
        raise RuntimeError("masked_scatter_: expected mask to be broadcastable to self")
    return inplace(masked_scatter)(input, mask, source)


_take = Op("TakeBackward0", lambda ctx, a, idx: a.reshape(-1)[idx])


@_take.derivative
def _(ctx, grad):
    shape = ctx.input_shape
    flat = embed(grad, (math.prod(shape),), (ctx.idx,), accumulate=True)
    return flat.reshape(shape)


@export(method=True)
def take(input, index):
    if index.dtype is not dtypes.int64:
        raise RuntimeError(f"take(): Expected a long tensor for index, but got {_scalar_name(index.dtype)}")
    n = input.numel()
    idx = _index_array(index)
    bad = idx[(idx >= n) | (idx < -n)]
    if bad.size:
        raise IndexError(f"out of range: tried to access index {int(bad.flat[0])} on a tensor of {n} elements.")
    idx = np.where(idx < 0, idx + n, idx)
    return _take.apply((input,), (input._data,), {"idx": idx})


@export(method=True)
def take_along_dim(input, indices, dim=None, *, out=None):
    if dim is None:
        return finish_out("take_along_dim", gather(input.view(-1), 0, indices.view(-1)), out)
    if input.ndim != indices.ndim:
        raise RuntimeError(
            "torch.take_along_dim(): input and indices should have the same number of dimensions, but got "
            f"{input.ndim} dimensions for input, and {indices.ndim} dimensions for indices")
    if indices.dtype is not dtypes.int64:
        raise RuntimeError(
            f"torch.take_along_dim(): dtype of indices should be Long but got {_scalar_name(indices.dtype)}")
    d = _wrap_dim(dim, input.ndim)
    self_sizes = list(input._data.shape)
    self_sizes[d] = indices._data.shape[d]
    ishape = _broadcast_or_raise(tuple(self_sizes), indices._data.shape)
    idx_sizes = list(indices._data.shape)
    idx_sizes[d] = input._data.shape[d]
    sshape = _broadcast_or_raise(tuple(idx_sizes), input._data.shape)
    return finish_out("take_along_dim", gather(input.expand(sshape), d, indices.expand(ishape)), out)


# sort / topk / argsort -------------------------------------------------------------------------------------
# PyTorch's CPU topk runs libstdc++'s nth_element / sort / partial_sort on (value, index)
# pairs; how they order tied values is part of the result, so they are reproduced here.

def _lg(n):
    return n.bit_length() - 1


def _insertion_sort(v, first, last, comp):
    if first == last:
        return
    for i in range(first + 1, last):
        if comp(v[i], v[first]):
            val = v[i]
            v[first + 1:i + 1] = v[first:i]
            v[first] = val
        else:
            _unguarded_linear_insert(v, i, comp)


def _unguarded_linear_insert(v, last, comp):
    val = v[last]
    nxt = last - 1
    while comp(val, v[nxt]):
        v[last] = v[nxt]
        last = nxt
        nxt -= 1
    v[last] = val


def _move_median_to_first(v, result, a, b, c, comp):
    if comp(v[a], v[b]):
        if comp(v[b], v[c]):
            pick = b
        elif comp(v[a], v[c]):
            pick = c
        else:
            pick = a
    elif comp(v[a], v[c]):
        pick = a
    elif comp(v[b], v[c]):
        pick = c
    else:
        pick = b
    v[result], v[pick] = v[pick], v[result]


def _unguarded_partition(v, first, last, pivot, comp):
    while True:
        while comp(v[first], v[pivot]):
            first += 1
        last -= 1
        while comp(v[pivot], v[last]):
            last -= 1
        if not first < last:
            return first
        v[first], v[last] = v[last], v[first]
        first += 1


def _partition_pivot(v, first, last, comp):
    mid = first + (last - first) // 2
    _move_median_to_first(v, first, first + 1, mid, last - 1, comp)
    return _unguarded_partition(v, first + 1, last, first, comp)


def _adjust_heap(v, first, hole, length, value, comp):
    top = second = hole
    while second < (length - 1) // 2:
        second = 2 * (second + 1)
        if comp(v[first + second], v[first + second - 1]):
            second -= 1
        v[first + hole] = v[first + second]
        hole = second
    if length % 2 == 0 and second == (length - 2) // 2:
        second = 2 * (second + 1)
        v[first + hole] = v[first + second - 1]
        hole = second - 1
    parent = (hole - 1) // 2
    while hole > top and comp(v[first + parent], value):
        v[first + hole] = v[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    v[first + hole] = value


def _heap_select(v, first, middle, last, comp):
    length = middle - first
    if length >= 2:
        parent = (length - 2) // 2
        while True:
            _adjust_heap(v, first, parent, length, v[first + parent], comp)
            if parent == 0:
                break
            parent -= 1
    for i in range(middle, last):
        if comp(v[i], v[first]):
            value = v[i]
            v[i] = v[first]
            _adjust_heap(v, first, 0, length, value, comp)


def _partial_sort(v, first, middle, last, comp):
    _heap_select(v, first, middle, last, comp)
    while middle - first > 1:
        middle -= 1
        value = v[middle]
        v[middle] = v[first]
        _adjust_heap(v, first, 0, middle - first, value, comp)


def _std_sort(v, first, last, comp):
    if last - first < 2:
        return

    def loop(first, last, depth):
        while last - first > 16:
            if depth == 0:
                _partial_sort(v, first, last, last, comp)
                return
            depth -= 1
            cut = _partition_pivot(v, first, last, comp)
            loop(cut, last, depth)
            last = cut

    loop(first, last, _lg(last - first) * 2)
    if last - first > 16:
        _insertion_sort(v, first, first + 16, comp)
        for i in range(first + 16, last):
            _unguarded_linear_insert(v, i, comp)
    else:
        _insertion_sort(v, first, last, comp)


def _nth_element(v, first, nth, last, comp):
    if first == last or nth == last:
        return
    depth = _lg(last - first) * 2
    while last - first > 3:
        if depth == 0:
            _heap_select(v, first, nth + 1, last, comp)
            v[first], v[nth] = v[nth], v[first]
            return
        depth -= 1
        cut = _partition_pivot(v, first, last, comp)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(v, first, last, comp)


def _greater(x, y):
    return (x[0] != x[0] and y[0] == y[0]) or x[0] > y[0]


def _less(x, y):
    return (x[0] == x[0] and y[0] != y[0]) or x[0] < y[0]


def _topk_row(row, k, largest, is_sorted):
    """Indices of the top ``k`` of a 1-D array, in the order PyTorch's CPU kernel gives them."""
    n = row.size
    if k == 0:
        return np.zeros(0, np.int64)
    v = [(x, j) for j, x in enumerate(row.tolist())]
    comp = _greater if largest else _less
    if k * 64 <= n:
        _partial_sort(v, 0, k, n, comp)
    else:
        _nth_element(v, 0, k - 1, n, comp)
        if is_sorted:
            _std_sort(v, 0, k - 1, comp)
    return np.array([j for _, j in v[:k]], np.int64)


def _stable_argsort(a, descending=False, axis=-1):
    """Stable argsort with NaN as the largest value (PyTorch's order)."""
    if a.dtype == np.bool_:
        a = a.astype(np.int8)
    if not descending:
        return np.argsort(a, axis=axis, kind="stable")
    rev = np.flip(a, axis)
    n = a.shape[axis]
    return np.flip(n - 1 - np.argsort(rev, axis=axis, kind="stable"), axis)


def _sort_fwd(ctx, a, dim, descending):
    if a.ndim == 0:
        ctx.indices = np.zeros((), np.int64)
        return a.copy(), ctx.indices
    idx = _stable_argsort(a, descending, dim).astype(np.int64)
    ctx.indices = idx
    return np.take_along_axis(a, idx, axis=dim), idx


def _select_back(ctx, grad):
    # value_selecting_reduction_backward: each value's gradient goes back to where it came from
    if not len(ctx.input_shape):
        return grad
    return scatter_into(grad, ctx.input_shape, ctx.indices, ctx.dim)


_sort = Op("SortBackward0", _sort_fwd, outputs=1)
_sort.derivative(_select_back)
_sort_stable = Op("SortBackward1", _sort_fwd, outputs=1)  # sort(*, stable, dim, descending)
_sort_stable.derivative(_select_back)
_UNSET = object()


@export(method=True)
def sort(input, dim=-1, descending=False, stable=_UNSET, *, out=None):
    """Sorted values and indices; ties keep their order (PyTorch's CPU sort is stable on them)."""
    d = _wrap_dim(dim, input.ndim)
    op = _sort if stable is _UNSET else _sort_stable
    values, indices = op.apply((input,), (input._data,), {"dim": d, "descending": bool(descending)})
    return SortResult(values, indices)


@export(method=True)
def argsort(input, dim=-1, descending=False, stable=False):
    d = _wrap_dim(dim, input.ndim)
    if input.ndim == 0:
        return Tensor._make(np.zeros((), np.int64))
    return Tensor._make(_stable_argsort(input._data, bool(descending), d).astype(np.int64))


@export(method=True)
def msort(input):
    return sort(input, 0).values


def _topk_fwd(ctx, a, k, dim, largest, is_sorted):
    if a.ndim == 0:
        ctx.indices = np.zeros((), np.int64)
        return a.copy(), ctx.indices
    moved = np.moveaxis(a, dim, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    idx = np.zeros((rows.shape[0], k), np.int64)
    if k:
        # rows without ties have one answer when sorted: take it from a stable argsort at once
        fast = np.zeros(rows.shape[0], bool)
        if is_sorted and rows.shape[1]:
            srt = np.sort(rows.astype(np.int8) if rows.dtype == np.bool_ else rows, axis=-1)
            same = srt[:, 1:] == srt[:, :-1]
            if srt.dtype.kind == "f":
                same |= np.isnan(srt[:, 1:]) & np.isnan(srt[:, :-1])
            fast = ~same.any(-1)
            idx[fast] = _stable_argsort(rows[fast], descending=largest)[:, :k]
        for r in np.flatnonzero(~fast):
            idx[r] = _topk_row(rows[r], k, largest, is_sorted)
    idx = np.moveaxis(idx.reshape(moved.shape[:-1] + (k,)), -1, dim)
    ctx.indices = idx
    return np.take_along_axis(a, idx, axis=dim), idx


_topk = Op("TopkBackward0", _topk_fwd, outputs=1)
_topk.derivative(_select_back)


@export(method=True)
def topk(input, k, dim=-1, largest=True, sorted=True, *, out=None):
    d = _wrap_dim(dim, input.ndim)
    size = input._data.shape[d] if input.ndim else 1
    if k < 0 or k > size:
        raise RuntimeError("selected index k out of range")
    values, indices = _topk.apply((input,), (input._data,),
                                  {"k": int(k), "dim": d, "largest": bool(largest), "is_sorted": bool(sorted)})
    return TopkResult(values, indices)


# nonzero / unique (no gradient) --------------------------------------------------------------------------

@export(method=True)
def nonzero(input, *, out=None, as_tuple=False):
    a = input._data
    if as_tuple:
        if a.ndim == 0:
            return (Tensor._make(np.nonzero(np.atleast_1d(a))[0].astype(np.int64)),)
        return tuple(Tensor._make(i.astype(np.int64)) for i in np.nonzero(a))
    if a.ndim == 0:
        return Tensor._make(np.zeros((1 if a else 0, 0), np.int64))
    return finish_out("nonzero", Tensor._make(np.argwhere(a).astype(np.int64)), out)


@export(method=True)
def argwhere(input):
    return nonzero(input)


def _no_derivative(name):
    def formula(ctx, grad):
        raise NotImplementedError(f"the derivative for '{name}' is not implemented.")

    return formula


def _unique_fwd(ctx, a, result):
    return result


_unique2 = Op("Unique2Backward0", _unique_fwd, outputs=1)
_unique2.derivative(_no_derivative("_unique2"))
_unique_dim = Op("UniqueDimBackward0", _unique_fwd, outputs=1)
_unique_dim.derivative(_no_derivative("unique_dim"))


@export(method=True)
def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    a = input._data
    if dim is None:
        values, inverse, counts = np.unique(a.reshape(-1), return_inverse=True, return_counts=True)
        inverse = inverse.reshape(a.shape)
        op = _unique2
    else:
        d = _wrap_dim(dim, input.ndim)
        values, inverse, counts = np.unique(a, return_inverse=True, return_counts=True, axis=d)
        inverse = inverse.reshape(-1)
        op = _unique_dim
    out = op.apply((input,), (input._data,), {"result": values})
    outs = [out]
    if return_inverse:
        outs.append(Tensor._make(inverse.astype(np.int64)))
    if return_counts:
        outs.append(Tensor._make(counts.astype(np.int64)))
    return outs[0] if len(outs) == 1 else tuple(outs)


# meshgrid / atleast_nd / column_stack / dstack ------------------------------------------------------------

def _tensor_list(tensors):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        return list(tensors[0]), True
    return list(tensors), len(tensors) != 1


@export()
def meshgrid(*tensors, indexing=None):
    tensors, _ = _tensor_list(tensors)
    if indexing is None:
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
                      UserWarning, stacklevel=2)
        indexing = "ij"
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors[1:]:
        if t.dtype is not tensors[0].dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    for t in tensors:
        if t.ndim > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t}")
    shape = [t.numel() for t in tensors]
    swap = indexing == "xy" and len(tensors) >= 2
    if swap:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, t in enumerate(tensors):
        pos = (1 - i if i < 2 else i) if swap else i
        view_shape = [1] * len(tensors)
        view_shape[pos] = -1
        out.append(t.view(view_shape).expand(shape))
    return tuple(out)


def _atleast(tensors, fn):
    items, many = _tensor_list(tensors)
    out = tuple(fn(t) for t in items)
    return out if many else out[0]


@export(method=False)
def atleast_1d(*tensors):
    return _atleast(tensors, lambda t: reshape(t, 1) if t.ndim == 0 else t)


@export()
def atleast_2d(*tensors):
    def fn(t):
        if t.ndim == 0:
            return reshape(t, (1, 1))
        if t.ndim == 1:
            return t.unsqueeze(0)
        return t

    return _atleast(tensors, fn)


@export()
def atleast_3d(*tensors):
    def fn(t):
        if t.ndim == 0:
            return reshape(t, (1, 1, 1))
        if t.ndim == 1:
            return t.unsqueeze(0).unsqueeze(-1)
        if t.ndim == 2:
            return t.unsqueeze(-1)
        return t

    return _atleast(tensors, fn)


@export()
def column_stack(tensors, *, out=None):
    if isinstance(tensors, Tensor):
        raise TypeError("column_stack(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor")
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("column_stack expects a non-empty TensorList")
    cols = [reshape(t, (t.numel(), 1)) if t.ndim <= 1 else t for t in tensors]
    return finish_out("column_stack", cat(cols, 1), out)


@export()
def dstack(tensors, *, out=None):
    if isinstance(tensors, Tensor):
        raise TypeError("dstack(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor")
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("dstack expects a non-empty TensorList")
    return finish_out("dstack", cat(list(atleast_3d(tensors)), 2), out)


@export("row_stack", "vstack")
def row_stack(tensors, *, out=None):
    """vstack: atleast_2d, then cat along dim 0."""
    if isinstance(tensors, Tensor):
        raise TypeError("row_stack(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor")
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("vstack expects a non-empty TensorList")
    return finish_out("row_stack", cat(list(atleast_2d(tensors)), 0), out)
