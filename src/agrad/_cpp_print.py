"""A tensor as PyTorch's C++ printer writes it into an error message (ATen's Formatting.cpp).

``torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: ...`` and a
few other C++ checks stream the tensor itself: its values as doubles, one matrix
at a time, each matrix with its own number format, then ``[ torch.LongTensor{5,2} ]``.
The rules, as facts taken from that file:

* the format of a block of values: integral mode when every finite value is an
  integer; the exponents of the smallest and largest finite magnitude
  (floor(log10) + 1, or 1 for zero or when nothing is finite); integers up to 9
  digits print ``%g`` in width digits + 1, longer ones ``%.4e`` in width 11; other
  values ``%.4e`` in width 11 (12 past an exponent of 99) when the exponents are
  more than 4 apart, else ``%.4f`` in width 7 (below 1, or past 5 digits, scaled
  by 10^(exponent - 1), printed first as ``<scale> *``) or digits + 6;
* a matrix prints as many columns as fit in 80 characters (each value and one
  space), in chunks headed ``Columns a to b`` when they do not all fit; a tensor of
  more dims prints each matrix after a ``(i,j,.,.) = `` line, indented by one.
"""

from __future__ import annotations

import math

import numpy as np

#: the C++ type names in these messages (c10's legacy names; bool has none: its backend type's name)
_TYPE_NAMES = {
    "float32": "torch.FloatTensor", "float64": "torch.DoubleTensor", "float16": "torch.HalfTensor",
    "int64": "torch.LongTensor", "int32": "torch.IntTensor", "int16": "torch.ShortTensor",
    "int8": "torch.CharTensor", "uint8": "torch.ByteTensor", "bool": "CPUBoolType",
}


def cpp_type_name(dtype) -> str:
    """``torch.FloatTensor``, ``CPUBoolType``: a CPU tensor's type as its C++ toString() names it."""
    return _TYPE_NAMES[dtype.name]


def _block_format(values: list) -> tuple:
    """(scale, width, kind) for these values, kind one of "g", "e", "f"."""
    if not values:
        return 1.0, 0, "g"
    int_mode = all(v == math.ceil(v) for v in values if math.isfinite(v))
    finite = [abs(v) for v in values if math.isfinite(v)]
    exp_min = exp_max = 1.0
    if finite:
        low, high = min(finite), max(finite)
        exp_min = math.floor(math.log10(low)) + 1 if low != 0 else 1
        exp_max = math.floor(math.log10(high)) + 1 if high != 0 else 1
    if int_mode:
        return (1.0, 11, "e") if exp_max > 9 else (1.0, int(exp_max) + 1, "g")
    if exp_max - exp_min > 4:
        return 1.0, 12 if abs(exp_max) > 99 or abs(exp_min) > 99 else 11, "e"
    if exp_max > 5 or exp_max < 0:
        return math.pow(10, exp_max - 1), 7, "f"
    return 1.0, 7 if exp_max == 0 else int(exp_max) + 6, "f"


def _value(v: float, scale: float, width: int, kind: str) -> str:
    v = v / scale
    if math.isnan(v):
        text = "-nan" if math.copysign(1.0, v) < 0 else "nan"
    else:
        text = {"g": "%g", "e": "%.4e", "f": "%.4f"}[kind] % v
    return text.rjust(width)


def _shortest(v: float) -> str:
    """A double as fmt's ``{}`` writes it: the shortest round trip, no ``.0`` on whole numbers."""
    text = repr(float(v))
    return text[:-2] if text.endswith(".0") else text


def _matrix(rows: list, linesize: int, indent: int) -> str:
    scale, width, kind = _block_format([v for row in rows for v in row])
    ncols = len(rows[0])
    per_line = (linesize - indent) // (width + 1)
    out = []
    first = 0
    while first < ncols:
        last = first + per_line - 1 if first + per_line <= ncols else ncols - 1
        if per_line < ncols:
            if first:
                out.append("\n")
            out.append(f"Columns {first + 1} to {last + 1}" + " " * indent)
        if scale != 1:
            out.append(f"{_shortest(scale)} *\n" + " " * indent)
        for r, row in enumerate(rows):
            for c in range(first, last + 1):
                out.append(_value(row[c], scale, width, kind))
                if c == last:
                    out.append("\n")
                    if r != len(rows) - 1:
                        out.append(" " * indent + (" " if scale != 1 else ""))
                else:
                    out.append(" ")
        first = last + 1
    return "".join(out)


def cpp_tensor_text(t, linesize: int = 80) -> str:
    """``t`` (an agrad tensor) as PyTorch's ``operator<<`` prints it."""
    data = np.asarray(t._data, dtype=np.float64)
    shape = data.shape
    name = cpp_type_name(t.dtype)
    if data.ndim == 0:
        return f"{_shortest(data[()])}\n[ {name}{{}} ]"
    if data.ndim == 1:
        out = ""
        if data.size:
            values = data.tolist()
            scale, width, kind = _block_format(values)
            if scale != 1:
                out += f"{_shortest(scale)} *\n"
            out += "".join(_value(v, scale, width, kind) + "\n" for v in values)
        return out + f"[ {name}{{{shape[0]}}} ]"
    if data.ndim == 2:
        out = _matrix(data.tolist(), linesize, 0) if data.size else ""
        return out + f"[ {name}{{{shape[0]},{shape[1]}}} ]"
    blocks = []
    if data.size:
        for backwards in np.ndindex(*shape[-3::-1]):  # the first dim counts fastest, as the C++ counter does
            index = backwards[::-1]
            head = "(" + "".join(f"{i + 1}," for i in index) + ".,.) = \n"
            blocks.append(head + _matrix(data[index].tolist(), linesize, 1))
    return "\n".join(blocks) + f"[ {name}{{{','.join(str(s) for s in shape)}}} ]"
