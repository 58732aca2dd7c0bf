"""Normalisation: batch_norm (training and evaluation, running statistics), instance_norm,
group_norm, and layer_norm.

Each is one node as in ATen -- ``NativeBatchNormBackward0``,
``NativeGroupNormBackward0`` -- with inputs (input, weight, bias).  batch_norm's backward is
ATen's native_batch_norm_backward kernel, one node of its own under create_graph
(``_batch_norm_backward.py``); group_norm's node has native_group_norm's three outputs (result,
mean, rstd) and, under create_graph, ATen's infinitely differentiable formula on the saved mean and
rstd (``_group_norm_backward.py``); without, the statistics recomputed from the input.
``instance_norm`` is ATen's composite: a view to (1, N*C, ...), one batch norm, a view back.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .. import dtypes
from ..tensor import Tensor, _scalar_name
from . import _batch_norm_strided as _bn_strided, _group_norm_channels_last as _gn_channels_last, _vec_math
from ._argcheck import _NUMBERS, _raise_parser_error
from ..autograd import graph
from ..autograd.graph import save_extra
from ._batch_norm_backward import batch_norm_backward
from ._group_norm_backward import group_norm_backward, group_norm_kernel_grads
from ._layout import c_order, in_input_format, suggested_format
from ._norm_moments import _as_rows, _fma, _ln_moments, _row_sum, _rowwise_moments
from ._op import Op, export
from .nn import check_floating, const, div_scalar, mul_scalar


def _mixed(input, *params):
    """ATen's CPU check of parameters of another dtype than the input (mixed_data_type.h): when the
    first given parameter's dtype is not the input's, every parameter must be float32 and the input
    float16 (the one mixed case the kernels take).  True when the parameters are mixed so."""
    first = next((p for p in params if p is not None), None)
    if first is None or first.dtype is input.dtype:
        return False
    for p in params:
        if p is not None and p.dtype is not dtypes.float32:
            raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
    if input.dtype is not dtypes.float16:
        raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
    return True


def _same_dtype(input, mixed, *params):
    """The kernel's typed read of each parameter: the input's dtype (float32 when mixed)."""
    want = dtypes.float32 if mixed else input.dtype
    for p in params:
        if p is not None and p.dtype is not want:
            raise RuntimeError(f"expected scalar type {_scalar_name(want)} but found {_scalar_name(p.dtype)}")


def _stats(x, dims, eps):
    mu = x.mean(dims, keepdim=True)
    xc = x - mu
    rstd = ((xc * xc).mean(dims, keepdim=True) + eps) ** -0.5
    return xc * rstd, rstd


def _norm_grad(x, gw, dims, eps):
    """d/dx of the normalised ``x`` (statistics over ``dims``) applied to ``gw``; and x-hat."""
    xhat, rstd = _stats(x, dims, eps)
    dx = rstd * (gw - gw.mean(dims, keepdim=True) - xhat * (gw * xhat).mean(dims, keepdim=True))
    return dx, xhat


def _channel_shape(ndim):
    return lambda t: t.reshape((1, -1) + (1,) * (ndim - 2))


# ---------------------------------------------------------------------------
# batch_norm
# ---------------------------------------------------------------------------

def _batch_norm_kernel(ctx, x, w, b, running_mean, running_var, training, momentum, eps):
    """PyTorch's CPU batch_norm of a contiguous float32/float64 input.

    Statistics (batch_norm_cpu_collect_stats_contiguous_impl): per channel, the sum in double
    over N rounded to the input's type is the mean; (x - mean)^2 in the input's type, summed in
    double and rounded, is var_sum; invstd = 1 / sqrt(var_sum / N + eps) in double, var_sum / N
    divided in the input's type. In evaluation, invstd = 1 / sqrt(running_var + eps) in the
    input's type. The contiguous kernel then applies alpha = invstd * weight and beta = bias -
    mean * alpha as out = x * alpha + beta (both fused)."""
    dt = x.dtype.type
    c = x.shape[1]
    rows = x.reshape(x.shape[0], c, -1).transpose(1, 0, 2).reshape(c, -1)  # (channel, N)
    n = rows.shape[1]
    with np.errstate(all="ignore"):
        if training and x.size == x.shape[0] * c:  # one element per image: the channels-last reduction
            mean, var_sum = _collect_stats_channels_last(x.reshape(x.shape[0], c))
        elif training and not x.flags.c_contiguous:  # a channels-last input: its rows of channels
            mean, var_sum = _collect_stats_channels_last(_bn_strided.channels_last_rows(x))
        elif training:  # (sums in double, one element after the other)
            mean = (np.cumsum(rows, axis=1, dtype=np.float64)[:, -1] / n).astype(dt)
            dev = rows - mean[:, None]
            var_sum = np.cumsum(dev * dev, axis=1, dtype=np.float64)[:, -1].astype(dt)
        if training:
            var = (var_sum / dt(n)).astype(np.float64)
            invstd = np.where((var == 0) & (eps == 0), 0.0, 1 / np.sqrt(var + eps)).astype(dt)
            ctx.save_mean, ctx.save_invstd = mean, invstd
            m = dt(momentum)  # (the updates unfused, momentum in the input's type, as PyTorch rounds them; the
            # unbiased variance divided in double: a float32 variance of a short image may still differ in its
            # last bit, var_sum's own order)
            if running_mean is not None:
                running_mean[...] = m * mean + (dt(1) - m) * running_mean.astype(dt)
            if running_var is not None:
                unbiased = var_sum.astype(np.float64) / (n - 1)
                running_var[...] = m * unbiased + (dt(1) - m) * running_var.astype(dt)
        else:
            mean = running_mean.astype(dt)
            invstd = (dt(1) / np.sqrt(running_var.astype(dt) + dt(eps))).astype(dt)
        shape = (1, -1) + (1,) * (x.ndim - 2)
        wv = w.astype(dt) if w is not None else np.ones(c, dt)
        bv = b.astype(dt) if b is not None else np.zeros(c, dt)
        alpha = invstd * wv
        beta = _vec_math.fma(-mean, alpha, bv)
        return _vec_math.fma(x, alpha.reshape(shape), beta.reshape(shape)).astype(dt, copy=False)


def _collect_stats_channels_last(x):
    """batch_norm_cpu_collect_stats_channels_last_impl on an (N, C) input: with more rows than
    threads, each thread sums its range of rows into a buffer in the input's type (then the
    squares, (x - mean)^2 added with a fused multiply-add), and the buffers are added in
    double; otherwise one pass in the input's type (C <= 16, C > 2048 or one thread: the sum
    divided by N in that type) or per channel in double."""
    dt = x.dtype.type
    rows, c = x.shape
    threads = _vec_math.THREADS
    if rows > threads:
        chunks = _vec_math.parallel_chunks(rows, 1, threads)
        def through_threads(step):
            total = np.zeros(c, np.float64)
            for begin, end in chunks:
                buf = np.zeros(c, dt)
                for i in range(begin, end):
                    buf = step(buf, x[i])
                total = total + buf
            return total
        mean = (through_threads(lambda buf, row: buf + row) / rows).astype(dt)
        var_sum = through_threads(lambda buf, row: _vec_math.fma(row - mean, row - mean, buf)).astype(dt)
    elif threads == 1 or c <= 16 or c > 2048:
        buf = np.zeros(c, dt)
        for i in range(rows):
            buf = buf + x[i]
        mean = (buf / dt(rows)).astype(dt)
        var_sum = np.zeros(c, dt)
        for i in range(rows):
            var_sum = _vec_math.fma(x[i] - mean, x[i] - mean, var_sum)
    else:
        mean = (np.cumsum(x, axis=0, dtype=np.float64)[-1] / rows).astype(dt)
        var_sum = np.cumsum((x - mean) * (x - mean), axis=0, dtype=np.float64)[-1].astype(dt)
    return mean, var_sum


def _batch_norm_fwd(ctx, x, w, b, running_mean, running_var, training, momentum, eps):
    if x.dtype in (np.float32, np.float64) and x.ndim >= 2 and 0 < x.size < _vec_math.GRAIN_SIZE and \
            all(t is None or t.dtype == x.dtype for t in (w, b)):
        if x.flags.c_contiguous or _bn_strided.contiguous(x):  # (C order, or the channels-last kernels)
            return _batch_norm_kernel(ctx, x, w, b, running_mean, running_var, training, momentum, eps)
        if not _bn_strided.contiguous(x) and all(t is None or t.dtype == x.dtype for t in (running_mean, running_var)):
            # (ATen's non-contiguous path)
            axes = (0,) + tuple(range(2, x.ndim))
            out, ctx.save_mean, ctx.save_invstd = _bn_strided.forward(
                x, w, b, running_mean, running_var, training, momentum, eps,
                lambda a: Tensor._make(a).mean(axes)._data)
            return out
    axes = (0,) + tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    xd = x.astype(np.float64)
    if training:
        mu = xd.mean(axis=axes)
        var = xd.var(axis=axes)
        with np.errstate(all="ignore"):
            ctx.save_mean, ctx.save_invstd = mu.astype(x.dtype), (1 / np.sqrt(var + eps)).astype(x.dtype)
        if running_mean is not None:
            running_mean[...] = (1 - momentum) * running_mean + momentum * mu
        if running_var is not None:
            n = x.size // x.shape[1]
            running_var[...] = (1 - momentum) * running_var + momentum * var * n / (n - 1)
    else:
        mu, var = running_mean.astype(np.float64), running_var.astype(np.float64)
    # PyTorch's CPU kernel: out = x * alpha + beta with alpha = invstd * weight and
    # beta = bias - mean * alpha per channel (so an infinite eps gives +0.0 everywhere)
    alpha = 1.0 / np.sqrt(var + eps)
    if w is not None:
        alpha = alpha * w
    beta = (b if b is not None else 0.0) - mu * alpha
    out = xd * alpha.reshape(shape) + np.asarray(beta, np.float64).reshape(shape)
    return out.astype(x.dtype)


_batch_norm = Op("NativeBatchNormBackward0", in_input_format(_batch_norm_fwd), inputs=("input", "weight", "bias"),
                 saves=("input", "weight"))


@_batch_norm.derivative
def _(ctx, grad):
    """native_batch_norm_backward: one op (NativeBatchNormBackwardBackward0 under create_graph)."""
    x, w = ctx.input, ctx.__dict__.get("weight")
    mask = (ctx.needs(0), ctx.needs(1), ctx.needs(2))
    arrays = (grad._data, x._data, None if w is None else w._data, None, None)
    outs = batch_norm_backward.apply((grad, x, w, None, None), arrays, {
        "mean": ctx.__dict__.get("save_mean"), "invstd": ctx.__dict__.get("save_invstd"),
        "running_mean": _array(ctx.running_mean), "running_var": _array(ctx.running_var), "training": ctx.training,
        "eps": ctx.eps, "mask": mask})
    return tuple(o if need else None for o, need in zip(outs, mask))


def _batch_norm_impl(input, weight, bias, running_mean, running_var, training, momentum, eps):
    if input.numel() == 0:  # ATen's _batch_norm_impl_index: a clone, no statistics, no
        out = input.clone()                      # check of the other tensors' sizes or of the dtype
        if weight is not None:  # (C++'s weight[0]: select's own refusal of an empty weight)
            out = out * weight.select(0, 0)
        if bias is not None:
            out = out + bias.select(0, 0)
        return out
    c = input.shape[1] if input.ndim > 1 else 0
    for name, t in (("weight", weight), ("bias", bias), ("running_mean", running_mean),
                    ("running_var", running_var)):
        if t is not None and t.numel() != c:
            raise RuntimeError(f"{name} should contain {c} elements not {t.numel()}")
    if not training and (running_mean is None or running_var is None):
        which = "running_mean" if running_mean is None else "running_var"
        raise RuntimeError(f"{which} must be defined in evaluation mode")
    if (running_mean is None) != (running_var is None):  # (batch_norm_cpu's first check, a ValueError)
        raise ValueError("running_mean and running_var must either both be None or neither be None")
    check_floating(input, "batch_norm")
    mixed = _mixed(input, weight, bias, running_mean, running_var)
    if training:  # (the running statistics are read and updated before the weight and bias are read)
        _same_dtype(input, mixed, running_mean, running_var)
        try:
            _same_dtype(input, mixed, weight, bias)
        except RuntimeError:
            if running_mean is not None:
                import types
                _batch_norm_fwd(types.SimpleNamespace(), input._data, None, None, running_mean._data,
                                running_var._data, True, float(momentum), float(eps))
            raise
    else:
        _same_dtype(input, mixed, weight, bias, running_mean, running_var)
    arrays = (input._data, None if weight is None else weight._data, None if bias is None else bias._data)
    out = _batch_norm.apply((input, weight, bias), arrays, {
        "running_mean": None if running_mean is None else running_mean._data,
        "running_var": None if running_var is None else running_var._data,
        "training": bool(training), "momentum": float(momentum), "eps": float(eps)})
    fn = out._grad_fn
    if fn is not None and type(fn) is _batch_norm.node and running_mean is not None:
        # (PyTorch saves the running statistics too: changed in place before the backward, its error)
        save_extra(fn, "running_mean", running_mean, after="input")
        save_extra(fn, "running_var", running_var, after="running_mean")
    return out


def _array(t):
    """A saved tensor's array (the call's array itself where the node saved none)."""
    return t._data if type(t) is Tensor else t


def _check_batch_size(input):
    size = math.prod(input.shape[:1] + input.shape[2:]) if input.ndim else 1
    if size == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size "
                         f"torch.Size({list(input.shape)})")


@export(functional=True, torch=False)
def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,
               eps=1e-05):
    """Normalise each channel (dim 1) over the batch and spatial dims; update the running statistics
    in training mode, use them in evaluation mode (one NativeBatchNormBackward0 node)."""
    if training:
        _check_batch_size(input)
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    elif eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    if type(momentum) not in _NUMBERS or type(eps) not in _NUMBERS:  # (torch.batch_norm's parse: a 1-d tensor)
        _raise_parser_error("torch.batch_norm", (input, weight, bias, running_mean, running_var, training, momentum,
                                                 eps, True), {})
    try:
        return _batch_norm_impl(input, weight, bias, running_mean, running_var, training, momentum, eps)
    except Exception:  # torch.batch_norm's parser refuses first (its order of the arguments)
        _raise_parser_error("torch.batch_norm", (input, weight, bias, running_mean, running_var, training, momentum,
                                                 eps, True), {})
        raise


@export("batch_norm")
def torch_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled):
    return _batch_norm_impl(input, weight, bias, running_mean, running_var, training, momentum, eps)


# ---------------------------------------------------------------------------
# instance_norm: ATen's composite over batch_norm
# ---------------------------------------------------------------------------

def _instance_norm_impl(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps):
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError("Expected running_mean and running_var to be defined when use_input_stats is false")
    if input.ndim < 2:  # (input.size(0), input.size(1))
        if input.ndim == 0:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got 1)")
    b, c = input.shape[0], input.shape[1]
    shape = (1, b * c) + tuple(input.shape[2:])
    rep = lambda t: None if t is None else t.repeat(b)  # noqa: E731
    w, bi = rep(weight), rep(bias)  # (ATen repeats the weight, bias and statistics before it reshapes the input)
    rm, rv = rep(running_mean), rep(running_var)
    # a running mean of another dtype than the weight's (else the input's) takes that dtype, and the running
    # variance with it (undefined: the conversion's error); they then take no part in batch_norm's
    # mixed-dtype check, as in PyTorch
    like = weight if weight is not None else input
    if rm is not None and rm.dtype is not like.dtype:
        if rv is None:
            raise RuntimeError("Expected a proper Tensor but got None (or an undefined Tensor in C++) for argument "
                               "#0 'self'")
        rm, rv = rm.to(like.dtype), rv.to(like.dtype)
    x = input.contiguous().view(*shape)
    out = _batch_norm_impl(x, w, bi, rm, rv, use_input_stats, momentum, eps)
    for given, repeated in ((running_mean, rm), (running_var, rv)):
        if given is not None and use_input_stats:  # (in evaluation they are as they were: no round trip)
            given._data[...] = repeated._data.reshape(b, c).mean(0)
    return out.view(*input.shape)


@export(functional=True, torch=False)
def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-05):
    """Normalise each channel of each sample over its spatial dims (a batch norm over (1, N*C, ...))."""
    if use_input_stats:
        if math.prod(input.shape[2:]) == 1:
            raise ValueError(f"Expected more than 1 spatial element when training, got input size "
                             f"torch.Size({list(input.shape)})")
    if type(momentum) not in _NUMBERS or type(eps) not in _NUMBERS:  # (torch.instance_norm's parse)
        _raise_parser_error("torch.instance_norm", (input, weight, bias, running_mean, running_var, use_input_stats,
                                                    momentum, eps, True), {})
    try:
        return _instance_norm_impl(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)
    except Exception:  # torch.instance_norm's parser refuses first (its order of the arguments)
        _raise_parser_error("torch.instance_norm", (input, weight, bias, running_mean, running_var, use_input_stats,
                                                    momentum, eps, True), {})
        raise


@export("instance_norm")
def torch_instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps,
                        cudnn_enabled):
    return _instance_norm_impl(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)


# ---------------------------------------------------------------------------
# group_norm
# ---------------------------------------------------------------------------

def _group_norm_fwd(ctx, x, w, b, groups, eps):
    n, c = x.shape[:2]
    hw = math.prod(x.shape[2:])
    if x.dtype in (np.float32, np.float64) and n * c * hw:
        if suggested_format(x) is None:
            return _group_norm_kernel(x, w, b, groups, eps)
        return _gn_channels_last.forward(x, w, b, groups, eps)  # (its channels-last kernel)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    xd = x.astype(np.float64).reshape(n, groups, (c // groups) * hw)  # (no -1: an empty batch)
    if xd.shape[-1] == 0:  # groups of no element: numpy's mean would warn (the result is empty anyway)
        mu = var = np.zeros(xd.shape[:-1] + (1,))
    else:
        mu = xd.mean(axis=-1, keepdims=True)
        var = xd.var(axis=-1, keepdims=True)
    rstd = 1.0 / np.sqrt(var + eps)
    out = ((xd - mu) * rstd).reshape(x.shape)
    if w is not None:
        out = out * w.reshape(shape)
    if b is not None:
        out = out + b.reshape(shape)
    # native_group_norm's three outputs: the result, each group's mean and rstd (N, G): result1, result2
    return out.astype(x.dtype), mu.reshape(n, groups).astype(x.dtype), rstd.reshape(n, groups).astype(x.dtype)


def _group_norm_kernel(x, w, b, groups, eps):
    """ATen's GroupNormKernelImplInternal (a contiguous float32/float64 input): each group's
    RowwiseMoments, rstd = 1 / sqrt(var + eps) in double (eps is a double) rounded once; then
    without weight and bias (x - mean) * rstd, else per channel scale = rstd * gamma,
    bias = fma(-scale, mean, beta) and y = fma(scale, x, bias) (the compiler's contractions)."""
    n, c = x.shape[:2]
    T = x.dtype.type
    rows = np.ascontiguousarray(x).reshape(n * groups, -1)
    with np.errstate(all="ignore"):
        mean, var = _rowwise_moments(rows)
        rstd = (1.0 / np.sqrt(np.maximum(var, T(0)).astype(np.float64) + eps)).astype(T)
        d = c // groups
        if w is None and b is None:
            y = (rows - mean[:, None]) * rstd[:, None]
        else:
            gamma = np.ones(c, T) if w is None else w.reshape(-1).astype(T)
            beta = np.zeros(c, T) if b is None else b.reshape(-1).astype(T)
            scale = rstd.reshape(n, groups, 1) * gamma.reshape(1, groups, d)  # (n, G, D)
            bias = _fma(-scale, np.broadcast_to(mean.reshape(n, groups, 1), scale.shape),
                        np.broadcast_to(beta.reshape(1, groups, d), scale.shape))
            xs = rows.reshape(n, groups, d, -1)
            y = _fma(np.broadcast_to(scale[..., None], xs.shape), xs, np.broadcast_to(bias[..., None], xs.shape))
    return y.reshape(x.shape).astype(T, copy=False), mean.reshape(n, groups), rstd.reshape(n, groups)


_group_norm = Op("NativeGroupNormBackward0", in_input_format(_group_norm_fwd), inputs=("input", "weight", "bias"),
                 saves=("input", "weight", "result1", "result2"), output_names=("result0", "result1", "result2"), outputs=None,
                 multi_grad="undefined")


@_group_norm.derivative
def _(ctx, grads):
    grad, dmean, drstd = grads
    x, w = ctx.input, ctx.__dict__.get("weight")
    mask = tuple(graph.should_compute_output(ctx, i) for i in range(3))  # (the pass's own needs, as ATen's)
    if graph._state["enabled"] or dmean is not None or drstd is not None:
        # infinitely_differentiable_native_group_norm_backward, on the saved mean and rstd
        return group_norm_backward(grad, dmean, drstd, x, ctx.result1, ctx.result2, w, ctx.groups, ctx.eps, mask)
    if w is None and mask[2]:  # (the CPU kernel's dbeta reads the undefined weight's device)
        raise RuntimeError("tensor does not have a device")
    kernel = x.dtype in (dtypes.float32, dtypes.float64) and grad.dtype is x.dtype and type(x._data) is np.ndarray \
        and type(grad._data) is np.ndarray  # (ATen's CPU kernel's steps)
    if kernel and suggested_format(x._data) is not None and x.numel() and (arrays := _gn_channels_last.grads(
            grad._data, x._data, ctx.result1._data, ctx.result2._data, None if w is None else w._data, ctx.groups,
            mask)) is not None:
        return tuple(None if a is None else const(a) for a in arrays)
    if kernel:
        arrays = group_norm_kernel_grads(grad._data, x._data, ctx.result1._data, ctx.result2._data,
                                         None if w is None else w._data, ctx.groups, mask)
        return tuple(None if a is None else const(a) for a in arrays)
    n = x.shape[0]
    gw = grad * _channel_shape(x.ndim)(w) if w is not None else grad
    dx, xhat = _norm_grad(x.reshape(n, ctx.groups, -1), gw.reshape(n, ctx.groups, -1), (-1,), ctx.eps)
    dims = (0,) + tuple(range(2, x.ndim))
    return (dx.reshape(x.shape) if mask[0] else None,
            (grad * xhat.reshape(x.shape)).sum(dims) if mask[1] else None,
            grad.sum(dims) if mask[2] else None)


def _group_norm_impl(input, num_groups, weight, bias, eps):
    if input.ndim < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.ndim}")
    c = input.shape[1]
    if num_groups <= 0:
        raise RuntimeError(f"Expected num groups to be greater than 0, got {num_groups}")
    if c % num_groups:
        raise RuntimeError(
            f"Expected number of channels in input to be divisible by num_groups, but got input of shape "
            f"{list(input.shape)} and num_groups={num_groups}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.ndim != 1 or t.numel() != c):
            raise RuntimeError(
                f"Expected {name} to be a vector of size equal to the number of channels in input, but got "
                f"{name} of shape {list(t.shape)} and input of shape {list(input.shape)}")
    mixed = _mixed(input, weight, bias)
    check_floating(input, "GroupNormKernelImpl")
    _same_dtype(input, mixed, weight, bias)
    arrays = (input._data, None if weight is None else weight._data, None if bias is None else bias._data)
    return _group_norm.apply((input, weight, bias), arrays, {"groups": int(num_groups), "eps": float(eps)})[0]


@export(functional=True, torch=False)
def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    """Normalise each group of channels of each sample (one NativeGroupNormBackward0 node)."""
    if type(num_groups) is not int or type(eps) not in _NUMBERS:  # (F's size check, then torch.group_norm's parse)
        if input.ndim >= 2:
            input.shape[0] * input.shape[1] // num_groups
        _raise_parser_error("torch.group_norm", (input, num_groups, weight, bias, eps, True), {})
    if input.ndim >= 2 and isinstance(num_groups, int):
        # (F.group_norm's _verify_batch_size of [N * C // G, G, *spatial]: its words and that list)
        size = [input.shape[0] * input.shape[1] // num_groups, num_groups, *input.shape[2:]]
        if size[0] * math.prod(size[2:]) == 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")
    return _group_norm_impl(input, num_groups, weight, bias, eps)


@export("group_norm")
def torch_group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    return _group_norm_impl(input, num_groups, weight, bias, eps)


# ---------------------------------------------------------------------------
# layer_norm: native_layer_norm (NativeLayerNormBackward0) and its backward as an op of
# its own (NativeLayerNormBackwardBackward0), both with ATen's CPU arithmetic
# ---------------------------------------------------------------------------

def _layer_norm_fwd(ctx, x, w, b, normalized_shape, eps):
    k = len(normalized_shape)
    native = x.dtype in (np.float32, np.float64)
    rows = _as_rows(x if native else x.astype(np.float32), k)
    mean, rstd = _ln_moments(rows, eps, native)
    stat_shape = x.shape[:x.ndim - k] + (1,) * k
    ctx.mean, ctx.rstd = mean.reshape(stat_shape), rstd.reshape(stat_shape)
    with np.errstate(all="ignore"):
        if not native:  # layer_norm_kernel_mixed_type: (x * rstd + (-rstd * mean)) * gamma + beta, in float, fused
            gamma = np.float32(1) if w is None else w.reshape(-1).astype(np.float32)
            beta = np.float32(0) if b is None else b.reshape(-1).astype(np.float32)
            y = _fma(rows, np.broadcast_to(rstd[:, None], rows.shape), np.broadcast_to((-rstd * mean)[:, None], rows.shape))
            y = _fma(y, np.broadcast_to(gamma, y.shape), np.broadcast_to(beta, y.shape))
            return c_order(y.reshape(x.shape).astype(x.dtype, copy=False))
        y = (rows - mean[:, None]) * rstd[:, None]
        if w is not None and b is not None:
            y = _fma(y, w.reshape(-1).astype(y.dtype), b.reshape(-1).astype(y.dtype))
        elif b is not None:
            y = _fma(rows - mean[:, None], np.broadcast_to(rstd[:, None], rows.shape), b.reshape(-1).astype(y.dtype))
        else:  # the kernel's (x - mean) * rstd * gamma + beta with beta 0: a -0.0 becomes +0.0
            if w is not None:
                y = y * w.reshape(-1).astype(y.dtype)
            y += 0.0
    # (native_layer_norm's output is contiguous, whatever the input's layout)
    return c_order(y.reshape(x.shape).astype(x.dtype, copy=False))


_layer_norm = Op("NativeLayerNormBackward0", _layer_norm_fwd, inputs=("input", "weight", "bias"),
                 saves=("input", "weight", "bias"))


def _layer_norm_backward_fwd(ctx, dy, x, mean, rstd, w, b, normalized_shape, mask, params=None):
    """native_layer_norm_backward: (d input, d weight, d bias), ATen's CPU kernel's arithmetic; ``params``:
    the weight's (else the bias's) dtype, a float one beside a half input being the kernel's mixed type."""
    k = len(normalized_shape)
    out_dtype = x.dtype
    dtype = x.dtype if x.dtype in (np.float32, np.float64) else np.dtype(np.float32)  # (half: the kernel's opmath float)
    mixed = out_dtype == np.float16 and params == np.float32
    if mixed and w is None and mask[2]:  # (no gamma: the half kernel, which reads the float dbeta as half)
        raise RuntimeError("expected scalar type Half but found Float")
    param_dtype = dtype if mixed else out_dtype
    X, dY = _as_rows(x.astype(dtype, copy=False), k), _as_rows(dy.astype(dtype, copy=False), k)
    # (mean and rstd as native_layer_norm returns them: in the input's dtype, half too; the mixed type's in float)
    stats = dtype if mixed else out_dtype
    m, a = mean.reshape(-1).astype(stats).astype(dtype), rstd.reshape(-1).astype(stats).astype(dtype)
    T = dtype.type
    n = X.shape[1]
    g = None if w is None else w.reshape(-1).astype(dtype)
    with np.errstate(all="ignore"):
        dx = dw = db = None
        if mask[0]:
            if dtype == out_dtype or mixed:
                ds = _row_sum(dY * X, g) if g is not None else _row_sum(dY, X)
                dsum = _row_sum(dY, g)
            else:  # (half: the products rounded before every sum)
                ds = _row_sum(dY * X * g if g is not None else dY * X)
                dsum = _row_sum(dY * g if g is not None else dY)
            scale = T(1) / T(n)
            bb = _fma(dsum, m, -ds) * a * a * a * scale
            cc = _fma(-bb, m, -(dsum * a * scale))
            first = a[:, None] * dY * g if g is not None else a[:, None] * dY
            dx = (_fma(bb[:, None], X, first) + cc[:, None]).reshape(x.shape)
        if mask[1]:
            if dtype == out_dtype:  # each row's dy * (a * x + b) fused into the thread's buffer
                dw = _through_thread_buffers(dY, out_dtype, _fma(a[:, None], X, (-a * m)[:, None]))
            else:
                dw = _through_thread_buffers(dY, out_dtype, _fma(a[:, None], X, (-a * m)[:, None]), result=param_dtype)
            dw = dw.reshape(normalized_shape)
        if mask[2]:  # (half buffers, mixed too)
            db = _through_thread_buffers(dY, out_dtype, result=param_dtype).reshape(normalized_shape)
    shape = tuple(normalized_shape)
    return (x.copy() if dx is None else dx.astype(out_dtype, copy=False),
            np.zeros(shape, param_dtype) if dw is None else dw.astype(param_dtype, copy=False),
            np.zeros(shape, param_dtype) if db is None else db.astype(param_dtype, copy=False))


#: rows a thread sums with fused multiply-adds as the kernel does (more: unfused, see below)
_FUSED_ROWS = 256


def _through_thread_buffers(terms, dtype, factors=None, result=None):
    """The sum over rows of ``terms`` (an (M, N) array in the kernel's opmath type; with
    ``factors``, of terms * factors, each product fused into the running sum) as
    LayerNormBackwardKernelImplInternal sums dgamma and dbeta: each intra-op thread adds its
    range of rows into a buffer of the input's dtype (half rounds after every row), then the
    buffers are added in opmath from zero, in thread order, and written as ``result`` (the
    parameters' dtype: float for the mixed type, whose sum of half buffers is not rounded to half;
    else ``dtype``)."""
    rows, n = terms.shape
    total = np.zeros(n, terms.dtype)
    for begin, end in _vec_math.parallel_chunks(rows, 1):
        if factors is not None and end - begin > _FUSED_ROWS and terms.dtype == dtype:
            # (many rows: the products summed unfused, row after row, within rounding of the fused
            # sum, whose steps run a row at a time in Python: 4096 rows of 64 took 91 ms, not 8)
            buf = (terms[begin:end] * factors[begin:end]).sum(axis=0)
        elif factors is not None and dtype == np.float32:  # (products exact in double: _fma32's steps
            buf = np.zeros(n, dtype)                       # with them made once for all rows)
            prods = terms[begin:end].astype(np.float64) * factors[begin:end]
            for i in range(end - begin):
                s = prods[i] + buf
                mid = s.view(np.int64) & _vec_math._MID_MASK
                buf = (_fma(terms[begin + i], factors[begin + i], buf)
                       if _vec_math._count(mid == _vec_math._MID) else s.astype(dtype))
        elif factors is not None and terms.dtype != dtype:  # (half buffers: each row's fused sum rounded)
            buf = np.zeros(n, dtype)
            for i in range(begin, end):
                buf = _fma(terms[i], factors[i], buf.astype(terms.dtype)).astype(dtype)
        elif factors is not None:
            buf = np.zeros(n, dtype)
            for i in range(begin, end):
                buf = _fma(terms[i], factors[i], buf)
        elif terms.dtype == dtype:
            buf = terms[begin:end].sum(axis=0)  # (row after row: numpy's outer-axis reduction)
        else:
            buf = np.zeros(n, dtype)
            for i in range(begin, end):
                buf = (buf.astype(terms.dtype) + terms[i]).astype(dtype)
        total = total + buf
    return total.astype(dtype if result is None else result)


# PyTorch's native_layer_norm_backward: one node under create_graph, edges (grad_out, input,
# mean, rstd, weight, bias); mean and rstd are saved results that take no gradient
_layer_norm_backward = Op("NativeLayerNormBackwardBackward0", _layer_norm_backward_fwd,
                          inputs=("grad_out", "input", "mean", "rstd", "weight", "bias"), outputs=None,
                          multi_grad="undefined", internal=True,
                          saves=("grad_out", "input", "mean", "rstd", "weight"))


@_layer_norm.derivative
def _(ctx, grad):
    x, w, b = ctx.input, ctx.weight, ctx.bias
    mask = (ctx.needs(0), ctx.needs(1), ctx.needs(2))
    arrays = (grad._data, x._data, ctx.mean, ctx.rstd, None if w is None else w._data, None)
    params = w if w is not None else b
    outs = _layer_norm_backward.apply((grad, x, None, None, w, b), arrays, {  # b: only its edge
        "normalized_shape": ctx.normalized_shape, "mask": mask,
        "params": None if params is None else params._data.dtype})
    return tuple(o if need else None for o, need in zip(outs, mask))


@_layer_norm.forward_derivative
def _(ctx, tx, tw, tb):
    """layer_norm_jvp (the double-vjp through the backward would lose a bias without a weight,
    as PyTorch's double backward does)."""
    x, w = ctx.input, ctx.weight
    k = len(ctx.normalized_shape)
    dims = tuple(range(x.ndim - k, x.ndim))
    n = int(np.prod(ctx.normalized_shape, dtype=np.int64))
    x_mu = x - const(ctx.mean.astype(x._data.dtype))
    rstd = const(ctx.rstd.astype(x._data.dtype))
    out = None
    if tx is not None:
        tc = tx - tx.mean(dims, keepdim=True)
        rstd_t = -rstd.pow(3) * (tc * x_mu).sum(dims, keepdim=True) / n
        out = tc * rstd + x_mu * rstd_t
        if w is not None:
            out = out * w
    if tw is not None:
        term = x_mu * rstd * tw
        out = term if out is None else out + term
    if tb is not None:
        out = tb.expand(tuple(x.shape)) if out is None else out + tb
    return out


@_layer_norm_backward.derivative
def _(ctx, grads):
    """layer_norm_double_backward, step by step as FunctionsManual.cpp writes it."""
    ggI, ggG, ggB = grads
    x_t, gO_t, gamma = ctx.input, ctx.grad_out, ctx.weight
    k = len(ctx.normalized_shape)
    shape = tuple(x_t.shape)
    M = int(np.prod(shape[:len(shape) - k], dtype=np.int64))
    N = int(np.prod(shape[len(shape) - k:], dtype=np.int64))
    x = x_t.reshape(M, N)
    gO = gO_t.reshape(M, N)
    save_mean = const(ctx.mean.astype(x_t._data.dtype)).reshape(M, 1)
    save_invstd = const(ctx.rstd.astype(x_t._data.dtype)).reshape(M, 1)
    affine = gamma is not None
    ggG_e = ggB_e = ggI_e = None
    if affine:
        gamma_e = gamma.reshape(1, N)
        if ggG is not None:
            ggG_e = ggG.reshape(1, N)
        if ggB is not None:
            ggB_e = ggB.reshape(1, N)
    else:
        gamma_e = const(np.ones(1, x_t._data.dtype))
    if ggI is not None:
        ggI_e = ggI.reshape(M, N)
    mu = save_mean
    x_mu = x - mu
    s12 = save_invstd
    s1 = s12.pow(2)
    s32 = s12.pow(3)
    x_mu_s32 = x_mu * s32
    gI = None
    if ggI is not None:
        gxhat = gO * gamma_e
        gxhat_mu_sum = (gxhat * x_mu).sum(1, True)
        gxhat_sum = gxhat.sum(1, True)
        ggI_sum = ggI_e.sum(1, True)
        ggI_mu_sum = (ggI_e * x_mu).sum(1, True)
        all_sub = div_scalar(ggI_sum * gxhat_sum, N) - (ggI_e * gxhat).sum(1, True) + mul_scalar(
            s1 * gxhat_mu_sum * ggI_mu_sum, 3.0 / N if N else math.inf)  # (C++: 3.0 / 0 is inf)
        gI_0t = div_scalar(x_mu_s32 * all_sub, N)
        gI_1t = div_scalar(ggI_mu_sum * s32, N) * (div_scalar(gxhat_sum, N) - gxhat)
        gI_2t = div_scalar(gxhat_mu_sum * s32, N) * (div_scalar(ggI_sum, N) - ggI_e)
        gI = gI_0t + gI_1t + gI_2t
    if affine and ggG is not None:
        t0 = gO * ggG_e * s12
        t1 = div_scalar(s12 * (gO * ggG_e).sum(1, True), -N)
        t2 = div_scalar(x_mu_s32 * (gO * ggG_e * x_mu).sum(1, True), -N)
        term = t0 + t1 + t2
        gI = term if gI is None else gI + term
    if gI is not None:
        gI = gI.reshape(shape)

    def first_backward(g_local, gamma_local):
        h0 = div_scalar(gamma_local * s12, N)
        h1 = mul_scalar(g_local, N) - g_local.sum(1, True) - x_mu * s1 * (g_local * x_mu).sum(1, True)
        return h0 * h1

    gG = None
    if affine and ggI is not None:
        gG = (gO * first_backward(ggI_e, const(np.ones((), x_t._data.dtype)))).sum(0).reshape(tuple(gamma.shape))
    ggO = None
    if ggI is not None:
        ggO = first_backward(ggI_e, gamma_e)
    if ggG is not None and affine:
        term = ggG_e * x_mu * s12
        ggO = term if ggO is None else ggO + term
    if ggB is not None:  # (without a weight ATen's expanded ggB stays undefined: ggO.add(undefined) fails)
        if not affine and ggO is not None:
            raise RuntimeError("Expected a proper Tensor but got None (or an undefined Tensor in C++) for "
                               "argument #1 'other'")
        if affine:
            ggO = ggB_e if ggO is None else ggO + ggB_e
    if ggO is not None:
        ggO = ggO.expand(M, N).reshape(shape)
    return ggO, gI, None, None, gG, None


def _layer_norm_impl(input, normalized_shape, weight, bias, eps):
    normalized_shape = tuple(int(s) for s in normalized_shape)
    mixed = _mixed(input, weight, bias)  # (before the shapes, in layer_norm_cpu)
    k = len(normalized_shape)
    if k == 0:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least "
                           "one element, but got normalized_shape = []")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and tuple(t.shape) != normalized_shape:
            raise RuntimeError(
                f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                f"{list(t.shape)} and normalized_shape = {list(normalized_shape)}")
    if input.ndim < k or tuple(input.shape[input.ndim - k:]) != normalized_shape:
        expected = "[*, " + ", ".join(str(s) for s in normalized_shape) + "]"
        raise RuntimeError(
            f"Given normalized_shape={list(normalized_shape)}, expected input with shape {expected}, but got "
            f"input of size{list(input.shape)}")
    check_floating(input, "LayerNormKernelImpl")
    _same_dtype(input, mixed, weight, bias)
    arrays = (input._data, None if weight is None else weight._data, None if bias is None else bias._data)
    return _layer_norm.apply((input, weight, bias), arrays, {"normalized_shape": normalized_shape, "eps": eps})


@export(functional=True, torch=False)
def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalise over the trailing ``normalized_shape`` dims (one NativeLayerNormBackward0 node)."""
    if isinstance(normalized_shape, numbers.Integral):
        raise TypeError("layer_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not int")
    if type(eps) not in _NUMBERS:  # (torch.layer_norm's parse)
        _raise_parser_error("torch.layer_norm", (input, normalized_shape, weight, bias, eps, True), {})
    return _layer_norm_impl(input, normalized_shape, weight, bias, eps)


@export("layer_norm")
def torch_layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5, cudnn_enable=True):
    return _layer_norm_impl(input, normalized_shape, weight, bias, eps)
