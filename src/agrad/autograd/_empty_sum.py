"""InputBuffer's accumulation of two empty gradients of one input (engine._plus): where the older one,
``old``, holds its storage alone (PyTorch's can_accumulate_inplace: dense, as every empty tensor is, its
TensorImpl's and its storage's last reference), ``old.add_(var)`` keeps old's strides; else ``old + var``
is a new tensor, contiguous from TensorIterator's fast set-up (every empty tensor is contiguous).

An array stands for a tensor that holds its storage alone when it is a kernel's fresh result (maybe
restrided by numpy's as_strided to carry PyTorch's strides: _layout.carried), not a view of another
array: a view (mT, a slice, an expand of the seed) shares its base's storage, and a gradient passed on to
two inputs (x - x's, or views of it: x.mT + x.mT, stack's unbind) is held twice.
"""

from __future__ import annotations

import numpy as np

_ndarray = np.ndarray


def _own(a) -> bool:
    """``a`` is a fresh array, or numpy's as_strided wrapper of a fresh empty array."""
    base = a.base
    if base is None:
        return True
    if type(base) is _ndarray:
        return False
    held = getattr(base, "base", None)  # (as_strided's DummyArray holds the array it views)
    return type(held) is _ndarray and held.base is None and not held.size


def in_place(a, b) -> bool:
    """Whether ``old`` (``a``, an empty array) takes ``var`` (``b``) in place."""
    if not _own(a):
        return False
    if type(b) is not _ndarray:
        return True
    from ..ops._layout import storage_root
    return storage_root(a) is not storage_root(b)


def kept(a):
    """The sum laid out as ``a`` (old.add_(var)'s result: old itself)."""
    from ..ops._layout import empty_like
    return empty_like(a)
