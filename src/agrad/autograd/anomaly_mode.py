"""Anomaly detection: ``detect_anomaly`` and ``set_detect_anomaly``, as in PyTorch.

With the mode on and ``check_nan`` set, the engine raises PyTorch's
``RuntimeError: Function 'SqrtBackward0' returned nan values in its 0th
output.`` when a node's backward formula returns NaN.  (PyTorch also prints
the traceback of the forward call that made the failing node; agrad does not
keep forward tracebacks: ``agrad eval --anomaly`` names the statement and
column instead.)
"""

from __future__ import annotations

import functools
from .._warn_once import warn as _warn

#: read by the engine at the start of each backward pass
_anomaly = {"enabled": False, "check_nan": True}

ENABLED_WARNING = ("Anomaly Detection has been enabled. This mode will increase the runtime and "
                   "should only be enabled for debugging.")


def is_anomaly_enabled() -> bool:
    return _anomaly["enabled"]


def is_anomaly_check_nan_enabled() -> bool:
    return _anomaly["check_nan"]


def set_anomaly_enabled(mode: bool, check_nan: bool = True) -> None:
    """``torch.set_anomaly_enabled``: switch the mode for the rest of the run."""
    _anomaly["enabled"] = bool(mode)
    _anomaly["check_nan"] = bool(check_nan)


class detect_anomaly:
    """Context manager and decorator that turns anomaly detection on."""

    def __init__(self, check_nan: bool = True):
        self.prev = _anomaly["enabled"]
        self.check_nan = bool(check_nan)
        self.prev_check_nan = _anomaly["check_nan"]
        _warn(ENABLED_WARNING, UserWarning)

    def __enter__(self):
        set_anomaly_enabled(True, self.check_nan)
        return None

    def __exit__(self, *exc):
        set_anomaly_enabled(self.prev, self.prev_check_nan)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__(self.check_nan):
                return fn(*args, **kwargs)
        return wrapper

    def __repr__(self):
        return "<torch.autograd.anomaly_mode.detect_anomaly object>"


class set_detect_anomaly:
    """Switch anomaly detection on or off at once; as a context manager, restore on exit."""

    def __init__(self, mode: bool, check_nan: bool = True):
        self.prev = _anomaly["enabled"]
        self.prev_check_nan = _anomaly["check_nan"]
        set_anomaly_enabled(mode, check_nan)

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        set_anomaly_enabled(self.prev, self.prev_check_nan)
        return False

    def __repr__(self):
        return "<torch.autograd.anomaly_mode.set_detect_anomaly object>"


def nan_message(node, index: int) -> str:
    return f"Function '{node.name()}' returned nan values in its {index}th output."
