"""PyTorch's other names for an op, and the tensor attributes that record nothing.

- aliases whose parameters differ from the op's: ``swapaxes(axis0, axis1)`` and ``swapdims``
  (transpose: TransposeBackward0), ``Tensor.broadcast_to(*size)`` (expand: ExpandBackward0);
- what a real (non-complex) tensor answers for the complex and sign-bit views PyTorch keeps
  lazily: ``real``, ``conj``, ``resolve_conj``, ``resolve_neg``, ``conj_physical`` and
  ``positive`` give the tensor itself (no node), ``imag`` PyTorch's error; ``is_conj`` and
  ``is_neg`` are False (agrad has no complex dtypes);
- predicates and sizes: ``is_signed``, ``is_nonzero``, ``is_same_size``, ``nbytes``,
  ``itemsize``, ``layout`` and the CPU tensor's ``is_cpu``, ``is_meta``, ``is_sparse``, ...
"""

from __future__ import annotations

from .. import dtypes
from ..tensor import Tensor
from ._op import export, method
from .factories import strided
from .views import expand, transpose


@export(method=True)
def swapaxes(input, axis0, axis1):
    return transpose(input, axis0, axis1)


@export(method=True)
def swapdims(input, dim0, dim1):
    return transpose(input, dim0, dim1)


@method("broadcast_to")
def broadcast_to_method(input, *size, **kw):
    """The method takes the sizes one by one too (``x.broadcast_to(2, 3)``), as ``expand``."""
    return expand(input, *size, **kw)


# complex views and the sign bit: the tensor itself -----------------------------------------

def _itself(input):
    return input


for _name in ("real", "conj", "resolve_conj", "resolve_neg", "conj_physical"):
    export(_name, method=_name != "real")(_itself)


@export(method=True)
def positive(input):
    if input.dtype is dtypes.bool_:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


@export()
def imag(input):
    raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")


Tensor.real = property(_itself)
Tensor.imag = property(imag)


@export(method=True)
def is_conj(input):
    return False


@export(method=True)
def is_neg(input):
    return False


# predicates and sizes ----------------------------------------------------------------------

@export(method=True)
def is_signed(input):
    return input.dtype.is_signed


@export(method=True)
def is_nonzero(input):
    n = input._data.size
    if n != 1:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous" if n == 0
                           else "Boolean value of Tensor with more than one value is ambiguous")
    return bool(input._data.reshape(-1)[0])


@export(method=True)
def is_same_size(input, other):
    return input._data.shape == other._data.shape


@method("is_shared")
def is_shared(input):
    return False


@method("is_pinned")
def is_pinned(input, device=None):
    return False


# the number of elements times the element size, as PyTorch's (an expanded tensor counts each element)
Tensor.nbytes = property(lambda self: int(self._data.size) * self._data.itemsize)
Tensor.itemsize = property(lambda self: self._data.itemsize)
Tensor.layout = property(lambda self: strided)
Tensor.is_cpu = property(lambda self: True)
for _name in ("is_meta", "is_sparse", "is_sparse_csr", "is_quantized", "is_mkldnn", "is_nested", "is_mps",
              "is_xpu", "is_vulkan"):
    setattr(Tensor, _name, property(lambda self: False))
