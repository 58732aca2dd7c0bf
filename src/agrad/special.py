"""torch.special for agrad."""

from .ops import SPECIAL as _SPECIAL

globals().update(_SPECIAL)
