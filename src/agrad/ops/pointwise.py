"""Pointwise arithmetic: operands with broadcasting and type promotion, + - * / and
neg (floor_divide, remainder and reciprocal are in ``division.py``; clamp, where and
masked_fill in ``selection.py``).

The rest of PyTorch's pointwise ops live next door: ``unary.py`` (exp, log,
trigonometry, erf, rounding, ...), ``binary.py`` (atan2, hypot, fmod, lerp,
xlogy, addcmul, ...), ``comparison.py`` (eq, logical/bitwise, isnan, isclose,
maximum, ...) and ``operators.py`` (Tensor's Python operators).

Each op is one entry: its numpy forward, its node name, what it saves, and its
derivative written with agrad ops (derivatives.yaml's formulas).
"""

from __future__ import annotations

import numbers

import numpy as np

from .. import dtypes
from .._limits import check_broadcast
from ..tensor import Tensor, _scalar_name
from . import factories
from ..autograd import grad_mode as _mode
from .._zero import materialized
from ._alpha import _alpha_fma, _alpha_number, _fma_operands, _number_operand, half_alpha, nan_of_other, other_nan_kernel, \
    rsub_alpha
from ._layout import broadcasts, cast, empty_like, iterator_layout
from ._mul_nans import mul_nan_kernel, mul_nans
from ._op import Op, export, finish_out, method, node_name, zeros_like_grad


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


_LONG, _ULONG = 2 ** 63, 2 ** 64


def unpack_overflow(x):
    """The parser's error for a Python int that is no Scalar: past int64 it retries it as an unsigned
    64-bit number, which refuses a negative one and one of 2**64 or more."""
    raise OverflowError("can't convert negative int to unsigned" if x < 0 else "int too big to convert")


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
                check_broadcast(a._data, b._data)
                return (a, b), (a._data, b._data)
        elif (tb is float or tb is int and -_LONG <= b < _ULONG) and a._data.dtype.kind == "f":
            # numpy treats a Python number as weak, exactly like torch's wrapped
            # numbers with a float tensor: no wrapping, no cast
            if tb is float and a._data.dtype is _F16 and b == b:  # (c10::Half of a float: a double rounds twice)
                b = _via32(b)
            return (a, None), (a._data, b)
    check_operand(a, fname)
    check_operand(b, fname)
    for x in (a, b):
        if type(x) is int and not -_LONG <= x < _ULONG:
            unpack_overflow(x)
    d = dtype or _result_type(a, b)
    if not isinstance(a, Tensor):
        a = factories.wrap(a, d)
    if not isinstance(b, Tensor):
        b = factories.wrap(b, d)
    npd = d.numpy
    check_broadcast(a._data, b._data)
    return (a, b), (a._data if a._data.dtype == npd else cast(a._data, npd),
                    b._data if b._data.dtype == npd else cast(b._data, npd))


_F16 = np.dtype(np.float16)
_F32 = np.dtype(np.float32)


def _via32(number):
    """A Python float as float32 holds it (still a Python float): what a half kernel is given."""
    with np.errstate(over="ignore"):
        return float(np.float32(number))
_F64 = np.dtype(np.float64)
_ONE = (1,)
_empty = np.empty
_ndarray = np.ndarray  # (module globals: numpy's module __getattr__ keeps 3.11 from specialising np.X)
_multiply = np.multiply
_F32_MAX = float(np.finfo(np.float32).max)
#: Python numbers as 0-d arrays of float32 and float64, made once (see :func:`weak`)
_WEAK32: dict = {}
_WEAK64: dict = {}


def weak(number, like):
    """``number`` as numpy reads a Python number beside the float32 or float64 array ``like``
    (NEP 50: converted to the array's dtype): a 0-d array of that dtype, made once, which gives
    the same bits and spares numpy the conversion on every call.  Other arrays, numbers numpy
    would warn about (beyond float32's range), zeros (0.0 and -0.0 would share one entry) and
    NaN get the number itself."""
    if type(like) is _ndarray:
        d = like.dtype
        if d is _F64 or d is _F32:
            t = type(number)
            if t is float or t is int:
                c = (_WEAK64 if d is _F64 else _WEAK32).get(number)
                return c if c is not None else _weak_new(number, d)
    return number


def _weak_new(number, d):
    if number == 0 or number != number or (d is _F32 and not -_F32_MAX <= number <= _F32_MAX) \
            or (type(number) is int and not -2**53 <= number <= 2**53):
        return number
    cache = _WEAK64 if d is _F64 else _WEAK32
    if len(cache) >= 256:
        cache.clear()
    c = cache[number] = np.array(number, d)
    return c


def _scalar_math(np_fn, a, b):
    """``np_fn(a, b)`` as PyTorch's CPU add/sub/mul/div kernels compute a float16 tensor ``a`` with a
    scalar second operand ``b`` (a Python number, a 0-d tensor of another dtype): mul and div in
    float32, their math type, with the scalar read as float32, and rounded to float16 once (numpy
    would round the scalar to float16 first: ``x * math.pi`` would differ in the last bit); add and
    sub with the scalar rounded to float16 first, as numpy does.  A Python number beside
    a float32 or float64 array is read as :func:`weak` gives it."""
    if type(a) is _ndarray:
        d = a.dtype
        if d is _F64 or d is _F32:
            t = type(b)
            if t is float or t is int:
                c = (_WEAK64 if d is _F64 else _WEAK32).get(b)
                return np_fn(a, c if c is not None else _weak_new(b, d))
            return np_fn(a, b)
        if d == _F16 and (type(b) is not np.ndarray or b.ndim == 0 and b.dtype != _F16):
            if np_fn is np.add or np_fn is np.subtract:  # (add's kernel reads the scalar as float16: rounded)
                with np.errstate(over="ignore"):
                    return np_fn(a, np.float16(np.float32(b)))  # (c10::Half of a float: a double rounds twice)
            return np_fn(a, np.float32(b)).astype(_F16)
    return np_fn(a, b)


def _scalar_kernel(np_fn):
    """:func:`_scalar_math` with ``np_fn`` bound, as an op's kernel: a call runs one Python
    frame, not two (the float32/float64 cases inline, the rest handed over)."""

    def kernel(a, b):
        if type(a) is _ndarray:
            d = a.dtype
            if d is _F64 or d is _F32:
                t = type(b)
                if t is float or t is int:
                    c = (_WEAK64 if d is _F64 else _WEAK32).get(b)
                    return np_fn(a, c if c is not None else _weak_new(b, d))
                return np_fn(a, b)
        return _scalar_math(np_fn, a, b)

    kernel.ufunc = np_fn  # (what it runs on two float32 or two float64 arrays: Op.ufunc)
    return kernel


def _scalar_operand(arrs, other):
    """The arrays of add/sub/mul/div with a float16 first operand: a scalar ``other`` as given (not
    rounded to float16 by the promotion), for :func:`_scalar_math`."""
    if arrs[0].dtype != _F16:
        return arrs
    if isinstance(other, Tensor):
        d = other._data
        return (arrs[0], d) if d.ndim == 0 and d.dtype != _F16 else arrs
    return arrs[0], other


def _float_array(x):
    """Integer and bool data promoted to the default float dtype (sin(int) is float)."""
    d = x._data
    if d.dtype.kind in "biu":
        return cast(d, dtypes.get_default_dtype().numpy)
    return d


def broadcast_error(arrays):
    """PyTorch's error for operands that do not broadcast (numpy raised ValueError)."""
    return RuntimeError(_mismatch_message(np.shape(arrays[0]), np.shape(arrays[1])))


def broadcast_all_error(arrays):
    """PyTorch's error for several operands that do not broadcast: the shape of those before
    (tensor a) against the first that does not fit (tensor b), as TensorIterator meets them."""
    shape = np.shape(arrays[0])
    for a in arrays[1:]:
        try:
            shape = np.broadcast_shapes(shape, np.shape(a))
        except ValueError:
            return RuntimeError(_mismatch_message(shape, np.shape(a)))
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

def binary(np_fn, name, *, saves=(), saves_for=None, overload=0, jvp="element_wise"):
    """A differentiable binary op over (self, other); decorate its derivative (pointwise, so
    its forward rule is element_wise unless ``jvp`` says otherwise)."""

    def deco(derivative):
        op = Op(node_name(name, overload), lambda ctx, a, b: np_fn(a, b), inputs=("self", "other"),
                saves=saves, saves_for=saves_for, value_error=broadcast_error, jvp=jvp, pointwise=True,
                kernel=np_fn)
        op.derivative(derivative)
        return op

    return deco


def _add_fwd(ctx, a, b, alpha=1):
    return nan_of_other(_scalar_math(np.add, a, b) if alpha == 1 else _add_alpha(a, b, alpha), a, b)


def _sub_fwd(ctx, a, b, alpha=1):  # (sub: add's kernel with -alpha)
    return nan_of_other(_scalar_math(np.subtract, a, b) if alpha == 1 else _add_alpha(a, b, -alpha, True), a, b)


def _add_alpha(a, b, alpha, sub=False):
    if getattr(a, "dtype", None) == _F16:
        return half_alpha(a, b, alpha)
    if _fma_operands(a, b):
        return _alpha_fma(a, b, alpha)
    if _number_operand(a, b):
        return _alpha_number(a, b, alpha)
    return (np.subtract if sub else np.add)(a, _times_alpha(b, a, -alpha if sub else alpha))


def _rsub_alpha(a, b, alpha):
    """rsub's ``b - alpha * a``: one fused multiply-add for float32/float64 (agrad/ops/_alpha.py)."""
    out = rsub_alpha(a, b, alpha)
    return np.subtract(b, _times_alpha(a, b, alpha)) if out is None else out


def _times_alpha(b, a, alpha):
    """``alpha * b`` in ``b``'s dtype (a Python number takes the tensor's); a bool result takes bool(alpha)."""
    d = b.dtype if hasattr(b, "dtype") else a.dtype
    if d.kind in "iu":  # (the kernel's Scalar::to<scalar_t>: PyTorch's overflow error; uint8 takes -1 as 255)
        alpha = dtypes.kernel_scalar(alpha, d)
    return np.multiply(b, bool(alpha) if d == np.bool_ else alpha, dtype=d)


def _check_alpha(arrs, alpha, swapped=False):  # (after the operands' broadcast; swapped: rsub's, other first)
    if type(alpha) is int and not -_LONG <= alpha < _ULONG:
        unpack_overflow(alpha)
    kind = np.asarray(arrs[0]).dtype.kind
    if kind in "iub" and isinstance(alpha, float):
        if not broadcasts(arrs):
            raise broadcast_error(arrs[::-1] if swapped else arrs)
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    if kind != "b" and isinstance(alpha, (bool, np.bool_)):
        raise RuntimeError("Boolean alpha only supported for Boolean results.")


# (a call without attributes has alpha 1: the kernel is _add_fwd's, without its ctx)
_add = Op("AddBackward0", _add_fwd, inputs=("self", "other"), value_error=broadcast_error, jvp="linear",
          defaults={"alpha": 1}, pointwise=True, kernel=other_nan_kernel(_scalar_kernel(np.add), np.add))
_sub = Op("SubBackward0", _sub_fwd, inputs=("self", "other"), value_error=broadcast_error, jvp="linear",
          defaults={"alpha": 1}, pointwise=True, kernel=other_nan_kernel(_scalar_kernel(np.subtract), np.subtract))


@_add.derivative
def _(ctx, grad):
    alpha = ctx.alpha
    return grad, grad if alpha == 1 else grad * alpha


@_add.raw_derivative
def _(ctx, g):
    if ctx.next_functions[1][0] is None:  # (x + number: other has no edge, its gradient goes nowhere)
        return g, None
    alpha = ctx.alpha  # (a class default unless the call gave one: a slow read)
    return g, g if alpha == 1 else _scalar_math(np.multiply, g, alpha)


@_sub.derivative
def _(ctx, grad):
    alpha = ctx.alpha  # (derivatives.yaml: maybe_multiply(-grad, alpha): NegBackward0 under MulBackward1)
    return grad, -grad if alpha == 1 else -grad * alpha


@_sub.raw_derivative
def _(ctx, g):
    alpha = ctx.alpha  # (-grad, then times alpha: a NaN's sign flipped first)
    return g, np.negative(g) if alpha == 1 else _scalar_math(np.multiply, np.negative(g), alpha)


@binary(mul_nan_kernel(_scalar_kernel(np.multiply), np.multiply), "mul", saves=("self", "other"), saves_for={"self": (1,), "other": (0,)})
def _mul(ctx, grad):
    # (PyTorch's generated nodes compute the last input's gradient first: the order the
    # recorded steps run in, and so the order their gradients add up in, under create_graph)
    g_other = grad * ctx.self if ctx.needs(1) else None
    return (_times(grad, ctx.other) if ctx.needs(0) else None), g_other


_mul_arrays = _mul.kernel.ufunc  # (np.multiply with PyTorch's NaN of two NaNs: _mul_nans)
_mul.jvp_order = (1, 0)  # (derivatives.yaml: other_t * self_p + self_t * other_p)
_mul.own_grad_layout = True  # (its array formula lays out each product as TensorIterator does: _laid)


@_mul.raw_derivative
def _(ctx, g):
    if _promotes(getattr(ctx, "self", None), g) or _promotes(getattr(ctx, "other", None), g):
        return NotImplemented
    edges = ctx.next_functions  # (ctx.needs(i), inline)
    if edges[1][0] is None:  # only self needs a gradient (so other was kept)
        other = ctx.other
        if type(other) is float or type(other) is int:  # x * number: the number as _like gives it
            if type(g) is _ndarray and g.dtype is _F64 and type(other) is float and other == other \
                    and g.shape == _ONE:  # (one float64 element: on Python floats, as the forward's x * c)
                out = _empty(1)
                out[0] = g.item() * other
                return out, None
            return _laid(mul_nans(_scalar_math(_multiply, g, other), g, other), g, other), None  # (the number an operand: no fast set-up)
        other = _like(other, g, True)
        return _laid(mul_nans(_scalar_math(_multiply, g, other), g, other), g, other), None
    self_ = ctx.self
    needs_self = edges[0][0] is not None
    if type(self_) is Tensor and type(g) is _ndarray:
        # (tensors' float32 or float64 arrays of g's dtype, the common case: _scalar_math and _like read
        # them as they are, np.multiply of g and each; without their frames)
        s, gd = self_._data, g.dtype
        if (gd is _F32 or gd is _F64) and type(s) is _ndarray and s.dtype is gd:
            if not needs_self:
                return None, _laid(_mul_arrays(g, s), g, s)
            other = ctx.other
            if type(other) is Tensor and type(o := other._data) is _ndarray and o.dtype is gd:
                return _laid(_mul_arrays(g, o), g, o), _laid(_mul_arrays(g, s), g, s)
    self_ = _like(self_, g)
    g_other = _laid(_mul_arrays(g, self_), g, self_)
    if not needs_self:  # (other was not kept)
        return None, g_other
    other = _like(ctx.other, g, True)
    return _laid(mul_nans(_scalar_math(_multiply, g, other), g, other), g, other), g_other


def _laid(out, *arrays):
    """An elementwise gradient as TensorIterator lays it out where numpy's layout may differ from it:
    a gradient ``arrays[0]`` not in C order (numpy leans to C order where TensorIterator follows its
    operands), or dims of one element (numpy strides them as C order does, TensorIterator by its sort
    of the operands' strides, a Python number an operand too: ``g * 0.5`` keeps ``g``'s)."""
    if type(out) is not _ndarray or out.ndim < 2:
        return out
    first = arrays[0]
    strides = getattr(first, "strides", None)
    if 1 not in out.shape and (out.strides == strides or type(first) is not _ndarray or first.flags.c_contiguous
                               or min(strides) <= 0):
        return out
    return iterator_layout(out, arrays)


def _like(x, g, scalar=False):
    """A saved operand as an array formula reads it: a Python number as it is (weak, as in
    the forward), a tensor's data in the gradient's dtype (the dtype the tensor formula's
    type promotion gives: the gradient's dtype already absorbs both operands'); with ``scalar``,
    a 0-d tensor as it is beside a float16 gradient (the second operand of :func:`_scalar_math`)."""
    if type(x) is not Tensor and not isinstance(x, Tensor):
        return x
    a = x._data
    if scalar and a.ndim == 0 and g.dtype == _F16:
        return a
    d = a.dtype
    gd = g.dtype
    return a if d is gd or d == gd else a.astype(gd)


def _promotes(x, g):
    """Whether a saved tensor ``x`` widens the gradient array ``g``'s dtype in the formula on tensors:
    an in-place (or out=) result narrower than its operands' common dtype (``h16 /= x32``: PyTorch's
    ``-grad * self / other / other`` is float32, not float16); :func:`_like` would round ``x`` to
    ``g``'s dtype.  (A 0-d tensor of ``g``'s category beside a tensor with dims does not promote.)"""
    if type(x) is not Tensor:
        return False
    a = x._data
    d, gd = a.dtype, g.dtype
    if d == gd or d.kind not in "fc" or a.ndim == 0 and g.ndim > 0 and d.kind == gd.kind:
        return False
    return np.promote_types(d, gd) != gd


def _times(grad, other):
    """grad * other where other may be the forward's Python number: PyTorch wrapped it in a
    tensor there, so its formula records MulBackward0 (with a None edge), not MulBackward1."""
    if isinstance(other, Tensor):
        return grad * other
    return _mul.apply((grad, None), (grad._data, other), _NO_ATTRS)


@binary(_scalar_kernel(np.true_divide), "div", saves=("self", "other"), saves_for={"self": (1,)})
def _div(ctx, grad):
    other = ctx.other
    g_other = None
    if ctx.needs(1):  # (first, as PyTorch's node; the quotient before -grad: GCC's right operand first)
        q = (ctx.self / other) / other
        g_other = -grad * q
    return ((grad / other if isinstance(other, Tensor) else _div.apply((grad, None), (grad._data, other), _NO_ATTRS))
            if ctx.needs(0) else None), g_other


@_div.forward_derivative
def _(ctx, st, ot):
    # derivatives.yaml: (self_t - other_t * result) / other_p, a missing tangent a zero tensor: its
    # product records MulBackward0 where result requires grad but adds nothing (nor does it negate)
    res, other = ctx.result, ctx.other
    if ot is not None:
        prod, zero = ot * res, False
    else:
        z = np.zeros(res._data.shape, res._data.dtype)
        prod, zero = _mul.apply((Tensor._make(z), res), (z, z), _NO_ATTRS), True
    if st is None:  # (zero - prod: -prod)
        diff = _sub.apply((Tensor._make(np.zeros_like(prod._data)), prod),
                          (np.full_like(prod._data, -0.0), prod._data), _NO_ATTRS)
    elif zero:
        diff = _sub.apply((st, prod), (st._data, np.zeros_like(prod._data)), _NO_ATTRS)
    else:
        diff = st - prod
    return diff / other if isinstance(other, Tensor) else _div.apply((diff, None), (diff._data, other), _NO_ATTRS)


@_div.raw_derivative
def _(ctx, g):
    if _promotes(getattr(ctx, "other", None), g) or _promotes(getattr(ctx, "self", None), g):
        return NotImplemented
    other = _like(ctx.other, g, True)
    return (_laid(_scalar_math(np.true_divide, g, other), g, other) if ctx.needs(0) else None,
            np.multiply(np.negative(g), _scalar_math(np.true_divide, _scalar_math(
                np.true_divide, _like(ctx.self, g), other), other))
            if ctx.needs(1) else None)


# Tensor-and-Python-number arithmetic inside backward formulas: PyTorch's formulas
# are C++, where the number is a Scalar and the Scalar overloads record their own
# nodes (MulBackward1, DivBackward1, AddBackward1, SubBackward1) with one input.
_mul_scalar = Op("MulBackward1", lambda ctx, a, other: mul_nans(_scalar_math(np.multiply, a, other), a, other), internal=True,
                 pointwise=True, number=True, jvp="linear")
_mul_scalar.derivative(lambda ctx, grad: grad * ctx.other)
_div_scalar = Op("DivBackward1", lambda ctx, a, other: _scalar_math(np.true_divide, a, other), internal=True,
                 pointwise=True, number=True, jvp="linear")
# (``other`` a number again: the 0-d array a formula's ``g / n`` keeps would make the next order's
# division a DivBackward0 by a tensor; PyTorch's ``grad / other`` divides by the Scalar again)
_div_scalar.derivative(lambda ctx, grad: grad / (ctx.other.item() if type(ctx.other) is np.ndarray else ctx.other))
_add_scalar = Op("AddBackward1", lambda ctx, a, other: nan_of_other(_scalar_math(np.add, a, other), a, other),
                 internal=True,
                 pointwise=True, number=True, jvp="element_wise")
_add_scalar.derivative(lambda ctx, grad: grad)
_sub_scalar = Op("SubBackward1", lambda ctx, a, other: nan_of_other(_scalar_math(np.subtract, a, other), a, other),
                 internal=True,
                 pointwise=True, number=True, jvp="element_wise")
_sub_scalar.derivative(lambda ctx, grad: grad)
_formula_state = _mode._state


def _scalar_overload(op, ts, arrs):
    """The Scalar overload's result when a formula combines a float tensor and a number, else None."""
    if ts[1] is None and _formula_state["formula"]:
        return op.apply((ts[0],), (arrs[0],), {"other": arrs[1]})
    return None


_rsub = Op("RsubBackward1", lambda ctx, a, b, alpha=1: nan_of_other(  # (sub(other, self): self's NaN where both are)
    np.subtract(b, a) if alpha == 1 else _rsub_alpha(a, b, alpha), b, a),
           inputs=("self", "other"), jvp="linear", pointwise=True, defaults={"alpha": 1})


@_rsub.derivative
def _(ctx, grad):
    alpha = ctx.alpha
    return -grad if alpha == 1 else -grad * alpha, None


def _is_bool(x):
    return x.dtype is dtypes.bool_ if type(x) is Tensor else type(x) is bool


def check_sub(a, b):
    """PyTorch's refusal to subtract booleans (sub, rsub, ``-``)."""
    if _is_bool(a) or _is_bool(b):
        if _is_bool(a) and _is_bool(b):
            raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                               "Use the `^` or `logical_xor()` operator instead.")
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")


@export(method=True)
def add(input, other, *, alpha=1, out=None):
    """input + alpha * other."""
    return _add_call(input, other, alpha, out, out is not None)


def add_in_place(input, other, *, alpha=1):
    """add_'s computation: no ZeroTensor kernel (a ZeroTensor is plain zeros: -0.0 + 0 is +0.0)."""
    return _add_call(input, other, alpha, None, True)


def _add_call(input, other, alpha, out, plain):
    ts, arrs = operands(input, other, "add")
    if plain:
        arrs = _materialised(arrs)
    if type(alpha) is not int or not -_LONG <= alpha < _ULONG:  # (alpha=1.0 too: refused for integral results)
        _check_alpha(arrs, alpha)
    if alpha == 1 and type(alpha) is not bool:
        arrs = _scalar_operand(arrs, other)
    result = _scalar_overload(_add_scalar, ts, arrs) if alpha == 1 else None
    if result is None:
        result = _add.apply(ts, arrs, {"alpha": alpha} if alpha != 1 else _NO_ATTRS)
    return result if out is None else finish_out("add", result, out)


@export("sub", "subtract", method=True)
def sub(input, other, *, alpha=1, out=None):
    """input - alpha * other."""
    return _sub_call(input, other, alpha, out, out is not None)


def sub_in_place(input, other, *, alpha=1):
    """sub_'s computation: no ZeroTensor kernel (a ZeroTensor is plain zeros)."""
    return _sub_call(input, other, alpha, None, True)


def _sub_call(input, other, alpha, out, plain):
    if type(other) is int and not -_LONG <= other < _ULONG:  # (the parser's, before sub's own check)
        unpack_overflow(other)
    check_sub(input, other)
    ts, arrs = operands(input, other, "sub")
    if plain:
        arrs = _materialised(arrs)
    if type(alpha) is not int or not -_LONG <= alpha < _ULONG:  # (alpha=1.0 too: refused for integral results)
        _check_alpha(arrs, alpha)
    if alpha == 1 and type(alpha) is not bool:
        arrs = _scalar_operand(arrs, other)
    result = _scalar_overload(_sub_scalar, ts, arrs) if alpha == 1 else None
    if result is None:
        result = _sub.apply(ts, arrs, {"alpha": alpha} if alpha != 1 else _NO_ATTRS)
    return result if out is None else finish_out("sub", result, out)


def _materialised(arrs):
    """Operands as an op without a ZeroTensor kernel sees them (mul_, div_, out=, a rounding mode: PyTorch's
    fallback materialises a ZeroTensor, so its -0.0 and NaN products and IEEE quotients): plain zeros."""
    return type(arrs)(materialized(a) for a in arrs)


@export("mul", "multiply", method=True)
def mul(input, other, *, out=None):
    return _mul_call(input, other, out, out is not None)


add_in_place.__name__, sub_in_place.__name__ = "add", "sub"


def mul_in_place(input, other):
    """mul_'s computation: no ZeroTensor kernel (a ZeroTensor ``other`` is plain zeros)."""
    return _mul_call(input, other, None, True)


mul_in_place.__name__ = "mul"


def _mul_call(input, other, out, plain):
    ts, arrs = operands(input, other, "mul")
    arrs = _scalar_operand(_materialised(arrs) if plain else arrs, other)
    result = _scalar_overload(_mul_scalar, ts, arrs)
    if result is None:
        result = _mul.apply(ts, arrs, _NO_ATTRS)
    return result if out is None else finish_out("mul", result, out)


_NO_MODE = object()  # rounding_mode not given: a given None selects the overload with a mode


@export("div", "divide", method=True)
def div(input, other, *, rounding_mode=_NO_MODE, out=None):
    return _div_call(input, other, rounding_mode, out, out is not None)


def div_in_place(input, other):
    """div_'s computation (true_divide_, ``/=``): no ZeroTensor kernel (a ZeroTensor is plain zeros)."""
    return _div_call(input, other, _NO_MODE, None, True)


div_in_place.__name__ = "div"


def _div_call(input, other, rounding_mode, out, plain):
    """div; ``plain``: a ZeroTensor materialised (all but the functional div.Tensor, whose ZeroTensor
    kernel gives x / z inf and z / z NaN: agrad/_zero.py)."""
    if rounding_mode is not _NO_MODE:
        # div.Tensor_mode (DivBackward2), whatever the mode, None included
        if rounding_mode is None:
            d = _result_type(input, other)
            ts, arrs = operands(input, other, "div", dtype=d if d.is_floating_point else dtypes.get_default_dtype())
            fn = None
        else:
            ts, arrs = operands(input, other, "div")
            fn = np.floor_divide if rounding_mode == "floor" else _trunc_divide
            if rounding_mode not in ("floor", "trunc"):
                raise RuntimeError(
                    f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{rounding_mode}'")
            _no_bool_kernel(arrs, "div_" + rounding_mode, out, "div")
            check_int_zero_division(arrs, out, "div", fn)
        return finish_out("div", _div_mode.apply(ts, _materialised(arrs), {"fn": fn}), out)
    d = _result_type(input, other)
    if not d.is_floating_point:
        d = dtypes.get_default_dtype()
    ts, arrs = operands(input, other, "div", dtype=d)
    if plain:
        arrs = _materialised(arrs)
    if arrs[0].dtype == _F16 and not isinstance(other, Tensor):
        ts, arrs = (ts[0], None), (arrs[0], other)  # the number itself, as mul's (saved as it is)
    else:
        arrs = _scalar_operand(arrs, other)
    result = None
    if _formula_state["formula"] and not isinstance(other, Tensor) and ts[0] is input and input.dtype is d:
        # a formula's ``t / n``: the Scalar overload (DivBackward1), as in PyTorch's C++ formulas
        result = _div_scalar.apply((input,), (arrs[0],), {"other": arrs[1]})
    if result is None:
        result = _div.apply(ts, arrs, _NO_ATTRS)
    return result if out is None else finish_out("div", result, out)


@export("true_divide", method=True)
def true_divide(input, other, *, out=None):
    """div without a rounding mode: PyTorch's true_divide takes none."""
    return div(input, other, out=out)


def check_int_zero_division(arrs, out=None, fname=None, kernel=None):
    """The integer division kernels' ZeroDivisionError: a zero divisor of some element of the
    result (an empty result divides nothing); ``out=``: written up to it (division.out_until_zero)."""
    a, b = np.asarray(arrs[0]), np.asarray(arrs[1])
    try:  # (the shapes are checked first)
        shape = np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise broadcast_error((a, b)) from None
    if a.dtype.kind in "iu" and (b == 0).any() and 0 not in shape:
        if out is not None:
            from .division import out_until_zero
            out_until_zero(fname, arrs, out, kernel)
        raise RuntimeError("ZeroDivisionError")


def _trunc_divide(a, b):
    """Division rounded toward zero; integers exactly (no float round trip)."""
    if np.result_type(a, b).kind in "iu":
        q = np.floor_divide(a, b)
        return np.where((np.remainder(a, b) != 0) & ((np.less(a, 0)) != (np.less(b, 0))), q + 1, q).astype(q.dtype)
    return np.trunc(a / b).astype(a.dtype)


# div with a rounding_mode argument: a step function, PyTorch's DivBackward2 passes zeros; with
# rounding_mode=None given, true division with div's derivative
_div_mode = Op("DivBackward2", lambda ctx, a, b, fn: np.true_divide(a, b) if fn is None else fn(a, b),
               inputs=("self", "other"), saves=("self", "other"), saves_for={"self": (1,)}, jvp="element_wise",
               iterated=True, value_error=broadcast_error)


@_div_mode.derivative
def _(ctx, grad):
    if ctx.fn is None:
        return _div._formula(ctx, grad)
    return zeros_like_grad(grad), zeros_like_grad(grad)


def _nograd(array, tensors=()):
    """A result with no gradient (integer maths, comparisons)."""
    return Tensor._make(np.asarray(array))


_neg = Op("NegBackward0", lambda ctx, a: np.negative(a), jvp="linear", pointwise=True)


@_neg.derivative
def _(ctx, grad):
    return -grad


_neg.raw_derivative(lambda ctx, g: np.negative(g))


@export("neg", "negative", method=True)
def neg(input, *, out=None):
    if input.dtype is dtypes.bool_:
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. "
            "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
    return finish_out("neg", _neg(input), out)


_C_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int",
            "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
            "bool": "bool"}


def _quiet(fn):
    """A numpy kernel run without floating-point warnings (torch gives none for log(0), ...)."""

    def run(a):
        with np.errstate(all="ignore"):
            return fn(a)

    return run


def _binary_quiet(np_fn, a, b):
    with np.errstate(all="ignore"):
        return np_fn(a, b)


def _zeros_like(t):
    """A formula's ``zeros_like(t)`` (preserve_format: laid out like t, as empty_like lays it out)."""
    data = t._data
    if type(data) is not np.ndarray or data.size and (data.ndim < 2 or data.flags.c_contiguous and 1 not in data.shape):
        return Tensor._make(np.zeros(t.shape, t.dtype.numpy))
    out = empty_like(data, t.dtype.numpy)
    out[...] = 0
    return Tensor._make(out)


def _require_tensor(fname, value, argname="other", position=2):
    if not isinstance(value, Tensor):
        raise TypeError(
            f"{fname}(): argument '{argname}' (position {position}) must be Tensor, not {type(value).__name__}")


def _float_operands(a, b, fname):
    """operands() with integer results promoted to the default float (atan2(int, int) is float)."""
    check_operand(a, fname)
    check_operand(b, fname)
    d = _result_type(a, b)
    if not d.is_floating_point:
        d = dtypes.get_default_dtype()
    return operands(a, b, fname, dtype=d)


def _no_bool_kernel(arrs, kernel, out=None, fname=None):
    """PyTorch's integer division kernels have no bool version (a bool // a bool); ``out`` resized first."""
    if np.asarray(arrs[0]).dtype == np.bool_:
        check_shapes(arrs)
        if out is not None:
            from .division import out_until_zero
            out_until_zero(fname, arrs, out)
        _not_implemented_for(kernel, dtypes.bool_)


def check_shapes(arrs):
    """PyTorch's error for operands that do not broadcast, where a kernel's own dtype check would
    come first here (TensorIterator meets the shapes before any kernel runs)."""
    sa, sb = np.shape(arrs[0]), np.shape(arrs[1])
    if sa != sb:
        try:
            np.broadcast_shapes(sa, sb)
        except ValueError:
            raise broadcast_error(arrs) from None


def _not_implemented_for(fname, d):
    raise NotImplementedError(f'"{fname}_cpu" not implemented for \'{_scalar_name(d)}\'')
