"""The Python builtins an agrad script sees.

A safe subset (SPEC §1 "Names in scope"): ``print`` writes to the run's
captured output; ``range``, ``list``, ``tuple``, ``dict``, ``set``,
``frozenset``, ``sorted``, ``pow`` and ``format`` check --max-elements.  The
type objects (``list``, ``int`` ...) are the real ones, so ``isinstance``
works; the interpreter routes *calls* of them to the checked versions in
:data:`CHECKED` (also when they are passed to ``map``/``sorted``/...).
"""

from __future__ import annotations

import builtins as _b

from .._limits import get_max_elements
from .limits import (bounded_list, check_format_spec, check_size, int_pow, sized_len,
                     trusted_items)


def _checked_range(*args):
    r = range(*args)
    try:
        n = len(r)
    except OverflowError:
        n = get_max_elements() + 1 if get_max_elements() is not None else 0
    check_size(n, "range")
    return r


def _checked_list(iterable=()):
    return bounded_list(iterable, "list")


def _checked_tuple(iterable=()):
    return tuple(bounded_list(iterable, "tuple"))


def _checked_set(iterable=()):
    return set(bounded_list(iterable, "set"))


def _checked_frozenset(iterable=()):
    return frozenset(bounded_list(iterable, "set"))


def _checked_dict(*args, **kwargs):
    if args:
        a = trusted_items(args[0], "dict")
        d = dict(a, **kwargs)
    else:
        d = dict(**kwargs)
    check_size(len(d), "dict")
    return d


def _checked_sorted(iterable, *, key=None, reverse=False):
    items = bounded_list(iterable, "list")
    items.sort(key=key, reverse=reverse)
    return items


def _checked_pow(base, exp, mod=None):
    if mod is None and type(base) in (int, bool) and type(exp) in (int, bool):
        return int_pow(base, exp)
    if mod is None:
        return _b.pow(base, exp)
    return _b.pow(base, exp, mod)


def _checked_format(value, spec=""):
    if isinstance(spec, str):
        check_format_spec(spec)
    return _b.format(value, spec)


def _checked_str(*args, **kwargs):
    if len(args) == 1 and not kwargs:
        from .classnames import shown
        return str(shown(args[0]))  # a class, also in a list: the text PyTorch prints for it
    return str(*args, **kwargs)


#: real builtin -> checked version, used by the interpreter at call time
CHECKED = {
    range: _checked_range, list: _checked_list, tuple: _checked_tuple, set: _checked_set,
    frozenset: _checked_frozenset, dict: _checked_dict, sorted: _checked_sorted,
    _b.pow: _checked_pow, _b.format: _checked_format, str: _checked_str,
}

_PLAIN = [
    "abs", "all", "any", "ascii", "bin", "bool", "callable", "chr", "complex", "divmod",
    "enumerate", "filter", "float", "hex", "int", "isinstance", "issubclass", "iter", "len",
    "map", "max", "min", "next", "oct", "ord", "repr", "reversed", "round", "slice", "str",
    "sum", "zip", "staticmethod", "range", "list", "tuple", "set", "frozenset", "dict",
    "sorted", "pow", "format", "id",
]

_EXCEPTIONS = [
    "Exception", "ArithmeticError", "AssertionError", "AttributeError", "IndexError",
    "KeyError", "LookupError", "NameError", "NotImplementedError", "OverflowError",
    "RuntimeError", "StopIteration", "TypeError", "ValueError", "ZeroDivisionError",
    "UnboundLocalError", "ImportError", "Warning", "UserWarning",
]


def make_builtins(interp) -> dict:
    """The builtins dict of one run (``print`` writes into ``interp``)."""
    from .classnames import script_type, shown
    ns = {name: getattr(_b, name) for name in _PLAIN + _EXCEPTIONS}

    def print(*args, sep=" ", end="\n", file=None, flush=False):   # noqa: A001
        if file is not None:
            raise TypeError("print(file=...) is not supported in agrad scripts")
        if sep is None:
            sep = " "
        if end is None:
            end = "\n"
        if not isinstance(sep, str):
            raise TypeError(f"sep must be None or a string, not {type(sep).__name__}")
        if not isinstance(end, str):
            raise TypeError(f"end must be None or a string, not {type(end).__name__}")
        interp.write(sep.join(str(shown(a)) for a in args) + end)

    ns["print"] = print
    ns["type"] = script_type
    ns["repr"] = lambda obj: repr(shown(obj))
    from .classes import SUPER
    ns["super"] = SUPER
    ns.update(_attribute_builtins(interp))
    ns["NotImplemented"] = NotImplemented
    return ns


def _attribute_builtins(interp) -> dict:
    """getattr, setattr, delattr and hasattr with a name in a string (``getattr(nn, name)()``,
    ``setattr(model, name, make_dual(p, t))``): each is the attribute syntax's own guarded step
    (:func:`safety.get_attribute`, ...), so a string reaches exactly what ``obj.name`` reaches."""
    from .safety import SafetyError, delete_attribute, get_attribute, set_attribute

    def name_of(name):
        if not isinstance(name, str):
            raise TypeError(f"attribute name must be string, not '{type(name).__name__}'")
        return str.__str__(name)  # a str subclass's own methods never see the checks

    def count(fn, args, low, high):  # Python's texts ("getattr expected at least 2 arguments, got 1")
        n = len(args)
        if n < low:
            raise TypeError(f"{fn} expected {'at least ' if low != high else ''}{low} arguments, got {n}")
        if n > high:
            raise TypeError(f"{fn} expected {'at most ' if low != high else ''}{high} arguments, got {n}")

    def getattr(*args):  # noqa: A001 - the script's getattr
        count("getattr", args, 2, 3)
        name = name_of(args[1])
        if len(args) == 2:
            return get_attribute(args[0], name, interp.formatter)
        try:
            return get_attribute(args[0], name, interp.formatter)
        except SafetyError:
            raise
        except AttributeError:
            return args[2]

    def hasattr(*args):  # noqa: A001
        count("hasattr", args, 2, 2)
        try:
            get_attribute(args[0], name_of(args[1]), interp.formatter)
        except SafetyError:
            raise
        except AttributeError:
            return False
        return True

    def setattr(*args):  # noqa: A001
        count("setattr", args, 3, 3)
        set_attribute(args[0], name_of(args[1]), args[2], interp.engine.tensor)

    def delattr(*args):  # noqa: A001
        count("delattr", args, 2, 2)
        delete_attribute(args[0], name_of(args[1]), interp.engine.tensor)

    return {"getattr": getattr, "hasattr": hasattr, "setattr": setattr, "delattr": delattr}


def is_checked_builtin(f) -> bool:
    try:
        return f in CHECKED
    except TypeError:
        return False


__all__ = ["make_builtins", "CHECKED", "is_checked_builtin", "sized_len", "check_size"]
