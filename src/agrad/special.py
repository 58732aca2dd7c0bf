"""torch.special for agrad."""

from .ops import SPECIAL as _SPECIAL
from .ops import _families

globals().update(dict.items(_SPECIAL))  # (the loaded op families'; the others: __getattr__)


def __getattr__(name):
    if _families.lookup("SPECIAL", name):  # an op family not loaded yet
        value = globals()[name] = _SPECIAL[name]
        return value
    raise AttributeError(f"module 'torch.special' has no attribute '{name}'")


def __dir__():
    return sorted({*globals(), *_families.names("SPECIAL")})
