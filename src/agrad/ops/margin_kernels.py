"""The margin losses ATen writes as CPU kernels: soft_margin_loss, multi_margin_loss,
multilabel_margin_loss.

- ``soft_margin_loss``: ``log1p(exp(-input * target))`` written in place into a tensor of the
  input's dtype (so ``neg``, ``mul_``, ``exp_``, ``log1p_`` each round), then reduced
  (SoftMarginLossBackward0; its backward SoftMarginLossBackwardBackward0 is differentiable again).
- ``multi_margin_loss``: per sample, the sum over the other classes of
  ``max(0, margin - x[y] + x[i])`` (squared for p=2, times ``weight[y]``), in the input's dtype and
  in order, divided by the number of classes; the batch summed in double
  (MultiMarginLossBackward0; its backward has no derivative: a NotImplemented node).
- ``multilabel_margin_loss``: the targets of a row are its leading non-negative entries; the
  hinge ``1 - x[j] + x[i]`` over every target j and non-target i, summed in double
  (MultilabelMarginLossBackward0, which keeps ``is_target``).
"""

from __future__ import annotations


import numpy as np

from ..autograd.graph import save_extra
from ..tensor import Tensor, _scalar_name
from ._layout import c_order
from ._not_implemented import not_implemented
from ._argcheck import passed_on
from ._op import Op, export, keep_tensor
from .nn import check_not_differentiable, reduction_arg
from .pointwise import neg

_ENUM = {"none": 0, "mean": 1, "sum": 2}


def _t(a):
    return Tensor._make(a)


def _kernel_dtype(input, kernel):
    if input.dtype.name not in ("float32", "float64"):
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_scalar_name(input.dtype)}\'')


def _tensor_args(fname, input, target):
    """The _C._nn parser's refusal of a non-tensor input or target."""
    for i, (name, v) in enumerate((("input", input), ("target", target))):
        if not isinstance(v, Tensor):
            raise TypeError(f"{fname}(): argument '{name}' (position {i + 1}) must be Tensor, not {type(v).__name__}")


def _long_target(target):
    if target.dtype.name != "int64":
        raise RuntimeError(f"expected scalar type Long but found {_scalar_name(target.dtype)}")


# ---------------------------------------------------------------------------
# soft_margin_loss
# ---------------------------------------------------------------------------

def _soft_margin_fwd(ctx, x, target, reduction):
    out = _t(x).neg().mul_(_t(target)).exp_().log1p_()
    count, loss = out._data.size, out._data
    if reduction == "mean":
        out = out.mean()
    elif reduction == "sum":
        out = out.sum()
    else:
        return out._data
    from .nn import in_loss_storage
    return in_loss_storage(out._data, count, loss)  # (reduced into the loss tensor: its storage keeps them all)


_soft_margin = Op("SoftMarginLossBackward0", _soft_margin_fwd, saves=("self",), keeps={"target": "target"})


def _soft_margin_backward_fwd(ctx, g, x, target, reduction):
    """soft_margin_loss_backward: ``-norm * target * z / (1 + z) * grad``, z = exp(-target * x),
    written in place into a tensor of the input's dtype."""
    xt, tt = _t(x), _t(target)
    z = ((-tt) * xt).exp()
    out = _t(np.empty(x.shape, x.dtype))
    out.copy_(tt * z)
    out.mul_(-(1.0 / x.size if x.size else float("inf")) if reduction == "mean" else -1.0)  # (C++'s 1. / 0)
    z.add_(1)
    return out.div_(z).mul_(_t(g))._data


_soft_margin_backward = Op("SoftMarginLossBackwardBackward0", _soft_margin_backward_fwd,
                           inputs=("grad_output", "self"), saves=("grad_output", "self"),
                           keeps={"target": "target"}, internal=True)


@_soft_margin.derivative
def _(ctx, grad):
    target = ctx.target  # (the saved target tensor, checked against its version: an array when not recorded)
    return _soft_margin_backward(grad, ctx.self, target=target._data if isinstance(target, Tensor) else target,
                                 reduction=ctx.reduction)


@_soft_margin_backward.derivative
def _(ctx, grad):
    x, go, target = ctx.self, ctx.grad_output, _t(ctx.target)
    g_out = g_self = None
    if ctx.needs(0):  # soft_margin_loss_double_backward_grad_output
        if ctx.reduction == "none":
            g_out = _soft_margin_backward(grad, x, target=ctx.target, reduction="none")
        else:
            ones = _t(np.ones(go.shape, go._data.dtype))
            g_out = (_soft_margin_backward(ones, x, target=ctx.target, reduction=ctx.reduction) * grad).sum()
    if ctx.needs(1):  # soft_margin_loss_double_backward(grad * grad_output)
        z = (x * -target).exp()
        zplus1 = z + 1
        g_self = (target * target) * z / (zplus1 * zplus1) * (grad * go)
        if ctx.reduction == "mean":
            g_self = g_self / x.numel()
    return g_out, g_self


@export(functional=True, torch=False)
def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """mean of log(1 + exp(-y x)): the two-class logistic loss."""
    reduction = reduction_arg(reduction, size_average, reduce)
    _tensor_args("soft_margin_loss", input, target)
    check_not_differentiable(target, "target", "soft_margin_loss")
    if input._data.dtype == np.bool_:
        neg(input)  # (the kernel's first step, neg_out: its error for a bool input)
    # (the in-place chain's checks: the product's dtype must cast to the input's, and the target
    # broadcast to the input's shape)
    _t(np.empty(input.shape, input._data.dtype)).mul_(_t(np.zeros(target.shape, target._data.dtype)))
    out = _soft_margin.apply((input,), (input._data,), {"target": target._data, "reduction": reduction})
    if out.grad_fn is not None:  # PyTorch saves the target: an in-place change of it fails the backward
        save_extra(out.grad_fn, "target", target, after="self")
    return out


# ---------------------------------------------------------------------------
# multi_margin_loss
# ---------------------------------------------------------------------------

def _frames(x):
    """(nframe, dim) of the kernels' shape checks: a 0-d input is one frame of one class."""
    if x.ndim <= 1:
        return 1, (1 if x.ndim == 0 else x.shape[0])
    return x.shape[0], x.shape[1]


def _valid(input):
    n = input.ndim
    return (n == 2 and input.shape[1] != 0) or (n == 1 and input.shape[0] != 0) or n == 0


def _non_empty_error(input):
    raise RuntimeError("Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                       f"{list(input.shape)}")


def _multi_margin_terms(x, target, p, margin, weight):
    """(nframe, dim) array of the hinge terms (zero at the target and where not positive), the
    target indices, and the mask of positive terms."""
    nframe, dim = _frames(x)
    x2 = np.ascontiguousarray(x).reshape(nframe, dim)
    idx = target.reshape(-1).astype(np.int64)
    if ((idx < 0) | (idx >= dim)).any():
        raise RuntimeError("target out of range")
    rows = np.arange(nframe)
    m = x.dtype.type(margin)
    z = (m - x2[rows, idx][:, None]) + x2
    pos = z > 0
    pos[rows, idx] = False
    return x2, idx, z, pos


def _multi_margin_fwd(ctx, x, target, p, margin, weight, reduction):
    nframe, dim = _frames(x)
    out_shape = (nframe,) if reduction == "none" and target.ndim > 0 else ()
    if x.size == 0:
        return np.zeros(out_shape, x.dtype) if reduction == "none" else np.asarray(
            np.nan if reduction == "mean" else 0, x.dtype)
    _, idx, z, pos = _multi_margin_terms(x, target, p, margin, weight)
    h = z if p == 1 else z * z
    if weight is not None:
        h = h * weight.astype(x.dtype)[idx][:, None]
    h = np.where(pos, h, x.dtype.type(0))
    rows = np.cumsum(h, axis=1, dtype=x.dtype)[:, -1] / x.dtype.type(dim)  # (in order, the input's dtype)
    if reduction == "none":
        return rows.reshape(out_shape)
    total = np.cumsum(rows, dtype=np.float64)[-1]
    if reduction == "mean":
        total = total / nframe
    return np.asarray(total, x.dtype)


def _multi_margin_backward_np(g, x, target, p, margin, weight, reduction):
    nframe, dim = _frames(x)
    if x.size == 0:
        return np.zeros(x.shape, x.dtype)
    _, idx, z, pos = _multi_margin_terms(x, target, p, margin, weight)
    scale = x.dtype.type(1.0 / (nframe * dim) if reduction == "mean" else 1.0 / dim)
    h = np.broadcast_to(scale, z.shape) if p == 1 else (x.dtype.type(2) * scale) * z
    if weight is not None:
        h = h * weight.astype(x.dtype)[idx][:, None]
    h = np.where(pos, h, x.dtype.type(0))
    rows = np.arange(nframe)
    out = h.copy()
    out[rows, idx] = x.dtype.type(0) - np.cumsum(h, axis=1, dtype=x.dtype)[:, -1]  # (+0 where no term)
    g = np.asarray(g, x.dtype)
    out = out * (g.reshape(-1, 1) if reduction == "none" and g.ndim > 0 else g.reshape(()))
    return out.reshape(x.shape)


def _array(v):
    """A slot the node keeps: the saved tensor's array (or the array, or None, kept as given)."""
    return v._data if type(v) is Tensor else v


_multi_margin = Op("MultiMarginLossBackward0", _multi_margin_fwd, saves=("self",),
                   keeps={"target": "target", "weight": "weight"})


@_multi_margin.derivative
def _(ctx, grad):
    value = _multi_margin_backward_np(grad._data, ctx.self._data, _array(ctx.target), ctx.p, ctx.margin,
                                      _array(ctx.weight), ctx.reduction)
    return not_implemented(value, (grad, ctx.self), "aten::multi_margin_loss_backward")


@export(functional=True, torch=False)
def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                      reduction="mean"):
    """The multi-class hinge loss: sum over i != y of max(0, margin - x[y] + x[i])^p / C."""
    reduction = reduction_arg(reduction, size_average, reduce)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    _tensor_args("multi_margin_loss", input, target)
    if type(margin) is not float:  # (torch._C._nn.multi_margin_loss(input, target, p, margin, weight, reduction))
        passed_on("multi_margin_loss", (("margin", "Number", 4, margin),))
    check_not_differentiable(weight, "weight", "multi_margin_loss")
    nframe, dim = _frames(input)
    if not _valid(input):
        _non_empty_error(input)
    if not (target.ndim <= 1 and target.numel() == nframe):
        raise RuntimeError(
            "multi_margin_loss: target tensor should be 1-D with size equal to the number of input samples "
            f"(batch size). Expected target size [{nframe}], but got {list(target.shape)}. Input has shape "
            f"{list(input.shape)}.")
    if weight is not None and weight.numel() != dim:
        raise RuntimeError(f"inconsistent weight size, expected {dim} but got {list(weight.shape)}")
    _kernel_dtype(input, "multi_margin_loss_cpu_kernel")
    _long_target(target)
    if weight is not None and weight.dtype is not input.dtype:
        raise RuntimeError(f"expected scalar type {_scalar_name(input.dtype)} but found {_scalar_name(weight.dtype)}")
    out = _multi_margin.apply((input,), (input._data,), {
        "target": target._data, "p": int(p), "margin": float(margin),
        "weight": None if weight is None else weight._data, "reduction": reduction})
    # (target and weight saved as tensors: changed in place before the backward, PyTorch's error)
    return keep_tensor(keep_tensor(out, _multi_margin, "target", target), _multi_margin, "weight", weight)


# ---------------------------------------------------------------------------
# multilabel_margin_loss
# ---------------------------------------------------------------------------

def _multilabel_rows(x, target):
    """Per row: the targets (the entries before the first -1) and the is_target mask."""
    nframe, dim = _frames(x)
    x2 = np.ascontiguousarray(x).reshape(nframe, dim)
    t2 = np.ascontiguousarray(target).reshape(nframe, dim).astype(np.int64)
    is_target = np.zeros((nframe, dim), x.dtype)
    rows = []
    for r in range(nframe):
        stop = np.flatnonzero(t2[r] < 0)
        targets = t2[r, :stop[0]] if stop.size else t2[r]
        is_target[r, targets] = 1
        rows.append(targets)
    return x2, rows, is_target


def _multilabel_fwd(ctx, x, target, reduction):
    nframe, dim = _frames(x)
    out_shape = () if reduction != "none" or target.ndim <= 1 else (nframe,)
    if x.size == 0:
        ctx.is_target = np.zeros(target.shape, x.dtype)
        return np.zeros(out_shape, x.dtype) if reduction == "none" else np.asarray(
            np.nan if reduction == "mean" else 0, x.dtype)
    x2, rows, is_target = _multilabel_rows(x, target)
    ctx.is_target = is_target.reshape(target.shape)
    one = x.dtype.type(1)
    sums = np.zeros(nframe, np.float64)
    for r, targets in enumerate(rows):
        free = is_target[r] == 0
        terms = [z[free & (z > 0)] for z in ((one - x2[r, j]) + x2[r] for j in targets)]
        if terms:
            flat = np.concatenate(terms)
            sums[r] = np.cumsum(flat, dtype=np.float64)[-1] if flat.size else 0.0  # (in double, in order)
    if out_shape:  # (each row's double sum rounded to the input's dtype, then divided)
        return (sums.astype(x.dtype) / x.dtype.type(dim)).astype(x.dtype)
    total = np.cumsum(sums)[-1] / dim
    if reduction == "mean":
        total = total / nframe
    return np.asarray(total, x.dtype)


def _multilabel_backward_np(g, x, target, is_target, reduction):
    nframe, dim = _frames(x)
    out = np.zeros((nframe, dim), x.dtype)
    if x.size == 0:
        return out.reshape(x.shape)
    x2, rows, _ = _multilabel_rows(x, target)
    step = x.dtype.type(1.0 / (nframe * dim) if reduction == "mean" else 1.0 / dim)
    one = x.dtype.type(1)
    free_all = is_target.reshape(nframe, dim) == 0
    for r, targets in enumerate(rows):
        for j in targets:
            hit = free_all[r] & (((one - x2[r, j]) + x2[r]) > 0)
            for d in np.flatnonzero(hit):  # (the kernel's order of float additions)
                out[r, j] -= step
                out[r, d] += step
    g = np.asarray(g, x.dtype)
    out = out * (g.reshape(-1, 1) if reduction == "none" and g.ndim > 0 else g.reshape(()))
    return out.reshape(x.shape)


_multilabel = Op("MultilabelMarginLossBackward0", _multilabel_fwd, saves=("self",),
                 keeps={"target": "target", "is_target": "is_target"})


@_multilabel.derivative
def _(ctx, grad):
    value = _multilabel_backward_np(grad._data, ctx.self._data, _array(ctx.target), ctx.is_target, ctx.reduction)
    return not_implemented(value, (grad, ctx.self), "aten::multilabel_margin_loss_backward")


def _int64_item(v):
    """c10's checked conversion of a number to int64_t (``Tensor::item<int64_t>``)."""
    if v.dtype.kind == "f" and not -2.0 ** 63 <= float(v) < 2.0 ** 63:
        raise RuntimeError("value cannot be converted to type int64_t without overflow")
    return int(v)


@export(functional=True, torch=False)
def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """The multi-label hinge loss: targets are a row's leading class indices (ended by -1)."""
    reduction = reduction_arg(reduction, size_average, reduce)
    _tensor_args("multilabel_margin_loss", input, target)
    nframe, dim = _frames(input)
    if not _valid(input):
        _non_empty_error(input)
    ok = (target.ndim <= 1 and target.numel() == dim) if input.ndim <= 1 else (
        target.ndim == 2 and target.shape[0] == nframe and target.shape[1] == dim)
    if not ok:
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: {list(input.shape)}")
    if input.numel():
        t = target._data  # (target.min().item<int64_t>(): a float target's values truncated, NaN or inf refused)
        if _int64_item(t.min()) < -1 or _int64_item(t.max()) >= dim:
            raise RuntimeError("argument #2 'target' is out of range")
    _kernel_dtype(input, "multilabel_margin_loss_forward_out_frame")
    _long_target(target)
    out = _multilabel.apply((input,), (input._data,), {"target": target._data, "reduction": reduction})
    return keep_tensor(out, _multilabel, "target", target)  # (saved: changed in place, PyTorch's error)
