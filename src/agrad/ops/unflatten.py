"""unflatten: one dim split into ``sizes`` (a view); ``Tensor.unflatten`` checks its sizes first."""

from __future__ import annotations

import math

from ..tensor import _wrap_dim
from ._op import export, method
from .views import _fmt


@method("unflatten")
def _unflatten_method(input, dim, sizes):
    """Tensor.unflatten (torch/_tensor.py): its empty-sizes check before ATen wraps the dim."""
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    return unflatten(input, dim, sizes)


@export()
def unflatten(input, dim, sizes):
    sizes = [int(s) for s in sizes]
    d = _wrap_dim(dim, input.ndim)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    if input.ndim == 0:  # (PyTorch's C++ frames follow its text: difftest and the goldens cut them)
        raise RuntimeError("unflatten got an unexpected error:\nDimension specified as 0 but tensor has no dimensions")
    size = input._data.shape[d]
    if sizes.count(-1) > 1:
        raise RuntimeError("unflatten got an unexpected error:\nonly one dimension can be inferred")
    if -1 in sizes:
        known = math.prod(s for s in sizes if s != -1)
        if known == 0 or size % known:
            raise RuntimeError(f"unflatten: Provided sizes {_fmt(sizes)} don't multiply up to the size of dim "
                               f"{d} ({size}) in the input tensor")
        sizes[sizes.index(-1)] = size // known
    elif math.prod(sizes) != size:
        raise RuntimeError(f"unflatten: Provided sizes {_fmt(sizes)} don't multiply up to the size of dim "
                           f"{d} ({size}) in the input tensor")
    shape = input._data.shape[:d] + tuple(sizes) + input._data.shape[d + 1:]
    return input.view(shape)
