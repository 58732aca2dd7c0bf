"""torch.nn.functional: activations, losses and friends from the op table."""

from ..ops import FUNCTIONAL as _FUNCTIONAL
from ..ops import FUNCTIONS as _FUNCTIONS

# Activations that torch also has at the top level (relu, sigmoid, tanh, ...) are
# reachable here too, as in PyTorch.
for _name in ("relu", "sigmoid", "tanh", "softmax", "log_softmax"):
    if _name in _FUNCTIONS:
        globals()[_name] = _FUNCTIONS[_name]
globals().update(_FUNCTIONAL)


def __getattr__(name):
    # composites written over the ops, loaded on first use
    if name == "multi_head_attention_forward":
        from .modules.attention import multi_head_attention_forward
        return multi_head_attention_forward
    raise AttributeError(f"module 'torch.nn.functional' has no attribute '{name}'")
