"""torch.linalg for agrad."""

from .ops import LINALG as _LINALG
from .ops import _families

globals().update(dict.items(_LINALG))  # (the loaded op families'; the others: __getattr__)


def __getattr__(name):
    if _families.lookup("LINALG", name):  # an op family not loaded yet
        value = globals()[name] = _LINALG[name]
        return value
    raise AttributeError(f"module 'torch.linalg' has no attribute '{name}'")


def __dir__():
    return sorted({*globals(), *_families.names("LINALG")})
