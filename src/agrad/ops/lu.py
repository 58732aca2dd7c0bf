"""LU: torch.linalg.lu_factor (LinalgLuFactorExBackward0) and torch.linalg.lu_solve
(LinalgLuSolveBackward0).

The factorisation is LAPACK getrf's: partial pivoting by the largest absolute value,
1-based int32 pivots, unit-lower L and upper U packed in one matrix.  It runs one
column step at a time over the whole batch; lu_solve substitutes as getrs does
(``_lapack``).  Backward formulas are PyTorch's (``lu_factor_ex_backward`` with
``linalg_lu_backward``, ``linalg_lu_solve_LU``) written with agrad ops, on L and U
unpacked from the saved LU by an internal LuUnpackBackward0 node as ``at::lu_unpack``.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..tensor import Tensor, _scalar_name
from ._lapack import column_major, getrf, getrs
from ..autograd.graph import save_extra
from ._argcheck import passed_on
from ._op import FUNCTIONS, Op, export, method, with_out
from .linalg_triangular import solve_triangular_op
from ._return_types import return_type
from .decompositions import LuFactorResult, _floating, _square
from .nn import const


LuFactorExResult = return_type("linalg_lu_factor_ex", ["LU", "pivots", "info"])
LuWithInfoResult = return_type("_lu_with_info", ["LU", "pivots", "info"])
LinalgLuResult = return_type("linalg_lu", ["P", "L", "U"])
LuUnpackResult = return_type("lu_unpack", ["P", "L", "U"])


def lu_np(a):
    """(LU, pivots, info): getrf on each matrix of ``a`` (MKL's steps, ``_lapack.getrf``); info is
    LAPACK's first zero pivot (1-based) or 0, one per matrix, flat."""
    lu, piv, info = getrf(a)
    return lu, piv, info.reshape(-1)


def permutation_np(piv, m, dtype):
    """P with A = P L U, from getrf's pivots."""
    flat = piv.reshape((int(np.prod(piv.shape[:-1])), piv.shape[-1]))
    perm = np.tile(np.arange(m), (flat.shape[0], 1))
    rows = np.arange(flat.shape[0])
    for j in range(flat.shape[1]):
        p = flat[:, j] - 1
        perm[rows, j], perm[rows, p] = perm[rows, p], perm[rows, j].copy()
    P = np.zeros((flat.shape[0], m, m), dtype)
    P[rows[:, None], perm, np.arange(m)] = 1
    return P.reshape(piv.shape[:-1] + (m, m))


# ---------------------------------------------------------------------------
# lu_factor
# ---------------------------------------------------------------------------

def _lu_factor_fwd(ctx, a, who):
    """(LU, pivots, info); with ``who``, a zero pivot raises that function's error."""
    lu, piv, info = lu_np(a)
    ctx.pivots = piv
    bad = np.nonzero(info)[0]
    if bad.size and who:
        b, i = int(bad[0]), int(info[bad[0]])
        where = f"(Batch element {b}): " if a.ndim > 2 else ""
        raise RuntimeError(
            f"torch.linalg.{who}: {where}U[{i},{i}] is zero and using it on lu_solve would result in a division "
            "by zero. If you still want to perform the factorization, consider calling linalg.lu(A, pivot) or "
            "linalg.lu_factor_ex(A, pivot)")
    return column_major(lu), piv, info.astype(np.int32).reshape(a.shape[:-2])


# (the pivots saved as a tensor, an output: changed in place before the backward, PyTorch's error)
_lu_factor = Op("LinalgLuFactorExBackward0", _lu_factor_fwd, inputs=("A",), saves=("LU", "pivots"), outputs=1,
                output_names=("LU", "pivots", "info"), defaults={"pivot": True})


@_lu_factor.derivative
def _(ctx, grad):
    # lu_factor_ex_backward: the factors unpacked from the saved LU (a LuUnpackBackward0 node), the
    # gradient's L and U parts (narrowed to k columns / rows), then linalg_lu_backward
    LU = ctx.LU
    m, n = LU.shape[-2:]
    k = min(m, n)
    pivots = _array(ctx.pivots)
    _check_pivots(pivots, m)  # (the saved pivots, changed in place without a version bump by apply_)
    P, L, U = lu_unpack(LU, pivots)
    return lu_backward(grad.narrow(-1, 0, k), grad.narrow(-2, 0, k), P, L, U)


def _check_pivots(piv, m):
    """lu_unpack's check of the pivots it permutes by."""
    if piv.size and (piv.min() < 1 or piv.max() > m):
        raise RuntimeError("pivots passed to lu_unpack must be between 1 and LU.size(-2) inclusive."
                           "Did you properly pass the result of lu_factor?")


def lu_backward(gL, gU, P, L, U):
    """linalg_lu_backward (FunctionsManual.cpp) with agrad ops, for L (m x k) and U (k x n):
    A_grad = P L^{-H} [L^H gL o 1_L + gU U^H o 1_U] U^{-H}, with the extra block of U (wide)
    or L (tall) carried through."""
    m, n = L.shape[-2], U.shape[-1]
    k = min(m, n)
    if gL is None and gU is None:
        return None
    if m == n:  # (an undefined gradient's term left out, as PyTorch's formula does)
        terms = ([L.mT.matmul(gL).tril(-1)] if gL is not None else []) + \
            ([gU.matmul(U.mT).triu()] if gU is not None else [])
        gA = terms[0] if len(terms) == 1 else terms[0] + terms[1]
        gA = solve_triangular_op(U.mT, gA, upper=False, left=False)
        gA = solve_triangular_op(L.mT, gA, upper=True, left=True, unitriangular=True)
        return P.matmul(gA)
    cat = FUNCTIONS["cat"]
    if m < n:
        gA = L.mT.matmul(gL) if gL is not None else None
        if gU is not None:
            term = gU.triu().matmul(U.mT)
            gA = -term if gA is None else gA - term
        gA = solve_triangular_op(U.narrow(-1, 0, k).mT, gA.tril(-1), upper=False, left=False)
        if gU is None:  # (the solve with L first, then the columns past k as zeros)
            gA = solve_triangular_op(L.mT, gA, upper=True, left=True, unitriangular=True)
            return P.matmul(cat([gA, const(np.zeros(gA.shape[:-1] + (n - k,), gA._data.dtype))], -1))
        gA = cat([gA + gU.narrow(-1, 0, k).triu(), gU.narrow(-1, k, n - k)], -1)
        gA = solve_triangular_op(L.mT, gA, upper=True, left=True, unitriangular=True)
    else:
        gA = gU.matmul(U.mT) if gU is not None else None
        if gL is not None:
            term = L.mT.matmul(gL.tril(-1))
            gA = -term if gA is None else gA - term
        gA = solve_triangular_op(L.narrow(-2, 0, k).mT, gA.triu(), upper=True, left=True, unitriangular=True)
        if gL is None:  # (the solve with U first, then the rows past k as zeros)
            gA = solve_triangular_op(U.mT, gA, upper=False, left=False)
            return P.matmul(cat([gA, const(np.zeros(gA.shape[:-2] + (m - k, n), gA._data.dtype))], -2))
        gA = cat([gA + gL.narrow(-2, 0, k).tril(-1), gL.narrow(-2, k, m - k)], -2)
        gA = solve_triangular_op(U.mT, gA, upper=False, left=False)
    return P.matmul(gA)


def _unit_lower(lu):
    """L of a packed LU: its strict lower part (a -0.0 kept) and ones on the diagonal, m x min(m, n)."""
    k = min(lu.shape[-2:])
    lower = np.tril(lu[..., :, :k], -1)
    lower[..., np.arange(k), np.arange(k)] = 1
    return lower


def _lu_unpack_fwd(ctx, lu, pivots, unpack_data=True):
    if not unpack_data:  # (torch.lu_unpack(..., unpack_data=False): the node still makes L and U, empty)
        return np.zeros((0,), lu.dtype), np.zeros((0,), lu.dtype)
    k = min(lu.shape[-2:])
    return np.ascontiguousarray(_unit_lower(lu)), np.ascontiguousarray(np.triu(lu[..., :k, :]))


# L and U of a packed LU, as at::lu_unpack's (whose P is not differentiable: L and U are its outputs 0 and 1)
_lu_unpack = Op("LuUnpackBackward0", _lu_unpack_fwd, inputs=("LU_data",), outputs=None, multi_grad=True)


@_lu_unpack.derivative
def _(ctx, grads):
    # lu_unpack_backward: L's strict lower part and U's upper part, back where they were packed
    gL, gU = grads
    m, n = ctx.input_shape[-2:]
    k = min(m, n)
    if m == n:
        upper = gU.triu()  # (first, as the compiled lu_unpack_backward: its error names triu for empty grads)
        return gL.tril(-1) + upper
    if m < n:
        gU = gU.triu()
        return FUNCTIONS["cat"]([gU.narrow(-1, 0, k) + gL.tril(-1), gU.narrow(-1, k, n - k)], -1)
    gL = gL.tril(-1)
    return FUNCTIONS["cat"]([gL.narrow(-2, 0, k) + gU.triu(), gL.narrow(-2, k, m - k)], -2)


def lu_unpack(LU, pivots):
    """(P, L, U) of LU and its pivots: L and U differentiable (one LuUnpackBackward0 node), P a constant."""
    L, U = _lu_unpack.apply((LU,), (LU._data,), {"pivots": pivots})
    return const(permutation_np(pivots, LU.shape[-2], LU._data.dtype)), L, U


def _lu_factor_ex_impl(A, pivot, who, size_who="torch.lu_factor"):
    """(LU, pivots, info) of linalg.lu_factor_ex, with its checks; ``who`` (the function whose error a
    zero pivot raises) None for no check."""
    if A.ndim < 2:
        raise RuntimeError(f"{size_who}: Expected tensor with 2 or more dimensions. Got size: "
                           f"{list(A.shape)} instead")
    if not A.dtype.is_floating_point:
        if A.numel() == 0:  # an empty matrix never reaches the kernel: nothing to factor, in any dtype
            k = min(A.shape[-2:])
            return (Tensor._make(column_major(np.zeros(A.shape, A._data.dtype))),  # (the meta's batched column-major)
                    Tensor._make(np.zeros(A.shape[:-2] + (k,), np.int32)),
                    Tensor._make(np.zeros(A.shape[:-2], np.int32)))
        raise NotImplementedError(f'"lu_cpu" not implemented for \'{_scalar_name(A.dtype)}\'')
    if A._data.dtype == np.float16 and A.numel():  # no LAPACK kernel either
        raise NotImplementedError('"lu_cpu" not implemented for \'Half\'')
    if not pivot and A.numel():  # (the kernel's check: after the dtype's, and never for an empty matrix)
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    return _lu_factor(A, who=who)


@with_out("linalg_lu_factor")
def _linalg_lu_factor(A, *, pivot=True, out=None):
    return LuFactorResult(*_lu_factor_ex_impl(A, pivot, "lu_factor")[:2])


export("lu_factor", linalg=True, torch=False)(_linalg_lu_factor)


@with_out("linalg_lu_factor_ex")
def _linalg_lu_factor_ex(A, *, pivot=True, check_errors=False):
    from .cholesky_solvers import bool_args
    bool_args(pivot, check_errors)
    return LuFactorExResult(*_lu_factor_ex_impl(A, pivot, "lu_factor_ex" if check_errors else None))


export("lu_factor_ex", linalg=True, torch=False)(_linalg_lu_factor_ex)


_LU_DEPRECATED = (
    "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and will be removed in a "
    "future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\nshould be replaced with\nLU, pivots = "
    "torch.linalg.lu_factor(A, compute_pivots)\nand\nLU, pivots, info = torch.lu(A, compute_pivots, get_infos=True)"
    "\nshould be replaced with\nLU, pivots, info = torch.linalg.lu_factor_ex(A, compute_pivots)")


@export("lu")
def lu(A, pivot=True, get_infos=False, out=None):
    """torch.lu (torch.functional's): _lu_with_info, which warns once and never checks the pivots
    (linalg.lu_factor_ex without check_errors); (LU, pivots) or, with ``get_infos``, the named triple."""
    from .._warn_once import warn_once

    warn_once(_LU_DEPRECATED, UserWarning)
    passed_on("_lu_with_info", (("pivot", "bool", None, pivot),))
    LU, piv, info = _lu_factor_ex_impl(A, pivot, None)
    if out is not None:  # (torch.functional's: the out sequence itself, each resize_as_ then copy_)
        if len(out) - (1 if get_infos else 0) != 2:
            raise TypeError(f"expected tuple of {2 + int(bool(get_infos))} elements but got {len(out)}")
        if not isinstance(out, (tuple, list)):
            raise TypeError(f"argument 'out' must be tuple of Tensors, not {type(out).__name__}")
        result = (LU, piv, info)
        for i in range(len(out)):
            out[i].resize_as_(result[i]).copy_(result[i])
        return out
    return LuWithInfoResult(LU, piv, info) if get_infos else (LU, piv)


@method("lu")
def _tensor_lu(self, pivot=True, get_infos=False):
    """Tensor.lu (torch/_tensor.py's): the same warning and factorisation, a plain tuple either way."""
    from .._warn_once import warn_once

    warn_once(_LU_DEPRECATED, UserWarning)
    LU, piv, info = _lu_factor_ex_impl(self, pivot, None)
    return (LU, piv, info) if get_infos else (LU, piv)


# ---------------------------------------------------------------------------
# linalg.lu and lu_unpack
# ---------------------------------------------------------------------------

def _linalg_lu_fwd(ctx, a, packed, P):
    # (getrf ran before the call: P, the non-differentiable output, is the call's attribute)
    m, n = a.shape[-2:]
    k = min(m, n)
    return np.ascontiguousarray(_unit_lower(packed)), np.ascontiguousarray(np.triu(packed[..., :k, :]))


_linalg_lu_op = Op("LinalgLuBackward0", _linalg_lu_fwd, inputs=("A",), saves=("L", "U"), outputs=None,
                   output_names=("L", "U"), multi_grad="undefined", keeps={"P": "P"}, defaults={"pivot": True})


@_linalg_lu_op.derivative
def _(ctx, grads):
    gL, gU = grads
    return lu_backward(gL, gU, const(_array(ctx.P)), ctx.L, ctx.U)


@with_out("linalg_lu")
def _linalg_lu(A, *, pivot=True):
    from .cholesky_solvers import bool_args
    bool_args(pivot)
    if A.ndim < 2:
        raise RuntimeError(f"linalg.lu: Expected tensor with 2 or more dimensions. Got size: {list(A.shape)} instead")
    if not A.dtype.is_floating_point or A._data.dtype == np.float16 and A.numel():
        if not A.dtype.is_floating_point and A.numel() == 0:
            m, n = A.shape[-2:]
            k = min(m, n)
            z = lambda *s: Tensor._make(np.zeros(A.shape[:-2] + s, A._data.dtype))  # noqa: E731
            eye = np.broadcast_to(np.eye(m, dtype=A._data.dtype), A.shape[:-2] + (m, m)).copy()  # (no row swapped)
            P = Tensor._make(eye) if pivot else Tensor._make(np.zeros((0,), A._data.dtype))  # (no pivoting: empty)
            return LinalgLuResult(P, z(m, k), z(k, n))
        raise NotImplementedError(f'"lu_cpu" not implemented for \'{_scalar_name(A.dtype)}\'')
    if not pivot and A.numel():  # (the kernel's check: after the dtype's, and never for an empty matrix)
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    packed, piv, _ = lu_np(A._data)
    P = permutation_np(piv, A.shape[-2], A._data.dtype)
    L, U = _linalg_lu_op.apply((A,), (A._data,), {"packed": packed, "P": P})
    if not pivot:  # (an empty matrix: no pivoting makes no P at all)
        return LinalgLuResult(Tensor._make(np.zeros((0,), A._data.dtype)), L, U)
    P = Tensor._make(P)
    if L.grad_fn is not None:  # (PyTorch saves P, the output, first: changed in place, its error)
        save_extra(L.grad_fn, "P", P)
        L.grad_fn._saved = {k: L.grad_fn._saved[k] for k in ("P", "L", "U") if k in L.grad_fn._saved}
    return LinalgLuResult(P, L, U)


export("lu", linalg=True, torch=False)(_linalg_lu)


# ---------------------------------------------------------------------------
# lu_solve
# ---------------------------------------------------------------------------

def _lu_solve_fwd(ctx, lu, b, pivots, left, adjoint):
    # getrs's substitutions on the factors (MKL's roundings, _lapack.getrs); X A = B is A^T X^T = B^T
    if left:
        x = getrs(lu, pivots, b, trans=adjoint)
    else:
        x = np.swapaxes(getrs(lu, pivots, np.swapaxes(b, -1, -2), trans=not adjoint), -1, -2)
    x = x.astype(lu.dtype, copy=False)
    return column_major(x) if left else np.ascontiguousarray(x)  # (X A = B: the transposed system's layout)


_lu_solve = Op("LinalgLuSolveBackward0", _lu_solve_fwd, inputs=("LU", "B"), saves=("LU", "result"),
               keeps={"pivots": "pivots"})


def _array(t):
    """A saved tensor's array (a formula that forward AD runs sees the call's array itself)."""
    return t._data if type(t) is Tensor else t


def _lu_solve_call(LU, B, pivots, left, adjoint):
    """linalg.lu_solve's node; ``pivots`` the tensor, saved (changed in place before the backward:
    PyTorch's error)."""
    X = _lu_solve.apply((LU, B), (LU._data, B._data),
                        {"pivots": _array(pivots).astype(np.int64, copy=False), "left": left, "adjoint": adjoint})
    if X.grad_fn is not None and type(X.grad_fn) is _lu_solve.node and type(pivots) is Tensor:
        save_extra(X.grad_fn, "pivots", pivots, after="LU")
    return X


@_lu_solve.derivative
def _(ctx, grad):
    # linalg_lu_solve_LU on the factors unpacked from LU (a LuUnpackBackward0 node), then B's
    # gradient, a solve with the adjoint
    LU, X, left, adjoint = ctx.LU, ctx.result, ctx.left, ctx.adjoint
    gLU = gB = None
    if ctx.needs(1):  # (B's first: PyTorch's node computes its inputs' gradients in the order of their names)
        gB = _lu_solve_call(LU, grad, ctx.pivots, left, not adjoint)
    if ctx.needs(0):
        P, L, U = lu_unpack(LU, _array(ctx.pivots).astype(np.int64, copy=False))
        if left != adjoint:
            # (GCC evaluates the solves' arguments right to left: the right-hand side before the factor)
            rhs = -(grad if left else grad.mT).matmul(X.mT if left else X)
            gR = solve_triangular_op(U.mT, rhs, upper=False)
            rhs = gR.matmul(U.mT)
            gL = solve_triangular_op(L.mT, rhs, upper=True, unitriangular=True).tril(-1)
            gLU = gL + gR.triu()
        else:
            gR = -P.mT.matmul(X if left else X.mT).matmul(grad.mT if left else grad).matmul(P)
            gR = solve_triangular_op(L.mT, gR, upper=True, left=False, unitriangular=True)
            rhs = L.mT.matmul(gR)
            gU = solve_triangular_op(U.mT, rhs, upper=False, left=False).triu()
            gLU = gR.tril(-1) + gU
    return gLU, gB


@with_out("linalg_lu_solve")
def _linalg_lu_solve(LU, pivots, B, *, left=True, adjoint=False, out=None):
    # (ATen's meta function, in its order: dtypes, LU square, B a matrix of matching size, the pivots' shape)
    _floating(LU, "torch.linalg.lu_solve")
    if LU.dtype is not B.dtype:
        raise RuntimeError(f"linalg.lu_solve: Expected LU and B to have the same dtype, but found LU of type "
                           f"{_scalar_name(LU.dtype)} and B of type {_scalar_name(B.dtype)} instead")
    if pivots.dtype is not dtypes.int32:
        raise RuntimeError("linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32")
    _square(LU, "torch.linalg.lu_solve")
    if B.ndim < 2:
        raise RuntimeError("linalg.lu_solve: The input tensor B must have at least 2 dimensions.")
    n = LU.shape[-1]
    if (B.shape[-2] if left else B.shape[-1]) != n:
        raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({n}x{n} and {B.shape[-2]}x{B.shape[-1]})")
    if not pivots.ndim:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    if pivots.shape[-1] != n:
        raise RuntimeError("linalg.lu_solve: Number of pivots per batch should be same as the dimension of the matrix")
    if tuple(pivots.shape) != tuple(LU.shape[:-1]):
        raise RuntimeError(f"linalg.lu_solve: Expected LU.shape[:-1] and pivots.shape to be the same, but got pivots "
                           f"with shape {list(pivots.shape)} instead")
    if B._data.size and pivots._data.size:  # (the kernel's check of the pivots' values)
        if pivots._data.min() < 1:
            raise RuntimeError("Pivots given to lu_solve must all be greater or equal to 1. Did you properly pass the "
                               "result of lu_factor?")
        if pivots._data.max() > n:
            raise RuntimeError("Pivots given to lu_solve must all be smaller or equal to LU.size(-2). Did you properly "
                               "pass the result of lu_factor?")
    if B._data.size and LU.dtype not in (dtypes.float32, dtypes.float64):
        raise NotImplementedError(f'"linalg.lu_solve_cpu" not implemented for \'{_scalar_name(LU.dtype)}\'')
    return _lu_solve_call(LU, B, pivots, bool(left), bool(adjoint))


export("lu_solve", linalg=True, torch=False)(_linalg_lu_solve)


_LU_SOLVE_DEPRECATED = (
    "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a future PyTorch release.\n"
    "Note that torch.linalg.lu_solve has its arguments reversed.\nX = torch.lu_solve(B, LU, pivots)\nshould be "
    "replaced with\nX = torch.linalg.lu_solve(LU, pivots, B)")


@export("lu_solve", method=True)
def lu_solve(input, LU_data, LU_pivots, *, out=None):
    """torch.lu_solve (deprecated, warned once): linalg.lu_solve with its arguments reversed."""
    from .._warn_once import warn_once

    warn_once(_LU_SOLVE_DEPRECATED, UserWarning)
    return _linalg_lu_solve(LU_data, LU_pivots, input, out=out)


# ---------------------------------------------------------------------------
# torch.lu_unpack
# ---------------------------------------------------------------------------

_LU_UNPACK_PIVOTS = ("torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype.\n"
                     "Note: this function is intended to be used with the output produced by torch.linalg.lu_factor")


@export("lu_unpack")
@with_out("lu_unpack")
def _torch_lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    """torch.lu_unpack: (P, L, U) of a packed LU, in any dtype; L and U are LuUnpackBackward0's,
    P is not differentiable; an output not asked for is an empty tensor."""
    if LU_data.ndim < 2:
        raise RuntimeError(f"torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: "
                           f"{list(LU_data.shape)} instead")
    if LU_pivots.dtype is not dtypes.int32 or not LU_pivots.is_contiguous():
        raise RuntimeError(_LU_UNPACK_PIVOTS)
    dt = LU_data._data.dtype
    empty = lambda: Tensor._make(np.zeros((0,), dt))  # noqa: E731
    piv = LU_pivots._data
    m = LU_data.shape[-2]
    if unpack_pivots:
        _check_pivots(piv, m)
    L, U = _lu_unpack.apply((LU_data,), (LU_data._data,), {"pivots": piv, "unpack_data": bool(unpack_data)})
    P = Tensor._make(permutation_np(piv, m, dt)) if unpack_pivots else empty()
    return LuUnpackResult(P, L, U)
