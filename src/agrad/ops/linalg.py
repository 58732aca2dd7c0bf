"""Matrix products: mm, mv, dot, bmm and matmul dispatching to them as PyTorch does;
outer, addmm/addmv/addbmm/baddbmm, einsum, tensordot and kron.

einsum, tensordot and kron are composites built the way ATen builds them
(permute / reshape / bmm / mul), so their graphs show PyTorch's nodes.
"""

from __future__ import annotations

import numbers

import numpy as np

from .._limits import check_numel, check_shape
from ..tensor import Tensor, _scalar_name
from ._op import Op, export, finish_out, inplace, method
from .reductions import dims as _reduction_dims
from .views import _unsafe_view, _viewable, squeeze_inplace_dim


def _same_dtype(a, b, who):
    if a.dtype is not b.dtype:
        if who == "dot":
            raise RuntimeError(
                f"dot : expected both vectors to have same dtype, but found {_scalar_name(a.dtype)} and "
                f"{_scalar_name(b.dtype)}")
        raise RuntimeError(
            f"expected m1 and m2 to have the same dtype, but got: {_c(a)} != {_c(b)}")


def _c(t):
    return {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int",
            "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
            "bool": "bool"}[t.dtype.name]


def _dims(t, n, who):
    if t.ndim != n:
        raise RuntimeError(f"{who}: Expected {n}-D argument {'self' if True else ''}, but got {t.ndim}-D")


def _column_major(a):
    """Whether a matrix is laid out column-major (strides (1, rows)): PyTorch's mm backward then
    computes that input's gradient transposed, so that it has the input's layout."""
    s = getattr(a, "strides", None)  # (a lazy array has no layout)
    return s is not None and s[0] == a.itemsize and s[1] == a.shape[0] * a.itemsize


def _mm_fwd(ctx, a, b):
    ctx.layout = (_column_major(a), _column_major(b))
    return a @ b


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
    return (_mm_mat1_backward(grad, ctx.mat2, c1) if ctx.needs(0) else None,
            _mm_mat2_backward(grad, ctx.self, c2) if ctx.needs(1) else None)


@_mm.raw_derivative
def _(ctx, g):
    c1, c2 = ctx.layout
    return (((ctx.mat2._data @ g.T).T if c1 else g @ ctx.mat2._data.T) if ctx.needs(0) else None,
            ((g.T @ ctx.self._data).T if c2 else ctx.self._data.T @ g) if ctx.needs(1) else None)


@export(method=True)
def mm(input, mat2, *, out=None):
    if input.ndim != 2:
        raise RuntimeError(f"self must be a matrix")
    if mat2.ndim != 2:
        raise RuntimeError(f"mat2 must be a matrix")
    _same_dtype(input, mat2, "mm")
    (n, m), (k, p) = input._data.shape, mat2._data.shape
    if m != k:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{m} and {k}x{p})")
    check_shape((n, p))
    return finish_out("mm", _mm(input, mat2), out)


_mv = Op("MvBackward0", lambda ctx, a, v: a @ v, inputs=("self", "vec"), saves=("self", "vec"),
         saves_for={"self": (1,), "vec": (0,)}, jvp="multilinear")


@_mv.derivative
def _(ctx, grad):
    return (grad.unsqueeze(1) * ctx.vec if ctx.needs(0) else None,
            ctx.self.t().mv(grad) if ctx.needs(1) else None)


@export(method=True)
def mv(input, vec, *, out=None):
    if input.ndim != 2 or vec.ndim != 1:
        raise RuntimeError(
            f"vector + matrix @ vector expected, got 1, {input.ndim}, {vec.ndim}")
    _same_dtype(input, vec, "mv")
    n, m = input._data.shape
    if m != vec._data.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({n}), mat ({n}x{m}), vec ({vec._data.shape[0]})")
    return finish_out("mv", _mv(input, vec), out)


_dot = Op("DotBackward0", lambda ctx, a, b: np.asarray(np.dot(a, b)), inputs=("self", "tensor"),
          saves=("self", "tensor"), saves_for={"self": (1,), "tensor": (0,)}, jvp="multilinear")


@_dot.derivative
def _(ctx, grad):
    return (grad * ctx.tensor if ctx.needs(0) else None,
            grad * ctx.self if ctx.needs(1) else None)


@export(method=True)
def dot(input, tensor, *, out=None):
    if input.ndim != 1 or tensor.ndim != 1:
        raise RuntimeError(
            f"1D tensors expected, but got {input.ndim}D and {tensor.ndim}D tensors")
    _same_dtype(input, tensor, "dot")
    n, k = input._data.shape[0], tensor._data.shape[0]
    if n != k:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{n}] and src [{k}] to have the same number of "
            f"elements, but got {n} and {k} elements respectively")
    return finish_out("dot", _dot(input, tensor), out)


_vdot = Op("VdotBackward0", lambda ctx, a, b: np.asarray(np.dot(a, b)), inputs=("self", "other"),
           saves=("self", "other"), saves_for={"self": (1,), "other": (0,)}, jvp="multilinear")


@_vdot.derivative
def _(ctx, grad):
    # derivatives.yaml: self: grad.conj() * other, other: grad * self (real tensors: no conj)
    return (grad * ctx.other if ctx.needs(0) else None,
            grad * ctx.self if ctx.needs(1) else None)


@export(method=True)
def vdot(input, other, *, out=None):
    """The dot product of two 1-D tensors, the first conjugated (real tensors: dot)."""
    if input.ndim != 1 or other.ndim != 1:
        raise RuntimeError(
            f"1D tensors expected, but got {input.ndim}D and {other.ndim}D tensors")
    _same_dtype(input, other, "dot")
    n, k = input._data.shape[0], other._data.shape[0]
    if n != k:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{n}] and src [{k}] to have the same number of "
            f"elements, but got {n} and {k} elements respectively")
    return finish_out("vdot", _vdot(input, other), out)


@export()
def inner(input, other):
    """Sum over the last dims: a product with a 0-d tensor, else tensordot over the last dims."""
    if input.ndim == 0 or other.ndim == 0:
        return input * other
    if input.shape[-1] != other.shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but got shapes "
                           f"{list(input.shape)} and {list(other.shape)}")
    return tensordot(input, other, ([-1], [-1]))  # PyTorch's: permute, reshape, mm (or dot)

_bmm = Op("BmmBackward0", lambda ctx, a, b: np.matmul(a, b), inputs=("self", "mat2"), saves=("self", "mat2"),
          saves_for={"self": (1,), "mat2": (0,)}, jvp="multilinear")


@_bmm.derivative
def _(ctx, grad):
    return (grad.bmm(ctx.mat2.transpose(1, 2)) if ctx.needs(0) else None,
            ctx.self.transpose(1, 2).bmm(grad) if ctx.needs(1) else None)


@export(method=True)
def bmm(input, mat2, *, out=None):
    if input.ndim != 3:
        raise RuntimeError(f"batch1 must be a 3D tensor")
    if mat2.ndim != 3:
        raise RuntimeError(f"batch2 must be a 3D tensor")
    _same_dtype(input, mat2, "bmm")
    b, n, m = input._data.shape
    if mat2._data.shape[0] != b or mat2._data.shape[1] != m:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{b}, {m}] but got: "
            f"[{mat2._data.shape[0]}, {mat2._data.shape[1]}].")
    check_shape((b, n, mat2._data.shape[2]))
    return finish_out("bmm", _bmm(input, mat2), out)


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


def _should_fold(a, b):
    """PyTorch's rule for computing a batched product as one mm/mv on folded rows."""
    larger = a.ndim >= b.ndim
    t1 = a if larger else b.mT
    small = b if larger else a
    if not (t1.ndim >= 3 and small.ndim <= 2):
        return False
    if small.requires_grad:
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
    shape = batch + ((n,) if d1 > 1 else ()) + ((p,) if d2 > 1 else ())
    prod = bmm(left, right)
    return _unsafe(prod.squeeze(-1) if d2 == 1 else prod, shape)


method("__matmul__")(matmul)


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

@export("outer", "ger", method=True)
def outer(input, vec2, *, out=None):
    if input.ndim != 1:
        raise RuntimeError(f"outer: Expected 1-D argument self, but got {input.ndim}-D")
    if vec2.ndim != 1:
        raise RuntimeError(f"outer: Expected 1-D argument vec2, but got {vec2.ndim}-D")
    return finish_out("outer", input.reshape(input._data.shape[0], 1) * vec2, out)


def _vecdot(x, y, *, dim=-1, out=None):
    """torch.linalg.vecdot: (x * y).sum(dim) (real tensors: no conjugation)."""
    if not x.dtype.is_floating_point:
        raise RuntimeError(
            f"linalg.vecdot: Expected a floating point or complex tensor as input. Got {_scalar_name(x.dtype)}")
    if x.dtype is not y.dtype:
        raise RuntimeError(
            f"linalg.vecdot: Expected x and y to have the same dtype, but found x of type {_scalar_name(x.dtype)} "
            f"and y of type {_scalar_name(y.dtype)} instead")
    if x.ndim == 1 and y.ndim == 1:  # PyTorch's linalg_vecdot: at::vdot for two vectors (dim unread)
        return finish_out("linalg_vecdot", vdot(x, y), out)
    return finish_out("linalg_vecdot", (x * y).sum(dim), out)


export("vecdot", linalg=True, torch=False)(_vecdot)
export("matmul", linalg=True, torch=False)(matmul)


# addmm / addmv / addbmm / baddbmm ----------------------------------------------------------

def _add_scaled(self, prod, beta, alpha):
    """beta * self + alpha * prod, with self ignored when beta is 0 (as BLAS does)."""
    out = prod * alpha if alpha != 1 else prod
    if beta != 0:
        out = out + (self * beta if beta != 1 else self)
    return np.asarray(out, prod.dtype)


def _addmm_fwd(ctx, s, a, b, beta, alpha):
    ctx.layout = (_column_major(a), _column_major(b))
    return _add_scaled(s, a @ b, beta, alpha)


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
    g1 = _scaled((ctx.mat2._data @ g.T).T if c1 else g @ ctx.mat2._data.T, alpha) if meta[1] is not None else None
    g2 = _scaled((g.T @ ctx.mat1._data).T if c2 else ctx.mat1._data.T @ g, alpha) if meta[2] is not None else None
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
    _check_expand(input, (n, p))
    result = _addmm.apply((input, mat1, mat2), (input._data, mat1._data, mat2._data), {"beta": beta, "alpha": alpha})
    return finish_out("addmm", result, out)


_addmv = Op("AddmvBackward0",
            lambda ctx, s, a, v, beta, alpha: _add_scaled(s, a @ v, beta, alpha),
            inputs=("self", "mat", "vec"), saves=("mat", "vec"),
            saves_for={"mat": (2,), "vec": (1,)}, jvp="affine")


@_addmv.derivative
def _(ctx, grad):
    meta = ctx._input_meta
    g_self = _scaled(grad, ctx.beta) if meta[0] is not None else None
    g_mat = _scaled(grad.unsqueeze(1) * ctx.vec, ctx.alpha) if meta[1] is not None else None
    g_vec = _scaled(ctx.mat.t().mv(grad), ctx.alpha) if meta[2] is not None else None
    return g_self, g_mat, g_vec


@export(method=True)
def addmv(input, mat, vec, *, beta=1, alpha=1, out=None):
    if mat.ndim != 2 or vec.ndim != 1 or input.ndim > 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {input.ndim}, {mat.ndim}, {vec.ndim}")
    n, m = mat._data.shape
    size = input._data.shape[0] if input.ndim else 1
    if m != vec._data.shape[0] or not (size == n or size == 1):
        raise RuntimeError(f"size mismatch, got input ({size}), mat ({n}x{m}), vec ({vec._data.shape[0]})")
    result = _addmv.apply((input, mat, vec), (input._data, mat._data, vec._data), {"beta": beta, "alpha": alpha})
    return finish_out("addmv", result, out)


_baddbmm = Op("BaddbmmBackward0",
              lambda ctx, s, a, b, beta, alpha: _add_scaled(s, np.matmul(a, b), beta, alpha),
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
    _check_batches(batch1, batch2)
    b, n, m = batch1._data.shape
    if batch2._data.shape[:2] != (b, m):
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{b}, {m}] but got: "
            f"[{batch2._data.shape[0]}, {batch2._data.shape[1]}].")
    _check_expand(input, (b, n, batch2._data.shape[2]))
    result = _baddbmm.apply((input, batch1, batch2), (input._data, batch1._data, batch2._data),
                            {"beta": beta, "alpha": alpha})
    return finish_out("baddbmm", result, out)


_addbmm = Op("AddbmmBackward0",
             lambda ctx, s, a, b, beta, alpha: _add_scaled(s, np.matmul(a, b).sum(0), beta, alpha),
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
    _check_batches(batch1, batch2)
    if batch1._data.shape[0] != batch2._data.shape[0]:
        raise RuntimeError(
            f"batch1 and batch2 must have same number of batches, got {batch1._data.shape[0]} and "
            f"{batch2._data.shape[0]}")
    (_, n, m), (_, k, p) = batch1._data.shape, batch2._data.shape
    if m != k:
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({n}x{m} and {k}x{p})")
    check_shape((batch1._data.shape[0], n, p))  # the products, before their sum
    _check_expand(input, (n, p))
    result = _addbmm.apply((input, batch1, batch2), (input._data, batch1._data, batch2._data),
                           {"beta": beta, "alpha": alpha})
    return finish_out("addbmm", result, out)


for _fn in (addmm, addmv, baddbmm, addbmm):
    method(_fn.__name__ + "_")(inplace(_fn))


# einsum (ATen's algorithm: align operands, then contract pairwise with bmm) ------------------

_ELLIPSIS = 52


def _subscript(c):
    return ord(c) - ord("A") if c.isupper() else ord(c) - ord("a") + 26


def _label(s):
    return chr(s + ord("A")) if s < 26 else chr(s - 26 + ord("a"))


def _sumproduct_pair(left, right, sum_dims):
    """(left * right).sum(sum_dims, keepdim=True) as permute -> reshape -> bmm -> view -> permute."""
    if not sum_dims:
        return left * right
    dim = left.ndim
    summed = set(sum_dims)
    lro, lo, ro = [], [], []
    lro_size = lo_size = ro_size = sum_size = 1
    for i in range(dim):
        sl, sr = left.shape[i] != 1, right.shape[i] != 1
        if i in summed:
            if sl and sr:
                if left.shape[i] != right.shape[i]:
                    raise RuntimeError("non-broadcast dimensions must match")
                sum_size *= left.shape[i]
            elif sl:
                left = left.sum(i, keepdim=True)
            elif sr:
                right = right.sum(i, keepdim=True)
        elif sl and sr:
            if left.shape[i] != right.shape[i]:
                raise RuntimeError("non-broadcast dimensions must match")
            lro.append(i)
            lro_size *= left.shape[i]
        elif sl:
            lo.append(i)
            lo_size *= left.shape[i]
        else:
            ro.append(i)
            ro_size *= right.shape[i]
    out_size = ([left.shape[d] for d in lro] + [left.shape[d] for d in lo] + [1] * len(sum_dims)
                + [right.shape[d] for d in ro])
    lperm = lro + lo + list(sum_dims) + ro
    rperm = lro + list(sum_dims) + ro + lo
    operm = [0] * len(out_size)
    for i, d in enumerate(lro + lo + list(sum_dims) + ro):
        operm[d] = i
    left = left.permute(lperm).reshape(lro_size, lo_size, sum_size)
    right = right.permute(rperm).reshape(lro_size, sum_size, ro_size)
    return bmm(left, right).view(out_size).permute(operm)


def _parse_ellipsis(text, i, message):
    """Index of the last '.' of an ellipsis starting at ``i``; PyTorch's error if it is not one."""
    if not (i + 2 < len(text) and text[i + 1] == "." and text[i + 2] == "."):
        raise RuntimeError(message)
    return i + 2


@export()
def einsum(equation, *operands):
    from .matrix import diagonal
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands:
        raise ValueError("einsum(): must specify the equation string and at least one operand, or at least one "
                         "operand and its subscripts list")
    num_ops = len(operands)
    arrow = equation.find("->")
    lhs = equation if arrow < 0 else equation[:arrow]

    op_labels = [[] for _ in range(num_ops)]
    ell_in_input = False
    cur = 0
    i = 0
    while i < len(lhs):
        c = lhs[i]
        if c == " ":
            pass
        elif c == ".":
            if ell_in_input:
                raise RuntimeError(f"einsum(): found '.' for operand {cur} for which an ellipsis was already found")
            i = _parse_ellipsis(lhs, i, f"einsum(): found '.' for operand {cur} that is not part of any ellipsis")
            op_labels[cur].append(_ELLIPSIS)
            ell_in_input = True
        elif c == ",":
            cur += 1
            if cur >= num_ops:
                raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
            ell_in_input = False
        else:
            if not (c.isascii() and c.isalpha()):
                raise RuntimeError(
                    f"einsum(): invalid subscript given at index {i} in the equation string, subscripts must be in "
                    "[a-zA-Z]")
            op_labels[cur].append(_subscript(c))
        i += 1
    if cur != num_ops - 1:
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")

    label_count = [0] * 52
    ell_num_dim = 0
    for k, op in enumerate(operands):
        nlabels = len(op_labels[k])
        has_ell = False
        for s in op_labels[k]:
            if s == _ELLIPSIS:
                nlabels -= 1
                has_ell = True
                ell_num_dim = max(ell_num_dim, op.ndim - nlabels)
            else:
                label_count[s] += 1
        if not (nlabels <= op.ndim if has_ell else nlabels == op.ndim):
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({nlabels}) "
                + ("is more than the number of dimensions (" if has_ell else "does not match the number of dimensions (")
                + f"{op.ndim}) for operand {k}" + ("" if has_ell else " and no ellipsis was given"))

    label_perm_index = [-1] * 52
    perm_index = 0
    ell_index = 0
    ell_in_output = False
    if arrow < 0:
        perm_index = ell_num_dim
        ell_in_output = True
        for s in range(52):
            if label_count[s] == 1:
                label_perm_index[s] = perm_index
                perm_index += 1
    else:
        rhs = equation[arrow + 2:]
        i = 0
        while i < len(rhs):
            c = rhs[i]
            if c == " ":
                pass
            elif c == ".":
                if ell_in_output:
                    raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) was already found")
                i = _parse_ellipsis(rhs, i, "einsum(): found '.' for output that is not part of any ellipsis (...)")
                ell_index = perm_index
                perm_index += ell_num_dim
                ell_in_output = True
            else:
                if not (c.isascii() and c.isalpha()):
                    raise RuntimeError(
                        f"einsum(): invalid subscript given at index {len(lhs) + 2 + i} in the equation string, "
                        "subscripts must be in [a-zA-Z]")
                s = _subscript(c)
                if not (label_count[s] > 0 and label_perm_index[s] == -1):
                    raise RuntimeError(
                        f"einsum(): output subscript {c}"
                        + (" appears more than once in the output" if label_perm_index[s] > -1
                           else " does not appear in the equation for any input operand"))
                label_perm_index[s] = perm_index
                perm_index += 1
            i += 1
    out_num_dim = perm_index
    if not ell_in_output:
        ell_index = perm_index
        perm_index += ell_num_dim
    for s in range(52):
        if label_count[s] > 0 and label_perm_index[s] == -1:
            label_perm_index[s] = perm_index
            perm_index += 1

    # align every operand to the dims out_dims + contraction dims
    label_size = [1] * 52
    ell_sizes = [1] * ell_num_dim
    dim_counts = [0] * perm_index
    ops = []
    for k, original in enumerate(operands):
        op = original
        permutation = [-1] * perm_index
        dim = 0
        for s in op_labels[k]:
            if s == _ELLIPSIS:
                ndim = original.ndim - (len(op_labels[k]) - 1)
                for j in range(ell_num_dim - ndim, ell_num_dim):
                    size = op.shape[dim]
                    if size != 1:
                        if not (ell_sizes[j] == 1 or ell_sizes[j] == size):
                            raise RuntimeError(
                                f"einsum(): dimension {dim} covered by ellipsis in operand {k}has size {size} which "
                                f"does not broadcast with previously seen ellipsis with size {ell_sizes[j]} for the "
                                "respective dimension")
                        ell_sizes[j] = size
                        dim_counts[ell_index + j] += 1
                    permutation[ell_index + j] = dim
                    dim += 1
            elif permutation[label_perm_index[s]] == -1:
                size = op.shape[dim]
                if size != 1:
                    if not (label_size[s] == 1 or label_size[s] == size):
                        raise RuntimeError(
                            f"einsum(): subscript {_label(s)} has size {size} for operand {k} which does not "
                            f"broadcast with previously seen size {label_size[s]}")
                    label_size[s] = size
                    dim_counts[label_perm_index[s]] += 1
                permutation[label_perm_index[s]] = dim
                dim += 1
            else:
                prev = permutation[label_perm_index[s]]
                if op.shape[dim] != op.shape[prev]:
                    raise RuntimeError(
                        f"einsum(): subscript {_label(s)} is repeated for operand {k} but the sizes don't match, "
                        f"{op.shape[dim]} != {op.shape[prev]}")
                op = diagonal(op, 0, prev, dim).movedim(-1, prev)
        for p in range(perm_index):
            if permutation[p] == -1:
                op = op.unsqueeze(dim)
                permutation[p] = dim
                dim += 1
        ops.append(op.permute(permutation))

    # contract left to right
    while len(ops) > 1:
        a, b = ops[0], ops[1]
        ops = ops[2:]
        sum_dims, a_dims, b_dims = [], [], []
        for dim in range(out_num_dim, perm_index):
            if a.shape[dim] != 1 and b.shape[dim] != 1:
                dim_counts[dim] -= 1
                if dim_counts[dim] == 1:
                    sum_dims.append(dim)
                    dim_counts[dim] = 0
            elif dim_counts[dim] == 1:
                if a.shape[dim] != 1:
                    a_dims.append(dim)
                    dim_counts[dim] = 0
                elif b.shape[dim] != 1:
                    b_dims.append(dim)
                    dim_counts[dim] = 0
        if a_dims:
            a = a.sum(a_dims, keepdim=True)
        if b_dims:
            b = b.sum(b_dims, keepdim=True)
        ops.insert(0, _sumproduct_pair(a, b, sum_dims))

    result = ops[0]
    if perm_index - out_num_dim > 0:
        if num_ops > 1:
            return result.view(list(result.shape[:out_num_dim]))
        return result.sum(list(range(out_num_dim, perm_index)))
    return result


# tensordot / kron --------------------------------------------------------------------------

@export()
def tensordot(a, b, dims=2, out=None):
    if isinstance(dims, Tensor):
        dims = dims.tolist()
    if isinstance(dims, (list, tuple)):
        if len(dims) != 2:
            raise RuntimeError(f"The `dims` argument must be a list of 2 lists or a number, but got {dims}")
        dims_a, dims_b = dims
        dims_a = [dims_a] if isinstance(dims_a, numbers.Integral) else list(dims_a)
        dims_b = [dims_b] if isinstance(dims_b, numbers.Integral) else list(dims_b)
    else:
        dims = int(dims)
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a.ndim, b.ndim):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a, dims_b = list(range(-dims, 0)), list(range(dims))
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    if a.dtype is not b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    csize = 1
    t1, t2 = a, b
    for da, db in zip(dims_a, dims_b):
        s1, s2 = a.shape[da], b.shape[db]
        if s2 == 1:
            t1 = t1.sum(da, keepdim=True, dtype=t1.dtype)  # the dtype kept (bool too)
        elif s1 == 1:
            t2 = t2.sum(db, keepdim=True, dtype=t2.dtype)
        else:
            if s1 != s2:
                raise RuntimeError(f"contracted dimensions need to match, but first has size {s1} in dim {da} and "
                                   f"second has size {s2} in dim {db}")
            csize *= s1
    cd1 = set(_reduction_dims(dims_a, a.ndim)) if dims_a else set()
    cd2 = set(_reduction_dims(dims_b, b.ndim)) if dims_b else set()
    p1, p2, rsizes = [], [], []
    size1 = size2 = 1
    for i in range(a.ndim):
        if i not in cd1:
            p1.append(i)
            size1 *= t1.shape[i]
            rsizes.append(t1.shape[i])
    p1 += dims_a
    p2 += dims_b
    for i in range(b.ndim):
        if i not in cd2:
            p2.append(i)
            size2 *= t2.shape[i]
            rsizes.append(t2.shape[i])
    if size1 != 1 or size2 != 1:
        result = mm(t1.permute(p1).reshape(size1, csize), t2.permute(p2).reshape(csize, size2))
    else:  # a full contraction: a dot product (of the flattened operands when they are contiguous)
        t1, t2 = t1.permute(p1), t2.permute(p2)
        if t1.is_contiguous() and t2.is_contiguous():
            result = dot(t1.flatten(), t2.flatten())
        else:
            result = (t1.squeeze() * t2.squeeze()).sum(dtype=t1.dtype)
    return finish_out("tensordot", result.reshape(rsizes), out)


def _unsafe_checked(t, shape):
    """_unsafe_view: a view without view tracking (PyTorch refuses it where a view is impossible)."""
    if _viewable(t._data, tuple(shape)) is None:
        raise RuntimeError("view size is not compatible with input tensor's size and stride (at least one dimension "
                           "spans across two contiguous subspaces). Use .reshape(...) instead.")
    return _unsafe_view.apply((t,), (t._data,), {"shape": tuple(shape)})


@export(method=True)
def kron(input, other, *, out=None):
    maxdim = max(input.ndim, other.ndim)
    pad_a, pad_b = maxdim - input.ndim, maxdim - other.ndim
    a_shape, b_shape, r_shape = [], [], []
    for i in range(maxdim):
        sa = input.shape[i - pad_a] if i >= pad_a else 1
        sb = other.shape[i - pad_b] if i >= pad_b else 1
        r_shape.append(sa * sb)
        a_shape += [sa, 1]
        b_shape += [1, sb]
    result = _unsafe_checked(input, a_shape) * _unsafe_checked(other, b_shape)
    return finish_out("kron", _unsafe_checked(result, r_shape), out)
