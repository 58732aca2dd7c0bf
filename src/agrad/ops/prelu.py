"""prelu: PyTorch's ``_prelu_kernel`` and its backward, ``_prelu_kernel_backward``, an op of its
own (``PreluKernelBackwardBackward0`` under ``create_graph``: the gradient depends on the input
and the weight through that one node, as ``derivatives.yaml`` has it)."""

from __future__ import annotations

import numpy as np

from ..tensor import Tensor, _scalar_name
from ._layout import iterator_layout
from ._op import Op, export, zeros_like_grad
from .nn import check_floating
from .selection import where


def _prelu_fwd(ctx, a, w):
    return np.where(a > 0, a, w * a).astype(a.dtype, copy=False)


_prelu = Op("PreluKernelBackward0", _prelu_fwd, inputs=("self", "weight"), saves=("self", "weight"),
            iterated=True)  # (_prelu_kernel: TensorIterator over self and the broadcast weight)


def _prelu_backward_fwd(ctx, g, x, w):
    """The CPU kernel: the input's gradient and the (broadcast) weight's, of the input's shape."""
    pos = x > 0
    # (both outputs of one TensorIterator over self, the broadcast weight and grad_out: laid out as it lays them)
    operands = (x, w, g)
    return (iterator_layout(np.where(pos, g, w * g).astype(x.dtype, copy=False), operands),
            iterator_layout(np.where(pos, x.dtype.type(0), x * g).astype(x.dtype, copy=False), operands))


_prelu_backward = Op("PreluKernelBackwardBackward0", _prelu_backward_fwd, inputs=("grad_output", "self", "weight"),
                     saves=("grad_output", "self", "weight"), outputs=None, multi_grad="undefined", internal=True)


@_prelu.derivative
def _(ctx, grad):
    x, w = ctx.self, ctx.weight
    return tuple(_prelu_backward.apply((grad, x, w), (grad._data, x._data, w._data), {}))


def _zero(t):
    return Tensor._make(np.zeros((), t._data.dtype))


@_prelu_backward.derivative
def _(ctx, grads):
    """derivatives.yaml's _prelu_kernel_backward entry (``self >= 0`` there, ``> 0`` in the kernel);
    C++ operands made right to left."""
    gg_in, gg_w = grads
    g, x, w = ctx.grad_output, ctx.self, ctx.weight
    nonneg = x >= 0
    d_grad = d_self = d_weight = None
    if ctx.needs(0):
        if gg_in is None:
            d_grad = where(nonneg, _zero(g), gg_w * x)
        elif gg_w is None:
            d_grad = where(nonneg, gg_in, gg_in * w)
        else:
            by_x = gg_w * x
            d_grad = where(nonneg, gg_in, gg_in * w + by_x)
    if ctx.needs(1):
        d_self = zeros_like_grad(x) if gg_w is None else where(nonneg, _zero(x), g * gg_w)
    if ctx.needs(2):
        d_weight = zeros_like_grad(x) if gg_in is None else where(nonneg, _zero(w), g * gg_in)
    return d_grad, d_self, d_weight


@export(method=True, functional=True)
def prelu(input, weight):
    """max(0, x) + weight * min(0, x), one weight per channel (dim 1) or one for all."""
    if input.dtype is not weight.dtype:
        raise RuntimeError(
            f"prelu: Type promoting not supported. Got {_scalar_name(input.dtype)} and {_scalar_name(weight.dtype)}")
    if weight.numel() != 1:
        if input.ndim == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape[1] if input.ndim > 1 else 1
        if channels != weight.numel():
            raise RuntimeError(
                "Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                f"{weight.numel()} and channel size = {channels}.")
    if weight.ndim > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.ndim}")
    if input.ndim != weight.ndim:
        shape = [1] * input.ndim
        if input.ndim > 1:
            shape[1] = weight.numel()
        weight = weight.reshape(tuple(shape))  # (a 0-d input: a 0-d weight)
    check_floating(input, "prelu_cpu")
    return _prelu(input, weight)


