"""Factories: tensor, zeros, ones, arange, rand, ... and the legacy torch.Tensor(...)."""

from __future__ import annotations

import math
import numbers
from collections import deque as _deque
import operator

import numpy as np

from .. import dtypes
from .._limits import check_numel
from ..devices import check_default as _check_default_device
from ..tensor import Tensor, device as _device
from . import _layout, _range_math
from ._op import FUNCTIONS, _forward_observers, _inference_seen, _new_tensor, export, finish_out
from .._warn_once import warn as _warn

_np_array = np.array  # (a module global: numpy's module __getattr__ keeps 3.11 from specialising np.X)


def _dtype_or_default(dtype):
    return dtypes.get_default_dtype() if dtype is None else dtypes.lookup(dtype)


def _shape(size):
    """Sizes given as f(2, 3), f((2, 3)), f([2, 3]) or f(torch.Size([2, 3]))."""
    if len(size) == 1 and not isinstance(size[0], numbers.Integral) and not isinstance(size[0], Tensor):
        size = tuple(size[0])
    out = []
    for s in size:
        if isinstance(s, Tensor):
            s = s.__index__()
        if isinstance(s, bool) or not isinstance(s, numbers.Integral):
            raise TypeError(f"expected a sequence of integers as the size, but got an element of type {type(s).__name__}")
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(size)}")
        out.append(int(s))
    n = 1
    for s in out:
        n *= s
    check_numel(n)
    return tuple(out)


def _finish(data, requires_grad, device=None):
    if device is not None:
        _device(device)
    else:
        _check_default_device()
    t = Tensor._make(data)
    if requires_grad:
        t._new_requires_grad()
    if _forward_observers:
        for obs in _forward_observers:
            obs("tensor", (), (), {}, t)
    return t


def _infer_dtype(data):
    """The dtype torch.tensor gives data: an array's or tensor's own; for Python
    data bool, int64, or the default float."""
    t = type(data)
    if t is float:
        return dtypes.get_default_dtype()
    if t is int:
        return dtypes.int64
    if isinstance(data, np.ndarray):
        return dtypes.from_numpy(data.dtype)
    if isinstance(data, Tensor):
        return data.dtype
    if isinstance(data, (np.floating, np.integer, np.bool_)):
        return dtypes.from_numpy(np.asarray(data).dtype)
    # infer_scalar_type: each leaf's own type (a tensor's, an array's or a numpy scalar's dtype; bool, int64 or
    # the default float for Python's), promoted over the sequence with promoteTypes
    found = None
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, Tensor):
            d = x.dtype
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
            continue
        elif isinstance(x, np.ndarray) or is_agrad_array(x):
            d = dtypes.from_numpy(np.asarray(x).dtype)
        elif isinstance(x, (bool, np.bool_)):
            d = dtypes.bool_
        elif isinstance(x, (np.integer, np.floating)):
            d = dtypes.from_numpy(np.asarray(x).dtype)
        elif isinstance(x, numbers.Integral):
            d = dtypes.int64
        elif isinstance(x, numbers.Real):
            d = dtypes.get_default_dtype()
        elif isinstance(x, str):  # (a str inside the data: PyTorch reads it as one more dimension)
            raise ValueError("too many dimensions 'str'")
        else:
            raise RuntimeError(f"Could not infer dtype of {type(x).__name__}")
        found = d if found is None else dtypes.promote_types(found, d)
    return dtypes.get_default_dtype() if found is None else found


def _to_array(data, dtype):
    """``data`` (numbers, bools, nested lists/tuples of them, tensors, numeric
    arrays) as an array of ``dtype``.  Anything else is refused before numpy
    sees it: numpy would otherwise read a foreign object through its sequence
    or buffer protocols, or make an object array of it."""
    if isinstance(data, Tensor):  # (a copy laid out as _to_copy's empty_like: an expanded one contiguous)
        a = data._data
        if type(a) is not np.ndarray:
            return a.astype(dtype.numpy, copy=True)
        out = _layout.empty_like(a, dtype.numpy)
        out[...] = dtypes.via_float(a, dtype.numpy)
        return out
    if isinstance(data, np.ndarray):
        dtypes.from_numpy(data.dtype)  # PyTorch's error for object, string, void arrays
        return dtypes.via_float(data, dtype.numpy) if dtype is dtypes.float16 else data.astype(dtype.numpy, copy=True)
    if isinstance(data, (list, tuple)):
        if _check_nested(data, dtype):
            data = _tensor_leaves(data, dtype)
    else:
        _check_leaf(data)
    try:
        if dtype is dtypes.float16:  # (each number made a half through float32, as c10::Half is)
            with np.errstate(over="ignore"):
                arr = np.array(data, dtype=np.float32).astype(np.float16)
        else:
            arr = np.array(data, dtype=dtype.numpy)
    except (ValueError, TypeError) as e:
        raise ValueError(f"expected sequence of equal-length lists or numbers: {e}") from None
    except OverflowError:
        if not dtype.is_floating_point and _past_int64(data):  # (an integer type unpacks a long long first)
            raise ValueError("Overflow when unpacking long long") from None
        arr = _wrapped_unsigned(data, dtype)
        if arr is None:
            raise RuntimeError(f"value cannot be converted to type {dtype.name} without overflow") from None
    return arr


def _past_int64(data) -> bool:
    """Whether a Python int of ``data`` (nested lists or tuples of numbers) lies outside int64."""
    if isinstance(data, (list, tuple)):
        return any(_past_int64(d) for d in data)
    return type(data) is int and not -(1 << 63) <= data < (1 << 63)


def _wrapped_unsigned(data, dtype):
    """uint8 data of Python ints (and bools) some of them negative: c10's checked_convert lets an unsigned
    type take an integer down to -max, wrapping round (-3 is 253); None where that does not apply."""
    if dtype is not dtypes.uint8:
        return None
    try:
        ints = np.array(data)
    except (ValueError, TypeError, OverflowError):
        return None
    if ints.dtype.kind not in "biu" or ints.size and (ints.min() < -255 or ints.max() > 255):
        return None
    return (ints.astype(np.int64) & 0xFF).astype(np.uint8)


def _tensor_leaves(data, dtype):
    """``data`` with each tensor in it read as PyTorch reads it there: a Python
    scalar (``float()`` for a floating target dtype, with its warning for a
    tensor that requires grad; ``__index__`` for an integer or bool one), never
    a sub-list (``torch.tensor([torch.ones(2)])`` is an error)."""
    out = []
    for d in data:
        if isinstance(d, Tensor):
            d = float(d) if dtype.is_floating_point else operator.index(d)
        elif isinstance(d, (list, tuple)):
            d = _tensor_leaves(d, dtype)
        out.append(d)
    return out


def _check_nested(data, dtype=None):
    """Count the elements of nested lists (the size limit) and check every leaf;
    whether a tensor is among them. ``dtype``: the tensor's, into which an integer or bool one takes a
    numpy bool or a numpy float that is not a Python float (float32, float16) through ``__index__``:
    PyTorch's TypeError."""
    stack = [data]
    count = 0
    tensors = False
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            count += len(x)
            check_numel(count)
            stack.extend(x)
        else:
            _check_leaf(x)
            tensors = tensors or isinstance(x, Tensor)
            if dtype is not None and isinstance(x, np.generic) and not dtype.is_floating_point and (
                    type(x) is np.bool_ and dtype is not dtypes.bool_
                    or isinstance(x, np.floating) and not isinstance(x, float)):
                raise TypeError(f"'numpy.{type(x).__name__}' object cannot be interpreted as an integer")
    return tensors


def is_agrad_array(x) -> bool:
    """An array type of agrad's own (the script language's guarded numpy arrays):
    numeric data behind ``__array__``."""
    t = type(x)
    return t.__module__.startswith("agrad.") and hasattr(t, "__array__")


def _check_leaf(x):
    if isinstance(x, (bool, int, float, np.number, np.bool_, Tensor)):
        return
    if isinstance(x, str):
        raise ValueError("too many dimensions 'str'")
    if isinstance(x, np.ndarray) or is_agrad_array(x):
        dtypes.from_numpy(np.asarray(x).dtype)
        return
    raise TypeError(f"must be real number, not {type(x).__name__}")


@export()
def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor holding a copy of ``data``."""
    if type(data) is float and dtype is None and device is None and not _forward_observers and not _inference_seen[0]:
        # torch.tensor(2.0): _infer_dtype's, _to_array's and _finish's steps for a Python float
        # (the default float dtype, no check of its own), without their calls
        _check_default_device()
        t = _new_tensor(Tensor)
        t._data = _np_array(data, dtypes._default_float.numpy)
        t._requires_grad = bool(requires_grad)  # (a floating dtype: no check to make)
        t._grad_fn = t._grad = t._accumulator = t._base = None
        t._output_nr = 0
        t._vc = [0]
        t._retains = False
        return t
    if isinstance(data, Tensor):

        _warn(
            "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
            "or sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).",
            UserWarning)
    elif isinstance(data, str):
        raise TypeError("new(): invalid data type 'str'")
    elif isinstance(data, (range, _deque)) or (type(data) in (list, tuple) and data
                                               and isinstance(data[0], (range, _deque))):
        data = _as_lists(data)   # (PyTorch reads any sequence: a range, a deque of returns)
    d = _infer_dtype(data) if dtype is None else dtypes.lookup(dtype)
    return _finish(_to_array(data, d), requires_grad, device)


def _as_lists(data):
    """``data`` with its ranges and deques (nested ones too) as lists."""
    if isinstance(data, (range, _deque)):
        check_numel(len(data))
        data = list(data)
    if isinstance(data, (list, tuple)) and any(isinstance(d, (range, _deque, list, tuple)) for d in data):
        return [_as_lists(d) for d in data]
    return data


@export()
def as_tensor(data, dtype=None, device=None):
    """``data`` as a tensor, sharing memory when it already is one of that dtype."""
    if isinstance(data, Tensor) and (dtype is None or dtypes.lookup(dtype) is data.dtype):
        return data
    if isinstance(data, Tensor):
        return data.to(dtypes.lookup(dtype))
    if isinstance(data, np.ndarray):
        d = dtypes.from_numpy(data.dtype) if dtype is None else dtypes.lookup(dtype)
        return _finish(data if data.dtype == d.numpy else data.astype(d.numpy), False, device)
    return tensor(data, dtype=dtype, device=device)


@export()
def from_numpy(ndarray):
    """A tensor sharing memory with a numpy array."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(ndarray).__name__})")
    dtypes.from_numpy(ndarray.dtype)
    return Tensor._make(ndarray)


def legacy_tensor(*args, device=None, **kwargs):
    """torch.Tensor(data) or torch.Tensor(*sizes): always the default float dtype,
    never requires grad (PyTorch's error for a requires_grad= or dtype= keyword);
    torch.Tensor(t) is an alias of ``t`` whatever its dtype."""
    return legacy_new(dtypes.get_default_dtype(), args, device, kwargs, typed=False)


def legacy_new(d, args, device=None, kwargs=None, typed=True):
    """torch.Tensor / torch.FloatTensor / ... (...) and ``x.new(...)``, of dtype ``d`` (PyTorch's
    legacy_tensor_new: a tensor argument is aliased (AliasBackward0), of dtype ``d`` when ``typed``)."""
    if kwargs:
        from ._pyargs import tp_name
        got = ", ".join([tp_name(a) for a in args] + [f"{k}={tp_name(v)}" for k, v in kwargs.items()])
        raise TypeError(
            f"new() received an invalid combination of arguments - got ({got}), but expected one of:\n"
            " * (*, torch.device device = None)\n"
            f"      didn't match because some of the keywords were incorrect: {', '.join(kwargs)}\n"
            " * (torch.Storage storage)\n * (Tensor other)\n"
            " * (tuple of ints size, *, torch.device device = None)\n"
            " * (object data, *, torch.device device = None)\n")
    if device is not None:
        _device(device)
    if not args:
        return Tensor._make(np.empty((0,), d.numpy))
    src = args[0]
    if len(args) == 1 and (not isinstance(src, numbers.Integral) or type(src) is bool) \
            and not type(src).__name__ == "Size":
        if isinstance(src, Tensor):
            if typed and src.dtype is not d:
                raise TypeError(f"expected {_options(d)} (got {_options(src.dtype)})")
            from .indexing import alias
            return alias(src)
        if isinstance(src, str):
            raise TypeError(f"new(): invalid data type '{type(src).__name__}'")
        if not hasattr(src, "__len__"):
            from ._pyargs import tp_name
            raise TypeError(f"new(): data must be a sequence (got {tp_name(src)})")
        return Tensor._make(_to_array(list(src) if type(src) is range else src, d))
    if isinstance(src, numbers.Integral):
        for i, a in enumerate(args[1:], 2):
            if not isinstance(a, numbers.Integral):
                raise TypeError(f"new(): argument 'size' failed to unpack the object at pos {i} with error "
                                f"\"type must be tuple of ints,but got {type(a).__name__}\"")
        args = tuple(int(a) for a in args)  # (a bool is a size too: torch.Tensor(2, True) is 2 x 1)
    return Tensor._make(np.zeros(_shape(args), d.numpy))


def _options(d):
    from .pointwise import _C_NAMES
    return (f"TensorOptions(dtype={_C_NAMES[d.name]}, device=cpu, layout=Strided, requires_grad=false (default), "
            "pinned_memory=false (default), memory_format=(nullopt))")


class layout:
    """torch.layout: agrad has the dense one only, ``torch.strided``."""

    __slots__ = ("_name",)

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return f"torch.{self._name}"


strided = layout("strided")
FUNCTIONS["layout"] = layout
FUNCTIONS["strided"] = strided


def _check_options(layout=None, pin_memory=False):
    """``layout=`` and ``pin_memory=`` as a CPU-only build of PyTorch takes them."""
    if layout is not None and layout is not strided:
        raise RuntimeError(f"agrad supports only the strided layout (torch.strided), not {layout}")
    if pin_memory:
        raise RuntimeError("pin_memory=True requires a CUDA or other accelerator backend; no pinned memory "
                           "allocator is available on this system.")


def _sizes(size, kw, fname):
    """The size of f(2, 3), f((2, 3)) or f(size=(2, 3))."""
    if "size" in kw:
        if size:
            raise TypeError(f"{fname}() got multiple values for argument 'size'")
        size = (kw.pop("size"),)
    if kw:
        raise TypeError(f"{fname}() got an unexpected keyword argument '{next(iter(kw))}'")
    if len(size) == 1 and isinstance(size[0], float):
        raise TypeError(f"{fname}(): argument 'size' (position 1) must be tuple of ints, not float")
    return _shape(size)


def _filled(fill, shape, dtype, requires_grad, device, out=None, fname="", layout=None, pin_memory=False):
    _check_options(layout, pin_memory)
    d = out.dtype if out is not None and dtype is None else _dtype_or_default(dtype)
    t = _finish(np.full(shape, dtypes.fill_scalar(fill, d.numpy, math.prod(shape))), requires_grad, device)
    return finish_out(fname, t, out, quiet_resize=True) if out is not None else t


@export()
def zeros(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False, **kw):
    try:
        shape = _sizes(size, kw, "zeros")
    except RuntimeError as e:
        if "negative dimension" in str(e):  # (zeros checks its SymInt sizes itself)
            raise RuntimeError("zeros: Dimension size must be non-negative.") from None
        raise
    return _filled(0, shape, dtype, requires_grad, device, out, "zeros", layout, pin_memory)


@export()
def ones(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False, **kw):
    return _filled(1, _sizes(size, kw, "ones"), dtype, requires_grad, device, out, "ones", layout, pin_memory)


@export()
def empty(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False,
          memory_format=None, **kw):
    # agrad fills "uninitialised" memory with zeros, so runs are repeatable.
    result = _filled(0, _sizes(size, kw, "empty"), dtype, requires_grad, device, out, "empty", layout, pin_memory)
    if memory_format is not None and out is None:
        from .memory_format import checked, laid_out, preserve_format
        if checked(memory_format, "empty") is preserve_format:
            raise RuntimeError("unsupported memory format Preserve")
        result._data = laid_out(result._data, memory_format)
    return result


@export()
def full(size, fill_value, *, out=None, dtype=None, layout=None, device=None, requires_grad=False,
         pin_memory=False):
    if dtype is None and out is None:
        dtype = dtypes.scalar_dtype(fill_value)
    return _filled(fill_value, _shape((size,)), dtype, requires_grad, device, out, "full", layout, pin_memory)


@export()
def eye(n, m=None, *, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    _check_options(layout, pin_memory)
    m = n if m is None else m
    for name, v in (("n", n), ("m", m)):  # eye_out_cpu's checks, before the size's
        if isinstance(v, (int, np.integer)) and v < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {int(v)}")
    _shape((n, m))
    t = _finish(np.eye(n, m, dtype=_dtype_or_default(dtype).numpy), requires_grad, device)
    return finish_out("eye", t, out, quiet_resize=True) if out is not None else t


# ranges: PyTorch's own formulas (agrad.ops._range_math) ------------------------------

def _number(x, tensor_ok=False):
    """A Number parameter's value; ``tensor_ok``: linspace/logspace, whose Tensor overloads take any 0-d tensor."""
    if isinstance(x, Tensor):
        if x.ndim or x._requires_grad and not tensor_ok:  # (a Number is a 0-d tensor that needs no grad to the parser: the caller's
            # parse gives PyTorch's TypeError)
            raise TypeError("a tensor with dimensions is no Number")
        return x.item()
    if isinstance(x, (bool, np.bool_)):
        return int(x)
    if isinstance(x, (np.integer, np.floating)):
        return x.item()
    return x


def _is_float(x):
    # (a numpy float, and a numpy bool, are doubles to PyTorch's parser)
    return isinstance(x, (float, np.floating, np.bool_)) or (isinstance(x, Tensor) and x.dtype.is_floating_point)


def _acc(x, d):
    """Scalar.to<accscalar_t>(): a number as the dtype's accumulate type (int64 for
    integer dtypes, truncating; float for float16; double otherwise)."""
    if d.is_floating_point:
        return float(np.float32(x)) if d.name == "float16" else float(x)
    if isinstance(x, float) and not math.isfinite(x):
        return x
    return int(x)


def _range_checks(start, end, step):
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {_cfmt(start)} -> {_cfmt(end)}")
    if not ((step > 0 and end >= start) or (step < 0 and end <= start)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")


def _cfmt(x):
    """A number as C++'s ostream prints it."""
    return f"{x:g}" if isinstance(x, float) else str(x)


def _range_dtype(dtype, out, args, what, kernel=True):
    """The result's dtype; ``kernel``: the op reaches its CPU kernel (linspace/logspace of one step
    or none only fill, so a bool result is no error there)."""
    if dtype is not None:
        d = dtypes.lookup(dtype)
    elif out is not None:
        d = out.dtype
    elif what == "range" or any(_is_float(a) for a in args):
        d = dtypes.get_default_dtype()
    else:
        d = dtypes.int64
    if d.name == "bool" and kernel:
        raise NotImplementedError(f"\"{what}_cpu\" not implemented for 'Bool'")
    return d


def _range_result(data, requires_grad, device, out, fname, layout, pin_memory, ends=()):
    """``ends``: linspace's/logspace's start and end; their Tensor overloads' out= runs autograd's
    not-implemented fallback (an end that requires grad leaves out with a NotImplemented node)."""
    _check_options(layout, pin_memory)
    t = _finish(data, requires_grad, device)
    if out is None:
        return t
    if fname == "arange" and out.numel() not in (0, t.numel()):  # (arange's own check; linspace/logspace/range: none)
        _warn(f"The number of elements in the out tensor of shape {list(out.shape)} is {out.numel()} "
              f"which does not match the computed number of elements {t.numel()}. Note that this may "
              "occur as a result of rounding error. The out tensor will be resized to a tensor of shape "
              f"({t.numel()},).", UserWarning)
    if out.numel() == t.numel() and out.shape != t.shape:
        # (RangeFactories.cpp resizes only an out of another numel: one of as many elements keeps its
        # shape and strides and takes the values in its logical order)
        t = Tensor._make(t._data.reshape(out.shape))
    tensors = [e for e in ends if isinstance(e, Tensor)]
    if tensors:
        from ._not_implemented import recorded_out
        from ._outs import _resize_out, fallback_refusal

        if fallback_refusal(fname, tensors, (out,)):
            if out.shape != t.shape:  # (resized by the kernel: no warning)
                _resize_out(out, t._data)
            return recorded_out(fname, t, tuple(tensors), out, lambda result, out: None)
    return finish_out(fname, t, out, quiet_resize=True)


@export()
def arange(start=0, end=None, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False,
           pin_memory=False):
    """Values from start to end (exclusive) by step, with PyTorch's own arithmetic."""
    if out is not None and dtype is not None:
        from ._argcheck import _check_out_type_matches
        _check_out_type_matches(dtype, out)
    if end is None:
        start, end = 0, start
    d = _range_dtype(dtype, out, (start, end, step), "arange")
    start, end, step = _number(start), _number(end), _number(step)
    xstart, xend, xstep = _acc(start, d), _acc(end, d), _acc(step, d)
    _range_checks(float(start), float(end), float(step))   # on the numbers as given
    if d.name == "int64":
        if xstep == 0:
            raise ValueError("step must be nonzero")
        sgn = (xstep > 0) - (xstep < 0)
        num = xend - xstart + xstep - sgn
        size = abs(num) // abs(xstep) * (1 if (num >= 0) == (xstep > 0) else -1)
    else:
        size = math.ceil((float(end) - float(start)) / float(step))
    if size < 0 or size > 2 ** 63 - 1:
        raise RuntimeError("invalid size, possible overflow?")
    check_numel(size)
    data = _range_math.arange_values(xstart, xstep, size, d)
    return _range_result(data, requires_grad, device, out, "arange", layout, pin_memory)


@export("range")
def range_(start, end=None, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False,
           pin_memory=False):
    """The deprecated torch.range: end included, default float dtype."""
    if end is None:
        raise TypeError('range() missing 1 required positional arguments: "end"')
    _warn("torch.range is deprecated and will be removed in a future release because its behavior is "
          "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values "
          "in [start, end).", UserWarning)
    d = _range_dtype(dtype, out, (start, end, step), "range")
    xstart, xend, xstep = (_acc(_number(v), d) for v in (start, end, step))
    _range_checks(xstart, xend, xstep)
    if d.is_floating_point:
        acc = np.float32 if d.name == "float16" else np.float64
        size = int(acc(acc(acc(xend) - acc(xstart)) / acc(xstep)) + acc(1))
    else:
        q = xend - xstart
        size = abs(q) // abs(xstep) * (1 if (q >= 0) == (xstep > 0) else -1) + 1
    check_numel(size)
    data = _range_math.range_values(xstart, xstep, size, d)
    return _range_result(data, requires_grad, device, out, "range", layout, pin_memory)


def _steps(steps):
    steps = _number(steps, True)
    if isinstance(steps, bool) or not isinstance(steps, numbers.Integral):
        raise TypeError(f"linspace(): argument 'steps' (position 3) must be int, not {type(steps).__name__}")
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    check_numel(int(steps))
    return int(steps)


def _cast_scalar(x, d):
    """Scalar.to<scalar_t>(), checked (c10's checked_convert: an end outside an integral dtype is refused,
    an unsigned one's negative integer wraps round)."""
    if d.is_floating_point:
        return dtypes.via_float(x, d.numpy)[()]
    return int(dtypes.checked_scalar(x, d.numpy))


def _zero_dim_ends(fname, start, end):
    """The Tensor overloads of linspace/logspace take 0-d start and end only (checked first)."""
    bad = [f"{name} with {t.ndim} dimension(s)" for name, t in (("start", start), ("end", end))
           if isinstance(t, Tensor) and t.ndim]
    if bad:
        raise RuntimeError(f"{fname} only supports 0-dimensional start and end tensors, but got {' and '.join(bad)}.")


@export()
def linspace(start, end, steps, *, out=None, dtype=None, layout=None, device=None, requires_grad=False,
             pin_memory=False):
    """``steps`` values from start to end inclusive, with PyTorch's own arithmetic."""
    _zero_dim_ends("linspace", start, end)
    ends = (start, end)
    steps = _steps(steps)
    d = _range_dtype(dtype, out, (1.0,), "linspace", steps > 1)
    start, end = _number(start, True), _number(end, True)
    if steps <= 1:
        data = np.full(steps, start).astype(d.numpy) if d.is_floating_point else \
            np.full(steps, int(start), np.int64).astype(d.numpy)
    else:
        data = _range_math.linspace_values(_cast_scalar(start, d), _cast_scalar(end, d), steps, d)
    return _range_result(data, requires_grad, device, out, "linspace", layout, pin_memory, ends)


@export()
def logspace(start, end, steps, base=10.0, *, out=None, dtype=None, layout=None, device=None,
             requires_grad=False, pin_memory=False):
    """``steps`` powers of ``base`` with exponents from start to end, PyTorch's arithmetic."""
    _zero_dim_ends("logspace", start, end)
    ends = (start, end)
    steps = _steps(steps)
    d = _range_dtype(dtype, out, (1.0,), "logspace", steps > 1)
    start, end = _number(start, True), _number(end, True)
    if steps <= 1:
        data = np.full(steps, np.power(float(base), float(start))).astype(d.numpy)
    else:
        data = _range_math.logspace_values(_cast_scalar(start, d), _cast_scalar(end, d), steps, base, d)
    return _range_result(data, requires_grad, device, out, "logspace", layout, pin_memory, ends)


def _filled_like(input, value, d, memory_format=None):
    """A new array of ``input``'s shape and layout (PyTorch's preserve_format), or in
    ``memory_format``, holding ``value``."""
    from .memory_format import explicit, laid_out
    fmt = explicit(memory_format, "empty_like")
    if fmt is not None:
        return laid_out(np.full(input.shape, value, d.numpy), fmt)
    a = input._data
    if type(a) is not np.ndarray or a.size and (a.ndim < 2 and a.shape != (1,) or a.flags.c_contiguous
                                                and 1 not in a.shape):
        return np.full(input.shape, value, d.numpy)
    out = _layout.empty_like(a, d.numpy)
    out.fill(value)
    return out


def _like(value, name):
    def like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
        d = input.dtype if dtype is None else dtypes.lookup(dtype)
        return _finish(_filled_like(input, value, d, memory_format), requires_grad, device)

    like.__name__ = like.__qualname__ = name  # (vmap finds its batching rule by this name)
    return export(name)(like)


zeros_like = _like(0, "zeros_like")
ones_like = _like(1, "ones_like")
empty_like = _like(0, "empty_like")


@export()
def full_like(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    d = input.dtype if dtype is None else dtypes.lookup(dtype)
    if memory_format is not None:  # (full_like is empty_like, whose format checks come first, then fill_)
        _filled_like(input, 0, d, memory_format)
    # (fill_'s checked conversion: PyTorch's overflow error, an unsigned type wraps -1 round)
    return _finish(_filled_like(input, dtypes.fill_scalar(fill_value, d.numpy, input.numel()), d, memory_format), requires_grad,
                   device)


def wrap(value, dtype) -> Tensor:
    """A Python number as a 0-d tensor of ``dtype`` (PyTorch's wrapped number); an integer
    out of the dtype's range wraps around as PyTorch's cast does (``uint8 < -3`` compares
    with 253)."""
    try:
        if dtype is dtypes.float16 and type(value) is float:  # (c10::Half of a float: a double rounds twice)
            with np.errstate(over="ignore"):
                return Tensor._make(np.array(np.float32(value), np.float16))
        return Tensor._make(np.array(value, dtype.numpy))
    except OverflowError:
        if type(value) is not int or dtype.numpy.kind not in "iu":
            raise
        bits = dtype.numpy.itemsize * 8
        return Tensor._make(np.array(value % (1 << bits), f"u{dtype.numpy.itemsize}").astype(dtype.numpy))
