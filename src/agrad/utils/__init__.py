"""torch.utils for agrad: only ``torch.utils.data``."""

from . import data  # noqa: F401
