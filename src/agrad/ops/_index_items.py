"""An index as getitem/setitem read it: the items of ``x[...]`` normalised (Ellipsis expanded,
ranges and integer tensors as PyTorch's parser takes them), index arrays checked before numpy sees
them."""

from __future__ import annotations

import numbers

import numpy as np

from .. import dtypes
from .._limits import check_numel
from ..tensor import Tensor
from .factories import is_agrad_array as _is_agrad_array
from .._warn_once import warn as _warn

_FULL = slice(None)


_BAD_INDEX = ("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables "
              "are valid indices")


def _as_index_array(item, size_hint=None):
    """A tensor, list or array index as a numpy int64 or bool array.  Nothing
    else reaches numpy: a foreign object would be read through its sequence
    protocol or become an object array."""
    if isinstance(item, Tensor):
        arr = item._data
    else:
        if isinstance(item, (list, tuple)):
            from .factories import _check_nested

            try:
                _check_nested(item)
            except TypeError:
                raise IndexError(_BAD_INDEX) from None
        elif not (isinstance(item, (np.ndarray, np.integer, np.bool_))
                  or _is_agrad_array(item)):
            if isinstance(item, str):  # (a sequence to PyTorch's indexing: torch.tensor's refusal of its data)
                raise TypeError("new(): invalid data type 'str'")
            from ._pyargs import tp_name
            raise IndexError(f"{_BAD_INDEX} (got {tp_name(item)})")
        arr = np.asarray(item)
        if arr.dtype == object:
            raise IndexError(_BAD_INDEX)
        if arr.size == 0 and arr.dtype.kind != "b":  # ([] is an empty long index; an empty mask stays one)
            arr = arr.astype(np.int64)
    if arr.dtype.kind == "b":
        return arr
    if arr.dtype.kind not in "iu":
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    return arr.astype(np.int64, copy=False)


def _normalise(index, ndim, positions=None):
    """The index as a list of items with Ellipsis expanded; ``positions`` (a list) gets each item's place in
    the index as given, which PyTorch's errors name ("index 5 is out of bounds for dimension 1")."""
    lone = not isinstance(index, tuple)  # (a lone int or slice: THPVariable_getitem's own paths and errors;
    if lone:                             # in a tuple, applySlicing counts the indices first)
        index = (index,)
    if any(_is_agrad_array(i) for i in index):
        index = tuple(np.asarray(i) if _is_agrad_array(i) else i for i in index)
    consumed = 0
    for item in index:
        if item is None or item is Ellipsis:
            continue
        if ndim == 0 and lone and isinstance(item, slice):
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
        if ndim == 0 and lone and isinstance(item, numbers.Integral) and not isinstance(item, (bool, Tensor)):
            if int(item) != 0:  # (applySelect: only 0 is "invalid"; any other int is out of a size-0 range)
                raise IndexError(f"index {int(item)} is out of bounds for dimension 0 with size 0")
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` "
                             "in C++ to convert a 0-dim tensor to a number")
        if isinstance(item, (Tensor, np.ndarray)) and _as_index_array(item).dtype.kind == "b":
            consumed += _as_index_array(item).ndim  # a 0-d mask adds a dim and uses none
        elif isinstance(item, bool):
            continue
        else:
            consumed += 1
    if consumed > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    out = []
    seen_ellipsis = False
    for k, item in enumerate(index):
        if item is Ellipsis:
            if seen_ellipsis:
                raise IndexError("an index can only have a single ellipsis ('...')")
            seen_ellipsis = True
            out.extend([_FULL] * (ndim - consumed))
            if positions is not None:
                positions.extend([k] * (ndim - consumed))
        else:
            out.append(item)
            if positions is not None:
                positions.append(k)
    return out


def _check_int(i, size, dim):
    if i < -size or i >= size:
        raise IndexError(f"index {i} is out of bounds for dimension {dim} with size {size}")
    return i + size if i < 0 else i


def _ranges_as_lists(index):
    """A ``range`` in an index is a sequence, as a list is (PyTorch's sequence indexing:
    d2l's ``y_hat[range(len(y_hat)), y]``)."""
    if type(index) is range:
        check_numel(len(index), "index")
        return list(index)
    if type(index) is tuple:
        for i in index:
            if type(i) is range:
                return tuple(_ranges_as_lists(i) if type(i) is range else i for i in index)
    return index


def _int_tensors(index):
    """PyTorch's indexing takes a 0-d integer tensor as its integer (a select, no saved index), and a uint8
    tensor as a mask (:func:`uint8_mask`)."""
    if type(index) is Tensor:
        kind = index._data.dtype.kind
        if kind == "u":
            return uint8_mask(index)
        return int(index._data) if index.ndim == 0 and kind == "i" else index
    if type(index) is tuple and any(type(i) is Tensor and (i.ndim == 0 or i._data.dtype.kind == "u") for i in index):
        return tuple(uint8_mask(i) if type(i) is Tensor and i._data.dtype.kind == "u" else
                     int(i._data) if type(i) is Tensor and i.ndim == 0 and i._data.dtype.kind == "i" else i
                     for i in index)
    return index


def uint8_mask(t):
    """A uint8 index is a mask (its nonzero elements true): a 0-d one as a bool (THPVariable's own), one of
    more dims with expandTensors' deprecation warning."""
    if t.ndim:
        _warn("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.",
              UserWarning)
    return Tensor._make(t._data != 0)


# index_put's own checks ------------------------------------------------------------------------

def _index_put_checked(fname, input, indices, values, accumulate):
    """The parser's types (its TypeError replaces the one raised here: agrad/ops/_argcheck.py), then
    _index_put_impl_'s count of the indices; returns the index as ``x[...]`` takes it."""
    if not isinstance(indices, (tuple, list)) or not isinstance(values, Tensor) or type(accumulate) is not bool:
        raise TypeError(fname)
    for i, t in enumerate(indices):
        if not isinstance(t, Tensor):
            from ._pyargs import tp_name
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {tp_name(t)}")
    if len(indices) > input.ndim:
        raise IndexError(f"too many indices for tensor of dimension {input.ndim} (got {len(indices)})")
    return tuple(indices)


def _check_mask_dims(input, index):
    """make_info's error when masks, one index per dim of theirs, index more dims than ``input`` has."""
    shapes = []
    for t in index:
        if t.dtype in (dtypes.bool_, dtypes.uint8):
            shapes += [[int(np.count_nonzero(t._data))]] * t.ndim
        else:
            shapes.append(list(t.shape))
    if len(shapes) > input.ndim:
        try:  # (expandTensors' broadcast of the indices comes first)
            np.broadcast_shapes(*map(tuple, shapes))
        except ValueError:
            raise IndexError("shape mismatch: indexing tensors could not be broadcast together with shapes "
                             + ", ".join(map(str, shapes))) from None
        n = input.ndim
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {n})")


def view_rewrite(index, shape):
    """PyTorch's applySlicing of a written index with index tensors: Nones, bools (Python's and 0-d bool
    tensors: an unsqueeze, then an index of [0] or of none), ints and slices that are not full make a view
    first, and index_put_ writes into that view (a CopySlices).  (the view's basic index, the index of the
    view) when the index has both kinds; None otherwise (and for an index _normalise refuses)."""
    def is_bool0(item):
        return isinstance(item, (Tensor, np.ndarray)) and item.ndim == 0 and _as_index_array(item).dtype == np.bool_

    items = index if type(index) is tuple else (index,)
    if not any(isinstance(i, (list, np.ndarray)) or isinstance(i, Tensor) for i in items):
        return None
    positions = []
    try:
        normal = _normalise(index, len(shape), positions)
    except (IndexError, TypeError, ValueError):
        return None
    basic, rest, d, viewed = [], [], 0, False
    for item in (items[k] if normal[j] is not _FULL else _FULL for j, k in enumerate(positions)):  # (as given)
        if item is None:
            basic.append(None)
            rest.append(_FULL)
            viewed = True
        elif isinstance(item, bool) or is_bool0(item):
            basic.append(None)
            rest.append(Tensor._make(np.zeros(1 if bool(item) else 0, np.int64)))
            viewed = True
        elif isinstance(item, numbers.Integral) and not isinstance(item, Tensor):
            basic.append(item)
            viewed = True
            d += 1
        elif isinstance(item, slice):
            basic.append(item)
            rest.append(_FULL)
            if d < len(shape) and item.indices(shape[d]) != (0, shape[d], 1):
                viewed = True
            d += 1
        elif isinstance(item, (Tensor, list, np.ndarray)):
            n = _as_index_array(item).ndim if _as_index_array(item).dtype == np.bool_ else 1
            basic.extend([_FULL] * n)
            rest.append(item)
            d += n
        else:
            return None
    if not viewed or not any(isinstance(r, (Tensor, list, np.ndarray)) for r in rest):
        return None
    return tuple(basic), tuple(rest)


def _uint8_masked_fill(index, value):
    """masked_fill_'s refusal of a uint8 mask that index_put_ hands it (one mask of one or more dims, the
    only tensor index, one value; index_put_'s own call: a 0-d one too)."""
    items = index if isinstance(index, (tuple, list)) else (index,)
    tensors = [i for i in items if isinstance(i, Tensor)]
    if len(tensors) == 1 and tensors[0]._data.dtype == np.uint8 and (tensors[0].ndim or type(index) is list) and \
            (not isinstance(value, Tensor) or value.numel() == 1):
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype unsigned char")
