"""``Tensor.unfold(dimension, size, step)``: the windows of ``size`` elements every ``step``
along a dimension, as a view (the window count replaces the dimension, the window is a new
last dimension: strides ``stride * step`` and ``stride``), node ``UnfoldBackward0``.

Its backward, ``unfold_backward``, adds each window's gradient into zeros of the input's
shape in window order, as ATen's kernel sums an element's windows (windows that do not overlap: written) (``UnfoldBackwardBackward0``:
its own derivative unfolds the gradient again). Not ``F.unfold`` (im2col, in ``nn``).
"""

from __future__ import annotations

import numpy as np

from .._zero import view_of
from ..tensor import _wrap_dim
from ._layout import numpy_strides, torch_strides
from ._op import Op, method
from .views import _view


def _windows(a, dim, size, step):
    """The writeable numpy view of ``a``'s windows (a 0-d ``a``: ``size`` (0 or 1) times its one element)."""
    if a.ndim == 0:
        return a.reshape(1)[:size]
    n = (a.shape[dim] - size) // step + 1
    shape = a.shape[:dim] + (n,) + a.shape[dim + 1:] + (size,)
    have = torch_strides(a)
    strides = numpy_strides(shape, have[:dim] + (have[dim] * step,) + have[dim + 1:] + (have[dim],))
    return view_of(a, np.lib.stride_tricks.as_strided(a, shape, strides, writeable=a.flags.writeable))


_unfold = Op("UnfoldBackward0", lambda ctx, a, dim, size, step: _windows(a, dim, size, step), jvp="linear")


def _unfold_backward_fwd(ctx, g, shape, dim, size, step):
    out = np.zeros(shape, g.dtype)
    if not shape:
        if g.size:
            out[()] = g.reshape(())
        return out
    lanes = np.moveaxis(out, dim, -1)  # (a view: writes reach ``out``)
    wins = np.moveaxis(g, dim, -2)  # (..., window, offset)
    n = wins.shape[-2]
    # each element takes its windows' gradients in window order (ATen's loop): offsets from the
    # last to the first visit an element's windows from the first to the last
    # (windows that do not overlap, step >= size: each element is written once, not added, -0.0 kept)
    for j in range(size - 1, -1, -1):
        if step >= size:
            lanes[..., j: j + (n - 1) * step + 1: step] = wins[..., :, j]
        else:
            lanes[..., j: j + (n - 1) * step + 1: step] += wins[..., :, j]
    return out


_unfold_backward = Op("UnfoldBackwardBackward0", _unfold_backward_fwd, internal=True, jvp="linear")
_unfold_backward.derivative(lambda ctx, grad: unfold(grad, ctx.dim, ctx.size, ctx.step))


@_unfold.derivative
def _(ctx, grad):
    return _unfold_backward.apply((grad,), (grad._data,), {"shape": tuple(ctx.input_shape), "dim": ctx.dim,
                                                           "size": ctx.size, "step": ctx.step})


@method("unfold")
def unfold(input, dimension, size, step):
    for name, v in (("dimension", dimension), ("size", size), ("step", step)):
        if type(v) is bool or not hasattr(v, "__index__"):
            raise TypeError(name)  # (the parser's error replaces it: agrad/ops/_argcheck.py)
    dim = _wrap_dim(int(dimension), max(input.ndim, 1))
    size, step = int(size), int(step)
    length = input._data.shape[dim] if input.ndim else 1
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {dim} is {length} but size is {size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    return _view(_unfold, input, input._data, {"dim": dim, "size": size, "step": step})
