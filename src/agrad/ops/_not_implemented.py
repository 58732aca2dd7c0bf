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
    if not is_recording(inputs) or value.dtype.kind not in "fc":  # (nothing recorded for an integer result)
        return Tensor._make(value)
    out = _not_implemented.apply(inputs, [t._data for t in inputs], {"value": value, "aten": aten})
    out.grad_fn._seq = _INF
    return out


def recorded_out(fname: str, result: Tensor, input: Tensor, out: Tensor, dtype_error) -> Tensor:
    """``result`` (computed without a graph) written into ``out=`` as the out overloads PyTorch's
    autograd does not know (``softmax.int_out``, ``conj_physical.out``, ``floor_divide.out``,
    ``heaviside.out``: autograd's not-implemented fallback) write it: when anything requires grad, an ``out`` that autograd's in-place check refuses (a leaf that
    requires grad, its view, a view made under no_grad) is refused under the aten name (others are
    written, a mutated input of the node), then ``dtype_error(result, out)`` (an exception, or None when out's
    dtype will do); an ``input`` (or one of a tuple of inputs) that requires grad leaves ``out`` with a
    NotImplemented node (through CopySlices when ``out`` is a view), whose backward raises."""
    from ._op import finish_out, inplace
    from ._outs import fallback_refusal

    inputs = input if isinstance(input, tuple) else (input,)
    recorded = fallback_refusal(fname, inputs, (out,))
    error = dtype_error(result, out) if result.dtype is not out.dtype else None
    if error is not None:
        raise error
    if not recorded:
        return finish_out(fname, result, out)
    if out.shape != result.shape:  # (resized first, as resize_output does)
        from ._outs import _resize_out, warn_resized
        if out._data.size:
            warn_resized(out.shape, result.shape)
        _resize_out(out, result._data)
    value = result._data

    def write(o, *xs):  # (the node's inputs: the op's tensors in the schema's order, out last)
        return not_implemented(value, (*xs, o), f"aten::{fname}")

    write.__name__ = fname
    return inplace(write, overlap="allow")(out, *inputs)
