"""``torch.return_types``: the named tuples ops return (``torch.return_types.max``, ``sort``, ...).

The classes are the ones the ops make (ops/_return_types.py), so ``isinstance(x.max(0),
torch.return_types.max)`` holds; each is made from its fields or from one sequence of them.
"""

from .ops._return_types import CLASSES as _CLASSES

globals().update(_CLASSES)
