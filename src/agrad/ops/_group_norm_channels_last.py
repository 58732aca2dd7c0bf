"""group_norm of a channels-last input as ATen's CPU kernels compute it (GroupNormKernelImplChannelsLastInternal
and GroupNormBackwardKernelImplChannelsLastInternal, float32 and float64; AVX2 vectors of K = 8 floats or 4
doubles). The input is read as (N, HxW, C) rows of channels. Where the compiler fuses a multiply into an add
(GCC contracts vector intrinsics too) was measured against PyTorch 2.13: noted "fused" below, else each step is
rounded.

Forward, fewer than 1024 positions (impl-1, per sample and group): ColumnwiseMoments, one K-lane vector
accumulator of x and one of x * x (not fused) over the positions in order, each position's channels of the group
in blocks of K (the last one zero-filled), the lanes folded (vec_reduce_all); 1024 or more (impl-2): per thread
(at::parallel_for's even split of the N * HxW rows) a per-channel sum of x and of x * x (fused) over its rows,
then per group the channels' sums, each over the threads, added in order from +0.0. Then mean = sum * s, var =
max(fma(sumsq, s, -(mean * mean)), 0), rstd = 1 / sqrt(var + eps) in double, rounded once; per channel scale =
rstd * gamma, bias = fma(-scale, mean, beta); y = fma(x, scale, bias).

Backward, fewer than 2048 positions (impl-1, per sample and group): per block of K channels, lane sums over the
positions of x * dy (not fused: ds) and of dy (db), each block's lanes times gamma folded and added into
ds_gamma / db_gamma in order from +0.0; 2048 or more (impl-2): per thread the rows' x * dy (fused) and dy summed
per channel, then per channel over the threads: ds, db plain, ds_gamma, db_gamma adding the rounded products
with gamma. c2 = fma(db_gamma, mean, -ds_gamma) rstd^3 s, c3 = fma(-c2, mean, -(db_gamma rstd s));
dX = fma(c2, x, (rstd gamma) dy) + c3. dgamma sums fma(fma(-db, mean, ds), rstd, acc) over the batch, dbeta db,
from +0.0 (GammaBackward, BetaBackward).
"""
from __future__ import annotations

import math

import numpy as np

from . import _vec_math
from ._batch_norm_backward import _fold
from ._norm_moments import _fma, _lanes


def _rows(a):
    """(N, C, *S) -> (N, HxW, C): the channels-last rows (a view for a channels-last array)."""
    return np.moveaxis(a, 1, -1).reshape(a.shape[0], -1, a.shape[1])


def _blocks(rows, groups):
    """(N, HxW, C) -> (N, HxW, G, NB, K): each group's channels in K-wide blocks, the last zero-filled."""
    n, hw, c = rows.shape
    d, k = c // groups, _lanes(rows.dtype)
    nb = -(-d // k)
    out = np.zeros((n, hw, groups, nb * k), rows.dtype)
    out[..., :d] = rows.reshape(n, hw, groups, d)
    return out.reshape(n, hw, groups, nb, k)


def _unrows(rows, shape):
    """(N, HxW, C) -> an (N, C, *S) channels-last view."""
    return np.moveaxis(np.ascontiguousarray(rows).reshape((shape[0],) + tuple(shape[2:]) + (shape[1],)), -1, 1)


def _thread_sums(rows, step0, step1, other=None):
    """impl-2's first step: at::parallel_for splits the N * HxW rows evenly over the threads, each adding its rows
    in order into its own per-sample buffers (from +0.0): ``step0(row, acc)``, ``step1(row, acc)`` (with ``other``:
    of (row, other row)). Returns the two (threads, N, C) buffers."""
    n, hw, c = rows.shape
    threads = _vec_math.THREADS
    flat = rows.reshape(n * hw, c)
    oflat = None if other is None else other.reshape(n * hw, c)
    chunk = -(-(n * hw) // threads)
    buf0 = np.zeros((threads, n, c), rows.dtype)
    buf1 = np.zeros((threads, n, c), rows.dtype)
    for th in range(threads):
        for i in range(th * chunk, min(n * hw, (th + 1) * chunk)):
            q = i // hw
            if other is None:
                buf0[th, q] = step0(flat[i], buf0[th, q])
                buf1[th, q] = step1(flat[i], buf1[th, q])
            else:
                buf0[th, q] = step0(flat[i], oflat[i], buf0[th, q])
                buf1[th, q] = step1(flat[i], oflat[i], buf1[th, q])
    return buf0, buf1


def _sums(x, groups):
    """Each (sample, group)'s sum of x and of x * x (N, G) as the kernel adds them."""
    rows = _rows(x)
    n, hw, c = rows.shape
    d = c // groups
    t = x.dtype.type
    if hw < 1024:
        xb = _blocks(rows, groups)
        k = xb.shape[-1]
        a0 = np.zeros((n, groups, k), t)
        a1 = np.zeros((n, groups, k), t)
        for m in range(hw):
            for j in range(xb.shape[3]):
                v = xb[:, m, :, j]
                a0 = a0 + v
                a1 = a1 + v * v
        return _fold(a0, k), _fold(a1, k)
    threads = _vec_math.THREADS
    buf0, buf1 = _thread_sums(rows, lambda a, acc: acc + a, lambda a, acc: _fma(a, a, acc))
    s0 = np.zeros((n, groups), t)
    s1 = np.zeros((n, groups), t)
    b0 = buf0.reshape(threads, n, groups, d)
    b1 = buf1.reshape(threads, n, groups, d)
    for j in range(d):
        for th in range(threads):
            s0 = s0 + b0[th, :, :, j]
            s1 = s1 + b1[th, :, :, j]
    return s0, s1


def forward(x, w, b, groups, eps):
    """(y channels-last, mean (N, G), rstd (N, G)) of a channels-last float32/float64 input."""
    n, c = x.shape[:2]
    hw = math.prod(x.shape[2:])
    d = c // groups
    t = x.dtype.type
    with np.errstate(all="ignore"):
        s = t(1) / t(d * hw)
        sm, sq = _sums(x, groups)
        mean = sm * s
        var = np.maximum(_fma(sq, np.broadcast_to(s, sq.shape), -(mean * mean)), t(0))
        rstd = (1.0 / np.sqrt(var.astype(np.float64) + eps)).astype(t)
        gamma = np.ones(c, t) if w is None else w.reshape(-1).astype(t)
        beta = np.zeros(c, t) if b is None else b.reshape(-1).astype(t)
        scale = rstd[:, :, None] * gamma.reshape(1, groups, d)
        bias = _fma(-scale, np.broadcast_to(mean[:, :, None], scale.shape),
                    np.broadcast_to(beta.reshape(1, groups, d), scale.shape))
        rows = _rows(x)
        y = _fma(rows, np.broadcast_to(scale.reshape(n, 1, c), rows.shape), np.broadcast_to(bias.reshape(n, 1, c), rows.shape))
    return _unrows(y.astype(t, copy=False), x.shape), mean, rstd


def grads(dy, x, mean, rstd, w, groups, mask):
    """(dX channels-last, dgamma, dbeta) arrays, None where not asked."""
    n, c = x.shape[:2]
    hw = math.prod(x.shape[2:])
    d = c // groups
    t = x.dtype.type
    k = _lanes(x.dtype)
    xr, dyr = _rows(x), _rows(dy)
    with np.errstate(all="ignore"):
        if hw >= 2048:  # (impl-2: per-thread row sums, then per channel over the threads, gamma-weighted fused)
            b0, b1 = _thread_sums(xr, lambda a, b, acc: _fma(a, b, acc), lambda a, b, acc: acc + b, dyr)
            gamma = np.ones((groups, d), t) if w is None else w.reshape(groups, d).astype(t)
            ds, db = np.zeros((n, groups, d), t), np.zeros((n, groups, d), t)
            ds_g, db_g = np.zeros((n, groups), t), np.zeros((n, groups), t)
            for j in range(d):
                for th in range(b0.shape[0]):
                    v0, v1 = b0[th].reshape(n, groups, d)[..., j], b1[th].reshape(n, groups, d)[..., j]
                    gj = np.broadcast_to(gamma[:, j], v0.shape)
                    ds_g, db_g = ds_g + v0 * gj, db_g + v1 * gj
                    ds[..., j], db[..., j] = ds[..., j] + v0, db[..., j] + v1
        else:
            xb, dyb = _blocks(xr, groups), _blocks(dyr, groups)
            nb = xb.shape[3]
            a0 = np.zeros((n, groups, nb, k), t)
            a1 = np.zeros((n, groups, nb, k), t)
            for m in range(hw):
                a0 = a0 + xb[:, m] * dyb[:, m]
                a1 = a1 + dyb[:, m]
            ds = a0.reshape(n, groups, nb * k)[..., :d]
            db = a1.reshape(n, groups, nb * k)[..., :d]
            if mask[0]:
                if w is None:
                    gb = np.ones((groups, nb, k), t)
                else:
                    gb = np.zeros((groups, nb * k), t)
                    gb[:, :d] = w.reshape(groups, d)
                    gb = gb.reshape(groups, nb, k)
                ds_g = np.zeros((n, groups), t)
                db_g = np.zeros((n, groups), t)
                for j in range(nb):
                    ds_g = ds_g + _fold(a0[:, :, j] * gb[:, j], k)
                    db_g = db_g + _fold(a1[:, :, j] * gb[:, j], k)
        dx = dgamma = dbeta = None
        if mask[0]:
            s = t(1) / t(d * hw)
            c2 = _fma(db_g, mean, -ds_g) * rstd * rstd * rstd * s
            c3 = _fma(-c2, mean, -(db_g * rstd * s))
            gamma = np.ones((groups, d), t) if w is None else w.reshape(groups, d).astype(t)
            c1 = (rstd[:, :, None] * gamma).reshape(n, 1, c)
            c2r = np.repeat(c2, d, axis=1).reshape(n, 1, c)
            c3r = np.repeat(c3, d, axis=1).reshape(n, 1, c)
            shape = dyr.shape
            dx = _fma(np.broadcast_to(c2r, shape), xr, c1 * dyr) + c3r
            dx = _unrows(dx.astype(t, copy=False), x.shape)
        if mask[1] and w is not None:
            acc = np.zeros((groups, d), t)
            for i in range(n):
                acc = _fma(_fma(-db[i], np.broadcast_to(mean[i, :, None], db[i].shape), ds[i]),
                           np.broadcast_to(rstd[i, :, None], db[i].shape), acc)
            dgamma = acc.reshape(w.shape)
        if mask[2]:
            acc = np.zeros(c, t)
            for i in range(n):
                acc = acc + db[i].reshape(c)
            dbeta = acc
    return dx, dgamma, dbeta
