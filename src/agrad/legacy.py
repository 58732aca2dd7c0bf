"""PyTorch's legacy names: torch.FloatTensor / DoubleTensor / LongTensor / ... (constructors,
``isinstance`` checks and ``x.type(torch.DoubleTensor)``), torch.autograd.Variable, and the
version string scripts compare against (``torch.__version__``)."""

from __future__ import annotations


from . import dtypes
from .tensor import Tensor
from ._warn_once import warn as _warn

#: what ``torch.__version__`` reads in a script (agrad's own version is agrad.__version__)
TORCH_VERSION = "2.13.0"


class _ClosedMeta(type):
    """A metaclass whose classes are all made here: a script that reaches it (``type(torch.FloatTensor)``)
    cannot call it to make a class, as it cannot call ``type`` with three arguments."""

    closed = False

    def __new__(mcs, *args, **kwargs):
        if _ClosedMeta.closed:
            raise TypeError("type() with three arguments is not supported in agrad scripts (use a class statement)")
        return super().__new__(mcs, *args, **kwargs)


class _LegacyTensorType(_ClosedMeta):
    """The metaclass of torch.FloatTensor & co: calling one makes a tensor of its dtype,
    ``isinstance(x, torch.FloatTensor)`` is true for float32 tensors."""

    def __call__(cls, *args, device=None, **kwargs):
        from .ops.factories import legacy_new
        return legacy_new(cls.dtype, args, device, kwargs)

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype

    def __repr__(cls):
        return f"<class 'torch.{cls.__name__}'>"


def _legacy_type(name, d):
    return _LegacyTensorType(name, (), {"dtype": d, "__module__": __name__, "__slots__": ()})


FloatTensor = _legacy_type("FloatTensor", dtypes.float32)
DoubleTensor = _legacy_type("DoubleTensor", dtypes.float64)
HalfTensor = _legacy_type("HalfTensor", dtypes.float16)
LongTensor = _legacy_type("LongTensor", dtypes.int64)
IntTensor = _legacy_type("IntTensor", dtypes.int32)
ShortTensor = _legacy_type("ShortTensor", dtypes.int16)
CharTensor = _legacy_type("CharTensor", dtypes.int8)
ByteTensor = _legacy_type("ByteTensor", dtypes.uint8)
BoolTensor = _legacy_type("BoolTensor", dtypes.bool_)

LEGACY_TYPES = (FloatTensor, DoubleTensor, HalfTensor, LongTensor, IntTensor, ShortTensor, CharTensor, ByteTensor,
                BoolTensor)


_MISSING = object()


class _VariableMeta(_ClosedMeta):
    """torch.autograd.Variable's metaclass (VariableMeta): calling Variable makes a tensor, and
    ``isinstance(x, Variable)`` is true for every tensor (tensors are no subclass of it)."""

    def __call__(cls, data=_MISSING, requires_grad=False, volatile=False, **kwargs):
        if kwargs:
            raise TypeError(f"'{next(iter(kwargs))}' is an invalid keyword argument for this function")
        if data is _MISSING:  # Variable(): an empty float tensor
            from .ops.factories import empty
            return empty(0)
        if not isinstance(data, Tensor):
            from .ops._pyargs import tp_name
            raise TypeError(f"Variable data has to be a tensor, but got {tp_name(data)}")
        if volatile:
            _warn("volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
                  UserWarning)
        out = data.detach()
        if requires_grad:
            out._new_requires_grad()
        return out

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor)

    def __repr__(cls):
        return "<class 'torch.autograd.variable.Variable'>"


class Variable(metaclass=_VariableMeta):
    """torch.autograd.Variable: since PyTorch 0.4 a tensor -- ``data`` detached (sharing its
    storage), a new leaf that requires grad if asked."""

    __slots__ = ()


_ClosedMeta.closed = True
