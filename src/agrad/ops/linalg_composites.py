"""ATen's linear-algebra composites: torch.linalg.vander (cumprod of the expanded column, a column of
ones before it), tensorinv and tensorsolve (inv_ex / solve of the tensor reshaped to a square matrix),
and the deprecated torch.nuclear_norm (linalg.matrix_norm's 'nuc') and torch.frobenius_norm (at::norm
with p=2: a NormBackward1 node), each warned once.  Their graphs are the ops they are made of.
"""

from __future__ import annotations

import math

from .. import dtypes
from .._warn_once import warn_once
from ..tensor import _scalar_name
from ._op import FUNCTIONS, LINALG, export, finish_out, method


def _integral(dt):
    return dt in (dtypes.uint8, dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64)


@export("vander", linalg=True, torch=False)
def linalg_vander(x, *, N=None):
    """x's powers 0 .. N-1 along a new last dim: ones, then the cumulative product of x repeated."""
    if not (x.dtype in (dtypes.float32, dtypes.float64) or _integral(x.dtype)):
        raise RuntimeError(f"linalg.vander supports floating point, complex, and integer tensors, but got "
                           f"{_scalar_name(x.dtype)}")
    if N is not None and (type(N) is bool or not isinstance(N, int)):
        raise TypeError(f"N must be an int, not {type(N).__name__}")  # (the parser's text replaces it)
    x_ = x.unsqueeze(-1) if x.ndim == 0 else x
    shape = list(x_.shape)
    n = shape[-1] if N is None else int(N)
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    result = FUNCTIONS["cumprod"](x_.unsqueeze(-1).expand(*shape, n - 1), -1)
    ones = result.new_ones(shape + [1])
    return FUNCTIONS["cat"]([ones, result], -1)


@export("tensorinv", linalg=True, torch=False)
def linalg_tensorinv(A, ind=2, *, out=None):
    """The inverse of A taken as a matrix of its first ``ind`` dims by the rest, shaped back. With ``out=``,
    ATen's composite: out's dtype checked first, then resize_output and ``out.copy_`` (C-ordered; recorded
    by autograd: CopyBackwards, no refusal of an A that requires grad)."""
    if out is not None:
        from ..tensor import _can_cast, _scalar_name
        from ._outs import copied_out
        if not _can_cast(A.dtype, out.dtype):
            raise RuntimeError(f"tensorinv: Expected result to be safely castable from {_scalar_name(A.dtype)} dtype, "
                               f"but got result with dtype {_scalar_name(out.dtype)}")
        return copied_out(linalg_tensorinv(A, ind), out)
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    if ind > A.ndim:
        raise RuntimeError(f"ArrayRef: invalid slice, N = {ind}; size = {A.ndim}")
    end, start = list(A.shape[ind:]), list(A.shape[:ind])
    p_end, p_start = math.prod(end), math.prod(start)
    if p_end != p_start:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[ind:]) == prod(self.shape[:ind]), "
                           f"but got {p_end} != {p_start}")
    result, info = LINALG["inv_ex"](A.reshape((p_start, p_end)))
    if info._data.any():
        from .matrix import _LinAlgError
        raise _LinAlgError(f"inv: The diagonal element {int(info._data)} is zero, the inversion could not be "
                           "completed because the input matrix is singular.")
    return result.reshape(tuple(end + start))


@export("tensorsolve", linalg=True, torch=False)
def linalg_tensorsolve(A, B, dims=None, *, out=None):
    """X with tensordot(A, X, X.ndim) = B: A (its ``dims`` moved last) as a square matrix, B flattened.
    With ``out=``, ATen's composite, as tensorinv's."""
    if out is not None:
        from ..tensor import _can_cast, _scalar_name
        from ._outs import copied_out
        if not _can_cast(A.dtype, out.dtype):
            raise RuntimeError(f"tensorsolve: Expected result to be safely castable from {_scalar_name(A.dtype)} "
                               f"dtype, but got result with dtype {_scalar_name(out.dtype)}")
        return copied_out(linalg_tensorsolve(A, B, dims), out)
    nd = A.ndim
    A_ = A
    if dims is not None:
        dims = [dims] if isinstance(dims, int) else list(dims)
        A_ = FUNCTIONS["movedim"](A, dims, list(range(nd - len(dims), nd)))
    if B.ndim > nd:  # (ATen's sizes().slice(other.dim(), ndim - other.dim()): a negative length wraps round)
        raise RuntimeError("cannot create std::vector larger than max_size()")
    shape = list(A_.shape[B.ndim:])
    p_res, p_b = math.prod(shape), math.prod(B.shape)
    if p_res != p_b:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
                           f"prod(self.shape[:other.ndim]), but got {p_res} != {p_b}")
    result = LINALG["solve"](A_.reshape((p_res, p_res)), B.flatten())
    return result.reshape(tuple(shape))


_NUCLEAR = ("at::nuclear_norm is deprecated and it is just left for JIT compatibility. It will be removed in a future "
            "PyTorch release. Please use `linalg.matrix_norm(A, 'nuc', dim, keepdim)` instead")
_FROBENIUS = ("at::frobenius_norm is deprecated and it is just left for JIT compatibility. It will be removed in a "
              "future PyTorch release. Please use `linalg.vector_norm(A, 2., dim, keepdim)` instead")


def _int_dims(dim, keepdim):
    """The parser's refusal (before the deprecation warning) of a dim that is not ints, a keepdim not a bool."""
    dims = [] if dim is None else [dim] if isinstance(dim, int) else dim
    if not isinstance(dims, (list, tuple)) or any(type(d) is bool or not isinstance(d, int) for d in dims) \
            or type(keepdim) is not bool:
        raise TypeError("invalid arguments")  # (the parser's text replaces it)


@export("nuclear_norm")
def nuclear_norm(input, dim=None, keepdim=False, *, out=None):
    """linalg.matrix_norm(input, 'nuc', dim or (-2, -1), keepdim) (deprecated; an int dim is (d, d)).
    ``nuclear_norm(x, True)`` is the keepdim overload."""
    if isinstance(dim, bool):  # nuclear_norm(Tensor self, bool keepdim=False)
        dim, keepdim = None, dim
    _int_dims(dim, keepdim)
    warn_once(_NUCLEAR, UserWarning)
    if dim is None:
        dim = (-2, -1)
    elif isinstance(dim, int):
        dim = (dim, dim)
    return LINALG["matrix_norm"](input, "nuc", tuple(dim), bool(keepdim), out=out)


@export("frobenius_norm")
def frobenius_norm(input, dim, keepdim=False, *, out=None):
    """at::norm(input, 2, dim, keepdim): NormBackward1 (deprecated)."""
    from .nn import _norm1
    from .reductions import dims as reduction_dims

    _int_dims(dim, keepdim)
    warn_once(_FROBENIUS, UserWarning)
    dims = [dim] if isinstance(dim, int) else list(dim)
    if len(dims) > 2:
        raise RuntimeError(f"Expected at most 2 dimensions, but got {len(dims)} dimensions instead.")
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. Got "
                           f"{_scalar_name(input.dtype)} instead.")
    # (linalg_vector_norm's dims: each wrapped, a 0-d input's as if it had one dim, none twice; none: all)
    axes = reduction_dims(dims, input.ndim) if dims else tuple(range(input.ndim))
    result = _norm1(input, ord=2.0, axes=axes, keepdim=bool(keepdim), dtype=input._data.dtype)
    return finish_out("frobenius_norm", result, out)



# ---------------------------------------------------------------------------
# removed in PyTorch 1.9: torch._linalg_utils keeps the names, each raising its replacement's advice
# ---------------------------------------------------------------------------

_REMOVED = "This function was deprecated since version 1.9 and is now removed."
_REMOVED_TEXT = {
    "matrix_rank": f"{_REMOVED}\nPlease use the `torch.linalg.matrix_rank` function instead. The parameter 'symmetric' was "
                   "renamed in `torch.linalg.matrix_rank()` to 'hermitian'.",
    "lstsq": f"{_REMOVED} `torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n`torch.linalg.lstsq` has reversed "
             "arguments and does not return the QR decomposition in the returned tuple (although it returns other "
             "information about the problem).\n\nTo get the QR decomposition consider using `torch.linalg.qr`.\n\nThe "
             "returned solution in `torch.lstsq` stored the residuals of the solution in the last m - n columns of the "
             "returned value whenever m > n. In torch.linalg.lstsq, the residuals are in the field 'residuals' of the "
             "returned named tuple.\n\nThe unpacking of the solution, as in\nX, _ = torch.lstsq(B, A).solution[:A.size(1)]"
             "\nshould be replaced with:\nX = torch.linalg.lstsq(A, B).solution",
    "symeig": f"{_REMOVED} The default behavior has changed from using the upper triangular portion of the matrix by "
              "default to using the lower triangular portion.\n\nL, _ = torch.symeig(A, upper=upper) should be replaced "
              "with:\nL = torch.linalg.eigvalsh(A, UPLO='U' if upper else 'L')\n\nand\n\nL, V = torch.symeig(A, "
              "eigenvectors=True) should be replaced with:\nL, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')",
    "eig": f"{_REMOVED} `torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` rather than real tensors "
           "mimicking complex tensors.\n\nL, _ = torch.eig(A) should be replaced with:\nL_complex = "
           "torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, eigenvectors=True) should be replaced with:\n"
           "L_complex, V_complex = torch.linalg.eig(A)",
    "solve": f"{_REMOVED} `torch.solve` is deprecated in favor of `torch.linalg.solve`. `torch.linalg.solve` has its "
             "arguments reversed and does not return the LU factorization.\n\nTo get the LU factorization see `torch.lu`, "
             "which can be used with `torch.lu_solve` or `torch.lu_unpack`.\nX = torch.solve(B, A).solution should be "
             "replaced with:\nX = torch.linalg.solve(A, B)",
}


@export("matrix_rank")
def matrix_rank(input, tol=None, symmetric=False, *, out=None):
    raise RuntimeError(_REMOVED_TEXT["matrix_rank"])


@export("lstsq")
def lstsq(input, A, *, out=None):
    raise RuntimeError(_REMOVED_TEXT["lstsq"])


@export("symeig")
def symeig(input, eigenvectors=False, upper=True, *, out=None):
    raise RuntimeError(_REMOVED_TEXT["symeig"])


symeig.__qualname__ = "_symeig"  # (torch.symeig is torch._linalg_utils._symeig: Python's TypeErrors name it so)


@export("eig")
def eig(self, eigenvectors=False, *, e=None, v=None):
    raise RuntimeError(_REMOVED_TEXT["eig"])


@export("solve")
def solve(input, A, *, out=None):
    raise RuntimeError(_REMOVED_TEXT["solve"])


# Tensor's own methods (torch/_tensor.py), with their own signatures: x.symeig(upper=True) is Python's
# TypeError before the removal's RuntimeError
def _tensor_method(name, fn):
    fn.__name__, fn.__qualname__ = name, f"Tensor.{name}"
    method(name)(fn)


def _lstsq_method(self, other):
    return lstsq(self, other)


def _eig_method(self, eigenvectors=False):
    return eig(self, eigenvectors=eigenvectors)


def _symeig_method(self, eigenvectors=False):
    return symeig(self, eigenvectors=eigenvectors)


def _solve_method(self, other):
    return solve(self, other)


for _name, _fn in (("lstsq", _lstsq_method), ("eig", _eig_method), ("symeig", _symeig_method), ("solve", _solve_method)):
    _tensor_method(_name, _fn)


# linalg.vecdot ------------------------------------------------------------------------------

def _vecdot(x, y, *, dim=-1, out=None):
    """torch.linalg.vecdot: (x * y).sum(dim) (real tensors: no conjugation)."""
    if not x.dtype.is_floating_point:
        raise RuntimeError(
            f"linalg.vecdot: Expected a floating point or complex tensor as input. Got {_scalar_name(x.dtype)}")
    if x.dtype is not y.dtype:
        raise RuntimeError(
            f"linalg.vecdot: Expected x and y to have the same dtype, but found x of type {_scalar_name(x.dtype)} "
            f"and y of type {_scalar_name(y.dtype)} instead")
    if out is not None and out.dtype is not x.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected out of dtype{_scalar_name(x.dtype)} but found "
                           f"{_scalar_name(out.dtype)}")
    if x.ndim == 1 and y.ndim == 1:  # PyTorch's linalg_vecdot: at::vdot for two vectors (dim unread; out=: resized
        if out is None:  # to 0-d (resize_output, its warning) before vdot_out's checks)
            return FUNCTIONS["vdot"](x, y)
        if out.shape != ():
            from ._outs import _resize_out, warn_resized
            import numpy as np
            if out._data.size:
                warn_resized(out.shape, ())
            _resize_out(out, np.empty((), out._data.dtype))
        return FUNCTIONS["vdot"](x, y, out=out)
    return finish_out("linalg_vecdot", (x * y).sum(dim), out)


export("vecdot", linalg=True, torch=False)(_vecdot)
