"""The global switches scripts set: thread counts, deterministic algorithms, float32 matmul
precision, warn-always.  agrad computes on one thread, deterministically, in the precision
its dtype names, so they change no result: each is kept, checked and read back as PyTorch's
is (its error texts included).  A script's settings last until the script ends
(:func:`script_scope`, entered by each run of agrad.lang), never into the next run.
"""

from __future__ import annotations

import contextlib
import os

from .autograd.grad_mode import is_inference_mode_enabled  # noqa: F401  (torch.is_inference_mode_enabled)
from ._warn_once import warn as _warn


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


_DEFAULTS = {"num_threads": None, "num_interop_threads": None, "interop_set": False, "deterministic": False,
             "warn_only": False, "matmul_precision": "highest", "warn_always": False,
             "mha_fastpath": True}
_STATE = dict(_DEFAULTS)

_PRECISIONS = ("highest", "high", "medium")
_DEBUG_MODES = {"default": 0, "warn": 1, "error": 2}


@contextlib.contextmanager
def script_scope():
    """The settings as they are now, back when the block ends (a script's run)."""
    saved = dict(_STATE)
    try:
        yield
    finally:
        _STATE.clear()
        _STATE.update(saved)


def _positive_int(fname, n):
    if type(n) is not int:
        raise RuntimeError(f"{fname} expects an int, but got {type(n).__name__}")
    if n <= 0:
        raise RuntimeError(f"{fname} expects a positive integer")


def get_num_threads() -> int:
    n = _STATE["num_threads"]
    return _cores() if n is None else n


def set_num_threads(int):  # noqa: A002 - PyTorch's parameter name
    _positive_int("set_num_threads", int)
    _STATE["num_threads"] = int


def get_num_interop_threads() -> int:
    n = _STATE["num_interop_threads"]
    return _cores() if n is None else n


def set_num_interop_threads(int):  # noqa: A002
    _positive_int("set_num_interop_threads", int)
    if _STATE["interop_set"]:
        raise RuntimeError("Error: cannot set number of interop threads after parallel work has started or "
                           "set_num_interop_threads called")
    _STATE["num_interop_threads"] = int
    _STATE["interop_set"] = True


def use_deterministic_algorithms(mode, *, warn_only=False):
    if type(mode) is not bool:
        raise TypeError(f"_set_deterministic_algorithms(): argument 'mode' (position 1) must be bool, not "
                        f"{type(mode).__name__}")
    if type(warn_only) is not bool:
        raise TypeError(f"_set_deterministic_algorithms(): argument 'warn_only' must be bool, not "
                        f"{type(warn_only).__name__}")
    _STATE["deterministic"] = mode
    _STATE["warn_only"] = mode and warn_only


def are_deterministic_algorithms_enabled() -> bool:
    return _STATE["deterministic"]


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    return _STATE["warn_only"]


def set_deterministic_debug_mode(debug_mode) -> None:
    if type(debug_mode) is str:
        if debug_mode not in _DEBUG_MODES:
            raise RuntimeError(f"invalid value of debug_mode, expected one of `default`, `warn`, `error`, but got "
                               f"{debug_mode}")
        debug_mode = _DEBUG_MODES[debug_mode]
    elif type(debug_mode) is int:
        if debug_mode not in (0, 1, 2):
            raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}")
    else:
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)!r}")
    use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode() -> int:
    if not _STATE["deterministic"]:
        return 0
    return 1 if _STATE["warn_only"] else 2


def set_float32_matmul_precision(precision) -> None:
    if type(precision) is not str:
        raise RuntimeError(f"set_float32_matmul_precision expects a str, but got {type(precision).__name__}")
    if precision not in _PRECISIONS:
        _warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
              "setFloat32MatmulPrecision call has no effect.", UserWarning)
        return
    _STATE["matmul_precision"] = precision


def get_float32_matmul_precision() -> str:
    return _STATE["matmul_precision"]


def set_warn_always(b, /) -> None:
    if type(b) is not bool:
        raise RuntimeError(f"setWarnOnlyOnce expects a bool, but got {type(b).__name__}")
    _STATE["warn_always"] = b


def is_warn_always_enabled() -> bool:
    return _STATE["warn_always"]


#: the names ``torch.<name>`` gives
PUBLIC = ("get_num_threads", "set_num_threads", "get_num_interop_threads", "set_num_interop_threads",
          "use_deterministic_algorithms", "are_deterministic_algorithms_enabled",
          "is_deterministic_algorithms_warn_only_enabled", "set_deterministic_debug_mode",
          "get_deterministic_debug_mode", "set_float32_matmul_precision", "get_float32_matmul_precision",
          "set_warn_always", "is_warn_always_enabled", "is_inference_mode_enabled")
