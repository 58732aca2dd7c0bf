"""repeat_interleave: ATen's composite of views, a clone and index_select (no node of its own).

- ``repeat_interleave(repeats: int, dim=None, *, output_size=None)``: flatten (no dim), then
  ``unsqueeze(dim + 1).expand(...).clone().view(...)`` (ViewBackward0 over CloneBackward0,
  ExpandBackward0, UnsqueezeBackward0);
- ``repeat_interleave(repeats: Tensor, dim=None, *, output_size=None)``: ``index_select`` with
  the indices ``repeat_interleave(repeats)`` makes (IndexSelectBackward0);
- ``torch.repeat_interleave(repeats: Tensor, *, output_size=None)``: those indices, 0, 1, 1, ...
  for int64 or int32 repeats.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..tensor import Tensor, _scalar_name, _wrap_dim
from ._op import export, method
from .memory_format import contiguous_format


def _indices(repeats, output_size=None):
    """repeat_interleave(repeats): each position i, repeats[i] times (ATen's repeat_interleave_cpu)."""
    if repeats._data.dtype not in (np.int64, np.int32):
        raise NotImplementedError(f'"repeat_interleave_cpu" not implemented for \'{_scalar_name(repeats.dtype)}\'')
    if repeats.ndim != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    r = repeats._data
    if r.size == 0:
        return Tensor._make(np.zeros(0, r.dtype))
    if (r < 0).any():
        raise RuntimeError("repeats can not be negative")
    if output_size is not None and int(output_size) != int(r.sum()):
        raise RuntimeError("allocated size does not match required size")
    return Tensor._make(np.repeat(np.arange(r.size, dtype=r.dtype), r))


@export()
def repeat_interleave(input=None, repeats=None, dim=None, *, output_size=None):
    if input is None and isinstance(repeats, Tensor) and dim is None:  # torch.repeat_interleave(repeats=...)
        input, repeats = repeats, None
    if repeats is None:
        if not isinstance(input, Tensor):
            raise TypeError("repeat_interleave(): argument 'repeats' (position 1) must be Tensor, not "
                            + type(input).__name__)
        return _indices(input, output_size)
    if isinstance(repeats, Tensor):
        return _by_tensor(input, repeats, dim, output_size)
    if isinstance(repeats, bool) or not isinstance(repeats, numbers.Integral):
        raise TypeError(
            "repeat_interleave() received an invalid combination of arguments - got "
            f"({type(repeats).__name__}), but expected one of:\n"
            " * (Tensor repeats, int dim = None, *, int output_size = None)\n"
            " * (int repeats, int dim = None, *, int output_size = None)\n")
    repeats = int(repeats)
    x = input if dim is not None else input.flatten()
    d = _wrap_dim(0 if dim is None else dim, input.ndim)
    if repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    size = x.shape[d] * repeats if x.ndim else repeats
    if output_size is not None and int(output_size) != size:
        raise RuntimeError(f"repeat_interleave: Invalid output_size, expected {size} but got {int(output_size)}")
    y = x.unsqueeze(d + 1)
    shape = list(y.shape)
    shape[d + 1] = repeats
    final = list(x.shape)
    final[d] = size
    return y.expand(shape).clone(memory_format=contiguous_format).view(final)  # (ATen's clone: contiguous)


@method("repeat_interleave")
def _repeat_interleave_method(self, repeats=None, dim=None, *, output_size=None):
    # (the method has no repeats-only overload: x.repeat_interleave() is the parser's error)
    if repeats is None:
        raise TypeError(
            "repeat_interleave() received an invalid combination of arguments - got (), but expected one of:\n"
            " * (Tensor repeats, int dim = None, *, int output_size = None)\n"
            " * (int repeats, int dim = None, *, int output_size = None)\n")
    return repeat_interleave(self, repeats, dim, output_size=output_size)


def _by_tensor(input, repeats, dim, output_size):
    x = input if dim is not None else input.flatten()
    d = 0 if dim is None else _wrap_dim(dim, input.ndim)
    n = x.shape[d] if x.ndim else 1
    if repeats.ndim == 0 or (repeats.ndim == 1 and repeats.shape[0] == 1):
        repeats = repeats.reshape(1).expand(n)
    elif repeats.ndim == 1:
        if repeats.shape[0] != n:
            raise RuntimeError("repeats must have the same size as input along dim, but got "
                               f"repeats.size(0) = {repeats.shape[0]} and input.size({d}) = {n}")
    else:
        raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
    return x.index_select(d, _indices(repeats, output_size))
