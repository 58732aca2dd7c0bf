"""Inverses and solvers: torch.linalg.inv (torch.inverse) and torch.linalg.solve, with
LAPACK's singularity errors ("(Batch element i): The diagonal element j is zero") and
PyTorch's vector right-hand-side rule.

The derivatives are derivatives.yaml's linalg_inv_ex and linalg_solve_ex formulas
written with agrad ops (LinalgInvExBackward0, LinalgSolveExBackward0).
"""

from __future__ import annotations

import numpy as np

from ..tensor import _scalar_name
from ._op import Op, export, finish_out
from .matrix import _LinAlgError, _no_half, _require_float, _require_square

def _lu_zero_pivot(a):
    """1-based index of the first zero pivot of LU with partial pivoting (LAPACK getrf's info), or 0."""
    u = np.array(a, dtype=a.dtype, copy=True)
    n = u.shape[0]
    info = 0
    for j in range(n):
        p = j + int(np.argmax(np.abs(u[j:, j])))
        if u[p, j] != 0:
            if p != j:
                u[[j, p]] = u[[p, j]]
            u[j + 1:, j] /= u[j, j]
        elif info == 0:
            info = j + 1
        if j + 1 < n:
            u[j + 1:, j + 1:] -= np.outer(u[j + 1:, j], u[j, j + 1:])
    return info


def _singular_batch(a):
    """(batch index, zero pivot) of the first singular matrix in ``a``, or None."""
    flat = a.reshape((-1,) + a.shape[-2:])
    for b, m in enumerate(flat):
        info = _lu_zero_pivot(m)
        if info:
            return b, info
    return None


def _inv_fwd(ctx, a):
    bad = None
    try:
        out = np.linalg.inv(a)
    except np.linalg.LinAlgError:
        bad = _singular_batch(a) or (0, a.shape[-1])
    else:
        if a.size and not np.isfinite(out).all() and np.isfinite(a).all():
            bad = _singular_batch(a)
    if bad is not None:
        b, info = bad
        where = f"(Batch element {b}): " if a.ndim > 2 else ""
        raise _LinAlgError(f"linalg.inv: {where}The diagonal element {info} is zero, the inversion could not be "
                           "completed because the input matrix is singular.")
    return out.astype(a.dtype, copy=False)


_inv_op = Op("LinalgInvExBackward0", _inv_fwd, inputs=("A",), saves=("result",))


@_inv_op.derivative
def _(ctx, grad):
    r = ctx.result.mT
    return -(r.matmul(grad.matmul(r)))


def _inv(A):
    return _inv_op(A)


def _linalg_inv(A, *, out=None):
    _require_square(A, "linalg.inv")
    _require_float(A, "linalg.inv")
    _no_half(A, who="linalg.inv")
    return finish_out("linalg_inv", _inv(A), out)


export("inv", linalg=True, torch=False)(_linalg_inv)


@export("inverse", method=True)
def inverse(input, *, out=None):
    return _linalg_inv(input, out=out)


def _is_vector_rhs(A, B):
    return B.ndim == 1 or (B.ndim == A.ndim - 1 and tuple(B.shape) == tuple(A.shape[:-1]))


def _solve_fwd(ctx, a, b, left, vector):
    if not left:
        a = np.swapaxes(a, -1, -2)
        b = np.swapaxes(b, -1, -2)
    rhs = b[..., None] if vector else b
    batch = np.broadcast_shapes(a.shape[:-2], rhs.shape[:-2])
    try:
        x = np.linalg.solve(np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(rhs, batch + rhs.shape[-2:]))
    except np.linalg.LinAlgError:
        x = None
    if x is None or (x.size and not np.isfinite(x).all() and np.isfinite(a).all() and np.isfinite(b).all()):
        bad = _singular_batch(np.broadcast_to(a, batch + a.shape[-2:]))
        # (LAPACK factors A as given: its own batch, not B's, makes the message name an element)
        where = f"(Batch element {bad[0]}): " if bad is not None and a.ndim > 2 else ""
        raise _LinAlgError(f"torch.linalg.solve: {where}The solver failed because the input matrix is singular.")
    x = x[..., 0] if vector else x
    if not left:
        x = np.swapaxes(x, -1, -2)
    return x.astype(np.result_type(a, b), copy=False)


_solve_op = Op("LinalgSolveExBackward0", _solve_fwd, inputs=("A", "B"), saves=("A", "result"))


@_solve_op.derivative
def _(ctx, grad):
    # linalg_solve_backward: gB = solve(A^H, gX); gA = -gB X^H (left) or -X^H gB (right)
    meta = ctx._input_meta
    A, X, left, vector = ctx.A, ctx.result, ctx.left, ctx.vector
    g = grad.unsqueeze(-1) if vector else grad
    x = X.unsqueeze(-1) if vector else X
    g_b = _solve(A.mT, g, left, False)
    g_a = None
    if meta[0] is not None:
        g_a = -(g_b.matmul(x.mT)) if left else -(x.mT.matmul(g_b))
    g_b = g_b.squeeze(-1) if vector else g_b
    return g_a, (g_b if meta[1] is not None else None)


def _solve(A, B, left, vector):
    return _solve_op.apply((A, B), (A._data, B._data), {"left": left, "vector": vector})


def _linalg_solve(A, B, *, left=True, out=None):
    _require_float(A, "linalg.solve")  # (the dtypes are checked before the shapes, as in ATen)
    if A.dtype is not B.dtype:
        raise RuntimeError(
            f"linalg.solve: Expected A and B to have the same dtype, but found A of type {_scalar_name(A.dtype)} "
            f"and B of type {_scalar_name(B.dtype)} instead")
    _require_square(A, "linalg.solve")
    if B.ndim == 0:
        raise RuntimeError("linalg.solve: The input tensor B must have at least 2 dimensions.")
    vector = _is_vector_rhs(A, B)
    n = A.shape[-1]
    try:
        np.broadcast_shapes(B._data.shape[:-1 if vector else -2], A._data.shape[:-2])
    except ValueError:
        from .pointwise import _mismatch_message
        raise RuntimeError(_mismatch_message(B._data.shape[:-1 if vector else -2], A._data.shape[:-2])) from None
    rows, cols = (B.shape[-1], 1) if vector else (B.shape[-2], B.shape[-1])
    if (rows if left else cols) != n:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation {eq} "
                           f"({n}x{n} and {rows}x{cols})")
    _no_half(A, "lu_cpu")  # (the kernel's dispatch, after every check of the shapes)
    return finish_out("linalg_solve", _solve(A, B, left, vector), out)


export("solve", linalg=True, torch=False)(_linalg_solve)
