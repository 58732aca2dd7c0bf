"""Script classes: which bases a script may subclass, and ``super()``.

A script may define plain classes and subclasses of ``torch.autograd.Function``,
``torch.nn.Module``, ``torch.optim.Optimizer`` and ``torch.utils.data.Dataset``
(or of its own such classes).  ``super()`` (zero-argument, inside a method) and
``super(Cls, obj)`` give a :class:`ScriptSuper`: attribute access on it follows
Python's method resolution but only reaches what the allow-lists let a script
reach on the object itself (public names of engine and script classes, and the
special methods script classes may define, such as ``__init__``)."""

from __future__ import annotations

import sys

from .safety import SafetyError, check_value, is_engine_class, is_script_class

#: (module, class) of the engine classes a script class may derive from; a
#: module that is not loaded yet cannot be the base of anything, so nothing
#: is imported to check.
_ROOTS = (("agrad.autograd.function", "Function"), ("agrad.nn.modules.module", "Module"),
          ("agrad.optim.optimizer", "Optimizer"), ("agrad.utils.data.dataset", "Dataset"))

BASES_MESSAGE = ("agrad scripts support classes without a base and subclasses of "
                 "torch.autograd.Function, torch.nn.Module, torch.optim.Optimizer and "
                 "torch.utils.data.Dataset")


def _roots():
    out = []
    for mod, name in _ROOTS:
        m = sys.modules.get(mod)
        if m is not None:
            out.append(getattr(m, name))
    return tuple(out)


def base_allowed(base) -> bool:
    if not isinstance(base, type):
        return False
    if is_script_class(base):
        return True
    roots = _roots()
    return is_engine_class(base) and bool(roots) and issubclass(base, roots)


class SuperBuiltin:
    """What the name ``super`` is in a script (the interpreter calls :meth:`make`)."""

    __slots__ = ()

    def __repr__(self):
        return "<class 'super'>"


SUPER = SuperBuiltin()


def make_super(args, frame):
    """``super()`` in a method defined in a script class body, or ``super(C, obj)``."""
    if len(args) == 2:
        cls, obj = args
        if not isinstance(cls, type):
            raise TypeError(f"super() argument 1 must be a type, not {type(cls).__name__}")
        if not is_script_class(cls):
            raise TypeError("super() in agrad scripts takes a class defined in the script")
        if not isinstance(obj, cls) and not (isinstance(obj, type) and issubclass(obj, cls)):
            raise TypeError("super(type, obj): obj must be an instance or subtype of type")
        return ScriptSuper(cls, obj)
    if args:
        raise TypeError("super() in agrad scripts takes no arguments or two (class, object)")
    f = frame
    while f is not None:
        fn = getattr(f, "fn", None)
        if fn is not None:
            owner = getattr(fn, "_owner", None)
            if owner is None or not fn._positional:
                break
            first = f.vars.get(fn._positional[0])
            if first is None:
                raise RuntimeError("super(): arg[0] deleted")
            return ScriptSuper(owner, first)
        f = f.parent
    raise RuntimeError("super(): no arguments")


def _allowed_special():
    from . import safety
    return getattr(safety, "ALLOWED_SPECIAL_METHODS", frozenset({"__init__"})) | {"__init__"}


class ScriptSuper:
    """The proxy ``super()`` returns: ``super().__init__(...)``, ``super().forward(x)``."""

    __slots__ = ("_cls", "_obj")

    def __init__(self, cls, obj):
        self._cls = cls
        self._obj = obj

    def _get(self, name):
        if name.startswith("__"):
            if name not in _allowed_special():
                raise SafetyError(f"access to attribute '{name}' of 'super' object is not "
                                  "allowed (dunder names are blocked in agrad scripts)")
        elif name.startswith("_"):
            raise SafetyError(f"access to attribute '{name}' of 'super' object is not allowed "
                              "(agrad scripts cannot reach Python's internals)")
        mro = type(self._obj).__mro__ if not isinstance(self._obj, type) else self._obj.__mro__
        start = mro.index(self._cls) + 1 if self._cls in mro else len(mro)
        for klass in mro[start:]:
            if name in klass.__dict__:
                if klass is not object and not (is_engine_class(klass) or
                                                 is_script_class(klass)):
                    raise SafetyError(f"access to attribute '{name}' of 'super' object is not "
                                      "allowed (it is not on agrad's allow-list)")
                break
        else:
            raise AttributeError(f"'super' object has no attribute '{name}'")
        return check_value(getattr(super(self._cls, self._obj), name), self, name)

    def __repr__(self):
        return f"<super: <class '{self._cls.__name__}'>, <{type(self._obj).__name__} object>>"


def adopt_methods(cls, ns):
    """Let the methods of a new script class find their class for ``super()``."""
    from .runtime import ScriptFunction
    for v in ns.values():
        if isinstance(v, ScriptFunction) and getattr(v, "_owner", None) is None:
            v._owner = cls
