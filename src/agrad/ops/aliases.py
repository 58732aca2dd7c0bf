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

import numpy as np

from .. import dtypes
from ..autograd.inference import is_inference as _is_inference
from ..tensor import Tensor
from ._op import export, method
from .factories import legacy_new, strided
from .views import expand, transpose
from .._warn_once import warn as _warn


@export(method=True)
def swapaxes(input, axis0, axis1):
    return transpose(input, axis0, axis1)


@export(method=True)
def swapdims(input, dim0, dim1):
    return transpose(input, dim0, dim1)


@method("broadcast_to")
def broadcast_to_method(input, *size, **kw):
    """The method takes the sizes one by one too (``x.broadcast_to(2, 3)``), as ``expand``."""
    if not size and "size" not in kw:
        raise TypeError('broadcast_to() missing 1 required positional arguments: "size"')
    return expand(input, *size, **kw)


# complex views and the sign bit: the tensor itself -----------------------------------------

def _itself(input):
    return input


for _name in ("real", "conj", "resolve_conj", "resolve_neg"):
    export(_name, method=_name != "real")(_itself)
method("conj_physical")(_itself)


def _found_dtype(result, out):
    from ..tensor import _scalar_name
    return RuntimeError(f"Found dtype {_scalar_name(out.dtype)} but expected {_scalar_name(result.dtype)}")


@export()
def conj_physical(input, *, out=None):
    """A real tensor itself; ``out=``: copied into it (conj_physical.out, a NotImplemented node when
    the input requires grad, not_implemented.recorded_out)."""
    if out is None:
        return input
    from ._not_implemented import recorded_out
    from ._layout import iterator_layout
    result = Tensor._make(iterator_layout(input._data.copy(), [input._data]))  # (TensorIterator's unary layout)
    return recorded_out("conj_physical", result, input, out, _found_dtype)


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
def is_inference(input):
    """Whether ``input`` is an inference tensor (made in inference mode: agrad.autograd.inference)."""
    return _is_inference(input)


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


@method("is_pinned")
def is_pinned(input, device=None):
    if device is not None:
        _warn("The argument 'device' of Tensor.is_pinned() is deprecated. Please do not pass this argument.",
              DeprecationWarning)
    return False


# the number of elements times the element size, as PyTorch's (an expanded tensor counts each element)
Tensor.nbytes = property(lambda self: int(self._data.size) * self._data.itemsize)
Tensor.itemsize = property(lambda self: self._data.itemsize)
Tensor.layout = property(lambda self: strided)
Tensor.is_cpu = property(lambda self: True)
for _name in ("is_meta", "is_sparse", "is_sparse_csr", "is_quantized", "is_mkldnn", "is_nested", "is_mps",
              "is_xpu", "is_vulkan"):
    setattr(Tensor, _name, property(lambda self: False))


@method("new")
def new(input, *args, device=None, **kwargs):
    """The legacy constructor in the tensor's dtype (``x.new(2, 3)``, ``x.new([1, 2])``)."""
    return legacy_new(input.dtype, args, device, kwargs)


# apply_ / map_: a Python function per element ----------------------------------------------

def _store(value, d):
    """The function's result as PyTorch stores it (a real number, as a Scalar: an int or bool stays one, anything
    else PyFloat_AsDouble's), then checked_convert into an integer dtype: a float outside the dtype's range (NaN and
    infinities too) or an int past it (an unsigned dtype lets a negative int of at most its max wrap) is refused."""
    if isinstance(value, (str, bytes)) or not (hasattr(value, "__float__") or hasattr(value, "__index__")):
        raise TypeError(f"must be real number, not {type(value).__name__}")
    kind = np.dtype(d.numpy).kind
    if kind not in "iu":
        return np.array(float(value)).astype(d.numpy)
    info = np.iinfo(d.numpy)
    if isinstance(value, (bool, np.bool_)) or hasattr(value, "__index__") and not isinstance(value, float):
        i = int(value)
        bad = i > info.max or (i < 0 and -i > info.max if kind == "u" else i < info.min)
        if not bad:
            return np.array(i % (1 << info.bits)).astype(np.uint64).astype(d.numpy)
    else:
        f = float(value)
        bad = not info.min <= f <= info.max
        if not bad:
            return np.array(f).astype(d.numpy)
    raise RuntimeError(f"value cannot be converted to type {np.dtype(d.numpy).name} without overflow")


def _each(input, fn, others=()):
    """``input[i] = fn(input[i], *(o[i] for o in others))`` in the tensor's logical order, with
    no version bump and no graph, as PyTorch's (CPU only, tensors that need no gradient)."""
    a, d = input._data, input.dtype
    for idx in np.ndindex(a.shape):
        a[idx] = _store(fn(a[idx].item(), *(o[idx].item() for o in others)), d)
    return input


@method("apply_")
def apply_(input, callable):
    if input.requires_grad:
        raise RuntimeError("Can't call apply_() on Variable that requires grad. Use var.detach().apply_() instead.")
    return _each(input, callable)


#: the dtypes without a legacy torch.*Tensor class: map_'s check names them by their C++ type
_LEGACY_TYPES = {"bool": "CPUBoolType", "bfloat16": "CPUBFloat16Type", "complex64": "CPUComplexFloatType",
                 "complex128": "CPUComplexDoubleType"}


def _legacy_type(t):
    return _LEGACY_TYPES.get(t.dtype.name) or t.type()


@method("map_")
def map_(input, other, callable):
    if not isinstance(other, Tensor):
        from ._pyargs import tp_name
        raise TypeError(f"map_(): argument 'other' (position 1) must be Tensor, not {tp_name(other)}")
    if input.requires_grad or other.requires_grad:
        raise RuntimeError("Can't call map_() on Variable that requires grad. Use var.detach().map_() instead.")
    if other.dtype is not input.dtype:
        raise TypeError(f"map_: expected {_legacy_type(input)} for 'other' (got {_legacy_type(other)})")
    return _each(input, callable, (expand(other, input.shape)._data,))


@method("map2_")
def map2_(input, x, y, callable):
    for name, pos, other in (("x", 1, x), ("y", 2, y)):
        if not isinstance(other, Tensor):
            from ._pyargs import tp_name
            raise TypeError(f"map2_(): argument '{name}' (position {pos}) must be Tensor, not {tp_name(other)}")
    if input.requires_grad or x.requires_grad or y.requires_grad:
        raise RuntimeError("Can't call map2_() on Variable that requires grad. Use var.detach().map2_() instead.")
    for name, other in (("x", x), ("y", y)):
        if other.dtype is not input.dtype:
            raise TypeError(f"map2_: expected {_legacy_type(input)} for argument '{name}' "
                            f"(got {_legacy_type(other)})")
    return _each(input, callable, (expand(x, input.shape)._data, expand(y, input.shape)._data))
