"""ATen's CPU kernels of linear, bilinear, trilinear and bicubic upsampling, step by step.

The forward (UpSampleKernel.cpp, built with -mavx2 -mfma: GCC contracts ``a * b + c`` into one
fused multiply-add) has two kernels:

- the generic one (``upsample_generic_Nd_kernel_impl``): per resized dim, ATen's indices and
  weights (``compute_source_index_and_lambda``; for bicubic ``guard_index_and_lambda`` and the
  cubic convolution with A = -0.75), stored in the input's dtype; an output is
  ``fma(t0, w0, t1 * w1)`` over the first resized dim of the same over the next ones
  (bicubic: ``fma(t3, w3, fma(t2, w2, fma(t0, w0, t1 * w1)))``; its coefficients' polynomials
  contracted but for their last multiply and add).  Every neighbour counts with
  its weight, a zero one too: an inf next to an output makes it NaN (inf * 0), also where the
  size does not change (weights 1 and 0 of the same element).
- the channels-last one (bilinear when H_out + W_out <= 128 or the input is channels-last with
  more than 3 channels; trilinear for a channels-last input of more than 3 channels): the
  corners' weights are products of the dims' lambdas (in opmath), summed as
  ``fma(i11, w11, fma(i10, w10, fma(i00, w00, i01 * w01)))`` for the channels past the last
  whole vector and ``fma(i00, w00, fma(i01, w01, fma(i11, w11, i10 * w10)))`` (the
  ``Vectorized`` expression, right to left) for the channels in whole vectors.

The backward (UpSampleMoreKernel.cpp, also contracted) adds each output's gradient times its
corner weights (the dims' lambdas multiplied in order) into the input's gradient, outputs in
order, corners in order: ``acc = fma(w, g, acc)``.  Bicubic's backward (UpSampleBicubic2d.cpp,
built without FMA) adds ``g * y_coeff * x_coeff`` for the 4 x 4 neighbours (x outer), its
coefficients computed without contraction.  float16 works in float and rounds once.
"""

from __future__ import annotations

import numpy as np

from ._vec_math import THREADS, fma

A = -0.75


def opmath(dtype):
    return np.float64 if dtype == np.float64 else np.float32


def compute_scale(n_in, n_out, scale, align_corners, ft):
    """area_pixel_compute_scale<opmath_t> (compute_scales_value without align_corners)."""
    if align_corners:
        return ft(n_in - 1) / ft(n_out - 1) if n_out > 1 else ft(0)
    if scale is not None and scale > 0:
        return ft(1.0 / scale)
    return ft(n_in) / ft(n_out)


def source_index(s, n_out, align_corners, cubic, ft, fused=True):
    """area_pixel_compute_source_index of each output index (``fused``: ``s * (j + 0.5) - 0.5`` as
    one fma, as the AVX2 kernels compile it)."""
    j = np.arange(n_out).astype(ft)
    if align_corners:
        return s * j
    h = j + ft(0.5)
    src = fma(np.full(n_out, s, ft), h, np.full(n_out, ft(-0.5), ft)).astype(ft) if fused else s * h - ft(0.5)
    if not cubic:
        src = np.where(src < 0, ft(0), src).astype(ft)
    return src


def guard(real, n_in, ft):
    """guard_index_and_lambda: floorf of the index (in float, also for double), the lambda clamped."""
    idx = np.minimum(np.floor(real.astype(np.float32)).astype(np.int64), n_in - 1)
    lam = np.minimum(np.maximum(real - idx.astype(ft), ft(0)), ft(1)).astype(ft)
    return idx, lam


def linear_lambdas(n_in, n_out, scale, align_corners, ft):
    """compute_source_index_and_lambda of each output index: (i0, i1, lambda0, lambda1) in ``ft``."""
    if n_in == n_out:  # ("scale_factor = 1, simply copy": weights 1 and 0 of the same element)
        j = np.arange(n_out)
        return j, j, np.ones(n_out, ft), np.zeros(n_out, ft)
    s = compute_scale(n_in, n_out, scale, align_corners, ft)
    i0, l1 = guard(source_index(s, n_out, align_corners, False, ft), n_in, ft)
    i1 = i0 + (i0 < n_in - 1)
    return i0, i1, (ft(1) - l1).astype(ft), l1


def cubic_coefficients(t, ft, fused=True):
    """get_cubic_upsample_coefficients of the lambdas ``t`` (``fused``: as the AVX2 kernel contracts them)."""
    a = ft(A)

    if fused:  # (the inner steps contracted, the last multiply and add not)
        def conv1(x):
            return fma(np.full_like(x, a + 2), x, np.full_like(x, -(a + 3))) * x * x + 1

        def conv2(x):
            inner = fma(np.full_like(x, a), x, np.full_like(x, -5 * a))
            return fma(inner, x, np.full_like(x, 8 * a)) * x - 4 * a
    else:
        def conv1(x):
            return ((a + 2) * x - (a + 3)) * x * x + 1

        def conv2(x):
            return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    x2 = (ft(1) - t).astype(ft)
    return [np.asarray(c, ft) for c in (conv2((t + ft(1)).astype(ft)), conv1(t), conv1(x2), conv2((x2 + ft(1)).astype(ft)))]


def cubic_taps(n_in, n_out, scale, align_corners, ft, fused=True):
    """(the 4 source indices, the 4 coefficients) of each output index."""
    s = compute_scale(n_in, n_out, scale, align_corners, ft)
    i0, t = guard(source_index(s, n_out, align_corners, True, ft, fused), n_in, ft)
    idx = [np.clip(i0 + j - 1, 0, n_in - 1) for j in range(4)]
    return idx, cubic_coefficients(t, ft, fused)


# ---------------------------------------------------------------------------
# forward
# ---------------------------------------------------------------------------

def _along(w, axis, ndim):
    shape = [1] * ndim
    shape[axis] = w.size
    return w.reshape(shape)


def _generic(x, taps, ft, st):
    """upsample_generic_Nd_kernel_impl: the last resized dim first (the values are the same as the
    recursion's, which interpolates the inner dims of the rows it picks)."""
    y = x
    n = len(taps)
    for k in range(n - 1, -1, -1):
        axis = x.ndim - n + k
        idx, ws = taps[k]
        ws = [_along(w.astype(st).astype(ft), axis, y.ndim) for w in ws]
        t = [np.take(y, i, axis=axis) for i in idx]
        y = fma(t[0], ws[0], t[1] * ws[1])
        for tj, wj in zip(t[2:], ws[2:]):
            y = fma(tj, wj, y)
        y = np.asarray(y, ft)
    return y


def _corner_terms(x, lams):
    """Each corner of the channels-last kernel, in its order (the last dim fastest): (values, weight)."""
    n = len(lams)
    terms = [((), None)]
    for k in range(n):
        i0, i1, l0, l1 = lams[k]
        nxt = []
        for sel, w in terms:
            for i, l in ((i0, l0), (i1, l1)):
                nxt.append((sel + (i,), l if w is None else (w[..., None] * l)))
        terms = nxt
    out = []
    for sel, w in terms:
        grids = np.ix_(*sel)
        out.append((x[(Ellipsis, *grids)], w))
    return out


def _channels_last(x, lams, ft):
    """cpu_upsample_linear_channels_last: the corners' products, vector channels right to left."""
    terms = _corner_terms(x, lams)
    c = x.shape[1]
    lanes = 4 if ft == np.float64 and x.dtype == np.float64 else 8
    whole = c - c % lanes
    out = np.empty(terms[0][0].shape, ft)
    if c - whole:
        vals = [(v[:, whole:], w) for v, w in terms]
        acc = fma(vals[0][0], vals[0][1], vals[1][0] * vals[1][1])
        for v, w in vals[2:]:
            acc = fma(v, w, acc)
        out[:, whole:] = acc
    if whole:
        vals = [(v[:, :whole], w) for v, w in terms]
        acc = fma(vals[-1][0], vals[-1][1], vals[-2][0] * vals[-2][1])
        for v, w in vals[-3::-1]:
            acc = fma(v, w, acc)
        out[:, :whole] = acc
    return out


def uses_channels_last(x, out_size, channels_last_input):
    """Which kernel ATen's upsample_bilinear2d / upsample_trilinear3d pick."""
    c = x.shape[1]
    if len(out_size) == 2:
        return (channels_last_input and c > 3) or sum(out_size) <= 128 or (THREADS == 1 and c == 3)
    if len(out_size) == 3:
        return channels_last_input and c > 3
    return False


def forward(x, mode, out_size, scales, align_corners, channels_last_input):
    """The resized array (the input's dtype)."""
    st = x.dtype.type
    ft = opmath(x.dtype)
    spatial = x.shape[2:]
    xs = x.astype(ft, copy=False)
    with np.errstate(all="ignore"):
        if mode == "bicubic":
            taps = [cubic_taps(a, b, s, align_corners, ft) for a, b, s in zip(spatial, out_size, scales)]
            return _generic(xs, taps, ft, st).astype(st)
        lams = [linear_lambdas(a, b, s, align_corners, ft) for a, b, s in zip(spatial, out_size, scales)]
        if uses_channels_last(x, out_size, channels_last_input):
            return _channels_last(xs, lams, ft).astype(st)
        taps = []
        for i0, i1, l0, l1 in lams:
            if st != ft:  # (the generic kernel stores lambda1 in the dtype, lambda0 = 1 - that)
                l1 = l1.astype(st)
                l0 = (ft(1) - l1.astype(ft)).astype(st)
            taps.append(((i0, i1), (l0, l1)))
        return _generic(xs, taps, ft, st).astype(st)


# ---------------------------------------------------------------------------
# backward
# ---------------------------------------------------------------------------

def _in_order(g2, targets, sources, n_in, step, ft):
    """acc[t] = step(acc[t], g[s], k) for the entries k in their order (``targets`` flat input
    positions): entries of one target in turn, all targets at once (a round per rank)."""
    acc = np.zeros((g2.shape[0], n_in), ft)
    k = targets.size
    order = np.argsort(targets, kind="stable")
    st = targets[order]
    first = np.ones(k, bool)
    first[1:] = st[1:] != st[:-1]
    start = np.maximum.accumulate(np.where(first, np.arange(k), 0))
    rank = np.empty(k, np.int64)
    rank[order] = np.arange(k) - start
    for r in range(int(rank.max()) + 1 if k else 0):
        sel = np.flatnonzero(rank == r)
        t = targets[sel]
        acc[:, t] = step(acc[:, t], g2[:, sources[sel]], sel)
    return acc


def backward(g, mode, in_size, scales, align_corners):
    """The gradient of the input (shape lead + in_size) from the output's gradient ``g``."""
    st = g.dtype.type
    ft = opmath(g.dtype)
    out_size = g.shape[2:]
    lead = g.shape[:2]
    n_out = int(np.prod(out_size))
    n_in = int(np.prod(in_size))
    g2 = np.ascontiguousarray(g, dtype=ft).reshape(-1, n_out)
    with np.errstate(all="ignore"):
        if mode == "bicubic":
            if tuple(in_size) == tuple(out_size):
                return g.copy()
            (yi, yc), (xi, xc) = (cubic_taps(a, b, s, align_corners, ft, fused=False)
                                  for a, b, s in zip(in_size, out_size, scales))
            oy, ox = np.meshgrid(np.arange(out_size[0]), np.arange(out_size[1]), indexing="ij")
            tg, src, wy, wx = [], [], [], []
            for ii in range(4):  # (per output: ii outer, jj inner)
                for jj in range(4):
                    tg.append(yi[jj][oy] * in_size[1] + xi[ii][ox])
                    src.append(oy * out_size[1] + ox)
                    wy.append(yc[jj][oy] * np.ones_like(ox, ft))
                    wx.append(xc[ii][ox] * np.ones_like(oy, ft))
            cat = [np.stack(v, -1).reshape(-1) for v in (tg, src, wy, wx)]
            targets, sources, wys, wxs = cat
            acc = _in_order(g2, targets, sources, n_in,
                            lambda a, gv, sel: a + (gv * wys[sel]) * wxs[sel], ft)
        else:
            lams = [linear_lambdas(a, b, s, align_corners, ft) for a, b, s in zip(in_size, out_size, scales)]
            n = len(lams)
            terms = [(np.zeros((), np.int64), None)]
            for k in range(n):
                i0, i1, l0, l1 = lams[k]
                nxt = []
                for t, w in terms:
                    for i, l in ((i0, l0), (i1, l1)):
                        tt = t[..., None] * in_size[k] + i
                        nxt.append((tt, l if w is None else w[..., None] * l))
                terms = nxt
            targets = np.stack([t for t, _ in terms], -1).reshape(-1)
            weights = np.stack([w for _, w in terms], -1).reshape(-1).astype(ft)
            sources = np.repeat(np.arange(n_out), len(terms))
            acc = _in_order(g2, targets, sources, n_in, lambda a, gv, sel: fma(weights[sel], gv, a), ft)
    return acc.reshape(tuple(lead) + tuple(in_size)).astype(st)


# ---------------------------------------------------------------------------
# antialias=True (bilinear and bicubic): the separable kernels of PIL's filters
# ---------------------------------------------------------------------------

def _aa_filter(cubic, ft):
    a = ft(-0.5)

    def linear(x):
        x = np.abs(x)
        return np.where(x < 1, ft(1) - x, ft(0)).astype(ft)

    def keys(x):  # (every step contracted here)
        x = np.abs(x)
        c1 = fma(fma(np.full_like(x, a + 2), x, np.full_like(x, -(a + 3))) * x, x, np.ones_like(x))
        c2 = fma(fma(fma(np.full_like(x, a), x, np.full_like(x, -5 * a)), x, np.full_like(x, 8 * a)), x,
                 np.full_like(x, -4 * a))
        return np.where(x < 1, c1, np.where(x < 2, c2, ft(0))).astype(ft)

    return keys if cubic else linear


def aa_weights(n_in, n_out, scale, align_corners, ft, cubic):
    """_compute_indices_min_size_weights_aa of each output index: [(xmin, weights)] (weights normalised
    by their sum, in ``ft``; the centre and support in ``ft``, the bounds' + 0.5 in double)."""
    s = compute_scale(n_in, n_out, scale, align_corners, ft)
    size = 4 if cubic else 2
    support = ft(size * 0.5 * float(s)) if s >= 1.0 else ft(size * 0.5)
    longest = int(np.ceil(support)) * 2 + 1
    invscale = ft(1.0 / float(s)) if s >= 1.0 else ft(1.0)
    filt = _aa_filter(cubic, ft)
    out = []
    for i in range(n_out):
        center = ft(float(s) * (i + 0.5))
        xmin = max(int(float(center - support) + 0.5), 0)
        xsize = min(max(min(int(float(center + support) + 0.5), n_in) - xmin, 0), longest)
        j = np.arange(xsize)
        args = ((((j + xmin).astype(ft) - center).astype(np.float64) + 0.5) * float(invscale)).astype(ft)
        w = filt(args)
        total = ft(0)
        for v in w:
            total = ft(total + v)
        if total != 0:
            w = (w / total).astype(ft)
        out.append((xmin, w))
    return out


def aa_forward(x, cubic, out_size, scales, align_corners):
    """separable_upsample_generic_Nd_kernel_impl: the last dim first, then the one before; an
    unchanged dim is skipped (both: a copy); each output t0 * w0 + t1 * w1 + ... in order (GCC's
    unrolled loop: the last product fused where the window has an even number of taps)."""
    st = x.dtype.type
    ft = opmath(x.dtype)
    y = x.astype(ft)
    with np.errstate(all="ignore"):
        for axis in (3, 2):
            n_in, n_out = y.shape[axis], out_size[axis - 2]
            if n_in == n_out:
                continue
            cols = []
            taps = aa_weights(n_in, n_out, scales[axis - 2], align_corners, ft, cubic)
            if axis == 2 and y.shape[3] == 1:
                # (the vertical pass reads the window of the loop's first element; with one column its
                # inner loop runs down the rows: every row takes row 0's window and weights)
                taps = taps[:1] * n_out
            for xmin, w in taps:
                t = np.take(y, np.arange(xmin, xmin + w.size), axis=axis)
                if not w.size:
                    cols.append(np.zeros(np.delete(y.shape, axis), ft))
                    continue
                acc = np.take(t, 0, axis=axis) * w[0]
                for k in range(1, w.size):  # (the loop unrolled by two, uncontracted; a last odd step fused)
                    if w.size % 2 == 0 and k == w.size - 1:
                        acc = np.asarray(fma(np.take(t, k, axis=axis), w[k], acc), ft)
                    else:
                        acc = acc + np.take(t, k, axis=axis) * w[k]
                cols.append(acc)
            y = np.stack(cols, axis=axis)
    return y.astype(st)


def aa_backward(g, cubic, in_size, scales, align_corners):
    """cpu_upsample_genNd_backward_aa: per output (row-major) its weights' products wx * wy times the
    gradient added into the input's, rows of the window outer: fma(wx * wy, g, acc)."""
    st = g.dtype.type
    ft = opmath(g.dtype)
    out_size = g.shape[2:]
    lead = g.shape[:2]
    rows_w = aa_weights(in_size[0], out_size[0], scales[0], align_corners, ft, cubic)
    cols_w = aa_weights(in_size[1], out_size[1], scales[1], align_corners, ft, cubic)
    targets, sources, weights = [], [], []
    for oh, (ymin, wy) in enumerate(rows_w):
        for ow, (xmin, wx) in enumerate(cols_w):
            for yy in range(wy.size):
                for xx in range(wx.size):
                    targets.append((ymin + yy) * in_size[1] + xmin + xx)
                    sources.append(oh * out_size[1] + ow)
                    weights.append(wx[xx] * wy[yy])
    targets, sources = np.asarray(targets, np.int64), np.asarray(sources, np.int64)
    weights = np.asarray(weights, ft)
    g2 = np.ascontiguousarray(g, dtype=ft).reshape(-1, int(np.prod(out_size)))
    with np.errstate(all="ignore"):
        acc = _in_order(g2, targets, sources, int(np.prod(in_size)), lambda a, gv, sel: fma(weights[sel], gv, a), ft)
    return acc.reshape(tuple(lead) + tuple(in_size)).astype(st)
