"""F.linear_cross_entropy: cross_entropy of a linear layer's logits, PyTorch 2.13's Python front.

Without ``options`` it is PyTorch's composite: ``linear(input, weight, bias)`` (a K-dimensional
weight ``(C, *out_features, in_features)`` flattened to 2-D first), the logits reshaped to
``(*batch, C, *out_features)``, then ``cross_entropy`` (its nodes and numbers).  PyTorch's chunked
path (``options=LinearCrossEntropyOptions(...)``, a custom op that never builds the whole logits
tensor) is not written in agrad: such a call raises NotImplementedError.
"""

from __future__ import annotations

import math

from ._op import FUNCTIONAL, export


@export(functional=True, torch=False)
def linear_cross_entropy(input, linear_weight, target, *, linear_bias=None, weight=None, reduction="mean",
                         ignore_index=None, label_smoothing=0.0, options=None):
    """cross_entropy(linear(input, linear_weight, linear_bias), target, ...)."""
    if input.dim() < 1 or input.dim() > 2:
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {input.dim()}")
    if linear_weight.dim() < 2:
        raise RuntimeError(f"expected linear_weight with dimensionality at least 2, got {linear_weight.dim()}")
    num_batches = tuple(input.shape[:-1])
    in_features = input.shape[-1]
    if in_features != linear_weight.shape[-1]:
        raise RuntimeError("expected equal input and linear_weight last dimensions (in_features), "
                           f"got {input.shape[-1]} and {linear_weight.shape[-1]}, respectively")
    num_classes = linear_weight.shape[0]
    out_features = tuple(linear_weight.shape[1:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != (num_classes, *out_features):
        raise RuntimeError(f"expected linear_bias shape {(num_classes, *out_features)}, got {tuple(linear_bias.shape)}")
    if len(out_features) > 0 and len(num_batches) == 0:
        raise RuntimeError(f"K-dimensional loss defined by linear_weight shape {tuple(linear_weight.shape)} requires"
                           f" batched input, (N, {in_features}), got unbatched input with shape {tuple(input.shape)}")
    logits_shape = (*num_batches, num_classes, *out_features)
    if tuple(target.shape) == logits_shape and ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains probabilities")
    ignore_index = ignore_index if ignore_index is not None else -100
    if options is not None:
        raise NotImplementedError("linear_cross_entropy with options= (PyTorch's chunked custom op) is not "
                                  "implemented in agrad; call it without options")
    if out_features:
        linear_weight = linear_weight.reshape((math.prod(out_features, start=num_classes), in_features))
        if linear_bias is not None:
            linear_bias = linear_bias.reshape(math.prod(out_features, start=num_classes))
    logits = FUNCTIONAL["linear"](input, linear_weight, linear_bias).reshape(logits_shape)
    return FUNCTIONAL["cross_entropy"](logits, target, weight=weight, reduction=reduction, ignore_index=ignore_index,
                                       label_smoothing=label_smoothing)
