"""Inverses and solvers: torch.linalg.inv (torch.inverse) and torch.linalg.solve, with
LAPACK's singularity errors ("(Batch element i): The diagonal element j is zero") and
PyTorch's vector right-hand-side rule.

The derivatives are derivatives.yaml's linalg_inv_ex and linalg_solve_ex formulas
written with agrad ops (LinalgInvExBackward0, LinalgSolveExBackward0).
"""

from __future__ import annotations

import numpy as np

from ..tensor import Tensor, _scalar_name
from ._lapack import column_major, column_major_strides, getrf, getrs
from ._op import _C_TYPE, Op, export, finish_out
from .matrix import _LinAlgError, _no_half, _require_float, _require_square

def _singular_batch(a):
    """(batch index, zero pivot) of the first singular matrix in ``a`` (getrf's info), or None."""
    info = getrf(a)[2].reshape(-1)
    bad = np.flatnonzero(info)
    return (int(bad[0]), int(info[bad[0]])) if bad.size else None


def _lapack_solve(a, b, left=True):
    """(X, getrf's info) for A X = B (X A = B, that is A^T X^T = B^T, without ``left``) with MKL's
    LU steps, for inputs that are not finite, where numpy's LAPACK spreads an inf or a NaN
    elsewhere (checked against PyTorch on contiguous and transposed A)."""
    lu, piv, info = getrf(a)
    if left:
        return getrs(lu, piv, b), info
    return np.swapaxes(getrs(lu, piv, np.swapaxes(b, -1, -2), trans=True), -1, -2), info


def _inv_error(a, bad):
    b, info = bad
    where = f"(Batch element {b}): " if a.ndim > 2 else ""
    return _LinAlgError(f"linalg.inv: {where}The diagonal element {info} is zero, the inversion could not be "
                        "completed because the input matrix is singular.")


#: the largest n for which inv takes MKL's LU steps (getrf, then getrs on the identity): bit for bit with
#: PyTorch on 100 random matrices of each n from 2 to 7 (float32 and float64; numpy's inv: 45 of 100 at
#: n = 2, none from n = 5); MKL factors larger ones in blocks
_INV_SMALL = 7


def _inv_fwd(ctx, a):
    if a.shape[-1] <= _INV_SMALL or not np.isfinite(a).all():
        out, info = _lapack_solve(a, np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape))
        bad = np.flatnonzero(info)
        if bad.size:
            raise _inv_error(a, (int(bad[0]), int(info.reshape(-1)[bad[0]])))
        return column_major(out.astype(a.dtype, copy=False))
    bad = None
    try:
        out = np.linalg.inv(a)
    except np.linalg.LinAlgError:
        bad = _singular_batch(a) or (0, a.shape[-1])
    else:
        if a.size and not np.isfinite(out).all():
            bad = _singular_batch(a)
    if bad is not None:
        raise _inv_error(a, bad)
    return column_major(out.astype(a.dtype, copy=False))


_inv_op = Op("LinalgInvExBackward0", _inv_fwd, inputs=("A",), saves=("result",))


@_inv_op.derivative
def _(ctx, grad):
    r = ctx.result  # -(inverse.mH() @ (grad @ inverse.mH())): two transposes, two nodes under create_graph
    inner = grad.matmul(r.mT)  # (at::matmul's arguments are evaluated right to left: the inner product first)
    return -(r.mT.matmul(inner))


def _inv(A):
    return _inv_op(A)


def _linalg_inv(A, *, out=None):
    _require_square(A, "linalg.inv")
    _require_float(A, "linalg.inv")
    _no_half(A, who="linalg.inv")
    inv_out_first(A, out)
    return finish_out("linalg_inv", _inv(A), out)


def inv_out_first(A, out):
    """What linalg_inv_ex_out does to ``out`` before it solves: autograd's refusal, the meta's dtype check,
    then the fill of its result with the identity (it solves A X = result in place).  An ``out`` the
    structured kernel keeps (A's shape, laid out batched column-major as the meta asks; otherwise a proxy
    is computed and copied in) is that result: where it shares memory with A, A is read after the fill
    (``inv(a, out=a)`` of such an ``a`` is the identity)."""
    from ..autograd import grad_mode

    if not isinstance(out, Tensor):
        return
    if grad_mode._state["enabled"] and (A._requires_grad or out._requires_grad):
        raise RuntimeError("linalg_inv_ex(): functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.")
    if out.dtype is not A.dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {_C_TYPE[A.dtype.name]}, but got "
                           f"{_C_TYPE[out.dtype.name]} instead")
    if (out.shape == A.shape and A._data.size and out.stride() == column_major_strides(A.shape)
            and np.shares_memory(A._data, out._data)):
        out._data[...] = np.eye(A.shape[-1], dtype=A._data.dtype)


export("inv", linalg=True, torch=False)(_linalg_inv)


@export("inverse", method=True)
def inverse(input, *, out=None):
    return _linalg_inv(input, out=out)


def _is_vector_rhs(A, B):
    return B.ndim == 1 or (B.ndim == A.ndim - 1 and tuple(B.shape) == tuple(A.shape[:-1]))


#: the largest n for which solve takes MKL's LU steps of its own (``_lapack``: their roundings, zero
#: signs, infs and NaNs as PyTorch's); larger finite systems take numpy's LAPACK
_SOLVE_SMALL = 16


def _solve_fwd(ctx, a, b, left, vector):
    rhs = (b[..., None] if left else b[..., None, :]) if vector else b
    if a.shape[-1] <= _SOLVE_SMALL or not (np.isfinite(a).all() and np.isfinite(b).all()):
        x, info = _lapack_solve(a, rhs, left)
        x = None if info.any() else x
    else:
        if not left:
            a, rhs = np.swapaxes(a, -1, -2), np.swapaxes(rhs, -1, -2)
        batch = np.broadcast_shapes(a.shape[:-2], rhs.shape[:-2])
        try:
            x = np.linalg.solve(np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(rhs, batch + rhs.shape[-2:]))
        except np.linalg.LinAlgError:
            x = None
        if x is not None and x.size and not np.isfinite(x).all():
            x = None
        elif x is not None and not left:
            x = np.swapaxes(x, -1, -2)
    if x is None:
        bad = _singular_batch(a)
        # (LAPACK factors A as given: its own batch, not B's, makes the message name an element)
        where = f"(Batch element {bad[0]}): " if bad is not None and a.ndim > 2 else ""
        raise _LinAlgError(f"torch.linalg.solve: {where}The solver failed because the input matrix is singular.")
    x = (x[..., 0] if left else x[..., 0, :]) if vector else x
    x = x.astype(np.result_type(a, b), copy=False)
    # LAPACK's layout: column-major (a batch of vectors too, as the columns of one matrix); X A = B
    # is solved as A^T X^T = B^T, whose column-major X^T leaves X row-major
    return column_major(x) if left else np.ascontiguousarray(x)


_solve_op = Op("LinalgSolveExBackward0", _solve_fwd, inputs=("A", "B"), saves=("A", "result"))


@_solve_op.derivative
def _(ctx, grad):
    # linalg_solve_backward: gB = solve(A^H, gX); gA = -gB X^H (left) or -X^H gB (right)
    meta = ctx._input_meta
    A, X, left, vector = ctx.A, ctx.result, ctx.left, ctx.vector
    g = grad.unsqueeze(-1) if vector else grad
    g_b = _solve(A.mT, g, left, False)
    g_a = None
    if meta[0] is not None:  # (X made a matrix after the solve, as PyTorch's formula)
        x = X.unsqueeze(-1) if vector else X
        g_a = -(g_b.matmul(x.mT)) if left else -(x.mT.matmul(g_b))
    g_b = g_b.squeeze(-1) if vector else g_b
    return g_a, (g_b if meta[1] is not None else None)


def _solve(A, B, left, vector):
    return _solve_op.apply((A, B), (A._data, B._data), {"left": left, "vector": vector})


def _linalg_solve(A, B, *, left=True, out=None):
    _check_solve(A, B, left)
    return finish_out("linalg_solve", _solve(A, B, left, _is_vector_rhs(A, B)), out)


def _check_solve(A, B, left):
    """linalg.solve's checks (solve_ex's too), in ATen's order."""
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


export("solve", linalg=True, torch=False)(_linalg_solve)
