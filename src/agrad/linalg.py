"""torch.linalg for agrad."""

from .ops import LINALG as _LINALG
from .ops import _families

globals().update(dict.items(_LINALG))  # (the loaded op families'; the others: __getattr__)

__getattr__, __dir__ = _families.module_attrs(globals(), "LINALG", _LINALG, "torch.linalg")
