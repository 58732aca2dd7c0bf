"""``type(x)`` in scripts, and how classes print there: as PyTorch's and numpy's do.

agrad's classes live under agrad's module names (``agrad.nn.modules.misc.Dropout``);
a script that prints a class, or ``type(x)``, sees the name PyTorch's class prints
with (``<class 'torch.nn.modules.dropout.Dropout'>``), from the ``classes`` line of
``torch_names.txt``.  A class the script defined prints as ``__main__.Name``, as it
would in a Python file run as a script.

``type`` takes one argument and hands back only classes a script may hold anyway:
agrad's own, the script's, Python's plain types (int, str, list, ...) and numpy's
array class.  Building a class with three arguments is refused.
"""

from __future__ import annotations

import sys

from . import safety

_SHOWN: dict = {}  # public torch path -> the name its class prints with
_PUBLIC_MODULES = ("torch", "torch.nn", "torch.nn.functional", "torch.autograd", "torch.optim",
                   "torch.optim.lr_scheduler", "torch.utils.data", "torch.linalg")


def _shown_table() -> dict:
    if not _SHOWN:
        from pathlib import Path
        text = Path(__file__).with_name("torch_names.txt").read_text(encoding="utf-8")
        for line in text.splitlines():
            if line.startswith("classes: "):
                for pair in line[len("classes: "):].split():
                    public, _, shown = pair.partition("=")
                    _SHOWN[public] = shown
        _SHOWN.setdefault("", "")
    return _SHOWN


def class_name(cls) -> str | None:
    """The name ``cls`` prints with in PyTorch (None: Python's own is right)."""
    if safety.is_script_class(cls):
        return f"__main__.{cls.__qualname__}"
    module = getattr(cls, "__module__", "") or ""
    if module == "agrad.lang.guarded" and cls.__name__ == "ndarray":
        return "numpy.ndarray"
    if not module.startswith("agrad"):
        return None
    table = _shown_table()
    for public in _PUBLIC_MODULES:
        mod = sys.modules.get("agrad" + public[5:])
        if mod is not None and getattr(mod, cls.__name__, None) is cls:
            shown = table.get(f"{public}.{cls.__name__}")
            if shown:
                return shown
    return None


def shown(value):
    """``value``, or for a class the text PyTorch prints for it (print, str, repr, f-strings)."""
    if isinstance(value, type):
        name = class_name(value)
        if name is not None:
            return f"<class '{name}'>"
    return value


def script_type(*args):
    """``type(x)``: the class of ``x`` when a script may hold it."""
    if len(args) != 1:
        raise TypeError("type() with three arguments is not supported in agrad scripts "
                        "(use a class statement)" if len(args) == 3 else "type() takes 1 argument")
    cls = type(args[0])
    if cls in safety._BUILTIN_TYPE_RULES or cls is type(None) or safety.is_engine_class(cls) or safety.is_script_class(cls) \
            or (cls.__module__ == "agrad.lang.guarded" and cls.__name__ == "ndarray"):
        return cls
    raise TypeError(f"type() of a '{cls.__name__}' object is not available in agrad scripts "
                    "(use isinstance(x, ...))")
