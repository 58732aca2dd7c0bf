"""Losses: nn.functional's loss functions with PyTorch's nodes and reductions.

Losses that ATen implements as one kernel (``mse_loss``, ``smooth_l1_loss``,
``huber_loss``, ``binary_cross_entropy[_with_logits]``) are one op here,
reduction included; the ones it composes of other ops (``l1_loss``, ``kl_div``,
the embedding and ranking losses) are composed the same way, so the graph shows
PyTorch's chain. ``nll_loss`` and ``cross_entropy`` are in ``cross_entropy.py``.  Every loss takes
``reduction`` 'none' | 'mean' | 'sum' (and the legacy ``size_average`` /
``reduce``).
"""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from .._zero import ZeroArray, materialized
from ..autograd import graph
from ..tensor import Tensor, _can_cast, _scalar_name
from . import _glibc_float, _vec_math
from ._layout import c_order, laid_out_like
from ._op import Op, export
from .activations import _logsigmoid_np, logsigmoid
from .binary import xlogy
from .nn import (add_scalar, apply_reduction, aten_reduction, broadcast_pair, check_not_differentiable, const,
                 div_scalar, in_loss_storage, mul_scalar, parse_signature, parse_torch_loss, reduce_array, reduction_arg, size_warning,
                 sub_scalar)
from .pointwise import _mismatch_message, check_sub
from .selection import clamp_min, masked_fill, where
from .._warn_once import warn as _warn

_EPSILON = 1e-12
#: Loss.cpp's ``constexpr float EPSILON = 1e-12`` (cosine_embedding_loss adds it as a Scalar: the float's
#: value, 9.99999996e-13, not 1e-12)
_FLOAT_EPSILON = float(np.float32(1e-12))
_ENUM = {"none": 0, "mean": 1, "sum": 2}  # (at::Reduction's numbers)


def _mean_scale(ctx, grad, n):
    return grad / n if ctx.reduction == "mean" else grad


def _common(input, target, kernel=None):
    """(tensors, arrays) of input and target in their promoted dtype; with ``kernel``, the
    CPU kernel's refusal of a non-float dtype (``"mse_cpu" not implemented for 'Long'``)."""
    d = dtypes.result_type(input, target)
    if kernel is not None and not d.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_scalar_name(d)}\'')
    return (input, target), (_cast(input._data, d.numpy), _cast(target._data, d.numpy))


def _cast(a, dtype):
    """``a`` in ``dtype``, an expanded (stride-0) dim kept so: numpy's astype would make it the innermost
    one, and the result's layout with it (TensorIterator's casts leave the operands' strides)."""
    if a.dtype == dtype or 0 not in a.strides or not a.size:
        return a.astype(dtype, copy=False)
    base = a[tuple(slice(0, 1) if st == 0 else slice(None) for st in a.strides)]
    return np.broadcast_to(base.astype(dtype), a.shape)


def _weighted(loss, weight, reduction):
    """The Python-side weighted path of l1_loss / mse_loss."""
    loss = loss * weight
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return loss.sum() / weight.sum()
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


def _check_weight(weight, input):
    """F.*_loss's ``weight.size() != input.size()`` (``input``: a tensor or its shape)."""
    if not isinstance(weight, Tensor):
        raise AttributeError(f"'{type(weight).__name__}' object has no attribute 'size'")
    if weight.shape != (input if isinstance(input, tuple) else input.shape):
        raise ValueError("Weights and input must have the same size.")


# ---------------------------------------------------------------------------
# mse_loss, l1_loss
# ---------------------------------------------------------------------------

# (mse, smooth_l1 and huber are TensorIterator binary ops of (self, target): with reduction='none'
# the result is laid out as they decide, self first)
_mse = Op("MseLossBackward0", lambda ctx, a, t, reduction: _reduced_in_place((a - t) ** 2, reduction, a.dtype),
          inputs=("self", "target"), saves=("self", "target"), iterated=True)


def _reduced_in_place(loss, reduction, dtype, kept=None):
    """reduce_array, a reduced loss in a storage of the unreduced loss's elements (nn.in_loss_storage; ``kept``:
    the unreduced loss that storage holds past element 0, laid out)."""
    out = reduce_array(loss, reduction, dtype)
    return out if reduction == "none" else in_loss_storage(out, loss.size, kept)


def _norm(a, reduction, scale):
    if reduction == "mean":  # (an empty input: C++'s scale / 0, inf)
        scale = scale / a.size if a.size else math.inf
    return a.dtype.type(scale)


def _mse_backward_fwd(ctx, g, a, t, reduction):
    """mse_loss_backward: ((self - target) * norm) * grad_output, norm = 2 (/ numel for 'mean'); in
    the operands' common dtype, written into a tensor of self's (zeros_like(self)); a ZeroTensor
    grad_output is plain zeros to the kernel."""
    if type(g) is ZeroArray:
        g = g.view(np.ndarray)
    if a.dtype == t.dtype == g.dtype:
        return (a - t) * _norm(a, reduction, 2.0) * g
    common = dtypes.result_type(*(Tensor._make(v) for v in (a, t, g))).numpy
    return ((a.astype(common) - t.astype(common)) * _norm(a.astype(common), reduction, 2.0)
            * g.astype(common)).astype(a.dtype)


# the backward ops of the pointwise losses: a create_graph gradient shows PyTorch's node, edges
# (grad_output, self, target); the target's gradient is the same op with self and target swapped
_mse_backward = Op("MseLossBackwardBackward0", _mse_backward_fwd, inputs=("grad_output", "self", "target"),
                   internal=True, saves=("grad_output", "self", "target"), contiguous=True)


def _loss_backward(op, ctx, grad, **attrs):
    """The first-order formula of mse/smooth_l1/huber: the backward op for each input."""
    s, t = ctx.self, ctx.target
    want = graph.should_compute_output  # (the running pass's needs: huber's dtype errors are per input)
    return (op(grad, s, t, reduction=ctx.reduction, **attrs) if want(ctx, 0) else None,
            op(grad, t, s, reduction=ctx.reduction, **attrs) if want(ctx, 1) else None)


def _loss_backward_raw(fwd, ctx, g, **attrs):
    a, t = ctx.self._data, ctx.target._data
    if a.dtype != g.dtype or t.dtype != g.dtype:
        return NotImplemented  # mixed dtypes: the tensor formula's type promotion
    meta = ctx._input_meta
    # (ATen's *_loss_backward write into zeros_like(self, LEGACY_CONTIGUOUS_MEMORY_FORMAT): C order)
    return (c_order(fwd(None, g, a, t, ctx.reduction, **attrs)) if meta[0] is not None else None,
            c_order(fwd(None, g, t, a, ctx.reduction, **attrs)) if meta[1] is not None else None)


_mse.derivative(lambda ctx, grad: _loss_backward(_mse_backward, ctx, grad))
_mse.own_grad_layout = True  # (contiguous, as its backward kernel's output: see _loss_backward_raw)
_mse.raw_derivative(lambda ctx, g: _loss_backward_raw(_mse_backward_fwd, ctx, g))


def _mean_divided(g, ctx):
    return div_scalar(g, ctx.self.numel()) if ctx.reduction == "mean" else g


@_mse_backward.derivative
def _(ctx, grad):
    """grad_output: mse_loss_backward again; self, target: (-)mse_loss_double_backward."""
    g_out = _mse_backward(grad, ctx.self, ctx.target, reduction=ctx.reduction) if ctx.needs(0) else None
    parts = [_mean_divided(mul_scalar(grad * ctx.grad_output, 2), ctx) if ctx.needs(i) else None for i in (1, 2)]
    return g_out, parts[0], None if parts[1] is None else -parts[1]


def _pointwise_pair(input, target, reduction, size_average=None, reduce=None):
    """What every elementwise loss does first: PyTorch's warning for a target of
    another size, the legacy reduction arguments, broadcasting."""
    if input.shape != target.shape:
        size_warning(input, target)
    if size_average is not None or reduce is not None:
        reduction = reduction_arg(reduction, size_average, reduce)
    input, target = broadcast_pair(input, target)
    return input, target, reduction


@export(functional=True, torch=False)
def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    shape = input.shape  # (the weight is checked against the input before broadcasting)
    input, target, reduction = _pointwise_pair(input, target, reduction, size_average, reduce)
    if weight is not None:
        _check_weight(weight, shape)
        return _weighted((input - target).pow(2), weight, reduction)
    ts, arrs = _common(input, target, "mse_cpu")
    return _mse.apply(ts, arrs, {"reduction": reduction_arg(reduction)})


def _l1(input, target, reduction):
    return apply_reduction((input - target).abs(), reduction)


@export(functional=True, torch=False)
def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    shape = input.shape  # (the weight is checked against the input before broadcasting)
    input, target, reduction = _pointwise_pair(input, target, reduction, size_average, reduce)
    if weight is not None:
        _check_weight(weight, shape)
        return _weighted((input - target).abs(), weight, reduction)
    return _l1(input, target, reduction_arg(reduction))


# ---------------------------------------------------------------------------
# smooth_l1_loss, huber_loss
# ---------------------------------------------------------------------------

def _smooth_l1_np(ctx, a, t, reduction, beta):
    d = np.abs(a - t)
    loss = np.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta)
    return _reduced_in_place(loss, reduction, a.dtype)


_smooth_l1 = Op("SmoothL1LossBackward0", _smooth_l1_np, inputs=("self", "target"), saves=("self", "target"),
                iterated=True)


def _smooth_l1_backward_fwd(ctx, g, a, t, reduction, beta):
    """smooth_l1_loss_backward, ATen's kernel: -norm * g, norm * g, or norm * x * g / beta."""
    g = materialized(g)  # (a ZeroTensor gradient: plain zeros to the kernel)
    norm, b = _norm(a, reduction, 1.0), a.dtype.type(beta)
    x = a - t
    with np.errstate(all="ignore"):
        return np.where(x <= -b, -norm * g, np.where(x >= b, norm * g, norm * x * g / b)).astype(a.dtype, copy=False)


_smooth_l1_backward = Op("SmoothL1LossBackwardBackward0", _smooth_l1_backward_fwd,
                         inputs=("grad_output", "self", "target"), internal=True,
                         saves=("grad_output", "self", "target"), contiguous=True)
_smooth_l1.derivative(lambda ctx, grad: _loss_backward(_smooth_l1_backward, ctx, grad, beta=ctx.beta))
_smooth_l1.raw_derivative(lambda ctx, g: _loss_backward_raw(_smooth_l1_backward_fwd, ctx, g, beta=ctx.beta))
_smooth_l1.own_grad_layout = True


@_smooth_l1_backward.derivative
def _(ctx, grad):
    g_out = _smooth_l1_backward(grad, ctx.self, ctx.target, reduction=ctx.reduction,
                                beta=ctx.beta) if ctx.needs(0) else None

    def double_backward():  # smooth_l1_loss_double_backward(grad * grad_output, ...)
        inside = ((ctx.self - ctx.target).abs() < ctx.beta).to(grad.dtype)
        return _mean_divided(div_scalar((grad * ctx.grad_output) * inside, ctx.beta), ctx)

    return (g_out, double_backward() if ctx.needs(1) else None,
            -double_backward() if ctx.needs(2) else None)


@export(functional=True, torch=False)
def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    input, target, reduction = _pointwise_pair(input, target, reduction, size_average, reduce)
    l1 = bool(beta == 0.0)  # (F's test of beta, before its get_enum of the reduction)
    reduction = reduction_arg(reduction)
    if l1:
        return _l1(input, target, reduction)
    if type(beta) is not float and type(beta) is not int:  # torch._C._nn.smooth_l1_loss's parser
        parse_signature("smooth_l1_loss", "(Tensor input, Tensor target, int reduction = 1, float beta = 1.0)",
                        (input, target, _ENUM[reduction], beta))
        beta = float(beta)
    if not beta >= 0:  # (NaN too)
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    ts, arrs = _common(input, target, "smooth_l1_cpu")
    return _smooth_l1.apply(ts, arrs, {"reduction": reduction, "beta": beta})


def _huber_np(ctx, a, t, reduction, delta):
    d = np.abs(a - t)
    loss = np.where(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta))
    return reduce_array(loss, reduction, a.dtype)


_huber = Op("HuberLossBackward0", _huber_np, inputs=("self", "target"), saves=("self", "target"), iterated=True)


def _huber_backward_fwd(ctx, g, a, t, reduction, delta):
    """huber_loss_backward, ATen's kernel: -norm * g * delta, norm * g * delta, or norm * x * g.
    Its TensorIterator promotes nothing: the operands must have the dtype of grad_input
    (zeros_like(self))."""
    for other in (t, g):
        if other.dtype != a.dtype:
            raise RuntimeError(f"Found dtype {_scalar_name(dtypes.from_numpy(other.dtype))} but expected "
                               f"{_scalar_name(dtypes.from_numpy(a.dtype))}")
    g = materialized(g)  # (a ZeroTensor gradient: plain zeros to the kernel)
    norm, d = _norm(a, reduction, 1.0), a.dtype.type(delta)
    x = a - t
    with np.errstate(all="ignore"):
        return np.where(x <= -d, -norm * g * d, np.where(x >= d, norm * g * d, norm * x * g)).astype(a.dtype, copy=False)


_huber_backward = Op("HuberLossBackwardBackward0", _huber_backward_fwd, inputs=("grad_output", "self", "target"),
                     internal=True, saves=("grad_output", "self", "target"), contiguous=True)
_huber.derivative(lambda ctx, grad: _loss_backward(_huber_backward, ctx, grad, delta=ctx.delta))
_huber.raw_derivative(lambda ctx, g: _loss_backward_raw(_huber_backward_fwd, ctx, g, delta=ctx.delta))
_huber.own_grad_layout = True


@_huber_backward.derivative
def _(ctx, grad):
    s, t, red, delta = ctx.self, ctx.target, ctx.reduction, ctx.delta
    g_out = None
    if ctx.needs(0):  # huber_loss_double_backward_grad_output
        if red == "none":
            g_out = _huber_backward(grad, s, t, reduction=red, delta=delta)
        else:
            ones = Tensor._make(np.ones_like(ctx.grad_output._data))
            g_out = (_huber_backward(ones, s, t, reduction=red, delta=delta) * grad).sum()

    def double_backward():  # huber_loss_double_backward(grad * grad_output, ...)
        return _mean_divided((grad * ctx.grad_output) * ((s - t).abs() < delta), ctx)

    return g_out, double_backward() if ctx.needs(1) else None, -double_backward() if ctx.needs(2) else None


@export(functional=True, torch=False)
def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    if input.shape != target.shape:
        size_warning(input, target)
    shape = input.shape
    input, target = broadcast_pair(input, target)
    if weight is not None:  # F.huber_loss checks the weight against the input before the C++ op runs
        _check_weight(weight, shape)
    enum = "none" if weight is not None else reduction_arg(reduction)  # (F's get_enum, then the op's parser)
    if type(delta) is not float and type(delta) is not int:
        parse_signature("huber_loss", "(Tensor input, Tensor target, int reduction = 1, float delta = 1.0)",
                        (input, target, _ENUM[enum], delta))
        delta = float(delta)
    if not delta > 0:  # (NaN too)
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    common = dtypes.result_type(input, target)  # the loss is written into a tensor of the input's dtype
    if not _can_cast(common, input.dtype):
        raise RuntimeError(f"result type {_scalar_name(common)} can't be cast to the desired output type "
                           f"{_scalar_name(input.dtype)}")
    ts, arrs = _common(input, target, "huber_cpu")
    if common is not input.dtype:
        arrs = tuple(_cast(a, input._data.dtype) for a in arrs)
    if weight is None:
        return _huber.apply(ts, arrs, {"reduction": enum, "delta": delta})
    loss = _huber.apply(ts, arrs, {"reduction": "none", "delta": delta}) * weight
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return loss.mean()
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


# ---------------------------------------------------------------------------
# binary_cross_entropy, binary_cross_entropy_with_logits
# ---------------------------------------------------------------------------

def _bce_np(ctx, x, t, weight, reduction):
    bad_x, bad_t = ~((x >= 0) & (x <= 1)), ~((t >= 0) & (t <= 1))  # (NaN is out of range too)
    if bad_x.any() or bad_t.any():  # the kernel checks input, then target, element by element
        first_x = np.argmax(bad_x.ravel()) if bad_x.any() else bad_x.size
        first_t = np.argmax(np.broadcast_to(bad_t, bad_x.shape).ravel()) if bad_t.any() else bad_x.size
        raise RuntimeError(f"all elements of {'input' if first_x <= first_t else 'target'} should be between 0 and 1")
    with np.errstate(divide="ignore"):
        # (the kernel's scalar loop: glibc's logf and log1pf for float32; numpy's float32 log is not)
        logs = (_glibc_float.log1pf(-x), _glibc_float.logf(x)) if x.dtype == np.float32 else (np.log1p(-x), np.log(x))
        loss = (t - 1) * np.maximum(logs[0], x.dtype.type(-100)) - t * np.maximum(logs[1], x.dtype.type(-100))
    if weight is not None:
        loss = loss * weight
    # (binary_cross_entropy_cpu writes into empty_like(self): the input's layout)
    laid = laid_out_like(x, loss)
    return _reduced_in_place(laid if reduction == "none" else loss, reduction, x.dtype, laid.astype(x.dtype, copy=False))


_bce = Op("BinaryCrossEntropyBackward0", _bce_np, inputs=("self", "target"), saves=("self", "target"))


def _bce_backward_fwd(ctx, g, x, t, weight, reduction):
    """binary_cross_entropy_backward, ATen's kernel: g * (x - t) / max((1 - x) * x, EPSILON) (a C++
    float 1e-12, in the input's dtype: 0 in float16), then times the weight, / numel for 'mean'."""
    with np.errstate(all="ignore"):
        out = g * (x - t) / np.maximum((1 - x) * x, x.dtype.type(np.float32(_EPSILON)))
        if weight is not None:
            out = out * weight
        if reduction == "mean":
            out = out / x.dtype.type(x.size)
    return np.asarray(out, x.dtype)


# the input's gradient under create_graph: PyTorch's one node, edges (grad_output, self, target)
_bce_backward = Op("BinaryCrossEntropyBackwardBackward0", _bce_backward_fwd,
                   inputs=("grad_output", "self", "target"), internal=True,
                   saves=("grad_output", "self", "target"))


def _bce_weight(ctx):
    """The weight binary_cross_entropy saved (a tensor: save_extra), as the array its kernels read."""
    w = ctx.weight
    return w._data.astype(ctx.self._data.dtype, copy=False) if isinstance(w, Tensor) else w


def _weighted_mean(g, ctx, n):
    """The in-place tail of ATen's BCE formulas: ``g.mul_(weight)``, ``g.div_(numel)`` for 'mean'."""
    if ctx.weight is not None:
        g.mul_(const(_bce_weight(ctx)))
    return g.div_(n) if ctx.reduction == "mean" else g


@_bce.derivative
def _(ctx, grad):
    x, t = ctx.self, ctx.target
    meta = ctx._input_meta
    gx = gt = None
    if meta[0] is not None:
        gx = _bce_backward(grad, x, t, weight=_bce_weight(ctx), reduction=ctx.reduction)
    if meta[1] is not None:  # binary_cross_entropy_target_backward: logit(x).neg_().mul_(grad) ...
        gt = _weighted_mean(x.logit().neg_().mul_(grad), ctx, t.numel())
    return gx, gt


@_bce_backward.derivative
def _(ctx, grad):
    """ATen's binary_cross_entropy_double_backward[_grad_output|_target], in the generated code's
    order (the inputs' names sorted: grad_output, self, target), in place where ATen's are (an
    in-place product keeps a clone of what it overwrites: CloneBackward0); C++ evaluates an
    operator's right operand first."""
    from ..autograd import grad_mode
    g_out, x, t = ctx.grad_output, ctx.self, ctx.target
    n = x.numel()
    gx = gt = gg = None
    if ctx.needs(0):
        bottom = 1 - x + _EPSILON
        bottom = (x + _EPSILON) * bottom
        gg = ((x - t) / bottom).mul_(grad)
        if ctx.weight is not None:
            gg.mul_(const(ctx.weight))
        gg = gg / n if ctx.reduction == "mean" else gg
    if ctx.needs(1):
        above, below = x + _EPSILON, 1 - x + _EPSILON
        bottom = below.pow(2)
        bottom = above.pow(2) * bottom
        twice = 2 * x * t
        gx = ((x * x - twice + t) / bottom).mul_(grad * g_out)
        if ctx.weight is not None:
            gx.mul_(const(ctx.weight))
        gx = gx / n if ctx.reduction == "mean" else gx
    if ctx.needs(2):
        gt = -grad * g_out
        if ctx.weight is not None:
            gt.mul_(const(ctx.weight))
        denom = (1 - x).mul_(x)
        with grad_mode.no_grad():
            denom.clamp_min_(_EPSILON)
        gt.div_(denom)
        if ctx.reduction == "mean":
            gt.div_(t.numel())
    return gg, gx, gt


@export(functional=True, torch=False)
def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    reduction = reduction_arg(reduction, size_average, reduce)
    if target.size() != input.size():  # (torch/nn/functional.py's reads: a number fails on .size())
        raise ValueError(
            f"Using a target size ({target.shape}) that is different to the input size ({input.shape}) is "
            "deprecated. Please ensure they have the same size.")
    if weight is not None:  # (torch.broadcast_shapes(target.size(), weight.size()) and the expand, first)
        from .views import broadcast_shapes
        new_size = broadcast_shapes(target.size(), weight.size())
        weight = weight.expand(new_size)
        # (the autograd kernel's check, before the CPU kernel's of the dtypes)
        check_not_differentiable(weight, "weight", "binary_cross_entropy")
    if target.dtype is not input.dtype:  # TensorIterator's check of the kernel's operands
        raise RuntimeError(f"Found dtype {_scalar_name(target.dtype)} but expected {_scalar_name(input.dtype)}")
    if not input.dtype.is_floating_point:  # the kernel's dispatch, before its check of the values
        raise NotImplementedError(f'"binary_cross_entropy" not implemented for \'{_scalar_name(input.dtype)}\'')
    w = None
    if weight is not None:
        if weight.shape != input.shape:  # (the kernel's loss.mul_(weight))
            raise RuntimeError(f"output with shape {list(input.shape)} doesn't match the broadcast shape "
                               f"{list(weight.shape)}")
        w = weight._data.astype(input._data.dtype)
    ts, arrs = _common(input, target)
    out = _bce.apply(ts, arrs, {"weight": w, "reduction": reduction})
    if type(out._grad_fn) is _bce.node:  # (PyTorch saves the expanded weight: changed in place, its error)
        graph.save_extra(out._grad_fn, "weight", weight, after="target")
    return out


def _bce_logits_np(ctx, x, y, weight, pos_weight, reduction):
    """ATen's steps, each in its tensor's dtype: log_sigmoid(input) (input's), times
    (pos_weight - 1) * target + 1 in place; loss = (1 - target).mul_(input).sub_(that), then
    .mul_(weight): the loss has the target's dtype, each in-place step rounded to it."""
    dx, dy = x.dtype, y.dtype
    with np.errstate(all="ignore"):
        if dx == np.float32 or dx == np.float16:  # log_sigmoid's vector code: Sleef's expf and log1pf (float16's
            x32 = x.astype(np.float32)  # in float lanes, its tail too, rounded once)
            log_sig = (np.minimum(x32, 0) - _vec_math.sleef_log1pf(_vec_math.sleef_expf(-np.abs(x32)))).astype(dx)
        else:  # (float64: log_sigmoid's own kernel, Sleef's exp and log1p)
            log_sig = _logsigmoid_np(x).astype(dx, copy=False)
        if pos_weight is not None:
            log_sig = (log_sig * ((pos_weight - 1) * y + 1)).astype(dx, copy=False)
        loss = ((1 - y) * x).astype(dy, copy=False)
        loss = (loss - log_sig).astype(dy, copy=False)
        if weight is not None:
            loss = (loss * weight).astype(dy, copy=False)
    # ((1 - target) makes the loss: laid out as the target, which the in-place steps keep)
    return reduce_array(laid_out_like(y, loss) if reduction == "none" else loss, reduction, dy)


_bce_logits = Op("BinaryCrossEntropyWithLogitsBackward0", _bce_logits_np, inputs=("self", "target"),
                 saves=("self", "target"))


@_bce_logits.derivative
def _(ctx, grad):
    x, y = ctx.self, ctx.target
    w, pw = (None if v is None else v if isinstance(v, Tensor) else const(v) for v in (ctx.weight, ctx.pos_weight))
    gx = gy = None
    if graph.should_compute_output(ctx, 0):  # (the pass's own needs, as ATen's)
        if pw is not None:
            t = pw * y
            gx = ((t + 1 - y) * x.sigmoid() - t) * grad
        else:
            if not graph._state["enabled"]:  # input.sigmoid().sub_(target) outside grad mode: target's shape must fit
                _in_place_shape(x.shape, y.shape)
            gx = (x.sigmoid() - y) * grad
        gx = _mean_scale(ctx, gx if w is None else gx * w, x.numel())
    if graph.should_compute_output(ctx, 1):
        if pw is not None:
            gy = (logsigmoid(-x) - logsigmoid(x) * pw) * grad
        else:
            gy = -x * grad
        gy = _mean_scale(ctx, gy if w is None else gy * w, y.numel())
    return gx, gy


def _in_place_shape(out, other):
    """TensorIterator's shape errors for ``out.op_(other)``."""
    try:
        shape = np.broadcast_shapes(tuple(out), tuple(other))
    except ValueError:
        raise RuntimeError(_mismatch_message(tuple(out), tuple(other))) from None
    if shape != tuple(out):
        raise RuntimeError(f"output with shape {list(out)} doesn't match the broadcast shape {list(shape)}")


def _bce_with_logits(input, target, weight, pos_weight, reduction):
    check_not_differentiable(weight, "weight", "binary_cross_entropy_with_logits")
    check_not_differentiable(pos_weight, "pos_weight", "binary_cross_entropy_with_logits")
    # ATen: log_sigmoid(input) (times (pos_weight - 1) * target + 1 in place), then (1 - target).mul_(input),
    # .sub_(that), .mul_(weight): its kernels' errors; the loss has target's shape, input broadcasts to it
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"log_sigmoid_cpu" not implemented for \'{_scalar_name(input.dtype)}\'')
    if pos_weight is not None:
        check_sub(pos_weight, 1)  # (pos_weight - 1)
        try:
            log_weight = np.broadcast_shapes(pos_weight.shape, target.shape)
        except ValueError:
            raise RuntimeError(_mismatch_message(pos_weight.shape, target.shape)) from None
        _in_place_shape(input.shape, log_weight)
    if target.dtype is dtypes.bool_:  # 1 - target
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                           "`logical_xor()` operator instead.")
    _in_place_shape(target.shape, input.shape)
    if not target.dtype.is_floating_point:  # ((1 - target).mul_(input): before the weight's mul_)
        raise RuntimeError(f"result type {_scalar_name(dtypes.result_type(input, target))} can't be cast to the "
                           f"desired output type {_scalar_name(target.dtype)}")
    if weight is not None:
        _in_place_shape(target.shape, weight.shape)
    out = _bce_logits.apply((input, target), (input._data, target._data), {
        "weight": None if weight is None else weight._data,
        "pos_weight": None if pos_weight is None else pos_weight._data,
        "reduction": reduction})
    if type(out._grad_fn) is _bce_logits.node:  # (PyTorch saves both: changed in place, its error)
        for name, t in (("pos_weight", pos_weight), ("weight", weight)):
            graph.save_extra(out._grad_fn, name, t)
    return out


@export(functional=True, torch=False)
def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    reduction = reduction_arg(reduction, size_average, reduce)
    if not (target.size() == input.size()):  # (torch/nn/functional.py's reads: a number fails on .size())
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    for position, name, value in ((3, "weight", weight), (4, "pos_weight", pos_weight)):
        if value is not None and not isinstance(value, Tensor):  # (torch.binary_cross_entropy_with_logits' parser)
            from ._pyargs import tp_name
            raise TypeError(f"binary_cross_entropy_with_logits(): argument '{name}' (position {position}) must be "
                            f"Tensor, not {tp_name(value)}")
    return _bce_with_logits(input, target, weight, pos_weight, reduction)


@export("binary_cross_entropy_with_logits")
def torch_binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=0):
    return _bce_with_logits(input, target, weight, pos_weight, aten_reduction(reduction))


# ---------------------------------------------------------------------------
# kl_div
# ---------------------------------------------------------------------------

def _kl_div(input, target, reduction, log_target):
    if not input.dtype.is_floating_point or not target.dtype.is_floating_point:
        raise RuntimeError("kl_div: Integral inputs not supported.")
    # ATen's C++ evaluates the right operand first: that order numbers the nodes, and the
    # engine runs the later node first (the order a create_graph gradient's sums show)
    if log_target:
        diff = target - input
        out = target.exp() * diff
    else:
        prod = target * input
        out = xlogy(target, target) - prod
    return apply_reduction(out, reduction)


@export(functional=True, torch=False)
def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    if size_average is not None or reduce is not None:
        reduction = reduction_arg(reduction, size_average, reduce)
    elif reduction == "mean":
        _warn(
            "reduction: 'mean' divides the total loss by both the batch size and the support size."
            "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
            "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
            UserWarning)
    enum = "sum" if reduction == "batchmean" else reduction_arg(reduction)
    # torch.kl_div's parser, after the warning and the reduction's check
    _kl_div_parsed(input, target, ("none", "mean", "sum").index(enum), log_target)
    out = _kl_div(input, target, enum, log_target)
    if reduction == "batchmean":
        return out / input.shape[0] if input.ndim != 0 else out
    return out


def _kl_div_parsed(input, target, reduction, log_target):
    if not (isinstance(input, Tensor) and isinstance(target, Tensor) and type(log_target) is bool):
        from ._argcheck import _raise_parser_error
        _raise_parser_error("torch.kl_div", (input, target, reduction), {"log_target": log_target})
        from ._pyargs import tp_name  # (the table takes None for every keyword-only parameter: a bool refuses it)
        raise TypeError(f"kl_div(): argument 'log_target' must be bool, not {tp_name(log_target)}")


@export("kl_div")
def torch_kl_div(input, target, reduction=0, *, log_target=False):
    _kl_div_parsed(input, target, reduction, log_target)
    return _kl_div(input, target, aten_reduction(reduction), log_target)


# ---------------------------------------------------------------------------
# embedding and ranking losses
# ---------------------------------------------------------------------------

def _cosine_embedding(input1, input2, target, margin, reduction):
    tdim = target.ndim
    if tdim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if tdim == 1 and (input1.ndim != 2 or input2.ndim != 2):
        raise RuntimeError(
            f"1D target tensor expects 2D input tensors, but found inputs with sizes {list(input1.shape)} and "
            f"{list(input2.shape)}.")
    if tdim == 0 and (input1.ndim != 1 or input2.ndim != 1):
        raise RuntimeError(
            f"0D target tensor expects 1D input tensors, but found inputs with sizes {list(input1.shape)} and "
            f"{list(input2.shape)}.")
    prod_sum = (input1 * input2).sum(tdim)
    mag1 = add_scalar((input1 * input1).sum(tdim), _FLOAT_EPSILON)
    mag2 = add_scalar((input2 * input2).sum(tdim), _FLOAT_EPSILON)
    denom = (mag1 * mag2).sqrt()
    cos = prod_sum / denom
    zeros = const(np.zeros(cos.shape, cos._data.dtype))
    pos = const(np.asarray(1, cos._data.dtype)) - cos  # ATen's ``1 - cos``: SubBackward0, not Rsub
    neg = clamp_min(sub_scalar(cos, margin), 0)
    out = where(target == 1, pos, zeros) + where(target == -1, neg, zeros)
    return apply_reduction(out, reduction)


@export(functional=True, torch=False)
def cosine_embedding_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None, reduction="mean"):
    reduction = reduction_arg(reduction, size_average, reduce)
    parse_torch_loss("torch.cosine_embedding_loss", (input1, input2, target, margin, _ENUM[reduction]), 3)
    return _cosine_embedding(input1, input2, target, float(margin), reduction)


@export("cosine_embedding_loss")
def torch_cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=0):
    parse_torch_loss("torch.cosine_embedding_loss", (input1, input2, target, margin, reduction), 3)
    return _cosine_embedding(input1, input2, target, float(margin), aten_reduction(reduction))


def _hinge_embedding(input, target, margin, reduction):
    zeros = const(np.zeros(input.shape, input._data.dtype))
    # ATen's ``margin - self``: a wrapped-number tensor minus self (SubBackward0, not Rsub)
    margin = dtypes.checked_scalar(margin, input._data.dtype)  # (an integer input: c10's overflow check)
    margin_clamp = clamp_min(const(np.asarray(margin, input._data.dtype)) - input, 0)
    out_margin = where(target != 1, margin_clamp, zeros)
    out_self = where(target != -1, input, zeros)
    return apply_reduction(out_margin + out_self, reduction)


@export(functional=True, torch=False)
def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    reduction = reduction_arg(reduction, size_average, reduce)
    parse_torch_loss("torch.hinge_embedding_loss", (input, target, margin, _ENUM[reduction]), 2)
    return _hinge_embedding(input, target, float(margin), reduction)


@export("hinge_embedding_loss")
def torch_hinge_embedding_loss(input, target, margin=1.0, reduction=0):
    parse_torch_loss("torch.hinge_embedding_loss", (input, target, margin, reduction), 2)
    return _hinge_embedding(input, target, float(margin), aten_reduction(reduction))


def _margin_ranking(input1, input2, target, margin, reduction):
    diff = input1 - input2  # (GCC makes the operands of -target * (input1 - input2) right to left)
    z = -target * diff
    if not z.dtype.is_floating_point:  # + the double margin promotes integers (no graph: they need no grad)
        z = Tensor._make(z._data.astype(dtypes.get_default_dtype().numpy))
    out = add_scalar(z, float(margin)).clamp_min_(0)  # (ATen's clamp_min_ in place: the output's version 1)
    return apply_reduction(out, reduction)


@export(functional=True, torch=False)
def margin_ranking_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None, reduction="mean"):
    reduction = reduction_arg(reduction, size_average, reduce)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():  # (as torch/nn/functional.py reads them:
        raise RuntimeError(  # a target that is no tensor fails on .dim() or, in this message, .size())
            f"margin_ranking_loss : All input tensors should have same dimension but got sizes: input1: "
            f"{input1.size()}, input2: {input2.size()}, target: {target.size()} ")
    parse_torch_loss("torch.margin_ranking_loss", (input1, input2, target, margin, _ENUM[reduction]), 3)
    return _margin_ranking(input1, input2, target, margin, reduction)


@export("margin_ranking_loss")
def torch_margin_ranking_loss(input1, input2, target, margin=0.0, reduction=0):
    parse_torch_loss("torch.margin_ranking_loss", (input1, input2, target, margin, reduction), 3)
    return _margin_ranking(input1, input2, target, margin, aten_reduction(reduction))


# ---------------------------------------------------------------------------
# poisson_nll_loss, gaussian_nll_loss
# ---------------------------------------------------------------------------

def _poisson_nll(input, target, log_input, full, eps, reduction):
    # Loss.cpp's expressions, their operands made right to left as PyTorch's build (GCC) makes
    # them (the nodes' order decides the order in which gradients are summed under create_graph)
    if log_input:
        tx = target * input
        loss = input.exp() - tx
    else:
        loss = input - target * add_scalar(input, eps).log()
    if full:
        half_log = mul_scalar(mul_scalar(target, 2 * math.pi).log(), 0.5)
        t_log_t = target * target.log()
        stirling = t_log_t - target + half_log
        loss = loss + masked_fill(stirling, target <= 1, 0.0)
    return apply_reduction(loss, reduction)


@export(functional=True, torch=False)
def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = reduction_arg(reduction, size_average, reduce)
    if reduction != "none" and reduction != "mean" and reduction != "sum":  # (torch/nn/functional.py's
        raise ValueError(reduction + " is not a valid value for reduction")  # concatenation: a number's TypeError)
    if type(log_input) is not bool or type(full) is not bool or type(eps) is not float \
            or not isinstance(input, Tensor) or not isinstance(target, Tensor):  # torch.poisson_nll_loss's
        from ._argcheck import _raise_parser_error  # parser (a number for a bool, say)
        _raise_parser_error("torch.poisson_nll_loss", (input, target, log_input, full, eps, _ENUM[reduction]), {})
    return _poisson_nll(input, target, log_input, full, float(eps), reduction)


@export("poisson_nll_loss")
def torch_poisson_nll_loss(input, target, log_input, full, eps, reduction):
    parse_torch_loss("torch.poisson_nll_loss", (input, target, log_input, full, eps, reduction), 2)
    return _poisson_nll(input, target, log_input, full, float(eps), aten_reduction(reduction))


@export(functional=True, torch=False)
def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    from . import factories

    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * factories.ones_like(input)
    elif not isinstance(var, Tensor):  # PyTorch's torch.any(var < 0) meets a bool (or ``<`` fails first)
        from . import FUNCTIONS

        FUNCTIONS["any"](var < 0)
    elif (var._data < 0).any():
        raise ValueError("var has negative entry/entries")
    if var.shape != input.shape:
        if tuple(input.shape[:-1]) == tuple(var.shape):
            var = var.unsqueeze(-1)
        elif input.ndim == var.ndim and sum(y for x, y in zip(input.shape, var.shape) if x != y) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    from ..autograd import grad_mode
    with grad_mode.no_grad():
        var.clamp_(min=eps)  # (its errors: a bool or integer var cannot take the float eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return apply_reduction(loss, reduction)

