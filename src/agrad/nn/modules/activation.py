"""Activation modules: thin wrappers over nn.functional, with PyTorch's reprs."""

from __future__ import annotations

from ...ops import FUNCTIONAL as _F
from ...ops import FUNCTIONS as _T
from ...ops.factories import empty
from ..parameter import Parameter
from .module import Module

__all__ = ["ReLU", "ReLU6", "LeakyReLU", "ELU", "CELU", "SELU", "GELU", "SiLU", "Mish", "Tanh",
           "Sigmoid", "Hardtanh", "Hardsigmoid", "Hardswish", "Hardshrink", "Softshrink",
           "Tanhshrink", "Softsign", "Softplus", "LogSigmoid", "Softmax", "LogSoftmax",
           "Softmin", "Threshold", "GLU", "PReLU", "RReLU"]


def _inplace_str(inplace, first=False):
    if not inplace:
        return ""
    return "inplace=True" if first else ", inplace=True"


class _Inplace(Module):
    """An activation whose only option is ``inplace``."""

    _fn = None

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return _F[self._fn](input, inplace=self.inplace)

    def extra_repr(self):
        return _inplace_str(self.inplace, first=True)


class _Plain(Module):
    """An activation without options (PyTorch accepts and ignores arguments)."""

    _fn = None

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return self._call(input)

    def _call(self, input):
        f = _F.get(self._fn) or _T[self._fn]
        return f(input)


class ReLU(_Inplace):
    _fn = "relu"


class ReLU6(_Inplace):
    _fn = "relu6"


class SELU(_Inplace):
    _fn = "selu"


class SiLU(_Inplace):
    _fn = "silu"


class Mish(_Inplace):
    _fn = "mish"


class Hardsigmoid(_Inplace):
    _fn = "hardsigmoid"

    def extra_repr(self):
        return ""


class Hardswish(_Inplace):
    _fn = "hardswish"

    def extra_repr(self):
        return ""


class Tanh(_Plain):
    _fn = "tanh"


class Sigmoid(_Plain):
    _fn = "sigmoid"


class Tanhshrink(_Plain):
    _fn = "tanhshrink"


class Softsign(_Plain):
    _fn = "softsign"


class LogSigmoid(_Plain):
    _fn = "logsigmoid"


class LeakyReLU(Module):
    def __init__(self, negative_slope=1e-2, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return _F["leaky_relu"](input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}{_inplace_str(self.inplace)}"


class ELU(Module):
    _fn = "elu"

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return _F[self._fn](input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}{_inplace_str(self.inplace)}"


class CELU(ELU):
    _fn = "celu"


class GELU(Module):
    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return _F["gelu"](input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class Hardtanh(Module):
    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False, min_value=None, max_value=None):
        super().__init__()
        if min_value is not None:
            min_val = min_value
        if max_value is not None:
            max_val = max_value
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace
        if self.max_val <= self.min_val:
            raise AssertionError(
                f"max_val ({self.max_val}) must be greater than min_val ({self.min_val})")

    def forward(self, input):
        return _F["hardtanh"](input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}{_inplace_str(self.inplace)}"


class Hardshrink(Module):
    _fn = "hardshrink"

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return _F[self._fn](input, self.lambd)

    def extra_repr(self):
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    _fn = "softshrink"


class Softplus(Module):
    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        return _F["softplus"](input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class Softmax(Module):
    _fn = "softmax"

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return _F[self._fn](input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class LogSoftmax(Softmax):
    _fn = "log_softmax"


class Softmin(Softmax):
    _fn = "softmin"


class Threshold(Module):
    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):
        return _F["threshold"](input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        return f"threshold={self.threshold}, value={self.value}{_inplace_str(self.inplace)}"


class GLU(Module):
    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return _F["glu"](input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class PReLU(Module):
    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        self.num_parameters = num_parameters
        super().__init__()
        self.init = init
        self.weight = Parameter(empty(num_parameters, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self):
        from .. import init as _init
        _init.constant_(self.weight, self.init)

    def forward(self, input):
        return _F["prelu"](input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


class RReLU(Module):
    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input):
        return _F["rrelu"](input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        return f"lower={self.lower}, upper={self.upper}{_inplace_str(self.inplace)}"
