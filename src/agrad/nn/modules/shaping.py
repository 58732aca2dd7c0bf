"""Layers over the shaping functionals: padding (Zero/Constant/Reflection/Replication/
CircularPad 1d-3d), PixelShuffle/PixelUnshuffle, Upsample and its 2-D aliases,
Fold/Unfold, and the modules of a few more functionals (Softmax2d,
CosineSimilarity, PairwiseDistance, InstanceNorm1d/2d/3d) -- PyTorch's classes,
constructor checks and reprs."""

from __future__ import annotations


from ...ops import FUNCTIONAL as _F
from .module import Module
from .normalization import _NormBase
from ..._warn_once import warn as _warn

__all__ = ["ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "ConstantPad1d", "ConstantPad2d",
           "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "CircularPad1d",
           "CircularPad2d", "CircularPad3d", "PixelShuffle", "PixelUnshuffle", "ChannelShuffle", "Upsample",
           "UpsamplingNearest2d", "UpsamplingBilinear2d", "Fold", "Unfold", "Softmax2d",
           "CosineSimilarity", "PairwiseDistance", "InstanceNorm1d", "InstanceNorm2d",
           "InstanceNorm3d"]


def _ntuple(value, n):
    if isinstance(value, (tuple, list)):
        return tuple(value)
    return (value,) * n


# ------------------------------------------------------------------ padding

class _PadNd(Module):
    _mode = "constant"
    _dims = 1

    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple(padding, 2 * self._dims)

    def _check_input_dim(self, input):
        """PyTorch checks the rank only for the circular modules (F.pad checks the rest)."""

    def forward(self, input):
        self._check_input_dim(input)
        return _F["pad"](input, self.padding, self._mode)

    def extra_repr(self):
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    def __init__(self, padding, value):
        super().__init__(padding)
        self.value = value

    def forward(self, input):
        return _F["pad"](input, self.padding, "constant", self.value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class _ZeroPadNd(_ConstantPadNd):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class _CircularPadNd(_PadNd):
    _mode = "circular"

    def _check_input_dim(self, input):
        ranks = (self._dims + 1, self._dims + 2)
        if input.dim() not in ranks:
            raise ValueError(f"expected {ranks[0]}D or {ranks[1]}D input (got {input.dim()}D "
                             "input)")


def _pad_class(name, base, dims, mode=None):
    attrs = {"_dims": dims, "__module__": __name__, "__qualname__": name}
    if mode:
        attrs["_mode"] = mode
    return type(name, (base,), attrs)


ZeroPad1d, ZeroPad2d, ZeroPad3d = (_pad_class(f"ZeroPad{d}d", _ZeroPadNd, d) for d in (1, 2, 3))
ConstantPad1d, ConstantPad2d, ConstantPad3d = (_pad_class(f"ConstantPad{d}d", _ConstantPadNd, d)
                                               for d in (1, 2, 3))
ReflectionPad1d, ReflectionPad2d, ReflectionPad3d = (
    _pad_class(f"ReflectionPad{d}d", _PadNd, d, "reflect") for d in (1, 2, 3))
ReplicationPad1d, ReplicationPad2d, ReplicationPad3d = (
    _pad_class(f"ReplicationPad{d}d", _PadNd, d, "replicate") for d in (1, 2, 3))
CircularPad1d, CircularPad2d, CircularPad3d = (_pad_class(f"CircularPad{d}d", _CircularPadNd, d)
                                               for d in (1, 2, 3))


# ------------------------------------------------------------------ pixels, resampling, patches

class PixelShuffle(Module):
    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        return _F["pixel_shuffle"](input, self.upscale_factor)

    def extra_repr(self):
        return f"upscale_factor={self.upscale_factor}"


class ChannelShuffle(Module):
    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, input):
        return _F["channel_shuffle"](input, self.groups)

    def extra_repr(self):
        return f"groups={self.groups}"


class PixelUnshuffle(Module):
    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        return _F["pixel_unshuffle"](input, self.downscale_factor)

    def extra_repr(self):
        return f"downscale_factor={self.downscale_factor}"


class Upsample(Module):
    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple(float(f) for f in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input):
        return _F["interpolate"](input, self.size, self.scale_factor, self.mode,
                                 self.align_corners,
                                 recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self):
        if self.scale_factor is not None:
            info = "scale_factor=" + repr(self.scale_factor)
        else:
            info = "size=" + repr(self.size)
        return info + ", mode=" + repr(self.mode)


class UpsamplingNearest2d(Upsample):
    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


class Fold(Module):
    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def forward(self, input):
        return _F["fold"](input, self.output_size, self.kernel_size, self.dilation, self.padding,
                          self.stride)

    def extra_repr(self):
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, "
                f"dilation={self.dilation}, padding={self.padding}, stride={self.stride}")


class Unfold(Module):
    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = (kernel_size, dilation,
                                                                      padding, stride)

    def forward(self, input):
        return _F["unfold"](input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")


# ------------------------------------------------------------------ more functionals as modules

class Softmax2d(Module):
    """Softmax over the channels of (N, C, H, W) or (C, H, W) input."""

    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D "
                             "instead")
        return _F["softmax"](input, -3)


class CosineSimilarity(Module):
    def __init__(self, dim=1, eps=1e-8):
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x1, x2):
        return _F["cosine_similarity"](x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    def __init__(self, p=2.0, eps=1e-6, keepdim=False):
        super().__init__()
        self.norm, self.eps, self.keepdim = p, eps, keepdim

    def forward(self, x1, x2):
        return _F["pairwise_distance"](x1, x2, self.norm, self.eps, self.keepdim)


class _InstanceNorm(_NormBase):
    """Normalisation over each sample's and channel's spatial values (affine and running
    statistics off by default, as PyTorch's)."""

    _spatial = 1

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False,
                 track_running_stats=False, device=None, dtype=None, *, bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device,
                         dtype, bias=bias)

    def _instance_norm(self, input):
        return _F["instance_norm"](input, self.running_mean, self.running_var, self.weight,
                                   self.bias, self.training or not self.track_running_stats,
                                   self.momentum if self.momentum is not None else 0.0, self.eps)

    def forward(self, input):
        no_batch = self._spatial + 1
        if input.dim() not in (no_batch, no_batch + 1):
            raise ValueError(f"expected {no_batch}D or {no_batch + 1}D input (got {input.dim()}D "
                             "input)")
        feature_dim = input.dim() - no_batch
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match "
                                 f"num_features ({self.num_features}), but got: "
                                 f"{input.size(feature_dim)}.")
            _warn(f"input's size at dim={feature_dim} does not match num_features. You "
                  "can silence this warning by not passing in num_features, which is "
                  "not used because affine=False")
        if input.dim() == no_batch:
            return self._instance_norm(input.unsqueeze(0)).squeeze(0)
        return self._instance_norm(input)


class InstanceNorm1d(_InstanceNorm):
    _spatial = 1


class InstanceNorm2d(_InstanceNorm):
    _spatial = 2


class InstanceNorm3d(_InstanceNorm):
    _spatial = 3
