"""native_batch_norm_backward as an op of its own: ATen's CPU kernels' arithmetic for the first
backward of a batch norm, and one node (NativeBatchNormBackwardBackward0) under create_graph,
differentiated by ATen's batchnorm_double_backward step by step.

The kernel takes one of ATen's three paths: input and grad_output both contiguous with more
than one element per image (each channel's sums with vectorised reductions, per image, added
in double), contiguous with one element per image (the channels-last kernel: per-thread float
buffers), or anything else (grad_output's sum by at::sum, the dot product added in double one
element after the other, the gradient in the input's type).
"""

from __future__ import annotations

import numpy as np

from . import _batch_norm_strided as _bn_strided, _vec_math
from ._layout import in_memory_format, suggested_format
from ._op import Op
from .nn import const


def _per_channel(a):
    """(N, C, ...) -> (C, N, image) (a copy where the layout needs one)."""
    return a.reshape(a.shape[0], a.shape[1], -1).transpose(1, 0, 2)


def _fold(acc, lanes):
    """vec_reduce_all(+) of whole AVX2 vectors (the last axis holds the lanes): float's adds
    the upper half to the lower, then neighbours; double's adds the lanes one after another."""
    if acc.dtype == np.float32:
        return _vec_math._fold_lanes(acc, lanes)
    total = acc[..., 0]
    for i in range(1, lanes):
        total = total + acc[..., i]
    return total


def _reduce(a, b=None):
    """vec::reduce_all(+) of ``a`` (or map2_reduce_all of a * b) along the last axis: fewer
    elements than a vector are added one after another; else whole vectors lane by lane, the
    partial last one into the first lanes (its product fused into the sum: a multiply-add, as
    the compiler builds it there and not in the loop), then the lanes folded."""
    lanes = 32 // a.dtype.itemsize
    n = a.shape[-1]
    if n < lanes:
        return _vec_math.reduce_all_sum(a if b is None else a * b)
    acc = a[..., :lanes] if b is None else a[..., :lanes] * b[..., :lanes]
    full = n - n % lanes
    for start in range(lanes, full, lanes):
        part = a[..., start:start + lanes]
        acc = acc + (part if b is None else part * b[..., start:start + lanes])
    if full < n:
        acc = acc.copy()
        rest = n - full
        if b is None:
            acc[..., :rest] = acc[..., :rest] + a[..., full:]
        else:
            acc[..., :rest] = _vec_math.fma(a[..., full:], b[..., full:], acc[..., :rest])
    return _fold(acc, lanes)


def _contiguous_sums(x, dy, mean):
    """batch_norm_cpu_backward_contiguous_impl's kernel0: per channel and image, reduce_all of dy
    and of (x - mean) * dy in the input's type, added image after image in double."""
    xs, dys = _per_channel(x), _per_channel(dy)
    row_sum = _reduce(dys)  # (C, N)
    row_dot = _reduce(xs - mean[:, None, None], dys)
    total, dot = np.zeros(x.shape[1]), np.zeros(x.shape[1])
    for n in range(x.shape[0]):
        total = total + row_sum[:, n]
        dot = dot + row_dot[:, n]
    return total, dot


def _channels_last_sums(x2, dy2, mean):
    """The channels-last kernel's sums of an (N, C) input: each thread's rows added into float
    buffers in order, the buffers added in double and stored back in the input's type."""
    t = x2.dtype.type
    total, dot = np.zeros(x2.shape[1]), np.zeros(x2.shape[1])
    for begin, end in _vec_math.parallel_chunks(x2.shape[0], 1):
        s, d = np.zeros(x2.shape[1], t), np.zeros(x2.shape[1], t)
        for i in range(begin, end):
            s = s + dy2[i]
            d = _vec_math.fma(x2[i] - mean, dy2[i], d)
        total, dot = total + s, dot + d
    return total.astype(t), dot.astype(t)


def _kernel(ctx, dy, x, w, _save_mean, _save_invstd, mean, invstd, running_mean, running_var, training, eps, mask):
    """(d input, d weight, d bias) of native_batch_norm_backward on arrays."""
    out_dt = x.dtype
    dy = np.asarray(dy)
    if out_dt in (np.float32, np.float64) and dy.dtype == out_dt and (w is None or w.dtype == out_dt) and not (
            _bn_strided.contiguous(x) and _bn_strided.contiguous(dy) and suggested_format(x) == suggested_format(dy)):
        # (ATen's non-contiguous path: the input or the output gradient neither C- nor channels-last-contiguous,
        # or the two in different formats)
        c = x.shape[1]
        if training:
            mean, invstd = mean.astype(out_dt), invstd.astype(out_dt)
        else:
            mean = running_mean.astype(out_dt)
            invstd = (1 / np.sqrt(running_var.astype(np.float64) + eps)).astype(out_dt)
        from ..tensor import Tensor
        axes = (0,) + tuple(range(2, x.ndim))
        gi, gw, gb = _bn_strided.backward(dy, x, np.ones(c, out_dt) if w is None else w, mean, invstd, training,
                                          Tensor._make(dy).sum(axes)._data)
        gi = in_memory_format(gi, suggested_format(x)) if mask[0] else np.zeros(x.shape, out_dt)
        return gi, gw, gb
    vector = x.flags.c_contiguous and dy.flags.c_contiguous
    last = not vector and _bn_strided.contiguous(x) and _bn_strided.contiguous(dy) and x.ndim > 2 and \
        suggested_format(x) is not None and suggested_format(x) == suggested_format(dy)  # (channels-last kernel)
    dt = out_dt if out_dt in (np.float32, np.float64) else np.dtype(np.float32)  # float16: in float
    x = x.astype(dt, copy=False)
    t = dt.type
    c = x.shape[1]
    dy = np.asarray(dy).astype(dt, copy=False)
    wv = np.ones(c, dt) if w is None else w.astype(dt)
    with np.errstate(all="ignore"):
        if training:
            mean, invstd = mean.astype(dt), invstd.astype(dt)
        else:
            mean = running_mean.astype(dt)
            invstd = (1 / np.sqrt(running_var.astype(dt).astype(np.float64) + eps)).astype(dt)
        image = x.size // (x.shape[0] * c)
        n = x.size // c
        shape = (1, c) + (1,) * (x.ndim - 2)
        if vector and image != 1:
            total, dot = _contiguous_sums(x, dy, mean)
            if training:
                k = dot.astype(dt) * invstd * invstd / t(n)  # (in the input's type)
                # (dy - grad_mean) - (x - mean) * k, fused
                grad_mean = (total / n).astype(dt).reshape(shape)
                dx = _vec_math.fma(mean.reshape(shape) - x, k.reshape(shape), dy - grad_mean)
                dx = dx * invstd.reshape(shape) * wv.reshape(shape)
            else:
                dx = dy * invstd.reshape(shape) * wv.reshape(shape)
            gw, gb = (dot * invstd).astype(dt), total.astype(dt)
        elif vector or last:
            x2, dy2 = (_bn_strided.channels_last_rows(x), _bn_strided.channels_last_rows(dy)) if last else (
                x.reshape(x.shape[0], c), dy.reshape(x.shape[0], c))
            total, dot = _channels_last_sums(x2, dy2, mean)
            if training:
                k = dot * invstd * invstd / t(n)
                dx = (dy2 - total / t(n) - (x2 - mean) * k) * invstd * wv
            else:
                dx = dy2 * invstd * wv
            dx = dx.reshape(x.shape) if not last else np.moveaxis(
                dx.reshape((x.shape[0],) + x.shape[2:] + (c,)), -1, 1)
            gw, gb = dot * invstd, total
        else:
            axes = (0,) + tuple(range(2, x.ndim))
            from ..tensor import Tensor
            total = Tensor._make(dy).sum(axes)._data.astype(dt)
            prod = ((_per_channel(x) - mean[:, None, None]) * _per_channel(dy)).reshape(c, -1)
            dot = np.cumsum(prod, axis=1, dtype=np.float64)[:, -1] if prod.shape[1] else np.zeros(c)
            if training:
                k = dot.astype(dt) * invstd * invstd / t(n)
                dx = (x - mean.reshape(shape)) * k.reshape(shape)
                dx = (dy - (total / t(n)).reshape(shape) - dx) * invstd.reshape(shape) * wv.reshape(shape)
            else:
                dx = dy * invstd.reshape(shape) * wv.reshape(shape)
            gw, gb = (dot * invstd).astype(dt), total
    # (grad_input: empty_like(input, input.suggest_memory_format()), channels-last for such an input)
    dx = in_memory_format(np.asarray(dx, out_dt), suggested_format(x)) if mask[0] else np.zeros(x.shape, out_dt)
    return dx, np.asarray(gw, out_dt), np.asarray(gb, out_dt)


# PyTorch's native_batch_norm_backward: one node under create_graph, edges (grad_out, input,
# weight, save_mean, save_invstd); the saved statistics take no gradient
batch_norm_backward = Op("NativeBatchNormBackwardBackward0", _kernel,
                         inputs=("grad_out", "input", "weight", "save_mean", "save_invstd"), outputs=None,
                         multi_grad="undefined", internal=True, saves=("grad_out", "input", "weight"))


def _sum_exclude_dim1(t, keepdim=True):
    r = t.sum(0, keepdim)
    for d in range(r.ndim - 1, 1 if keepdim else 0, -1):
        r = r.sum(d, keepdim)
    return r


def _unsqueeze_dim1(src, ndim):
    while src.ndim < ndim - 1:
        src = src.unsqueeze(1)
    return src.unsqueeze(0) if src.ndim == ndim - 1 else src


def _expand_as_dim1(src, target):
    while src.ndim < target.ndim - 1:
        src = src.unsqueeze(1)
    return src.expand_as(target)


@batch_norm_backward.derivative
def _(ctx, grads):
    """batchnorm_double_backward as FunctionsManual.cpp writes it (in place where it is)."""
    ggI, ggG, ggB = grads
    x, gO, gamma = ctx.input, ctx.grad_out, ctx.weight
    dt = x._data.dtype
    training = ctx.training
    affine = gamma is not None
    if affine:
        gamma_e = _expand_as_dim1(gamma, x)
        ggG_e = None if ggG is None else _expand_as_dim1(ggG, x)
        ggB_e = None if ggB is None else _expand_as_dim1(ggB, x)
    else:
        gamma_e = const(np.ones((), dt))
        ggG_e = ggB_e = None
    m = x.shape[0]
    for s in x.shape[2:]:
        m *= s
    if training:
        mu = _unsqueeze_dim1(const(ctx.mean.astype(dt)), x.ndim)
    else:
        mu = _unsqueeze_dim1(const(ctx.running_mean), x.ndim)
    x_mu = x - mu
    if training:
        s12 = _unsqueeze_dim1(const(ctx.invstd.astype(dt)), x.ndim)
    else:
        s12 = _unsqueeze_dim1(const(ctx.running_var).add(ctx.eps).pow(-0.5), x.ndim)
    s1 = s12.pow(2)
    s32 = s12.pow(3)
    x_mu_s32 = x_mu * s32
    gO_x_mu_sum = _sum_exclude_dim1(gO * x_mu)
    gO_sum = _sum_exclude_dim1(gO)
    gI = None
    if ggI is not None and training:
        ggI_sum = _sum_exclude_dim1(ggI)
        ggI_x_mu_sum = _sum_exclude_dim1(ggI * x_mu)
        all_sub = (ggI_sum * gO_sum).div_(m).sub_(_sum_exclude_dim1(gO * ggI)).add_(
            (s1 * gO_x_mu_sum * ggI_x_mu_sum).mul_(3.0 / m))
        gI_0t = (x_mu_s32 * all_sub).div_(m)
        gI_1t = (ggI_x_mu_sum * s32).div_(m) * (gO_sum.div(m) - gO)
        gI_2t = (gO_x_mu_sum * s32).div_(m) * (ggI_sum.div(m) - ggI)
        gI = gamma_e * gI_0t.add_(gI_1t).add_(gI_2t)
    if affine and ggG is not None:
        if training:
            t0 = gO * s12
            t1 = (s12 * gO_sum).div_(-m)
            t2 = (x_mu_s32 * _sum_exclude_dim1(gO * x_mu)).div_(-m)
            term = ggG_e * t0.add_(t1).add_(t2)
        else:
            term = ggG_e * s12 * gO
        gI = term if gI is None else gI.add_(term)

    def first_back_grad_input(g, gam):
        h0 = (gam * s12).div_(m)
        h1 = (m * g).sub_(_sum_exclude_dim1(g)).sub_(x_mu.mul(s1) * _sum_exclude_dim1(g * x_mu))
        return h0 * h1

    gG = None
    if affine and ggI is not None:
        if training:
            gG = _sum_exclude_dim1(ggI * first_back_grad_input(gO, const(np.ones((), dt))), False)
        else:
            gG = _sum_exclude_dim1(ggI * gO * s12, False)
    ggO = None
    if ggI is not None:
        ggO = first_back_grad_input(ggI, gamma_e) if training else ggI * s12 * gamma_e
    if ggG is not None and affine:
        term = ggG_e * x_mu * s12
        ggO = term if ggO is None else ggO.add_(term)
    if ggB is not None and affine:
        ggO = ggB_e if ggO is None else ggO.add_(ggB_e)
    elif ggB is not None and ggO is not None:  # (ATen expands ggB only when affine: add_ of the undefined term)
        raise RuntimeError("Expected a proper Tensor but got None (or an undefined Tensor in C++) for argument #1 "
                           "'other'")
    return ggO, gI, gG, None, None
