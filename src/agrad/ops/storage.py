"""A tensor's storage as scripts see it: ``storage_offset``, ``data_ptr``, ``untyped_storage``,
``is_set_to``, ``set_``, ``dim_order``, ``share_memory_``/``is_shared``, ``pin_memory``.

A tensor's storage here is the numpy buffer its data is a view of (the root of the view
chain, ``storage_of``).  Its "address" is made up: each buffer gets a number the first time
one is asked for, 64-byte aligned and far from every other buffer's, so views of one buffer
give PyTorch's ``base.data_ptr() + storage_offset() * element_size()`` and tensors that
share no memory never share a pointer, while a script never sees a real address.  Where
numpy copies and PyTorch views (or the reverse) the two disagree; docs/semantics.md.
"""

from __future__ import annotations

import inspect
import weakref

import numpy as np

from .._dense import insertion_sort
from ..autograd import graph
from ..autograd.graph import _INF
from ..tensor import LEAF_INPLACE_MESSAGE, Tensor
from ._layout import storage_of as _array_storage, storage_root as _root
from ._op import Op, method
from ._shortcuts import inplace_self
from .._warn_once import warn as _warn



def _address_of(a) -> int:
    return a.__array_interface__["data"][0]


def storage_of(t):
    """(flat storage array, element offset of ``t`` in it)."""
    a = t._values()
    found = _array_storage(a)
    if found is None:
        raise RuntimeError("agrad: the storage of a tensor whose memory is not one buffer is not supported")
    flat, offset = found
    return flat, (offset if a.size else _empty_offset(a, flat))


def _empty_offset(a, flat):
    """An empty view's offset, in ``a``'s elements (a view(dtype)'s too): past the storage's end too
    (_layout.view_at), never before its start."""
    return max((_address_of(a) - _address_of(flat)) // max(a.itemsize, 1), 0)


# made-up addresses, one per live buffer ------------------------------------------------------

_FIRST = 0x5a3c_0000_0000
_entries: dict = {}  # id(root) -> [weakref(root), address, shared]
_next = [_FIRST]


def _entry(root):
    key = id(root)
    e = _entries.get(key)
    if e is not None and e[0]() is root:
        return e
    address = _next[0]
    _next[0] += (root.nbytes + 63) // 64 * 64 + 4096

    def gone(ref, key=key):
        found = _entries.get(key)
        if found is not None and found[0] is ref:
            del _entries[key]

    e = _entries[key] = [weakref.ref(root, gone), address, False]
    return e


def _storage_address(flat) -> int:
    return 0 if flat.nbytes == 0 else _entry(_root(flat))[1]


@method("storage_offset")
def storage_offset(input):
    return int(storage_of(input)[1])


@method("data_ptr")
def data_ptr(input):
    if not input._data.size:  # (c10's data() of an empty tensor: nullptr)
        return 0
    flat, offset = storage_of(input)
    base = _storage_address(flat)
    return base + offset * input._data.itemsize if base else 0  # (offset: in the tensor's elements, view(dtype)'s too)


method("const_data_ptr")(data_ptr)


@method("untyped_storage")
def untyped_storage(input):
    return UntypedStorage._of(storage_of(input)[0])


class _StorageBase:
    """A read-only view of a tensor's storage as bytes (agrad has no way to write a storage)."""

    __slots__ = ("_flat",)

    @classmethod
    def _of(cls, flat):
        s = object.__new__(cls)
        s._flat = flat
        return s

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("agrad: storages cannot be made directly; use tensor.untyped_storage()")

    def _bytes(self):
        return self._flat.view(np.uint8) if self._flat.flags.c_contiguous else \
            np.ascontiguousarray(self._flat).view(np.uint8)

    def size(self):
        return int(self._flat.nbytes)

    def nbytes(self):
        return int(self._flat.nbytes)

    def __len__(self):
        return int(self._flat.nbytes)

    def element_size(self):
        return 1

    def data_ptr(self):
        return _storage_address(self._flat)

    @property
    def device(self):
        from ..devices import device
        return device("cpu")

    @property
    def is_cuda(self):
        return False

    def is_shared(self):
        return _entry(_root(self._flat))[2]

    def is_pinned(self, device=None):
        return False

    def cpu(self):
        return self

    def tolist(self):
        return [int(b) for b in self._bytes()]

    def __getitem__(self, idx):
        n = self._flat.nbytes
        if isinstance(idx, slice):
            raise NotImplementedError("agrad: storage slices are not supported (index one byte)")
        if not isinstance(idx, int) or isinstance(idx, bool):
            raise TypeError(f"can't index a torch.storage.UntypedStorage with {type(idx).__name__}")
        if not -n <= idx < n:
            raise IndexError(f"index {idx} out of range for storage of size {n}")
        return int(self._bytes()[idx])

    def __iter__(self):
        return iter(self.tolist())

    def __repr__(self):
        data = " " + "\n ".join(str(b) for b in self.tolist())
        return f"{data}\n[torch.storage.UntypedStorage(device=cpu) of size {self.nbytes()}]"

    __str__ = __repr__


class UntypedStorage(_StorageBase):
    __slots__ = ()


UntypedStorage.__module__ = "torch.storage"  # (printed as PyTorch's; the engine's _StorageBase admits it)


# set_ / is_set_to -------------------------------------------------------------------------

_set = Op("torch::autograd::NotImplemented", lambda ctx, a, source, value: value, inputs=("self", "source"),
          jvp="unsupported")


_set_alone = Op("torch::autograd::NotImplemented", lambda ctx, a, value: value, jvp="unsupported")


@_set.derivative
def _(ctx, grad):
    raise RuntimeError("derivative for set_ is not implemented")


_set_alone.derivative(_set._formula)


#: caffe2's TypeMeta names of the dtypes (set_'s error)
_TYPE_META = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int",
              "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "bool": "bool"}


_SET_FORMS = ("()", "(torch.Storage source)",
              "(torch.Storage source, int storage_offset, tuple of ints size, tuple of ints stride = None)",
              "(Tensor source)", "(Tensor source, int storage_offset, tuple of ints size, tuple of ints stride = None)")


def _from_storage(input, storage, storage_offset, size, stride):
    flat = storage._flat.view(input._data.dtype) if storage._flat.nbytes % input._data.itemsize == 0 \
        else storage._flat
    if size is None:
        return flat[:]
    from .strided import _strided_view
    holder = Tensor._make(flat)
    if stride is None:
        stride, step = [], 1
        for n in reversed(list(size)):
            stride.insert(0, step)
            step *= max(int(n), 1)
    return _strided_view(holder, size, stride, storage_offset)[0]


def _set_types(storage_offset, size, stride) -> bool:
    """Whether the parser takes these for set_'s ``int storage_offset, tuple of ints size, stride`` (a
    lone int is no size here)."""
    from ._pyargs import _is_index, _is_int
    return (storage_offset is None or _is_int(storage_offset)) and all(
        v is None or isinstance(v, (tuple, list)) and (not v or _is_index(v[0])) for v in (size, stride))


_SET_NAMES = ("source", "storage_offset", "size", "stride")


@method("set_")
def set_(input, *args, **kwargs):
    """Tensor.set_: a None given for source, storage_offset or size (or a stride without a size) matches none of
    its forms, the parser's TypeError for the call as written (None is the default of the ones not given)."""
    if len(args) <= 4 and not set(kwargs) - set(_SET_NAMES[len(args):]):
        given = dict(zip(_SET_NAMES, args), **kwargs)
        if any(n in given and given[n] is None for n in _SET_NAMES[:3]) or \
                "stride" in given and given["stride"] is None and given.get("size") is None:
            from ._pyargs import format_invalid_args
            raise TypeError(format_invalid_args(args, kwargs, "set_()", list(_SET_FORMS)))
    try:
        return _set_forms(input, *args, **kwargs)
    except TypeError as e:
        if not kwargs or not str(e).startswith("set_() received an invalid combination"):
            raise
        from ._pyargs import format_invalid_args  # (the text for the call as written: its keywords)
        raise TypeError(format_invalid_args(args, kwargs, "set_()", list(_SET_FORMS))) from None


def _set_forms(input, source=None, storage_offset=None, size=None, stride=None):
    if source is not None and not isinstance(source, (Tensor, _StorageBase)):  # (the parser's, first)
        from ._pyargs import format_invalid_args
        given = tuple(a for a in (source, storage_offset, size, stride) if a is not None)
        raise TypeError(format_invalid_args(given, {}, "set_()", list(_SET_FORMS)))
    if (storage_offset is None) != (size is None) or (source is None or size is None) and \
            (storage_offset is not None or stride is not None) or not _set_types(storage_offset, size, stride):
        # none of its forms: the text for the arguments given positionally (set_ gives the text for the call
        # as written where it has keywords)
        from ._pyargs import format_invalid_args
        given = [source, storage_offset, size, stride]
        while given and given[-1] is None:
            given.pop()
        raise TypeError(format_invalid_args(tuple(given), {}, "set_()", list(_SET_FORMS)))
    if isinstance(source, Tensor) and storage_offset is None and source.dtype is not input.dtype:
        # (set_.source_Tensor's dtype check comes before autograd's in-place checks; its storage form's after)
        raise RuntimeError(f"Could not set tensor of type {_TYPE_META[source.dtype.name]} to a tensor of "
                           f"type {_TYPE_META[input.dtype.name]}")
    enabled = graph._state["enabled"]
    if enabled and input._requires_grad and input._grad_fn is None:
        raise RuntimeError(LEAF_INPLACE_MESSAGE)
    base = input._base
    if enabled and input._requires_grad and base is not None and base._grad_fn is None:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
    if source is None:
        data = np.empty(0, input._data.dtype)
        if input._data.shape == (0,):  # (resize_impl's shortcut for the same sizes: its strides stay)
            from ._layout import torch_strides, with_empty_strides
            data = with_empty_strides(data, torch_strides(input._data))
    elif isinstance(source, Tensor):
        if source.dtype is not input.dtype:
            raise RuntimeError(f"Could not set tensor of type {_TYPE_META[source.dtype.name]} to a tensor of "
                               f"type {_TYPE_META[input.dtype.name]}")
        data = source._values()
        if storage_offset is not None:
            flat = storage_of(source)[0]
            data = _from_storage(input, UntypedStorage._of(flat), storage_offset, size, stride)
    else:
        data = _from_storage(input, source, storage_offset or 0, size, stride)
    grads = isinstance(source, Tensor) and source._requires_grad
    if enabled and (input._requires_grad or grads):
        # (VariableType's set_ records its NotImplemented node on any dtype: a bool or integer self that
        # requires grad takes it too, as an in-place op's recording does)
        before = inplace_self[0]
        if input._data.dtype.kind != "f":
            inplace_self[0] = input
        try:
            if isinstance(source, Tensor):
                out = _set.apply((input, source), (input._data, source._data), {"value": data})
            else:  # (set_() and set_(storage): self its one input)
                out = _set_alone.apply((input,), (input._data,), {"value": data})
        finally:
            inplace_self[0] = before
        out.grad_fn._seq = _INF
        if input._base is not None:  # a view: its base's history takes the op (CopySlices)
            _replace_data(input, data)
            from .inplace_view import rebase_view
            rebase_view(input, out._grad_fn)
            return input
        old_fn, old_nr = input._grad_fn, input._output_nr
        input._grad_fn, input._output_nr = out._grad_fn, out._output_nr
        input._requires_grad = True
        if input._retains:  # (its retain_grad moves to the new node, as an in-place op's: the
            graph.move_retains_grad(input, old_fn, old_nr)  # set_ gradient is retained, then it raises)
    _replace_data(input, data)
    return input


set_.__signature__ = inspect.signature(_set_forms)  # (the parameters of PyTorch's forms: drawn and documented)


def _replace_data(input, data):
    from ..autograd import _resized
    input._data = data
    _resized.note(input)  # (a node that made it keeps the shape it recorded: the engine checks against it)
    input._vc[0] += 1
    for obs in graph.version_observers:
        obs(input)


@method("is_set_to")
def is_set_to(input, tensor):
    a, b = input._values(), tensor._values()
    return bool(_root(a) is _root(b) and _address_of(a) == _address_of(b) and a.shape == b.shape
                and input.stride() == tensor.stride())


# dim_order ----------------------------------------------------------------------------------

def _contiguous_dims(shape, strides, order, small=True):
    """_prims_common's is_contiguous (``small``: fewer than 2 elements are contiguous) or its
    is_channels_last_contiguous_2d (no such shortcut) over ``order``, the dims fastest first."""
    if small and int(np.prod(shape)) < 2:
        return True
    expected = 1
    for d in order:
        if shape[d] == 1:
            continue
        if strides[d] != expected:
            return False
        expected *= shape[d]
    return True


@method("dim_order")
def dim_order(input, *, ambiguity_check=False):
    """PyTorch's Python ``Tensor.dim_order`` (torch/_tensor.py and _prims_common's
    compute_elementwise_output_logical_to_physical_perm); a list of memory formats passes the
    ambiguity check when the tensor is contiguous in exactly one of them."""
    from .memory_format import memory_format
    if not isinstance(ambiguity_check, bool) and not (isinstance(ambiguity_check, list) and all(
            isinstance(f, memory_format) for f in ambiguity_check)):
        raise TypeError("The ambiguity_check argument must be a bool or a list of memory formats.")
    shape, strides, n = tuple(input.shape), input.stride(), input.ndim
    check = ambiguity_check if isinstance(ambiguity_check, bool) else True
    formats = ambiguity_check if isinstance(ambiguity_check, list) else []
    if check and (any(a == b for a, b in zip(strides, strides[1:])) or 1 in shape) and sum(
            bool(input.is_contiguous(memory_format=f)) for f in formats) != 1:
        raise RuntimeError("The tensor does not have unique dim order, or cannot map to exact one of the given "
                           "memory formats.")
    if n == 0:
        return ()
    if n == 1:
        return (0,)
    contiguous = _contiguous_dims(shape, strides, range(n - 1, -1, -1))
    channels_last = n == 4 and _contiguous_dims(shape, strides, (1, 3, 2, 0), small=False)
    if contiguous and not channels_last:
        return tuple(range(n))
    if channels_last and not contiguous:
        return (0, *range(2, n), 1)

    def ge(a, b):
        return True if b == 0 else False if a == 0 else a >= b or a % b == 0

    def should_swap(a, b):
        sa, sb = strides[a], strides[b]
        if sa == 0 or sb == 0:
            return 0
        if sa == sb:
            return 0 if ge(shape[b], shape[a]) else 1
        if ge(sb, sa):
            return -1
        return 1 if ge(sa, sb) else 0

    perm = insertion_sort(list(reversed(range(n))), should_swap)
    if ambiguity_check and any(should_swap(perm[i], perm[i + 1]) != -1 for i in range(n - 1)):
        raise RuntimeError("The tensor does not have unique dim order.")
    return tuple(reversed(perm))


# memory placement: CPU only ---------------------------------------------------------------------

@method("share_memory_")
def share_memory_(input):
    _entry(_root(storage_of(input)[0]))[2] = True
    return input


@method("is_shared")
def is_shared(input):
    return _entry(_root(storage_of(input)[0]))[2]


@method("pin_memory")
def pin_memory(input, device=None):
    if device is not None:
        _warn("The argument 'device' of Tensor.pin_memory() is deprecated. Please do not pass this argument.",
              DeprecationWarning)
        from ..devices import device as _device
        if _device(device).type == "cpu":
            raise RuntimeError("CPU device type not an accelerator.")
    raise RuntimeError("Cannot access accelerator device when none is available.")


@method("is_distributed")
def is_distributed(input):
    return False


Tensor.name = property(lambda self: None)  # (PyTorch's tensor name, set only by its JIT tracer)


def _no_such_dtype(method_name, dtype_name):
    def fn(input, *args, **kwargs):
        raise NotImplementedError(f"agrad has no {dtype_name} dtype: Tensor.{method_name}() is not supported "
                                  "(float16, float32 and float64 are; docs/semantics.md)")

    fn.__name__ = method_name
    method(method_name)(fn)


for _m, _d in (("bfloat16", "bfloat16"), ("cfloat", "complex64"), ("cdouble", "complex128"),
               ("chalf", "complex32")):
    _no_such_dtype(_m, _d)
del _m, _d

