"""Which oneDNN kernel PyTorch's grouped float32 convolutions run, and so whether they read the padding.

A float32 convolution with ``groups > 1`` goes to oneDNN (ConvParams::use_mkldnn), whose AVX2 kernels
either never read the padding (the direct ones: a tap over a padded position adds nothing, so an inf
or NaN weight, or output gradient, there makes no NaN) or multiply padded zeros (``x64:gemm:jit``, its
im2col: inf * 0 = NaN, as agrad's sums do). Which one runs is oneDNN's dispatch list, the first kernel
whose init_conf accepts the shapes (verified with ONEDNN_VERBOSE on this machine, ONEDNN_MAX_CPU_ISA=AVX2:
every kernel name of 5,000 random grouped shapes, plain layouts, one and more samples, strides, dilations,
paddings, 1 to 17 channels a group; the NaN patterns of the three passes on 3,000 more):

- forward (also a transposed convolution's input gradient, oneDNN's deconvolution backward-data):
  ``brdgmm_dw`` for a depthwise one (one input and one output channel a group) in 3-D without dilation;
  ``jit_dw`` for a depthwise 1-D or 2-D one whose kernel reaches past every padding and whose width
  unroll (4 outputs, fewer if narrower) covers the left padding and the right one (jit_uni_dw_conv
  init_conf); ``jit:avx2`` for 8k output channels a group, input channels a group a multiple of 8 or
  fewer than 8 in all (its flat layout), under the direct kernel's width checks (_conv_order.direct_kernel);
  else gemm.
- weight gradient (also a transposed convolution's, whose roles of input and output swap): ``jit_dw``
  for a depthwise undilated 1-D or 2-D one with a kernel at most 3 wide, the stride within it, each
  padding at most half the kernel, the height's non-unit padding a multiple of the stride, the input
  at least the kernel's height (jit_uni_dw_conv_bwd_weights init_conf); ``jit:avx2`` for 8k input and
  output channels a group where the ungrouped rule takes it; else gemm.
- input gradient: gemm's col2im drops the padded columns, so only the strided brgemm kernel differs
  (convolution._strided_deconv_rows, more than 8 output channels a group).

Channels-last inputs or weights (oneDNN's nhwc kernels, brgemm ones): the forward by
forward_direct_channels_last; their input and weight gradients keep the gemm sums, whose NaN patterns
are oneDNN's (150 of 150 random shapes with an inf weight: ``brg_conv_bwd``, ``jit_dw``, ``jit:avx2``
and ``gemm`` backward kernels).
"""
from __future__ import annotations

import math

import numpy as np

from ._conv_order import bwd_weights_direct, direct_kernel
from ._layout import suggested_format


def plain(x, w):
    """Neither the input nor the weight channels-last (PyTorch's mkldnn_conv_use_channels_last: then oneDNN's
    nhwc kernels, brgemm ones, not modelled here)."""
    return not suggested_format(x) and not suggested_format(w)


def _end_pad(start, out, size, stride, ext):
    return (out - 1) * stride + ext - (size + start)


def _as_2d(size, k, stride, padding, dilation):
    """A 1-D convolution's geometry as ATen hands it to oneDNN: 2-D of height 1."""
    if len(size) == 1:
        return (1,) + tuple(size), (1,) + tuple(k), (1,) + tuple(stride), (0,) + tuple(padding), \
            (1,) + tuple(dilation)
    return tuple(size), tuple(k), tuple(stride), tuple(padding), tuple(dilation)


def _jit_dw(size, k, stride, padding, dilation):
    """jit_uni_dw_conv_fwd_kernel<avx2>::init_conf's shape checks (2-D)."""
    ext = [(kk - 1) * d + 1 for kk, d in zip(k, dilation)]
    out = [(i + 2 * p - e) // s + 1 for i, p, e, s in zip(size, padding, ext, stride)]
    for i in range(2):
        if ext[i] <= padding[i] or ext[i] <= _end_pad(padding[i], out[i], size[i], stride[i], ext[i]):
            return False
    ur = min(4, out[1])
    r_pad = max(0, _end_pad(padding[1], out[1] - out[1] % ur, size[1], stride[1], ext[1]))
    return padding[1] <= ur and r_pad <= ur


def _jit_dw_weights(size, k, stride, padding, dilation):
    """jit_uni_dw_conv_bwd_weights_kernel<avx2>::init_conf's shape checks (2-D)."""
    if any(d != 1 for d in dilation):
        return False
    (ih, iw), (kh, kw), (sh, sw), (t, l) = size, k, stride, padding
    oh, ow = ((i + 2 * p - kk) // s + 1 for i, p, kk, s in zip(size, padding, k, stride))
    if kw > 3 or sw > kw:
        return False
    r, b = max(0, _end_pad(l, ow, iw, sw, kw)), max(0, _end_pad(t, oh, ih, sh, kh))
    if oh != (ih + t + b - kh) // sh + 1 or ow != (iw + l + r - kw) // sw + 1:
        return False
    if not (t <= kh // 2 and b <= kh // 2 and l <= kw // 2 and r <= kw // 2) or ih < kh + (-t) % sh:
        return False
    return not (t > 1 and t % sh) and not (b > 1 and b % sh)


def forward_kernel(x_shape, w_shape, groups, stride, padding, dilation):
    """oneDNN's (AVX2) forward kernel for this grouped float32 convolution in plain layouts (input ``x_shape``,
    weight ``w_shape`` (OC, C / groups, *k)): 'brdgmm_dw', 'jit_dw', 'jit' (jit:avx2) or 'gemm' (x64:gemm:jit)."""
    cpg, opg, sp = w_shape[1], w_shape[0] // groups, len(x_shape) - 2
    if cpg == 1 and opg == 1:
        if sp == 3:
            return "brdgmm_dw" if all(d == 1 for d in dilation) else "gemm"
        return "jit_dw" if _jit_dw(*_as_2d(x_shape[2:], w_shape[2:], stride, padding, dilation)) else "gemm"
    if opg % 8 or not (x_shape[1] < 8 or cpg % 8 == 0):
        return "gemm"
    return "jit" if direct_kernel((x_shape[0], cpg) + tuple(x_shape[2:]), (opg, cpg) + tuple(w_shape[2:]), stride,
                                  padding, dilation) else "gemm"


def forward_direct(x_shape, w_shape, groups, stride, padding, dilation):
    """Whether oneDNN's forward kernel for this grouped float32 convolution (input ``x_shape``, weight
    ``w_shape`` (OC, C / groups, *k)) never reads the padding."""
    return forward_kernel(x_shape, w_shape, groups, stride, padding, dilation) != "gemm"


def forward_direct_channels_last(x_shape, w_shape, groups, stride, padding, dilation):
    """forward_direct for a channels-last input or weight (oneDNN's nhwc kernels): ``brg_conv_fwd`` for any
    but a depthwise one, ``brdgmm_dw`` for an undilated depthwise one, then ``jit_dw`` (2-D), ``jit:avx2``
    (the direct kernel's checks), else gemm (measured: 300 of 301 random shapes, convgroups40)."""
    cpg, opg, sp = w_shape[1], w_shape[0] // groups, len(x_shape) - 2
    if cpg != 1 or opg != 1 or all(d == 1 for d in dilation):
        return True
    if sp < 3 and _jit_dw(*_as_2d(x_shape[2:], w_shape[2:], stride, padding, dilation)):
        return True
    return direct_kernel((x_shape[0], cpg) + tuple(x_shape[2:]), (opg, cpg) + tuple(w_shape[2:]), stride, padding,
                         dilation)


def weights_direct(x_shape, w_shape, groups, stride, padding, dilation):
    """Whether oneDNN's weight-gradient kernel for this grouped float32 convolution never reads the
    padding."""
    cpg, opg, sp = w_shape[1], w_shape[0] // groups, len(x_shape) - 2
    if cpg == 1 and opg == 1:
        return sp < 3 and _jit_dw_weights(*_as_2d(x_shape[2:], w_shape[2:], stride, padding, dilation))
    o = [(i + 2 * p - (kk - 1) * d - 1) // s + 1
         for i, p, kk, d, s in zip(x_shape[2:], padding, w_shape[2:], dilation, stride)]
    return cpg % 8 == 0 and opg % 8 == 0 and bwd_weights_direct(
        (x_shape[0], cpg) + tuple(x_shape[2:]), o, w_shape[2:], stride, padding, dilation)


def _cols(src, k, dilation, padding, stride, o, groups):
    from .convolution import _valid_cols, im2col_np
    pads = tuple((p, p) for p in padding)
    length = math.prod(o)
    cols = im2col_np(src, k, dilation, pads, stride, o).reshape(src.shape[0], groups, -1, length)
    valid = _valid_cols(src, k, dilation, pads, stride, o).reshape(groups, 1, -1, length)
    return cols, valid


def grads(g, x, w, geo, mask, out):
    """Replaces in ``out`` (input, weight, bias gradients of a float32 convolution on oneDNN) the
    gradients of a grouped one whose kernel skips the padding where a non-finite value meets it: a
    convolution's weight gradient (grad_output non-finite), a transposed one's input gradient (its
    forward convolution of grad_output, weight non-finite) and weight gradient (input non-finite)."""
    from ._conv_order import _unpadded_products
    grp, st, pad, dil = geo["groups"], geo["stride"], geo["padding"], geo["dilation"]
    if not any(pad):
        return out
    k = w.shape[2:]
    if not geo["transposed"]:
        if mask[1] and not np.isfinite(g).all() and weights_direct(x.shape, w.shape, grp, st, pad, dil):
            cols, valid = _cols(x, k, dil, pad, st, g.shape[2:], grp)
            gg = g.reshape(g.shape[0], grp, g.shape[1] // grp, -1)
            out[1] = _unpadded_products(gg, cols, valid, 3).sum(0).reshape(w.shape).astype(g.dtype, copy=False)
        return out
    # (a transposed convolution: the convolution whose input is grad_output (N, C_out, *S_out), output x)
    if mask[0] and not np.isfinite(w).all() and forward_direct(g.shape, w.shape, grp, st, pad, dil):
        cols, valid = _cols(g, k, dil, pad, st, x.shape[2:], grp)
        wg = w.reshape(1, grp, w.shape[0] // grp, -1)
        out[0] = _unpadded_products(wg, cols, valid, 2).reshape(x.shape).astype(g.dtype, copy=False)
    if mask[1] and not np.isfinite(x).all() and weights_direct(g.shape, w.shape, grp, st, pad, dil):
        cols, valid = _cols(g, k, dil, pad, st, x.shape[2:], grp)
        xg = x.reshape(x.shape[0], grp, x.shape[1] // grp, -1)
        out[1] = _unpadded_products(xg, cols, valid, 3).sum(0).reshape(w.shape).astype(g.dtype, copy=False)
    return out
