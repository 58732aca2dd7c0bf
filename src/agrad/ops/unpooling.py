"""Max unpooling (max_unpool1d/2d/3d): the partial inverse of max pooling, and F.max_pool3d_with_indices.

``max_unpool2d``/``max_unpool3d`` are ATen kernels (MaxUnpool2DBackward0 / MaxUnpool3DBackward0):
zeros of the output size (in the input's memory format), each input value written at its flat
spatial index; an index outside the output is PyTorch's "Found an invalid max index" error.
Their derivative is ``max_pool_double_backward``: the gradient viewed flat per channel and
gathered at the indices (ViewBackward0, GatherBackward0 under create_graph).  F's
``max_unpool1d`` is ``max_unpool2d`` of the input unsqueezed at -1 (UnsqueezeBackward0 /
SqueezeBackward1 around it); F computes the default output size and checks a given one.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..autograd.graph import save_extra
from ..tensor import Tensor, _scalar_name
from ._layout import in_input_format, suggested_format
from ._op import Op, export
from ._vec_math import parallel_chunks
from .pooling import _max_pool


def _unpool_fwd(ctx, x, indices, size):
    n_sp = len(size)
    lead = x.shape[:-n_sp]
    flat_out = int(np.prod(size))
    out = np.zeros(lead + (flat_out,), x.dtype)
    if out.size == 0:
        return out.reshape(lead + tuple(size))
    idx = indices.reshape(lead + (-1,))
    bad = (idx < 0) | (idx >= flat_out)
    if bad.any():
        ctx_size = "x".join(str(s) for s in size)
        # (the kernel's threads each keep the last bad index of their range and race to report it:
        # the first range's, as it mostly goes with two threads)
        flat_bad, flat_idx = bad.reshape(-1), idx.reshape(-1)
        for begin, end in parallel_chunks(flat_idx.size, 0):
            if flat_bad[begin:end].any():
                last = flat_idx[begin:end][flat_bad[begin:end]][-1]
                break
        raise RuntimeError(f"Found an invalid max index: {last} (output volumes are of size {ctx_size})")
    vals = x.reshape(-1)
    o2 = out.reshape(-1, flat_out)
    rows = np.repeat(np.arange(o2.shape[0]), idx.shape[-1]) if idx.shape[-1] else np.zeros(0, np.int64)
    # a repeated index keeps one of the values: the kernel's threads write their ranges in order,
    # the first range's writes landing last (as it mostly goes with two threads)
    order = np.concatenate([np.arange(b, e) for b, e in reversed(parallel_chunks(vals.size, 0))] or [np.zeros(0, int)])
    o2[rows[order], idx.reshape(-1)[order]] = vals[order]
    return out.reshape(lead + tuple(size))


def _unpool_op(n):
    op = Op(f"MaxUnpool{n}DBackward0", in_input_format(_unpool_fwd), jvp="linear", keeps={"indices": "indices"})

    @op.derivative
    def _(ctx, grad):
        # max_pool_double_backward(grad, indices, n): the gradient gathered at the indices
        idx = Tensor._make(ctx.indices._data if type(ctx.indices) is Tensor else ctx.indices)
        if idx.numel() == 0:
            return Tensor._make(np.empty(idx.shape, grad._data.dtype))
        size = tuple(idx.shape[:idx.ndim - n]) + (-1,)
        g = grad if suggested_format(idx._data) is not None else grad.contiguous()
        return g.view(size).gather(-1, idx.view(size)).view(tuple(idx.shape))

    return op


_unpool2d = _unpool_op(2)
_unpool3d = _unpool_op(3)


def _ntuple(value, n):
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value] * n


def _unpool_output_size(input, kernel_size, stride, padding, output_size):
    """F's _unpool_output_size: the default size, or a given one checked against it."""
    n = len(kernel_size)
    default = [(input.shape[-n + d] - 1) * stride[d] + kernel_size[d] - 2 * padding[d] for d in range(n)]
    if output_size is None:
        ret = default
    else:
        if len(output_size) == n + 2:
            output_size = output_size[2:]
        if len(output_size) != n:
            raise ValueError(f"output_size should be a sequence containing {n} or {n + 2} elements, but it has a "
                             f"length of '{len(output_size)}'")
        for d in range(n):
            low, high = default[d] - stride[d], default[d] + stride[d]
            if not low < output_size[d] < high:
                raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between {low} and {high})')
        ret = output_size
    for d in range(n):
        if ret[d] < 0:
            raise ValueError("max_unpooling: output_size must contain non-negative spatial dimensions, but got "
                             f"output_size[{d}]={ret[d]}")
    return ret


def _check_size_ints(fname, size):
    for pos, v in enumerate(size, 1):
        if not isinstance(v, numbers.Integral) or isinstance(v, bool):
            raise TypeError(f"{fname}(): argument 'output_size' failed to unpack the object at pos {pos} "
                            f"with error \"type must be tuple of ints,but got {type(v).__name__}\"")


def _kernel_checks(fname, n, input, indices):
    if not isinstance(input, Tensor):
        raise TypeError(f"{fname}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if not isinstance(indices, Tensor):
        raise TypeError(f"{fname}(): argument 'indices' (position 2) must be Tensor, not {type(indices).__name__}")
    if indices.dtype.name != "int64":
        raise RuntimeError("elements in indices should be type int64" +
                           (f" but got: {_scalar_name(indices.dtype)}" if n == 2 else ""))
    if input.ndim not in (n + 1, n + 2):
        raise RuntimeError(f"Input to max_unpooling{n}d should be a {n + 1}d or {n + 2}d Tensor, but got a tensor "
                           f"with {input.ndim} dimensions.")
    if input.shape != indices.shape:
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor ({list(input.shape)}) "
                           f"but got indices tensor with shape: {list(indices.shape)}")
    for i in range(1, input.ndim):
        if input.shape[i] <= 0:
            where = "max_unpooling2d_forward_out_cpu(): " if n == 2 else "max_unpooling3d_forward_out_cpu: "
            raise RuntimeError(f"{where}Expected input to have non-zero size for non-batch dimensions, but got "
                               f"{list(input.shape)} with dimension {i} being empty.")


def _unpool(op, fname, n, input, indices, size, stride=None):
    _kernel_checks(fname, n, input, indices)
    if stride is not None and not all(s > 0 for s in stride):
        raise RuntimeError(f"strides should be greater than zero, but got stride: {list(stride)}")
    lead = input.shape[:-n]
    if int(np.prod(lead + tuple(size))) and input.dtype.name not in ("float32", "float64", "float16", "bfloat16"):
        raise NotImplementedError(f'"{fname}" not implemented for \'{_scalar_name(input.dtype)}\'')
    out = op.apply((input,), (input._data,), {"indices": indices._data, "size": tuple(int(s) for s in size)})
    if out.grad_fn is not None and type(out.grad_fn) is op.node:  # (the indices saved: changed in place, the error)
        save_extra(out.grad_fn, "indices", indices)
    return out


def _f_unpool(n, input, indices, kernel_size, stride, padding, output_size):
    kernel_size = _ntuple(kernel_size, n)
    stride = _ntuple(stride, n) if stride is not None else kernel_size
    padding = _ntuple(padding, n)
    return _unpool_output_size(input, kernel_size, stride, padding, output_size), stride, padding


@export(functional=True, torch=False)
def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The partial inverse of max_pool1d: each value back at its index, zeros elsewhere."""
    size, _, _ = _f_unpool(1, input, indices, kernel_size, stride, padding, output_size)
    _check_size_ints("max_unpool2d", size)
    return _unpool(_unpool2d, "max_unpool2d", 2, input.unsqueeze(-1), indices.unsqueeze(-1),
                   list(size) + [1]).squeeze(-1)


@export(functional=True, torch=False)
def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The partial inverse of max_pool2d: each value back at its index, zeros elsewhere."""
    size, _, _ = _f_unpool(2, input, indices, kernel_size, stride, padding, output_size)
    _check_size_ints("max_unpool2d", size)
    return _unpool(_unpool2d, "max_unpool2d", 2, input, indices, size)


@export(functional=True, torch=False)
def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The partial inverse of max_pool3d: each value back at its index, zeros elsewhere."""
    size, stride, _ = _f_unpool(3, input, indices, kernel_size, stride, padding, output_size)
    _check_size_ints("max_unpool3d", size)
    return _unpool(_unpool3d, "max_unpool3d", 3, input, indices, size, stride)


@export(functional=True, torch=False)
def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=True):
    """max_pool3d with the flat indices of the maxima (always returned)."""
    return _max_pool("max_pool3d", 3, input, kernel_size, stride, padding, dilation, ceil_mode, True)
