"""Grad modes: no_grad, enable_grad, set_grad_enabled, inference_mode.

Each is a context manager and a decorator, as in PyTorch. The state is one
module-level dict read by the single recording point (``graph.record``):
``"enabled"`` says whether ops record (grad mode on and inference mode off),
``"grad"`` is the grad mode a script set inside inference mode (where nothing
records whatever it says: PyTorch's InferenceMode leaves out the autograd
kernels), ``"inference"`` whether inference mode is on (tensors made then are
inference tensors: agrad.autograd.inference).
"""

from __future__ import annotations

import functools

#: "formula": a built-in backward formula is running (its Python numbers are
#: C++ Scalars in PyTorch: x * 2 there records MulBackward1, not MulBackward0)
_state = {"enabled": True, "grad": True, "inference": False, "formula": False}


def is_grad_enabled() -> bool:
    return _state["grad"] if _state["inference"] else _state["enabled"]


def is_inference_mode_enabled() -> bool:
    return _state["inference"]


def _get():
    return is_grad_enabled(), _state["inference"]


def _set(grad, inference):
    """Set grad mode and inference mode (PyTorch's GradMode and InferenceMode flags)."""
    _state["grad"] = grad
    _state["inference"] = inference
    _state["enabled"] = grad and not inference
    if inference:
        from . import inference as _inference
        _inference.SEEN[0] = True


class _GradMode:
    """Base: sets the mode on enter, restores the previous one on exit."""

    _enabled = True
    _inference = None  # None: inference mode stays as it is (only inference_mode sets it)

    def _target(self):
        inference = self._inference
        return self._enabled, _state["inference"] if inference is None else inference

    def __enter__(self):
        self._prev = _get()
        _set(*self._target())
        return None

    def __exit__(self, *exc):
        _set(*self._prev)
        return False

    def __call__(self, fn):
        enabled, inference = self._enabled, self._inference

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            prev = _get()
            _set(enabled, prev[1] if inference is None else inference)
            try:
                return fn(*args, **kwargs)
            finally:
                _set(*prev)

        return wrapper

    def clone(self):
        return type(self)()

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
        self._prev = _get()
        self._enabled = bool(mode)
        _set(self._enabled, self._prev[1])

    def __enter__(self):
        return None

    def __call__(self, fn):
        _set(*self._prev)  # as a decorator it switches nothing now
        return super().__call__(fn)

    def clone(self):
        return type(self)(self._enabled)


class inference_mode(_GradMode):
    """Grad mode off, and the tensors made inside are inference tensors (PyTorch's rules:
    agrad.autograd.inference); ``inference_mode(False)`` turns both back on."""

    def __new__(cls, mode=True):
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)  # (PyTorch's: @torch.inference_mode without a call decorates the function)

    def __init__(self, mode: bool = True):
        self.mode = mode
        self._enabled = not mode
        self._inference = bool(mode)

    def clone(self):
        return type(self)(self.mode)
