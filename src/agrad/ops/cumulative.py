"""Cumulative (scan) ops: cumsum, cumprod, cummax/cummin and logcumsumexp, with
PyTorch's nodes and backward formulas (derivatives.yaml, FunctionsManual.cpp); and diff,
cumsum's inverse.

Every scan's result is C-ordered whatever its input's layout (_logcumsumexp_cpu allocates
empty_like(self, Contiguous); cumsum, cumprod, cummax and cummin give the same for transposed,
expanded, sliced and channels-last inputs), so each forward ends in ``c_order``."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..tensor import Tensor, _scalar_name, _wrap_dim
from . import _vec_math
from ._layout import c_order
from ._op import Op, export, finish_out, inplace, method, write_outs, with_out
from ._return_types import return_type as _return_type
from .selection import where
from .reductions import (_REQUIRED, _acc_dtype, _check_int_dim, _quiet, _require_dim, _reverse,
                         _reversed_cumsum, prod)


# ---------------------------------------------------------------------------
# cumsum / cumprod
# ---------------------------------------------------------------------------

def _cum_fwd(ctx, a, axis, dtype, np_fn):
    a = a.astype(dtype, copy=False)
    if a.ndim == 0:
        return a.copy()
    with np.errstate(all="ignore"):
        out = np_fn(a, axis=axis, dtype=dtype)  # (numpy's own accumulator would widen uint8 to uint64)
    if np_fn is np.cumsum and out.dtype.kind == "f":
        out = out + 0.0  # PyTorch's sum starts from +0.0: a -0.0 is never a partial sum
    return c_order(out)  # (PyTorch writes a contiguous result)


_cumsum = Op("CumsumBackward0", _cum_fwd, jvp="linear")
_cumprod = Op("CumprodBackward0", _cum_fwd, saves=("self", "result"))


def _in_dtype(ctx):
    return ctx._input_meta[0][1]


@_cumsum.derivative
def _(ctx, grad):
    grad = grad.to(_in_dtype(ctx))
    shape = ctx.input_shape
    if grad.numel() <= 1 or not len(shape) or shape[ctx.axis] == 1:
        return grad
    return _reversed_cumsum(grad, ctx.axis)


@_cumprod.derivative
@_quiet
def _(ctx, grad):
    x = ctx.self
    grad = grad.to(x.dtype)
    if x.numel() <= 1:
        return grad
    d = ctx.axis
    n = x.shape[d]
    if n == 1:
        return grad
    out = ctx.result
    w = out * grad
    if not (x._data == 0).any():
        return _reversed_cumsum(w, d) / x
    from ..autograd import grad_mode
    if not grad_mode._state["enabled"]:
        return _cumprod_backward_zeros(x, grad, out, w, d)
    # With zeros, under create_graph: dy_j/dx_k = prod_{i <= j, i != k} x_i, built slice by slice (PyTorch's
    # O(n^2) formula, the one that is itself differentiable), each slice copied into
    # grad_input.select(d, k): a chain of CopySlices under create_graph, as in PyTorch.
    from .joining import cat
    ones_shape = list(x.shape)
    ones_shape[d] = 1
    ones = Tensor._make(np.ones(ones_shape, x.dtype.numpy))
    grad_input = Tensor._make(np.zeros(x.shape, grad.dtype.numpy))
    for k in range(n):
        if k == 0:
            omitted = cat([ones, cumprod(x.narrow(d, 1, n - 1), d)], d)
        elif k == n - 1:
            omitted = prod(x.narrow(d, 0, k), d, True)
        else:
            until_k = prod(x.narrow(d, 0, k), d, True)
            from_k_plus_1 = cumprod(x.narrow(d, k + 1, n - k - 1), d)
            omitted = cat([until_k, until_k.expand_as(from_k_plus_1) * from_k_plus_1], d)
        grad_input.select(d, k).copy_((grad.narrow(d, k, n - k) * omitted).sum(d))
    return grad_input


def _cumprod_backward_zeros(x, grad, out, w, d):
    """FunctionsManual's O(n) cumprod_backward for an input with zeros (not differentiable, so
    taken only outside create_graph), its masks' steps on tensors: before the first zero
    reversed_cumsum(w) / x; at the first zero prod(x[:z1]) * sum(grad[z1:z2] * cumprod(x[z1+1:z2]
    with x[z1] as 1)); zero after it. An inf or NaN in the gradient past the slices it reads
    stays out (the O(n^2) formula would multiply it by zero)."""
    from .scatter_gather import gather
    cs = (x == 0).cumsum(d)
    before = cs == 0
    grad_input = where(before, _reversed_cumsum(w.masked_fill(~before, 0.0), d) / x, 0.0).to(grad.dtype)
    mask = cs == 1
    first = mask.max(d, keepdim=True).indices
    first_zero = Tensor._make(np.zeros(x.shape, bool)).scatter(d, first, True) & mask
    mask = mask & ~first_zero
    at_zero = x.masked_fill(~mask, 1.0).cumprod(d) * grad.masked_fill(cs != 1, 0.0)
    at_zero = at_zero.sum(d, keepdim=True) * gather(out, d, (first - 1).relu()).masked_fill(first == 0, 1.0)
    return where(first_zero, at_zero, grad_input)


def _cumulative(op, fname, np_fn):
    def fn(input, dim=_REQUIRED, *, dtype=None, out=None):
        _require_dim(fname, dim)
        _check_int_dim(fname, dim)
        axis = _wrap_dim(dim, input.ndim)
        if out is not None and dtype is not None and dtypes.lookup(dtype) is not out.dtype:  # (the meta's check)
            from ._outs import _C_TYPE
            raise RuntimeError(f"Expected out tensor to have dtype {_C_TYPE[dtypes.lookup(dtype).name]}, but got "
                               f"{_C_TYPE[out.dtype.name]} instead")
        d = _acc_dtype(input, out.dtype if dtype is None and out is not None else dtype)  # (out's dtype is the scan's)
        if d is dtypes.bool_ and input.ndim and input.numel():  # (the kernel is skipped for these)
            if out is not None:  # (resized first)
                from ._outs import out_before_kernel
                out_before_kernel(fname, d, input.shape, out)
            raise NotImplementedError(f'"{fname}_out_cpu" not implemented for \'Bool\'')
        return finish_out(fname, op.apply((input,), (input._data,), {"axis": axis, "dtype": d.numpy,
                                                                     "np_fn": np_fn}), out)

    fn.__name__ = fname
    fn.__doc__ = f"Cumulative {fname[3:]} along ``dim``."
    export(fname, method=True)(fn)

    in_place = inplace(fn)

    def fn_(self, dim=_REQUIRED, *, dtype=None):
        if dtype is not None and dtypes.lookup(dtype) is not self.dtype:
            from ..autograd import grad_mode
            from .pointwise import _C_NAMES
            if grad_mode._state["enabled"] and self._requires_grad:  # (autograd's check comes first)
                self._check_inplace(True, overlap="allow")
            _require_dim(fname, dim)
            _check_int_dim(fname, dim)
            _wrap_dim(dim, self.ndim)
            raise RuntimeError(
                f"Bad in-place call: input tensor dtype {_C_NAMES[self.dtype.name]} and output tensor dtype "
                f"{_C_NAMES[dtypes.lookup(dtype).name]} should match")
        return in_place(self, dim, dtype=self.dtype)  # (ATen's out is self: its dtype, bool's kernel error)

    fn_.__name__ = fname + "_"
    method(fname + "_")(fn_)
    return fn


cumsum = _cumulative(_cumsum, "cumsum", np.cumsum)
cumprod = _cumulative(_cumprod, "cumprod", np.cumprod)


CummaxResult = _return_type("cummax")
CumminResult = _return_type("cummin")


def _cummaxmin_fwd(ctx, a, axis, is_max):
    if a.ndim == 0:
        idx = np.zeros((), np.int64)
        ctx.indices = idx
        return a.copy(), idx
    moved = np.moveaxis(a, axis, -1)
    n = moved.shape[-1]
    positions = np.arange(n)
    if a.dtype.kind == "f":
        isn = np.isnan(moved)
        seen_nan = np.logical_or.accumulate(isn, axis=-1)
        fill = -np.inf if is_max else np.inf
        clean = np.where(isn, fill, moved)
    else:
        isn = seen_nan = np.zeros(moved.shape, bool)
        clean = moved
    running = (np.maximum if is_max else np.minimum).accumulate(clean, axis=-1)
    # an element takes over when it is NaN, or (no NaN so far) it reaches the running extreme
    update = isn | (~seen_nan & (moved == running))
    idx = np.maximum.accumulate(np.where(update, positions, -1), axis=-1)
    values = np.take_along_axis(moved, idx, axis=-1)  # (the element itself: a -0.0 tie's sign, a NaN's bits)
    values = np.moveaxis(values, -1, axis)
    idx = np.moveaxis(idx.astype(np.int64), -1, axis)
    ctx.indices = idx
    return c_order(values), c_order(idx)


def _cummaxmin_back(ctx, grad):
    # cummaxmin_backward: the gradients added where each running extreme came from
    shape = ctx.input_shape
    if grad.numel() == 0:
        return grad
    from ._op import FUNCTIONS
    zeros = Tensor._make(np.zeros(shape, grad.dtype.numpy))
    return FUNCTIONS["scatter_add"](zeros, ctx.axis, Tensor._make(ctx.indices), grad)


# cummaxmin_backward(grad, self, indices, dim) saves self (its version is checked)
_cummax = Op("CummaxBackward0", _cummaxmin_fwd, outputs=1, saves=("self",),
             keeps={"indices": "indices"}, kept_outputs={"indices": 1})
_cummin = Op("CumminBackward0", _cummaxmin_fwd, outputs=1, saves=("self",),
             keeps={"indices": "indices"}, kept_outputs={"indices": 1})
_cummax.derivative(_cummaxmin_back)
_cummin.derivative(_cummaxmin_back)


def _cummaxmin_dtype(i, result, out):
    from ..tensor import _scalar_name

    return RuntimeError(f"expected scalar_type {_scalar_name(result.dtype)} but found {_scalar_name(out.dtype)}")


def _cummaxmin(op, fname, is_max, result_type):
    def fn(input, dim=_REQUIRED, *, out=None):
        _require_dim(fname, dim)
        _check_int_dim(fname, dim)
        if input.ndim == 0 and int(dim) not in (-1, 0):
            raise IndexError(f"{fname}(): Expected reduction dim -1 or 0 for scalar but got {int(dim)}")
        if input._data.size == 0 and not -input.ndim <= int(dim) < input.ndim:
            axis = 0  # (ATen's cummax returns an empty tensor before it reads the dim)
        else:
            axis = _wrap_dim(dim, input.ndim)
        vals, idx = op.apply((input,), (input._data,), {"axis": axis, "is_max": is_max})
        result = result_type(vals, idx)
        return result if out is None else write_outs(fname, result, out, _cummaxmin_dtype)

    fn.__name__ = fname
    fn.__doc__ = f"Running {'maximum' if is_max else 'minimum'} along ``dim`` and where it was found: (values, indices)."
    return export(method=True)(fn)


cummax = _cummaxmin(_cummax, "cummax", True, CummaxResult)
cummin = _cummaxmin(_cummin, "cummin", False, CumminResult)


def _logcumsumexp_fwd(ctx, a, axis):
    if a.ndim == 0:
        return a.copy()
    if a.dtype in (np.float32, np.float16):
        return c_order(_logcumsumexp_acc(a, axis))
    with np.errstate(all="ignore"):
        out = np.logaddexp.accumulate(a, axis=axis)
    return c_order(out + 0.0)  # PyTorch's scan starts from -inf: log(0 + e^-0.0) is +0.0


def _logcumsumexp_acc(a, axis):
    """The kernel's scan for float32 (float16): the running value in its accumulate type, double
    (float), each output rounded from it; a step is log1p(exp(min - max)) + max of the element
    and the running value (the element itself where both are the same infinity; a NaN running
    value stays)."""
    acc = np.float64 if a.dtype == np.float32 else np.float32
    w = np.moveaxis(a, axis, 0).astype(acc)
    out = np.empty(w.shape, a.dtype)
    cum = np.full(w.shape[1:], -np.inf, acc)
    with np.errstate(all="ignore"):
        for i in range(w.shape[0]):
            x = w[i]
            lo, hi = np.minimum(x, cum), np.maximum(x, cum)
            nan = np.isnan(cum)
            lo, hi = np.where(nan, cum, lo), np.where(nan, cum, hi)
            d = lo - hi
            if acc is np.float32:  # std::exp and std::log1p of float: libm's (numpy's float32 log1p is libm's)
                step = np.log1p(_vec_math.libm_float(np.exp, d)) + hi
            else:
                step = np.log1p(np.exp(d)) + hi
            cum = np.where((lo != hi) | np.isfinite(lo), step, x)
            out[i] = cum
    return np.moveaxis(out, 0, axis)


_logcumsumexp = Op("LogcumsumexpBackward0", _logcumsumexp_fwd, saves=("self", "result"))


def _reverse_logcumsumexp(x, dim):
    return _reverse(logcumsumexp(_reverse(x, dim), dim), dim)


@_logcumsumexp.derivative
@_quiet
def _(ctx, grad):
    # logcumsumexp_backward: positive and negative parts of the gradient in log space
    if grad.ndim == 0 or grad.numel() == 0:
        return grad
    x, result, d = ctx.self, ctx.result, ctx.axis
    lowest = float(np.finfo(grad.dtype.numpy).min)
    log_abs_grad = grad.abs().log()
    log_grad_positive = where(grad > 0, log_abs_grad, lowest)
    log_grad_negative = where(grad < 0, log_abs_grad, lowest)
    output_pos = (_reverse_logcumsumexp(log_grad_positive - result, d) + x).exp()
    output_neg = (_reverse_logcumsumexp(log_grad_negative - result, d) + x).exp()
    return output_pos - output_neg


@export(method=True)
def logcumsumexp(input, dim=_REQUIRED, *, out=None):
    """log(cumsum(exp(input), dim)), computed stably."""
    _require_dim("logcumsumexp", dim)
    _check_int_dim("logcumsumexp", dim)
    axis = _wrap_dim(dim, input.ndim)  # (the dim is checked before the dtype)
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"logcumsumexp_out_cpu" not implemented for \'{_scalar_name(input.dtype)}\'')
    if out is not None and out.dtype is not input.dtype:  # (logcumsumexp_out's check_scalar_type, first)
        raise RuntimeError(f"expected scalar_type {_scalar_name(input.dtype)} but found {_scalar_name(out.dtype)}")
    return finish_out("logcumsumexp", _logcumsumexp.apply((input,), (input._data,), {"axis": axis}), out)


# ---------------------------------------------------------------------------
# diff: cumsum's inverse, composed as ATen composes it
# ---------------------------------------------------------------------------

def _diff_compatible(input, other, dim):
    if other is None:
        return
    d = _wrap_dim(dim, input.ndim)
    if other.ndim != input.ndim:
        raise RuntimeError("diff expects prepend or append to be the same dimension as input")
    for i, (s, o) in enumerate(zip(input.shape, other.shape)):
        if i != d and s != o:
            raise RuntimeError("diff expects the shape of tensor to prepend or append to match that of input except "
                               f"along the differencing dimension; input.size({i}) = {s}, but got tensor.size({i}) = {o}")


@export(method=True)
def diff(input, n=1, dim=-1, prepend=None, append=None, *, out=None):
    """n times ``narrow(a, dim, 1, len - 1) - narrow(a, dim, 0, len - 1)`` (logical_xor for bool: SubBackward0
    over two SliceBackward0), after cat(prepend, input, append); n = 0 is zeros_like(input).copy_(input),
    or with out= (diff_out's own path, prepend and append unread): out resized to input's shape, its dtype
    checked, then ``out.copy_(input)`` (copy_'s checks and its CopyBackwards: no refusal of out=)."""
    if input.ndim < 1:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    _diff_compatible(input, prepend, dim)
    _diff_compatible(input, append, dim)
    if n == 0:
        if out is None:
            from .factories import zeros_like
            return zeros_like(input).copy_(input)
        from ._outs import _resize_out, warn_resized
        if tuple(out.shape) != tuple(input.shape):
            if out._data.size:
                warn_resized(out.shape, input.shape)
            _resize_out(out, np.empty(input._data.shape, out._data.dtype))  # (resize_output: contiguous)
            out._vc[0] += 1  # (this resize counts in out's version, as ndtr's or a kernel's does not)
        if out.dtype is not input.dtype:
            raise RuntimeError(f"expected scalar_type {_scalar_name(input.dtype)} but found {_scalar_name(out.dtype)}")
        return out.copy_(input)
    return _diff_n(input, n, dim, prepend, append, out=out)


@with_out("diff", None)
def _diff_n(input, n, dim, prepend, append):
    a = input
    if prepend is not None or append is not None:
        from .joining import cat
        a = cat([t for t in (prepend, input, append) if t is not None], dim)
    size = a.size(dim)
    out_len, n = size - 1, min(n, size)
    for _ in range(n):
        # (the right operand first: GCC evaluates ATen's ``narrow(.., 1, ..) - narrow(.., 0, ..)``
        # right to left, so the engine runs the [1:] slice's backward first, and a create_graph
        # gradient adds it first)
        lo = a.narrow(dim, 0, out_len)
        hi = a.narrow(dim, 1, out_len)
        a = hi.logical_xor(lo) if a.dtype is dtypes.bool_ else hi - lo
        out_len -= 1
    return a
