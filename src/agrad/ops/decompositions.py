"""Matrix decompositions and what is built on them: cholesky, qr, eigh/eigvalsh, svd/svdvals
(pinv, matrix_rank and cond are in ``pseudoinverse``, lstsq in ``lstsq``, lu_factor and lu_solve in
``lu``; matrix_exp, matrix_power and multi_dot in ``matrix_functions``).

Each decomposition is one node named as in PyTorch (``LinalgSvdBackward0``, ...) with the
backward formula of ``torch/csrc/autograd/FunctionsManual.cpp`` written with agrad ops.
svd and eigh save their outputs, as PyTorch does (``create_graph=True`` differentiates
through the forward's own node, and in-place steps record CopySlices as PyTorch's); qr's
formula recomputes its factors with the op itself (same numbers).  As in PyTorch, SVD and eigh gradients
through the singular/eigen vectors are NaN where values repeat (the formula divides by
their differences), and ``svdvals``/``eigvalsh`` take the shortcut that stays finite.
Results with several parts are ``torch.return_types`` named tuples.
"""

from __future__ import annotations

import numpy as np

from .._warn_once import warn_once
from .. import dtypes
from ..tensor import Tensor, _can_cast, _scalar_name
from ._lapack import column_major, geqr2, householder_qr, matrices, syevd_info, vector_svd
from .linalg_triangular import solve_triangular_op
from ._op import FUNCTIONS, LINALG, Op, export, with_out, write_outs
from ._return_types import return_type as _return_type
from .nn import const


SvdResult = _return_type("linalg_svd", ["U", "S", "Vh"])
TorchSvdResult = _return_type("svd", ["U", "S", "V"])
QrResult = _return_type("linalg_qr", ["Q", "R"])
TorchQrResult = _return_type("qr", ["Q", "R"])
EighResult = _return_type("linalg_eigh", ["eigenvalues", "eigenvectors"])
LuFactorResult = _return_type("linalg_lu_factor", ["LU", "pivots"])


def _error(message):
    return LINALG["LinAlgError"](message)


def _square(t, who):
    if t.ndim < 2:
        raise RuntimeError(f"{who}: The input tensor A must have at least 2 dimensions.")
    n, m = t.shape[-2:]
    if n != m:
        raise RuntimeError(f"{who}: A must be batches of square matrices, but they are {n} by {m} matrices")


def _floating(t, who):
    if not t.dtype.is_floating_point:
        raise RuntimeError(f"{who}: Expected a floating point or complex tensor as input. Got {_scalar_name(t.dtype)}")


def _kernel_dtype(t, kernel):
    """PyTorch's dispatch error for a dtype its CPU kernel lacks (LAPACK's: any but float32/64; an
    empty float16 input never reaches the kernel, but for geqrf; nor does an empty input of any
    dtype reach eigh's, which checks none before)."""
    if kernel == "linalg_eigh_cpu" and not t.numel():
        return
    if not t.dtype.is_floating_point or t.dtype is dtypes.float16 and (t.numel() or kernel == "geqrf_cpu"):
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_scalar_name(t.dtype)}\'')


def _matrix(t, who):
    if t.ndim < 2:
        raise RuntimeError(f"{who}: The input tensor A must have at least 2 dimensions.")
    _floating(t, who)


def _eye(n, like):
    return const(np.eye(n, dtype=like._data.dtype))


def _record_defined(op):
    """Let the formula of a multi-output op see which output gradients were undefined
    (PyTorch's formulas branch on it; the engine would pass zeros)."""
    apply = op.node.apply

    def node_apply(self, grads):
        self.defined = tuple(g is not None for g in grads)
        return apply(self, grads)

    op.node.apply = node_apply


def _fill_diagonal(t, value):
    """``t.diagonal(0, -2, -1).fill_(value)``, in place as PyTorch's formulas do (a CopySlices node)."""
    t.diagonal(0, -2, -1).fill_(value)
    return t


def _needs_grad(t):
    """ATen's _may_require_fw_or_bw_grad: grad mode on and ``t`` requires grad, or ``t`` has a tangent."""
    from ..autograd.graph import is_recording
    return is_recording([t]) or getattr(t, "_fw", None) is not None


def _batch_where(a):
    return lambda b: f"(Batch element {b}): " if a.ndim > 2 else ""


# ---------------------------------------------------------------------------
# cholesky
# ---------------------------------------------------------------------------

def _potrf_lower(m):
    """(L, info) of potrf on one matrix's lower triangle, step by step: info is the first column
    (1-based) whose pivot a_jj - sum L_jk^2 is not > 0 (a NaN included, carried on from earlier
    columns), or 0.  In float32 and n <= 16 an inf pivot stays L_jj = inf but the column below it comes
    out NaN (failing the next pivot), as MKL's spotrf does (checked against PyTorch; larger matrices
    divide).  A failed factor is
    potf2's (what linalg.cholesky_ex returns): the columns before the failed one and its row
    computed, its pivot the failed value, the rest of the lower triangle as it was."""
    n = m.shape[0]
    low = np.zeros_like(m)
    with np.errstate(all="ignore"):
        for j in range(n):
            pivot = m[j, j] - np.sum(low[j, :j] * low[j, :j])
            if not pivot > 0:
                low[j, j] = pivot
                low[j + 1:, j:] = np.tril(m)[j + 1:, j:]
                return low, j + 1
            root = np.sqrt(pivot)
            low[j, j] = root
            low[j + 1:, j] = (m[j + 1:, j] - low[j + 1:, :j] @ low[j, :j]) / root
            if m.dtype == np.float32 and np.isinf(root) and n <= 16:
                low[j + 1:, j] = np.nan  # (MKL's small spotrf scales by a refined reciprocal: 0 * (2 - inf * 0))
    return low, 0


def _cholesky_fwd(ctx, a, upper, who):
    if a.size == 0 and (who == "cholesky" or a.ndim < 2 or a.shape[-1] != a.shape[-2]):
        return a.copy()  # torch.cholesky's empty input: empty_like(self, contiguous) (through its node)
    if not np.isfinite(a).all():  # LAPACK's steps: a NaN or an inf in the triangle it reads
        flat = matrices(a)
        out = np.empty_like(flat)
        for b, m in enumerate(flat):
            out[b], info = _potrf_lower(m.T if upper else m)
            if info:
                raise _error(f"{who}: {_batch_where(a)(b)}The factorization could not be completed because the input "
                             f"is not positive-definite (the leading minor of order {info} is not positive-definite).")
        out = out.reshape(a.shape)
        return column_major(np.swapaxes(out, -1, -2) if upper else out)
    try:
        out = np.linalg.cholesky(_empty_lapack(a) if a.size == 0 else a)
    except np.linalg.LinAlgError:
        flat = matrices(a)
        for b, m in enumerate(flat):
            for k in range(1, m.shape[0] + 1):
                try:
                    np.linalg.cholesky(m[:k, :k])
                except np.linalg.LinAlgError:
                    raise _error(f"{who}: {_batch_where(a)(b)}The factorization could not be completed because the "
                                 f"input is not positive-definite (the leading minor of order {k} is not "
                                 "positive-definite).") from None
        raise
    out = out.astype(a.dtype, copy=False)
    return column_major(np.swapaxes(out, -1, -2) if upper else out)


def _cholesky_backward(ctx, grad):
    L, gL = ctx.result, grad
    if L.ndim < 2:  # (torch.cholesky's empty input: what PyTorch's formula meets first)
        raise RuntimeError(f"tensor.mH is only supported on matrices or batches of matrices. Got {L.ndim}-D tensor.")
    if L.shape[-1] != L.shape[-2]:  # (its first solve is with L^H, of L^H for upper)
        m, n = L.shape[-2:] if ctx.upper else L.shape[::-1][:2]
        raise RuntimeError(f"linalg.solve_triangular: A must be batches of square matrices, but they are {m} by {n} matrices")
    if ctx.upper:
        L, gL = L.mT, gL.mT
    gA = L.mT.matmul(gL).tril()
    gA = 0.5 * (gA + gA.tril(-1).mT)
    gA = solve_triangular_op(L.mT, gA, upper=True)
    return solve_triangular_op(L, gA, upper=False, left=False)


_cholesky = Op("LinalgCholeskyExBackward0", _cholesky_fwd, inputs=("A",), saves=("result",))
_cholesky.derivative(_cholesky_backward)
_cholesky_legacy = Op("CholeskyBackward0", _cholesky_fwd, saves=("result",), jvp="unsupported")
_cholesky_legacy.jvp_name = "cholesky"
_cholesky_legacy.derivative(_cholesky_backward)


@with_out("linalg_cholesky")
def _linalg_cholesky(A, *, upper=False, out=None):
    _square(A, "linalg.cholesky")
    _floating(A, "linalg.cholesky")
    _kernel_dtype(A, "cholesky_cpu")
    return _cholesky(A, upper=bool(upper), who="linalg.cholesky")


export("cholesky", linalg=True, torch=False)(_linalg_cholesky)


@export("cholesky", method=True)
def cholesky(input, upper=False, *, out=None):
    """torch.cholesky (deprecated in favour of torch.linalg.cholesky), with PyTorch's warning; its
    out= (cholesky_out): the result computed apart, then resize_output (C-ordered) and copy_."""
    if out is not None:  # (cholesky_out's own TORCH_WARN_ONCE, before at::cholesky's)
        warn_once(_CHOLESKY_DEPRECATED, UserWarning, key="cholesky_out")
        if isinstance(input, Tensor) and isinstance(out, Tensor) and not _can_cast(input.dtype, out.dtype):
            # (checkLinalgCompatibleDtype, before at::cholesky's checks)
            raise RuntimeError(f"cholesky: Expected result to be safely castable from {_scalar_name(input.dtype)} "
                               f"dtype, but got result with dtype {_scalar_name(out.dtype)}")
    result = _cholesky_deprecated(input, upper)
    return result if out is None else write_outs("cholesky", result, out, None, contiguous=True)


_CHOLESKY_DEPRECATED = (
    "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a future PyTorch "
    "release.\nL = torch.cholesky(A)\nshould be replaced with\nL = torch.linalg.cholesky(A)\nand\n"
    "U = torch.cholesky(A, upper=True)\nshould be replaced with\nU = torch.linalg.cholesky(A).mH\n"
    "This transform will produce equivalent results for all valid (symmetric positive definite) inputs.")


def _cholesky_deprecated(input, upper):
    warn_once(_CHOLESKY_DEPRECATED, UserWarning)
    if input.numel() == 0 and not (input.ndim >= 2 and input.shape[-1] == input.shape[-2]
                                   and input.dtype.is_floating_point):
        # an empty input is returned as it is, before any check (a float one through the node)
        if input.dtype.is_floating_point:
            return _cholesky_legacy(input, upper=bool(upper), who="cholesky")
        return Tensor._make(input._data.copy())
    _square(input, "cholesky")
    _kernel_dtype(input, "cholesky_cpu")
    return _cholesky_legacy(input, upper=bool(upper), who="cholesky")


# ---------------------------------------------------------------------------
# qr
# ---------------------------------------------------------------------------

def _empty_lapack(a):
    """An empty ``a`` as an array numpy's LAPACK takes (float16, bool and integers it refuses;
    PyTorch returns its empty results in ``a``'s dtype, cast back by the caller)."""
    return a.astype(np.float32) if a.dtype.kind != "f" or a.dtype == np.float16 else a


def _plus_zero(a):
    """``a`` with every -0.0 made +0.0: MKL's Householder reflectors (behind PyTorch's svd, qr and
    eigh) take the sign of a -0.0 as +, the reference LAPACK behind numpy as -, which flips the
    sign of singular vectors, of Q's columns and of eigenvectors."""
    return np.add(a, 0.0) if a.dtype.kind == "f" else a


#: the largest min(m, n) for which qr takes Householder steps of its own (``_lapack``), whose signed
#: zeros, infs and NaNs land where MKL's do; larger matrices take numpy's blocked LAPACK
_QR_SMALL = 16


def _qr_fwd(ctx, a, mode):
    if min(a.shape[-2:]) <= _QR_SMALL or not np.isfinite(a).all():
        q, r = householder_qr(a, complete=mode == "complete")
        return (np.zeros((0,), a.dtype) if mode == "r" else column_major(q)), column_major(r)
    a = _plus_zero(a)
    if mode == "r":
        r = np.linalg.qr(a, mode="r") if a.ndim == 2 else np.linalg.qr(a)[1]
        return np.zeros((0,), a.dtype), column_major(np.asarray(r, a.dtype))
    q, r = np.linalg.qr(a, mode=mode)
    return column_major(q.astype(a.dtype, copy=False)), column_major(r.astype(a.dtype, copy=False))


_qr = Op("LinalgQrBackward0", _qr_fwd, inputs=("A",), saves=("Q", "R"), output_names=("Q", "R"), outputs=None,
         multi_grad=True)
_record_defined(_qr)


@_qr.derivative
def _(ctx, grads):
    mode = ctx.mode
    if mode == "r":
        raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use "
                           "linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.")
    Q, R = ctx.Q, ctx.R
    m, n = Q.shape[-2], R.shape[-1]
    if mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")
    has_q, has_r = ctx.defined
    gQ, gR = grads
    if has_q and has_r:
        gA = gR.matmul(R.mT) - Q.mT.matmul(gQ)
    elif has_q:
        gA = -Q.mT.matmul(gQ)
    else:
        gA = gR.matmul(R.mT)
    if m >= n:
        # gA = (Q syminvadj(triu(gA)) (+ gQ)) R^{-H}: syminvadj halves the diagonal of X + X^H in place
        sym = gA.triu()
        sym = sym + sym.mT
        sym.diagonal(0, -2, -1).mul_(0.5)
        gA = Q.matmul(sym)
        if has_q:
            gA = gA + gQ
        return solve_triangular_op(R.mT, gA, upper=False, left=False)
    gA = -gA
    gA = Q.matmul((gA - gA.mT).tril())
    gA = solve_triangular_op(R.narrow(-1, 0, m).mT, gA, upper=False, left=False)
    zeros = const(np.zeros(gA.shape[:-1] + (n - m,), gA._data.dtype))
    gA = FUNCTIONS["cat"]([gA, zeros], -1)
    if has_r:
        gA = gA + Q.matmul(gR)
    return gA


def _qr_impl(A, mode, who):
    _matrix(A, who)  # before the mode, as PyTorch checks
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', or "
                           "'complete'")
    _kernel_dtype(A, "geqrf_cpu")
    return _qr(A, mode=mode)


@with_out("linalg_qr")
def _linalg_qr(A, mode="reduced", *, out=None):
    return QrResult(*_qr_impl(A, mode, "linalg.qr"))


export("qr", linalg=True, torch=False)(_linalg_qr)


@export("qr", method=True)
@with_out("qr")
def qr(input, some=True, *, out=None):
    """torch.qr (deprecated in favour of torch.linalg.qr), with PyTorch's warning."""
    warn_once(
        "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch release.\n"
        "The boolean parameter 'some' has been replaced with a string parameter 'mode'.\nQ, R = torch.qr(A, some)\n"
        "should be replaced with\nQ, R = torch.linalg.qr(A, 'reduced' if some else 'complete')",
        UserWarning)
    return TorchQrResult(*_qr_impl(input, "reduced" if some else "complete", "linalg.qr"))


# ---------------------------------------------------------------------------
# eigh, eigvalsh
# ---------------------------------------------------------------------------

def eigh_arrays(a, uplo="L", vectors=True):
    """numpy's eigh, with PyTorch's error where its LAPACK (syevd; sterf without ``vectors``)
    does not converge on a matrix that is not finite (``_lapack.syevd_info``)."""
    if not np.isfinite(a).all():
        flat = matrices(a)
        for b, m in enumerate(flat):
            info = syevd_info(m, uplo == "L", vectors)
            if info:
                raise _error(f"linalg.eigh: {_batch_where(a)(b)}The algorithm failed to converge because the input "
                             f"matrix is ill-conditioned or has too many repeated eigenvalues (error code: {info}).")
    if a.size == 0:
        return np.zeros(a.shape[:-1], a.dtype), np.zeros(a.shape, a.dtype)
    # (a -0.0 on the diagonal stays: with no reflector it is an eigenvalue, -0.0 in PyTorch too)
    return np.linalg.eigh(np.where(np.eye(a.shape[-1], dtype=bool), a, _plus_zero(a)), UPLO=uplo)


def _eigh_fwd(ctx, a, uplo, vectors=True):
    w, v = eigh_arrays(a, uplo, vectors)
    return np.ascontiguousarray(w, a.dtype), column_major(v.astype(a.dtype, copy=False))


_eigh = Op("LinalgEighBackward0", _eigh_fwd, inputs=("A",), saves=("eigenvalues", "eigenvectors"),
            output_names=("eigenvalues", "eigenvectors"), outputs=None, multi_grad=True)
_record_defined(_eigh)


@_eigh.derivative
def _(ctx, grads):
    # linalg_eig_backward with is_hermitian=True, on the saved eigenvalues and eigenvectors
    L, V = ctx.eigenvalues, ctx.eigenvectors
    gL, gV = grads
    has_l, has_v = ctx.defined
    if not has_v:
        Vh = V.mT  # (matmul's arguments right to left: V^H first)
        return (V * gL.unsqueeze(-2)).matmul(Vh)
    VhgV = V.mT.matmul(gV)
    VhgV = 0.5 * (VhgV - VhgV.mT)
    gA = VhgV.div_(_fill_diagonal(L.unsqueeze(-2) - L.unsqueeze(-1), 1))
    if has_l:
        gA.diagonal(0, -2, -1).copy_(gL)
    return V.matmul(gA.matmul(V.mT))


def _eigh_impl(A, UPLO, who, vectors=True):
    _square(A, who)
    _kernel_dtype(A, "linalg_eigh_cpu")
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    return _eigh(A, uplo=UPLO, vectors=vectors)


@with_out("_linalg_eigh")  # (its out= runs _linalg_eigh.eigenvalues: autograd names that)
def _linalg_eigh(A, UPLO="L", *, out=None):
    return EighResult(*_eigh_impl(A, UPLO, "linalg.eigh"))


@with_out("_linalg_eigh")
def _linalg_eigvalsh(A, UPLO="L", *, out=None):
    # PyTorch's messages name linalg.eigh; it computes the eigenvectors only for a gradient
    return _eigh_impl(A, UPLO, "linalg.eigh", vectors=_needs_grad(A))[0]


export("eigh", linalg=True, torch=False)(_linalg_eigh)
export("eigvalsh", linalg=True, torch=False)(_linalg_eigvalsh)


# ---------------------------------------------------------------------------
# svd, svdvals
# ---------------------------------------------------------------------------

def _gesdd(a, full_matrices, compute_uv):
    """numpy's SVD, steered onto the path PyTorch's (MKL's) gesdd takes for a wide matrix.

    For m < n the reference LAPACK behind numpy first factors A = LQ when n >= int(11m/6) and
    MKL's signs then differ; MKL's match the reference's direct bidiagonalisation, which numpy
    takes for A with zero rows appended up to ceil(6(n+1)/11) rows (the zero rows change
    nothing else: they add zero singular values, dropped again).  A 2 x 3 matrix has no such
    padding: it gets a zero column first (checked against PyTorch)."""
    m, n = a.shape[-2:]
    if a.size and m == 1:
        return vector_svd(a, full_matrices, compute_uv)
    if a.size and n == 1:  # one column: LAPACK's singular value, numpy's U, with MKL's Vh of [[1]]
        s = vector_svd(a, compute_uv=False)
        if not compute_uv:
            return s
        u, _, vh = np.linalg.svd(a, full_matrices=full_matrices)
        u[..., :, :1] *= vh
        return u, s, np.ones_like(vh)
    if compute_uv and (m, n) == (2, 3):
        wide = np.zeros(a.shape[:-1] + (4,), a.dtype)
        wide[..., :3] = a
        u, s, vh = _gesdd(wide, full_matrices, True)
        return u, s, vh[..., :3, :3]
    rows = -(-6 * (n + 1) // 11)
    if not compute_uv or not m < rows < n:
        return np.linalg.svd(a, full_matrices=full_matrices, compute_uv=compute_uv)
    padded = np.zeros(a.shape[:-2] + (rows, n), a.dtype)
    padded[..., :m, :] = a
    u, s, vh = np.linalg.svd(padded, full_matrices=full_matrices)
    return u[..., :m, :m], s[..., :m], vh if full_matrices else vh[..., :m, :]


def svd_arrays(a, full_matrices=False, compute_uv=True, who="linalg.svd", signed_zeros=False):
    """numpy's SVD of a (batch of) matrices, with PyTorch's answer where the input is not
    finite: LAPACK's gesdd can loop forever on an inf, so it is never given one.  A NaN is
    PyTorch's LinAlgError; a matrix with an inf and no NaN gets what PyTorch's LAPACK gives
    (every singular value NaN; gesdd scales the matrix by 0, so the infs are NaNs among zeros, and
    with them on the diagonal of a square matrix, or one at (0, 0), U and Vh are the identity in
    bdsqr's sorting order of those NaNs and zeros; elsewhere MKL spreads NaNs, which agrad does
    not: the first k reversed)."""
    signed = a
    a = _plus_zero(_empty_lapack(a) if a.size == 0 else a)
    finite = np.isfinite(a).all(axis=(-2, -1))
    if finite.all():
        out = _gesdd(a, full_matrices, compute_uv)
        if signed_zeros and compute_uv and a.size and min(a.shape[-2:]) > 1:
            _zero_signs(signed, out[1])
        return out
    nan = np.isnan(a).any(axis=(-2, -1))
    if a.shape[-2] == 1 or (a.shape[-1] == 1 and not compute_uv):
        if not nan.any():  # (one row, or one column's values: LAPACK's arithmetic, infs and all)
            return _gesdd(a, full_matrices, compute_uv)
    if nan.any():
        where = f"(Batch element {int(np.flatnonzero(nan.reshape(-1))[0])}): " if a.ndim > 2 else ""
        raise _error(f"{who}: {where}The algorithm failed to converge because the input matrix contained "
                     "non-finite values.")
    m, n = a.shape[-2:]
    k = min(m, n)
    bad = ~finite
    clean = np.where(bad[..., None, None], 0, a)  # the others are decomposed as usual
    if not compute_uv:
        s = np.linalg.svd(clean, compute_uv=False)
        s[bad] = np.nan
        return s
    u, s, vh = np.linalg.svd(clean, full_matrices=full_matrices)
    s[bad] = np.nan
    eye_m, eye_n = np.eye(m, dtype=u.dtype), np.eye(n, dtype=vh.dtype)
    flat_a, flat_u, flat_vh = a.reshape((-1, m, n)), u.reshape((-1,) + u.shape[-2:]), vh.reshape((-1,) + vh.shape[-2:])
    for b in np.flatnonzero(bad.reshape(-1)):
        inf = np.isinf(flat_a[b])  # (on the diagonal of a non-square matrix, past (0, 0), MKL spreads NaNs)
        diagonal = not (inf & ~np.eye(m, n, dtype=bool)).any() and (m == n or not inf.any(0)[1:].any())
        order = _bdsqr_order(np.where(np.diagonal(inf), np.nan, 0.0)) if diagonal else list(range(k))[::-1]
        rows, cols = np.arange(u.shape[-1]), np.arange(vh.shape[-2])
        rows[:k], cols[:k] = order, order
        flat_u[b], flat_vh[b] = eye_m[:, rows], eye_n[cols, :]
    return flat_u.reshape(u.shape), s, flat_vh.reshape(vh.shape)


def _zero_signs(a, s):
    """The signed zeros MKL's gesdd gives as the singular values of a matrix of zeros (with vectors:
    svdvals' are +0.0, dlasq1's magnitudes): no reflector changes a -0.0 of the bidiagonal it
    builds (tau 0), whose diagonal then is A's; but a matrix of m >= int(1.5 n) rows (MKL's
    threshold, found by experiment: the reference's is 11n/6) is first factored A = QR by geqrf,
    whose reflectors it applies even where tau is 0, and the diagonal is R's."""
    zero = (a == 0).all(axis=(-2, -1))
    if not zero.any():
        return
    m, n = a.shape[-2:]
    flat, out = a.reshape((-1, m, n))[zero.reshape(-1)], s.reshape((-1, s.shape[-1]))
    if m >= int(1.5 * n):
        flat = geqr2(flat)[0]
    out[zero.reshape(-1)] = np.diagonal(flat, axis1=-2, axis2=-1)


def _bdsqr_order(d):
    """The order LAPACK's bdsqr sorts singular values ``d`` into (descending): k - 1 passes, each
    swapping the last entry with the smallest before it (the last one found by ``<=``; a NaN is
    never smaller, nor anything than a NaN first)."""
    d, order = list(d), list(range(len(d)))
    for last in range(len(d) - 1, 0, -1):
        at, smallest = 0, d[0]
        for j in range(1, last + 1):
            if d[j] <= smallest:
                at, smallest = j, d[j]
        if at != last:
            d[at], d[last] = d[last], smallest
            order[at], order[last] = order[last], order[at]
    return order


def _svd_fwd(ctx, a, full_matrices, signed_zeros=True):
    u, s, vh = svd_arrays(a, full_matrices, signed_zeros=signed_zeros)
    s = np.asarray(s, a.dtype)  # (an empty S: C order, not the strides a slice of numpy's left it)
    return (column_major(u.astype(a.dtype, copy=False)), np.ascontiguousarray(s) if s.size else s.copy(),
            column_major(vh.astype(a.dtype, copy=False)))


_svd = Op("LinalgSvdBackward0", _svd_fwd, inputs=("A",), saves=("U", "S", "Vh"), output_names=("U", "S", "Vh"),
           outputs=None, multi_grad=True)
_record_defined(_svd)


@_svd.derivative
def _(ctx, grads):
    # svd_backward, real case, on the saved U, S, Vh (narrowed to k columns/rows for full_matrices)
    U, S, Vh = ctx.U, ctx.S, ctx.Vh
    gU, gS, gVh = grads
    has_u, has_s, has_vh = ctx.defined
    k = S.shape[-1]
    if ctx.full_matrices:
        U, Vh = U.narrow(-1, 0, k), Vh.narrow(-2, 0, k)
        gU = gU.narrow(-1, 0, k) if has_u else gU
        gVh = gVh.narrow(-2, 0, k) if has_vh else gVh
    m, n = U.shape[-2], Vh.shape[-1]
    if not has_u and not has_vh:
        return U.matmul(gS.unsqueeze(-1) * Vh) if m >= n else (U * gS.unsqueeze(-2)).matmul(Vh)
    skew = lambda X: X - X.mT  # noqa: E731
    UhgU = skew(U.mT.matmul(gU)) if has_u else None
    VhgV = skew(Vh.matmul(gVh.mT)) if has_vh else None
    S2 = S * S
    E = _fill_diagonal(S2.unsqueeze(-2) - S2.unsqueeze(-1), 1)
    # (GCC evaluates the right operand of a binary operator first)
    if has_u and has_vh:
        right = S.unsqueeze(-1) * VhgV
        gA = (UhgU * S.unsqueeze(-2) + right) / E
    elif has_u:
        s_row = S.unsqueeze(-2)
        gA = (UhgU / E) * s_row
    else:
        right = VhgV / E
        gA = S.unsqueeze(-1) * right
    if has_s:
        gA = gA + gS.diag_embed()
    if m > n and has_u:
        gA = U.matmul(gA)
        gUSinv = gU / S.unsqueeze(-2)
        right = U.matmul(U.mT.matmul(gUSinv))
        gA = gA + gUSinv - right
        return gA.matmul(Vh)
    if m < n and has_vh:
        gA = gA.matmul(Vh)
        SinvgVh = gVh / S.unsqueeze(-1)
        right = SinvgVh.matmul(Vh.mT).matmul(Vh)
        gA = gA + SinvgVh - right
        return U.matmul(gA)
    return U.matmul(gA.matmul(Vh)) if m >= n else U.matmul(gA).matmul(Vh)


def _svd_impl(A, full_matrices, who, values=False):
    """``values``: svdvals or svd(compute_uv=False), whose gesdd computes no vectors unless A may need
    a gradient (ATen's _may_require_fw_or_bw_grad); then a matrix of zeros has +0.0 singular values."""
    _matrix(A, who)
    _kernel_dtype(A, "linalg_svd_cpu")
    return _svd(A, full_matrices=bool(full_matrices), signed_zeros=not values or _needs_grad(A))


def _linalg_svd(A, full_matrices=True, *, driver=None, out=None):
    if out is None:
        return SvdResult(*_svd_impl(A, full_matrices, "linalg.svd"))
    outs = _refused_outs("_linalg_svd", (A,), out, 3)
    _matrix(A, "linalg.svd")
    _kernel_dtype(A, "linalg_svd_cpu")
    _svd_meta(A, full_matrices, outs)
    return write_outs("linalg_svd", SvdResult(*_svd_impl(A, full_matrices, "linalg.svd")), outs)


def _refused_outs(name, inputs, out, n):
    """``out``'s ``n`` tensors (the parser's length check), then autograd's refusal of the out overload
    ``name`` (before the op's own checks)."""
    from ..autograd import grad_mode

    outs = tuple(out)
    if len(outs) != n:
        raise TypeError(f"{name.lstrip('_')}(): argument 'out' must be tuple of Tensors of length {n}")
    if grad_mode._state["enabled"] and any(t._requires_grad for t in (*inputs, *outs)):
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")
    return outs


def _svd_meta(A, full_matrices, outs):
    """_linalg_svd's meta function into out=: U, then Vh, then S, each checked against A's dtype and
    resized (resize_output, LAPACK's column-major layout for U and Vh) in turn, before the kernel."""
    from ._outs import _C_TYPE, _resize_out, warn_resized

    U, S, Vh = outs
    m, n = A.shape[-2:]
    k, batch = min(m, n), tuple(A.shape[:-2])
    shapes = (batch + (m, m if full_matrices else k), batch + (n if full_matrices else k, n), batch + (k,))
    for o, shape in zip((U, Vh, S), shapes):
        if o is None:  # (svdvals': no vectors)
            continue
        if o.dtype is not A.dtype:
            raise RuntimeError(f"Expected out tensor to have dtype {_C_TYPE[A.dtype.name]}, but got "
                               f"{_C_TYPE[o.dtype.name]} instead")
        if tuple(o.shape) != shape:
            if o._data.size:
                warn_resized(o.shape, shape)
            like = np.empty(shape, o._data.dtype)
            _resize_out(o, like if o is S else column_major(like))


def svdvals(A, *, driver=None, out=None):
    """The singular values, descending (the S of one LinalgSvdBackward0 node); into out=, as
    :func:`_linalg_svd`'s (PyTorch names svd in its errors)."""
    if out is not None:
        _refused_outs("_linalg_svd", (A,), (out,), 1)
        _matrix(A, "linalg.svd")
        _kernel_dtype(A, "linalg_svd_cpu")
        _svd_meta(A, False, (None, out, None))
        return write_outs("linalg_svdvals", _svd_impl(A, False, "linalg.svd", values=True)[1], out)
    return _svd_impl(A, False, "linalg.svd", values=True)[1]


export("svd", linalg=True, torch=False)(_linalg_svd)
export("svdvals", linalg=True, torch=False)(svdvals)


@export("svd", method=True)
def svd(input, some=True, compute_uv=True, *, out=None):
    """torch.svd: (U, S, V) with V = Vh^T; without compute_uv, U and V are zeros.  Into out= (ATen's
    svd_out): V transposed in place, linalg_svd's out overload into (U, S, V), V transposed back; without
    compute_uv, U's and V's dtypes checked, svdvals into S, then U and V resized and zeroed (C-ordered)."""
    if out is None:
        return _torch_svd(input, some, compute_uv, False)
    from ._outs import _out_type, _resize_out, warn_resized

    U, S, V = _outs3(out)
    if compute_uv:
        if V.ndim >= 2:  # (a vector V is left as it is)
            V.transpose_(-2, -1)
        _linalg_svd(input, not some, out=(U, S, V))
        V.transpose_(-2, -1)
    else:
        for o in (U, V):
            if o.dtype is not input.dtype:
                raise RuntimeError(f"torch.svd: Expected out tensor to have dtype {_scalar_name(input.dtype)} but "
                                   f"got {_scalar_name(o.dtype)} instead")
        svdvals(input, out=S)
        m, n = input.shape[-2:]
        for o, k in ((U, m), (V, n)):
            shape = tuple(input.shape[:-2]) + (k, k)
            if tuple(o.shape) != shape:
                if o._data.size:
                    warn_resized(o.shape, shape)
                _resize_out(o, np.empty(shape, o._data.dtype))
            o.zero_()
    return _out_type(TorchSvdResult)(U, S, V)


def _outs3(out):
    outs = tuple(out)
    if len(outs) != 3:
        raise TypeError("svd(): argument 'out' must be tuple of Tensors of length 3")
    return outs


def _torch_svd(input, some, compute_uv, into_out):
    if input.ndim < 2:
        raise RuntimeError(f"linalg.svd: input should have at least 2 dimensions, but has {input.ndim} dimensions "
                           "instead")
    U, S, Vh = _svd_impl(input, not some, "linalg.svd", values=not compute_uv)
    if not compute_uv:
        m, n = input.shape[-2:]
        d = input._data.dtype
        # (V is Vh^T of a C-ordered zero Vh, as PyTorch's: transposed strides)
        V = Tensor._make(np.zeros(input.shape[:-2] + (n, n), d))
        return TorchSvdResult(Tensor._make(np.zeros(input.shape[:-2] + (m, m), d)), S, V if into_out else V.mT)
    return TorchSvdResult(U, S, Vh.mT)
