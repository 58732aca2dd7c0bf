"""softmax, log_softmax and softmin (``torch.softmax``, ``nn.functional``).

Each is one op over a dimension, as in PyTorch's ``derivatives.yaml``: a numpy
forward that subtracts the maximum first, the node name, and a derivative
written with agrad ops (``create_graph=True`` differentiates it again).
"""

from __future__ import annotations

import math

import numpy as np

from ..tensor import Tensor, _wrap_dim
from . import _glibc_float, _sleef, _vec_math
from ._layout import c_order
from ._argcheck import passed_on
from ._op import Op, export
from .nn import check_floating
from .._warn_once import warn as _warn

def _softmax_dim(input, dim, name, stacklevel):
    if dim is None:
        _warn(
            f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X "
            "as an argument.", UserWarning)
        dim = 0 if input.ndim in (0, 1, 3) else 1
    elif type(dim) is not int:  # (nn.functional's input.softmax(dim): its parse; softmin's too)
        passed_on("log_softmax" if name == "log_softmax" else "softmax", (("dim", "int", 1, dim),))
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
            rows = _short_rows_max(a, dim)
            if rows is not None:
                e = _sleef.sleef_exp(rows[0] - rows[1])
                e *= 1 / _vec_math.reduce_all_sum_first(e)
                return _back(e)
            e = _sleef.sleef_exp(a - np.max(a, axis=dim, keepdims=True))
            return e * (1 / _vec_math.reduce_all_sum(e))[..., None]
    if a.dtype == np.float64 and a.ndim and a.size:
        return _vec_softmax(a, dim, 4, _sleef.sleef_exp, _libm_exp)
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


def _short_rows(a, dim):
    """Whether the last-dim kernels' steps go on the transposed array (_transposed): a short last
    dim and many rows, where numpy's reductions and broadcasts along the last axis run an inner
    loop of a few elements per row (10,000 rows of 10: max 340 us, the reduce_all sum 390, the
    product by 1 / sum 460; on the transposed rows some 30 each)."""
    return dim == a.ndim - 1 and a.ndim > 1 and 1 < a.shape[-1] <= 32 and a.size >= 2048


def _transposed(a):
    """The positions along the last dim first, a C-laid copy: one contiguous row per position."""
    return np.moveaxis(a, -1, 0).copy()


def _back(t):
    """A result computed on _transposed operands, laid out as the kernels write it (C order)."""
    return np.ascontiguousarray(np.moveaxis(t, 0, -1))


def _short_rows_max(a, dim):
    """(_transposed(a), the rows' max) where _short_rows and the steps on the transpose give
    the bits the last-dim steps give, else None. The max is the rows' running maximum, which is
    numpy's unless it is a zero (whose sign numpy's loops pick by their order) or a NaN: a row
    with a NaN goes the last-dim way, as there the NaNs' payloads and signs numpy's operand
    order picks (and np.max's NaN with its alignment) are kept. Without one in the input, any
    NaN the steps make is the default NaN, whatever the order."""
    if not _short_rows(a, dim):
        return None
    t = _transposed(a)
    m = t[0].copy()
    for i in range(1, t.shape[0]):
        np.maximum(m, t[i], out=m)
    if _count(m == 0) or _count(m != m):
        return None
    return t, m


def _nan_free(total):
    """Whether no row's sum is NaN: then no NaN went in (the backward kernels' steps on the
    transpose, see _short_rows_max)."""
    return not _count(total != total)


_count = np.count_nonzero


def _softmax_f32(a, dim):
    """softmax of a float32 array as PyTorch's AVX2 kernels compute it.

    Along the last dim (_vec_softmax_lastdim): exp(x - max) by the vector code's exp, the row's
    sum as vec::reduce_all adds it, and the exps times 1 / sum. Along another dim (_vec_softmax,
    over outer * inner positions split between threads): 8 inner positions at once where a
    whole vector fits in the row and the thread's range, with the vector exp; the rest one by
    one with libm's exp. Both add the exps in the dim's order and divide by the sum."""
    rows = _short_rows_max(a, dim)
    if rows is not None:
        e = _vec_math.sleef_expf(rows[0] - rows[1])
        e *= np.float32(1) / _vec_math.reduce_all_sum_first(e)
        return _back(e)
    if dim == a.ndim - 1:
        e = _vec_math.sleef_expf(a - np.max(a, axis=dim, keepdims=True))
        return e * (np.float32(1) / _vec_math.reduce_all_sum(e))[..., None]
    return _vec_softmax(a, dim, 8, _vec_math.sleef_expf, _libm_expf)


def _vec_softmax(a, dim, step, vec_exp, libm_exp):
    """_vec_softmax along a dim other than the last: ``step`` inner positions at once (8 floats, 4
    doubles) with the vector exp where they fit (see _vector_lanes), libm's exp one by one
    elsewhere; the exps added from 0 in the dim's order, each divided by the sum."""
    dim_size = a.shape[dim]
    inner = math.prod(a.shape[dim + 1:])
    x = a.reshape(-1, dim_size, inner)
    # (outer, inner, dim): one row per position, the dim last
    shifted = (x - np.max(x, axis=1, keepdims=True)).transpose(0, 2, 1)
    out = np.empty_like(x)
    rows = out.transpose(0, 2, 1)
    vector = _vector_lanes(x.shape[0], inner, step, dim_size)
    with np.errstate(all="ignore"):
        for lanes, exp in ((vector, vec_exp), (~vector, libm_exp)):
            if lanes.any():
                _softmax_lanes(rows, lanes, exp(shifted[lanes]), dim_size)
    return out.reshape(a.shape)


def _softmax_lanes(rows, lanes, e, dim_size):
    rows[lanes] = e / _sum_in_order(e)[:, None]


def _sum_in_order(e):
    """The rows of e (lanes, dim) summed from 0 one element after the other, as the kernels'
    loops over the dim add them (accumulate's running sums are those additions; 0 + e0 is e0 but
    for a -0.0, which x + 0.0 makes +0.0)."""
    return np.add.accumulate(e, axis=1)[:, -1] + e.dtype.type(0)


def _libm_exp(v):
    return _sleef.libm("exp", v)


def _libm_expf(v):
    """std::exp(float): glibc's expf (not always exp in double rounded once: 3 in 10,000 differ)."""
    return _glibc_float.expf(v)


def _vector_lanes(outer, inner, step=8, dim_size=1):
    """Which of the outer x inner positions _vec_softmax gives its vector code: within a
    thread's range (parallel_for's with a grain of GRAIN_SIZE / dim_size), ``step`` positions at
    once while that many are left both in the row and in the range."""
    lanes = np.zeros((outer, inner), bool)
    lanes[:, :inner - inner % step] = True  # a whole row in one range
    flat = lanes.reshape(-1)
    for begin, end in _vec_math.parallel_chunks(outer * inner, 0):
        # the range's first and last rows may be cut short
        first = min(inner - begin % inner, end - begin)
        flat[begin:begin + first] = np.arange(first) < first - first % step
        last = end % inner
        if last and end - last >= begin + first:
            flat[end - last:end] = np.arange(last) < last - last % step
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
    if _short_rows(g, dim) and g.flags.c_contiguous and y.flags.c_contiguous:  # (a C result, as y * (g - total))
        gt, yt = _transposed(g), _transposed(y)
        total = _vec_math.reduce_all_sum_first(gt * yt)
        if not _nan_free(total):
            return y * (g - _vec_math.reduce_all_sum(g * y)[..., None])
        gt -= total
        np.multiply(yt, gt, out=gt)  # (y * (g - total): a NaN's payload from the first operand)
        return _back(gt)
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
        with np.errstate(all="ignore"):
            rows = _short_rows_max(a, dim)
            if rows is not None:
                t = rows[0]
                t -= rows[1]
                total = _vec_math.reduce_all_sum_first(_sleef.sleef_exp(t))
                t -= _sleef.sleef_log(total)
                return _back(t)
            mx = np.max(a, axis=dim, keepdims=True)
            total = _vec_math.reduce_all_sum(_sleef.sleef_exp(a - mx))[..., None]
            return (a - mx) - _sleef.sleef_log(total)
    if a.dtype == np.float64 and a.ndim and a.size:
        return _vec_logsoftmax(a, dim, 4, _sleef.sleef_exp, _libm_exp, _sleef.sleef_log)
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
    (Sleef's), the sum as vec::reduce_all adds it. Along another: :func:`_vec_logsoftmax`."""
    rows = _short_rows_max(a, dim)
    if rows is not None:
        with np.errstate(all="ignore"):
            t = rows[0]
            t -= rows[1]
            total = _vec_math.reduce_all_sum_first(_vec_math.sleef_expf(t))
            t -= _vec_math.sleef_logf(total)
            return _back(t)
    if dim == a.ndim - 1:
        mx = np.max(a, axis=dim, keepdims=True)
        with np.errstate(all="ignore"):
            total = _vec_math.reduce_all_sum(_vec_math.sleef_expf(a - mx))[..., None]
            return (a - mx) - _vec_math.sleef_logf(total)
    return _vec_logsoftmax(a, dim, 8, _vec_math.sleef_expf, _libm_expf, _vec_math.sleef_logf)


def _vec_logsoftmax(a, dim, step, vec_exp, libm_exp, vec_log):
    """_vec_logsoftmax along a dim other than the last: the inner positions in chunks of
    128 KiB / dim_size / itemsize (a multiple of ``step``: 8 floats, 4 doubles), each chunk's
    whole vectors with the vector exp, its last size % step positions with libm's; the exps added
    from 0 in the dim's order, the vector log (vec::map: a partial vector too) of every sum."""
    dim_size = a.shape[dim]
    inner = math.prod(a.shape[dim + 1:])
    x = a.reshape(-1, dim_size, inner)
    vector = np.broadcast_to(_chunk_lanes(inner, dim_size, step, a.itemsize), (x.shape[0], inner))
    with np.errstate(all="ignore"):
        m = np.max(x, axis=1, keepdims=True)
        shifted = (x - m).transpose(0, 2, 1)
        total = np.empty((x.shape[0], inner), a.dtype)
        for lanes, exp in ((vector, vec_exp), (~vector, libm_exp)):
            if lanes.any():
                total[lanes] = _sum_in_order(exp(shifted[lanes]))
        return ((x - m) - vec_log(total)[:, None, :]).reshape(a.shape)


def _chunk_lanes(inner, dim_size, step, itemsize):
    """Which inner positions the log_softmax kernels along another dim than the last give their
    vector code: the inner positions go in chunks of 128 KiB / dim_size / itemsize (a multiple
    of ``step``, at least one), each chunk's whole vectors."""
    chunk = max(131072 // dim_size // itemsize, step) // step * step
    at = np.arange(inner)
    size = np.minimum(chunk, inner - at // chunk * chunk)
    return at % chunk < size - size % step


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
    if _short_rows(g, dim) and g.flags.c_contiguous and y.flags.c_contiguous:  # (a C result, as the fma's)
        gt, yt = _transposed(g), _transposed(y)
        total = _vec_math.reduce_all_sum_first(gt)
        if not _nan_free(total):
            return _vec_math.fma(-_vec_math.sleef_expf(y) if f32 else -_sleef.sleef_exp(y),
                                 _vec_math.reduce_all_sum(g)[..., None], g)
        e = _vec_math.sleef_expf(yt) if f32 else _sleef.sleef_exp(yt)
        np.negative(e, out=e)
        return _back(_vec_math.fma(e, total, gt))
    if dim == g.ndim - 1:
        total = _vec_math.reduce_all_sum(g)[..., None]
        e = _vec_math.sleef_expf(y) if f32 else _sleef.sleef_exp(y)
    else:
        # (from 0 in the dim's order: accumulate's running sums, a -0.0 made +0.0)
        total = np.add.accumulate(g, axis=dim).take([-1], axis=dim) + g.dtype.type(0)
        inner = math.prod(g.shape[dim + 1:])
        yv = y.reshape(y.shape[:dim + 1] + (inner,))
        vector = _chunk_lanes(inner, g.shape[dim], 8 if f32 else 4, g.itemsize)
        e = np.empty_like(yv)
        e[..., vector] = (_vec_math.sleef_expf if f32 else _sleef.sleef_exp)(yv[..., vector])
        e[..., ~vector] = (_libm_expf if f32 else _libm_exp)(yv[..., ~vector])
        e = e.reshape(y.shape)
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
