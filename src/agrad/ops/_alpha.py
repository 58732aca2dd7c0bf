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

_ndarray = np.ndarray
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
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
