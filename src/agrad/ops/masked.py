"""Selecting by a mask or by flat indices: masked_select, masked_scatter (and masked_scatter_),
take and take_along_dim.

Each op sits with its PyTorch node name and backward formula (derivatives.yaml /
FunctionsManual.cpp); formulas use agrad tensor ops only, so they are differentiable again.
"""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..autograd.grad_mode import _state as _grad_state
from ..tensor import Tensor, _scalar_name, _wrap_dim, _wrap_dim_no_scalar
from ._op import Op, export, finish_out, inplace, keep_tensor, method, with_out
from ._layout import empty_like
from .indexing import embed
from .scatter_gather import _bool_tensor, _index_array, gather
from .._warn_once import warn as _warn

def _check_mask(mask, who):
    if mask.dtype is not dtypes.bool_:
        if who == "masked_select":
            raise RuntimeError("masked_select: expected BoolTensor for mask")
        if mask.dtype is dtypes.uint8:  # (masked_scatter_'s deprecation warning, then its error)
            _warn("masked_scatter_ received a mask with dtype torch.uint8, this behavior is now deprecated,"
                  "please use a mask with dtype torch.bool instead.", UserWarning)
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype "
                           f"{_scalar_name(mask.dtype)}")


def _masked_select_fwd(ctx, a, mask):
    shape = np.broadcast_shapes(a.shape, mask.shape) or (1,)  # 0-d selects as 1-d (the engine sums back)
    ctx.shape = shape
    ctx.where = np.nonzero(np.broadcast_to(mask, shape))
    return np.broadcast_to(a, shape)[ctx.where]


# masked_select_backward(grad, self, mask) and take_backward(grad, self, index) save self (its version is
# checked) though they read its shape only
_masked_select = Op("MaskedSelectBackward0", _masked_select_fwd, jvp="linear", saves=("self",),
                    keeps={"mask": "mask"})


@_masked_select.derivative
def _(ctx, grad):
    # masked_select_backward: zeros_like(self.expand(broadcast shape), preserve) with grad where the mask is
    # set (masked_scatter_ in place: the zeros' layout, self's)
    if grad._requires_grad and _grad_state["enabled"]:
        # recorded: zeros.masked_scatter_(mask, grad), PyTorch's MaskedScatterBackward0 (edges None, grad)
        zeros = np.zeros(np.broadcast_shapes(tuple(ctx.input_shape), np.shape(ctx.mask)), grad._data.dtype)
        out = _masked_scatter.apply((Tensor._make(zeros), grad), (zeros, grad._data), {"mask": ctx.mask})
    else:
        out = embed(grad, ctx.shape, ctx.where)
    if out.ndim > 1 and type(ctx.self._data) is np.ndarray and type(out._data) is np.ndarray:
        laid = empty_like(np.broadcast_to(ctx.self._data, out._data.shape))
        laid[...] = out._data
        out._data = laid
    return out


def _broadcast_or_raise(a, b):
    from .pointwise import _mismatch_message
    try:
        return np.broadcast_shapes(a, b)
    except ValueError:
        raise RuntimeError(_mismatch_message(a, b)) from None


@export(method=True)
def masked_select(input, mask, *, out=None):
    _check_mask(mask, "masked_select")
    _broadcast_or_raise(mask._data.shape, input._data.shape)
    return finish_out("masked_select", _masked_select.apply((input,), (input._data,), {"mask": mask._data}), out,
                      inputs=(input, mask))


def _masked_scatter_fwd(ctx, a, src, mask, written=None):
    shape = np.broadcast_shapes(a.shape, mask.shape)
    out = np.broadcast_to(a, shape).copy()
    m = np.broadcast_to(mask, shape)
    n = int(m.sum())
    values = src.reshape(-1)[:n]
    if written is not None:
        values = _read_while_writing(written, src, m, values)
    out[m] = values
    return out


def _read_while_writing(a, src, m, values):
    """masked_scatter_ whose contiguous source shares memory with self (``a``): PyTorch's kernel
    writes the masked places one by one (in self's index order) while it reads the source, so a
    source element that an earlier write changed is read as written."""
    itemsize = a.itemsize
    a_ptr = a.__array_interface__["data"][0]
    src_ptr = src.__array_interface__["data"][0]
    written = {}
    values = values.copy()
    places = zip(*np.nonzero(m)) if m.ndim else [()] * bool(m)  # (a 0-d mask: one place or none)
    for k, place in enumerate(places):
        values[k] = written.get(src_ptr + k * itemsize, values[k])
        written[a_ptr + sum(i * st for i, st in zip(place, a.strides))] = values[k]
    return values


_masked_scatter = Op("MaskedScatterBackward0", _masked_scatter_fwd, inputs=("self", "source"), jvp="linear",
                     keeps={"mask": "mask"})


@_masked_scatter.derivative
def _(ctx, grad):
    mask = _bool_tensor(np.broadcast_to(ctx.mask, grad.shape))
    g_self = grad.masked_fill(mask, 0.0)  # derivatives.yaml: grad.masked_fill(mask, 0)
    g_src = None
    if ctx._input_meta[1] is not None:  # masked_scatter_backward: an op of its own
        m = np.broadcast_to(ctx.mask, grad.shape)
        g_src = _masked_scatter_backward.apply((grad,), (grad._data,),
                                               {"mask": m, "sizes": tuple(ctx._input_meta[1][0])})
    return g_self, g_src


def _masked_scatter_backward_fwd(ctx, g, mask, sizes):
    """The gradient's elements where the mask is set, in order, then zeros, in the source's shape."""
    picked = g[mask]
    out = np.zeros(math.prod(sizes), g.dtype)
    n = min(picked.size, out.size)
    out[:n] = picked[:n]
    return out.reshape(sizes)


_masked_scatter_backward = Op("MaskedScatterBackwardBackward0", _masked_scatter_backward_fwd, inputs=("grad_output",),
                              internal=True, jvp="linear", keeps={"mask": "mask"})


@_masked_scatter_backward.derivative
def _(ctx, grad):
    # zeros_like(grad_output).masked_scatter(mask, grad)
    shape = ctx.input_shape
    zeros = np.zeros(shape, grad._data.dtype)
    return _masked_scatter.apply((Tensor._make(zeros), grad), (zeros, grad._data), {"mask": ctx.mask})


#: masked_scatter's kernel's error when the mask has more ones than the source elements; the
#: in-place form has written the source's elements (the mask's first ones, in C order) by then
_SHORT_SOURCE = "Number of elements of source < number of ones in mask"


@export(method=True)
def masked_scatter(input, mask, source):
    _broadcast_or_raise(mask._data.shape, input._data.shape)  # (expand_outplace(mask, self) first)
    _check_source_dtype(input, source)  # (then masked_scatter_ on the expanded clone: its checks)
    _check_mask(mask, "masked_scatter")
    return _masked_scatter_impl(input, mask, source, None)


def _check_source_dtype(input, source):
    if source.dtype is not input.dtype:
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but got"
                           f"{_scalar_name(input.dtype)} and {_scalar_name(source.dtype)}")


def _masked_scatter_impl(input, mask, source, written):
    shape = _broadcast_or_raise(mask._data.shape, input._data.shape)
    if int(np.broadcast_to(mask._data, shape).sum()) > source.numel():
        raise RuntimeError(_SHORT_SOURCE)
    return _masked_scatter.apply((input, source), (input._data, source._data),
                                 {"mask": mask._data, "written": written})


@method("masked_scatter_")
def masked_scatter_(input, mask, source):
    data, src = input._data, getattr(source, "_data", None)
    aliased = (type(data) is np.ndarray and type(src) is np.ndarray and src.flags.c_contiguous
               and np.shares_memory(data, src))
    _written_memory[0] = data if aliased else None
    try:
        return _masked_scatter_inplace(input, mask, source)
    except RuntimeError as e:
        if str(e) == _SHORT_SOURCE:  # the kernel wrote the source's elements before it ran out
            where = np.nonzero(np.broadcast_to(mask._data, data.shape))
            n = source.numel()
            data[tuple(i[:n] for i in where)] = src.reshape(-1)[:n]
        raise
    finally:
        _written_memory[0] = None


def _masked_scatter_checked(input, mask, source):
    """masked_scatter_'s checks, after autograd's check of the in-place write (as in PyTorch): the
    dtypes of self and source, the mask expanded to self (expand's errors), the mask's dtype."""
    _check_source_dtype(input, source)
    if mask._data.shape != input._data.shape:
        mask.expand(input._data.shape)
    _check_mask(mask, "masked_scatter")
    return _masked_scatter_impl(input, mask, source, _written_memory[0])


# masked_scatter_ reads a contiguous source that shares self's memory as it writes: self's own
# array (the in-place wrapper hands _masked_scatter_checked a snapshot when it records)
_written_memory = [None]
_masked_scatter_inplace = inplace(_masked_scatter_checked, name="masked_scatter")


_take = Op("TakeBackward0", lambda ctx, a, idx: a.reshape(-1)[idx], jvp="linear", saves=("self",),
           keeps={"idx": "index"})


def _put_accumulate_fwd(ctx, s, src, shape, idx, like=None):
    out = np.zeros(shape, src.dtype)
    np.add.at(out.reshape(-1), idx.reshape(-1), src.reshape(-1))  # in index order, as put_ adds
    if like is not None:  # (zeros_like(self): laid out as take's input, a transposed one too)
        from ._layout import laid_out_like
        out = laid_out_like(like, out)
    return out


# take_backward: zeros_like(self).put_(index, grad, accumulate=True), a PutBackward0 node whose self
# (the zeros) has no edge
_put_accumulate = Op("PutBackward0", _put_accumulate_fwd, inputs=("self", "source"), internal=True,
                     jvp="linear", keeps={"idx": "index"})


@_put_accumulate.derivative
def _(ctx, grad):
    # derivatives.yaml, put with accumulate: self: grad, source: grad.take(index).reshape_as(source)
    return None, take(grad, Tensor._make(ctx.idx)).reshape(tuple(ctx._input_meta[1][0]))


@_take.derivative
def _(ctx, grad):
    return _put_accumulate.apply((None, grad), (None, grad._data), {"shape": tuple(ctx.input_shape), "idx": ctx.idx,
                                                                     "like": ctx.self._data})


@export(method=True)
@with_out("take", None, apart=1)
def take(input, index, *, out=None):
    if index.dtype is not dtypes.int64:
        raise RuntimeError(f"take(): Expected a long tensor for index, but got {_scalar_name(index.dtype)}")
    n = input.numel()
    idx = _index_array(index)
    if n == 0 and idx.size:
        raise IndexError("take(): tried to take from an empty tensor")
    bad = idx[(idx >= n) | (idx < -n)]
    if bad.size:
        raise IndexError(f"out of range: tried to access index {int(bad.flat[0])} on a tensor of {n} elements.")
    idx = np.where(idx < 0, idx + n, idx)
    return keep_tensor(_take.apply((input,), (input._data,), {"idx": idx}), _take, "index", index)


@export(method=True)
def take_along_dim(input, indices, dim=None, *, out=None):
    if dim is None:
        return finish_out("take_along_dim", gather(input.view(-1), 0, indices.view(-1)), out, inputs=(input,))
    if input.ndim != indices.ndim:
        raise RuntimeError(
            "torch.take_along_dim(): input and indices should have the same number of dimensions, but got "
            f"{input.ndim} dimensions for input, and {indices.ndim} dimensions for indices")
    if indices.dtype is not dtypes.int64:
        raise RuntimeError(
            f"torch.take_along_dim(): dtype of indices should be Long but got {_scalar_name(indices.dtype)}")
    d = _wrap_dim_no_scalar(_wrap_dim(dim, input.ndim), input.ndim)  # (wrapped, then self.size(dim))
    self_sizes = list(input._data.shape)
    self_sizes[d] = indices._data.shape[d]
    ishape = _broadcast_or_raise(tuple(self_sizes), indices._data.shape)
    idx_sizes = list(indices._data.shape)
    idx_sizes[d] = input._data.shape[d]
    sshape = _broadcast_or_raise(tuple(idx_sizes), input._data.shape)
    size = input._data.shape[d]
    if not size and indices.numel():
        raise RuntimeError("ZeroDivisionError")
    if size:  # PyTorch 2.13 takes any index along ``dim`` modulo its size ([1, 5, 9] at -2 or 4 is 5)
        indices = Tensor._make(np.mod(indices._data, size))
    return finish_out("take_along_dim", gather(input.expand(sshape), d, indices.expand(ishape)), out, inputs=(input,))
