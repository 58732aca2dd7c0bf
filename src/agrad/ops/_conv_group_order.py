"""oneDNN's order of additions in PyTorch's grouped float32 convolution forward (AVX2, plain layouts).

A float32 convolution with ``groups > 1`` runs on oneDNN (ConvParams::use_mkldnn), whose kernel is
_conv_groups.forward_kernel's (verified with ONEDNN_VERBOSE, ONEDNN_MAX_CPU_ISA=AVX2: 2,100 random grouped
shapes). Each keeps one float32 accumulator per output element, updated by fused multiply-adds over the
group's input channels ``c`` and kernel taps ``t`` (the im2col row ``r = c * K + t``):

- ``jit_dw`` (depthwise 1-D/2-D): from the bias (+0.0 without one), the taps in order, those in the padding
  skipped (their zeros never read: a -0.0 bias stays where every other product is -0.0);
- ``jit`` (jit:avx2, 8k output channels a group): from the bias, per block of 8 input channels the taps in
  order, each tap's channels in order (_conv_order.forward's chain for each group), the padding skipped;
- ``gemm`` (x64:gemm:jit: im2col, then sgemm): from +0.0, the rows ``r`` in order, the padding's zeros
  multiplied like any other (so inf * 0 is NaN), then the bias added (a float32 add);
- ``brdgmm_dw`` (depthwise 3-D, undilated): from +0.0, the taps in order, the padding skipped, then the bias
  added.

Emulated exactly as _conv_order does (each float32 product exact in float64, one rounding per step), within
_conv_order.fits' cost. docs/semantics.md, "Grouped float32 convolutions on oneDNN".
"""
from __future__ import annotations

import math

import numpy as np

from ._conv_groups import forward_kernel
from . import _vec_math
from ._conv_order import IC_BLOCK, _fma_into, fits


def _row_order(kernel, cpg, k):
    """The order in which a kernel's chain visits the im2col rows (c * K + t) of a group."""
    if kernel != "jit":
        return range(cpg * k)
    return [c * k + t for c0 in range(0, cpg, IC_BLOCK) for t in range(k) for c in range(c0, min(cpg, c0 + IC_BLOCK))]


def forward(x, w, b, cols, stride, padding, dilation, groups, plain=True, kernel=None):
    """The grouped convolution's (N, OC, L) float32 output, bias included, in oneDNN's order (``cols``
    im2col's (N, C * K, L)), or None where not emulated (too costly; a channels-last input or weight but for
    a dilated depthwise 2-D one that its nhwc dispatch gives jit_dw, the same chain)."""
    n, c = x.shape[:2]
    oc, cpg, k = w.shape[0], w.shape[1], math.prod(w.shape[2:])
    length = cols.shape[-1]
    if not fits(cpg * k, n * oc * length):
        return None
    if kernel is not None:  # (an ungrouped one's gemm: _conv_order.forward's)
        pass
    elif plain:
        kernel = forward_kernel(x.shape, w.shape, groups, stride, padding, dilation)
    elif (cpg == 1 and oc == groups and x.ndim == 4 and any(d != 1 for d in dilation) and w.ndim == 4
          and forward_kernel(x.shape, w.shape, groups, stride, padding, dilation) == "jit_dw"):
        kernel = "jit_dw"
    else:
        return None
    opg = oc // groups
    cg = cols.reshape(n, groups, 1, cpg * k, length)
    wg = w.reshape(1, groups, opg, cpg * k, 1).astype(np.float64)
    skip = None
    if kernel != "gemm" and any(padding):
        from .convolution import _valid_cols
        pads = tuple((p, p) for p in padding)
        skip = ~_valid_cols(x[:1], w.shape[2:], dilation, pads, stride, _out_size(x, w, stride, padding, dilation))
        skip = skip.reshape(1, groups, 1, cpg * k, length)
    shape = (n, groups, opg, length)
    if kernel == "gemm" and opg > 1:  # (one output channel a group: the chain below, measured)
        out = _sgemm(wg, cg, shape, cpg * k, _out_size(x, w, stride, padding, dilation)[0] if x.ndim == 5 else 1)
        return (out if b is None else out + b.reshape(1, groups, opg, 1)).reshape(n, oc, length)
    acc = np.zeros(shape, np.float32)
    if b is not None and kernel in ("jit", "jit_dw"):
        acc[...] = b.reshape(1, groups, opg, 1)  # (a copy: 0.0 + -0.0 would lose the bias's sign)
    p, s, low = np.empty(shape), np.empty(shape), np.empty(shape, np.int64)
    with np.errstate(invalid="ignore"):
        for r in _row_order(kernel, cpg, k):
            np.multiply(wg[..., r, :], cg[..., r, :], out=p)
            if skip is not None:
                np.copyto(p, -0.0, where=skip[..., r, :])
            _fma_into(acc, p, s, low)
    if b is not None and kernel not in ("jit", "jit_dw"):
        acc = acc + b.reshape(1, groups, opg, 1)
    return acc.reshape(n, oc, length)


def _balance211(n, team, ithr):
    """oneDNN's balance211: thread ``ithr``'s [start, end) of ``n`` items (the first ones one more)."""
    n1 = -(-n // team)
    n2 = n1 - 1
    t1 = n - n2 * team
    start = ithr * n1 if ithr <= t1 else t1 * n1 + (ithr - t1) * n2
    return start, start + (n1 if ithr < t1 else n2)


def _chunks(n, groups, length, planes):
    """(N, G, L) the length of the sgemm call (its M) each output position is in, and the position's row in it:
    gemm_convolution_fwd_t splits the (sample, group, [depth,] position) work evenly over the threads (balance211;
    3-D convolutions by whole depth planes of ``length // planes`` positions), each thread one sgemm per image (or
    plane) piece it holds."""
    threads = _vec_math.THREADS
    per = length // planes
    work = n * groups * (planes if planes > 1 else length)
    unit = per if planes > 1 else 1
    m = np.zeros(n * groups * length, np.int64)
    row = np.zeros(n * groups * length, np.int64)
    for t in range(threads):
        a, b = _balance211(work, threads, t)
        a, b = a * unit, b * unit
        pos = a
        while pos < b:  # (a piece ends at its image's (or plane's) end or the thread's)
            end = min(b, (pos // per + 1) * per)
            m[pos:end] = end - pos
            row[pos:end] = np.arange(end - pos)
            pos = end
    return m.reshape(n, groups, length), row.reshape(n, groups, length)


def _sgemm_modes(opg, m, row):
    """Per output channel (opg) and position (``m`` its sgemm's M, ``row`` its row there: (N, G, L) each), which
    of jit_avx_gemm_f32's (AVX2, no-copy) kernels sums it: 0 one fused chain (16-row blocks, 4 to 6 columns),
    1 two fused chains over the even and the odd terms (16 rows, 3 columns; 8-row blocks, 3 to 6), 2 two chains
    of rounded products added (1 or 2 columns); the two chains are added before an odd K's last term, which
    goes on the sum (innerkernel1). Rows go in blocks of 16, a remainder above 8 as a masked 16, else as an 8;
    columns (output channels) in blocks of 6, then the remainder's kernel. (N, G, opg, L)."""
    rows16 = (row < m - m % 16) | (m % 16 > 8)
    cols = np.full(opg, 6)
    cols[opg - opg % 6:] = opg % 6
    cols = cols[None, None, :, None]
    rows16 = rows16[:, :, None, :]
    return np.where(rows16, np.where(cols >= 4, 0, np.where(cols == 3, 1, 2)), np.where(cols >= 3, 1, 2))


def _sgemm(wg, cg, shape, kk, planes, gemv_cols=False, c0=None, gemv=True):
    """oneDNN's sgemm (jit_avx_gemm_f32, the no-copy kernels its driver takes for these small products) of
    each group: C (positions x output channels) = im2col^T weight^T, in float32 from +0.0, each element's
    terms in the order _sgemm_modes names; a call of one position (M == 1) its sgemv (_gemv_t), also one of
    one column where ``gemv_cols`` (a transposed A: the weight gradient's). ``planes`` None: one call for
    all the rows (no thread pieces); ``c0``: the C its sums go onto (beta 1), else from +0.0."""
    if planes is None:
        m = np.full(shape[:2] + shape[3:], shape[3])
        row = np.broadcast_to(np.arange(shape[3]), m.shape)
    else:
        m, row = _chunks(shape[0], shape[1], shape[3], planes)
    mode = np.broadcast_to(_sgemm_modes(shape[2], m, row), shape)
    one = np.zeros(shape, np.float32)
    even = np.zeros(shape, np.float32)
    odd = np.zeros(shape, np.float32)
    even2 = np.zeros(shape, np.float32)
    odd2 = np.zeros(shape, np.float32)
    p, s, low = np.empty(shape), np.empty(shape), np.empty(shape, np.int64)
    paired = kk - kk % 2  # (an odd K's last term: innerkernel1, after the two chains are added)
    with np.errstate(invalid="ignore"):
        for r in range(kk):
            np.multiply(wg[..., r, :], cg[..., r, :], out=p)
            _fma_into(one, p, s, low)
            if r == paired:
                even, even2 = even + odd, even2 + odd2
                odd = odd2 = None
                _fma_into(even, p, s, low)
                even2 = even2 + p.astype(np.float32)
            elif r % 2 == 0:
                _fma_into(even, p, s, low)
                even2 = even2 + p.astype(np.float32)
            else:
                _fma_into(odd, p, s, low)
                odd2 = odd2 + p.astype(np.float32)
        if odd is not None:
            even, even2 = even + odd, even2 + odd2
        out = np.where(mode == 0, one, np.where(mode == 1, even, even2))
        if c0 is not None:  # (beta 1: the kernels add their sums to C)
            out = c0 + out
        single = np.broadcast_to(((m == 1) & gemv)[:, :, None, :] | (gemv_cols and shape[2] == 1), shape)
        if single.any():
            ni, gi, oi, li = np.nonzero(single)
            p1 = wg[0, gi, oi, :, 0] * cg[ni, gi, 0, :, li]
            out[ni, gi, oi, li] = _gemv_t(p1, None if c0 is None else c0[ni, gi, oi, li])
        return out


def _reduce8(acc):
    """The gemv kernel's horizontal sum of 8 float32 lanes (vhaddps, vperm2f128 + vaddps, vhaddps)."""
    a = [acc[..., i] for i in range(8)]
    return ((a[0] + a[1]) + (a[4] + a[5])) + ((a[2] + a[3]) + (a[6] + a[7]))


def _gemv_t(p, y0=None):
    """oneDNN's (AVX2) sgemv of a transposed matrix (jit_avx_gemv_t_f32_kern), which its gemm takes for one
    output position (M == 1): the dot products of the exact float64 products ``p`` (..., K), in float32: the
    blocks of 16 terms into 8 lanes by fused multiply-adds (term k to lane k % 8), the lanes summed pairwise
    into y (from +0.0); then each remainder block of 8, 4, 2 and 1 terms alone, its lanes summed and added."""
    k = p.shape[-1]
    y = np.zeros(p.shape[:-1], np.float32) if y0 is None else np.asarray(y0, np.float32)  # (y: beta's C)
    main = k - k % 16
    if main:
        acc = np.zeros(p.shape[:-1] + (8,), np.float32)
        s, low = np.empty(acc.shape), np.empty(acc.shape, np.int64)
        for k0 in range(0, main, 8):
            _fma_into(acc, np.ascontiguousarray(p[..., k0:k0 + 8]), s, low)
        y = y + _reduce8(acc)
    k0 = main
    for ux in (8, 4, 2, 1):
        if k % 16 & ux:
            acc = np.zeros(p.shape[:-1] + (8,), np.float32)
            acc[..., :ux] = p[..., k0:k0 + ux]
            y = y + _reduce8(acc)
            k0 += ux
    return y


def _out_size(x, w, stride, padding, dilation):
    return tuple((i + 2 * p - (kk - 1) * d - 1) // s + 1
                 for i, p, kk, d, s in zip(x.shape[2:], padding, w.shape[2:], dilation, stride))


def gemm_bias_grad(g, x_shape, w_shape, geo, plain):
    """The bias gradient where oneDNN's backward-weights kernel is x64:gemm:jit (gemm_convolution_bwd_weights_t):
    per output channel from +0.0, each output row's (sample, depth, height) sum over its width added in turn, a
    row summed in order from its first element (the compiler's code for its omp simd reduction, measured: rows
    under 128 elements). None where another kernel runs (or a longer row), by the grouped and ungrouped
    predicates of _conv_groups / _conv_order, and for channels-last layouts (its nhwc loop sums otherwise: not
    emulated)."""
    from ._conv_groups import weights_direct
    from ._conv_order import bwd_weights_direct
    grp, st, pad, dil = geo["groups"], geo["stride"], geo["padding"], geo["dilation"]
    k, o = tuple(w_shape[2:]), tuple(g.shape[2:])
    if geo["transposed"] or g.dtype != np.float32 or not g.size or g.shape[-1] >= 128:
        return None
    if not plain or (weights_direct(x_shape, w_shape, grp, st, pad, dil) if grp > 1
                     else bwd_weights_direct(x_shape, o, k, st, pad, dil) or all(v == 1 for v in k)):
        return None
    n, oc = g.shape[:2]
    rows = np.cumsum(g.reshape(n, oc, -1, g.shape[-1]), axis=-1, dtype=np.float32)[..., -1]  # (N, OC, R)
    seq = np.concatenate([np.zeros((1, oc), np.float32), rows.transpose(0, 2, 1).reshape(-1, oc)])
    return np.ascontiguousarray(np.cumsum(seq, axis=0, dtype=np.float32)[-1])


def weight_grad(go, x, w, geo):
    """The weight gradient of a grouped float32 convolution whose backward-weights kernel is x64:gemm:jit
    (gemm_convolution_bwd_weights_t, plain layouts; the groups split over the threads, no reduction): per
    group, per sample and depth plane in order, one sgemm of the plane's output gradient and the input's
    im2col over its positions (the first written, the later ones added: C + acc), or None."""
    from ._conv_groups import weights_direct
    from .convolution import im2col_np
    grp, st, pad, dil = geo["groups"], geo["stride"], geo["padding"], geo["dilation"]
    if (geo["transposed"] or grp < 2 or go.dtype != np.float32 or x.dtype != np.float32
            or weights_direct(x.shape, w.shape, grp, st, pad, dil) or not go.size):
        return None
    n, opg, cpg, k = x.shape[0], w.shape[0] // grp, w.shape[1], tuple(w.shape[2:])
    o = tuple(go.shape[2:])
    planes = o[0] if x.ndim == 5 else 1
    rows, pos = cpg * math.prod(k), math.prod(o) // planes
    if n * planes * pos > 1024 or n * planes * pos * grp * opg * rows > (1 << 20):
        return None
    cols = im2col_np(x, k, dil, tuple((p, p) for p in pad), st, o).reshape(n, grp, rows, planes, pos)
    gg = go.reshape(n, grp, opg, planes, pos)
    out = None
    for i in range(n):
        for d in range(planes):
            a = gg[i, :, :, d, :].astype(np.float64)[None, :, :, :, None]
            b = cols[i, :, :, d, :].transpose(0, 2, 1)[None, :, None, :, :]
            out = _sgemm(a, b, (1, grp, opg, rows), pos, None, gemv_cols=True, c0=out)
    return out.reshape(w.shape)


def input_grad(go, x, w, geo):
    """The input gradient of a grouped 1-D/2-D float32 convolution whose backward-data kernel is x64:gemm:jit
    (taken here where the forward's is and no strided brgemm kernel: more than 8 output channels a group with a
    stride; not depthwise): per sample and group one sgemm (positions x input columns, K the group's output
    channels; no sgemv: neither operand is transposed the way it needs), then col2im's taps in order, or None."""
    from .convolution import col2im_np
    grp, st, pad, dil = geo["groups"], geo["stride"], geo["padding"], geo["dilation"]
    cpg, opg = w.shape[1], w.shape[0] // grp
    if (geo["transposed"] or grp < 2 or go.dtype != np.float32 or x.dtype != np.float32 or x.ndim > 4
            or cpg == opg == 1 or opg > 8 and any(v != 1 for v in st) or not go.size
            or forward_kernel(x.shape, w.shape, grp, st, pad, dil) != "gemm"):
        return None
    n, k = x.shape[0], tuple(w.shape[2:])
    o = tuple(go.shape[2:])
    rows, cols = math.prod(o), cpg * math.prod(k)
    if not fits(opg, n * grp * rows * cols):
        return None
    wg = w.reshape(1, grp, opg, cols).transpose(0, 1, 3, 2)[..., None].astype(np.float64)
    cg = go.reshape(n, grp, 1, opg, rows)
    c = _sgemm(wg, cg, (n, grp, cols, rows), opg, None, gemv=False)
    return col2im_np(c.reshape(n, grp * cols, rows), x.shape[2:], k, dil, tuple((p, p) for p in pad), st, o)
