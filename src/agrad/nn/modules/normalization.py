"""Normalisation layers: BatchNorm1d/2d/3d (running statistics, momentum, eval
mode), LayerNorm, GroupNorm, RMSNorm, LocalResponseNorm, CrossMapLRN2d."""

from __future__ import annotations

import numbers

import numpy as np

from ... import dtypes
from ..._cascade import cascade_sum
from ...autograd import grad_mode
from ...autograd.function import Function
from ...ops import FUNCTIONS as _T
from ...ops import _vec_math
from ...tensor import Tensor
from ...ops.factories import empty, tensor as _tensor, zeros, ones
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm", "GroupNorm", "RMSNorm", "LocalResponseNorm",
           "CrossMapLRN2d"]


def _F(name):
    from ...nn import functional
    return getattr(functional, name)


class _NormBase(Module):
    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, device=None, dtype=None, *, bias=True):
        super().__init__()
        d = dtype if dtype is not None else dtypes.get_default_dtype()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = Parameter(empty(num_features, dtype=d))
            if bias:
                self.bias = Parameter(empty(num_features, dtype=d))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", zeros(num_features, dtype=d))
            self.register_buffer("running_var", ones(num_features, dtype=d))
            self.register_buffer("num_batches_tracked", _tensor(0, dtype=dtypes.int64))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self):
        if self.track_running_stats:
            with grad_mode.no_grad():
                self.running_mean.zero_()
                self.running_var.fill_(1)
                self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.bias is not None}, "
                f"track_running_stats={self.track_running_stats}")


class _BatchNorm(_NormBase):
    def forward(self, input):
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            with grad_mode.no_grad():
                self.num_batches_tracked.add_(1)
            factor = (1.0 / float(self.num_batches_tracked) if self.momentum is None
                      else self.momentum)
        bn_training = True if self.training else (
            self.running_mean is None and self.running_var is None)
        use_stats = not self.training or self.track_running_stats
        return _F("batch_norm")(input, self.running_mean if use_stats else None,
                                self.running_var if use_stats else None, self.weight,
                                self.bias, bn_training, factor, self.eps)


class SyncBatchNorm(_BatchNorm):
    """BatchNorm whose statistics PyTorch reduces over a process group in distributed training; agrad
    has no torch.distributed, so (as PyTorch does when it is not initialised) it normalises as
    F.batch_norm over the local batch."""

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True,
                 process_group=None, device=None, dtype=None, *, bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias)
        self.process_group = process_group

    def _check_input_dim(self, input):
        if input.dim() < 2:
            raise ValueError(f"expected at least 2D input (got {input.dim()}D input)")

    def _check_non_zero_input_channels(self, input):
        if input.size(1) == 0:
            raise ValueError("SyncBatchNorm number of input channels should be non-zero")

    def forward(self, input):
        self._check_input_dim(input)
        self._check_non_zero_input_channels(input)
        return super().forward(input)

    @classmethod
    def convert_sync_batchnorm(cls, module, process_group=None):
        """``module`` with every BatchNorm*d layer replaced by a SyncBatchNorm holding its parameters
        and running statistics (PyTorch's classmethod)."""
        module_output = module
        if isinstance(module, _BatchNorm):
            module_output = SyncBatchNorm(module.num_features, module.eps, module.momentum, module.affine,
                                          module.track_running_stats, process_group, bias=module.bias is not None)
            if module.affine:
                with grad_mode.no_grad():
                    module_output.weight = module.weight
                    module_output.bias = module.bias
            module_output.running_mean = module.running_mean
            module_output.running_var = module.running_var
            module_output.num_batches_tracked = module.num_batches_tracked
            module_output.training = module.training
        for name, child in module.named_children():
            module_output.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        del module
        return module_output


class BatchNorm1d(_BatchNorm):
    def _check_input_dim(self, input):
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    def _check_input_dim(self, input):
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class BatchNorm3d(_BatchNorm):
    def _check_input_dim(self, input):
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")


def _affine_parameters(module, affine, bias, shape, dtype):
    """The weight and bias of LayerNorm and GroupNorm (None where turned off)."""
    d = dtype if dtype is not None else dtypes.get_default_dtype()
    module.register_parameter("weight", Parameter(empty(shape, dtype=d)) if affine else None)
    module.register_parameter("bias", Parameter(empty(shape, dtype=d)) if affine and bias else None)


def _reset_affine(module):
    if module.weight is not None:
        init.ones_(module.weight)
    if module.bias is not None:
        init.zeros_(module.bias)

class LayerNorm(Module):
    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True,
                 device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        _affine_parameters(self, elementwise_affine, bias, self.normalized_shape, dtype)
        self.reset_parameters()

    def reset_parameters(self):
        _reset_affine(self)

    def forward(self, input):
        return _F("layer_norm")(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}")


class GroupNorm(Module):
    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None,
                 dtype=None, *, bias=True):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups "
                             f"({num_groups})")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        _affine_parameters(self, affine, bias, num_channels, dtype)
        self.reset_parameters()

    def reset_parameters(self):
        _reset_affine(self)

    def forward(self, input):
        return _F("group_norm")(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, "
                f"affine={self.affine}, bias={self.bias is not None}")


class RMSNorm(Module):
    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        d = dtype if dtype is not None else dtypes.get_default_dtype()
        self.register_parameter("weight", Parameter(empty(self.normalized_shape, dtype=d))
                                if elementwise_affine else None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, x):
        return _F("rms_norm")(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class LocalResponseNorm(Module):
    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input):
        return _F("local_response_norm")(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


class CrossMapLRN2d(Function):  # noqa: F811 (PyTorch's name: its node is CrossMapLRN2dBackward)
    """PyTorch's legacy cross-channel LRN (torch/nn/modules/_functions.py), a custom Function
    with its own backward: the window sums run channel by channel, adding the square that
    enters and (from channel pre_pad + 1 on) subtracting the one that leaves."""

    @staticmethod
    def forward(ctx, input, size, alpha=1e-4, beta=0.75, k=1):
        if input.dim() != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D instead.")
        ctx.size, ctx.alpha, ctx.beta, ctx.k = size, alpha, beta, k
        x = input._data
        dt = x.dtype.type
        channels = x.shape[1]
        square = x * x
        pre_pad = int((size - 1) / 2 + 1)
        scale = np.empty_like(x)
        scale[:, 0] = 0
        for c in range(min(pre_pad, channels)):
            scale[:, 0] += square[:, c]
        for c in range(1, channels):
            scale[:, c] = scale[:, c - 1]
            if c < channels - pre_pad + 1:
                scale[:, c] += square[:, c + pre_pad - 1]
            if c > pre_pad:
                scale[:, c] -= square[:, c - pre_pad]
        scale *= dt(alpha / size)
        scale += dt(k)
        ctx.scale = Tensor._make(scale)
        output = _T["pow"](ctx.scale, -beta) * input
        ctx.save_for_backward(input, output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, output = ctx.saved_tensors
        size = ctx.size
        x, out, g, scale = input._data, output._data, grad_output._data, ctx.scale._data
        dt = x.dtype.type
        batch, channels = x.shape[:2]
        padded = np.zeros((channels + size - 1,) + x.shape[2:], dtype=x.dtype)
        ratio = dt(-(2 * ctx.alpha * ctx.beta / size))
        inverse_pre_pad = int(size - (size - 1) / 2)
        grad_input = (_T["pow"](ctx.scale, -ctx.beta) * grad_output)._data.copy()
        center = Tensor._make(padded).narrow(0, inverse_pre_pad, channels)._data  # (its error)
        for n in range(batch):
            center[...] = g[n] * out[n] / scale[n]
            accum = cascade_sum(padded[:size - 1], (0,), False) if size > 5 else None  # (torch.sum's order)
            if accum is None:
                accum = np.zeros(x.shape[2:], dtype=x.dtype)
                for i in range(size - 1):
                    accum += padded[i]
            for c in range(channels):
                accum += padded[c + size - 1]
                # (addcmul_'s kernel: fma(value * input, accum_ratio, grad_input))
                grad_input[n, c] = _vec_math.fma(ratio * x[n, c], accum, grad_input[n, c])
                accum -= padded[c]
        return Tensor._make(grad_input), None, None, None, None


_cross_map_lrn2d = CrossMapLRN2d


class CrossMapLRN2d(Module):  # noqa: F811
    def __init__(self, size, alpha=1e-4, beta=0.75, k=1):
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input):
        return _cross_map_lrn2d.apply(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
