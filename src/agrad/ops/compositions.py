"""Functions PyTorch composes of other ops: ``torch.isin`` (membership, compared in the two
operands' promoted dtype; NaN is in nothing), ``torch.unravel_index`` (flat indices to
coordinates: ``indices.unsqueeze(-1) // strides % shape``, unbound along the last dim) and
``torch.diagflat`` (``diag_embed`` of the input flattened: ViewBackward0 under DiagEmbedBackward0).
"""

from __future__ import annotations

import numbers

import numpy as np

from .. import dtypes
from ..tensor import Tensor
from ._op import export, finish_out
from .factories import tensor


@export()
def isin(elements, test_elements, *, assume_unique=False, invert=False, out=None):
    if not isinstance(elements, Tensor) and not isinstance(test_elements, Tensor):
        raise TypeError("isin(): expected a tensor")  # (the parser's error: argcheck's wrapper gives its text)
    for t in (elements, test_elements):
        if not isinstance(t, (Tensor, numbers.Number)):
            raise TypeError("isin(): expected a tensor or a number")
    d = dtypes.result_type(elements, test_elements)
    if any(t.dtype is dtypes.bool_ if isinstance(t, Tensor) else isinstance(t, bool) for t in (elements, test_elements)):
        raise RuntimeError("Unsupported input type encountered for isin(): Bool")
    a = elements._data if isinstance(elements, Tensor) else np.asarray(elements)
    b = test_elements._data if isinstance(test_elements, Tensor) else np.asarray(test_elements)
    result = np.isin(a.astype(d.numpy, copy=False), b.astype(d.numpy, copy=False), invert=bool(invert))
    result = Tensor._make(np.asarray(result))
    return result if out is None else finish_out("isin", result, out)


@export()
def unravel_index(indices, shape):
    if not isinstance(indices, Tensor):
        raise AttributeError(f"'{type(indices).__name__}' object has no attribute 'is_complex'")
    if indices.dtype.is_floating_point or indices.dtype is dtypes.bool_:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    if isinstance(shape, bool) or not isinstance(shape, (int, tuple, list)) and not hasattr(shape, "__len__"):
        raise TypeError(f"expected 'shape' to be int or sequence of ints, but got {type(shape)}")
    if isinstance(shape, int):
        shape = (shape,)
    for s in shape:
        if not isinstance(s, int):
            raise TypeError(f"expected 'shape' sequence to only contain ints, but got {type(s)}")
    shape = tuple(shape)
    if any(s < 0 for s in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {shape}")
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    coords = indices.unsqueeze(-1).floor_divide(tensor(strides, dtype=dtypes.int64)) % tensor(list(shape),
                                                                                            dtype=dtypes.int64)
    return coords.unbind(-1)


@export()
def diagflat(input, offset=0):
    from .matrix import diag_embed
    return diag_embed(input.contiguous().view(-1), offset)


