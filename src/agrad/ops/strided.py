"""Tensors by their memory layout: ``as_strided`` (a view of the tensor's storage by sizes,
strides and an offset; AsStridedBackward0), ``empty_strided`` (a new tensor of those sizes
and strides, zeros as agrad's ``empty`` gives) and ``asarray`` (PyTorch's array-API
constructor: a tensor as it is when it can be, else converted or copied).

A tensor's storage here is the numpy buffer its data is a view of; ``as_strided``'s default
offset is the tensor's own, as in PyTorch.  Its gradient reaches the input's elements the
view reads (PyTorch's as_strided_backward in storage space, then read back at the input's
positions); what the view reads outside the input's elements gets no gradient.
"""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from .._warn_once import warn_once
from .._zero import view_of
from ..tensor import Tensor
from ..autograd import graph
from ._layout import numpy_strides, storage_of, strided_copy, view_at
from ._op import Op, export
from .factories import _check_options, _dtype_or_default, _finish, as_tensor, tensor


def _ints(values):
    return [int(v) for v in values]


def _strided_view(input, size, stride, storage_offset):
    size, stride = _ints(size), _ints(stride)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in stride):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, got strides: {stride}")
    if all(n >= 0 for n in size) and math.prod(size) > 100_000:  # (before the positions are listed)
        from .._limits import check_numel
        check_numel(math.prod(size))
    a = input._data
    found = storage_of(np.asarray(a))
    if found is None:
        raise RuntimeError("agrad: as_strided of a tensor whose memory is not one buffer (a broadcast or an "
                           "expanded tensor) is not supported")
    flat, own = found
    offset = own if storage_offset is None else int(storage_offset)
    need = 0 if 0 in size else offset + sum((n - 1) * s for n, s in zip(size, stride)) + 1
    if need * a.itemsize > flat.nbytes:  # (setStrided: the bounds, then the offset's sign)
        raise RuntimeError(f"setStorage: sizes {size}, strides {stride}, storage offset {offset}, and itemsize "
                           f"{a.itemsize} requiring a storage size of {need * a.itemsize} are out of bounds for "
                           f"storage of size {flat.nbytes}")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    strides = numpy_strides(size, [s * a.itemsize for s in stride])
    if need:
        view = np.lib.stride_tricks.as_strided(flat[offset:], tuple(size), strides, writeable=a.flags.writeable)
    else:  # (empty: it carries its strides, and its offset, past the storage's end too)
        view = view_at(flat.reshape(-1).view(np.uint8), offset * a.itemsize, size, strides, a.dtype)
        if not a.flags.writeable:
            view.flags.writeable = False
    positions = offset + sum(np.arange(n).reshape((-1,) + (1,) * (len(size) - 1 - d)) * s
                             for d, (n, s) in enumerate(zip(size, stride))) if size else np.asarray(offset)
    return view, np.asarray(positions, np.int64), flat, own


@export(method=True)
def as_strided(input, size, stride, storage_offset=None):
    view, positions, flat, own = _strided_view(input, size, stride, storage_offset)
    view = view_of(input._data, view)
    from .inplace_view import _take

    if input._requires_grad:
        out = _take.apply((input,), (input._data,), {"idx": _reads_of(input, flat, positions)})
        out._data = view
    else:
        out = Tensor._make(view)
    out._make_view_of(input)
    return out


def _reads_of(input, flat, positions):
    """Where in ``input`` (its elements in C order) each storage position of ``positions`` is."""
    # the input's own storage positions, in its logical order: where each output element is read
    input_pos = _input_positions(input._data, flat)
    order = np.argsort(input_pos, kind="stable")
    where = np.searchsorted(input_pos[order], positions.reshape(-1))
    where = np.clip(where, 0, max(input_pos.size - 1, 0))
    flat_pos = positions.reshape(-1)
    outside = input_pos[order][where] != flat_pos if input_pos.size else np.ones(flat_pos.shape, bool)
    reads = order[where] if input_pos.size else np.zeros(flat_pos.shape, np.int64)
    if outside.any():
        # storage the input does not hold: an index past its elements, one per storage position (the
        # gradient read there is dropped, as as_strided_backward reads its storage back at the input's)
        reads = np.where(outside, input_pos.size + np.unique(flat_pos[outside], return_inverse=True)[1]
                         .reshape(-1)[np.cumsum(outside) - 1], reads)
    return reads.reshape(positions.shape)


# as_strided_scatter: a copy of the input with the strided view's elements replaced ------------

def _scatter_forward(ctx, a, src, size, stride, storage_offset, idx):
    out = strided_copy(a)  # (ATen's clone_preserve_strides)
    view = _strided_view(Tensor._make(out), size, stride, storage_offset)[0]
    view[...] = src
    return out


_as_strided_scatter = Op("AsStridedScatterBackward0", _scatter_forward, inputs=("self", "src"), jvp="linear")


@_as_strided_scatter.derivative
def _(ctx, grad):
    """PyTorch 2.13's as_strided_scatter_backward: the slice of the (contiguous) gradient read at the
    view's storage positions is src's gradient, and, placed in zeros, self's too (not its complement)."""
    from .inplace_view import replace
    # src's gradient is a view of the (contiguous) incoming gradient, as_strided's, as PyTorch's (it aliases
    # the caller's gradient; a view past that gradient's elements is as_strided's setStorage error)
    part = as_strided(grad.contiguous(), ctx.size, ctx.stride, ctx.storage_offset)
    full = replace(Tensor._make(np.zeros(grad.shape, grad._data.dtype)), part, ctx.idx)
    strides = [int(np.prod(grad.shape[d + 1:])) for d in range(grad.ndim)]
    return as_strided(full, grad.shape, strides, 0), part  # (the buffer read back at self's geometry)


@export(method=True)
def as_strided_scatter(input, src, size, stride, storage_offset=None):
    grads = graph._state["enabled"] and (input._requires_grad or src._requires_grad)
    if input._requires_grad and not input.is_contiguous():
        raise RuntimeError(
            '!self.requires_grad() || self.is_contiguous() INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/'
            'ATen/native/TensorShape.cpp":4754, please report a bug to PyTorch. as_strided_scatter is currently only '
            "supported for contiguous inputs")
    holder = Tensor._make(strided_copy(input._data))
    view, positions, flat, own = _strided_view(holder, size, stride, storage_offset)
    if view.shape != src._data.shape:
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = {list(src.shape)}, "
                           f"slice size = {list(view.shape)}")
    if view.size > 1 and any(int(st) == 0 and n > 1 for n, st in zip(view.shape, stride)):  # (slice.copy_(src))
        raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a single "
                           "memory location. Please clone() the tensor before performing the operation.")
    # (read in the gradient as if it were the storage, as ATen's: the contiguous gradient's offset is 0, so
    # a view at self's own offset, storage_offset None, is read from the gradient's first element on)
    idx = positions - (input.storage_offset() if storage_offset is None else 0) if grads else None
    arrays = (input._data, src._data if src.dtype is input.dtype else src._data.astype(input._data.dtype))
    return _as_strided_scatter.apply((input, src), arrays, {"size": tuple(size), "stride": tuple(stride),
                                                           "storage_offset": storage_offset, "idx": idx})


def _input_positions(a, flat):
    """The storage position of each element of ``a`` (a view of ``flat``), in C order."""
    start = (a.__array_interface__["data"][0] - flat.__array_interface__["data"][0]) // max(a.itemsize, 1)
    positions = np.full(a.shape, start, np.int64)
    for d, (n, s) in enumerate(zip(a.shape, a.strides)):
        positions += np.arange(n).reshape((-1,) + (1,) * (a.ndim - 1 - d)) * (s // a.itemsize)
    return positions.reshape(-1)


@export()
def empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor of ``size`` laid out with ``stride`` (agrad fills "uninitialised" memory
    with zeros, as ``empty`` does)."""
    _check_options(layout, pin_memory)
    size, stride = _ints(size), _ints(stride)
    if len(size) != len(stride):
        raise RuntimeError(f"dimensionality of sizes ({len(size)}) must match dimensionality of strides "
                           f"({len(stride)})")
    d = _dtype_or_default(dtype)
    need = 0 if 0 in size else sum((n - 1) * s for n, s in zip(size, stride)) + 1
    buffer = np.zeros(need, d.numpy)
    data = np.lib.stride_tricks.as_strided(buffer, tuple(size), numpy_strides(size, [s * buffer.itemsize for s in stride]))
    return _finish(data, requires_grad, device)


_UNSET = object()


@export()
def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=_UNSET):
    if isinstance(obj, Tensor):
        if requires_grad is _UNSET:
            if obj._requires_grad:
                warn_once("torch.asarray: unspecified requires_grad now defaults to obj.requires_grad instead of "
                          "False. Pass requires_grad=False explicitly to get the old behavior and silence this "
                          "warning.")
            requires_grad = obj._requires_grad
        d = obj.dtype if dtype is None else dtypes.lookup(dtype)
        if d is not obj.dtype:
            if copy is False:
                from ..tensor import _scalar_name
                raise ValueError(f"can't alias tensor with dtype '{_scalar_name(obj.dtype)}' into dtype "
                                 f"'{_scalar_name(d)}'.")
            out = obj.to(d)
        elif copy:
            out = obj.clone()
        else:
            out = obj
        if not requires_grad and out._requires_grad:
            return out.detach()
        if requires_grad and not out._requires_grad:
            if not out.dtype.is_floating_point:  # (asarray's own check, worded as tensor()'s)
                raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
            out = out.detach() if out is obj else out
            out.requires_grad_(True)
        return out
    grad = bool(requires_grad) if requires_grad is not _UNSET else False
    if isinstance(obj, np.ndarray) and not copy:
        out = as_tensor(obj, dtype=dtype, device=device)
    else:
        out = tensor(obj, dtype=dtype, device=device)
    if grad:
        if not out.dtype.is_floating_point:
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        out.requires_grad_(True)
    return out
