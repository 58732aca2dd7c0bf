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
    if out is not None and out.dtype is not dtypes.bool_:  # (the meta function's bool output)
        from ._outs import _C_TYPE
        raise RuntimeError(f"Expected out tensor to have dtype bool, but got {_C_TYPE[out.dtype.name]} instead")
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


@export(method=True)
def diagflat(input, offset=0):
    from .matrix import diag_embed
    return diag_embed(input.contiguous().view(-1), offset)




# gradient -----------------------------------------------------------------------------------------
# ATen's composite (ReduceOps.cpp): central differences inside, one-sided (edge_order 1) or second-order
# (edge_order 2) ones at the ends, joined by cat; with coordinates, the non-uniform formulas.  Run as C++
# runs it: ``t / number`` is the Scalar overload (DivBackward1, MulBackward1), as in a formula.

def _gradient_checks(input, spacing_size, dims, edge_order):
    if input.dtype is dtypes.uint8:
        raise RuntimeError("torch.gradient does not support uint8 input.")
    if spacing_size is not None and dims is None and spacing_size != input.ndim:
        raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar, or a list of length equal "
                           f"to 'self.dim() = {input.ndim}', since dim argument was not given, but got a list of "
                           f"length {spacing_size}")
    if spacing_size is not None and dims is not None and spacing_size != len(dims):
        raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim "
                           f"arguments to have the same length, but got a spacing argument of length {spacing_size} "
                           f"and a dim argument of length {len(dims)}.")
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    from ..tensor import _wrap_dim, _wrap_dim_no_scalar
    wrapped = []
    for d in (dims if dims is not None else range(input.ndim)):  # (dim_list_to_bitset: wrap, then the repeat)
        d = _wrap_dim(d, input.ndim)
        if d in wrapped:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        wrapped.append(d)
    for d in (dims if dims is not None else range(input.ndim)):  # (self.size(dim) of each dim as given)
        if input.shape[_wrap_dim_no_scalar(d, input.ndim)] < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least edge_order+1")
    return wrapped


def _sl(t, d, start, end=None):
    return t[(slice(None),) * d + (slice(start, end),)]


def _uniform(input, d, h, edge_order):
    from .joining import cat
    center = (_sl(input, d, 2) - _sl(input, d, 0, -2)) / h
    if edge_order == 1:
        prepend = (_sl(input, d, 1, 2) - _sl(input, d, 0, 1)) / h
        append = (_sl(input, d, -1) - _sl(input, d, -2, -1)) / h
    else:
        prepend = (-1.5 * _sl(input, d, 0, 1) + 2 * _sl(input, d, 1, 2) - 0.5 * _sl(input, d, 2, 3)) / h
        append = (0.5 * _sl(input, d, -3, -2) - 2 * _sl(input, d, -2, -1) + 1.5 * _sl(input, d, -1)) / h
    return cat([prepend, center / 2, append], d)


def _coordinates(input, d, coords, edge_order):
    from .joining import cat
    if coords.ndim != 1:
        raise RuntimeError(f"torch.gradient expected each element of spacing to have one dimension, but got an "
                           f"element with {coords.ndim} dimensions!")
    shape = [1] * input.ndim
    shape[d] = -1
    dx = coords.diff(1, 0)
    dx1, dx2 = dx[:-1], dx[1:]
    a = (-dx2 / (dx1 * (dx1 + dx2))).reshape(shape)
    b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
    c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
    center = a * _sl(input, d, 0, -2) + b * _sl(input, d, 1, -1) + c * _sl(input, d, 2)
    if edge_order == 1:
        prepend = (_sl(input, d, 1, 2) - _sl(input, d, 0, 1)) / dx[0]
        append = (_sl(input, d, -1) - _sl(input, d, -2, -1)) / dx[-1]
    else:
        a = -(2.0 * dx[0] + dx[1]) / (dx[0] * (dx[0] + dx[1]))
        b = (dx[0] + dx[1]) / (dx[0] * dx[1])
        c = (-dx[0]) / (dx[1] * (dx[0] + dx[1]))
        prepend = a * _sl(input, d, 0, 1) + b * _sl(input, d, 1, 2) + c * _sl(input, d, 2, 3)
        a = dx[-1] / (dx[-2] * (dx[-1] + dx[-2]))
        b = -(dx[-1] + dx[-2]) / (dx[-1] * dx[-2])
        c = (2 * dx[-1] + dx[-2]) / (dx[-1] * (dx[-1] + dx[-2]))
        append = a * _sl(input, d, -3, -2) + b * _sl(input, d, -2, -1) + c * _sl(input, d, -1)
    return cat([prepend, center, append], d)


@export()
def gradient(input, *, spacing=None, dim=None, edge_order=1):
    from ..autograd import graph

    dims = None if dim is None else ([dim] if isinstance(dim, int) else list(dim))
    if isinstance(spacing, (list, tuple)):
        sizes = len(spacing)
        values = list(spacing)
    else:
        sizes = None if spacing is None else (len(dims) if dims is not None else input.ndim)
        values = [1.0 if spacing is None else spacing] * (len(dims) if dims is not None else input.ndim)
    wrapped = _gradient_checks(input, sizes, dims, edge_order)
    state = graph._state
    outer = state["formula"]
    state["formula"] = True  # (C++'s arithmetic: a number is a Scalar)
    try:
        out = []
        for d, h in zip(wrapped, values):
            if isinstance(h, Tensor):
                out.append(_coordinates(input, d, h, edge_order))
            else:
                out.append(_uniform(input, d, h, edge_order))
    finally:
        state["formula"] = outer
    return tuple(out)
