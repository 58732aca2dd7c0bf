"""torch.return_types: the named tuples that sort, max(dim), topk, slogdet, ... return.

They are tuples with named fields, printed as PyTorch prints them::

    torch.return_types.max(
    values=tensor([3., 5.]),
    indices=tensor([0, 1]))
"""

from __future__ import annotations

import collections

#: every class made, by name: the module ``torch.return_types`` (agrad/return_types.py)
CLASSES: dict = {}


def return_type(name: str, fields=("values", "indices")):
    """The class ``torch.return_types.<name>`` with the given fields.  Made from one
    sequence of its fields' values too, as PyTorch's structseq is
    (``torch.return_types.max([values, indices])``)."""
    base = collections.namedtuple(name, fields)
    n = len(base._fields)

    def __new__(cls, *args, **kwargs):
        if len(args) == 1 and not kwargs and n > 1 and isinstance(args[0], (list, tuple)):
            args = tuple(args[0])
        return base.__new__(cls, *args, **kwargs)

    def __repr__(self):
        body = ",\n".join(f"{field}={value!r}" for field, value in zip(self._fields, self))
        return f"torch.return_types.{name}(\n{body})"

    cls = type(name, (base,), {"__slots__": (), "__new__": __new__, "__repr__": __repr__, "__str__": __repr__})
    cls.__module__ = "torch.return_types"
    cls.__qualname__ = name
    CLASSES[name] = cls
    return cls
