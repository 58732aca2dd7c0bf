"""The mean family: mean (MeanBackward0/1) and nanmean (nansum over the count of non-NaN
elements, as ATen composes it: DivBackward0 over NansumBackward0).

Each differentiable op is one entry: numpy forward, PyTorch's node name, what it saves, and
its derivative written with agrad ops; the sum machinery they share is ``reductions.py``'s.
"""

from __future__ import annotations

import numpy as np

from .. import _arrays
from .._cascade import as_float, cascade_sum
from .._zero import ZeroArray
from ..autograd import grad_mode
from ..tensor import Tensor, _scalar_name
from ._op import Op, export, finish_out
from ._out_alias import reduced_into_input
from ._layout import iterator_layout
from .reductions import (_ALL_DIMS, _FLOAT32_64, _NO_DIM, _NO_KEEPDIM, _add_reduce, _contiguous,
                         _expand_back_array, _no_dim_keepdim, dims, expand_back, nansum)


# mean ------------------------------------------------------------------------

def _mean_fwd(ctx, a, axes, keepdim, dtype=None):
    if dtype is not None:  # mean(dtype=): the input cast first, inside the one node (no ToCopyBackward0)
        a = a.astype(dtype, copy=False)
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    ctx.n = n
    if n == 0:  # nan, without numpy's "Mean of empty slice" warning
        with np.errstate(all="ignore"):
            return _contiguous(np.true_divide(np.sum(a, axis=axes, keepdims=keepdim), a.dtype.type(0)))
    if type(a) is np.ndarray and a.dtype.kind == "f":
        # PyTorch's steps (a sum, then a division by the count), without np.mean's Python
        # layer; float16 is taken to float first (mean_out), summed and divided there, rounded once
        wide = as_float(a) if a.dtype.itemsize == 2 else a
        total = cascade_sum(wide, axes, keepdim)
        if total is None:
            total = _add_reduce(wide, axis=axes, keepdims=keepdim)
        return _contiguous(np.asarray(total / n).astype(a.dtype, copy=False))  # (np.true_divide's value)
    return _contiguous(np.mean(a, axis=axes, keepdims=keepdim))


_mean0 = Op("MeanBackward0", _mean_fwd, jvp="linear")
_mean1 = Op("MeanBackward1", _mean_fwd, jvp="linear")


def _materialized(grad):
    """A ZeroTensor gradient as plain zeros: PyTorch's MeanBackward gives a ZeroTensor's zeros as
    an ordinary tensor (which a later ``zeros * w`` then signs), not a ZeroTensor (agrad/_zero.py)."""
    if type(grad._data) is ZeroArray and not grad._requires_grad:
        return Tensor._make(grad._data.view(np.ndarray))
    return grad


def _ordinary(t):
    """mean_backward's ``/ n`` (div by a number: no ZeroTensor kernel, PyTorch's fallback computes
    on plain zeros) gives ordinary zeros also from a ZeroTensor with history (create_graph): the
    recorded result, its data a plain array."""
    if type(t._data) is ZeroArray:
        t._data = t._data.view(np.ndarray)
    return t


@_mean0.derivative
def _(ctx, grad):
    return _ordinary(_materialized(grad).expand(ctx.input_shape) / ctx.n)


@_mean1.derivative
def _(ctx, grad):
    return _ordinary(expand_back(_materialized(grad), ctx.input_shape, ctx.axes, ctx.keepdim) / ctx.n)


@_mean0.raw_derivative
def _(ctx, g):
    if type(g) is ZeroArray:
        g = g.view(np.ndarray)
    if type(g) is not np.ndarray and not isinstance(g, np.generic):  # a backend's array: chunked
        return np.true_divide(_arrays.broadcast_to(g, ctx.input_shape), ctx.n)
    out = np.empty(ctx.input_shape, g.dtype)  # every element g / n (np.broadcast_to is slow Python)
    out.fill(np.true_divide(g, ctx.n))
    return out


@_mean1.raw_derivative
def _(ctx, g):
    e = _expand_back_array(g.view(np.ndarray) if type(g) is ZeroArray else g, ctx.input_shape, ctx.axes, ctx.keepdim)
    out = np.true_divide(e, ctx.n)
    return out if out.size else iterator_layout(out, [e, ctx.n])  # (an empty one: TensorIterator's strides)


@export(method=True)
def mean(input, dim=_NO_DIM, keepdim=_NO_KEEPDIM, *, dtype=None, out=None):
    if dim is _NO_DIM and keepdim is _NO_KEEPDIM and dtype is None and out is None \
            and input._data.dtype in _FLOAT32_64:  # mean(x) of a float tensor: no checks to make
        return _mean0.apply_single(input, {"axes": _ALL_DIMS[input._data.ndim], "keepdim": False})
    if out is not None and dim is _NO_DIM:  # (mean.dtype_out's own check first, then mean_out's)
        from ..tensor import _can_cast
        if not _can_cast(input.dtype, out.dtype):
            raise RuntimeError(f"mean.dtype_out(): input types can't be cast to the desired output type "
                               f"{_scalar_name(out.dtype)}")
    if dtype is not None:
        if not (dtype.is_floating_point or dtype.is_complex):
            raise RuntimeError(
                "mean(): could not infer output dtype. Optional dtype must be either a floating point or complex "
                f"dtype. Got: {_scalar_name(dtype)}")
        if out is not None and out.dtype is not dtype:
            from ._op import _C_TYPE
            raise RuntimeError(f"Expected out tensor to have dtype {_C_TYPE[dtype.name]}, but got "
                               f"{_C_TYPE[out.dtype.name]} instead")
    elif not input.dtype.is_floating_point:
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or complex "
            f"dtype. Got: {_scalar_name(input.dtype)}")
    if out is not None and dtype is None and not (out.dtype.is_floating_point or out.dtype.is_complex):
        _integer_out(input, dim, keepdim, out)
    if dim is _NO_DIM:
        _no_dim_keepdim("mean", keepdim)
        op, dim, keepdim = _mean0, None, False
    else:
        op, keepdim = _mean1, bool(keepdim)
        if isinstance(dim, (list, tuple)) and not dim:
            dim = None  # mean over no dims: over all of them (MeanBackward1 still)
    axes = dims(dim, input.ndim)
    attrs = {"axes": axes, "keepdim": keepdim}
    if dtype is None and out is not None and out.dtype.is_floating_point:
        dtype = out.dtype  # (mean.out reduces in out's dtype, the input cast first)
    if dtype is not None and dtype is not input.dtype:
        attrs["dtype"] = dtype.numpy
    result = reduced_into_input("mean", input, op.apply((input,), (input._data,), attrs), out)
    return finish_out("mean", result, out)


def _integer_out(input, dim, keepdim, out):
    """mean into an integer or bool ``out=``: mean.dtype_out refuses it outright; with a dim, mean_out
    sums into out (sum_out in out's dtype, the input cast first: resized, with its warning) and then
    its ``div_`` by the count refuses the Float quotient."""
    from ..tensor import _scalar_name

    if dim is _NO_DIM:
        raise RuntimeError(f"mean.dtype_out(): input types can't be cast to the desired output type "
                           f"{_scalar_name(out.dtype)}")
    from .reductions import sum as _sum
    _sum(input, dim, bool(keepdim) if keepdim is not _NO_KEEPDIM else False, out=out)
    raise RuntimeError(f"result type Float can't be cast to the desired output type {_scalar_name(out.dtype)}")


# nanmean ---------------------------------------------------------------------

@export(method=True)
def nanmean(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """ATen's composite: nansum(input, dim, keepdim, dtype) / (number of non-NaN elements), the
    count an int64 sum of ``isnan(input).logical_not_()`` (DivBackward0 over NansumBackward0)."""
    if not input.dtype.is_floating_point:  # (nanmean_out's own check, before the composite's)
        raise RuntimeError("nanmean(): integral types and 'Bool' are not supported for nanmean, even for empty tensors."
                           if out is not None else "nanmean(): expected input to have floating point or complex "
                           "dtype but got " + _scalar_name(input.dtype))
    if dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError("nanmean(): could not infer output dtype. Optional dtype must be either a floating "
                           f"point or complex dtype. Got: {_scalar_name(dtype)}")
    count = input.detach().isnan().logical_not().sum(dim, keepdim)
    if out is None:
        return nansum(input, dim, keepdim, dtype=dtype).div(count)
    # nansum_out(out, ...).div_(count): the sum in out's dtype, which a given dtype must be (make_reduction's check)
    if grad_mode._state["enabled"] and (input._requires_grad or out._requires_grad):
        raise RuntimeError("nansum(): functions with out=... arguments don't support automatic differentiation, but "
                           "one of the arguments requires grad.")  # (nansum_out's autograd kernel, first)
    if dtype is not None and dtype is not out.dtype:
        raise RuntimeError(f"nansum: provided dtype must match dtype of result. Got {_scalar_name(out.dtype)} and "
                           f"{_scalar_name(dtype)}.")
    total = nansum(input, dim, keepdim, dtype=out.dtype if dtype is None else dtype)
    total = reduced_into_input("nansum", input, total, out, None if dim is None else list(dim)
                               if isinstance(dim, (list, tuple)) else [dim])
    finish_out("nansum", total.div(count), out)
    out._vc[0] += 1  # (nansum_out, then its div_: two writes in out's version)
    return out
