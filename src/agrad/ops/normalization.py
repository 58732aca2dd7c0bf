"""Normalisation: batch_norm (training and evaluation, running statistics), instance_norm,
group_norm.  (layer_norm lives with the nn layers.)

Each is one node as in ATen -- ``NativeBatchNormBackward0``,
``NativeGroupNormBackward0`` -- with inputs (input, weight, bias).  The
forward computes in float64 and casts back; the backward formula recomputes
the statistics from the input with agrad ops, so that ``create_graph=True``
sees their dependence on it.  ``instance_norm`` is ATen's composite: a view
to (1, N*C, ...), one batch norm, a view back.
"""

from __future__ import annotations

import math

import numpy as np

from ._op import Op, export
from .nn import check_floating, const


def _stats(x, dims, eps):
    mu = x.mean(dims, keepdim=True)
    xc = x - mu
    rstd = ((xc * xc).mean(dims, keepdim=True) + eps) ** -0.5
    return xc * rstd, rstd


def _norm_grad(x, gw, dims, eps):
    """d/dx of the normalised ``x`` (statistics over ``dims``) applied to ``gw``; and x-hat."""
    xhat, rstd = _stats(x, dims, eps)
    dx = rstd * (gw - gw.mean(dims, keepdim=True) - xhat * (gw * xhat).mean(dims, keepdim=True))
    return dx, xhat


def _channel_shape(ndim):
    return lambda t: t.reshape((1, -1) + (1,) * (ndim - 2))


# ---------------------------------------------------------------------------
# batch_norm
# ---------------------------------------------------------------------------

def _batch_norm_fwd(ctx, x, w, b, running_mean, running_var, training, momentum, eps):
    axes = (0,) + tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    xd = x.astype(np.float64)
    if training:
        mu = xd.mean(axis=axes)
        var = xd.var(axis=axes)
        if running_mean is not None:
            running_mean[...] = (1 - momentum) * running_mean + momentum * mu
        if running_var is not None:
            n = x.size // x.shape[1]
            running_var[...] = (1 - momentum) * running_var + momentum * var * n / (n - 1)
    else:
        mu, var = running_mean.astype(np.float64), running_var.astype(np.float64)
        ctx.eval_mean, ctx.eval_rstd = mu, 1.0 / np.sqrt(var + eps)
    out = (xd - mu.reshape(shape)) / np.sqrt(var.reshape(shape) + eps)
    if w is not None:
        out = out * w.reshape(shape)
    if b is not None:
        out = out + b.reshape(shape)
    return out.astype(x.dtype)


_batch_norm = Op("NativeBatchNormBackward0", _batch_norm_fwd, inputs=("input", "weight", "bias"),
                 saves=("input", "weight"))


@_batch_norm.derivative
def _(ctx, grad):
    x, w = ctx.input, ctx.__dict__.get("weight")
    dims = (0,) + tuple(range(2, x.ndim))
    chan = _channel_shape(x.ndim)
    gw = grad * chan(w) if w is not None else grad
    if ctx.training:
        dx, xhat = _norm_grad(x, gw, dims, ctx.eps)
    else:
        rstd = const(chan_np(ctx.eval_rstd, x.ndim).astype(x._data.dtype))
        xhat = (x - const(chan_np(ctx.eval_mean, x.ndim).astype(x._data.dtype))) * rstd
        dx = gw * rstd
    return (dx if ctx.needs(0) else None,
            (grad * xhat).sum(dims) if ctx.needs(1) else None,
            grad.sum(dims) if ctx.needs(2) else None)


def chan_np(a, ndim):
    return a.reshape((1, -1) + (1,) * (ndim - 2))


def _batch_norm_impl(input, weight, bias, running_mean, running_var, training, momentum, eps):
    c = input.shape[1] if input.ndim > 1 else 0
    for name, t in (("weight", weight), ("bias", bias), ("running_mean", running_mean),
                    ("running_var", running_var)):
        if t is not None and t.numel() != c:
            raise RuntimeError(f"{name} should contain {c} elements not {t.numel()}")
    if not training and (running_mean is None or running_var is None):
        which = "running_mean" if running_mean is None else "running_var"
        raise RuntimeError(f"{which} must be defined in evaluation mode")
    check_floating(input, "batch_norm")
    arrays = (input._data, None if weight is None else weight._data, None if bias is None else bias._data)
    return _batch_norm.apply((input, weight, bias), arrays, {
        "running_mean": None if running_mean is None else running_mean._data,
        "running_var": None if running_var is None else running_var._data,
        "training": bool(training), "momentum": float(momentum), "eps": float(eps)})


def _check_batch_size(input):
    size = math.prod(input.shape[:1] + input.shape[2:]) if input.ndim else 1
    if size == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size "
                         f"torch.Size({list(input.shape)})")


@export(functional=True, torch=False)
def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,
               eps=1e-05):
    """Normalise each channel (dim 1) over the batch and spatial dims; update the running statistics
    in training mode, use them in evaluation mode (one NativeBatchNormBackward0 node)."""
    if training:
        _check_batch_size(input)
    return _batch_norm_impl(input, weight, bias, running_mean, running_var, training, momentum, eps)


@export("batch_norm")
def torch_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled):
    return _batch_norm_impl(input, weight, bias, running_mean, running_var, training, momentum, eps)


# ---------------------------------------------------------------------------
# instance_norm: ATen's composite over batch_norm
# ---------------------------------------------------------------------------

def _instance_norm_impl(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps):
    b, c = input.shape[0], input.shape[1]
    shape = (1, b * c) + tuple(input.shape[2:])
    x = input.contiguous().view(*shape)
    rep = lambda t: None if t is None else t.repeat(b)  # noqa: E731
    rm, rv = rep(running_mean), rep(running_var)
    out = _batch_norm_impl(x, rep(weight), rep(bias), rm, rv, use_input_stats, momentum, eps)
    for given, repeated in ((running_mean, rm), (running_var, rv)):
        if given is not None:
            given._data[...] = repeated._data.reshape(b, c).mean(0)
    return out.view(*input.shape)


@export(functional=True, torch=False)
def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-05):
    """Normalise each channel of each sample over its spatial dims (a batch norm over (1, N*C, ...))."""
    if use_input_stats:
        if math.prod(input.shape[2:]) == 1:
            raise ValueError(f"Expected more than 1 spatial element when training, got input size "
                             f"torch.Size({list(input.shape)})")
    return _instance_norm_impl(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)


@export("instance_norm")
def torch_instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps,
                        cudnn_enabled):
    return _instance_norm_impl(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)


# ---------------------------------------------------------------------------
# group_norm
# ---------------------------------------------------------------------------

def _group_norm_fwd(ctx, x, w, b, groups, eps):
    n, c = x.shape[:2]
    shape = (1, -1) + (1,) * (x.ndim - 2)
    xd = x.astype(np.float64).reshape(n, groups, -1)
    mu = xd.mean(axis=-1, keepdims=True)
    var = xd.var(axis=-1, keepdims=True)
    out = ((xd - mu) / np.sqrt(var + eps)).reshape(x.shape)
    if w is not None:
        out = out * w.reshape(shape)
    if b is not None:
        out = out + b.reshape(shape)
    return out.astype(x.dtype)


_group_norm = Op("NativeGroupNormBackward0", _group_norm_fwd, inputs=("input", "weight", "bias"),
                 saves=("input", "weight"))


@_group_norm.derivative
def _(ctx, grad):
    x, w = ctx.input, ctx.__dict__.get("weight")
    n = x.shape[0]
    gw = grad * _channel_shape(x.ndim)(w) if w is not None else grad
    dx, xhat = _norm_grad(x.reshape(n, ctx.groups, -1), gw.reshape(n, ctx.groups, -1), (-1,), ctx.eps)
    dims = (0,) + tuple(range(2, x.ndim))
    return (dx.reshape(x.shape) if ctx.needs(0) else None,
            (grad * xhat.reshape(x.shape)).sum(dims) if ctx.needs(1) else None,
            grad.sum(dims) if ctx.needs(2) else None)


def _group_norm_impl(input, num_groups, weight, bias, eps):
    if input.ndim < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.ndim}")
    c = input.shape[1]
    if c % num_groups:
        raise RuntimeError(
            f"Expected number of channels in input to be divisible by num_groups, but got input of shape "
            f"{list(input.shape)} and num_groups={num_groups}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.ndim != 1 or t.numel() != c):
            raise RuntimeError(
                f"Expected {name} to be a vector of size equal to the number of channels in input, but got "
                f"{name} of shape {list(t.shape)} and input of shape {list(input.shape)}")
    check_floating(input, "group_norm")
    arrays = (input._data, None if weight is None else weight._data, None if bias is None else bias._data)
    return _group_norm.apply((input, weight, bias), arrays, {"groups": int(num_groups), "eps": float(eps)})


@export(functional=True, torch=False)
def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    """Normalise each group of channels of each sample (one NativeGroupNormBackward0 node)."""
    if input.ndim >= 2 and math.prod(input.shape[:1] + input.shape[2:]) * (input.shape[1] // max(num_groups, 1)) == 1:
        raise ValueError(f"Expected more than 1 value per group when training, got input size "
                         f"torch.Size({list(input.shape)})")
    return _group_norm_impl(input, num_groups, weight, bias, eps)


@export("group_norm")
def torch_group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    return _group_norm_impl(input, num_groups, weight, bias, eps)
