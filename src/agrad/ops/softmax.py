"""softmax, log_softmax and softmin (``torch.softmax``, ``nn.functional``).

Each is one op over a dimension, as in PyTorch's ``derivatives.yaml``: a numpy
forward that subtracts the maximum first, the node name, and a derivative
written with agrad ops (``create_graph=True`` differentiates it again).
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ..tensor import Tensor, _wrap_dim
from . import _sleef, _vec_math
from ._layout import c_order
from ._op import Op, export
from .nn import check_floating

def _softmax_dim(input, dim, name, stacklevel):
    if dim is None:
        warnings.warn(
            f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X "
            "as an argument.", UserWarning, stacklevel=stacklevel)
        dim = 0 if input.ndim in (0, 1, 3) else 1
    return _wrap_dim(dim, input.ndim)


def _half(fn):
    """A kernel whose float16 inputs are computed in float32 and the result rounded once
    (PyTorch's CPU softmax kernels accumulate in float for half)."""
    def run(ctx, *arrays, **kw):
        if arrays[0].dtype == np.float16:
            return fn(ctx, *(a.astype(np.float32) for a in arrays), **kw).astype(np.float16)
        return fn(ctx, *arrays, **kw)

    return run


def _kernel_steps(a, dim) -> bool:
    """Whether the kernels' own steps run (else numpy's, the same values up to rounding): along
    the last dim at any size (_vec_*_lastdim computes each row alone, whatever the threads'
    split), along another dim under GRAIN_SIZE elements."""
    return a.ndim > 0 and a.size > 0


@_half
def _softmax_float(ctx, a, dim):
    if a.ndim == 0:  # exp(x - x) / exp(x - x): NaN for a NaN or an infinity, as PyTorch computes it
        with np.errstate(invalid="ignore"):
            return (a - a) + 1
    if a.size == 0:  # an empty input gives an empty result (no max to take)
        return a.copy()
    e = np.exp(a - np.max(a, axis=dim, keepdims=True))
    return e / np.sum(e, axis=dim, keepdims=True)


def _softmax_fwd(ctx, a, dim):
    a = c_order(a)  # PyTorch's kernels read a contiguous copy and write a contiguous result
    if a.dtype == np.float32 and _kernel_steps(a, dim):
        return _softmax_f32(a, dim)
    if a.dtype == np.float64 and a.ndim and a.size and dim == a.ndim - 1:
        # _vec_softmax_lastdim on doubles: Sleef's exp (vec::map's partial vectors too), the row's sum
        # as vec::reduce_all adds it, the exps times 1 / sum (1,600 random rows of 1 to 100: all bit for bit)
        with np.errstate(all="ignore"):
            e = _sleef.sleef_exp(a - np.max(a, axis=dim, keepdims=True))
            return e * (1 / _vec_math.reduce_all_sum(e))[..., None]
    if a.dtype != np.float16 or a.ndim == 0 or a.size == 0 or dim == a.ndim - 1:
        return _softmax_float(ctx, a, dim=dim)
    # PyTorch's kernel for another dim than the last (_vec_softmax) computes in float; its scalar
    # path stores exp(x - max) in the float16 output before dividing it by the float sum, its vector
    # path (16 inner positions at once, within one thread's share of outer * inner) divides the float
    f = a.astype(np.float32)
    e = np.exp(f - np.max(f, axis=dim, keepdims=True))
    total = np.sum(e, axis=dim, keepdims=True)
    out = e.astype(np.float16).astype(np.float32) / total
    inner = math.prod(a.shape[dim + 1:])
    if inner >= 16:
        n = out.size // a.shape[dim]
        share = -(-n // _THREADS)
        flat_out, flat_e = out.reshape(-1, a.shape[dim], inner), e.reshape(-1, a.shape[dim], inner)
        flat_t = total.reshape(-1, 1, inner)
        for begin in range(0, n, share):
            idx, end = begin, min(begin + share, n)
            while idx < end:
                o, i = divmod(idx, inner)
                if i + 16 <= inner and idx + 16 <= end:
                    flat_out[o, :, i:i + 16] = flat_e[o, :, i:i + 16] / flat_t[o, :, i:i + 16]
                    idx += 16
                else:
                    idx += 1
    return out.astype(np.float16)


_THREADS = _vec_math.THREADS


def _softmax_f32(a, dim):
    """softmax of a float32 array as PyTorch's AVX2 kernels compute it.

    Along the last dim (_vec_softmax_lastdim): exp(x - max) by the vector code's exp, the row's
    sum as vec::reduce_all adds it, and the exps times 1 / sum. Along another dim (_vec_softmax,
    over outer * inner positions split between threads): 8 inner positions at once where a
    whole vector fits in the row and the thread's range, with the vector exp; the rest one by
    one with libm's exp. Both add the exps in the dim's order and divide by the sum."""
    if dim == a.ndim - 1:
        e = _vec_math.sleef_expf(a - np.max(a, axis=dim, keepdims=True))
        return e * (np.float32(1) / _vec_math.reduce_all_sum(e))[..., None]
    dim_size = a.shape[dim]
    inner = math.prod(a.shape[dim + 1:])
    x = a.reshape(-1, dim_size, inner)
    # (outer, inner, dim): one row per position, the dim last
    shifted = (x - np.max(x, axis=1, keepdims=True)).transpose(0, 2, 1)
    out = np.empty_like(x)
    rows = out.transpose(0, 2, 1)
    vector = _vector_lanes(x.shape[0], inner)
    for lanes, exp in ((vector, _vec_math.sleef_expf), (~vector, _libm_expf)):
        if lanes.any():
            e = exp(shifted[lanes])
            total = e[:, 0].copy()
            for d in range(1, dim_size):  # (0 + e0 is e0)
                total += e[:, d]
            rows[lanes] = e / total[:, None]
    return out.reshape(a.shape)


def _libm_expf(v):
    return _vec_math.libm_float(np.exp, v)


def _vector_lanes(outer, inner):
    """Which of the outer x inner positions _vec_softmax gives its vector code: within a
    thread's range (every thread has one: a grain size of 0), 8 positions at once while 8
    are left both in the row and in the range."""
    lanes = np.zeros((outer, inner), bool)
    lanes[:, :inner - inner % 8] = True  # a whole row in one range
    flat = lanes.reshape(-1)
    for begin, end in _vec_math.parallel_chunks(outer * inner, 0):
        # the range's first and last rows may be cut short
        first = min(inner - begin % inner, end - begin)
        flat[begin:begin + first] = np.arange(first) < first - first % 8
        last = end % inner
        if last and end - last >= begin + first:
            flat[end - last:end] = np.arange(last) < last - last % 8
    return lanes


_softmax = Op("SoftmaxBackward0", _softmax_fwd, saves=("result",), jvp="symmetric")  # J = diag(y) - y y^T


@_half
def _softmax_backward_fwd(ctx, g, y, dim):
    """_softmax_backward_data: y * (g - sum(g * y)) along ``dim``."""
    with np.errstate(all="ignore"):
        if y.ndim == 0:
            return y * (g - g * y)
        if g.dtype in (np.float32, np.float64) and g.dtype == y.dtype and _kernel_steps(g, dim):
            return _softmax_backward_kernel(g, y, dim)
        return y * (g - np.sum(g * y, axis=dim, keepdims=True))


def _softmax_backward_kernel(g, y, dim):
    """PyTorch's AVX2 kernels: along the last dim, sum(g * y) as vec::reduce_all adds it; along
    another, the products added in the dim's order, each with a fused multiply-add."""
    if dim == g.ndim - 1:
        total = _vec_math.reduce_all_sum(g * y)[..., None]
    else:
        gm, ym = np.moveaxis(g, dim, 0), np.moveaxis(y, dim, 0)
        total = np.zeros(gm.shape[1:], g.dtype)
        for d in range(gm.shape[0]):
            total = _vec_math.fma(gm[d], ym[d], total)
        total = np.expand_dims(total, dim)
    return y * (g - total)


# PyTorch's _softmax_backward_data as an op of its own: a gradient taken with
# create_graph=True shows its node, with edges (grad_output, output)
_softmax_backward = Op("SoftmaxBackwardDataBackward0", _softmax_backward_fwd, inputs=("grad_output", "output"),
                       internal=True, saves=("grad_output", "output"), saves_for={"grad_output": (1,)})


@_softmax_backward.derivative
def _(ctx, grad):
    y, d = ctx.output, ctx.dim
    g_out = _softmax_backward(grad, y, dim=d) if ctx.needs(0) else None
    if not ctx.needs(1):
        return g_out, None
    g = ctx.grad_output  # softmax_double_backward
    return g_out, g * grad - (y * g).sum(d, keepdim=True) * grad - g * (y * grad).sum(d, keepdim=True)


@_softmax.derivative
def _(ctx, grad):
    return _softmax_backward(grad, ctx.result, dim=ctx.dim)


@_softmax.raw_derivative
def _(ctx, g):
    return _softmax_backward_fwd(ctx, g, ctx.result._data, dim=ctx.dim)


def _log_softmax_fwd(ctx, a, dim):
    a = c_order(a)  # PyTorch's kernels read a contiguous copy and write a contiguous result
    if a.dtype == np.float32 and _kernel_steps(a, dim):
        return _log_softmax_f32(a, dim)
    if a.dtype == np.float64 and a.ndim and a.size and dim == a.ndim - 1:
        # _vec_log_softmax_lastdim on doubles: Sleef's exp and log, the sum as vec::reduce_all adds it
        # (1,600 random rows of 1 to 100: all bit for bit)
        mx = np.max(a, axis=dim, keepdims=True)
        with np.errstate(all="ignore"):
            total = _vec_math.reduce_all_sum(_sleef.sleef_exp(a - mx))[..., None]
            return (a - mx) - _sleef.sleef_log(total)
    if a.dtype == np.float16 and a.ndim and a.size and dim == a.ndim - 1:
        return _log_softmax_f16_lastdim(a)
    return _log_softmax_float(ctx, a, dim=dim)


def _log_softmax_f16_lastdim(a):
    """float16 log_softmax along the last dim as _vec_log_softmax_lastdim computes it: in float
    (the vector code's exp and log), but the sum of the exps and its log each stored in a float16
    buffer (rounded) before x - max - log(sum) is rounded once."""
    x = a.astype(np.float32)
    mx = np.max(x, axis=-1, keepdims=True)
    with np.errstate(all="ignore"):
        total = _vec_math.reduce_all_sum(_vec_math.sleef_expf(x - mx))[..., None]
        lse = _vec_math.sleef_logf(total.astype(np.float16).astype(np.float32)).astype(np.float16)
        return ((x - mx) - lse.astype(np.float32)).astype(np.float16)


@_half
def _log_softmax_float(ctx, a, dim):
    if a.ndim == 0:  # NaN for a NaN or an infinity, as PyTorch computes it
        with np.errstate(invalid="ignore"):
            return a - a
    if a.size == 0:
        return a.copy()
    shifted = a - np.max(a, axis=dim, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=dim, keepdims=True))


def _log_softmax_f32(a, dim):
    """log_softmax of a float32 array as PyTorch's AVX2 kernels compute it: x - max - log(sum of
    exp(x - max)). Along the last dim (_vec_log_softmax_lastdim): the vector code's exp and log
    (Sleef's), the sum as vec::reduce_all adds it. Along another (_vec_log_softmax): the vector
    code for 8 inner positions at once where a whole vector fits (as softmax's), libm's exp and
    log one by one elsewhere, the exps added in the dim's order."""
    mx = np.max(a, axis=dim, keepdims=True)
    with np.errstate(all="ignore"):
        if dim == a.ndim - 1:
            total = _vec_math.reduce_all_sum(_vec_math.sleef_expf(a - mx))[..., None]
            return (a - mx) - _vec_math.sleef_logf(total)
        dim_size = a.shape[dim]
        inner = math.prod(a.shape[dim + 1:])
        x = a.reshape(-1, dim_size, inner)
        m = mx.reshape(x.shape[0], 1, inner)
        shifted = (x - m).transpose(0, 2, 1)
        lse = np.empty((x.shape[0], inner), np.float32)
        vector = _vector_lanes(x.shape[0], inner)
        for lanes, exp, log in ((vector, _vec_math.sleef_expf, _vec_math.sleef_logf), (~vector, _libm_expf, _libm_logf)):
            if lanes.any():
                e = exp(shifted[lanes])
                total = e[:, 0].copy()
                for d in range(1, dim_size):
                    total += e[:, d]
                lse[lanes] = log(total)
        return ((x - m) - lse[:, None, :]).reshape(a.shape)


def _libm_logf(v):
    return _vec_math.libm_float(np.log, v)


_log_softmax = Op("LogSoftmaxBackward0", _log_softmax_fwd, saves=("result",))


@_half
def _log_softmax_backward_fwd(ctx, g, y, dim):
    """_log_softmax_backward_data: g - exp(y) * sum(g) along ``dim``."""
    with np.errstate(all="ignore"):
        if y.ndim == 0:
            return g - np.exp(y) * g
        if g.dtype in (np.float32, np.float64) and g.dtype == y.dtype and _kernel_steps(g, dim):
            return _log_softmax_backward_kernel(g, y, dim)
        return g - np.exp(y) * np.sum(g, axis=dim, keepdims=True)


def _log_softmax_backward_kernel(g, y, dim):
    """PyTorch's AVX2 kernels: the sum of g as vec::reduce_all adds it along the last dim (a
    single element is its own sum, -0.0 kept), from 0 in the dim's order along another; then
    g - exp(y) * sum with the multiply and subtract fused. float32's exp is the vector code's
    (Sleef's) where it runs: everywhere along the last dim, else the inner positions before the
    last partial vector (libm's for those)."""
    f32 = g.dtype == np.float32
    if dim == g.ndim - 1:
        total = _vec_math.reduce_all_sum(g)[..., None]
        e = _vec_math.sleef_expf(y) if f32 else _sleef.sleef_exp(y)
    else:
        gm = np.moveaxis(g, dim, 0)
        total = np.zeros(gm.shape[1:], g.dtype)
        for d in range(gm.shape[0]):
            total = total + gm[d]
        total = np.expand_dims(total, dim)
        e = np.exp(y)
        if f32:
            inner = math.prod(g.shape[dim + 1:])
            e = _libm_expf(y)
            cut = inner - inner % 8
            if cut:
                yv = y.reshape(y.shape[:dim + 1] + (inner,))
                ev = e.reshape(yv.shape)
                ev[..., :cut] = _vec_math.sleef_expf(yv[..., :cut])
    return _vec_math.fma(-e, total, g)


_log_softmax_backward = Op("LogSoftmaxBackwardDataBackward0", _log_softmax_backward_fwd,
                           inputs=("grad_output", "output"), internal=True, saves=("grad_output", "output"),
                           saves_for={"grad_output": (1,)})


@_log_softmax_backward.derivative
def _(ctx, grad):
    y, d = ctx.output, ctx.dim
    g_out = grad - (grad * y.exp()).sum(d, keepdim=True) if ctx.needs(0) else None
    if not ctx.needs(1):
        return g_out, None
    return g_out, -ctx.grad_output.sum(d, keepdim=True) * y.exp() * grad


@_log_softmax.derivative
def _(ctx, grad):
    return _log_softmax_backward(grad, ctx.result, dim=ctx.dim)


@_log_softmax.raw_derivative
def _(ctx, g):
    return _log_softmax_backward_fwd(ctx, g, ctx.result._data, dim=ctx.dim)


@_log_softmax.forward_derivative
def _(ctx, t):
    y = ctx.result
    if y.ndim == 0:
        return t * 0
    return t - (y.exp() * t).sum(ctx.dim, keepdim=True)


def _prepare(input, dtype, kernel, dim):
    if dtype is not None:
        input = input.to(dtype)  # (the kernel then runs on that dtype)
    if not input.dtype.is_floating_point and input.numel():
        # ATen's softmax_cpu: the last-dim kernel for the last dim (or a 0-d input); an empty input
        # reaches no kernel
        last = _wrap_dim(dim, input.ndim) == max(input.ndim - 1, 0)  # (the dim is wrapped first, 0-d too)
        check_floating(input, f"{kernel}_lastdim_kernel_impl" if last else f"{kernel}_kernel_impl")
    return input


def _run(op, x, dim):
    """The op on x; an empty integer or bool input gives an empty tensor of its dtype (no kernel)."""
    if not x.dtype.is_floating_point and not x.numel():
        return Tensor._make(x._data.copy())
    return op(x, dim=dim)


@export(functional=True, torch=False)
def softmax(input, dim=None, _stacklevel=3, dtype=None):
    dim = _softmax_dim(input, dim, "softmax", _stacklevel)  # PyTorch warns before the dtype check
    x = _prepare(input, dtype, "softmax", dim)
    return _run(_softmax, x, dim)


@export("softmax", method=True, torch=False)
def _softmax_aten(input, dim, dtype=None):
    """Tensor.softmax (and torch.softmax's value): ``dim`` is required (nn.functional's picks one, with
    a warning); a missing or None ``dim`` fails with PyTorch's parser error (agrad/ops/_pyargs.py)."""
    if dim is None:
        raise TypeError("softmax(): dim")
    x = _prepare(input, dtype, "softmax", dim)
    return _run(_softmax, x, _wrap_dim(dim, input.ndim))


def _out_dtype(result, out):
    """softmax's and log_softmax's out variants: out's dtype must be the result's."""
    from ._op import _C_TYPE
    return RuntimeError(f"Expected out tensor to have dtype {_C_TYPE[result.dtype.name]}, but got "
                        f"{_C_TYPE[out.dtype.name]} instead")


def _with_out(fname, fn):
    """torch.softmax / torch.log_softmax: the method's function with PyTorch's ``out=`` (a composite
    autograd does not record: a NotImplemented node on ``out``, not_implemented.recorded_out)."""
    from ..autograd import grad_mode
    from ._not_implemented import recorded_out

    def torch_fn(input, dim, dtype=None, *, out=None):
        if out is None:
            return fn(input, dim, dtype)
        want = dtype or getattr(input, "dtype", None)
        if want is not None and out.dtype is not want and not (grad_mode._state["enabled"] and out._requires_grad):
            raise _out_dtype(Tensor._make(np.empty(0, want.numpy)), out)  # (before the kernel's dtype check)
        with grad_mode.no_grad():
            result = fn(input, dim, dtype)
        return recorded_out(fname, result, input, out, _out_dtype)

    torch_fn.__name__ = torch_fn.__qualname__ = fname
    torch_fn.__doc__ = fn.__doc__
    return export(fname)(torch_fn)


softmax_out = _with_out("softmax", _softmax_aten)
_softmax_aten.__qualname__ = "softmax"  # (Python's own argument errors name the method: x.softmax(0, out=y))


@export(functional=True, torch=False)
def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    dim = _softmax_dim(input, dim, "log_softmax", _stacklevel)  # PyTorch warns before the dtype check
    x = _prepare(input, dtype, "log_softmax", dim)
    return _run(_log_softmax, x, dim)


@export("log_softmax", method=True, torch=False)
def _log_softmax_aten(input, dim, dtype=None):
    """Tensor.log_softmax (and torch.log_softmax's value): ``dim`` is required (nn.functional's picks
    one, with a warning); a missing or None ``dim`` fails with PyTorch's parser error (agrad/ops/_pyargs.py)."""
    if dim is None:
        raise TypeError("log_softmax(): dim")
    x = _prepare(input, dtype, "log_softmax", dim)
    return _run(_log_softmax, x, _wrap_dim(dim, input.ndim))


log_softmax_out = _with_out("log_softmax", _log_softmax_aten)
_log_softmax_aten.__qualname__ = "log_softmax"


@export(functional=True, torch=False)
def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim(input, dim, "softmin", _stacklevel)
    return softmax(-input, dim, dtype=dtype)
