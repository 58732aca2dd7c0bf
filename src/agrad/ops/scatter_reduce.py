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

import functools

import numpy as np

from .. import dtypes
from ..autograd.graph import should_compute_output
from ..tensor import Tensor
from . import _scatter_overlap, _written_before
from ._op import Op, export, finish_out, keep_tensor, method
from ._vector_loop import tie_by_loop
from .scatter_gather import (_along, _expandable, _fmt, _scatter_meta, _scatter_prepare, gather, no_overlap_inplace,
                             scatter, scatter_add, scatter_out_checks)

_REDUCES = ("sum", "prod", "mean", "amax", "amin")

# PyTorch's DelayedError: the gradient passed through unchanged, its own gradient an error
_delayed_error = Op("torch::autograd::Error", lambda ctx, a, message: a.view(), internal=True)


@_delayed_error.derivative
def _(ctx, grad):
    raise RuntimeError(ctx.message)


def _delayed(g_src, num_zeros, message):
    """``g_src`` behind a DelayedError when it is recorded and more than one zero of the source
    met at one position (its derivative there is not defined)."""
    if g_src._requires_grad and bool((num_zeros._data > 1).any()):
        return _delayed_error.apply((g_src,), (g_src._data,), {"message": message})
    return g_src
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


def _zero_ties(out, a, where, vals):
    """ATen's std::min/std::max keep the value held on a tie, numpy's minimum/maximum take the
    newer one: the two differ only in the sign of a zero result, which is the first zero met (the
    input's own value first, ``a`` when included, then the scattered values in index order)."""
    zero = out.reshape(-1) == 0
    if not zero.any():
        return
    flat = out.reshape(-1)  # (out is a C-ordered copy: a view)
    pos = np.ravel_multi_index(np.broadcast_arrays(*where), out.shape).reshape(-1)
    v = vals.reshape(-1)
    z = v == 0
    first, at = np.unique(pos[z], return_index=True)
    take = zero[first]
    flat[first[take]] = v[z][at[take]]
    if a is not None:  # (the input's zero came first)
        own = zero & (a.reshape(-1) == 0)
        flat[own] = a.reshape(-1)[own]


def _reduce_fwd(ctx, a, src, dim, idx, reduce, include_self):
    out = a.copy()  # (C order, as scatter's meta allocates it)
    if not idx.size:
        return out
    if a.ndim == 0:  # every index entry reduces into the one element (as a 1-element 1-d self)
        vals = src.reshape(-1)[:idx.size] if src.ndim else np.broadcast_to(src, idx.size)
        return _reduce_fwd(ctx, a.reshape(1), vals, 0, np.zeros(idx.size, np.intp), reduce, include_self).reshape(())
    where = _along(idx, dim)
    vals = src[tuple(slice(0, n) for n in idx.shape)] if src.ndim else np.broadcast_to(src, idx.shape)
    if not include_self:
        out[where] = _identity(reduce, a.dtype)
    _UFUNCS[reduce].at(out, where, vals)
    if reduce in ("amax", "amin") and out.dtype.kind == "f":
        _zero_ties(out, a if include_self else None, where, vals)
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
        g_src = _delayed(g_src, src_num_zeros, "scatter_reduce(): Double backward is unsupported for src when >1 zeros "
                         "in src are scattered to the same position in self")
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
    scatter_out_checks("scatter_reduce", input, dim, index, src, out)
    if index.dtype not in (dtypes.int64, dtypes.int32) and index.numel():
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")
    if reduce == "mean" and input.dtype is dtypes.bool_:  # the mean kernel before its loop's index bounds (nothing
        # to scatter: the division by the counts); without self, the scatter_ of the initial values first
        (_scatter_meta if include_self else _scatter_prepare)(input, dim, index, src, "scatter_reduce")
        kernel = "scatter_gather_tensor_cpu_reduce_mean" if index.numel() else "div_floor_cpu"
        raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')
    if include_self:  # (the kernel's loop, combining in the index's C order; mean: its sums)
        combine = {"sum": True, "mean": True, "prod": np.multiply, "amax": np.maximum, "amin": np.minimum}[reduce]
        d, idx = _scatter_prepare(input, dim, index, src, "scatter_reduce", add=combine)
    else:  # (its scatter_ of the reduction's initial value first: what that wrote before a bad index)
        init = {"sum": 0, "mean": 0, "prod": 1, "amax": -np.inf, "amin": np.inf}[reduce]
        if input.dtype.is_floating_point is False and reduce in ("amax", "amin"):
            info = np.iinfo(input._data.dtype) if input._data.dtype != np.bool_ else None
            init = (info.min if reduce == "amax" else info.max) if info is not None else reduce == "amin"
        _scatter_meta(input, dim, index, src, "scatter_reduce")  # (src's checks first, as the meta function)
        d, idx = _scatter_prepare(input, dim, index, init, "scatter_reduce")
    result = keep_tensor(_scatter_reduce.apply((input, src), (input._data, src._data),
                                               {"dim": d, "idx": idx, "reduce": reduce, "include_self": bool(include_self)}),
                         _scatter_reduce, "index", index)
    return finish_out("scatter_reduce", result, out, inputs=(index, src))


method("scatter_reduce_")(no_overlap_inplace(scatter_reduce, replay=_scatter_overlap.scatter_values))


# index_reduce ---------------------------------------------------------------------------------------
# ``source``'s slices along ``dim`` reduced into ``input``'s slices at ``index`` (a vector): the same
# reduction as scatter_reduce's with the index expanded over source; its backward is derivatives.yaml's
# index_reduce_backward (index_add / index_select / index_fill in place of scatter_add / gather / scatter).

def _expanded(idx, dim, shape):
    view = [1] * len(shape)
    if shape:
        view[dim] = -1
    return np.broadcast_to(idx.reshape(view), shape) if shape else idx.reshape(())


def _index_reduce_fwd(ctx, a, source, dim, idx, reduce, include_self):
    out = _reduce_fwd(ctx, a, source, dim, _expanded(idx, dim, source.shape), reduce, include_self)
    if reduce in ("amax", "amin") and out.dtype.kind == "f" and a.ndim > 1 and idx.size and (
            (out == 0).any() or np.isnan(out).any()):  # (a tie of zeros or a NaN: the slice loop decides their bits)
        out = a.copy()
        layout = _RESULT_LAYOUT[0]
        _reduced_slices(dim, idx, source, reduce, None if include_self else idx,
                        layout if layout is not None and layout.shape == a.shape else None)(out)
    return out


#: index_reduce's result while it runs in place or into an out= of self's shape: its layout, not the
#: fresh C-ordered one's, decides which elements each slice's vector code takes
_RESULT_LAYOUT = [None]


_index_reduce = Op("IndexReduceBackward0", _index_reduce_fwd, inputs=("self", "source"),
                   saves=("self", "source", "result"), keeps={"idx": "index"})


@_index_reduce.derivative
def _(ctx, grad):
    from .index_fill import index_fill
    from .scatter_gather import index_add, index_select
    from .selection import where

    dim, reduce, include_self = ctx.dim, ctx.reduce, ctx.include_self
    index = Tensor._make(ctx.idx)
    self, source, result = ctx.self, ctx.source, ctx.result
    if reduce == "prod":
        masked_self = self.masked_fill(self == 0, 1)
        masked_self_result = index_reduce(masked_self, dim, index, source, reduce, include_self=include_self)
        g_self = grad * masked_self_result / masked_self
        src_zero = source == 0
        src_num_zeros = index_select(index_add(self.new_zeros(self.shape), dim, index, src_zero.to(self.dtype)),
                                     dim, index)
        src_single_zero = src_zero & (src_num_zeros == 1)
        masked_src = source.masked_fill(src_single_zero, 1)
        masked_src_result = index_reduce(self, dim, index, masked_src, reduce, include_self=include_self)
        g_src = where(src_single_zero, index_select(grad * masked_src_result, dim, index),
                      index_select(grad * result, dim, index) / source.masked_fill(src_zero, 1))
        g_src = _delayed(g_src, src_num_zeros, "index_reduce(): Double backward is unsupported for source when >1 zeros "
                         "in source are scattered to the same position in self")
    elif reduce == "mean":
        n = grad.new_ones(grad.shape) if include_self else grad.new_zeros(grad.shape)
        n = index_add(n, dim, index, source.new_ones(source.shape))
        n = n.masked_fill(n == 0, 1)
        g_self = grad / n
        g_src = index_select(grad, dim, index) / index_select(n, dim, index)
    else:  # amax, amin
        value = index_select(result, dim, index)
        self_is_result = (self == result).to(self.dtype)
        source_is_result = (source == value).to(self.dtype)
        n_to_distribute = index_add(self_is_result, dim, index, source_is_result)
        grad_distributed = grad / n_to_distribute
        g_self = self_is_result * grad_distributed
        g_src = source_is_result * index_select(grad_distributed, dim, index)
    if not include_self:
        g_self = index_fill(g_self, dim, index, 0)
    return g_self, g_src


def _reduced_slices(d, good, source, reduce, filled=None, layout=None):
    """index_reduce_'s loop over the index: each good index's slice of ``self`` combined with its
    slice of ``source`` (mean: added, its division comes after the loop); ``filled``, an excluded
    self's: all its index's slices (negatives from the end) set to the reduction's identity first.
    ``layout``: an array laid out as the result is, where the written array is not."""
    combine = {"prod": np.multiply, "mean": np.add, "amax": np.maximum, "amin": np.minimum}[reduce]
    if reduce in ("amax", "amin") and source.dtype.kind == "f" and source.ndim > 1:
        # (self's more dims: each slice a maximum_stub / minimum_stub, whose vector code takes the
        # source's zero on a tie, its scalar loop self's)
        combine_in = tie_by_loop(combine)
    else:
        combine_in = None

    def write(a):
        if not a.size:  # (an empty self: index_fill_ checked no index)
            return
        if filled is not None and a.ndim:
            a[(slice(None),) * d + (np.where(filled < 0, filled + a.shape[d], filled),)] = _identity(reduce, a.dtype)
        elif filled is not None and filled.size:  # (a 0-d self: its one element, index 0 or -1)
            a[()] = _identity(reduce, a.dtype)
        for k, i in enumerate(good):
            part = (slice(None),) * d + (int(i),)
            if combine_in is None:
                a[part] = combine(a[part], source[(slice(None),) * d + (k,)]).astype(a.dtype)
            else:
                a[part] = combine_in(a[part], source[(slice(None),) * d + (k,)],
                                     a[part] if layout is None else layout[part]).astype(a.dtype)
    return write


@export(method=True)
def index_reduce(input, dim, index, source, reduce, *, include_self=True, out=None):
    from .._warn_once import warn_once
    from ..tensor import _scalar_name, _wrap_dim

    _reduce_named_first(input, dim, index, source, reduce)
    d = _wrap_dim(dim, max(input.ndim, 1))
    if index.dtype not in (dtypes.int64, dtypes.int32):
        raise RuntimeError(f"index_reduce_(): Expected dtype int32/int64 for index but got: {_scalar_name(index.dtype)}")
    if index.ndim > 1:
        raise IndexError(f"index_reduce_(): Index is supposed to be a vector, but got dim: {index.ndim} with type: "
                         f"{_scalar_name(index.dtype)} and size: {list(index.shape)}")
    if source.dtype is not input.dtype:
        raise RuntimeError(f"index_reduce_(): self ({_scalar_name(input.dtype)}) and source "
                           f"({_scalar_name(source.dtype)}) must have the same scalar type")
    if d != 0 and d >= source.ndim:
        raise RuntimeError(f"index_reduce_(): Indexing dim {d} is out of bounds of the source tensor with dim "
                           f"{source.ndim}")
    n = source.shape[d] if source.ndim else 1
    if index.numel() != n:
        raise RuntimeError(f"index_reduce_(): Number of indices ({index.numel()}) should be equal to "
                           f"source.size(dim): ({n}), for dim: {d}")
    # (index_func_meta_impl: the slices without dim, of tensors of as many dims: a 0-d self takes a 0-d source)
    if source.ndim != input.ndim or [s for k, s in enumerate(input.shape) if k != d] != \
            [s for k, s in enumerate(source.shape) if k != d]:
        raise RuntimeError(f"source tensor shape must match self tensor shape, excluding the specified dimension. "
                           f"Got self.shape = {list(input.shape)} source.shape = {list(source.shape)}")
    if out is not None and out.dtype is not input.dtype:  # (the meta's set_output: before the kernel and its warning)
        from ._outs import _C_TYPE
        raise RuntimeError(f"Expected out tensor to have dtype {_C_TYPE[input.dtype.name]}, but got "
                           f"{_C_TYPE[out.dtype.name]} instead")
    size = input.shape[d] if input.ndim else 1
    idx = index._data.reshape(-1).astype(np.int64)
    warn_once("index_reduce() is in beta and the API may change at any time.")  # (the kernel's: after the checks)
    if input.dtype is dtypes.bool_:  # index_reduce_func_impl's dispatches without bool: the init of an excluded
        # self; one dim or none, the loop's; more, mean's division by the counts (after the loop's bounds checks)
        if not include_self or input.ndim <= 1:
            kernel = "index_reduce_func_exclude_input_init" if not include_self else "index_func_"
            raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')
    if not include_self:  # the excluded self's initial values go in by index_fill_ (its errors, and what it
        from ..autograd import grad_mode  # filled before a bad index: the reduction's identity)
        from .index_fill import index_fill

        with grad_mode.no_grad():
            index_fill(input.detach(), d, Tensor._make(idx), _identity(reduce, input._data.dtype))
    if input.ndim > 1 and idx.size and not size:
        raise IndexError(f"select(): index 0 out of range for tensor of size {list(input.shape)} at dimension {d}")
    if ((idx >= size) | (idx < 0)).any():  # (the kernel's loop reduced the slices of the indices before it)
        raise _written_before.attach(IndexError("index out of range in self"), _reduced_slices(
            d, idx[:_written_before.first_bad(idx, 0, size)], source._data, reduce, None if include_self else idx))
    if input.dtype is dtypes.bool_ and reduce == "mean" and idx.size:  # (the loop has added every slice in)
        raise _written_before.attach(NotImplementedError('"div_floor_cpu" not implemented for \'Bool\''),
                                     _reduced_slices(d, idx, source._data, reduce))
    if out is not None and type(out._data) is np.ndarray:
        _RESULT_LAYOUT[0] = out._data
    try:
        result = keep_tensor(_index_reduce.apply((input, source), (input._data, source._data),
                                             {"dim": d, "idx": idx, "reduce": reduce, "include_self": bool(include_self)}),
                         _index_reduce, "index", index)
    finally:
        _RESULT_LAYOUT[0] = None
    return finish_out("index_reduce", result, out, inputs=(index, source))


def _reduce_named_first(self, dim, index, source, reduce, *args, **kwargs):
    """index_reduce_'s check of ``reduce`` comes before the internal-overlap error (its meta function)."""
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}.")


_index_reduce_ = no_overlap_inplace(index_reduce, checks=_reduce_named_first,
                                    replay=functools.partial(_scatter_overlap.index_values, kind="reduce"))


@method("index_reduce_")
def index_reduce_(self, *args, **kwargs):
    _RESULT_LAYOUT[0] = self._data if type(self._data) is np.ndarray else None  # (self is the result)
    try:
        return _index_reduce_(self, *args, **kwargs)
    finally:
        _RESULT_LAYOUT[0] = None


index_reduce_.__doc__ = _index_reduce_.__doc__
