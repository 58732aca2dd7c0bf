"""Binary and ternary pointwise maths: atan2, hypot, fmod, lerp, copysign, xlogy,
logaddexp/logaddexp2, float_power, heaviside, addcmul and addcdiv.

Each differentiable op is one entry: numpy forward, PyTorch's node name, what it
saves, and its derivative written with agrad ops (derivatives.yaml's formulas).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd import graph
from .._limits import check_broadcast
from .._zero import materialized
from . import _glibc_float, _sleef, _vec_math, _vector_loop, factories
from ..tensor import Tensor, _can_cast, _scalar_name
from ._layout import cast, iterator_layout, promote
from ._op import Op, _unpacked_first, export, finish_out, inplace, inplace_self, method
from .pointwise import (_C_NAMES, _binary_quiet, _float_operands, _mismatch_message, _no_bool_kernel,
                        _not_implemented_for, _require_tensor, _zeros_like, binary, broadcast_error, check_int_zero_division,
                        check_operand, check_sub, check_shapes, operands)
from .division import in_order_until_zero
from ._vector_loop import unary_lanes, vector_rows
from .power import pow as _pow

_result_type = dtypes.result_type


# ---------------------------------------------------------------------------
# binary maths
# ---------------------------------------------------------------------------

def _atan2_np(a, b):
    """atan2's kernel: float32 through Sleef's atan2f8_u10 where the loop runs its vector code
    (_vector_loop.loop_lanes), glibc's atan2f elsewhere (numpy's is only without AVX-512);
    over GRAIN_SIZE elements, for speed, atan2 in double rounded once (within an ulp of both)."""
    if not (type(a) is np.ndarray and type(b) is np.ndarray and a.dtype == b.dtype == np.float32):
        return _binary_quiet(np.arctan2, a, b)
    if max(a.size, b.size) > _vec_math.GRAIN_SIZE:
        return _binary_quiet(np.arctan2, a.astype(np.float64), b.astype(np.float64)).astype(np.float32)
    return _vector_loop.by_lanes(_vector_loop.loop_lanes((a, b)), _sleef.sleef_atan2f, _glibc_float.atan2f,
                                 (a, b), a.dtype)


@binary(_atan2_np, "atan2", saves=("self", "other"))
def _atan2(ctx, grad):
    x, y = ctx.self, ctx.other
    y2 = y * y  # (self * self + other * other: GCC's right operand first)
    recip = (x * x + y2).reciprocal()
    recip = recip.masked_fill(recip == float("inf"), 0)  # PyTorch: zero gradient where x*x + y*y is 0
    return grad * y * recip, grad * -x * recip


@_atan2.forward_derivative
def _(ctx, st, ot):
    # derivatives.yaml: (-self_p * other_t + other_p * self_t) / (self_p.pow(2) + other_p.pow(2))
    from ..autograd import _zero_terms as z
    x, y = ctx.self, ctx.other
    num = z.add(z.mul(-x, z.tangent(ot)), z.mul(y, z.tangent(st)))
    return z.done(num, ctx.result) / (x.pow(2) + y.pow(2))


@export("atan2", "arctan2", method=True)
def atan2(input, other, *, out=None):
    _require_tensor("atan2", other)
    ts, arrs = _float_operands(input, other, "atan2")
    return finish_out("atan2", _atan2.apply(ts, arrs, {}), out)


method("atan2_")(inplace(atan2, partial=True))
method("arctan2_")(inplace(atan2, name="arctan2", partial=True))


@binary(np.hypot, "hypot", saves=("self", "other", "result"), saves_for={"self": (0,), "other": (1,)})
def _hypot(ctx, grad):  # (a tensor used by one input's formula only is saved only when that input needs it)
    r = ctx.result
    g_other = grad * ctx.other / r if ctx.needs(1) else None  # (the last input's first, as PyTorch's node)
    return (grad * ctx.self / r if ctx.needs(0) else None), g_other


@export(method=True)
def hypot(input, other, *, out=None):
    _require_tensor("hypot", other)
    ts, arrs = operands(input, other, "hypot")
    if not arrs[0].dtype.kind == "f":
        check_shapes(arrs)
        from ._outs import out_before_kernel
        out_before_kernel("hypot", _result_type(input, other), np.broadcast_shapes(*(np.shape(a) for a in arrs)), out)
        _not_implemented_for("hypot", _result_type(input, other))
    return finish_out("hypot", _hypot.apply(ts, arrs, {}), out)


method("hypot_")(inplace(hypot, partial=True))


# maximum / minimum: ties split the gradient in half


# fmod: the C remainder (sign of the dividend)
def _fmod_kernel(a, b):
    check_int_zero_division((a, b))
    with np.errstate(all="ignore"):
        return _vector_loop.fmod_nan_signs(np.fmod(a, b), a, b)



def _fmod0_fwd(ctx, a, other):
    # the number as a wrapped 0-d tensor of a's dtype: an integer out of range wraps round (uint8 fmod -1: 255)
    return _fmod_kernel(a, factories.wrap(other, dtypes.from_numpy(a.dtype))._data)


_fmod0 = Op("FmodBackward0", _fmod0_fwd, jvp="element_wise", number=True)
_fmod0.derivative(lambda ctx, grad: grad)


@binary(_fmod_kernel, "fmod", saves=("self", "other"), saves_for={"self": (1,), "other": (1,)}, overload=1)
def _fmod1(ctx, grad):
    return grad, -grad * ctx.self.div(ctx.other, rounding_mode="trunc") if ctx.needs(1) else None


@export(method=True)
def fmod(input, other, *, out=None):
    if isinstance(other, Tensor):
        ts, arrs = operands(input, other, "fmod")
        _no_bool_kernel(arrs, "fmod", out, "fmod")
        if out is not None:
            check_int_zero_division(arrs, out, "fmod", np.fmod)
        return finish_out("fmod", _fmod1.apply(ts, arrs, {}), out)
    check_operand(other, "fmod")
    _unpacked_first((other,), {})
    d = _result_type(input, other)
    if d is dtypes.bool_:
        if out is not None:
            from .division import out_until_zero
            out_until_zero("fmod", (promote(input._data, d.numpy), factories.wrap(other, d)._data), out)
        _not_implemented_for("fmod", d)
    if out is not None:
        check_int_zero_division((promote(input._data, d.numpy), factories.wrap(other, d)._data), out, "fmod", np.fmod)
    return finish_out("fmod", _fmod0.apply((input,), (promote(input._data, d.numpy),),
                                           {"other": other}), out)


method("fmod_")(inplace(in_order_until_zero(fmod, np.fmod), partial=True))


# lerp: self + weight * (end - self)
def _lerp_kernel(a, b, w):
    """As PyTorch's CPU kernel computes it (the AVX2 build contracts the scalar loop's
    ``self + weight * diff`` too): one fused multiply-add, fma(|w| < 0.5 ? w : w - 1, end - self,
    |w| < 0.5 ? self : end), in float32 for float16.  Where |w| >= 0.5 the scalar loop computes
    ``end - diff * (1 - w)``: the same value, but at w = 1 its zero product is +0 (-0 in the vector
    code): ``lerp(1.25, -0.0, 1.0)`` is 0.0 there, -0.0 in the vector code (_vector_loop's lanes)."""
    d = a.dtype
    operands = [x if not x.size or any(s > 0 for s in x.strides) else x.reshape(-1)[:1].reshape((1,) * x.ndim)  # (one value)
                for x in (a, b, w) if type(x) is np.ndarray]
    m = np.dtype(np.float32) if d == np.float16 else d
    a, b, w = a.astype(m, copy=False), b.astype(m, copy=False), np.asarray(w, m)
    with np.errstate(all="ignore"):
        small = np.abs(w) < 0.5
        coeff = np.where(small, w, w - m.type(1))
        diff = b - a
        base = np.where(small, a, b)
        coeff, diff, base = np.broadcast_arrays(coeff, diff, base)
        out = np.asarray(_vec_math.fma(coeff, diff, base))
        scalar = ~np.broadcast_to(small, out.shape) & (np.broadcast_to(w, out.shape) == 1)
        if scalar.any():
            lanes = _lerp_lanes(out.shape, operands, np.dtype(d).itemsize)
            if lanes is not None:
                scalar &= ~lanes
            out = np.where(scalar, base - diff * m.type(0), out)  # (1 - w is +0 there)
        return out.astype(d, copy=False)


def _lerp_lanes(shape, operands, itemsize):
    """The vector code's elements (None: none): _vector_loop's rows where it models the layout;
    otherwise rows along the last dim, when every operand steps one element (or none) along it."""
    lanes = _vector_loop.binary_lanes(shape, operands)
    if lanes is not None or all(x.flags.c_contiguous for x in operands) or all(
            x.flags.f_contiguous and x.shape == shape for x in operands):
        return lanes
    steps = [np.broadcast_to(x, shape).strides[-1] for x in operands] if shape else [0]
    n = shape[-1] if shape else 1
    cut = n - n % (_vector_loop.BLOCK_BYTES // itemsize)
    if not cut or steps.count(0) > 1 or any(step not in (0, itemsize) for step in steps):
        return None
    lanes = np.zeros(shape, bool)
    lanes[..., :cut] = True
    return lanes


_lerp0 = Op("LerpBackward0", lambda ctx, a, b, weight: _lerp_kernel(a, b, weight),
            inputs=("self", "end"), value_error=broadcast_error, iterated=True)
_lerp1 = Op("LerpBackward1", lambda ctx, a, b, w: _lerp_kernel(a, b, w),
            inputs=("self", "end", "weight"), saves=("self", "end", "weight"),
            saves_for={"self": (2,), "end": (2,), "weight": (0, 1)}, value_error=broadcast_error, iterated=True)


@_lerp0.derivative
def _(ctx, grad):
    w = ctx.weight
    g_end = grad * w  # (end's first: PyTorch's node computes its inputs' gradients by name)
    return grad * (1 - float(w)), g_end


@_lerp0.forward_derivative
def _(ctx, t_self, t_end):
    """lerp(self_t, end_t, weight), a missing tangent a zero one (derivatives.yaml's)."""
    return lerp(_tangent_or_zeros(ctx.self, t_self), _tangent_or_zeros(ctx.end, t_end), ctx.weight)


def _one_minus(w):
    """C++'s ``1 - weight``: ``empty_like(weight).fill_(1).sub_(weight)``, so a bool weight
    subtracts two bool tensors (a 0-d bool weight passes lerp's forward, not its backward)."""
    if w.dtype is dtypes.bool_:
        check_sub(w, w)
    return 1 - w


def _tangent_or_zeros(primal, tangent):
    return _zeros_like(primal) if tangent is None else tangent


@_lerp1.derivative
def _(ctx, grad):
    # (in the order PyTorch's generated node computes them: by input name, end, self, weight)
    w = ctx.weight if ctx.needs(0) or ctx.needs(1) else None
    g_end = grad * w if ctx.needs(1) else None
    g_self = grad * _one_minus(w) if ctx.needs(0) else None
    return g_self, g_end, grad * (ctx.end - ctx.self) if ctx.needs(2) else None


@_lerp1.forward_derivative
def _(ctx, t_self, t_end, t_weight):
    """lerp(self_t, end_t, weight) + weight_t * (end - self) (derivatives.yaml's; a bool 0-d
    weight works here, as in the forward)."""
    out = None
    if t_self is not None or t_end is not None:
        out = lerp(_tangent_or_zeros(ctx.self, t_self), _tangent_or_zeros(ctx.end, t_end), ctx.weight)
    if t_weight is not None:
        term = t_weight * (ctx.end - ctx.self)
        out = term if out is None else out + term
    return out


def _lerp_kernel_dtype(input, kernel, *others, dtype=None, out=None):
    """TensorIterator's shapes (the operands broadcast in turn), then the kernel's dtype (``dtype``:
    the common one, where a 0-d weight took part in the promotion)."""
    shape = input._data.shape
    for t in others:
        try:
            shape = np.broadcast_shapes(shape, t._data.shape)
        except ValueError:
            raise RuntimeError(_mismatch_message(shape, t._data.shape)) from None
    d = input.dtype if dtype is None else dtype
    if not d.is_floating_point:
        if out is not None:  # (out's check and resize come before the kernel)
            from ._outs import out_before_kernel
            out_before_kernel("lerp", d, shape, out, same=kernel == "lerp_kernel_tensor" and dtype is None)
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_scalar_name(d)}\'')


@export(method=True)
def lerp(input, end, weight, *, out=None):
    _require_tensor("lerp", end, "end")
    if end.dtype is not input.dtype:
        raise RuntimeError(
            f"expected dtype {_C_NAMES[input.dtype.name]} for `end` but got dtype {_C_NAMES[end.dtype.name]}")
    if isinstance(weight, Tensor):
        arrays, d = (input._data, end._data, weight._data), None
        if not weight.ndim:
            # a 0-d weight: the iterator promotes it with the others (float16 inputs and a float32 0-d weight
            # give float32 when all are 0-d) and casts the common dtype into out, safely
            d = _result_type(input, end, weight)
            arrays = tuple(a if a.dtype == d.numpy else cast(a, d.numpy) for a in arrays)
        elif weight.dtype is not input.dtype:
            raise RuntimeError(f"expected dtype {_C_NAMES[input.dtype.name]} for `weight` but got dtype "
                               f"{_C_NAMES[weight.dtype.name]}")
        check_broadcast(*arrays)
        if out is not None and d is None and out.dtype is not input.dtype:  # (check_all_same_dtype, then the kernel)
            raise RuntimeError(f"Found dtype {_scalar_name(out.dtype)} but expected {_scalar_name(input.dtype)}")
        if out is not None and d is not None and d.is_floating_point and not _can_cast(d, out.dtype):
            raise RuntimeError(f"result type {_scalar_name(d)} can't be cast to the desired output type "
                               f"{_scalar_name(out.dtype)}")
        _lerp_kernel_dtype(input, "lerp_kernel_tensor", end, weight, dtype=d, out=out)
        return finish_out("lerp", _lerp1.apply((input, end, weight), arrays, {}), out, cast=d is not None)
    check_operand(weight, "lerp")
    check_broadcast(input._data, end._data)
    _lerp_kernel_dtype(input, "lerp_kernel_scalar", end, out=out)
    return finish_out("lerp", _lerp0.apply((input, end), (input._data, end._data), {"weight": weight}), out, cast=True)


def _lerp_first(self, end=None, weight=None, *args, **kwargs):
    """lerp's meta checks of end's and weight's dtypes, before TensorIterator's overlap check of self."""
    if isinstance(end, Tensor) and end.dtype is not self.dtype:
        raise RuntimeError(
            f"expected dtype {_C_NAMES[self.dtype.name]} for `end` but got dtype {_C_NAMES[end.dtype.name]}")
    if isinstance(weight, Tensor) and weight.dtype is not self.dtype and weight.ndim:
        raise RuntimeError(
            f"expected dtype {_C_NAMES[self.dtype.name]} for `weight` but got dtype {_C_NAMES[weight.dtype.name]}")


method("lerp_")(inplace(lerp, partial=True, first=_lerp_first))


# copysign: |self| with the sign of other
def _copysign_grad(grad, x, result):
    ratio = result / x
    ratio.masked_fill_(x == 0, 0)  # (in place, as FunctionsManual's: the ratio keeps its layout)
    return grad * ratio


@binary(np.copysign, "copysign", saves=("self", "result"), saves_for={"self": (0,)})
def _copysign0(ctx, grad):  # (self is saved for self's gradient only; the result always, as PyTorch's outputs are)
    gx = _copysign_grad(grad, ctx.self, ctx.result) if ctx.needs(0) else None
    return gx, _zeros_like(grad)


_copysign1 = Op("CopysignBackward1", lambda ctx, a, other: np.copysign(a, np.asarray(other, a.dtype)),
                saves=("self", "result"), jvp="element_wise", number=True)


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
    return finish_out("copysign", _copysign1.apply((input,), (promote(input._data, d.numpy),),
                                                   {"other": other}), out)


method("copysign_")(inplace(copysign, partial=True))


# xlogy: x * log(y), 0 where x == 0 (unless y is NaN)
def _xlogy_kernel(x, y):
    x = np.asarray(x)
    y = np.asarray(y)
    with np.errstate(all="ignore"):
        log_y = _log(y)  # (std::log: float32 through double, as libm gives it)
        if log_y.dtype == np.float32:  # (logf's NaN, of a negative y, has its sign bit set; x * NaN keeps it)
            log_y = _vec_math.nan_signed(log_y, y, True)
        out = x * log_y
    out = np.where(x == 0, np.zeros((), out.dtype), out)
    return np.where(np.isnan(y), np.asarray(np.nan, out.dtype), out).astype(out.dtype, copy=False)


@binary(_xlogy_kernel, "xlogy", saves=("self", "other"))
def _xlogy0(ctx, grad):
    x, y = ctx.self, ctx.other
    g_other = grad * x / y  # (the last input's first, as PyTorch's node)
    return xlogy(grad, y).masked_fill((x == 0.0) & (y <= 0.0), 0.0), g_other


_xlogy1 = Op("XlogyBackward1", lambda ctx, y, x: _xlogy_kernel(np.asarray(x, y.dtype), y), inputs=("other",),
             saves=("other",), jvp="element_wise", number=True)
_xlogy2 = Op("XlogyBackward2", lambda ctx, x, other: _xlogy_kernel(x, np.asarray(other, x.dtype)), saves=("self",),
             jvp="element_wise", number=True)


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
        return finish_out("xlogy", _xlogy1.apply((other,), (promote(other._data, d.numpy),),
                                                 {"x": input}), out)
    if isinstance(other, Tensor):
        ts, arrs = _float_operands(input, other, "xlogy")
        return finish_out("xlogy", _xlogy0.apply(ts, arrs, {}), out)
    check_operand(other, "xlogy")
    d = _result_type(input, other)
    if not d.is_floating_point:
        d = dtypes.get_default_dtype()
    return finish_out("xlogy", _xlogy2.apply((input,), (promote(input._data, d.numpy),),
                                             {"other": other}), out)


method("xlogy_")(inplace(xlogy, partial=True))


def _negative_nans(out, a, b):
    """logaddexp's and logaddexp2's NaN results as PyTorch's kernels give them: the scalar loop's
    with the sign bit set (it adds ``-|a - b|``, a negated NaN, to the max), the vector code's
    without (which elements that code takes: _vector_loop.vector_rows)."""
    nan = np.isnan(out)
    if not nan.any():
        return out
    out = np.array(out)
    rows = vector_rows(out.shape, (a, b))
    if rows is not None:
        n, cut, order = rows
        vector = np.zeros((out.size // n, n), bool)
        vector[:, :cut] = True
        vector = vector.reshape(out.shape) if order == "C" else vector.reshape(out.shape[::-1]).T
    elif type(a) is np.ndarray and type(b) is np.ndarray and a.shape == b.shape and a.strides == b.strides:
        vector = unary_lanes(a)  # (operands laid out alike, strided: one operand's loop)
    else:
        vector = False  # (not modelled: the scalar loop's)
    if vector is not False:
        np.abs(out, out=out, where=nan & vector)
        nan &= ~vector
    np.negative(np.abs(out), out=out, where=nan)
    return out


@binary(lambda a, b: _negative_nans(_binary_quiet(np.logaddexp, a, b), a, b), "logaddexp", saves=("self", "other"))
def _logaddexp0(ctx, grad):
    a, b = ctx.self, ctx.other
    return grad / (1 + (b - a).exp()), grad / (1 + (a - b).exp())


def _logaddexp2_kernel(a, b):
    """PyTorch's steps: max(a, b) + log1p(exp2(-|a - b|)) * (1 / ln 2), the multiply and add
    fused (so logaddexp2(x, x) is x + ln 2 * (1/ln 2) - a last bit off, not x + 1); a, where a
    is an infinity equal to b. float32's log1p and exp2 through double, as libm gives them; float16
    in float32 (the reduced-float kernel's steps), rounded once at the end."""
    if a.dtype == np.float16 and b.dtype == np.float16:
        out = _logaddexp2_steps(a.astype(np.float32), b.astype(np.float32)).astype(np.float16)
    elif a.dtype not in (np.float32, np.float64) or a.dtype != b.dtype:
        out = _binary_quiet(np.logaddexp2, a, b)
    else:
        out = _logaddexp2_steps(a, b)
    return _negative_nans(out, a, b)


def _logaddexp2_steps(a, b):
    with np.errstate(all="ignore"):
        d = np.negative(np.abs(np.subtract(a, b)))
        if a.dtype == np.float32:
            tail = _vec_math.libm_float(np.log1p, _vec_math.libm_float(np.exp2, d))
        else:
            tail = np.log1p(np.exp2(d))
        out = _vec_math.fma(tail, np.asarray(1 / np.log(2.0), a.dtype), np.maximum(a, b))
        return np.where(np.isinf(a) & (a == b), a, out).astype(a.dtype, copy=False)


_log = _vec_math.via_double(np.log)


@binary(_logaddexp2_kernel, "logaddexp2", saves=("self", "other"))
def _logaddexp2(ctx, grad):
    a, b = ctx.self, ctx.other
    return grad / (1 + _pow(2, b - a)), grad / (1 + _pow(2, a - b))


@export(method=True)
def logaddexp(input, other, *, out=None):
    """log(exp(input) + exp(other)), computed stably."""
    _require_tensor("logaddexp", other)
    ts, arrs = operands(input, other, "logaddexp")
    if arrs[0].dtype.kind != "f":
        check_shapes(arrs)
        from ._outs import out_before_kernel
        out_before_kernel("logaddexp", _result_type(input, other), np.broadcast_shapes(*(np.shape(a) for a in arrs)), out)
        _not_implemented_for("logaddexp", _result_type(input, other))
    return finish_out("logaddexp", _logaddexp0.apply(ts, arrs, {}), out)


@export(method=True)
def logaddexp2(input, other, *, out=None):
    """log2(2**input + 2**other), computed stably."""
    _require_tensor("logaddexp2", other)
    ts, arrs = operands(input, other, "logaddexp2")
    if arrs[0].dtype.kind != "f":
        check_shapes(arrs)
        from ._outs import out_before_kernel
        out_before_kernel("logaddexp2", _result_type(input, other), np.broadcast_shapes(*(np.shape(a) for a in arrs)), out)
        _not_implemented_for("logaddexp2", _result_type(input, other))
    return finish_out("logaddexp2", _logaddexp2.apply(ts, arrs, {}), out)


@export(method=True)
def float_power(input, exponent, *, out=None):
    """pow in double precision: both operands are cast to float64 first."""
    f64 = dtypes.float64
    _unpacked_first((input, exponent), {})
    if not isinstance(input, Tensor):
        check_operand(input, "float_power")
    if out is not None and out.dtype is not f64:  # (float_power_out's first check)
        raise RuntimeError(f"the output given to float_power has dtype {_scalar_name(out.dtype)} but the "
                           "operation's result requires dtype Double")
    # the exponent is cast first, as PyTorch's C++ call evaluates its arguments (right to
    # left): its ToCopyBackward0 is the older node, so a backward pass runs the base's first
    # and a gradient for a tensor that is both is summed base's part + exponent's part
    if isinstance(exponent, Tensor):
        exp = exponent.to(f64)
    else:
        check_operand(exponent, "float_power")
        exp = float(exponent) if not isinstance(exponent, (bool, np.bool_)) else int(exponent)
    base = input.to(f64) if isinstance(input, Tensor) else float(input)
    return finish_out("float_power", _pow(base, exp), out)


def _float_power_(self, exponent):
    _unpacked_first((exponent,), {})
    if self.dtype is not dtypes.float64:
        raise RuntimeError(f"the base given to float_power_ has dtype {_scalar_name(self.dtype)} but the "
                           "operation's result requires dtype Double")
    return inplace(float_power, partial=True)(self, exponent)


method("float_power_")(_float_power_)


# heaviside: PyTorch has no derivative; it records a node that refuses backward
@export(method=True)
def heaviside(input, values, *, out=None):
    from ._not_implemented import not_implemented

    _require_tensor("heaviside", values, "values")
    if input.dtype is not values.dtype or out is not None and out.dtype is not input.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    arrays = (input._data, values._data)
    try:
        value = np.asarray(np.heaviside(*arrays)).astype(np.result_type(*arrays), copy=False)
        if value.dtype.kind == "f":
            value[np.isnan(np.broadcast_to(arrays[0], value.shape))] = 0  # PyTorch: a == 0 ? b : a > 0
        if value.ndim > 1:
            value = iterator_layout(value, arrays)
    except ValueError:
        raise broadcast_error(arrays) from None
    aten = "aten::heaviside_" if input is inplace_self[0] else "aten::heaviside"  # (heaviside_ names itself)
    if out is None:
        return not_implemented(value, (input, values), aten)
    from ._not_implemented import recorded_out  # (autograd's fallback: a NotImplemented node on out)
    from ._outs import cast_error
    return recorded_out("heaviside", Tensor._make(value), (input, values), out, cast_error("heaviside"))


def _heaviside_first(self, values=None, *args, **kwargs):
    """heaviside's meta check of the dtypes, before TensorIterator's overlap check of self."""
    if isinstance(values, Tensor) and values.dtype is not self.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")


method("heaviside_")(inplace(heaviside, partial=True, first=_heaviside_first))


# ---------------------------------------------------------------------------
# addcmul / addcdiv: self + value * t1 * t2, self + value * t1 / t2
# ---------------------------------------------------------------------------

def _ternary_arrays(fname, tensors):
    for i, t in enumerate(tensors):
        _require_tensor(fname, t, ("input", "tensor1", "tensor2")[i], i + 1)
    d = _result_type(*tensors)
    arrs = [t._data if t._data.dtype == d.numpy else cast(t._data, d.numpy) for t in tensors]
    shape = arrs[0].shape  # TensorIterator broadcasts the operands in turn
    for a in arrs[1:]:
        try:
            shape = np.broadcast_shapes(shape, a.shape)
        except ValueError:
            raise RuntimeError(_mismatch_message(shape, a.shape)) from None
    check_broadcast(*arrs)
    return d, arrs


def _addcmul_fwd(ctx, a, t1, t2, value):
    a, t1, t2 = materialized(a), materialized(t1), materialized(t2)  # (no ZeroTensor kernel)
    d = a.dtype
    if d == np.float16:  # (the kernel's float arithmetic)
        a, t1, t2 = a.astype(np.float32), t1.astype(np.float32), t2.astype(np.float32)
    v = np.asarray(value, a.dtype)
    with np.errstate(all="ignore"):
        if a.dtype in _FMA_TYPES and type(a) is np.ndarray:
            # (the kernel's ``self + value * t1 * t2`` is compiled to fma(value * t1, t2, self))
            return _vec_math.fma(v * t1, t2, a).astype(d, copy=False)
        return (a + v * t1 * t2).astype(d, copy=False)


_FMA_TYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _addcdiv_fwd(ctx, a, t1, t2, value):
    a, t1, t2 = materialized(a), materialized(t1), materialized(t2)  # (no ZeroTensor kernel)
    d = a.dtype
    if d == np.float16:
        a, t1, t2 = a.astype(np.float32), t1.astype(np.float32), t2.astype(np.float32)
    v = np.asarray(value, a.dtype)
    with np.errstate(all="ignore"):
        return (a + v * t1 / t2).astype(d, copy=False)


def _kernel_value(value, d):
    """addcmul/addcdiv's ``value`` as their kernel converts it (float16's as a float): c10's overflow error."""
    return dtypes.kernel_scalar(value, np.float32 if d is dtypes.float16 else d.numpy)


_addcmul = Op("AddcmulBackward0", _addcmul_fwd, inputs=("self", "tensor1", "tensor2"),
              saves=("tensor1", "tensor2"), saves_for={"tensor1": (2,), "tensor2": (1,)}, jvp="element_wise",
              iterated=True)
_addcdiv = Op("AddcdivBackward0", _addcdiv_fwd, inputs=("self", "tensor1", "tensor2"),
              saves=("tensor1", "tensor2"), saves_for={"tensor1": (2,)}, jvp="element_wise", iterated=True)
# (tensor2 is in two inputs' formulas: PyTorch saves it always; tensor1 only for tensor2's gradient)


# (each gradient only when the running pass wants it, PyTorch's task_should_compute_output: an
# integer tensor2's ``value / tensor2`` fails to cast only when tensor1's gradient is made)
@_addcmul.derivative
def _(ctx, grad):
    v = ctx.value
    want = graph.should_compute_output
    return (grad, grad * (ctx.tensor2 * v) if want(ctx, 1) else None,
            grad * (ctx.tensor1 * v) if want(ctx, 2) else None)


@_addcdiv.derivative
def _(ctx, grad):
    v = ctx.value
    t2 = ctx.tensor2
    g_t1 = grad * (v / t2) if graph.should_compute_output(ctx, 1) else None
    g_t2 = None
    if graph.should_compute_output(ctx, 2):  # (value * tensor1 / (tensor2 * tensor2): GCC's right operand first)
        t2_sq = t2 * t2
        g_t2 = -grad * (v * ctx.tensor1 / t2_sq)
    return grad, g_t1, g_t2


@export(method=True)
def addcmul(input, tensor1, tensor2, *, value=1, out=None):
    """input + value * tensor1 * tensor2."""
    d, arrs = _ternary_arrays("addcmul", (input, tensor1, tensor2))
    if d is dtypes.bool_:
        from ._outs import out_before_kernel
        out_before_kernel("addcmul", d, np.broadcast_shapes(*(np.shape(a) for a in arrs)), out)
        raise NotImplementedError('"addcmul_cpu_out" not implemented for \'Bool\'')
    value = _kernel_value(value, d)
    return finish_out("addcmul", _addcmul.apply((input, tensor1, tensor2), arrs, {"value": value}), out)


def _addcdiv_checks(input, tensor1, tensor2, **kwargs):
    """addcdiv's own refusal of integer division: before the shapes, and (addcdiv_) before the overlap checks."""
    if not tensor1.dtype.is_floating_point and not tensor2.dtype.is_floating_point:
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform "
            "a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as "
            "(input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
            "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter "
            "implementation: (input + value * tensor1 / tensor2), for all dtypes.")


@export(method=True)
def addcdiv(input, tensor1, tensor2, *, value=1, out=None):
    """input + value * tensor1 / tensor2."""
    _addcdiv_checks(input, tensor1, tensor2)
    d, arrs = _ternary_arrays("addcdiv", (input, tensor1, tensor2))
    value = _kernel_value(value, d)
    return finish_out("addcdiv", _addcdiv.apply((input, tensor1, tensor2), arrs, {"value": value}), out)


method("addcmul_")(inplace(addcmul, partial=True))
method("addcdiv_")(inplace(addcdiv, partial=True, first=_addcdiv_checks))
