"""logsumexp: log(sum(exp(x))) over dims, computed stably as ATen does (the maxima taken out,
the exponentials summed in PyTorch's order, float32's exp and log as its kernels round them).

One entry as every op: forward, node name (LogsumexpBackward0), what it saves, and its
derivative written with agrad ops so ``create_graph=True`` gives higher derivatives.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from .._cascade import cascade_sum
from ._layout import c_order
from ._op import Op, export, finish_out
from .reductions import _REQUIRED, _axes, _quiet, _require_dim, _unsqueeze_dims


def _vml32(fn, a):
    """float32 exp or log as PyTorch's kernel (MKL VML) gives it but in a few percent of values: the
    correctly rounded value (through double; numpy's float32 loops are an ulp away more often)."""
    from ._vec_math import via_double
    return via_double(fn)(a)


def _logsumexp_fwd(ctx, a, axes, keepdim, into=None):
    """``into``: the dtype of an ``out=`` of another float type, which ATen's sum_out, log_ and add_
    work in (the maxima and exp in the input's)."""
    d = a.dtype if into is None else into
    if a.size == 0:
        return np.log(np.sum(np.exp(a), axis=axes, keepdims=keepdim, dtype=d))
    with np.errstate(all="ignore"):
        m = np.amax(a, axis=axes, keepdims=True)
        m = np.where(np.isinf(m), np.zeros((), a.dtype), m)
        e = _vml32(np.exp, a - m) if a.dtype == np.float32 else np.exp(a - m)
        # a float16 (bfloat16) sum accumulates in float32 in PyTorch, then rounds once
        total = cascade_sum(e, axes, True) if into is None else None  # sum_out: PyTorch's order
        if total is None:
            total = np.sum(e, axis=axes, keepdims=True, dtype=np.float32 if d.itemsize < 4 else d)
        total = total.astype(d, copy=False)
        out = (_vml32(np.log, total) if d == np.float32 else np.log(total)) + m.astype(d)
    if not keepdim:
        out = out.reshape([s for i, s in enumerate(a.shape) if i not in axes])
    # (ATen's logsumexp sums into a fresh empty tensor, resized: contiguous)
    return c_order(out.astype(d, copy=False))


_logsumexp = Op("LogsumexpBackward0", _logsumexp_fwd, saves=("self", "result"))


@_logsumexp.derivative
@_quiet
def _(ctx, grad):
    x = ctx.self
    result = ctx.result
    if not ctx.keepdim and x.ndim != 0:
        grad = _unsqueeze_dims(grad, x.shape, ctx.axes, False)
        result = _unsqueeze_dims(result, x.shape, ctx.axes, False)
    return grad * (x - result).exp()


@export(method=True)
def logsumexp(input, dim=_REQUIRED, keepdim=False, *, out=None):
    """log(sum(exp(input), dim)), computed stably."""
    _require_dim("logsumexp", dim)
    axes = _axes(dim, input.ndim)
    if isinstance(dim, (list, tuple)) and not dim and input.ndim:
        # ATen's logsumexp with no dims: amax(keepdim) reduces every dim, sum every dim too; the
        # maxima, squeezed over no dims, are added in place to a 0-d result (fine with keepdim or
        # an empty input, which takes log(sum(exp)))
        axes = tuple(range(input.ndim))
        if not keepdim and input.numel():
            raise RuntimeError("output with shape [] doesn't match the broadcast shape ["
                               + ", ".join(["1"] * input.ndim) + "]")
    data = input._data
    into = out is not None and out.dtype.is_floating_point
    if data.dtype.kind in "biu":
        data = data.astype(dtypes.get_default_dtype().numpy)
    attrs = {"axes": axes, "keepdim": bool(keepdim)}
    if into and out.dtype.numpy != data.dtype:
        attrs["into"] = out.dtype.numpy
    return finish_out("logsumexp", _logsumexp.apply((input,), (data,), attrs), out)
