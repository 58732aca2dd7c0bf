"""Casts and new tensors like another: to/type/type_as/cpu/cuda (``ToCopyBackward0``) and
new_zeros/new_ones/new_full/new_empty/new_tensor.
"""

from __future__ import annotations

from .. import dtypes
from ..tensor import Tensor
from ._layout import cast
from ._op import Op, method
from .._warn_once import warn as _warn


def _to_copy_fwd(ctx, a, dtype, fmt=None):
    out = cast(a, dtype.numpy)
    if fmt is not None:  # (_to_copy's memory_format: the result allocated in it)
        from .memory_format import laid_out
        out = laid_out(out if out is not a else out.copy(), fmt)
    return out


_to_copy = Op("ToCopyBackward0", _to_copy_fwd, jvp="linear")


@_to_copy.derivative
def _(ctx, grad):
    d = ctx._input_meta[0][1]
    # an integer or bool input (one with history only after ``x.ge_(w)``): the engine refuses
    # the gradient there, with PyTorch's error
    return grad.to(d) if d.is_floating_point or d.is_complex else grad


def _cast(input, d, copy=False, memory_format=None):
    """``input`` in the dtype ``d``: itself when it has it (and ``memory_format``, if one is asked for, is
    its suggested one: to_will_alias), else a copy (ToCopyBackward0) laid out in ``memory_format``."""
    fmt = None
    if memory_format is not None:
        from ._layout import suggested_format
        from .memory_format import explicit, order
        fmt = explicit(memory_format, "to")
        if fmt is not None:
            order(input.shape, fmt)
            if d is input.dtype and not copy:
                if (suggested_format(input._data) or "contiguous_format") == fmt._name:
                    return input  # (to_will_alias: the suggested format is the one asked for)
                copy = True
    if d is input.dtype and not copy:
        return input
    if input._requires_grad and not d.is_floating_point:
        return Tensor._make(_to_copy_fwd(None, input._data, d, fmt))
    return _to_copy.apply((input,), (input._data,), {"dtype": d, "fmt": fmt} if fmt is not None else {"dtype": d})


def _is_device(a):
    return isinstance(a, (str, int)) and not isinstance(a, bool) or type(a).__name__ == "device"


#: to()'s overloads: their positional parameters in order, and what each takes
_TO_OVERLOADS = (("device", "dtype", "non_blocking", "copy"), ("dtype", "non_blocking", "copy"),
                 ("tensor", "non_blocking", "copy"))
_TO_TAKES = {"device": lambda a: a is None or _is_device(a), "dtype": lambda a: a is None or isinstance(a, dtypes.dtype),
             "non_blocking": lambda a: isinstance(a, bool), "copy": lambda a: isinstance(a, bool),
             "tensor": lambda a: isinstance(a, (Tensor, bool, int, float))}


def _to_parses(args, given):
    """Whether one of to()'s overloads takes these positional arguments and keywords (``given``)."""
    for params in _TO_OVERLOADS:
        if len(args) > len(params) or any(k not in params or k in params[:len(args)] for k in given):
            continue
        bound = {**dict(zip(params, args)), **given}
        if params[0] != "device" and bound.get(params[0]) is None:
            continue  # (to(dtype) and to(tensor) need it)
        if all(_TO_TAKES[k](v) for k, v in bound.items()):
            return True
    return False


@method("to")
def to(input, *args, dtype=None, device=None, non_blocking=False, copy=False, memory_format=None, tensor=None):
    """to(dtype), to(device), to(other), to(device, dtype): only the CPU exists (``tensor=``: to(other))."""
    from ..tensor import device as _device
    first = args[0] if args else None
    given = {k: v for k, v in (("dtype", dtype), ("device", device), ("non_blocking", non_blocking),
                               ("copy", copy), ("tensor", tensor)) if v is not None and v is not False}
    if not _to_parses(args, given):  # (PyTorch's parser message replaces this one)
        raise TypeError("to() received an invalid combination of arguments")
    if isinstance(first, (bool, float)):
        # to(Tensor other) takes a number as a wrapped 0-d tensor: to(2.0) is float64, to(True) bool
        args = (dtypes.bool_ if isinstance(first, bool) else dtypes.float64,) + args[1:]
    for a in args:
        if isinstance(a, dtypes.dtype):
            dtype = a
        elif isinstance(a, Tensor):
            dtype = a.dtype
        elif isinstance(a, bool):
            non_blocking = a
        elif a is not None:
            _device(a)
    if device is not None:
        _device(device)
    if isinstance(tensor, Tensor):
        dtype = tensor.dtype
    elif isinstance(tensor, (bool, int, float)):  # (a number as a wrapped 0-d tensor)
        dtype = dtypes.bool_ if isinstance(tensor, bool) else dtypes.int64 if isinstance(tensor, int) else dtypes.float64
    return _cast(input, input.dtype if dtype is None else dtypes.lookup(dtype), copy, memory_format)


def _caster(d):
    def cast(self, *, memory_format=None):
        return _cast(self, d, memory_format=memory_format)

    return cast


for _name, _d in {"float": dtypes.float32, "double": dtypes.float64, "half": dtypes.float16,
                  "long": dtypes.int64, "int": dtypes.int32, "short": dtypes.int16, "char": dtypes.int8,
                  "byte": dtypes.uint8, "bool": dtypes.bool_}.items():
    method(_name)(_caster(_d))


_LEGACY_NAMES = {"torch.FloatTensor": dtypes.float32, "torch.DoubleTensor": dtypes.float64,
                 "torch.HalfTensor": dtypes.float16, "torch.LongTensor": dtypes.int64,
                 "torch.IntTensor": dtypes.int32, "torch.ShortTensor": dtypes.int16,
                 "torch.CharTensor": dtypes.int8, "torch.ByteTensor": dtypes.uint8,
                 "torch.BoolTensor": dtypes.bool_}


@method("type")
def type_(input, dtype=None, non_blocking=False):
    if dtype is None:
        from ..autograd.graph import _LEGACY_TYPE
        return "torch." + _LEGACY_TYPE[input.dtype.name]
    if isinstance(dtype, str) and dtype in _LEGACY_NAMES:
        return _cast(input, _LEGACY_NAMES[dtype])
    if isinstance(dtype, type) and isinstance(getattr(dtype, "dtype", None), dtypes.dtype):
        return _cast(input, dtype.dtype)  # torch.DoubleTensor & co
    return _cast(input, dtypes.lookup(dtype))


@method("type_as")
def type_as(input, other):
    return _cast(input, other.dtype)


@method("cpu")
def cpu(input, memory_format=None):
    return input


@method("cuda")
def cuda(input, device=None, non_blocking=False, memory_format=None):
    """As a CPU-only PyTorch: AssertionError (Torch not compiled with CUDA enabled)."""
    from ..devices import check
    return check("cuda" if device is None else device)


@method("new_zeros")
def new_zeros(input, *size, dtype=None, device=None, requires_grad=False):
    from .factories import _shape, zeros
    try:
        return zeros(*size, dtype=dtype or input.dtype, requires_grad=requires_grad)
    except RuntimeError as e:
        if "non-negative" in str(e):  # new_zeros is empty's, then zero_: empty's words for a negative size
            _shape(size)
        raise


@method("new_ones")
def new_ones(input, *size, dtype=None, device=None, requires_grad=False):
    from .factories import ones
    return ones(*size, dtype=dtype or input.dtype, requires_grad=requires_grad)


@method("new_full")
def new_full(input, size, fill_value, *, dtype=None, device=None, requires_grad=False):
    from .factories import full
    return full(size, fill_value, dtype=dtype or input.dtype, requires_grad=requires_grad)


@method("new_empty")
def new_empty(input, *size, dtype=None, device=None, requires_grad=False):
    return new_zeros(input, *size, dtype=dtype, requires_grad=requires_grad)


@method("new_tensor")
def new_tensor(input, data, *, dtype=None, device=None, requires_grad=False):
    from .factories import tensor
    if isinstance(data, Tensor):  # (torch.tensor's warning, in new_tensor's words)
        import warnings
        _warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
              "sourceTensor.detach().clone().requires_grad_(True), rather than "
              "tensor.new_tensor(sourceTensor).", UserWarning)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return tensor(data, dtype=dtype or input.dtype, requires_grad=requires_grad)
    return tensor(data, dtype=dtype or input.dtype, requires_grad=requires_grad)


@method("new_empty_strided")
def new_empty_strided(input, size, stride, *, dtype=None, layout=None, device=None, requires_grad=False,
                      pin_memory=False):
    """``torch.empty_strided`` in the tensor's dtype (zeros, as agrad's ``empty`` gives)."""
    from .strided import empty_strided
    return empty_strided(size, stride, dtype=dtype or input.dtype, layout=layout, device=device,
                         requires_grad=requires_grad, pin_memory=pin_memory)
