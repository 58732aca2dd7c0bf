"""The harmless standard-library modules a script may import, each an allow-list.

``import time``, ``import random``, ``from collections import defaultdict``, ... give a
module object that holds only the names listed in :data:`ALLOWED` (docs/language.md
lists them too); any other name fails with an error that names what is allowed.  Names
that could reach Python's internals or the outside are left out (``operator.attrgetter``
and ``methodcaller`` bypass the attribute allow-lists; ``time`` has no ``strftime`` of
arbitrary size; ``gc`` only has ``collect``, a no-op).  Per run:

* ``time.sleep`` sleeps in short steps and stops when the run's time limit cancels it;
* ``random`` is Python's own generator (the same numbers after ``random.seed(n)``), one
  per run;
* ``string`` has its constants and ``capwords``; ``unicodedata`` its lookups and ``normalize``
  (within the size limit);
* ``copy.deepcopy`` goes through agrad's own copier (agrad.copying), which never calls
  ``__reduce__``/``__reduce_ex__`` on a script's objects.

Instances of the collections types get method allow-lists like list and dict, with the
same size checks on the methods that grow them.
"""

from __future__ import annotations

import collections
import functools
import itertools
import math
import operator
import random as _random
import time as _time
import types
import typing
import weakref

from .safety import (_BUILTIN_TYPE_RULES, _DICT_OK, _DICT_WRAPPED, NAMEDTUPLE_CLASSES, ModuleProxy, check_size,
                     sized_len)

ALLOWED = {
    "time": ("time", "time_ns", "perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns", "process_time",
             "process_time_ns", "sleep"),
    "random": ("seed", "random", "uniform", "randint", "randrange", "choice", "choices", "shuffle", "sample",
               "gauss", "normalvariate", "lognormvariate", "expovariate", "betavariate", "gammavariate",
               "triangular", "vonmisesvariate", "paretovariate", "weibullvariate", "getrandbits"),
    "collections": ("namedtuple", "OrderedDict", "defaultdict", "Counter", "deque"),
    "itertools": ("count", "cycle", "repeat", "accumulate", "chain", "compress", "dropwhile", "filterfalse",
                  "groupby", "islice", "pairwise", "starmap", "takewhile", "tee", "zip_longest", "product",
                  "permutations", "combinations", "combinations_with_replacement", "batched"),
    "functools": ("reduce", "partial", "lru_cache", "cache", "cmp_to_key", "total_ordering"),
    "operator": ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "neg", "pos", "abs", "eq",
                 "ne", "lt", "le", "gt", "ge", "and_", "or_", "xor", "not_", "invert", "truth", "is_", "is_not",
                 "contains", "countOf", "indexOf", "getitem", "itemgetter", "index", "concat", "lshift",
                 "rshift"),
    "typing": ("Any", "Callable", "Dict", "FrozenSet", "Iterable", "Iterator", "List", "Mapping", "Optional", "Sequence", "Set", "Tuple", "Type", "Union"),
    "copy": ("copy", "deepcopy"),
    "gc": ("collect",),
    "dataclasses": ("dataclass", "field", "fields", "asdict", "astuple", "replace", "is_dataclass",
                    "FrozenInstanceError", "MISSING"),
    # (no Template or Formatter: they read attributes and items through format fields)
    "string": ("ascii_letters", "ascii_lowercase", "ascii_uppercase", "digits", "hexdigits", "octdigits",
               "punctuation", "printable", "whitespace", "capwords"),
    "unicodedata": ("normalize", "is_normalized", "category", "name", "lookup", "combining", "decimal", "digit",
                    "numeric", "east_asian_width", "mirrored", "bidirectional", "decomposition", "unidata_version"),
}

#: the decorators from these modules a script may apply with ``@`` (functools' caches and
#: total_ordering, dataclass; and what ``lru_cache(...)``/``dataclass(...)`` return)
DECORATORS: "weakref.WeakSet" = weakref.WeakSet([functools.cache, functools.lru_cache,
                                                 functools.total_ordering])


def is_decorator(deco) -> bool:
    try:
        return deco in DECORATORS
    except TypeError:
        return False


def _lru_cache(maxsize=128, typed=False):
    """functools.lru_cache: ``@lru_cache``, ``@lru_cache(maxsize=...)``."""
    made = functools.lru_cache(maxsize, typed)
    if callable(maxsize) and not isinstance(maxsize, bool):
        return made            # @lru_cache without arguments: made is the cached function
    DECORATORS.add(made)
    return made


DECORATORS.add(_lru_cache)


def _sleep(interp):
    def sleep(secs):
        if secs < 0:
            raise ValueError("sleep length must be non-negative")
        end = _time.monotonic() + secs
        while True:  # short steps, so the run's time limit ends a long sleep
            interp.check_cancel()
            left = end - _time.monotonic()
            if left <= 0:
                return None
            _time.sleep(min(left, 0.05))
    return sleep


def _random_members(rng):
    members = {name: getattr(rng, name) for name in ALLOWED["random"]}

    def choices(population, weights=None, *, cum_weights=None, k=1):
        check_size(k, "list")
        return rng.choices(population, weights, cum_weights=cum_weights, k=k)

    def getrandbits(k):
        check_size(k, "integer of bits")
        return rng.getrandbits(k)

    members.update(choices=choices, getrandbits=getrandbits)
    return members


def _repeat(obj, times=None):
    return itertools.repeat(obj) if times is None else itertools.repeat(obj, times)


def _namedtuple(typename, field_names, *, rename=False, defaults=None, module=None):
    cls = collections.namedtuple(typename, field_names, rename=rename, defaults=defaults)
    NAMEDTUPLE_CLASSES.add(cls)
    return cls


def _normalize(form, unistr):
    """unicodedata.normalize, within the size limit (a compatibility decomposition can make a string
    up to 18 times longer)."""
    import unicodedata
    if isinstance(unistr, str):
        check_size(len(unistr) * 18, "a normalized string")
    return unicodedata.normalize(form, unistr)


def _collect(generation=2):
    """gc.collect: agrad manages no cycles a script could break; a no-op that reports 0."""
    return 0


def _members(name, interp):
    from .. import copying

    if name == "time":
        m = {n: getattr(_time, n) for n in ALLOWED["time"]}
        m["sleep"] = _sleep(interp)
        return m
    if name == "random":
        return _random_members(interp.stdlib_random())
    if name == "collections":
        m = {n: getattr(collections, n) for n in ALLOWED["collections"]}
        m["namedtuple"] = _namedtuple
        return m
    if name == "copy":
        return {"copy": copying.copy, "deepcopy": copying.deepcopy}
    if name == "gc":
        return {"collect": _collect}
    if name == "dataclasses":
        from . import dataclasses_module
        return dataclasses_module.members()
    if name in ("string", "unicodedata"):
        import string
        import unicodedata
        module = string if name == "string" else unicodedata
        m = {n: getattr(module, n) for n in ALLOWED[name]}
        if name == "unicodedata":
            m["normalize"] = _normalize
        return m
    module = {"itertools": itertools, "functools": functools, "operator": operator, "typing": typing}[name]
    m = {n: getattr(module, n) for n in ALLOWED[name] if hasattr(module, n)}
    if name == "itertools":
        m["repeat"] = _repeat
    if name == "functools":
        m["lru_cache"] = _lru_cache
    if name == "operator":  # the same size and bit checks as the script's own operators
        m.update({n: _checked_binop(interp, sym, n) for n, sym in _OPERATOR_SYMBOLS.items()})
    return m


#: operator functions that are a script operator, so they go through its checks
#: (``operator.mul([0], 10**10)`` is refused like ``[0] * 10**10``).
_OPERATOR_SYMBOLS = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%",
                     "pow": "**", "matmul": "@", "and_": "&", "or_": "|", "xor": "^", "lshift": "<<",
                     "rshift": ">>", "concat": "+"}


def _checked_binop(interp, sym, name):
    def op(a, b):
        return interp.binop(sym, a, b)
    op.__name__ = name
    return op


def make_module(name, interp):
    """The ModuleProxy a script sees for the standard-library module ``name``."""
    mod = types.ModuleType(name)
    mod.__dict__.update(_members(name, interp))
    mod._agrad_allowed = tuple(sorted(ALLOWED[name]))
    return ModuleProxy(name, mod)


# ---------------------------------------------------------------- instances

def _w_deque_grow(dq, meth):
    def grow(*args):
        n = 1 if meth in ("append", "appendleft", "insert") else sized_len(args[0]) if args else 0
        if dq.maxlen is None:
            check_size(len(dq) + (n or 0), "deque")
        return getattr(dq, meth)(*args)
    grow.__name__ = meth
    return grow


_DEQUE_OK = frozenset("clear copy count index pop popleft remove reverse rotate maxlen".split())
_DEQUE_WRAPPED = {m: (lambda meth: lambda dq: _w_deque_grow(dq, meth))(m)
                  for m in ("append", "appendleft", "extend", "extendleft", "insert")}
_COUNTER_OK = _DICT_OK | frozenset(("most_common", "elements", "subtract", "total"))
# (dict's rules plus each type's own; OrderedDict and defaultdict already had dict's for state_dict())
_BUILTIN_TYPE_RULES[collections.deque] = (_DEQUE_OK, _DEQUE_WRAPPED)
_BUILTIN_TYPE_RULES[collections.OrderedDict] = (_DICT_OK | {"move_to_end"}, _DICT_WRAPPED)
_BUILTIN_TYPE_RULES[collections.defaultdict] = (_DICT_OK, _DICT_WRAPPED)  # not default_factory: a way out
_BUILTIN_TYPE_RULES[collections.Counter] = (_COUNTER_OK, _DICT_WRAPPED)
# functions made by @lru_cache / @cache: their statistics (a named tuple of counts)
_BUILTIN_TYPE_RULES[functools._lru_cache_wrapper] = (frozenset(("cache_info", "cache_clear")), {})
NAMEDTUPLE_CLASSES.add(type(functools.lru_cache()(len).cache_info()))

# (dataclasses' Field and @dataclass are registered by dataclasses_module when a script
# first reaches it: Python's dataclasses stays out of start-up)


MODULES = frozenset(ALLOWED)
__all__ = ["ALLOWED", "MODULES", "make_module", "math"]
