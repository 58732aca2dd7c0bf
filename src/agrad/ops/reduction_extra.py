"""More reductions: prod, var/std (and var_mean/std_mean), norm, amax/amin,
logsumexp, cumsum/cumprod, median/nanmedian, kthvalue and mode.

Each differentiable op is one entry: numpy forward, PyTorch's node name, what it
saves, and its derivative written with agrad ops (derivatives.yaml and
FunctionsManual's formulas), so ``create_graph=True`` gives higher derivatives.
"""

from __future__ import annotations

import collections
import math
import numbers
import warnings

import numpy as np

from .. import dtypes
from ..tensor import Tensor, _scalar_name, _wrap_dim
from ._op import Op, export, finish_out, inplace, method
from .pointwise import where
from .pointwise_extra import isnan, sgn
from .reduction import _even_split, _select_back, dims, select_along


def _return_type(name):
    t = collections.namedtuple(name, ["values", "indices"])
    t.__module__ = "torch.return_types"
    return t


MedianResult = _return_type("median")
NanmedianResult = _return_type("nanmedian")
KthvalueResult = _return_type("kthvalue")
ModeResult = _return_type("mode")


def _quiet(fn):
    """A backward formula run without numpy's divide-by-zero warnings (torch gives none)."""

    def formula(ctx, grad):
        with np.errstate(all="ignore"):
            return fn(ctx, grad)

    formula.__name__ = fn.__name__
    return formula


def _restore(t, shape, axes, keepdim):
    """restore_reduced_dims: a reduced tensor reshaped to keep size-1 dims (no expand)."""
    if keepdim or not len(shape):
        return t
    kept = list(shape)
    for a in axes:
        kept[a] = 1
    return t.reshape(kept)


def _reverse(t, dim):
    """t reversed along dim, as differentiable indexing (PyTorch uses flip)."""
    n = t.shape[dim]
    index = Tensor._make(np.arange(n - 1, -1, -1, dtype=np.int64))
    return t[(slice(None),) * dim + (index,)]


def _reversed_cumsum(w, dim):
    return _reverse(cumsum(_reverse(w, dim), dim), dim)


def _check_nonempty_dim(fname, a, d):
    if a.ndim and a.shape[d] == 0:
        raise IndexError(f"{fname}(): Expected reduction dim {d} to have non-zero size.")


def _axes(dim, ndim):
    """dims(dim, ndim), but () for a 0-d tensor (its only dim, 0 or -1, reduces nothing)."""
    axes = dims(dim, ndim)
    return () if ndim == 0 else axes


_REQUIRED = object()


def _require_dim(fname, dim):
    if dim is _REQUIRED:
        raise TypeError(f'{fname}() missing 1 required positional arguments: "dim"')


def _check_int_dim(fname, dim):
    if not isinstance(dim, (numbers.Integral, np.integer)) or isinstance(dim, bool):
        raise TypeError(f"{fname}(): argument 'dim' must be int, not {type(dim).__name__}")


# ---------------------------------------------------------------------------
# prod
# ---------------------------------------------------------------------------

def _acc_dtype(input, dtype):
    if dtype is not None:
        return dtypes.lookup(dtype)
    return input.dtype if input.dtype.is_floating_point else dtypes.int64


def _prod_fwd(ctx, a, axis, keepdim, dtype):
    a = a.astype(dtype, copy=False)
    if a.ndim == 0:
        return a.copy()
    with np.errstate(all="ignore"):
        return np.asarray(np.prod(a, axis=axis, keepdims=keepdim))


_prod0 = Op("ProdBackward0", _prod_fwd, saves=("self", "result"))
_prod1 = Op("ProdBackward1", _prod_fwd, saves=("self", "result"))


def _prod_safe_zeros_backward(grad, inp, dim):
    """The product of all the other elements, by exclusive cumulative products
    from both ends: exact when the input has zeros."""
    n = inp.shape[dim] if inp.ndim else 1
    if inp.numel() == 0:
        return grad.expand(inp.shape)
    if n == 1:
        return grad
    ones_shape = list(inp.shape)
    ones_shape[dim] = 1
    ones = Tensor._make(np.ones(ones_shape, grad.dtype.numpy))
    from .shape import cat
    exclusive_normal = cumprod(cat([ones, inp.narrow(dim, 0, n - 1)], dim), dim)
    narrow_reverse = _reverse(inp.narrow(dim, 1, n - 1), dim)
    exclusive_reverse = _reverse(cumprod(cat([ones, narrow_reverse], dim), dim), dim)
    return grad * (exclusive_normal * exclusive_reverse)


def _as_grad_dtype(x, grad):
    return x if x.dtype is grad.dtype else x.to(grad.dtype)


@_prod0.derivative
@_quiet
def _(ctx, grad):
    x = _as_grad_dtype(ctx.self, grad)
    if x.ndim == 0:
        return grad
    if not (x._data == 0).any():
        return grad * (ctx.result / x)
    return _prod_safe_zeros_backward(grad, x.reshape(-1), 0).reshape(x.shape)


@_prod1.derivative
@_quiet
def _(ctx, grad):
    x = _as_grad_dtype(ctx.self, grad)
    if x.ndim == 0:
        return grad
    d = ctx.axis
    result = ctx.result
    if not ctx.keepdim:
        grad = grad.unsqueeze(d)
        result = result.unsqueeze(d)
    if not (x._data == 0).any():
        return grad * (result / x)
    return _prod_safe_zeros_backward(grad, x, d)


@export(method=True)
def prod(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """Product of all elements, or along ``dim`` (an int)."""
    d = _acc_dtype(input, dtype)
    if dim is None:
        return finish_out("prod", _prod0.apply((input,), (input._data,),
                                                {"axis": None, "keepdim": False, "dtype": d.numpy}), out)
    if isinstance(dim, (list, tuple)):
        raise TypeError(
            "prod() received an invalid combination of arguments - got (Tensor, tuple), but expected one of:\n"
            " * (Tensor input, *, torch.dtype dtype = None)\n"
            " * (Tensor input, int dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None)\n")
    axis = _wrap_dim(dim, input.ndim)
    return finish_out("prod", _prod1.apply((input,), (input._data,),
                                            {"axis": axis, "keepdim": keepdim, "dtype": d.numpy}), out)


# ---------------------------------------------------------------------------
# var / std, var_mean / std_mean
# ---------------------------------------------------------------------------

def _var_args(fname, input, dim, unbiased, keepdim, correction):
    """(axes, full, n, correction, keepdim) from PyTorch's overloads:
    f(x, dim=None, *, correction=1, keepdim=False), f(x, dim, unbiased, keepdim), f(x, unbiased)."""
    if not input.dtype.is_floating_point:
        raise RuntimeError("std and var only support floating point and complex dtypes")
    if isinstance(dim, bool):
        unbiased, dim = dim, None
    if unbiased is not None and correction is not None:
        raise TypeError(f"{fname}(): takes either 'unbiased' or 'correction', not both")
    if correction is None:
        correction = 1 if unbiased is None or unbiased else 0
    full = dim is None
    if full:
        axes = tuple(range(input.ndim))
    elif isinstance(dim, (list, tuple)) and len(dim) == 0:
        axes = tuple(range(input.ndim))  # reduces everything; the backward counts it as size 1
    else:
        axes = _axes(dim, input.ndim)
    if full or (isinstance(dim, (list, tuple)) and len(dim) == 0):
        n = input.numel() if full else 1
    else:
        n = 1
        for a in axes:
            n *= input.shape[a]
    return axes, full, n, correction, bool(keepdim)


def _var_fwd(a, axes, correction, keepdim, fname):
    work = a.astype(np.float64) if a.dtype != np.float64 else a
    count = 1
    for ax in axes:
        count *= a.shape[ax]
    if a.ndim == 0:
        count = 1
    if count - correction <= 0:
        warnings.warn(
            f"{fname}(): degrees of freedom is <= 0. Correction should be strictly less than the reduction factor "
            "(input numel divided by output numel).", UserWarning, stacklevel=5)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mean = np.mean(work, axis=axes, keepdims=True)
        dev = work - mean
        m2 = np.sum(dev * dev, axis=axes, keepdims=keepdim)
        var = m2 / max(count - correction, 0)
        mean = mean if keepdim else np.squeeze(mean, axis=axes) if axes else mean.reshape(())
    return np.asarray(var).astype(a.dtype, copy=False), np.asarray(mean).astype(a.dtype, copy=False)


def _var_backward(grad, x, ctx):
    """var_backward: 2 / (N - correction) * grad * (x - mean)."""
    correction = ctx.correction
    if x.ndim == 0 or ctx.full:
        dof = x.numel() - correction
        if dof <= 0:
            return grad * where(x == x.mean(), float("nan"), float("inf"))
        return (2.0 / dof) * grad * (x - x.mean())
    if not ctx.keepdim and x.ndim > 1:
        grad = _restore(grad, x.shape, ctx.axes, False)
    dof = ctx.n - correction
    factor = 2.0 / dof if dof != 0 else float("inf")
    return factor * grad * (x - x.mean(ctx.axes, keepdim=True))


def _std_backward(grad, x, result, ctx):
    grad_var = (grad / (result * 2)).masked_fill(result == 0, 0)
    return _var_backward(grad_var, x, ctx)


def _mean_backward(grad, x, ctx):
    if ctx.full or not len(x.shape):
        return grad.expand(x.shape) / x.numel() if x.numel() else grad.expand(x.shape)
    n = 1
    for a in ctx.axes:
        n *= x.shape[a]
    return _restore(grad, x.shape, ctx.axes, ctx.keepdim).expand(x.shape) / n


_var = Op("VarBackward0", lambda ctx, a, axes, correction, keepdim, full, n, fname:
          _var_fwd(a, axes, correction, keepdim, fname)[0], saves=("self",))
_std = Op("StdBackward0", lambda ctx, a, axes, correction, keepdim, full, n, fname:
          _sqrt(_var_fwd(a, axes, correction, keepdim, fname)[0]), saves=("self", "result"))
_var_mean = Op("VarMeanBackward0", lambda ctx, a, axes, correction, keepdim, full, n, fname:
               _var_fwd(a, axes, correction, keepdim, fname), saves=("self",), outputs=None, multi_grad=True)
_std_mean = Op("StdMeanBackward0", lambda ctx, a, axes, correction, keepdim, full, n, fname:
               _std_pair(_var_fwd(a, axes, correction, keepdim, fname)), saves=("self", "result"), outputs=None,
               multi_grad=True)


def _sqrt(a):
    with np.errstate(all="ignore"):
        return np.sqrt(a)


def _std_pair(pair):
    return _sqrt(pair[0]), pair[1]


@_var.derivative
@_quiet
def _(ctx, grad):
    return _var_backward(grad, ctx.self, ctx)


@_std.derivative
@_quiet
def _(ctx, grad):
    return _std_backward(grad, ctx.self, ctx.result, ctx)


@_var_mean.derivative
@_quiet
def _(ctx, grads):
    x = ctx.self
    return _var_backward(grads[0], x, ctx) + _mean_backward(grads[1], x, ctx)


@_std_mean.derivative
@_quiet
def _(ctx, grads):
    x = ctx.self
    return _std_backward(grads[0], x, ctx.result, ctx) + _mean_backward(grads[1], x, ctx)


def _var_family(op, fname):
    def fn(input, dim=None, unbiased=None, keepdim=False, *, correction=None, out=None):
        axes, full, n, corr, keep = _var_args(fname, input, dim, unbiased, keepdim, correction)
        result = op.apply((input,), (input._data,), {"axes": axes, "correction": corr, "keepdim": keep,
                                                     "full": full, "n": n, "fname": fname})
        return result if isinstance(result, tuple) else finish_out(fname, result, out)

    fn.__name__ = fname
    fn.__doc__ = (f"{fname}(input, dim=None, *, correction=1, keepdim=False); also "
                  f"{fname}(input, dim, unbiased, keepdim) and {fname}(input, unbiased).")
    return fn


var = export(method=True)(_var_family(_var, "var"))
std = export(method=True)(_var_family(_std, "std"))
var_mean = export()(_var_family(_var_mean, "var_mean"))
std_mean = export()(_var_family(_std_mean, "std_mean"))


# ---------------------------------------------------------------------------
# vector norm: torch.norm, Tensor.norm, torch.linalg.vector_norm
# ---------------------------------------------------------------------------

def _vector_norm_fwd(ctx, a, ord, axes, keepdim, dtype):
    x = np.abs(a.astype(dtype, copy=False))
    work = x.astype(np.float64)
    with np.errstate(all="ignore"):
        if ord == math.inf:
            r = np.max(work, axis=axes, keepdims=keepdim)
        elif ord == -math.inf:
            r = np.min(work, axis=axes, keepdims=keepdim)
        elif ord == 0:
            r = np.sum(work != 0, axis=axes, keepdims=keepdim)
        elif ord == 1:
            r = np.sum(work, axis=axes, keepdims=keepdim)
        elif ord == 2:
            r = np.sqrt(np.sum(work * work, axis=axes, keepdims=keepdim))
        else:
            r = np.sum(work ** ord, axis=axes, keepdims=keepdim) ** (1.0 / ord)
    return np.asarray(r).astype(dtype, copy=False)


_vector_norm = Op("LinalgVectorNormBackward0", _vector_norm_fwd, saves=("self", "result"))


@_vector_norm.derivative
@_quiet
def _(ctx, grad):
    x = _as_grad_dtype(ctx.self, grad)
    p = float(ctx.ord)
    norm = ctx.result
    axes = ctx.axes
    if not ctx.keepdim and x.ndim != 0:
        grad = _restore(grad, x.shape, axes, False)
        norm = _restore(norm, x.shape, axes, False)
    return norm_backward(grad, x, p, norm, axes)


@export("vector_norm", linalg=True, torch=False)
def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    """torch.linalg.vector_norm: (sum |x|^ord)^(1/ord) over ``dim`` (all by default)."""
    if not x.dtype.is_floating_point:
        raise RuntimeError(
            f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got {_scalar_name(x.dtype)}")
    if isinstance(ord, bool) or not isinstance(ord, numbers.Number):
        raise TypeError(f"linalg_vector_norm(): argument 'ord' must be Number, not {type(ord).__name__}")
    d = x.dtype if dtype is None else dtypes.lookup(dtype)
    if dim is None or (isinstance(dim, (list, tuple)) and len(dim) == 0):
        axes = tuple(range(x.ndim))
    else:
        axes = _axes(dim, x.ndim)
    if x.numel() == 0 and (ord < 0 or math.isinf(ord)):
        raise RuntimeError(
            f"linalg.vector_norm cannot compute the {float(ord):g} norm on an empty tensor because the operation "
            "does not have an identity")
    result = _vector_norm.apply((x,), (x._data,), {"ord": ord, "axes": axes, "keepdim": bool(keepdim),
                                                   "dtype": d.numpy})
    return finish_out("linalg_vector_norm", result, out)


@export(method=True)
def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    """torch.norm: the vector p-norm (``'fro'`` is the 2-norm) over ``dim`` (all by default)."""
    if isinstance(dim, numbers.Integral):
        dim = [dim]
    if isinstance(p, str):
        if p == "fro" and (dim is None or len(dim) <= 2):
            return vector_norm(input, 2, dim, keepdim, dtype=dtype, out=out)
        if input.ndim < 2:
            raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
        raise NotImplementedError(f"agrad: matrix norm ord={p!r} (torch.linalg.matrix_norm) is not supported")
    return vector_norm(input, 2.0 if p is None else p, dim, keepdim, dtype=dtype, out=out)


# ---------------------------------------------------------------------------
# amax / amin: ties share the gradient evenly
# ---------------------------------------------------------------------------

def _amax_fwd(ctx, a, axes, keepdim, np_fn):
    return np.asarray(np_fn(a, axis=axes, keepdims=keepdim))


def _amax_back(ctx, grad):
    x = ctx.self
    g = _restore(grad, x.shape, ctx.axes, ctx.keepdim)
    mask = _restore(ctx.result, x.shape, ctx.axes, ctx.keepdim) == x
    return (g / mask.sum(ctx.axes, keepdim=True)) * mask


_amax = Op("AmaxBackward0", _amax_fwd, saves=("self", "result"))
_amin = Op("AminBackward0", _amax_fwd, saves=("self", "result"))
_amax.derivative(_quiet(_amax_back))
_amin.derivative(_quiet(_amax_back))


def _amax_family(op, fname, np_fn):
    def fn(input, dim=(), keepdim=False, *, out=None):
        if dim is None or (isinstance(dim, (list, tuple)) and len(dim) == 0):
            axes = tuple(range(input.ndim))
            if input.numel() == 0:
                raise RuntimeError(
                    f"{fname}(): Expected reduction dim to be specified for input.numel() == 0. "
                    "Specify the reduction dim with the 'dim' argument.")
        else:
            axes = _axes(dim, input.ndim)
            for a in axes:
                _check_nonempty_dim(fname, input._data, a)
        return finish_out(fname, op.apply((input,), (input._data,),
                                          {"axes": axes, "keepdim": bool(keepdim), "np_fn": np_fn}), out)

    fn.__name__ = fname
    fn.__doc__ = f"{fname} over ``dim`` (all dims by default); equal extremes share the gradient."
    return export(method=True)(fn)


amax = _amax_family(_amax, "amax", np.amax)
amin = _amax_family(_amin, "amin", np.amin)


# ---------------------------------------------------------------------------
# logsumexp
# ---------------------------------------------------------------------------

def _logsumexp_fwd(ctx, a, axes, keepdim):
    if a.size == 0:
        return np.log(np.sum(np.exp(a), axis=axes, keepdims=keepdim))
    with np.errstate(all="ignore"):
        m = np.amax(a, axis=axes, keepdims=True)
        m = np.where(np.isinf(m), np.zeros((), a.dtype), m)
        out = np.log(np.sum(np.exp(a - m), axis=axes, keepdims=True)) + m
    if not keepdim:
        out = out.reshape([s for i, s in enumerate(a.shape) if i not in axes])
    return out.astype(a.dtype, copy=False)


_logsumexp = Op("LogsumexpBackward0", _logsumexp_fwd, saves=("self", "result"))


@_logsumexp.derivative
@_quiet
def _(ctx, grad):
    x = ctx.self
    result = ctx.result
    if not ctx.keepdim and x.ndim != 0:
        grad = _restore(grad, x.shape, ctx.axes, False)
        result = _restore(result, x.shape, ctx.axes, False)
    return grad * (x - result).exp()


@export(method=True)
def logsumexp(input, dim=_REQUIRED, keepdim=False, *, out=None):
    """log(sum(exp(input), dim)), computed stably."""
    _require_dim("logsumexp", dim)
    axes = _axes(dim, input.ndim)
    data = input._data
    if data.dtype.kind in "biu":
        data = data.astype(dtypes.get_default_dtype().numpy)
    return finish_out("logsumexp", _logsumexp.apply((input,), (data,), {"axes": axes, "keepdim": bool(keepdim)}),
                      out)


# ---------------------------------------------------------------------------
# cumsum / cumprod
# ---------------------------------------------------------------------------

def _cum_fwd(ctx, a, axis, dtype, np_fn):
    a = a.astype(dtype, copy=False)
    if a.ndim == 0:
        return a.copy()
    with np.errstate(all="ignore"):
        return np_fn(a, axis=axis)


_cumsum = Op("CumsumBackward0", _cum_fwd)
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
    # With zeros: dy_j/dx_k = prod_{i <= j, i != k} x_i, built slice by slice (PyTorch's
    # O(n^2) formula, the one that is itself differentiable).
    from .shape import cat, stack
    ones_shape = list(x.shape)
    ones_shape[d] = 1
    ones = Tensor._make(np.ones(ones_shape, x.dtype.numpy))
    slices = []
    for k in range(n):
        if k == 0:
            omitted = cat([ones, cumprod(x.narrow(d, 1, n - 1), d)], d)
        elif k == n - 1:
            omitted = prod(x.narrow(d, 0, k), d, True)
        else:
            until_k = prod(x.narrow(d, 0, k), d, True)
            from_k_plus_1 = cumprod(x.narrow(d, k + 1, n - k - 1), d)
            omitted = cat([until_k, until_k.expand_as(from_k_plus_1) * from_k_plus_1], d)
        slices.append((grad.narrow(d, k, n - k) * omitted).sum(d))
    return stack(slices, d)


def _cumulative(op, fname, np_fn):
    def fn(input, dim=_REQUIRED, *, dtype=None, out=None):
        _require_dim(fname, dim)
        _check_int_dim(fname, dim)
        axis = _wrap_dim(dim, input.ndim)
        d = _acc_dtype(input, dtype)
        return finish_out(fname, op.apply((input,), (input._data,), {"axis": axis, "dtype": d.numpy,
                                                                     "np_fn": np_fn}), out)

    fn.__name__ = fname
    fn.__doc__ = f"Cumulative {fname[3:]} along ``dim``."
    export(fname, method=True)(fn)

    in_place = inplace(fn)

    def fn_(self, dim=_REQUIRED, *, dtype=None):
        if dtype is not None and dtypes.lookup(dtype) is not self.dtype:
            from .pointwise_extra import _C_NAMES
            raise RuntimeError(
                f"Bad in-place call: input tensor dtype {_C_NAMES[self.dtype.name]} and output tensor dtype "
                f"{_C_NAMES[dtypes.lookup(dtype).name]} should match")
        return in_place(self, dim, dtype=dtype)

    fn_.__name__ = fname + "_"
    method(fname + "_")(fn_)
    return fn


cumsum = _cumulative(_cumsum, "cumsum", np.cumsum)
cumprod = _cumulative(_cumprod, "cumprod", np.cumprod)


# ---------------------------------------------------------------------------
# median / nanmedian / kthvalue / mode
# ---------------------------------------------------------------------------

def _median_full_fwd(ctx, a, ignore_nan):
    flat = a.reshape(-1)
    if flat.size == 0:
        return np.asarray(np.nan, a.dtype) if a.dtype.kind == "f" else np.zeros((), a.dtype)
    if a.dtype.kind == "f":
        nan = np.isnan(flat)
        if nan.any():
            if not ignore_nan:
                return np.asarray(np.nan, a.dtype)
            flat = flat[~nan]
            if flat.size == 0:
                return np.asarray(np.nan, a.dtype)
    s = np.sort(flat)
    return np.asarray(s[(s.size - 1) // 2])


_median0 = Op("MedianBackward0", _median_full_fwd, saves=("self", "result"))
_nanmedian0 = Op("NanmedianBackward0", _median_full_fwd, saves=("self", "result"))
_median0.derivative(_even_split)
_nanmedian0.derivative(_even_split)


def _median_dim_fwd(ctx, a, dim, keepdim, ignore_nan, fname):
    _check_nonempty_dim(fname, a, dim)
    if a.ndim == 0:
        idx = np.zeros((), np.int64)
        ctx.indices = idx
        return a.copy(), idx
    moved = np.moveaxis(a, dim, -1)
    n = moved.shape[-1]
    order = np.argsort(moved, axis=-1, kind="stable")  # ties by index; NaN last
    if a.dtype.kind == "f":
        nan = np.isnan(moved)
        n_nan = nan.sum(-1)
    else:
        nan = None
        n_nan = np.zeros(moved.shape[:-1], np.int64)
    if ignore_nan:
        m = n - n_nan
        pos = np.where(m > 0, (m - 1) // 2, 0)
    else:
        pos = np.full(moved.shape[:-1], (n - 1) // 2)
    idx = np.take_along_axis(order, pos[..., None], axis=-1)[..., 0]
    if not ignore_nan and nan is not None:
        idx = np.where(n_nan > 0, np.argmax(nan, axis=-1), idx)
    return select_along(ctx, a, np.expand_dims(idx, dim), dim, keepdim)


_median1 = Op("MedianBackward1", _median_dim_fwd, outputs=1)
_nanmedian1 = Op("NanmedianBackward1", _median_dim_fwd, outputs=1)
_median1.derivative(_select_back)
_nanmedian1.derivative(_select_back)


def _median_family(full_op, dim_op, fname, ignore_nan, result_type):
    def fn(input, dim=None, keepdim=False, *, out=None):
        if dim is None:
            return full_op.apply((input,), (input._data,), {"ignore_nan": ignore_nan})
        _check_int_dim(fname, dim)
        d = _wrap_dim(dim, input.ndim)
        vals, idx = dim_op.apply((input,), (input._data,), {"dim": d, "keepdim": bool(keepdim),
                                                             "ignore_nan": ignore_nan, "fname": fname})
        return result_type(vals, idx)

    fn.__name__ = fname
    fn.__doc__ = (f"{fname}(input): the lower median (gradient shared by equal elements); "
                  f"{fname}(input, dim, keepdim): (values, indices).")
    return export(method=True)(fn)


median = _median_family(_median0, _median1, "median", False, MedianResult)
nanmedian = _median_family(_nanmedian0, _nanmedian1, "nanmedian", True, NanmedianResult)


def _gt_or_nan(x, y):
    return (x != x and y == y) or x > y


def _quick_select(values, k):
    """PyTorch's CPU quickselect (Sedgewick), to pick the same index among ties."""
    arr = list(values)
    ind = list(range(len(arr)))

    def swap(i, j):
        arr[i], arr[j] = arr[j], arr[i]
        ind[i], ind[j] = ind[j], ind[i]

    lo, hi = 0, len(arr) - 1
    while True:
        if hi <= lo:
            break
        if hi == lo + 1:
            if _gt_or_nan(arr[lo], arr[hi]):
                swap(lo, hi)
            break
        p = (lo + hi) >> 1
        swap(p, lo + 1)
        if _gt_or_nan(arr[lo + 1], arr[hi]):
            swap(lo + 1, hi)
        if _gt_or_nan(arr[lo], arr[hi]):
            swap(lo, hi)
        if _gt_or_nan(arr[lo + 1], arr[lo]):
            swap(lo + 1, lo)
        i, j = lo + 1, hi
        piv = arr[lo]
        while True:
            i += 1
            while _gt_or_nan(piv, arr[i]):
                i += 1
            j -= 1
            while _gt_or_nan(arr[j], piv):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1
    return ind[k]


def _kthvalue_fwd(ctx, a, k, dim, keepdim):
    if a.ndim == 0:
        idx = np.zeros((), np.int64)
        ctx.indices = idx
        return a.copy(), idx
    moved = np.moveaxis(a, dim, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    order = np.argsort(rows, axis=-1, kind="stable")
    idx = order[:, k - 1].copy()
    srt = np.take_along_axis(rows, order, axis=-1)
    for r in range(rows.shape[0]):
        row = srt[r]
        # only ties (or NaN) make the index depend on the algorithm
        if row.size > 1 and ((row[1:] == row[:-1]).any() or (row != row).any()):
            idx[r] = _quick_select(rows[r].tolist(), k - 1)
    return select_along(ctx, a, np.expand_dims(idx.reshape(moved.shape[:-1]), dim), dim, keepdim)


_kthvalue = Op("KthvalueBackward0", _kthvalue_fwd, outputs=1)
_kthvalue.derivative(_select_back)


@export(method=True)
def kthvalue(input, k, dim=-1, keepdim=False, *, out=None):
    """The k-th smallest element along ``dim``: (values, indices)."""
    _check_int_dim("kthvalue", dim)
    d = _wrap_dim(dim, input.ndim)
    _check_nonempty_dim("kthvalue", input._data, d)
    size = input.shape[d] if input.ndim else 1
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    vals, idx = _kthvalue.apply((input,), (input._data,), {"k": int(k), "dim": d, "keepdim": bool(keepdim)})
    return KthvalueResult(vals, idx)


def _mode_fwd(ctx, a, dim, keepdim):
    if a.ndim == 0:
        idx = np.zeros((), np.int64)
        ctx.indices = idx
        return a.copy(), idx
    moved = np.moveaxis(a, dim, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    idx = np.empty(rows.shape[0], np.int64)
    for r in range(rows.shape[0]):
        row = rows[r]
        values, counts = np.unique(row, return_counts=True)
        value = values[np.argmax(counts)]  # the smallest of the most frequent
        idx[r] = np.nonzero(row == value)[0][-1]  # its last occurrence
    return select_along(ctx, a, np.expand_dims(idx.reshape(moved.shape[:-1]), dim), dim, keepdim)


_mode = Op("ModeBackward0", _mode_fwd, outputs=1)
_mode.derivative(_select_back)


@export(method=True)
def mode(input, dim=-1, keepdim=False, *, out=None):
    """The most frequent value along ``dim`` (the smallest on ties) and its index: (values, indices)."""
    _check_int_dim("mode", dim)
    d = _wrap_dim(dim, input.ndim)
    _check_nonempty_dim("mode", input._data, d)
    vals, idx = _mode.apply((input,), (input._data,), {"dim": d, "keepdim": bool(keepdim)})
    return ModeResult(vals, idx)


# ---------------------------------------------------------------------------
# aminmax, cummax / cummin, logcumsumexp, dist
# ---------------------------------------------------------------------------

AminmaxResult = collections.namedtuple("aminmax", ["min", "max"])
AminmaxResult.__module__ = "torch.return_types"
CummaxResult = _return_type("cummax")
CumminResult = _return_type("cummin")


def _aminmax_fwd(ctx, a, axes, keepdim):
    if a.size == 0 or any(a.shape[ax] == 0 for ax in axes):
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
                           "identity.")
    lo = np.asarray(np.amin(a, axis=axes, keepdims=keepdim))
    hi = np.asarray(np.amax(a, axis=axes, keepdims=keepdim))
    # the formula compares the input with both extremes (constants: the comparison has no gradient)
    ctx.min_value = Tensor._make(lo.copy())
    ctx.max_value = Tensor._make(hi.copy())
    return lo, hi


_aminmax = Op("AminmaxBackward0", _aminmax_fwd, saves=("self",), outputs=None, multi_grad=True)


@_aminmax.derivative
@_quiet
def _(ctx, grads):
    # aminmax_backward: each extreme's gradient shared by the elements equal to it
    x = ctx.self
    axes, keepdim = ctx.axes, ctx.keepdim
    grad_self = None
    for g, extreme in zip(grads, (ctx.min_value, ctx.max_value)):
        mask = _restore(extreme, x.shape, axes, keepdim) == x
        part = (_restore(g, x.shape, axes, keepdim) / mask.sum(axes, keepdim=True)) * mask
        grad_self = part if grad_self is None else grad_self + part
    return grad_self


@export(method=True)
def aminmax(input, *, dim=None, keepdim=False, out=None):
    """(min, max) over ``dim`` (all by default), in one pass."""
    axes = tuple(range(input.ndim)) if dim is None else _axes(dim, input.ndim)
    keep = bool(keepdim)
    lo, hi = _aminmax.apply((input,), (input._data,), {"axes": axes, "keepdim": keep})
    return AminmaxResult(lo, hi)


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
    values = np.where(seen_nan, np.asarray(np.nan, a.dtype), running) if a.dtype.kind == "f" else running
    values = np.moveaxis(values.astype(a.dtype, copy=False), -1, axis)
    idx = np.moveaxis(idx.astype(np.int64), -1, axis)
    ctx.indices = idx
    return np.ascontiguousarray(values), np.ascontiguousarray(idx)


def _cummaxmin_back(ctx, grad):
    # cummaxmin_backward: the gradients added where each running extreme came from
    shape = ctx.input_shape
    if not len(shape) or grad.numel() == 0:
        return grad
    from ._op import FUNCTIONS
    zeros = Tensor._make(np.zeros(shape, grad.dtype.numpy))
    return FUNCTIONS["scatter_add"](zeros, ctx.axis, Tensor._make(ctx.indices), grad)


_cummax = Op("CummaxBackward0", _cummaxmin_fwd, outputs=1)
_cummin = Op("CumminBackward0", _cummaxmin_fwd, outputs=1)
_cummax.derivative(_cummaxmin_back)
_cummin.derivative(_cummaxmin_back)


def _cummaxmin(op, fname, is_max, result_type):
    def fn(input, dim=_REQUIRED, *, out=None):
        _require_dim(fname, dim)
        _check_int_dim(fname, dim)
        axis = _wrap_dim(dim, input.ndim)
        vals, idx = op.apply((input,), (input._data,), {"axis": axis, "is_max": is_max})
        return result_type(vals, idx)

    fn.__name__ = fname
    fn.__doc__ = f"Running {'maximum' if is_max else 'minimum'} along ``dim`` and where it was found: (values, indices)."
    return export(method=True)(fn)


cummax = _cummaxmin(_cummax, "cummax", True, CummaxResult)
cummin = _cummaxmin(_cummin, "cummin", False, CumminResult)


def _logcumsumexp_fwd(ctx, a, axis):
    if a.ndim == 0:
        return a.copy()
    with np.errstate(all="ignore"):
        return np.logaddexp.accumulate(a, axis=axis)


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
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"logcumsumexp_out_cpu" not implemented for \'{_scalar_name(input.dtype)}\'')
    axis = _wrap_dim(dim, input.ndim)
    return finish_out("logcumsumexp", _logcumsumexp.apply((input,), (input._data,), {"axis": axis}), out)


def _dist_fwd(ctx, a, b, p):
    with np.errstate(all="ignore"):
        diff = a - b
    return _vector_norm_fwd(ctx, diff, float(p), tuple(range(diff.ndim)), False, diff.dtype)


_dist = Op("DistBackward0", _dist_fwd, inputs=("self", "other"), saves=("self", "other", "result"))


def norm_backward(grad, x, p, norm, axes):
    """PyTorch's norm_backward: d||x||_p / dx times ``grad``; ``grad`` and ``norm``
    are kept (broadcastable) along the reduced ``axes``."""
    p = float(p)
    if p == 0.0:
        return None
    if p == 1.0:
        return sgn(x) * grad
    if p == 2.0:
        return grad * (x / norm).masked_fill(norm == 0, 0)
    if math.isinf(p):
        x_abs = x.abs()
        mask = (x_abs == norm) | isnan(x_abs)
        return sgn(x) * ((grad / mask.sum(axes, keepdim=True)) * mask)
    if p < 1.0:
        return sgn(x) * x.abs().pow(p - 1).masked_fill(x == 0, 0) * grad * norm.pow(1 - p)
    if p < 2.0:
        return sgn(x) * x.abs().pow(p - 1) * (grad / norm.pow(p - 1)).masked_fill(norm == 0, 0)
    return x * x.abs().pow(p - 2) * (grad / norm.pow(p - 1)).masked_fill(norm == 0, 0)


@_dist.derivative
@_quiet
def _(ctx, grad):
    diff = ctx.self - ctx.other
    g = norm_backward(grad, diff, ctx.p, ctx.result, tuple(range(diff.ndim)))
    if g is None:
        # PyTorch negates the undefined p=0 gradient for `other` and fails
        raise RuntimeError("Expected a proper Tensor but got None (or an undefined Tensor in C++) for "
                           "argument #0 'self'")
    return g, -g


@export(method=True)
def dist(input, other, p=2):
    """The p-norm of input - other (broadcast)."""
    from .pointwise import operands
    ts, arrs = operands(input, other, "dist")
    if not arrs[0].dtype.kind == "f":
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. Got "
                           f"{_scalar_name(dtypes.from_numpy(arrs[0].dtype))} instead.")
    try:
        np.broadcast_shapes(arrs[0].shape, arrs[1].shape)
    except ValueError:
        from .pointwise import _mismatch_message
        raise RuntimeError(_mismatch_message(arrs[0].shape, arrs[1].shape)) from None
    return _dist.apply(ts, arrs, {"p": p})
