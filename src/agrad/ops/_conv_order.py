"""oneDNN's order of additions in PyTorch's float32 convolution forward (its AVX2 direct kernels).

PyTorch runs an ungrouped float32 convolution (ConvParams::use_mkldnn) on oneDNN, which on an AVX2
machine picks ``jit:avx2`` (the direct kernel: channels blocked by 8, ``aBcd8b``, or plain ones below
8 input channels) or ``jit_1x1:avx2`` (1x1 kernels), unless the padding reaches the kernel's extent
or the kernel's width unrolling cannot cover the padding (then ``gemm:jit``, oneDNN's own im2col +
sgemm, not reproduced: numpy's matmul stays). Both direct kernels keep one float32 accumulator per
output element (a register), started at the bias (or +0.0) and updated by fused multiply-adds in this
order (oneDNN's jit_avx2_conv_kernel_f32 / jit_avx2_convolution.cpp):

    for each block of 8 input channels (the ``ic_block``; all of them below 8):
        for kd, for kh, for kw (taps in the padding skipped):
            for each channel c of the block: acc = fma(x[c, window tap], w[oc, c, tap], acc)

(a 1x1 kernel's chain is the input channels in order, the same rule). Emulated here exactly: each
product of two float32 is exact in float64, ``float32(float64(acc) + product)`` is the fused
multiply-add's single rounding (a float64 sum that is inexact and falls on a float32 tie moved toward
the exact sum first, as _gemm_order.fma_chain does). One numpy pass per (channel, tap) over the whole
output: above ``FMA_CAP`` multiply-adds, or ``MAX_STEPS`` steps, numpy's matmul stays (issue 12's
speed). docs/semantics.md, "float32 convolution".
"""
from __future__ import annotations

import math

import numpy as np

from ._layout import suggested_format

FMA_CAP = 1 << 20      # N * OC * L * IC * K multiply-adds emulated (a numpy pass per channel and tap)
MAX_STEPS = 1024       # IC * K passes at most
IC_BLOCK = 8           # AVX2's simd width: the direct kernel's input-channel block


def _end_pad(start, out, size, stride, ext):
    """oneDNN's calculate_end_padding."""
    return (out - 1) * stride + ext - (size + start)


def direct_kernel(x_shape, w_shape, stride, padding, dilation):
    """Whether oneDNN (AVX2) runs this ungrouped float32 convolution forward with a direct kernel
    (jit_avx2_conv_fwd_kernel_f32::init_conf's checks; a 1x1 one's jit_1x1 kernel sums alike): no
    tap's extent within the padding, the left padding within the width unroll (3 outputs, fewer if
    the output is narrower), no padding beside a kernel wider than 7 with a stride. 1-D convolutions
    as ATen passes them, 2-D of height 1."""
    if len(x_shape) == 3:
        x_shape, w_shape = (x_shape[0], x_shape[1], 1, x_shape[2]), (w_shape[0], w_shape[1], 1, w_shape[2])
        stride, padding, dilation = (1,) + tuple(stride), (0,) + tuple(padding), (1,) + tuple(dilation)
    ext = [(k - 1) * d + 1 for k, d in zip(w_shape[2:], dilation)]
    out = [(i + 2 * p - e) // s + 1 for i, p, e, s in zip(x_shape[2:], padding, ext, stride)]
    if any(o <= 0 for o in out):
        return False
    for i, p, e, s, o in zip(x_shape[2:], padding, ext, stride, out):
        if e <= p or e <= _end_pad(p, o, i, s, e):
            return False
    iw, kw, sw, ow, l_pad, e_w = x_shape[-1], w_shape[-1], stride[-1], out[-1], padding[-1], ext[-1]
    ur_w = min(3, ow)
    tail = ow % ur_w
    if l_pad > ur_w:
        return False
    if kw > 7 and not ((padding[-2] == 0 and l_pad == 0) or all(s == 1 for s in stride[-2:])):
        return False
    r_pad = max(0, _end_pad(l_pad, ow - tail, iw, sw, e_w))
    if r_pad > ur_w * sw and ow // ur_w > 1:
        ur_w = min(r_pad // sw + tail, min(ow, 7))
        if ur_w <= 0:
            return False
        tail = ow % ur_w
        r_pad = max(0, _end_pad(l_pad, ow - tail, iw, sw, e_w))
        if ur_w < max(l_pad, r_pad):
            return False
    return True


def fits(x_shape, w_shape, out_size):
    """Whether the emulated chain is cheap enough: N * OC * L outputs times IC * K steps."""
    steps = math.prod(w_shape[1:])
    return steps <= MAX_STEPS and x_shape[0] * w_shape[0] * out_size * steps <= FMA_CAP


def fma_chain(cols, w, b, padded=None):
    """The direct kernel's sums: ``cols`` the im2col (N, C, K, L) of the input (zeros in the padding),
    ``w`` (OC, C, K) float32, ``b`` the bias (OC,) or None. Returns (N, OC, L) float32. ``padded``
    (C, K, L) True at the padding's taps, whose products then add -0.0 (the sum's identity), as the
    kernel skips them: only a bias's -0.0 can tell (where every other product is -0.0 too). Each step
    one product pass and one add pass (float64, exact) rounded into the float32 accumulator, laid out
    (OC, N * L) so that both run along rows."""
    n, c, k, length = cols.shape
    oc = w.shape[0]
    acc = np.zeros((oc, n * length), np.float32)
    if b is not None:
        acc[...] = b[:, None]  # (a copy: 0.0 + -0.0 would lose the bias's sign)
    cols = cols.transpose(1, 2, 0, 3).reshape(c, k, n * length).astype(np.float64)
    wc = w.transpose(1, 2, 0).astype(np.float64)[..., None]
    if padded is not None:
        padded = np.tile(padded, n)
    tmp = np.empty(acc.shape, np.float64)
    s = np.empty(acc.shape, np.float64)
    low = np.empty(acc.shape, np.int64)
    for c0 in range(0, c, IC_BLOCK):
        for t in range(k):
            for ci in range(c0, min(c, c0 + IC_BLOCK)):
                np.multiply(cols[ci, t], wc[ci, t], out=tmp)
                if padded is not None:
                    np.copyto(tmp, -0.0, where=padded[ci, t])
                np.add(tmp, acc, out=s)
                np.bitwise_and(s.view(np.int64), 0x1FFFFFFF, out=low)
                np.bitwise_xor(low, 0x10000000, out=low)
                if not low.all():  # (rare) a float32 tie
                    _round_ties(s, acc, tmp, low == 0)
                acc[...] = s  # (the exact sum rounded once)
    return np.ascontiguousarray(acc.reshape(oc, n, length).transpose(1, 0, 2))


def _round_ties(s, acc, p, half):
    """Where the float64 sum ``s`` of ``acc`` and the product ``p`` lies halfway between two float32
    values but is itself inexact, moves it one float64 step toward the exact sum (its error's sign,
    TwoSum), so that its rounding to float32 is the fused multiply-add's (no double rounding)."""
    a = acc[half].astype(np.float64)
    sh, ph = s[half], p[half]
    bp = sh - a
    e = (a - (sh - bp)) + (ph - bp)
    s[half] = np.where(e != 0, np.nextafter(sh, np.where(e > 0, np.inf, -np.inf)), sh)


def forward(x, w, b, cols, stride, padding, dilation, mkldnn, groups):
    """The convolution's (N, OC, L) float32 output, bias included, where oneDNN's direct kernel runs it
    and the emulation is cheap enough (``cols`` im2col's (N, C * K, L)); else None. Channels-last
    input or weight (oneDNN's ``brg_conv_fwd:avx2``, another order) keep numpy's matmul."""
    if not (mkldnn and groups == 1 and x.dtype == np.float32 and w.dtype == np.float32
            and direct_kernel(x.shape, w.shape, stride, padding, dilation) and fits(x.shape, w.shape, cols.shape[-1])):
        return None
    if suggested_format(x) or suggested_format(w) or (w.ndim == 3 and not w.flags.c_contiguous):
        return None  # channels-last (a 1-D weight's view as 2-D too): oneDNN's brgemm kernels, not these
    k = math.prod(w.shape[2:])
    padded = None
    if b is not None and any(padding) and np.signbit(b[b == 0]).any():
        ones = np.ones((1, x.shape[1]) + x.shape[2:], np.float32)
        from .convolution import im2col_np  # (the rare case; convolution imports this module)
        o = [(i + 2 * p - (kk - 1) * d - 1) // s + 1
             for i, p, kk, d, s in zip(x.shape[2:], padding, w.shape[2:], dilation, stride)]
        padded = im2col_np(ones, w.shape[2:], dilation, tuple((p, p) for p in padding), stride, o)[0] == 0
        padded = padded.reshape(x.shape[1], k, -1)
    return fma_chain(cols.reshape(x.shape[0], x.shape[1], k, -1), w.reshape(w.shape[0], x.shape[1], k),
                     b, padded)
