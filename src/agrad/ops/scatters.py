"""Writing a tensor into part of a copy of another: ``select_scatter``, ``slice_scatter``,
``diagonal_scatter`` (the view's region of ``input`` replaced by ``src``) and ``put``/``put_``
(elements at flat indices, optionally accumulated).

Formulas as derivatives.yaml gives them: ``input`` gets the gradient with the written region
zeroed (the same scatter of zeros), ``src`` the gradient's view of that region (``put``: the
gradient taken at the indices).  Results have ``input``'s strides (ATen's clone_preserve_strides, then the write).
"""

from __future__ import annotations

import numpy as np
from numpy.lib.array_utils import byte_bounds as _bounds

from .. import dtypes
from ..tensor import Tensor, _wrap_dim
from . import _layout, _written_before
from ._op import Op, export, keep_tensor, method
from .scatter_gather import no_overlap_inplace


def _region(kind, args):
    """The numpy index of the region select (dim, index) or slice (dim, start, end, step) writes."""
    if kind == "select":
        dim, index = args
        return (slice(None),) * dim + (index,)
    dim, start, end, step = args
    return (slice(None),) * dim + (slice(start, end, step),)


def _written(ctx, a, src, kind, args):
    out = _layout.strided_copy(a)
    if kind == "diagonal":
        _diagonal_view(out, *args)[...] = src
    else:
        out[_region(kind, args)] = src
    return out


def _diagonal_view(a, offset, dim1, dim2):
    """numpy's writable diagonal view of ``a`` along (dim1, dim2), last in its dims as PyTorch's."""
    view = np.moveaxis(a, (dim1, dim2), (-2, -1))
    rows, cols = view.shape[-2], view.shape[-1]
    n = max(0, min(rows + min(offset, 0), cols - max(offset, 0)))
    start = (-offset if offset < 0 else 0, offset if offset > 0 else 0)
    s = view.strides
    base = view[..., start[0]:, start[1]:] if n else view[..., :0, :0]
    return np.lib.stride_tricks.as_strided(base, view.shape[:-2] + (n,), s[:-2] + (s[-2] + s[-1],))


_OPS = {kind: Op(f"{kind.capitalize()}ScatterBackward0", _written, inputs=("self", "src"), jvp="linear")
        for kind in ("select", "slice", "diagonal")}


def _formula(kind):
    def formula(ctx, grad):
        g_src = None
        if ctx.needs(1):
            g_src = _view_of(grad, kind, ctx.args)
        g_self = None
        if ctx.needs(0):
            zeros = Tensor._make(np.zeros(_view_of(grad.detach(), kind, ctx.args).shape, grad._data.dtype))
            g_self = _scatter(kind, grad, zeros, ctx.args)
        return g_self, g_src
    return formula


for _kind, _op in _OPS.items():
    _op.derivative(_formula(_kind))


def _view_of(t, kind, args):
    if kind == "select":
        return t.select(*args)
    if kind == "diagonal":
        return t.diagonal(*args)
    dim, start, end, step = args
    from .indexing import _slice, _view
    # (at::slice: a SliceBackward0 over all of it too, where ``t[:]`` would be an alias)
    return _view(_slice, t, t._data, {"index": (slice(None),) * dim + (slice(start, end, step),)})


def _scatter(kind, input, src, args):
    expected = tuple(_view_of(input.detach(), kind, args).shape)
    if tuple(src.shape) != expected:
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = {list(src.shape)}, "
                           f"slice size = {list(expected)}")
    src_data = src._data if src._data.dtype == input._data.dtype else src._data.astype(input._data.dtype)
    return _OPS[kind].apply((input, src), (input._data, src_data), {"kind": kind, "args": args})


@export(method=True)
def select_scatter(input, src, dim, index):
    if input.ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = _wrap_dim(dim, input.ndim)
    size = input.shape[d]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size {list(input.shape)} at "
                         f"dimension {d}")
    return _scatter("select", input, src, (d, index + size if index < 0 else index))


@export(method=True)
def slice_scatter(input, src, dim=0, start=None, end=None, step=1):
    if input.ndim == 0:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    d = _wrap_dim(dim, input.ndim)
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    start, end, _ = slice(start, end, step).indices(input.shape[d])
    return _scatter("slice", input, src, (d, start, max(end, start), step))


@export(method=True)
def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    d1, d2 = _wrap_dim(dim1, input.ndim), _wrap_dim(dim2, input.ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return _scatter("diagonal", input, src, (offset, d1, d2))


# put ----------------------------------------------------------------------------------------

def _put_fwd(ctx, a, source, idx, accumulate, source_shape, order=None):
    """put_'s kernel: TensorIterator over (source, index reshaped to it) visits the elements with the
    dims in ``order`` (by the source's strides: a transposed source in its memory order), so a repeated
    index keeps the value visited last, and accumulate adds them in that order."""
    flat = np.array(a, order="C").reshape(-1)
    values = source.reshape(-1)
    if order is not None:
        values = np.transpose(source, order).reshape(-1)
        idx = np.transpose(idx.reshape(source_shape), order).reshape(-1)
    if accumulate:
        np.add.at(flat, idx, values)
    else:
        flat[idx] = values
    out = _layout.empty_like(a)
    out[...] = flat.reshape(a.shape)
    return out


# (PyTorch's node saves source when source requires grad (its gradient's reshape_as), so a change of it in place,
# or of its base, before the backward is the version-counter error)
_put = Op("PutBackward0", _put_fwd, inputs=("self", "source"), jvp="linear", keeps={"idx": "index"},
          saves=("source",), saves_for={"source": (1,)})


@_put.derivative
def _(ctx, grad):
    idx = ctx.idx
    g_source = None
    if ctx.needs(1):
        g_source = grad.take(Tensor._make(idx)).reshape(ctx.source_shape)
    g_self = None
    if ctx.needs(0):
        if ctx.accumulate:
            g_self = grad
        else:
            zeros = Tensor._make(np.zeros(ctx.source_shape, grad._data.dtype))
            g_self = _put.apply((grad, zeros), (grad._data, zeros._data),
                                {"idx": idx, "accumulate": False, "source_shape": ctx.source_shape})
    return g_self, g_source


def _put_checks(input, index, source, *_, **__):
    if not isinstance(index, Tensor) or index.dtype is not dtypes.int64:
        got = index.dtype if isinstance(index, Tensor) else type(index).__name__
        raise RuntimeError(f"put_(): Expected a long tensor for index, but got {_scalar(got)}")
    if source.dtype is not input.dtype:
        raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got self.dtype = "
                           f"{_scalar(input.dtype)} and source.dtype = {_scalar(source.dtype)}")
    if index.numel() != source.numel():
        raise IndexError(f"put_(): Expected source and index to have the same number of elements, but got "
                         f"source.numel() = {source.numel()}, index.numel() = {index.numel()}")


@export(method=True)
def put(input, index, source, accumulate=False):
    _put_checks(input, index, source)
    n = input.numel()
    idx = index._data.reshape(-1).astype(np.int64)
    if n == 0 and idx.size:
        raise IndexError("put_(): Tried to put elements into an empty tensor")
    bad = (idx >= n) | (idx < -n)
    if bad.any():
        count = int(np.flatnonzero(bad)[0])
        i = int(idx[count])
        raise _written_before.attach(
            IndexError(f"out of range: tried to access index {i} on a tensor of {n} elements."),
            _written_before.flat_prefix(idx, count, source._data, bool(accumulate)))
    idx = np.where(idx < 0, idx + n, idx)
    src = source._data
    order = _layout.iteration_order(src.shape, [src, idx.reshape(src.shape)]) if src.ndim > 1 else None
    order = None if order is None or list(order) == sorted(order) else tuple(order)
    if _live[0] is not None and np.may_share_memory(_live[0]._data, src) \
            and np.shares_memory(_live[0]._data, src):
        src = _read_live(_live[0]._data, src, idx, order, bool(accumulate))
    return keep_tensor(_put.apply((input, source), (input._data, src),
                                  {"idx": idx, "accumulate": bool(accumulate), "source_shape": tuple(source.shape),
                                   "order": order}),
                       _put, "index", index)


def _scalar(d):
    from ..tensor import _scalar_name
    return _scalar_name(d) if isinstance(d, dtypes.dtype) else d


_live = [None]  # put_'s self while it runs: a source sharing its memory is read live


def _read_live(a, s, idx, order, accumulate):
    """put_ of a source that shares memory with self: PyTorch's serial loop reads each source element
    when it visits it, after the earlier writes (``x[::2].put_(i, x, accumulate=True)``). Replays that
    loop on a scratch copy of the memory both cover and returns the values each visit read, laid out
    as the source (so the op, visiting in the same order, writes what PyTorch writes)."""
    size = a.itemsize
    starts = [x.__array_interface__["data"][0] for x in (a, s)]
    lo = min(_bounds(a)[0], _bounds(s)[0])
    hi = max(_bounds(a)[1], _bounds(s)[1])
    if any((p - lo) % size for p in starts):
        return s
    scratch = np.empty((hi - lo) // size, a.dtype)
    va, vs = (np.lib.stride_tricks.as_strided(scratch[(p - lo) // size:], x.shape, x.strides)
              for p, x in zip(starts, (a, s)))
    vs[...] = s
    va[...] = a
    pos = np.arange(s.size).reshape(s.shape)
    if order is not None:
        pos = np.transpose(pos, order)
        idx = np.transpose(idx.reshape(s.shape), order)
    pos, idx = pos.reshape(-1), idx.reshape(-1)
    s_at = list(zip(*np.unravel_index(pos, s.shape))) if s.ndim else [()] * len(pos)
    a_at = list(zip(*np.unravel_index(idx, a.shape))) if a.ndim else [()] * len(idx)
    out = np.empty(s.shape, s.dtype)
    with np.errstate(all="ignore"):
        for k, at in enumerate(s_at):
            v = vs[at]
            out[at] = v
            if accumulate:
                va[a_at[k]] = va[a_at[k]] + v
            else:
                va[a_at[k]] = v
    return out


_put_inplace = no_overlap_inplace(put, name="put", checks=_put_checks)


def put_(self, *args, **kwargs):
    _live[0] = self if type(self) is Tensor else None
    try:
        return _put_inplace(self, *args, **kwargs)
    finally:
        _live[0] = None


put_.__name__ = put_.__qualname__ = _put_inplace.__name__
put_.__doc__ = _put_inplace.__doc__
method("put_")(put_)
