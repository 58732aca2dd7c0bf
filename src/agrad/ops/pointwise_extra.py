"""More pointwise ops: the rest of PyTorch's elementwise maths.

Unary maths (expm1, log1p, the inverse and hyperbolic trigonometric functions,
erf, erfc, rsqrt, ...), rounding (floor, ceil, round, trunc, frac), binary
maths (atan2, hypot, maximum/minimum, fmax/fmin, fmod, lerp, copysign, xlogy,
logaddexp, float_power, heaviside), the fused addcmul/addcdiv, masked_fill,
and the tests (isnan, isinf, isclose, equal, ...).

Each differentiable op is one entry: numpy forward, PyTorch's node name, what it
saves, and its derivative written with agrad ops (derivatives.yaml's formulas),
so ``create_graph=True`` gives higher derivatives.
"""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..tensor import Tensor, _scalar_name
from ._op import Op, export, finish_out, inplace, method, node_name
from .pointwise import (broadcast_error, _float_array, _mismatch_message, binary, check_operand, operands,
                        unary, where)
from .pointwise import pow as _pow

_result_type = dtypes.result_type

_LN2 = 0.6931471805599453
_LN10 = 2.3025850929940456
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_PI_180 = 0.017453292519943295769236907684886127134428718885417
_180_PI = 57.295779513082320876798154814105170332405472466564

# c10's names for dtypes in some of its messages ("expected dtype float ... long int")
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
    return Tensor._make(np.zeros(t.shape, t.dtype.numpy))


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


def _not_implemented_for(fname, d):
    raise NotImplementedError(f'"{fname}_cpu" not implemented for \'{_scalar_name(d)}\'')


# ---------------------------------------------------------------------------
# erf / erfc: W. J. Cody's rational approximations (CALERF), to ~1e-16
# ---------------------------------------------------------------------------

_ERF_A = (3.16112374387056560e00, 1.13864154151050156e02, 3.77485237685302021e02,
          3.20937758913846947e03, 1.85777706184603153e-1)
_ERF_B = (2.36012909523441209e01, 2.44024637934444173e02, 1.28261652607737228e03,
          2.84423683343917062e03)
_ERF_C = (5.64188496988670089e-1, 8.88314979438837594e00, 6.61191906371416295e01,
          2.98635138197400131e02, 8.81952221241769090e02, 1.71204761263407058e03,
          2.05107837782607147e03, 1.23033935479799725e03, 2.15311535474403846e-8)
_ERF_D = (1.57449261107098347e01, 1.17693950891312499e02, 5.37181101862009858e02,
          1.62138957456669019e03, 3.29079923573345963e03, 4.36261909014324716e03,
          3.43936767414372164e03, 1.23033935480374942e03)
_ERF_P = (3.05326634961232344e-1, 3.60344899949804439e-1, 1.25781726111229246e-1,
          1.60837851487422766e-2, 6.58749161529837803e-4, 1.63153871373020978e-2)
_ERF_Q = (2.56852019228982242e00, 1.87295284992346725e00, 5.27905102951428412e-1,
          6.05183413124413191e-2, 2.33520497626869185e-3)
_ONE_OVER_SQRT_PI = 5.6418958354775628695e-1


def _calerf(a, complement):
    """erf(a) (or erfc(a)), computed in float64 and returned in a's dtype."""
    x = np.asarray(a, np.float64)
    y = np.abs(x)
    with np.errstate(all="ignore"):
        # |x| <= 0.46875: erf as x * P(x^2) / Q(x^2)
        ysq = np.where(y > 1.11e-16, y * y, 0.0)
        num = _ERF_A[4] * ysq
        den = ysq
        for i in range(3):
            num = (num + _ERF_A[i]) * ysq
            den = (den + _ERF_B[i]) * ysq
        erf_small = x * (num + _ERF_A[3]) / (den + _ERF_B[3])
        # 0.46875 < |x| <= 4: erfc(|x|) = exp(-x^2) P(|x|) / Q(|x|)
        num = _ERF_C[8] * y
        den = y
        for i in range(7):
            num = (num + _ERF_C[i]) * y
            den = (den + _ERF_D[i]) * y
        mid = (num + _ERF_C[7]) / (den + _ERF_D[7])
        # |x| > 4: erfc(|x|) = exp(-x^2) / |x| (1/sqrt(pi) + R(1/x^2) / x^2)
        inv = 1.0 / (y * y)
        num = _ERF_P[5] * inv
        den = inv
        for i in range(4):
            num = (num + _ERF_P[i]) * inv
            den = (den + _ERF_Q[i]) * inv
        big = (_ONE_OVER_SQRT_PI - inv * (num + _ERF_P[4]) / (den + _ERF_Q[4])) / y
        r = np.where(y <= 4.0, mid, big)
        # exp(-y^2) split in two factors to keep the accuracy for large y
        y16 = np.trunc(y * 16.0) / 16.0
        erfc_abs = np.exp(-y16 * y16) * np.exp(-(y - y16) * (y + y16)) * r
        erfc_abs = np.where(np.isinf(y), 0.0, erfc_abs)
        small = y <= 0.46875
        if complement:
            out = np.where(x < 0, 2.0 - erfc_abs, erfc_abs)
            out = np.where(small, 1.0 - erf_small, out)
        else:
            out = (0.5 - erfc_abs) + 0.5
            out = np.where(x < 0, -out, out)
            out = np.where(small, erf_small, out)
    out = np.where(np.isnan(x), np.nan, out)
    return out.astype(np.asarray(a).dtype if np.asarray(a).dtype.kind == "f" else np.float64, copy=False)


# ---------------------------------------------------------------------------
# unary maths
# ---------------------------------------------------------------------------

def _unary(np_fn, node=None, *, saves=("self",)):
    """pointwise.unary for ops whose node name is not the CamelCase of their own
    (log1p -> Log1PBackward0): torch.<name>, Tensor.<name> and Tensor.<name>_."""

    def deco(derivative):
        fname = derivative.__name__
        op = Op(node or node_name(fname), lambda ctx, a: np_fn(a), saves=saves)
        op.derivative(derivative)

        def api(input, *, out=None):
            return finish_out(fname, op.apply((input,), (_float_array(input),), {}), out)

        api.__name__ = fname
        api.__doc__ = f"Elementwise {fname} (node {op.name})."
        api.op = op
        export(fname, method=True)(api)
        method(fname + "_")(inplace(api))
        return api

    return deco


@unary(_quiet(np.expm1), saves=("result",))
def expm1(ctx, grad):
    return grad * (ctx.result + 1)


@_unary(_quiet(np.log1p), "Log1PBackward0")
def log1p(ctx, grad):
    return grad / (ctx.self + 1)


@unary(_quiet(np.log2))
def log2(ctx, grad):
    return grad / (ctx.self * _LN2)


@unary(_quiet(np.log10))
def log10(ctx, grad):
    return grad / (ctx.self * _LN10)


@unary(_quiet(np.tan), saves=("result",))
def tan(ctx, grad):
    return grad * (1 + ctx.result.pow(2))


@unary(_quiet(np.arcsin))
def asin(ctx, grad):
    x = ctx.self
    return grad * (-x * x + 1).rsqrt()


@unary(_quiet(np.arccos))
def acos(ctx, grad):
    x = ctx.self
    return grad * -((-x * x + 1).rsqrt())


@unary(_quiet(np.arctan))
def atan(ctx, grad):
    x = ctx.self
    return grad / (x * x + 1)


@unary(_quiet(np.sinh))
def sinh(ctx, grad):
    return grad * ctx.self.cosh()


@unary(_quiet(np.cosh))
def cosh(ctx, grad):
    return grad * ctx.self.sinh()


@unary(_quiet(np.arcsinh))
def asinh(ctx, grad):
    return grad * (ctx.self.pow(2) + 1).rsqrt()


@unary(_quiet(np.arccosh))
def acosh(ctx, grad):
    x = ctx.self
    return grad * (x * x - 1).rsqrt()


@unary(_quiet(np.arctanh))
def atanh(ctx, grad):
    return grad * 1 / (1 - ctx.self.pow(2))


def _rsqrt(a):
    with np.errstate(all="ignore"):
        return (1 / np.sqrt(a)).astype(a.dtype, copy=False)


@unary(_rsqrt, saves=("result",))
def rsqrt(ctx, grad):
    return -0.5 * grad * ctx.result.pow(3)


@unary(lambda a: _calerf(a, False))
def erf(ctx, grad):
    return _TWO_OVER_SQRT_PI * (-(ctx.self.pow(2))).exp() * grad


@unary(lambda a: _calerf(a, True))
def erfc(ctx, grad):
    return -_TWO_OVER_SQRT_PI * (-(ctx.self.pow(2))).exp() * grad


@unary(_quiet(np.exp2), saves=("result",))
def exp2(ctx, grad):
    return grad * ctx.result * _LN2


def _sinc(a):
    with np.errstate(all="ignore"):
        return np.sinc(a).astype(a.dtype, copy=False)


@unary(_sinc)
def sinc(ctx, grad):
    x = ctx.self
    x_pi = x * math.pi
    sq_pi = x * x * math.pi
    out = grad * ((x_pi * x_pi.cos()) - x_pi.sin()) / sq_pi
    return where(sq_pi == 0.0, 0.0, out)


@_unary(lambda a: (a * np.asarray(_PI_180, a.dtype)).astype(a.dtype, copy=False), "Deg2RadBackward0", saves=())
def deg2rad(ctx, grad):
    return grad * _PI_180


@_unary(lambda a: (a * np.asarray(_180_PI, a.dtype)).astype(a.dtype, copy=False), "Rad2DegBackward0", saves=())
def rad2deg(ctx, grad):
    return grad * _180_PI


# aliases: torch.arcsin & co., as functions, methods and in-place methods
for _alias, _fn in {"arcsin": asin, "arccos": acos, "arctan": atan, "arcsinh": asinh,
                    "arccosh": acosh, "arctanh": atanh}.items():
    export(_alias, method=True)(_fn)
    method(_alias + "_")(inplace(_fn))


@export(method=True)
def square(input, *, out=None):
    """input ** 2 (PyTorch records it as PowBackward0)."""
    if input.dtype is dtypes.bool_:
        input = input.to(dtypes.int64)
    return finish_out("square", _pow(input, 2), out)


method("square_")(inplace(square))


# ---------------------------------------------------------------------------
# rounding: zero gradient, but recorded (PyTorch keeps a node)
# ---------------------------------------------------------------------------

def _rounding(np_fn, fname, aliases=()):
    def kernel(a):
        return a.copy() if a.dtype.kind in "biu" else np_fn(a)

    def derivative(ctx, grad):
        return _zeros_like(grad)

    derivative.__name__ = fname
    api = unary(kernel, saves=(), float_out=False, exports=(fname,) + aliases)(derivative)
    for alias in aliases:
        method(alias)(api)
        method(alias + "_")(inplace(api))
    return api


floor = _rounding(np.floor, "floor")
ceil = _rounding(np.ceil, "ceil")
trunc = _rounding(np.trunc, "trunc", ("fix",))

_round0 = Op("RoundBackward0", lambda ctx, a: a.copy() if a.dtype.kind in "biu" else np.rint(a))
_round1 = Op("RoundBackward1", lambda ctx, a, decimals: _round_decimals(a, decimals))
_round0.derivative(lambda ctx, grad: _zeros_like(grad))
_round1.derivative(lambda ctx, grad: _zeros_like(grad))


def _round_decimals(a, decimals):
    ten = np.asarray(10.0 ** abs(decimals), a.dtype)
    with np.errstate(all="ignore"):
        if decimals < 0:
            return (np.rint(a / ten) * ten).astype(a.dtype, copy=False)
        return (np.rint(a * ten) / ten).astype(a.dtype, copy=False)


@export(method=True)
def round(input, *, decimals=None, out=None):
    """Round half to even; with ``decimals``, to that many decimal places."""
    if decimals is None:
        return finish_out("round", _round0(input), out)
    if not input.dtype.is_floating_point:
        _not_implemented_for("round", input.dtype)
    return finish_out("round", _round1.apply((input,), (input._data,), {"decimals": int(decimals)}), out)


method("round_")(inplace(round))

_frac = Op("FracBackward0", lambda ctx, a: (a - np.trunc(a)).astype(a.dtype, copy=False))
_frac.derivative(lambda ctx, grad: grad)


@export(method=True)
def frac(input, *, out=None):
    if not input.dtype.is_floating_point:
        _not_implemented_for("frac", input.dtype)
    return finish_out("frac", _frac(input), out)


method("frac_")(inplace(frac))


@unary(lambda a: np.sign(a), saves=(), float_out=False)
def sgn(ctx, grad):
    return _zeros_like(grad)


# ---------------------------------------------------------------------------
# nan_to_num
# ---------------------------------------------------------------------------

def _nan_to_num_fwd(ctx, a, nan, posinf, neginf):
    if a.dtype.kind != "f":
        return a.copy()
    info = np.finfo(a.dtype)
    return np.nan_to_num(a, nan=nan, posinf=info.max if posinf is None else posinf,
                         neginf=info.min if neginf is None else neginf)


_nan_to_num = Op("NanToNumBackward0", _nan_to_num_fwd, saves=("self",))


@_nan_to_num.derivative
def _(ctx, grad):
    return grad * isfinite(ctx.self)


@export(method=True)
def nan_to_num(input, nan=0.0, posinf=None, neginf=None, *, out=None):
    nan = 0.0 if nan is None else nan
    return finish_out("nan_to_num", _nan_to_num.apply(
        (input,), (input._data,), {"nan": nan, "posinf": posinf, "neginf": neginf}), out)


method("nan_to_num_")(inplace(nan_to_num))


# ---------------------------------------------------------------------------
# logit
# ---------------------------------------------------------------------------

def _logit_fwd(ctx, a, eps):
    with np.errstate(all="ignore"):
        x = a if eps is None else np.clip(a, np.asarray(eps, a.dtype), np.asarray(1.0 - eps, a.dtype))
        return np.log(x / (1 - x)).astype(a.dtype, copy=False)


_logit = Op("LogitBackward0", _logit_fwd, saves=("self",))


@_logit.derivative
def _(ctx, grad):
    # infinitely_differentiable_logit_backward
    x = ctx.self
    eps = ctx.eps
    if eps is not None:
        inside = (x >= eps) & (x <= 1.0 - eps)
        return where(inside, grad / (x * (1.0 - x)), 0.0)
    inside = (x >= 0.0) & (x <= 1.0)
    return where(inside, grad / (x * (1.0 - x)), float("nan"))


@export(method=True)
def logit(input, eps=None, *, out=None):
    """log(p / (1 - p)), with p clamped to [eps, 1 - eps] when eps is given."""
    return finish_out("logit", _logit.apply((input,), (_float_array(input),),
                                            {"eps": None if eps is None else float(eps)}), out)


method("logit_")(inplace(logit))


# ---------------------------------------------------------------------------
# binary maths
# ---------------------------------------------------------------------------

@binary(lambda a, b: _binary_quiet(np.arctan2, a, b), "atan2", saves=("self", "other"))
def _atan2(ctx, grad):
    x, y = ctx.self, ctx.other
    recip = (x * x + y * y).reciprocal()
    return grad * y * recip, grad * -x * recip


@export("atan2", "arctan2", method=True)
def atan2(input, other, *, out=None):
    _require_tensor("atan2", other)
    ts, arrs = _float_operands(input, other, "atan2")
    return finish_out("atan2", _atan2.apply(ts, arrs, {}), out)


method("atan2_")(inplace(atan2))
method("arctan2_")(inplace(atan2))


@binary(np.hypot, "hypot", saves=("self", "other", "result"))
def _hypot(ctx, grad):
    r = ctx.result
    return grad * ctx.self / r, grad * ctx.other / r


@export(method=True)
def hypot(input, other, *, out=None):
    _require_tensor("hypot", other)
    ts, arrs = operands(input, other, "hypot")
    if not arrs[0].dtype.kind == "f":
        _not_implemented_for("hypot", _result_type(input, other))
    return finish_out("hypot", _hypot.apply(ts, arrs, {}), out)


method("hypot_")(inplace(hypot))


# maximum / minimum: ties split the gradient in half
@binary(np.maximum, "maximum", saves=("self", "other"))
def _maximum(ctx, grad):
    a, b = ctx.self, ctx.other
    g = where(a == b, grad / 2, grad)
    return g.masked_fill(a < b, 0), g.masked_fill(a > b, 0)


@binary(np.minimum, "minimum", saves=("self", "other"))
def _minimum(ctx, grad):
    a, b = ctx.self, ctx.other
    g = where(a == b, grad / 2, grad)
    return g.masked_fill(a > b, 0), g.masked_fill(a < b, 0)


@export(method=True)
def maximum(input, other, *, out=None):
    """Elementwise maximum (NaN propagates); ties share the gradient."""
    _require_tensor("maximum", other)
    ts, arrs = operands(input, other, "maximum")
    return finish_out("maximum", _maximum.apply(ts, arrs, {}), out)


@export(method=True)
def minimum(input, other, *, out=None):
    """Elementwise minimum (NaN propagates); ties share the gradient."""
    _require_tensor("minimum", other)
    ts, arrs = operands(input, other, "minimum")
    return finish_out("minimum", _minimum.apply(ts, arrs, {}), out)


@binary(np.fmax, "fmax", saves=("self", "other"))
def _fmax(ctx, grad):
    a, b = ctx.self, ctx.other
    take_a = (a >= b) | isnan(b)
    return grad.masked_fill(take_a.logical_not(), 0), grad.masked_fill(take_a, 0)


@binary(np.fmin, "fmin", saves=("self", "other"))
def _fmin(ctx, grad):
    a, b = ctx.self, ctx.other
    take_a = (a <= b) | isnan(b)
    return grad.masked_fill(take_a.logical_not(), 0), grad.masked_fill(take_a, 0)


@export(method=True)
def fmax(input, other, *, out=None):
    """Elementwise maximum ignoring NaN."""
    _require_tensor("fmax", other)
    ts, arrs = operands(input, other, "fmax")
    return finish_out("fmax", _fmax.apply(ts, arrs, {}), out)


@export(method=True)
def fmin(input, other, *, out=None):
    """Elementwise minimum ignoring NaN."""
    _require_tensor("fmin", other)
    ts, arrs = operands(input, other, "fmin")
    return finish_out("fmin", _fmin.apply(ts, arrs, {}), out)


# fmod: the C remainder (sign of the dividend)
def _fmod_kernel(a, b):
    if a.dtype.kind in "iu" and (np.asarray(b) == 0).any():
        raise RuntimeError("ZeroDivisionError")
    with np.errstate(all="ignore"):
        return np.fmod(a, b)


_fmod0 = Op("FmodBackward0", lambda ctx, a, other: _fmod_kernel(a, np.asarray(other, a.dtype)))
_fmod0.derivative(lambda ctx, grad: grad)


@binary(_fmod_kernel, "fmod", saves=("self", "other"), overload=1)
def _fmod1(ctx, grad):
    return grad, -grad * ctx.self.div(ctx.other, rounding_mode="trunc")


@export(method=True)
def fmod(input, other, *, out=None):
    if isinstance(other, Tensor):
        ts, arrs = operands(input, other, "fmod")
        return finish_out("fmod", _fmod1.apply(ts, arrs, {}), out)
    check_operand(other, "fmod")
    d = _result_type(input, other)
    return finish_out("fmod", _fmod0.apply((input,), (input._data.astype(d.numpy, copy=False),),
                                           {"other": other}), out)


method("fmod_")(inplace(fmod))


# lerp: self + weight * (end - self)
def _lerp_kernel(a, b, w):
    w = np.asarray(w, a.dtype)
    with np.errstate(all="ignore"):
        return np.where(np.abs(w) < 0.5, a + w * (b - a), b - (b - a) * (1 - w)).astype(a.dtype, copy=False)


_lerp0 = Op("LerpBackward0", lambda ctx, a, b, weight: _lerp_kernel(a, b, weight),
            inputs=("self", "end"), value_error=broadcast_error)
_lerp1 = Op("LerpBackward1", lambda ctx, a, b, w: _lerp_kernel(a, b, w),
            inputs=("self", "end", "weight"), saves=("self", "end", "weight"), value_error=broadcast_error)


@_lerp0.derivative
def _(ctx, grad):
    w = ctx.weight
    return grad * (1 - float(w)), grad * w


@_lerp1.derivative
def _(ctx, grad):
    w = ctx.weight
    return grad * (1 - w), grad * w, grad * (ctx.end - ctx.self)


@export(method=True)
def lerp(input, end, weight, *, out=None):
    _require_tensor("lerp", end, "end")
    if end.dtype is not input.dtype:
        raise RuntimeError(
            f"expected dtype {_C_NAMES[input.dtype.name]} for `end` but got dtype {_C_NAMES[end.dtype.name]}")
    if isinstance(weight, Tensor):
        if weight.dtype is not input.dtype:
            raise RuntimeError(f"expected dtype {_C_NAMES[input.dtype.name]} for `weight` but got dtype "
                               f"{_C_NAMES[weight.dtype.name]}")
        return finish_out("lerp", _lerp1.apply((input, end, weight), (input._data, end._data, weight._data), {}),
                          out)
    check_operand(weight, "lerp")
    return finish_out("lerp", _lerp0.apply((input, end), (input._data, end._data), {"weight": weight}), out)


method("lerp_")(inplace(lerp))


# copysign: |self| with the sign of other
def _copysign_grad(grad, x, result):
    ratio = (result / x).masked_fill(x == 0, 0)
    return grad * ratio


@binary(np.copysign, "copysign", saves=("self", "result"))
def _copysign0(ctx, grad):
    return _copysign_grad(grad, ctx.self, ctx.result), _zeros_like(grad)


_copysign1 = Op("CopysignBackward1", lambda ctx, a, other: np.copysign(a, np.asarray(other, a.dtype)),
                saves=("self", "result"))


@_copysign1.derivative
def _(ctx, grad):
    return _copysign_grad(grad, ctx.self, ctx.result)


@export(method=True)
def copysign(input, other, *, out=None):
    if isinstance(other, Tensor):
        ts, arrs = _float_operands(input, other, "copysign")
        return finish_out("copysign", _copysign0.apply(ts, arrs, {}), out)
    check_operand(other, "copysign")
    d = _result_type(input, other)
    if not d.is_floating_point:
        d = dtypes.get_default_dtype()
    return finish_out("copysign", _copysign1.apply((input,), (input._data.astype(d.numpy, copy=False),),
                                                   {"other": other}), out)


method("copysign_")(inplace(copysign))


# xlogy: x * log(y), 0 where x == 0 (unless y is NaN)
def _xlogy_kernel(x, y):
    x = np.asarray(x)
    y = np.asarray(y)
    with np.errstate(all="ignore"):
        out = x * np.log(y)
    out = np.where(x == 0, np.zeros((), out.dtype), out)
    return np.where(np.isnan(y), np.asarray(np.nan, out.dtype), out).astype(out.dtype, copy=False)


@binary(_xlogy_kernel, "xlogy", saves=("self", "other"))
def _xlogy0(ctx, grad):
    x, y = ctx.self, ctx.other
    return xlogy(grad, y).masked_fill((x == 0.0) & (y <= 0.0), 0.0), grad * x / y


_xlogy1 = Op("XlogyBackward1", lambda ctx, y, x: _xlogy_kernel(np.asarray(x, y.dtype), y), inputs=("other",),
             saves=("other",))
_xlogy2 = Op("XlogyBackward2", lambda ctx, x, other: _xlogy_kernel(x, np.asarray(other, x.dtype)), saves=("self",))


@_xlogy1.derivative
def _(ctx, grad):
    return grad * ctx.x / ctx.other


@_xlogy2.derivative
def _(ctx, grad):
    g = xlogy(grad, ctx.other)
    if not ctx.other > 0:
        g = g.masked_fill(ctx.self == 0.0, 0.0)
    return g


@export(method=True)
def xlogy(input, other, *, out=None):
    """input * log(other), taken as 0 where input == 0."""
    if not isinstance(input, Tensor):  # scalar self
        check_operand(input, "xlogy")
        d = _result_type(input, other)
        if not d.is_floating_point:
            d = dtypes.get_default_dtype()
        return finish_out("xlogy", _xlogy1.apply((other,), (other._data.astype(d.numpy, copy=False),),
                                                 {"x": input}), out)
    if isinstance(other, Tensor):
        ts, arrs = _float_operands(input, other, "xlogy")
        return finish_out("xlogy", _xlogy0.apply(ts, arrs, {}), out)
    check_operand(other, "xlogy")
    d = _result_type(input, other)
    if not d.is_floating_point:
        d = dtypes.get_default_dtype()
    return finish_out("xlogy", _xlogy2.apply((input,), (input._data.astype(d.numpy, copy=False),),
                                             {"other": other}), out)


method("xlogy_")(inplace(xlogy))


@binary(lambda a, b: _binary_quiet(np.logaddexp, a, b), "logaddexp", saves=("self", "other"))
def _logaddexp0(ctx, grad):
    a, b = ctx.self, ctx.other
    return grad / (1 + (b - a).exp()), grad / (1 + (a - b).exp())


@binary(lambda a, b: _binary_quiet(np.logaddexp2, a, b), "logaddexp2", saves=("self", "other"))
def _logaddexp2(ctx, grad):
    a, b = ctx.self, ctx.other
    return grad / (1 + _pow(2, b - a)), grad / (1 + _pow(2, a - b))


@export(method=True)
def logaddexp(input, other, *, out=None):
    """log(exp(input) + exp(other)), computed stably."""
    _require_tensor("logaddexp", other)
    ts, arrs = operands(input, other, "logaddexp")
    if arrs[0].dtype.kind != "f":
        _not_implemented_for("logaddexp", _result_type(input, other))
    return finish_out("logaddexp", _logaddexp0.apply(ts, arrs, {}), out)


@export(method=True)
def logaddexp2(input, other, *, out=None):
    """log2(2**input + 2**other), computed stably."""
    _require_tensor("logaddexp2", other)
    ts, arrs = operands(input, other, "logaddexp2")
    if arrs[0].dtype.kind != "f":
        _not_implemented_for("logaddexp2", _result_type(input, other))
    return finish_out("logaddexp2", _logaddexp2.apply(ts, arrs, {}), out)


@export(method=True)
def float_power(input, exponent, *, out=None):
    """pow in double precision: both operands are cast to float64 first."""
    f64 = dtypes.float64
    if isinstance(input, Tensor):
        base = input.to(f64)
    else:
        check_operand(input, "float_power")
        base = float(input)
    if isinstance(exponent, Tensor):
        exp = exponent.to(f64)
    else:
        check_operand(exponent, "float_power")
        exp = float(exponent) if not isinstance(exponent, (bool, np.bool_)) else int(exponent)
    return finish_out("float_power", _pow(base, exp), out)


def _float_power_(self, exponent):
    if self.dtype is not dtypes.float64:
        raise RuntimeError(f"the base given to float_power_ has dtype {_scalar_name(self.dtype)} but the "
                           "operation's result requires dtype Double")
    return inplace(float_power)(self, exponent)


method("float_power_")(_float_power_)


# heaviside: PyTorch has no derivative; it records a node that refuses backward
_heaviside = Op("torch::autograd::NotImplemented",
                lambda ctx, a, v: np.heaviside(a, v).astype(np.result_type(a, v), copy=False),
                inputs=("self", "values"), value_error=broadcast_error)


@_heaviside.derivative
def _(ctx, grad):
    raise RuntimeError("derivative for aten::heaviside is not implemented")


@export(method=True)
def heaviside(input, values, *, out=None):
    _require_tensor("heaviside", values, "values")
    if input.dtype is not values.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    return finish_out("heaviside", _heaviside.apply((input, values), (input._data, values._data), {}), out)


method("heaviside_")(inplace(heaviside))


# ---------------------------------------------------------------------------
# addcmul / addcdiv: self + value * t1 * t2, self + value * t1 / t2
# ---------------------------------------------------------------------------

def _ternary_arrays(fname, tensors):
    for i, t in enumerate(tensors):
        _require_tensor(fname, t, ("input", "tensor1", "tensor2")[i], i + 1)
    d = _result_type(*tensors)
    arrs = [t._data.astype(d.numpy, copy=False) for t in tensors]
    shapes = [a.shape for a in arrs]
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        try:
            np.broadcast_shapes(shapes[1], shapes[2])
        except ValueError:
            raise RuntimeError(_mismatch_message(shapes[1], shapes[2])) from None
        raise RuntimeError(_mismatch_message(shapes[0], np.broadcast_shapes(shapes[1], shapes[2]))) from None
    return d, arrs


def _addcmul_fwd(ctx, a, t1, t2, value):
    v = np.asarray(value, a.dtype)
    return (a + v * t1 * t2).astype(a.dtype, copy=False)


def _addcdiv_fwd(ctx, a, t1, t2, value):
    v = np.asarray(value, a.dtype)
    with np.errstate(all="ignore"):
        return (a + v * t1 / t2).astype(a.dtype, copy=False)


_addcmul = Op("AddcmulBackward0", _addcmul_fwd, inputs=("self", "tensor1", "tensor2"),
              saves=("tensor1", "tensor2"))
_addcdiv = Op("AddcdivBackward0", _addcdiv_fwd, inputs=("self", "tensor1", "tensor2"),
              saves=("tensor1", "tensor2"))


@_addcmul.derivative
def _(ctx, grad):
    v = ctx.value
    return grad, grad * (ctx.tensor2 * v), grad * (ctx.tensor1 * v)


@_addcdiv.derivative
def _(ctx, grad):
    v = ctx.value
    t1, t2 = ctx.tensor1, ctx.tensor2
    return grad, grad * (v / t2), -grad * (v * t1 / (t2 * t2))


@export(method=True)
def addcmul(input, tensor1, tensor2, *, value=1, out=None):
    """input + value * tensor1 * tensor2."""
    d, arrs = _ternary_arrays("addcmul", (input, tensor1, tensor2))
    return finish_out("addcmul", _addcmul.apply((input, tensor1, tensor2), arrs, {"value": value}), out)


@export(method=True)
def addcdiv(input, tensor1, tensor2, *, value=1, out=None):
    """input + value * tensor1 / tensor2."""
    d, arrs = _ternary_arrays("addcdiv", (input, tensor1, tensor2))
    if not tensor1.dtype.is_floating_point and not tensor2.dtype.is_floating_point:
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform "
            "a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as "
            "(input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
            "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter "
            "implementation: (input + value * tensor1 / tensor2), for all dtypes.")
    return finish_out("addcdiv", _addcdiv.apply((input, tensor1, tensor2), arrs, {"value": value}), out)


method("addcmul_")(inplace(addcmul))
method("addcdiv_")(inplace(addcdiv))


# ---------------------------------------------------------------------------
# masked_fill
# ---------------------------------------------------------------------------

_masked_fill0 = Op("MaskedFillBackward0", lambda ctx, a, mask, fill: np.where(mask, np.asarray(fill, a.dtype), a))
_masked_fill1 = Op("MaskedFillBackward1", lambda ctx, a, v, mask: np.where(mask, v.astype(a.dtype), a),
                   inputs=("self", "value"))


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
    if mask.dtype is not dtypes.bool_:
        raise RuntimeError(
            f"masked_fill_ only supports boolean masks, but got mask with dtype {_C_NAMES[mask.dtype.name]}")
    try:
        shape = np.broadcast_shapes(input.shape, mask.shape)
    except ValueError:
        raise RuntimeError(_mismatch_message(mask.shape, input.shape)) from None
    m = mask._data
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value.ndim} dimension(s).")
        a = np.broadcast_to(input._data, shape)
        return _masked_fill1.apply((input, value), (a, value._data), {"mask": m})
    check_operand(value, "masked_fill")
    a = np.broadcast_to(input._data, shape)
    return _masked_fill0.apply((input,), (a,), {"mask": m, "fill": value})


method("masked_fill_")(inplace(masked_fill))


# ---------------------------------------------------------------------------
# tests: no gradient
# ---------------------------------------------------------------------------

def _test(np_fn, fname):
    def fn(input):
        if not isinstance(input, Tensor):
            raise TypeError(f"{fname}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
        a = input._data
        if a.dtype.kind != "f":
            return Tensor._make(np_fn(a.astype(np.float64)) if fname != "signbit" else np_fn(a))
        return Tensor._make(np_fn(a))

    fn.__name__ = fname
    fn.__doc__ = f"Elementwise {fname} (a bool tensor, no gradient)."
    export(fname, method=True)(fn)
    return fn


isnan = _test(np.isnan, "isnan")
isinf = _test(np.isinf, "isinf")
isfinite = _test(np.isfinite, "isfinite")
isposinf = _test(np.isposinf, "isposinf")
isneginf = _test(np.isneginf, "isneginf")
signbit = _test(np.signbit, "signbit")


@export(method=True)
def isreal(input):
    return Tensor._make(np.ones(input.shape, np.bool_))


def _isclose_arrays(input, other, rtol, atol, equal_nan):
    _require_tensor("isclose", other)
    if input.dtype is not other.dtype:
        raise RuntimeError(f"{_scalar_name(input.dtype)} did not match {_scalar_name(other.dtype)}")
    if rtol < 0:
        raise RuntimeError(f"rtol must be greater than or equal to zero, but got {rtol}")
    if atol < 0:
        raise RuntimeError(f"atol must be greater than or equal to zero, but got {atol}")
    a, b = input._data, other._data
    try:
        np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise RuntimeError(_mismatch_message(a.shape, b.shape)) from None
    if a.dtype.kind == "b":
        return a == b
    with np.errstate(all="ignore"):
        close = a == b
        if equal_nan and a.dtype.kind == "f":
            close = close | (np.isnan(a) & np.isnan(b))
        if a.dtype.kind == "f":
            diff = np.abs(a - b)
            tol = atol + rtol * np.abs(b)
            close = close | (np.isfinite(diff) & (diff <= tol))
        else:
            diff = np.abs(a.astype(np.float64) - b.astype(np.float64))
            close = close | (diff <= atol + rtol * np.abs(b.astype(np.float64)))
    return close


@export(method=True)
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|input - other| <= atol + rtol * |other|, elementwise."""
    return Tensor._make(_isclose_arrays(input, other, rtol, atol, equal_nan))


@export(method=True)
def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True when every element is close (a Python bool)."""
    return bool(np.all(_isclose_arrays(input, other, rtol, atol, equal_nan)))


@export(method=True)
def equal(input, other):
    """True when both tensors have the same shape and elements (a Python bool)."""
    _require_tensor("equal", other)
    if input.shape != other.shape:
        return False
    return bool(np.array_equal(input._data, other._data))
