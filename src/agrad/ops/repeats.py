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

from ..tensor import Tensor, _scalar_name, _wrap_dim, _wrap_dim_no_scalar
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
    if output_size is not None:  # (the result's empty({output_size}), then compute_cpu's checks: the size first)
        total = int(output_size)
        if total < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {total}: [{total}]")
        if total != int(r.sum()):
            raise RuntimeError("allocated size does not match required size")
    if (r < 0).any():
        raise RuntimeError("repeats can not be negative")
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
    y = x.unsqueeze(d + 1)  # (before the output_size check: a 0-d input with a dim raises here)
    size = x.shape[d] * repeats if x.ndim else repeats
    if output_size is not None and int(output_size) != size:
        raise RuntimeError(f"repeat_interleave: Invalid output_size, expected {size} but got {int(output_size)}")
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
    """ATen's repeat_interleave_symint: the repeats' rank first, then input.sym_size(dim) of the dim as given
    (a 0-d input with a dim: "Dimension specified as 0 but tensor has no dimensions"), named unwrapped in
    the size message, and index_select along it."""
    x = input if dim is not None else input.flatten()
    dim = 0 if dim is None else int(dim)
    if repeats.ndim > 1:
        raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
    n = x.shape[_wrap_dim_no_scalar(dim, x.ndim)]
    if repeats.ndim == 0 or repeats.shape[0] == 1:
        repeats = repeats.reshape(1).expand(n)
    elif repeats.shape[0] != n:
        raise RuntimeError("repeats must have the same size as input along dim, but got "
                           f"repeats.size(0) = {repeats.shape[0]} and input.size({dim}) = {n}")
    return x.index_select(dim, _indices(repeats, output_size))
