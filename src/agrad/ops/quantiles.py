"""quantile / nanquantile: ATen's composite (Sorting.cpp quantile_compute), so their graphs are
PyTorch's: the input flattened (ViewBackward0) or its dim moved last (UnsqueezeBackward0,
TransposeBackward0), SortBackward0, ViewBackward0, GatherBackward0 at the ranks below (and
above), LerpBackward1 in place for ``linear``/``midpoint``, then SqueezeBackward4 (a number q),
or UnsqueezeBackward1, TransposeBackward1 and SqueezeBackward4 (a 1-D q), all in place.

Ranks are ``q * (n - 1)`` in the input's dtype (nanquantile: ``q * (count of non-NaN - 1)``,
0 where that is negative); a row with a NaN takes the last rank (its NaN) in quantile.
``lower``/``higher``/``nearest`` round the ranks (floor, ceil, round half to even).
"""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..tensor import Tensor, _wrap_dim
from ._op import export
from .nn import mul_scalar

_MODES = ("linear", "lower", "higher", "midpoint", "nearest")


def _checks(input, q, interpolation, out):
    if interpolation not in _MODES:
        raise RuntimeError("quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, "
                           f"but got {interpolation}")
    if input.numel() == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if q.ndim > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if input.dtype not in (dtypes.float32, dtypes.float64):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if q.dtype is not input.dtype:
        raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
    if out is not None and out.dtype is not input.dtype:
        raise RuntimeError("quantile() out tensor must be same dtype as the input tensor")


def _out_shape(input, q, dim, keepdim, wrapped):
    if dim is not None and input.ndim > 0:
        shape = list(input.shape)
        if keepdim:
            shape[wrapped] = 1
        else:
            del shape[wrapped]
    else:
        shape = [1] * input.ndim if keepdim else []
    if q.ndim > 0:
        shape.insert(0, q.numel())
    return shape


def _compute(input, q, dim, wrapped, shape, interpolation, ignore_nan):
    from .views import _squeeze4, _unsqueeze1, view_in_place

    if not bool(((q >= 0) & (q <= 1)).all()):
        raise RuntimeError("quantile() q values must be in the range [0, 1]")
    if dim is None:
        values = input.flatten().sort()[0]
    elif wrapped == input.ndim - 1:
        values = input.sort()[0]
    else:
        values = input.unsqueeze(-1).transpose(wrapped, -1).sort()[0]
    if q.ndim == 0:
        shape = [1] + shape
    in_shape = shape[1:] + [values.shape[-1]]
    values = values.view(in_shape)
    if ignore_nan:
        ranks = q * (values.isnan().logical_not().sum(-1, True) - 1)
        ranks.masked_fill_(ranks < 0, 0)
    else:
        last = values.shape[-1] - 1
        scaled, has_nan = _broadcast(mul_scalar(q, last), values.isnan().any(-1, True))
        ranks = scaled.masked_fill(has_nan, last)
    if interpolation == "lower":
        ranks.floor_()
    elif interpolation == "higher":
        ranks.ceil_()
    elif interpolation == "nearest":
        ranks.round_()
    below = ranks.long()
    result = values.gather(-1, below)
    if interpolation in ("linear", "midpoint"):
        from .factories import full_like
        weights = full_like(ranks, 0.5) if interpolation == "midpoint" else ranks - below
        above = ranks.ceil_().long()
        result.lerp_(values.gather(-1, above), weights)
    if q.ndim == 0:
        view_in_place(result, _squeeze4, {"axes": (result.ndim - 1,) if result.shape[-1] == 1 else ()})
    else:
        view_in_place(result, _unsqueeze1, {"dim": 0})
        result.transpose_(0, -1)
        view_in_place(result, _squeeze4, {"axes": (result.ndim - 1,)})
    return result


def _broadcast(a, b):
    from .views import broadcast_tensors
    return broadcast_tensors(a, b)


def _quantile(name, input, q, dim, keepdim, interpolation, out, ignore_nan):
    if not isinstance(q, Tensor):
        q = float(q)
        if not 0 <= q <= 1:
            raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {_fmt(q)}")
        from .factories import tensor
        q = tensor(q, dtype=input.dtype)
    _checks(input, q, interpolation, out)
    wrapped = _wrap_dim(0 if dim is None else dim, max(input.ndim, 1))
    shape = _out_shape(input, q, dim, keepdim, wrapped)
    if out is None:
        return _compute(input, q, dim, wrapped, shape, interpolation, ignore_nan)
    if list(out.shape) != shape:  # (resize_output, with its warning, before the q range check; then out.copy_,
        from ._outs import _resize_out, warn_resized  # recorded as CopyBackwards)
        if out._data.size:
            warn_resized(out.shape, shape)
        _resize_out(out, np.empty(shape, out._data.dtype))
    return out.copy_(_compute(input, q, dim, wrapped, shape, interpolation, ignore_nan))


def _fmt(v):
    """A double as C++'s ostream prints it (6 significant digits)."""
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return f"{v:g}"


@export(method=True)
def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    """The ``q``-th quantiles of ``input`` (all of it, or along ``dim``)."""
    return _quantile("quantile", input, q, dim, keepdim, interpolation, out, False)


@export(method=True)
def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    """quantile that ignores NaN values (a row of NaNs gives NaN)."""
    return _quantile("nanquantile", input, q, dim, keepdim, interpolation, out, True)
