"""torch.autograd for agrad: the graph, the engine, grad modes, Function, gradcheck."""

from . import forward_ad, graph
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


def __getattr__(name):
    # torch.autograd.functional loads on first use (start-up stays small)
    if name == "functional":
        import importlib
        return importlib.import_module(f"{__name__}.functional")
    raise AttributeError(f"module 'torch.autograd' has no attribute '{name}'")
