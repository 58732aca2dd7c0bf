"""LAPACK's LU steps (getrf, getrs) in numpy, one column step for a whole batch at a time.

numpy's LAPACK (OpenBLAS) pivots, scales and propagates an inf or a NaN in its own way; PyTorch's
(MKL's) follows the reference algorithm: idamax's pivot (the first largest magnitude, a NaN never
larger), the column scaled by the pivot's reciprocal, a rank-1 update of the rest with no step
skipped for zeros, then forward and back substitution likewise.  det, slogdet, inv and solve take
these where the input is not finite (and det/slogdet for small matrices, where the order of the
roundings shows in the last bits), so that a NaN or an inf lands where PyTorch's does.
"""

from __future__ import annotations

import numpy as np


def idamax(absx):
    """BLAS idamax along the last axis of magnitudes: the first largest; a NaN is never larger,
    and a NaN in the first place stays the pivot."""
    at = np.argmax(np.where(np.isnan(absx), -1.0, absx), axis=-1)
    return np.where(np.isnan(absx[..., 0]), 0, at)


def getrf(a):
    """(LU, pivots, info) of each matrix of ``a`` (any batch shape): pivots 1-based as LAPACK's,
    info the first zero pivot (1-based) or 0.  A 2 x 2 matrix divides by its pivot, larger ones
    multiply by its reciprocal, as MKL's kernels do (bit for bit on the checked cases)."""
    shape = a.shape
    lu = np.array(a, copy=True).reshape((int(np.prod(shape[:-2])),) + shape[-2:])
    b, m, n = lu.shape
    k = min(m, n)
    piv = np.zeros((b, k), np.int32)
    info = np.zeros(b, np.int64)
    rows = np.arange(b)
    divide = m <= 2 and n <= 2
    with np.errstate(all="ignore"):
        for j in range(k):
            p = j + idamax(np.abs(lu[:, j:, j]))
            piv[:, j] = p + 1
            lu[rows, j], lu[rows, p] = lu[rows, p], lu[rows, j].copy()
            pivot = lu[:, j, j]
            zero = pivot == 0
            info = np.where(zero & (info == 0), j + 1, info)
            pivot = np.where(zero, 1, pivot)[:, None]
            if divide:
                lu[:, j + 1:, j] /= pivot
            else:
                lu[:, j + 1:, j] *= 1 / pivot
            lu[:, j + 1:, j + 1:] -= lu[:, j + 1:, j, None] * lu[:, j, None, j + 1:]
    return lu.reshape(shape), piv.reshape(shape[:-2] + (k,)), info.reshape(shape[:-2])


def pivot_sign(piv):
    """The sign of getrf's row permutation: -1 per pivot that swapped."""
    swaps = np.count_nonzero(piv != np.arange(1, piv.shape[-1] + 1), axis=-1)
    return 1 - 2 * (swaps % 2)


def getrs(lu, piv, b, trans=False):
    """X with A X = B (A^T X = B with ``trans``) from getrf's (LU, pivots) of A, by forward and back
    substitution with no check for zero pivots (a zero divides to an inf, as LAPACK's does).
    ``lu`` is (..., n, n) and ``b`` (..., n, r), batch shapes equal."""
    shape = np.broadcast_shapes(lu.shape[:-2], b.shape[:-2])
    n = lu.shape[-1]
    count = int(np.prod(shape))
    lu = np.broadcast_to(lu, shape + lu.shape[-2:]).reshape((count, n, n))
    piv = np.broadcast_to(piv, shape + piv.shape[-1:]).reshape((count, n))
    x = np.array(np.broadcast_to(b, shape + b.shape[-2:]), copy=True).reshape((count,) + b.shape[-2:])
    rows = np.arange(x.shape[0])
    with np.errstate(all="ignore"):
        if not trans:
            for j in range(n):  # P^T B, the swaps in order
                p = piv[:, j] - 1
                x[rows, j], x[rows, p] = x[rows, p], x[rows, j].copy()
            for j in range(n):  # L (unit) forward
                x[:, j + 1:] -= lu[:, j + 1:, j, None] * x[:, j, None]
            for j in range(n - 1, -1, -1):  # U backward
                x[:, j] /= lu[:, j, j, None]
                x[:, :j] -= lu[:, :j, j, None] * x[:, j, None]
        else:
            for j in range(n):  # U^T forward
                x[:, j] /= lu[:, j, j, None]
                x[:, j + 1:] -= lu[:, j, j + 1:, None] * x[:, j, None]
            for j in range(n - 1, -1, -1):  # L^T (unit) backward
                x[:, :j] -= lu[:, j, :j, None] * x[:, j, None]
            for j in range(n - 1, -1, -1):  # P B, the swaps in reverse
                p = piv[:, j] - 1
                x[rows, j], x[rows, p] = x[rows, p], x[rows, j].copy()
    return x.reshape(shape + b.shape[-2:])
