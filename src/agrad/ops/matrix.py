"""Matrix functions: trace, diagonal/diag/diag_embed, tril/triu, cross, the norms
(vector_norm, matrix_norm, norm, dist); det/slogdet/logdet are in ``determinants.py``,
inverse and solve in ``solvers.py``.

Forwards are numpy; backwards are PyTorch's formulas (``derivatives.yaml``,
``FunctionsManual.cpp``) written with agrad ops, so they differentiate again.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .._warn_once import warn_once
from .. import dtypes
from .._dense import dense, flipped
from .._limits import check_shape
from .._zero import any_zero, materialized, zeros
from ..tensor import Tensor, _scalar_name, _wrap_dim
from . import _vec_math
from ._layout import c_order, numpy_strides, reorder_dimensions, torch_strides
from ._op import FUNCTIONS, LINALG, Op, export, finish_out, inplace, method
from ._reduce_ties import _dims as _reduce_dims
from ..autograd.graph import should_compute_output
from .comparison import isnan
from .reductions import _axes, _quiet, _unsqueeze_dims
from .rounding import sgn
from .views import _view

INF = float("inf")


class _EngineRuntimeError(RuntimeError):
    """A base in agrad's own module, which admits its subclasses printed under torch's names to
    scripts (``type(e)`` of a caught one), as typeinfo's _Info admits torch.finfo."""


class _LinAlgError(_EngineRuntimeError):
    """PyTorch's ``torch.linalg.LinAlgError`` (``torch._C._LinAlgError``)."""


_LinAlgError.__module__ = "torch._C"
export("LinAlgError", linalg=True, torch=False)(_LinAlgError)


def _fmt(shape):
    return "[" + ", ".join(str(s) for s in shape) + "]"


def _const(array):
    return Tensor._make(np.asarray(array))


def _unsqueeze2(t):
    return t.unsqueeze(-1).unsqueeze(-1)


def _require_float(t, who):
    if not t.dtype.is_floating_point:
        raise RuntimeError(f"{who}: Expected a floating point or complex tensor as input. Got {_scalar_name(t.dtype)}")


def _no_half(t, kernel=None, who=None):
    """float16 has no LAPACK kernel: PyTorch's dispatch error for ``kernel``, or linalg's own check
    of ``who`` ("Low precision dtypes not supported"), where numpy's linalg would raise TypeError."""
    if t.dtype is dtypes.float16:
        if kernel is not None:
            if not t.numel():  # an empty input never reaches the kernel
                return
            raise NotImplementedError(f'"{kernel}" not implemented for \'Half\'')
        raise RuntimeError(f"{who}: Low precision dtypes not supported. Got Half")


def _require_square(t, who):
    if t.ndim < 2:
        raise RuntimeError(f"{who}: The input tensor A must have at least 2 dimensions.")
    n, m = t._data.shape[-2:]
    if n != m:
        raise RuntimeError(f"{who}: A must be batches of square matrices, but they are {n} by {m} matrices")


# trace / diagonal / diag / diag_embed / tril / triu -------------------------------------------

def _trace_fwd(ctx, a):
    t = np.trace(a)
    return np.asarray(t, np.int64 if a.dtype.kind in "biu" else a.dtype)


_trace = Op("TraceBackward0", _trace_fwd, jvp="linear")


@_trace.derivative
def _(ctx, grad):
    # trace_backward: zeros(n * m).index_fill_(0, arange(0, min(n, m) * (m + 1), m + 1), grad)
    # .view(n, m), so the zeros stay +0.0 whatever grad is (an inf or NaN included)
    n, m = ctx.input_shape
    flat = Tensor._make(np.zeros(n * m, grad._data.dtype))
    diagonal = Tensor._make(np.arange(0, min(n, m) * (m + 1), m + 1, dtype=np.int64))
    return FUNCTIONS["index_fill"](flat, 0, diagonal, grad).view(n, m)


@export(method=True)
def trace(input):
    if input.dtype.name == "bool":  # (the dispatch's error, before the kernel's check of the dims)
        raise NotImplementedError('"trace" not implemented for \'Bool\'')
    if input.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.ndim}")
    return _trace(input)


def _diag_view(a, offset, d1, d2):
    """A writeable numpy view of the diagonal of ``a`` over dims (d1, d2), appended as the last dim."""
    b = np.moveaxis(a, (d1, d2), (-2, -1))
    d1, d2 = d1 % a.ndim, d2 % a.ndim  # (PyTorch's strides of the input's dims, read in its own order)
    have = torch_strides(a)
    have = tuple([have[d] for d in range(a.ndim) if d != d1 and d != d2]) + (have[d1], have[d2])
    n1, n2 = b.shape[-2:]
    length = max(min(n1, n2 - offset), 0) if offset >= 0 else max(min(n1 + offset, n2), 0)
    if length:  # (an empty diagonal keeps the input's storage offset, as ATen's)
        b = b[..., :, offset:] if offset >= 0 else b[..., -offset:, :]
    shape = b.shape[:-2] + (length,)
    return np.lib.stride_tricks.as_strided(  # (subok: a ZeroTensor's diagonal is one, as its other views)
        b, shape, numpy_strides(shape, have[:-2] + (have[-2] + have[-1],)), writeable=a.flags.writeable, subok=True)


def _diagonal_fwd(ctx, a, offset, dim1, dim2):
    return _diag_view(a, offset, dim1, dim2)


def _diagonal_back(ctx, grad):
    return _diagonal_embed.apply((grad,), (grad._data,), {"shape": tuple(ctx.input_shape), "offset": ctx.offset,
                                                          "dim1": ctx.dim1, "dim2": ctx.dim2})


_diagonal = Op("DiagonalBackward0", _diagonal_fwd, jvp="linear")
_diagonal.derivative(_diagonal_back)
_diagonal_copy = Op("DiagonalBackward0_copy",  # torch.diag of a matrix (diagonal_copy)
                    lambda ctx, a, offset, dim1, dim2: _diag_view(a, offset, dim1, dim2).copy(), jvp="linear")
_diagonal_copy.derivative(_diagonal_back)


def _diagonal_embed_fwd(ctx, g, shape, offset, dim1, dim2):
    out = np.zeros(shape, g.dtype)
    _diag_view(out, offset, dim1, dim2)[...] = g
    return out


# diagonal_backward: zeros of the input's shape with the gradient on the diagonal
_diagonal_embed = Op("DiagonalBackwardBackward0", _diagonal_embed_fwd, internal=True, jvp="linear")
_diagonal_embed.derivative(lambda ctx, grad: diagonal(grad, ctx.offset, ctx.dim1, ctx.dim2))


def _diag_dims(ndim, dim1, dim2):
    d1, d2 = _wrap_dim(dim1, ndim), _wrap_dim(dim2, ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return d1, d2


@export(method=True)
def diagonal(input, offset=0, dim1=0, dim2=1):
    d1, d2 = _diag_dims(input.ndim, dim1, dim2)
    return _view(_diagonal, input, input._data, {"offset": int(offset), "dim1": d1, "dim2": d2})


def _linalg_diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    return diagonal(A, offset, dim1, dim2)


export("diagonal", linalg=True, torch=False)(_linalg_diagonal)


def _diag_embed_fwd(ctx, a, offset, dim1, dim2):
    n = a.shape[-1] + abs(offset)
    shape = list(a.shape[:-1])
    for pos in sorted((dim1, dim2)):
        shape.insert(pos, n)
    check_shape(shape)
    out = np.zeros(shape, a.dtype)
    _diag_view(out, offset, dim1, dim2)[...] = a
    return out


_diag_embed = Op("DiagEmbedBackward0", _diag_embed_fwd, jvp="linear")
_diag_embed.derivative(lambda ctx, grad: diagonal(grad, ctx.offset, ctx.dim1, ctx.dim2))


@export(method=True)
def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    d1, d2 = _diag_dims(input.ndim + 1, dim1, dim2)
    return _diag_embed.apply((input,), (input._data,), {"offset": int(offset), "dim1": d1, "dim2": d2})


def _diag(input, diagonal):
    if input.ndim == 1:
        return diag_embed(input, diagonal, 0, 1)
    return _diagonal_copy.apply((input,), (input._data,), {"offset": int(diagonal), "dim1": 0, "dim2": 1})


@export(method=True)
def diag(input, diagonal=0, *, out=None):
    """ATen's composite diag: a vector's diag_embed, a matrix's diagonal_copy; into ``out=``, a vector's
    result type must cast to out's first, then those ops' out overloads (autograd's fallback) run."""
    if input.ndim not in (1, 2):  # (diag_out's text has no prefix)
        raise RuntimeError(f"{'diag(): ' if out is None else ''}Supports 1D or 2D tensors. Got {input.ndim}D")
    if out is None:
        return _diag(input, diagonal)
    from ..tensor import _can_cast
    from ._outs import fallback_out

    if input.ndim == 1 and not _can_cast(input.dtype, out.dtype):
        raise RuntimeError(f"diag: result type {_scalar_name(input.dtype)} can't be cast to the desired out= type "
                           f"{_scalar_name(out.dtype)}")
    return fallback_out("diag_embed" if input.ndim == 1 else "diagonal_copy", _diag, (input, diagonal), {}, out)


def _triangle(name, np_fn):
    op = Op(f"{name.capitalize()}Backward0", lambda ctx, a, diagonal: c_order(np_fn(a, diagonal)), jvp="linear")

    def fn(input, diagonal=0, *, out=None):
        if input.ndim < 2:
            raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
        return finish_out(name, op.apply((input,), (input._data,), {"diagonal": int(diagonal)}), out)

    op.derivative(lambda ctx, grad: fn(grad, ctx.diagonal))
    fn.__name__ = name
    export(name, method=True)(fn)
    masked, copied = inplace(fn, overlap="allow"), inplace(fn)

    def fn_(self, *args, **kwargs):
        return (copied if _copied_back(self) else masked)(self, *args, **kwargs)

    fn_.__name__ = fn_.__qualname__ = name + "_"
    method(name + "_")(fn_)
    return fn


def _copied_back(t):
    """ATen's tril_/triu_ zero the masked elements through ``t``'s own strides (no overlap check:
    an element shared by an expanded view is zero when any of its places is masked), unless ``t``
    has 4 dims or more and its matrices are not evenly spaced: then the result is computed apart
    and ``copy_`` back, whose overlap check refuses an expanded ``t``."""
    if t.ndim < 4 or t.is_contiguous():
        return False
    sizes, strides = t.shape, t.stride()
    expected = sizes[-1] * sizes[-2]
    for i in range(t.ndim - 3, -1, -1):
        if i == 0 and (strides[0] == 0 or sizes[0] == 1):
            continue
        if strides[i] != expected:
            return True
        expected *= sizes[i]
    return False


tril = _triangle("tril", np.tril)
triu = _triangle("triu", np.triu)


# cross ---------------------------------------------------------------------------------------

def _cross_fwd(ctx, a, b, dim):
    shape = np.broadcast_shapes(a.shape, b.shape)
    a, b = np.broadcast_to(a, shape), np.broadcast_to(b, shape)
    dtype = np.result_type(a, b)
    if any_zero(a, b):  # linalg_cross's ZeroTensor kernel
        return zeros(shape, dtype)
    if dtype == np.float32 or dtype == np.float64:
        # the kernel's a[i] * b[j] - a[j] * b[i], the first product fused into the subtraction
        # (AVX2 build: one rounding less than numpy's; -x cross x is then its products' rounding error)
        a, b = np.moveaxis(a, dim, -1).astype(dtype, copy=False), np.moveaxis(b, dim, -1).astype(dtype, copy=False)
        i, j = [1, 2, 0], [2, 0, 1]
        out = _vec_math.fma(a[..., i], b[..., j], -(a[..., j] * b[..., i]))
        return c_order(np.moveaxis(np.asarray(out, dtype), -1, dim))
    return c_order(np.cross(a, b, axis=dim).astype(dtype, copy=False))


_cross = Op("LinalgCrossBackward0", _cross_fwd, inputs=("self", "other"), saves=("self", "other"),
            saves_for={"self": (1,), "other": (0,)})


@_cross.derivative
def _(ctx, grad):
    meta = ctx._input_meta
    g_self = _linalg_cross(ctx.other, grad, dim=ctx.dim) if meta[0] is not None else None
    g_other = _linalg_cross(grad, ctx.self, dim=ctx.dim) if meta[1] is not None else None
    return g_self, g_other


def _linalg_cross(input, other, *, dim=-1, out=None):
    if input.ndim != other.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    if not input.ndim:  # (input.size(dim) of a 0-d tensor)
        raise IndexError(f"Dimension specified as {int(dim)} but tensor has no dimensions")
    d = _wrap_dim(dim, input.ndim)
    if input._data.shape[d] != 3 or other._data.shape[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{input._data.shape[d]} and {other._data.shape[d]}")
    try:
        np.broadcast_shapes(input._data.shape, other._data.shape)
    except ValueError:
        from .pointwise import _mismatch_message
        raise RuntimeError(_mismatch_message(input._data.shape, other._data.shape)) from None
    if input.dtype is dtypes.bool_:  # (the kernel's dispatch on input's dtype, then its read of other's)
        raise NotImplementedError('"cross" not implemented for \'Bool\'')
    if other.dtype is not input.dtype:
        raise RuntimeError(f"expected scalar type {_scalar_name(input.dtype)} but found {_scalar_name(other.dtype)}")
    arrays = (input._data, other._data)
    return finish_out("linalg_cross", _cross.apply((input, other), arrays, {"dim": d}), out, inputs=(input, other))


export("cross", linalg=True, torch=False)(_linalg_cross)


@export(method=True)
def cross(input, other, dim=None, *, out=None):
    if dim is None:
        warn_once(
            "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the dim explicitly "
            "or simply use torch.linalg.cross.\nThe default value of dim will change to agree with that of "
            "linalg.cross in a future release.", UserWarning)
        dim = next((i for i, s in enumerate(input._data.shape) if s == 3), None)  # (input's sizes only)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    return _linalg_cross(input, other, dim=dim, out=out)


# norms ---------------------------------------------------------------------------------------

# torch.linalg.vector_norm (LinalgVectorNormBackward0) and amax/amin live in reduction_extra;
# the matrix norms here are built from them as ATen builds them.

def _linalg_vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    return LINALG["vector_norm"](x, ord, dim, keepdim, dtype=dtype, out=out)


def _ord_name(ord):
    if ord == INF:
        return "inf"
    if ord == -INF:
        return "-inf"
    return f"{ord:g}"


def _matrix_norm_impl(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    if isinstance(ord, str):  # (the order first: the dtype checks depend on it)
        if ord not in ("fro", "nuc"):
            raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    elif float(ord) not in (1, -1, 2, -2, INF, -INF):
        raise RuntimeError(f"linalg.matrix_norm: Order {_ord_name(float(ord))} not supported.")
    if A.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    if not A.dtype.is_floating_point:  # (ATen's _linalg_matrix_norm_checks: A, then dim, then dtype)
        raise RuntimeError(
            f"linalg.matrix_norm: Expected a floating point or complex tensor as input. Got {_scalar_name(A.dtype)}")
    if ord == "nuc" or not isinstance(ord, str) and abs(float(ord)) == 2:
        _no_half(A, who="linalg.matrix_norm")
    dim = list(dim)
    if len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(str(d) for d in dim)}")
    d0, d1 = _wrap_dim(dim[0], A.ndim), _wrap_dim(dim[1], A.ndim)
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({d0}, {d1})")  # (wrapped, as ATen)
    if dtype is not None:
        dtype = _norm_dtype(dtypes.lookup(dtype), A.dtype, "linalg.matrix_norm")
    if ord == "fro":
        return _linalg_vector_norm(A, 2, (d0, d1), keepdim, dtype=dtype, out=out)
    if ord == "nuc" or abs(float(ord)) == 2:
        from .pseudoinverse import svd_matrix_norm
        if dtype is not None:  # (ATen converts A first for the singular values)
            A = A.to(dtype)
        return finish_out("linalg_matrix_norm", svd_matrix_norm(A, ord, d0, d1, keepdim), out)
    # 1 / inf: the max (min) over one dim of the 1-norm over the other, as ATen does
    from .pseudoinverse import norm_max_min
    if abs(float(ord)) == INF:
        d0, d1 = d1, d0
    if not keepdim and d0 < d1:
        d1 -= 1
    result = norm_max_min(_linalg_vector_norm(A, 1, (d0,), keepdim, dtype=dtype), d1, keepdim, float(ord))
    return finish_out("linalg_matrix_norm", result, out)


def _composite_norm_out(name, result, out):
    """linalg_norm_out / linalg_matrix_norm_out: the norm computed, out's dtype checked against it, out
    resized (resize_output: contiguous, its warning), then out.copy_(result) (CopyBackwards on out, copy_'s
    refusal of a leaf that requires grad; no refusal of out= itself)."""
    if out is None:
        return result
    if result.dtype is not out.dtype:
        raise RuntimeError(f"{name} expected out tensor dtype {_scalar_name(result.dtype)} but got: "
                           f"{_scalar_name(out.dtype)}")
    if tuple(out.shape) != tuple(result.shape):
        from ._outs import _resize_out, warn_resized
        if out._data.size:
            warn_resized(out.shape, result.shape)
        _resize_out(out, np.empty(result._data.shape, out._data.dtype))
    return out.copy_(result)


@export("matrix_norm", linalg=True, torch=False)
def _linalg_matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    return _composite_norm_out("linalg.matrix_norm", _matrix_norm_impl(A, ord, dim, keepdim, dtype=dtype), out)


def _linalg_norm(A, ord=None, dim=None, keepdim=False, *, out=None, dtype=None):
    return _composite_norm_out("linalg.norm", _linalg_norm_impl(A, ord, dim, keepdim, dtype=dtype), out)


def _linalg_norm_impl(A, ord=None, dim=None, keepdim=False, *, out=None, dtype=None):
    ord = _number(ord)
    if isinstance(ord, Tensor):  # (the wrapper's parse words it: no signature takes it)
        raise TypeError("linalg.norm: ord must be a number or a string")
    if dim is not None:
        dim = [dim] if isinstance(dim, numbers.Integral) else list(dim)
        if len(dim) not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {_fmt(dim)}")
    elif ord is not None and A.ndim not in (1, 2):
        raise RuntimeError(
            f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {A.ndim}D.")
    if isinstance(ord, str):
        return _matrix_norm_impl(A, ord, dim if dim is not None else (0, 1), keepdim, dtype=dtype, out=out)
    if ord is not None and ((dim is not None and len(dim) == 2) or (dim is None and A.ndim == 2)):
        return _matrix_norm_impl(A, ord, dim if dim is not None else (0, 1), keepdim, dtype=dtype, out=out)
    return _linalg_vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype, out=out)


export("norm", linalg=True, torch=False)(_linalg_norm)


# ---------------------------------------------------------------------------
# vector norm: torch.norm, Tensor.norm, torch.linalg.vector_norm
# ---------------------------------------------------------------------------

def _norm2(x, layout, axes, keepdim):
    """The 2-norm of float64 or float32 ``x`` (|input|) over ``axes`` in the order of ATen's CPU kernel, or
    None (over GRAIN_SIZE elements, a layout with negative strides).  TensorIterator orders the dims
    (``layout``: the input's strides) reduced ones first and merges the contiguous ones; reduced into
    one dim of contiguous rows (is_reduce_lastdim), each row is read as vectors of squares (4 float64
    or 8 float32 lanes) added lane by lane, the lanes folded left to right, then each leftover
    element's square fused into the sum (``acc + x * x`` in one rounding; float32's first four
    leftovers are the compiler's vector block: their squares rounded, then added in order); any other
    reduction adds each square, rounded, one after the other in the iteration's order
    (binary_kernel_reduce with NormTwoOps).  (``lastdim``: whether the row path may run: the input's
    dtype is the result's, float32 or float64.)"""
    if type(layout) is not np.ndarray or not layout.ndim or not 0 < layout.size < _vec_math.GRAIN_SIZE \
            or flipped(layout):
        return None
    axes = set(axes)
    dims = _reduce_dims(layout, axes)  # (coalesced, fastest first: size, input stride, output stride)
    out_strides, step = [0] * layout.ndim, 1
    for i in reversed(range(layout.ndim)):
        out_strides[i] = 0 if i in axes else step
        step *= 1 if i in axes else layout.shape[i]
    order = reorder_dimensions(layout.ndim, layout.shape, [out_strides, [s // layout.itemsize for s in
                                                                            torch_strides(layout)]], reduction=True)
    kept = [d for d in range(layout.ndim) if d not in axes]
    # each output's elements in the order the kernel visits them
    rows = np.transpose(x, kept + [d for d in reversed(order) if d in axes]).reshape(
        int(np.prod([x.shape[d] for d in kept])), -1)
    n = rows.shape[1]
    lastdim = x.dtype == layout.dtype and x.dtype in (np.float32, np.float64) and \
        sum(d[2] == 0 for d in dims) == 1 and dims[0][2] == 0 and dims[0][0] > 1 and dims[0][1] == 1
    if lastdim:
        lanes = 32 // x.dtype.itemsize
        full = n - n % lanes
        acc = np.zeros((rows.shape[0], lanes), x.dtype)
        for k in range(0, full, lanes):
            block = rows[:, k:k + lanes]
            acc = acc + block * block
        total = acc[:, 0]
        for j in range(1, lanes):
            total = total + acc[:, j]
        if lanes == 8 and n - full >= 4:  # float32: the compiler's 4-wide block of the tail, squares rounded
            for d in range(full, full + 4):
                total = total + rows[:, d] * rows[:, d]
            full += 4
        for d in range(full, n):
            total = _vec_math.fma(rows[:, d], rows[:, d], total)
    else:
        total = np.zeros(rows.shape[0], x.dtype)
        for d in range(n):
            total = total + rows[:, d] * rows[:, d]
    shape = tuple(1 if i in axes else m for i, m in enumerate(x.shape)) if keepdim else \
        tuple(m for i, m in enumerate(x.shape) if i not in axes)
    return np.sqrt(total).reshape(shape)


def _vector_norm_fwd(ctx, a, ord, axes, keepdim, dtype, every=False):
    x = np.abs(a.astype(dtype, copy=False))
    # PyTorch's CPU kernel sums in float32 for float32 and half (float64 for float64): a norm can
    # overflow there (vector_norm of [1e30, 1e30] is inf)
    work = x.astype(np.float32) if x.dtype.itemsize < 4 else x
    if a.ndim == 0:  # a 0-d tensor's dim -1 (axes (0,)) or none: numpy reduces over no axis
        axes = ()
    with np.errstate(all="ignore"):
        if ord == math.inf:
            r = np.max(work, axis=axes, keepdims=keepdim)
        elif ord == -math.inf:
            r = np.min(work, axis=axes, keepdims=keepdim)
        elif ord == 0:
            r = np.sum(work != 0, axis=axes, keepdims=keepdim)
        elif ord == 1:
            r = np.sum(work, axis=axes, keepdims=keepdim)
        elif (all(x.shape[i] == 1 for i in axes) and (a.ndim or every)):
            # one element per result: PyTorch's reduction passes it through, unpowered (p = 0.001
            # or NaN give |x|, p = 2 of 1e200 no inf); a 0-d tensor with a dim (pairwise_distance's,
            # norm(x, p, -1)) is computed
            r = np.sum(work, axis=axes, keepdims=keepdim)
        elif ord == 2:
            # (the input ATen reads: ``a`` itself, or ``a`` cast to the result's dtype: to()'s copy keeps
            # a dense tensor's strides, C order for another)
            r = _norm2(work, a if a.dtype == x.dtype else x if type(a) is not np.ndarray or dense(a) else
                       np.ascontiguousarray(x), axes, keepdim)
            if r is None:
                r = np.sqrt(np.sum(work * work, axis=axes, keepdims=keepdim))
        else:
            r = np.sum(work ** ord, axis=axes, keepdims=keepdim) ** (1.0 / ord)
    if x.size == 0:  # PyTorch fills the norm of an empty tensor with zeros (a NaN ord too)
        return np.zeros(np.shape(r), dtype)
    return np.asarray(r).astype(dtype, copy=False)


_vector_norm = Op("LinalgVectorNormBackward0", _vector_norm_fwd, saves=("self", "result"), contiguous=True)


@_vector_norm.derivative
@_quiet
def _(ctx, grad):
    x = ctx.self  # (PyTorch's formula takes self as it is: a dtype= norm's grad is wider)
    p = float(ctx.ord)
    norm = ctx.result
    axes = ctx.axes
    # PyTorch's norm_backward unsqueezes the reduced dims only when ``dim`` was given (``every``:
    # dim=None or []; the 0-d grad and norm then broadcast as they are)
    if not ctx.keepdim and x.ndim != 0 and not getattr(ctx, "every", False):
        grad = _unsqueeze_dims(grad, x.shape, axes, False)
        norm = _unsqueeze_dims(norm, x.shape, axes, False)
    return norm_backward(grad, x, p, norm, axes)


def _norm_dtype(dtype, x_dtype, fn):
    """check_linalg_norm_dtype: a float ``dtype`` the input's dtype widens to."""
    if not dtype.is_floating_point:
        raise RuntimeError(f"{fn}: dtype should be floating point or complex, but got {_scalar_name(dtype)}")
    if dtypes.promote_types(x_dtype, dtype) is not dtype:
        raise RuntimeError(f"{fn}: the dtype of the input ({_scalar_name(x_dtype)}) should be convertible without "
                           f"narrowing to the specified dtype ({_scalar_name(dtype)})")
    return dtype


def _number(v):
    """PyTorch's parser takes a 0-d tensor that does not require grad for a Number: its value (a bool's as
    an int, as a Scalar of a bool converts to a double)."""
    if isinstance(v, Tensor) and v.ndim == 0 and not v.requires_grad:
        v = v.item()
    return int(v) if isinstance(v, (bool, np.bool_)) else v


@export("vector_norm", linalg=True, torch=False)
def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    """torch.linalg.vector_norm: (sum |x|^ord)^(1/ord) over ``dim`` (all by default)."""
    if not x.dtype.is_floating_point:
        raise RuntimeError(
            f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got {_scalar_name(x.dtype)}")
    ord = _number(ord)
    if isinstance(ord, bool) or not isinstance(ord, numbers.Number):  # (the wrapper's parse words it)
        raise TypeError(f"linalg_vector_norm(): argument 'ord' must be Number, not {type(ord).__name__}")
    d = x.dtype if dtype is None else _norm_dtype(dtypes.lookup(dtype), x.dtype, "linalg.vector_norm")
    every = dim is None or (isinstance(dim, (list, tuple)) and len(dim) == 0)
    if every:
        axes = tuple(range(x.ndim))
    else:
        axes = _axes(dim, x.ndim)
    if x.numel() == 0 and (ord < 0 or math.isinf(ord)):
        if every:
            _no_identity(ord)
        for given in [dim] if isinstance(dim, numbers.Integral) else dim:
            if x.shape[given] == 0:
                raise empty_dim_refusal(ord, given)
    result = _vector_norm.apply((x,), (x._data,), {"ord": ord, "axes": axes, "keepdim": bool(keepdim),
                                                   "dtype": d.numpy, "every": every})
    return finish_out("linalg_vector_norm", result, out)


def empty_dim_refusal(ord, dim):
    """vector_norm's error for a p < 0 or infinite norm over an empty dim (the dim as given, and PyTorch's
    missing space)."""
    return RuntimeError(f"linalg.vector_norm cannot compute the {float(ord):g} norm on the dimension {dim}because "
                        "this dimension is empty and the operation does not have an identity")


def _no_identity(ord):
    raise RuntimeError(f"linalg.vector_norm cannot compute the {float(ord):g} norm on an empty tensor because the "
                       "operation does not have an identity")


@export()
def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    """torch.norm: the vector p-norm (``'fro'`` is the 2-norm) over ``dim`` (all by default)."""
    if isinstance(dim, numbers.Integral):
        dim = [dim]
    if isinstance(p, str):
        if p == "fro" and (dim is None or len(dim) <= 2):
            return vector_norm(input, 2, dim, keepdim, dtype=dtype, out=out)
        # the nuclear norm, or matrix_norm's error (over all the dims by default)
        return _matrix_norm_impl(input, p, list(range(input.ndim)) if dim is None else dim, keepdim, dtype=dtype,
                                 out=out)
    p = 2.0 if p is None else _number(p)
    if isinstance(p, bool) or not isinstance(p, numbers.Number):  # (torch.norm passes it on by position)
        raise TypeError(f"linalg_vector_norm(): argument 'ord' (position 2) must be Number, not {type(p).__name__}")
    return vector_norm(input, p, dim, keepdim, dtype=dtype, out=out)


@method("norm")
def _norm_method(input, p="fro", dim=None, keepdim=False, dtype=None):
    """Tensor.norm (torch/_tensor.py's: no ``out``; a fourth positional argument is the dtype)."""
    return norm(input, p, dim, keepdim, dtype=dtype)


_norm_method.__qualname__ = "Tensor.norm"


def _dist_fwd(ctx, a, b, p):
    with np.errstate(all="ignore"):
        diff = a - b
    return _vector_norm_fwd(ctx, diff, float(p), tuple(range(diff.ndim)), False, diff.dtype, every=True)


_dist = Op("DistBackward0", _dist_fwd, inputs=("self", "other"), saves=("self", "other", "result"))


def norm_backward(grad, x, p, norm, axes):
    """PyTorch's norm_backward: d||x||_p / dx times ``grad``; ``grad`` and ``norm``
    are kept (broadcastable) along the reduced ``axes``.  ``x`` keeps its dtype (a ``dtype=``
    norm's gradient is a wider one: the formula's products promote).  Its steps are recorded
    in the order PyTorch's build makes them (GCC evaluates the right operand of ``a * b``
    first), which decides the order gradients add up in (a ZeroTensor from ``sgn`` first or
    last keeps or clears a ``-0.0``)."""
    p = float(p)
    if p == 0.0:
        return None
    if p == 1.0:
        return sgn(x) * grad
    if p == 2.0:
        return grad * (x / norm).masked_fill_(norm == 0, 0)  # (FunctionsManual's in-place masked_fill_s)
    if math.isinf(p):
        x_abs = x.abs()
        mask = (x_abs == norm) | isnan(x_abs)
        scaled = (grad / mask.sum(axes, keepdim=True)) * mask
        return sgn(x) * scaled
    if p < 1.0:
        powered = x.abs().pow(p - 1).masked_fill_(x == 0, 0)
        x_scaled = sgn(x) * powered
        norm_pow = norm.pow(1 - p)
        return x_scaled * grad * norm_pow
    if p < 2.0:
        powered = x.abs().pow(p - 1)
        x_scaled = sgn(x) * powered
    else:  # (also a NaN p)
        x_scaled = x * x.abs().pow(p - 2)
    return x_scaled * (grad / norm.pow(p - 1)).masked_fill_(norm == 0, 0)


@_dist.derivative
@_quiet
def _(ctx, grad):
    # each input's formula on its own (self - other and norm_backward made twice, as PyTorch's graph shows)
    g_self = g_other = None
    if should_compute_output(ctx, 0):
        diff = ctx.self - ctx.other
        g_self = norm_backward(grad, diff, ctx.p, ctx.result, tuple(range(diff.ndim)))
    if should_compute_output(ctx, 1):
        diff = ctx.self - ctx.other
        g = norm_backward(grad, diff, ctx.p, ctx.result, tuple(range(diff.ndim)))
        if g is None:  # PyTorch negates the undefined p=0 gradient for `other` and fails
            raise RuntimeError("Expected a proper Tensor but got None (or an undefined Tensor in C++) for "
                               "argument #0 'self'")
        g_other = -g
    return g_self, g_other


@export(method=True)
def dist(input, other, p=2):
    """The p-norm of input - other (broadcast)."""
    from .pointwise import _mismatch_message, check_sub, operands
    ts, arrs = operands(input, other, "dist")
    check_sub(input, other)  # (dist is norm(input - other): the subtraction's checks first)
    try:
        np.broadcast_shapes(arrs[0].shape, arrs[1].shape)
    except ValueError:
        raise RuntimeError(_mismatch_message(arrs[0].shape, arrs[1].shape)) from None
    if not arrs[0].dtype.kind == "f":
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. Got "
                           f"{_scalar_name(dtypes.from_numpy(arrs[0].dtype))} instead.")
    if (0 in np.broadcast_shapes(arrs[0].shape, arrs[1].shape) and isinstance(p, numbers.Number)
            and (p < 0 or math.isinf(p))):
        _no_identity(p)  # (norm of the empty difference)
    return _dist.apply(ts, arrs, {"p": p})


# fill_diagonal_ ----------------------------------------------------------------------------

@method("fill_diagonal_")
def fill_diagonal_(input, fill_value, wrap=False):
    """ATen's: ``as_strided([min(h, w)], [sum of the strides]).fill_(value)`` (all dims equal
    beyond two), then for a tall matrix with ``wrap`` the diagonals below, one more fill_ through a
    view starting ``stride(0) * (w + 1)`` elements in (each a CopySlices on the tensor's graph)."""
    from .indexing import _alias
    if type(wrap) is not bool or not isinstance(fill_value, (numbers.Number, Tensor)):
        raise TypeError("fill_diagonal_")  # (the parser's error replaces it: agrad/ops/_argcheck.py)
    a = input._data
    if a.ndim < 2:
        raise RuntimeError("dimensions must larger than 1")
    if a.ndim > 2 and any(n != a.shape[0] for n in a.shape[1:]):
        raise RuntimeError("all dimensions of input must be of equal length")
    height, width = a.shape[:2]
    stride = sum(a.strides)

    def fill_through(arr):
        _view(_alias, input, arr, {}).fill_(fill_value)

    fill_through(np.lib.stride_tricks.as_strided(a, (min(height, width),), (stride,)))
    if wrap and a.ndim == 2 and height > width + 1:
        step = width + 1
        count = (a.size + step - 1) // step - min(height, width)
        start = a[width + 1:] if a.strides[0] >= 0 else None
        if start is not None and count > 0:
            fill_through(np.lib.stride_tricks.as_strided(start, (count,), (stride,)))
    return input


# renorm -------------------------------------------------------------------------------------------------

def _renorm_fwd(ctx, a, p, dim, maxnorm):
    """ATen's renorm_out: the p-norm of each slice along ``dim`` (float16: in float32), the factor
    ``maxnorm / (norm + 1e-7)`` where the norm exceeds maxnorm (1 elsewhere) in the input's dtype,
    then ``self * factor``."""
    from ..autograd import grad_mode
    a = materialized(a)  # (a kernel of its own, no ZeroTensor one: its result is a plain tensor)
    reduce = tuple(d for d in range(a.ndim) if d != dim)
    with grad_mode.no_grad():
        x = Tensor._make(a)
        wide = dtypes.float32 if x.dtype is dtypes.float16 else None
        norm = vector_norm(x, p, reduce, True, dtype=wide)._data
    t = norm.dtype.type  # (float16: the factor in float32, then rounded to float16)
    with np.errstate(all="ignore"):
        factor = np.where(norm > t(maxnorm), t(maxnorm) / (norm + t(1e-7)), t(1)).astype(a.dtype)
        return (a * factor).astype(a.dtype, copy=False)


_renorm = Op("RenormBackward0", _renorm_fwd, saves=("self",), contiguous=True)  # (ATen allocates its out so)


@_renorm.derivative
def _(ctx, grad):
    from .nn import add_scalar, mul_scalar
    from .selection import where
    # renorm_backward: the norm (and the gradient's projection) in the accumulate dtype (double on the CPU)
    x = ctx.self
    reduce = tuple(d for d in range(x.ndim) if d != ctx.dim)
    acc = dtypes.float32 if x.dtype is dtypes.float16 else dtypes.float64
    norm = vector_norm(x, ctx.p, reduce, True, dtype=acc)
    grad_output = (x * grad).sum(reduce, keepdim=True, dtype=acc)
    nb = norm_backward(grad_output, x, ctx.p, norm, reduce)
    invnorm = add_scalar(norm, 1e-7).reciprocal()
    diff = grad - invnorm * nb  # (GCC's right operand of maxnorm * invnorm * (...) first)
    grad_norm = mul_scalar(invnorm, ctx.maxnorm) * diff
    return where(norm > ctx.maxnorm, grad_norm.to(grad.dtype), grad)


def _renorm_checks(input, p, dim, maxnorm):
    """renorm's meta function's checks, then its kernel's norm's dtype check (all before renorm_'s
    overlap error, which its last step, a mul into self, raises); the wrapped dim."""
    p, maxnorm = float(p), float(maxnorm)
    if not p > 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if not maxnorm >= 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    if input.ndim <= 1:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {input.ndim} dimensions")
    d = _wrap_dim(dim, input.ndim)
    if not input.dtype.is_floating_point:
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                           f"{_scalar_name(input.dtype)}")
    return p, d, maxnorm


@export(method=True)
def renorm(input, p, dim, maxnorm, *, out=None):
    """Each slice of ``input`` along ``dim`` whose p-norm exceeds ``maxnorm``, scaled to ``maxnorm``."""
    p, d, maxnorm = _renorm_checks(input, p, dim, maxnorm)
    result = _renorm.apply((input,), (input._data,), {"p": p, "dim": d, "maxnorm": maxnorm})
    return finish_out("renorm", result, out)


method("renorm_")(inplace(renorm, partial=True, first=_renorm_checks))
