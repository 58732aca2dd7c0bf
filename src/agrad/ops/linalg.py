"""Matrix products: mm, mv, dot, bmm and matmul dispatching to them as PyTorch does;
outer, vecdot and addmm/addmv/addbmm/baddbmm (einsum, tensordot, inner and kron are
in ``contractions.py``).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from .._limits import check_numel, check_shape
from .._zero import any_zero, zeros
from ..tensor import Tensor, _scalar_name, _wrap_dim_no_scalar
from ._op import Op, export, finish_out, inplace, method
from ._out_alias import product_into
from ._outs import matrix_out
from ._product_checks import _bmm_dtypes, _c, _same_dtype
from ._gemm_order import (DDOT_MAX, baddbmm_f32, baddbmm_one_term, bmm_product, ddot_lanes, dgemm_zero_signs, dot_lanes,
                          gemv_one_column, mkl_addmv, mkl_gemv, mkl_product, sdot_aligned)
from .views import _unsafe_view, squeeze_inplace_dim
from .._warn_once import warn as _warn


def _recording(inputs) -> bool:
    from ..autograd.graph import is_recording
    return is_recording([t for t in inputs if isinstance(t, Tensor)])


def _csize(t, d):
    """C++'s ``t.size(d)``: PyTorch's IndexError for a dim ``t`` lacks (before any other check)."""
    return t._data.shape[_wrap_dim_no_scalar(d, t.ndim)]


def _no_bool(t, kernel, *sizes):
    """The CPU kernels take numbers only; mm, mv and bmm return before them for an empty product."""
    if t.dtype.name == "bool" and all(sizes):
        raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')


def _dims(t, n, who):
    if t.ndim != n:
        raise RuntimeError(f"{who}: Expected {n}-D argument {'self' if True else ''}, but got {t.ndim}-D")


def _column_major(a):
    """Whether a matrix is laid out column-major (strides (1, rows)): PyTorch's mm backward then
    computes that input's gradient transposed, so that it has the input's layout."""
    s = getattr(a, "strides", None)  # (a lazy array has no layout)
    if s is not None and not a.size:  # (an empty one: its strides as Tensor.stride() reports them)
        from ..tensor import _element_strides
        s = _element_strides(a)
        return s[0] == 1 and s[1] == a.shape[0]
    return s is not None and s[0] == a.itemsize and s[1] == a.shape[0] * a.itemsize


def _gemm(a, b):
    """a @ b of two matrices, with the signs of zero PyTorch's CPU BLAS gives: a sum starts from +0.0
    (a zero result is +0.0, where numpy's own loops may give -0.0), except a one-term product (k = 1)
    of at least 2 rows and 2 columns in float32/float64, which BLAS writes as the plain product.
    A float32/float64 product of two C- or F-contiguous matrices is numpy's BLAS call (gemm, or
    syrk for a @ a.T), whose sums start from +0.0 too: no pass to add +0.0 to its result."""
    if a.shape[1] == 1 and a.shape[0] > 1 and b.shape[1] > 1 and a.dtype.kind == "f" and a.dtype.itemsize >= 4:
        return np.multiply(a, b)
    if a.dtype == b.dtype and a.dtype.char in "fd" and type(a) is np.ndarray and type(b) is np.ndarray:
        r = mkl_product(a, b)  # MKL's order of additions where it is known (ops/_gemm_order.py)
        if r is not None:
            return r + a.dtype.type(0)
    r = a @ b
    if r.dtype.kind == "f":
        if r.dtype.char in "fd" and _blas_laid(a) and _blas_laid(b):
            return r
        r += 0.0
    return r


def _blas_laid(m):
    """A numpy matrix BLAS reads as it is (lazy or device arrays: no, the +0.0 pass stays)."""
    if type(m) is not np.ndarray:
        return False
    f = m.flags
    return f.c_contiguous or f.f_contiguous


def _plus_zero(r):
    """A sum of products as BLAS gives it: a zero is +0.0 (mv, dot, bmm)."""
    return r + 0.0 if r.dtype.kind == "f" else r


def _mm_fwd(ctx, a, b):
    ctx.layout = (_column_major(a), _column_major(b))
    return _gemm(a, b)


_mm = Op("MmBackward0", _mm_fwd, inputs=("self", "mat2"), saves=("self", "mat2"),
         saves_for={"self": (1,), "mat2": (0,)}, jvp="multilinear")


def _mm_mat1_backward(grad, mat2, column_major):
    """mm_mat1_backward: grad @ mat2^T, as (mat2 @ grad^T)^T for a column-major mat1."""
    return mat2.mm(grad.t()).t() if column_major else grad.mm(mat2.t())


def _mm_mat2_backward(grad, mat1, column_major):
    """mm_mat2_backward: mat1^T @ grad, as (grad^T @ mat1)^T for a column-major mat2."""
    return grad.t().mm(mat1).t() if column_major else mat1.t().mm(grad)


@_mm.derivative
def _(ctx, grad):
    c1, c2 = ctx.layout
    # (mat2's first: PyTorch's node computes its inputs' gradients in the order of their names)
    g_mat2 = _mm_mat2_backward(grad, ctx.self, c2) if ctx.needs(1) else None
    return (_mm_mat1_backward(grad, ctx.mat2, c1) if ctx.needs(0) else None), g_mat2


@_mm.raw_derivative
def _(ctx, g):
    c1, c2 = ctx.layout
    return ((_gemm(ctx.mat2._data, g.T).T if c1 else _gemm(g, ctx.mat2._data.T)) if ctx.needs(0) else None,
            (_gemm(g.T, ctx.self._data).T if c2 else _gemm(ctx.self._data.T, g)) if ctx.needs(1) else None)


@export(method=True)
def mm(input, mat2, *, out=None):
    if input.ndim != 2:
        raise RuntimeError(f"self must be a matrix")
    if mat2.ndim != 2:
        raise RuntimeError(f"mat2 must be a matrix")
    (n, m), (k, p) = input._data.shape, mat2._data.shape
    if m != k:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{m} and {k}x{p})")
    matrix_out("mm", (input, mat2), input.dtype, (n, p), out)  # (mm's meta: out's dtype is self's)
    _same_dtype(input, mat2, "mm")
    _no_bool(input, "addmm_impl_cpu_", n, m, p)
    check_shape((n, p))
    return finish_out("mm", product_into("mm", (input, mat2), _mm(input, mat2), out), out)


def _mv_fwd(ctx, a, v):
    """A float32 mv is MKL's sgemv in its order of additions (ops/_gemm_order.py), a float64 one of two rows or
    more its dgemv."""
    if (a.dtype == v.dtype and (a.dtype == np.float32 or a.dtype == np.float64 and a.shape[0] > 1)
            and type(a) is np.ndarray and type(v) is np.ndarray and a.shape[0]):
        r = mkl_gemv(a, v)
        if r is not None:
            return _plus_zero(r)
    return _plus_zero(a @ v)


_mv = Op("MvBackward0", _mv_fwd, inputs=("self", "vec"), saves=("self", "vec"),
         saves_for={"self": (1,), "vec": (0,)}, jvp="multilinear")


@_mv.derivative
def _(ctx, grad):
    return (grad.reshape(grad._data.shape[0], 1) * ctx.vec if ctx.needs(0) else None,  # grad.ger(vec): outer's reshape
            ctx.self.t().mv(grad) if ctx.needs(1) else None)


@export(method=True)
def mv(input, vec, *, out=None):
    if input.ndim == 0:  # (ATen sizes its result by input.size(0) first)
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    # mv_out is addmv_out with self an out of at most one dim and n or 1 elements, else a new vector of vec's dtype
    kept = out is not None and out.ndim <= 1 and out.numel() in (input.shape[0], 1)
    if input.ndim != 2 or vec.ndim != 1:
        raise RuntimeError(
            f"vector + matrix @ vector expected, got {out.ndim if kept else 1}, {input.ndim}, {vec.ndim}")
    n, m = input._data.shape
    if m != vec._data.shape[0]:
        if kept and not out.ndim:  # (addmv's message reads self.size(0) of that 0-dim self)
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        raise RuntimeError(f"size mismatch, got input ({out.shape[0] if kept else n}), mat ({n}x{m}), "
                           f"vec ({vec._data.shape[0]})")
    _addmv_dtypes(out if kept else vec, input, vec)
    matrix_out("mv", (input, vec), vec.dtype, (n,), out)
    _no_bool(input, "addmv_impl_cpu", n, m)
    return finish_out("mv", product_into("mv", (input, vec), _mv(input, vec), out), out)


def _dot_fwd(ctx, a, b):
    """A float32 dot is MKL's sdot in its order of additions: contiguous vectors in lanes (_gemm_order.py's
    dot_lanes, by alignment sdot_aligned), a strided one a plain sequential sum; a float64 one MKL's ddot's
    (ddot_lanes). A ZeroTensor on either side: a ZeroTensor (dot's kernel for them)."""
    if any_zero(a, b):
        return zeros((), np.result_type(a, b))
    if a.dtype == np.float32 == b.dtype and type(a) is np.ndarray and type(b) is np.ndarray and a.shape[0] > 1:
        if a.flags.c_contiguous and b.flags.c_contiguous:
            return _plus_zero(np.asarray(sdot_aligned(a, b) if a.shape[0] < 8192 else dot_lanes(a, b), np.float32))
        return _plus_zero(np.cumsum(a * b, dtype=np.float32)[-1])
    if a.dtype == np.float64 == b.dtype and type(a) is np.ndarray and type(b) is np.ndarray \
            and 1 < a.shape[0] <= DDOT_MAX:
        return _plus_zero(np.asarray(ddot_lanes(a, b), np.float64))
    return _plus_zero(np.asarray(np.dot(a, b)))


_dot = Op("DotBackward0", _dot_fwd, inputs=("self", "tensor"),
          saves=("self", "tensor"), saves_for={"self": (1,), "tensor": (0,)}, jvp="multilinear")


@_dot.derivative
def _(ctx, grad):
    return (grad * ctx.tensor if ctx.needs(0) else None,
            grad * ctx.self if ctx.needs(1) else None)


@export(method=True)
def dot(input, tensor, *, out=None):
    if out is not None:
        return _dot_out("dot", dot, input, tensor, out)
    if input.ndim != 1 or tensor.ndim != 1:
        raise RuntimeError(
            f"1D tensors expected, but got {input.ndim}D and {tensor.ndim}D tensors")
    _same_dtype(input, tensor, "dot")
    n, k = input._data.shape[0], tensor._data.shape[0]
    if n != k:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{n}] and src [{k}] to have the same number of "
            f"elements, but got {n} and {k} elements respectively")
    _no_bool(input, "dot")
    return finish_out("dot", _dot(input, tensor), out)


def _dot_out(fname, fn, input, other, out):
    """dot_out/vdot_out: out is resized to 0-d first (resize_output, with its warning), its dtype
    must be the first input's, then the product's own checks run and it is filled in."""
    from ..autograd import grad_mode
    from ._outs import _resize_out, warn_resized

    if grad_mode._state["enabled"] and any(isinstance(t, Tensor) and t._requires_grad for t in (input, other, out)):
        raise RuntimeError(f"{fname}(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")
    if out.shape != ():
        if out._data.size:
            warn_resized(out.shape, ())
        _resize_out(out, np.empty((), out._data.dtype))
    if out.dtype is not input.dtype:
        raise RuntimeError(f"result dtype {_scalar_name(out.dtype)} does not match input dtype {_scalar_name(input.dtype)}")
    return finish_out(fname, fn(input, other), out)


_vdot = Op("VdotBackward0", _dot_fwd, inputs=("self", "other"),  # real tensors: ATen's vdot calls at::dot
           saves=("self", "other"), saves_for={"self": (1,), "other": (0,)}, jvp="multilinear")


@_vdot.derivative
def _(ctx, grad):
    # derivatives.yaml: self: grad.conj() * other, other: grad * self (real tensors: no conj)
    return (grad * ctx.other if ctx.needs(0) else None,
            grad * ctx.self if ctx.needs(1) else None)


@export(method=True)
def vdot(input, other, *, out=None):
    """The dot product of two 1-D tensors, the first conjugated (real tensors: dot)."""
    if out is not None:
        return _dot_out("vdot", vdot, input, other, out)
    if input.ndim != 1 or other.ndim != 1:
        raise RuntimeError(
            f"1D tensors expected, but got {input.ndim}D and {other.ndim}D tensors")
    _same_dtype(input, other, "dot")
    n, k = input._data.shape[0], other._data.shape[0]
    if n != k:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{n}] and src [{k}] to have the same number of "
            f"elements, but got {n} and {k} elements respectively")
    _no_bool(input, "dot")
    return finish_out("vdot", _vdot(input, other), out)


def _bmm_fwd(ctx, a, b):
    """A float32/float64 bmm in PyTorch's order: its own loop (sequential sums) for matrices of fewer than 400
    multiply-adds, MKL's sgemm per matrix (ops/_gemm_order.py) from there (dgemm: numpy's)."""
    if (a.dtype == b.dtype and a.dtype.char in "fd" and type(a) is np.ndarray and type(b) is np.ndarray
            and a.shape[2] > 1):
        r = bmm_product(a, b)
        if r is not None:
            return _plus_zero(r)
    return _plus_zero(np.matmul(a, b))


_bmm = Op("BmmBackward0", _bmm_fwd, inputs=("self", "mat2"), saves=("self", "mat2"),
          saves_for={"self": (1,), "mat2": (0,)}, jvp="multilinear")


@_bmm.derivative
def _(ctx, grad):
    # (mat2's first: PyTorch's node computes its inputs' gradients in the order of their names)
    g_mat2 = ctx.self.transpose(1, 2).bmm(grad) if ctx.needs(1) else None
    return (grad.bmm(ctx.mat2.transpose(1, 2)) if ctx.needs(0) else None), g_mat2


@export(method=True)
def bmm(input, mat2, *, out=None):
    if input.ndim != 3:
        raise RuntimeError(f"batch1 must be a 3D tensor")
    if mat2.ndim != 3:
        raise RuntimeError(f"batch2 must be a 3D tensor")
    b, n, m = input._data.shape
    if mat2._data.shape[0] != b or mat2._data.shape[1] != m:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{b}, {m}] but got: "
            f"[{mat2._data.shape[0]}, {mat2._data.shape[1]}].")
    matrix_out("bmm", (input, mat2), mat2.dtype, (b, n, mat2._data.shape[2]), out)  # (the meta: batch2's dtype)
    _no_bool(input, "bmm", b, n, m, mat2._data.shape[2])  # (the kernel's dispatch on self's dtype comes first)
    if input.dtype is not mat2.dtype and not (b and n and m and mat2._data.shape[2]):
        # nothing to multiply: the kernel only zeroes its result (of mat2's dtype), no dtype check
        return finish_out("bmm", _bmm.apply((input, mat2), (input._data.astype(mat2._data.dtype), mat2._data), {}), out)
    _bmm_dtypes(input, mat2, out)
    check_shape((b, n, mat2._data.shape[2]))
    return finish_out("bmm", product_into("bmm", (input, mat2), _bmm(input, mat2), out), out)


def _unsafe(t, shape):
    return _unsafe_view.apply((t,), (t._data,), {"shape": tuple(shape)})


@export(method=True)
def matmul(input, other, *, out=None):
    """a @ b, dispatched as PyTorch dispatches it, so the node names match."""
    if not isinstance(other, Tensor) or not isinstance(input, Tensor):
        raise TypeError(f"matmul(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}")
    d1, d2 = input.ndim, other.ndim
    if d1 == 0 or d2 == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {d1}D and {d2}D")
    if out is not None:  # (out handed to the product matmul dispatches to)
        from ._matmul_out import matmul_out
        return matmul_out(input, other, out)
    if d1 == 1 and d2 == 1:
        r = dot(input, other)
    elif d1 == 2 and d2 == 1:
        r = mv(input, other)
    elif d1 == 1 and d2 == 2:
        r = squeeze_inplace_dim(mm(input.unsqueeze(0), other), 0)
    elif d1 == 2 and d2 == 2:
        r = mm(input, other)
    elif _should_fold(input, other):
        r = _folded(input, other)
    else:
        r = _batched(input, other)
    return finish_out("matmul", r, out)


def _should_fold(a, b, has_out=False):
    """PyTorch's rule for computing a batched product as one mm/mv on folded rows (with an out=, the
    second operand's requires_grad plays no part)."""
    larger = a.ndim >= b.ndim
    t1 = a if larger else b.mT
    small = b if larger else a
    if not (t1.ndim >= 3 and small.ndim <= 2):
        return False
    if small.requires_grad and not has_out:
        return True
    if a.ndim == 2:
        return False
    if t1.numel() == 0:
        return True
    shape, strides = t1._data.shape, t1._data.strides
    return all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(t1.ndim - 2))


def _folded(a, b):
    transpose = b.ndim > a.ndim
    t1 = b.mT if transpose else a
    t2 = (a.t() if a.ndim == 2 else a) if transpose else b
    shape = t1._data.shape[:-1]
    rows = int(np.prod(shape))
    folded = t1.reshape(rows, t1._data.shape[-1])
    if t2.ndim == 2:
        r = _unsafe(mm(folded, t2), shape + t2._data.shape[1:])
        return r.mT.contiguous() if transpose else r
    return _unsafe(mv(folded, t2), shape)


def _batched(a, b):
    d1, d2 = a.ndim, b.ndim
    batch1, batch2 = a._data.shape[:max(d1 - 2, 0)], b._data.shape[:max(d2 - 2, 0)]
    if d1 == 3 and d2 == 3 and batch1[0] != batch2[0]:
        if batch1[0] == 1 and a.requires_grad:
            return matmul(a.squeeze(0), b)
        if batch2[0] == 1 and b.requires_grad:
            return matmul(a, b.squeeze(0))
    left, right, shape = batched_operands(a, b)
    prod = bmm(left, right)
    return _unsafe(prod.squeeze(-1) if d2 == 1 else prod, shape)


def batched_operands(a, b):
    """matmul's batched case as ATen's _matmul_impl folds it: ``a`` and ``b`` expanded to the broadcast batch
    and reshaped to (size, n, m) and (size, m, p) (``b`` a vector: a (size, m, 1) column), and the result's
    shape."""
    d1, d2 = a.ndim, b.ndim
    batch1, batch2 = tuple(a._data.shape[:max(d1 - 2, 0)]), tuple(b._data.shape[:max(d2 - 2, 0)])
    n = a._data.shape[-2] if d1 > 1 else 1
    m1 = a._data.shape[-1]
    m2 = b._data.shape[-2] if d2 > 1 else b._data.shape[0]
    p = b._data.shape[-1] if d2 > 1 else 1
    try:
        batch = tuple(np.broadcast_shapes(batch1, batch2))
    except ValueError:
        from .pointwise import _mismatch_message
        raise RuntimeError(_mismatch_message(batch1, batch2)) from None
    size = int(np.prod(batch))
    left = a.expand(batch + (n, m1)).reshape(size, n, m1)
    if d2 == 1:
        right = b.expand(batch + (m2,)).reshape(size, m2).unsqueeze(2)
    else:
        right = b.expand(batch + (m2, p)).reshape(size, m2, p)
    return left, right, batch + ((n,) if d1 > 1 else ()) + ((p,) if d2 > 1 else ())


# (Tensor.__matmul__ is operators.py's, which calls matmul: an eager family's)


# helpers ------------------------------------------------------------------------------

def _check_expand(self, shape):
    """PyTorch's expand error when ``self`` does not broadcast to the result ``shape``
    (and the size limit: the expanded view of the result's shape is checked)."""
    have = self._data.shape
    if have == shape or (len(have) == 1 and have[0] == shape[-1]):
        # the common cases (a bias of the result's shape, or of its last dim) broadcast
        n = 1
        for s in shape:
            n *= s
        check_numel(n)
        return
    Tensor._make(self._data).expand(shape)


def _scaled(t, s):
    """maybe_multiply: t * s unless s is 1."""
    return t if s == 1 else t * s


# outer / ger ----------------------------------------------------------------------------

@export("outer", method=True)
def outer(input, vec2, *, out=None):
    if input.ndim != 1:
        raise RuntimeError(f"outer: Expected 1-D argument self, but got {input.ndim}-D")
    if vec2.ndim != 1:
        raise RuntimeError(f"outer: Expected 1-D argument vec2, but got {vec2.ndim}-D")
    return finish_out("outer", input.reshape(input._data.shape[0], 1) * vec2, out)


@export("ger", method=True)
def ger(input, vec2, *, out=None):
    """outer; its out= (ger_out) warns of the deprecation (TORCH_WARN: every call), ger itself does not."""
    if out is not None:
        _warn("torch.ger is deprecated and will be removed in a future PyTorch release. Use torch.outer "
              "instead.", UserWarning)
    return outer(input, vec2, out=out)


export("matmul", linalg=True, torch=False)(matmul)


# addmm / addmv / addbmm / baddbmm ----------------------------------------------------------

def _add_scaled(self, prod, beta, alpha, blas=True):
    """beta * self + alpha * prod, with self ignored when beta is 0 (as BLAS does), and the
    product too when alpha is 0 where BLAS computes it (an inf in it gives no NaN); integer
    products take beta and alpha as integers (truncated, as Scalar.to<int64_t>() does)."""
    if prod.dtype.kind in "iu":
        beta, alpha = int(beta), int(alpha)
    if alpha == 0 and blas:  # (BLAS then scales C alone: beta * self, its -0.0 kept)
        return np.zeros_like(prod) if beta == 0 else np.array(np.broadcast_to(self * beta, prod.shape), prod.dtype)
    out = prod * alpha if alpha != 1 else prod
    if beta != 0:
        out = out + (self * beta if beta != 1 else self)
    return np.asarray(out, prod.dtype)


def _gemm_into_zero(s, a, b, beta, alpha):
    """addmm's BLAS call: with beta 0, gemm adds alpha * a @ b into a zeroed C, so a zero is +0.0 (also
    with a negative alpha), except the plain-product path of _gemm; float32/float64 only (ATen's
    own half gemm scales the sum in place: -0.0 stays). A float32 beta * self enters MKL's order of
    additions (ops/_gemm_order.py: the sequential kernels start from it), and so does an alpha (each
    kernel applies it where MKL's does: to a or b before, or to the sum after)."""
    if (alpha != 0 and beta != 0 and a.dtype == b.dtype == s.dtype and a.dtype.char in "fd" and a.shape[1] > 1
            and type(a) is np.ndarray and type(b) is np.ndarray):
        c = np.broadcast_to(s * a.dtype.type(beta) if beta != 1 else s, (a.shape[0], b.shape[1]))
        r = mkl_product(a, b, c.astype(a.dtype), alpha=None if alpha == 1 else alpha)
        if r is not None:
            return r
    if (beta != 0 and a.shape[1] == 1 and a.dtype.char in "fd" and b.dtype == a.dtype
            and type(a) is type(b) is np.ndarray):
        # a one-term product added into C (beta not 0): the plain product, its -0.0 kept, for one row or one
        # column too (gemm's own rule for 2 x 2 and more, _gemm)
        return _add_scaled(s, np.multiply(a, b), beta, alpha)
    if (alpha not in (0, 1) and beta == 0 and a.dtype == np.float32 == b.dtype and a.shape[1] > 1
            and type(a) is np.ndarray and type(b) is np.ndarray):
        r = mkl_product(a, b, alpha=alpha)  # (alpha where MKL's kernel applies it; C zeroed: +0.0)
        if r is not None:
            return r + np.float32(0)
    out = _add_scaled(s, _gemm(a, b), beta, alpha)
    if beta == 0 and out.dtype.char in "fd" and not (a.shape[1] == 1 and a.shape[0] > 1 and b.shape[1] > 1):
        out = out + 0.0
    elif (beta != 0 and out.dtype == np.float64 == a.dtype == b.dtype and a.shape[1] > 1
          and type(a) is type(b) is np.ndarray and (alpha == 1 or b.shape[1] > 1)):  # (dgemm's sums from C: its zero signs)
        out = dgemm_zero_signs(np.array(out), a, b, np.broadcast_to(s * beta if beta != 1 else s, out.shape), alpha)
    return out


def _addmm_fwd(ctx, s, a, b, beta, alpha):
    ctx.layout = (_column_major(a), _column_major(b))
    return _gemm_into_zero(s, a, b, beta, alpha)


_addmm = Op("AddmmBackward0", _addmm_fwd, inputs=("self", "mat1", "mat2"), saves=("mat1", "mat2"),
            saves_for={"mat1": (2,), "mat2": (1,)}, jvp="affine")


@_addmm.derivative
def _(ctx, grad):
    meta = ctx._input_meta
    c1, c2 = ctx.layout
    g_self = _scaled(grad, ctx.beta) if meta[0] is not None else None
    g1 = _scaled(_mm_mat1_backward(grad, ctx.mat2, c1), ctx.alpha) if meta[1] is not None else None
    g2 = _scaled(_mm_mat2_backward(grad, ctx.mat1, c2), ctx.alpha) if meta[2] is not None else None
    return g_self, g1, g2


@_addmm.raw_derivative
def _(ctx, g):
    meta, alpha = ctx._input_meta, ctx.alpha
    c1, c2 = ctx.layout
    g_self = _scaled(g, ctx.beta) if meta[0] is not None else None
    g1 = (_scaled(_gemm(ctx.mat2._data, g.T).T if c1 else _gemm(g, ctx.mat2._data.T), alpha)
          if meta[1] is not None else None)
    g2 = (_scaled(_gemm(g.T, ctx.mat1._data).T if c2 else _gemm(ctx.mat1._data.T, g), alpha)
          if meta[2] is not None else None)
    return g_self, g1, g2


@export(method=True)
def addmm(input, mat1, mat2, *, beta=1, alpha=1, out=None):
    for a, b, names in ((input, mat2, "self and mat2"), (mat1, mat2, "mat1 and mat2")):  # addmm's meta, first
        if isinstance(a, Tensor) and isinstance(b, Tensor) and a.dtype is not b.dtype:
            raise RuntimeError(f"{names} must have the same dtype, but got {_scalar_name(a.dtype)} and "
                               f"{_scalar_name(b.dtype)}")
    if mat1.ndim != 2:
        raise RuntimeError(f"mat1 must be a matrix, got {mat1.ndim}-D tensor")
    if mat2.ndim != 2:
        raise RuntimeError(f"mat2 must be a matrix, got {mat2.ndim}-D tensor")
    (n, m), (k, p) = mat1._data.shape, mat2._data.shape
    if m != k:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{m} and {k}x{p})")
    _same_dtype(mat1, mat2, "addmm")
    matrix_out("addmm", (input, mat1, mat2), mat1.dtype, (n, p), out)
    _check_expand(input, (n, p))
    _no_bool(input, "addmm_impl_cpu_", n, m, p)
    result = _addmm.apply((input, mat1, mat2), (input._data, mat1._data, mat2._data), {"beta": beta, "alpha": alpha})
    return finish_out("addmm", result, out)


def _gemv(s, a, v, beta, alpha):
    """addmv's gemv: with beta 0, y is zeroed and alpha * a @ v added into it (a zero is +0.0, also with
    a negative alpha, in every float dtype); float32 in MKL's sgemv order (ops/_gemm_order.py)."""
    r = (mkl_addmv if a.shape[-1] > 1 else gemv_one_column)(s, a, v, beta, alpha)  # (float32 sgemv; one column)
    if r is not None:
        return r
    out = _add_scaled(s, a @ v, beta, alpha)
    if beta == 0 and out.dtype.kind == "f":
        out = out + out.dtype.type(0)
    return out


_addmv = Op("AddmvBackward0",
            lambda ctx, s, a, v, beta, alpha: _gemv(s, a, v, beta, alpha),
            inputs=("self", "mat", "vec"), saves=("mat", "vec"),
            saves_for={"mat": (2,), "vec": (1,)}, jvp="affine")


@_addmv.derivative
def _(ctx, grad):
    meta = ctx._input_meta
    g_self = _scaled(grad, ctx.beta) if meta[0] is not None else None
    g_mat = _scaled(grad.reshape(grad._data.shape[0], 1) * ctx.vec, ctx.alpha) if meta[1] is not None else None
    g_vec = _scaled(ctx.mat.t().mv(grad), ctx.alpha) if meta[2] is not None else None
    return g_self, g_mat, g_vec


def _addmv_dtypes(input, mat, vec):
    if not (input.dtype is mat.dtype is vec.dtype):
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {_scalar_name(input.dtype)}, "
                           f"{_scalar_name(mat.dtype)}, and {_scalar_name(vec.dtype)}")


@export(method=True)
def addmv(input, mat, vec, *, beta=1, alpha=1, out=None):
    if mat.ndim != 2 or vec.ndim != 1 or input.ndim > 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {input.ndim}, {mat.ndim}, {vec.ndim}")
    n, m = mat._data.shape
    size = input._data.shape[0] if input.ndim else 1
    if m != vec._data.shape[0] or not (size == n or size == 1):
        raise RuntimeError(f"size mismatch, got input ({size}), mat ({n}x{m}), vec ({vec._data.shape[0]})")
    _addmv_dtypes(input, mat, vec)
    matrix_out("addmv", (input, mat, vec), vec.dtype, (n,), out)
    _no_bool(input, "addmv_impl_cpu", n, m)
    result = _addmv.apply((input, mat, vec), (input._data, mat._data, vec._data), {"beta": beta, "alpha": alpha})
    return finish_out("addmv", result, out)


def _baddbmm_fwd(ctx, s, a, b, beta, alpha):  # (PyTorch's loop below 400 multiply-adds a matrix, then BLAS)
    r = baddbmm_f32(s, a, b, beta, alpha)  # (float32, float64's loop: _gemm_order's)
    r = baddbmm_one_term(s, a, b, beta, alpha) if r is None else r
    return r if r is not None else _add_scaled(s, np.matmul(a, b), beta, alpha, a.shape[1] * a.shape[2] * b.shape[2] >= 400)


_baddbmm = Op("BaddbmmBackward0", _baddbmm_fwd,
              inputs=("self", "batch1", "batch2"), saves=("batch1", "batch2"),
              saves_for={"batch1": (2,), "batch2": (1,)}, jvp="affine")


@_baddbmm.derivative
def _(ctx, grad):
    meta = ctx._input_meta
    g_self = _scaled(grad, ctx.beta) if meta[0] is not None else None
    g1 = _scaled(grad.bmm(ctx.batch2.transpose(1, 2)), ctx.alpha) if meta[1] is not None else None
    g2 = _scaled(ctx.batch1.transpose(1, 2).bmm(grad), ctx.alpha) if meta[2] is not None else None
    return g_self, g1, g2


def _check_batches(batch1, batch2):
    if batch1.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if batch2.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")


@export(method=True)
def baddbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    # baddbmm's meta: self expanded to the product's shape (the sizes read first), the dtypes, then the batches
    _check_expand(input, (_csize(batch1, 0), _csize(batch1, 1), _csize(batch2, 2)))
    if input.dtype is not batch1.dtype:
        raise RuntimeError(f"Input dtypes must be the same, got: input {_c(input)}, batch1: {_c(batch1)}, "
                           f"batch2: {_c(batch2)}")
    _check_batches(batch1, batch2)
    b, n, m = batch1._data.shape
    if batch2._data.shape[:2] != (b, m):
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{b}, {m}] but got: "
            f"[{batch2._data.shape[0]}, {batch2._data.shape[1]}].")
    matrix_out("baddbmm", (input, batch1, batch2), batch2.dtype, (b, n, batch2._data.shape[2]), out)
    _no_bool(input, "baddbmm", b, n, m, batch2._data.shape[2])  # (the dispatch on self's dtype first)
    _bmm_dtypes(batch1, batch2, out, "addmm")
    result = _baddbmm.apply((input, batch1, batch2), (input._data, batch1._data, batch2._data),
                            {"beta": beta, "alpha": alpha})
    return finish_out("baddbmm", product_into("baddbmm", (batch1, batch2), result, out, input, beta, alpha), out)


def _addbmm_fwd(ctx, s, a, b, beta, alpha):
    """addbmm_impl_: an addmm_ per batch into the result, beta on the first only (so -0.0 products stay
    -0.0 with beta 0, and each batch's sum rounds as BLAS's alpha * a @ b + result)."""
    shape = (a.shape[1], b.shape[2])
    if not a.shape[0]:  # (result.zero_() with beta 0, else result.mul_(beta))
        if beta == 0:
            return np.zeros(shape, s.dtype)
        scaled = s * s.dtype.type(beta) if s.dtype.kind in "fc" else _add_scaled(s, np.zeros(shape, s.dtype), beta, 0)
        return np.array(np.broadcast_to(scaled, shape))
    out = _gemm_into_zero(s, a[0], b[0], beta, alpha)
    for i in range(1, a.shape[0]):
        out = _gemm_into_zero(out, a[i], b[i], 1, alpha)
    return np.asarray(out, s.dtype) if getattr(out, "base", None) is None else np.array(out, s.dtype)  # (own storage)


_addbmm = Op("AddbmmBackward0", _addbmm_fwd,
             inputs=("self", "batch1", "batch2"), saves=("batch1", "batch2"),
              saves_for={"batch1": (2,), "batch2": (1,)}, jvp="affine")


@_addbmm.derivative
def _(ctx, grad):
    meta = ctx._input_meta
    g_self = _scaled(grad, ctx.beta) if meta[0] is not None else None
    g1 = g2 = None
    if meta[1] is not None:
        b2 = ctx.batch2
        g = grad.unsqueeze(0).expand((b2.shape[0],) + tuple(grad.shape))
        g1 = _scaled(g.bmm(b2.transpose(1, 2)), ctx.alpha)
    if meta[2] is not None:
        b1 = ctx.batch1
        g = grad.unsqueeze(0).expand((b1.shape[0],) + tuple(grad.shape))
        g2 = _scaled(b1.transpose(1, 2).bmm(g), ctx.alpha)
    return g_self, g1, g2


@export(method=True)
def addbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    # addbmm_out: self expanded to the product's shape (the sizes read first), then addbmm_impl_'s checks;
    # a recorded call first saves the sizes its formula reads (batch1's dim 0 before anything)
    if isinstance(batch1, Tensor) and batch1._data.ndim == 0 and _recording((input, batch1, batch2)):
        _csize(batch1, 0)
    _check_expand(input, (_csize(batch1, 1), _csize(batch2, 2)))
    _check_batches(batch1, batch2)
    if batch1._data.shape[0] != batch2._data.shape[0]:
        raise RuntimeError(
            f"batch1 and batch2 must have same number of batches, got {batch1._data.shape[0]} and "
            f"{batch2._data.shape[0]}")
    (_, n, m), (_, k, p) = batch1._data.shape, batch2._data.shape
    if m != k:
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({n}x{m} and {k}x{p})")
    if out is not None:  # (addbmm_impl_ into out: resized and written before its checks)
        from ._matmul_out import addbmm_out_prepared
        input = addbmm_out_prepared(input, batch1, batch2, beta, out)
    elif batch1._data.shape[0]:  # each batch is an addmm_ into a result of self's dtype
        for a, b, names in ((input, batch2, "self and mat2"), (batch1, batch2, "mat1 and mat2")):
            if a.dtype is not b.dtype:
                raise RuntimeError(f"{names} must have the same dtype, but got {_scalar_name(a.dtype)} and "
                                   f"{_scalar_name(b.dtype)}")
    _no_bool(input, "addmm_impl_cpu_", batch1._data.shape[0], n, m, p)
    check_shape((batch1._data.shape[0], n, p))  # the products, before their sum
    result = _addbmm.apply((input, batch1, batch2), (input._data, batch1._data, batch2._data),
                           {"beta": beta, "alpha": alpha})
    return finish_out("addbmm", result, out, quiet_resize=True)  # (addbmm_out resizes with resize_as_)


def _shape_checked_inplace(fn, errors, text, partial=False, first=None):
    """``fn``'s in-place form, whose errors that say ``self`` does not take the result's shape (agrad's
    broadcast ones, starting with one of ``errors``) are PyTorch's: ``text(self, *args)``; ``first``: the
    structured kernel's own checks, before the overlap errors of its output (see ``inplace``)."""
    method_ = inplace(fn, partial=partial, first=first)

    def call(self, *args, **kwargs):
        try:
            return method_(self, *args, **kwargs)
        except RuntimeError as e:
            if str(e).startswith(errors):
                raise RuntimeError(text(self, *args)) from None
            raise

    call.__name__ = call.__qualname__ = method_.__name__
    call.__doc__ = method_.__doc__
    return call


def _bad_inplace(self, *mats):
    """The structured kernels' check of an in-place call (addmm_, baddbmm_): self keeps its sizes."""
    a, b = (m._data.shape if isinstance(m, Tensor) else () for m in mats[:2])
    out = list(a[:-1]) + list(b[-1:])
    return f"Bad in-place call: input tensor size {list(self.shape)} and output tensor size {out} should match"


method("addmm_")(_shape_checked_inplace(addmm, ("output with shape", "The expanded size", "expand("), _bad_inplace))
method("baddbmm_")(_shape_checked_inplace(baddbmm, ("output with shape",), _bad_inplace))
def _addmv_dims(self, mat=None, vec=None, **_):
    """addmv's meta check of the dims, before its output's overlap check."""
    if isinstance(mat, Tensor) and isinstance(vec, Tensor) and not (mat.ndim == 2 and vec.ndim == 1 and self.ndim <= 1):
        raise RuntimeError(f"vector + matrix @ vector expected, got {self.ndim}, {mat.ndim}, {vec.ndim}")


method("addmv_")(_shape_checked_inplace(addmv, ("output with shape",), lambda self, mat, *_: (
    f"Bad in-place call: input tensor size {list(self.shape)} and output tensor size {list(mat.shape[:1])} should "
    "match"), first=_addmv_dims))
_addbmm_same_shape = inplace(addbmm)


@method("addbmm_")
def addbmm_(input, batch1, batch2, *, beta=1, alpha=1):
    """addbmm_out into ``input``: a ``input`` of another shape than the product's is resized (_addbmm_resize.py)."""
    if type(batch1) is Tensor and type(batch2) is Tensor and batch1.ndim == 3 and batch2.ndim == 3 and \
            type(input) is Tensor and input._data.shape != (batch1._data.shape[1], batch2._data.shape[2]):
        from ._addbmm_resize import addbmm_resized
        return addbmm_resized(input, batch1, batch2, beta, alpha, _addbmm_same_shape)
    return _addbmm_same_shape(input, batch1, batch2, beta=beta, alpha=alpha)
