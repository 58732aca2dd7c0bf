"""Solvers on a factor already made: torch.cholesky_solve (CholeskySolveBackward0),
torch.cholesky_inverse (CholeskyInverseBackward0) and the deprecated torch.triangular_solve
(TriangularSolveBackward0, which returns the solution and a copy of A).

The forwards are LAPACK's as MKL rounds them, in numpy: potrs is two trsm substitutions
(``linalg_triangular.trsm``), potri is trtri (the triangle inverted column by column from the
last, each column the already inverted block times A's column, scaled by minus the new pivot)
then lauum (the inverse's Gram matrix, mirrored from the triangle LAPACK writes), so a zero off
the diagonal comes out -0.0 as in PyTorch.  Results are column-major, as LAPACK leaves them.
The backward formulas are FunctionsManual.cpp's (cholesky_solve_backward,
cholesky_inverse_backward, triangular_solve_backward) written with agrad ops.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from .._warn_once import warn_once
from ..tensor import _scalar_name
from ._lapack import column_major, matrices
from ._op import Op, export, with_out
from ._return_types import return_type
from .linalg_triangular import trsm
from .matrix import _LinAlgError
from .nn import const

TriangularSolveResult = return_type("triangular_solve", ["solution", "cloned_coefficient"])


def _broadcast(b, a, name):
    """ATen's _linalg_broadcast_batch_dims with linearSolveCheckInputs: the dtypes, A square, the
    sizes, then the batch dims broadcast (PyTorch's size message)."""
    if b.dtype is not a.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type {_scalar_name(b.dtype)} "
                           f"and A of type {_scalar_name(a.dtype)} instead.")
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"A must be batches of square matrices, but they are {a.shape[-2]} by {a.shape[-1]} matrices")
    if a.shape[-1] != b.shape[-2]:
        raise RuntimeError(f"Incompatible matrix sizes for {name}: each A matrix is {a.shape[-1]} by {a.shape[-1]} "
                           f"but each b matrix is {b.shape[-2]} by {b.shape[-1]}")
    try:
        return np.broadcast_shapes(b.shape[:-2], a.shape[:-2])
    except ValueError:
        from .pointwise import _mismatch_message
        raise RuntimeError(_mismatch_message(tuple(b.shape[:-2]), tuple(a.shape[:-2]))) from None


def bool_args(*values):
    """A TypeError for a flag that is not a bool (the argument parser then gives PyTorch's own text)."""
    for v in values:
        if type(v) is not bool:
            raise TypeError(f"expected bool, got {type(v).__name__}")


def _kernel(t, name):
    if t.dtype not in (dtypes.float32, dtypes.float64):
        raise NotImplementedError(f'"{name}" not implemented for \'{_scalar_name(t.dtype)}\'')


# ---------------------------------------------------------------------------
# cholesky_solve
# ---------------------------------------------------------------------------

def _potrs(b, l, upper):
    """X with (L L^H) X = B (U^H U with ``upper``): potrs's two substitutions."""
    batch = np.broadcast_shapes(b.shape[:-2], l.shape[:-2])
    b = np.broadcast_to(b, batch + b.shape[-2:])
    l = np.broadcast_to(l, batch + l.shape[-2:])
    lt = np.swapaxes(l, -1, -2)
    if upper:
        return trsm(l, trsm(lt, b, upper=False), upper=True)
    return trsm(lt, trsm(l, b, upper=False), upper=True)


_cholesky_solve = Op("CholeskySolveBackward0", lambda ctx, b, l, upper: column_major(_potrs(b, l, upper)),
                     inputs=("self", "input2"), saves=("self", "input2", "result"))


@_cholesky_solve.derivative
def _(ctx, grad):
    # cholesky_solve_backward: gB = cholesky_solve(grad, L); common = gB X^H + (gB X^H)^H; gL = -L common
    # (upper) or -common L
    L, X, upper = ctx.input2, ctx.result, ctx.upper
    g_b = _cholesky_solve(grad, L, upper=upper)
    common = g_b.matmul(X.mT)
    common = common + common.mT
    g_l = -(L.matmul(common)) if upper else -(common.matmul(L))
    return (g_b if ctx.needs(0) else None), (g_l if ctx.needs(1) else None)


@export("cholesky_solve", method=True)
@with_out("cholesky_solve", contiguous=True)  # (cholesky_solve_out: the result apart, resize_output, copy_)
def cholesky_solve(input, input2, upper=False):
    bool_args(upper)
    if input.ndim < 2:
        raise RuntimeError(f"b should have at least 2 dimensions, but has {input.ndim} dimensions instead")
    if input2.ndim < 2:
        raise RuntimeError(f"u should have at least 2 dimensions, but has {input2.ndim} dimensions instead")
    _broadcast(input, input2, "cholesky_solve")
    _kernel(input, "cholesky_solve_cpu")
    return _cholesky_solve(input, input2, upper=bool(upper))


# ---------------------------------------------------------------------------
# cholesky_inverse
# ---------------------------------------------------------------------------

def _trtri_lower(l):
    """The inverse of each lower-triangular matrix of ``l`` (b, n, n) as trti2 computes it, and the
    first zero pivot (1-based, 0 for none) per matrix."""
    n = l.shape[-1]
    inv = np.zeros_like(l)
    diag = np.diagonal(l, axis1=-2, axis2=-1)
    zero = diag == 0
    info = np.where(zero.any(axis=-1), np.argmax(zero, axis=-1) + 1, 0)
    with np.errstate(all="ignore"):
        for j in range(n - 1, -1, -1):
            inv[:, j, j] = 1 / l[:, j, j]
            if j < n - 1:
                col = _trmv_lower(inv[:, j + 1:, j + 1:], l[:, j + 1:, j]) if n <= 16 else \
                    np.einsum("bik,bk->bi", inv[:, j + 1:, j + 1:], l[:, j + 1:, j])
                inv[:, j + 1:, j] = col * -inv[:, j, j, None]
    return inv, info


def _trmv_lower(t, x):
    """T x for lower-triangular T (b, r, r) as MKL's trmv computes it in place: from the last column,
    x_j added times T's column below it, then x_j scaled by T_jj, no step skipped for a zero (no +0.0
    starts a sum, so a product's -0.0 stays)."""
    x = np.array(x, copy=True)
    for j in range(x.shape[-1] - 1, -1, -1):
        x[:, j + 1:] += x[:, j, None] * t[:, j + 1:, j]
        x[:, j] *= t[:, j, j]
    return x


def _trtri_upper(u):
    """trti2's inverse of each upper-triangular matrix of ``u`` (b, n, n), column by column from the
    first: the column above the diagonal is the inverted leading block times it (trmv, from the
    first column, no step skipped for a zero), scaled by minus the new diagonal element."""
    n = u.shape[-1]
    inv = np.zeros_like(u)
    diag = np.diagonal(u, axis1=-2, axis2=-1)
    zero = diag == 0
    info = np.where(zero.any(axis=-1), np.argmax(zero, axis=-1) + 1, 0)
    with np.errstate(all="ignore"):
        for j in range(n):
            inv[:, j, j] = 1 / u[:, j, j]
            if j:
                x = np.array(u[:, :j, j], copy=True)
                for k in range(j):
                    x[:, :k] += x[:, k, None] * inv[:, :k, k]
                    x[:, k] *= inv[:, k, k]
                inv[:, :j, j] = x * -inv[:, j, j, None]
    return inv, info


def _lauum_upper(inv):
    """U U^H of each upper-triangular ``inv`` (b, n, n), its upper triangle as lauu2 computes it:
    column i is U_ii times itself plus the products with the columns to its right (a last column
    only scaled)."""
    n = inv.shape[-1]
    out = np.zeros_like(inv)
    with np.errstate(all="ignore"):
        for i in range(n):
            row = inv[:, i, i:]
            out[:, i, i] = _dot_from_first(row[:, :, None] * row[:, :, None])[:, 0]
            col = inv[:, i, i, None] * inv[:, :i, i]
            if i < n - 1:
                col = col + _dot_from_first(np.swapaxes(inv[:, :i, i + 1:] * inv[:, i, None, i + 1:], -1, -2))
            out[:, :i, i] = col
    return out


def _cholesky_inverse_fwd(ctx, l, upper):
    shape = l.shape
    if not l.size:  # (no matrices, or 0 x 0 ones: nothing to invert)
        return column_major(np.zeros(shape, l.dtype))
    flat = matrices(l)
    if upper:  # (potri with uplo 'U': its own order of steps, not the lower one's on the transpose)
        inv, info = _trtri_upper(np.triu(flat))
    else:
        inv, info = _trtri_lower(np.tril(flat))
    if info.any():
        b = int(np.flatnonzero(info)[0])
        where = f"(Batch element {b}): " if len(shape) > 2 else ""
        raise _LinAlgError(f"cholesky_inverse: {where}The diagonal element {int(info[b])} is zero, the inversion could "
                           "not be completed because the input matrix is singular.")
    if upper:
        out = _lauum_upper(inv)
        out = np.where(np.tri(shape[-1], dtype=bool).T, out, np.swapaxes(out, -1, -2))  # (LAPACK's triangle,
    else:                                                                                 # mirrored)
        out = _lauum_lower(inv)
        out = np.where(np.tri(shape[-1], dtype=bool), out, np.swapaxes(out, -1, -2))
    return column_major(out.reshape(shape))


def _lauum_lower(inv):
    """L^H L of each lower-triangular ``inv`` (b, n, n), its lower triangle as lauu2 computes it: row i
    is L_ii times itself plus the dot of the rows below (a last row only scaled: its -0.0s stay)."""
    n = inv.shape[-1]
    out = np.zeros_like(inv)
    with np.errstate(all="ignore"):
        for i in range(n):
            col = inv[:, i:, i]
            out[:, i, i] = _dot_from_first(col[:, :, None] * col[:, :, None])[:, 0]
            row = inv[:, i, i, None] * inv[:, i, :i]
            if i < n - 1:  # (gemv's sum of products from the first, no +0.0 start: a -0.0 product stays)
                row = row + _dot_from_first(inv[:, i + 1:, i, None] * inv[:, i + 1:, :i])
            out[:, i, :i] = row
    return out


def _dot_from_first(p):
    """The sum of products ``p`` (b, k, j) over k, in order from the first product."""
    s = p[:, 0]
    for k in range(1, p.shape[1]):
        s = s + p[:, k]
    return s


_cholesky_inverse = Op("CholeskyInverseBackward0", _cholesky_inverse_fwd, saves=("self", "result"))


@_cholesky_inverse.derivative
def _(ctx, grad):
    # cholesky_inverse_backward: common = inv (grad + grad^H) inv; gL = -L common (upper) or -common L
    L, inv = ctx.self, ctx.result
    common = grad + grad.mT
    common = inv.matmul(common.matmul(inv))
    return -(L.matmul(common)) if ctx.upper else -(common.matmul(L))


@export("cholesky_inverse", method=True)
@with_out("cholesky_inverse", contiguous="filled")  # (an out with elements: a temporary, copied)
def cholesky_inverse(input, upper=False):
    bool_args(upper)
    if input.ndim < 2:
        raise RuntimeError("cholesky_inverse: The input tensor A must have at least 2 dimensions.")
    if input.shape[-1] != input.shape[-2]:
        raise RuntimeError(f"cholesky_inverse: A must be batches of square matrices, but they are {input.shape[-2]} by "
                           f"{input.shape[-1]} matrices")
    _kernel(input, "cholesky_inverse_out_cpu")
    return _cholesky_inverse(input, upper=bool(upper))


# ---------------------------------------------------------------------------
# triangular_solve (deprecated)
# ---------------------------------------------------------------------------

_TRIANGULAR_SOLVE_DEPRECATED = (
    "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will be removed in a future "
    "PyTorch release.\ntorch.linalg.solve_triangular has its arguments reversed and does not return a copy of one of "
    "the inputs.\nX = torch.triangular_solve(B, A).solution\nshould be replaced with\n"
    "X = torch.linalg.solve_triangular(A, B).")


def _triangular_solve_fwd(ctx, b, a, upper, transpose, unitriangular):
    batch = np.broadcast_shapes(b.shape[:-2], a.shape[:-2])
    b = np.broadcast_to(b, batch + b.shape[-2:])
    a = np.broadcast_to(a, batch + a.shape[-2:])
    tri = np.triu(a) if upper else np.tril(a)
    if transpose:  # A^T X = B: A^T is triangular the other way
        x = trsm(np.swapaxes(tri, -1, -2), b, upper=not upper, unitriangular=unitriangular)
    else:
        x = trsm(tri, b, upper=upper, unitriangular=unitriangular)
    return column_major(x), column_major(a)


_triangular_solve = Op("TriangularSolveBackward0", _triangular_solve_fwd, inputs=("self", "A"),
                       saves=("self", "A", "solution"), outputs=None, output_names=("solution", "cloned_coefficient"),
                       multi_grad="undefined")


@_triangular_solve.derivative
def _(ctx, grads):
    # triangular_solve_backward: gB = triangular_solve(gX, A, upper, !transpose); gA = -gB X^H (or -X gB^T
    # transposed), kept to A's triangle; plus the copy's gradient; zeros expanded where one is undefined
    g_x, g_m = grads
    A, B, X = ctx.A, ctx.self, ctx.solution
    upper, transpose, unit = ctx.upper, ctx.transpose, ctx.unitriangular
    g_b = g_a = None
    if g_x is not None:
        g_b = _triangular_solve(g_x, A, upper=upper, transpose=not transpose, unitriangular=unit)[0]
        if ctx.needs(1):
            g_a = -(X.matmul(g_b.mT)) if transpose else -(g_b.matmul(X.mT))
            g_a = g_a.triu(int(unit)) if upper else g_a.tril(-int(unit))
    like = g_m if g_m is not None else g_x
    zeros = lambda shape: const(np.zeros((1,), like._data.dtype)).expand(*shape)  # noqa: E731
    if g_a is None:
        g_a = zeros(A.shape)
    if g_b is None:
        g_b = zeros(B.shape)
    if ctx.needs(1) and g_m is not None:
        g_a = g_a + g_m
    return (g_b if ctx.needs(0) else None), (g_a if ctx.needs(1) else None)


@export("triangular_solve", method=True)
@with_out("triangular_solve")
def triangular_solve(input, A, upper=True, transpose=False, unitriangular=False):
    bool_args(upper, transpose, unitriangular)
    warn_once(_TRIANGULAR_SOLVE_DEPRECATED, UserWarning)
    for t, name in ((input, "b"), (A, "A")):
        if t.ndim < 2:
            raise RuntimeError(f"torch.triangular_solve: Expected {name} to have at least 2 dimensions, but it has "
                               f"{t.ndim} dimensions instead")
    _broadcast(input, A, "triangular_solve")
    _kernel(input, "triangular_solve_cpu")
    return TriangularSolveResult(*_triangular_solve(input, A, upper=bool(upper), transpose=bool(transpose),
                                                    unitriangular=bool(unitriangular)))

