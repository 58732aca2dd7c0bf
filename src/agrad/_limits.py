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


def check_shape(shape, what: str = "tensor") -> None:
    """Raise LimitError if a result of this shape would be over the limit
    (called before the result is allocated)."""
    if _max_elements is None:
        return
    n = 1
    for s in shape:
        n *= int(s)
    if n > _max_elements:
        check_numel(n, what)


def check_broadcast(*arrays, what: str = "tensor") -> None:
    """Raise LimitError if broadcasting these arrays (or numbers) together
    gives more elements than the limit, before anything is allocated.  Cheap
    when it cannot: a broadcast never has more elements than the product of
    the operands' sizes.  Shapes that do not broadcast are left to the op's
    own error."""
    limit = _max_elements
    if limit is None:
        return
    bound = 1
    for a in arrays:
        bound *= getattr(a, "size", 1)
    if bound <= limit:
        return
    shapes = [getattr(a, "shape", ()) for a in arrays]
    out = []
    for i in range(1, max(len(s) for s in shapes) + 1):
        d = 1
        for s in shapes:
            x = s[-i] if i <= len(s) else 1
            if x != 1:
                if d != 1 and x != d:
                    return
                d = x
        out.append(d)
    check_shape(out, what)


# ------------------------------------------------------------------ memory

_max_memory: int | None = None


def set_max_memory(n: int | None) -> None:
    """The private-memory limit the process runs under (set by the CLI's contained child)."""
    global _max_memory
    _max_memory = None if not n else int(n)


def get_max_memory() -> int | None:
    return _max_memory


def memory_limit_error(exc: BaseException) -> LimitError | None:
    """A MemoryError under a memory limit, as the limit's error with the figure; None without one."""
    if _max_memory is None:
        return None
    size = _max_memory
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20)):
        if size >= scale:
            v = size / scale
            figure = f"{v:.0f} {unit}" if v == int(v) else f"{v:.1f} {unit}"
            break
    else:
        figure = f"{size:,} bytes"
    detail = str(exc).strip()
    return LimitError(f"out of memory{': ' + detail if detail else ''}; the run is limited to "
                      f"{figure} of memory (--max-memory)")
