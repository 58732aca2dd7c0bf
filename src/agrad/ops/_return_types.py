"""torch.return_types: the named tuples that sort, max(dim), topk, slogdet, ... return.

They are tuples with named fields, printed as PyTorch prints them::

    torch.return_types.max(
    values=tensor([3., 5.]),
    indices=tensor([0, 1]))
"""

from __future__ import annotations

import collections


def return_type(name: str, fields=("values", "indices")):
    """The class ``torch.return_types.<name>`` with the given fields."""
    base = collections.namedtuple(name, fields)

    def __repr__(self):
        body = ",\n".join(f"{field}={value!r}" for field, value in zip(self._fields, self))
        return f"torch.return_types.{name}(\n{body})"

    cls = type(name, (base,), {"__slots__": (), "__repr__": __repr__, "__str__": __repr__})
    cls.__module__ = "torch.return_types"
    cls.__qualname__ = name
    return cls
