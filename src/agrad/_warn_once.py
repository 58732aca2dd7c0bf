"""PyTorch's TORCH_WARN_ONCE: a warning given once per process.

PyTorch gives some deprecation warnings (``x.T`` on a non-matrix, ``adjoint()``
of a 0-D tensor, ``meshgrid`` without ``indexing``, ``torch.cholesky``, ...)
only the first time they fire in a process, whatever Python's warning filters
say; agrad gives them the same way (every time after ``torch.set_warn_always(True)``). :func:`reset` forgets what was given (the
test suite calls it before each test).
"""

from __future__ import annotations

import warnings

_GIVEN: set = set()


def warn_once(message: str, category=UserWarning, stacklevel: int = 2, key: str | None = None) -> None:
    """``warnings.warn`` the first time ``message`` fires in this process; nothing later.  ``key``: the
    call site where two of PyTorch's TORCH_WARN_ONCE give one text (by default the text itself)."""
    key = message if key is None else key
    if key in _GIVEN:
        from .settings import is_warn_always_enabled

        if not is_warn_always_enabled():
            return
    _GIVEN.add(key)
    warnings.warn(message, category, stacklevel=stacklevel + 1)


def reset() -> None:
    _GIVEN.clear()
