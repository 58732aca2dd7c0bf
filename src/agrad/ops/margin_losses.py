"""Margin losses ATen or F write as composites of other ops: triplet_margin_loss,
triplet_margin_with_distance_loss, multilabel_soft_margin_loss.

``triplet_margin_loss`` is ATen's ``clamp_min(margin + d(a, p) - d(a, n), 0)``
with ``d`` = ``pairwise_distance`` (NormBackward1 nodes); ``swap`` takes the
``minimum`` of d(a, n) and d(p, n); the reduction as every loss's.
"""

from __future__ import annotations

from ..tensor import Tensor
from ._argcheck import _NUMBERS, _raise_parser_error
from ._op import export
from .activations import logsigmoid
from .nn import add_scalar, apply_reduction, aten_reduction, pairwise_distance, reduction_arg
from .selection import clamp_min


def _triplet_margin(anchor, positive, negative, margin, p, eps, swap, reduction):
    a, pd, nd = anchor.ndim, positive.ndim, negative.ndim
    if not a == pd == nd:
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {a}D, positive {pd}D, and negative {nd}D inputs")
    from .comparison import minimum

    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = minimum(dist_neg, pairwise_distance(positive, negative, p, eps))
    out = clamp_min(add_scalar(dist_pos, float(margin)) - dist_neg, 0)  # (margin + d_pos in C++: AddBackward1)
    return apply_reduction(out, reduction)


@export(functional=True, torch=False)
def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    """max(d(a, p) - d(a, n) + margin, 0), d the p-norm distance, reduced."""
    reduction = reduction_arg(reduction, size_average, reduce)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    if type(margin) not in _NUMBERS or type(p) not in _NUMBERS or type(eps) not in _NUMBERS:  # (its parse)
        enum = {"none": 0, "mean": 1, "sum": 2}.get(reduction, reduction)
        _raise_parser_error("torch.triplet_margin_loss", (anchor, positive, negative, margin, p, eps, swap, enum), {})
    try:
        return _triplet_margin(anchor, positive, negative, margin, p, eps, swap, reduction)
    except Exception:  # (F's calls torch.triplet_margin_loss: its parser's TypeError first)
        enum = {"none": 0, "mean": 1, "sum": 2}[reduction]
        _raise_parser_error("torch.triplet_margin_loss", (anchor, positive, negative, margin, p, eps, swap, enum), {})
        raise


@export("triplet_margin_loss")
def torch_triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, reduction=0):
    return _triplet_margin(anchor, positive, negative, margin, p, eps, swap, aten_reduction(reduction))


@export(functional=True, torch=False)
def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0, swap=False,
                                      reduction="mean"):
    """The triplet loss with any distance (default: pairwise_distance): F's composite."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    a, pd, nd = anchor.ndim, positive.ndim, negative.ndim
    if not a == pd == nd:
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {a}D, positive {pd}D, and negative {nd}D inputs")
    from .comparison import minimum

    distance = distance_function if distance_function is not None else pairwise_distance
    dist_pos = distance(anchor, positive)
    dist_neg = distance(anchor, negative)
    if swap:
        dist_neg = minimum(dist_neg, distance(positive, negative))
    loss = clamp_min(margin + dist_pos - dist_neg, 0)
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return loss.mean()
    return loss


@export(functional=True, torch=False)
def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """The multi-label one-versus-all logistic loss, averaged over the classes: F's composite."""
    if size_average is not None or reduce is not None:
        reduction = reduction_arg(reduction, size_average, reduce)
    if not isinstance(input, Tensor):  # (F's logsigmoid(input): its parser's TypeError)
        _raise_parser_error("F.logsigmoid", (input,), {})
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.ndim - 1
    C = input.size(class_dim)
    loss = loss.sum(dim=class_dim) / C
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(reduction + " is not valid")
