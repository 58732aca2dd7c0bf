"""F.interpolate of a uint8 image (bilinear, bicubic; with or without antialias): ATen's own uint8 kernels.

ATen resizes a uint8 (N, C, H, W) tensor separably, the width first, then the height (a dim of
unchanged size skipped, both unchanged: a copy), rounding to uint8 between the passes
(UpSampleKernel.cpp's ``separable_upsample_generic_Nd_kernel_impl`` for more than 4 channels; for up
to 4, UpSampleKernelAVXAntialias.h's ``upsample_avx_bilinear_bicubic_uint8``, the same integer
arithmetic).  Per resized dim (``_compute_index_ranges_int16_weights``), in double:

- antialias (PIL's filters: triangle, or Keys' cubic with a = -0.5): each output's window
  ``[xmin, xmin + xsize)`` around ``center = scale * (i + 0.5)``, its weights normalised by their sum;
- without antialias (``_compute_indices_min_size_weights``): the float kernels' source index and
  lambda (``guard_index_and_lambda``), 2 or 4 taps of the triangle or of the cubic with a = -0.75, the
  taps outside the input folded onto the first or last one (their weights added);

then a precision ``p``, the largest (at most 22) for which ``round(wt_max * 2**(p + 1)) < 2**15``
(``wt_max`` the largest weight seen, partial sums of folded taps too), and int16 weights
``round-half-away(w * 2**p)``.  An output is ``clamp((2**(p-1) + sum(pixel * weight)) >> p, 0, 255)``.

The generic kernel's vertical pass reads the window and weights of its loop's first element only
(``basic_loop_aa_vertical``): with one output column and a channels-first output (more than 4
channels) TensorIterator's inner loop runs down the rows, and every row takes the window of the
first row of its loop (row 0, or where a parallel chunk of the intra-op pool begins).
"""

from __future__ import annotations

import math

import numpy as np

from . import _upsample_kernels as _kernels
from ._layout import torch_strides
from ._vec_math import GRAIN_SIZE, fma, parallel_chunks
from .memory_format import _is_contiguous_in, channels_last

_F64 = np.float64


def _cubic(a):
    """Keys' cubic convolution with parameter ``a`` (HelperInterpCubic::aa_filter), in double, its
    polynomials contracted as the AVX2 build compiles them."""
    def f(x):
        x = np.abs(x)
        c1 = fma(fma(np.full_like(x, a + 2), x, np.full_like(x, -(a + 3))) * x, x, np.ones_like(x))
        c2 = fma(fma(fma(np.full_like(x, a), x, np.full_like(x, -5 * a)), x, np.full_like(x, 8 * a)), x,
                 np.full_like(x, -4 * a))
        return np.where(x < 1, c1, np.where(x < 2, c2, 0.0))
    return f


def _triangle(x):
    x = np.abs(x)
    return np.where(x < 1, 1.0 - x, 0.0)


def _aa_taps(n_in, n_out, scale, align_corners, cubic):
    """_compute_indices_min_size_weights_aa in double: (xmin, xsize, weights (n_out, K), wt_max)."""
    s = _kernels.compute_scale(n_in, n_out, scale, align_corners, _F64)
    size = 4 if cubic else 2
    support = size * 0.5 * s if s >= 1.0 else size * 0.5
    longest = int(math.ceil(support)) * 2 + 1
    invscale = 1.0 / s if s >= 1.0 else 1.0
    filt = _cubic(-0.5) if cubic else _triangle
    center = s * (np.arange(n_out) + 0.5)
    xmin = np.maximum(np.trunc(center - support + 0.5), 0).astype(np.int64)
    xsize = np.clip(np.minimum(np.trunc(center + support + 0.5), n_in).astype(np.int64) - xmin, 0, longest)
    j = np.arange(longest)
    live = j[None, :] < xsize[:, None]
    w = np.where(live, filt(((j[None, :] + xmin[:, None]) - center[:, None] + 0.5) * invscale), 0.0)
    total = np.zeros(n_out)
    for k in range(longest):  # (summed in order)
        total = total + w[:, k]
    nz = total != 0
    w = np.where(nz[:, None], w / np.where(nz, total, 1.0)[:, None], w)
    wt_max = max(0.0, float(np.max(np.where(nz[:, None] & live, w, 0.0), initial=0.0)))
    return xmin, xsize, w, wt_max


def _plain_taps(n_in, n_out, scale, align_corners, cubic):
    """_compute_indices_min_size_weights (antialias=False) in double: the same four."""
    s = _kernels.compute_scale(n_in, n_out, scale, align_corners, _F64)
    real = _kernels.source_index(s, n_out, align_corners, cubic, _F64)
    idx, lam = _kernels.guard(real, n_in, _F64)
    k = 4 if cubic else 2
    support = k // 2
    lo = idx - support + 1
    xmin = np.maximum(lo, 0)
    xsize = np.clip(np.minimum(idx + support + 1, n_in) - xmin, 0, k)
    filt = _cubic(-0.75) if cubic else _triangle
    w = np.zeros((n_out, k))
    wt_max = 0.0
    for i in range(n_out):  # (the folding, step by step: its partial sums count in wt_max)
        vals = filt(np.arange(1 - support, k + 1 - support, dtype=_F64) - lam[i])
        at = 0
        for j in range(k):
            if lo[i] + j <= 0:
                at = 0
            elif lo[i] + j >= n_in - 1:
                at = xsize[i] - 1
            w[i, at] += vals[j]
            wt_max = max(wt_max, w[i, at])
            at += 1
    return xmin, xsize, w, wt_max


def _int16_taps(n_in, n_out, scale, align_corners, cubic, antialias):
    """(xmin, xsize, int16 weights as int64, precision) of one resized dim."""
    taps = _aa_taps if antialias else _plain_taps
    xmin, xsize, w, wt_max = taps(n_in, n_out, scale, align_corners, cubic)
    prec = 0
    while prec < 22 and int(0.5 + wt_max * (1 << (prec + 1))) < (1 << 15):
        prec += 1
    v = w * float(1 << prec)
    w16 = np.trunc(np.where(v < 0, v - 0.5, v + 0.5)).astype(np.int64)
    w16 = ((w16 + (1 << 15)) & 0xFFFF) - (1 << 15)  # (stored as int16)
    w16[np.arange(w.shape[1])[None, :] >= xsize[:, None]] = 0
    return xmin, xsize, w16, prec


def _pass(x, axis, n_out, scale, align_corners, cubic, antialias, first_row_only=None):
    """One resized dim (``axis`` 3: horizontal, 2: vertical) of an int64 array holding uint8 values."""
    n_in = x.shape[axis]
    xmin, xsize, w16, prec = _int16_taps(n_in, n_out, scale, align_corners, cubic, antialias)
    k = w16.shape[1]
    idx = np.minimum(xmin[:, None] + np.arange(k), n_in - 1)
    if axis == 3:
        acc = (np.take(x, idx, axis=3) * w16).sum(axis=4)
    else:
        t = np.take(x, idx, axis=2)  # (N, C, n_out, k, W)
        if first_row_only is not None:  # (each output row's window: that of its loop's first row)
            t = _rows(x, idx, first_row_only)
            w16 = w16[first_row_only].reshape(t.shape[:4])
        acc = (t * w16[..., None]).sum(axis=-2)
    return np.clip((acc + (1 << (prec - 1))) >> prec, 0, 255)


def _rows(x, idx, rows):
    """x's windows per (N*C, output row) when the row whose window is read differs per (n, c)."""
    n, c, _, w = x.shape
    flat = x.reshape(n * c, -1, w)
    win = idx[rows]  # (N*C, n_out, k)
    return flat[np.arange(n * c)[:, None, None], win].reshape(n, c, rows.shape[1], idx.shape[1], w)


def _loop_first_rows(nc, n_out):
    """Per (n*c, output row): the row whose window the generic vertical loop reads (one output column,
    channels-first): its loop's first row, loops split where the intra-op pool's chunks begin."""
    from ..settings import get_num_threads

    rows = np.zeros((nc, n_out), np.int64)
    for begin, _ in parallel_chunks(nc * n_out, GRAIN_SIZE, get_num_threads()):
        q, r = divmod(begin, n_out)
        rows[q, r:] = r
    return rows


def check_avx_packing(channels, in_size, out_size, contiguous, channels_last):
    """The AVX2 kernel's assertion for 3 channels: a channels-first input (not also channels-last) is
    unpacked to 4 channels a pixel, but a 1 x 1 output (channels-last as well) is written unpacked: its
    vertical pass (the height changes) asserts that the channels agree."""
    if channels == 3 and tuple(out_size) == (1, 1) and in_size[0] != 1 and contiguous and not channels_last:
        raise RuntimeError('num_channels == unpacked_output.size(0) INTERNAL ASSERT FAILED at "/__w/pytorch/'
                           'pytorch/aten/src/ATen/native/cpu/UpSampleKernelAVXAntialias.h":269, please report a bug '
                           'to PyTorch. ')


def _storage_extent(a):
    """(offset of ``a``'s first byte in the buffer that owns it, the buffer's size), or None."""
    base = a
    while isinstance(base.base, np.ndarray):
        base = base.base
    if not base.flags.c_contiguous and not base.flags.f_contiguous:
        return None
    return a.__array_interface__["data"][0] - base.__array_interface__["data"][0], base.nbytes


def _as_unpacked(x):
    """The pixels the AVX2 kernel (up to 4 channels) reads: ``unpack_rgb`` takes pixel ``i`` of an image
    at ``i * stride(3)`` and each channel at its stride; with one column (W = 1) and a stride of W that
    is not H's (a transpose, an expand: the input still contiguous), row ``h`` is read at ``h * stride(3)``.
    Where those reads leave the input's storage PyTorch reads memory outside the tensor: agrad keeps the
    rows (docs/semantics.md)."""
    n, c, h, w = x.shape
    if c > 4 or w != 1 or h == 1 or not x.size:
        return x
    st = torch_strides(x)
    cl = _is_contiguous_in(x, channels_last)
    if not (cl or _is_contiguous_in(x, None)) or (c in (3, 4) and cl) or st[3] == st[2]:
        return x  # (converted to channels-last, or not unpacked, or read where it lies)
    strides = (x.strides[0], x.strides[1], st[3], st[3])
    extent = _storage_extent(x)
    if extent is None or min(strides) < 0 < min(x.shape) - 1:
        return x
    last = extent[0] + (n - 1) * strides[0] + (c - 1) * strides[1] + (h - 1) * strides[2]
    if last >= extent[1]:
        return x
    return np.lib.stride_tricks.as_strided(x, x.shape, strides, writeable=False)


def forward(x, cubic, out_size, scales, align_corners, antialias, channels_last_out):
    """The uint8 result of resizing the (N, C, H, W) uint8 array ``x`` to ``out_size``."""
    h_out, w_out = out_size
    if x.shape[2:] == tuple(out_size):
        return x.copy()
    y = _as_unpacked(x).astype(np.int64)
    if x.shape[3] != w_out:
        y = _pass(y, 3, w_out, scales[1], align_corners, cubic, antialias)
    if x.shape[2] != h_out:
        rows = None
        if x.shape[1] > 4 and w_out == 1 and not channels_last_out and h_out > 1:
            rows = _loop_first_rows(x.shape[0] * x.shape[1], h_out)
        y = _pass(y, 2, h_out, scales[0], align_corners, cubic, antialias, rows)
    return y.astype(np.uint8)
