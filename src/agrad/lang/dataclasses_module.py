"""``import dataclasses`` in scripts: ``@dataclass`` on script classes, ``field``,
``fields``, ``asdict``, ``astuple``, ``replace``, ``is_dataclass``,
``FrozenInstanceError``.

Python's own ``dataclasses`` module is not used on script classes: it writes
the methods as source code and ``exec``s it, keeps ``__dataclass_fields__``
and ``__dataclass_params__`` on the class and returns ``Field`` objects with
everything inside.  Here the generated ``__init__``, ``__repr__``, ``__eq__``,
the order methods, ``__hash__`` and the frozen ``__setattr__``/``__delattr__``
are closures over the field list, with the same behaviour and error messages
as Python 3.11's; the field list lives in :data:`_FIELDS` (a weak registry,
nothing on the class), and :class:`Field` shows a script only its public
attributes (``name``, ``type``, ``default``, ``default_factory``, ``init``,
``repr``, ``hash``, ``compare``, ``kw_only``, ``metadata``) through the
attribute allow-list.  A class body's annotations are recorded by the
interpreter (:data:`CLASS_ANNOTATIONS`).  ``InitVar``, ``ClassVar``, ``KW_ONLY``
and ``slots=True`` are not supported (each says so).
"""

from __future__ import annotations

import dataclasses as _py
import threading
import weakref

#: class -> ((name, annotation), ...) of its body, in order (set by the interpreter)
CLASS_ANNOTATIONS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
#: dataclass -> (fields in order, frozen)
_FIELDS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()

FrozenInstanceError = _py.FrozenInstanceError


class _Missing:
    __slots__ = ()

    def __repr__(self):
        return "MISSING"


MISSING = _Missing()
_MUTABLE = (list, dict, set)


class Field:
    """One field of a dataclass (what ``field()`` returns and ``fields()`` lists)."""

    __slots__ = ("name", "type", "default", "default_factory", "init", "repr", "hash", "compare",
                 "kw_only", "metadata")

    def __init__(self, default, default_factory, init, repr, hash, compare, metadata, kw_only):
        self.name = None
        self.type = None
        self.default = default
        self.default_factory = default_factory
        self.init, self.repr, self.hash, self.compare = init, repr, hash, compare
        self.metadata = dict(metadata) if metadata else {}
        self.kw_only = kw_only

    def __repr__(self):
        return (f"Field(name={self.name!r},type={self.type!r},default={self.default!r},"
                f"default_factory={self.default_factory!r},init={self.init!r},repr={self.repr!r},"
                f"hash={self.hash!r},compare={self.compare!r},metadata={self.metadata!r},"
                f"kw_only={self.kw_only!r})")


FIELD_NAMES = frozenset(Field.__slots__)


def field(*, default=MISSING, default_factory=MISSING, init=True, repr=True, hash=None,
          compare=True, metadata=None, kw_only=MISSING):
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr, hash, compare, metadata, kw_only)


def _script_class(cls) -> bool:
    from .safety import is_script_class
    return isinstance(cls, type) and is_script_class(cls)


def dataclass(cls=None, /, *, init=True, repr=True, eq=True, order=False, unsafe_hash=False,
              frozen=False, match_args=True, kw_only=False, slots=False, weakref_slot=False):
    """``@dataclass`` and ``@dataclass(...)`` on a class defined in the script."""
    if slots or weakref_slot:
        raise TypeError("dataclass(slots=True) is not supported in agrad scripts")

    def wrap(c):
        return _process(c, init, repr, eq, order, unsafe_hash, frozen, kw_only)

    if cls is None:
        from .stdlib import DECORATORS
        DECORATORS.add(wrap)
        return wrap
    return wrap(cls)


def _process(cls, init, repr_, eq, order, unsafe_hash, frozen, kw_only):
    if not _script_class(cls):
        raise TypeError("agrad's @dataclass applies to classes defined in the script")
    if order and not eq:
        raise ValueError("eq must be true if order is true")
    fields: dict = {}
    any_frozen_base = has_dataclass_bases = False
    for base in reversed(cls.__mro__[1:]):
        info = _FIELDS.get(base)
        if info is not None:
            has_dataclass_bases = True
            for f in info[0]:
                fields[f.name] = f
            any_frozen_base = any_frozen_base or info[1]
    own = []
    for name, annotation in CLASS_ANNOTATIONS.get(cls, ()):
        default = cls.__dict__.get(name, MISSING)
        f = default if isinstance(default, Field) else field(default=default)
        f.name, f.type = name, annotation
        if f.kw_only is MISSING:
            f.kw_only = kw_only
        if isinstance(f.default, _MUTABLE):
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: "
                             "use default_factory")
        own.append(f)
        fields[name] = f
        if isinstance(default, Field):
            if f.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
    for name, value in cls.__dict__.items():
        if isinstance(value, Field) and name not in dict(CLASS_ANNOTATIONS.get(cls, ())):
            raise TypeError(f"{name!r} is a field but has no type annotation")
    if has_dataclass_bases:
        if any_frozen_base and not frozen:
            raise TypeError("cannot inherit non-frozen dataclass from a frozen one")
        if not any_frozen_base and frozen and any(_FIELDS.get(b) for b in cls.__mro__[1:]):
            raise TypeError("cannot inherit frozen dataclass from a non-frozen one")
    flist = tuple(fields.values())
    _FIELDS[cls] = (flist, frozen)
    if init:
        _check_order(flist)
        _set(cls, "__init__", _make_init(cls, flist, frozen))
    if repr_:
        _set(cls, "__repr__", _make_repr(flist))
    if eq:
        _set(cls, "__eq__", _make_eq(flist))
    if order:
        for name, op in (("__lt__", "<"), ("__le__", "<="), ("__gt__", ">"), ("__ge__", ">=")):
            if _defined(cls, name):
                raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}. "
                                "Consider using functools.total_ordering")
            _set(cls, name, _make_order(flist, op))
    if frozen:
        for name in ("__setattr__", "__delattr__"):
            if name in cls.__dict__:
                raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
        names = frozenset(f.name for f in flist)
        type.__setattr__(cls, "__setattr__", _frozen_setattr(cls, names))
        type.__setattr__(cls, "__delattr__", _frozen_delattr(cls, names))
    _hash_action(cls, flist, unsafe_hash, eq, frozen)
    return cls


def _defined(cls, name) -> bool:
    from .safety import script_object_repr
    v = cls.__dict__.get(name, MISSING)
    return v is not MISSING and v is not script_object_repr


def _set(cls, name, fn) -> None:
    """Python's _set_new_attribute: a method the class body defined stays."""
    if not _defined(cls, name):
        fn.__qualname__ = f"{cls.__qualname__}.{name}"
        type.__setattr__(cls, name, fn)


def _check_order(flist) -> None:
    seen_default = False
    for f in flist:
        if not f.init or f.kw_only:
            continue
        if f.default is not MISSING or f.default_factory is not MISSING:
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")


def _make_init(cls, flist, frozen):
    positional = [f for f in flist if f.init and not f.kw_only]
    keyword = [f for f in flist if f.init and f.kw_only]
    by_name = {f.name: f for f in positional + keyword}
    qual = cls.__qualname__
    setter = object.__setattr__
    required = sum(1 for f in positional if f.default is MISSING and f.default_factory is MISSING)
    if required == len(positional):
        takes = f"{required + 1} positional argument{'s' if required else ''}"
    else:
        takes = f"from {required + 1} to {len(positional) + 1} positional arguments"

    def __init__(self, *args, **kwargs):
        if len(args) > len(positional):
            raise TypeError(f"{qual}.__init__() takes {takes} but {len(args) + 1} were given")
        values = {}
        for f, v in zip(positional, args):
            values[f.name] = v
        for k, v in kwargs.items():
            if k not in by_name:
                raise TypeError(f"{qual}.__init__() got an unexpected keyword argument {k!r}")
            if k in values:
                raise TypeError(f"{qual}.__init__() got multiple values for argument {k!r}")
            values[k] = v
        for group, kind in ((positional, "positional"), (keyword, "keyword-only")):
            missing = [repr(f.name) for f in group if f.name not in values
                       and f.default is MISSING and f.default_factory is MISSING]
            if missing:
                if len(missing) == 1:
                    names = missing[0]
                elif len(missing) == 2:
                    names = f"{missing[0]} and {missing[1]}"
                else:
                    names = ", ".join(missing[:-1]) + ", and " + missing[-1]
                raise TypeError(f"{qual}.__init__() missing {len(missing)} required {kind} "
                                f"argument{'s' if len(missing) > 1 else ''}: {names}")
        for f in flist:
            if f.name in values:
                v = values[f.name]
            elif f.default_factory is not MISSING:
                v = f.default_factory()
            elif f.default is not MISSING:
                v = f.default
            else:
                continue
            if frozen:
                setter(self, f.name, v)
            else:
                setattr(self, f.name, v)
        post = getattr(type(self), "__post_init__", None)
        if post is not None:
            post(self)

    return __init__


_repr_running = threading.local()


def _make_repr(flist):
    shown = [f.name for f in flist if f.repr]

    def __repr__(self):
        running = _repr_running.__dict__.setdefault("ids", set())
        key = (id(self), threading.get_ident())
        if key in running:
            return "..."
        running.add(key)
        try:
            inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in shown)
        finally:
            running.discard(key)
        return f"{type(self).__qualname__}({inner})"

    return __repr__


def _values(obj, flist):
    return tuple(getattr(obj, f.name) for f in flist if f.compare)


def _make_eq(flist):
    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return _values(self, flist) == _values(other, flist)
        return NotImplemented

    return __eq__


def _make_order(flist, op):
    compare = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
               ">=": lambda a, b: a >= b}[op]

    def method(self, other):
        if other.__class__ is self.__class__:
            return compare(_values(self, flist), _values(other, flist))
        return NotImplemented

    return method


def _frozen_setattr(cls, names):
    def __setattr__(self, name, value):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)
    return __setattr__


def _frozen_delattr(cls, names):
    def __delattr__(self, name):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        object.__delattr__(self, name)
    return __delattr__


def _hash_action(cls, flist, unsafe_hash, eq, frozen) -> None:
    """Python's table (dataclasses._hash_action): add, set to None, leave, or refuse."""
    class_hash = cls.__dict__.get("__hash__", MISSING)
    explicit = class_hash is not MISSING and not (class_hash is None and "__eq__" in cls.__dict__)
    if unsafe_hash and explicit:
        raise TypeError(f"Cannot overwrite attribute __hash__ in class {cls.__name__}")
    if explicit:
        return
    hashed = [f for f in flist if (f.compare if f.hash is None else f.hash)]
    if unsafe_hash or (eq and frozen):
        def __hash__(self):
            return hash(tuple(getattr(self, f.name) for f in hashed))
        __hash__.__qualname__ = f"{cls.__qualname__}.__hash__"
        type.__setattr__(cls, "__hash__", __hash__)
    elif eq:
        type.__setattr__(cls, "__hash__", None)


# ------------------------------------------------------------------ module functions

def _info(obj):
    cls = obj if isinstance(obj, type) else type(obj)
    return _FIELDS.get(cls)


def is_dataclass(obj) -> bool:
    return _info(obj) is not None


def fields(class_or_instance):
    info = _info(class_or_instance)
    if info is None:
        raise TypeError("must be called with a dataclass type or instance")
    return tuple(f for f in info[0])


def _is_instance(obj) -> bool:
    return not isinstance(obj, type) and _info(obj) is not None


def asdict(obj, *, dict_factory=dict):
    if not _is_instance(obj):
        raise TypeError("asdict() should be called on dataclass instances")
    return _convert(obj, dict_factory, as_dict=True)


def astuple(obj, *, tuple_factory=tuple):
    if not _is_instance(obj):
        raise TypeError("astuple() should be called on dataclass instances")
    return _convert(obj, tuple_factory, as_dict=False)


def _convert(obj, factory, as_dict):
    from .. import copying
    from .safety import NAMEDTUPLE_CLASSES
    if _is_instance(obj):
        items = [(f.name, _convert(getattr(obj, f.name), factory, as_dict))
                 for f in _info(obj)[0]]
        return factory(items) if as_dict else factory([v for _n, v in items])
    if type(obj) in NAMEDTUPLE_CLASSES:
        return type(obj)(*[_convert(v, factory, as_dict) for v in obj])
    if isinstance(obj, (list, tuple)):
        return type(obj)(_convert(v, factory, as_dict) for v in obj)
    if isinstance(obj, dict):
        return type(obj)((_convert(k, factory, as_dict), _convert(v, factory, as_dict))
                         for k, v in obj.items())
    return copying.deepcopy(obj)


def replace(obj, /, **changes):
    if not _is_instance(obj):
        raise TypeError("replace() should be called on dataclass instances")
    for f in _info(obj)[0]:
        if not f.init:
            if f.name in changes:
                raise ValueError(f"field {f.name} is declared with init=False, it cannot be "
                                 "specified with replace()")
            continue
        if f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return type(obj)(**changes)


ALLOWED = ("dataclass", "field", "fields", "asdict", "astuple", "replace", "is_dataclass",
           "FrozenInstanceError", "MISSING")


def members() -> dict:
    return {name: globals()[name] for name in ALLOWED}


def _register() -> None:
    """Field's attribute allow-list and @dataclass as a known decorator (once, on import:
    neither exists for a script before this module is loaded)."""
    from .safety import _BUILTIN_TYPE_RULES
    from .stdlib import DECORATORS
    _BUILTIN_TYPE_RULES[Field] = (FIELD_NAMES, {})
    DECORATORS.add(dataclass)


_register()
