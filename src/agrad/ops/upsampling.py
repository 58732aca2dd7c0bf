"""Resampling: F.interpolate (nearest, nearest-exact, linear, bilinear, bicubic, trilinear,
area), the deprecated F.upsample* spellings, pixel_shuffle and pixel_unshuffle.

The interpolating modes (linear, bilinear, trilinear, bicubic) run ATen's own CPU kernels step by
step (agrad/ops/_upsample_kernels.py: its indices and weights, its fused multiply-adds, the
channels-last kernel where ATen picks it, NaN where an inf neighbour has weight 0), forward and
backward, each the other's derivative (a uint8 image in bilinear or bicubic mode: ATen's integer
kernels, agrad/ops/_upsample_uint8.py); ``area`` is adaptive average pooling, as in PyTorch.  The
nearest modes pick each output's source (``nearest_idx``) and sum gradients back in the output's
order, as ATen's kernels do (a matrix product would turn -0.0 into 0.0 and spread an inf or NaN to
every output).
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .. import dtypes
from ..tensor import Tensor, _scalar_name
from ._layout import empty_like, in_input_format
from . import _upsample_kernels as _kernels
from . import _upsample_uint8 as _uint8
from ._op import Op, export
from .memory_format import _is_contiguous_in, channels_last, channels_last_3d
from .pooling import _adaptive_avg, adaptive_avg_pool1d
from .._warn_once import warn as _warn

_DIMS = {3: 1, 4: 2, 5: 3}
_OPS = {}


def _op(kind, n):
    name = {"nearest": "UpsampleNearest", "nearest-exact": "UpsampleNearestExact", "linear": "UpsampleLinear",
            "bilinear": "UpsampleBilinear", "bicubic": "UpsampleBicubic", "trilinear": "UpsampleTrilinear"}[kind]
    key = f"{name}{n}DBackward0"
    if key not in _OPS:
        _OPS[key] = _picking(key) if kind.startswith("nearest") else _resampling(key)
    return _OPS[key]


def _take(x, idxs):
    """nearest's kernel: each output element is its source's value (no arithmetic: -0.0, inf, NaN stay)."""
    out = x
    for i, idx in enumerate(idxs):
        out = np.take(out, idx, axis=x.ndim - len(idxs) + i)
    return np.ascontiguousarray(out)


def _add_back(g, idxs, shape):
    """nearest's backward kernel: each output's gradient added into its source's, the outputs in order
    (float16 summed in float)."""
    k = len(idxs)
    lead = g.shape[:g.ndim - k]
    src = np.zeros((), np.int64)
    for idx, n_in in zip(idxs, shape):  # the flat source of each output position, row-major
        src = src[..., None] * n_in + idx
    acc = np.zeros((math.prod(lead), math.prod(shape)), np.float32 if g.dtype == np.float16 else g.dtype)
    np.add.at(acc, (slice(None), src.reshape(-1)), g.reshape(acc.shape[0], src.size))
    return acc.reshape(lead + tuple(shape)).astype(g.dtype, copy=False)


def _picking(name):
    """A nearest upsampling op named ``name``: outputs pick their source along each resized dim
    (``idxs``); its derivative sums the gradient back, its double derivative picks again."""
    op = Op(name, in_input_format(lambda ctx, x, idxs, shape: _take(x, idxs)), jvp="linear")
    back = Op(name.replace("Backward0", "BackwardBackward0"), lambda ctx, g, idxs, shape: _add_back(g, idxs, shape),
              internal=True, jvp="linear")
    op.derivative(lambda ctx, grad: back(grad, idxs=ctx.idxs, shape=ctx.shape))
    back.derivative(lambda ctx, grad: op(grad, idxs=ctx.idxs, shape=ctx.shape))
    return op


def _channels_last_input(x):
    fmt = {4: channels_last, 5: channels_last_3d}.get(x.ndim)
    return fmt is not None and _is_contiguous_in(x, fmt)


def _resampling(name):
    """An interpolating op named ``name`` (ATen's kernels, agrad/ops/_upsample_kernels.py); its
    derivative is the backward kernel, whose own derivative is the forward kernel again."""
    op = Op(name, in_input_format(lambda ctx, x, mode, size, in_size, scales, align_corners: _uint8.forward(
        x, mode == "bicubic", size, scales, align_corners, False, _channels_last_input(x)) if x.dtype == np.uint8
        else _kernels.forward(x, mode, size, scales, align_corners, _channels_last_input(x))), jvp="linear")
    back = Op(name.replace("Backward0", "BackwardBackward0"),
              lambda ctx, g, mode, size, in_size, scales, align_corners: _kernels.backward(
                  g, mode, in_size, scales, align_corners), internal=True, jvp="linear")
    op.derivative(lambda ctx, grad: back(grad, mode=ctx.mode, size=ctx.size, in_size=ctx.in_size, scales=ctx.scales,
                                         align_corners=ctx.align_corners))
    back.derivative(lambda ctx, grad: op(grad, mode=ctx.mode, size=ctx.size, in_size=ctx.in_size, scales=ctx.scales,
                                         align_corners=ctx.align_corners))
    return op


def _antialiased(name, cubic):
    """_upsample_bilinear2d_aa / _upsample_bicubic2d_aa (PIL's filters, separable); its backward
    (``cpu_upsample_genNd_backward_aa``) is its derivative, whose own derivative is the forward."""
    op = Op(name, in_input_format(lambda ctx, x, size, in_size, scales, align_corners: _uint8.forward(
        x, cubic, size, scales, align_corners, True, _channels_last_input(x)) if x.dtype == np.uint8
        else _kernels.aa_forward(x, cubic, size, scales, align_corners)), jvp="linear")
    back = Op(name.replace("Backward0", "BackwardBackward0"),
              lambda ctx, g, size, in_size, scales, align_corners: _kernels.aa_backward(
                  g, cubic, in_size, scales, align_corners), internal=True, jvp="linear")
    op.derivative(lambda ctx, grad: back(grad, size=ctx.size, in_size=ctx.in_size, scales=ctx.scales,
                                         align_corners=ctx.align_corners))
    back.derivative(lambda ctx, grad: op(grad, size=ctx.size, in_size=ctx.in_size, scales=ctx.scales,
                                         align_corners=ctx.align_corners))
    return op


_AA = {"bilinear": _antialiased("UpsampleBilinear2DAaBackward0", False),
       "bicubic": _antialiased("UpsampleBicubic2DAaBackward0", True)}


for _kind, _n in (("nearest", 1), ("nearest", 2), ("nearest", 3), ("nearest-exact", 1), ("nearest-exact", 2),
                  ("nearest-exact", 3), ("linear", 1), ("bilinear", 2), ("bicubic", 2), ("trilinear", 3)):
    _op(_kind, _n)


# ---------------------------------------------------------------------------
# the matrices, from ATen's UpSample.h
# ---------------------------------------------------------------------------

def _nearest_index(n_in, n_out, scale, exact):
    """ATen's nearest_idx / nearest_neighbor_exact_compute_source_index of each output."""
    j = np.arange(n_out)
    if not exact and n_out == n_in:
        src = j
    elif not exact and n_out == 2 * n_in:
        src = j >> 1
    else:
        s = _kernels.compute_scale(n_in, n_out, scale, False, np.float32)  # ATen computes these in float
        pos = (j.astype(np.float32) + np.float32(0.5)) * s if exact else j.astype(np.float32) * s
        src = np.minimum(np.floor(pos).astype(np.int64), n_in - 1)
    return src


# ---------------------------------------------------------------------------
# interpolate
# ---------------------------------------------------------------------------

_MODES = ("nearest", "linear", "bilinear", "bicubic", "trilinear", "area", "nearest-exact")
_NEEDS = {"linear": 3, "bilinear": 4, "trilinear": 5}  # (bicubic of another rank: the "Input Error" below)


def _common_check(input, spatial, out_size):
    """ATen's upsample_{1,2,3}d_common_check: no empty spatial dim in or out, no empty channel."""
    names = ("D", "H", "W")[3 - len(spatial):]
    if not all(n > 0 for n in spatial + out_size):
        given = ", ".join(f"{k}: {v}" for k, v in zip(names, spatial))
        wanted = ", ".join(f"{k}: {v}" for k, v in zip(names, out_size))
        join = " and" if len(spatial) == 1 else ""
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input ({given}){join} "
                           f"output ({wanted})")
    if not input.numel() and not math.prod(input.shape[1:]):
        raise RuntimeError(f"Non-empty {input.ndim}D data tensor expected but got a tensor with sizes "
                           f"{list(input.shape)}")


def _per_dim(v, spatial, what, n=None):
    """``v`` per spatial dim; ``n``: PyTorch's count, input.dim() - 2 (negative for a 0-d or 1-d input)."""
    n = len(spatial) if n is None else n
    if isinstance(v, (list, tuple)):
        if len(v) != n:
            if what == "size":
                raise ValueError(
                    f"Input and output must have the same number of spatial dimensions, but got input with spatial "
                    f"dimensions of {list(spatial)} and output size of {v}. Please provide input tensor in "
                    "(N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.")
            raise ValueError(
                f"Input and scale_factor must have the same number of spatial dimensions, but got input with spatial "
                f"dimensions of {list(spatial)} and scale_factor of shape {v}. Please provide input tensor in "
                "(N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.")
        return tuple(v)
    return (v,) * n


@export(functional=True, torch=False)
def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """Resize the spatial dims of a (N, C, *spatial) input (one Upsample*Backward0 node)."""
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: "
                             "linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    n = input.ndim - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is None and scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    # PyTorch checks the lengths of size / scale_factor before the input's rank
    _per_dim(size if size is not None else scale_factor, input.shape[2:], "size" if size is not None else "scale", n)
    if mode not in _MODES or input.ndim not in _DIMS or (mode == "bicubic" and input.ndim != 4):
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.ndim}D) for the modes: nearest | "
            f"linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact (got {mode})")
    if mode in _NEEDS and input.ndim != _NEEDS[mode]:
        raise NotImplementedError(f"Got {input.ndim}D input, but {mode} mode needs {_NEEDS[mode]}D input")
    if antialias and not (mode in ("bilinear", "bicubic") and input.ndim == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a "
                         "4-D tensor as input")
    if size is None and mode != "area" and not recompute_scale_factor:
        _tensor_scales(scale_factor, mode, n, antialias)
    spatial = tuple(input.shape[2:])
    if size is not None:
        out_size = tuple(int(s) for s in _per_dim(size, spatial, "size"))
        scales = (None,) * n
    else:
        factors = tuple(float(s) for s in _per_dim(scale_factor, spatial, "scale_factor"))
        out_size = tuple(math.floor(float(s) * f) for s, f in zip(spatial, factors))
        scales = (None,) * n if recompute_scale_factor else factors
    if mode == "area":  # (ATen's interpolate calls adaptive_avg_pool1d/2d/3d: the 1-D one through 2-D)
        if n == 1:
            return adaptive_avg_pool1d(input, out_size)
        return _adaptive_avg(f"adaptive_avg_pool{n}d", n, input, out_size)
    _common_check(input, spatial, out_size)
    if mode in ("nearest", "nearest-exact"):
        if not input.dtype.is_floating_point and input.dtype is not dtypes.uint8:
            kernel = "upsample_nearest2d_channels_last" if n == 2 else "compute_indices_weights_nearest"
            raise NotImplementedError(f'"{kernel}" not implemented for \'{_scalar_name(input.dtype)}\'')
        idxs = tuple(_nearest_index(a, b, s, mode == "nearest-exact") for a, b, s in zip(spatial, out_size, scales))
        return _op(mode, n)(input, idxs=idxs, shape=spatial)
    if antialias:
        if input.dtype not in (dtypes.float32, dtypes.float64, dtypes.uint8):  # (uint8: _upsample_uint8.py)
            raise NotImplementedError(f'"compute_index_ranges_weights" not implemented for '
                                      f"'{_scalar_name(input.dtype)}'")
        if input.dtype is dtypes.uint8:
            _uint8.check_avx_packing(input.shape[1], spatial, out_size, input.is_contiguous(),
                                     input.is_contiguous(memory_format=channels_last))
        return _AA[mode](input, size=out_size, in_size=spatial, scales=scales, align_corners=bool(align_corners))
    if not input.dtype.is_floating_point and not (input.dtype is dtypes.uint8 and mode in ("bilinear", "bicubic")):
        kernel = {"bilinear": "upsample_bilinear2d_channels_last", "bicubic": "compute_indices_weights_cubic"}.get(
            mode, "compute_indices_weights_linear")
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_scalar_name(input.dtype)}\'')
    if input.dtype is dtypes.uint8:
        _uint8.check_avx_packing(input.shape[1], spatial, out_size, input.is_contiguous(),
                                 input.is_contiguous(memory_format=channels_last))
    return _op(mode, n)(input, mode=mode, size=out_size, in_size=spatial, scales=scales,
                        align_corners=bool(align_corners))


def _tensor_scales(scale_factor, mode, n, antialias):
    """The parser's refusal of the scale factors F.interpolate hands the upsample op as given (a list of
    the one factor, or the list or tuple itself), where the first is a tensor: its "tuple of floats"
    takes a Python number only (the first element alone is checked)."""
    listed = scale_factor if isinstance(scale_factor, (list, tuple)) else [scale_factor] * n
    if not listed or not isinstance(listed[0], Tensor):
        return
    if antialias:
        name = f"_upsample_{mode}2d_aa"
    elif mode == "nearest-exact":
        name = f"_upsample_nearest_exact{n}d"
    else:
        name = f"upsample_{mode}{n}d"
    corners = ", bool" if mode not in ("nearest", "nearest-exact") else ""
    kind, (left, right) = ("tuple", "()") if isinstance(listed, tuple) else ("list", "[]")
    items = ", ".join("Tensor" if isinstance(v, Tensor) else type(v).__name__ for v in listed)
    if kind == "tuple" and len(listed) == 1:
        items += ","  # (a Python tuple's repr)
    scales = ", ".join(f"float scales{d} = None" for d in {1: ("",), 2: ("_h", "_w"), 3: ("_d", "_h", "_w")}[n])
    raise TypeError(
        f"{name}() received an invalid combination of arguments - got (Tensor, NoneType{corners}, {kind}), but expected "
        f"one of:\n * (Tensor input, tuple of ints output_size{corners and ', bool align_corners'}, tuple of floats "
        f"scale_factors)\n      didn't match because some of the arguments have invalid types: (Tensor, !NoneType!"
        f"{corners}, !{kind} of {left}{items}{right}!)\n * (Tensor input, tuple of ints output_size"
        f"{corners and ', bool align_corners'}, {scales}, *, Tensor out = None)\n")


@export(functional=True, torch=False)
def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    _warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.",
          UserWarning)
    return interpolate(input, size, scale_factor, mode, align_corners)


@export(functional=True, torch=False)
def upsample_nearest(input, size=None, scale_factor=None):
    _warn("`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
          UserWarning)
    return interpolate(input, size, scale_factor, mode="nearest")


@export(functional=True, torch=False)
def upsample_bilinear(input, size=None, scale_factor=None):
    _warn("`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
          UserWarning)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


# ---------------------------------------------------------------------------
# pixel_shuffle, pixel_unshuffle: each the other's derivative
# ---------------------------------------------------------------------------

def _fresh(a):
    """A C-ordered copy: a factor (or groups) of 1 moves nothing, and the result must not share the input's
    memory (ATen's shuffles write a new tensor: a later in-place change of the input leaves it alone)."""
    return np.array(a, order="C", copy=True)


def _shuffle_np(a, r):
    *lead, c, h, w = a.shape
    oc = c // (r * r)
    a = a.reshape(*lead, oc, r, r, h, w)
    k = len(lead)
    a = a.transpose(*range(k), k, k + 3, k + 1, k + 4, k + 2)
    return _fresh(a).reshape(*lead, oc, h * r, w * r)


def _unshuffle_np(a, r):
    *lead, c, h, w = a.shape
    a = a.reshape(*lead, c, h // r, r, w // r, r)
    k = len(lead)
    a = a.transpose(*range(k), k, k + 2, k + 4, k + 1, k + 3)
    return _fresh(a).reshape(*lead, c * r * r, h // r, w // r)


_pixel_shuffle = Op("PixelShuffleBackward0", in_input_format(lambda ctx, a, factor: _shuffle_np(a, factor)),
                    jvp="linear")
_unshuffle_laid = in_input_format(lambda ctx, a, factor: _unshuffle_np(a, factor))


def _unshuffle_fwd(ctx, a, factor):
    # (pixel_unshuffle_cpu returns an empty input's self.clone(): its shape and strides, not the shuffled shape)
    return empty_like(a) if not a.size else _unshuffle_laid(ctx, a, factor)


_pixel_unshuffle = Op("PixelUnshuffleBackward0", _unshuffle_fwd, jvp="linear")
# (derivatives.yaml: pixel_unshuffle(grad, factor) / pixel_shuffle(grad, factor), their shape checks too: the
# gradient of an empty input's unshuffle has the input's shape, which pixel_shuffle may refuse)
def _shuffled_grad(fn):
    def formula(ctx, grad):
        g = fn(grad, ctx.factor)
        shape = tuple(ctx._input_meta[0][0])
        if tuple(g.shape) != shape:  # (the engine's validate_outputs: no shape the input's expands to)
            from .scatter_gather import _expandable, _fmt
            if not _expandable(shape, tuple(g.shape)):
                raise RuntimeError(f"Function {ctx.name()} returned an invalid gradient at index 0 - got "
                                   f"{_fmt(g.shape)} but expected shape compatible with {_fmt(shape)}")
        return g
    return formula


_pixel_shuffle.derivative(_shuffled_grad(lambda grad, r: pixel_unshuffle(grad, r)))
_pixel_unshuffle.derivative(_shuffled_grad(lambda grad, r: pixel_shuffle(grad, r)))


@export(functional=True)
def pixel_shuffle(input, upscale_factor):
    """(*, C*r*r, H, W) -> (*, C, H*r, W*r)."""
    if input.ndim < 3:
        raise RuntimeError(f"pixel_shuffle expects input to have at least 3 dimensions, but got input with "
                           f"{input.ndim} dimension(s)")
    r = int(upscale_factor)
    if r <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    if input.shape[-3] % (r * r):
        raise RuntimeError(
            f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, "
            f"but input.size(-3)={input.shape[-3]} is not divisible by {r * r}")
    return _pixel_shuffle(input, factor=r)


@export(functional=True)
def pixel_unshuffle(input, downscale_factor):
    """(*, C, H*r, W*r) -> (*, C*r*r, H, W)."""
    if input.ndim < 3:
        raise RuntimeError(f"pixel_unshuffle expects input to have at least 3 dimensions, but got input with "
                           f"{input.ndim} dimension(s)")
    r = int(downscale_factor)
    if r <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    for name, i in (("height", -2), ("width", -1)):
        if input.shape[i] % r:
            raise RuntimeError(f"pixel_unshuffle expects {name} to be divisible by downscale_factor, but "
                               f"input.size({i})={input.shape[i]} is not divisible by {r}")
    return _pixel_unshuffle(input, factor=r)


# ---------------------------------------------------------------------------
# channel_shuffle
# ---------------------------------------------------------------------------

def _channel_shuffle_np(a, groups):
    n, c = a.shape[0], a.shape[1]
    rest = a.shape[2:]
    a = a.reshape(n, groups, c // groups, *rest).swapaxes(1, 2)
    return _fresh(a).reshape(n, c, *rest)


_channel_shuffle_laid = in_input_format(lambda ctx, a, groups: _channel_shuffle_np(a, groups))


def _channel_shuffle_fwd(ctx, a, groups):
    # (channel_shuffle_cpu: an empty input's copy laid out like it, its very strides)
    return empty_like(a) if not a.size else _channel_shuffle_laid(ctx, a, groups)


_channel_shuffle = Op("ChannelShuffleBackward0", _channel_shuffle_fwd, jvp="linear")
# (its backward is channel_shuffle of the gradient with C / groups groups, its checks too: no channels, 0 groups)
_channel_shuffle.derivative(lambda ctx, grad: channel_shuffle(grad, grad.shape[1] // ctx.groups))


@export(functional=True)
def channel_shuffle(input, groups):
    """(N, C, *) -> the channels split in ``groups`` groups and interleaved: (N, C/g, g, *) order."""
    if not isinstance(groups, numbers.Integral) or isinstance(groups, bool):
        raise TypeError(f"channel_shuffle(): argument 'groups' (position 2) must be int, not {type(groups).__name__}")
    if input.ndim <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with sizes {list(input.shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of groups:{groups}")
    c = input.shape[1]
    if c % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {c} channels and {groups} groups.")
    return _channel_shuffle(input, groups=int(groups))


@export(functional=True)
def native_channel_shuffle(input, groups):
    """channel_shuffle's kernel without its autograd formula: a result that requires grad has a
    NotImplemented node (PyTorch's: "derivative for aten::native_channel_shuffle is not implemented")."""
    from ._not_implemented import not_implemented

    if not isinstance(groups, numbers.Integral) or isinstance(groups, bool):
        raise TypeError(f"native_channel_shuffle(): argument 'groups' (position 2) must be int, not "
                        f"{type(groups).__name__}")
    value = channel_shuffle(input.detach(), groups)._data
    return not_implemented(value, (input,), "aten::native_channel_shuffle")
