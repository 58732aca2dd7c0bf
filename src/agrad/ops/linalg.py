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


_mm = Op("MmBackward0", lambda ctx, a, b: a @ b, inputs=("self", "mat2"), saves=("self", "mat2"))


@_mm.derivative
def _(ctx, grad):
    return grad.mm(ctx.mat2.t()), ctx.self.t().mm(grad)


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


_mv = Op("MvBackward0", lambda ctx, a, v: a @ v, inputs=("self", "vec"), saves=("self", "vec"))


@_mv.derivative
def _(ctx, grad):
    return grad.unsqueeze(1) * ctx.vec, ctx.self.t().mv(grad)


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
          saves=("self", "tensor"))


@_dot.derivative
def _(ctx, grad):
    return grad * ctx.tensor, grad * ctx.self


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

_bmm = Op("BmmBackward0", lambda ctx, a, b: np.matmul(a, b), inputs=("self", "mat2"), saves=("self", "mat2"))


@_bmm.derivative
def _(ctx, grad):
    return grad.bmm(ctx.mat2.transpose(1, 2)), ctx.self.transpose(1, 2).bmm(grad)


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
        _check_inner(input, other, 0)
        r = squeeze_inplace_dim(mm(input.unsqueeze(0), other), 0)
    elif d1 == 2 and d2 == 2:
        r = mm(input, other)
    elif d1 >= 3 and d2 <= 2:
        # fold the batch into the rows: one mm (or mv)
        _check_inner(input, other, -1)
        folded = input.reshape(-1, input._data.shape[-1])
        if d2 == 1:
            r = _unsafe(mv(folded, other), input._data.shape[:-1])
        else:
            r = _unsafe(mm(folded, other), input._data.shape[:-1] + other._data.shape[-1:])
    elif d1 <= 2 and d2 >= 3:
        # (b^T a^T)^T, as PyTorch folds the other side
        _check_inner(input, other, -1)
        r = matmul(other.mT, input.t() if d1 == 2 else input)
        r = r.mT.contiguous() if d1 == 2 else r
    else:
        r = _batched(input, other)
    return finish_out("matmul", r, out)


def _check_inner(a, b, _):
    k1 = a._data.shape[-1]
    k2 = b._data.shape[-2] if b.ndim >= 2 else b._data.shape[0]
    if k1 != k2:
        if a.ndim == 1 and b.ndim == 2:
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied (1x{k1} and {b._data.shape[0]}x{b._data.shape[1]})")
        rows = int(np.prod(a._data.shape[:-1]))
        if b.ndim == 1:
            raise RuntimeError(f"size mismatch, got input ({rows}), mat ({rows}x{k1}), vec ({k2})")
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({rows}x{k1} and {k2}x{b._data.shape[-1]})")


def _batched(a, b):
    va, vb = a.ndim == 1, b.ndim == 1
    if va:
        a = a.unsqueeze(0)
    if vb:
        b = b.unsqueeze(-1)
    (n, m), (m2, p) = a._data.shape[-2:], b._data.shape[-2:]
    if m != m2:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: "
            f"[{int(np.prod(a._data.shape[:-2]))}, {m}] but got: [{int(np.prod(b._data.shape[:-2]))}, {m2}].")
    try:
        batch = np.broadcast_shapes(a._data.shape[:-2], b._data.shape[:-2])
    except ValueError:
        from .pointwise import _mismatch_message
        raise RuntimeError(_mismatch_message(a._data.shape[:-2], b._data.shape[:-2])) from None
    size = int(np.prod(batch)) if batch else 1

    def fold(t, tail):
        if t._data.shape[:-2] != batch:
            t = t.expand(batch + tail)
        shape3 = (size,) + tail
        return t if t._data.shape == shape3 else t.reshape(shape3)

    out = _bmm(fold(a, (n, m)), fold(b, (m, p)))
    shape = batch + ((n,) if not va else ()) + ((p,) if not vb else ())
    return _unsafe(out, shape)


method("__matmul__")(matmul)
