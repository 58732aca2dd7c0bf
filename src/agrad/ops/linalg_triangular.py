"""torch.linalg.solve_triangular: X with A X = B (X A = B without ``left``) for a triangular A,
one LinalgSolveTriangularBackward0 node.

The forward is BLAS trsm's substitution as MKL's kernels round it (checked against PyTorch):
a column step at a time, each solved element scaled by the reciprocal of its pivot when B has
several right-hand sides (by a division for one), then taken off the rest of the column; no
check for zero pivots (an inf, a NaN where 0 * inf) and no step skipped for zeros.  Only A's
``upper`` (or lower) triangle is read; ``unitriangular`` takes its diagonal as ones.

The derivative is derivatives.yaml's linalg_solve_triangular formula with agrad ops:
gB = solve_triangular(A^H, gX, upper=not upper), gA = -gB X^H (left) or -X^H gB, kept to A's
triangle (its strict triangle with ``unitriangular``).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..tensor import _scalar_name
from ._lapack import column_major
from ._op import Op, export, finish_out


def trsm(a, b, upper, left=True, unitriangular=False):
    """X with A X = B (X A = B without ``left``) for arrays whose batch shapes already agree."""
    if not left:  # X A = B  <=>  A^T X^T = B^T, A^T triangular the other way
        x = trsm(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2), not upper, True, unitriangular)
        return np.swapaxes(x, -1, -2)
    x = np.array(b, copy=True)
    n, rhs = x.shape[-2], x.shape[-1]
    with np.errstate(all="ignore"):
        for j in (range(n - 1, -1, -1) if upper else range(n)):
            if not unitriangular:
                pivot = a[..., j, j, None]
                if rhs > 1:
                    x[..., j, :] *= 1 / pivot
                else:
                    x[..., j, :] /= pivot
            rest = slice(0, j) if upper else slice(j + 1, n)
            x[..., rest, :] -= a[..., rest, j, None] * x[..., j, None, :]
    return x


def _fwd(ctx, a, b, upper, left, unitriangular):
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = np.broadcast_to(a, batch + a.shape[-2:])
    b = np.broadcast_to(b, batch + b.shape[-2:])
    return column_major(trsm(a, b, upper, left, unitriangular))  # (trsm's layout: column-major, left or not)


_op = Op("LinalgSolveTriangularBackward0", _fwd, inputs=("self", "B"), saves=("self", "result"))


@_op.derivative
def _(ctx, grad):
    A, X = ctx.self, ctx.result
    upper, left, unit = ctx.upper, ctx.left, ctx.unitriangular
    g_b = solve_triangular_op(A.mT, grad, upper=not upper, left=left, unitriangular=unit)
    g_a = None
    if ctx.needs(0):
        g_a = -(g_b.matmul(X.mT)) if left else -(X.mT.matmul(g_b))
        g_a = g_a.triu(1 if unit else 0) if upper else g_a.tril(-1 if unit else 0)
    return g_a, (g_b if ctx.needs(1) else None)


def solve_triangular_op(A, B, *, upper, left=True, unitriangular=False):
    """The node itself (what PyTorch's formulas call): B is taken in A's dtype inside the
    kernel (the result's dtype is A's), with no cast on the graph."""
    return _op.apply((A, B), (A._data, B._data.astype(A._data.dtype, copy=False)),
                     {"upper": bool(upper), "left": bool(left), "unitriangular": bool(unitriangular)})


_PARAMS = ("input", "B", "upper", "left", "unitriangular", "out")
_SIGNATURE = "(Tensor input, Tensor B, *, bool upper, bool left = True, bool unitriangular = False, Tensor out = None)"


def _parse(args, kwargs):
    """PyTorch's argument parser on its one signature, whose required keyword ``upper`` the
    generated table cannot hold (and which makes its messages count positional arguments oddly:
    "takes from 3 to 2 positional arguments")."""
    from ._pyargs import signature_error

    message = signature_error("linalg_solve_triangular", _SIGNATURE, args, kwargs)
    if message is not None:
        raise TypeError(message)
    return dict(zip(_PARAMS, args), **kwargs)


def linalg_solve_triangular(*args, **kwargs):
    p = _parse(args, kwargs)
    return _solve_triangular(p["input"], p["B"], p["upper"], p.get("left", True), p.get("unitriangular", False),
                             p.get("out"))


def _solve_triangular(A, B, upper, left, unitriangular, out):
    who = "linalg.solve_triangular"
    if A.ndim < 2:  # (checkInputsSolver: A a matrix, A square, then B a matrix)
        raise RuntimeError(f"{who}: The input tensor A must have at least 2 dimensions.")
    n, m = A.shape[-2:]
    if n != m:
        raise RuntimeError(f"{who}: A must be batches of square matrices, but they are {n} by {m} matrices")
    if B.ndim < 2:
        raise RuntimeError(f"{who}: The input tensor B must have at least 2 dimensions.")
    rows, cols = B.shape[-2:]
    if (rows if left else cols) != n:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"{who}: Incompatible shapes of A and B for the equation {eq} ({n}x{n} and {rows}x{cols})")
    try:
        np.broadcast_shapes(B._data.shape[:-2], A._data.shape[:-2])
    except ValueError:
        from .pointwise import _mismatch_message
        raise RuntimeError(_mismatch_message(B._data.shape[:-2], A._data.shape[:-2])) from None
    if A.dtype not in (dtypes.float32, dtypes.float64):  # (the kernel dispatches on A's dtype alone)
        raise NotImplementedError(f"\"triangular_solve_cpu\" not implemented for '{_scalar_name(A.dtype)}'")
    result = solve_triangular_op(A, B, upper=upper, left=left, unitriangular=unitriangular)
    return finish_out("linalg_solve_triangular", result, out)


export("solve_triangular", linalg=True, torch=False)(linalg_solve_triangular)
