"""Tensor's Python operators (``+``, ``==``, ``&``, ``@``, ``+=``, ...) mapped to the ops
of the pointwise, comparison and linalg families, with Python's NotImplemented
for operands they do not know."""

from __future__ import annotations

import numbers

import numpy as np

from .. import dtypes
from ..tensor import Tensor, _scalar_name
from ._not_implemented import not_implemented
from ._op import FUNCTIONS, METHODS, _unpacked_first, inplace, method
from ._shortcuts import ONE32, ONE64
from .factories import is_agrad_array as _is_agrad_array
from .comparison import (bitwise_and, bitwise_left_shift, bitwise_left_shift_, bitwise_not, bitwise_or,
                         bitwise_right_shift, bitwise_right_shift_, bitwise_xor, eq, eq_, ge, ge_, gt, gt_, into_self,
                         le, le_, logical_and, logical_not, logical_or, logical_xor, lt, lt_, ne, ne_)
from .division import floor_divide, floor_divide_, in_order_until_zero, reciprocal, remainder
from .pointwise import (_F32, _F64, _LONG, _ULONG, _NO_MODE, _WEAK32, _WEAK64, _add, _div, _formula_state, _mul, _rsub, _sub,
                        _weak_new, add, add_in_place, check_operand, check_sub, div, div_in_place, mul, mul_in_place, neg,
                        operands, sub, sub_in_place)
from .._limits import check_broadcast
from .power import pow
from .unary import abs  # the ops (Tensor.__abs__, __pow__) shadow the builtins here

_ONE = (1,)
_empty = np.empty
_ndarray = np.ndarray


# ---------------------------------------------------------------------------
# Python operators
# ---------------------------------------------------------------------------

def _reflect(fn):
    return lambda self, other: fn(other, self) if isinstance(other, Tensor) else _swap(fn, self, other)


def _swap(fn, self, other):
    check_operand(other, fn.__name__)
    ts, arrs = operands(other, self, fn.__name__)
    return fn(ts[0], ts[1])


def _rmod(self, other):
    """number % tensor: PyTorch's remainder.Scalar_Tensor, which has no derivative (NotImplemented)."""
    if isinstance(other, Tensor):
        return remainder(other, self)
    check_operand(other, "remainder")
    ts, arrs = operands(other, self, "remainder")
    value = remainder(ts[0].detach(), ts[1].detach())._data
    return not_implemented(value, (self,), "aten::remainder")


def _rsub_method(self, other):
    check_operand(other, "rsub")
    check_sub(self, other)
    ts, arrs = operands(self, other, "rsub")
    if _formula_state["formula"] and self.dtype.is_floating_point:
        # ``1 - x`` in a C++ formula is empty_like(x).fill_(1).sub_(x): SubBackward0, its self edge None
        return _sub.apply((None, ts[0]), (arrs[1], arrs[0]), {})
    return _rsub.apply((ts[0],), (arrs[0], arrs[1]), {})


def _rdiv(self, other):
    if _formula_state["formula"] and self.dtype.is_floating_point and not isinstance(other, Tensor):
        # ``1 / x`` in a C++ formula is empty_like(x).fill_(1).div_(x): DivBackward0, its self edge None
        check_operand(other, "div")
        ts, arrs = operands(self, other, "div")
        return _div.apply((None, ts[0]), (arrs[1], arrs[0]), {})
    if _formula_state["formula"] and not self.dtype.is_floating_point and not self.dtype.is_complex \
            and not isinstance(other, Tensor):  # (addcdiv's value / tensor2): div_ into an integer tensor
        Tensor._make(np.zeros((), self._data.dtype)).fill_(other)  # (after fill_'s conversion: c10's overflow)
        raise RuntimeError(f"result type {_scalar_name(dtypes.get_default_dtype())} can't be cast to the desired "
                           f"output type {_scalar_name(self.dtype)}")
    # PyTorch computes scalar / x as scalar * x.reciprocal()
    check_operand(other, "div")
    x = self if self.dtype.is_floating_point else self.to(dtypes.get_default_dtype())
    return mul(reciprocal(x), other)


def _rpow(self, other):
    check_operand(other, "pow")
    return pow(other, self)


def _matmul(a, b):
    """``a @ b``: tensors and numpy arrays; Python's NotImplemented for numbers and the rest, as in PyTorch."""
    from .linalg import matmul
    if type(b) is np.ndarray:
        b = Tensor._make(np.array(b))
    elif not isinstance(b, Tensor):
        return NotImplemented
    return matmul(a, b)


def _rmatmul(a, b):
    from .linalg import matmul
    if not isinstance(b, Tensor):
        return NotImplemented
    return matmul(b, a)


def _and(a, b):
    return logical_and(a, b) if _is_bool(a, b) else bitwise_and(a, b)


def _or(a, b):
    return logical_or(a, b) if _is_bool(a, b) else bitwise_or(a, b)


def _xor(a, b):
    return logical_xor(a, b) if _is_bool(a, b) else bitwise_xor(a, b)


def _is_bool(a, b):
    return all((isinstance(x, Tensor) and x.dtype is dtypes.bool_) or isinstance(x, (bool, np.bool_)) for x in (a, b))


def _not_implemented_for_others(fn):
    """An operator method: Python's NotImplemented for operands it does not know,
    so ``x * "a"`` raises Python's own TypeError, as PyTorch's does."""
    known = (Tensor, numbers.Number, np.number, np.bool_)

    def op(self, other):
        t = type(other)
        if t is Tensor or t is float or t is int or isinstance(other, known):
            return fn(self, other)
        if t is np.ndarray or _is_agrad_array(other):
            # a numpy array is an operand like a tensor of its dtype, as in PyTorch
            return fn(self, Tensor._make(np.array(other)))
        return NotImplemented

    return op


def _arithmetic(fn, op, is_mul):
    """``+`` and ``*`` (``fn``: add, mul; ``op`` its Op): a float32 or float64 tensor with a
    Python number or a tensor of its dtype goes straight to the op, as ``fn`` would send it
    (no promotion, no scalar overload outside formulas); the rest takes ``fn``'s way.  One
    float64 element (shape (1,)) and a float that is no NaN: the sum or product on Python
    floats, IEEE doubles as the ufunc's, stored into a fresh array (a ufunc call costs more)."""
    general = _not_implemented_for_others(fn)
    ufunc = op.ufunc
    numbers = getattr(op.kernel, "numbers", ufunc)  # (add's: np.add, without ufunc's NaN check)
    apply_one = op.apply_one  # (the op's own copy, bound once: an instance's attribute is a slow read)
    apply_two = op.apply_two

    def method_(self, other):
        t = type(other)
        if t is Tensor:
            if type(self) is Tensor and not _formula_state["formula"]:
                a = self._data
                b = other._data
                d = a.dtype
                if (d is _F64 or d is _F32) and b.dtype is d:
                    if a.ndim and b.ndim and a.shape != b.shape:
                        # (a 0-d operand or equal shapes: the result has a checked tensor's size)
                        check_broadcast(a, b)
                    return apply_two(self, other, (a, b), ufunc)
        elif (t is float or t is int and -_LONG <= other < _ULONG) and type(self) is Tensor \
                and not _formula_state["formula"]:
            a = self._data
            d = a.dtype
            # (the op's kernel's case: the number as weak() gives it; one element (shape (1,)): apply_one
            # is told so, the result's too, and reads no array)
            if d is _F64:
                one = None
                if a.shape == _ONE and type(a) is _ndarray:
                    if t is float and other == other:
                        res = _empty(1)  # (with one NaN operand, that NaN whichever order C computes in)
                        res[0] = a.item() * other if is_mul else a.item() + other
                        return apply_one(self, (a, other), None, None, res, ONE64)
                    one = ONE64
                c = _WEAK64.get(other)
                if c is None:
                    if other != other:  # (NaN: the op's kernel, add's which NaN)
                        return general(self, other)
                    c = _weak_new(other, d)
                return apply_one(self, (a, other), numbers, c, None, one)
            if d is _F32:
                one = ONE32 if a.shape == _ONE and type(a) is _ndarray else None
                c = _WEAK32.get(other)
                if c is None:
                    if other != other:
                        return general(self, other)
                    c = _weak_new(other, d)
                return apply_one(self, (a, other), numbers, c, None, one)
        return general(self, other)

    return method_


_OPERATORS = {
    "__add__": add, "__radd__": add,
    "__sub__": sub, "__rsub__": _rsub_method,
    "__mul__": mul, "__rmul__": mul,
    "__truediv__": div, "__rtruediv__": _rdiv,
    "__floordiv__": floor_divide, "__rfloordiv__": _reflect(floor_divide),
    "__mod__": remainder, "__rmod__": _rmod,
    "__pow__": pow, "__rpow__": _rpow,
    "__matmul__": _matmul, "__rmatmul__": _rmatmul,
    "__eq__": eq, "__ne__": ne, "__lt__": lt, "__le__": le, "__gt__": gt, "__ge__": ge,
    "__and__": _and, "__rand__": _and, "__or__": _or, "__ror__": _or, "__xor__": _xor, "__rxor__": _xor,
    "__lshift__": bitwise_left_shift, "__rlshift__": _reflect(bitwise_left_shift),
    "__rshift__": bitwise_right_shift, "__rrshift__": _reflect(bitwise_right_shift),
}
for _name, _fn in _OPERATORS.items():
    METHOD = _fn if _name in ("__matmul__", "__rmatmul__") else _not_implemented_for_others(_fn)
    method(_name)(METHOD)
for _name, _fn, _op in (("__add__", add, _add), ("__radd__", add, _add), ("__mul__", mul, _mul), ("__rmul__", mul, _mul)):
    method(_name)(_arithmetic(_fn, _op, _fn is mul))

method("__neg__")(neg)
method("__abs__")(abs)
def _invert(self):
    if self.dtype.is_floating_point:  # Tensor.__invert__ in torch/_tensor.py
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return logical_not(self) if self.dtype is dtypes.bool_ else bitwise_not(self)


method("__invert__")(_invert)
def _pos(self):
    if self.dtype is dtypes.bool_:  # torch.positive
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return self


method("__pos__")(_pos)
_remainder_in_place = in_order_until_zero(remainder, np.mod)  # (integers: np.mod is Python's, PyTorch's)


def _checked_first(method_, check):
    """``method_`` running ``check(self, *args)`` first: an op's own refusal (its meta function) comes
    before TensorIterator's overlap check, and after autograd's checks, which a tensor that does
    not require grad cannot fail."""

    def call(self, *args, **kwargs):
        if not self._requires_grad:
            try:
                check(self, *args)
            except RuntimeError:
                _unpacked_first(args, kwargs)  # (the parser's unpacking comes first)
                raise
        return method_(self, *args, **kwargs)

    call.__name__ = call.__qualname__ = method_.__name__
    call.__doc__, call.__module__ = method_.__doc__, method_.__module__
    return call


def _sub_check(self, other=None, *_):
    check_sub(self, other)


def _neg_check(self, *_):
    if self.dtype is dtypes.bool_:
        neg(self)


def _pow_check(self, exponent=None, *_):
    if type(exponent) is int and exponent < 0 and self.dtype._kind < 2:  # (an integer result: bool ** int too)
        raise RuntimeError("Integers to negative integer powers are not allowed.")


def _div_in_place(input, other, *, rounding_mode=_NO_MODE):
    """div_ / divide_: an integer floor or trunc division writes its results in order up to a zero divisor."""
    from .pointwise import _trunc_divide

    if rounding_mode not in ("floor", "trunc"):
        return div_in_place(input, other) if rounding_mode is _NO_MODE else div(input, other, rounding_mode=rounding_mode)
    kernel = np.floor_divide if rounding_mode == "floor" else _trunc_divide
    return in_order_until_zero(lambda a, b: div(a, b, rounding_mode=rounding_mode), kernel)(input, other)


def _true_divide_in_place(input, other):
    return div_in_place(input, other)


_FIRST = {"sub_": _sub_check, "subtract_": _sub_check, "__isub__": _sub_check, "neg_": _neg_check,
          "negative_": _neg_check, "pow_": _pow_check, "__ipow__": _pow_check}
for _name, _fn in {"add_": add_in_place, "sub_": sub_in_place, "subtract_": sub_in_place, "mul_": mul_in_place, "multiply_": mul_in_place,
                   "div_": _div_in_place, "divide_": _div_in_place, "true_divide_": _true_divide_in_place, "pow_": pow, "neg_": neg, "negative_": neg,
                   "floor_divide_": floor_divide_, "remainder_": _remainder_in_place}.items():
    _fn = inplace(_fn, partial=True)
    method(_name)(_checked_first(_fn, _FIRST[_name]) if _name in _FIRST else _fn)


def _alpha_first(fn, name, form):
    """``fn`` (add, sub, add_, sub_) also as PyTorch's deprecated overload ``(input, Number alpha, Tensor
    other)``, ``other`` by position or keyword: its warning (one per process for every such overload:
    python_arg_parser's TORCH_WARN_ONCE), then the call with ``alpha=``."""
    if form == "function":
        old = f"{name}(Tensor input, Number alpha, Tensor other, *, Tensor out = None)"
        new = f"{name}(Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)"
    else:
        old, new = f"{name}(Number alpha, Tensor other)", f"{name}(Tensor other, *, Number alpha = 1)"
    text = f"This overload of {name} is deprecated:\n\t{old}\nConsider using one of the following signatures instead:\n\t{new}"

    def call(input, *args, **kwargs):
        if (len(args) == 2 or len(args) == 1 and "other" in kwargs) and "alpha" not in kwargs and (
                isinstance(args[0], numbers.Number) or type(args[0]) is Tensor and args[0].ndim == 0):
            from .. import _warn_once
            from ..settings import is_warn_always_enabled
            if is_warn_always_enabled() or not _warn_once._GIVEN & _DEPRECATED_ALPHA:
                _warn_once.warn_once(text)
            _DEPRECATED_ALPHA.add(text)
            alpha = args[0].item() if type(args[0]) is Tensor else args[0]
            return fn(input, args[1] if len(args) == 2 else kwargs.pop("other"), alpha=alpha, **kwargs)
        return fn(input, *args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__doc__, call.__module__, call.__wrapped__ = fn.__doc__, fn.__module__, fn
    return call


_DEPRECATED_ALPHA: set = set()  # (the texts: any of them given stops the others)
for _name, _fn in {"add": add, "sub": sub}.items():
    FUNCTIONS[_name] = _alpha_first(_fn, _name, "function")
    METHODS[_name] = _alpha_first(_fn, _name, "method")
    METHODS[_name + "_"] = _alpha_first(METHODS[_name + "_"], _name + "_", "method")
for _name, _fn in {"__iadd__": add_in_place, "__isub__": sub_in_place, "__imul__": mul_in_place, "__itruediv__": div_in_place,
                   "__ipow__": pow, "__ifloordiv__": floor_divide_, "__imod__": _remainder_in_place}.items():
    _fn = inplace(_fn, partial=True)
    method(_name)(_checked_first(_fn, _FIRST[_name]) if _name in _FIRST else _fn)
for _name, _fn in {"__iand__": _and, "__ior__": _or, "__ixor__": _xor}.items():
    method(_name)(_not_implemented_for_others(
        inplace(lambda self, other, _fn=_fn: into_self(_fn, self, other), name=_fn.__name__, partial=True)))
method("__ilshift__")(_not_implemented_for_others(bitwise_left_shift_))
method("__irshift__")(_not_implemented_for_others(bitwise_right_shift_))
for _name, _fn in {"eq_": eq_, "ne_": ne_, "lt_": lt_, "le_": le_, "gt_": gt_, "ge_": ge_}.items():
    method(_name)(inplace(_fn, partial=True))
# PyTorch's other names of the in-place comparisons and abs_ (the same ops, the same nodes)
for _name, _alias in {"ne_": "not_equal_", "lt_": "less_", "le_": "less_equal_", "gt_": "greater_",
                      "ge_": "greater_equal_", "abs_": "absolute_"}.items():
    method(_alias)(METHODS[_name])
