"""Determinants: torch.linalg.det, slogdet and logdet (and torch.det/slogdet/logdet), as
LAPACK's LU gives them, including the signs and zeros of singular matrices.

The derivatives are FunctionsManual's linalg_det_backward and slogdet_backward,
written with agrad ops, so they differentiate again; a singular matrix takes the
perturbed-inverse path PyTorch takes.
"""

from __future__ import annotations

import numpy as np

from . import _vec_math

from ..autograd import grad_mode
from ..tensor import Tensor
from ._op import Op, export, finish_out, with_out
from ._return_types import return_type
from .matrix import _const, _no_half, _require_float, _require_square, _unsqueeze2, diag_embed, diagonal
from ._lapack import getrf, getrs, idamax, pivot_sign
from .solvers import _solve

#: the largest n for which det and slogdet take the LU steps of ``_lapack``: MKL factors such
#: matrices unblocked, so the pivots round as PyTorch's do (larger ones it factors in blocks)
_SMALL = 16


def _lu_diag(a):
    """(sign of the row permutation, diagonal of U) of the LU PyTorch's det and slogdet take:
    MKL's steps for small or non-finite matrices, numpy's LAPACK for the others."""
    lu, piv, _ = getrf(_lu_input(a))
    return pivot_sign(piv).astype(a.dtype), np.diagonal(lu, 0, -2, -1)


def _by_lu(a):
    return a.shape[-1] <= _SMALL or not np.isfinite(a).all()


def _det_fwd(ctx, a):
    if _by_lu(a):
        sign, diag = _lu_diag(a)
        return np.asarray(sign * np.prod(diag, axis=-1), a.dtype)
    out = np.asarray(np.linalg.det(a), a.dtype)
    zero = out == 0
    if zero.any():  # PyTorch's det is the LU's pivot product: a singular matrix may give -0.0
        sign, diag = _lu_diag(a[zero])
        out = np.array(out)
        out[zero] = sign * np.prod(diag, axis=-1)
    return out


_det = Op("LinalgDetBackward0", _det_fwd, inputs=("A",), saves=("A", "result"))


@_det.derivative
def _(ctx, grad):
    # linalg_det_backward: G = grad * det(A) * A^{-T}.  Without create_graph PyTorch solves with
    # an LU whose zero pivots are nudged to eps (so an exactly singular A gets G = 0); with it,
    # near-singular inputs take the cofactor matrix adj(A)^T (PyTorch computes it from the SVD).
    A, det = ctx.A, ctx.result
    if A.shape[-1] == 1:  # a 1x1 matrix: the gradient itself, expanded (no solve, nothing from A recorded)
        return grad.unsqueeze(-1).unsqueeze(-1).expand(tuple(A.shape))
    if not grad_mode._state["enabled"]:
        return Tensor._make(_adjoint_solve(A._data, (grad * det)._data))
    if A.numel() == 0:  # an empty gradient, recorded nowhere
        return Tensor._make(np.zeros(A._data.shape, A._data.dtype))
    # create_graph: PyTorch's formula, recorded: A^H G = det * grad * I solved again (so that the
    # solve is differentiated), and for |det| < 100 eps the adjugate from the SVD (masked_fmap)
    d = diag_embed((grad * det).unsqueeze(-1).expand(tuple(A.shape[:-1]))).mT
    singular = np.abs(det._data) < 100 * np.finfo(A._data.dtype).eps
    if singular.all():
        return _det_singular_backward(A, grad)
    if not singular.any():
        return _solve(A.mT, d, True, False)
    from .indexing import getitem
    mask = _const(singular)
    not_mask = _const(~singular)
    out = Tensor._make(np.empty(A._data.shape, A._data.dtype))  # empty_like(A).index_put_(...) twice
    out[mask] = _det_singular_backward(getitem(A, mask), getitem(grad, mask))
    dn = getitem(d, not_mask)  # (GCC evaluates the solve's arguments right to left)
    out[not_mask] = _solve(getitem(A, not_mask).mT, dn, True, False)
    return out


def _det_singular_backward(A, grad):
    """linalg_det_backward's singular branch: U diag(D) Vh with D the products of the other
    singular values (prod_safe_zeros_backward), scaled by det(U) det(Vh) grad."""
    from .decompositions import _svd
    from .reductions import _prod_safe_zeros_backward
    U, S, Vh = _svd(A, full_matrices=True)
    alpha = (_linalg_det(U) * _linalg_det(Vh)) * grad
    D = _prod_safe_zeros_backward(alpha.unsqueeze(-1), S, S.ndim - 1)
    return (U * D.unsqueeze(-2)).matmul(Vh)


def _lu_input(a):
    """The matrices PyTorch's det and slogdet factor: A^T when A is contiguous (LAPACK wants
    column-major), else A."""
    return np.swapaxes(a, -1, -2) if type(a) is np.ndarray and a.flags.c_contiguous else a


def _adjoint_solve(a, d):
    """d * A^{-T} as PyTorch's det backward solves it: A^T X = d I by getrs with the LU that det
    factored (_lu_input's matrix: A^T for a contiguous A, so no transpose in the solve), a zero
    pivot nudged to eps; the order of its substitutions decides the sign of a zero in the gradient."""
    m = _lu_input(a)
    lu, piv, _ = getrf(m)
    # LU + diag_embed(where(diag == 0, eps, 0)): the addition also makes every -0.0 of LU +0.0
    eye_n = np.eye(a.shape[-1], dtype=bool)
    lu = lu + np.where(eye_n & (lu == 0), np.finfo(a.dtype).eps, 0).astype(a.dtype)
    eye = np.where(eye_n, np.asarray(d, a.dtype)[..., None, None], np.zeros((), a.dtype))  # diag_embed: +0.0 off it
    return getrs(lu, piv, eye, trans=m is a)


def _adjugate(A):
    """adj(A) from the Faddeev-LeVerrier recursion: matmuls and traces only, so it is
    differentiable to any order, singular A included (PyTorch differentiates its SVD there)."""
    n = A.shape[-1]
    eye = _const(np.eye(n, dtype=A._data.dtype))
    m = eye.expand(tuple(A.shape))
    for k in range(2, n + 1):
        c = -diagonal(A.matmul(m), 0, -2, -1).sum(-1) / (k - 1)
        m = A.matmul(m) + _unsqueeze2(c) * eye
    return m if n % 2 else -m


def _linalg_det(A, *, out=None):
    _require_square(A, "linalg.det")
    _require_float(A, "linalg.det")
    _no_half(A, "lu_cpu")
    return finish_out("linalg_det", _det(A), out)


export("det", linalg=True, torch=False)(_linalg_det)


@export(method=True)
def det(input):
    return _linalg_det(input)


def _slogdet_fwd(ctx, a):
    if not _by_lu(a):
        sign, logabs = np.linalg.slogdet(a)
        if not (sign == 0).any():
            return np.asarray(sign, a.dtype), np.asarray(logabs, a.dtype)
    sign, diag = _lu_diag(a)  # a NaN pivot's sign is 0, as PyTorch's sgn gives it
    with np.errstate(divide="ignore", invalid="ignore"):  # (PyTorch's log kernel: float32 through double,
        logabs = _vec_math.via_double(np.log)(np.abs(diag)).sum(-1)  # not numpy's float32 loop, an ulp off)
    sign = sign * np.prod(np.where(np.isnan(diag), 0, np.sign(diag)), axis=-1)
    return np.asarray(sign, a.dtype), np.asarray(logabs, a.dtype)


_slogdet = Op("LinalgSlogdetBackward0", _slogdet_fwd, inputs=("A",), saves=("A", "sign"), outputs=None, multi_grad=True,
              output_names=("sign", "logabsdet"))  # (sign saved: changed in place, PyTorch's error)


@_slogdet.derivative
def _(ctx, grads):
    # slogdet_backward, real case: only logabsdet has a gradient, g * A^{-T}; under create_graph
    # PyTorch solves A^H X = diag(g) again (recorded)
    g = grads[1]
    A = ctx.A
    if grad_mode._state["enabled"]:
        return _solve(A.mT, diag_embed(g.unsqueeze(-1).expand(tuple(A.shape[:-1]))).mT, True, False)
    # A^{-T} g from the forward's LU (of A^T for a contiguous A), unchecked: a singular A gives infs
    a = A._data
    lu, piv, _ = getrf(_lu_input(a))
    n = a.shape[-1]  # (diag_embed's: +0.0 off the diagonal, whatever g's sign; eye * g would give -0.0)
    rhs = np.zeros(g._data.shape + (n, n), a.dtype)
    rhs[..., np.arange(n), np.arange(n)] = g._data[..., None]
    return _const(getrs(lu, piv, rhs, trans=_lu_input(a) is a))


_slogdet_apply = _slogdet.node.apply


def _slogdet_node_apply(self, grads):
    if grads[1] is None:  # the sign alone carries no gradient: PyTorch returns an undefined one,
        if self._saved is not None:  # after unpacking its saved tensors (a second backward fails)
            self._unpack_saved(False)
        return (None,)
    return _slogdet_apply(self, grads)


_slogdet.node.apply = _slogdet_node_apply


def _slogdet_impl(A, who, result):
    _require_square(A, who)
    _require_float(A, who)
    _no_half(A, who=who)
    sign, logabs = _slogdet(A)
    return result(sign, logabs)


#: torch.return_types.slogdet and torch.return_types.linalg_slogdet
_SlogdetResult = return_type("slogdet", ["sign", "logabsdet"])
_LinalgSlogdetResult = return_type("linalg_slogdet", ["sign", "logabsdet"])


@with_out("linalg_slogdet")
def _linalg_slogdet(A, *, out=None):
    return _slogdet_impl(A, "linalg.slogdet", _LinalgSlogdetResult)


export("slogdet", linalg=True, torch=False)(_linalg_slogdet)


@export(method=True)
def slogdet(input):
    return _slogdet_impl(input, "linalg.slogdet", _SlogdetResult)


@export(method=True)
def logdet(input):
    from .selection import where
    _require_square(input, "logdet")
    _require_float(input, "logdet")
    _no_half(input, who="logdet")
    sign, logabs = _slogdet(input)
    return where(sign == -1, float("nan"), logabs)
