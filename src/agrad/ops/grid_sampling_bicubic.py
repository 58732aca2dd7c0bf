"""F.grid_sample's bicubic mode (grid_sampler_2d, interpolation 2): ATen's vectorised CPU kernel.

Each grid point is unnormalised (no padding applied to the point itself), split into its floor
and fraction t along x and y, and weighted by the cubic convolution coefficients (A = -0.75) of
t + 1, t, 1 - t, 2 - t; the 4 x 4 taps around it are read through the padding mode (zeros: out
of range reads 0; border: clipped; reflection: reflected then clipped), interpolated along x
(four rows) and then along y.  The compiler contracts the kernel's multiply-adds into fma
(float and double), and this follows: ``c0 v0 + c1 v1 + c2 v2 + c3 v3`` is
fma(c3, v3, fma(c2, v2, fma(c1, v1, c0 v0))), the coefficients' Horner steps fma's.  The
backward scatters ``g * cx[i] * cy[j]`` into the 16 taps (points a vector at a time, taps in
the kernel's order) and accumulates the grid's gradient ``-v g cx'[i] cy[j]`` per channel and
tap, times the unnormalising scale only (ATen's bicubic backward ignores the padding's own
derivative).
"""

from __future__ import annotations

import numpy as np

from ._vec_math import fma
from .grid_sampling import _clip, _fused, _in_bounds, _reflect, _scatter, _unnormalize

_A = -0.75


def _fma(a, b, c, like):
    """fma with scalar or array operands broadcast to ``like``'s shape, in its dtype."""
    a, b, c = (np.broadcast_to(np.asarray(v, like.dtype) if np.isscalar(v) else v, like.shape)
               for v in (a, b, c))
    if _fused(like):
        return fma(np.ascontiguousarray(a), np.ascontiguousarray(b), np.ascontiguousarray(c))
    return (a * b + c).astype(like.dtype, copy=False)


def _coefficients(tx, fused=False):
    """get_cubic_coefficients: the four weights of a fraction ``tx``.  (In ``A x - 5A`` and
    ``... x + 8A`` the compiler fuses the constant's product, which is exact: plain arithmetic;
    the inner ones' ``(A + 2) x - (A + 3)`` and ``... x x + 1`` are fma's.)"""
    t = tx.dtype.type
    A = t(_A)

    def outer(x):  # ((A x - 5A) x + 8A) x - 4A, 1 < |x| < 2
        if fused:
            return _fma(_fma(_fma(A, x, t(-5 * _A), x), x, t(8 * _A), x), x, t(-4 * _A), x)
        return ((A * x - t(5 * _A)) * x + t(8 * _A)) * x - t(4 * _A)

    def inner(x):  # ((A + 2) x - (A + 3)) x x + 1, |x| <= 1
        return _fma(_fma(t(_A + 2), x, t(-(_A + 3)), x) * x, x, t(1), x)

    return [outer(tx + t(1)), inner(tx), inner(t(1) - tx), outer(t(2) - tx)]


def _coefficients_grad(tx, fused):
    """get_cubic_coefficients_grad: d coefficient / d x of a fraction ``tx`` (Horner steps fused
    or not, as the compiled backward has them)."""
    t = tx.dtype.type
    x0, x1, x2, x3 = t(-1) - tx, t(0) - tx, t(1) - tx, t(2) - tx
    if not fused:
        return [(t(-3 * _A) * x0 - t(10 * _A)) * x0 - t(8 * _A),
                (t(-3 * (_A + 2)) * x1 - t(2 * (_A + 3))) * x1,
                (t(3 * (_A + 2)) * x2 - t(2 * (_A + 3))) * x2,
                (t(3 * _A) * x3 - t(10 * _A)) * x3 + t(8 * _A)]
    return [_fma(_fma(t(-3 * _A), x0, t(10 * -_A), x0), x0, t(-8 * _A), x0),
            _fma(t(-3 * (_A + 2)), x1, t(-2 * (_A + 3)), x1) * x1,
            _fma(t(3 * (_A + 2)), x2, t(-2 * (_A + 3)), x2) * x2,
            _fma(_fma(t(3 * _A), x3, t(10 * -_A), x3), x3, t(8 * _A), x3)]


def _taps(coord, size, padding, align_corners):
    """compute_coordinates of integer tap places: (places, in-range mask)."""
    if padding == 1:
        coord = _clip(coord, size, nan_zero=True)
    elif padding == 2:
        coord = _clip(_reflect(coord, size, align_corners), size, nan_zero=True)
    return coord


def _read(x, yy, xx, H, W, padding):
    """get_value_bounded: x (C, H, W) at the taps (P,), zeros out of range (C, P); and the places."""
    ok = _in_bounds(yy, xx, H, W) if padding == 0 else np.ones(yy.shape, bool)
    ok = ok & ~np.isnan(yy) & ~np.isnan(xx)
    sy = np.where(ok, yy, 0).astype(np.int64)
    sx = np.where(ok, xx, 0).astype(np.int64)
    return np.where(ok, x[:, sy, sx], x.dtype.type(0)), sy, sx, ok


def _sum4_x(c, v):
    """c0 v0 + c1 v1 + c2 v2 + c3 v3 of the taps along x, as the compiled kernel adds them: the
    first product fused into the second, the others added (measured against PyTorch)."""
    if not _fused(v[0]):
        return ((c[0] * v[0] + c[1] * v[1]) + c[2] * v[2]) + c[3] * v[3]
    acc = _fma(np.broadcast_to(c[0], v[0].shape), v[0], c[1] * v[1], v[0])
    return (acc + c[2] * v[2]) + c[3] * v[3]


def _sum4_y(c, v):
    """... of the four rows along y: each product after the first fused into the sum."""
    acc = c[0] * v[0]
    for k in (1, 2, 3):
        acc = _fma(np.broadcast_to(c[k], v[k].shape), v[k], acc, v[k]) if _fused(v[k]) else acc + c[k] * v[k]
    return acc


def _geometry(xb, gx, gy, align_corners):
    H, W = xb.shape[-2:]
    ux = _unnormalize(gx, W, align_corners)
    uy = _unnormalize(gy, H, align_corners)
    with np.errstate(invalid="ignore"):
        ix, iy = np.floor(ux), np.floor(uy)
    return ux, uy, ix, iy


def bicubic_forward(x, grid, padding, align_corners):
    N, C, H, W = x.shape
    Ho, Wo = grid.shape[1:3]
    out = np.zeros((N, C, Ho, Wo), x.dtype)
    t = x.dtype.type
    with np.errstate(invalid="ignore", over="ignore"):
        for b in range(N):
            gx, gy = grid[b, ..., 0].reshape(-1), grid[b, ..., 1].reshape(-1)
            ux, uy, ix, iy = _geometry(x[b], gx, gy, align_corners)
            cx, cy = _coefficients(ux - ix), _coefficients(uy - iy)
            rows = []
            for i in range(4):
                yy = _taps(iy + t(-1 + i), H, padding, align_corners)
                vals = [_read(x[b], yy, _taps(ix + t(k - 1), W, padding, align_corners), H, W, padding)[0]
                        for k in range(4)]
                rows.append(_sum4_x(cx, vals))
            out[b] = _sum4_y(cy, rows).reshape(C, Ho, Wo)
    return out


def bicubic_backward(g, x, grid, padding, align_corners, need_input, need_grid):
    N, C, H, W = x.shape
    Ho, Wo = grid.shape[1:3]
    t = x.dtype.type
    lanes = 32 // x.dtype.itemsize
    g_in = np.zeros(x.shape, x.dtype) if need_input else None
    g_grid = np.zeros(grid.shape, grid.dtype) if need_grid else None
    with np.errstate(invalid="ignore", over="ignore"):
        for b in range(N):
            gx, gy = grid[b, ..., 0].reshape(-1), grid[b, ..., 1].reshape(-1)
            gout = g[b].reshape(C, -1)
            ux, uy, ix, iy = _geometry(x[b], gx, gy, align_corners)
            # (the kernel's two instances, with and without the input's gradient, are compiled with
            # different contractions: with it, the forward's coefficients and plain derivative
            # polynomials; without it, every Horner step fused, except in double's reflection
            # instance; measured against PyTorch)
            fused = _fused(x) and not need_input and not (padding == 2 and x.dtype == np.float64)
            cx, cy = _coefficients(ux - ix, fused), _coefficients(uy - iy, fused)
            cxg, cyg = _coefficients_grad(ux - ix, fused), _coefficients_grad(uy - iy, fused)
            taps = {}
            for i in range(4):
                xx = _taps(ix + t(-1 + i), W, padding, align_corners)
                for j in range(4):
                    yy = _taps(iy + t(-1 + j), H, padding, align_corners)
                    taps[i, j] = (yy, xx)
            if need_input:
                for start in range(0, gx.size, lanes):
                    sl = slice(start, start + lanes)
                    for c in range(C):
                        go = gout[c:c + 1, sl]
                        for i in range(4):
                            for j in range(4):
                                yy, xx = taps[i, j]
                                ok = ((_in_bounds(yy, xx, H, W) if padding == 0 else np.ones(yy.shape, bool))
                                      & ~np.isnan(yy) & ~np.isnan(xx))[sl]
                                _scatter(g_in[b, c:c + 1], yy[sl], xx[sl], ok, (go * cx[i][sl]) * cy[j][sl])
            if need_grid:
                sx = np.zeros(gx.shape, x.dtype)
                sy = np.zeros(gx.shape, x.dtype)
                for c in range(C):
                    go = gout[c]
                    for i in range(4):
                        for j in range(4):
                            yy, xx = taps[i, j]
                            v = _read(x[b, c:c + 1], yy, xx, H, W, padding)[0][0]
                            vg = v * go
                            if _fused(x):
                                sx = fma(-(vg * cxg[i]), cy[j], sx)
                                sy = fma(-(vg * cyg[j]), cx[i], sy)
                            else:
                                sx = sx - vg * cxg[i] * cy[j]
                                sy = sy - vg * cyg[j] * cx[i]
                scale_x = t((W - 1) / 2) if align_corners else t(W / 2)
                scale_y = t((H - 1) / 2) if align_corners else t(H / 2)
                g_grid[b, ..., 0] = (sx * scale_x).reshape(Ho, Wo)
                g_grid[b, ..., 1] = (sy * scale_y).reshape(Ho, Wo)
    return g_in, g_grid
