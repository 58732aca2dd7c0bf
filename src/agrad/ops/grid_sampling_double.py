"""grid_sampler_2d_backward's and grid_sampler_3d_backward's own derivative (PyTorch 2.13's
grid_sampler_{2,3}d_double_backward, GridSampler{2,3}DBackwardBackward0).

A sample is a sum over taps t of ``W_t(u) * x[idx_t]``: ``u`` the fractional place along each
spatial axis, ``W_t`` a product of one weight per axis (bilinear: 1 - f and f; bicubic: the
cubic convolution coefficients; nearest: 1), ``idx_t`` and the in-bounds masks constant.  The
first backward is ``gI = scatter(W_t gO)``, ``gGrid_a = m_a sum_c gO sum_t dW_t/du_a x_t`` (``m_a``
the source place's derivative: the unnormalising scale times the clip's and reflection's, a
constant per point).  Differentiating ``<ggI, gI> + <ggGrid, gGrid>`` gives, with
``q_a = ggGrid_a m_a``:

- grad_output: ``sum_t W_t ggI_t + sum_a q_a sum_t dW_t/du_a x_t`` (grid_sample of ggI plus the
  sample's derivative along ggGrid);
- input: ``scatter(gO sum_a q_a dW_t/du_a)`` (only where ggGrid is given);
- grid: ``m_b sum_c gO (sum_t dW_t/du_b ggI_t + sum_a q_a sum_t d2W_t/du_a du_b x_t)``.

Written with agrad ops (gather, scatter_add, products) so a further derivative goes through;
``u`` carries the grid's derivative (``frac + (g - g.detach()) m``, equal to frac in value).
Nearest has constant weights: only grad_output (ggI sampled) and a zero grid gradient, as
PyTorch's.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from ..tensor import Tensor
from .selection import where

_A = -0.75


def _t(a):
    return Tensor._make(np.ascontiguousarray(a))


# ---------------------------------------------------------------------------
# geometry: per axis, the taps' places, validity and the weight polynomials
# ---------------------------------------------------------------------------

class _Axis:
    """One spatial axis: ``taps`` (index arrays (N, P), float), ``frac`` (N, P), ``mult``
    (N, P), and the kind of weights ("linear", "cubic", "nearest")."""

    def __init__(self, taps, valid, frac, mult, kind, size, base=None, offsets=None):
        self.taps, self.valid, self.frac, self.mult, self.kind, self.size = taps, valid, frac, mult, kind, size
        self.base, self.offsets = base, offsets  # (the taps as floor + offset in int64, when unpadded)


def _axes_2d(grid, sizes, mode, padding, align_corners):
    from .grid_sampling import _grad_mult, _source
    from .grid_sampling_bicubic import _taps
    from .grid_sampling import _unnormalize
    axes = []
    for a, size in enumerate(sizes):  # x (W), y (H)
        g = grid[..., a]
        if mode == 1:
            src = _source(g, size, padding, align_corners, nan_zero=True)
            r = np.rint(src)
            axes.append(_Axis([r], [(r > -1) & (r < size)], None, None, "nearest", size))
        elif mode == 0:
            src = _source(g, size, padding, align_corners)
            f0 = np.floor(src)
            taps = [f0, f0 + 1]
            axes.append(_Axis(taps, [(t > -1) & (t < size) for t in taps], src - f0,
                              _grad_mult(g, size, padding, align_corners), "linear", size, f0, (0, 1)))
        else:
            u = _unnormalize(g, size, align_corners)
            f0 = np.floor(u)
            taps = [_taps(_int64_tap(f0, i - 1), size, padding, align_corners) for i in range(4)]
            if padding == 2:
                taps = _wild_reflected(taps, f0, size, align_corners)
            valid = [((t > -1) & (t < size) if padding == 0 else np.ones(t.shape, bool)) & ~np.isnan(t)
                     for t in taps]
            scale = g.dtype.type((size - 1) / 2) if align_corners else g.dtype.type(size / 2)
            with np.errstate(invalid="ignore"):  # (the fraction: the place less the int64 floor, INT64_MIN if wild)
                frac = np.where(np.abs(f0) < 2.0 ** 63, u - f0, u + g.dtype.type(2.0 ** 63))
            axes.append(_Axis(taps, valid, frac, np.full(g.shape, scale), "cubic", size,
                              f0 if padding == 0 else None, (-1, 0, 1, 2)))
    return axes


def _int64_tap(f0, k):
    """``floor + k`` as the double backward's kernel makes a tap: the floor cast to int64 first, where a
    NaN, an infinity or a place past int64's range is INT64_MIN (x86's conversion), whose tap -1 wraps
    round to INT64_MAX (a border clip takes it to the last place, the other taps to the first)."""
    t = f0 + f0.dtype.type(k)
    with np.errstate(invalid="ignore"):
        wild = ~(np.abs(f0) < 2.0 ** 63)
    if wild.any():
        t = np.where(wild, f0.dtype.type(2.0 ** 63 - 1 if k == -1 else -2.0 ** 63 + k), t)
    return t


def _wild_reflected(taps, f0, size, align_corners):
    """The reflection padding of :func:`_int64_tap`'s wild taps (all +-2**63 as floats), as the scalar
    reflect_coordinates makes it: fmod(2**63, span) + min (the flips' int overflows to INT_MIN, even),
    clipped, and the place rounded to the nearest index (half to even: 1.5 is 2)."""
    with np.errstate(invalid="ignore"):
        wild = ~(np.abs(f0) < 2.0 ** 63)
    if not wild.any():
        return taps
    low, span = (0.0, size - 1) if align_corners else (-0.5, size)
    place = 0.0 if span <= 0 else min(max(math.fmod(2.0 ** 63, span) + low, 0.0), size - 1)
    place = f0.dtype.type(np.rint(place))
    return [np.where(wild, place, t) for t in taps]


def _axes_3d(grid, sizes, mode, padding, align_corners):
    from .grid_sampling_3d import _source, _source_grad
    axes = []
    for a, size in enumerate(sizes):  # x (W), y (H), z (D)
        g = grid[..., a]
        if mode == 1:
            r = np.rint(_source(g, size, padding, align_corners, True))
            axes.append(_Axis([r], [(r >= 0) & (r < size)], None, None, "nearest", size))
        else:
            src = _source(g, size, padding, align_corners)
            f0 = np.floor(src)
            taps = [f0, f0 + 1]
            axes.append(_Axis(taps, [(t >= 0) & (t < size) for t in taps], src - f0,
                              _source_grad(g, size, padding, align_corners), "linear", size))
    return axes


def _inner(x, k):
    """The cubic convolution coefficient for |x| <= 1 (k = 0), its first (1) and second (2) derivative."""
    if k == 0:
        return ((_A + 2) * x - (_A + 3)) * x * x + 1
    if k == 1:
        return (3 * (_A + 2) * x - 2 * (_A + 3)) * x
    return 6 * (_A + 2) * x - 2 * (_A + 3)


def _outer(x, k):
    """... for 1 < |x| < 2."""
    if k == 0:
        return ((_A * x - 5 * _A) * x + 8 * _A) * x - 4 * _A
    if k == 1:
        return (3 * _A * x - 10 * _A) * x + 8 * _A
    return 6 * _A * x - 10 * _A


def _weights(kind, u):
    """(weights, first derivatives, second derivatives) of the taps along one axis, as agrad
    tensors of the fraction ``u`` (None: zero)."""
    if kind == "linear":
        return [1 - u, u], [-1.0, 1.0], [None, None]
    w = [_outer(u + 1, 0), _inner(u, 0), _inner(1 - u, 0), _outer(2 - u, 0)]
    d = [_outer(u + 1, 1), _inner(u, 1), -_inner(1 - u, 1), -_outer(2 - u, 1)]
    dd = [_outer(u + 1, 2), _inner(u, 2), _inner(1 - u, 2), _outer(2 - u, 2)]
    return w, d, dd


def _prod(factors):
    out = None
    for f in factors:
        if f is None:
            return None
        if isinstance(f, float):
            if out is None:
                out = f
            else:
                out = out * f
            continue
        out = f if out is None else out * f
    return out


# ---------------------------------------------------------------------------
# the double backward
# ---------------------------------------------------------------------------

def double_backward(ctx, grads, spatial, sample, sample_backward):
    """The gradients of (grad_output, input, grid) from those of the first backward's two
    outputs (None where undefined); ``spatial``: 2 or 3.  As PyTorch's, ggI's terms are the ops
    themselves: grid_sample of ggI (``sample``, its node GridSampler{2,3}DBackward0) and the grid
    gradient of that sample for gO (``sample_backward(gO, ggI, grid)``, its node
    GridSampler{2,3}DBackwardBackward0); ggGrid's terms are composed of tensor ops."""
    ggI, ggG = grads
    gO, x, grid = ctx.grad_output, ctx.input, ctx.grid
    mode = ctx.mode
    need_go, need_x, need_grid = ctx.needs(0), ctx.needs(1), ctx.needs(2)
    d_go = d_x = d_grid = None
    if ggI is not None:
        if need_go:
            d_go = sample(ggI, grid)
        if need_grid:
            d_grid = sample_backward(gO, ggI, grid)
    if mode == 1 or ggG is None:  # nearest: constant weights, nothing along the grid
        return d_go, None, d_grid
    g_go, g_x, g_grid = _along_grid(ctx, ggG, spatial, need_go, need_x, need_grid)
    d_go = g_go if d_go is None else (d_go + g_go if g_go is not None else d_go)
    d_grid = g_grid if d_grid is None else (d_grid + g_grid if g_grid is not None else d_grid)
    return d_go, g_x, d_grid


def _along_grid(ctx, ggG, spatial, need_go, need_x, need_grid):
    """ggGrid's terms (bilinear, bicubic)."""
    from .joining import stack
    from .binary import addcmul
    gO, x, grid = ctx.grad_output, ctx.input, ctx.grid
    N, C = x.shape[:2]
    in_sizes = tuple(x.shape[2:])
    out_sizes = tuple(grid.shape[1:-1])
    S = int(np.prod(in_sizes))
    P = int(np.prod(out_sizes))
    rev = in_sizes[::-1]  # (x runs along the last spatial dim)
    make = _axes_2d if spatial == 2 else _axes_3d
    with np.errstate(invalid="ignore", over="ignore"):
        axes = make(grid._data.reshape(N, P, spatial), rev, ctx.mode, ctx.padding, ctx.align_corners)
    strides = [int(np.prod(rev[:a])) for a in range(spatial)]  # x: 1, y: W, z: W * H

    # the fractions, carrying the grid's derivative (m per point)
    shape = (N, 1, *out_sizes)
    us, ms = [], []
    for a, ax in enumerate(axes):
        m = _t(ax.mult.reshape(shape))
        u = _t(ax.frac.reshape(shape))
        if grid._requires_grad:
            ga = grid.select(-1, a).unsqueeze(1)
            fin = _t(np.isfinite(ga._data))
            gf = where(fin, ga, _t(np.zeros((), ga._data.dtype)))
            u = u + (gf - _t(gf._data)) * m
        us.append(u)
        ms.append(m)
    polys = [_weights(ax.kind, u) for ax, u in zip(axes, us)]
    q = [(ms[a][:, 0] * ggG.select(-1, a)).unsqueeze(1) for a in range(spatial)]

    taps = list(itertools.product(*[range(len(ax.taps)) for ax in axes]))
    places = [_tap_index(axes, t, strides) for t in taps]
    xf = x.reshape(N, C, S)
    vals = [_gather(xf, idx, ok).reshape(N, C, *out_sizes) for idx, ok in places]

    def dweight(t, b):
        return _prod([polys[a][1 if a == b else 0][t[a]] for a in range(spatial)])

    def ddweight(t, b, c):
        if b == c:
            return _prod([polys[a][2 if a == b else 0][t[a]] for a in range(spatial)])
        return _prod([polys[a][1 if a in (b, c) else 0][t[a]] for a in range(spatial)])

    def tap_sum(terms):
        terms = [tm for tm in terms if tm is not None]
        return stack(terms, -1).sum(-1)

    d_go = d_x = d_grid = None
    if need_go:  # sum_a q_a sum_t dW_t/du_a x_t
        for a in range(spatial):
            slope = tap_sum([vals[k] * dweight(t, a) for k, t in enumerate(taps)])
            d_go = slope * q[a] if d_go is None else addcmul(d_go, slope, q[a])
    if need_x:  # scatter(gO sum_a q_a dW_t/du_a)
        along = []
        for t in taps:
            acc = None
            for a in range(spatial):
                term = q[a] * dweight(t, a)
                acc = term if acc is None else acc + term
            along.append(gO * acc)
        idx = np.stack([idx for idx, _ in places], 2)  # (N, P, T)
        ok = np.stack([ok for _, ok in places], 2)
        keep = np.broadcast_to(ok[:, None], (N, C, P, len(taps))).reshape(N, C, *out_sizes, len(taps))
        src = _t(keep.astype(x._data.dtype)) * stack(along, -1)
        index = _t(np.broadcast_to(idx[:, None], (N, C, P, len(taps))).reshape(N, C, -1))
        d_x = Tensor._make(np.zeros((N, C, S), x._data.dtype)).scatter_add(2, index, src.reshape(N, C, -1))
        d_x = d_x.reshape(x.shape)
    if need_grid:  # m_b sum_c gO sum_a q_a sum_t d2W_t/du_a du_b x_t
        parts = []
        for b in range(spatial):
            if spatial == 2 and axes[0].kind == "linear":  # (one cross term: PyTorch's product order,
                a = 1 - b                                       # its signed zeros where a multiplier is 0)
                curv = stack([vals[k] * ddweight(t, a, b) for k, t in enumerate(taps)], -1).sum(-1)
                parts.append((ms[b][:, 0] * q[a][:, 0]) * (gO * curv).sum(1))
                continue
            acc = None
            for a in range(spatial):
                terms = [vals[k] * ddweight(t, a, b) for k, t in enumerate(taps) if ddweight(t, a, b) is not None]
                if not terms:
                    continue
                curv = stack(terms, -1).sum(-1)
                acc = curv * q[a] if acc is None else addcmul(acc, curv, q[a])
            parts.append((gO * acc).sum(1) * ms[b][:, 0])
        d_grid = stack(parts, -1)
    return d_go, d_x, d_grid


def _tap_index(axes, t, strides):
    """The flat spatial index (N, P) of tap ``t`` (one tap number per axis) and its validity.  As
    PyTorch's composition: each axis's place converted to int64 (a non-finite or out-of-range
    floor is INT64_MIN, x86's conversion), plus the tap's offset (wrapping), clamped into the axis;
    an invalid tap keeps that place (its weight, NaN at an infinite coordinate, is masked by a
    product: NaN lands there)."""
    idx = 0
    ok = True
    for a, ax in enumerate(axes):
        ok = ok & ax.valid[t[a]]
        if ax.base is not None:
            with np.errstate(over="ignore"):
                i = _to_long(ax.base) + np.int64(ax.offsets[t[a]])
        else:
            i = _to_long(ax.taps[t[a]])
        idx = idx + np.clip(i, 0, ax.size - 1) * strides[a]
    return idx, ok


def _to_long(v):
    lim = 2.0 ** 63
    with np.errstate(invalid="ignore"):
        fits = np.isfinite(v) & (v >= -lim) & (v < lim)
    return np.where(fits, np.where(fits, v, 0).astype(np.int64), np.iinfo(np.int64).min)


def _gather(xf, idx, ok):
    """xf (N, C, S) at the places (N, P), times 0 where not ``ok`` (N, C, P): as PyTorch's, an invalid
    tap reads its clamped place, so an inf or a NaN there makes NaN (a grid's double-backward gradient
    NaN next to an inf of the input, run dt37e)."""
    N, C = xf.shape[:2]
    index = _t(np.broadcast_to(idx[:, None, :], (N, C, idx.shape[1])))
    v = xf.gather(2, index)
    return v * _t(np.broadcast_to(ok[:, None, :], v.shape).astype(xf._data.dtype))
