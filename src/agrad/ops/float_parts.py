"""A float's parts: ``frexp`` (mantissa and exponent, C's frexp: FrexpBackward0) and ``angle``
of a real tensor (0, or pi below zero, NaN kept: AngleBackward0, whose gradient is zeros for
real inputs)."""

from __future__ import annotations

import math

import numpy as np

from .._dense import zero_strided
from .. import dtypes
from ..autograd import graph
from ..tensor import Tensor
from ._layout import cast, iterator_layout, laid_out_like
from ._op import Op, export, inplace, method
from .pointwise import _zeros_like
from ._return_types import return_type

FrexpResult = return_type("frexp", ("mantissa", "exponent"))
FrexpOutResult = return_type("frexp_out", ("mantissa", "exponent"))


def _frexp_fwd(ctx, a):
    mantissa, exponent = np.frexp(a)
    if not a.size and a.ndim:  # (frexp's outputs are empty_like(self): an empty one's very strides)
        mantissa, exponent = laid_out_like(a, mantissa), laid_out_like(a, exponent.astype(np.int32))
    elif mantissa.ndim > 1 and zero_strided(a):  # (TensorIterator's layout: numpy's put a stride-0 dim innermost)
        mantissa, exponent = iterator_layout(mantissa, (a,)), iterator_layout(exponent, (a,))
    ctx.exponent = exponent.astype(np.int32, copy=False)
    return mantissa, ctx.exponent


_frexp = Op("FrexpBackward0", _frexp_fwd, outputs=1, keeps={"exponent": "exponent"}, kept_outputs={"exponent": 1})


@_frexp.derivative
def _(ctx, grads):
    # derivatives.yaml: grad / exponent.exp2()
    return grads / Tensor._make(ctx.exponent).exp2()


def _grad_check_first(mantissa, out):
    """autograd's refusal of out= comes before frexp_out's own checks."""
    from ..autograd import grad_mode
    if grad_mode._state["enabled"] and any(t._requires_grad for t in (mantissa, *out)):
        raise RuntimeError("frexp(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")


@export(method=True)
def frexp(input, *, out=None):
    if not input.dtype.is_floating_point:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    mantissa, exponent = _frexp.apply((input,), (input._data,), {})
    if out is not None:
        from ._op import _C_TYPE, finish_out
        if out[0].dtype is not input.dtype:  # (frexp_out's checks, after autograd's)
            _grad_check_first(mantissa, out)
            raise RuntimeError(f"torch.frexp() expects mantissa to have dtype {_C_TYPE[input.dtype.name]} but got "
                               f"{_C_TYPE[out[0].dtype.name]}")
        if out[1].dtype is not dtypes.int32:
            _grad_check_first(mantissa, out)
            raise RuntimeError(f"torch.frexp() expects exponent to have int dtype but got {_C_TYPE[out[1].dtype.name]}")
        defined = tuple(o._data for o in out if o.shape == mantissa.shape)  # (outs resized decide nothing)
        if defined and mantissa.ndim > 1:  # (TensorIterator's order: the outputs it keeps, then the input)
            mantissa._data = iterator_layout(mantissa._data, defined + (input._data,))
            exponent._data = iterator_layout(exponent._data, defined + (input._data,))
        mantissa = finish_out("frexp", mantissa, out[0])
        exponent = finish_out("frexp", exponent, out[1])
        return FrexpOutResult(mantissa, exponent)
    return FrexpResult(mantissa, exponent)


def _angle_fwd(ctx, a):
    out = np.where(a < 0, a.dtype.type(math.pi), a.dtype.type(0))
    return np.where(np.isnan(a), a, out).astype(a.dtype, copy=False)


# (TensorIterator: laid out like its input.) PyTorch saves self (angle_backward's complex formula
# needs it), so a second backward through the node fails; a real input's gradient is
# zeros_like(self) in self's layout
_angle = Op("AngleBackward0", _angle_fwd, saves=("self",), iterated=True)
_angle.derivative(lambda ctx, grad: _zeros_like(ctx.self))


@export(method=True)
def angle(input, *, out=None):
    a = input._data
    if not input.dtype.is_floating_point:  # integers and bools give the default float dtype
        a = cast(a, dtypes.get_default_dtype().numpy)  # (laid out like the input, as TensorIterator's cast)
    if out is not None:
        from ._op import finish_out
        return finish_out("angle", _angle.apply((input,), (a,), {}), out)
    return _angle.apply((input,), (a,), {})


# nextafter / ldexp -------------------------------------------------------------------------------

def _binary_floats(name, input, other, kernel_name, allow_int, out=None, written=None):
    """The two tensors of a binary op promoted to their result dtype (ints to the default float for
    ``allow_int``), with the parser's Tensor check and the dispatch's error for other dtypes;
    ``out``: the tensor written (ldexp's out= or self), whose dtype the result must cast to, checked
    before the shapes."""
    for t, arg, pos in ((input, "input", 1), (other, "other", 2)):
        if not isinstance(t, Tensor):
            raise TypeError(f"{name}(): argument '{arg}' (position {pos}) must be Tensor, not {type(t).__name__}")
    from ..tensor import _scalar_name
    d = dtypes.result_type(input, other)
    if not d.is_floating_point:
        if not allow_int:
            _shapes_first(input, other)  # (TensorIterator's shapes before the kernel's dispatch)
            if written is not None:  # (out='s check and resize too)
                from ._outs import out_before_kernel
                out_before_kernel(name, d, np.broadcast_shapes(input.shape, other.shape), written)
            raise NotImplementedError(f"\"{kernel_name}\" not implemented for '{_scalar_name(d)}'")
        d = dtypes.get_default_dtype()
    if out is not None:
        _ldexp_cast_check(d, out)
    _shapes_first(input, other)
    return d


def _shapes_first(input, other):
    try:
        np.broadcast_shapes(input.shape, other.shape)
    except ValueError:
        from .pointwise import _mismatch_message
        raise RuntimeError(_mismatch_message(tuple(input.shape), tuple(other.shape))) from None


def _nextafter_fwd(ctx, a, b, dtype):
    a, b = a.astype(dtype, copy=False), b.astype(dtype, copy=False)
    out = np.nextafter(a, b)
    if out.dtype == np.float16:  # (numpy's half nextafter keeps x where x == y; C's, and c10's Half, return y)
        out = np.where(a == b, b, out).astype(np.float16, copy=False)
    return out


_nextafter = Op("NextafterBackward0", _nextafter_fwd, inputs=("self", "other"), saves=("self", "other"),
                saves_for={"self": (0,), "other": (0,)}, iterated=True)


@_nextafter.derivative
def _(ctx, grad):
    # at::where(self != other, grad, 0): the gradient passes to self where it moves, none to other
    from .selection import where
    g_self = where(ctx.self != ctx.other, grad, 0) if ctx.needs(0) else None
    return g_self, grad.new_zeros(grad.shape) if ctx.needs(1) else None


@export(method=True)
def nextafter(input, other, *, out=None):
    """The next float after ``input`` towards ``other``, elementwise."""
    from ._op import finish_out
    d = _binary_floats("nextafter", input, other, "nextafter_cpu", False, written=out)
    return finish_out("nextafter", _nextafter.apply((input, other), (input._data, other._data), {"dtype": d.numpy}), out)


def _ldexp_fwd(ctx, a, b, dtype):
    from ..autograd import grad_mode
    from .power import pow as _pow
    # at::mul(self, at::pow(2.0, other)): the power in other's dtype (an integer exponent: the
    # default float), the product in the result dtype; a 0-d floating exponent with a floating self
    # other than float32 raises its power to the common dtype of both first (float64 self with a
    # float32 exponent: a float64 power; half self, half exponent: half), as PyTorch 2.13's kernel;
    # a half result times a 0-d power is mul's reduced-float scalar path (the power read as float)
    b = np.asarray(b)
    if np.asarray(a).dtype.kind == "f" and b.dtype.kind in "iu":
        # ldexp_kernel: static_cast<float_t>(std::ldexp(double(x), int(exp))), the exponent converted to C's int
        with np.errstate(all="ignore"):
            return np.ldexp(np.asarray(a, np.float64), b.astype(np.int64).astype(np.int32)).astype(dtype)
    if (b.ndim == 0 and b.dtype.kind == "f" and a.dtype.kind == "f" and a.dtype != np.float32
            and b.dtype != a.dtype):
        b = b.astype(np.promote_types(a.dtype, b.dtype))
    with grad_mode.no_grad():
        scale = _pow(2.0, Tensor._make(b))
        if a.dtype.kind == "f" and a.dtype != np.float32 and b.ndim > 1:
            # (_pow2 of a float64 / half self: full({}, 2.0, self's dtype).pow(other), a TensorIterator over
            # other: the power (of pow(2.0, other)'s values) laid out like other)
            scale = Tensor._make(iterator_layout(scale._data, [np.asarray(2.0, a.dtype), b]))
        if b.ndim == 0 and np.dtype(dtype) == np.float16:
            return (np.asarray(a, np.float32) * scale._data.astype(np.float32)).astype(np.float16)
        x = Tensor._make(np.asarray(a)).to(dtypes.from_numpy(dtype))
        return (x * scale.to(dtypes.from_numpy(dtype)))._data


# (other saved for self's formula only; the result whichever input requires grad: PyTorch's version checks)
_ldexp = Op("LdexpBackward0", _ldexp_fwd, inputs=("self", "other"), saves=("other", "result"),
            saves_for={"other": (0,)}, iterated=True)


# a floating exponent or an integer self: the result is mul(self, pow(2.0, other))'s own, laid out as that
# mul lays it out (a float self with an integer exponent: PyTorch's ldexp kernel's TensorIterator layout)
_ldexp_float = Op("LdexpBackward0", _ldexp_fwd, inputs=("self", "other"), saves=("other", "result"),
                  saves_for={"other": (0,)})


@_ldexp_float.derivative
@_ldexp.derivative
def _(ctx, grad):
    from .nn import mul_scalar
    from .power import pow as _pow
    # derivatives.yaml: self: grad * 2^other; other: grad * result * ln(2)
    g_self = grad * _pow(2, ctx.other) if ctx.needs(0) else None  # (an integer exponent: integer pow, 2**-2 is 0)
    g_other = mul_scalar(grad * ctx.result, math.log(2.0)) if ctx.needs(1) else None
    return g_self, g_other


@export(method=True)
def ldexp(input, other, *, out=None):
    """``input * 2 ** other``, elementwise."""
    return _ldexp_to(input, other, out, True)


def _ldexp_to(input, other, out, warn):
    """ldexp into ``out``; ``warn``: the out-of-place call, whose float result of another shape than a float
    ``input``'s with an integer ``other`` is warned about as a resized output (ldexp_ is refused quietly)."""
    from ._op import finish_out
    from ..tensor import _scalar_name
    # (ldexp_out's own dtype check comes first, after autograd's refusal of an out= with grad)
    checked = out is not None and not (graph._state["enabled"] and (
        input._requires_grad or isinstance(other, Tensor) and other._requires_grad or out._requires_grad))
    from ._outs import warn_resized
    d = _binary_floats("ldexp", input, other, "ldexp_cpu_exp", True, out if checked else None)
    shape = list(np.broadcast_shapes(input.shape, other.shape))
    float_int = input.dtype.is_floating_point and not other.dtype.is_floating_point
    # (a float input's own out, or out=, resized by the kernel's TensorIterator before its dispatch
    # refuses a bool exponent; ldexp_ is refused quietly)
    written = out if out is not None else input if warn else None
    if float_int and written is not None and list(written.shape) != shape and written.numel() > 0 and (
            out is None or checked and other.dtype is dtypes.bool_):
        warn_resized(written.shape, shape)
    if other.dtype is dtypes.bool_ and input.dtype.is_floating_point:
        if out is not None and not checked:  # (autograd's refusal of out= with grad comes first)
            raise RuntimeError("ldexp(): functions with out=... arguments don't support automatic differentiation, "
                               "but one of the arguments requires grad.")
        raise NotImplementedError(f"\"ldexp_cpu_exp\" not implemented for '{_scalar_name(other.dtype)}'")
    # (an integer self with an integer exponent too: mul(self, pow(2.0, other)), whose power is laid out
    # contiguous; a float self with an integer exponent is the kernel's TensorIterator layout)
    op = _ldexp_float if other.dtype.is_floating_point or not input.dtype.is_floating_point else _ldexp
    return finish_out("ldexp", op.apply((input, other), (input._data, other._data), {"dtype": d.numpy}), out)


method("nextafter_")(inplace(nextafter, partial=True))
def _ldexp_cast_check(d, out):
    from ..tensor import _can_cast, _scalar_name
    if not _can_cast(d, out.dtype):
        raise RuntimeError(f"ldexp can't be cast to the desired output type {_scalar_name(out.dtype)}")


def _ldexp_self(input, other):
    return _ldexp_to(input, other, None, False)


# (ldexp_ is self.mul_(pow(2.0, other)): other is read through a new tensor, so no overlap with self counts)
_ldexp_ = inplace(_ldexp_self, partial="shapes", name="ldexp")


@method("ldexp_")
def ldexp_(self, other):
    """ATen's ldexp_out(self, self, other): its dtype check before the in-place and overlap checks
    (an integer self cannot require grad, so the leaf check never comes first)."""
    if isinstance(other, Tensor) and not self.dtype.is_floating_point:
        _binary_floats("ldexp", self, other, "ldexp_cpu_exp", True, self)
    return _ldexp_(self, other)
