"""torch.nn.functional: activations, losses and friends from the op table."""

from ..ops import FUNCTIONAL as _FUNCTIONAL
from ..ops import FUNCTIONS as _FUNCTIONS
from ..ops import _families

# Activations that torch also has at the top level (relu, sigmoid, tanh, ...) are
# reachable here too, as in PyTorch.
_TOP_LEVEL = ("relu", "sigmoid", "tanh", "softmax", "log_softmax")
for _name in _TOP_LEVEL:
    if dict.__contains__(_FUNCTIONS, _name) and _name not in _FUNCTIONAL:  # (F's own wins: __getattr__)
        globals()[_name] = _FUNCTIONS[_name]
globals().update(dict.items(_FUNCTIONAL))  # (the loaded op families'; the others: __getattr__)


def _input_only(name):
    """F.sigmoid / F.tanh: PyTorch's Python functions of ``input`` alone (``input.sigmoid()``): no out=."""
    fn = _FUNCTIONS[name]

    def call(input):
        return fn(input)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = fn.__doc__
    return call


for _name in ("sigmoid", "tanh"):
    if dict.__contains__(_FUNCTIONS, _name) and _name not in _FUNCTIONAL:
        globals()[_name] = _input_only(_name)


def __getattr__(name):
    # composites written over the ops, loaded on first use
    if name == "multi_head_attention_forward":
        from .modules.attention import multi_head_attention_forward
        return multi_head_attention_forward
    if _families.lookup("FUNCTIONAL", name):  # an op family not loaded yet
        value = globals()[name] = _FUNCTIONAL[name]
        return value
    if name in _TOP_LEVEL and name in _FUNCTIONS:
        value = globals()[name] = _input_only(name) if name in ("sigmoid", "tanh") else _FUNCTIONS[name]
        return value
    raise AttributeError(f"module 'torch.nn.functional' has no attribute '{name}'")


def __dir__():
    return sorted({*globals(), *_families.names("FUNCTIONAL"), *(n for n in _TOP_LEVEL if n in _FUNCTIONS)})
