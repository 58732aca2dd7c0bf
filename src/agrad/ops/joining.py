"""Joining, splitting and rearranging: cat/stack/hstack/column_stack/dstack, split/
chunk/tensor_split/hsplit/vsplit/dsplit, repeat/tile, flip/roll, meshgrid and
atleast_nd.

Composites (hstack, meshgrid, atleast_2d, ...) are built from other ops exactly
as PyTorch builds them, so the graph shows the same nodes.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .._warn_once import warn_once
from .. import dtypes
from .._dense import dense
from .._limits import check_numel, check_shape
from ..autograd.grad_mode import _state as _grad_state
from ..tensor import Tensor, _can_cast, _scalar_name, _wrap_dim
from ._layout import c_order, cat_memory_format, dense_order, empty_like, in_memory_format, laid_out_like, sliced, torch_strides
from ._vector_loop import cast_nans
from ._op import Op, export, method, with_out, write_outs
from .indexing import _FULL, _slice
from .scatter_gather import _as_views, _is_int
from .views import _fmt, _sizes, _view, reshape


# cat / stack -------------------------------------------------------------------------

def _cat_fwd(ctx, *arrays, dim):
    # a 1-D empty input (PyTorch's legacy empty tensor) is skipped; it stays an input of the
    # node (size None), whose gradient is a new empty tensor (PyTorch's cat_tensors_backward)
    ctx.sizes = [None if a.shape == (0,) else a.shape[dim] for a in arrays]
    kept = [a for a, n in zip(arrays, ctx.sizes) if n is not None]
    return _joined(np.concatenate(kept or arrays, axis=dim), arrays)


def _joined(out, arrays):
    """cat's result laid out in the memory format its inputs (all of them, skipped ones too) agree
    on (cat_compute_output_memory_format): channels-last when each is, else C order; roll and
    stack are cats too."""
    return in_memory_format(out, cat_memory_format([(a.shape, torch_strides(a)) for a in arrays]))


_cat = Op("CatBackward0", _cat_fwd, inputs=(), jvp="linear")


@_cat.derivative
def _(ctx, grad):
    out = []
    start = 0
    for n in ctx.sizes:
        if n is None:
            out.append(Tensor._make(np.zeros(0, grad._data.dtype)))
            continue
        out.append(grad.narrow(ctx.dim, start, n))
        start += n
    return tuple(out)


def _check_list(tensors, name):
    if isinstance(tensors, Tensor):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor")
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError(f"{name}(): expected a non-empty list of Tensors")
    check_numel(sum(t._data.size for t in tensors if isinstance(t, Tensor)))
    return tensors


@export("cat", "concat", "concatenate")
def cat(tensors, dim=0, *, out=None):
    tensors = _check_list(tensors, "cat")
    if out is not None and _grad_state["enabled"] and any(t._requires_grad for t in (*tensors, out)):
        raise RuntimeError("cat(): functions with out=... arguments don't support automatic differentiation, but one "
                           "of the arguments requires grad.")  # (autograd's, before the kernel's checks)
    for i, t in enumerate(tensors):  # (ATen's first check, before the dim and the shapes)
        if t.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    d = dtypes.result_type(*tensors)
    # PyTorch skips 1-D empty tensors in cat
    ref = next((t for t in tensors if t._data.shape != (0,)), tensors[0])
    axis = _wrap_dim(dim, ref.ndim) if ref._data.shape != (0,) else 0  # (all skipped: no dim to check)
    if out is not None and not _can_cast(d, out.dtype):  # (cat's meta: the out dtype before the shapes)
        raise TypeError(f"torch.cat(): input types can't be cast to the desired output type {_scalar_name(out.dtype)}")
    for i, t in enumerate(tensors):
        if t._data.shape == (0,) and ref._data.shape != (0,):
            continue
        if t.ndim != ref.ndim:
            raise RuntimeError(
                f"Tensors must have same number of dimensions: got {ref.ndim} and {t.ndim}")
        for k in range(ref.ndim):
            if k != axis and t._data.shape[k] != ref._data.shape[k]:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {axis}. Expected size "
                    f"{ref._data.shape[k]} but got size {t._data.shape[k]} for tensor number {i} in the list.")
    arrays = [cast_nans(t._data.astype(d.numpy, copy=False), t._data) for t in tensors]  # (float16's NaN bits)
    result = _cat.apply(tuple(tensors), arrays, {"dim": axis})
    if out is None:
        return result
    if _serial_kernel(tensors, axis, out, result) and _serial_write(out, tensors, axis):
        return out
    return write_outs("cat", result, out, "cast", (tensors,))


def _serial_kernel(tensors, axis, out, result) -> bool:
    """Whether cat_out runs ATen's cat_serial_kernel into ``out`` the way it matters: a floating dtype
    throughout, fewer than GRAIN_SIZE elements, inputs and out contiguous (as PyTorch counts it: dims of
    one element have any stride), a dim past the first, and an out of the result's shape whose stride at
    ``axis`` is not the one its layout implies (the kernel's arithmetic takes that stride as the inner
    block, so such an out is written in part or not at all)."""
    if not (axis > 0 and out.dtype.is_floating_point and out.shape == result.shape and 0 < out.numel() < 32768
            and all(t.dtype is out.dtype for t in tensors) and out.is_contiguous()
            and all(t.is_contiguous() for t in tensors if t.numel())):
        return False
    return out.stride(axis) != math.prod(out.shape[axis + 1:])


def _serial_write(out, tensors, axis):
    """cat_serial_kernel_impl: ``outer`` = numel / (size * stride) at ``axis`` (integer division), each
    input's block ``size(axis) * stride(axis)`` elements of its own memory, copied in turn into out's
    memory from its first element on."""
    from ..autograd import graph
    from ._layout import storage_of
    from ._outs import no_overlap

    found = storage_of(out._data)
    if found is None:
        return False
    no_overlap(out, *tensors)
    flat, offset = found
    stride = out.stride(axis)
    outer = out.numel() // (out.shape[axis] * stride)
    blocks = [(np.ravel(t._data), t.shape[axis] * stride) for t in tensors if t.numel()]
    for i in range(outer):
        for values, inner in blocks:
            flat[offset:offset + inner] = values[i * inner:(i + 1) * inner]
            offset += inner
    out._vc[0] += 1
    for obs in graph.version_observers:
        obs(out)
    return True


def _stack_fwd(ctx, *arrays, dim):
    """ATen's stack: below the last dim, the cat of the inputs along ``dim`` viewed with that dim
    split in two (so laid out as cat lays out the inputs); at the end, the cat of the unsqueezed
    inputs."""
    if dim < arrays[0].ndim:
        shape = arrays[0].shape
        return _joined(np.concatenate(arrays, axis=dim), arrays).reshape(shape[:dim] + (len(arrays),) + shape[dim:])
    out = np.stack(arrays, axis=dim)
    # (unsqueeze(-1)'s stride is 1: numpy's expand_dims gives the new dim another)
    metas = [(out.shape[:dim] + (1,), torch_strides(a) + (a.itemsize,)) for a in arrays]
    return in_memory_format(out, cat_memory_format(metas))


_stack = Op("StackBackward0", _stack_fwd, inputs=(), jvp="linear")


@_stack.derivative
def _(ctx, grad):
    if grad._requires_grad and _grad_state["enabled"]:  # recorded: stack_tensors_backward's grad.select(dim, i)
        return tuple(grad.select(ctx.dim, i) for i in range(len(ctx.next_functions)))
    return tuple(grad.unbind(ctx.dim))


@export()
def stack(tensors, dim=0, *, out=None):
    tensors = _check_list(tensors, "stack")
    if out is not None and _grad_state["enabled"] and any(t._requires_grad for t in (*tensors, out)):
        raise RuntimeError("stack(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")
    first = tensors[0]._data.shape
    axis = _wrap_dim(dim, len(first) + 1)  # (stack's first check)
    for i, t in enumerate(tensors):
        if t._data.shape != first:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {list(first)} at entry 0 and "
                f"{list(t._data.shape)} at entry {i}")
    if out is not None and axis < len(first):  # (stack_out resizes out before its cat into a view of it)
        from ._outs import _resize_out, warn_resized
        shape = first[:axis] + (len(tensors),) + first[axis:]
        if tuple(out.shape) != shape:
            if out._data.size:
                warn_resized(out.shape, shape)
            _resize_out(out, np.empty(shape, out._data.dtype))
    d = dtypes.result_type(*tensors)
    arrays = [cast_nans(t._data.astype(d.numpy, copy=False), t._data) for t in tensors]  # (float16's NaN bits)
    result = _stack.apply(tuple(tensors), arrays, {"dim": axis})
    return result if out is None else write_outs("stack", result, out, "cast", (tensors,))


@export()
def hstack(tensors, *, out=None):
    tensors = _check_list(tensors, "hstack")
    tensors = [t if t.ndim else atleast_1d(t) for t in tensors]  # ATen's atleast_1d first
    return cat(tensors, 0 if tensors[0].ndim == 1 else 1, out=out)  # (hstack_out: cat_out, its checks and texts)


# repeat / tile ------------------------------------------------------------------------------

def _repeat_fwd(ctx, a, repeats):
    lead = len(repeats) - a.ndim
    return c_order(np.tile(a.reshape((1,) * lead + a.shape), repeats))  # (ATen's at::empty of the result's size)


_repeat = Op("RepeatBackward0", _repeat_fwd, jvp="linear")


@_repeat.derivative
def _(ctx, grad):
    # repeat_backward: fold each repeated dim into (repeat, size) and sum the repeats
    repeats, shape = ctx.repeats, tuple(ctx.input_shape)
    if 0 in repeats:
        return grad.new_zeros(shape)
    lead = len(repeats) - len(shape)
    for _ in range(lead):
        grad = grad.sum(0)
    folded, sum_dims = [], []
    for d, size in enumerate(shape):
        r = repeats[d + lead]
        if r != 1:
            folded.append(r)
            sum_dims.append(len(folded) - 1)
        folded.append(size)
    if sum_dims:
        grad = grad.reshape(folded).sum(tuple(sum_dims))
    return grad


@method("repeat")
def repeat(input, *sizes):
    if not sizes:  # PyTorch's parser (repeats has no default)
        raise TypeError('repeat() missing 1 required positional arguments: "repeats"')
    repeats = _sizes(sizes)
    if len(repeats) < input.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    lead = len(repeats) - input.ndim
    out_shape = [r * s for r, s in zip(repeats, (1,) * lead + input._data.shape)]
    for s in out_shape:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {_fmt(out_shape)}")
    check_shape(out_shape)
    return _repeat.apply((input,), (input._data,), {"repeats": repeats})


@export(method=True)
def tile(input, *dims):
    # x.tile(2, 2) as x.tile((2, 2)); torch.tile takes one sequence (agrad.ops._argcheck parses it)
    dims = _sizes(dims) if len(dims) != 1 or not isinstance(dims[0], numbers.Integral) else (int(dims[0]),)
    if len(dims) < input.ndim:
        dims = (1,) * (input.ndim - len(dims)) + dims
    return repeat(input, dims)


# flip / roll -----------------------------------------------------------------------------------

# (flip writes into empty_like(self): the input's layout, C order for an expanded one)
def _flip_fwd(ctx, a, dims):
    out = laid_out_like(a, (np.flip(a, dims) if dims else a).copy(order="K"))
    if type(out) is np.ndarray and out.flags.c_contiguous and 1 in out.shape and out.size > 1 \
            and type(a) is np.ndarray and not dense(a) and dense_order(a) is None:
        # (an input that is not dense gets infer_dense_strides' layout, C order here, where a dim
        # of size 1 has the product of the later sizes for stride; numpy's copy may give it any,
        # which a later view or kron's product layout would read)
        strides, step = [0] * out.ndim, out.itemsize
        for d in range(out.ndim - 1, -1, -1):
            strides[d] = step
            step *= out.shape[d]
        if tuple(strides) != out.strides:
            fresh = np.empty(out.shape, out.dtype)  # (numpy's new C array has those strides)
            fresh[...] = out
            out = fresh
    return out


_flip = Op("FlipBackward0", _flip_fwd, jvp="linear")
_flip.derivative(lambda ctx, grad: flip(grad, ctx.dims))


@export(method=True)
def flip(input, *dims):
    if len(dims) == 1 and not isinstance(dims[0], numbers.Integral) and not (
            isinstance(dims[0], Tensor) and dims[0].ndim == 0):  # (x.flip(tensor(0)): one dim, as varargs)
        dims = tuple(dims[0])
    wrapped = tuple(_wrap_dim(d, input.ndim) for d in dims)
    seen = set()
    for d in wrapped:
        if d in seen:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        seen.add(d)
    if input.ndim == 0:
        wrapped = ()
    return _flip.apply((input,), (input._data,), {"dims": wrapped})


def _flipped(a, dims):
    return laid_out_like(a, np.flip(a, dims).copy(order="K"))


def _rot90_fwd(ctx, a, k, dims):
    """ATen's steps: k = 1: flip(dims[1]) then transpose; 2: flip(dims); 3: flip(dims[0]) then
    transpose; 0: a contiguous clone."""
    d0, d1 = dims
    if k == 1:
        return np.swapaxes(_flipped(a, (d1,)), d0, d1)
    if k == 2:
        return _flipped(a, dims)
    if k == 3:
        return np.swapaxes(_flipped(a, (d0,)), d0, d1)
    return np.array(a, order="C")


_rot90 = Op("Rot90Backward0", _rot90_fwd, jvp="linear")
_rot90.derivative(lambda ctx, grad: rot90(grad, -ctx.k, ctx.dims))


@export(method=True)
def rot90(input, k=1, dims=(0, 1)):
    if type(k) is bool or not hasattr(k, "__index__"):
        raise TypeError("rot90")  # (the parser's error replaces it: agrad/ops/_argcheck.py)
    dims = tuple(int(d) for d in dims)
    n = input.ndim
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if n < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {n}")
    if dims[0] == dims[1] or abs(dims[0] - dims[1]) == n:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {dims[0]} and dim1 = {dims[1]}")
    wrapped = (_wrap_dim(dims[0], n), _wrap_dim(dims[1], n))
    return _rot90.apply((input,), (input._data,), {"k": int(k) % 4, "dims": wrapped})


@export(method=True)
def fliplr(input):
    if input.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return flip(input, 1)


@export(method=True)
def flipud(input):
    if input.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return flip(input, 0)


def _roll_fwd(ctx, a, shifts, dims, empty=False):
    """ATen's roll: a flattened roll (C order) without dims, else one dim at a time, each the cat of
    two narrows of the previous result (so laid out as cat lays them out); an empty tensor with dims
    (``empty``): clone(preserve_format)."""
    if empty or not dims and a.ndim == 1 and not a.size:  # (without dims: of contiguous().view(-1), which is
        return empty_like(a)  # an empty 1-D input itself, and of a view of another shape: contiguous)
    if not dims:
        return np.roll(a.reshape(-1), shifts[0]).reshape(a.shape)
    for shift, d in zip(shifts, dims):
        n = a.shape[d]
        start = (n - shift) % n if n else 0
        a = _joined(np.roll(a, shift, d), [a[(_FULL,) * d + (slice(start, n),)], a[(_FULL,) * d + (slice(0, start),)]])
    return a


_roll = Op("RollBackward0", _roll_fwd, jvp="linear")
_roll.derivative(lambda ctx, grad: roll(grad, tuple(-s for s in ctx.shifts), ctx.dims if ctx.dims else None))


@export(method=True)
def roll(input, shifts, dims=None):
    if isinstance(shifts, Tensor) and shifts.ndim == 0:  # (one int, as int[1] takes it)
        shifts = (shifts,)
    if isinstance(dims, Tensor) and dims.ndim == 0:
        dims = (dims,)
    shifts = (int(shifts),) if isinstance(shifts, numbers.Integral) else tuple(_int_of(s) for s in shifts)
    dims = () if dims is None else ((int(dims),) if isinstance(dims, numbers.Integral) else tuple(dims))
    if not shifts:
        raise RuntimeError("`shifts` required")
    if not dims and len(shifts) == 1:
        return _roll.apply((input,), (input._data,), {"shifts": shifts, "dims": ()})
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    if input._data.size == 0:  # (ATen's roll returns an empty input before it reads the dims)
        return _roll.apply((input,), (input._data,), {"shifts": shifts, "dims": dims, "empty": True})
    if input.ndim == 0:  # (maybe_wrap_dim without wrap_scalar: the dim as given)
        raise IndexError(f"Dimension specified as {int(dims[0])} but tensor has no dimensions")
    dims = tuple(_wrap_dim(d, input.ndim) for d in dims)
    return _roll.apply((input,), (input._data,), {"shifts": shifts, "dims": dims})


def _split_fwd(ctx, a, dim, sizes):
    out, start = [], 0
    for n in sizes:
        out.append(sliced(a, (_FULL,) * dim + (slice(start, start + n),)))  # (narrow's: a stride 0 kept)
        start += n
    return tuple(out)


def _split_back(ctx, grads):
    return cat(grads, ctx.dim)


_split = Op("SplitBackward0", _split_fwd, outputs=None, multi_grad=True, jvp="linear")
_split_sizes = Op("SplitWithSizesBackward0", _split_fwd, outputs=None, multi_grad=True, jvp="linear")
_split.derivative(_split_back)
_split_sizes.derivative(_split_back)


# unsafe_split / unsafe_chunk: the same pieces, not registered as views of the input (an
# in-place change of a piece is not tracked on the input: PyTorch's "unsafe")
_unsafe_split = Op("UnsafeSplitBackward0", _split_fwd, outputs=None, multi_grad=True, jvp="linear")
_unsafe_split_sizes = Op("UnsafeSplitWithSizesBackward0", _split_fwd, outputs=None, jvp="linear",
                         multi_grad=True)
_unsafe_split.derivative(_split_back)
_unsafe_split_sizes.derivative(_split_back)


def _check_split_size(split_size):
    if split_size < 0:  # (before the dim is wrapped)
        raise RuntimeError(f"split expects split_size be non-negative, but got split_size={split_size}")


def _even_sizes(input, split_size, d):
    size = input._data.shape[d] if input.ndim else 1
    _check_split_size(split_size)
    if split_size == 0 and size != 0:
        raise RuntimeError(
            f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}")
    n = max((size + split_size - 1) // split_size, 1) if split_size else 1
    return [min(split_size, size - i * split_size) for i in range(n)]


@export(method=True)
def unsafe_split(input, split_size, dim=0):
    _require_1d(input)
    _check_split_size(int(split_size))
    d = _wrap_dim(dim, input.ndim)
    sizes = _even_sizes(input, int(split_size), d)
    return tuple(_unsafe_split.apply((input,), (input._data,), {"dim": d, "sizes": sizes}))


@export(method=True)
def unsafe_split_with_sizes(input, split_sizes, dim=0):
    _require_1d(input)
    d = _wrap_dim(dim, input.ndim)
    _check_split_sizes(input, [int(s) for s in split_sizes], d)
    return tuple(_unsafe_split_sizes.apply((input,), (input._data,),
                                           {"dim": d, "sizes": [int(s) for s in split_sizes]}))


def _chunk_size(input, chunks, dim):
    """(dim, split size) of ``chunk``, with PyTorch's argument errors; size None: an
    empty dimension, split into ``chunks`` empty pieces."""
    if input.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    d = _wrap_dim(dim, input.ndim)
    size = input._data.shape[d]
    return d, (None if size == 0 else (size + chunks - 1) // chunks)


@export(method=True)
def unsafe_chunk(input, chunks, dim=0):
    d, split_size = _chunk_size(input, chunks, dim)
    if split_size is None:
        return unsafe_split_with_sizes(input, [0] * chunks, d)
    return unsafe_split(input, split_size, d)


def _split_even(input, split_size, dim):
    _check_split_size(split_size)
    d = _wrap_dim(dim, input.ndim)
    sizes = _even_sizes(input, split_size, d)
    return _as_views(_split.apply((input,), (input._data,), {"dim": d, "sizes": sizes}), input)


def _split_with_sizes(input, sizes, dim):
    d = _wrap_dim(dim, input.ndim)
    sizes = [int(s) for s in sizes]
    _check_split_sizes(input, sizes, d)
    return _as_views(_split_sizes.apply((input,), (input._data,), {"dim": d, "sizes": sizes}), input)


def _check_split_sizes(input, sizes, d):
    size = input._data.shape[d]
    if any(s < 0 for s in sizes):
        raise RuntimeError(
            f"split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes={_fmt(sizes)}")
    if sum(sizes) != size:
        raise RuntimeError(
            f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's size at dimension {d}), "
            f"but got split_sizes={_fmt(sizes)}")


@export(method=True)
def split(input, split_size_or_sections, dim=0):
    size = split_size_or_sections
    if isinstance(size, Tensor):  # Tensor.split's own conversion: a tensor of one element is its int
        try:
            size = int(size)
        except ValueError:
            pass
    if type(dim) is not int or not (type(size) is int or type(size) in (list, tuple)
                                    and all(type(v) is int for v in size)):
        dim = _split_parse(input, size, dim)
    _require_1d(input)
    if isinstance(size, numbers.Integral):
        return _split_even(input, int(size), dim)
    return _split_with_sizes(input, size, dim)


def _int_of(v):
    """An element of an int list: a float (or float tensor) is the parser's error (the wrapper's)."""
    if isinstance(v, float) or isinstance(v, Tensor) and v.dtype.is_floating_point:
        raise TypeError(f"{v!r} is not an int")
    return int(v)


_SPLIT = ["(Tensor input, int split_size, int dim = 0)", "(Tensor input, tuple of ints split_size, int dim = 0)"]


def _split_parse(input, size, dim):
    """What Tensor.split's call of _VF.split or _VF.split_with_sizes refuses (their parsers' errors); the dim."""
    from ._pyargs import check, format_invalid_args, parser_error

    if isinstance(size, numbers.Integral) and not isinstance(size, Tensor):
        if not check("int", dim):
            raise TypeError(format_invalid_args((input, size, dim), {}, "split()", _SPLIT))
    else:
        message = parser_error("torch.split_with_sizes", (input, size, dim), {})
        if message is not None:
            raise TypeError(message)
    return int(dim)


@method("split_with_sizes")
def split_with_sizes(input, split_sizes, dim=0):
    _require_1d(input)
    return _split_with_sizes(input, split_sizes, dim)


def _require_1d(input):
    if input.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")


export("split_with_sizes")(split_with_sizes)


@export(method=True)
def chunk(input, chunks, dim=0):
    d, split_size = _chunk_size(input, chunks, dim)
    if split_size is None:
        return _split_with_sizes(input, [0] * chunks, d)
    return _split_even(input, split_size, d)


def _slice_view(input, d, start, stop):
    return _view(_slice, input, input._data, {"index": (_FULL,) * d + (slice(start, stop),)})


@export(method=True)
def tensor_split(input, indices_or_sections, dim=0):
    if input.ndim == 0:
        raise RuntimeError(
            "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    d = _wrap_dim(dim, input.ndim)
    size = input._data.shape[d]
    spec = indices_or_sections
    if isinstance(spec, Tensor):
        if not _is_int(spec):
            raise RuntimeError(
                "tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
                f"{_scalar_name(spec.dtype)}")
        if spec.ndim > 1:
            raise RuntimeError(
                "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or one-dimensional "
                f"tensor, but got a tensor with {spec.ndim} dims")
        spec = int(spec.item()) if spec.ndim == 0 else [int(x) for x in spec._data]
    if isinstance(spec, numbers.Integral):
        n = int(spec)
        if n <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {n}")
        small, extra = divmod(size, n)
        bounds, start = [], 0
        for i in range(n):
            stop = start + small + (1 if i < extra else 0)
            bounds.append((start, stop))
            start = stop
    else:
        cuts = [int(i) for i in spec]
        bounds, start = [], 0
        for c in cuts + [size]:
            c = c + size if c < 0 else c
            c = min(max(c, 0), size)
            stop = max(c, start)
            bounds.append((start, stop))
            start = stop
    return tuple(_slice_view(input, d, s, e) for s, e in bounds)


def _split_dims(input, indices_or_sections, dim, name, min_dim):
    if input.ndim < min_dim:
        raise RuntimeError(
            f"torch.{name} requires a tensor with at least {min_dim} dimension, "
            f"but got a tensor with {input.ndim} dimensions!")
    if isinstance(indices_or_sections, numbers.Integral):
        size = input._data.shape[dim]
        if indices_or_sections == 0 or size % indices_or_sections:
            raise RuntimeError(
                f"torch.{name} attempted to split along dimension {dim}, but the size of the dimension {size} "
                f"is not divisible by the split_size {indices_or_sections}!")
    return tensor_split(input, indices_or_sections, dim)


@export(method=True)
def hsplit(input, indices_or_sections):
    return _split_dims(input, indices_or_sections, 1 if input.ndim > 1 else 0, "hsplit", 1)


@export(method=True)
def vsplit(input, indices_or_sections):
    return _split_dims(input, indices_or_sections, 0, "vsplit", 2)


@export(method=True)
def dsplit(input, indices_or_sections):
    return _split_dims(input, indices_or_sections, 2, "dsplit", 3)


# meshgrid / atleast_nd / column_stack / dstack ------------------------------------------------------------

def _tensor_list(tensors):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        return list(tensors[0]), True
    return list(tensors), len(tensors) != 1


@export()
def meshgrid(*tensors, indexing=None):
    tensors, _ = _tensor_list(tensors)
    if indexing is None:
        warn_once("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
                      UserWarning)
        indexing = "ij"
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors[1:]:
        if t.dtype is not tensors[0].dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    for t in tensors:
        if t.ndim > 1:
            from .._cpp_print import cpp_tensor_text
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {cpp_tensor_text(t)}")
    shape = [t.numel() for t in tensors]
    swap = indexing == "xy" and len(tensors) >= 2
    if swap:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, t in enumerate(tensors):
        pos = (1 - i if i < 2 else i) if swap else i
        view_shape = [1] * len(tensors)
        view_shape[pos] = -1
        out.append(t.view(view_shape).expand(shape))
    return tuple(out)


def _atleast(tensors, fn):
    items, many = _tensor_list(tensors)
    out = tuple(fn(t) for t in items)
    return out if many else out[0]


@export(method=False)
def atleast_1d(*tensors):
    return _atleast(tensors, lambda t: reshape(t, 1) if t.ndim == 0 else t)


@export()
def atleast_2d(*tensors):
    def fn(t):
        if t.ndim == 0:
            return reshape(t, (1, 1))
        if t.ndim == 1:
            return t.unsqueeze(0)
        return t

    return _atleast(tensors, fn)


@export()
def atleast_3d(*tensors):
    def fn(t):
        if t.ndim == 0:
            return reshape(t, (1, 1, 1))
        if t.ndim == 1:
            return t.unsqueeze(0).unsqueeze(-1)
        if t.ndim == 2:
            return t.unsqueeze(-1)
        return t

    return _atleast(tensors, fn)


@export()
def column_stack(tensors, *, out=None):
    if isinstance(tensors, Tensor):
        raise TypeError("column_stack(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor")
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("column_stack expects a non-empty TensorList")
    cols = [reshape(t, (t.numel(), 1)) if t.ndim <= 1 else t for t in tensors]
    return cat(cols, 1, out=out)  # (column_stack_out: cat_out, its checks and texts)


@export()
def dstack(tensors, *, out=None):
    if isinstance(tensors, Tensor):
        raise TypeError("dstack(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor")
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("dstack expects a non-empty TensorList")
    return cat(list(atleast_3d(tensors)), 2, out=out)  # (dstack_out: cat_out)


@export("row_stack", "vstack")
def row_stack(tensors, *, out=None):
    """vstack: atleast_2d, then cat along dim 0."""
    if isinstance(tensors, Tensor):
        raise TypeError("row_stack(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor")
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("vstack expects a non-empty TensorList")
    return cat(list(atleast_2d(tensors)), 0, out=out)  # (vstack_out: cat_out)
