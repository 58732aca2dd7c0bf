"""Reductions: sum/nansum, max/min, argmax/argmin, all/any, count_nonzero, prod,
amax/amin and aminmax (mean and nanmean are in ``means.py``, var and std in ``variance.py``,
logsumexp in ``logsumexp.py``).

Each differentiable op is one entry: numpy forward, PyTorch's node name, what it
saves, and its derivative written with agrad ops (derivatives.yaml and
FunctionsManual's formulas), so ``create_graph=True`` gives higher derivatives.
"""

from __future__ import annotations

import numbers

import numpy as np

from .. import dtypes
from ..tensor import Tensor, _wrap_dim
from .._cascade import cascade_sum
from ._layout import c_order
from ._op import Op, export, finish_out, with_out, write_outs
from ._out_alias import reduced_into_input
from ._return_types import return_type
from .selection import masked_fill
from .views import _unsqueeze_fwd, expand_array

#: The (values, indices) pairs of max(dim) and min(dim): torch.return_types.max / .min
MinMax = {"max": return_type("max"), "min": return_type("min")}


def dims(dim, ndim):
    """A dim, tuple of dims or None as a sorted tuple of non-negative dims."""
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, (list, tuple)):
        wrapped = [_wrap_dim(d, ndim) for d in dim]
        seen = set()
        for d in wrapped:  # (ATen's dim_list_to_bitset: the first dim met a second time, in the order given)
            if d in seen:
                raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
            seen.add(d)
        return tuple(sorted(wrapped)) if ndim else ()
    d = _wrap_dim(dim, ndim)
    # a 0-d tensor takes dim 0 or -1 (as if it had one dimension) and has no axis to reduce
    return (d,) if ndim else ()


def expand_back(grad, shape, axes, keepdim):
    """A reduced gradient broadcast back to the input's ``shape``."""
    if not keepdim and shape:
        for a in sorted(axes):     # PyTorch's sum_backward: unsqueeze_multiple, one dim at a time
            grad = grad.unsqueeze(a)
    return grad.expand(shape)


def _expand_back_array(g, shape, axes, keepdim):
    """:func:`expand_back` on an array."""
    if not keepdim and shape:
        for a in sorted(axes):
            g = _unsqueeze_fwd(None, g, a)  # (unsqueeze's strides: a dim of one element of stride 0 kept)
    return _broadcast(g, shape)


def _broadcast(g, shape):
    """``expand``'s view (writable, PyTorch's strides: a leaf may take it as its ``.grad``, and a
    later backward then writes into the caller's ``gradient=``, as in PyTorch); lazy (dask) data
    is chunked along the new axes like the data."""
    return expand_array(g, shape)


# sum -------------------------------------------------------------------------

def _contiguous(r):
    """A reduction's result laid out row-major, as PyTorch allocates it (numpy's follows the
    input's layout: a later reshape would then copy where PyTorch views)."""
    return c_order(r)  # (numpy's keepdims may stride the kept dims of one element its own way)


def _sum_fwd(ctx, a, axes, keepdim, dtype):
    if dtype == a.dtype:
        out = cascade_sum(a, axes, keepdim)  # PyTorch's order of additions, where it is known
        if out is not None:
            return _contiguous(out)
    try:
        return _contiguous(_add_reduce(a, axis=axes, keepdims=keepdim, dtype=dtype))  # np.sum, no wrapper
    except TypeError:
        if type(a) is np.ndarray:
            raise
        return np.sum(a, axis=axes, keepdims=keepdim, dtype=dtype)  # lazy (dask): no ufunc.reduce


_add_reduce = np.add.reduce
_FLOAT32_64 = (np.dtype(np.float32), np.dtype(np.float64))
_ALL_DIMS = tuple(tuple(range(n)) for n in range(65))  # dims(None, ndim) by ndim, made once

_sum0 = Op("SumBackward0", _sum_fwd, jvp="linear")
_sum1 = Op("SumBackward1", _sum_fwd, jvp="linear")


@_sum0.derivative
def _(ctx, grad):
    return grad.expand(ctx.input_shape)


@_sum1.derivative
def _(ctx, grad):
    return expand_back(grad, ctx.input_shape, ctx.axes, ctx.keepdim)


_sum0.raw_derivative(lambda ctx, g: expand_array(g, ctx.input_shape))
_sum1.raw_derivative(lambda ctx, g: _expand_back_array(g, ctx.input_shape, ctx.axes, ctx.keepdim))


def _acc_dtype(input, dtype):
    if dtype is not None:
        return dtypes.lookup(dtype)
    return input.dtype if input.dtype.is_floating_point else dtypes.int64


#: dim not given (``x.sum()``: SumBackward0); an explicit ``dim=None`` is the dim overload
#: (SumBackward1, keepdim honoured), as PyTorch's argument parser picks it.
class _NoDim:
    def __repr__(self):
        return "None"  # as help() shows PyTorch's signature


_NO_DIM = _NoDim()


class _NoKeepdim:
    """keepdim not given: with dim not given either, giving it is a call PyTorch's parser refuses
    (``x.sum(keepdim=True)`` matches neither ``sum(*, dtype)`` nor ``sum(dim, keepdim, *, dtype)``)."""

    def __repr__(self):
        return "False"

    def __bool__(self):
        return False


_NO_KEEPDIM = _NoKeepdim()


def _given(dim):
    """The reduced dims as given (None: all of them)."""
    if dim is None or dim is _NO_DIM or isinstance(dim, (list, tuple)) and not dim:
        return None
    return list(dim) if isinstance(dim, (list, tuple)) else [dim]


def _no_dim_keepdim(fname, keepdim):
    if keepdim is not _NO_KEEPDIM:  # the parser layer (_argcheck) answers with PyTorch's TypeError
        raise TypeError(f"{fname}(): keepdim given without dim")


@export(method=True)
def sum(input, dim=_NO_DIM, keepdim=_NO_KEEPDIM, *, dtype=None, out=None):
    d = _acc_dtype(input, out.dtype if dtype is None and out is not None else dtype)  # (out's dtype is the sum's)
    if dim is _NO_DIM:
        _no_dim_keepdim("sum", keepdim)
        op, dim, keepdim = _sum0, None, False
    else:
        op, keepdim = _sum1, bool(keepdim)
        if isinstance(dim, (list, tuple)) and len(dim) == 0:
            dim = None
    axes = dims(dim, input.ndim)
    result = op.apply((input,), (input._data,), {"axes": axes, "keepdim": keepdim, "dtype": d.numpy})
    return finish_out("sum", reduced_into_input("sum", input, result, out, _given(dim)), out)


def _nansum_fwd(ctx, a, axes, keepdim, dtype, full):
    if dtype == a.dtype and type(a) is np.ndarray and a.dtype.kind == "f":
        out = cascade_sum(a, axes, keepdim, ignore_nan=True)  # a NaN read as 0
        if out is not None:
            return _contiguous(out)
    return _contiguous(np.nansum(a, axis=axes, keepdims=keepdim, dtype=dtype))


_nansum = Op("NansumBackward0", _nansum_fwd, saves=("self",))


@_nansum.derivative
def _(ctx, grad):
    # nansum_backward(grad.to(self's dtype), ...): dim=None reduces over no listed dim, so nothing is
    # unsqueezed before the expand
    axes = () if ctx.full else ctx.axes
    x = ctx.self
    if grad.dtype is not x.dtype:  # (a dtype= sum: cast first, then expanded and masked)
        grad = grad.to(x.dtype)
    return expand_back(grad, ctx.input_shape, axes, ctx.keepdim) * (x == x)


def _nansum_out_dtype(input, dtype, out):
    """nansum_out's checks of ``out``: autograd's refusal first; then, for a float input, out's dtype
    is the sum's (the kernel has no integer one) and a given ``dtype`` must be it."""
    from ..autograd import grad_mode
    from ..tensor import _scalar_name
    from ._op import _C_TYPE

    if grad_mode._state["enabled"] and (input._requires_grad or out._requires_grad):
        raise RuntimeError("nansum(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")
    if not input.dtype.is_floating_point:
        return False
    if dtype is None:
        return not out.dtype.is_floating_point  # (True: the kernel refuses it, after out's resize: nansum's)
    elif dtype is not out.dtype:
        if dtype.is_floating_point:
            raise RuntimeError(f"nansum: provided dtype must match dtype of result. Got {_scalar_name(out.dtype)} "
                               f"and {_scalar_name(dtype)}.")
        raise RuntimeError(f"Expected out tensor to have dtype {_C_TYPE[dtype.name]}, but got "
                           f"{_C_TYPE[out.dtype.name]} instead")


@export(method=True)
def nansum(input, dim=None, keepdim=False, *, dtype=None, out=None):
    refused = out is not None and _nansum_out_dtype(input, dtype, out)
    d = input.dtype if refused else _acc_dtype(input, out.dtype if dtype is None and out is not None else dtype)
    if isinstance(dim, (list, tuple)) and len(dim) == 0:  # (an empty dim list reduces every dim, as sum's)
        dim = None
    axes = dims(dim, input.ndim)
    if refused:  # (a float input into an integer out: the kernel has none; an empty one is zero_()'d)
        from ._outs import out_before_kernel
        zeros = nansum(input.detach(), dim, keepdim)._data * 0
        if input.numel():
            out_before_kernel("nansum", out.dtype, zeros.shape, out)
            from ..tensor import _scalar_name
            raise NotImplementedError(f"\"nansum_cpu\" not implemented for '{_scalar_name(out.dtype)}'")
        return finish_out("nansum", Tensor._make(zeros.astype(out.dtype.numpy)), out)
    result = _nansum.apply((input,), (input._data,), {  # all dims kept for dim=None
        "axes": axes, "keepdim": keepdim, "dtype": d.numpy, "full": dim is None})
    return finish_out("nansum", reduced_into_input("nansum", input, result, out, _given(dim)), out)


# max / min ---------------------------------------------------------------------

def _extreme_full_fwd(ctx, a, np_fn, fname):
    if a.size == 0:
        raise RuntimeError(
            f"{fname}(): Expected reduction dim to be specified for input.numel() == 0. "
            "Specify the reduction dim with the 'dim' argument.")
    return _vector_nan(_reduce_all_zero(np.asarray(np_fn(a)), a), a)


def _vector_nan(r, a):
    """``r``, min or max over all of ``a``: a NaN result of reduce_all over two or more elements (float, double,
    half; any layout) is the all-ones NaN of AVX2's maximum/minimum (their NaN mask or-ed in), whose sign is
    negative; a single element's NaN keeps its sign."""
    if a.size < 2 or a.dtype not in (np.float32, np.float64, np.float16) or not np.isnan(r).any():
        return r
    return np.where(np.isnan(r), np.copysign(np.array(np.nan, a.dtype), -1), r)


def _reduce_all_zero(r, a):
    """``r``, min or max over all of ``a``, with the zero PyTorch's reduce_all picks from zeros
    of both signs: each of its vector lanes (8 floats, 4 doubles) keeps the last zero it meets
    (AVX2's min/max give the second operand on a tie), then the lanes are combined, the later
    one winning a tie (floats: by halves, lanes 4-7 into 0-3, 2-3 into 0-1, 1 into 0; doubles: in
    order; halves: 16 lanes from 16 elements on, folded 8-15 into 0-7 first, then as floats; 8 to
    15 halves: elements 8 on into lanes 0-7, the lanes then in order, as vec_reduce_all's loop).
    For float32/float64/float16 in memory order on one thread (under 32,768 elements)."""
    if r != 0 or a.dtype not in (np.float32, np.float64, np.float16) or a.size >= 32768 or not a.flags.c_contiguous:
        return r
    zero = a.reshape(-1) == 0
    where = np.flatnonzero(zero)
    lanes = 4 if a.dtype == np.float64 else 16 if a.dtype == np.float16 and a.size >= 16 else 8
    if a.size < lanes:
        return np.asarray(a.reshape(-1)[where[-1]])
    last = [None] * lanes  # each lane's last zero (None: a lane without one loses every tie)
    for p in where.tolist():
        last[p % lanes] = p
    if lanes != 4 and not (a.dtype == np.float16 and lanes == 8):
        for step in (8, 4, 2, 1) if lanes == 16 else (4, 2, 1):
            last = [last[k ^ step] if last[k ^ step] is not None or last[k] is None else last[k]
                    for k in range(lanes)]
        pick = last[0]
    else:
        pick = last[0]
        for k in range(1, lanes):
            pick = last[k] if last[k] is not None or pick is None else pick
    return np.asarray(a.reshape(-1)[pick])


def _even_split(ctx, grad):
    # PyTorch's evenly_distribute_backward (its CPU form): ties share the gradient equally,
    # written with masked_fill into zeros (MaskedFillBackward1; no inf * 0 off the ties)
    x, r = ctx.self, ctx.result
    mask = (x != x) if bool(r._data != r._data) else (x == r)
    return masked_fill(Tensor._make(np.zeros(x._data.shape, grad._data.dtype)), mask, grad / mask.sum())


_max_full = Op("MaxBackward1", _extreme_full_fwd, saves=("self", "result"))
_min_full = Op("MinBackward1", _extreme_full_fwd, saves=("self", "result"))
_max_full.derivative(_even_split)
_min_full.derivative(_even_split)


def select_along(ctx, a, idx, dim, keepdim):
    """(values, indices) of a value-selecting reduction from indices ``idx`` kept
    along ``dim``; the indices are remembered for :func:`_select_back`."""
    idx = idx.astype(np.int64, copy=False)
    if a.ndim == 0:
        ctx.indices = idx
        return a.copy(), idx
    vals = np.take_along_axis(a, idx, axis=dim)
    if not keepdim:
        idx = np.squeeze(idx, dim)
        vals = np.squeeze(vals, dim)
    ctx.indices = idx
    return vals, idx


def _extreme_dim_fwd(ctx, a, dim, keepdim, arg_fn):
    if a.ndim and a.shape[dim] == 0:
        raise IndexError(
            f"{'max' if arg_fn is np.argmax else 'min'}(): Expected reduction dim {dim} to have non-zero size.")
    idx = arg_fn(a, axis=dim, keepdims=True) if a.ndim else np.zeros((), np.int64)
    return select_along(ctx, a, idx, dim, keepdim)


def _select_back(ctx, grad):
    # value_selecting_reduction_backward: the gradient goes where the index points
    from .indexing import scatter_into
    idx = ctx.indices
    shape = ctx.input_shape
    if not ctx.keepdim and len(shape):
        grad = grad.unsqueeze(ctx.dim)
        idx = np.expand_dims(idx, ctx.dim)
    return scatter_into(grad, shape, idx, ctx.dim)


_max_dim = Op("MaxBackward0", _extreme_dim_fwd, keeps={"indices": "indices"}, kept_outputs={"indices": 1})
_min_dim = Op("MinBackward0", _extreme_dim_fwd, keeps={"indices": "indices"}, kept_outputs={"indices": 1})
_max_dim.derivative(_select_back)
_min_dim.derivative(_select_back)


def _extreme(name, full, by_dim, np_fn, arg_fn, binary):
    def fn(input, dim=None, keepdim=_NO_KEEPDIM, *, out=None):
        if isinstance(dim, Tensor):  # torch.max(a, b): elementwise
            result = binary(input, dim)
            return result if out is None else write_outs(name, result, out, None)
        if dim is None:
            _no_dim_keepdim(name, keepdim)
            result = full.apply((input,), (input._data,), {"np_fn": np_fn, "fname": name})
            return result if out is None else write_outs(name, result, out, "can_cast")
        else:
            d = _wrap_dim(dim, input.ndim)
            vals, idx = by_dim.apply((input,), (input._data,),
                                     {"dim": d, "keepdim": bool(keepdim), "arg_fn": arg_fn})
            result = MinMax[name](vals, idx)
        return result if out is None else write_outs(name, result, out)

    fn.__name__ = name
    export(name, method=True)(fn)
    return fn


def _maximum(a, b):
    from .comparison import maximum
    return maximum(a, b)


def _minimum(a, b):
    from .comparison import minimum
    return minimum(a, b)


# (numpy's argmax/argmin give the first NaN, as torch.max/min propagate NaN: an inf before it loses)
max = _extreme("max", _max_full, _max_dim, np.max, np.argmax, _maximum)
min = _extreme("min", _min_full, _min_dim, np.min, np.argmin, _minimum)


def _check_arg_reduce_empty(input, dim, name):
    if input._data.size:
        return
    if dim is None:
        raise IndexError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
    d = _wrap_dim(dim, input.ndim)
    if input.ndim and input._data.shape[d] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")


def _logical_out(fname, fn, input, dim, keepdim, out):
    """all/any with ``out=``: PyTorch takes a bool or a uint8 ``out`` whatever the input's dtype (the
    reduction writes 0/1 in out's dtype) and refuses any other dtype."""
    if out.dtype.name not in ("bool", "uint8"):
        from ..tensor import _scalar_name

        raise RuntimeError(f"{fname} only supports bool tensor for result, got: {_scalar_name(out.dtype)}")
    if out.dtype.name == "uint8" and input.dtype.name not in ("uint8", "bool"):
        # (the legacy uint8 result: TensorIterator reduces in out's dtype, the input cast to uint8 first,
        # so 0.5 is 0; out-of-range values follow ``to``'s conversion, PyTorch's vector loop's)
        input = input.detach().to(dtypes.uint8)
    result = Tensor._make(_logical_reduction(fn, input, dim, keepdim)._data.astype(out._data.dtype, copy=False))
    if dim is not None:  # (all elements: another kernel, which reads first)
        result = reduced_into_input(fname, input, result, out, _given(dim))
    return write_outs(fname, result, out)


@export(method=True)
@with_out("argmax")
def argmax(input, dim=None, keepdim=False, *, out=None):
    if input.dtype.name == "bool":
        raise RuntimeError("argmax(): does not support bool input")
    _check_arg_reduce_empty(input, dim, "argmax")
    if dim is None:  # the flat index; keepdim keeps every dim, as size 1
        flat = np.asarray(np.argmax(input._data.reshape(-1)), np.int64)
        return Tensor._make(flat.reshape((1,) * input.ndim) if keepdim else flat)
    return Tensor._make(np.argmax(input._data, axis=_wrap_dim(dim, input.ndim), keepdims=keepdim).astype(np.int64))


@export(method=True)
@with_out("argmin")
def argmin(input, dim=None, keepdim=False, *, out=None):
    if input.dtype.name == "bool":
        raise RuntimeError("argmin(): does not support bool input")
    _check_arg_reduce_empty(input, dim, "argmin")
    if dim is None:  # the flat index; keepdim keeps every dim, as size 1
        flat = np.asarray(np.argmin(input._data.reshape(-1)), np.int64)
        return Tensor._make(flat.reshape((1,) * input.ndim) if keepdim else flat)
    return Tensor._make(np.argmin(input._data, axis=_wrap_dim(dim, input.ndim), keepdims=keepdim).astype(np.int64))


@export(method=True)
def all(input, dim=None, keepdim=False, *, out=None):
    if out is not None:
        return _logical_out("all", np.all, input, dim, keepdim, out)
    return _logical_reduction(np.all, input, dim, keepdim)


@export(method=True)
def any(input, dim=None, keepdim=False, *, out=None):
    if out is not None:
        return _logical_out("any", np.any, input, dim, keepdim, out)
    return _logical_reduction(np.any, input, dim, keepdim)


def _logical_reduction(fn, input, dim, keepdim):
    """all/any: bool, except that PyTorch keeps uint8 for uint8 input (a legacy rule)."""
    axes = None if dim is None else dims(dim, input.ndim)
    out = c_order(np.asarray(fn(input._data, axis=axes, keepdims=bool(keepdim))))  # (a reduction: C order)
    return Tensor._make(np.asarray(out, np.uint8) if input._data.dtype == np.uint8 else out)


@export(method=True)
def count_nonzero(input, dim=None):
    axes = None if dim is None or (isinstance(dim, (list, tuple)) and not dim) else dims(dim, input.ndim)
    return Tensor._make(c_order(np.asarray(np.count_nonzero(input._data, axis=axes), np.int64)))


def _quiet(fn):
    """A backward formula run without numpy's divide-by-zero warnings (torch gives none)."""

    def formula(ctx, grad):
        with np.errstate(all="ignore"):
            return fn(ctx, grad)

    formula.__name__ = fn.__name__
    return formula


def _restore(t, dims_given, keepdim):
    """PyTorch's restore_reduced_dims: a reduced tensor reshaped to keep size-1 dims (no expand).
    ``dims_given``: the dims as the call gave them (unwrapped; [] for all), as the formula sees
    them: the reshape is always a view (ViewBackward0, a 0-d result too), and dim 0 of a 0-d
    input restores a [1] (the engine sums it back: SumBackward0)."""
    if keepdim:
        return t
    total = t.ndim + len(dims_given)
    target = [0] * total
    for i in dims_given:
        target[i + total if i < 0 else i] = 1
    sizes = iter(t.shape)
    target = [s if s else next(sizes) for s in target]
    return t.reshape(target)


def _unsqueeze_dims(t, shape, axes, keepdim):
    """PyTorch's unsqueeze_multiple: a reduced tensor with its reduced dims back as size 1
    (one UnsqueezeBackward0 per dim under create_graph, where _restore has one view)."""
    if keepdim or not len(shape):
        return t
    for a in sorted(axes):
        t = t.unsqueeze(a)
    return t


def _reverse(t, dim):
    """t reversed along dim: flip (FlipBackward0), as PyTorch's formulas do."""
    from .joining import flip
    return flip(t, (dim,))


def _reversed_cumsum(w, dim):
    from .cumulative import cumsum
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
    if isinstance(dim, Tensor) and dim.ndim == 0 and dim.dtype._kind == 1:
        return  # (PyTorch's parser takes a 0-d integer tensor for an int)
    if not isinstance(dim, (numbers.Integral, np.integer)) or isinstance(dim, bool):
        raise TypeError(f"{fname}(): argument 'dim' must be int, not {type(dim).__name__}")


# ---------------------------------------------------------------------------
# prod
# ---------------------------------------------------------------------------



def _prod_fwd(ctx, a, axis, keepdim, dtype):
    a = a.astype(dtype, copy=False)
    if a.ndim == 0:
        return a.copy()
    if a.dtype.kind == "f" and 0 < a.size < _GRAIN_SIZE and a.flags.c_contiguous:
        return _prod_kernel(a, axis, keepdim)
    with np.errstate(all="ignore"):  # (numpy's product of bools is an integer: dtype=bool keeps bool)
        return _contiguous(np.asarray(np.prod(a, axis=axis, keepdims=keepdim), dtype))


_GRAIN_SIZE = 32768  # at::internal::GRAIN_SIZE: larger reductions are split between threads


def _prod_kernel(a, axis, keepdim):
    """A float product in PyTorch's order (binary_kernel_reduce_vec, one thread), each step
    rounded to the dtype (numpy keeps float16 products in float32: an overflow to inf that a
    later 0 makes NaN goes unseen). Along contiguous memory (every dim, or the last): four
    accumulating AVX2 vectors (16 halves, 8 floats, 4 doubles a vector) over whole blocks of
    four vectors, combined as (v0 * v1) * (v2 * v3), their lanes folded one after another, then
    the remaining elements one by one; along another dim: one product per output, in order."""
    axes = tuple(range(a.ndim)) if axis is None else (axis,)
    rest = [d for d in range(a.ndim) if d not in axes]
    rows = np.transpose(a, rest + list(axes)).reshape(-1, int(np.prod([a.shape[d] for d in axes])))
    n = rows.shape[1]
    inner = axis is None or int(np.prod(a.shape[axis + 1:])) == 1  # (reduces along memory)
    lanes = 32 // a.itemsize
    block = 4 * lanes
    count = n // block if inner else 0
    with np.errstate(all="ignore"):
        r = np.ones(rows.shape[0], a.dtype)
        if count:
            acc = [rows[:, k * lanes:(k + 1) * lanes].copy() for k in range(4)]
            for j in range(1, count):
                for k in range(4):
                    acc[k] *= rows[:, j * block + k * lanes:j * block + (k + 1) * lanes]
            v = (acc[0] * acc[1]) * (acc[2] * acc[3])
            folded = v[:, 0].copy()
            for j in range(1, lanes):
                folded *= v[:, j]
            r *= folded
        for i in range(count * block, n):
            r *= rows[:, i]
    shape = [1 if d in axes else a.shape[d] for d in range(a.ndim)] if keepdim else [a.shape[d] for d in rest]
    return r.reshape(shape)


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
    from .cumulative import cumprod
    from .joining import cat
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
    zeros = np.count_nonzero(x._data == 0)
    if not zeros:
        return grad * (ctx.result / x)
    from ..autograd import grad_mode
    if zeros > 1 and not grad_mode.is_grad_enabled():  # prod_backward: two zeros make every gradient 0
        return Tensor._make(np.zeros(x.shape, grad.dtype.numpy))
    # contiguous() then view(-1), as prod_backward (CloneBackward0 + ViewBackward0, not reshape's UnsafeView)
    return _prod_safe_zeros_backward(grad, x.contiguous().view(-1), 0).view(x.shape)


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
def prod(input, dim=None, keepdim=_NO_KEEPDIM, *, dtype=None, out=None):
    """Product of all elements, or along ``dim`` (an int)."""
    d = _acc_dtype(input, out.dtype if dtype is None and out is not None else dtype)  # (out's dtype is the product's)
    if dim is None:
        _no_dim_keepdim("prod", keepdim)
        result = _prod0.apply((input,), (input._data,), {"axis": None, "keepdim": False, "dtype": d.numpy})
        return finish_out("prod", reduced_into_input("prod", input, result, out), out)
    if isinstance(dim, (list, tuple)):
        raise TypeError(
            "prod() received an invalid combination of arguments - got (Tensor, tuple), but expected one of:\n"
            " * (Tensor input, *, torch.dtype dtype = None)\n"
            " * (Tensor input, int dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None)\n")
    axis = _wrap_dim(dim, input.ndim)
    result = _prod1.apply((input,), (input._data,), {"axis": axis, "keepdim": bool(keepdim), "dtype": d.numpy})
    return finish_out("prod", reduced_into_input("prod", input, result, out, [dim]), out)


# ---------------------------------------------------------------------------
# amax / amin: ties share the gradient evenly
# ---------------------------------------------------------------------------

def _amax_fwd(ctx, a, axes, keepdim, np_fn, dims_given=()):
    from ._reduce_ties import pick_zeros
    return pick_zeros(np.asarray(np_fn(a, axis=axes, keepdims=keepdim)), a, axes, keepdim, np_fn is np.amax)


def _first_met(r, a, axes):
    """``r`` (extremes of ``a`` over ``axes``) with the element of its row PyTorch's scalar loop
    keeps: the first zero met on a tie of -0.0 and 0.0, and the first NaN met (its sign: the
    loop stops there and returns it; numpy's reductions may keep either zero or any NaN)."""
    if r.dtype.kind != "f" or not a.size or not axes or (r.all() and not np.isnan(r).any()):
        return r
    rows = np.moveaxis(a, axes, tuple(range(a.ndim - len(axes), a.ndim))).reshape(-1, int(np.prod(
        [a.shape[d] for d in axes])))
    out = r.reshape(-1).copy()
    for hit, test in ((out == 0, rows == 0), (np.isnan(out), np.isnan(rows))):
        if hit.any():
            out[hit] = rows[np.arange(len(rows)), np.argmax(test, axis=1)][hit]
    return out.reshape(r.shape)


def _amax_back(ctx, grad):
    # scale_grad_by_count(restore_reduced_dims(grad, dim, keepdim), restore_reduced_dims(result, ...) == self, dim)
    x = ctx.self
    g = _restore(grad, ctx.dims_given, ctx.keepdim)
    mask = _restore(ctx.result, ctx.dims_given, ctx.keepdim) == x
    return (g / mask.sum(ctx.dims_given, keepdim=True)) * mask


_amax = Op("AmaxBackward0", _amax_fwd, saves=("self", "result"), contiguous=True)
_amin = Op("AminBackward0", _amax_fwd, saves=("self", "result"), contiguous=True)
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
            for g in (dim if isinstance(dim, (list, tuple)) else (dim,)):
                # (amax/amin's message names the dim as given: -1, not its index)
                if input.ndim and input._data.shape[int(g) % input.ndim] == 0:
                    raise IndexError(f"{fname}(): Expected reduction dim {int(g)} to have non-zero size.")
        given = [] if dim is None else list(dim) if isinstance(dim, (list, tuple)) else [dim]
        result = op.apply((input,), (input._data,), {"axes": axes, "keepdim": bool(keepdim), "np_fn": np_fn,
                                                     "dims_given": [int(d) for d in given]})
        return finish_out(fname, reduced_into_input(fname, input, result, out, given or None), out)

    fn.__name__ = fname
    fn.__doc__ = f"{fname} over ``dim`` (all dims by default); equal extremes share the gradient."
    return export(method=True)(fn)


amax = _amax_family(_amax, "amax", np.amax)
amin = _amax_family(_amin, "amin", np.amin)


# aminmax, cummax / cummin, logcumsumexp, dist
# ---------------------------------------------------------------------------

AminmaxResult = return_type("aminmax", ["min", "max"])
AminmaxResult.__module__ = "torch.return_types"


def _aminmax_fwd(ctx, a, axes, keepdim, by_dim, dims_given=()):
    lo = np.asarray(np.amin(a, axis=axes, keepdims=keepdim))
    hi = np.asarray(np.amax(a, axis=axes, keepdims=keepdim))
    if by_dim:  # aminmax over a dim is one scalar loop per result: the first of tied zeros, the first NaN
        lo, hi = _first_met(lo, a, axes), _first_met(hi, a, axes)
    elif a.size:
        lo, hi = _vector_nan(_reduce_all_zero(lo, a), a), _vector_nan(_reduce_all_zero(hi, a), a)
        if keepdim:  # over everything with keepdim: one element, every dim kept as 1
            lo, hi = lo.reshape((1,) * a.ndim), hi.reshape((1,) * a.ndim)
    # the formula compares the input with both extremes (constants: the comparison has no gradient)
    ctx.min_value = Tensor._make(lo.copy())
    ctx.max_value = Tensor._make(hi.copy())
    return lo, hi


_aminmax = Op("AminmaxBackward0", _aminmax_fwd, saves=("self", "min", "max"), outputs=None, multi_grad="undefined",
               contiguous=True, output_names=("min", "max"))  # (the outputs saved: changed in place, PyTorch's error)


@_aminmax.derivative
@_quiet
def _(ctx, grads):
    # aminmax_backward: each extreme's gradient shared by the elements equal to it
    x = ctx.self
    given, keepdim = ctx.dims_given, ctx.keepdim
    grad_self = None
    for g, extreme in zip(grads, (ctx.min_value, ctx.max_value)):
        if g is None:  # (an output without a gradient adds nothing)
            continue
        mask = _restore(extreme, given, keepdim) == x
        part = (_restore(g, given, keepdim) / mask.sum(given, keepdim=True)) * mask
        grad_self = part if grad_self is None else grad_self + part
    return grad_self


@export(method=True)
@with_out("aminmax")
def aminmax(input, *, dim=None, keepdim=False, out=None):
    """(min, max) over ``dim`` (all by default), in one pass."""
    if dim is not None:
        _check_int_dim("aminmax", dim)
    axes = tuple(range(input.ndim)) if dim is None else _axes(dim, input.ndim)
    if dim is None and input.numel() == 0:
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
                           "identity.")
    for ax in axes if dim is not None and input.ndim else ():  # (an empty input over a non-empty dim is fine)
        if input.shape[ax] == 0:
            raise IndexError(f"aminmax: Expected reduction dim {ax} to have non-zero size.")
    keep = bool(keepdim)
    lo, hi = _aminmax.apply((input,), (input._data,), {"axes": axes, "keepdim": keep, "by_dim": dim is not None,
                                            "dims_given": [] if dim is None else [int(dim)]})
    return AminmaxResult(lo, hi)
