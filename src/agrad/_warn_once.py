"""PyTorch's TORCH_WARN_ONCE: a warning given once per process.

PyTorch gives some deprecation warnings (``x.T`` on a non-matrix, ``adjoint()``
of a 0-D tensor, ``meshgrid`` without ``indexing``, ``torch.cholesky``, ...)
only the first time they fire in a process, whatever Python's warning filters
say; agrad gives them the same way (every time after ``torch.set_warn_always(True)``). :func:`reset` forgets what was given (the
test suite calls it before each test).
"""

from __future__ import annotations

import os
import sys
import threading
import warnings

_GIVEN: set = set()
_PACKAGE = os.path.dirname(os.path.abspath(__file__))
_ISSUING = threading.local()


def warn(message, category=UserWarning) -> None:
    """``warnings.warn`` attributed to the first caller outside agrad, as PyTorch attributes its warnings to the
    user's line (a C++ warning to the Python line that called in).  :func:`issuing` is true while it warns."""
    frame, stacklevel = sys._getframe(1), 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, stacklevel = frame.f_back, stacklevel + 1
    _ISSUING.on = True
    try:
        warnings.warn(message, category, stacklevel=stacklevel)
    finally:
        _ISSUING.on = False


def issuing() -> bool:
    """Whether agrad itself is giving the warning being shown (the script runner keeps every category of these)."""
    return getattr(_ISSUING, "on", False)


def warn_once(message: str, category=UserWarning, key: str | None = None) -> None:
    """``warnings.warn`` the first time ``message`` fires in this process; nothing later.  ``key``: the
    call site where two of PyTorch's TORCH_WARN_ONCE give one text (by default the text itself)."""
    key = message if key is None else key
    if key in _GIVEN:
        from .settings import is_warn_always_enabled

        if not is_warn_always_enabled():
            return
    _GIVEN.add(key)
    warn(message, category)


def reset() -> None:
    _GIVEN.clear()
