"""Functions of matrices: matrix_exp (its own node, with PyTorch's backward through the
exponential of a block matrix), and ATen's composites matrix_power and multi_dot.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ..tensor import Tensor
from ._op import FUNCTIONS, LINALG, Op, export
from .decompositions import _floating, _square
from .nn import const

# ---------------------------------------------------------------------------
# matrix_exp
# ---------------------------------------------------------------------------

_PADE13 = (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800., 129060195264000.,
           10559470521600., 670442572800., 33522128640., 1323241920., 40840800., 960960., 16380., 182., 1.)


def _expm_np(a):
    """exp(A) by scaling and squaring with the [13/13] Pade approximant (Higham 2005), batched."""
    work = a.astype(np.float64)
    n = a.shape[-1]
    norm = np.abs(work).sum(-2).max(-1, initial=0.0)  # 1-norm per matrix
    s = np.maximum(0, np.ceil(np.log2(np.maximum(norm, 1e-300) / 5.371920351148152))).astype(np.int64)
    work = work / (2.0 ** s)[..., None, None]
    eye = np.eye(n)
    b = _PADE13
    a2 = work @ work
    a4 = a2 @ a2
    a6 = a4 @ a2
    u = work @ (a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * eye)
    v = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * eye
    r = np.linalg.solve(v - u, v + u)
    for i in range(int(s.max(initial=0))):  # squarings: a loop over the scaling steps only
        sq = r @ r
        r = np.where((s > i)[..., None, None], sq, r)
    return r.astype(a.dtype, copy=False)


_matrix_exp = Op("LinalgMatrixExpBackward0", lambda ctx, a: _expm_np(a), saves=("self",))


@_matrix_exp.derivative
def _(ctx, grad):
    # linalg_matrix_exp_differential(self, grad, adjoint=True): the exponential of the block
    # matrix [[A^H, grad], [0, A^H]], written into zeros by copy_ as PyTorch does (CopySlices)
    A = ctx.self.mT
    n = A.shape[-1]
    meta = const(np.zeros(tuple(A.shape[:-2]) + (2 * n, 2 * n), grad._data.dtype))
    meta[..., :n, :n] = A
    meta[..., n:, n:] = A
    meta[..., :n, n:] = grad
    return _matrix_exp(meta).narrow(-2, 0, n).narrow(-1, n, n)


@export("matrix_exp", method=True)
def matrix_exp(input):
    """The matrix exponential (LinalgMatrixExpBackward0)."""
    _square(input, "linalg.matrix_exp")
    _floating(input, "linalg.matrix_exp")
    return _matrix_exp(input)


export("matrix_exp", linalg=True, torch=False)(matrix_exp)


# ---------------------------------------------------------------------------
# matrix_power, multi_dot (ATen's composites)
# ---------------------------------------------------------------------------

def _matmul(a, b):
    return FUNCTIONS["matmul"](a, b)


@export("matrix_power", method=True)
def matrix_power(input, n):
    """A^n by repeated squaring, as ATen builds it (n = 0: a copy of the identity; n < 0: of the inverse)."""
    _square(input, "linalg.matrix_power")
    if not isinstance(n, numbers.Integral):
        raise TypeError(f"matrix_power(): argument 'n' (position 2) must be int, not {type(n).__name__}")
    if n == 0:
        out = input.clone()
        eye = np.broadcast_to(np.eye(input.shape[-1], dtype=input._data.dtype), input.shape)
        return out.copy_(Tensor._make(np.ascontiguousarray(eye)))
    if n == 1:
        return input.clone()
    if n == -1:
        return LINALG["inv"](input)
    a = LINALG["inv"](input) if n < 0 else input
    n = abs(n)
    if n == 2:
        return _matmul(a, a)
    if n == 3:
        return _matmul(_matmul(a, a), a)
    z = result = None
    while n > 0:
        bit, n = n % 2, n // 2
        z = a if z is None else _matmul(z, z)
        if bit:
            result = z if result is None else _matmul(result, z)
    return result


export("matrix_power", linalg=True, torch=False)(matrix_power)


def _chain_order(shapes):
    p = [s[0] for s in shapes] + [shapes[-1][1]]
    n = len(shapes)
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = math.inf
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if q < cost[i][j]:
                    cost[i][j], split[i][j] = q, k
    return split


def multi_dot(tensors, *, out=None):
    """The product of a chain of matrices, in the cheapest order (ATen's matrix-chain order)."""
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    mats = list(tensors)
    out_shape = []
    first, last = tensors[0], tensors[-1]
    if first.ndim == 1:
        mats[0] = first.unsqueeze(0)
    elif first.ndim == 2:
        out_shape.append(first.shape[0])
    else:
        raise RuntimeError(f"multi_dot(): the first tensor must be 1D or 2D but got {first.ndim}D")
    if last.ndim == 1:
        mats[-1] = last.unsqueeze(-1)
    elif last.ndim == 2:
        out_shape.append(last.shape[1])
    else:
        raise RuntimeError(f"multi_dot(): the last tensor must be 1D or 2D but got {last.ndim}D")
    for i in range(1, n - 1):
        if tensors[i].ndim != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {tensors[i].ndim}D")
    for i in range(1, n):
        if mats[i].dtype is not mats[0].dtype:
            from .pointwise import _C_NAMES  # (the C++ names of the dtypes)
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but tensor 0 is "
                               f"{_C_NAMES[mats[0].dtype.name]} and tensor {i} {_C_NAMES[mats[i].dtype.name]}")
        if mats[i - 1].shape[-1] != mats[i].shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i - 1} and {i} with shapes {list(tensors[i - 1].shape)} and "
                               f"{list(tensors[i].shape)} cannot be multiplied")
    mm = FUNCTIONS["mm"]
    if n == 2:
        result = mm(mats[0], mats[1])
    elif n == 3:
        a, b, c, d = mats[0].shape[0], mats[1].shape[0], mats[2].shape[0], mats[2].shape[1]
        if a * c * (b + d) <= b * d * (a + c):  # a tie multiplies (AB)C, as ATen does
            result = mm(mm(mats[0], mats[1]), mats[2])
        else:
            result = mm(mats[0], mm(mats[1], mats[2]))
    else:
        split = _chain_order([m.shape for m in mats])

        def chain(i, j):
            return mats[i] if i == j else mm(chain(i, split[i][j]), chain(split[i][j] + 1, j))

        result = chain(0, n - 1)
    return result.view(tuple(out_shape))


export("multi_dot", linalg=True, torch=False)(multi_dot)


# ---------------------------------------------------------------------------
