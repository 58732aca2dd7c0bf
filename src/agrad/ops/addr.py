"""addr: ``beta * input + alpha * outer(vec1, vec2)`` (ATen's addr kernel, AddrBackward0) and addr_."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..tensor import Tensor
from ._op import Op, export, finish_out, inplace, method
from .linalg import _check_expand



def _addr_fwd(ctx, s, a, b, beta, alpha, dtype):
    """ATen's addr kernel on (self, vec1 as a column, vec2): ``beta * self + alpha * vec1 * vec2``
    (beta 0: self unread); bool: ``(beta and self) or (alpha and vec1 and vec2)``. The vector lanes
    of a float loop fuse the last multiply-add, the scalar tail does not."""
    from ._vec_math import fma
    from ._vector_loop import by_lanes, loop_lanes

    s, a, b = (np.asarray(x).astype(dtype, copy=False) for x in (s, a, b))
    shape = (a.shape[0], b.shape[0])
    a = a.reshape(-1, 1)
    if dtype == np.bool_:
        return np.broadcast_to((bool(beta) & s) | (bool(alpha) & a & b), shape).copy()
    t = np.dtype(dtype).type
    if np.dtype(dtype).kind in "iu":
        beta, alpha = int(beta), int(alpha)
    beta, alpha = t(beta), t(alpha)
    with np.errstate(all="ignore"):
        if beta == 0:
            return np.array(np.broadcast_to((alpha * a) * b, shape))  # (its own, writable memory)
        if np.dtype(dtype).kind != "f" or dtype == np.float16:
            return np.array(np.broadcast_to(beta * s + (alpha * a) * b, shape))
        lanes = loop_lanes([np.broadcast_to(s, shape), a, b])
        return by_lanes(lanes, lambda s_, a_, b_: fma(np.broadcast_to(alpha * a_, shape), np.broadcast_to(b_, shape),
                                                      np.broadcast_to(beta * s_, shape)),
                        lambda s_, a_, b_: beta * s_ + (alpha * a_) * b_, [np.broadcast_to(s, shape), a, b], dtype)


_addr = Op("AddrBackward0", _addr_fwd, inputs=("self", "vec1", "vec2"), saves=("vec1", "vec2"),
           saves_for={"vec1": (2,), "vec2": (1,)})


@_addr.derivative
def _(ctx, grad):
    from .nn import mul_scalar
    # derivatives.yaml: self: maybe_multiply(grad, beta); vec1: maybe_multiply(grad.mv(vec2), alpha); vec2:
    # maybe_multiply(grad.t().mv(vec1), alpha) (maybe_multiply: no multiplication, no node, by a scalar 1)
    def maybe_multiply(t, s):
        return t if s == 1 else mul_scalar(t, s)

    g_self = maybe_multiply(grad, ctx.beta) if ctx.needs(0) else None
    g1 = maybe_multiply(grad.mv(ctx.vec2), ctx.alpha) if ctx.needs(1) else None
    g2 = maybe_multiply(grad.t().mv(ctx.vec1), ctx.alpha) if ctx.needs(2) else None
    return g_self, g1, g2


def _addr_scalar(dtype, value, name):
    if isinstance(value, bool) and dtype is not dtypes.bool_:
        raise RuntimeError(f"Boolean {name} only supported for Boolean results.")
    if not dtype.is_floating_point and dtype is not dtypes.bool_ and isinstance(value, float):
        raise RuntimeError(f"For integral input tensors, argument {name} must not be a floating point number.")


@export(method=True)
def addr(input, vec1, vec2, *, beta=1, alpha=1, out=None):
    """``beta * input + alpha * outer(vec1, vec2)``."""
    _check_vectors(vec1, vec2)
    shape = (vec1.shape[0], vec2.shape[0])
    _check_expand(input, shape)
    d = dtypes.result_type(input, vec1, vec2)
    _addr_scalar(d, beta, "beta")
    _addr_scalar(d, alpha, "alpha")
    result = _addr.apply((input, vec1, vec2), (input._data, vec1._data, vec2._data),
                         {"beta": beta, "alpha": alpha, "dtype": d.numpy})
    return finish_out("addr", result, out)


def _check_vectors(vec1, vec2):
    for t, name in ((vec1, "vec1"), (vec2, "vec2")):
        if t.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {t.ndim}-D")


_addr_same_shape = inplace(addr, partial=True)


@method("addr_")
def addr_(self, vec1, vec2, *, beta=1, alpha=1):
    """addr into ``self``: after autograd's in-place checks (a leaf, a view of one) and the vectors',
    ``self`` must have the outer product's 2-D shape (ATen's addr_ checks it before beta and alpha)."""
    if isinstance(vec1, Tensor) and isinstance(vec2, Tensor) and isinstance(self, Tensor):
        from ..autograd import graph
        self._check_inplace(graph.is_recording((self, vec1, vec2)), "allow")  # (autograd's checks first; the
        _check_vectors(vec1, vec2)  # write's own overlap check comes after the op's)
        if self.ndim != 2:
            raise RuntimeError(f"2D tensor expected, got {self.ndim}D tensor for input")
        if self._data.shape != (vec1._data.shape[0], vec2._data.shape[0]):
            raise RuntimeError(f"size mismatch, input: {list(self.shape)}, v1: {list(vec1.shape)}, "
                               f"v2: {list(vec2.shape)}")
    return _addr_same_shape(self, vec1, vec2, beta=beta, alpha=alpha)
