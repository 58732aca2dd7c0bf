"""Spatial transformers: F.affine_grid (affine_grid_generator) and F.grid_sample (grid_sampler_2d here,
grid_sampler_3d in grid_sampling_3d.py).

``affine_grid_generator`` is ATen's: a base grid (x from ``linspace(-1, 1, W)``, y from
``linspace(-1, 1, H)``, scaled by ``(n - 1) / n`` without align_corners; a column of ones) times
theta transposed, one ``bmm`` (AffineGridGeneratorBackward0; its backward is the base grid
transposed times the gradient).  ``grid_sampler_2d`` follows the CPU kernel lane by lane: the
grid's coordinates unnormalised (``(g + 1) * s`` with s = (size - 1) / 2, or ``(g + 1) * size / 2
- 0.5``), clipped (border) or reflected (reflection), then bilinear weights of the four
neighbours, ``((nw_v * nw + ne_v * ne) + sw_v * sw) + se_v * se`` with out-of-range neighbours
zero, or the nearest (rounded half to even) neighbour; bicubic in grid_sampling_bicubic.py.  Its backward scatters the gradient
into the input's neighbours in the kernel's order (each vector of grid points: nw, ne, sw, se)
and sums the grid's gradient over the channels (GridSampler2DBackward0).
"""

from __future__ import annotations


import numpy as np

from ..autograd.graph import should_compute_output  # (output_mask: the pass's needs)
from ..tensor import Tensor, _scalar_name
from ._op import Op, export
from ._vec_math import fma
from .._warn_once import warn as _warn

_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
_PADDINGS = {"zeros": 0, "border": 1, "reflection": 2}
_ALIGN_WARNING = ("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. "
                  "Please specify align_corners=True if the old behavior is desired. See the documentation of "
                  "grid_sample for details.")


def _t(a):
    return Tensor._make(a)


# ---------------------------------------------------------------------------
# affine_grid
# ---------------------------------------------------------------------------

def _linspace_from_neg_one(dtype, steps, align_corners):
    from ._op import FUNCTIONS

    if steps <= 1:
        return _t(np.asarray(0, dtype))
    r = FUNCTIONS["linspace"](-1, 1, steps, dtype=Tensor._make(np.zeros(0, dtype)).dtype)
    if not align_corners:
        r = r * (steps - 1) / steps
    return r


def _base_grid(dtype, n, sizes, align_corners):
    """(N, *sizes, k + 1): x, y(, z) of each point and a 1."""
    k = len(sizes)
    base = np.empty((n, *sizes, k + 1), dtype)
    for axis in range(k):  # (x runs along the last spatial dim)
        line = _linspace_from_neg_one(dtype, sizes[k - 1 - axis], align_corners)._data
        shape = [1] * k
        if line.ndim:
            shape[k - 1 - axis] = line.shape[0]
        base[..., axis] = line.reshape(shape)
    base[..., k] = 1
    return base


def _affine_fwd(ctx, theta, size, align_corners):
    n, sizes = size[0], tuple(size[2:])
    base = _t(_base_grid(theta.dtype, n, sizes, align_corners)).view(n, -1, len(sizes) + 1)
    return base.bmm(_t(theta).transpose(1, 2))._data.reshape(n, *sizes, len(sizes))


_affine_grid = Op("AffineGridGeneratorBackward0", _affine_fwd, inputs=("theta",), jvp="linear")


@_affine_grid.derivative
def _(ctx, grad):
    size, k = ctx.size, len(ctx.size) - 2
    base = _t(_base_grid(grad._data.dtype, size[0], tuple(size[2:]), ctx.align_corners)).view(size[0], -1, k + 1)
    return base.transpose(1, 2).bmm(grad.reshape(size[0], -1, k)).transpose(1, 2)


@export(functional=True, torch=False)
def affine_grid(theta, size, align_corners=None):
    """The sampling grid of a batch of affine maps (N x 2 x 3 or N x 3 x 4) over an output of ``size``."""
    if align_corners is None:
        _warn(_ALIGN_WARNING)
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    if len(size) == 4:
        if theta.ndim != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError(f"Expected a batch of 2D affine matrices of shape Nx2x3 for size {size}. Got "
                             f"{_size_repr(theta)}.")
        spatial = size[-2:]
    elif len(size) == 5:
        if theta.ndim != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError(f"Expected a batch of 3D affine matrices of shape Nx3x4 for size {size}. Got "
                             f"{_size_repr(theta)}.")
        spatial = size[-3:]
    else:
        raise NotImplementedError(f"affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
                                  f"respectively. Got size {size}.")
    if align_corners and min(spatial) == 1:
        _warn("Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
              "align_corners=True. This is not an intended use case of affine_grid. See the documentation "
              "of affine_grid for details.")
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    n = int(size[0])
    if theta.shape[0] != n:  # (the bmm's check)
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{n}, "
                           f"{theta.shape[2]}] but got: [{theta.shape[0]}, {theta.shape[2]}].")
    return _affine_grid(theta, size=tuple(int(s) for s in size), align_corners=bool(align_corners))


def _size_repr(t):
    return "torch.Size([" + ", ".join(str(s) for s in t.shape) + "])"


# ---------------------------------------------------------------------------
# grid_sampler_2d
# ---------------------------------------------------------------------------

def _fused(a):
    """The compiler contracts the vector kernel's multiply-adds into fma (float and double)."""
    return a.dtype in (np.float32, np.float64)


def _unnormalize(g, size, align_corners):
    t = g.dtype.type
    if align_corners:
        return (g + t(1)) * t((size - 1) / 2)
    if _fused(g):
        return fma(g + t(1), np.full(g.shape, t(size / 2)), np.full(g.shape, t(-0.5)))
    return (g + t(1)) * t(size / 2) - t(0.5)


def _clip(x, size, nan_zero=False):
    """clip_coordinates; ``nan_zero``: as the kernel's clip of a location (clamp_min(0, x) with its
    operands inverted, so a NaN place becomes 0), not clip_coordinates_get_grad's (NaN stays)."""
    t = x.dtype.type
    out = np.minimum(t(size - 1), np.maximum(x, t(0)))
    return np.where(np.isnan(out), t(0), out) if nan_zero else out


def _reflect(x, size, align_corners):
    t = x.dtype.type
    if align_corners:
        if size <= 1:
            return np.zeros_like(x)
        twice_span = t(2 * (size - 1))
        a = np.abs(x)
        extra = a - np.trunc(a / twice_span) * twice_span
        return np.minimum(extra, twice_span - extra)
    twice_span = t(2 * size)
    a = np.abs(x + t(0.5))
    extra = a - np.trunc(a / twice_span) * twice_span
    return np.minimum(extra, twice_span - extra) - t(0.5)


def _source(g, size, padding, align_corners, nan_zero=False):
    x = _unnormalize(g, size, align_corners)
    if padding == 1:
        x = _clip(x, size, nan_zero)
    elif padding == 2:
        x = _clip(_reflect(x, size, align_corners), size, nan_zero)
    return x


def _sample_points(x, gx, gy, padding, align_corners, nan_zero=False):
    """For input (C, H, W): the source places of the points' grid coordinates (``nan_zero``: the
    forward's and nearest's, whose clip turns a NaN place into 0)."""
    H, W = x.shape[-2:]
    ix = _source(gx, W, padding, align_corners, nan_zero)
    iy = _source(gy, H, padding, align_corners, nan_zero)
    return ix, iy


def _gather(x, yy, xx, ok):
    """x (C, H, W) at integer places (P,), zero where not ``ok``: (C, P)."""
    H, W = x.shape[-2:]
    safe_y = np.where(ok, yy, 0).astype(np.int64)
    safe_x = np.where(ok, xx, 0).astype(np.int64)
    vals = x[:, safe_y, safe_x]
    return np.where(ok, vals, x.dtype.type(0))


def _in_bounds(yy, xx, H, W):
    return (xx > -1) & (xx < W) & (yy > -1) & (yy < H)


def _bilinear_parts(ix, iy):
    t = ix.dtype.type
    with np.errstate(invalid="ignore"):
        x_w, y_n = np.floor(ix), np.floor(iy)
    w = ix - x_w
    e = t(1) - w
    n = iy - y_n
    s = t(1) - n
    return x_w, y_n, w, e, n, s


def _grid2d_fwd(ctx, x, grid, mode, padding, align_corners):
    if mode == 2:
        from .grid_sampling_bicubic import bicubic_forward
        return bicubic_forward(x, grid, padding, align_corners)
    N, C, H, W = x.shape
    Ho, Wo = grid.shape[1:3]
    out = np.zeros((N, C, Ho, Wo), x.dtype)
    with np.errstate(invalid="ignore", over="ignore"):
        for b in range(N):
            gx, gy = grid[b, ..., 0].reshape(-1), grid[b, ..., 1].reshape(-1)
            ix, iy = _sample_points(x[b], gx, gy, padding, align_corners, nan_zero=True)
            if mode == 1:
                xr, yr = np.rint(ix), np.rint(iy)
                ok = _in_bounds(yr, xr, H, W) & ~np.isnan(xr) & ~np.isnan(yr)
                out[b] = _gather(x[b], yr, xr, ok).reshape(C, Ho, Wo)
                continue
            x_w, y_n, w, e, n, s = _bilinear_parts(ix, iy)
            nw, ne, sw, se = s * e, s * w, n * e, n * w
            corners = ((y_n, x_w), (y_n, x_w + 1), (y_n + 1, x_w), (y_n + 1, x_w + 1))
            vals = [_gather(x[b], yy, xx, _in_bounds(yy, xx, H, W)) for yy, xx in corners]
            if _fused(x):
                res = fma(vals[3], _b(se, vals[3]), fma(vals[2], _b(sw, vals[2]), fma(vals[1], _b(ne, vals[1]),
                                                                                      vals[0] * nw)))
            else:
                res = ((vals[0] * nw + vals[1] * ne) + vals[2] * sw) + vals[3] * se
            out[b] = res.reshape(C, Ho, Wo).astype(x.dtype, copy=False)
    return out


def _b(w, like):
    return np.broadcast_to(w, like.shape)


def _grid2d_backward_np(g, x, grid, mode, padding, align_corners, need_input, need_grid):
    if mode == 2:
        from .grid_sampling_bicubic import bicubic_backward
        return bicubic_backward(g, x, grid, padding, align_corners, need_input, need_grid)
    N, C, H, W = x.shape
    Ho, Wo = grid.shape[1:3]
    lanes = 32 // x.dtype.itemsize
    g_in = np.zeros(x.shape, x.dtype) if need_input else None
    g_grid = np.zeros(grid.shape, grid.dtype) if need_grid else None
    with np.errstate(invalid="ignore", over="ignore"):
        for b in range(N):
            gx, gy = grid[b, ..., 0].reshape(-1), grid[b, ..., 1].reshape(-1)
            gout = g[b].reshape(C, -1)
            ix, iy = _sample_points(x[b], gx, gy, padding, align_corners)
            mx = _grad_mult(gx, W, padding, align_corners)
            my = _grad_mult(gy, H, padding, align_corners)
            if mode == 1:
                if need_input:
                    ix, iy = _sample_points(x[b], gx, gy, padding, align_corners, nan_zero=True)
                    xr, yr = np.rint(ix), np.rint(iy)
                    ok = _in_bounds(yr, xr, H, W)
                    for start in range(0, ix.size, lanes):
                        sl = slice(start, start + lanes)
                        _scatter(g_in[b], yr[sl], xr[sl], ok[sl], gout[:, sl])
                continue
            x_w, y_n, w, e, n, s = _bilinear_parts(ix, iy)
            nw, ne, sw, se = s * e, s * w, n * e, n * w
            corners = ((y_n, x_w), (y_n, x_w + 1), (y_n + 1, x_w), (y_n + 1, x_w + 1))
            masks = [_in_bounds(yy, xx, H, W) for yy, xx in corners]
            # (a NaN place under border/reflection: float32's wrapped offsets; float64's crash PyTorch)
            nan_places = _nan_places(x.shape, 4, x_w, y_n) if padding and x.dtype == np.float32 else []
            if need_input:
                for start in range(0, ix.size, lanes):
                    sl = slice(start, start + lanes)
                    for (yy, xx), ok, wt in zip(corners, masks, (nw, ne, sw, se)):
                        _scatter(g_in[b], yy[sl], xx[sl], ok[sl], gout[:, sl] * wt[sl])
                if nan_places:
                    _nan_place_writes(g_in, b, nan_places)
            if need_grid:
                v = [_gather(x[b], yy, xx, ok) for (yy, xx), ok in zip(corners, masks)]
                if nan_places:
                    _nan_place_reads(v, x, b, nan_places)
                    for p, _ in nan_places:
                        mx[p] = _nan_mult(gx[p], W, padding, align_corners) if np.isnan(ix[p]) else mx[p]
                        my[p] = _nan_mult(gy[p], H, padding, align_corners) if np.isnan(iy[p]) else my[p]
                gxs = np.zeros(ix.shape, x.dtype)
                gys = np.zeros(ix.shape, x.dtype)
                for c in range(C):
                    go = gout[c]
                    if _fused(x):  # (both multiply-adds contracted)
                        tx = fma(v[3][c] - v[2][c], n, (v[1][c] - v[0][c]) * s)
                        ty = fma(v[3][c] - v[1][c], w, (v[2][c] - v[0][c]) * e)
                        gxs, gys = fma(tx, go, gxs), fma(ty, go, gys)
                    else:
                        gxs = gxs + ((v[1][c] - v[0][c]) * s + (v[3][c] - v[2][c]) * n) * go
                        gys = gys + ((v[2][c] - v[0][c]) * e + (v[3][c] - v[1][c]) * w) * go
                g_grid[b, ..., 0] = (gxs * mx).reshape(Ho, Wo)
                g_grid[b, ..., 1] = (gys * my).reshape(Ho, Wo)
    return g_in, g_grid


def _nan_mult(g, size, padding, align_corners):
    """The vector kernel's multiplier at a NaN place (an infinite or NaN grid coordinate): the clip's
    gradient keeps it (a NaN's bits are not 0's or size - 1's), times reflection's sign, which is
    the coordinate's side of low (``one_more_flip``, NaN > NaN, is false): -inf's is -1."""
    t = g.dtype.type
    scale = t((size - 1) / 2) if align_corners else t(size / 2)
    if padding == 2 and _unnormalize(g, size, align_corners) - t(0 if align_corners else -0.5) < 0:
        return -scale
    return scale


def _nan_places(shape, itemsize, x_w, y_n):
    """The kernel's corners of the NaN places under border/reflection (``must_in_bound``: no mask
    but the east/south ones): [(point, [(flat offset in the channel's plane, mask)] * 4)], the
    offsets ``y * W + x`` from the NaN floor converted to an int of the scalar's size (INT_MIN),
    wrapping.  An even W takes the product to 0: a NaN y reads and writes rows 0 and 1; other
    offsets land outside the batch's planes (memory PyTorch corrupts, or a crash)."""
    bad = np.flatnonzero(np.isnan(x_w) | np.isnan(y_n))
    if not bad.size:
        return []
    H, W = shape[-2:]
    bits = itemsize * 8
    lo, span = -(1 << (bits - 1)), 1 << bits

    def wrap(v):
        return (v - lo) % span + lo

    def to_int(v):
        return lo if not np.isfinite(v) or not lo <= v < -lo else int(v)

    out = []
    for p in bad:
        xw, yn = to_int(x_w[p]), to_int(y_n[p])
        nw = wrap(yn * W + xw)
        east, south = wrap(xw + 1) < W, wrap(yn + 1) < H
        out.append((p, [(nw, True), (wrap(nw + 1), east), (wrap(nw + W), south), (wrap(nw + W + 1), east and south)]))
    return out


def _nan_place_writes(g_in, b, places):
    """The NaN-weighted writes of those places, by the flat offset from each channel's plane
    (those within the tensor)."""
    N, C, H, W = g_in.shape
    flat = g_in.reshape(-1)
    for _, corners in places:
        for off, ok in corners:
            if ok:
                for c in range(C):
                    pos = (b * C + c) * H * W + off
                    if 0 <= pos < flat.size:
                        flat[pos] = np.nan


def _nan_place_reads(v, x, b, places):
    """... and the corners' values the grid's gradient reads there (beyond the tensor, memory that
    is not the input's: read as 0 here)."""
    N, C, H, W = x.shape
    flat = x.reshape(-1)
    for p, corners in places:
        for k, (off, ok) in enumerate(corners):
            for c in range(C):
                pos = (b * C + c) * H * W + off
                v[k][c, p] = flat[pos] if ok and 0 <= pos < flat.size else 0


def _scatter(target, yy, xx, ok, vals):
    """Add ``vals`` (C, P) into target (C, H, W) at the in-bound places, one point after another."""
    for p in np.flatnonzero(ok):
        target[:, int(yy[p]), int(xx[p])] += vals[:, p]


def _grad_mult(g, size, padding, align_corners):
    """d(source index)/d(grid coordinate): the unnormalising scale times the clip's or the
    reflection's own derivative."""
    t = g.dtype.type
    scale = t((size - 1) / 2) if align_corners else t(size / 2)
    x = _unnormalize(g, size, align_corners)
    if padding == 0:
        return np.full(g.shape, scale)
    if padding == 1:
        return np.where((x > t(0)) & (x < t(size - 1)), scale, t(0))
    # reflection: the reflected coordinate's sign, then the clip's
    if align_corners:
        if size <= 1:
            return np.zeros(g.shape, g.dtype)
        low, span = t(0), t(size - 1)
    else:
        low, span = t(-0.5), t(size)
    r = x - low
    sign = np.where(r < 0, t(-1), t(1))
    a = np.abs(r)
    flips = np.floor(a / span)
    sign = np.where(flips % 2 == 0, sign, -sign)
    refl = _reflect(x, size, align_corners)
    clip_ok = (refl > t(0)) & (refl < t(size - 1))
    return np.where(clip_ok, sign * scale, t(0))


_grid2d = Op("GridSampler2DBackward0", _grid2d_fwd, inputs=("input", "grid"), saves=("input", "grid"))


@_grid2d.derivative
def _(ctx, grad):
    g_in, g_grid = _grid2d_backward_np(grad._data, ctx.input._data, ctx.grid._data, ctx.mode, ctx.padding,
                                       ctx.align_corners, should_compute_output(ctx, 0), should_compute_output(ctx, 1))
    return _grid2d_backward.apply((grad, ctx.input, ctx.grid), (grad._data, ctx.input._data, ctx.grid._data),
                                  {"value": (g_in, g_grid), "mode": ctx.mode, "padding": ctx.padding,
                                   "align_corners": ctx.align_corners})


# grid_sampler_2d_backward, an op of its own under create_graph (its values computed above);
# its derivative is PyTorch's grid_sampler_2d_double_backward (grid_sampling_double.py)
_grid2d_backward = Op("GridSampler2DBackwardBackward0", lambda ctx, *arrays, value, **attrs: tuple(
    v if v is not None else np.zeros(a.shape, a.dtype) for v, a in zip(value, arrays[1:])),
    inputs=("grad_output", "input", "grid"), saves=("grad_output", "input", "grid"), internal=True,
    jvp="unsupported", outputs=None, multi_grad="undefined")


@_grid2d_backward.derivative
def _(ctx, grads):
    from .grid_sampling_double import double_backward
    attrs = {"mode": ctx.mode, "padding": ctx.padding, "align_corners": ctx.align_corners}

    def sample_backward(g, inp, grid):  # (output_mask [False, True]: the grid's gradient)
        value = _grid2d_backward_np(g._data, inp._data, grid._data, ctx.mode, ctx.padding, ctx.align_corners,
                                    False, True)
        return _grid2d_backward.apply((g, inp, grid), (g._data, inp._data, grid._data),
                                      {"value": value, **attrs})[1]

    return double_backward(ctx, grads, 2, lambda inp, grid: _grid2d(inp, grid, **attrs), sample_backward)


def _grid_checks(input, grid, mode):
    """ATen's grid_sampler checks, in their order."""
    if input.ndim and grid.ndim and input.shape[0] != grid.shape[0]:
        raise RuntimeError(f"grid_sampler(): expected grid and input to have same batch size, but got input with "
                           f"sizes {list(input.shape)} and grid with sizes {list(grid.shape)}")
    if grid.ndim and grid.shape[-1] != input.ndim - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {input.ndim - 2} in last dimension, but got "
                           f"grid with sizes {list(grid.shape)}")
    for i in range(2, input.ndim):
        if input.shape[i] == 0:
            raise RuntimeError(f"grid_sampler(): expected input to have non-empty spatial dimensions, but input has "
                               f"sizes {list(input.shape)} with dimension {i} being empty")
    k = 4 if input.ndim == 4 else 5
    if input.ndim != k or grid.ndim != k:
        raise RuntimeError(f"grid_sampler(): expected {k}D input and grid with same number of dimensions, but got "
                           f"input with sizes {list(input.shape)} and grid with sizes {list(grid.shape)}")
    if k == 5 and mode == "bicubic":
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    if input.dtype.name not in ("float16", "float32", "float64"):
        raise NotImplementedError(f'"grid_sampler_{k - 2}d_cpu_kernel_impl" not implemented for '
                                  f"'{_scalar_name(input.dtype)}'")
    if grid.dtype is not input.dtype:
        raise RuntimeError(f"expected scalar type {_scalar_name(input.dtype)} but found {_scalar_name(grid.dtype)}")


@export(functional=True, torch=False)
def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """Sample ``input`` at the (normalised, -1..1) places of ``grid``: bilinear, nearest or bicubic."""
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', "
                         f"but got: '{mode}'")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         f"'reflection', but got: '{padding_mode}'")
    if align_corners is None:
        _warn(_ALIGN_WARNING)
        align_corners = False
    _grid_checks(input, grid, mode)
    if input.ndim == 4:
        return _grid2d(input, grid, mode=_MODES[mode], padding=_PADDINGS[padding_mode],
                       align_corners=bool(align_corners))
    from .grid_sampling_3d import grid3d
    return grid3d(input, grid, mode=_MODES[mode], padding=_PADDINGS[padding_mode], align_corners=bool(align_corners))
