"""torch.nn.Parameter and torch.nn.Buffer: tensors that a Module registers."""

from __future__ import annotations

from ..tensor import Tensor


class Parameter(Tensor):
    """A leaf tensor that a Module registers as a parameter when assigned to it.

    It shares its data with the tensor it was made from (as PyTorch's does) and
    requires grad unless told not to.  Results of ops on it are plain tensors."""

    __slots__ = ()

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            from ..ops.factories import empty
            data = empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"Parameter.__new__(): argument 'data' (position 1) must be Tensor, "
                            f"not {type(data).__name__}")
        p = cls._make(data._data)
        p._vc = data._vc
        if requires_grad:
            p._new_requires_grad()
        return p

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = Parameter(Tensor._make(self._data.copy()), self._requires_grad)
        if self._grad is not None:
            result._grad = Tensor._make(self._grad._data.copy())
        memo[id(self)] = result
        return result

    def __reduce_ex__(self, proto):
        raise TypeError("agrad Parameters cannot be pickled")


class Buffer(Tensor):
    """``nn.Buffer(data, persistent=True)``: marks a tensor to be registered as a
    buffer when assigned to a Module attribute."""

    __slots__ = ("persistent",)

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            from ..ops.factories import empty
            data = empty(0)
        b = cls._make(data._data)
        b._vc = data._vc
        b._requires_grad = data._requires_grad if data._grad_fn is None else False
        b.persistent = persistent
        return b


def _plain(t: Tensor) -> Tensor:
    """A Buffer's tensor as a plain Tensor (what the module stores)."""
    out = Tensor._make(t._data, t._requires_grad)
    out._vc = t._vc
    return out


# ------------------------------------------------------------------ lazy modules' placeholders

_UNINIT_ALLOWED = frozenset("size copy_ is_complex is_floating_point half float double char short "
                            "int long cuda cpu to get_device share_memory_".split())  # (the mixin's own)
_tensor_methods = None


def _methods():
    global _tensor_methods
    if _tensor_methods is None:
        import types
        _tensor_methods = frozenset(n for k in Tensor.__mro__ for n, v in vars(k).items()
                                    if not n.startswith("_") and isinstance(v, types.FunctionType))
    return _tensor_methods


class UninitializedTensorMixin:
    """A parameter or buffer whose shape a lazy module learns from its first input: its
    methods (but ``size``, ``to``, the dtype casts ...) raise until ``materialize(shape)``
    gives it data and turns it into ``cls_to_become``."""

    __slots__ = ()

    def __getattribute__(self, name):
        if name[:1] != "_" and name not in _UNINIT_ALLOWED and name in _methods():
            kind = type(self).__name__

            def refuse(*args, **kwargs):
                raise ValueError(
                    f"Attempted to use an uninitialized parameter in <method '{name}' of "
                    "'torch._C.TensorBase' objects>. This error happens when you are using a "
                    f"`LazyModule` or explicitly manipulating `torch.nn.parameter.{kind}` "
                    "objects. When using LazyModules Call `forward` with a dummy batch to "
                    "initialize the parameters before calling torch functions")
            return refuse
        return object.__getattribute__(self, name)

    def materialize(self, shape, device=None, dtype=None):
        """Give the placeholder uninitialised data of ``shape`` and make it a real tensor."""
        from ..ops.factories import empty
        self._data = empty(shape, dtype=dtype if dtype is not None else self.dtype)._data
        self.__class__ = self.cls_to_become

    @property
    def shape(self):
        raise RuntimeError(
            "Can't access the shape of an uninitialized parameter or buffer. This error usually "
            "happens in `load_state_dict` when trying to load an uninitialized parameter into an "
            "initialized one. Call `forward` to initialize the parameters before accessing their "
            "attributes.")

    def share_memory_(self):
        raise RuntimeError(
            "Can't share memory on an uninitialized parameter or buffer. Call `forward` to "
            "initialize the parameters before calling `module.share_memory()`.")

    def __repr__(self):
        return f"<{type(self).__name__}>"

    __str__ = __repr__

    def __reduce_ex__(self, proto):
        raise TypeError(f"agrad {type(self).__name__}s cannot be pickled")


def is_lazy(param) -> bool:
    """Whether ``param`` is an uninitialised parameter or buffer of a lazy module."""
    return isinstance(param, UninitializedTensorMixin)


def _empty_data(dtype):
    from ..ops.factories import empty
    return empty(0, dtype=dtype)


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A Parameter with no shape yet (``LazyLinear(3).weight`` before the first call)."""

    __slots__ = ()
    cls_to_become = Parameter

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        return Parameter.__new__(cls, _empty_data(dtype), requires_grad)

    def __deepcopy__(self, memo):
        if id(self) not in memo:
            memo[id(self)] = type(self)(self.requires_grad, None, self.dtype)
        return memo[id(self)]


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    """A buffer with no shape yet (a lazy batch norm's ``running_mean``)."""

    __slots__ = ()
    cls_to_become = Tensor
    persistent = True

    def __new__(cls, requires_grad=False, device=None, dtype=None, persistent=True):
        if not persistent:
            cls = _NonPersistentUninitializedBuffer
        data = _empty_data(dtype)
        b = cls._make(data._data, requires_grad)
        return b

    def __deepcopy__(self, memo):
        if id(self) not in memo:
            memo[id(self)] = UninitializedBuffer(self.requires_grad, None, self.dtype,
                                                 self.persistent)
        return memo[id(self)]


class _NonPersistentUninitializedBuffer(UninitializedBuffer):
    __slots__ = ()
    persistent = False


_NonPersistentUninitializedBuffer.__name__ = _NonPersistentUninitializedBuffer.__qualname__ = \
    "UninitializedBuffer"
