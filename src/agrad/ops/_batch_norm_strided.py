"""batch_norm's CPU kernels for an input that is neither C- nor channels-last-contiguous (a transposed,
sliced or expanded one), and its backward for such an input or output gradient (ATen's Normalization.cpp,
the "non-contiguous path"s):

- statistics: the mean is ``at::mean`` over every dim but 1; the variance's sum is one serial loop per
  channel over its elements in TensorIterator's order (the dims sorted by the input's strides, dim 1
  squashed), ``var_sum += (x - mean)^2`` in double; invstd = 1 / sqrt(var_sum / n + eps) in double,
  rounded to the input's type; the running statistics updated in double.
- output: one TensorIterator over (input, mean, invstd, weight, bias), ``((x - mean) * invstd) * w + b``
  in the input's type, laid out in the input's suggested memory format (C order here).
- backward: ``at::sum`` of the output gradient over every dim but 1; per channel the serial dot product
  ``dotp += (x - mean) * go`` (the product in the input's type, the sum in double) in the order of
  TensorIterator over (input, grad_out); the input's gradient ``(x - mean) * k`` then
  ``(go - sum / n - gi) * invstd * w`` with k = dotp * invstd * invstd / n (all in the input's type).
"""

from __future__ import annotations

import numpy as np

from ._layout import reorder_dimensions


def contiguous(a) -> bool:
    """Normalization.cpp's is_contiguous: C- or channels-last-contiguous (4-D or 5-D; dims of one skipped)."""
    if a.flags.c_contiguous:
        return True
    if a.ndim not in (4, 5):
        return False
    expected = a.itemsize
    for d in (1, 3, 2, 0) if a.ndim == 4 else (1, 4, 3, 2, 0):
        if a.shape[d] != 1:
            if a.strides[d] != expected:
                return False
            expected *= a.shape[d]
    return True


def channels_last_rows(a):
    """A channels-last-contiguous array as (N * spatial, C) rows, a view in memory order."""
    return a.transpose((0,) + tuple(range(2, a.ndim)) + (1,)).reshape(-1, a.shape[1])


def _rows(arrays):
    """Each array as (C, n): its channels' elements in the serial loop's order (TensorIterator over the
    arrays with dim 1 squashed: the other dims sorted by their strides, fastest last here)."""
    a0 = arrays[0]
    dims = [d for d in range(a0.ndim) if d != 1]
    shape = [a0.shape[d] for d in dims]
    strides = [[np.broadcast_to(a, a0.shape).strides[d] for d in dims] for a in arrays]
    order = reorder_dimensions(len(dims), shape, strides)[::-1]  # (slowest first)
    perm = [1] + [dims[i] for i in order]
    return [np.broadcast_to(a, a0.shape).transpose(perm).reshape(a0.shape[1], -1) for a in arrays]


def _sequential(terms):
    """Each row's sum from 0.0, one term after the other, in double."""
    if terms.shape[1] == 0:
        return np.zeros(terms.shape[0])
    return np.cumsum(terms, axis=1, dtype=np.float64)[:, -1]


def forward(x, w, b, running_mean, running_var, training, momentum, eps, mean_of):
    """(output, save_mean, save_invstd) of the non-contiguous path; ``mean_of(x)``: at::mean over every dim
    but 1 (agrad's mean)."""
    dt = x.dtype.type
    c = x.shape[1]
    n = x.size // c
    with np.errstate(all="ignore"):
        if training:
            mean = np.asarray(mean_of(x), x.dtype)
            rows, = _rows([x])
            dev = rows.astype(np.float64) - mean.astype(np.float64)[:, None]
            var_sum = _sequential(dev * dev)
            var = var_sum / n
            invstd = np.where((var == 0) & (eps == 0), 0.0, 1 / np.sqrt(var + eps)).astype(dt)
            if running_mean is not None:
                running_mean[...] = momentum * mean.astype(np.float64) + (1 - momentum) * running_mean.astype(np.float64)
            if running_var is not None:
                running_var[...] = momentum * (var_sum / (n - 1)) + (1 - momentum) * running_var.astype(np.float64)
        else:
            mean = running_mean.astype(dt)
            invstd = (dt(1) / np.sqrt(running_var.astype(dt) + dt(eps))).astype(dt)
        shape = (1, c) + (1,) * (x.ndim - 2)
        wv = np.ones(c, dt) if w is None else w.astype(dt)  # (no weight: 1, no bias: 0, as scalar tensors)
        bv = np.zeros(c, dt) if b is None else b.astype(dt)
        out = (x - mean.reshape(shape)) * invstd.reshape(shape) * wv.reshape(shape) + bv.reshape(shape)
    return out.astype(dt, copy=False), mean, invstd


def backward(dy, x, wv, mean, invstd, training, grad_sum):
    """(d input, d weight, d bias) of the non-contiguous path (``grad_sum``: at::sum of dy over every dim
    but 1, agrad's sum; ``wv`` the weight or ones, ``mean``/``invstd`` the statistics in x's type)."""
    dt = x.dtype.type
    c = x.shape[1]
    n = x.size // c
    shape = (1, c) + (1,) * (x.ndim - 2)
    with np.errstate(all="ignore"):
        total = np.asarray(grad_sum, x.dtype)
        xr, gr = _rows([x, dy])
        dotp = _sequential(((xr - mean[:, None]) * gr).astype(dt, copy=False))
        if training:
            k = (dotp.astype(dt) * invstd * invstd / dt(n)).astype(dt)
            gi = (x - mean.reshape(shape)) * k.reshape(shape)
            gi = (dy - (total / dt(n)).astype(dt).reshape(shape) - gi) * invstd.reshape(shape) * wv.reshape(shape)
        else:
            gi = dy * invstd.reshape(shape) * wv.reshape(shape)
        gw = (dotp * invstd.astype(np.float64)).astype(dt)
    return gi.astype(dt, copy=False), gw, total
