"""Where a tensor is nonzero: ``nonzero`` (and ``argwhere``), and ``nonzero_static``, its form
with a fixed number of rows (truncated, or padded with ``fill_value``).  No gradient."""

from __future__ import annotations

import numpy as np

from ..tensor import Tensor
from ._layout import with_empty_strides
from ._op import export, finish_out


@export(method=True)
def nonzero(input, *, out=None, as_tuple=False):
    a = input._data
    if as_tuple:
        if out is not None:  # (torch.nonzero's own binding, before the op)
            raise RuntimeError("nonzero does not support the out kwarg when as_tuple is True")
        if a.ndim == 0:
            return (Tensor._make(np.nonzero(np.atleast_1d(a))[0].astype(np.int64)),)
        return tuple(Tensor._make(i.astype(np.int64)) for i in np.nonzero(a))
    if a.ndim == 0:  # (out= too: nonzero_out resizes it to (1, 0) or (0, 0))
        return finish_out("nonzero", Tensor._make(_by_columns(np.zeros((1 if a else 0, 0), np.int64))), out,
                          inputs=(input,))
    return finish_out("nonzero", Tensor._make(_by_columns(np.array(np.nonzero(a), np.int64).T)), out, inputs=(input,))


def _by_columns(found):
    """The (n, ndim) indices laid out column by column (strides (1, n)), as PyTorch's nonzero writes them:
    an empty result's too ((1, 0) for none found)."""
    return with_empty_strides(found, (found.itemsize, found.itemsize * found.shape[0]))


@export(method=True)
def argwhere(input):
    return nonzero(input)


@export(method=True)
def nonzero_static(input, *, size, fill_value=-1):
    if not isinstance(input, Tensor):  # (the table of tools/gen_arg_checks.py cannot call it: keyword-only size)
        from ._pyargs import tp_name
        raise TypeError(f"nonzero_static(): argument 'input' (position 1) must be Tensor, not {tp_name(input)}")
    if isinstance(size, Tensor) and size.numel() == 1 and size.dtype._kind < 2:
        if size.dtype._kind == 0:  # (the parser's SymInt of a bool tensor)
            raise RuntimeError('scalar.isIntegral( false) INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/torch/csrc/'
                               'utils/pybind.cpp":27, please report a bug to PyTorch. ')
        size = int(size.item())  # (an integral one-element tensor is an int to PyTorch's parser)
    if type(size) is bool or not isinstance(size, int):
        from ._pyargs import tp_name
        raise TypeError(f"nonzero_static(): argument 'size' must be int, not {tp_name(size)}")
    if type(fill_value) is bool or not isinstance(fill_value, int):
        raise TypeError(f"nonzero_static(): argument 'fill_value' must be int, not {type(fill_value).__name__}")
    if size < 0:
        raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")
    a = input._data
    found = np.array(np.nonzero(a), np.int64).T if a.ndim else np.zeros((1 if a else 0, 0), np.int64)
    out = np.full((size, a.ndim), fill_value, np.int64)  # (C order, as PyTorch's)
    n = min(size, found.shape[0])
    out[:n] = found[:n]
    return Tensor._make(out)
