"""Grad modes: no_grad, enable_grad, set_grad_enabled, inference_mode.

Each is a context manager and a decorator, as in PyTorch. The state is one
module-level flag read by the single recording point (``graph.record``).
"""

from __future__ import annotations

import functools

#: "formula": a built-in backward formula is running (its Python numbers are
#: C++ Scalars in PyTorch: x * 2 there records MulBackward1, not MulBackward0)
_state = {"enabled": True, "inference": False, "formula": False}


def is_grad_enabled() -> bool:
    return _state["enabled"]


def is_inference_mode_enabled() -> bool:
    return _state["inference"]


class _GradMode:
    """Base: sets the mode on enter, restores the previous one on exit."""

    _enabled = True
    _inference = False

    def __enter__(self):
        self._prev = (_state["enabled"], _state["inference"])
        _state["enabled"] = self._enabled
        _state["inference"] = self._inference
        return None

    def __exit__(self, *exc):
        _state["enabled"], _state["inference"] = self._prev
        return False

    def __call__(self, fn):
        enabled, inference = self._enabled, self._inference

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            prev = (_state["enabled"], _state["inference"])
            _state["enabled"], _state["inference"] = enabled, inference
            try:
                return fn(*args, **kwargs)
            finally:
                _state["enabled"], _state["inference"] = prev

        return wrapper

    def __repr__(self):
        return f"<torch.autograd.grad_mode.{type(self).__name__} object>"


class no_grad(_GradMode):
    """Operations inside record no graph; results do not require grad."""

    _enabled = False


class enable_grad(_GradMode):
    """Turn recording back on inside a ``no_grad`` block."""

    _enabled = True


class set_grad_enabled(_GradMode):
    """Switch recording on or off at once; as a context manager, restore on exit."""

    def __init__(self, mode: bool):
        self._prev = (_state["enabled"], _state["inference"])
        self._enabled = bool(mode)
        _state["enabled"] = self._enabled

    def __enter__(self):
        return None

    def __call__(self, fn):
        _state["enabled"], _state["inference"] = self._prev  # as a decorator it switches nothing now
        return super().__call__(fn)


class inference_mode(_GradMode):
    """Like no_grad (agrad keeps no separate inference tensors)."""

    def __init__(self, mode: bool = True):
        self._enabled = not mode
        self._inference = bool(mode)
