"""Division's relatives: floor_divide (and ``//``), remainder (``%``, Python's sign rule),
reciprocal; and ``in_order_until_zero``, which makes an in-place integer op write its
results up to the first zero divisor before it raises, as PyTorch's kernels do.
"""

from __future__ import annotations

import numpy as np

from ..tensor import Tensor
from ._layout import iteration_order, iterator_layout
from ._vector_loop import fmod_nan_signs
from ._op import Op, export, finish_out, inplace, method
from .pointwise import _float_array, _no_bool_kernel, broadcast_error, check_int_zero_division, operands


@export(method=True)
def floor_divide(input, other, *, out=None):
    """``out=``: autograd's not-implemented fallback (no refusal for an input that requires grad: a
    NotImplemented node on ``out``; not_implemented.recorded_out)."""
    if out is None:
        return _floor_divide(input, other, "aten::floor_divide")
    from ..autograd import grad_mode
    from ._not_implemented import recorded_out
    from ._outs import cast_error

    with grad_mode.no_grad():
        result = _floor_divide(input, other, "aten::floor_divide", out)
    return recorded_out("floor_divide", result, (input, other), out, cast_error("floor_divide"))


def _floor_divide(input, other, aten, out=None):
    from ._not_implemented import not_implemented

    ts, arrs = operands(input, other, "floor_divide")
    try:  # TensorIterator's shapes first
        np.broadcast_shapes(np.shape(arrs[0]), np.shape(arrs[1]))
    except ValueError:
        raise broadcast_error(arrs) from None
    _no_bool_kernel(arrs, "div_floor", out, "floor_divide")
    check_int_zero_division(arrs, out, "floor_divide", np.floor_divide)  # integers only: a float // 0 is inf or nan
    with np.errstate(all="ignore"):
        return not_implemented(iterator_layout(np.floor_divide(*arrs), arrs), ts, aten)


def _floor_divide_in_place(input, other):
    return _floor_divide(input, other, "aten::floor_divide_")  # (its NotImplemented node's name)


_floor_divide_in_place.__name__ = "floor_divide"


def in_order_until_zero(fn, kernel):
    """The in-place form's computation of an integer division ``fn`` (floor_divide, remainder,
    fmod): PyTorch's integer kernel writes the results in order and raises at the first zero
    divisor, so the elements before it are already ``kernel(a, b)`` when the error comes."""

    def run(input, other):
        try:
            return fn(input, other)
        except RuntimeError as e:
            if str(e) == "ZeroDivisionError" and isinstance(input, Tensor) and type(input._data) is np.ndarray:
                _written_before_zero(input, other, kernel)
            raise

    run.__name__ = run.__qualname__ = fn.__name__
    return run


def _written_before_zero(input, other, kernel):
    """The elements before the first zero divisor in TensorIterator's walk (``self`` written
    in place decides its order: a column-major self is walked column by column)."""
    a = input._data
    b = np.broadcast_to(np.asarray(other._data if isinstance(other, Tensor) else other), a.shape)
    order = iteration_order(a.shape, (a, a, b))
    a, b = a.transpose(order), b.transpose(order).reshape(-1)
    k = int(np.argmax(b == 0))
    if k and a.flags.writeable:
        flat = np.unravel_index(np.arange(k), a.shape)
        a[flat] = kernel(a[flat], b[:k].astype(a.dtype, copy=False))


floor_divide_ = in_order_until_zero(_floor_divide_in_place, np.floor_divide)


def out_until_zero(fname, arrs, out, kernel=None):
    """An integer division into ``out=`` that meets a zero divisor: TensorIterator has checked and
    resized ``out`` (the structured ops' temporary for a cast warns a second time; floor_divide's,
    not structured, warns once and leaves ``out`` as it was), and an ``out`` of the common dtype holds
    ``kernel``'s results up to the first zero divisor in the iterator's walk (``out`` among its
    operands: a column-major ``out`` is walked column by column) when the error comes."""
    from .. import dtypes
    from ._outs import _check_out_dtype, _resize_out, warn_resized

    a, b = np.asarray(arrs[0]), np.asarray(arrs[1])
    shape = np.broadcast_shapes(a.shape, b.shape)
    d = dtypes.from_numpy(a.dtype)
    like = iterator_layout(np.empty(shape, a.dtype), (a, b))
    if out.dtype is not d:
        _check_out_dtype(fname, Tensor._make(like), out)
    if tuple(out.shape) != shape:
        if out._data.size:
            warn_resized(out.shape, shape)
            if out.dtype is not d and fname != "floor_divide":
                warn_resized(out.shape, shape)  # (the temporary's resize)
        if fname == "floor_divide" and out.dtype is not d:
            return  # (not structured: only the temporary was resized)
        _resize_out(out, like)
    o = out._data
    if kernel is None or out.dtype is not d or type(o) is not np.ndarray or not o.flags.writeable:
        return  # (``kernel`` None: the kernel refuses the dtype, a bool's)
    order = iteration_order(shape, (o, a, b))
    at = np.broadcast_to(a, shape).transpose(order).reshape(-1)
    bt = np.broadcast_to(b, shape).transpose(order).reshape(-1)
    k = int(np.argmax(bt == 0))
    if k:
        ot = o.transpose(order)
        ot[np.unravel_index(np.arange(k), ot.shape)] = kernel(at[:k], bt[:k])


@export(method=True)
def remainder(input, other, *, out=None):
    """Python's modulus (the result takes the divisor's sign)."""
    ts, arrs = operands(input, other, "remainder")
    _no_bool_kernel(arrs, "remainder", out, "remainder")
    check_int_zero_division(arrs, out, "remainder", np.mod)
    if not isinstance(other, Tensor):  # tensor % number: one input
        return finish_out("remainder", _remainder0.apply((ts[0],), (arrs[0],), {"other": arrs[1]}), out)
    return finish_out("remainder", _remainder1.apply(ts, arrs, {}), out)


def _mod(a, b):
    """PyTorch's remainder: fmod, then moved by b where the signs differ (a zero keeps fmod's sign)."""
    m = np.fmod(a, b)
    if m.dtype.kind != "f":
        return np.mod(a, b)
    m = fmod_nan_signs(m, a, b)
    return np.where((m != 0) & ((np.less(b, 0)) != (m < 0)), m + b, m).astype(m.dtype, copy=False)


_remainder0 = Op("RemainderBackward0", lambda ctx, a, other: _mod(a, other), jvp="element_wise", number=True)
_remainder0.derivative(lambda ctx, grad: grad)
_remainder1 = Op("RemainderBackward1", lambda ctx, a, b: _mod(a, b), inputs=("self", "other"),
                 saves=("self", "other"), saves_for={"self": (1,), "other": (1,)}, value_error=broadcast_error, jvp="element_wise",
                 iterated=True)


@_remainder1.derivative
def _(ctx, grad):
    return grad, -grad * ctx.self.div(ctx.other, rounding_mode="floor") if ctx.needs(1) else None


_reciprocal = Op("ReciprocalBackward0", lambda ctx, a: np.reciprocal(a), saves=("result",), jvp="element_wise")


@_reciprocal.derivative
def _(ctx, grad):
    r = ctx.result
    return -grad * (r * r)


@export(method=True)
def reciprocal(input, *, out=None):
    return finish_out("reciprocal", _reciprocal.apply((input,), (_float_array(input),), {}), out)


method("reciprocal_")(inplace(reciprocal))
