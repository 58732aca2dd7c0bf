"""torch.linalg for agrad."""

from .ops import LINALG as _LINALG

globals().update(_LINALG)
