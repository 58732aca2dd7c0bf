"""The pseudo-inverse and what shares its SVD cut-off: pinv, pinverse, matrix_rank; and the
composite cond with matrix_norm's ord=2/-2/'nuc' (through svdvals).  The decompositions behind them
are in ``decompositions``."""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..tensor import Tensor, _can_cast, _scalar_name, _wrap_dim_no_scalar
from ._lapack import matrices
from ._op import FUNCTIONS, LINALG, Op, export, with_out
from .decompositions import (_floating, _kernel_dtype, _matrix, _needs_grad, _square, eigh_arrays, svd_arrays,
                             svdvals)
from .nn import const
from .._warn_once import warn as _warn


def _tolerances(a, atol, rtol, s_max):
    """PyTorch's cutoff: max(atol, rtol * largest singular value); rtol defaults to eps * max(m, n)
    when neither is given, and to 0 when only atol is."""
    if rtol is None:
        rtol = np.finfo(a.dtype).eps * max(a.shape[-2:]) if atol is None or np.all(np.asarray(atol) <= 0) else 0.0
    atol = 0.0 if atol is None else atol
    return np.maximum(np.asarray(atol, np.float64), np.asarray(rtol, np.float64) * s_max)


def _pinv_fwd(ctx, a, atol, rtol, hermitian):
    if hermitian:
        w, v = eigh_arrays(a)
        s_abs = np.abs(w)
        cut = _tolerances(a, atol, rtol, s_abs.max(-1, initial=0.0))[..., None]
        inv = np.where(s_abs > cut, 1.0 / np.where(s_abs > cut, w, 1), 0)
        return np.matmul(v * inv[..., None, :], np.swapaxes(v, -1, -2)).astype(a.dtype, copy=False)
    u, s, vh = svd_arrays(a, False, who="linalg.svd")
    cut = _tolerances(a, atol, rtol, s.max(-1, initial=0.0) if s.size else 0.0)
    cut = np.asarray(cut)[..., None]
    inv = np.where(s > cut, 1.0 / np.where(s > cut, s, 1), 0)
    out = np.matmul(np.swapaxes(vh, -1, -2) * inv[..., None, :], np.swapaxes(u, -1, -2)).astype(a.dtype, copy=False)
    return np.where(_inf_spread(a)[..., None, None], np.nan, out) if a.size and not np.isfinite(a).all() else out


def _inf_spread(a):
    """The matrices of ``a`` whose pinv is NaN everywhere in PyTorch: MKL's reflectors spread an inf
    (scaled to a NaN) over all of U or all of Vh, except where the infs lie as in svd_arrays' diagonal
    case.  A tall matrix always; one with an inf in row 0 past column 0, or a square one with infs in
    column 0 only, nearly always.  Elsewhere PyTorch's NaNs fall in some columns or none and agrad's
    pinv is left a number (documented as svd-inf-nan).  On 5,450 random float32/float64 matrices up to
    4 x 4 with an inf, this makes 4,752 pinvs PyTorch's bit for bit (1,412 before) and none NaN where
    PyTorch's is a number."""
    m, n = a.shape[-2:]
    inf = np.isinf(a)
    later_cols = inf[..., :, 1:].any(axis=(-2, -1))
    diagonal = ~(inf & ~np.eye(m, n, dtype=bool)).any(axis=(-2, -1)) & ((m == n) | ~later_cols)
    spread = (m > n) | inf[..., 0, 1:].any(axis=-1) | ((m == n) & ~later_cols)
    return inf.any(axis=(-2, -1)) & ~diagonal & spread


_pinv = Op("LinalgPinvBackward0", _pinv_fwd, inputs=("self",), saves=("self", "result"))


def pinv_backward(grad, pinvA, A):
    m, n = A.shape[-2:]
    pinvAh = pinvA.mT
    gradh = grad.mT
    if m <= n:
        K = gradh.matmul(pinvA)
        KpinvAh = K.matmul(pinvAh)
        # GCC evaluates the right operand of + and - first (a matmul's object before its argument)
        last = pinvAh.matmul(pinvA).matmul(gradh - K.matmul(A))
        third = A.matmul(pinvA).matmul(KpinvAh)
        return -(pinvA.matmul(K)).mT + KpinvAh - third + last
    K = pinvA.matmul(gradh)
    pinvAhK = pinvAh.matmul(K)
    last = pinvAhK.matmul(pinvA).matmul(A)
    second = (gradh - A.matmul(K)).matmul(pinvA).matmul(pinvAh)
    return -(K.matmul(pinvA)).mT + second + pinvAhK - last


_pinv.derivative(lambda ctx, grad: pinv_backward(grad, ctx.result, ctx.self))


def _tol_value(t):
    return t._data if isinstance(t, Tensor) else t


class _NoRcond:
    """rcond not given (an explicit None is no overload's: the parser's TypeError); shown as None."""

    def __repr__(self):
        return "None"


_NO_RCOND = _NoRcond()


def _linalg_pinv(input, rcond=_NO_RCOND, hermitian=False, *, atol=None, rtol=None, out=None):
    """PyTorch's four overloads: (input, *, atol, rtol, hermitian), Tensor or float tolerances, and
    (input, rcond, hermitian): rcond takes no atol or rtol beside it, and is no optional (None)."""
    if rcond is None:
        raise TypeError("linalg_pinv(): rcond None")  # (the parser's text replaces it)
    if rcond is _NO_RCOND:
        rcond = None
    if rcond is not None and (atol is not None or rtol is not None):
        raise TypeError("linalg_pinv(): rcond with atol or rtol")  # (the parser's text replaces it)
    A = input
    if atol is not None and not isinstance(atol, Tensor) and rtol is None and rcond is None:
        # the float overload's default rtol (eps(dtype) * max(size(-1), size(-2))), before any check
        _wrap_dim_no_scalar(-2, A.ndim)
        if A.dtype not in (dtypes.float32, dtypes.float64):
            raise RuntimeError("This function doesn't handle types other than float and double")
    if A.ndim < 2 or not A.dtype.is_floating_point or A.dtype is dtypes.float16:  # linalg_pinv's own check, before the matrix ones
        raise RuntimeError(f"linalg.pinv({_scalar_name(A.dtype)}{{{list(A.shape)}}}): expected a tensor with 2 or "
                           "more dimensions of float, double, cfloat or cdouble types")
    _matrix(A, "linalg.pinv")
    if hermitian and A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"linalg.eigh: A must be batches of square matrices, but they are {A.shape[-2]} by "
                           f"{A.shape[-1]} matrices")
    if rcond is not None:
        rtol = rcond
    return _pinv(A, atol=_tol_value(atol), rtol=_tol_value(rtol), hermitian=bool(hermitian))


def linalg_pinv(input, rcond=_NO_RCOND, hermitian=False, *, atol=None, rtol=None, out=None):
    """linalg.pinv's out=: checkLinalgCompatibleDtype first, then the result computed, resize_output and a copy.
    The overload of float tolerances or of rcond is a composite in PyTorch (out.copy_, recorded as
    CopyBackwards: no refusal of an input that requires grad); the tensor one (tolerances None or tensors)
    is refused by autograd first."""
    if out is None:
        return _linalg_pinv(input, rcond, hermitian, atol=atol, rtol=rtol)
    from ..autograd import grad_mode
    from ._outs import _resize_out, finish_out, warn_resized

    composite = rcond is not _NO_RCOND or any(v is not None and not isinstance(v, Tensor) for v in (atol, rtol))
    if not composite and grad_mode._state["enabled"] and any(
            isinstance(t, Tensor) and t._requires_grad for t in (input, atol, rtol, out)):
        raise RuntimeError("linalg_pinv(): functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.")
    if isinstance(input, Tensor) and not _can_cast(input.dtype, out.dtype):
        raise RuntimeError(f"linalg.pinv: Expected result to be safely castable from {_scalar_name(input.dtype)} "
                           f"dtype, but got result with dtype {_scalar_name(out.dtype)}")
    result = _linalg_pinv(input, rcond, hermitian, atol=atol, rtol=rtol)
    if not composite:
        return finish_out("linalg_pinv", result, out)
    if out.shape != result.shape:
        if out._data.size:
            warn_resized(out.shape, result.shape)
        _resize_out(out, np.empty(result.shape, out._data.dtype))
    return out.copy_(result)


export("pinv", linalg=True, torch=False)(linalg_pinv)


@export("pinverse", method=True)
def pinverse(input, rcond=1e-15):
    if type(rcond) is bool or not isinstance(rcond, (int, float)):  # (the parser's double: no None, no Tensor)
        from ._pyargs import tp_name
        raise TypeError(f"pinverse(): argument 'rcond' must be float, not {tp_name(rcond)}")
    return _linalg_pinv(input, rtol=rcond)


_NO_TOL = object()


@with_out("linalg_matrix_rank", None)
def _linalg_matrix_rank(A, tol=_NO_TOL, hermitian=False, *, atol=_NO_TOL, rtol=_NO_TOL, out=None):
    if tol is not _NO_TOL and (atol is not _NO_TOL or rtol is not _NO_TOL):
        raise TypeError("tol with atol or rtol")  # (no signature takes both, None included: the parser's error)
    atol, rtol = (None if atol is _NO_TOL else atol), (None if rtol is _NO_TOL else rtol)
    if A.ndim < 2:  # (its own check, before the dtype's)
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.")
    if tol is not _NO_TOL:
        if tol is None:
            raise TypeError("tol=None")  # (not nullable: the parser's error)
        atol, rtol = tol, 0.0
    elif atol is not None and rtol is not None and _tensor_tol(atol) != _tensor_tol(rtol):
        raise TypeError("a Tensor and a float tolerance")  # (no signature takes both: the parser's error)
    if rtol is None and A.dtype not in (dtypes.float32, dtypes.float64):  # the default rtol's eps(dtype)
        raise RuntimeError("This function doesn't handle types other than float and double")
    if A.numel() == 0:  # rank 0, before the svd's or eigh's checks
        return Tensor._make(np.zeros(A.shape[:-2], np.int64))
    if hermitian:
        _square(A, "linalg.eigh")
        _kernel_dtype(A, "linalg_eigh_cpu")
    else:
        _matrix(A, "linalg.svd")
        _kernel_dtype(A, "linalg_svd_cpu")
    a = A._data
    s = np.abs(eigh_arrays(a, vectors=_needs_grad(A))[0]) if hermitian else svd_arrays(a, compute_uv=False)
    cut = _tolerances(a, _tol_value(atol), _tol_value(rtol), s.max(-1, initial=0.0))
    rank = np.asarray((s > np.asarray(cut)[..., None]).sum(-1), np.int64)
    if rank.shape != A.shape[:-2] and np.prod(A.shape[:-2]):  # tolerances broadcast the batch: its result resized
        _warn(f"An output with one or more elements was resized since it had shape {list(A.shape[:-2])}, "
              f"which does not match the required output shape {list(rank.shape)}. This behavior is "
              "deprecated, and in a future PyTorch release outputs will not be resized unless they have "
              "zero elements. You can explicitly reuse an out tensor t by resizing it, inplace, to zero "
              "elements with t.resize_(0).", UserWarning)
    return Tensor._make(rank)


def _tensor_tol(t) -> bool:
    """A tolerance only the Tensor signature takes (the float one takes numbers and 0-d tensors without grad)."""
    return isinstance(t, Tensor) and (t.ndim != 0 or t.requires_grad)


export("matrix_rank", linalg=True, torch=False)(_linalg_matrix_rank)



# matrix norms through the singular values, cond
# ---------------------------------------------------------------------------

def norm_max_min(x, dim, keepdim, ord):
    """matrix_norm's last step: amax over ``dim`` for a positive ``ord``, amin for a negative one; a
    positive ord over a dim of no elements is zeros (no history), where amin refuses."""
    if ord > 0 and x.shape[dim] == 0:
        shape = list(x.shape)
        if keepdim:
            shape[dim] = 1
        else:
            del shape[dim]
        return Tensor._make(np.zeros(shape, x._data.dtype))
    return FUNCTIONS["amax" if ord > 0 else "amin"](x, dim, keepdim)


def svd_matrix_norm(A, ord, d0, d1, keepdim):
    """linalg.matrix_norm for ord = 2, -2 ('largest / smallest singular value') and 'nuc' (their sum),
    as ATen builds it: dims moved to the end, svdvals, amax / amin / sum."""
    perm = [i for i in range(A.ndim) if i not in (d0, d1)] + [d0, d1]
    s = svdvals(A.permute(*perm))
    result = s.sum(-1, keepdim=keepdim) if ord == "nuc" else norm_max_min(s, -1, keepdim, float(ord))
    if keepdim:
        inverse = [perm.index(i) for i in range(A.ndim)]
        result = result.unsqueeze(-1).permute(*inverse)
    return result


def cond(A, p=None, *, out=None):
    """torch.linalg.cond; with ``out=`` ATen's composite linalg_cond_out: out's dtype checked against A's
    first, the condition number computed as without out, then resize_output and ``out.copy_``, which
    autograd records (CopyBackwards: an A that requires grad is not refused)."""
    if out is None:
        return _cond(A, p)
    if isinstance(A, Tensor) and not _can_cast(A.dtype, out.dtype):
        raise RuntimeError(f"linalg.cond: Expected result to be safely castable from {_scalar_name(A.dtype)} "
                           f"dtype, but got result with dtype {_scalar_name(out.dtype)}")
    from ._outs import copied_out
    return copied_out(_cond(A, p), out)


def _cond(A, p=None):
    """The condition number: s_max / s_min for p in (None, 2, -2), else norm(A) * norm(A^-1).
    PyTorch's order of checks: a number ord is checked before the shape, a string after it; an
    empty input is zeros before any dtype check; then the dtype checks of svd or inv."""
    if A.ndim < 2:
        if isinstance(p, str):
            raise RuntimeError(f"linalg.cond(ord={p}): The input tensor A must have at least 2 dimensions.")
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    if isinstance(p, str):
        _square(A, f"linalg.cond(ord={p})")
        if p not in ("fro", "nuc"):
            raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    elif p is not None and abs(float(p)) not in (1, 2, math.inf):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {float(p):g}")
    if A.numel() == 0:  # PyTorch's cond of empty matrices is 0
        return Tensor._make(np.zeros(A.shape[:-2], A._data.dtype))
    if p is None or (not isinstance(p, str) and abs(float(p)) == 2):
        s = svdvals(A)
        k = s.shape[-1]
        s_max, s_min = s.narrow(-1, 0, 1), s.narrow(-1, k - 1, 1)  # PyTorch's narrow: SliceBackward0
        result = s_min / s_max if p is not None and float(p) == -2 else s_max / s_min
        return result.squeeze(-1)
    if not isinstance(p, str):
        shown = (f"{p:f}" if math.isfinite(p) else str(p)) if isinstance(p, float) else str(int(p))
        _square(A, f"linalg.cond(ord={shown})")
    if p == "nuc":  # (ATen's composite: the singular values alone, no inverse and no nan_to_num)
        _floating(A, "linalg.svd")
        _kernel_dtype(A, "linalg_svd_cpu")
        s = svdvals(A)
        return s.sum(-1) * s.reciprocal().sum(-1)
    _floating(A, "linalg.inv")
    if A.dtype is dtypes.float16:
        raise RuntimeError("linalg.inv: Low precision dtypes not supported. Got Half")
    a = A._data
    # (a matrix with an inf or NaN is never rank-deficient here, as LU finds no zero pivot in it;
    # and LAPACK's SVD behind matrix_rank could loop forever on it)
    singular = np.array([bool(np.isfinite(m).all()) and np.linalg.matrix_rank(m) < m.shape[-1]
                         for m in matrices(a)])
    singular = singular.reshape(a.shape[:-2])
    # (ATen's linalg_inv_ex of the whole batch, recorded: a singular matrix's garbage is masked below)
    inverse = LINALG["inv_ex"](A)[0] if singular.any() else LINALG["inv"](A)
    # in place, as ATen does: the inverse saved by its own node changes, so a backward
    # through this path raises PyTorch's error for a modified saved tensor
    inverse.masked_fill_(const(np.broadcast_to(singular[..., None, None], a.shape)), math.inf)
    result = LINALG["matrix_norm"](A, p) * LINALG["matrix_norm"](inverse, p)
    return result.nan_to_num_(math.inf, math.inf, -math.inf)


export("cond", linalg=True, torch=False)(cond)
