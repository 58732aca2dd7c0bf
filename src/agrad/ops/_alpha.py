"""add / sub / rsub with an alpha as PyTorch's add kernel computes them for float32 and float64.

Two tensors: fma(other, alpha, self) rounded once (the vector code's fmadd; the scalar loop contracted to
one).  A CPU scalar ``other`` (a number, a 0-d tensor) is taken out of the loop (a strided ``self``: fused
throughout, the loop contracted): over a C- (or F-) contiguous
``self`` of one range (at most GRAIN_SIZE elements) the vector loop (rows of two AVX2 vectors) fuses, and
the compiled tail loop after it, probed under torch 2.13: its first element fused, then SSE-wide groups
(4 floats, 2 doubles) adding the product made once (``self + (alpha * other)``), the rest fused.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes

_ndarray = np.ndarray
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_F16 = np.dtype(np.float16)
_max = np.maximum.reduce
_GRAIN = 32768


def _number_operand(a, b):
    """Whether ``b`` is TensorIterator's CPU scalar beside a float32/float64 ``a`` of one range."""
    return type(a) is _ndarray and 0 < a.size <= _GRAIN and a.dtype in (_F32, _F64) and (
        type(b) in (float, int) or type(b) is _ndarray and b.ndim == 0 and b.dtype == a.dtype)


def _alpha_number(a, b, alpha):
    """``a + alpha * b`` for a CPU scalar ``b`` (see the module's docstring)."""
    if not a.flags.c_contiguous:
        if a.flags.f_contiguous:  # (F order: TensorIterator walks it in memory order, as a.T's C order)
            return _alpha_number(a.T, b, alpha).T
        with np.errstate(all="ignore"):  # (a strided self: the loop's contracted fma throughout)
            return np.asarray(_alpha_fma(a, np.full(a.shape, b, a.dtype), alpha), a.dtype)
    d = a.dtype.type
    al, other = d(alpha), d(b)
    flat = a.reshape(-1)
    n = flat.size
    with np.errstate(all="ignore"):
        fused = np.asarray(_alpha_fma(flat, np.full(n, other, a.dtype), alpha), a.dtype)
        lanes = 8 if a.dtype == _F32 else 4  # (an AVX2 vector; the loop takes two a step)
        sse = lanes // 2
        tail = n % (2 * lanes)
        if tail >= sse + 1:
            start = n - tail + 1
            stop = start + (tail - 1) // sse * sse
            fused[start:stop] = flat[start:stop] + d(al * other)
    return fused.reshape(a.shape)


def _fma_operands(a, b):
    """Whether add's kernel with an alpha runs as one fused multiply-add here: two plain float32 or
    float64 arrays of one dtype (a ZeroTensor's rules, another dtype, a number: the two steps)."""
    return type(a) is _ndarray and type(b) is _ndarray and a.dtype == b.dtype and a.dtype in (_F32, _F64) and (
        b.ndim or not a.ndim)  # (a 0-d other beside a tensor: TensorIterator's CPU scalar, _alpha_number)


def _alpha_fma(a, b, alpha):
    """``a + alpha * b`` as add's kernel computes it for float and double: fma(b, alpha, a), rounded once
    (the vector code's fmadd; the scalar loop's contracted to one), alpha in the operands' type."""
    from ._vec_math import fma
    al = np.asarray(alpha, a.dtype)
    with np.errstate(all="ignore"):
        out = np.asarray(fma(b, al, a), a.dtype)
        if a.dtype == _F64:  # (the emulation's product overflows where the exact sum does not: halves, exactly)
            bad = np.isinf(out) & np.isfinite(a) & np.isfinite(b)
            if bad.any():
                out = np.where(bad, np.asarray(fma(b / 2, al, a / 2), a.dtype) * 2, out)
    return out


def rsub_alpha(a, b, alpha):
    """rsub's ``b - alpha * a`` (sub(other, self): ``a`` a tensor's array, ``b`` its or a number): fused,
    fma(a, -alpha, b), for float32/float64; None for other operands (the two steps)."""
    if type(a) is not _ndarray or a.dtype not in (_F32, _F64):
        return None
    if type(b) in (float, int) or type(b) is _ndarray and b.ndim == 0 and b.dtype == a.dtype:
        b = np.full(a.shape, b, a.dtype)
    if not _fma_operands(b, a):
        return None
    return _alpha_fma(b, a, -alpha)


_QUIET = {_F32: (np.dtype(np.int32), np.int32(0x00400000)), _F64: (np.dtype(np.int64), np.int64(1 << 51))}


def nan_of_other(out, a, b):
    """``out``, add's ``a + alpha * b`` (sub's, rsub's as add's) as numpy made it, with PyTorch's NaN where
    both operands are NaN: its float32/float64 kernel (AVX2) gives ``b``'s there, quieted, its sign and
    payload kept (the product with alpha passes it on), in every lane of the vector and the scalar loops,
    broadcast, strided and CPU-scalar operands alike; numpy's loops mostly give ``a``'s.  The check costs
    a number's self-comparison, or one pass over a float32/float64 ``out`` for a NaN (:func:`_quiet`);
    ``out`` is returned as it is unless both operands have a NaN at one place."""
    t = type(b)
    if t is float:
        if b == b:
            return out
    elif t is int or t is bool:
        return out
    d = out.dtype
    if d is not _F32 and d is not _F64:
        return _half_nan(out, a, b) if d == _F16 and not _quiet(out) else out
    if _quiet(out):
        return out
    return _other_nan(out, a, b)


def _quiet(out):
    """Whether the float32/float64 ``out`` has no NaN: one element read as a Python float, a few
    hundred by their sum of squares (NaN only where an element is; BLAS's dot, one thread), more
    by their maximum (which a NaN makes NaN).  A backend's array (dask's, lazy) is not read: its NaNs
    keep numpy's payloads."""
    if type(out) is not _ndarray and not isinstance(out, np.generic):
        return True
    n = out.size
    if n == 1:
        v = out.item()
    elif n <= 1024:
        flat = out.ravel("K")  # (numpy's result: dense in some order, a view)
        v = flat.dot(flat)
    else:
        v = _max(out, axis=None)
    return v == v


def _both_nan(out, a, b):
    """(out as an array, a, b as arrays, where both are NaN), or None where no place has two NaNs."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind != "f" or b.dtype.kind != "f":
        return None
    both = np.isnan(a) & np.isnan(b)
    if not both.any():
        return None
    return (np.array(out) if type(out) is not _ndarray else out), a, b, both  # (numpy's scalar of two 0-d operands)


def _other_nan(out, a, b):
    found = _both_nan(out, a, b)
    if found is None:
        return out
    out, a, b, both = found
    it, quiet = _QUIET[out.dtype]
    np.copyto(out.view(it), b.astype(out.dtype, copy=False).view(it) | quiet, where=both)
    return out


def _half_nan(out, a, b):
    """:func:`nan_of_other` for float16: PyTorch's kernel gives ``b``'s NaN (quieted) in its vector
    lanes and ``a``'s in its scalar loop (the tail of a row, a row that runs no vector code), where
    both operands are NaN (probed: contiguous, strided, broadcast, numbers, alpha)."""
    from ._vector_loop import binary_lanes, unexpanded
    found = _both_nan(out, a, b)
    if found is None:
        return out
    out, a, b, both = found
    a16, b16 = a.astype(_F16, copy=False), b.astype(_F16, copy=False)
    lanes = binary_lanes(out.shape, (unexpanded(a16), unexpanded(b16))) if out.ndim else None
    quiet = np.int16(0x0200)
    src = np.where(False if lanes is None else lanes, b16.view(np.int16) | quiet, a16.view(np.int16) | quiet)
    np.copyto(out.view(np.int16), src, where=both)
    return out


def other_nan_kernel(kernel, np_fn):
    """``kernel`` (add's or sub's without attributes) followed by :func:`nan_of_other`; see :func:`nan_checked`."""
    return nan_checked(kernel, np_fn, nan_of_other, _other_nan)


def nan_checked(kernel, np_fn, fix, pick):
    """``kernel`` followed by ``fix(out, a, b)`` (PyTorch's NaN where both operands are NaN); its ``ufunc``
    (what runs on two float32 or two float64 arrays: Op.ufunc) ``np_fn`` followed by ``pick`` where the
    result has a NaN, and ``numbers`` ``np_fn`` alone, for such an array and a number that is no NaN (no
    place where both operands are NaN: nothing to check)."""

    def checked(a, b):
        return fix(kernel(a, b), a, b)

    def arrays(a, b):  # (the dtype is known: float32 or float64)
        out = np_fn(a, b)
        return out if _quiet(out) else pick(out, a, b)

    checked.ufunc = arrays
    checked.numbers = np_fn
    return checked


def half_alpha(a, b, alpha):
    """add's float16 kernel, ``a + alpha * b`` with alpha (and a scalar ``b``) rounded to float16: the
    vector code's one fused multiply-add in float, rounded once; the scalar loop's float16
    arithmetic (the product rounded, then the sum)."""
    from ._vec_math import _fma32
    from ._vector_loop import binary_lanes, by_lanes, unexpanded
    with np.errstate(over="ignore", invalid="ignore"):
        b = dtypes.via_float(b, _F16) if not isinstance(b, np.ndarray) or b.dtype != _F16 else b
        al = np.float16(np.float32(alpha))  # (c10::Half of a float: a double rounds twice)
        shape = np.broadcast_shapes(a.shape, b.shape)
        lanes = binary_lanes(shape, (unexpanded(np.asarray(a)), unexpanded(b))) if isinstance(a, np.ndarray) else None
        out = by_lanes(lanes, lambda x, y: _fma32(y.astype(np.float32), np.float32(al), x.astype(np.float32)),
                       lambda x, y: np.add(x, np.multiply(y, al), dtype=np.float32),
                       (np.broadcast_to(a, shape), np.broadcast_to(b, shape)), np.float32)
        return out.astype(_F16)
