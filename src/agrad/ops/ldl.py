"""torch.linalg.ldl_factor, ldl_factor_ex and ldl_solve: LAPACK's sytrf (Bunch-Kaufman pivoting, the
lower triangle) and sytrs, in numpy as the unblocked sytf2 steps.  PyTorch cannot differentiate them:
a result that would require grad comes from a NotImplemented node.  A failed factorisation (a zero
pivot) is info > 0; with check_errors (and always for ldl_factor) PyTorch raises its internal-assert
text for it.  Checked against PyTorch on 300 random symmetric matrices (n 2 to 8, float32 and float64):
pivots and LD bit for bit (sytf2's dsyr update column by column, its 2 x 2 update left to right).  A NaN
or an infinity goes where MKL's takes it: no NaN test of the pivot, dsyr's quick returns.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..tensor import Tensor, _scalar_name
from ._lapack import column_major, matrices
from ._not_implemented import not_implemented
from ._op import export, with_out
from ._return_types import return_type
from .cholesky_solvers import bool_args
from .decompositions import _floating, _square

LdlResult = return_type("linalg_ldl_factor", ["LD", "pivots"])
LdlExResult = return_type("linalg_ldl_factor_ex", ["LD", "pivots", "info"])

_ALPHA = (1 + np.sqrt(17.0)) / 8


def _iamax(v):
    """MKL's i?amax: the first NaN, else the first largest magnitude."""
    if not len(v):
        return 0
    a = np.abs(v)
    nan = np.isnan(a)
    return int(np.argmax(nan)) if nan.any() else int(np.argmax(a))


def _swap_pivot(a, k, kk, kp, kstep):
    """sytf2's interchange of rows and columns kk and kp in the trailing lower triangle."""
    n = a.shape[0]
    if kp < n - 1:
        a[kp + 1:, kk], a[kp + 1:, kp] = a[kp + 1:, kp].copy(), a[kp + 1:, kk].copy()
    seg = a[kk + 1:kp, kk].copy()
    a[kk + 1:kp, kk] = a[kp, kk + 1:kp]
    a[kp, kk + 1:kp] = seg
    a[kk, kk], a[kp, kp] = a[kp, kp], a[kk, kk]
    if kstep == 2:
        a[k + 1, k], a[kp, k] = a[kp, k], a[k + 1, k]


def _pivot_choice(a, k, alpha):
    """(kp, kstep, zero pivot) of sytf2's Bunch-Kaufman test at column k."""
    n = a.shape[0]
    absakk = abs(a[k, k])
    imax, colmax = (k + 1 + _iamax(a[k + 1:, k]), 0.0) if k < n - 1 else (k, 0.0)
    if k < n - 1:
        colmax = abs(a[imax, k])
    if (absakk if absakk > colmax else colmax) == 0:  # (MKL's MAX, x86's maxsd: a NaN absakk gives colmax;
        return k, 1, True                               # no DISNAN test: a NaN pivot is factored on)
    if absakk >= alpha * colmax:
        return k, 1, False
    jmax = k + _iamax(a[imax, k:imax])
    rowmax = abs(a[imax, jmax])
    if imax < n - 1:
        jmax = imax + 1 + _iamax(a[imax + 1:, imax])
        other = abs(a[jmax, imax])
        rowmax = rowmax if rowmax > other else other  # (maxsd: a NaN rowmax gives the other)
    if absakk >= alpha * colmax * (colmax / rowmax):
        return k, 1, False
    if abs(a[imax, imax]) >= alpha * rowmax:
        return imax, 1, False
    return imax, 2, False


def sytf2_lower(m):
    """(LD, pivots, info) of one symmetric matrix (its lower triangle read) as LAPACK's sytf2."""
    low = np.tri(*m.shape, dtype=bool)
    a = np.where(low, m, m.T)  # (the lower triangle as it is: adding a zero would make a -0.0 +0.0)
    n = a.shape[0]
    piv = np.zeros(n, np.int32)
    info, k = 0, 0
    alpha = a.dtype.type(_ALPHA)
    with np.errstate(all="ignore"):
        while k < n:
            kp, kstep, zero = _pivot_choice(a, k, alpha)
            if zero:
                info = info or k + 1
            else:
                if kp != k + kstep - 1:
                    _swap_pivot(a, k, k + kstep - 1, kp, kstep)
                if kstep == 1 and k < n - 1:
                    d11 = 1 / a[k, k]
                    x = a[k + 1:, k].copy()
                    if d11 != 0:  # dsyr(-d11, x): nothing for alpha 0 (an infinite pivot), nor for x(j) 0
                        for j in np.flatnonzero(x != 0).tolist():
                            a[k + 1 + j:, k + 1 + j] += x[j:] * (-d11 * x[j])
                    a[k + 1:, k] *= d11
                elif kstep == 2 and k < n - 2:
                    d21 = a[k + 1, k]
                    d11, d22 = a[k + 1, k + 1] / d21, a[k, k] / d21
                    d21 = (1 / (d11 * d22 - 1)) / d21
                    for j in range(k + 2, n):
                        wk = d21 * (d11 * a[j, k] - a[j, k + 1])
                        wkp1 = d21 * (d22 * a[j, k + 1] - a[j, k])
                        a[j:, j] = a[j:, j] - a[j:, k] * wk - a[j:, k + 1] * wkp1
                        a[j, k], a[j, k + 1] = wk, wkp1
            if kstep == 1:
                piv[k] = kp + 1
            else:
                piv[k] = piv[k + 1] = -(kp + 1)
            k += kstep
    return np.tril(a), piv, info


def _ldl_arrays(a):
    flat = matrices(a)
    out = [sytf2_lower(m) for m in flat]
    n = a.shape[-1]
    ld = np.stack([o[0] for o in out]) if out else np.zeros(flat.shape, a.dtype)
    piv = np.stack([o[1] for o in out]) if out else np.zeros(flat.shape[:-1], np.int32)
    info = np.array([o[2] for o in out], np.int32)
    return (ld.reshape(a.shape), piv.reshape(a.shape[:-2] + (n,)), info.reshape(a.shape[:-2]))


def _assert_text(who, info):
    return (f'false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp":1642, '
            f"please report a bug to PyTorch. torch.linalg.{who}: Unknown error code: {info}.")


def _factor(A, hermitian, check, who):
    bool_args(hermitian, check)
    name = "torch.linalg.ldl_factor_ex"
    if A.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are {A.shape[-2]} by "
                           f"{A.shape[-1]} matrices")
    if not A.dtype.is_floating_point:
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got {_scalar_name(A.dtype)}")
    if A.dtype not in (dtypes.float32, dtypes.float64):
        raise NotImplementedError(f'"ldl_factor_kernel_cpu" not implemented for \'{_scalar_name(A.dtype)}\'')
    ld, piv, info = _ldl_arrays(A._data)
    if check and info.any():
        raise RuntimeError(_assert_text(who, int(info.reshape(-1)[np.flatnonzero(info)[0]])))
    return (not_implemented(column_major(ld), (A,), "aten::linalg_ldl_factor_ex"), Tensor._make(piv), Tensor._make(info))


@export("ldl_factor_ex", linalg=True, torch=False)
@with_out("linalg_ldl_factor_ex")
def linalg_ldl_factor_ex(A, *, hermitian=False, check_errors=False):
    return LdlExResult(*_factor(A, hermitian, check_errors, "ldl_factor_ex"))


@export("ldl_factor", linalg=True, torch=False)
@with_out("linalg_ldl_factor")
def linalg_ldl_factor(A, *, hermitian=False):
    return LdlResult(*_factor(A, hermitian, True, "ldl_factor")[:2])


def _ger(rows, col, y):
    """MKL's dger(-1, col, y) on rows: a column whose y is zero is left alone (so a -0 stays -0)."""
    rows[...] = np.where(y != 0, rows + col[:, None] * -y, rows)


def _dot(col, rows):
    """MKL's dgemv('T') sums: from the first product, not from +0 (-0 products sum to -0)."""
    prods = col[:, None] * rows
    total = prods[0]
    for p in prods[1:]:
        total = total + p
    return total


def _sytrs(ld, piv, b):
    """X with A X = B from sytf2's (LD, pivots) of A, as LAPACK's sytrs (lower): L D X = B, then L^T X = B."""
    n = ld.shape[0]
    b = np.array(b, copy=True)
    with np.errstate(all="ignore"):
        k = 0
        while k < n:
            if piv[k] > 0:
                kp = piv[k] - 1
                if kp != k:
                    b[[k, kp]] = b[[kp, k]]
                _ger(b[k + 1:], ld[k + 1:, k], b[k])
                b[k] *= 1 / ld[k, k]
                k += 1
            else:
                kp = -piv[k] - 1
                if kp != k + 1:
                    b[[k + 1, kp]] = b[[kp, k + 1]]
                if k < n - 2:
                    _ger(b[k + 2:], ld[k + 2:, k], b[k])
                    _ger(b[k + 2:], ld[k + 2:, k + 1], b[k + 1])
                akm1k = ld[k + 1, k]
                akm1, ak = ld[k, k] / akm1k, ld[k + 1, k + 1] / akm1k
                denom = akm1 * ak - 1
                bkm1, bk = b[k] / akm1k, b[k + 1] / akm1k
                b[k], b[k + 1] = (ak * bkm1 - bk) / denom, (akm1 * bk - bkm1) / denom
                k += 2
        k = n - 1
        while k >= 0:
            if piv[k] > 0:
                if k < n - 1:
                    b[k] -= _dot(ld[k + 1:, k], b[k + 1:])
                kp = piv[k] - 1
                if kp != k:
                    b[[k, kp]] = b[[kp, k]]
                k -= 1
            else:
                if k < n - 1:
                    b[k] -= _dot(ld[k + 1:, k], b[k + 1:])
                    b[k - 1] -= _dot(ld[k + 1:, k - 1], b[k + 1:])
                kp = -piv[k] - 1
                if kp != k:
                    b[[k, kp]] = b[[kp, k]]
                k -= 2
    return b


@export("ldl_solve", linalg=True, torch=False)
@with_out("linalg_ldl_solve")
def linalg_ldl_solve(LD, pivots, B, *, hermitian=False):
    bool_args(hermitian)
    # (ATen's meta function, in its order: LD square and floating, linearSolveCheckInputs, the pivots)
    _square(LD, "torch.linalg.ldl_solve")
    _floating(LD, "torch.linalg.ldl_solve")
    if B.dtype is not LD.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type {_scalar_name(B.dtype)} and A "
                           f"of type {_scalar_name(LD.dtype)} instead.")
    if B.ndim == 0:  # (B.size(-2))
        raise IndexError("Dimension specified as -2 but tensor has no dimensions")
    if B.ndim < 2:
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got -2)")
    n = LD.shape[-1]
    if n != B.shape[-2]:
        raise RuntimeError(f"Incompatible matrix sizes for torch.linalg.ldl_solve: each A matrix is {n} by "
                           f"{n} but each b matrix is {B.shape[-2]} by {B.shape[-1]}")
    if tuple(pivots.shape) != tuple(LD.shape[:-1]):
        raise RuntimeError(f"torch.linalg.ldl_solve: Expected LD.shape[:-1] and pivots.shape to be the same, but got "
                           f"pivots with shape {list(pivots.shape)} instead")
    if pivots.dtype.is_floating_point or pivots.dtype is dtypes.bool_:
        raise RuntimeError(f"torch.linalg.ldl_solve: Expected pivots to be integers. Got {_scalar_name(pivots.dtype)}")
    if B._data.size and pivots._data.size:  # (the kernel's check of the pivots' values)
        size = np.abs(pivots._data.astype(np.int64))
        if size.min() < 1:
            raise RuntimeError("Pivots given to ldl_solve must all satisfy |pivot| >= 1. Did you properly pass the "
                               "result of ldl_factor?")
        if size.max() > n:
            raise RuntimeError("Pivots given to ldl_solve must all satisfy |pivot| <= LD.size(-2). Did you properly "
                               "pass the result of ldl_factor?")
    if LD.dtype not in (dtypes.float32, dtypes.float64):
        raise NotImplementedError(f'"ldl_solve_kernel_cpu" not implemented for \'{_scalar_name(LD.dtype)}\'')
    batch = np.broadcast_shapes(LD.shape[:-2], B.shape[:-2])
    ld = matrices(np.broadcast_to(LD._data, batch + LD.shape[-2:]))
    piv = np.broadcast_to(pivots._data, batch + pivots.shape[-1:]).reshape((ld.shape[0], pivots.shape[-1]))
    b = matrices(np.broadcast_to(B._data, batch + B.shape[-2:]))
    x = np.stack([_sytrs(ld[i], piv[i], b[i]) for i in range(b.shape[0])]) if b.shape[0] else b.copy()
    x = column_major(x.reshape(batch + B.shape[-2:]))
    return not_implemented(x, (LD, B), "aten::linalg_ldl_solve")
