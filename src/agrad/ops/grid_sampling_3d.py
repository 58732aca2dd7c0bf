"""grid_sampler_3d (F.grid_sample of a 5-D input): ATen's scalar CPU kernel, point by point.

The source index of each grid coordinate is ``((g + 1) / 2) * (size - 1)`` (align_corners) or
``((g + 1) * size - 1) / 2``, clipped (border) or reflected then clipped (reflection); trilinear
weights are products of the distances to the opposite corner, ``((dx * dy) * dz)``, and the
eight corners are added in the order tnw, tne, tsw, tse, bnw, bne, bsw, bse where in bounds
(no fused multiply-adds: the file is compiled for the baseline x86-64); nearest rounds half to
even.  The backward adds ``weight * gOut`` into each corner in that order, and the grid's
gradient sums the corners' values times the other two distances (GridSampler3DBackward0).
"""

from __future__ import annotations

import numpy as np

from ..autograd.graph import should_compute_output  # (output_mask: the pass's needs)
from ._op import Op


def _source(g, size, padding, align_corners, clip_nan=False):
    """grid_sampler_compute_source_index; ``clip_nan``: the forward's clip_coordinates,
    ``std::min(size - 1, std::max(x, 0))``, which takes a NaN place (a NaN or infinite coordinate,
    reflected) to size - 1; the backward's clip_coordinates_set_grad keeps it NaN (out of bounds)."""
    t = g.dtype.type
    if align_corners:
        x = ((g + t(1)) / t(2)) * t(size - 1)
    else:
        x = ((g + t(1)) * t(size) - t(1)) / t(2)
    if padding == 2:
        x = _reflect(x, size, align_corners)
    if padding in (1, 2):
        x = np.minimum(t(size - 1), np.maximum(x, t(0)))
        if clip_nan:
            x = np.where(np.isnan(x), t(size - 1), x)
    return x


def _reflect(x, size, align_corners):
    t = x.dtype.type
    twice_low, twice_high = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
    if twice_low == twice_high:
        return np.zeros_like(x)
    low, span = t(twice_low) / t(2), t(twice_high - twice_low) / t(2)
    a = np.abs(x - low)
    with np.errstate(invalid="ignore"):
        extra = np.fmod(a, span)
        flips = np.floor(a / span)
    return np.where(_even(flips), extra + low, span - extra + low)


def _even(flips):
    """``static_cast<int>(flips) % 2 == 0``: a count beyond int's range, infinite or NaN converts to
    INT_MIN (x86's cvttss2si), which is even."""
    with np.errstate(invalid="ignore"):
        return (np.fmod(flips, 2) == 0) | ~(np.abs(flips) < 2.0 ** 31)


def _source_grad(g, size, padding, align_corners):
    """d source / d g: the unnormalising scale times the clip's and reflection's derivatives."""
    t = g.dtype.type
    scale = t(size - 1) / t(2) if align_corners else t(size) / t(2)
    if align_corners:
        x = ((g + t(1)) / t(2)) * t(size - 1)
    else:
        x = ((g + t(1)) * t(size) - t(1)) / t(2)
    mult = np.full(g.shape, scale)
    if padding == 1:
        return np.where((x > t(0)) & (x < t(size - 1)), mult, t(0))
    if padding == 2:
        twice_low, twice_high = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
        if twice_low == twice_high:
            return np.zeros(g.shape, g.dtype)
        low, span = t(twice_low) / t(2), t(twice_high - twice_low) / t(2)
        r = x - low
        sign = np.where(r < 0, t(-1), t(1))
        with np.errstate(invalid="ignore"):
            flips = np.floor(np.abs(r) / span)
        sign = np.where(_even(flips), sign, -sign)
        refl = _reflect(x, size, align_corners)
        clip = ((refl > t(0)) & (refl < t(size - 1))).astype(g.dtype)
        return (mult * sign) * clip  # (scale * reflection's sign * clip's 0 or 1: a signed zero)
    return mult


def _corners(ix, iy, iz):
    with np.errstate(invalid="ignore"):
        x0, y0, z0 = np.floor(ix), np.floor(iy), np.floor(iz)
    return x0, y0, z0


def _fwd(ctx, x, grid, mode, padding, align_corners):
    N, C, D, H, W = x.shape
    Do, Ho, Wo = grid.shape[1:4]
    out = np.zeros((N, C, Do, Ho, Wo), x.dtype)
    with np.errstate(invalid="ignore", over="ignore"):
        for b in range(N):
            g = grid[b].reshape(-1, 3)
            ix = _source(g[:, 0], W, padding, align_corners, True)
            iy = _source(g[:, 1], H, padding, align_corners, True)
            iz = _source(g[:, 2], D, padding, align_corners, True)
            if mode == 1:
                xr, yr, zr = np.rint(ix), np.rint(iy), np.rint(iz)
                ok = _inb(zr, yr, xr, D, H, W)
                out[b] = _take(x[b], zr, yr, xr, ok).reshape(C, Do, Ho, Wo)
                continue
            acc = np.zeros((C, ix.size), x.dtype)
            for (zz, yy, xx), wt in _weights(ix, iy, iz):
                ok = _inb(zz, yy, xx, D, H, W)
                acc = np.where(ok, acc + _take(x[b], zz, yy, xx, ok) * wt, acc)
            out[b] = acc.reshape(C, Do, Ho, Wo)
    return out


def _weights(ix, iy, iz):
    """((corner), weight) in the kernel's order: tnw, tne, tsw, tse, bnw, bne, bsw, bse."""
    x0, y0, z0 = _corners(ix, iy, iz)
    x1, y1, z1 = x0 + 1, y0 + 1, z0 + 1
    return [((z0, y0, x0), ((x1 - ix) * (y1 - iy)) * (z1 - iz)),
            ((z0, y0, x1), ((ix - x0) * (y1 - iy)) * (z1 - iz)),
            ((z0, y1, x0), ((x1 - ix) * (iy - y0)) * (z1 - iz)),
            ((z0, y1, x1), ((ix - x0) * (iy - y0)) * (z1 - iz)),
            ((z1, y0, x0), ((x1 - ix) * (y1 - iy)) * (iz - z0)),
            ((z1, y0, x1), ((ix - x0) * (y1 - iy)) * (iz - z0)),
            ((z1, y1, x0), ((x1 - ix) * (iy - y0)) * (iz - z0)),
            ((z1, y1, x1), ((ix - x0) * (iy - y0)) * (iz - z0))]


def _inb(zz, yy, xx, D, H, W):
    return (zz >= 0) & (zz < D) & (yy >= 0) & (yy < H) & (xx >= 0) & (xx < W)


def _take(x, zz, yy, xx, ok):
    z = np.where(ok, zz, 0).astype(np.int64)
    y = np.where(ok, yy, 0).astype(np.int64)
    w = np.where(ok, xx, 0).astype(np.int64)
    return np.where(ok, x[:, z, y, w], x.dtype.type(0))


def _backward_np(g, x, grid, mode, padding, align_corners, need_input, need_grid):
    N, C, D, H, W = x.shape
    g_in = np.zeros(x.shape, x.dtype) if need_input else None
    g_grid = np.zeros(grid.shape, grid.dtype) if need_grid else None
    with np.errstate(invalid="ignore", over="ignore"):
        for b in range(N):
            gr = grid[b].reshape(-1, 3)
            gout = g[b].reshape(C, -1)
            ix = _source(gr[:, 0], W, padding, align_corners)
            iy = _source(gr[:, 1], H, padding, align_corners)
            iz = _source(gr[:, 2], D, padding, align_corners)
            if mode == 1:
                if need_input:
                    xr, yr, zr = np.rint(ix), np.rint(iy), np.rint(iz)
                    ok = _inb(zr, yr, xr, D, H, W)
                    for p in np.flatnonzero(ok):
                        g_in[b][:, int(zr[p]), int(yr[p]), int(xr[p])] += gout[:, p]
                continue
            corners = _weights(ix, iy, iz)
            if need_input:
                for p in range(ix.size):
                    for (zz, yy, xx), wt in corners:
                        if _inb(zz[p], yy[p], xx[p], D, H, W):
                            g_in[b][:, int(zz[p]), int(yy[p]), int(xx[p])] += wt[p] * gout[:, p]
            if need_grid:
                _grid_grad(g_grid[b].reshape(-1, 3), x[b], gout, ix, iy, iz, D, H, W)
                g_grid[b, ..., 0] *= _source_grad(grid[b, ..., 0], W, padding, align_corners)
                g_grid[b, ..., 1] *= _source_grad(grid[b, ..., 1], H, padding, align_corners)
                g_grid[b, ..., 2] *= _source_grad(grid[b, ..., 2], D, padding, align_corners)
    return g_in, g_grid


def _grid_grad(out, x, gout, ix, iy, iz, D, H, W):
    """gix, giy, giz of each point: the corners' values times the other distances, summed over
    the channels in the kernel's order (written into ``out``, a view of the grid's gradient)."""
    x0, y0, z0 = _corners(ix, iy, iz)
    x1, y1, z1 = x0 + 1, y0 + 1, z0 + 1
    # (corner, sign and factors of gix, giy, giz)
    terms = [((z0, y0, x0), (-1, y1 - iy, z1 - iz), (-1, x1 - ix, z1 - iz), (-1, x1 - ix, y1 - iy)),
             ((z0, y0, x1), (1, y1 - iy, z1 - iz), (-1, ix - x0, z1 - iz), (-1, ix - x0, y1 - iy)),
             ((z0, y1, x0), (-1, iy - y0, z1 - iz), (1, x1 - ix, z1 - iz), (-1, x1 - ix, iy - y0)),
             ((z0, y1, x1), (1, iy - y0, z1 - iz), (1, ix - x0, z1 - iz), (-1, ix - x0, iy - y0)),
             ((z1, y0, x0), (-1, y1 - iy, iz - z0), (-1, x1 - ix, iz - z0), (1, x1 - ix, y1 - iy)),
             ((z1, y0, x1), (1, y1 - iy, iz - z0), (-1, ix - x0, iz - z0), (1, ix - x0, y1 - iy)),
             ((z1, y1, x0), (-1, iy - y0, iz - z0), (1, x1 - ix, iz - z0), (1, x1 - ix, iy - y0)),
             ((z1, y1, x1), (1, iy - y0, iz - z0), (1, ix - x0, iz - z0), (1, ix - x0, iy - y0))]
    gi = [np.zeros(ix.shape, x.dtype) for _ in range(3)]
    masks = [_inb(zz, yy, xx, D, H, W) for (zz, yy, xx), *_ in terms]
    vals = [_take(x, zz, yy, xx, ok) for ((zz, yy, xx), *_), ok in zip(terms, masks)]
    for c in range(x.shape[0]):
        go = gout[c]
        for k, (_, *parts) in enumerate(terms):
            v = vals[k][c]
            for axis, (sign, f1, f2) in enumerate(parts):
                term = ((v * f1) * f2) * go
                gi[axis] = np.where(masks[k], gi[axis] + term if sign > 0 else gi[axis] - term, gi[axis])
    for axis in range(3):
        out[:, axis] = gi[axis]


grid3d = Op("GridSampler3DBackward0", _fwd, inputs=("input", "grid"), saves=("input", "grid"))

_grid3d_backward = Op("GridSampler3DBackwardBackward0", lambda ctx, *arrays, value, **attrs: tuple(
    v if v is not None else np.zeros(a.shape, a.dtype) for v, a in zip(value, arrays[1:])),
    inputs=("grad_output", "input", "grid"), saves=("grad_output", "input", "grid"), internal=True,
    jvp="unsupported", outputs=None, multi_grad="undefined")


@grid3d.derivative
def _(ctx, grad):
    g_in, g_grid = _backward_np(grad._data, ctx.input._data, ctx.grid._data, ctx.mode, ctx.padding,
                                ctx.align_corners, should_compute_output(ctx, 0), should_compute_output(ctx, 1))
    return _grid3d_backward.apply((grad, ctx.input, ctx.grid), (grad._data, ctx.input._data, ctx.grid._data),
                                  {"value": (g_in, g_grid), "mode": ctx.mode, "padding": ctx.padding,
                                   "align_corners": ctx.align_corners})


@_grid3d_backward.derivative
def _(ctx, grads):
    """PyTorch's grid_sampler_3d_double_backward (grid_sampling_double.py)."""
    from .grid_sampling_double import double_backward
    attrs = {"mode": ctx.mode, "padding": ctx.padding, "align_corners": ctx.align_corners}

    def sample_backward(g, inp, grid):  # (output_mask [False, True]: the grid's gradient)
        value = _backward_np(g._data, inp._data, grid._data, ctx.mode, ctx.padding, ctx.align_corners, False, True)
        return _grid3d_backward.apply((g, inp, grid), (g._data, inp._data, grid._data), {"value": value, **attrs})[1]

    return double_backward(ctx, grads, 3, lambda inp, grid: grid3d(inp, grid, **attrs), sample_backward)
