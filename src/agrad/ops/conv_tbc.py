"""torch.conv_tbc / F.conv_tbc: a 1-D convolution of a (time, batch, channels) input (ATen's
ConvolutionTBC.cpp), node ConvTbcBackward0.

The output starts as the bias broadcast over (time, batch); each kernel tap k adds
``input[i_shift : i_shift + t] @ weight[k]`` (an addmm) into ``output[o_shift : o_shift + t]``, with
i_shift = max(0, k - pad), o_shift = max(0, pad - k), t = min(ilen + pad - k, olen) - o_shift.
The backward is ATen's conv_tbc_backward (the same taps with the transposed products; the bias's
gradient the output gradient summed over time, then batch), written with tensor ops as ATen's is,
so create_graph records it (CopySlices) and differentiates it again.
"""

from __future__ import annotations

import numpy as np

from ..tensor import Tensor
from ._op import FUNCTIONS, Op, export


def _t(a):
    return Tensor._make(a)


def _taps(ilen, olen, kw, pad):
    for k in range(kw):
        i_shift, o_shift = max(0, k - pad), max(0, pad - k)
        t = min(ilen + pad - k, olen) - o_shift
        if t > 0:
            yield k, i_shift, o_shift, t


def _addmm(c, a, b):
    """c + a @ b with agrad's addmm (the BLAS products of the mm family)."""
    return FUNCTIONS["addmm"](_t(c), _t(a), _t(b))._data


def _conv_tbc_fwd(ctx, x, w, b, pad):
    ilen, batch, _ = x.shape
    kw, _, planes = w.shape
    olen = ilen - kw + 1 + 2 * pad
    out = np.empty((olen, batch, planes), x.dtype)
    out[...] = b
    for k, i_shift, o_shift, t in _taps(ilen, olen, kw, pad):
        rows = out[o_shift:o_shift + t].reshape(t * batch, planes)
        out[o_shift:o_shift + t] = _addmm(rows, x[i_shift:i_shift + t].reshape(t * batch, -1), w[k]).reshape(
            t, batch, planes)
    return out


_conv_tbc = Op("ConvTbcBackward0", _conv_tbc_fwd, inputs=("self", "weight", "bias"), saves=("self", "weight", "bias"))


@_conv_tbc.derivative
def _(ctx, grad):
    """ATen's conv_tbc_backward, written with tensor ops as it is (addmm_ into narrowed views of
    zeros; the bias's gradient summed over time then batch and copied): recorded under create_graph
    (CopySlices, CopyBackwards), so it has PyTorch's second derivative."""
    x, w, bias = ctx.self, ctx.weight, ctx.bias
    ilen, batch, inplanes = x.shape
    kw, _, planes = w.shape
    olen = grad.shape[0]
    zeros_like = FUNCTIONS["zeros_like"]
    g_in = g_w = g_b = None
    if ctx.needs(0):
        g_in = zeros_like(x)
        for k, i_shift, o_shift, t in _taps(ilen, olen, kw, ctx.pad):
            d_o = grad.narrow(0, o_shift, t).view(t * batch, planes)
            g_in.narrow(0, i_shift, t).view(t * batch, inplanes).addmm_(d_o, w[k].t())
    if ctx.needs(1):
        g_w = zeros_like(w)
        for k, i_shift, o_shift, t in _taps(ilen, olen, kw, ctx.pad):
            d_o = grad.narrow(0, o_shift, t).view(t * batch, planes)
            g_w[k].addmm_(x.narrow(0, i_shift, t).view(t * batch, inplanes).t(), d_o)
    if ctx.needs(2):
        g_b = zeros_like(bias)
        g_b.copy_(grad.sum(0, False).sum(0))
    return g_in, g_w, g_b


@export("conv_tbc", functional="conv_tbc")
def conv_tbc(input, weight, bias, pad=0):
    """Convolution over the time dim of a (time, batch, channels) input; weight (kernel, in, out)."""
    if input.ndim != 3:
        raise RuntimeError("Input must have 3 dims: time, batch, in_channel")
    if weight.ndim != 3:
        raise RuntimeError("Weight tensor must have 3 dims: kernel_width, in_channels, out_channels.")
    if bias.ndim != 1:
        raise RuntimeError("Bias must be 1-D")
    if input.shape[2] != weight.shape[1]:
        raise RuntimeError("Input dim 2 (input channels) is not == dim 1 in the weight tensor")
    if weight.shape[2] != bias.shape[0]:
        raise RuntimeError("Bias size must equal dim 2 in the weight tensor (output channels).")
    olen = input.shape[0] - weight.shape[0] + 1 + 2 * int(pad)
    if olen < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {olen}: "
                           f"[{olen}, {input.shape[1]}, {weight.shape[2]}]")
    if weight.dtype is not input.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got {_name(input)} and {_name(weight)}")
    return _conv_tbc(input, weight, bias, pad=int(pad))


def _name(t):
    from ..tensor import _scalar_name
    return _scalar_name(t.dtype)
