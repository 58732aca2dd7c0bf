"""Results PyTorch records but cannot differentiate: a ``NotImplemented`` node.

``x // 2`` on a float tensor that requires grad gives ``grad_fn=<NotImplemented>``
in PyTorch: the result requires grad, its node's ``next_functions`` list only the
inputs that require grad, and a backward pass through it raises
``derivative for aten::floor_divide is not implemented``. Like AccumulateGrad, the node
has no sequence number in PyTorch (UINT64_MAX): a double-backward graph lists it after the
nodes recorded in the same pass (``F.hardsigmoid``'s gradient times the outer ``MulBackward0``).
"""

from __future__ import annotations

from ..autograd.graph import _INF
from ..tensor import Tensor
from ._op import Op, is_recording

_not_implemented = Op("torch::autograd::NotImplemented", lambda ctx, *arrays, value, aten: value, inputs=(),
                      jvp="unsupported")


@_not_implemented.derivative
def _(ctx, grad):
    raise RuntimeError(f"derivative for {ctx.aten} is not implemented")


def not_implemented(value, tensors, aten: str) -> Tensor:
    """The array ``value`` as the result of ``aten`` on ``tensors`` (Python numbers allowed)."""
    inputs = tuple(t for t in tensors if isinstance(t, Tensor) and t._requires_grad)
    if not is_recording(inputs):
        return Tensor._make(value)
    out = _not_implemented.apply(inputs, [t._data for t in inputs], {"value": value, "aten": aten})
    out.grad_fn._seq = _INF
    return out
