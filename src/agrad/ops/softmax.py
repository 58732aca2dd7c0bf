"""softmax, log_softmax and softmin (``torch.softmax``, ``nn.functional``).

Each is one op over a dimension, as in PyTorch's ``derivatives.yaml``: a numpy
forward that subtracts the maximum first, the node name, and a derivative
written with agrad ops (``create_graph=True`` differentiates it again).
"""

from __future__ import annotations

import warnings

import numpy as np

from ..tensor import _wrap_dim
from ._op import Op, export
from .nn import check_floating

def _softmax_dim(input, dim, name, stacklevel):
    if dim is None:
        warnings.warn(
            f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X "
            "as an argument.", UserWarning, stacklevel=stacklevel)
        dim = 0 if input.ndim in (0, 1, 3) else 1
    return _wrap_dim(dim, input.ndim)


def _softmax_fwd(ctx, a, dim):
    if a.ndim == 0:
        return np.ones_like(a)
    e = np.exp(a - np.max(a, axis=dim, keepdims=True))
    return e / np.sum(e, axis=dim, keepdims=True)


_softmax = Op("SoftmaxBackward0", _softmax_fwd, saves=("result",), jvp="symmetric")  # J = diag(y) - y y^T


@_softmax.derivative
def _(ctx, grad):
    y = ctx.result
    if y.ndim == 0:
        return grad * 0
    return y * (grad - (grad * y).sum(ctx.dim, keepdim=True))


@_softmax.raw_derivative
def _(ctx, g):
    y = ctx.result._data
    if y.ndim == 0:
        return np.multiply(g, 0)
    return y * (g - np.add.reduce(g * y, axis=ctx.dim, keepdims=True, dtype=g.dtype))


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


@_log_softmax.raw_derivative
def _(ctx, g):
    y = ctx.result._data
    if y.ndim == 0:
        return np.multiply(g, 0)
    return g - np.exp(y) * np.add.reduce(g, axis=ctx.dim, keepdims=True, dtype=g.dtype)


@_log_softmax.forward_derivative
def _(ctx, t):
    y = ctx.result
    if y.ndim == 0:
        return t * 0
    return t - (y.exp() * t).sum(ctx.dim, keepdim=True)


def _prepare(input, dtype, kernel):
    if dtype is not None:
        return input.to(dtype)
    if not input.dtype.is_floating_point:
        check_floating(input, kernel)
    return input


@export(method=True, functional=True)
def softmax(input, dim=None, _stacklevel=3, dtype=None):
    x = _prepare(input, dtype, "softmax_lastdim_kernel_impl")
    return _softmax(x, dim=_softmax_dim(x, dim, "softmax", _stacklevel))


@export(method=True, functional=True)
def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    x = _prepare(input, dtype, "log_softmax_lastdim_kernel_impl")
    return _log_softmax(x, dim=_softmax_dim(x, dim, "log_softmax", _stacklevel))


@export(functional=True, torch=False)
def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim(input, dim, "softmin", _stacklevel)
    return softmax(-input, dim, dtype=dtype)
