"""Resource limits the engine enforces before it allocates.

The script language and the CLI set them (``--max-elements``); a Python user
of the library may too.  A limit that trips raises :class:`LimitError`, a
``RuntimeError`` whose message says which limit and how to raise it.
"""

from __future__ import annotations

DEFAULT_MAX_ELEMENTS = 10**8

_max_elements: int | None = DEFAULT_MAX_ELEMENTS


class LimitError(RuntimeError):
    """A resource limit (tensor size, list size, integer size, time) was hit."""


def set_max_elements(n: int | None) -> None:
    """Set the largest number of elements one tensor may hold (None: no limit)."""
    global _max_elements
    _max_elements = None if n is None else int(n)


def get_max_elements() -> int | None:
    return _max_elements


def check_numel(numel: int, what: str = "tensor") -> None:
    """Raise LimitError if a ``what`` of ``numel`` elements is over the limit."""
    if _max_elements is not None and numel > _max_elements:
        raise LimitError(
            f"{what} of {numel:,} elements exceeds the limit of {_max_elements:,} "
            f"elements (--max-elements)"
        )
