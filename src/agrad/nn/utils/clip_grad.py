"""Gradient clipping, as PyTorch's single-tensor (foreach=False) path computes it."""

from __future__ import annotations

import math

from ...autograd import grad_mode
from ...tensor import Tensor


def _grads(parameters):
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    params = list(parameters)
    return params, [p.grad for p in params if p.grad is not None]


def _norm_fn():
    from ...linalg import vector_norm
    return vector_norm


def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The norm of the norms of ``tensors`` (each taken in its own dtype)."""
    from ...ops import FUNCTIONS
    if isinstance(tensors, Tensor):
        tensors = [tensors]
    tensors = list(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return FUNCTIONS["tensor"](0.0)
    vector_norm = _norm_fn()
    norms = [vector_norm(g, norm_type) for g in tensors]
    total = vector_norm(FUNCTIONS["stack"](norms), norm_type)
    if error_if_nonfinite and (bool(total.isnan()) or bool(total.isinf())):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, "
            "so it cannot be clipped. To disable this error and scale the gradients by the "
            "non-finite norm anyway, set `error_if_nonfinite=False`")
    return total


def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    """Scale gradients by max_norm / (total_norm + 1e-6), clamped to at most 1."""
    _, grads = _grads(parameters)
    if not grads:
        return
    clip_coef = max_norm / (total_norm + 1e-6)
    clip_coef_clamped = clip_coef.clamp(max=1.0)
    for g in grads:
        g.mul_(clip_coef_clamped.to(g.dtype))


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False,
                    foreach=None):
    """Clip the gradients' total norm to ``max_norm`` in place; returns the total norm."""
    with grad_mode.no_grad():
        params, grads = _grads(parameters)
        total = get_total_norm(grads, norm_type, error_if_nonfinite)
        clip_grads_with_norm_(params, max_norm, total)
    return total


def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamp every gradient element into [-clip_value, clip_value] in place."""
    clip_value = float(clip_value)
    with grad_mode.no_grad():
        _, grads = _grads(parameters)
        for g in grads:
            g.clamp_(min=-clip_value, max=clip_value)


clip_grad_norm = clip_grad_norm_
del math
