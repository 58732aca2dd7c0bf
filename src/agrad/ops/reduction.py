"""Reductions: sum, mean, max/min (full and along a dim)."""

from __future__ import annotations

import collections

import numpy as np

from .. import dtypes
from ..tensor import Tensor, _scalar_name, _wrap_dim
from ._op import Op, export, finish_out

#: The (values, indices) pair PyTorch's dim-reductions return.
MinMax = collections.namedtuple("return_types", ["values", "indices"])


def dims(dim, ndim):
    """A dim, tuple of dims or None as a sorted tuple of non-negative dims."""
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, (list, tuple)):
        out = tuple(sorted(_wrap_dim(d, ndim) for d in dim))
        if len(set(out)) != len(out):
            raise RuntimeError(f"dim {out[0]} appears multiple times in the list of dims")
        return out
    return (_wrap_dim(dim, ndim),)


def expand_back(grad, shape, axes, keepdim):
    """A reduced gradient broadcast back to the input's ``shape``."""
    if not keepdim and shape:
        kept = list(shape)
        for a in axes:
            kept[a] = 1
        grad = grad.reshape(kept)
    return grad.expand(shape)


# sum -------------------------------------------------------------------------

def _sum_fwd(ctx, a, axes, keepdim, dtype):
    return np.sum(a, axis=axes, keepdims=keepdim, dtype=dtype)


_sum0 = Op("SumBackward0", _sum_fwd)
_sum1 = Op("SumBackward1", _sum_fwd)


@_sum0.derivative
def _(ctx, grad):
    return grad.expand(ctx.input_shape)


@_sum1.derivative
def _(ctx, grad):
    return expand_back(grad, ctx.input_shape, ctx.axes, ctx.keepdim)


def _acc_dtype(input, dtype):
    if dtype is not None:
        return dtypes.lookup(dtype)
    return input.dtype if input.dtype.is_floating_point else dtypes.int64


@export(method=True)
def sum(input, dim=None, keepdim=False, *, dtype=None, out=None):
    d = _acc_dtype(input, dtype)
    op = _sum0 if dim is None else _sum1
    if dim is not None and isinstance(dim, (list, tuple)) and len(dim) == 0:
        op, dim = _sum1, None
    axes = dims(dim, input.ndim)
    return finish_out("sum", op.apply((input,), (input._data,),
                                       {"axes": axes, "keepdim": keepdim and dim is not None, "dtype": d.numpy}), out)


def _nansum_fwd(ctx, a, axes, keepdim, dtype):
    return np.nansum(a, axis=axes, keepdims=keepdim, dtype=dtype)


_nansum = Op("NansumBackward0", _nansum_fwd, saves=("self",))


@_nansum.derivative
def _(ctx, grad):
    return expand_back(grad, ctx.input_shape, ctx.axes, ctx.keepdim) * (ctx.self == ctx.self)


@export(method=True)
def nansum(input, dim=None, keepdim=False, *, dtype=None):
    d = _acc_dtype(input, dtype)
    axes = dims(dim, input.ndim)
    return _nansum.apply((input,), (input._data,), {"axes": axes, "keepdim": keepdim and dim is not None,
                                                     "dtype": d.numpy})


# mean ------------------------------------------------------------------------

def _mean_fwd(ctx, a, axes, keepdim):
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    ctx.n = n
    return np.mean(a, axis=axes, keepdims=keepdim)


_mean0 = Op("MeanBackward0", _mean_fwd)
_mean1 = Op("MeanBackward1", _mean_fwd)


@_mean0.derivative
def _(ctx, grad):
    return grad.expand(ctx.input_shape) / ctx.n


@_mean1.derivative
def _(ctx, grad):
    return expand_back(grad, ctx.input_shape, ctx.axes, ctx.keepdim) / ctx.n


@export(method=True)
def mean(input, dim=None, keepdim=False, *, dtype=None, out=None):
    if dtype is not None:
        input = input.to(dtype)
    if not input.dtype.is_floating_point:
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or complex "
            f"dtype. Got: {_scalar_name(input.dtype)}")
    op = _mean0 if dim is None else _mean1
    axes = dims(dim, input.ndim)
    return finish_out("mean", op.apply((input,), (input._data,),
                                        {"axes": axes, "keepdim": keepdim and dim is not None}), out)


# max / min ---------------------------------------------------------------------

def _extreme_full_fwd(ctx, a, np_fn, fname):
    if a.size == 0:
        raise RuntimeError(
            f"{fname}(): Expected reduction dim to be specified for input.numel() == 0. "
            "Specify the reduction dim with the 'dim' argument.")
    return np.asarray(np_fn(a))


def _even_split(ctx, grad):
    # PyTorch's evenly_distribute_backward: ties share the gradient equally.
    x, r = ctx.self, ctx.result
    mask = (x == r) | ((x != x) & (r != r))
    return mask * (grad / mask.sum())


_max_full = Op("MaxBackward1", _extreme_full_fwd, saves=("self", "result"))
_min_full = Op("MinBackward1", _extreme_full_fwd, saves=("self", "result"))
_max_full.derivative(_even_split)
_min_full.derivative(_even_split)


def select_along(ctx, a, idx, dim, keepdim):
    """(values, indices) of a value-selecting reduction from indices ``idx`` kept
    along ``dim``; the indices are remembered for :func:`_select_back`."""
    idx = idx.astype(np.int64, copy=False)
    if a.ndim == 0:
        ctx.indices = idx
        return a.copy(), idx
    vals = np.take_along_axis(a, idx, axis=dim)
    if not keepdim:
        idx = np.squeeze(idx, dim)
        vals = np.squeeze(vals, dim)
    ctx.indices = idx
    return vals, idx


def _extreme_dim_fwd(ctx, a, dim, keepdim, arg_fn):
    if a.ndim and a.shape[dim] == 0:
        raise IndexError(
            f"max(): Expected reduction dim {dim} to have non-zero size.")
    idx = arg_fn(a, axis=dim, keepdims=True) if a.ndim else np.zeros((), np.int64)
    return select_along(ctx, a, idx, dim, keepdim)


def _select_back(ctx, grad):
    # value_selecting_reduction_backward: the gradient goes where the index points
    from .indexing import scatter_into
    idx = ctx.indices
    shape = ctx.input_shape
    if not len(shape):
        return grad
    if not ctx.keepdim:
        grad = grad.unsqueeze(ctx.dim)
        idx = np.expand_dims(idx, ctx.dim)
    return scatter_into(grad, shape, idx, ctx.dim)


_max_dim = Op("MaxBackward0", _extreme_dim_fwd)
_min_dim = Op("MinBackward0", _extreme_dim_fwd)
_max_dim.derivative(_select_back)
_min_dim.derivative(_select_back)


def _argmax_nan(a, axis, keepdims):
    # torch.max propagates NaN: a NaN is the maximum
    return np.nanargmax(np.where(np.isnan(a), np.inf, a), axis=axis, keepdims=keepdims) if a.dtype.kind == "f" and np.isnan(a).any() else np.argmax(a, axis=axis, keepdims=keepdims)


def _argmin_nan(a, axis, keepdims):
    return np.argmin(np.where(np.isnan(a), -np.inf, a), axis=axis, keepdims=keepdims) if a.dtype.kind == "f" and np.isnan(a).any() else np.argmin(a, axis=axis, keepdims=keepdims)


def _extreme(name, full, by_dim, np_fn, arg_fn, binary):
    def fn(input, dim=None, keepdim=False, *, out=None):
        if isinstance(dim, Tensor):  # torch.max(a, b): elementwise
            return binary(input, dim)
        if dim is None:
            return full.apply((input,), (input._data,), {"np_fn": np_fn, "fname": name})
        d = _wrap_dim(dim, input.ndim)
        vals, idx = by_dim.apply((input,), (input._data,),
                                 {"dim": d, "keepdim": keepdim, "arg_fn": arg_fn})
        return MinMax(vals, idx)

    fn.__name__ = name
    export(name, method=True)(fn)
    return fn


def _maximum(a, b):
    from .pointwise_extra import maximum
    return maximum(a, b)


def _minimum(a, b):
    from .pointwise_extra import minimum
    return minimum(a, b)


max = _extreme("max", _max_full, _max_dim, np.max, _argmax_nan, _maximum)
min = _extreme("min", _min_full, _min_dim, np.min, _argmin_nan, _minimum)


@export(method=True)
def argmax(input, dim=None, keepdim=False):
    if dim is None:
        return Tensor._make(np.asarray(_argmax_nan(input._data.reshape(-1), 0, False), np.int64))
    return Tensor._make(_argmax_nan(input._data, _wrap_dim(dim, input.ndim), keepdim).astype(np.int64))


@export(method=True)
def argmin(input, dim=None, keepdim=False):
    if dim is None:
        return Tensor._make(np.asarray(_argmin_nan(input._data.reshape(-1), 0, False), np.int64))
    return Tensor._make(_argmin_nan(input._data, _wrap_dim(dim, input.ndim), keepdim).astype(np.int64))


@export(method=True)
def all(input, dim=None, keepdim=False):
    axes = None if dim is None else dims(dim, input.ndim)
    return Tensor._make(np.all(input._data, axis=axes, keepdims=keepdim and dim is not None))


@export(method=True)
def any(input, dim=None, keepdim=False):
    axes = None if dim is None else dims(dim, input.ndim)
    return Tensor._make(np.any(input._data, axis=axes, keepdims=keepdim and dim is not None))


@export(method=True)
def count_nonzero(input, dim=None):
    axes = None if dim is None else dims(dim, input.ndim)
    return Tensor._make(np.asarray(np.count_nonzero(input._data, axis=axes), np.int64))
