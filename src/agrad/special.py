"""torch.special for agrad."""

from .ops import SPECIAL as _SPECIAL
from .ops import _families

globals().update(dict.items(_SPECIAL))  # (the loaded op families'; the others: __getattr__)

__getattr__, __dir__ = _families.module_attrs(globals(), "SPECIAL", _SPECIAL, "torch.special")
