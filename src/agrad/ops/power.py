"""Powers: ``pow`` in PyTorch's three overloads (tensor ** number, tensor ** tensor,
number ** tensor), with the exact forms its kernels use for float tensors and its
integer rules for negative exponents.

Each overload is one entry: numpy forward, PyTorch's node name (PowBackward0/1/2),
what it saves, and its derivative written with agrad ops.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..tensor import Tensor
from . import _sleef_pow, _vec_math
from ._layout import cast, empty_like, iterator_layout
from ._op import Op, export, finish_out
from .pointwise import _like, _zeros_like, broadcast_error, check_operand, check_shapes, operands
from .selection import where

_result_type = dtypes.result_type

def _pow_scalar_array(a, exponent):
    """``a ** exponent`` for a number exponent, with PyTorch's kernel's exact forms for float
    tensors: ``x * x * x`` for 3, ``1 / sqrt(x)`` for -0.5, ``1 / (x * x)`` for -2 (numpy's
    power rounds these differently; 2 and -1 agree already), ``sqrt(x)`` for 0.5 (a negative
    number's NaN has its sign bit clear); any other exponent: _sleef_pow.pow_number's (Sleef's
    vector code and glibc's pow, element by element as the loop runs them)."""
    if type(a) is np.ndarray and a.dtype.kind == "f" and a.dtype.itemsize >= 4:
        if exponent == 3:
            return a * a * a
        if exponent == -2 or exponent == -0.5 or exponent == 0.5:
            with np.errstate(all="ignore"):
                if exponent == -2:
                    return np.reciprocal(a * a)
                if exponent == -0.5:
                    return np.reciprocal(np.sqrt(a))  # (its NaN has the sign bit set, as PyTorch's)
                return _vec_math.nan_signed(np.sqrt(a), a, False)  # (sqrt's NaN: sign bit clear)
        if exponent != 2 and exponent != -1 and exponent != 1 and exponent != 0 and not isinstance(exponent, complex):
            return _sleef_pow.pow_number(a, exponent)
    return np.power(a, exponent)


def _pow_scalar_fwd(ctx, a, exponent):
    return _pow_scalar_array(a, exponent)


_pow0 = Op("PowBackward0", _pow_scalar_fwd, saves=("self",), jvp="element_wise")


@_pow0.derivative
def _(ctx, grad):
    e = ctx.exponent
    if e == 0:  # pow_backward: zeros_like(self, LEGACY_CONTIGUOUS_MEMORY_FORMAT), whatever the gradient (NaN included)
        return Tensor._make(np.zeros(ctx.self.shape, ctx.self.dtype.numpy))
    return grad * (e * ctx.self.pow(e - 1))  # pow_backward: grad * (exponent * self.pow(exponent - 1))


@_pow0.raw_derivative
def _(ctx, g):
    e = ctx.exponent
    if e == 0:
        return np.zeros(ctx.self.shape, ctx.self.dtype.numpy)
    return np.multiply(g, np.multiply(_pow_scalar_array(_like(ctx.self, g), e - 1), e))


def _pow_tensor_fwd(ctx, a, b):
    if type(a) is np.ndarray and type(b) is np.ndarray and a.dtype == b.dtype and a.dtype.kind == "f" \
            and a.dtype.itemsize >= 4:
        return _sleef_pow.pow_tensors(a, b)
    out = np.power(a, b)
    if out.dtype.kind == "f" and np.any(b == 0.5):
        # numpy may take sqrt for a 0.5 exponent (a 0-d one): std::pow(-0.0, 0.5) is +0.0, std::pow(-inf, 0.5) +inf
        with np.errstate(invalid="ignore"):
            out = np.where(b == 0.5, np.where(a == -np.inf, np.inf, out + 0.0), out).astype(out.dtype, copy=False)
    return out


_pow1 = Op("PowBackward1", _pow_tensor_fwd, inputs=("self", "exponent"),
           saves=("self", "exponent", "result"), value_error=broadcast_error, jvp="element_wise", iterated=True)


@_pow1.derivative
def _(ctx, grad):
    base, exp = ctx.self, ctx.exponent
    g_exp = None
    if ctx.needs(1):  # (the exponent's first, as PyTorch's node computes the last input's first)
        # pow_backward_exponent: base**exp * log(base), taken as 0 where base == 0 and exp >= 0
        # (self in the promoted dtype of self and exponent, not the result's: an in-place pow_ of a float32
        # self by a float64 exponent takes its log in double)
        result = ctx.result
        d = _result_type(base, exp)
        b = base if base.dtype is d else base.to(d)
        g_exp = grad * where((ctx.self == 0) & (exp >= 0), 0.0, result * b.log())
    # pow_backward_self: 0 where the exponent is 0
    g_base = where(exp == 0.0, 0.0, grad * (exp * base.pow(exp - 1))) if ctx.needs(0) else None
    return g_base, g_exp


def _int_pow(a, e):
    """PyTorch's integer pow: a negative exponent gives 1 for 1, +-1 for -1, else 0 (numpy refuses it)."""
    try:
        a, e = np.broadcast_arrays(a, e)
    except ValueError:
        raise broadcast_error((a, e)) from None
    neg = e < 0
    special = np.where(a == 1, 1, np.where(a == -1, np.where(e % 2 == 0, 1, -1), 0))
    return np.where(neg, special, np.power(a, np.where(neg, 0, e))).astype(a.dtype)


def _pow2_fwd(ctx, e, base, number=None):
    if e.dtype.kind == "f" and e.dtype.itemsize >= 4 and base.dtype == e.dtype:
        out = _sleef_pow.pow_tensors(base, e, c_ordered=True)
    else:
        out = _int_pow(base, e) if e.dtype.kind in "iu" and (e < 0).any() else np.power(base, e)
    # PyTorch's number ** tensor is contiguous whatever the exponent's layout
    return out.copy() if type(out) is np.ndarray and not out.flags.c_contiguous else out


_pow2 = Op("PowBackward2", _pow2_fwd, inputs=("exponent",), saves=("exponent", "result"), jvp="element_wise",
           contiguous=True)


@_pow2.derivative
def _(ctx, grad):
    # (the formula's Scalar base as given, its log in double: the forward's base is rounded to the dtype)
    number = float(ctx.number if ctx.number is not None else ctx.base)
    if number == 0:
        return grad * where(ctx.exponent >= 0, 0.0, ctx.result * float("-inf"))
    return grad * (ctx.result * float(np.log(number)))


@export(method=True)
def pow(input, exponent, *, out=None):
    if isinstance(exponent, np.generic) or isinstance(input, np.generic):  # (the parser's Python numbers)
        input, exponent = (dtypes.python_number(v) for v in (input, exponent))
    for x in (input, exponent):
        if type(x) is int and not -2 ** 63 <= x < 2 ** 64:
            from .pointwise import unpack_overflow
            unpack_overflow(x)
    if not isinstance(input, Tensor):  # scalar ** tensor
        d = _result_type(input, exponent)
        if d is dtypes.bool_:
            raise NotImplementedError('"pow" not implemented for \'Bool\'')
        e = exponent
        arr = e._data.astype(d.numpy, copy=False)
        base = np.array(input).astype(d.numpy) if isinstance(input, int) else np.array(input, d.numpy)  # (wraps)
        return finish_out("pow", _pow2.apply((e,), (arr,), {"base": base, "number": input}), out)
    if isinstance(exponent, Tensor):
        ts, arrs = operands(input, exponent, "pow")
        if arrs[0].dtype.kind in "biu":
            check_shapes(arrs)  # (before the kernel's dtype and its integer checks)
        if arrs[0].dtype == np.bool_:
            from ._outs import out_before_kernel
            out_before_kernel("pow", dtypes.bool_, np.broadcast_shapes(*(np.shape(a) for a in arrs)), out)
            raise NotImplementedError('"pow" not implemented for \'Bool\'')
        if arrs[0].dtype.kind in "iu" and (arrs[1] < 0).any():  # integer ** integer tensor
            return finish_out("pow", Tensor._make(iterator_layout(_int_pow(*arrs), arrs)), out)
        return finish_out("pow", _pow1.apply(ts, arrs, {}), out)
    check_operand(exponent, "pow")
    if type(exponent) is int and exponent >= 2 ** 63 and input.dtype._kind < 2:  # (the meta's exp.toLong())
        raise RuntimeError("value cannot be converted to type int64_t without overflow")
    d = _result_type(input, exponent)
    if d._kind == 1 and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    if d is dtypes.bool_:  # bool ** True / False: PyTorch's copy / fill with ones (no bool kernel)
        value = empty_like(input._data)  # (the output TensorIterator lays out like the input)
        value[...] = input._data if exponent else True
        return finish_out("pow", Tensor._make(value), out)
    if d._kind == 1 or d is dtypes.float16:  # the kernel's exp.to<scalar_t>(): a checked conversion
        dtypes.checked_scalar(exponent, d.numpy)
    arr = input._data if input._data.dtype == d.numpy else cast(input._data, d.numpy)
    return finish_out("pow", _pow0.apply((input,), (arr,), {"exponent": exponent}), out)
