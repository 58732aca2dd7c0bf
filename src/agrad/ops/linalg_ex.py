"""The ``_ex`` forms of torch.linalg's inverse, solve and Cholesky: torch.linalg.inv_ex,
solve_ex and cholesky_ex return LAPACK's ``info`` (int32, one per matrix of A's batch) beside the
result instead of raising, unless ``check_errors``.

They share their op's node (LinalgInvExBackward0, LinalgSolveExBackward0,
LinalgCholeskyExBackward0) and formula; info is not differentiable.  Where a matrix fails, the
result is what LAPACK leaves: getrs's substitution on getrf's zero pivot (an inf, a NaN where
0 * inf) for inv_ex and solve_ex, potf2's partial factor for cholesky_ex (``_lapack``,
``decompositions._potrf_lower``).
"""

from __future__ import annotations

import numpy as np

from ._lapack import column_major, getrf, matrices
from ._op import Op, export, with_out
from ._return_types import return_type
from .decompositions import _cholesky_backward, _floating, _kernel_dtype, _potrf_lower, _square
from .matrix import _LinAlgError, _no_half, _require_float, _require_square
from . import solvers
from .cholesky_solvers import bool_args

InvExResult = return_type("linalg_inv_ex", ["inverse", "info"])
SolveExResult = return_type("linalg_solve_ex", ["result", "info"])
CholeskyExResult = return_type("linalg_cholesky_ex", ["L", "info"])


def _info(a):
    """getrf's info of each matrix of ``a`` (A's batch shape), int32."""
    return getrf(a)[2].astype(np.int32)


def _where(a, info):
    """(batch element, value) of the first nonzero ``info`` and the "(Batch element b): " prefix."""
    flat = info.reshape(-1)
    b = int(np.flatnonzero(flat)[0])
    return (f"(Batch element {b}): " if a.ndim > 2 else ""), int(flat[b])


# ---------------------------------------------------------------------------
# inv_ex
# ---------------------------------------------------------------------------

def _inv_ex_fwd(ctx, a, check):
    info = _info(a)
    if check and info.any():
        where, i = _where(a, info)
        raise _LinAlgError(f"linalg.inv_ex: {where}The diagonal element {i} is zero, the inversion could not be "
                           "completed because the input matrix is singular.")
    if info.any() or a.shape[-1] <= solvers._INV_SMALL or not np.isfinite(a).all():
        eye = np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape)
        out = solvers._lapack_solve(a, eye)[0]
    else:
        out = np.linalg.inv(a) if a.size else a.copy()
    return column_major(out.astype(a.dtype, copy=False)), info


_inv_ex = Op("LinalgInvExBackward0", _inv_ex_fwd, inputs=("A",), saves=("inverse",), outputs=1,
             output_names=("inverse", "info"))


@_inv_ex.derivative
def _(ctx, grad):
    r = ctx.inverse  # -(inverse^H (grad inverse^H)), the inner product first (as linalg.inv's)
    inner = grad.matmul(r.mT)
    return -(r.mT.matmul(inner))


@with_out("linalg_inv_ex")
def _linalg_inv_ex(A, *, check_errors=False, out=None):
    bool_args(check_errors)
    _require_square(A, "linalg.inv")
    _require_float(A, "linalg.inv")
    _no_half(A, who="linalg.inv")
    if isinstance(out, (tuple, list)) and len(out) == 2:
        solvers.inv_out_first(A, out[0])
    return InvExResult(*_inv_ex(A, check=bool(check_errors)))


_linalg_inv_ex.__wrapped__.sees_out = True


export("inv_ex", linalg=True, torch=False)(_linalg_inv_ex)


# ---------------------------------------------------------------------------
# solve_ex
# ---------------------------------------------------------------------------

def _solve_ex_fwd(ctx, a, b, left, vector, check):
    info = _info(a)
    if check and info.any():
        where, _ = _where(a, info)
        raise _LinAlgError(f"torch.linalg.solve_ex: {where}The solver failed because the input matrix is singular.")
    if not info.any():
        return solvers._solve_fwd(ctx, a, b, left, vector), info
    rhs = (b[..., None] if left else b[..., None, :]) if vector else b
    x = solvers._lapack_solve(a, rhs, left)[0]
    x = (x[..., 0] if left else x[..., 0, :]) if vector else x
    x = x.astype(np.result_type(a, b), copy=False)
    return (column_major(x) if left else np.ascontiguousarray(x)), info


_solve_ex = Op("LinalgSolveExBackward0", _solve_ex_fwd, inputs=("A", "B"), saves=("A", "result"), outputs=1,
               output_names=("result", "info"))
_solve_ex.derivative(solvers._solve_op._formula)


@with_out("linalg_solve_ex")
def _linalg_solve_ex(A, B, *, left=True, check_errors=False):
    bool_args(left, check_errors)
    solvers._check_solve(A, B, left)
    vector = solvers._is_vector_rhs(A, B)
    return SolveExResult(*_solve_ex.apply((A, B), (A._data, B._data),
                                          {"left": bool(left), "vector": vector, "check": bool(check_errors)}))


export("solve_ex", linalg=True, torch=False)(_linalg_solve_ex)


# ---------------------------------------------------------------------------
# cholesky_ex
# ---------------------------------------------------------------------------

def _cholesky_ex_fwd(ctx, a, upper, check):
    flat = matrices(a)
    out = np.empty_like(flat)
    info = np.zeros(flat.shape[0], np.int32)
    finite = np.isfinite(a).all()
    for b, m in enumerate(flat):
        m = m.T if upper else m
        try:
            if not finite:
                raise np.linalg.LinAlgError
            out[b] = np.linalg.cholesky(m)
        except np.linalg.LinAlgError:
            out[b], info[b] = _potrf_lower(m)
    info = info.reshape(a.shape[:-2])
    if check and info.any():
        where, i = _where(a, info)
        raise _LinAlgError(f"linalg.cholesky_ex: {where}The factorization could not be completed because the input "
                           f"is not positive-definite (the leading minor of order {i} is not positive-definite).")
    out = np.tril(out.reshape(a.shape))
    return column_major(np.swapaxes(out, -1, -2) if upper else out), info


_cholesky_ex = Op("LinalgCholeskyExBackward0", _cholesky_ex_fwd, inputs=("A",), saves=("result",), outputs=1,
                  output_names=("L", "info"))
_cholesky_ex.derivative(_cholesky_backward)


@with_out("linalg_cholesky_ex")
def _linalg_cholesky_ex(A, *, upper=False, check_errors=False):
    bool_args(upper, check_errors)
    _square(A, "linalg.cholesky")
    _floating(A, "linalg.cholesky")
    _kernel_dtype(A, "cholesky_cpu")
    return CholeskyExResult(*_cholesky_ex(A, upper=bool(upper), check=bool(check_errors)))


export("cholesky_ex", linalg=True, torch=False)(_linalg_cholesky_ex)
