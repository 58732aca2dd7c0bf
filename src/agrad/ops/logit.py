"""logit, and logit_backward as PyTorch's CPU kernels compute them.

``eps`` is taken in the input's type (``eps_scalar.to<scalar_t>()``): a negative one (and
``eps=None``, which the kernels see as -1) clamps nothing; another clamps the input to
``[eps, 1 - eps]``.  A float16 ``eps`` that rounds to ``-0.0`` is not negative, so it clamps to
``[-0, 1]``.

The backward without ``create_graph`` is the ``logit_backward`` kernel: with a negative eps, NaN
outside ``[0, 1]``; else 0 outside ``[eps, 1 - eps]``; in between ``dy / (x * (1 - x))``.  Its
scalar loop gives ``dy * inf`` at ``x == 0`` or ``1`` (so ``-0.0`` is ``+inf``) and NaN for a NaN
``x`` in either case; its vector code divides there (``-0.0``: ``-inf``) and gives the value
outside the range to a NaN ``x`` (NaN, or 0).  Under ``create_graph`` derivatives.yaml has
``infinitely_differentiable_logit_backward``: ``where`` on the range ``[eps, 1 - eps]`` as
given (also for a negative eps), 0 outside (NaN without eps).
"""

from __future__ import annotations

import numpy as np

from .._zero import materialized
from .._dense import dense
from ..autograd import grad_mode
from ..tensor import Tensor
from . import _sleef, _vec_math
from ._op import Op, export, finish_out, inplace, method
from ._vector_loop import binary_lanes, by_lanes, unary_lanes, unexpanded
from .pointwise import _float_array
from .selection import where

_F64_DTYPE = np.dtype(np.float64)
_log = _vec_math.via_double(np.log)


def _bounds(eps, dtype):
    """The kernels' (lo, hi) in ``dtype``, or None where they clamp nothing (a negative eps)."""
    e = np.asarray(-1.0 if eps is None else eps, dtype)
    if e < 0:
        return None
    return e, np.asarray(np.asarray(1, dtype) - e, dtype)


def _logit_fwd(ctx, a, eps):
    with np.errstate(all="ignore"):
        bounds = _bounds(eps, a.dtype)
        if bounds is None:
            x = a
        else:  # PyTorch's kernel: x < lo ? lo : (x > hi ? hi : x), also when eps > 0.5 makes lo > hi
            lo, hi = bounds
            x = np.where(a < lo, lo, np.where(a > hi, hi, a))
            if lo > hi and a.size > 1 and not dense(a) and (lanes := unary_lanes(a)) is not False:
                x = np.where(lanes, np.minimum(hi, np.maximum(lo, a)), x)  # (the vector code's clamp: hi)
        q = x / (1 - x)
        dtype = a.dtype
        r = np.log(q) if dtype is _F64_DTYPE else _log(q)
        n = a.size
        if n > 1 or (n and r.item() != r.item()):
            r = _logit_lanes(np.asarray(r), q, a)
        return r.astype(dtype, copy=False)


def _logit_lanes(r, q, a):
    """log(q) as PyTorch's logit kernel takes it: a dense ``a`` goes to MKL's vsLn/vdLn (a NaN for
    q < 0 has its sign bit clear); another runs cpu_kernel_vec, Sleef's log in the vector code
    (bit for bit; every NaN positive) and libm's log in the scalar code (float64: glibc's; q < 0:
    float32's NaN negative, float64's positive). A NaN q keeps its own sign outside Sleef's code."""
    if a.dtype.char not in "fd":
        return r
    vml = dense(a)
    lanes = False if vml else unary_lanes(a)
    if not vml and a.dtype.char == "d":  # (float64: Sleef's and glibc's log, bit for bit)
        r = by_lanes(lanes, _sleef.sleef_log, lambda v: _sleef.libm("log", v), (q,), q.dtype)
    elif lanes is not False:
        r = np.where(lanes, _vec_math.sleef_logf(q), r)
    nan = np.isnan(r)
    if not nan.any():
        return r
    neg = np.where(np.isnan(q), np.signbit(q), a.dtype.char == "f" and not vml)
    if lanes is not False:
        neg &= ~np.asarray(lanes, bool)  # (lanes may be True: every element in the vector code)
    r = np.array(r, copy=True)
    np.copyto(r, np.copysign(np.asarray(np.nan, r.dtype), np.where(neg, -1.0, 1.0)).astype(r.dtype), where=nan)
    return r


_logit = Op("LogitBackward0", _logit_fwd, saves=("self",), jvp="element_wise")


def _logit_backward_np(dy, x, eps):
    """The logit_backward kernel on arrays of one dtype (x's shape), its scalar loop and its
    vector code where each runs (_vector_loop.binary_lanes)."""
    dtype = x.dtype
    one, inf = np.asarray(1, dtype), np.asarray(np.inf, dtype)
    with np.errstate(all="ignore"):
        div = np.asarray(dy / (x * (one - x)), dtype)
        edge = (x == 0) | (x == one)
        bounds = _bounds(eps, dtype)
        if bounds is None:
            outside, fill = (x < 0) | (x > one), np.asarray(np.nan, dtype)
            inside = (x >= 0) & (x <= one)
        else:
            lo, hi = bounds
            outside, fill = (x < lo) | (x > hi), np.zeros((), dtype)
            inside = (x >= lo) & (x <= hi)
        scalar = np.where(outside, fill, np.where(edge, np.asarray(dy * inf, dtype), div))
        lanes = binary_lanes(x.shape, (unexpanded(dy), unexpanded(x))) if dtype.char in "efd" else None
        if lanes is None:
            return scalar.astype(dtype, copy=False)
        return np.where(lanes, np.where(inside, div, fill), scalar).astype(dtype, copy=False)


@_logit.derivative
def _(ctx, grad):
    x = ctx.self
    eps = ctx.eps
    if not grad_mode._state["enabled"]:  # the logit_backward kernel (a ZeroTensor gradient as plain zeros)
        dy = materialized(grad._data)
        xa = x._data
        if dy.dtype != xa.dtype:
            dy = dy.astype(xa.dtype)
        return Tensor._make(_logit_backward_np(np.broadcast_to(dy, xa.shape), xa, eps))
    # infinitely_differentiable_logit_backward
    if eps is not None:
        inside = (x >= eps) & (x <= 1.0 - eps)
        return where(inside, grad / (x * (1.0 - x)), 0.0)
    inside = (x >= 0.0) & (x <= 1.0)
    return where(inside, grad / (x * (1.0 - x)), float("nan"))


@export(method=True)
def logit(input, eps=None, *, out=None):
    """log(p / (1 - p)), with p clamped to [eps, 1 - eps] when eps is given (and not negative)."""
    if isinstance(eps, Tensor) and (eps.requires_grad or eps.ndim):
        # (PyTorch's parser takes a tensor for a float only 0-d and without grad; the wrapper's
        # parse gives its TypeError)
        raise TypeError("logit(): eps must be a float")
    return finish_out("logit", _logit.apply((input,), (_float_array(input),),
                                            {"eps": None if eps is None else float(eps)}), out)


method("logit_")(inplace(logit))
