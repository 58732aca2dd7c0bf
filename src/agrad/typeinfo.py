"""``torch.finfo`` and ``torch.iinfo``: the numeric limits of a dtype, as PyTorch gives them.

Values are numpy's ``finfo``/``iinfo`` of the dtype; ``resolution`` is ``10 ** -digits10``
(C++'s ``std::numeric_limits<T>::digits10``: 3 for half, 6 for float, 15 for double).
The repr prints each number as C++'s ``ostream`` does by default (six significant
digits, ``%g``), an integer type's limits as doubles too, as PyTorch's does::

    finfo(resolution=1e-06, min=-3.40282e+38, max=3.40282e+38, eps=1.19209e-07, ...)
    iinfo(min=-2.14748e+09, max=2.14748e+09, dtype=int32)

Instances compare equal when they describe the same dtype and are read-only.
"""

from __future__ import annotations

import numpy as np

from . import dtypes

_DIGITS10 = {"float16": 3, "float32": 6, "float64": 15}


def _check_type(fname, args, kwargs, default):
    """The one dtype argument (``type``), with the parser errors of PyTorch's finfo/iinfo."""
    if len(args) > 1 or set(kwargs) - {"type"} or (args and kwargs):
        if set(kwargs) - {"type"} and not args:
            raise TypeError(f'{fname}() missing 1 required positional arguments: "type"')
        got = ", ".join([_type_name(a) for a in args] + [f"{k}={_type_name(v)}" for k, v in kwargs.items()])
        forms = " * (torch.dtype type)\n * ()\n" if default is not None else " * (torch.dtype type)\n"
        raise TypeError(f"{fname}() received an invalid combination of arguments - got ({got}), "
                        f"but expected one of:\n{forms}")
    if args:
        value = args[0]
    elif "type" in kwargs:
        value = kwargs["type"]
    elif default is not None:
        return default()
    else:
        raise TypeError(f'{fname}() missing 1 required positional arguments: "type"')
    if not isinstance(value, dtypes.dtype):
        raise TypeError(f"{fname}(): argument 'type' (position 1) must be torch.dtype, not {_type_name(value)}")
    return value


def _type_name(value):
    return "torch.dtype" if isinstance(value, dtypes.dtype) else type(value).__name__


def _g(value) -> str:
    """A number as C++'s ostream prints a double by default."""
    return "%g" % value


class _Info:
    __slots__ = ("_values",)
    _shown = ()

    def __setattr__(self, name, value):
        if name in type(self)._fields:
            raise AttributeError(f"attribute '{name}' of 'torch.{type(self).__name__}' objects is not writable")
        if name != "_values":
            raise AttributeError(f"'torch.{type(self).__name__}' object has no attribute '{name}'")
        object.__setattr__(self, name, value)

    def __getattr__(self, name):
        try:
            return self._values[name]
        except (KeyError, AttributeError):
            raise AttributeError(f"'torch.{type(self).__name__}' object has no attribute '{name}'") from None

    def __dir__(self):
        return sorted(type(self)._fields)

    def __eq__(self, other):
        if type(other) is not type(self):
            return False
        return self._values["dtype"] == other._values["dtype"]

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def __repr__(self):
        v = self._values
        shown = ", ".join(f"{k}={_g(v[k])}" for k in self._shown)
        return f"{type(self).__name__}({shown}, dtype={v['dtype']})"

    __str__ = __repr__


class finfo(_Info):  # noqa: N801 - PyTorch's name
    """Machine limits of a floating point dtype (the default dtype when none is given)."""

    __slots__ = ()
    _fields = ("bits", "dtype", "eps", "max", "min", "resolution", "smallest_normal", "tiny")
    _shown = ("resolution", "min", "max", "eps", "smallest_normal", "tiny")

    def __init__(self, *args, **kwargs):
        d = _check_type("finfo", args, kwargs, dtypes.get_default_dtype)
        if not d.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                            "'torch.finfo'")
        info = np.finfo(d.numpy)
        object.__setattr__(self, "_values", {
            "bits": int(info.bits), "dtype": d.name, "eps": float(info.eps), "max": float(info.max),
            "min": float(info.min), "resolution": float(10.0 ** -_DIGITS10[d.name]),
            "smallest_normal": float(info.smallest_normal), "tiny": float(info.tiny)})


class iinfo(_Info):  # noqa: N801 - PyTorch's name
    """Machine limits of an integer dtype."""

    __slots__ = ()
    _fields = ("bits", "dtype", "max", "min")
    _shown = ("min", "max")

    def __init__(self, *args, **kwargs):
        d = _check_type("iinfo", args, kwargs, None)
        if d is dtypes.bool_:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if d.is_floating_point:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'")
        info = np.iinfo(d.numpy)
        object.__setattr__(self, "_values", {"bits": int(info.bits), "dtype": d.name, "max": int(info.max),
                                             "min": int(info.min)})


for _cls in (finfo, iinfo):
    _cls.__module__ = "torch"  # printed as torch.finfo (the engine's _Info in its bases admits it to scripts)
del _cls
