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
