"""Variance and standard deviation: var, std, var_mean and std_mean in PyTorch's three
overloads (``correction=``, ``unbiased``, positional ``unbiased``), its warning when the
degrees of freedom are <= 0, and the mean of its one-pass (Welford) algorithm where a
slice holds an infinity.

Each op is one entry (VarBackward0, StdBackward0, VarMeanBackward0, StdMeanBackward0);
the derivatives are FunctionsManual's var_backward/std_backward written with agrad ops.
"""

from __future__ import annotations

import warnings

import numpy as np

from .. import dtypes
from .._zero import IMMUTABLE, ZeroArray
from ..tensor import Tensor
from . import _welford
from ._layout import c_order
from ._op import Op, export, finish_out
from .selection import where
from .reductions import _NO_KEEPDIM, _axes, _quiet, _unsqueeze_dims
from .._warn_once import warn as _warn


class _Unbiased:
    """unbiased not given (an explicit None matches none of PyTorch's signatures)."""

    def __repr__(self):
        return "True"


_NO_UNBIASED = _Unbiased()


class _NoDim:
    """dim not given (an explicit None is f(x, dim, unbiased, keepdim)'s ``int[1]? dim``)."""

    def __repr__(self):
        return "None"


_NO_DIM = _NoDim()


def _var_args(fname, input, dim, unbiased, keepdim, correction):
    """(axes, full, n, correction, keepdim) from PyTorch's overloads:
    f(x, dim=None, *, correction=1, keepdim=False), f(x, dim, unbiased, keepdim), f(x, unbiased)."""
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"{fname} only support floating point and complex dtypes" if fname in ("var_mean", "std_mean")
                           else "std and var only support floating point and complex dtypes")
    if isinstance(dim, bool):
        unbiased, dim = dim, _NO_DIM
    if dim is _NO_DIM and unbiased is not _NO_UNBIASED and keepdim is not _NO_KEEPDIM:
        # f(x, unbiased) takes no keepdim, f(x, dim, unbiased, keepdim) needs dim: PyTorch's parser refuses it
        raise TypeError(f"{fname}(): keepdim given with unbiased but without dim")
    for value in (unbiased, keepdim):  # (an int or None there matches no signature: the parser's message)
        if value is not _NO_UNBIASED and value is not _NO_KEEPDIM and not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{fname}(): unbiased and keepdim take a bool, not {type(value).__name__}")
    if unbiased is not _NO_UNBIASED and correction is not None:
        raise TypeError(f"{fname}(): takes either 'unbiased' or 'correction', not both")
    if correction is None:
        correction = 1 if unbiased is _NO_UNBIASED or unbiased else 0
    if dim is _NO_DIM:
        dim = None
    full = dim is None
    if full:
        axes = tuple(range(input.ndim))
    elif isinstance(dim, (list, tuple)) and len(dim) == 0:
        axes = tuple(range(input.ndim))  # reduces everything; the backward counts it as size 1
    else:
        axes = _axes(dim, input.ndim)
    if full or (isinstance(dim, (list, tuple)) and len(dim) == 0):
        n = input.numel() if full else 1
    else:
        n = 1
        for a in axes:
            n *= input.shape[a]
    return axes, full, n, correction, bool(keepdim)


def _var_fwd(a, axes, correction, keepdim, fname, take_sqrt=False, welford=False):
    """(var or std, mean) as PyTorch's kernels (ops/_welford.py): WelfordOps in double for
    var_mean/std_mean and for var/std with several output elements, std_var_all_cpu's two
    passes for a float/double var/std with one; the square root (std) taken in double before
    the one rounding to the input's type; an empty input gives NaN. Where PyTorch's threads
    split a slice: numpy's two passes (the same value up to rounding)."""
    count = 1
    for ax in axes:
        count *= a.shape[ax]
    if a.ndim == 0:
        count = 1
    if (count if a.size else 0) - correction <= 0:  # (ATen: input numel / output numel, 0 for no output)
        _warn(
            f"{fname}(): degrees of freedom is <= 0. Correction should be strictly less than the reduction factor "
            "(input numel divided by output numel).", UserWarning)
    out_shape = tuple(1 if d in axes else n for d, n in enumerate(a.shape))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        moments = None
        if type(a) is np.ndarray and a.size:
            if not welford and a.size == count:
                moments = _welford.all_moments(a)
                if moments is not None:
                    moments = (np.full(out_shape, moments[0]), np.full(out_shape, moments[1]))
            else:
                moments = _welford.welford(a, axes)
                if moments is not None:
                    moments = (moments[0].reshape(out_shape), moments[1].reshape(out_shape))
        if moments is not None:
            mean, m2 = moments
        else:
            work = a.astype(np.float64) if a.dtype != np.float64 else a
            mean = np.mean(work, axis=axes, keepdims=True)
            dev = work - mean
            m2 = np.sum(dev * dev, axis=axes, keepdims=True)
            if count > 1 and a.ndim and type(work) is np.ndarray and np.isinf(work).any():
                mean = _welford_inf_mean(work, axes, mean)
        dof = count - correction
        var = m2 / (dof if dof > 0 else 0)  # C++'s std::max(0, dof): a NaN correction divides by 0
        if a.size == 0:  # std_var_out fills an empty reduction with NaN, whatever the correction
            var = np.full(np.shape(var), np.nan)
        if take_sqrt:
            var = np.sqrt(var)
        if not keepdim:
            var = np.squeeze(var, axis=axes) if axes else np.reshape(var, ())
            mean = np.squeeze(mean, axis=axes) if axes else np.reshape(mean, ())
    if a.dtype == np.float16:  # (c10::Half from a double: through float, rounded twice)
        var, mean = np.asarray(var).astype(np.float32), np.asarray(mean).astype(np.float32)
    # (ATen allocates a reduction's results contiguous, whatever the input's layout)
    return c_order(np.asarray(var).astype(a.dtype, copy=False)), c_order(np.asarray(mean).astype(a.dtype, copy=False))


def _welford_inf_mean(work, axes, mean):
    """The mean of var_mean/std_mean where a slice holds an infinity: PyTorch's one pass
    (Welford: mean += (x - mean) / k, in memory order) keeps +-inf only when the one
    infinity is the slice's last element; any later element makes it NaN, and so does a NaN before it."""
    last = tuple(range(work.ndim - len(axes), work.ndim))
    flat = np.moveaxis(work, axes, last).reshape(mean.size, -1)
    inf = np.isinf(flat)
    welford = np.where((inf.sum(-1) == 1) & inf[:, -1] & ~np.isnan(flat).any(-1), flat[:, -1], np.nan)
    out = np.where(inf.any(-1), welford, mean.reshape(-1))
    return out.reshape(mean.shape)


def _var_backward(grad, x, ctx):
    """var_backward: 2 / (N - correction) * grad * (x - mean)."""
    correction = ctx.correction
    if x.ndim == 0 or ctx.full:
        dof = x.numel() - correction
        if dof <= 0:
            return grad * where(x == x.mean(), float("nan"), float("inf"))
        diff = x - x.mean()  # (GCC's right operand first: the difference before (2 / dof) * grad)
        return (2.0 / dof) * grad * diff
    if not ctx.keepdim and x.ndim > 1:
        grad = _unsqueeze_dims(grad, x.shape, ctx.axes, False)
    dof = ctx.n - correction
    factor = 2.0 / dof if dof != 0 else float("inf")
    diff = x - x.mean(ctx.axes, keepdim=True)
    return factor * grad * diff


def _std_backward(grad, x, result, ctx):
    if type(grad._data) is ZeroArray:  # (FunctionsManual's masked_fill_ on grad / (2 result), a ZeroTensor)
        raise RuntimeError(IMMUTABLE)
    grad_var = (grad / (result * 2)).masked_fill_(result == 0, 0)  # (in place, as FunctionsManual's)
    return _var_backward(grad_var, x, ctx)


def _mean_backward(grad, x, ctx):
    if type(grad._data) is ZeroArray and not grad._requires_grad:  # (plain zeros, as mean's: ops/means.py)
        grad = Tensor._make(grad._data.view(np.ndarray))
    if ctx.full or not len(x.shape):
        return grad.expand(x.shape) / x.numel() if x.numel() else grad.expand(x.shape)
    n = 1
    for a in ctx.axes:
        n *= x.shape[a]
    return _unsqueeze_dims(grad, x.shape, ctx.axes, ctx.keepdim).expand(x.shape) / n


_var = Op("VarBackward0", lambda ctx, a, axes, correction, keepdim, full, n, fname:
          _var_fwd(a, axes, correction, keepdim, fname)[0], saves=("self",))
_std = Op("StdBackward0", lambda ctx, a, axes, correction, keepdim, full, n, fname:
          _var_fwd(a, axes, correction, keepdim, fname, take_sqrt=True)[0], saves=("self", "result"))
_var_mean = Op("VarMeanBackward0", lambda ctx, a, axes, correction, keepdim, full, n, fname:
               _var_fwd(a, axes, correction, keepdim, fname, welford=True), saves=("self",), outputs=None,
               multi_grad="undefined")
_std_mean = Op("StdMeanBackward0", lambda ctx, a, axes, correction, keepdim, full, n, fname:
               _var_fwd(a, axes, correction, keepdim, fname, take_sqrt=True, welford=True), saves=("self", "result"),
               outputs=None,
               multi_grad="undefined")


@_var.derivative
@_quiet
def _(ctx, grad):
    return _var_backward(grad, ctx.self, ctx)


@_std.derivative
@_quiet
def _(ctx, grad):
    return _std_backward(grad, ctx.self, ctx.result, ctx)


@_var_mean.derivative
@_quiet
def _(ctx, grads):
    x = ctx.self
    return _pair_sum(None if grads[0] is None else _var_backward(grads[0], x, ctx), grads[1], x, ctx)


def _pair_sum(gself, gmean, x, ctx):
    """var_mean_backward / std_mean_backward: each defined output's part, added only when both are."""
    if gmean is None:
        return gself
    aux = _mean_backward(gmean, x, ctx)
    return aux if gself is None else gself + aux


@_std_mean.derivative
@_quiet
def _(ctx, grads):
    x = ctx.self
    return _pair_sum(None if grads[0] is None else _std_backward(grads[0], x, ctx.result, ctx), grads[1], x, ctx)


def _out_resized_first(fname, input, axes, keep, out):
    """std_var_out's make_reduction resizes ``out`` (with its warning) before the kernel warns of the
    degrees of freedom; a float16 input over every dim into a float or double ``out`` then meets
    std_var_all_cpu (taken for out's common dtype), which has no Half kernel."""
    from ..autograd import grad_mode
    from ._outs import _resize_out, warn_resized

    if grad_mode._state["enabled"] and (input._requires_grad or out._requires_grad):
        return  # (autograd's refusal of out= comes first: finish_out's)
    shape = tuple(1 if i in axes else s for i, s in enumerate(input.shape) if keep or i not in axes)
    if tuple(out.shape) != shape:
        if out._data.size:
            warn_resized(out.shape, shape)
        _resize_out(out, np.empty(shape, out.dtype.numpy))
    if input.dtype.is_floating_point and not out.dtype.is_floating_point:  # (the reduction's cast check)
        from ..tensor import _scalar_name
        raise RuntimeError(f"result type {_scalar_name(input.dtype)} can't be cast to the desired output type "
                           f"{_scalar_name(out.dtype)}")
    if (out.dtype in (dtypes.float32, dtypes.float64) and input.dtype is dtypes.float16
            and len(axes) == input.ndim and input.numel()):
        raise RuntimeError("std_var_all: Unsupported dtype Half")


def _var_family(op, fname):
    def fn(input, dim=_NO_DIM, unbiased=_NO_UNBIASED, keepdim=_NO_KEEPDIM, *, correction=None, out=None):
        axes, full, n, corr, keep = _var_args(fname, input, dim, unbiased, keepdim, correction)
        if out is not None and fname in ("var", "std"):
            _out_resized_first(fname, input, axes, keep, out)
        if out is not None and out.dtype.is_floating_point and out.dtype is not input.dtype and (
                len(axes) < input.ndim or out.dtype is dtypes.float16):
            # std_var_out reduces in out's dtype, the input cast first (but for a reduction over
            # every dim into float or double: std_var_all_cpu, in the input's)
            input = input.to(out.dtype)
        result = op.apply((input,), (input._data,), {"axes": axes, "correction": corr, "keepdim": keep,
                                                     "full": full, "n": n, "fname": fname})
        return result if isinstance(result, tuple) else finish_out(fname, result, out)

    fn.__name__ = fname
    fn.__doc__ = (f"{fname}(input, dim=None, *, correction=1, keepdim=False); also "
                  f"{fname}(input, dim, unbiased, keepdim) and {fname}(input, unbiased).")
    return fn


var = export(method=True)(_var_family(_var, "var"))
std = export(method=True)(_var_family(_std, "std"))
var_mean = export()(_var_family(_var_mean, "var_mean"))
std_mean = export()(_var_family(_std_mean, "std_mean"))
