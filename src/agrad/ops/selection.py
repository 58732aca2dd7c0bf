"""Elementwise selection: clamp (clamp_min, clamp_max), where and masked_fill, each of which
picks, element by element, between a tensor's values and bounds, another tensor or a fill.

Each op is one entry: its numpy forward, its node name, what it saves, and its
derivative written with agrad ops (derivatives.yaml's formulas).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from .._limits import check_broadcast, check_shape
from ..autograd.inference import check_kept
from ..tensor import Tensor, _can_cast, _scalar_name
from ._layout import c_order, iterator_layout, promote
from ._op import Op, _unpacked_first, export, finish_out, inplace, method, node_name
from ._vector_loop import keep_self as _keep_self, loop_lanes, tie_by_loop as _tie_by_loop, vector_nans
from .pointwise import (_C_NAMES, _mismatch_message, _result_type, broadcast_all_error, broadcast_error,
                        check_operand, operands)


# ---------------------------------------------------------------------------
# clamp and where
# ---------------------------------------------------------------------------

def _clamp_numbers(a, lo, hi):
    """min(max(a, lo), hi) keeping ``a`` where it equals a bound (clamp(0., max=-0.) is 0.) and NaN;
    a NaN bound gives NaN everywhere, as PyTorch's kernel propagates it."""
    if lo is not None:
        a = np.where((a < lo) | (lo != lo), np.asarray(lo).astype(a.dtype), a)
    if hi is not None:
        a = np.where((a > hi) | (hi != hi), np.asarray(hi).astype(a.dtype), a)
    return a


_clamp1 = Op("ClampBackward1", lambda ctx, a, min, max: _clamp_numbers(a, min, max).astype(a.dtype, copy=False),
             saves=("self",), jvp="element_wise")


@_clamp1.derivative
def _(ctx, grad):
    x = ctx.self
    mask = None
    if ctx.min is not None:
        mask = x >= ctx.min
    if ctx.max is not None:
        m = x <= ctx.max
        mask = m if mask is None else mask.logical_and_(m)  # (in place, as clamp_backward: mask's layout kept)
    return where(mask, grad, 0.0)  # clamp_backward selects (no -0.0 or nan * 0 from a product)


def _clamp_tensors(a, lo, hi, bounds):
    """clamp with tensor bounds: maximum(a, min) and/or minimum(., max), one kernel's loop (a
    missing bound takes no part in it: PyTorch runs maximum or minimum alone)."""
    if bounds == "min":
        return _tie_by_loop(np.maximum)(a, lo)
    if bounds == "max":
        return _tie_by_loop(np.minimum)(a, hi)
    r = _keep_self(np.minimum)(_keep_self(np.maximum)(a, lo), hi)  # the scalar loop: std::min(std::max(a, lo), hi)
    if r.dtype.kind == "f" and (r == 0).any():  # the vector code: its max and min give the bound on a tie of zeros
        lanes = loop_lanes([a, lo, hi])
        if lanes is not False:
            vec = np.maximum(a, lo)
            vec = np.minimum(np.where(vec == lo, lo, vec), hi)
            vec = np.where(vec == hi, hi, vec)
            r = np.where(lanes, vec, r).astype(r.dtype, copy=False)
    if r.dtype.kind == "f":  # (the scalar loop: quiet_NaN() for a NaN bound, else std::max/min keep a's NaN)
        r = vector_nans(r, (a, lo, hi), lambda: np.where((lo != lo) | (hi != hi), np.array(np.nan, r.dtype), a))
    return r


def _clamp0_fwd(ctx, a, lo, hi, bounds):
    # (laid out by TensorIterator over the bounds given: a missing one takes no part, so operands of one
    # shape take its fast set-up)
    return iterator_layout(_clamp_tensors(a, lo, hi, bounds),
                           (a, lo) if bounds == "min" else (a, hi) if bounds == "max" else (a, lo, hi))


_clamp0 = Op("ClampBackward0", _clamp0_fwd, inputs=("self", "min", "max"),
             saves=("self", "min", "max"), value_error=broadcast_all_error, jvp="element_wise")


@_clamp0.derivative
def _(ctx, grad):
    x, lo, hi = ctx.self, ctx.min, ctx.max
    keep = (x >= lo) & (x <= hi)
    return where(keep, grad, 0.0), where((x < lo) & (lo < hi), grad, 0.0), where((x > hi) | (hi < lo), grad, 0.0)


@export("clamp", "clip", method=True)
def clamp(input, min=None, max=None, *, out=None):
    if type(min) is int or type(max) is int:
        _unpacked_first((min, max), {})
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Tensor) != isinstance(max, Tensor) and min is not None and max is not None:
        got = ", ".join(["Tensor"] + [f"{k}={type(v).__name__}" for k, v in (("min", min), ("max", max))])
        raise TypeError(
            f"clamp() received an invalid combination of arguments - got ({got}), but expected one of:\n"
            " * (Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None)\n"
            " * (Tensor input, Number min = None, Number max = None, *, Tensor out = None)\n")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        d = _result_type(input, min, max)
        lo = min if isinstance(min, Tensor) else full_like_scalar(input, -np.inf if min is None else min, d)
        hi = max if isinstance(max, Tensor) else full_like_scalar(input, np.inf if max is None else max, d)
        arrs = [promote(t._data, d.numpy) for t in (input, lo, hi)]
        bounds = "both" if isinstance(min, Tensor) and isinstance(max, Tensor) else "min" if max is None else \
            "max" if min is None else "both"
        if d is dtypes.bool_ and bounds == "both":  # (maximum and minimum alone take bools)
            try:  # TensorIterator's shapes first
                np.broadcast_shapes(*(a.shape for a in arrs))
            except ValueError:
                raise broadcast_all_error(arrs) from None
            raise NotImplementedError("\"clamp_cpu\" not implemented for 'Bool'")
        return finish_out("clamp", _clamp0.apply((input, lo, hi), arrs, {"bounds": bounds}), out, cast=True)
    d = _result_type(input, *(v for v in (min, max) if v is not None))
    if d is dtypes.bool_:
        kernel = "clamp_min_scalar_cpu" if max is None else "clamp_max_scalar_cpu" if min is None else "clamp_scalar_cpu"
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
    min, max = dtypes.kernel_scalar(min, d.numpy), dtypes.kernel_scalar(max, d.numpy)  # (uint8: -1 is 255)
    arr = promote(input._data, d.numpy)
    return finish_out("clamp", _clamp1.apply((input,), (arr,), {"min": min, "max": max}), out)


def full_like_scalar(like, value, d):
    if np.isinf(value) and not d.is_floating_point:  # a missing bound of an integer clamp: the type's end
        info = np.iinfo(d.numpy) if d.name != "bool" else None
        value = (value > 0) if info is None else (info.max if value > 0 else info.min)
    return Tensor._make(np.array(value, d.numpy))


#: C++ type names: what PyTorch's clamp_ with number bounds prints for its output type
_CPP_NAMES = {"uint8": "unsigned char", "int8": "signed char", "int16": "short int", "int32": "int",
              "int64": "long int", "bool": "bool", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
              "float32": "float", "float64": "double"}


def _clamp_inplace(fn, name):
    """clamp_ & co.: with number bounds PyTorch's cast check names the C++ type."""
    method_ = inplace(fn, name=name, partial=True)

    def clamp_(self, *args, **kwargs):
        try:
            return method_(self, *args, **kwargs)
        except RuntimeError as e:
            bounds = list(args) + list(kwargs.values())
            text = str(e)
            tail = f"desired output type {_scalar_name(self.dtype)}"
            numbers = not any(isinstance(b, Tensor) for b in bounds)
            if text.startswith("result type") and text.endswith(tail) and numbers:
                raise RuntimeError(text[: -len(_scalar_name(self.dtype))] + _CPP_NAMES[self.dtype.name]) from None
            if text.startswith("unsupported operation: more than one") and all(b is None for b in bounds):
                # (clamp's own check comes before the written-to tensor's overlap, after autograd's)
                raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None") from None
            if text.startswith("unsupported operation: more than one") and numbers:  # (the cast check comes first)
                d = _result_type(self, *(b for b in bounds if b is not None))
                if not _can_cast(d, self.dtype):
                    raise RuntimeError(f"result type {_scalar_name(d)} can't be cast to the desired output type "
                                       f"{_CPP_NAMES[self.dtype.name]}") from None
            raise

    clamp_.__name__ = clamp_.__qualname__ = name + "_"
    return clamp_


method("clip")(clamp)
method("clamp_")(_clamp_inplace(clamp, "clamp"))
method("clip_")(_clamp_inplace(clamp, "clip"))


def _one_sided_clamp(name, np_fn, tensor_fn, keep, bound_wins):
    """clamp_min / clamp_max: their own nodes (ClampMinBackward0, ...), unlike clamp(min=...); a
    number bound is ``np_fn``'s, a tensor bound ``tensor_fn``'s (maximum / minimum's kernel)."""
    scalar_op = Op(node_name(name), lambda ctx, a, bound: np_fn(a, bound).astype(a.dtype, copy=False),
                   saves=("self",), jvp="element_wise")
    scalar_op.derivative(lambda ctx, grad: where(keep(ctx.self, ctx.bound), grad, 0.0))
    tensor_op = Op(node_name(name, 1), lambda ctx, a, b: tensor_fn(a, b), inputs=("self", name[6:]),
                   saves=("self", name[6:]), value_error=broadcast_error, jvp="element_wise", iterated=True)

    @tensor_op.derivative
    def _(ctx, grad):
        x, b = ctx.self, getattr(ctx, name[6:])
        return (where(keep(x, b), grad, 0.0) if ctx.needs(0) else None,
                where(bound_wins(x, b), grad, 0.0) if ctx.needs(1) else None)

    def fn(input, bound, *, out=None):
        if isinstance(bound, Tensor):
            ts, arrs = operands(input, bound, name)
            return finish_out(name, tensor_op.apply(ts, arrs, {}), out, cast=True)
        d = _result_type(input, bound)
        if d is dtypes.bool_:
            raise NotImplementedError(f"\"{name}_scalar_cpu\" not implemented for 'Bool'")
        return finish_out(name, scalar_op.apply((input,), (promote(input._data, d.numpy),),
                                                {"bound": dtypes.kernel_scalar(bound, d.numpy)}), out)

    fn.__name__ = name
    export(name, method=True)(fn)
    method(name + "_")(_clamp_inplace(fn, name))
    return fn


clamp_min = _one_sided_clamp("clamp_min", _keep_self(np.maximum), _tie_by_loop(np.maximum), lambda x, b: x >= b,
                             lambda x, b: x < b)
clamp_max = _one_sided_clamp("clamp_max", _keep_self(np.minimum), _tie_by_loop(np.minimum), lambda x, b: x <= b,
                             lambda x, b: x > b)


_where = Op("WhereBackward0",  # (TensorIterator's operands: condition first)
            lambda ctx, a, b, condition: iterator_layout(np.where(condition, a, b), (condition, a, b)),
            inputs=("self", "other"), jvp="element_wise", keeps={"condition": "condition"})


@_where.derivative
def _(ctx, grad):
    cond = Tensor._make(ctx.condition)
    zero = grad.new_zeros(())
    return where(cond, grad, zero), where(cond, zero, grad)


@_where.forward_derivative
def _(ctx, st, ot):
    # derivatives.yaml: where(condition, self_t, other_t), a missing tangent a zero tensor: one WhereBackward0
    def zero(i):  # (the input's shape, as PyTorch's zero tensor)
        return Tensor._make(np.zeros(ctx._shapes[i] or (), ctx.result._data.dtype))
    return where(Tensor._make(ctx.condition), zero(0) if st is None else st, zero(1) if ot is None else ot)


@export()
def where(condition, input=None, other=None, *, out=None):
    if input is None and other is None:  # torch.where(condition): nonzero(as_tuple=True)
        from .nonzero import nonzero
        return nonzero(condition, as_tuple=True)
    if not isinstance(condition, Tensor):
        raise TypeError("where(): argument 'condition' must be Tensor")
    ts, arrs = operands(input, other, "where")
    _check_where_numbers(input, other, arrs)  # (the number's tensor is made before where_self's checks)
    if out is not None:  # (where_self_out's first check, before the condition's)
        from ._outs import _check_out_dtype
        common = _result_type(input, other)
        if out.dtype is not common:
            _check_out_dtype("where", Tensor._make(np.empty(0, common.numpy)), out)
    if condition.dtype is dtypes.uint8:
        from .._warn_once import warn_once

        warn_once("where received a uint8 condition tensor. This behavior is deprecated and will be removed in a future "
                  "version of PyTorch. Use a boolean condition instead.", UserWarning)
        condition = Tensor._make(condition._data.astype(bool))
    elif condition.dtype is not dtypes.bool_:
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor with dtype {_scalar(condition.dtype)}")
    try:
        np.broadcast_shapes(condition._data.shape, np.shape(arrs[0]), np.shape(arrs[1]))
    except ValueError:
        raise broadcast_all_error((condition._data, arrs[0], arrs[1])) from None
    check_broadcast(condition._data, arrs[0], arrs[1])
    check_kept(condition, ts)  # (PyTorch saves the condition)
    return finish_out("where", _where.apply(ts, arrs, {"condition": condition._data}), out)


def _check_where_numbers(input, other, arrs):
    """A Python number becomes a tensor of the result's dtype through a checked conversion (c10's
    checked_convert: an integer type's range, float's; float16 takes an overflow as inf)."""
    d = next((a.dtype for a in arrs if isinstance(a, np.ndarray) and a.ndim), None)
    d = d or next((a.dtype for a in arrs if isinstance(a, np.ndarray)), None)
    if d is None or d.kind not in "iu" and d != np.float32:
        return
    for v in (input, other):
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            dtypes.checked_scalar(v, d)


@method("where")
def _where_method(self, condition, other):
    return where(condition, self, other)


def _scalar(d):
    from ..tensor import _scalar_name
    return _scalar_name(d)


# ---------------------------------------------------------------------------
# masked_fill
# ---------------------------------------------------------------------------

# (ATen's masked_fill clones the expanded input contiguous, then fills it in place: a C-ordered result
# whatever the input's layout)
_masked_fill0 = Op("MaskedFillBackward0",
                   lambda ctx, a, mask, fill: c_order(np.where(mask, dtypes.checked_scalar(fill, a.dtype), a)),
                   jvp="element_wise", keeps={"mask": "mask"}, contiguous=True)
# (a 0-d tensor value: ATen's value.item(), converted by the kernel as a Scalar: c10's checked_convert)
_masked_fill1 = Op("MaskedFillBackward1",
                   lambda ctx, a, v, mask: c_order(np.where(mask, dtypes.checked_scalar(v.item(), a.dtype), a)),
                   inputs=("self", "value"), keeps={"mask": "mask"})


@_masked_fill0.derivative
def _(ctx, grad):
    return grad.masked_fill(Tensor._make(ctx.mask), 0)


@_masked_fill1.derivative
def _(ctx, grad):
    mask = Tensor._make(ctx.mask)
    return grad.masked_fill(mask, 0), where(mask, grad, 0.0).sum()


@export(method=True)
def masked_fill(input, mask, value):
    """``input`` with ``value`` written where ``mask`` is True (mask broadcasts)."""
    if not isinstance(mask, Tensor):
        raise TypeError(f"masked_fill(): argument 'mask' (position 2) must be Tensor, not {type(mask).__name__}")
    try:  # (expand_outplace(self, mask) before the mask's dtype is read)
        shape = np.broadcast_shapes(input.shape, mask.shape)
    except ValueError:
        raise RuntimeError(_mismatch_message(mask.shape, input.shape)) from None
    if mask.dtype is not dtypes.bool_:
        raise RuntimeError(
            f"masked_fill_ only supports boolean masks, but got mask with dtype {_C_NAMES[mask.dtype.name]}")
    check_shape(shape)
    m = mask._data
    check_kept(mask, (input, value if isinstance(value, Tensor) else None))  # (PyTorch saves the mask)
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value.ndim} dimension(s).")
        a = np.broadcast_to(input._data, shape)
        return _masked_fill1.apply((input, value), (a, value._data), {"mask": m})
    check_operand(value, "masked_fill")
    a = np.broadcast_to(input._data, shape)
    return _masked_fill0.apply((input,), (a,), {"mask": m, "fill": value})


def _masked_fill_checked(input, mask, value):
    """masked_fill_'s own order: the mask's dtype, then TensorIterator's shapes (self is tensor a)."""
    if isinstance(mask, Tensor):
        if mask.dtype is not dtypes.bool_:
            raise RuntimeError(
                f"masked_fill_ only supports boolean masks, but got mask with dtype {_C_NAMES[mask.dtype.name]}")
        try:
            np.broadcast_shapes(input.shape, mask.shape)
        except ValueError:
            raise RuntimeError(_mismatch_message(input.shape, mask.shape)) from None
    return masked_fill(input, mask, value)


method("masked_fill_")(inplace(_masked_fill_checked, overlap="masked_fill_", name="masked_fill"))
