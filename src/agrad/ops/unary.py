"""Unary pointwise maths: exp, log, trigonometric and hyperbolic functions, erf/erfc,
sqrt/rsqrt, sigmoid, relu, abs, sign, square (rounding and nan_to_num: :mod:`rounding`).

Each differentiable op is one entry: numpy forward, PyTorch's node name, what it
saves, and its derivative written with agrad ops (derivatives.yaml's formulas),
so ``create_graph=True`` gives higher derivatives.
"""

from __future__ import annotations

import math
import struct

import numpy as np

from .. import _zero, dtypes
from .._zero import ZeroArray
from ..tensor import Tensor
from . import _sleef, _tanh32, _tanh64, _vec_math
from ._erf_math import calerf as _calerf
from ._layout import cast, empty_like, iterator_layout, resized_by_iterator
from ._unary_first import checked_first as _checked_first
from ._op import OPS, Op, export, finish_out, inplace, method, node_name, zeros_like_grad
from ._outs import _OUT_SAME_FOUND as _SAME_DTYPE, same_dtype_out
from . import _vector_loop
from ._vector_loop import by_lanes, unary_lanes
from .comparison import isfinite
from .pointwise import _float_array, _not_implemented_for, _quiet, _zeros_like, weak
from .selection import where
from .power import pow as _pow


# ---------------------------------------------------------------------------
# unary maths
# ---------------------------------------------------------------------------

def unary(np_fn, *, saves=("self",), name=None, float_out=True, method_name=True, exports=None, raw=None,
          no_bool=None, raw_node=None):
    """Define a unary op from its numpy forward; the decorated function is its derivative
    (``raw``: the same formula on arrays, ``raw(grad, saved_array)``, or ``raw_node(node, grad)``
    reading the saved array itself, one Python frame fewer; ``no_bool``: the exception PyTorch
    raises for a bool input).

    Registers ``torch.<name>``, ``Tensor.<name>`` and ``Tensor.<name>_``.
    """

    def deco(derivative):
        fname = name or derivative.__name__
        op = Op(node_name(fname), lambda ctx, a: np_fn(a), saves=saves, jvp="element_wise", pointwise=True,
                kernel=np_fn)
        op.derivative(derivative)
        if raw_node is not None:
            op.raw_derivative(raw_node)
        elif raw is not None:
            if saves[0] == "self":
                op.raw_derivative(lambda ctx, g: raw(g, ctx.self._data))
            elif saves[0] == "result":
                op.raw_derivative(lambda ctx, g: raw(g, ctx.result._data))
            else:
                op.raw_derivative(lambda ctx, g: raw(g, getattr(ctx, saves[0])._data))

        apply_one = op.apply_one
        # what the kernel runs on a float64 array (of any size, or of one element: ``single64``),
        # and the Python function it runs on one float32 element (``scalar32``: via_double's own way)
        any64, single64 = getattr(np_fn, "float64", None), getattr(np_fn, "single64", None)
        scalar32, scalar64 = getattr(np_fn, "scalar32", None), getattr(np_fn, "scalar64", None)
        small32 = getattr(np_fn, "small32", None)  # (a float32 array of a few elements: through double)

        def api(input, *, out=None):
            arr = input._data
            if out is None and type(arr) is np.ndarray:
                d = arr.dtype
                if d is _F64_DTYPE:
                    if any64 is not None:
                        return apply_one(input, (arr,), any64)
                    if single64 is not None and arr.size == 1:
                        return apply_one(input, (arr,), single64)
                elif d is _F32_DTYPE:
                    if scalar32 is not None and arr.shape == _ONE:
                        try:  # (the kernel's steps, without its frame)
                            v = scalar32(arr.item())
                        except (ValueError, OverflowError):
                            pass  # (numpy's answer: the kernel's way)
                        else:
                            res = arr.copy()
                            res[0] = v
                            return apply_one(input, (arr,), None, None, res)
                    elif small32 is not None and arr.size < _SMALL32 and arr.size != 1:
                        return apply_one(input, (arr,), None, None, small32(arr, dtype=_F64_DTYPE).astype(_F32_DTYPE))
            if out is not None and fname in _SAME_DTYPE:
                same_dtype_out(fname, input, out)
            if no_bool is not None and arr.dtype == np.bool_:
                if out is not None:
                    from ._outs import out_before_kernel
                    out_before_kernel(fname, input.dtype, input.shape, out, same=fname in _SAME_DTYPE)
                raise no_bool[0](no_bool[1])
            if float_out and arr.dtype.kind in "biu":
                arr = cast(arr, dtypes.get_default_dtype().numpy)
            if out is None:
                return apply_one(input, (arr,))
            if type(out._data) is not np.ndarray or out.shape != input.shape:
                return finish_out(fname, apply_one(input, (arr,)), out)
            _vector_loop.OUT_OPERAND[0] = out._data  # (an existing out's layout decides the vector lanes too)
            try:
                result = apply_one(input, (arr,))
            finally:
                _vector_loop.OUT_OPERAND[0] = None
            return finish_out(fname, result, out)

        api.__name__ = fname
        api.__doc__ = f"Elementwise {fname} (node {op.name})."
        api.op = op
        api.checked_first = _checked_first(api, apply_one, any64, single64, scalar32, scalar64, small32)  # (torch.<name>'s check)
        export(*(exports or (fname,)), method=method_name)(api)
        own_check = None
        if no_bool is not None and no_bool[0] is RuntimeError:  # the op's own check (relu's), not its kernel's
            def own_check(self, *_):
                if self._data.dtype == np.bool_:
                    raise no_bool[0](no_bool[1])
        method(fname + "_")(inplace(api, first=own_check))
        return api

    return deco


_F64_DTYPE = np.dtype(np.float64)
_F32_DTYPE = np.dtype(np.float32)
_ONE = (1,)
_SMALL32 = _vec_math.SMALL32
_empty = np.empty
_ndarray = np.ndarray


# float32 exp, log, sin, cos, tanh, expm1, log1p and log10 correctly rounded: through double, rounded
# once (numpy's float32 loops are often an ulp away, which a cancellation later, as in 1 - tanh(x)^2,
# makes visible).  PyTorch's exp, log, sin, cos, tanh and log10 are MKL VML's, an ulp from the correctly
# rounded result in some values (float32 log in 4.2% of 400,000: log(2.7588778) is 1.0148239 in PyTorch,
# 1.0148240 here; docs/semantics.md, "Last bits of PyTorch's vector maths")
_via_double = _vec_math.via_double
_exp, _log, _sin, _cos = (_via_double(f) for f in (np.exp, np.log, np.sin, np.cos))
_COS = _cos.small32


@unary(_exp, saves=("result",), raw=lambda g, y: np.multiply(g, y))
def exp(ctx, grad):
    return grad * ctx.result


@unary(_log, raw=lambda g, x: np.true_divide(g, x))
def log(ctx, grad):
    return grad / ctx.self


_round32 = struct.Struct("f")  # (pack and unpack: a double rounded to float32, as numpy's cast rounds it)
_pack32, _unpack32 = _round32.pack, _round32.unpack


def _to_float32(v):
    """The Python float ``v`` rounded to float32 (as numpy's cast rounds it; beyond float32's range: inf)."""
    try:
        return _unpack32(_pack32(v))[0]
    except OverflowError:
        return float(_F32(v))


def _sin_backward_raw(ctx, g):
    """SinBackward0's array formula, g * cos(self).  One float32 or float64 element each (a chain
    of small ops): on Python floats, the product written into a copy of g, the same bits as the
    ufuncs (float64: libm's cos is numpy's one-element cos; float32: cos rounded to float32 as
    _cos rounds it, and the product of two floats is exact in double, rounded once where it is
    stored).  A ufunc call with a Python number costs more than that copy."""
    x = ctx.self._data
    if g.shape == _ONE and x.shape == _ONE and type(g) is _ndarray:  # (a ZeroTensor's zeros: the ufunc's way)
        d = x.dtype
        if g.dtype is d and (d is _F64_DTYPE or d is _F32_DTYPE):
            v = x.item()
            if v - v == 0.0:  # (finite: math.cos refuses an infinity)
                c = math.cos(v)
                out = _empty(1) if d is _F64_DTYPE else g.copy()  # (a fresh array of g's dtype)
                out[0] = g.item() * (c if d is _F64_DTYPE else _to_float32(c))
                return out
    elif type(x) is _ndarray and x.dtype is _F32_DTYPE and x.size < _SMALL32 and x.size != 1:
        return np.multiply(g, _COS(x, dtype=_F64_DTYPE).astype(_F32_DTYPE))  # (_cos's steps, no frames)
    return _times_fresh(g, _cos(x))


#: from this many elements a backward formula writes its product over the fresh array of its
#: other factor (cos(self) of sin's): one array fewer at once (a large chain's peak memory)
FRESH_MIN = 1 << 16


def _times_fresh(g, c):
    """``np.multiply(g, c)`` where ``c`` is a fresh array no one else holds (a kernel's result): for a
    large one of g's shape, dtype and C layout, written over ``c`` (the same bits, operands in their
    order, and the same array np.multiply would make); a new array otherwise."""
    if type(c) is _ndarray and type(g) is _ndarray and c.size >= FRESH_MIN and c.shape == g.shape \
            and c.dtype is g.dtype and c.flags.c_contiguous and g.flags.c_contiguous:
        return np.multiply(g, c, out=c)
    return np.multiply(g, c)


def _cos_backward_raw(g, x):
    """CosBackward0's array formula, g * -sin(self): the negation and the product written over
    sin's fresh array where :func:`_times_fresh` can."""
    s = _sin(x)
    if type(s) is _ndarray and s.size >= FRESH_MIN:
        return _times_fresh(g, np.negative(s, out=s))
    return np.multiply(g, np.negative(s))


@unary(_sin, raw_node=_sin_backward_raw)
def sin(ctx, grad):
    return grad * ctx.self.cos()


@unary(_cos, raw=_cos_backward_raw)
def cos(ctx, grad):
    return grad * -ctx.self.sin()


_fma_float = _vec_math.fma_float
_F32 = np.float32


def _plain(g):
    return g.view(np.ndarray) if type(g) is ZeroArray else g


def _tanh_backward_np(g, y):
    """tanh_backward's kernel: g * (1 - y * y), the AVX2 build fusing 1 - y * y into one rounding
    (float32: y * y is exact in double, and 1 - y * y rounded from double is the fused result but
    where that double is exactly halfway between two floats; float16 as numpy rounds it). A
    ZeroTensor ``g`` is plain zeros to the kernel (its result is no ZeroTensor, as PyTorch's)."""
    if type(g) is ZeroArray:  # (_plain, inline)
        g = g.view(np.ndarray)
    d = y.dtype
    if g.dtype is not d and g.dtype != d:
        return np.multiply(g, np.subtract(weak(1, y), np.multiply(y, y)))
    if d == np.float32:
        if y.size == 1 and g.shape == y.shape:  # (the same steps on a Python float: y * y is exact in double)
            v = y.item()
            return np.multiply(g, _F32(1.0 - v * v))
        return _tanh32.tanh_backward(g, y)
    if d == np.float64:
        if y.size == 1 and g.shape == y.shape:  # (one element: fma's steps on Python floats, no arrays)
            v = y.item()
            return np.multiply(g, _fma_float(-v, v, 1.0))
        return _tanh64.tanh_backward(g, y, _fma_one_minus_square)
    if d == np.float16:  # (the kernel's reduced-precision loop: in float, y * y exact there, rounded once at the end)
        y32 = y.astype(np.float32)
        return np.multiply(g.astype(np.float32), np.subtract(np.float32(1), np.multiply(y32, y32))).astype(d)
    return np.multiply(g, np.subtract(weak(1, y), np.multiply(y, y)))


def _fma_one_minus_square(y):
    return _vec_math.fma(np.negative(y), y, weak(1, y))


def _tanh_backward_raw(ctx, g):
    """TanhBackward0's array formula, _tanh_backward_np(g, result).  One float32 or float64
    element each (shape (1,), a chain of small ops): on Python floats, the product written into
    a fresh array (as in _sin_backward_raw; float32's factor rounded to float32 first, as
    _tanh_backward_np rounds it), the same bits, without the kernel's frame."""
    y = ctx.result._data
    if g.shape == _ONE and y.shape == _ONE and type(g) is _ndarray:  # (a ZeroTensor's zeros: the kernel's way)
        d = y.dtype
        if g.dtype is d and (d is _F64_DTYPE or d is _F32_DTYPE):
            v = y.item()
            out = _empty(1) if d is _F64_DTYPE else g.copy()  # (a fresh array of g's dtype)
            out[0] = g.item() * (_fma_float(-v, v, 1.0) if d is _F64_DTYPE else _to_float32(1.0 - v * v))
            return out
    return _tanh_backward_np(g, y)


@unary(_vec_math.via_long_double(np.tanh, single_direct=True, fast64=_tanh64.tanh, fast32=_tanh32.tanh),
       saves=("result",), raw_node=_tanh_backward_raw)
def tanh(ctx, grad):
    return _tanh_backward(grad, ctx.result)


# PyTorch's fused backward ops (their own nodes in a double-backward graph)

def _fused_backward(name, np_fn, d_grad_output, d_output):
    """An op ``name(grad_output, output)`` with its derivative (derivatives.yaml)."""
    op = Op(name, lambda ctx, g, y: np_fn(g, y), inputs=("grad_output", "output"),
            saves=("grad_output", "output"), saves_for={"grad_output": (1,)}, internal=True, jvp="element_wise",
            iterated=True)

    @op.derivative
    def _(ctx, grad):
        return (d_grad_output(grad, ctx.output) if ctx.needs(0) else None,
                d_output(grad, ctx.grad_output, ctx.output) if ctx.needs(1) else None)

    return op


_tanh_backward = _fused_backward(
    "TanhBackwardBackward0", _tanh_backward_np,
    lambda grad, y: _tanh_backward(grad, y), lambda grad, go, y: grad * (-2 * y * go))


def _sigmoid(a):
    # PyTorch's steps, 1 / (1 + exp(-a)) (an overflow to inf gives 0); float16 in float32, rounded once
    # (its vector code, 16 halves a block, with Sleef's expf; the scalar loop with libm's)
    if a.dtype == np.float16 and isinstance(a, np.ndarray):
        return _sigmoid32(a.astype(np.float32), a).astype(np.float16)
    if a.dtype == np.float64 and type(a) is np.ndarray and a.size < _vec_math.GRAIN_SIZE:
        return _sigmoid64(a)
    if a.dtype != np.float32 or not isinstance(a, np.ndarray):
        x = a.astype(np.float32) if a.dtype == np.float16 else a
        return (1 / (1 + np.exp(-x))).astype(a.dtype, copy=False)
    return _sigmoid32(a, a)


def _sigmoid64(a):
    """float64 sigmoid: 1 / (1 + exp(-x)) with Sleef's expd4_u10 where the loop runs the vector
    code, glibc's exp in the scalar loop."""
    lanes = unary_lanes(a)
    with np.errstate(all="ignore"):
        if lanes is False:
            return _laid_like(1 / (1 + _sleef.libm("exp", np.negative(a))), a)
        out = _laid_like(1 / (1 + _sleef.sleef_exp(np.negative(a))), a)
        if lanes is not True:
            rest = ~lanes
            out[rest] = 1 / (1 + _sleef.libm("exp", np.negative(a[rest])))
    return out


def _sigmoid32(x, a):
    """sigmoid of the float32 array ``x`` with the vector code where the loop over ``a`` runs it."""
    one = weak(1, x)
    lanes = unary_lanes(a) if x.size < _vec_math.GRAIN_SIZE else False  # (larger: numpy's exp, see _vec_math)
    if lanes is True and x.flags.c_contiguous:  # (every element the vector code's: no scalar loop to take)
        return one / (one + _vec_math.sleef_expf(np.negative(x)))
    out = one / (one + _exp(np.negative(x)))  # the scalar loop: libm's exp
    if lanes is not False:  # the vector code's exp (Sleef's) where it runs
        np.copyto(out, one / (one + _vec_math.sleef_expf(np.negative(x))), where=lanes)  # (out keeps x's layout)
    return out


def _sigmoid_backward_np(g, y):
    """sigmoid_backward's kernel: g * (1 - y) * y, in that order."""
    g = _plain(g)
    return np.multiply(np.multiply(g, np.subtract(weak(1, y), y)), y)


@unary(_sigmoid, saves=("result",), raw=_sigmoid_backward_np)
def sigmoid(ctx, grad):
    return _sigmoid_backward(grad, ctx.result)


_sigmoid_backward = _fused_backward(
    "SigmoidBackwardBackward0", _sigmoid_backward_np,
    lambda grad, y: _sigmoid_backward(grad, y), lambda grad, go, y: grad * go * (-2 * y + 1))  # (derivatives.yaml: -2 * output + 1)


@unary(lambda a: np.where(a < 0, 0, a).astype(a.dtype, copy=False), saves=("result",), float_out=False,  # keeps -0.0
       no_bool=(RuntimeError, "Boolean inputs not supported for relu"),
       raw=lambda g, y: _self_first(np.where(y <= 0, 0, g).astype(g.dtype, copy=False), y, g))
def relu(ctx, grad):
    return _threshold_backward(grad, ctx.result, threshold=0)


OPS["ReluBackward0"].own_grad_layout = True  # (threshold_backward's kernel takes the result first)


def _self_first(out, x, g):
    """threshold_backward's result: TensorIterator's layout over (self, grad), self first."""
    return iterator_layout(out, (x, g)) if out.ndim > 1 else out


_threshold_backward = Op("ThresholdBackwardBackward0",
                         lambda ctx, g, x, threshold: _self_first(np.where(x <= threshold, 0, g).astype(g.dtype, copy=False),
                                                                  x, g),
                         inputs=("grad_output", "self"), saves=("self",), internal=True, jvp="element_wise")


@_threshold_backward.derivative
def _(ctx, grad):  # derivatives.yaml: self gets zeros_like(grad)
    return (_threshold_backward(grad, ctx.self, threshold=ctx.threshold) if ctx.needs(0) else None,
            _zeros_like(grad) if ctx.needs(1) else None)


@unary(np.abs, float_out=False, exports=("abs", "absolute"),
       no_bool=(NotImplementedError, '"abs_cpu" not implemented for \'Bool\''))
def abs(ctx, grad):
    return grad * ctx.self.sgn()


def _sqrt(a):
    """sqrt; PyTorch's NaN for a negative number has its sign bit clear (the instruction's is set)."""
    with np.errstate(invalid="ignore"):
        return _vec_math.nan_signed(np.sqrt(a), a, False)


@unary(_sqrt, saves=("result",), raw=lambda g, y: np.true_divide(g, np.multiply(y, weak(2, y))))
def sqrt(ctx, grad):
    return grad / (2 * ctx.result)


def _sign(a):
    if a.dtype == np.bool_:
        return a.copy(order="K")  # sign of a bool is itself
    out = np.asarray(np.sign(a))  # a 0-d input gives a numpy scalar
    if out.dtype.kind == "f":
        out[out != out] = 0  # PyTorch's (0 < a) - (a < 0): NaN has sign 0
    return out


@unary(_sign, saves=(), float_out=False)
def sign(ctx, grad):
    return zeros_like_grad(grad)


_LN2 = 0.6931471805599453
_LN10 = 2.3025850929940456
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_PI_180 = 0.017453292519943295769236907684886127134428718885417
_180_PI = 57.295779513082320876798154814105170332405472466564


# ---------------------------------------------------------------------------
# unary maths
# ---------------------------------------------------------------------------

def _unary(np_fn, node=None, *, saves=("self",), by_number=False):
    """pointwise.unary for ops whose node name is not the CamelCase of their own
    (log1p -> Log1PBackward0): torch.<name>, Tensor.<name> and Tensor.<name>_.  ``by_number``: ATen's
    op is mul_out(self, number) into empty_like(self) (deg2rad): an out= it resizes is laid out by that
    TensorIterator (an empty one: not the input's strides)."""

    def deco(derivative):
        fname = derivative.__name__
        op = Op(node or node_name(fname), lambda ctx, a: np_fn(a), saves=saves, jvp="element_wise")
        op.derivative(derivative)

        def api(input, *, out=None):
            result = op.apply((input,), (_float_array(input),), {})
            if by_number and out is not None and tuple(out.shape) != tuple(result.shape):
                result._data = resized_by_iterator(result._data, (input._data, 0))
            return finish_out(fname, result, out)

        api.__name__ = fname
        api.__doc__ = f"Elementwise {fname} (node {op.name})."
        api.op = op
        export(fname, method=True)(api)
        method(fname + "_")(inplace(api))
        return api

    return deco


_expm1_long_double = _vec_math.via_long_double(np.expm1)


def _expm1_kernel(a):
    """float32 and float64: Vectorized<float/double>::expm1 (Sleef's expm1f8_u10/expm1d4_u10; vec::map
    runs the tail through the vector code too), up to GRAIN_SIZE elements; beyond, and other dtypes,
    the correctly rounded value (long double), Sleef's but in about 0.1% of values."""
    if type(a) is np.ndarray and a.size <= _vec_math.GRAIN_SIZE:
        if a.dtype == np.float32:
            return _laid_like(_sleef.sleef_expm1f(a), a)
        if a.dtype == np.float64:
            return _laid_like(_sleef.sleef_expm1(a), a)
    return _expm1_long_double(a)


@unary(_expm1_kernel, saves=("result",))
def expm1(ctx, grad):
    return grad * (ctx.result + 1)


_log1p_via_double = _via_double(np.log1p)


def _log1p_double(a):  # (PyTorch's NaN below -1: sign bit clear; numpy's double log1p sets it)
    return _vec_math.nan_signed(_log1p_via_double(a), a, False)


def _log1p_kernel(a):
    """float32 and float64: Vectorized<float/double>::log1p (Sleef's log1pf8_u10/log1pd4_u10; MKL's
    log1p is not used, and vec::map runs the tail through the vector code too; float64 beyond
    GRAIN_SIZE elements numpy's); other dtypes through _via_double."""
    if getattr(a, "dtype", None) == np.float32:
        r = _vec_math.sleef_log1pf(a)
        return r if type(a) is np.ndarray else r[()]
    if type(a) is np.ndarray and a.dtype == np.float64 and a.size <= _vec_math.GRAIN_SIZE:
        return _laid_like(_sleef.sleef_log1p(a), a)  # (Vectorized<double>::log1p, Sleef's log1pd4_u10, tail included)
    return _log1p_double(a)


@_unary(_log1p_kernel, "Log1PBackward0")
def log1p(ctx, grad):
    return grad / (ctx.self + 1)


@unary(_quiet(lambda a: _vec_math.nan_signed(np.log2(a), a, False)))  # (PyTorch's NaN: sign bit clear)
def log2(ctx, grad):
    return grad / (ctx.self * _LN2)


@unary(_vec_math.via_long_double(np.log10))
def log10(ctx, grad):
    return grad / (ctx.self * _LN10)


@unary(_quiet(np.tan), saves=("result",))
def tan(ctx, grad):
    return grad * (1 + ctx.result.pow(2))


def _negative_nan(np_fn):
    """asin/acos with PyTorch's NaN outside [-1, 1]: its sign bit set (numpy's is clear); for
    float16, computed in float, asin's NaN has the sign opposite to the input's."""
    def kernel(a):
        with np.errstate(all="ignore"):
            r = np.asarray(np_fn(a))
        if r.dtype in (np.float16, np.float32, np.float64):
            bad = (r != r) & (a == a)
            if bad.any():
                nan = -np.abs(r)
                if r.dtype == np.float16 and np_fn is np.arcsin:
                    nan = np.copysign(np.abs(r), -a)
                r = np.where(bad, nan, r)
        return r
    return kernel


@unary(_negative_nan(np.arcsin))
def asin(ctx, grad):
    x = ctx.self
    return grad * (-x * x + 1).rsqrt()


@unary(_negative_nan(np.arccos))
def acos(ctx, grad):
    x = ctx.self
    return grad * -((-x * x + 1).rsqrt())


@unary(_quiet(np.arctan))
def atan(ctx, grad):
    x = ctx.self
    return grad / (x * x + 1)


def _sleef_lanes(sleef_fn, np_fn, dtype):
    """A via_long_double vector-code function: Sleef's ``sleef_fn`` laid out as numpy's result, or
    beyond GRAIN_SIZE elements the correctly rounded value (Sleef's but in about 0.2% of values)."""
    def vector(v):
        if v.size <= _vec_math.GRAIN_SIZE:
            return _laid_like(sleef_fn(v), v)
        if dtype == np.float32:
            return np_fn(v, dtype=np.float64).astype(np.float32)
        return np_fn(v.astype(np.longdouble)).astype(np.float64)
    return vector


@unary(_vec_math.via_long_double(np.sinh, scalar_tail=True, vector32=_sleef_lanes(_sleef.sleef_sinhf, np.sinh, np.float32),
                                 vector64=_sleef_lanes(_sleef.sleef_sinh, np.sinh, np.float64)))
def sinh(ctx, grad):
    return grad * ctx.self.cosh()


@unary(_vec_math.via_long_double(np.cosh, scalar_tail=True, vector32=_sleef_lanes(_sleef.sleef_coshf, np.cosh, np.float32),
                                 vector64=_sleef_lanes(_sleef.sleef_cosh, np.cosh, np.float64)))
def cosh(ctx, grad):
    return grad * ctx.self.sinh()


@unary(_quiet(np.arcsinh))
def asinh(ctx, grad):
    return grad * (ctx.self.pow(2) + 1).rsqrt()


@unary(_quiet(np.arccosh))
def acosh(ctx, grad):
    x = ctx.self
    return grad * (x * x - 1).rsqrt()


def _atanh_vector32(v):
    """float32 atanh as the vector code (Sleef's) gives it: a NaN outside [-1, 1] signed opposite to
    the input."""
    r = np.arctanh(v, dtype=np.float64).astype(np.float32)
    return _vec_math.nan_signed(r, v, ~np.signbit(v))


def _atanh_vector(sleef_fn, fallback):
    def vector(v):
        if v.size <= _vec_math.GRAIN_SIZE:
            return _laid_like(sleef_fn(v), v)
        return fallback(v)
    return vector


@unary(_vec_math.via_long_double(np.arctanh, scalar_tail=True,
                                 vector32=_atanh_vector(_sleef.sleef_atanhf, _atanh_vector32),
                                 vector64=_atanh_vector(_sleef.sleef_atanh,
                                                        lambda v: np.arctanh(v.astype(np.longdouble)).astype(np.float64))))
def atanh(ctx, grad):
    return grad * 1 / (1 - ctx.self.pow(2))


def _rsqrt(a):
    """1 / sqrt(a); float16: the vector code's 1 / sqrt in float, rounded once, the scalar loop's
    1 / std::sqrt(Half) (the square root rounded to float16 first)."""
    with np.errstate(all="ignore"):
        if a.dtype != np.float16:
            return (1 / np.sqrt(a)).astype(a.dtype, copy=False)
        root = np.sqrt(a.astype(np.float32))
        one = np.float32(1)
        return by_lanes(unary_lanes(a) if isinstance(a, np.ndarray) else False, lambda r: one / r,
                        lambda r: one / r.astype(np.float16).astype(np.float32), (root,), np.float32).astype(a.dtype)


@unary(_rsqrt, saves=("result",))
def rsqrt(ctx, grad):
    return -0.5 * grad * ctx.result.pow(3)


@unary(lambda a: _calerf(a, False))
def erf(ctx, grad):
    return _TWO_OVER_SQRT_PI * (-(ctx.self.pow(2))).exp() * grad


@unary(lambda a: _calerf(a, True))
def erfc(ctx, grad):
    return -_TWO_OVER_SQRT_PI * (-(ctx.self.pow(2))).exp() * grad


def _laid_like(r, a):
    """``r`` (a kernel's result of ``a``'s shape, in C order) laid out as numpy's elementwise
    function of ``a`` lays its result out (empty_like's order)."""
    if a.flags.c_contiguous or r.ndim < 2:
        return r
    out = np.empty_like(a, dtype=r.dtype)
    out[...] = r
    return out


def _exp2_kernel(a):
    """exp2's kernel: float32/float64 through Sleef's exp2f8_u10/exp2d4_u10 where the loop runs its
    vector code, glibc's exp2f/exp2 (numpy's) in the scalar loop; beyond GRAIN_SIZE elements
    numpy's throughout (an ulp from Sleef's in about 6% of values, see _vec_math)."""
    if type(a) is np.ndarray and (a.dtype == np.float32 or a.dtype == np.float64) and 64 <= a.nbytes \
            and a.size <= _vec_math.GRAIN_SIZE:  # (a whole vector block at least: else the scalar loop alone)
        with np.errstate(all="ignore"):
            return _laid_like(_vec_math._scalar_lanes(_sleef.sleef_exp2f if a.dtype == np.float32 else _sleef.sleef_exp2,
                                                      a, np.exp2), a)
    return _exp2_np(a)


_exp2_np = _quiet(np.exp2)


@unary(_exp2_kernel, saves=("result",))
def exp2(ctx, grad):
    return grad * ctx.result * _LN2


def _sinc(a):
    """The kernel's steps in the opmath type (float16 in float32): product = pi * x (float32: pi
    as a float, the product rounded to float), sin(product) / product, 1 at 0 (numpy's sinc
    rounds pi * x from double and takes numpy's own float32 sin)."""
    with np.errstate(all="ignore"):
        if a.dtype in (np.float16, np.float32):
            x = a.astype(np.float32, copy=False)
            product = np.float32(math.pi) * x
            r = _vec_math.libm_float(np.sin, product) / product
            return np.where(x == 0, np.float32(1), r).astype(a.dtype, copy=False)
        return np.sinc(a).astype(a.dtype, copy=False)


@unary(_sinc)
def sinc(ctx, grad):
    x = ctx.self
    x_pi = x * math.pi
    sq_pi = x * x * math.pi
    sin = x_pi.sin()  # ((x_pi * cos(x_pi)) - sin(x_pi)): GCC's right operand first
    out = grad * (((x_pi * x_pi.cos()) - sin) / sq_pi)
    return where(sq_pi == 0.0, 0.0, out)


def _times(c):
    """``a * c`` as PyTorch's mul by a wrapped number: in the opmath type (float16 in float32, the
    number as a float), then rounded to the input's dtype."""
    def kernel(a):
        if type(a) is np.ndarray and not a.size and a.ndim:  # (deg2rad's empty_like(self), then mul_out: its strides)
            return empty_like(a)
        work = np.float32 if a.dtype == np.float16 else a.dtype
        return (a.astype(work, copy=False) * np.asarray(c, work)).astype(a.dtype, copy=False)
    return kernel


@_unary(_times(_PI_180), "Deg2RadBackward0", saves=(), by_number=True)
def deg2rad(ctx, grad):
    return grad * _PI_180


@_unary(_times(_180_PI), "Rad2DegBackward0", saves=(), by_number=True)
def rad2deg(ctx, grad):
    return grad * _180_PI


# aliases: torch.arcsin & co., as functions, methods and in-place methods
for _alias, _fn in {"arcsin": asin, "arccos": acos, "arctan": atan, "arcsinh": asinh,
                    "arccosh": acosh, "arctanh": atanh}.items():
    export(_alias, method=True)(_fn)
    method(_alias + "_")(inplace(_fn, name=_alias))


def _inplace_not_differentiable(fn, aten):
    """asinh_/acosh_/atanh_ (and the arc* spellings): derivatives.yaml gives the in-place forms
    ``not_implemented("inplace version of asinh")``, so PyTorch records AsinhBackward1 & co., whose
    backward raises; the values are the op's."""
    node = Op(f"{aten.capitalize()}Backward1", lambda ctx, a, value: value, jvp="unsupported")

    @node.derivative
    def _(ctx, grad):
        raise NotImplementedError(f"the derivative for 'inplace version of {aten}' is not implemented.")

    def write(x):
        from ._op import is_recording

        value = fn(x.detach())
        if not x._requires_grad or not is_recording((x,)):
            return value
        return node.apply((x,), (x._data,), {"value": value._data})

    write.__name__ = aten
    return write


for _names, _fn in ((("asinh", "arcsinh"), asinh), (("acosh", "arccosh"), acosh), (("atanh", "arctanh"), atanh)):
    _write = _inplace_not_differentiable(_fn, _names[0])
    for _n in _names:
        method(_n + "_")(inplace(_write, name=_n))


@export(method=True)
def square(input, *, out=None):
    """input ** 2 (PyTorch records it as PowBackward0)."""
    if input.dtype is dtypes.bool_:
        input = input.to(dtypes.int64)
    return finish_out("square", _pow(input, 2), out)


method("square_")(inplace(square))
