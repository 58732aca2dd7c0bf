"""torch dtypes on numpy: names, categories and PyTorch's type promotion."""

from __future__ import annotations

import numpy as np


class dtype:
    """A tensor element type, printed and compared as PyTorch's ``torch.<name>``."""

    __slots__ = ("name", "numpy", "is_floating_point", "is_complex", "is_signed", "itemsize", "_kind")

    def __init__(self, name: str, np_type, kind: int):
        self.name = name
        self.numpy = np.dtype(np_type)
        self._kind = kind  # 0 bool, 1 integer, 2 floating
        self.is_floating_point = kind == 2
        self.is_complex = False
        self.is_signed = name != "uint8" and name != "bool"
        self.itemsize = self.numpy.itemsize

    def __repr__(self) -> str:
        return "torch." + self.name

    __str__ = __repr__

    def __reduce__(self):
        return (_by_name, (self.name,))


bool_ = dtype("bool", np.bool_, 0)
uint8 = dtype("uint8", np.uint8, 1)
int8 = dtype("int8", np.int8, 1)
int16 = dtype("int16", np.int16, 1)
int32 = dtype("int32", np.int32, 1)
int64 = dtype("int64", np.int64, 1)
float16 = dtype("float16", np.float16, 2)
float32 = dtype("float32", np.float32, 2)
float64 = dtype("float64", np.float64, 2)

ALL = (bool_, uint8, int8, int16, int32, int64, float16, float32, float64)
_BY_NP = {d.numpy: d for d in ALL}
_BY_NAME = {d.name: d for d in ALL}
# torch's aliases: torch.float is float32, torch.long is int64, ...
ALIASES = {
    "float": float32, "double": float64, "half": float16, "long": int64,
    "int": int32, "short": int16, "bool": bool_,
}
_BY_NAME.update(ALIASES)

_default_float = float32


def _by_name(name: str) -> dtype:
    return _BY_NAME[name]


def get_default_dtype() -> dtype:
    return _default_float


def set_default_dtype(d: dtype) -> None:
    global _default_float
    if not isinstance(d, dtype) or not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _default_float = d


def from_numpy(np_dtype) -> dtype:
    """The agrad dtype of a numpy dtype; TypeError for types torch has no match for."""
    try:
        return _BY_NP[np.dtype(np_dtype)]
    except KeyError:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np.dtype(np_dtype).name}. The only supported "
            "types are: float64, float32, float16, int64, int32, int16, int8, uint8, and bool."
        ) from None


def lookup(value) -> dtype:
    """Accept a dtype, a torch name ('float32', 'torch.float32') or a numpy dtype."""
    if isinstance(value, dtype):
        return value
    if isinstance(value, str):
        key = value[6:] if value.startswith("torch.") else value
        if key in _BY_NAME:
            return _BY_NAME[key]
        raise TypeError(f"unknown dtype {value!r}")
    if value is float:
        return _default_float
    if value is int:
        return int64
    if value is bool:
        return bool_
    return from_numpy(value)


def promote_types(a: dtype, b: dtype) -> dtype:
    """torch.promote_types: the smallest type both fit in, by category first."""
    if a is b:
        return a
    if a._kind != b._kind:
        return a if a._kind > b._kind else b
    if a._kind == 2:  # floats: the wider one
        return a if a.itemsize >= b.itemsize else b
    return _BY_NP[np.promote_types(a.numpy, b.numpy)]  # integers: numpy agrees with torch


_C_TYPE = {"bool": "bool", "uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int",
           "int64": "int64_t", "float16": "c10::Half", "float32": "float", "float64": "double"}


def checked_scalar(value, np_dtype):
    """``value`` (a Python or numpy number) as a scalar of ``np_dtype``, or PyTorch's error where
    c10's checked_convert refuses it (Scalar::to<T>: what fill_, full, masked_fill, index_fill
    and setitem write): an integer type takes integers in [lowest, max] (an unsigned one also
    down to -max, wrapping round) and floats in that range (no inf or nan); a float type
    anything up to its largest finite value, inf and nan too; bool anything."""
    np_dtype = np.dtype(np_dtype)
    kind = np_dtype.kind
    if kind == "b" or isinstance(value, (bool, np.bool_)):
        return np_dtype.type(value)
    if isinstance(value, (int, np.integer)):
        v = int(value)
        if v < -2 ** 63:  # (the parser's unsigned retry of a long long that overflowed)
            raise OverflowError("can't convert negative int to unsigned")
        if v >= 2 ** 64:
            raise OverflowError("int too big to convert")
        if kind in "iu":
            info = np.iinfo(np_dtype)
            if info.min <= v <= info.max:
                return np_dtype.type(v)
            if kind == "u" and -info.max <= v < 0:
                return np_dtype.type(v + info.max + 1)
        elif abs(v) <= float(np.finfo(np_dtype).max):
            return np_dtype.type(np.float32(v)) if np_dtype == np.float16 else np_dtype.type(v)
    else:
        f = float(value)
        if kind in "iu":
            info = np.iinfo(np_dtype)
            if info.min <= f <= info.max:  # (NaN is not)
                return np_dtype.type(int(f))
        elif not abs(f) > float(np.finfo(np_dtype).max) or f != f or abs(f) == float("inf"):  # (compared as
            # doubles: numpy would round f to the finfo's half first)
            return np_dtype.type(np.float32(f)) if np_dtype == np.float16 else np_dtype.type(f)
    raise RuntimeError(f"value cannot be converted to type {_C_TYPE[np_dtype.name]} without overflow")


def fill_scalar(value, np_dtype, numel):
    """A number fill_ and full write into ``numel`` elements: :func:`checked_scalar`'s, but one half
    element (fill_'s scalar_fill) takes any number unchecked, through float32 (past its range: inf),
    as c10::Half is made from a float."""
    if numel == 1 and isinstance(value, (int, float)) and not isinstance(value, bool) and np.dtype(np_dtype) == np.float16:
        with np.errstate(over="ignore"):
            return np.float16(np.float32(value))
    return checked_scalar(value, np_dtype)


def via_float(a, np_dtype):
    """``a`` (an array or number) as ``np_dtype``; a half from anything but float32 / float16 through
    float32 first, as c10::Half is made (its constructor takes a float: a double or an integer
    rounds twice, where numpy's direct conversion rounds once)."""
    np_dtype = np.dtype(np_dtype)
    a = np.asarray(a)
    if np_dtype == np.float16 and (a.dtype == np.float64 or a.dtype.kind in "iu" and a.dtype.itemsize >= 4):
        with np.errstate(over="ignore"):
            a = a.astype(np.float32)
    return a.astype(np_dtype)


def kernel_scalar(value, np_dtype):
    """A number as a CPU kernel takes it (``Scalar::to<scalar_t>()``: clamp's bounds, threshold's
    numbers): PyTorch's overflow error; an integer type gets the converted int (uint8: -1 is 255,
    0.5 is 0), a float type the number itself (None stays None)."""
    np_dtype = np.dtype(np_dtype)
    if value is None or np_dtype == np.float64:
        return value
    v = checked_scalar(value, np_dtype)
    if np_dtype.kind in "iu":
        return int(v)
    if np_dtype == np.float16 and isinstance(value, float):  # (a Half is made from a float: a double rounds twice)
        with np.errstate(over="ignore"):
            return float(np.float32(value))
    return value


def scalar_dtype(value) -> dtype:
    """The dtype a wrapped Python number takes on its own."""
    if isinstance(value, bool):
        return bool_
    if isinstance(value, (int, np.integer)):  # (a numpy integer is an int to PyTorch's parser; its bool, a float)
        return int64
    return _default_float


def python_number(value):
    """A numpy scalar as PyTorch's parser reads a Scalar: an integer as an int, a float or a bool as a
    float (a double: ``x.pow(np.int64(2))`` is ``x.pow(2)``, ``np.bool_(True)`` is 1.0); anything else as is."""
    if isinstance(value, np.generic):
        if isinstance(value, np.integer):
            return int(value)
        if isinstance(value, (np.floating, np.bool_)):
            return float(value)
    return value


def _combine(higher: dtype | None, lower: dtype | None) -> dtype | None:
    # c10's combine_categories: a higher-priority participant keeps its type
    # unless a lower-priority one is of a higher category.
    if higher is None:
        return lower
    if lower is None or higher._kind == 2:
        return higher
    if higher is bool_ or lower._kind == 2:
        return promote_types(higher, lower)
    return higher


def result_type(*operands) -> dtype:
    """torch.result_type over tensors and Python scalars.

    Tensors with dimensions take priority over zero-dim tensors, which take
    priority over Python numbers, unless a lower-priority operand is of a
    higher category (bool < integer < floating).
    """
    dim = zero = wrapped = None
    unsigned = False
    for op in operands:
        if op is None:
            continue
        d = getattr(op, "dtype", None)
        if isinstance(d, dtype):
            if op.ndim:
                dim = d if dim is None else promote_types(dim, d)
            else:
                zero = d if zero is None else promote_types(zero, d)
        else:
            d = scalar_dtype(op)
            wrapped = d if wrapped is None else promote_types(wrapped, d)
            if type(op) is int and _LONG <= op < _ULONG:  # (the parser's uint64 Scalar)
                unsigned = True
    if unsigned and _combine(dim, zero) is bool_:
        raise RuntimeError("Promotion for uint16, uint32, uint64 types is not supported, attempted to promote Bool "
                           "and UInt64")
    return _combine(dim, _combine(zero, wrapped))


_LONG, _ULONG = 2 ** 63, 2 ** 64
