"""torch.autograd for agrad: the graph, the engine, grad modes, Function, gradcheck."""

from . import forward_ad, functional, graph
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .engine import backward, grad
from .function import Function, FunctionCtx, InplaceFunction, NestedIOFunction, once_differentiable
from .grad_mode import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from .gradcheck import GradcheckError, gradcheck, gradgradcheck

__all__ = [
    "Function", "FunctionCtx", "GradcheckError", "backward", "detect_anomaly", "enable_grad", "forward_ad",
    "functional", "grad", "gradcheck",
    "gradgradcheck", "graph", "inference_mode", "is_grad_enabled", "no_grad", "once_differentiable",
    "set_detect_anomaly", "set_grad_enabled",
]
