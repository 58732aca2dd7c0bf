"""torch.linalg.lstsq: least squares by the drivers PyTorch's CPU backend calls (gelsy by
default, as LAPACK's with PyTorch's uninitialised pivots; gelsd/gelss/gels), one
``LinalgLstsqBackward0`` node whose formula goes through the pseudo-inverse, and
PyTorch's handling of NaN and infinite operands.
"""

from __future__ import annotations

import numpy as np

from ..tensor import _scalar_name
from ._lapack import column_major, geqr2, gelsy_unpivoted
from ._op import Op, export
from ._return_types import return_type as _return_type
from .decompositions import svd_arrays
from .pseudoinverse import _pinv, pinv_backward

LstsqResult = _return_type("linalg_lstsq", ["solution", "residuals", "rank", "singular_values"])

def _lstsq_fwd(ctx, a, b, vector, driver, rcond):
    bb = b[..., None] if vector else b
    # (a matrix B of one dim fewer than A: ATen broadcasts A's batch with B's leading dims, its rows)
    batch = np.broadcast_shapes(a.shape[:-2], bb.shape[:a.ndim - 2] if bb.ndim < a.ndim else bb.shape[:-2])
    aa = np.broadcast_to(a, batch + a.shape[-2:])
    bb = np.broadcast_to(bb, batch + bb.shape[-2:])
    m, n = a.shape[-2:]
    _lstsq_check_nan(aa, bb, driver)
    cut = rcond if rcond is not None else np.finfo(a.dtype).eps * max(m, n)
    u, s, vh = svd_arrays(aa, False, who="torch.linalg.lstsq")
    # (gels takes no rcond: it assumes A of full rank, every singular value kept)
    keep = s > (0 if driver == "gels" else cut * s.max(-1, keepdims=True, initial=0.0))
    inv = np.where(keep, 1.0 / np.where(keep, s, 1), 0)
    with np.errstate(all="ignore"):
        x = np.matmul(np.swapaxes(vh, -1, -2) * inv[..., None, :], np.matmul(np.swapaxes(u, -1, -2), bb))
    rank = keep.sum(-1).astype(np.int64)
    if driver == "gelsy":  # PyTorch's own calling of it: no column pivots (_lapack.gelsy_unpivoted)
        finite = np.isfinite(aa).all(axis=(-2, -1))  # (an inf of B makes the solution NaN below)
        count = int(np.prod(batch))
        flat_a, flat_b = aa.reshape((count, m, n)), np.where(np.isinf(bb), 0, bb).reshape((count, m, bb.shape[-1]))
        gx, grank = gelsy_unpivoted(flat_a[finite.reshape(-1)], flat_b[finite.reshape(-1)], cut)
        x, rank = x.reshape((count,) + x.shape[-2:]).copy(), rank.reshape(-1).copy()
        x[finite.reshape(-1)], rank[finite.reshape(-1)] = gx, grank
        x, rank = x.reshape(batch + x.shape[-2:]), rank.reshape(batch)
    if driver == "gels":  # dgels's own steps where A and B are finite (and A not all zero)
        count = int(np.prod(batch))
        flat_a, flat_b = aa.reshape((count, m, n)), bb.reshape((count, m, bb.shape[-1]))
        ok = (np.isfinite(flat_a).all(axis=(-2, -1)) & np.isfinite(flat_b).all(axis=(-2, -1))
              & (flat_a != 0).any(axis=(-2, -1)))
        if ok.any():
            x = np.array(x.reshape((count,) + x.shape[-2:]), dtype=a.dtype)
            x[ok] = _gels(flat_a[ok].astype(a.dtype), flat_b[ok].astype(a.dtype))
            x = x.reshape(batch + x.shape[-2:])
    zero_a = ~(aa != 0).any(axis=(-2, -1))  # (LAPACK's drivers: an all-zero A sets all of B to 0 at once)
    if zero_a.any():
        x = np.where(zero_a[..., None, None], 0, x)
    x, rank = _lstsq_not_finite(aa, bb, x, rank, driver)
    dt = a.dtype
    empty = np.zeros((0,), dt)
    residuals = empty
    if driver in ("gels", "gelsd", "gelss") and m > n and (driver == "gels" or np.all(rank == n)):
        with np.errstate(all="ignore"):
            r = np.matmul(aa, x) - bb
            residuals = (r * r).sum(-2).astype(dt)
        # PyTorch's residuals are rows n.. of B as LAPACK leaves them, which it scales back only in the
        # first n: with an inf in B (scaled by 0: NaN there, 0 elsewhere) a column is NaN where it holds
        # an inf and 0 elsewhere; with an all-zero A they are 0
        inf_b = np.isinf(bb).any(axis=(-2, -1)) & ~zero_a
        if inf_b.any():
            residuals = np.where(inf_b[..., None], np.where(np.isinf(bb).any(-2), np.nan, 0).astype(dt), residuals)
        residuals = _qr_residuals(aa, bb, driver, residuals)
        residuals = np.where(zero_a[..., None], 0, residuals).astype(dt)
    # (the rank and the singular values are A's alone: of A's batch, not the one broadcast with B's)
    lead = len(batch) - (a.ndim - 2)
    of_a = (0,) * lead + tuple(slice(0, 1) if k == 1 else slice(None) for k in a.shape[:-2]) + (Ellipsis,)
    sv = np.ascontiguousarray(s[of_a], dt) if driver in ("gelsd", "gelss") else empty
    rank_out = np.zeros((0,), np.int64) if driver == "gels" else rank[of_a].copy()
    # LAPACK's layout: the solution is the first n rows of B's column-major copy of max(m, n) rows
    x = column_major(x.astype(dt, copy=False), rows=m)
    x = x[..., 0] if vector else x
    return x, residuals, rank_out, sv


def _qr_residuals(aa, bb, driver, residuals):
    """PyTorch's residuals are the squares of rows n.. of B as the driver leaves them, summed: where it
    takes A's QR first (gels; gelsd and gelss for m >= ILAENV's 1.6 n, before their SVD of R), Q^T B by
    ormqr, as ``_gels`` computes it, in place of ``residuals`` (|A X - B|^2, the same but for LAPACK's
    noise, which is all an exact fit's residual is: 0 in PyTorch, 1.1e-13 in agrad, run 39500000).  Only
    for finite A, B that LAPACK does not scale (max |.| in [sfmin / eps, eps / sfmin]).  On 100 random
    float32 exact fits of 3 x 2 (4 x 2), PyTorch's bits 9 (1) -> 100 (87) times; of any B 10 (11) -> 100 (91)."""
    from .._cascade import cascade_sum
    from .householder import _apply
    m, n = aa.shape[-2:]
    if driver != "gels" and m < int(np.float32(n) * np.float32(1.6)):  # (gebrd's Q^T B: not computed here)
        return residuals
    count = int(np.prod(aa.shape[:-2]))
    fa, fb = aa.reshape((count, m, n)), bb.reshape((count, m, bb.shape[-1]))
    small = np.finfo(aa.dtype).tiny / np.finfo(aa.dtype).eps
    with np.errstate(all="ignore"):
        an, bn = np.abs(fa).max(axis=(-2, -1), initial=0.0), np.abs(fb).max(axis=(-2, -1), initial=0.0)
    ok = (np.isfinite(fa).all(axis=(-2, -1)) & np.isfinite(fb).all(axis=(-2, -1)) & (an >= small) & (an <= 1 / small)
          & ((bn == 0) | ((bn >= small) & (bn <= 1 / small))))
    if not ok.any() or not bb.shape[-1]:
        return residuals
    packed, tau, _ = _gels_factor(fa[ok].astype(aa.dtype))
    with np.errstate(all="ignore"):
        c = _apply(packed, tau, fb[ok].astype(aa.dtype), True, True)
        # (LAPACK's column-major B: each column's rows n.. contiguous, as ATen's sum over them reads them)
        sq = np.swapaxes(np.ascontiguousarray(np.swapaxes(c * c, -1, -2)), -1, -2)[:, n:, :]
        total = cascade_sum(sq, (1,), False)
        total = np.sum(sq, axis=1) if total is None else total
    out = np.array(residuals.reshape((count, bb.shape[-1])), dtype=aa.dtype)
    out[ok] = total
    return out.reshape(residuals.shape)


def _lstsq_check_nan(a, b, driver):
    """MKL's drivers reject a NaN in A (LAPACK's argument 4, gels's 5) or, unless A is all zero
    (whose solution is 0 at once), in B (6, gels's 7); PyTorch reports that info as an internal
    assert, for the first such batch element. An inf in A: gelsd of min(m, n) <= 2 rejects it as a
    NaN (its scaled copy holds NaNs); gels reports a zero on R's diagonal (_gels_inf_rank)."""
    count = int(np.prod(a.shape[:-2]))
    flat_a, flat_b = a.reshape((count,) + a.shape[-2:]), b.reshape((count,) + b.shape[-2:])
    nan_a = np.isnan(flat_a).any(axis=(-2, -1))
    if driver == "gelsd" and min(a.shape[-2:]) <= 2:
        nan_a = nan_a | np.isinf(flat_a).any(axis=(-2, -1))
    bad = nan_a | (np.isnan(flat_b).any(axis=(-2, -1)) & (flat_a != 0).any(axis=(-2, -1)))
    rank = np.zeros(count, np.int64)
    if driver == "gels":
        for i in np.flatnonzero(~bad & np.isinf(flat_a).any(axis=(-2, -1))):
            rank[i] = _gels_inf_rank(flat_a[i])
        for i in np.flatnonzero(~bad & np.isfinite(flat_a).all(axis=(-2, -1)) & (flat_a != 0).any(axis=(-2, -1))):
            rank[i] = _gels_zero_rank(flat_a[i])
    if rank.any() and (not bad.any() or np.argmax(rank > 0) < np.argmax(bad)):
        i = int(np.argmax(rank > 0))
        where = f"(Batch element {i}): " if len(flat_a) > 1 else ""
        from .matrix import _LinAlgError
        raise _LinAlgError(f"torch.linalg.lstsq: {where}The least squares solution could not be computed because the "
                           f"input matrix does not have full rank (error code: {rank[i]}).")
    if bad.any():
        i = int(np.argmax(bad))
        arg = (4 if nan_a[i] else 6) + (driver == "gels")
        where = f"(Batch element {i}): " if len(flat_a) > 1 else ""
        raise RuntimeError(
            'false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp":1613, '
            f"please report a bug to PyTorch. torch.linalg.lstsq: {where}Argument {arg} has illegal value. Most certainly "
            "there is a bug in the implementation calling the backend library.")


def _gels_factor(a):
    """dgels's factorisation of matrices (b, m, n): geqrf's (packed, tau) of A for m >= n; for m < n
    gelqf's, as geqrf of A^T (bit for bit as MKL's gelqf on the checked cases), and the triangle
    (R, or L = R^T) whose diagonal trtrs checks."""
    m, n = a.shape[-2:]
    tall = m >= n
    packed, tau = geqr2(np.ascontiguousarray(a if tall else np.swapaxes(a, -1, -2)))
    k = min(m, n)
    tri = np.triu(packed[:, :k, :k])
    return packed, tau, (tri if tall else np.swapaxes(tri, -1, -2))


def _gels(a, b):
    """dgels (no transpose) of finite matrices of full rank (b, m, n), B (b, m, k): for m >= n
    Q^T B by ormqr, then R X = (Q^T B)[:n] by trsm; for m < n L Y = B by trsm, then X = Q^T [Y; 0]
    by ormlq (ormqr of A^T's reflectors)."""
    from .householder import _apply
    from .linalg_triangular import trsm
    m, n = a.shape[-2:]
    packed, tau, tri = _gels_factor(a)
    with np.errstate(all="ignore"):
        if m >= n:
            c = _apply(packed, tau, b, True, True)
            return trsm(tri, c[:, :n], True)
        full = np.zeros((a.shape[0], n, b.shape[-1]), a.dtype)
        full[:, :m] = trsm(tri, b, False)
        return _apply(packed, tau, full, True, False)


def _gels_zero_rank(a):
    """trtrs's info for a finite A (m, n): the first zero on the diagonal of R (L for m < n), 1-based,
    0 for none."""
    diag = np.diagonal(_gels_factor(a[None])[2][0])
    zero = np.flatnonzero(diag == 0)
    return int(zero[0]) + 1 if zero.size else 0


def _gels_inf_rank(a):
    """gels of an A with an inf scales it by 0 (NaNs where the infs were, zeros elsewhere) and factors it
    (QR, or LQ when m < n): a reflector of an all-zero column below the diagonal is the identity, one with
    a NaN there makes the rest NaN; trtrs reports the first zero left on the diagonal (1-based), 0 for none
    (measured: 397 of 400 random matrices; MKL's blocked factorisation differs in the rest)."""
    t = np.where(np.isinf(a), np.nan, 0.0)
    if t.shape[0] < t.shape[1]:
        t = t.T
    for j in range(t.shape[1]):
        below = t[j + 1:, j]
        if np.isnan(below).any():
            return 0
        if t[j, j] == 0:
            return j + 1
    return 0


def _lstsq_not_finite(a, b, x, rank, driver):
    """(solution, rank) where A or B holds an inf, as LAPACK gives them: it scales such an
    operand by 0 (its infs become NaNs, the rest zeros) and the solution back by 0 (A) or by inf
    (B: every element NaN, unless A is all zero, or for gelsy of rank 0, solved as 0 first).  gelsy's QR of a scaled A
    starts from its first column (PyTorch's column pivots are not initialised, docs/semantics.md):
    no inf there is rank 0 and a zero solution; else rank 1, the first row NaN when the inf is
    at (0, 0) alone, every element NaN otherwise (or when B has an inf too); PyTorch's answer
    varies from call to call there, this is its most frequent one."""
    inf_a, inf_b = np.isinf(a).any(axis=(-2, -1)), np.isinf(b).any(axis=(-2, -1))
    if not (inf_a.any() or inf_b.any()):
        return x, rank
    x, rank = np.array(x), np.array(rank)
    # (gelsy: a rank-0 A is solved as 0 before B is scaled back)
    nan_x = inf_b & ((rank > 0) if driver == "gelsy" else (a != 0).any(axis=(-2, -1)))
    if driver == "gelsy":
        bad = np.isinf(a)
        col0 = inf_a & bad[..., :, 0].any(-1)
        x[inf_a] = 0
        rank[inf_a] = col0[inf_a]
        nan_x = np.where(inf_a, col0 & (inf_b | bad[..., 1:, 0].any(-1) | bad[..., 1:].any(axis=(-2, -1))), nan_x)
        first_row = col0 & ~nan_x
        x[first_row, 0] = np.nan
    x[nan_x] = np.nan
    return x, rank


_lstsq = Op("LinalgLstsqBackward0", _lstsq_fwd, inputs=("self", "b"), saves=("self", "b", "solution"), outputs=2,
            output_names=("solution",))  # (the solution saved: changed in place, PyTorch's error)


@_lstsq.derivative
def _(ctx, grad):
    A, B = ctx.self, ctx.b
    gX = grad.unsqueeze(-1) if ctx.vector else grad
    Bm = B.unsqueeze(-1) if ctx.vector else B
    pinvA = _pinv(A, atol=None, rtol=None, hermitian=False)
    gA = gB = None
    if ctx.needs(0):
        gA = pinv_backward(gX.matmul(Bm.mT), pinvA, A)
    if ctx.needs(1):
        gB = pinvA.mT.matmul(gX)
        gB = gB.squeeze(-1) if ctx.vector else gB
    return gA, gB


def _linalg_lstsq(A, B, rcond=None, *, driver=None):
    if A.ndim < 2:
        raise RuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    if B.ndim < 1:
        raise RuntimeError("torch.linalg.lstsq: other must have at least 1 dimension.")
    if A.dtype is not B.dtype:
        raise RuntimeError(f"torch.linalg.lstsq: Expected input and other to have the same dtype, but got input's "
                           f"dtype {_scalar_name(A.dtype)} and other's dtype {_scalar_name(B.dtype)}")
    if not 0 <= A.ndim - B.ndim <= 1:
        raise RuntimeError("torch.linalg.lstsq: input.dim() must be greater or equal to other.dim() and "
                           "(input.dim() - other.dim()) <= 1")
    # linalg_solve_is_vector_rhs: a 1-D B, or one of A's shape without its last dim; a B of one dim
    # fewer but another shape is a matrix (broadcast over A's batch)
    vector = B.ndim == 1 or (B.ndim == A.ndim - 1 and tuple(B.shape) == tuple(A.shape[:-1]))
    rows = B.shape[-1] if vector else B.shape[-2]
    if rows != A.shape[-2]:
        raise RuntimeError(
            f"torch.linalg.lstsq: input.size(-2) should match other.size({-1 if vector else -2})")
    if not vector and B.ndim < A.ndim:
        # (ATen broadcasts A's batch with B's leading dims: here its rows)
        from .pointwise import _mismatch_message
        try:
            np.broadcast_shapes(A._data.shape[:-2], B._data.shape[:A.ndim - 2])
        except ValueError:
            raise RuntimeError(_mismatch_message(A._data.shape[:-2], B._data.shape[:A.ndim - 2])) from None
    if driver is not None and driver not in ("gels", "gelsy", "gelsd", "gelss"):
        raise RuntimeError(f"torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    if A.dtype.name not in ("float32", "float64"):
        if rcond is None:  # the default rcond's eps(dtype)
            raise RuntimeError("This function doesn't handle types other than float and double")
        raise NotImplementedError(f'"linalg_lstsq_cpu" not implemented for \'{_scalar_name(A.dtype)}\'')
    out = _lstsq.apply((A, B), (A._data, B._data), {"vector": vector, "driver": driver or "gelsy", "rcond": rcond})
    return LstsqResult(*out)


export("lstsq", linalg=True, torch=False)(_linalg_lstsq)
