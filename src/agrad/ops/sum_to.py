"""Tensor.sum_to_size: a broadcast tensor summed back down to a size, as the engine sums
gradients (``SumToSizeBackward0`` outside a recorded graph; ATen's sum_to, whose ``sum``
and ``view`` nodes the graph shows, when it is recorded).
"""

from __future__ import annotations

import numpy as np

from .._cascade import cascade_sum
from ..autograd import graph
from ._layout import c_order
from ._op import Op, method
from .views import _sizes

_add_reduce = np.add.reduce  # what np.sum calls, without its Python wrapper


def _sum_to_fwd(ctx, a, axes, shape):
    out = cascade_sum(a, axes, True)  # PyTorch's order of additions, where it is known
    if out is not None:
        return c_order(out).reshape(shape)  # (a sum's result: contiguous)
    try:
        if not shape:
            return _add_reduce(a, axis=None)
        return c_order(_add_reduce(a, axis=axes, keepdims=True)).reshape(shape)
    except TypeError:
        if type(a) is np.ndarray:
            raise
        # lazy (dask) data: np.sum, which dispatches (ufunc.reduce does not)
        return np.sum(a, axis=None if not shape else axes, keepdims=bool(shape)).reshape(shape)


_sum_to = Op("SumToSizeBackward0", _sum_to_fwd, internal=True, jvp="linear")


@_sum_to.derivative
def _(ctx, grad):
    return grad.expand(ctx.input_shape)


@method("sum_to_size")
def sum_to_size(input, *size):
    """Sum a broadcast tensor back down to ``size`` (what the engine does to gradients)."""
    shape = _sizes(size)
    have = input._data.shape
    lead = len(have) - len(shape)
    if lead < 0:
        raise RuntimeError(f"size {{{list(shape)}}} is not expandable to size {{{list(have)}}}.")
    axes = tuple(range(lead)) + tuple(
        i + lead for i, s in enumerate(shape) if s == 1 and have[i + lead] != 1)
    for i, s in enumerate(shape):
        if s != 1 and s != have[i + lead]:
            raise RuntimeError(f"size {{{list(shape)}}} is not expandable to size {{{list(have)}}}.")
    if not axes and shape:  # (to size (): ATen's sum_to sums even a 0-d tensor, SumBackward0 and all)
        return input.reshape(shape) if have != shape else input
    if (input._requires_grad and graph._state["enabled"]) or input._data.dtype.kind in "biu":
        # recorded (a gradient taken with create_graph): ATen's sum_to, whose nodes the graph shows;
        # integers and bools: sum's promotion to int64
        out = input.sum(axes, keepdim=True) if shape else input.sum()
        return out.view(shape) if lead and shape else out
    if lead and shape:  # summed with keepdim, then viewed without the leading dims: a view, as ATen's
        kept = tuple(1 if i in axes else n for i, n in enumerate(have))
        return _sum_to.apply((input,), (input._data,), {"axes": axes, "shape": kept}).view(shape)
    return _sum_to.apply((input,), (input._data,), {"axes": axes, "shape": shape})
