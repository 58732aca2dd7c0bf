"""Pointwise ops: arithmetic with broadcasting and type promotion, unary maths.

Each op is one entry: its numpy forward, its node name, what it saves, and its
derivative written with agrad ops (derivatives.yaml's formulas).
"""

from __future__ import annotations

import numbers

import numpy as np

from .. import dtypes
from ..tensor import Tensor
from . import factories
from ._op import Op, export, finish_out, inplace, method, node_name

_result_type = dtypes.result_type
_NO_ATTRS: dict = {}  # shared by calls that pass no attributes (never mutated)


# ---------------------------------------------------------------------------
# operands
# ---------------------------------------------------------------------------

def check_operand(x, fname):
    if type(x) is Tensor or isinstance(x, Tensor):
        return x
    if isinstance(x, (numbers.Number, np.number, np.bool_)) and not isinstance(x, complex):
        return x
    raise TypeError(
        f"{fname}(): argument 'other' (position 2) must be Tensor or Number, not {type(x).__name__}")


def operands(a, b, fname="op", dtype=None):
    """(tensors, arrays) for a binary op: both cast to the promoted dtype (``dtype``
    overrides).  The arrays are what the kernel reads; the tensors are what the graph
    records.  A Python number beside a float tensor is passed through as is (numpy
    treats it as weak, as torch does): its tensor is then None and its "array" the
    number.  Other Python numbers are wrapped as 0-d tensors."""
    if dtype is None and type(a) is Tensor:
        # fast paths: same-dtype tensors; a float tensor with a Python number
        tb = type(b)
        if tb is Tensor:
            if a._data.dtype == b._data.dtype:
                return (a, b), (a._data, b._data)
        elif (tb is float or tb is int) and a._data.dtype.kind == "f":
            # numpy treats a Python number as weak, exactly like torch's wrapped
            # numbers with a float tensor: no wrapping, no cast
            return (a, None), (a._data, b)
    check_operand(a, fname)
    check_operand(b, fname)
    d = dtype or _result_type(a, b)
    if not isinstance(a, Tensor):
        a = factories.wrap(a, d)
    if not isinstance(b, Tensor):
        b = factories.wrap(b, d)
    npd = d.numpy
    return (a, b), (a._data if a._data.dtype == npd else a._data.astype(npd),
                    b._data if b._data.dtype == npd else b._data.astype(npd))


def _float_array(x):
    """Integer and bool data promoted to the default float dtype (sin(int) is float)."""
    d = x._data
    if d.dtype.kind in "biu":
        return d.astype(dtypes.get_default_dtype().numpy)
    return d


def broadcast_error(arrays):
    """PyTorch's error for operands that do not broadcast (numpy raised ValueError)."""
    return RuntimeError(_mismatch_message(np.shape(arrays[0]), np.shape(arrays[1])))


def _mismatch_message(sa, sb):
    na, nb = len(sa), len(sb)
    n = max(na, nb)
    for i in range(1, n + 1):
        da = sa[-i] if i <= na else 1
        db = sb[-i] if i <= nb else 1
        if da != db and da != 1 and db != 1:
            return (f"The size of tensor a ({da}) must match the size of tensor b ({db}) "
                    f"at non-singleton dimension {n - i}")
    return f"shapes {list(sa)} and {list(sb)} cannot be broadcast together"


# ---------------------------------------------------------------------------
# binary arithmetic
# ---------------------------------------------------------------------------

def binary(np_fn, name, *, saves=(), saves_for=None, overload=0):
    """A differentiable binary op over (self, other); decorate its derivative."""

    def deco(derivative):
        op = Op(node_name(name, overload), lambda ctx, a, b: np_fn(a, b), inputs=("self", "other"),
                saves=saves, saves_for=saves_for, value_error=broadcast_error)
        op.derivative(derivative)
        return op

    return deco


def _add_fwd(ctx, a, b, alpha=1):
    return np.add(a, b) if alpha == 1 else np.add(a, np.multiply(b, alpha, dtype=b.dtype))


def _sub_fwd(ctx, a, b, alpha=1):
    return np.subtract(a, b) if alpha == 1 else np.subtract(a, np.multiply(b, alpha, dtype=b.dtype))


_add = Op("AddBackward0", _add_fwd, inputs=("self", "other"), value_error=broadcast_error)
_sub = Op("SubBackward0", _sub_fwd, inputs=("self", "other"), value_error=broadcast_error)


@_add.derivative
def _(ctx, grad):
    alpha = ctx.__dict__.get("alpha", 1)
    return grad, grad if alpha == 1 else grad * alpha


@_sub.derivative
def _(ctx, grad):
    alpha = ctx.__dict__.get("alpha", 1)
    return grad, -grad if alpha == 1 else grad * -alpha


@binary(np.multiply, "mul", saves=("self", "other"), saves_for={"self": (1,), "other": (0,)})
def _mul(ctx, grad):
    return (grad * ctx.other if ctx.needs(0) else None,
            grad * ctx.self if ctx.needs(1) else None)


@binary(np.true_divide, "div", saves=("self", "other"), saves_for={"self": (1,)})
def _div(ctx, grad):
    other = ctx.other
    return (grad / other if ctx.needs(0) else None,
            -grad * ctx.self / (other * other) if ctx.needs(1) else None)


_rsub = Op("RsubBackward1", lambda ctx, a, b: np.subtract(b, a), inputs=("self", "other"))


@_rsub.derivative
def _(ctx, grad):
    return -grad, None


@export(method=True)
def add(input, other, *, alpha=1, out=None):
    """input + alpha * other."""
    ts, arrs = operands(input, other, "add")
    result = _add.apply(ts, arrs, {"alpha": alpha} if alpha != 1 else _NO_ATTRS)
    return result if out is None else finish_out("add", result, out)


@export("sub", "subtract", method=True)
def sub(input, other, *, alpha=1, out=None):
    """input - alpha * other."""
    ts, arrs = operands(input, other, "sub")
    if ts[0].dtype is dtypes.bool_ and ts[1].dtype is dtypes.bool_:
        raise RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. "
            "Use the `^` or `logical_xor()` operator instead.")
    result = _sub.apply(ts, arrs, {"alpha": alpha} if alpha != 1 else _NO_ATTRS)
    return result if out is None else finish_out("sub", result, out)


@export("mul", "multiply", method=True)
def mul(input, other, *, out=None):
    ts, arrs = operands(input, other, "mul")
    result = _mul.apply(ts, arrs, _NO_ATTRS)
    return result if out is None else finish_out("mul", result, out)


@export("div", "divide", "true_divide", method=True)
def div(input, other, *, rounding_mode=None, out=None):
    if rounding_mode is not None:
        ts, arrs = operands(input, other, "div")
        fn = np.floor_divide if rounding_mode == "floor" else lambda a, b: np.trunc(a / b).astype(a.dtype)
        if rounding_mode not in ("floor", "trunc"):
            raise RuntimeError(
                f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{rounding_mode}'")
        return finish_out("div", _nograd(fn(*arrs), ts), out)
    d = _result_type(input, other)
    if not d.is_floating_point:
        d = dtypes.get_default_dtype()
    ts, arrs = operands(input, other, "div", dtype=d)
    result = _div.apply(ts, arrs, _NO_ATTRS)
    return result if out is None else finish_out("div", result, out)


def _nograd(array, tensors=()):
    """A result with no gradient (integer maths, comparisons)."""
    return Tensor._make(np.asarray(array))


_neg = Op("NegBackward0", lambda ctx, a: np.negative(a))


@_neg.derivative
def _(ctx, grad):
    return -grad


@export("neg", "negative", method=True)
def neg(input, *, out=None):
    if input.dtype is dtypes.bool_:
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. "
            "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
    return finish_out("neg", _neg(input), out)


# pow: three overloads, as PyTorch dispatches them
def _pow_scalar_fwd(ctx, a, exponent):
    return np.power(a, exponent)


_pow0 = Op("PowBackward0", _pow_scalar_fwd, saves=("self",))


@_pow0.derivative
def _(ctx, grad):
    e = ctx.exponent
    if e == 0:
        return grad * 0
    return grad * e * ctx.self.pow(e - 1)


_pow1 = Op("PowBackward1", lambda ctx, a, b: np.power(a, b), inputs=("self", "exponent"),
           saves=("self", "exponent", "result"), value_error=broadcast_error)


@_pow1.derivative
def _(ctx, grad):
    base, exp = ctx.self, ctx.exponent
    g_base = grad * exp * base.pow(exp - 1) if ctx.needs(0) else None
    # d/dexp base**exp = base**exp * log(base), taken as 0 where base == 0 and exp >= 0
    g_exp = where((base == 0) & (exp >= 0), 0.0, grad * ctx.result * base.log()) if ctx.needs(1) else None
    return g_base, g_exp


_pow2 = Op("PowBackward2", lambda ctx, e, base: np.power(base, e), inputs=("exponent",),
           saves=("exponent", "result"))


@_pow2.derivative
def _(ctx, grad):
    base = ctx.base
    if base == 0:
        return where(ctx.exponent >= 0, 0.0, grad * ctx.result * float("-inf"))
    return grad * ctx.result * float(np.log(base))


@export(method=True)
def pow(input, exponent, *, out=None):
    if not isinstance(input, Tensor):  # scalar ** tensor
        d = _result_type(input, exponent)
        e = exponent
        arr = e._data.astype(d.numpy, copy=False)
        return finish_out("pow", _pow2.apply((e,), (arr,), {"base": np.array(input, d.numpy)}), out)
    if isinstance(exponent, Tensor):
        ts, arrs = operands(input, exponent, "pow")
        if arrs[0].dtype.kind in "iu" and (arrs[1] < 0).any():
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        return finish_out("pow", _pow1.apply(ts, arrs, {}), out)
    check_operand(exponent, "pow")
    d = _result_type(input, exponent)
    if d._kind == 1 and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    arr = input._data.astype(d.numpy, copy=False)
    return finish_out("pow", _pow0.apply((input,), (arr,), {"exponent": exponent}), out)


# ---------------------------------------------------------------------------
# unary maths
# ---------------------------------------------------------------------------

def unary(np_fn, *, saves=("self",), name=None, float_out=True, method_name=True, exports=None):
    """Define a unary op from its numpy forward; the decorated function is its derivative.

    Registers ``torch.<name>``, ``Tensor.<name>`` and ``Tensor.<name>_``.
    """

    def deco(derivative):
        fname = name or derivative.__name__
        op = Op(node_name(fname), lambda ctx, a: np_fn(a), saves=saves)
        op.derivative(derivative)

        apply = op.apply
        no_attrs = {}

        def api(input, *, out=None):
            arr = input._data
            if float_out and arr.dtype.kind in "biu":
                arr = arr.astype(dtypes.get_default_dtype().numpy)
            result = apply((input,), (arr,), no_attrs)
            return result if out is None else finish_out(fname, result, out)

        api.__name__ = fname
        api.__doc__ = f"Elementwise {fname} (node {op.name})."
        api.op = op
        export(*(exports or (fname,)), method=method_name)(api)
        method(fname + "_")(inplace(api))
        return api

    return deco


@unary(np.exp, saves=("result",))
def exp(ctx, grad):
    return grad * ctx.result


@unary(np.log)
def log(ctx, grad):
    return grad / ctx.self


@unary(np.sin)
def sin(ctx, grad):
    return grad * ctx.self.cos()


@unary(np.cos)
def cos(ctx, grad):
    return grad * -ctx.self.sin()


@unary(np.tanh, saves=("result",))
def tanh(ctx, grad):
    return _tanh_backward(grad, ctx.result)


# PyTorch's fused backward ops (their own nodes in a double-backward graph)

def _fused_backward(name, np_fn, d_grad_output, d_output):
    """An op ``name(grad_output, output)`` with its derivative (derivatives.yaml)."""
    op = Op(name, lambda ctx, g, y: np_fn(g, y), inputs=("grad_output", "output"),
            saves=("grad_output", "output"), saves_for={"grad_output": (1,)}, internal=True)

    @op.derivative
    def _(ctx, grad):
        return (d_grad_output(grad, ctx.output) if ctx.needs(0) else None,
                d_output(grad, ctx.grad_output, ctx.output) if ctx.needs(1) else None)

    return op


_tanh_backward = _fused_backward(
    "TanhBackwardBackward0", lambda g, y: g * (1 - y * y),
    lambda grad, y: _tanh_backward(grad, y), lambda grad, go, y: grad * (-2 * y * go))


def _sigmoid(a):
    # exp(-|a|) never overflows; the two halves are the same function.
    e = np.exp(-np.abs(a))
    return np.where(a >= 0, 1 / (1 + e), e / (1 + e)).astype(a.dtype, copy=False)


@unary(_sigmoid, saves=("result",))
def sigmoid(ctx, grad):
    return _sigmoid_backward(grad, ctx.result)


_sigmoid_backward = _fused_backward(
    "SigmoidBackwardBackward0", lambda g, y: g * (y * (1 - y)),
    lambda grad, y: _sigmoid_backward(grad, y), lambda grad, go, y: grad * go * (1 - 2 * y))


@unary(lambda a: np.maximum(a, 0).astype(a.dtype, copy=False), saves=("result",), float_out=False)
def relu(ctx, grad):
    return _threshold_backward(grad, ctx.result, threshold=0)


_threshold_backward = Op("ThresholdBackwardBackward0",
                         lambda ctx, g, x, threshold: np.where(x <= threshold, 0, g).astype(g.dtype, copy=False),
                         inputs=("grad_output", "self"), saves=("self",), internal=True)


@_threshold_backward.derivative
def _(ctx, grad):
    return _threshold_backward(grad, ctx.self, threshold=ctx.threshold), None


@unary(np.abs, float_out=False, exports=("abs", "absolute"))
def abs(ctx, grad):
    return grad * ctx.self.sign()


@unary(np.sqrt, saves=("result",))
def sqrt(ctx, grad):
    return grad / (2 * ctx.result)


@unary(np.sign, saves=(), float_out=False)
def sign(ctx, grad):
    return grad * 0


# ---------------------------------------------------------------------------
# clamp and where
# ---------------------------------------------------------------------------

_clamp1 = Op("ClampBackward1", lambda ctx, a, min, max: np.clip(a, min, max).astype(a.dtype, copy=False),
             saves=("self",))


@_clamp1.derivative
def _(ctx, grad):
    x = ctx.self
    mask = None
    if ctx.min is not None:
        mask = x >= ctx.min
    if ctx.max is not None:
        m = x <= ctx.max
        mask = m if mask is None else mask & m
    return grad * mask


_clamp0 = Op("ClampBackward0", lambda ctx, a, lo, hi: np.clip(a, lo, hi), inputs=("self", "min", "max"),
             saves=("self", "min", "max"))


@_clamp0.derivative
def _(ctx, grad):
    x, lo, hi = ctx.self, ctx.min, ctx.max
    keep = (x >= lo) & (x <= hi)
    return grad * keep, grad * ((x < lo) & (lo < hi)), grad * ((x > hi) | (hi < lo))


@export("clamp", "clip", method=True)
def clamp(input, min=None, max=None, *, out=None):
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
        arrs = [t._data.astype(d.numpy, copy=False) for t in (input, lo, hi)]
        return finish_out("clamp", _clamp0.apply((input, lo, hi), arrs, {}), out)
    d = _result_type(input, *(v for v in (min, max) if v is not None))
    arr = input._data.astype(d.numpy, copy=False)
    return finish_out("clamp", _clamp1.apply((input,), (arr,), {"min": min, "max": max}), out)


def full_like_scalar(like, value, d):
    return Tensor._make(np.array(value, d.numpy))


method("clip")(clamp)
method("clamp_", "clip_")(inplace(clamp))


def _one_sided_clamp(name, np_fn, keep, bound_wins):
    """clamp_min / clamp_max: their own nodes (ClampMinBackward0, ...), unlike clamp(min=...)."""
    scalar_op = Op(node_name(name), lambda ctx, a, bound: np_fn(a, bound).astype(a.dtype, copy=False),
                   saves=("self",))
    scalar_op.derivative(lambda ctx, grad: grad * keep(ctx.self, ctx.bound))
    tensor_op = Op(node_name(name, 1), lambda ctx, a, b: np_fn(a, b), inputs=("self", name[6:]),
                   saves=("self", name[6:]), value_error=broadcast_error)

    @tensor_op.derivative
    def _(ctx, grad):
        x, b = ctx.self, getattr(ctx, name[6:])
        return grad * keep(x, b), grad * bound_wins(x, b)

    def fn(input, bound, *, out=None):
        if isinstance(bound, Tensor):
            ts, arrs = operands(input, bound, name)
            return finish_out(name, tensor_op.apply(ts, arrs, {}), out)
        d = _result_type(input, bound)
        return finish_out(name, scalar_op.apply((input,), (input._data.astype(d.numpy, copy=False),),
                                                {"bound": bound}), out)

    fn.__name__ = name
    export(name, method=True)(fn)
    method(name + "_")(inplace(fn))
    return fn


clamp_min = _one_sided_clamp("clamp_min", np.maximum, lambda x, b: x >= b, lambda x, b: x < b)
clamp_max = _one_sided_clamp("clamp_max", np.minimum, lambda x, b: x <= b, lambda x, b: x > b)


_where = Op("WhereBackward0", lambda ctx, a, b, condition: np.where(condition, a, b),
            inputs=("self", "other"))


@_where.derivative
def _(ctx, grad):
    cond = Tensor._make(ctx.condition)
    zero = grad.new_zeros(())
    return where(cond, grad, zero), where(cond, zero, grad)


@export()
def where(condition, input=None, other=None, *, out=None):
    if input is None and other is None:
        return tuple(Tensor._make(i) for i in np.nonzero(condition._data))
    if not isinstance(condition, Tensor):
        raise TypeError("where(): argument 'condition' must be Tensor")
    if condition.dtype is not dtypes.bool_:
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor with dtype {_scalar(condition.dtype)}")
    ts, arrs = operands(input, other, "where")
    try:
        np.broadcast_shapes(condition._data.shape, np.shape(arrs[0]), np.shape(arrs[1]))
    except ValueError:
        raise RuntimeError(_mismatch_message(
            condition._data.shape, np.broadcast_shapes(np.shape(arrs[0]), np.shape(arrs[1])))) from None
    return finish_out("where", _where.apply(ts, arrs, {"condition": condition._data}), out)


@method("where")
def _where_method(self, condition, other):
    return where(condition, self, other)


def _scalar(d):
    from ..tensor import _scalar_name
    return _scalar_name(d)


# ---------------------------------------------------------------------------
# comparisons and logic: no gradient
# ---------------------------------------------------------------------------

def _compare(np_fn, name, aliases=()):
    def fn(input, other, *, out=None):
        ts, arrs = operands(input, other, name)
        try:
            r = np_fn(*arrs)
        except ValueError:
            raise RuntimeError(_mismatch_message(np.shape(arrs[0]), np.shape(arrs[1]))) from None
        return finish_out(name, Tensor._make(r), out)

    fn.__name__ = name
    export(name, *aliases, method=True)(fn)
    return fn


eq = _compare(np.equal, "eq")
ne = _compare(np.not_equal, "ne", ("not_equal",))
lt = _compare(np.less, "lt", ("less",))
le = _compare(np.less_equal, "le", ("less_equal",))
gt = _compare(np.greater, "gt", ("greater",))
ge = _compare(np.greater_equal, "ge", ("greater_equal",))


def _logical(np_fn, name):
    def fn(input, other=None, *, out=None):
        if other is None:
            return finish_out(name, Tensor._make(np_fn(input._data)), out)
        ts, arrs = operands(input, other, name)
        return finish_out(name, Tensor._make(np_fn(arrs[0], arrs[1])), out)

    fn.__name__ = name
    export(name, method=True)(fn)
    return fn


logical_and = _logical(np.logical_and, "logical_and")
logical_or = _logical(np.logical_or, "logical_or")
logical_xor = _logical(np.logical_xor, "logical_xor")
logical_not = _logical(np.logical_not, "logical_not")


def _bitwise(np_fn, name, sym):
    def fn(input, other, *, out=None):
        ts, arrs = operands(input, other, name)
        if arrs[0].dtype.kind == "f":
            raise RuntimeError(f'"{name}_cpu" not implemented for \'{_scalar(ts[0].dtype if ts[0].dtype.is_floating_point else ts[1].dtype)}\'')
        return finish_out(name, Tensor._make(np_fn(*arrs)), out)

    fn.__name__ = name
    export(name, method=True)(fn)
    return fn


bitwise_and = _bitwise(np.bitwise_and, "bitwise_and", "&")
bitwise_or = _bitwise(np.bitwise_or, "bitwise_or", "|")
bitwise_xor = _bitwise(np.bitwise_xor, "bitwise_xor", "^")


@export(method=True)
def bitwise_not(input, *, out=None):
    if input.dtype.is_floating_point:
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return finish_out("bitwise_not", Tensor._make(np.invert(input._data)), out)


@export(method=True)
def floor_divide(input, other, *, out=None):
    ts, arrs = operands(input, other, "floor_divide")
    if np.asarray(arrs[1]).dtype.kind in "iu" and (np.asarray(arrs[1]) == 0).any():
        raise RuntimeError("ZeroDivisionError")
    return finish_out("floor_divide", Tensor._make(np.floor_divide(*arrs)), out)


@export(method=True)
def remainder(input, other, *, out=None):
    """Python's modulus (the result takes the divisor's sign)."""
    ts, arrs = operands(input, other, "remainder")
    if np.asarray(arrs[0]).dtype.kind in "iu" and (np.asarray(arrs[1]) == 0).any():
        raise RuntimeError("ZeroDivisionError")
    if not isinstance(other, Tensor):  # tensor % number: one input
        return finish_out("remainder", _remainder0.apply((ts[0],), (arrs[0],), {"other": arrs[1]}), out)
    return finish_out("remainder", _remainder1.apply(ts, arrs, {}), out)


_remainder0 = Op("RemainderBackward0", lambda ctx, a, other: np.mod(a, other))
_remainder0.derivative(lambda ctx, grad: grad)
_remainder1 = Op("RemainderBackward1", lambda ctx, a, b: np.mod(a, b), inputs=("self", "other"),
                 saves=("self", "other"), saves_for={"self": (1,), "other": (1,)}, value_error=broadcast_error)


@_remainder1.derivative
def _(ctx, grad):
    return grad, -grad * (ctx.self / ctx.other).floor() if ctx.needs(1) else None


# ---------------------------------------------------------------------------
# Python operators
# ---------------------------------------------------------------------------

def _reflect(fn):
    return lambda self, other: fn(other, self) if isinstance(other, Tensor) else _swap(fn, self, other)


def _swap(fn, self, other):
    check_operand(other, fn.__name__)
    ts, arrs = operands(other, self, fn.__name__)
    return fn(ts[0], ts[1])


def _rsub_method(self, other):
    check_operand(other, "rsub")
    ts, arrs = operands(self, other, "rsub")
    return _rsub.apply((ts[0],), (arrs[0], arrs[1]), {})


def _rdiv(self, other):
    # PyTorch computes scalar / x as scalar * x.reciprocal()
    check_operand(other, "div")
    x = self if self.dtype.is_floating_point else self.to(dtypes.get_default_dtype())
    return mul(reciprocal(x), other)


_reciprocal = Op("ReciprocalBackward0", lambda ctx, a: np.reciprocal(a), saves=("result",))


@_reciprocal.derivative
def _(ctx, grad):
    r = ctx.result
    return -grad * r * r


@export(method=True)
def reciprocal(input, *, out=None):
    return finish_out("reciprocal", _reciprocal.apply((input,), (_float_array(input),), {}), out)


method("reciprocal_")(inplace(reciprocal))


def _rpow(self, other):
    check_operand(other, "pow")
    return pow(other, self)


def _matmul(a, b):
    from .linalg import matmul
    return matmul(a, b)


def _rmatmul(a, b):
    from .linalg import matmul
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
        return NotImplemented

    return op


_OPERATORS = {
    "__add__": add, "__radd__": add,
    "__sub__": sub, "__rsub__": _rsub_method,
    "__mul__": mul, "__rmul__": mul,
    "__truediv__": div, "__rtruediv__": _rdiv,
    "__floordiv__": floor_divide, "__rfloordiv__": _reflect(floor_divide),
    "__mod__": remainder, "__rmod__": _reflect(remainder),
    "__pow__": pow, "__rpow__": _rpow,
    "__matmul__": _matmul, "__rmatmul__": _rmatmul,
    "__eq__": eq, "__ne__": ne, "__lt__": lt, "__le__": le, "__gt__": gt, "__ge__": ge,
    "__and__": _and, "__rand__": _and, "__or__": _or, "__ror__": _or, "__xor__": _xor, "__rxor__": _xor,
}
for _name, _fn in _OPERATORS.items():
    METHOD = _fn if _name in ("__matmul__", "__rmatmul__") else _not_implemented_for_others(_fn)
    method(_name)(METHOD)

method("__neg__")(neg)
method("__abs__")(abs)
method("__invert__")(lambda self: logical_not(self) if self.dtype is dtypes.bool_ else bitwise_not(self))
method("__pos__")(lambda self: self)

for _name, _fn in {"add_": add, "sub_": sub, "subtract_": sub, "mul_": mul, "multiply_": mul, "div_": div,
                   "divide_": div, "true_divide_": div, "pow_": pow, "neg_": neg, "negative_": neg,
                   "floor_divide_": floor_divide, "remainder_": remainder}.items():
    method(_name)(inplace(_fn))
for _name, _fn in {"__iadd__": add, "__isub__": sub, "__imul__": mul, "__itruediv__": div,
                   "__ipow__": pow, "__ifloordiv__": floor_divide, "__imod__": remainder}.items():
    method(_name)(inplace(_fn))
method("__iand__")(inplace(_and))
method("__ior__")(inplace(_or))
method("__ixor__")(inplace(_xor))
for _name, _fn in {"eq_": eq, "ne_": ne, "lt_": lt, "le_": le, "gt_": gt, "ge_": ge}.items():
    method(_name)(inplace(_fn))
