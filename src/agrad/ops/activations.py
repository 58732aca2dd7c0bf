"""Activations: the nn.functional nonlinearities (the softmax family is in ``softmax``, gelu in ``gelu``,
rrelu in ``rrelu``, softshrink, hardshrink and threshold in ``shrink``).

Each elementwise activation is one op, as in PyTorch's ``derivatives.yaml``:
a numpy forward, the node name, and a derivative written with agrad ops (so
``create_graph=True`` differentiates it again).  The in-place forms that
PyTorch records under their own node (``elu_`` -> ``EluBackward1``, ...) save
the result instead of the input, as PyTorch's do.  Activations that PyTorch
writes in Python (``softsign``, ``tanhshrink``) are composed of
ops here too, so the graph shows the same nodes.
"""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..autograd import grad_mode
from .._zero import ZeroArray, materialized
from ..tensor import Tensor, _wrap_dim
from . import _sleef, _vec_math
from ._activation_kernels import (_elu_backward_np as _elu_backward_kernel, _elu_np as _elu_kernel,
                                 _mish_backward_np, _mish_np, _silu_backward_np, _silu_np, _softplus64,
                                 _softplus_backward_np as _softplus_backward_kernel, _vector_blocks, hardtanh_backward)
from ._not_implemented import not_implemented
from ._layout import iterator_layout, laid_out_like
from ._argcheck import passed_on
from ._op import METHODS, Op, export, inplace
from ._vector_loop import loop_lanes
from .nn import check_floating, const
from .pointwise import _zeros_like
from .selection import where
from .unary import _sigmoid_backward

# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


def _elementwise(name, fwd, saves=("self",), contiguous=False):
    """An elementwise op: ``fwd(array, **attrs)``, result in the input's dtype (float16 computed
    in float32 and rounded once, as PyTorch's CPU kernels do with their opmath type).
    ``contiguous``: PyTorch's result is C-ordered whatever the input's layout."""
    return Op(name, lambda ctx, a, **kw: np.asarray(fwd(_opmath(a), **kw)).astype(a.dtype, copy=False),
              saves=saves, jvp="element_wise", contiguous=contiguous)


def _opmath(a):
    return a.astype(np.float32) if a.dtype == np.float16 else a


def _scalar(a, v):
    return a.dtype.type(v)


def _scalar_tail(out, g, x, value, operands=None):
    """PyTorch's CPU kernels run each row of the loop (loop_lanes: the inputs' coalesced inner dims, in
    blocks of two AVX2 vectors, 8 doubles, 16 floats) in the vector code and the remaining ``row % block``
    elements with the scalar loop (an expanded or strided input: the scalar loop throughout), and for
    some backward kernels the two disagree where the input is NaN (the vector code takes the other
    branch). ``out`` holds the vector result; NaN inputs outside the vector lanes get ``value(g)``.
    ``operands``: the loop's inputs in the kernel's order, (g, x) unless given."""
    lanes = loop_lanes(operands if operands is not None else (g, x))
    if lanes is True:
        return out
    nan = np.isnan(np.broadcast_to(x, out.shape))
    if lanes is not False and lanes is not None:
        nan &= ~lanes
    if nan.any():
        out = np.array(out)
        np.copyto(out, np.broadcast_to(value(g), out.shape), where=nan)
    return out


def _backward_op(name, fwd, attrs=(), d_self=None, second="self", nan_tail=None, self_first=False,
                 layout=None):
    """PyTorch's ``<op>_backward(grad_output, self, *attrs)`` as an op of its own.

    The activation's derivative calls it, so a gradient taken with
    ``create_graph=True`` shows PyTorch's node (``HardtanhBackwardBackward0``, ...)
    with its two edges. ``fwd(g, x, **attrs)`` computes it on arrays, with
    the conditions of PyTorch's vectorised CPU kernels (which decide where a NaN
    input or an infinite gradient ends up); its result laid out as TensorIterator lays it out over
    (grad_output, self), or (self, grad_output) with ``self_first`` (leaky_relu_backward's order), or as
    ``layout(out, g, x, **attrs)`` says.
    It is linear in ``grad_output``, so its derivative for
    ``grad_output`` is itself; ``d_self(ctx, grad)`` gives the one for ``self``,
    or zeros where derivatives.yaml says ``zeros_like(grad)`` (piecewise-linear
    activations). ``nan_tail(g, **attrs)``: the scalar loop's result at a NaN
    input, where it differs from the vector code's (see ``_scalar_tail``).
    """

    def forward(ctx, g, x, **kw):
        g = materialized(g)  # (a ZeroTensor gradient: plain zeros to the kernel)
        out = np.asarray(fwd(g, x, **kw)).astype(g.dtype, copy=False)
        if nan_tail is not None:
            out = _scalar_tail(out, g, x, lambda g: nan_tail(g, **kw), (x, g) if self_first else (g, x))
        if layout is not None and (out.ndim > 1 or not out.size):  # (an empty one: strides of dims of 0 show)
            return layout(out, g, x, **kw)
        return iterator_layout(out, (x, g) if self_first else (g, x)) if out.ndim > 1 else out

    op = Op(name, forward,
            inputs=("grad_output", second), internal=True,
            saves=(second,) if d_self is None else ("grad_output", second),
            saves_for=None if d_self is None else {"grad_output": (1,)})

    @op.derivative
    def _(ctx, grad):
        kw = {a: getattr(ctx, a) for a in attrs}
        g_out = op(grad, getattr(ctx, second), **kw) if ctx.needs(0) else None
        if not ctx.needs(1):
            return g_out, None
        return g_out, _zeros_like(grad) if d_self is None else d_self(ctx, grad)

    return op


def _in_place(fn, input, *args, overlap="error", first=None):
    """``fn(input, *args)`` written into ``input`` (PyTorch's ``op_``); ``first``: the op's own check
    that comes before TensorIterator's overlap errors (see ``inplace``)."""
    return inplace(fn, overlap, first=first)(input, *args)


# ---------------------------------------------------------------------------
# relu (the op lives in pointwise: torch.relu), its functional forms
# ---------------------------------------------------------------------------

@export("relu", functional=True, torch=False)
def relu(input, inplace=False):
    return METHODS["relu_"](input) if inplace else METHODS["relu"](input)


@export("relu_", functional=True)
def relu_(input):
    return METHODS["relu_"](input)


# ---------------------------------------------------------------------------
# hardtanh, relu6
# ---------------------------------------------------------------------------

_hardtanh = _elementwise("HardtanhBackward0",  # (ATen's hardtanh: empty_like(self), then clamp into it)
                         lambda a, min_val, max_val: np.clip(a, _scalar(a, min_val), _scalar(a, max_val)),
                         contiguous="like")


_hardtanh_backward = _backward_op(
    "HardtanhBackwardBackward0", hardtanh_backward, ("min_val", "max_val"),
    nan_tail=lambda g, **kw: g)
_hardtanh.derivative(
    lambda ctx, grad: _hardtanh_backward(grad, ctx.self, min_val=ctx.min_val, max_val=ctx.max_val))


def _hardtanh_limits(input, min_val, max_val):
    """hardtanh's own checks of its limits (before TensorIterator's, so before an in-place overlap error)."""
    if input._data.dtype.kind in "iu":  # integral: the limits become int64 first (toLong, checked)
        min_val, max_val = (int(dtypes.checked_scalar(v, np.dtype(np.int64))) for v in (min_val, max_val))
    if input.dtype.name == "uint8" and (min_val < 0 or max_val < 0):
        raise RuntimeError("cannot do hardtanh on an unsigned type with negative limits")
    return min_val, max_val


def _hardtanh_op(input, min_val, max_val):
    min_val, max_val = _hardtanh_limits(input, min_val, max_val)
    d = input._data.dtype  # (then clamp's conversion of the limits)
    return _hardtanh(input, min_val=dtypes.kernel_scalar(min_val, d), max_val=dtypes.kernel_scalar(max_val, d))


@export(functional=True, torch=False)
def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    if min_val > max_val:  # (F.hardtanh's check in Python: F.hardtanh_, the C++ op, clamps to max_val)
        raise ValueError("min_val cannot be greater than max_val")
    if type(min_val) is not float or type(max_val) is not float:  # (then torch._C._nn.hardtanh(input, min, max))
        passed_on("hardtanh_" if inplace else "hardtanh", (("min_val", "Number", 2, min_val),
                                                           ("max_val", "Number", 3, max_val)))
    if inplace:
        return hardtanh_(input, min_val, max_val)
    if isinstance(input, Tensor) and input.dtype.name == "bool":
        raise RuntimeError("Bool inputs not supported for hardtanh")
    return _hardtanh_op(input, min_val, max_val)


@export("hardtanh_", functional=True, torch=False)
def hardtanh_(input, min_val=-1.0, max_val=1.0):
    if isinstance(input, Tensor) and input.dtype.name == "bool":
        raise RuntimeError("Bool inputs not supported for hardtanh")
    return _in_place(_hardtanh_op, input, min_val, max_val, first=_hardtanh_limits)


@export(functional=True, torch=False)
def relu6(input, inplace=False):
    return hardtanh(input, 0.0, 6.0, inplace)


# ---------------------------------------------------------------------------
# elu, selu, celu
# ---------------------------------------------------------------------------

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _elu_np(a, alpha, scale, input_scale):
    if a.dtype.char in "fd":
        return _elu_kernel(a, alpha, scale, input_scale)
    neg = np.expm1(a * _scalar(a, input_scale)) * _scalar(a, alpha * scale)
    return np.where(a < 0, neg, a * _scalar(a, scale))  # a zero keeps its sign, as in PyTorch


def _elu_backward_np(g, x, alpha, scale, input_scale, is_result):
    """elu_backward: the derivative at the input x, or read off the output (``is_result``)."""
    if g.dtype == np.float16 and x.dtype == np.float16:  # (the kernel's float opmath, rounded once)
        return _elu_backward_np(g.astype(np.float32), x.astype(np.float32), alpha, scale, input_scale,
                                is_result).astype(np.float16)
    if is_result:
        neg_c = _scalar(x, alpha) * _scalar(x, scale) if x.dtype.char in "fd" else _scalar(x, alpha * scale)
        neg = g * _scalar(g, input_scale) * (x + neg_c)  # (negcoef: a product in the dtype)
    elif x.dtype.char in "fd" and g.dtype == x.dtype:
        return _elu_backward_kernel(g, x, alpha, scale, input_scale)
    else:
        neg = g * _scalar(g, input_scale * alpha * scale) * np.exp(x * _scalar(x, input_scale))
    return np.where(x > 0, g * _scalar(g, scale), neg)


def _elu_double_backward(ctx, grad):
    x, scale = ctx.self_or_result, ctx.input_scale
    if ctx.is_result:
        return grad * ctx.grad_output * scale * (x < 0)
    return _elu_backward(grad * ctx.grad_output * scale, x, alpha=ctx.alpha, scale=ctx.scale,
                         input_scale=scale, is_result=False) * (x < 0)  # times the mask: NaN stays NaN


_ELU_ATTRS = ("alpha", "scale", "input_scale", "is_result")
_elu_backward = _backward_op("EluBackwardBackward0", _elu_backward_np, _ELU_ATTRS, _elu_double_backward,
                             second="self_or_result", nan_tail=lambda g, scale, **kw: g * _scalar(g, scale))


def _elu_grad(ctx, grad, x, input_scale=None):
    """elu_backward with is_result=False: derivative at the input x."""
    return _elu_backward(grad, x, alpha=ctx.alpha, scale=ctx.scale,
                         input_scale=ctx.input_scale if input_scale is None else input_scale, is_result=False)


def _celu_input_scale(ctx):
    """celu's backward in derivatives.yaml: input_scale 1.0 / alpha.toFloat() (alpha rounded to
    float32 first; the forward takes 1 / alpha in double)."""
    return 1.0 / float(np.float32(ctx.alpha))


def _elu_grad_result(ctx, grad, y, input_scale=None):
    """elu_backward with is_result=True: derivative read off the output y (in-place forms)."""
    if not ctx.alpha >= 0:  # (a NaN slope too)
        raise RuntimeError(
            "In-place elu backward calculation is triggered with a negative slope which is not supported. "
            "This is caused by calling in-place forward function with a negative slope, please call "
            "out-of-place version instead.")
    return _elu_backward(grad, y, alpha=ctx.alpha, scale=ctx.scale,
                         input_scale=ctx.input_scale if input_scale is None else input_scale, is_result=True)


_elu = _elementwise("EluBackward0", _elu_np)
_elu.derivative(lambda ctx, grad: _elu_grad(ctx, grad, ctx.self))
_elu_ = _elementwise("EluBackward1", _elu_np, saves=("result",))
_elu_.derivative(lambda ctx, grad: _elu_grad_result(ctx, grad, ctx.result))
_celu = _elementwise("CeluBackward0", _elu_np)
_celu.derivative(lambda ctx, grad: _elu_grad(ctx, grad, ctx.self, _celu_input_scale(ctx)))
_celu_ = _elementwise("CeluBackward1", _elu_np, saves=("result",))
_celu_.derivative(lambda ctx, grad: _elu_grad_result(ctx, grad, ctx.result, _celu_input_scale(ctx)))


def _elu_call(op, kernel, input, alpha, scale, input_scale):
    check_floating(input, kernel)
    return op(input, alpha=alpha, scale=scale, input_scale=input_scale)


@export(functional=True, torch=False)
def elu(input, alpha=1.0, inplace=False):
    passed_on("elu_" if inplace else "elu", (("alpha", "Number", 2, alpha),))
    if inplace:
        return _in_place(lambda x: _elu_call(_elu_, "elu_cpu", x, alpha, 1.0, 1.0), input)
    return _elu_call(_elu, "elu_cpu", input, alpha, 1.0, 1.0)


@export("elu_", functional=True, torch=False)
def elu_(input, alpha=1.0):
    return elu(input, alpha, inplace=True)


@export(functional=True, torch=False)
def selu(input, inplace=False):
    if inplace:
        return _in_place(lambda x: _elu_call(_elu_, "elu_cpu", x, _SELU_ALPHA, _SELU_SCALE, 1.0), input)
    return _elu_call(_elu, "elu_cpu", input, _SELU_ALPHA, _SELU_SCALE, 1.0)


def _torch_selu(input):
    """torch.selu: the C++ op, which has no ``inplace`` (F.selu's)."""
    return selu(input)


_torch_selu.__name__ = _torch_selu.__qualname__ = "selu"
export("selu")(_torch_selu)


@export("selu_", functional=True)
def selu_(input):
    return selu(input, inplace=True)


@export(functional=True, torch=False)
def celu(input, alpha=1.0, inplace=False):
    passed_on("celu_" if inplace else "celu", (("alpha", "Number", 2, alpha),))
    if inplace:  # the in-place checks (a leaf that requires grad ...) come before the op's own
        return _in_place(lambda x: _elu_call(_celu_, "elu_cpu", x, alpha, 1.0, _celu_scale(alpha)), input,
                         first=lambda x: _celu_scale(alpha))  # (its 1 / alpha, before elu_'s overlap check)
    return _elu_call(_celu, "elu_cpu", input, alpha, 1.0, _celu_scale(alpha))


def _celu_scale(alpha):
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    return 1.0 / alpha


@export("celu_", functional=True)
def celu_(input, alpha=1.0):
    return celu(input, alpha, inplace=True)


def _torch_celu(input, alpha=1.0):
    """torch.celu: the C++ op, which has no ``inplace`` (F.celu's)."""
    return celu(input, alpha)


_torch_celu.__name__ = _torch_celu.__qualname__ = "celu"
export("celu")(_torch_celu)


# ---------------------------------------------------------------------------
# leaky_relu
# ---------------------------------------------------------------------------

def _leaky_np(a, negative_slope):
    return np.where(a > 0, a, a * _scalar(a, negative_slope))


_leaky = _elementwise("LeakyReluBackward0", _leaky_np)


def _leaky_backward_np(g, x, negative_slope):
    if g.dtype == np.float16 and x.dtype == np.float16:  # (the kernel's float opmath, rounded once)
        return _leaky_backward_np(g.astype(np.float32), x.astype(np.float32), negative_slope).astype(np.float16)
    return np.where(x > 0, g, g * _scalar(g, negative_slope))


_leaky_backward = _backward_op("LeakyReluBackwardBackward0", _leaky_backward_np, ("negative_slope",),
                               self_first=True)
_leaky.own_grad_layout = True  # (leaky_relu_backward's kernel takes self first)
_leaky.derivative(lambda ctx, grad: _leaky_backward(grad, ctx.self, negative_slope=ctx.negative_slope))


_leaky_ = _elementwise("LeakyReluBackward1", _leaky_np, saves=("result",))


def check_in_place_slope(negative_slope):
    """leaky_relu_backward with is_result=True (leaky_relu_'s, and rrelu_'s when not training)."""
    if not negative_slope >= 0:  # (a NaN slope too)
        raise RuntimeError(
            "In-place leakyReLu backward calculation is triggered with a negative slope which is not supported. "
            "This is caused by calling in-place forward function with a negative slope, please call out-of-place "
            "version instead. File an issue at https://github.com/pytorch/pytorch if you do require supporting "
            "in-place leakRelu backward calculation with negative slope")


@_leaky_.derivative
def _(ctx, grad):
    check_in_place_slope(ctx.negative_slope)
    return _leaky_backward(grad, ctx.result, negative_slope=ctx.negative_slope)


@export(functional=True, torch=False)
def leaky_relu(input, negative_slope=0.01, inplace=False):
    if type(negative_slope) is not float:  # (torch._C._nn.leaky_relu(input, negative_slope))
        passed_on("leaky_relu_" if inplace else "leaky_relu", (("negative_slope", "Number", 2, negative_slope),))
    if inplace:  # (the kernel's dtype after the in-place checks)
        return _in_place(lambda x: _leaky_(_floating(x, "leaky_relu_cpu"), negative_slope=negative_slope), input)
    check_floating(input, "leaky_relu_cpu")
    return _leaky(input, negative_slope=negative_slope)


def _floating(x, kernel):
    check_floating(x, kernel)
    return x


@export("leaky_relu_", functional=True, torch=False)
def leaky_relu_(input, negative_slope=0.01):
    return leaky_relu(input, negative_slope, inplace=True)


# ---------------------------------------------------------------------------
# silu, mish, hardsigmoid, hardswish
# ---------------------------------------------------------------------------

def _sigmoid_np(a):
    e = np.exp(-np.abs(a))
    return np.where(a >= 0, 1 / (1 + e), e / (1 + e)).astype(a.dtype, copy=False)


def _widened(kernel):
    """A float32/float64 kernel, float16 through the float32 one (the kernels' float opmath), its
    vector blocks those of the float16 loop, rounded once."""
    def forward(ctx, a):
        if a.dtype.char in "fd":
            return kernel(a)
        return kernel(a.astype(np.float32), loop=a).astype(a.dtype)
    return forward


_silu = Op("SiluBackward0", _widened(_silu_np), saves=("self",), jvp="element_wise")


def _kernel_backward(kernel, grad, x):
    """A first-order gradient (grad mode off in backward) from PyTorch's backward kernel, laid
    out as TensorIterator lays out its result over (grad_output, self); None where derivatives.yaml
    takes the differentiable formula instead (create_graph, or a dtype the kernel is not modelled for)."""
    if grad_mode._state["enabled"] or x.dtype not in (dtypes.float32, dtypes.float64, dtypes.float16) \
            or grad.dtype != x.dtype:
        return None
    g, a = np.asarray(grad._data), np.asarray(x._data)
    if a.dtype == np.float16:  # (the kernel's float opmath, the float16 loop's vector blocks, rounded once)
        out = kernel(g.astype(np.float32), a.astype(np.float32), loop=(g, a)).astype(np.float16)
    else:
        out = kernel(g, a)
    return Tensor._make(iterator_layout(out, (g, a)) if out.ndim > 1 else out)


def _kernel_or_formula(grad):
    """Without create_graph silu's and mish's gradients are PyTorch's kernels (silu_backward,
    mish_backward), which see a ZeroTensor gradient as plain zeros (-0.0 and NaN as the kernel
    gives them), also where agrad computes them with the formula (float16); with create_graph
    the infinitely differentiable formula, whose product with a ZeroTensor is one."""
    if type(grad._data) is ZeroArray and not grad_mode._state["enabled"]:
        return Tensor._make(grad._data.copy())
    return grad


@_silu.derivative
def _(ctx, grad):
    grad = _kernel_or_formula(grad)
    x = ctx.self
    fast = _kernel_backward(_silu_backward_np, grad, x)
    if fast is not None:
        return fast
    # infinitely_differentiable_silu_backward
    s = x.sigmoid()
    inner = 1 + x * (1 - s)  # (GCC's right operand first: before grad * s)
    return grad * s * inner


_mish = Op("MishBackward0", _widened(_mish_np), saves=("self",), jvp="element_wise")


@_mish.derivative
def _(ctx, grad):
    grad = _kernel_or_formula(grad)
    x = ctx.self
    fast = _kernel_backward(_mish_backward_np, grad, x)
    if fast is not None:
        return fast
    # FunctionsManual's infinitely_differentiable_mish_backward, node for node (softplus as exp().log1p())
    s = x.sigmoid()
    t = x.exp().log1p().tanh()
    u = 1 - t * t  # (GCC's right operand first: 1 - t * t before x * s)
    xs = x * s
    return grad * (t + xs * u)


_hardsigmoid = _elementwise("HardsigmoidBackward0",
                            lambda a: np.minimum(np.maximum(a + _scalar(a, 3), 0), 6) / _scalar(a, 6))


def _hardsigmoid_backward_np(g, x):
    # PyTorch's kernel multiplies by one_sixth = 1.0f / 6.0f, a float32 constant in every dtype
    # (a float64 gradient is 0.1666666716337204, not 1/6), in float opmath for half types
    wide = g.astype(np.float32) if g.dtype.itemsize < 4 else g
    out = np.where((x > -3) & (x < 3), wide * np.float32(1.0 / 6.0), 0).astype(g.dtype, copy=False)
    return iterator_layout(out, (g, x)) if out.ndim > 1 else out  # (TensorIterator's binary op over them)


@_hardsigmoid.derivative
def _(ctx, grad):
    # hardsigmoid_backward has no derivative in PyTorch: a NotImplemented node, with edges to the
    # inputs that require grad only (a second derivative raises)
    x = ctx.self
    return not_implemented(_hardsigmoid_backward_np(grad._data, x._data), (grad, x),
                           "aten::hardsigmoid_backward")


_hardswish = _elementwise("HardswishBackward0",
                          lambda a: a * np.clip(a + _scalar(a, 3), 0, 6) / _scalar(a, 6))


def _hardswish_backward_np(g, x):
    if g.dtype.itemsize < 4:  # (half types: the kernel works in float, rounds once)
        return _hardswish_backward_np(g.astype(np.float32), x.astype(np.float32)).astype(g.dtype)
    mid = g * (x / _scalar(x, 3) + _scalar(x, 0.5))
    return np.where(x <= -3, 0, np.where(x >= 3, g, mid))


def _hardswish_double_backward(ctx, grad):
    x = ctx.self
    return where((x > -3.0) & (x < 3.0), grad * ctx.grad_output / 3.0, 0.0)


_hardswish_backward = _backward_op("HardswishBackwardBackward0", _hardswish_backward_np,
                                   d_self=_hardswish_double_backward, nan_tail=lambda g: g)
_hardswish.derivative(lambda ctx, grad: _hardswish_backward(grad, ctx.self))


def _simple_activation(op, kernel):
    def fn(input, inplace=False):
        if inplace:  # the in-place checks (an expanded input) come before the kernel's dtype
            return _in_place(lambda x: op(x) if check_floating(x, kernel) is None else None, input)
        check_floating(input, kernel)
        return op(input)

    return fn


silu = export("silu", functional=True, torch=False)(_simple_activation(_silu, "silu_cpu"))
mish = export("mish", functional=True, torch=False)(_simple_activation(_mish, "mish_cpu"))
hardsigmoid = export("hardsigmoid", functional=True, torch=False)(
    _simple_activation(_hardsigmoid, "hardsigmoid_cpu"))
hardswish = export("hardswish", functional=True, torch=False)(_simple_activation(_hardswish, "hardswish_cpu"))


# ---------------------------------------------------------------------------
# softplus, logsigmoid, softsign, tanhshrink
# ---------------------------------------------------------------------------

def _softplus_np(a, beta, threshold):
    bx = a * _scalar(a, beta)
    if a.dtype == np.float32:  # log1p(exp(beta x)) / beta: Sleef's expf and log1pf in the vector blocks
        b = _scalar(a, beta)
        soft = _vector_blocks(bx, lambda v: _vec_math.sleef_log1pf(_vec_math.sleef_expf(v)),
                              lambda v: np.log1p(_vec_math.libm_float(np.exp, v)), a) / b  # (numpy's float32 log1p: libm's)
        return np.where(bx > _scalar(a, threshold), a, soft)
    if a.dtype == np.float64:
        return _softplus64(a, bx, beta, threshold)
    return np.where(bx > threshold, a, np.logaddexp(0, bx) / _scalar(a, beta))


_softplus = _elementwise("SoftplusBackward0", _softplus_np)


def _softplus_backward_np(g, x, beta, threshold):
    if x.dtype == np.float16 and g.dtype == np.float16:  # (the kernel's float opmath, rounded once)
        return _softplus_backward_np(g.astype(np.float32), x.astype(np.float32), beta, threshold).astype(np.float16)
    if x.dtype.char in "fd" and g.dtype == x.dtype:
        return _softplus_backward_kernel(g, x, beta, threshold)
    bx = x * _scalar(x, beta)
    with np.errstate(over="ignore"):
        z = np.exp(bx)
        return np.where(bx > threshold, g, g * z / (z + 1))


def _softplus_double_backward(ctx, grad):
    bx = ctx.self * ctx.beta
    return _sigmoid_backward(grad * ctx.grad_output, bx.sigmoid()) * (bx < ctx.threshold) * ctx.beta


_softplus_backward = _backward_op("SoftplusBackwardBackward0", _softplus_backward_np, ("beta", "threshold"),
                                  _softplus_double_backward)
_softplus.derivative(
    lambda ctx, grad: _softplus_backward(grad, ctx.self, beta=ctx.beta, threshold=ctx.threshold))


@export(functional=True, torch=False)
def softplus(input, beta=1.0, threshold=20.0, *, out=None):
    if out is not None:
        from ._outs import unary_into
        return unary_into("softplus", input, out, lambda: softplus(input, beta, threshold))
    check_floating(input, "softplus_cpu")
    return _softplus(input, beta=beta, threshold=threshold)


def _logsigmoid_np(a):
    """PyTorch's kernel: min(x, 0) - log1p(exp(-|x|)) (log_sigmoid(inf) is +0.0), all of it
    vector code: float32 (and float16, computed in float32) with Sleef's expf and log1pf, float64
    with Sleef's exp and log1p; a NaN gives the vector minimum's all-ones NaN (negative)."""
    if a.dtype == np.float32:
        r = np.minimum(a, 0) - _vec_math.sleef_log1pf(_vec_math.sleef_expf(-np.abs(a)))
    elif a.dtype == np.float64 and a.size <= _vec_math.GRAIN_SIZE:
        r = np.minimum(a, 0) - _sleef.sleef_log1p(_sleef.sleef_exp(-np.abs(a)))
    else:
        return np.minimum(a, 0) - np.log1p(np.exp(-np.abs(a)))
    nan = np.isnan(a)
    if nan.any():
        r = np.where(nan, np.array(-1, np.int64 if a.dtype == np.float64 else np.int32).view(a.dtype), r)
    return r


# (log_sigmoid_forward_out_cpu allocates its output contiguous, then runs TensorIterator on it)
_logsigmoid = _elementwise("LogSigmoidBackward0", _logsigmoid_np, contiguous=True)


def _logsigmoid_backward_np(g, x):
    # the forward's buffer, exp(-|x|), as its kernel computed it
    negative = x < 0
    if x.dtype == np.float16 and g.dtype == np.float16:
        # the forward's float16 buffer (computed in float, rounded), then the kernel's float opmath
        z = _vec_math.sleef_expf(-np.abs(x.astype(np.float32))).astype(np.float16).astype(np.float32)
        one, zero = np.float32(1), np.float32(0)
        return ((np.where(negative, one, zero) - np.where(negative, one, -one) * (z / (one + z)))
                * g.astype(np.float32)).astype(np.float16)
    if x.dtype.char not in "fd" or g.dtype != x.dtype:
        z = np.exp(-np.abs(x))
        return g * (np.where(negative, 1, 0) - np.where(negative, 1, -1) * (z / (1 + z)))
    if x.dtype == np.float32:
        z = _vec_math.sleef_expf(-np.abs(x))
    elif x.size <= _vec_math.GRAIN_SIZE:
        z = _sleef.sleef_exp(-np.abs(x))
    else:
        z = np.exp(-np.abs(x))
    one, zero = _scalar(z, 1), _scalar(z, 0)  # (max_deriv - sign * (z / (1 + z))) * g, in the dtype
    return (np.where(negative, one, zero) - np.where(negative, one, -one) * (z / (one + z))) * g


def _logsigmoid_double_backward(ctx, grad):
    z = ctx.self.sigmoid()
    return grad * ctx.grad_output * (z - 1) * z


# (log_sigmoid_backward_cpu writes into empty_like(grad_output), not a TensorIterator output of its own)
_logsigmoid_backward = _backward_op("LogSigmoidBackwardBackward0", _logsigmoid_backward_np,
                                    d_self=_logsigmoid_double_backward,
                                    layout=lambda out, g, x: laid_out_like(g, out))
_logsigmoid.derivative(lambda ctx, grad: _logsigmoid_backward(grad, ctx.self))


@export(functional=True, torch=False)
def logsigmoid(input, *, out=None):
    if out is not None:  # (log_sigmoid_forward_out: autograd's refusal, out resized quietly, the kernel's
        from ._outs import _resize_out, finish_out as _finish  # dtype, then out's)
        from ..autograd import grad_mode
        if grad_mode._state["enabled"] and (input._requires_grad or out._requires_grad):
            _finish("log_sigmoid", input, out)  # (raises the refusal)
        if tuple(out.shape) != tuple(input.shape):
            _resize_out(out, np.empty(input.shape, out._data.dtype))
        check_floating(input, "log_sigmoid_cpu")
        if out.dtype is not input.dtype:
            from ..tensor import _scalar_name
            raise RuntimeError(f"expected scalar type {_scalar_name(input.dtype)} but found {_scalar_name(out.dtype)}")
        return _finish("log_sigmoid", logsigmoid(input), out)
    check_floating(input, "log_sigmoid_cpu")
    return _logsigmoid(input)


@export(functional=True, torch=False)
def softsign(input):
    return input / (input.abs() + 1)


@export(functional=True, torch=False)
def tanhshrink(input):
    return input - input.tanh()


# ---------------------------------------------------------------------------
# glu
# ---------------------------------------------------------------------------

def _glu_fwd(ctx, a, dim):
    h = a.shape[dim] // 2
    first, second = np.split(a, [h], axis=dim)
    out = first * _sigmoid_np(second)
    # (glu's kernel: TensorIterator over the two halves, the first deciding the layout)
    return iterator_layout(out, (first, second)) if out.ndim > 1 else out


_glu = Op("GluBackward0", _glu_fwd, saves=("self",))


def _glu_backward_fwd(ctx, g, x, dim):
    """glu_backward as PyTorch's CPU kernel: sigmoid(b) into the first half, times gO; the second half
    (1 - s) * s * a * gO in one pass (float32 for float16, rounded once)."""
    g = materialized(g)  # (a ZeroTensor gradient: plain zeros to the kernel)
    h = x.shape[dim] // 2
    a, b = np.split(x, [h], axis=dim)
    s = Tensor._make(np.ascontiguousarray(b)).sigmoid()._data
    work = np.float32 if x.dtype == np.float16 else x.dtype
    sw = s.astype(work, copy=False)
    second = ((1 - sw) * sw * a.astype(work, copy=False) * g.astype(work, copy=False)).astype(x.dtype, copy=False)
    return np.concatenate([s * g, second], axis=dim)


# glu_backward is an op of its own (PyTorch's GluBackwardBackward0, edges to grad_output and self)
_glu_backward = Op("GluBackwardBackward0", _glu_backward_fwd, inputs=("grad_output", "self"),
                   saves=("grad_output", "self"), saves_for={"grad_output": (1,)}, internal=True)


@_glu.derivative
def _(ctx, grad):
    return _glu_backward(grad, ctx.self, dim=ctx.dim)


@_glu_backward.derivative
def _(ctx, grad):
    from .factories import ones
    from .joining import cat
    x, dim = ctx.self, ctx.dim
    h = x.shape[dim] // 2
    g_go = g_x = None
    if ctx.needs(0):  # glu_double_backward_grad_output
        sizes = list(x.shape)
        sizes[dim] = h
        tmp = grad * _glu_backward(ones(sizes, dtype=x.dtype), x, dim=dim)
        g_go = tmp.narrow(dim, 0, h) + tmp.narrow(dim, h, h)
    if ctx.needs(1):  # glu_double_backward
        go = ctx.grad_output
        first, second = x.narrow(dim, 0, h), x.narrow(dim, h, h)
        sig = second.sigmoid()
        one_sub_sig = 1 - sig
        sig_one_sub_sig = sig * one_sub_sig
        gg_first, gg_second = grad.narrow(dim, 0, h), grad.narrow(dim, h, h)
        gg_second_times_first = gg_second * first
        gi_first = gg_second * go * sig_one_sub_sig
        second_order = sig_one_sub_sig * one_sub_sig - sig * sig_one_sub_sig
        gi_second = gg_second_times_first * go * second_order + gg_first * go * sig_one_sub_sig
        g_x = cat([gi_first, gi_second], dim)
    return g_go, g_x


@export(functional=True, torch=False)
def glu(input, dim=-1):
    if input.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    if type(dim) is not int:  # (torch._C._nn.glu(input, dim))
        passed_on("glu", (("dim", "int", 2, dim),))
    d = _wrap_dim(dim, input.ndim)
    if input.shape[d] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size {input.shape[d]}")
    check_floating(input, "glu_cpu")
    return _glu(input, dim=d)
