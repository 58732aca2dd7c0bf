"""Classification losses: nll_loss (NllLossBackward0 for 1-D/2-D input, NllLoss2DBackward0
for 4-D, NLL over any number of dims as ATen reshapes it) and cross_entropy composed as
ATen composes it (log_softmax then nll_loss; probability targets; label smoothing).

The other losses are in ``losses.py``.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.graph import save_extra
from ..tensor import Tensor, _scalar_name
from ._op import Op, export
from .nn import add_scalar, check_not_differentiable, const, div_scalar, mul_scalar, reduction_arg
from .selection import masked_fill
from .softmax import log_softmax
from ._nll_sum import cascade_total


# ---------------------------------------------------------------------------
# nll_loss (NllLossBackward0 for 1-D/2-D input, NllLoss2DBackward0 for 4-D)
# ---------------------------------------------------------------------------

def _nll_np(ctx, logp, target, weight, reduction, ignore_index):
    # logp: (C,) or (N, C, ...); target: () or (N, ...)
    x = logp[None] if logp.ndim == 1 else logp
    t = target[None] if logp.ndim == 1 else target
    if x.ndim > 2:
        x = np.moveaxis(x, 1, -1)  # classes last
    valid = t != ignore_index
    safe_t = np.where(valid, t, 0)
    C = x.shape[-1]
    bad = t[valid & ((t < 0) | (t >= C))]
    if bad.size:
        raise IndexError(f"Target {int(bad.flat[0])} is out of bounds.")
    if x.ndim == 2:
        picked = x[np.arange(x.shape[0]), safe_t]
    else:
        picked = np.take_along_axis(x, safe_t[..., None], axis=-1)[..., 0]
    w = np.ones(C, logp.dtype) if weight is None else weight.astype(logp.dtype, copy=False)
    wt = np.where(valid, w[safe_t], 0).astype(logp.dtype)
    ctx.wt, ctx.safe_t, ctx.total = wt, safe_t, wt.sum(dtype=np.float64)
    loss = -picked * wt
    if not valid.all():  # (an ignored target is skipped: its loss 0.0, whatever its input, -0.0 or inf there)
        loss = np.where(valid, loss, 0).astype(loss.dtype, copy=False)
    if reduction == "none":
        return loss.astype(logp.dtype).reshape(target.shape)
    if logp.dtype.kind == "f":  # (ATen's kernels add the picked values in their own order)
        flat_valid = valid.ravel()
        index = np.flatnonzero(flat_valid)
        vals = picked.ravel()[index]
        if weight is not None:
            vals = vals * wt.ravel()[index]
        loss_sum = cascade_total(vals, index, subtract=True)
        total = (cascade_total(wt.ravel()[index], index) if weight is not None
                 else logp.dtype.type(index.size))
    else:
        loss_sum, total = loss.sum(), wt.sum()
    if reduction == "sum":
        return np.asarray(loss_sum, logp.dtype)
    if not total:  # every target ignored: 0 / 0, nan as in PyTorch, without numpy's warning
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.asarray(loss_sum / total, logp.dtype)
    return np.asarray(loss_sum / total, logp.dtype)


def _nll_backward_fwd(ctx, g, x, target, weight, reduction, ignore_index):
    """nll_loss_backward: zeros with -w * grad_output at each row's target class (ignored rows
    stay 0), in the order of ATen's kernel: -w * g ('none'), w * -g ('sum'), w * -(g / total)."""
    C = x.shape[0] if x.ndim == 1 else x.shape[1]
    t = target[None] if x.ndim == 1 else target
    valid = t != ignore_index
    safe_t = np.where(valid, t, 0)
    dtype = x.dtype
    w = None if weight is None else weight.astype(dtype, copy=False)[safe_t]
    with np.errstate(all="ignore"):
        if reduction == "none":
            gv = g.reshape(t.shape).astype(dtype, copy=False)
            val = -gv if w is None else -w * gv
        else:
            gv = g.astype(dtype, copy=False)
            if reduction == "mean":
                index = np.flatnonzero(valid.ravel())
                total = (dtype.type(index.size) if w is None
                         else cascade_total(w.ravel()[index], index) if dtype.kind == "f"
                         else np.where(valid, w, 0).sum(dtype=dtype))
                gv = gv / total
            val = np.broadcast_to(-gv, t.shape) if w is None else w * -gv
    out = np.zeros((t.shape[0], C) + t.shape[1:], dtype)
    rows = np.nonzero(valid)
    out[(rows[0], safe_t[rows]) + rows[1:]] = np.broadcast_to(val, t.shape)[rows]
    return out[0] if x.ndim == 1 else out


def _nll_backward_op(name):
    # nll_loss_backward as an op of its own: the node a create_graph gradient shows, with edges
    # (grad_output, self); its derivative is nll_loss of the gradient (and zeros for self)
    op = Op(name, _nll_backward_fwd, inputs=("grad_output", "self"), internal=True)

    @op.derivative
    def _(ctx, grad):
        forward = _nll if op is _nll_bw else _nll2d
        target, weight = ctx.target, ctx.weight  # (the saved tensors: freed after a backward, PyTorch's error)
        g_out = forward.apply((grad,), (grad._data,), {
            "target": target._data.astype(np.int64, copy=False) if type(target) is Tensor else target,
            "weight": weight._data if type(weight) is Tensor else weight, "reduction": ctx.reduction,
            "ignore_index": ctx.ignore_index}) if ctx.needs(0) else None
        return g_out, Tensor._make(np.zeros_like(grad._data)) if ctx.needs(1) else None

    return op


def _nll_derivative(ctx, grad):
    op = _nll_bw if ctx._op is _nll else _nll2d_bw
    out = op.apply((grad, ctx.self), (grad._data, ctx.self._data), _nll_attrs(ctx))
    fn = out._grad_fn
    if fn is not None and type(fn) is op.node:  # (nll_loss_backward's node saves target and weight, as PyTorch's)
        for name in ("target", "weight"):
            saved = getattr(ctx, name)
            save_extra(fn, name, saved if type(saved) is Tensor else None)
    return out


def _nll_derivative_raw(ctx, g):
    return _nll_backward_fwd(None, g, ctx.self._data, **_nll_attrs(ctx))


def _nll_attrs(ctx):
    target, weight = ctx.target, ctx.weight  # (the saved tensors, or the call's arrays where none were saved)
    return {"target": (target._data.astype(np.int64, copy=False) if type(target) is Tensor else target),
            "weight": weight._data if type(weight) is Tensor else weight, "reduction": ctx.reduction,
            "ignore_index": ctx.ignore_index}


_nll = Op("NllLossBackward0", _nll_np, saves=("self",))
_nll.derivative(_nll_derivative)
_nll.raw_derivative(_nll_derivative_raw)
_nll2d = Op("NllLoss2DBackward0", _nll_np, saves=("self",))
_nll2d.derivative(_nll_derivative)
_nll2d.raw_derivative(_nll_derivative_raw)
_nll_bw = _nll_backward_op("NllLossBackwardBackward0")
_nll2d_bw = _nll_backward_op("NllLoss2DBackwardBackward0")


def _nll_call(op, input, target, weight, reduction, ignore_index):
    check_not_differentiable(weight, "weight", "nll_loss_forward" if op is _nll else "nll_loss2d_forward")
    out = op.apply((input,), (input._data,), {
        "target": target._data.astype(np.int64, copy=False),
        "weight": None if weight is None else weight._data,
        "reduction": reduction, "ignore_index": ignore_index})
    fn = out._grad_fn
    if fn is not None and type(fn) is op.node:  # (PyTorch saves target and weight: changed in place, its error)
        save_extra(fn, "target", target, after="self")
        save_extra(fn, "weight", weight, after="target")
    return out


def _nll_target_dtype(target):
    if target.dtype not in (dtypes.int64, dtypes.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {_scalar_name(target.dtype)}")


def _nll_kernel_dtypes(input, weight, kernel):
    """The CPU kernel's dispatch on the input's dtype, then its read of the weight's."""
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_scalar_name(input.dtype)}\'')
    if weight is not None and weight.dtype is not input.dtype:
        raise RuntimeError(f"expected scalar type {_scalar_name(input.dtype)} but found {_scalar_name(weight.dtype)}")


def _nll_nd(input, target, weight, reduction, ignore_index):
    """ATen's nll_loss_nd: 1-D/2-D -> nll_loss, 4-D -> nll_loss2d, other ranks viewed as 4-D; each
    with its meta function's checks in their order (LossNLL.cpp, LossNLL2d.cpp), then the kernel's."""
    if input.ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.ndim})")
    n_t = target.shape[0] if target.ndim else 0  # (PyTorch reads a 0-d target's sizes()[0] past its end: 0)
    if input.ndim != 1 and input.shape[0] != n_t:
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size ({n_t}).")
    if input.ndim <= 2:
        check_not_differentiable(weight, "weight", "nll_loss_forward")  # (autograd's check, before the meta's)
        if target.ndim > 1:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        _nll_target_dtype(target)
        if input.ndim == 1 and target.ndim == 1:
            if target.shape[0] != 1:
                raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: {target.shape[0]}")
            target = Tensor._make(target._data.reshape(()))
        if input.ndim == 2 and target.ndim == 0:  # (an empty batch gets here: the meta reads target.size(0))
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        C = input.shape[-1]
        if weight is not None and (weight.ndim != 1 or weight.numel() != C):
            raise RuntimeError(
                f"weight tensor should be defined either for all {C} classes or no classes but got weight tensor "
                f"of shape: {list(weight.shape)}")
        _nll_kernel_dtypes(input, weight, "nll_loss_out_frame")
        return _nll_call(_nll, input, target, weight, reduction, ignore_index)
    if input.ndim != 4:
        n, c = input.shape[0], input.shape[1]
        out_size = [n] + list(input.shape[2:])
        if tuple(target.shape[1:]) != tuple(input.shape[2:]):
            raise RuntimeError(f"Expected target size {out_size}, got {list(target.shape)}")
    check_not_differentiable(weight, "weight", "nll_loss2d_forward")
    if input.ndim == 4 and target.ndim != 3:
        raise RuntimeError(
            f"only batches of spatial targets supported (3D tensors) but got targets of dimension: {target.ndim}")
    _nll_target_dtype(target)
    if weight is not None and weight.numel() != input.shape[1]:
        raise RuntimeError("weight tensor should be defined either for all or no classes")
    if input.ndim == 4:
        if tuple(target.shape[1:]) != tuple(input.shape[2:]):
            raise RuntimeError(f"size mismatch (got input: {list(input.shape)} , target: {list(target.shape)}")
        _nll_kernel_dtypes(input, weight, "nll_loss2d_forward_out_frame")
        return _nll_call(_nll2d, input, target, weight, reduction, ignore_index)
    _nll_kernel_dtypes(input, weight, "nll_loss2d_forward_out_frame")
    flat_in = input.contiguous().view(n, c, 1, -1) if input.numel() else input.contiguous().view(n, c, 0, 0)
    flat_t = target.reshape(n, 1, -1) if target.numel() else target.reshape(n, 0, 0)
    out = _nll_call(_nll2d, flat_in, flat_t, weight, reduction, ignore_index)
    return out if reduction != "none" else out.view(*out_size)


# the signatures of the calls F.nll_loss and F.cross_entropy make (torch._C._nn's: no public torch.*
# function to generate them from); ignore_index is a SymInt (a one-element integral tensor too)
_NLL_ND = "(Tensor input, Tensor target, Tensor weight = None, int reduction = 1, int ignore_index = -100)"
_CROSS_ENTROPY = ("(Tensor input, Tensor target, Tensor weight = None, int reduction = 1, int ignore_index = -100, "
                  "float label_smoothing = 0.0)")
_ENUM = {"none": 0, "mean": 1, "sum": 2}


def _parsed(name, text, input, target, weight, reduction, ignore_index, *more):
    """The parser's checks of F's call of ``name`` (after F's own of the reduction), in the order of
    its arguments; ``ignore_index`` as the int it converts to."""
    from ._pyargs import signature_error
    message = signature_error(name, text, (input, target, weight, _ENUM[reduction], ignore_index, *more), {},
                              ((), ("ignore_index",)))
    if message is not None:
        raise TypeError(message)
    if isinstance(ignore_index, Tensor):
        return ignore_index.item()
    if not -2 ** 63 <= ignore_index < 2 ** 63:
        raise ValueError("Overflow when unpacking long long")
    return int(ignore_index)


@export(functional=True, torch=False)
def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    reduction = reduction_arg(reduction, size_average, reduce)
    ignore_index = _parsed("nll_loss_nd", _NLL_ND, input, target, weight, reduction, ignore_index)
    return _nll_nd(input, target, weight, reduction, ignore_index)


# ---------------------------------------------------------------------------
# cross_entropy
# ---------------------------------------------------------------------------

def _class_view(weight, ndim, class_dim):
    if ndim <= 1:
        return weight
    shape = [1] * ndim
    shape[class_dim] = weight.shape[0]
    return weight.view(*shape)


def _ce_prob_target(input, target, weight, reduction, label_smoothing):
    class_dim = 0 if input.ndim == 1 else 1
    C = input.size(class_dim)  # (a 0-d input: "Dimension specified as 1 but tensor has no dimensions")
    if weight is not None and (weight.ndim != 1 or weight.numel() != C):
        raise RuntimeError(
            f"cross_entropy: weight tensor should be defined either for all {C} classes or no classes but got "
            f"weight tensor of shape: {list(weight.shape)}")
    logp = log_softmax(input, class_dim)
    if label_smoothing > 0:
        if label_smoothing > 1:
            raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {float(label_smoothing):g}")
        target = add_scalar(mul_scalar(target, 1 - label_smoothing), label_smoothing / C)
    prod = logp * target
    if weight is not None:
        prod = prod * _class_view(weight, input.ndim, class_dim)
    if reduction == "none":
        return -prod.sum(class_dim)
    if reduction == "mean" and input.numel() == 0:  # -(sum).fill_(nan): NegBackward0 over FillBackward2
        return -prod.sum().fill_(float("nan"))
    total = -prod.sum()
    if reduction == "sum":
        return total
    return div_scalar(total, input.numel() // C)


def _ce_label_smoothing(input, target, weight, reduction, ignore_index, label_smoothing):
    class_dim = 0 if input.ndim == 1 else 1
    logp = log_softmax(input, class_dim)
    nll = _nll_nd(logp, target, weight, reduction, ignore_index)
    C = logp.shape[class_dim]
    if weight is not None:
        smooth = -(logp * _class_view(weight, logp.ndim, class_dim)).sum(class_dim)
    else:
        smooth = -logp.sum(class_dim)
    ignore = target._data == ignore_index
    smooth = masked_fill(smooth, const(ignore), 0.0)
    if reduction == "mean":
        if weight is not None:
            picked = weight._data[target._data[~ignore].ravel()]
            ret = smooth.sum() / const(np.asarray(picked.sum(), weight._data.dtype))
        else:
            ret = smooth.sum() / const(np.asarray((~ignore).sum(), np.int64))
    elif reduction == "sum":
        ret = smooth.sum()
    else:
        ret = smooth
    return mul_scalar(nll, 1 - label_smoothing) + mul_scalar(ret, label_smoothing / C)


@export(functional=True, torch=False)
def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    reduction = reduction_arg(reduction, size_average, reduce)
    ignore_index = _parsed("cross_entropy_loss", _CROSS_ENTROPY, input, target, weight, reduction, ignore_index,
                           label_smoothing)
    label_smoothing = float(label_smoothing)
    if input.shape == target.shape:  # class probabilities
        if not target.dtype.is_floating_point:
            raise RuntimeError(
                f"Expected floating point type for target with class probabilities, got {_scalar_name(target.dtype)}")
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        return _ce_prob_target(input, target, weight, reduction, label_smoothing)
    if label_smoothing > 0:
        if label_smoothing > 1:
            raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {float(label_smoothing):g}")
        return _ce_label_smoothing(input, target, weight, reduction, ignore_index, label_smoothing)
    class_dim = 0 if input.ndim == 1 else 1
    if input.ndim == 0:
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got 1)")
    return _nll_nd(log_softmax(input, class_dim), target, weight, reduction, ignore_index)
