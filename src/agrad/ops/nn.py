"""nn.functional: softmax family and the losses of the first set.

Losses take ``reduction`` 'none' | 'mean' | 'sum' as PyTorch's do.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..tensor import Tensor, _wrap_dim
from ._op import Op, export
from .pointwise import _float_array

_REDUCTIONS = ("none", "mean", "sum")


def _reduction(reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def _reduce(loss, reduction):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _softmax_dim(input, dim, name):
    if dim is None:
        import warnings
        warnings.warn(
            f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X "
            "as an argument.", UserWarning, stacklevel=3)
        dim = 0 if input.ndim in (0, 1, 3) else 1
    return _wrap_dim(dim, input.ndim)


def _softmax_fwd(ctx, a, dim):
    if a.ndim == 0:
        return np.ones_like(a)
    e = np.exp(a - np.max(a, axis=dim, keepdims=True))
    return e / np.sum(e, axis=dim, keepdims=True)


_softmax = Op("SoftmaxBackward0", _softmax_fwd, saves=("result",))


@_softmax.derivative
def _(ctx, grad):
    y = ctx.result
    if y.ndim == 0:
        return grad * 0
    return y * (grad - (grad * y).sum(ctx.dim, keepdim=True))


def _log_softmax_fwd(ctx, a, dim):
    if a.ndim == 0:
        return np.zeros_like(a)
    shifted = a - np.max(a, axis=dim, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=dim, keepdims=True))


_log_softmax = Op("LogSoftmaxBackward0", _log_softmax_fwd, saves=("result",))


@_log_softmax.derivative
def _(ctx, grad):
    y = ctx.result
    if y.ndim == 0:
        return grad * 0
    return grad - y.exp() * grad.sum(ctx.dim, keepdim=True)


def _prepare(input, dtype):
    if dtype is not None:
        return input.to(dtype)
    if not input.dtype.is_floating_point:
        from ..tensor import _scalar_name
        raise RuntimeError(f'"softmax_lastdim_kernel_impl" not implemented for \'{_scalar_name(input.dtype)}\'')
    return input


@export(method=True, functional=True)
def softmax(input, dim=None, _stacklevel=3, dtype=None):
    x = _prepare(input, dtype)
    return _softmax(x, dim=_softmax_dim(x, dim, "softmax"))


@export(method=True, functional=True)
def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    x = _prepare(input, dtype)
    return _log_softmax(x, dim=_softmax_dim(x, dim, "log_softmax"))


# losses ----------------------------------------------------------------------------

def _check_same_size(input, target, name):
    if input.shape != target.shape:
        raise ValueError(
            f"Target size ({target.shape}) must be the same as input size ({input.shape})")


_mse = Op("MseLossBackward0", lambda ctx, a, t, reduction: _mse_fwd(a, t, reduction),
          inputs=("self", "target"), saves=("self", "target"))


def _mse_fwd(a, t, reduction):
    d = (a - t) ** 2
    if reduction == "mean":
        return np.asarray(np.mean(d), a.dtype)
    if reduction == "sum":
        return np.asarray(np.sum(d), a.dtype)
    return d.astype(a.dtype, copy=False)


@_mse.derivative
def _(ctx, grad):
    diff = ctx.self - ctx.target
    scale = 2.0 / diff.numel() if ctx.reduction == "mean" else 2.0
    g = grad * diff * scale
    return g, -g


@export(functional=True, torch=False)
def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    if input.shape != target.shape:
        import warnings
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
            "This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.",
            UserWarning, stacklevel=2)
        input, target = input.expand(np.broadcast_shapes(input.shape, target.shape)), target.expand(
            np.broadcast_shapes(input.shape, target.shape))
    d = dtypes.result_type(input, target)
    arrs = [t._data.astype(d.numpy, copy=False) for t in (input, target)]
    return _mse.apply((input, target), arrs, {"reduction": _reduction(reduction)})


def _bce_logits_fwd(ctx, x, y, weight, pos_weight, reduction):
    # (1 - y) * x + (1 + (pw - 1) * y) * log(1 + exp(-x)), computed stably
    log_sig_neg = np.logaddexp(0, -x)  # -log(sigmoid(x))
    if pos_weight is not None:
        lw = 1 + (pos_weight - 1) * y
        loss = (1 - y) * x + lw * log_sig_neg
    else:
        loss = (1 - y) * x + log_sig_neg
    if weight is not None:
        loss = loss * weight
    loss = loss.astype(x.dtype, copy=False)
    if reduction == "mean":
        return np.asarray(np.mean(loss), x.dtype)
    if reduction == "sum":
        return np.asarray(np.sum(loss), x.dtype)
    return loss


_bce_logits = Op("BinaryCrossEntropyWithLogitsBackward0", _bce_logits_fwd, inputs=("self", "target"),
                 saves=("self", "target"))


@_bce_logits.derivative
def _(ctx, grad):
    x, y = ctx.self, ctx.target
    w = None if ctx.weight is None else Tensor._make(ctx.weight)
    pw = None if ctx.pos_weight is None else Tensor._make(ctx.pos_weight)
    s = x.sigmoid()
    if pw is not None:
        lw = (pw - 1) * y + 1
        d_x = (1 - y) - lw * (1 - s)
        d_y = -x + (pw - 1) * _softplus_neg(x)
    else:
        d_x = s - y
        d_y = -x
    if w is not None:
        d_x = d_x * w
        d_y = d_y * w
    if ctx.reduction == "mean":
        grad = grad / x.numel()
    return grad * d_x, grad * d_y


def _softplus_neg(x):
    """log(1 + exp(-x)), written with agrad ops so it has derivatives."""
    return ((-x).exp() + 1).log()


@export(functional=True, torch=False)
def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    if input.shape != target.shape:
        raise ValueError(
            f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    d = dtypes.result_type(input, target)
    arrs = [t._data.astype(d.numpy, copy=False) for t in (input, target)]
    return _bce_logits.apply((input, target), arrs, {
        "weight": None if weight is None else weight._data,
        "pos_weight": None if pos_weight is None else pos_weight._data,
        "reduction": _reduction(reduction)})


def _nll_fwd(ctx, logp, target, weight, reduction, ignore_index):
    # logp: (N, C) or (C,) or (N, C, d1, ...); target: (N,) / () / (N, d1, ...)
    x = logp if logp.ndim != 1 else logp[None]
    t = target if logp.ndim != 1 else target[None]
    x = np.moveaxis(x, 1, -1)  # classes last
    valid = t != ignore_index
    safe_t = np.where(valid, t, 0)
    C = x.shape[-1]
    if safe_t.size and (safe_t.max() >= C or safe_t.min() < 0):
        bad = safe_t.max() if safe_t.max() >= C else safe_t.min()
        raise IndexError(f"Target {bad} is out of bounds.")
    picked = np.take_along_axis(x, safe_t[..., None], axis=-1)[..., 0]
    w = np.ones(C, logp.dtype) if weight is None else weight
    wt = np.where(valid, w[safe_t], 0).astype(logp.dtype)
    loss = -picked * wt
    ctx.wt, ctx.safe_t, ctx.total = wt, safe_t, wt.sum()
    if reduction == "none":
        return loss.astype(logp.dtype).reshape(target.shape)
    if reduction == "sum":
        return np.asarray(loss.sum(), logp.dtype)
    return np.asarray(loss.sum() / wt.sum(), logp.dtype)


_nll = Op("NllLossBackward0", _nll_fwd, saves=("self",))


@_nll.derivative
def _(ctx, grad):
    shape = ctx.self.shape
    one_d = len(shape) == 1
    C = shape[0] if one_d else shape[1]
    wt = Tensor._make(ctx.wt)
    if ctx.reduction == "mean":
        scale = wt / float(ctx.total)
    else:
        scale = wt
    g = -(grad.reshape(ctx.wt.shape) if ctx.reduction == "none" else grad) * scale  # per sample
    onehot = np.eye(C, dtype=ctx.wt.dtype)[ctx.safe_t]  # (..., C)
    full = g.unsqueeze(-1) * Tensor._make(onehot)
    full = full.movedim(-1, 1) if not one_d else full[0]
    return full


@export(functional=True, torch=False)
def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    if target.dtype.is_floating_point:
        raise RuntimeError("expected scalar type Long but found Float")
    n_in = input.shape[0] if input.ndim > 1 else 1
    n_t = target.shape[0] if target.ndim else 1
    if input.ndim > 1 and n_in != n_t:
        raise ValueError(f"Expected input batch_size ({n_in}) to match target batch_size ({n_t}).")
    return _nll.apply((input,), (input._data,), {
        "target": target._data, "weight": None if weight is None else weight._data,
        "reduction": _reduction(reduction), "ignore_index": ignore_index})


@export(functional=True, torch=False)
def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    dim = 0 if input.ndim == 1 else 1
    logp = log_softmax(input, dim)
    if target.dtype.is_floating_point:  # class probabilities
        w = 1 if weight is None else weight.reshape((-1,) + (1,) * (input.ndim - 2)) if input.ndim > 1 else weight
        C = input.shape[dim]
        t = target * (1 - label_smoothing) + label_smoothing / C if label_smoothing else target
        loss = -(logp * t * w).sum(dim)
        if reduction == "mean":
            return loss.sum() / (input.numel() // C)
        return _reduce(loss, _reduction(reduction))
    if label_smoothing:
        C = input.shape[dim]
        nll = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
        valid = Tensor._make((target._data != ignore_index).astype(logp._data.dtype))
        w = 1 if weight is None else weight.reshape((-1,) + (1,) * (input.ndim - 2)) if input.ndim > 1 else weight
        smooth = -(logp * w).sum(dim) * valid
        if reduction == "mean":
            if weight is None:
                smooth = smooth.sum() / valid.sum()
            else:
                wt = Tensor._make(np.where(target._data != ignore_index, weight._data[np.where(target._data != ignore_index, target._data, 0)], 0))
                smooth = smooth.sum() / wt.sum()
        else:
            smooth = _reduce(smooth, reduction)
        return nll * (1 - label_smoothing) + smooth * (label_smoothing / C)
    return nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
