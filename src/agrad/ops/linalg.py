"""Matrix products: mm, mv, dot, bmm, and matmul dispatching to them as PyTorch does."""

from __future__ import annotations

import numpy as np

from ..tensor import Tensor, _scalar_name
from ._op import Op, export, finish_out, method
from .shape import _unsafe_view, squeeze_inplace_dim


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


_mm = Op("MmBackward0", lambda ctx, a, b: a @ b, inputs=("self", "mat2"), saves=("self", "mat2"),
         saves_for={"self": (1,), "mat2": (0,)})


@_mm.derivative
def _(ctx, grad):
    return (grad.mm(ctx.mat2.t()) if ctx.needs(0) else None,
            ctx.self.t().mm(grad) if ctx.needs(1) else None)


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
    return finish_out("mm", _mm(input, mat2), out)


_mv = Op("MvBackward0", lambda ctx, a, v: a @ v, inputs=("self", "vec"), saves=("self", "vec"),
         saves_for={"self": (1,), "vec": (0,)})


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
          saves=("self", "tensor"), saves_for={"self": (1,), "tensor": (0,)})


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


export("inner")(lambda input, other: dot(input, other) if input.ndim == 1 and other.ndim == 1 else matmul(input, other.mT))

_bmm = Op("BmmBackward0", lambda ctx, a, b: np.matmul(a, b), inputs=("self", "mat2"), saves=("self", "mat2"),
          saves_for={"self": (1,), "mat2": (0,)})


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
