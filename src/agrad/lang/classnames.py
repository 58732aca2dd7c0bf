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

import builtins
import sys
import types

from . import safety
from .builtins import _EXCEPTIONS

_SHOWN: dict = {}  # public torch path -> the name its class prints with
_PUBLIC_MODULES = ("torch", "torch.nn", "torch.nn.functional", "torch.autograd", "torch.autograd.graph",
                   "torch.autograd.forward_ad", "torch.autograd.function", "torch.optim",
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
    if module.startswith("agrad.distributions."):  # (its modules are named as PyTorch's)
        return f"torch{module[5:]}.{cls.__qualname__}"
    table = _shown_table()
    for public in _PUBLIC_MODULES:
        mod = sys.modules.get("agrad" + public[5:])
        if mod is not None and getattr(mod, cls.__name__, None) is cls:
            shown = table.get(f"{public}.{cls.__name__}")
            if shown:
                return shown
    return None


class _ClassText:
    """A class's printed text standing in for it inside a list, tuple, set or dict that a
    script prints, so that Python's own repr of the container shows PyTorch's name."""
    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text

    __str__ = __repr__

    def __format__(self, spec):
        if spec:
            raise TypeError("unsupported format string passed to type.__format__")
        return self.text

    def __hash__(self):
        return hash(self.text)

    def __eq__(self, other):
        return isinstance(other, _ClassText) and other.text == self.text


_CONTAINERS = (list, tuple, set, frozenset, dict)


def shown(value, _open=None):
    """``value`` as print, str, repr, f-strings and ``%`` show it: a class (also inside plain
    containers, at any depth) as the text PyTorch prints for it; anything else unchanged."""
    if isinstance(value, type):
        name = class_name(value)
        return value if name is None else _ClassText(f"<class '{name}'>")
    kind = type(value)
    if kind not in _CONTAINERS or not value:
        return value
    _open = set() if _open is None else _open
    if id(value) in _open:  # a container holding itself: Python prints [...] or {...} there
        return _ClassText("[...]" if kind is list else "{...}")
    _open.add(id(value))
    if kind is dict:
        pairs = [(shown(k, _open), shown(v, _open)) for k, v in value.items()]
        same = all(a is k and b is v for (a, b), (k, v) in zip(pairs, value.items()))
        out = value if same else dict(pairs)
    else:
        items = [shown(v, _open) for v in value]
        out = value if all(a is b for a, b in zip(items, value)) else kind(items)
    _open.discard(id(value))
    return out


def script_type(*args):
    """``type(x)``: the class of ``x`` when a script may hold it."""
    if len(args) != 1:
        raise TypeError("type() with three arguments is not supported in agrad scripts "
                        "(use a class statement)" if len(args) == 3 else "type() takes 1 argument")
    cls = type(args[0])
    if cls in safety._BUILTIN_TYPE_RULES or cls is type(None) or safety.is_engine_class(cls) or safety.is_script_class(cls) \
            or (cls.__module__ == "agrad.lang.guarded" and cls.__name__ == "ndarray") \
            or (cls.__module__ == "builtins" and cls.__name__ in _EXCEPTIONS
                and getattr(builtins, cls.__name__) is cls):  # (an exception class the script can name)
        return cls
    raise TypeError(f"type() of a '{cls.__name__}' object is not available in agrad scripts "
                    "(use isinstance(x, ...))")


def class_dunder(obj, name: str):
    """The three dunders a script may read: a class's ``__name__`` and ``__qualname__`` (a string,
    the name PyTorch's class prints with: agrad's classes live under other modules), a function's
    (the script's own: both; agrad's: ``__name__``), and ``obj.__class__``, what ``type(obj)``
    gives a script (d2l's ``layer.__class__.__name__``); None elsewhere (blocked as any dunder)."""
    if name == "__class__":
        try:
            return script_type(obj)
        except TypeError:
            raise safety._blocked(obj, name, "dunder names are blocked in agrad scripts") from None
    if not isinstance(obj, type):
        from .runtime import ScriptFunction
        if isinstance(obj, ScriptFunction):  # (the script's own function: its names)
            return str(getattr(obj, name))
        if name == "__name__" and isinstance(obj, (types.FunctionType, types.BuiltinFunctionType)):
            return str(obj.__name__)  # (an activation's name: F.relu.__name__)
        return None
    if not safety.is_script_class(obj):
        shown = class_name(obj)
        if shown is not None:
            return shown.rpartition(".")[2]
    return str(obj.__name__ if name == "__name__" else obj.__qualname__)
