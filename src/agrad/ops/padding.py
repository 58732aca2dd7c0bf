"""Padding: F.pad in its four modes and constant_pad_nd.

constant, reflect and replicate are ops of their own, as in ATen
(``ConstantPadNdBackward0``, ``ReflectionPad2DBackward0``, ...); circular
padding is composed of narrow and cat, as ATen composes it, so its graph shows
those nodes.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from .._limits import check_shape
from ..tensor import Tensor
from ._layout import (in_input_format, in_memory_format, laid_out_like, suggested_format, torch_strides,
                      with_empty_strides)
from ._argcheck import passed_on
from ._op import Op, export

# ---------------------------------------------------------------------------
# pad
# ---------------------------------------------------------------------------

def _pad_widths(ndim, pad):
    """numpy (before, after) per dim from torch's pad list (last dim first)."""
    widths = [(0, 0)] * ndim
    for i in range(len(pad) // 2):
        widths[ndim - 1 - i] = (pad[2 * i], pad[2 * i + 1])
    return widths


def _constant_pad_fwd(ctx, a, pad, value):
    widths = _pad_widths(a.ndim, pad)
    crop = tuple(slice(max(-lo, 0), a.shape[i] - max(-hi, 0)) for i, (lo, hi) in enumerate(widths))
    fmt = suggested_format(a)  # (of the input before it is narrowed)
    a = a[crop] if a.size == 0 or type(a) is not np.ndarray else with_empty_strides(a[crop], torch_strides(a))  # (narrow's)
    widths = [(max(lo, 0), max(hi, 0)) for lo, hi in widths]
    if not any(lo or hi for lo, hi in widths):
        # no pad > 0: PyTorch clones the narrowed input (its layout kept), the value unused and unconverted
        return laid_out_like(a, a.copy(order="K"))
    # at::empty(new_shape, memory_format=self.suggest_memory_format()): C or channels-last
    return in_memory_format(np.pad(a, widths, constant_values=value), fmt)


_constant_pad = Op("ConstantPadNdBackward0", _constant_pad_fwd)


@_constant_pad.derivative
def _(ctx, grad):
    return _constant_pad(grad, pad=tuple(-p for p in ctx.pad), value=0)


@_constant_pad.forward_derivative
def _(ctx, t):
    return _constant_pad(t, pad=ctx.pad, value=0)


@export()
def constant_pad_nd(input, pad, value=0):
    pad = tuple(int(p) for p in pad)
    if len(pad) % 2:
        raise RuntimeError("Length of pad must be even but instead it equals " + str(len(pad)))
    if len(pad) // 2 > input.ndim:
        raise RuntimeError(
            f"Length of pad should be no more than twice the number of dimensions of the input. "
            f"Pad length is {len(pad)}while the input has {input.ndim}dimensions.")  # (sic)
    widths = _pad_widths(input.ndim, pad)
    for i, (lo, hi) in enumerate(widths):
        if input.shape[i] + min(lo, 0) + min(hi, 0) < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
    if any(p > 0 for p in pad):  # (else PyTorch narrows and clones: no fill_, no conversion of the value)
        from ..dtypes import checked_scalar

        checked_scalar(value, input._data.dtype)
    return _constant_pad(input, pad=pad, value=value)


def _index_maps(shape, pad, mode):
    """Per padded dim (last dims), the source index of each output position."""
    k = len(pad) // 2
    maps = []
    for i in range(k):
        dim = len(shape) - k + i
        n = shape[dim]
        lo, hi = pad[2 * (k - 1 - i)], pad[2 * (k - 1 - i) + 1]
        j = np.arange(-lo, n + hi)
        if mode == "reflect":
            period = 2 * (n - 1)
            j = np.abs(j) % period if period else np.zeros_like(j)
            j = np.where(j >= n, period - j, j)
        elif mode == "replicate":
            j = np.clip(j, 0, n - 1)
        else:  # circular
            j = j % n
        maps.append(j)
    return maps


def _gather_index(ndim, maps):
    k = len(maps)
    return (Ellipsis,) + tuple(np.ix_(*maps)) if k > 1 else (Ellipsis, maps[0])


def _gather_pad_fwd(ctx, a, maps):
    return a[_gather_index(a.ndim, maps)]


def _scatter_pad_fwd(ctx, g, maps, shape):
    out = np.zeros(shape, g.dtype)
    np.add.at(out, _gather_index(g.ndim, maps), g)
    return out


def _pad_op_pair(kind, n):
    name = {"reflect": "ReflectionPad", "replicate": "ReplicationPad"}[kind] + f"{n}D"
    fwd = Op(f"{name}Backward0", in_input_format(_gather_pad_fwd), saves=("self",), jvp="linear")  # (PyTorch's saves self)
    # <pad>_backward(grad_output, self, padding): self is an input (an edge; its gradient zeros_like(self))
    # (its grad_input is zeros_like(self, self.suggest_memory_format()): channels-last for such a self)
    back = Op(f"{name}BackwardBackward0",
              in_input_format(lambda ctx, g, x, maps, shape: _scatter_pad_fwd(ctx, g, maps, shape),
                              formats=lambda arrays: suggested_format(arrays[1])),
              inputs=("grad_output", "self"), internal=True, jvp="linear")

    @fwd.derivative
    def _(ctx, grad):
        return back(grad, ctx.self, maps=ctx.maps, shape=ctx.input_shape)

    @back.derivative
    def _(ctx, grad):
        g_self = None
        if ctx.needs(1):
            shape, dtype = ctx._input_meta[1]
            g_self = Tensor._make(np.zeros(shape, dtype.numpy))
        return (fwd(grad, maps=ctx.maps) if ctx.needs(0) else None), g_self

    return fwd


_PAD_OPS = {(kind, n): _pad_op_pair(kind, n) for kind in ("reflect", "replicate") for n in (1, 2, 3)}


@export(functional=True, torch=False)
def pad(input, pad, mode="constant", value=None):
    """Pad the last ``len(pad) // 2`` dims: constant, reflect, replicate or circular."""
    pad = tuple(int(p) for p in pad)
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.ndim:
        raise RuntimeError(
            f"Padding length should be less than or equal to two times the input dimension but got padding "
            f"length {len(pad)} and input of dimension {input.ndim}")
    out_shape = list(input._data.shape)
    for i in range(len(pad) // 2):
        out_shape[input.ndim - 1 - i] += pad[2 * i] + pad[2 * i + 1]
    check_shape([max(s, 0) for s in out_shape])
    if value is not None and type(value) is not float:  # (torch._C._nn.pad(input, pad, mode, value))
        passed_on("pad", (("value", "float", 4, value),))
    if mode == "constant":
        return constant_pad_nd(input, pad, 0.0 if value is None else float(value))  # (F.pad's value: a float?)
    if value is not None and value != 0:
        raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument")
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(
            f"Unrecognised padding mode {mode}")
    k = len(pad) // 2
    if k > 3 or input.ndim not in (k + 1, k + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.ndim}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    if mode == "circular":
        return _circular_pad(input, pad)
    # ATen's check_valid_input: only a batch dim (of k + 2 dims) may be empty
    if 0 in input.shape[int(input.ndim == k + 2):]:
        raise RuntimeError(
            f"Expected {k + 1}D or {k + 2}D (batch mode) tensor with possibly 0 batch size and other non-zero "
            f"dimensions for input, but got: {list(input.shape)}")
    sizes = [input.shape[input.ndim - 1 - i] for i in range(k)]  # (W, H, D)
    outs = [n + pad[2 * i] + pad[2 * i + 1] for i, n in enumerate(sizes)]
    if mode == "reflect":  # (W's is argument #4, H's #6, D's #8)
        for i, n in enumerate(sizes):
            lo, hi = pad[2 * i], pad[2 * i + 1]
            if lo >= n or hi >= n:
                raise RuntimeError(
                    f"Argument #{4 + 2 * i}: Padding size should be less than the corresponding input dimension, "
                    f"but got: padding ({lo}, {hi}) at dimension {input.ndim - 1 - i} of input {list(input.shape)}")
    if max(outs) < 1:  # (a 2-D or 3-D padding only needs one output dim of at least one)
        sizes_text = f"W: {sizes[0]}" + (" " if (mode, k) == ("replicate", 2) else "")  # (sic)
        if k > 1:
            sizes_text = (f"D: {sizes[2]} " if k == 3 else "") + f"H: {sizes[1]}, " + sizes_text
        outs_text = " ".join(f"{letter}: {outs[i]}" for i, letter in reversed(list(enumerate("WHD"[:k]))))
        raise RuntimeError(f"input ({sizes_text}) is too small. Calculated output {outs_text}")
    out_shape = list(input.shape[:input.ndim - k]) + outs[::-1]
    if min(outs) < 0:  # (the output made with the negative size the check above lets through)
        if (mode, k) == ("reflect", 2):  # (reflection_pad2d resizes an empty output: its numel check)
            raise RuntimeError("numel: integer multiplication overflow")
        first = next(o for o in out_shape if o < 0)
        raise RuntimeError(f"Trying to create tensor with negative dimension {first}: {out_shape}")
    if input.dtype is dtypes.bool_:  # (the kernels' dispatch, after the checks: every dtype but bool)
        kernel = {"reflect": "reflection", "replicate": "replication"}[mode]
        raise NotImplementedError(f"\"{kernel}_pad{k}d\" not implemented for 'Bool'")
    return _PAD_OPS[(mode, k)](input, maps=_index_maps(input.shape, pad, mode))


def _circular_pad(input, pad):
    """ATen's _pad_circular: an empty output, the (cropped) input copied into its middle, then each
    padded dim's left and right margins copied from the output itself (views and copy_: the graph
    shows CopySlices and SliceBackward0 as PyTorch's)."""
    k = len(pad) // 2
    lead = input.ndim - k
    in_shape = tuple(input.shape)
    out_shape = list(in_shape[:lead])
    for i in range(k):  # first padded dim first
        lo, hi = pad[2 * (k - i - 1)], pad[2 * (k - i - 1) + 1]
        n = in_shape[lead + i]
        out_shape.append(n + lo + hi)
        if lo > n or hi > n:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if out_shape[-1] < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    out = input.new_empty(out_shape)
    out_slice, in_slice = out, input
    for i in range(k):  # last dim first
        dim = input.ndim - 1 - i
        lo, hi = pad[2 * i], pad[2 * i + 1]
        out_slice = _slice(out_slice, dim, max(lo, 0), out_shape[dim] - max(hi, 0))
        in_slice = _slice(in_slice, dim, max(-lo, 0), in_shape[dim] - max(-hi, 0))
    out_slice.copy_(in_slice)
    for i in range(k):
        dim = input.ndim - 1 - i
        lo, hi = pad[2 * i], pad[2 * i + 1]
        size = out_shape[dim]
        if lo > 0:
            _slice(out, dim, 0, lo).copy_(_slice(out, dim, size - lo - max(hi, 0), size - max(hi, 0)))
        if hi > 0:
            _slice(out, dim, size - hi, size).copy_(_slice(out, dim, max(lo, 0), max(lo, 0) + hi))
    return out


def _slice(t, dim, start, end):
    """Tensor.slice(dim, start, end): one SliceBackward0 view, a full range too (narrow is at::slice)."""
    return t.narrow(dim, start, end - start)
