"""Identity, Linear, Bilinear (PyTorch's initialisation in ``reset_parameters``)."""

from __future__ import annotations

import math

from ... import dtypes
from ...ops import FUNCTIONAL as _F
from ...ops.factories import empty
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["Identity", "Linear", "Bilinear"]

_linear = _F["linear"]


def _factory_dtype(dtype):
    return dtype if dtype is not None else dtypes.get_default_dtype()


class Identity(Module):
    """Returns its input; ignores any constructor arguments."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    """y = x Wᵀ + b, with W of shape (out_features, in_features)."""

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        d = _factory_dtype(dtype)
        self.weight = Parameter(empty((out_features, in_features), dtype=d))
        if bias:
            self.bias = Parameter(empty(out_features, dtype=d))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        p = self._parameters
        if "weight" in p and "bias" in p:  # (the usual case, read directly)
            return _linear(input, p["weight"], p["bias"])
        return _linear(input, self.weight, self.bias)  # replaced by plain tensors (forward AD's dual weights)

    def extra_repr(self):
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class Bilinear(Module):
    """y = x1ᵀ A x2 + b."""

    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None,
                 dtype=None):
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        d = _factory_dtype(dtype)
        self.weight = Parameter(empty((out_features, in1_features, in2_features), dtype=d))
        if bias:
            self.bias = Parameter(empty(out_features, dtype=d))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return _F["bilinear"](input1, input2, self.weight, self.bias)

    def extra_repr(self):
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")
