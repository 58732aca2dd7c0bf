"""Memory formats: ``torch.contiguous_format``, ``torch.channels_last``, ``torch.channels_last_3d``
and ``torch.preserve_format``, and what takes them: ``clone``, ``contiguous``, ``is_contiguous``,
``to`` and the ``*_like`` factories (``empty``'s in factories.py).

A memory format names an order of a tensor's elements in memory: C order, or for a 4-D (5-D)
tensor NHWC (NDHWC), the channel dim fastest. The values never change with it, only the
strides (``stride()``, ``is_contiguous()``) and the layout of what ops compute from the tensor
(convolution, pooling and normalisation keep a channels-last input's format, see _layout).
"""

from __future__ import annotations

import numpy as np

from . import _layout
from ._op import FUNCTIONS, export, method
from .views import _clone


class memory_format:
    """torch.memory_format: one of four named values."""

    __slots__ = ("_name",)

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return f"torch.{self._name}"

    def __reduce__(self):
        return self._name


contiguous_format = memory_format("contiguous_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")
preserve_format = memory_format("preserve_format")
FUNCTIONS["memory_format"] = memory_format
for _fmt in (contiguous_format, channels_last, channels_last_3d, preserve_format):
    FUNCTIONS[_fmt._name] = _fmt

#: each format's dims slowest first (None: C order), by rank
_RANK = {"channels_last": 4, "channels_last_3d": 5}


def checked(fmt, fname):
    """``fmt`` as the parser takes a ``memory_format=`` argument (None stays None)."""
    if fmt is not None and not isinstance(fmt, memory_format):
        raise TypeError(f"{fname}(): argument 'memory_format' must be torch.memory_format, not {type(fmt).__name__}")
    return fmt


def order(shape, fmt):
    """The dims of a tensor of ``shape`` slowest first in the format ``fmt`` (None: C order), with
    PyTorch's error for a rank the format cannot take."""
    rank = _RANK.get(fmt._name)
    if rank is None:
        return None
    if len(shape) != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {fmt._name} format")
    return [0, *range(2, rank), 1]


def _is_contiguous_in(a, fmt) -> bool:
    """c10's compute_contiguous / compute_channels_last_contiguous_2d/3d: the strides of the dims
    of more than one element are the format's dense ones."""
    if not isinstance(a, np.ndarray):  # lazy (dask) data has no strides (a ZeroTensor's array has)
        return fmt is not channels_last and fmt is not channels_last_3d
    if fmt is channels_last or fmt is channels_last_3d:
        if a.ndim != _RANK[fmt._name]:
            return False
        dims = [1, *range(a.ndim - 1, 1, -1), 0]
    else:
        if a.size == 0:
            return True
        dims = list(range(a.ndim - 1, -1, -1))
    strides = [s // a.itemsize for s in _layout.torch_strides(a)]
    expected = 1
    for d in dims:
        if a.shape[d] != 1:
            if strides[d] != expected:
                return False
            expected *= a.shape[d]
    return True


def laid_out(values, fmt):
    """A copy of ``values`` in the format ``fmt`` (contiguous: C order)."""
    dims = order(values.shape, fmt)
    fresh = np.empty([values.shape[d] for d in dims], values.dtype).transpose(np.argsort(dims)) \
        if dims is not None else np.empty(values.shape, values.dtype)
    fresh[...] = values
    if not fresh.size and dims is not None:  # (c10's channels-last strides: products of the sizes, 0 too)
        return _layout.with_empty_strides(fresh, _layout.ordered_strides(fresh.shape, dims, fresh.itemsize))
    return fresh


def drawn_in(values, shape, fmt):
    """``values`` (one-dimensional, in memory order) as an array of ``shape`` in the format ``fmt``:
    where a factory puts the numbers it draws for a tensor it allocates so."""
    dims = order(shape, fmt)
    if dims is None:
        return values.reshape(shape)
    out = values.reshape([shape[d] for d in dims]).transpose(np.argsort(dims))
    return out if out.size else _layout.with_empty_strides(out, _layout.ordered_strides(shape, dims, out.itemsize))


def explicit(fmt, fname):
    """``fmt`` when it asks for a format of its own (not None or preserve_format)."""
    fmt = checked(fmt, fname)
    return None if fmt is None or fmt is preserve_format else fmt


# ---------------------------------------------------------------------------------------------

@export(method=True)
def clone(input, *, memory_format=None):
    fmt = explicit(memory_format, "clone")
    if fmt is None:
        return _clone(input)
    if fmt is contiguous_format:
        return _clone(input, contiguous=True)
    order(input.shape, fmt)
    return _clone(input, fmt=fmt._name)


@method("contiguous")
def contiguous(input, *, memory_format=None):
    """The tensor itself when it is contiguous in ``memory_format`` (C order by default), else a
    copy that is (CloneBackward0); preserve_format only a tensor contiguous in C order (itself)."""
    fmt = checked(memory_format, "contiguous")
    if fmt is preserve_format:
        if _is_contiguous_in(input._data, contiguous_format):
            return input
        raise RuntimeError("preserve memory format is unsupported by the contiguous operator")
    fmt = contiguous_format if fmt is None else fmt
    order(input.shape, fmt)
    if _is_contiguous_in(input._data, fmt):
        return input
    return _clone(input, contiguous=True) if fmt is contiguous_format else _clone(input, fmt=fmt._name)


@method("is_contiguous")
def is_contiguous(input, *, memory_format=None):
    fmt = checked(memory_format, "is_contiguous")
    return _is_contiguous_in(input._data, contiguous_format if fmt in (None, preserve_format) else fmt)
