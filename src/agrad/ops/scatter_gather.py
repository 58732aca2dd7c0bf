"""Indexing by index tensors and masks: index_select, index_add/fill/copy, gather,
scatter/scatter_add (masked_select/masked_scatter, take, take_along_dim: ``masked.py``; nonzero:
``nonzero``).

(``x[...]`` and ``x[...] = v`` are in ``indexing.py``.)  Each op sits with its
PyTorch node name and backward formula (derivatives.yaml / FunctionsManual.cpp);
formulas use agrad tensor ops only, so they are differentiable again.
"""

from __future__ import annotations

import functools

import numpy as np

from .._warn_once import warn_once
from .. import dtypes
from .._limits import check_shape
from ..autograd.grad_mode import _state as _grad_state
from ..autograd.graph import should_compute_output
from ..tensor import Tensor, _scalar_name, _wrap_dim, _wrap_dim_no_scalar
from . import _scatter_overlap, _written_before
from ._layout import c_order, overlaps
from ._op import Op, export, finish_out, inplace, keep_tensor, method, with_out
from .indexing import _FULL, embed


# helpers -------------------------------------------------------------------------------

def _index_array(index):
    """An index tensor's data as an int64 array (after the caller's dtype check)."""
    return index._data.astype(np.int64, copy=False)


def _is_int(t):
    return t.dtype in (dtypes.int64, dtypes.int32, dtypes.int16, dtypes.int8, dtypes.uint8)


def _as_views(outs, input):
    """Mark ``outs``, the outputs of one multi-view op (split, chunk), as views of ``input``."""
    for o in outs:
        o._make_view_of(input, multi=True)
    return outs


def _fmt(shape):
    return "[" + ", ".join(str(s) for s in shape) + "]"


def _bool_tensor(array):
    return Tensor._make(np.asarray(array, bool))


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


_index_select = Op("IndexSelectBackward0", lambda ctx, a, dim, idx: np.take(a, idx, axis=dim) if a.ndim else a.copy(),
                   jvp="linear", keeps={"idx": "index"})


@_index_select.derivative
def _(ctx, grad):
    shape = ctx.input_shape
    if grad._requires_grad and _grad_state["enabled"]:  # recorded, 0-d too: zeros(shape).index_add_(dim, index, grad)
        zeros = np.zeros(shape, grad._data.dtype)
        return _index_add.apply((Tensor._make(zeros), grad), (zeros, grad._data),
                                {"dim": ctx.dim, "idx": ctx.idx, "alpha": 1})
    if not len(shape):
        return grad.sum()
    return embed(grad, shape, _dim_index(ctx.dim, ctx.idx), accumulate=True)


@export(method=True)
def index_select(input, dim, index, *, out=None):
    d = _wrap_dim(dim, input.ndim)  # PyTorch wraps the dim first
    _check_vector_index(index, "index_select")
    if index.dtype not in (dtypes.int64, dtypes.int32):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    idx = _index_array(index).reshape(-1)
    size = input._data.shape[d] if input.ndim else 1
    if input.ndim == 0 and idx.size != 1:  # (before the bounds): the one index must be 0, a copy of the input
        raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got {idx.size} value(s)")
    if input.ndim > 1 and idx.size and input._data.size == 0 and size == 0:  # (ATen's empty-self check)
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    bad = idx[(idx < 0) | (idx >= size)]
    if bad.size:
        if d == 1 or input.ndim > 1 and input._data.size == 0:  # (check_indexarray_range: dim 1, or an empty self)
            raise RuntimeError(f"INDICES element is out of DATA bounds, id={int(bad[0])} axis_dim={size}")
        raise IndexError("index out of range in self")
    if input.ndim:
        check_shape(input._data.shape[:d] + (idx.size,) + input._data.shape[d + 1:])
    return finish_out("index_select", keep_tensor(_index_select.apply((input,), (input._data,), {"dim": d, "idx": idx}),
                                                  _index_select, "index", index), out, inputs=(input, index))


def _index_add_fwd(ctx, a, src, dim, idx, alpha):
    out = a.copy()
    if not out.size:  # (more than one dim: an index past an empty self is not read)
        return out
    if alpha != 1:  # the integer kernels take alpha as an integer (index_add_cpu_: alpha.to<scalar_t>())
        src = src * (alpha if a.dtype.kind in "fc" else np.asarray(alpha).astype(a.dtype))
    np.add.at(out.reshape(out.shape or (1,)), _dim_index(dim, idx), src.reshape(src.shape or (1,)))
    return out


# source is saved for its own gradient's expand_as(source) (its version is checked)
_index_add = Op("IndexAddBackward0", _index_add_fwd, inputs=("self", "source"), jvp="linear",
                saves=("source",), saves_for={"source": (1,)}, keeps={"idx": "index"}, keeps_for={"idx": (1,)})


@_index_add.derivative
def _(ctx, grad):
    src_shape = ctx._input_meta[1][0] if ctx._input_meta[1] else None
    g_src = None
    if src_shape is not None:
        g_src = _source_grad(grad, ctx.dim, ctx.idx, src_shape)
        if ctx.alpha != 1:
            g_src = g_src * ctx.alpha
    return grad, g_src


def _index_copy_check(input, d, index, source):
    """index_copy's meta checks (TensorAdvancedIndexing.cpp), in its order."""
    n = index.numel()
    if source.ndim == 0 and n != 1:
        raise IndexError(f"index_copy_(): When source is scalar, index should have one element (got {n})")
    if source.ndim != input.ndim and source.ndim and input.ndim:
        raise IndexError(
            "index_copy_(): When source and destination are not scalars, their dimensionality must match. Source "
            f"dimensionality ({source.ndim}), destination dimensionality ({input.ndim})")
    if index.dtype is not dtypes.int64:
        raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got {_scalar_name(index.dtype)}")
    if source.dtype is not input.dtype:
        raise RuntimeError(
            f"index_copy_(): self and source expected to have the same dtype, but got (self) "
            f"{_scalar_name(input.dtype)} and (source) {_scalar_name(source.dtype)}")
    mine = [n_ for k, n_ in enumerate(input.shape) if k != d]
    theirs = [n_ for k, n_ in enumerate(source.shape) if k != d]
    if mine != theirs:
        raise RuntimeError(
            "index_copy_(): Source/destination tensor must have same slice shapes. Destination slice shape: "
            f"{' '.join(map(str, mine))} at dimension {d} and source slice shape: {' '.join(map(str, theirs))} at "
            "dimension 0.")
    src_n = source._data.shape[d] if source.ndim else 1
    if source.ndim and n != src_n:
        raise IndexError(f"index_copy_(): Number of indices ({n}) should be equal to source.size(dim) ({src_n})")


def _index_add_checks(input, d, index, source):
    """index_func_meta_impl's checks (TensorAdvancedIndexing.cpp), in its order."""
    if index.dtype not in (dtypes.int64, dtypes.int32):
        raise RuntimeError(f"index_add_(): Expected dtype int32/int64 for index but got: {_scalar_name(index.dtype)}")
    if source.dtype is not input.dtype:
        raise RuntimeError(f"index_add_(): self ({_scalar_name(input.dtype)}) and source "
                           f"({_scalar_name(source.dtype)}) must have the same scalar type")
    if d != 0 and d >= source.ndim:
        raise RuntimeError(f"index_add_(): Indexing dim {d} is out of bounds of the source tensor with dim {source.ndim}")
    n = index._data.size
    if n != (source._data.shape[d] if source.ndim else 1):
        # (the message reads source.size(dim), which fails first for a 0-d source)
        src_n = source.size(d) if source.ndim else _wrap_dim_no_scalar(d, 0)
        raise RuntimeError(f"index_add_(): Number of indices ({n}) should be equal to source.size(dim): ({src_n}), "
                           f"for dim: {d}")
    self_sizes, source_sizes = list(input.shape), list(source.shape)
    if input.ndim and source.ndim:
        del self_sizes[d], source_sizes[d]
    if self_sizes != source_sizes:
        raise RuntimeError("source tensor shape must match self tensor shape, excluding the specified dimension. "
                           f"Got self.shape = {_fmt(input.shape)} source.shape = {_fmt(source.shape)}")


def _index_add_bounds(input, d, index, idx, size, alpha):
    """index_add_cpu_'s order: more than one dim, nothing for an empty index or self; then, along the first or
    last dim with alpha 1 and a long index, scatter_add_'s bounds error naming the index, else a loop over the
    index that checks each entry, then adds its slice (add's alpha, checked); one dim or none: alpha.to<scalar_t>()
    (checked) before the loop."""
    dt = input._data.dtype
    if input.ndim > 1:
        if not idx.size or not input._data.size:
            return
        if d in (0, input.ndim - 1) and alpha == 1 and index.dtype is dtypes.int64:
            _check_bounds(idx, size, d)
            return
        if not 0 <= idx[0] < size:
            raise IndexError("index out of range in self")
    if dt != np.float64:
        dtypes.checked_scalar(alpha, dt)
    if idx.size and ((idx < 0) | (idx >= size)).any():
        raise IndexError("index out of range in self")


def _index_add_written(error, input, d, index, idx, size, alpha, source):
    """What index_add_ has added when _index_add_bounds' error comes (_written_before)."""
    if "out of" not in str(error) or not ((idx < 0) | (idx >= size)).any():
        return error
    good = idx[:_written_before.first_bad(idx, 0, size)]
    src = source._data.reshape(_src_shape(input, d, idx)) if input.ndim and source.ndim else source._data
    if input.ndim > 1 and d in (0, input.ndim - 1) and alpha == 1 and index.dtype is dtypes.int64:
        return _written_before.attach(error, _written_before.c_order_added(d, good, src[(0,) * d][:good.size]))
    return _written_before.attach(error, _written_before.slices_added(d or 0, good, src, alpha))


@export(method=True)
def index_add(input, dim, index, source, *, alpha=1, out=None):
    d = _wrap_dim(dim, input.ndim) if isinstance(index, Tensor) else None  # (the dim before the index)
    _check_vector_index(index, "index_add")
    _index_add_checks(input, d, index, source)
    idx = _index_array(index).reshape(-1)
    size = input._data.shape[d] if input.ndim else 1
    try:
        _index_add_bounds(input, d, index, idx, size, alpha)
    except (IndexError, RuntimeError) as e:
        raise _index_add_written(e, input, d, index, idx, size, alpha, source)
    src = source._data
    result = keep_tensor(_index_add.apply((input, source), (input._data, src), {"dim": d, "idx": idx, "alpha": alpha}),
                         _index_add, "index", index)
    return finish_out("index_add", result, out, inputs=(index, source))


def _src_shape(input, d, idx):
    shape = list(input._data.shape)
    shape[d] = idx.size
    return shape


def _index_copy_fwd(ctx, a, src, dim, idx):
    out = a.copy()
    if a.ndim == 0:  # a 0-d self is one element: each index (0) writes it in turn, the last one stays
        if src.size:
            out[()] = src.reshape(-1)[-1]
        return out
    out[_dim_index(dim, idx)] = src
    return out


_index_copy = Op("IndexCopyBackward0", _index_copy_fwd, inputs=("self", "source"), jvp="linear",
                  saves=("source",), saves_for={"source": (1,)}, keeps={"idx": "index"})


@_index_copy.derivative
def _(ctx, grad):
    idx = Tensor._make(ctx.idx)
    g_src = None
    if ctx._input_meta[1] is not None:
        g_src = _source_grad(grad, ctx.dim, ctx.idx, ctx._input_meta[1][0])
    from .index_fill import index_fill

    return index_fill(grad, ctx.dim, idx, 0), g_src


def _source_grad(grad, dim, idx, src_shape):
    """index_copy's and index_add's source gradient: grad.index_select(dim, index).expand_as(source), or for a
    0-d source grad.index_select(dim, index.squeeze(0)) (summed to the source's shape by the engine)."""
    if not len(src_shape):
        return index_select(grad, dim, Tensor._make(idx.reshape(())))
    return index_select(grad, dim, Tensor._make(idx)).expand(src_shape)


@export(method=True)
@with_out("index_copy", apart=(2, 3))
def index_copy(input, dim, index, source, *, out=None):
    d = _wrap_dim(dim, input.ndim) if isinstance(index, Tensor) else None  # (the dim before the index)
    _check_vector_index(index, "index_copy")
    _index_copy_check(input, d, index, source)
    idx = _index_array(index).reshape(-1)
    size = input._data.shape[d] if input.ndim else 1
    try:
        idx = _check_bounds(idx, size, d, IndexError, prefix="index_copy_(): ")
    except IndexError as e:  # (C order over the dims before dim, the index, the dims after)
        good = idx[:_written_before.first_bad(idx, 0, size)]
        rows = source._data.reshape(_src_shape(input, d, idx))[(0,) * d][:good.size] if input.ndim else \
            source._data.reshape(-1)[:good.size]
        raise _written_before.attach(e, _written_before.c_order_slices(d, good, lambda part: rows))
    src = source._data.reshape(_src_shape(input, d, idx)) if input.ndim else source._data
    return keep_tensor(_index_copy.apply((input, source), (input._data, src), {"dim": d, "idx": idx}),
                       _index_copy, "index", index)


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
    if not idx.size:
        return np.empty(shape, a.dtype)
    # (gather's meta function allocates the result contiguous, whatever self's and index's layouts)
    return a.reshape(-1)[idx.reshape(-1)].reshape(shape) if a.ndim == 0 or idx.ndim == 0 else c_order(a[_along(idx, dim)])


# gather_backward(grad, self, dim, index, sparse_grad): self is saved (its version is checked) though
# only its shape is read
_gather = Op("GatherBackward0", _gather_fwd, jvp="linear", saves=("self",), keeps={"idx": "index"})


@_gather.derivative
def _(ctx, grad):
    # gather_backward: zeros(self).scatter_add(dim, index, grad)
    shape = tuple(ctx.input_shape)
    return scatter_add(grad.new_zeros(shape), ctx.dim, Tensor._make(ctx.idx), grad)


def _check_index_dtype(index, who):
    if index.dtype not in (dtypes.int64, dtypes.int32) and index.numel():  # (an empty index of any dtype)
        raise RuntimeError(f"{who}(): Expected dtype int32/int64 for index")


def _check_gather_shape(input, d, index, who, src=None):
    if not index.numel():  # nothing to check (nor to read or write)
        return
    if index.ndim != input.ndim and not (index.ndim <= 1 and input.ndim <= 1):
        name = "input" if who == "gather" else "self"
        raise RuntimeError(f"Index tensor must have the same number of dimensions as {name} tensor")
    if input.ndim == 0 or index.ndim == 0:
        if who != "gather" and src is not None and index.numel():  # ensure_nonempty_size: a 0-d tensor is size 1
            n = [t._data.shape[0] if t.ndim else 1 for t in (index, src)]  # (both at most 1-d here)
            _check_src_dims(index, src)
            if n[0] > n[1]:
                raise RuntimeError(
                    f"Expected index {_fmt(index._data.shape)} to be no larger than self {_fmt(input._data.shape)} "
                    f"apart from dimension {d} and to be no larger size than src {_fmt(src._data.shape)}")
        _check_src_dims(index, src)
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
        if src is not None and not bad:  # (src.size(d) of each of index's dims: an IndexError past src's)
            bad = any(ishape[j] > (src.size(j) if src.ndim else 1) for j in range(index.ndim))
        _check_src_dims(index, src)
        if bad:
            msg = f"Expected index {_fmt(ishape)} to be no larger than self {_fmt(sshape)} apart from dimension {d}"
            if src is not None:
                msg += f" and to be no larger size than src {_fmt(src._data.shape)}"
            raise RuntimeError(msg)


def _check_src_dims(index, src):
    """scatter_shape_check's test of src's dims: after its sizes are read, before a size error."""
    if src is not None and index.ndim != src.ndim and not (index.ndim <= 1 and src.ndim <= 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")


@export(method=True)
def gather(input, dim, index, *, sparse_grad=False, out=None):
    _check_index_dtype(index, "gather")
    d = _wrap_dim(dim, input.ndim)
    _check_gather_shape(input, d, index, "gather")
    idx = _index_array(index)
    size = input._data.shape[d] if input.ndim else 1
    idx = _check_bounds(idx, size, d)
    result = keep_tensor(_gather.apply((input,), (input._data,), {"dim": d, "idx": idx, "shape": idx.shape}),
                         _gather, "index", index)
    return finish_out("gather", result, out, inputs=(input,))


def _scatter_fwd(ctx, a, *src, dim, idx, value=None, reduce=None):
    if not idx.size:  # (src's shape unchecked: it is not read)
        return a.copy()
    if a.ndim == 0:  # every index entry hits the one element, in order (as a 1-element 1-d self)
        flat = np.zeros(idx.size, np.intp)
        vals = src[0].reshape(-1)[: idx.size] if src and src[0].ndim else None
        out = _scatter_fwd(ctx, a.reshape(1), *((np.broadcast_to(src[0], idx.size) if vals is None else vals,)
                                                 if src else ()), dim=0, idx=flat, value=value, reduce=reduce)
        return out.reshape(())
    out = a.copy()
    where = _along(idx, dim)
    if src:
        vals = src[0][tuple(slice(0, n) for n in idx.shape)] if src[0].ndim else np.broadcast_to(src[0], idx.shape)
    else:
        vals = np.broadcast_to(dtypes.checked_scalar(value, a.dtype), idx.shape)  # (Scalar::to<scalar_t>: checked)
    if reduce == "add":
        np.add.at(out, where, vals)
    elif reduce == "multiply":
        np.multiply.at(out, where, vals)
    else:
        out[where] = vals
    return out


def _scatter_add_fwd(ctx, a, src, dim, idx):
    return _scatter_fwd(ctx, a, src, dim=dim, idx=idx, reduce="add")


_scatter0 = Op("ScatterBackward0", _scatter_fwd, inputs=("self", "src"), jvp="linear", keeps={"idx": "index"})
# (scatter's meta function allocates the result contiguous and copies self into it: a.copy()'s C order)
_scatter1 = Op("ScatterBackward1", _scatter_fwd, jvp="element_wise", keeps={"idx": "index"}, contiguous=True)
_scatter_add = Op("ScatterAddBackward0", _scatter_add_fwd, inputs=("self", "src"), jvp="linear", keeps={"idx": "index"},
                  keeps_for={"idx": (1,)})  # (self's gradient is grad itself)
_scatter_reduce = Op("NotImplemented", _scatter_fwd, inputs=("self", "src"), jvp="unsupported")
_scatter_reduce.jvp_name = "aten::scatter"
_scatter_reduce.node._name = "torch::autograd::NotImplemented"


def _gathered(grad, ctx):
    return gather(grad, ctx.dim, Tensor._make(ctx.idx))


def _src_grad(grad, ctx):
    """grad.gather(dim, index) shaped as src: PyTorch's engine takes a gradient src's shape expands
    to (a 0-d src, summed back), and rejects any other (src larger than index); none at all when
    the running pass does not want src's (task_should_compute_output: autograd.grad of self)."""
    if not should_compute_output(ctx, 1):
        return None
    g = _gathered(grad, ctx)
    src_shape = tuple(ctx._input_meta[1][0])
    if tuple(g.shape) != src_shape and not _expandable(src_shape, tuple(g.shape)):
        raise RuntimeError(
            f"Function {ctx.name()} returned an invalid gradient at index 1 - got {_fmt(g.shape)} but expected "
            f"shape compatible with {_fmt(src_shape)}")
    return g


def _expandable(shape, to):
    return len(shape) <= len(to) and all(a in (1, b) for a, b in zip(shape[::-1], to[::-1]))


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


def _scatter_meta(input, dim, index, src, who):
    """scatter_meta_impl's checks (scatter_gather_dtype_check, then the shapes): before the in-place forms'
    overlap checks."""
    _check_index_dtype(index, "scatter")
    d = _wrap_dim(dim, input.ndim)
    if isinstance(src, Tensor) and src.dtype is not input.dtype:  # (scatter_gather_dtype_check, before the shapes)
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    _check_gather_shape(input, d, index, who, src if isinstance(src, Tensor) else None)
    return d


def _scatter_prepare(input, dim, index, src, who, add=False):
    if add and not isinstance(src, Tensor):  # (the parser's TypeError (ops/_argcheck) before the kernel writes)
        raise TypeError("scatter_add: src must be a Tensor")
    d = _scatter_meta(input, dim, index, src, who)
    idx = _index_array(index)
    size = input._data.shape[d] if input.ndim else 1
    try:
        idx = _check_bounds(idx, size, d)
    except RuntimeError as e:  # (the index's elements in C order: those before the bad one written; float16's
        if input.dtype is dtypes.float16:  # kernel leaves self as it was)
            raise
        values = src._data if isinstance(src, Tensor) else src
        raise _written_before.attach(e, _written_before.scatter_prefix(
            d, idx, _written_before.first_bad(idx, 0, size), values, add)) from None
    if input.ndim and idx.ndim == 0:
        idx = idx.reshape((1,) * input.ndim)
    return d, idx


def scatter_out_checks(fname, input, dim, index, src, out):
    """The structured scatter kernels' ``out=``: autograd's refusal, the meta's checks of index and src,
    then out's: no internal overlap, none with index or src, then its dtype (exactly self's) and its resize."""
    if out is None:
        return
    if _grad_state["enabled"] and any(isinstance(t, Tensor) and t._requires_grad for t in (input, src, out)):
        raise RuntimeError(f"{fname}(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")
    _scatter_meta(input, dim, index, src, fname)
    from ..tensor import _has_internal_overlap
    from ._outs import _C_TYPE
    if out._data.ndim and 0 in out._data.strides and _has_internal_overlap(out._data):
        raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a single "
                           "memory location. Please clone() the tensor before performing the operation.")
    for a in (index, src):
        if isinstance(a, Tensor) and (a is out or (a._base is not None or out._base is not None)
                                      and overlaps(out._data, a._data)):
            raise RuntimeError("unsupported operation: some elements of the input tensor and the written-to tensor "
                               "refer to a single memory location. Please clone() the tensor before performing the "
                               "operation.")
    if out.dtype is not input.dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {_C_TYPE[input.dtype.name]}, but got "
                           f"{_C_TYPE[out.dtype.name]} instead")
    if tuple(out.shape) != tuple(input.shape):  # (set_output: resized before the kernel checks the index)
        from ._outs import _resize_out, warn_resized
        if out._data.size:
            warn_resized(out.shape, input.shape)
        _resize_out(out, np.empty(input._data.shape, out._data.dtype))


@export(method=True)
def scatter(input, dim, index, src=None, *, value=None, reduce=None, out=None):
    if src is None:
        src = value
    scatter_out_checks("scatter", input, dim, index, src, out)
    d, idx = _scatter_prepare(input, dim, index, src, "scatter")
    if reduce is not None and reduce not in ("add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    if isinstance(src, Tensor):
        if reduce is not None:
            warn_once(
                "The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a future "
                "PyTorch release. Use torch.scatter_reduce instead for more reduction options.", UserWarning)
            op = _scatter_reduce
        else:
            op = _scatter0
        result = keep_tensor(op.apply((input, src), (input._data, src._data), {"dim": d, "idx": idx, "reduce": reduce}),
                             op, "index", index)
    else:
        op = _scatter1 if reduce is None else _scatter_reduce
        result = keep_tensor(op.apply((input,), (input._data,), {"dim": d, "idx": idx, "value": src, "reduce": reduce}),
                             op, "index", index)
    return finish_out("scatter", result, out, inputs=(index, src))


@export(method=True)
def scatter_add(input, dim, index, src, *, out=None):
    if isinstance(src, Tensor):  # (else the parser's TypeError, below)
        scatter_out_checks("scatter_add", input, dim, index, src, out)
    d, idx = _scatter_prepare(input, dim, index, src, "scatter_add", add=True)
    result = keep_tensor(_scatter_add.apply((input, src), (input._data, src._data), {"dim": d, "idx": idx}),
                         _scatter_add, "index", index)
    return finish_out("scatter_add", result, out, inputs=(index, src))


def no_overlap_inplace(fn, name=None, checks=None, replay=None):
    """The in-place form of a scatter-like op (scatter_, index_add_, put_, ...): after autograd's checks
    and the written tensor's internal overlap, its meta's assert_no_overlap of each tensor argument
    (index, src) against it, before any other check of theirs but ``checks(self, *args, **kwargs)`` (which
    come after autograd's and before the overlap checks).  ``replay(self, *args, **kwargs)``: self's values
    when the kernel reads a source sharing its memory in a layout those checks let through (or None)."""
    method_ = inplace(fn, name=name)

    def call(self, *args, **kwargs):
        if type(self) is Tensor:
            others = [a for a in (*args, *kwargs.values()) if type(a) is Tensor]
            recorded = _grad_state["enabled"] and (self._requires_grad or any(a._requires_grad for a in others))
            if checks is not None:
                self._check_inplace(recorded, "allow")  # (autograd's checks come first)
                checks(self, *args, **kwargs)
            self._check_inplace(recorded, "error")
            for a in others:
                if a is self or (a._base is not None or self._base is not None) and overlaps(self._data, a._data):
                    raise RuntimeError("unsupported operation: some elements of the input tensor and the written-to "
                                       "tensor refer to a single memory location. Please clone() the tensor before "
                                       "performing the operation.")
            if replay is not None and (self._base is not None or any(a._base is not None for a in others)):
                return _replaying(method_, replay, self, args, kwargs)
        return method_(self, *args, **kwargs)

    call.__name__ = call.__qualname__ = method_.__name__
    call.__doc__ = method_.__doc__
    return call


def _replaying(method_, replay, self, args, kwargs):
    """``method_(self, ...)``, then self's memory set to ``replay``'s values (computed before it ran)."""
    from ._scatter_overlap import write_replayed
    try:
        with np.errstate(all="ignore"):
            values = replay(self, *args, **kwargs)
    except Exception:  # (the op's own checks refuse these arguments: it raises its error)
        values = None
    result = method_(self, *args, **kwargs)
    write_replayed(self, values)
    return result


def _scatter_first(input, dim, index, src=None, *_, value=None, **__):
    _scatter_meta(input, dim, index, value if src is None else src, "scatter")


def _scatter_add_first(input, dim, index, src, *_, **__):
    _scatter_meta(input, dim, index, src, "scatter_add")


method("scatter_")(no_overlap_inplace(scatter, checks=_scatter_first, replay=_scatter_overlap.scatter_values))
method("scatter_add_")(no_overlap_inplace(scatter_add, checks=_scatter_add_first,
                                          replay=_scatter_overlap.scatter_add_values))
def _index_add_first(input, dim, index, source, **_):
    _check_vector_index(index, "index_add")
    _index_add_checks(input, _wrap_dim(dim, input.ndim), index, source)


method("index_add_")(no_overlap_inplace(index_add, checks=_index_add_first, replay=_scatter_overlap.index_values))
method("index_copy_")(no_overlap_inplace(index_copy, replay=functools.partial(_scatter_overlap.index_values, kind="copy")))
