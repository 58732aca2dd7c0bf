"""Which operand's NaN PyTorch's CPU mul kernel gives where both operands are NaN.

The product of two NaNs is one of them, made quiet (its sign and payload kept), and which one is
the compiled code's choice of operand order, not IEEE's: it differs between the kernel's vector code
(blocks of two AVX2 vectors: 16 floats, 8 doubles, 32 halves), the compiler's vectorised tail loop
after it, and the scalar loop. Probed under torch 2.13 (AVX2), for each row of TensorIterator's loop
(_vector_loop.loop_rows: its kind, each element's place in its piece of a row):

float32 (``b`` is the second operand, ``a`` the first):
  both contiguous along the row: blocks b; a tail of t elements: t < 4 all b, else 8 b (t >= 8),
    4 a (when 4 more are left), then b, b, a;
  ``a`` repeating one value (stride 0): blocks a; the tail's first 1 + 4k elements a, the rest b;
  ``b`` repeating one value: blocks b; the tail's first 1 + 4k b, the rest a;
  any other row (the scalar loop): b.
float64: as float32 with 2 for 4: contiguous tails give b for one element, else a throughout.
float16 (the kernel converts to float and back, so the NaN's top ten bits of payload survive):
  a ``b`` of one element (a number, 0-d, broadcast: is_scalar) runs the reduced-float kernel over
  ``a`` alone: ``a`` contiguous or strided b, ``a`` repeating one value blocks b and each tail's
  first element b, the rest a;
  otherwise: blocks a (``b`` repeating one value: the first 16 halves of each block a, the last 16
  b), a row's tail a but its first element b where one input repeats a value, and a row of one
  element b.
Division gives ``a``'s NaN everywhere, as numpy's loops do.
"""

from __future__ import annotations

import numpy as np

from ._alpha import _both_nan, _quiet, nan_checked

_F16 = np.dtype(np.float16)
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_INT = {_F16: np.int16, _F32: np.int32, _F64: np.int64}
_QUIET = {_F32: np.int32(0x00400000), _F64: np.int64(1 << 51)}
_HALF_QUIET = np.int16(0x7e00)


def mul_nans(out, a, b):
    """``out`` (numpy's ``a * b``, float16/32/64) with PyTorch's NaN where both operands are NaN
    (see the module's docstring); ``out`` as it is where no place has two NaNs: a number that is no
    NaN costs one comparison, a tensor one pass over ``out`` for a NaN (_alpha._quiet)."""
    t = type(b)
    if t is float:
        if b == b:
            return out
    elif t is int or t is bool:
        return out
    d = getattr(out, "dtype", None)
    if d is None or d.kind != "f" or d.itemsize > 8 or _quiet(out):
        return out
    return _pick(out, a, b)


def mul_nan_kernel(kernel, np_fn):
    """``kernel`` (mul's) followed by :func:`mul_nans`; see _alpha.nan_checked."""
    return nan_checked(kernel, np_fn, mul_nans, _pick)


def _pick(out, a, b):
    found = _both_nan(out, a, b)
    if found is None:
        return out
    out, x, y, both = found
    d = out.dtype
    if not out.flags.writeable:
        out = out.copy()
    second = _second(out.shape, d, a, b)
    ints = _INT[d]
    if d == _F16:  # (through float: sign, the quiet bit and the top ten bits of the payload)
        x, y = _half_bits(x), _half_bits(y)
    else:
        quiet = _QUIET[d]
        x = x.astype(d, copy=False).view(ints) | quiet
        y = y.astype(d, copy=False).view(ints) | quiet
    np.copyto(out.view(ints), np.where(second, y, x), where=both)
    return out


def _half_bits(x):
    """The float16 bits of the NaNs of ``x`` (float16, float32 or float64) after float's arithmetic."""
    bits = x.astype(_F32, copy=False).view(np.int32) if x.ndim else np.asarray(x, _F32).reshape(1).view(np.int32)
    half = np.where(bits < 0, np.int16(-0x8000), np.int16(0)) | _HALF_QUIET | ((bits >> 13) & 0x3FF).astype(np.int16)
    return half if x.ndim else half.reshape(())


def _second(shape, d, a, b):
    """Where PyTorch's mul gives ``b``'s NaN (True) rather than ``a``'s, for a result of ``shape``."""
    from ._vector_loop import loop_rows
    a = a if type(a) is np.ndarray else np.asarray(a, d)
    b = b if type(b) is np.ndarray else np.asarray(b, d)
    if d == _F16 and (b.size == 1 or 0 not in b.shape and all(  # (is_scalar(2): the reduced-float kernel
            s == 0 or n == 1 for s, n in zip(b.strides, b.shape))):  # over ``a`` alone)
        steps, pos, length = loop_rows([np.broadcast_to(a, shape)])
        if steps is None or steps[0] != 0:
            return True
        block = 32
        vec = length - length % block
        return (pos < vec) | (pos == vec)
    steps, pos, length = loop_rows([a, b])
    if steps is None:  # (a 0-d result: the scalar loop)
        return True
    item = d.itemsize
    kind = 0 if steps == [item, item] else 1 if steps == [0, item] else 2 if steps == [item, 0] else None
    block = 64 // item
    vec = length - length % block
    lanes = pos < vec
    q = pos - vec  # (the place in the row's tail)
    if d == _F16:
        if kind is None:
            return length == 1
        if kind == 2:
            return np.where(lanes, pos % block >= 16, q == 0)
        return ~lanes & ((q == 0) if kind == 1 else (length == 1))
    if kind is None:
        return True
    t = length - vec
    group = 4 if d == _F32 else 2
    if kind:  # (one input repeats a value: it gives the blocks' NaN and the tail's first 1 + group * k)
        scalar_side = (lanes | (q < 1 + (t - 1) // group * group))
        return scalar_side if kind == 2 else ~scalar_side
    if d == _F64:
        return lanes | (t == 1)
    base = np.where(t >= 8, 8, 0)
    four = (t - base) >= 4
    j = q - base - np.where(four, 4, 0)  # (the place after the 8- and 4-wide steps)
    tail = (t < 4) | (q < base) | (~four | (q >= base + 4)) & (j < 2)
    return lanes | tail
