"""``scatter_reduce`` (+ ``Tensor.scatter_reduce``/``scatter_reduce_``): ``src``'s values reduced
into a copy of ``input`` at ``index`` along ``dim`` by "sum", "prod", "mean", "amax" or "amin";
with ``include_self=False`` the written positions start from the reduction's identity.

Forward as ATen's CPU kernel: in index order (numpy's ``ufunc.at``), a mean divided by its
count (self counted when included; integers floor-divided).  Backward: derivatives.yaml's
scatter_reduce_backward (ScatterReduceBackward0), written with agrad ops:

- sum: ``grad`` / ``grad.gather(dim, index)``;
- mean: both divided by the count N (``N`` zeros made ones);
- amax/amin: the gradient shared equally among the values equal to the result;
- prod: ``grad * result / self`` with zeros masked, src's gradient through the product of the
  others (a single zero's product recomputed without it);

then, without include_self, ``input``'s gradient zeroed where ``src`` was scattered.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.graph import should_compute_output
from ..tensor import Tensor
from ._op import Op, export, finish_out, inplace, method
from .scatter_gather import _along, _expandable, _fmt, _scatter_prepare, gather, scatter, scatter_add

_REDUCES = ("sum", "prod", "mean", "amax", "amin")
_UFUNCS = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum, "amin": np.minimum}


def _identity(reduce, dtype):
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    if dtype.kind == "f":
        return -np.inf if reduce == "amax" else np.inf
    if dtype.kind == "b":
        return reduce == "amin"
    info = np.iinfo(dtype)
    return info.min if reduce == "amax" else info.max


def _reduce_fwd(ctx, a, src, dim, idx, reduce, include_self):
    out = a.copy()  # (C order, as scatter's meta allocates it)
    if not idx.size:
        return out
    where = _along(idx, dim)
    vals = src[tuple(slice(0, n) for n in idx.shape)] if src.ndim else np.broadcast_to(src, idx.shape)
    if not include_self:
        out[where] = _identity(reduce, a.dtype)
    _UFUNCS[reduce].at(out, where, vals)
    if reduce == "mean":
        count = np.ones(a.shape, a.dtype) if include_self else np.zeros(a.shape, a.dtype)
        np.add.at(count, where, 1)
        count[count == 0] = 1
        if a.dtype.kind == "f":
            out = (out / count).astype(a.dtype, copy=False)
        else:
            out = np.floor_divide(out, count)
    return out


_scatter_reduce = Op("ScatterReduceBackward0", _reduce_fwd, inputs=("self", "src"), saves=("self", "src", "result"),
                     keeps={"idx": "index"})


@_scatter_reduce.derivative
def _(ctx, grad):
    dim, reduce, include_self = ctx.dim, ctx.reduce, ctx.include_self
    index = Tensor._make(ctx.idx)
    self, src, result = ctx.self, ctx.src, ctx.result
    if reduce == "sum":
        g_self, g_src = grad, gather(grad, dim, index)
    elif reduce == "mean":
        n = grad.new_ones(grad.shape) if include_self else grad.new_zeros(grad.shape)
        n = scatter_add(n, dim, index, src.new_ones(src.shape))
        n = n.masked_fill(n == 0, 1)
        g_self = grad / n
        g_src = gather(grad, dim, index) / gather(n, dim, index)
    elif reduce in ("amax", "amin"):
        value = gather(result, dim, index)
        self_is_result = (self == result).to(self.dtype)
        src_is_result = (src == value).to(self.dtype)
        n_to_distribute = scatter_add(self_is_result, dim, index, src_is_result)
        grad_distributed = grad / n_to_distribute
        g_self = (self == result) * grad_distributed
        g_src = (src == value) * gather(grad_distributed, dim, index)
    else:  # prod
        masked_self = self.masked_fill(self == 0, 1)
        masked_self_result = scatter_reduce(masked_self, dim, index, src, "prod", include_self=include_self)
        g_self = grad * masked_self_result / masked_self
        src_zero = src == 0
        src_num_zeros = gather(scatter_add(self.new_zeros(self.shape), dim, index, src_zero.to(self.dtype)),
                               dim, index)
        src_single_zero = src_zero & (src_num_zeros == 1)
        masked_src = src.masked_fill(src_single_zero, 1)
        masked_src_result = scatter_reduce(self, dim, index, masked_src, "prod", include_self=include_self)
        from .selection import where
        g_src = where(src_single_zero, gather(grad * masked_src_result, dim, index),
                      gather(grad * result, dim, index) / src.masked_fill(src_zero, 1))
    if not include_self:
        g_self = scatter(g_self, dim, index, 0)
    if not should_compute_output(ctx, 1):  # (the running pass's needs: src's shape unchecked)
        return g_self, None
    src_shape = tuple(ctx._input_meta[1][0])
    if tuple(g_src.shape) != src_shape and not _expandable(src_shape, tuple(g_src.shape)):
        raise RuntimeError(f"Function ScatterReduceBackward0 returned an invalid gradient at index 1 - got "
                           f"{_fmt(g_src.shape)} but expected shape compatible with {_fmt(src_shape)}")
    return g_self, g_src


@export(method=True)
def scatter_reduce(input, dim, index, src, reduce, *, include_self=True, out=None):
    if reduce not in _REDUCES:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    if index.dtype not in (dtypes.int64, dtypes.int32) and index.numel():
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")
    d, idx = _scatter_prepare(input, dim, index, src, "scatter_reduce")
    result = _scatter_reduce.apply((input, src), (input._data, src._data),
                                   {"dim": d, "idx": idx, "reduce": reduce, "include_self": bool(include_self)})
    return finish_out("scatter_reduce", result, out)


method("scatter_reduce_")(inplace(scatter_reduce))
