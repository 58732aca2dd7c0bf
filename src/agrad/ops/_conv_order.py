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


def bwd_weights_direct(src_shape, out_size, k, stride, padding, dilation):
    """Whether oneDNN's (AVX2) jit backward-weights kernel takes this ungrouped float32 convolution's weight
    gradient (jit_avx2_conv_bwd_weights_kernel_f32::init_conf's checks, ``src_shape`` the convolution's input,
    ``out_size`` its output's spatial sizes): 1-D, 2-D or 3-D, undilated, each side's padding below the kernel
    (3-D: none in depth, at either end), a kernel no taller (nor deeper) than the input; it never reads the
    padding. Else ``gemm:jit``, whose im2col has zeros there (an inf times one: NaN)."""
    if len(src_shape) not in (3, 4, 5) or any(d != 1 for d in dilation) or k[-1] >= 14:
        return False
    if src_shape[1] == 3 and math.prod(src_shape[2:]) == 1:  # (3 channels of one pixel: measured, gemm:jit)
        return False
    if len(src_shape) >= 4 and k[-2] > src_shape[-2]:
        return False
    if len(src_shape) == 5 and (k[0] > src_shape[2] or padding[0] or (out_size[0] - 1) * stride[0] + k[0] > src_shape[2]):
        return False
    return all(p < kk and max(0, (o - 1) * s + kk - i - p) < kk
               for i, o, kk, s, p in zip(src_shape[2:], out_size, k, stride, padding))


def fits(steps, outputs):
    """Whether the emulated chain is cheap enough: ``steps`` (channels times taps) passes over
    ``outputs`` elements."""
    return steps <= MAX_STEPS and steps * outputs <= FMA_CAP


def blocked_chain(a, b, chunk, acc0=None, padded=None):
    """oneDNN's blocked FMA chains: ``a`` (R, K, M) and ``b`` (R, K, L) float64, the reduction's R
    channels and K taps; returns the (M, L) float32 sums over both of a[r, k, :, None] * b[r, k, None, :]:
    per chunk of ``chunk`` channels, one chain from +0.0 (the first from ``acc0``, the bias) over blocks
    of 8 channels, each block's taps, each tap's channels (acc = fma(a, b, acc)), then the chunks'
    sums added in order (each to the sum before, float32). ``padded`` (R, K, L) True at the padding's
    taps, whose products then add -0.0 (the sum's identity), as the kernel skips them: only a bias's
    -0.0 can tell (where every other product is -0.0 too). Each step one product pass and one add
    pass (float64, exact) rounded into the float32 accumulator, along rows."""
    r, k = a.shape[:2]
    shape = (a.shape[2], b.shape[2])
    tmp = np.empty(shape, np.float64)
    s = np.empty(shape, np.float64)
    low = np.empty(shape, np.int64)
    out = None
    for q0 in range(0, r, chunk):
        acc = np.zeros(shape, np.float32)
        if q0 == 0 and acc0 is not None:
            acc[...] = acc0[:, None]  # (a copy: 0.0 + -0.0 would lose the bias's sign)
        for c0 in range(q0, min(r, q0 + chunk), IC_BLOCK):
            for t in range(k):
                for ci in range(c0, min(r, c0 + IC_BLOCK)):
                    np.multiply(a[ci, t, :, None], b[ci, t], out=tmp)
                    if padded is not None:
                        np.copyto(tmp, -0.0, where=padded[ci, t])
                    np.add(tmp, acc, out=s)
                    np.bitwise_and(s.view(np.int64), 0x1FFFFFFF, out=low)
                    np.bitwise_xor(low, 0x10000000, out=low)
                    if not low.all():  # (rare) a float32 tie
                        _round_ties(s, acc, tmp, low == 0)
                    acc[...] = s  # (the exact sum rounded once)
        out = acc if out is None else np.add(acc, out, out=acc)
    return out


def _round_ties(s, acc, p, half):
    """Where the float64 sum ``s`` of ``acc`` and the product ``p`` lies halfway between two float32
    values but is itself inexact, moves it one float64 step toward the exact sum (its error's sign,
    TwoSum), so that its rounding to float32 is the fused multiply-add's (no double rounding)."""
    a = acc[half].astype(np.float64)
    sh, ph = s[half], p[half]
    bp = sh - a
    e = (a - (sh - bp)) + (ph - bp)
    s[half] = np.where(e != 0, np.nextafter(sh, np.where(e > 0, np.inf, -np.inf)), sh)


def _plain(x, w):
    """Neither array channels-last (oneDNN's brgemm kernels then, another order; a 1-D weight's view
    as 2-D too), both float32."""
    return (x.dtype == np.float32 and w.dtype == np.float32 and not suggested_format(x)
            and not suggested_format(w) and (w.ndim != 3 or w.flags.c_contiguous))


def forward(x, w, b, cols, stride, padding, dilation, mkldnn, groups):
    """The convolution's (N, OC, L) float32 output, bias included, where oneDNN's direct kernel runs it
    and the emulation is cheap enough (``cols`` im2col's (N, C * K, L)); else None. A 1x1 kernel's
    jit_1x1 sums chunks of 128 input channels (its reduce blocking), each from +0.0 (the first from
    the bias), and adds them; channels-last input or weight keep numpy's matmul."""
    n, c, k = x.shape[0], x.shape[1], math.prod(w.shape[2:])
    if mkldnn and groups > 1 and x.dtype == w.dtype == np.float32:
        from . import _conv_group_order
        return _conv_group_order.forward(x, w, b, cols, stride, padding, dilation, groups, _plain(x, w))
    if mkldnn and groups == 1 and _plain(x, w) and not direct_kernel(x.shape, w.shape, stride, padding, dilation):
        from . import _conv_group_order  # (oneDNN's gemm:jit, as a grouped one's)
        return _conv_group_order.forward(x, w, b, cols, stride, padding, dilation, 1, kernel="gemm")
    if not (mkldnn and groups == 1 and _plain(x, w) and direct_kernel(x.shape, w.shape, stride, padding, dilation)
            and fits(c * k, n * w.shape[0] * cols.shape[-1])):
        return None
    chunk = c
    if k == 1 and c > 128:
        if any(v != 1 for v in stride):
            return None  # (jit_1x1 or jit:avx2: not told apart)
        chunk = 128
    padded = None
    if b is not None and any(padding) and np.signbit(b[b == 0]).any():
        ones = np.ones((1, c) + x.shape[2:], np.float32)
        from .convolution import im2col_np  # (the rare case; convolution imports this module)
        o = [(i + 2 * p - (kk - 1) * d - 1) // s + 1
             for i, p, kk, d, s in zip(x.shape[2:], padding, w.shape[2:], dilation, stride)]
        padded = im2col_np(ones, w.shape[2:], dilation, tuple((p, p) for p in padding), stride, o)[0] == 0
        padded = np.tile(padded.reshape(c, k, -1), n)
    length = cols.shape[-1]
    bb = cols.reshape(n, c, k, length).transpose(1, 2, 0, 3).reshape(c, k, n * length).astype(np.float64)
    a = w.reshape(w.shape[0], c, k).transpose(1, 2, 0).astype(np.float64)
    out = blocked_chain(a, bb, chunk, b, padded)
    if c % IC_BLOCK and (c > IC_BLOCK or k == 1 and all(v == 1 for v in stride)):
        # (an input blocked by 8 channels, zeros after its last: jit_1x1's always, jit:avx2's from 9 channels;
        # each tap's chain over that block adds their +0.0 products last, so no sum ends at -0.0)
        out += np.float32(0)
    return np.ascontiguousarray(out.reshape(-1, n, length).transpose(1, 0, 2))


def slow_forward(x, w, b, cols):
    """ATen's slow_conv2d / slow_conv3d (no oneDNN: float64, a small one-sample float32 one): per sample
    (and group: ATen convolves each group alone), one gemm of the weight (OC x C * K) and the sample's
    im2col (C * K x L, ``cols`` (N, G, C * K / G, L)) into the output, whose rows hold the bias first
    (beta 1, MKL's sums start from it where they are sequential) or are ignored (beta 0: sums from +0.0):
    addmm's order where _gemm_order knows it (the output's offset for its peeled columns), numpy's
    matmul otherwise. None: a channels-last input or weight (another gemm) or other dtypes."""
    from ._gemm_order import dgemm_zero_signs, mkl_product
    if not (x.dtype == w.dtype and x.dtype.char in "fd" and type(x) is type(w) is np.ndarray
            and not suggested_format(x) and not suggested_format(w)):
        return None
    n, g, _, length = cols.shape
    oc = w.shape[0] // g
    wg = w.reshape(g, oc, -1)
    out = np.empty((n, g, oc, length), x.dtype)
    for j in range(g):
        c = None if b is None else np.ascontiguousarray(np.broadcast_to(b[j * oc:(j + 1) * oc, None], (oc, length)))
        for i in range(n):
            cm = np.ascontiguousarray(cols[i, j])
            r = mkl_product(wg[j], cm, c, c_off=i * oc * length)
            if r is None:
                r = wg[j] @ cm
                if c is not None:
                    r = r + c if r.dtype != np.float64 else dgemm_zero_signs(r + c, wg[j], cm, c)
            out[i, j] = r + x.dtype.type(0) if c is None else r
    return out.reshape(n, g * oc, length)


def backward_data_chunk(x_shape, w_shape, stride, padding, dilation):
    """oneDNN's (AVX2) output-channel chunk for the input gradient of this ungrouped float32
    convolution, or None where another kernel (or an unknown order) runs it: stride 1 only (strided
    ones go to ``brgconv_strided:avx2``). A 1x1 kernel without padding: ``jit_1x1:avx2``, chunks of 64
    (its reduce blocking); else ``jit:avx2``'s backward-data kernel where its init_conf accepts the
    shape (no tap's extent within the padding, a width unroll covering the left overflow, the right
    one within a block): chunks of nb_oc_blocking blocks of 8, 4 below 15 output columns, 2 below 40,
    else 1 (3-D: 1)."""
    if len(x_shape) == 3:
        x_shape, w_shape = (x_shape[0], x_shape[1], 1, x_shape[2]), (w_shape[0], w_shape[1], 1, w_shape[2])
        stride, padding, dilation = (1,) + tuple(stride), (0,) + tuple(padding), (1,) + tuple(dilation)
    if any(s != 1 for s in stride):
        return None
    if all(k == 1 for k in w_shape[2:]) and not any(padding):
        return 64
    ext = [(k - 1) * d + 1 for k, d in zip(w_shape[2:], dilation)]
    out = [i + 2 * p - e + 1 for i, p, e in zip(x_shape[2:], padding, ext)]
    if any(o <= 0 for o in out) or any(e <= p for e, p in zip(ext, padding)):
        return None
    iw, ow, l_pad, e_w = x_shape[-1], out[-1], padding[-1], ext[-1]
    l_over = max(0, e_w - 1 - l_pad)
    nb_ic = -(-x_shape[1] // IC_BLOCK)
    best, ur_w = 0, 1
    for b in range(1, 5):
        if nb_ic % b:
            continue
        u = 1
        while u * b + u <= 15 and u < iw + 1:
            ur = min(u, iw)
            if not (l_over > ur and ur != iw) and (ur * b > best or (ur * b == best and ur_w < ur)):
                best, ur_w = ur * b, ur
            u += 1
    if best == 0:
        return None
    tail = iw % ur_w
    r_pad = _end_pad(l_pad, ow, iw, 1, e_w)
    if max(0, e_w - 1 - r_pad - tail) > ur_w or (iw > ur_w and r_pad + tail < 0):
        return None
    if len(x_shape) == 5:
        return IC_BLOCK
    return IC_BLOCK * (4 if ow < 15 else 2 if ow < 40 else 1)


def _tap_grad(g, in_size, tap, padding, dilation):
    """(N, OC, *in_size) float64: the output gradient ``g`` at the input positions that kernel tap
    ``tap`` reads from each output position (stride 1), zeros elsewhere."""
    t = np.zeros(g.shape[:2] + tuple(in_size), np.float64)
    src, dst = [slice(None)] * 2, [slice(None)] * 2
    for size, o, k, p, d in zip(in_size, g.shape[2:], tap, padding, dilation):
        off = k * d - p
        o0, o1 = max(0, -off), min(o, size - off)
        if o1 <= o0:
            return t
        src.append(slice(o0, o1))
        dst.append(slice(o0 + off, o1 + off))
    t[tuple(dst)] = g[tuple(src)]
    return t


def input_grad(g, x, w, stride, padding, dilation, mkldnn, groups):
    """The input gradient (N, C, *S) float32 of a convolution with output gradient ``g`` in oneDNN's
    backward-data kernels' order (backward_data_chunk), or None: for each chunk of output channels,
    one FMA chain over blocks of 8 of them, each block's taps, the block's channels; the chunks'
    sums added. A finite weight only (the kernels skip the taps outside the input, whose zeros an inf
    would make NaN)."""
    if not (mkldnn and groups == 1 and _plain(x, w) and g.dtype == np.float32):
        return None
    return _data_grad(g, x.shape, w, stride, padding, dilation)


def transposed(x, w, size, stride, padding, dilation, mkldnn, groups):
    """A transposed convolution's output (N, C_out, *size) float32, bias not added (oneDNN adds it
    after), where oneDNN runs it as the backward-data kernels above (input_grad's order), or None."""
    if not (mkldnn and groups == 1 and _plain(x, w)):
        return None
    return _data_grad(x, (x.shape[0], w.shape[1]) + tuple(size), w, stride, padding, dilation)


def transposed_input_grad(g, x, w, stride, padding, dilation, mkldnn, groups):
    """A transposed convolution's input gradient (N, C_in, *S) float32, which oneDNN computes with its
    forward kernels (forward()'s order: the convolution of ``g`` with ``w``), or None."""
    if not (mkldnn and groups == 1 and _plain(x, w) and g.dtype == np.float32
            and fits(math.prod(w.shape[1:]), g.shape[0] * w.shape[0] * math.prod(x.shape[2:]))
            and direct_kernel(g.shape, w.shape, stride, padding, dilation)):
        return None
    from .convolution import im2col_np
    cols = im2col_np(g, w.shape[2:], dilation, tuple((p, p) for p in padding), stride, x.shape[2:])
    out = forward(g, w, None, cols, stride, padding, dilation, True, 1)
    return None if out is None else out.reshape((g.shape[0], w.shape[0]) + tuple(x.shape[2:]))


def _data_grad(g, x_shape, w, stride, padding, dilation):
    n, oc, c = g.shape[0], w.shape[0], w.shape[1]
    k = math.prod(w.shape[2:])
    if not fits(oc * k, n * c * math.prod(x_shape[2:])):
        return None
    chunk = backward_data_chunk(x_shape, w.shape, stride, padding, dilation)
    if chunk is None or not np.isfinite(w).all():
        return None
    g64 = g.astype(np.float64)
    b = np.stack([_tap_grad(g64, x_shape[2:], t, padding, dilation) for t in np.ndindex(*w.shape[2:])], 2)
    b = b.reshape(n, oc, k, -1).transpose(1, 2, 0, 3).reshape(oc, k, -1)  # (OC, K, N * S)
    a = w.reshape(oc, c, k).transpose(0, 2, 1).astype(np.float64)
    out = blocked_chain(a, b, chunk)
    return np.ascontiguousarray(out.reshape((c, n) + tuple(x_shape[2:])).swapaxes(0, 1))


def _unpadded_products(a, b, valid, axis):
    """oneDNN's float32 convolution never reads the padding: the sums of a * b over ``axis`` of their
    broadcast product, leaving out the terms at padded positions (``valid`` False), so an inf or a
    NaN times a padded zero adds nothing (numpy's matmul with the zeros gives NaN). Forward (``axis``
    2): ``a`` the weight (1, G, O, CK), ``b`` the columns (N, G, CK, L); weight gradient (``axis`` 3):
    ``a`` the gradient (N, G, O, L); ``valid`` (G, 1, CK, L). One sample at a time, for the memory."""
    n = max(a.shape[0], b.shape[0])
    out = []
    for i in range(n):
        ai, bi = a[min(i, a.shape[0] - 1)], b[min(i, b.shape[0] - 1)]
        with np.errstate(invalid="ignore"):
            prod = ai[:, :, :, None] * bi[:, None, :, :] if axis == 2 else ai[:, :, None, :] * bi[:, None, :, :]
        out.append(np.where(valid, prod, prod.dtype.type(0)).sum(axis=axis))
    return np.stack(out)


def _balance(nthr, job_size, njobs, reduction, max_buffer=1 << 21):
    """oneDNN's reduce_balancer_t::balance: how many threads split the reduction (the samples) of
    each group of jobs (a weight gradient's blocks of 8 x 8 channels, a bias's of 8)."""
    min_jpg = max(1, njobs // nthr)
    max_jpg = max(1, max_buffer // (nthr * job_size))
    ngroups = min(njobs // min_jpg, nthr)
    per_group = min(nthr // ngroups, reduction)
    best = njobs * job_size * reduction
    for jpg in range(min_jpg, njobs):
        c_groups = min(njobs // jpg, nthr)
        c_per = min(nthr // c_groups, reduction)
        c_jpg_ub = -(-njobs // c_groups)
        if c_per > 1 and c_jpg_ub > max_jpg:
            continue
        cost = job_size * c_jpg_ub * (-(-reduction // c_per) + (c_per != 1))
        if cost < best:
            per_group, best = c_per, cost
    return per_group


def weight_grads(g, x, w, cols, stride, padding, dilation, mkldnn, groups, threads, bias):
    """The weight gradient (and the bias's, ``bias`` True) of a 1-D or 2-D convolution in oneDNN's
    ``jit:avx2`` backward-weights order, or None: the samples split over the threads its reducer's
    balance gives (balance211: the first ones one more), each thread one FMA chain per weight element
    over its samples, output rows and columns in order (from +0.0), the threads' sums added in
    order; the bias alike, plain float32 sums. ``cols`` the input's im2col (N, C * K, L)."""
    n, oc, c = g.shape[0], w.shape[0], w.shape[1]
    k, length = math.prod(w.shape[2:]), g[0, 0].size
    if not (mkldnn and groups == 1 and _plain(x, w) and g.dtype == np.float32 and x.ndim in (3, 4)
            and k > 1 and all(s == 1 for s in stride) and all(d == 1 for d in dilation)):
        return None
    kh, kw = (1,) + tuple(w.shape[2:]) if x.ndim == 3 else tuple(w.shape[2:])
    ih = 1 if x.ndim == 3 else x.shape[2]
    t_pad = 0 if x.ndim == 3 else padding[0]
    if not (kw < 14 and kh <= ih and t_pad < kh and padding[-1] < kw):
        return None
    nb_ic = 1 if c == 3 else -(-c // IC_BLOCK)
    per = _balance(threads, IC_BLOCK * (3 if c == 3 else IC_BLOCK) * k, nb_ic * -(-oc // IC_BLOCK), n)
    steps = -(-n // per) * length
    if steps > MAX_STEPS or per * steps * oc * c * k > FMA_CAP:
        return None
    parts, xc = np.array_split(np.arange(n), per), cols()
    a = np.zeros((per, steps, oc), np.float64)
    b = np.zeros((per, steps, c * k), np.float64)
    for t, idx in enumerate(parts):
        a[t, :len(idx) * length] = g[idx].reshape(len(idx), oc, length).transpose(0, 2, 1).reshape(-1, oc)
        b[t, :len(idx) * length] = xc[idx].transpose(0, 2, 1).reshape(-1, c * k)
    acc = np.zeros((per, oc, c * k), np.float32)
    tmp, s, low = np.empty(acc.shape), np.empty(acc.shape), np.empty(acc.shape, np.int64)
    for i in range(steps):
        np.multiply(a[:, i, :, None], b[:, i, None, :], out=tmp)
        _fma_into(acc, tmp, s, low)
    gw = acc[0]
    for t in range(1, per):
        gw = gw + acc[t]
    return gw.reshape(w.shape), bias_grad(g, threads) if bias else None


def bias_grad(g, threads):
    """oneDNN's bias gradient (its backward-weights): the samples split over the threads its
    reducer's balance gives, each thread's plain float32 sum over its samples and positions in order
    (from +0.0), the threads' sums added in order."""
    n, oc = g.shape[:2]
    per = _balance(threads, IC_BLOCK, -(-oc // IC_BLOCK), n)
    sums = [np.cumsum(g[idx].swapaxes(0, 1).reshape(oc, -1), 1, dtype=g.dtype)[:, -1] + g.dtype.type(0)
            for idx in np.array_split(np.arange(n), per)]
    out = sums[0]
    for v in sums[1:]:
        out = out + v
    return out


def fast_grads(g, x, w, geo, mkldnn, mask, threads):
    """(input, weight, bias) gradients in oneDNN's orders where emulated (None elsewhere): the input's
    by input_grad (transposed_input_grad), the weight's and bias's by weight_grads."""
    grp, st, pad, dil = geo["groups"], geo["stride"], geo["padding"], geo["dilation"]
    gx = gw = gb = None
    if mask[0]:
        gx = (transposed_input_grad if geo["transposed"] else input_grad)(g, x, w, st, pad, dil, mkldnn, grp)
    if mask[1] and not geo["transposed"]:
        def cols():
            from .convolution import im2col_np
            return im2col_np(x, w.shape[2:], dil, tuple((p, p) for p in pad), st, g.shape[2:])
        gw, gb = weight_grads(g, x, w, cols, st, pad, dil, mkldnn, grp, threads, mask[2]) or (None, None)
    return gx, gw, gb


def _fma_into(acc, p, s, low):
    """acc = fma(.., .., acc) for the exact float64 products ``p``: one rounding of the exact sum."""
    np.add(p, acc, out=s)
    np.bitwise_and(s.view(np.int64), 0x1FFFFFFF, out=low)
    np.bitwise_xor(low, 0x10000000, out=low)
    if not low.all():  # (rare) a float32 tie
        _round_ties(s, acc, p, low == 0)
    acc[...] = s
