"""What a script may reach: attribute allow-lists, module proxies, size limits.

The interpreter never calls Python's ``getattr``/``setattr`` on a script's
behalf except through :func:`get_attribute` and :func:`set_attribute`
below, which decide by the type of the object:

* no name starting with ``__`` ever (dunders, name-mangled names);
* module objects are :class:`ModuleProxy` objects exposing the public names
  of ``agrad`` (as ``torch``), ``agrad.nn``, ``agrad.nn.functional``,
  ``agrad.autograd``, ``agrad.optim`` and ``math`` -- never another module,
  never a name that reads or writes files;
* objects of classes defined in the ``agrad`` engine (tensors, autograd
  nodes, dtypes, ``Size``, hook handles, ``Function`` contexts, ...):
  public names, plus ``_version`` and ``_saved_*``;
* ``str``, ``list``, ``tuple``, ``dict``, ``set``, ``int``, ``float``, ...:
  an allow-list of methods; those that can grow a value (``join``,
  ``replace``, ``ljust``, ``append`` ...) are wrapped with a size check, and
  ``str.format``/``format_map`` go through :class:`SafeFormatter`, whose
  ``{0.attr}`` and ``{0[key]}`` fields use these same rules;
* numpy arrays (reached through ``Tensor.numpy()``) and numpy scalars and
  dtypes: a read-only allow-list (no ``tofile``, ``dump``, ``ctypes``,
  ``data``, ``base``, ...);
* anything else: no attributes.

Blocked accesses raise :class:`SafetyError` (shown as ``AttributeError``);
size limits raise ``agrad._limits.LimitError``.
"""

from __future__ import annotations

import difflib
import math
import re
import string
import types

from .._limits import LimitError, get_max_elements


class SafetyError(AttributeError):
    """A script tried to reach something agrad scripts may not reach."""


class ScriptImportError(ImportError):
    pass


# ------------------------------------------------------------------ limits

def check_size(n: int, what: str) -> None:
    """Raise LimitError if a ``what`` (list, string, ...) of n items is over --max-elements."""
    limit = get_max_elements()
    if limit is not None and n > limit:
        raise LimitError(f"{what} of {n:,} elements exceeds the limit of {limit:,} elements "
                         f"(--max-elements)")


def check_int_bits(bits: int) -> None:
    limit = get_max_elements()
    if limit is not None and bits > limit:
        raise LimitError(f"an integer of about {bits:,} bits exceeds the limit of {limit:,} bits "
                         f"(--max-elements)")


_SPEC_NUM = re.compile(r"\d+")


def check_format_spec(spec: str) -> None:
    """A format spec like '>1000000000' would build a huge string."""
    limit = get_max_elements()
    if limit is None or not spec:
        return
    for m in _SPEC_NUM.finditer(spec):
        if len(m.group()) > 18 or int(m.group()) > limit:
            raise LimitError(f"format width or precision {m.group()} exceeds the limit of "
                             f"{limit:,} (--max-elements)")


_PERCENT_SPEC = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")


def check_percent_format(fmt: str, args) -> None:
    limit = get_max_elements()
    if limit is None:
        return
    star_args = False
    for m in _PERCENT_SPEC.finditer(fmt):
        for g in m.groups():
            if g == "*":
                star_args = True
            elif g and (len(g) > 18 or int(g) > limit):
                raise LimitError(f"format width or precision {g} exceeds the limit of "
                                 f"{limit:,} (--max-elements)")
    if star_args:
        items = args if isinstance(args, tuple) else (args,)
        for a in items:
            if isinstance(a, int) and not isinstance(a, bool) and abs(a) > limit:
                raise LimitError(f"format width or precision {a} exceeds the limit of "
                                 f"{limit:,} (--max-elements)")


def sized_len(x):
    try:
        return len(x)
    except Exception:
        return None


# ------------------------------------------------------------------- names

#: Names a script may not use, with the reason shown in the NameError.
FORBIDDEN_NAMES = {
    "open": "agrad scripts cannot access files",
    "eval": "agrad scripts cannot run code from strings",
    "exec": "agrad scripts cannot run code from strings",
    "compile": "agrad scripts cannot run code from strings",
    "__import__": "use an import statement (torch, torch.nn, torch.nn.functional, "
                  "torch.autograd, torch.optim, math)",
    "getattr": "use attribute syntax (x.name)",
    "setattr": "use attribute syntax (x.name = value)",
    "delattr": "attributes cannot be deleted in agrad scripts",
    "hasattr": "use attribute syntax (x.name)",
    "globals": "agrad scripts cannot inspect the interpreter",
    "locals": "agrad scripts cannot inspect the interpreter",
    "vars": "agrad scripts cannot inspect the interpreter",
    "dir": "agrad scripts cannot inspect the interpreter",
    "type": "use isinstance(x, ...) or x.dtype",
    "object": "agrad scripts cannot define plain classes",
    "input": "agrad scripts cannot read standard input (use --set)",
    "breakpoint": "agrad scripts cannot start a debugger",
    "help": "not available in agrad scripts",
    "exit": "not available in agrad scripts",
    "quit": "not available in agrad scripts",
    "memoryview": "not available in agrad scripts",
    "bytes": "bytes are not supported in agrad scripts",
    "bytearray": "bytes are not supported in agrad scripts",
    "classmethod": "only @staticmethod is supported",
    "property": "only @staticmethod is supported",
    "id": "not available in agrad scripts",
}

#: Names never exposed from an engine module: they read or write files or
#: reach outside the process.
FORBIDDEN_MEMBERS = frozenset({
    "save", "load", "from_file", "hub", "utils", "jit", "compile", "onnx", "package",
    "multiprocessing", "distributed", "library", "ops", "classes", "testing", "backends",
    "cuda", "mps", "xpu", "fx", "export", "profiler", "serialization", "storage",
    "set_default_tensor_type", "set_limits", "lang", "cli", "app", "render", "os", "sys", "np",
    "numpy",
    "tofile", "fromfile", "savetxt", "loadtxt", "savez", "memmap", "dump", "dumps",
})

_DANGEROUS_CALLABLE_NAMES = frozenset({
    "save", "load", "savez", "savez_compressed", "savetxt", "loadtxt", "genfromtxt",
    "fromfile", "tofile", "dump", "dumps", "memmap", "open", "system", "popen", "exec",
    "eval", "compile", "__import__", "getattr", "setattr", "delattr", "globals", "locals",
    "vars", "input", "breakpoint", "import_module",
})

_SAVED_RE = re.compile(r"_saved_\w+\Z|_raw_saved_\w+\Z")
_EXTRA_PRIVATE = frozenset({"_version"})

_ENGINE_EXCLUDED_PREFIXES = ("agrad.lang", "agrad.cli", "agrad.app", "agrad.render", "agrad._limits")


def is_engine_module_name(mod) -> bool:
    if not isinstance(mod, str):
        return False
    if mod != "agrad" and not mod.startswith("agrad."):
        return False
    return not mod.startswith(_ENGINE_EXCLUDED_PREFIXES)


_engine_class_cache: dict = {}


def is_engine_class(cls) -> bool:
    """A class defined by the agrad engine, or made by it (the engine names
    some generated classes like PyTorch does, e.g. ``LinearFunctionBackward``
    lives in "torch.autograd.function"): judged by its bases too."""
    try:
        hit = _engine_class_cache.get(cls)
    except TypeError:
        return False
    if hit is not None:
        return hit
    ok = False
    try:
        for klass in cls.__mro__:
            if klass is object:
                continue
            mod = getattr(klass, "__module__", None)
            if is_engine_module_name(mod) or mod == "agrad._limits":
                ok = True
                break
    except Exception:
        ok = False
    if len(_engine_class_cache) < 10000:
        _engine_class_cache[cls] = ok
    return ok


def is_script_class(cls) -> bool:
    try:
        return bool(cls.__dict__.get("_agrad_script_class")) or any(
            c.__dict__.get("_agrad_script_class") for c in cls.__mro__)
    except Exception:
        return False


# ----------------------------------------------------------------- modules

class ModuleProxy:
    """What a script sees for ``torch``, ``torch.nn``, ``F``, ``math`` ...:
    the module's public names, filtered by :func:`module_member_ok`."""

    __slots__ = ("_name", "_module", "_submodules", "_cache")

    def __init__(self, name, module, submodules=None):
        self._name = name
        self._module = module                  # a module, or its dotted name (loaded lazily)
        self._submodules = submodules or {}   # attr -> ModuleProxy | MissingModule
        self._cache = {}

    def _mod(self):
        m = self._module
        if isinstance(m, str):
            import importlib
            m = self._module = importlib.import_module(m)
        return m

    def _get(self, name):
        if name in self._cache:
            return self._cache[name]
        module = self._mod()
        if module is math and name in _MATH_CHECKED:
            return _MATH_CHECKED[name]
        if name in self._submodules:
            v = self._submodules[name]
            if callable(v) and not isinstance(v, (ModuleProxy, MissingModule)):
                v = v()
                self._submodules[name] = v
            return v
        if name.startswith("_") or name in FORBIDDEN_MEMBERS:
            raise self._missing(name)
        try:
            value = getattr(module, name)
        except AttributeError:
            raise self._missing(name) from None
        if not module_member_ok(value, module):
            raise self._missing(name)
        self._cache[name] = value
        return value

    def _public_names(self):
        names = set(self._submodules)
        module = self._mod()
        for n in dir(module):
            if n.startswith("_") or n in FORBIDDEN_MEMBERS:
                continue
            try:
                v = getattr(module, n)
            except Exception:
                continue
            if module_member_ok(v, module):
                names.add(n)
        return names

    def _missing(self, name):
        allowed = getattr(self._module, "_agrad_allowed", None)
        if allowed is not None:
            return AttributeError(f"module '{self._name}' has no attribute '{name}' in agrad scripts (allowed: "
                                  f"{', '.join(allowed)})")
        hint = suggest(name, self._public_names(), self._name)
        return AttributeError(f"module '{self._name}' has no attribute '{name}'{hint}")

    def __repr__(self):
        return f"<module '{self._name}'>"


class MissingModule:
    """A module agrad does not provide yet (e.g. ``torch.optim``)."""

    __slots__ = ("_name",)

    def __init__(self, name):
        self._name = name

    def _get(self, name):
        raise NotImplementedError(f"{self._name} is not supported yet in agrad")

    def __repr__(self):
        return f"<module '{self._name}' (not supported yet)>"


def module_member_ok(value, module) -> bool:
    if isinstance(value, types.ModuleType):
        return False                      # submodules come only through _submodules
    if isinstance(value, (int, float, complex, str, bool, type(None))):
        return True
    if module is math or getattr(module, "_agrad_allowed", None) is not None:
        return True  # math, and the allow-listed standard modules (lang/stdlib.py holds only allowed names)
    if isinstance(value, type):
        return is_engine_class(value) and value.__name__ not in _DANGEROUS_CALLABLE_NAMES
    if callable(value):
        if getattr(value, "__name__", None) in _DANGEROUS_CALLABLE_NAMES:
            return False
        mod = getattr(value, "__module__", None)
        if is_engine_module_name(mod):
            return True
        # numpy ufunc-like helpers or functools.partial of engine functions
        inner = getattr(value, "func", None)
        if inner is not None and is_engine_module_name(getattr(inner, "__module__", None)):
            return True
        return False
    # instances: dtypes, Size, constants of engine classes, numpy scalars
    tmod = type(value).__module__
    if is_engine_module_name(tmod):
        return True
    if tmod == "numpy" and type(value).__name__ in ("float64", "float32", "int64", "bool_"):
        return True
    return False


# ------------------------------------------------------ attribute allow-lists

def _w_join(s):
    def join(iterable):
        items = iterable if isinstance(iterable, (list, tuple)) else list(iterable)
        total = sum(len(x) for x in items if isinstance(x, str)) + len(s) * max(len(items) - 1, 0)
        check_size(total, "string")
        return s.join(items)
    return join


def _w_replace(s):
    def replace(old, new, count=-1):
        if isinstance(old, str) and isinstance(new, str):
            n = (len(s) + 1) if old == "" else s.count(old)
            if count >= 0:
                n = min(n, count)
            check_size(len(s) + n * (len(new) - len(old)), "string")
        return s.replace(old, new, count)
    return replace


def _w_pad(s, meth):
    def pad(width, *args):
        if isinstance(width, int):
            check_size(width, "string")
        return getattr(s, meth)(width, *args)
    pad.__name__ = meth
    return pad


def _w_expandtabs(s):
    def expandtabs(tabsize=8):
        if isinstance(tabsize, int):
            check_size(len(s) * max(tabsize, 1), "string")
        return s.expandtabs(tabsize)
    return expandtabs


def _w_append(lst):
    def append(x):
        check_size(len(lst) + 1, "list")
        lst.append(x)
    return append


def _w_insert(lst):
    def insert(i, x):
        check_size(len(lst) + 1, "list")
        lst.insert(i, x)
    return insert


def _w_extend(lst):
    def extend(iterable):
        n = sized_len(iterable)
        if n is None:
            iterable = bounded_list(iterable, "list", len(lst))
            n = len(iterable)
        check_size(len(lst) + n, "list")
        lst.extend(iterable)
    return extend


def _w_update(d, what):
    def update(*args, **kw):
        extra = sum((sized_len(a) or 0) for a in args) + len(kw)
        check_size(len(d) + extra, what)
        d.update(*args, **kw)
    return update


def _w_add(st):
    def add(x):
        check_size(len(st) + 1, "set")
        st.add(x)
    return add


def _w_setdefault(d):
    def setdefault(key, default=None):
        check_size(len(d) + 1, "dict")
        return d.setdefault(key, default)
    return setdefault


_STR_OK = frozenset("""capitalize casefold count endswith find index isalnum isalpha isascii
    isdecimal isdigit isidentifier islower isnumeric isprintable isspace istitle isupper lower
    lstrip partition removeprefix removesuffix rfind rindex rpartition rsplit rstrip split
    splitlines startswith strip swapcase title upper""".split())
_STR_WRAPPED = {
    "join": _w_join, "replace": _w_replace, "expandtabs": _w_expandtabs,
    "center": lambda s: _w_pad(s, "center"), "ljust": lambda s: _w_pad(s, "ljust"),
    "rjust": lambda s: _w_pad(s, "rjust"), "zfill": lambda s: _w_pad(s, "zfill"),
}
_LIST_OK = frozenset("clear copy count index pop remove reverse sort".split())
_LIST_WRAPPED = {"append": _w_append, "extend": _w_extend, "insert": _w_insert}
_TUPLE_OK = frozenset(("count", "index"))
_DICT_OK = frozenset("clear copy get items keys pop popitem values".split())
_DICT_WRAPPED = {"update": lambda d: _w_update(d, "dict"), "setdefault": _w_setdefault}
_SET_OK = frozenset("""clear copy difference discard intersection isdisjoint issubset
    issuperset pop remove symmetric_difference union""".split())
_SET_WRAPPED = {"add": _w_add, "update": lambda s: _w_update(s, "set")}
_FROZENSET_OK = frozenset("""copy difference intersection isdisjoint issubset issuperset
    symmetric_difference union""".split())
_INT_OK = frozenset("""bit_length bit_count conjugate real imag numerator denominator
    as_integer_ratio is_integer""".split())
_FLOAT_OK = frozenset("is_integer as_integer_ratio conjugate real imag hex".split())
_COMPLEX_OK = frozenset(("real", "imag", "conjugate"))
_RANGE_OK = frozenset(("start", "stop", "step", "count", "index"))
_SLICE_OK = frozenset(("start", "stop", "step", "indices"))

NDARRAY_OK = frozenset("""shape dtype ndim size itemsize nbytes T tolist item sum mean min max
    std var prod argmax argmin cumsum cumprod all any round clip copy reshape flatten ravel
    transpose squeeze astype dot nonzero real imag conj conjugate trace diagonal swapaxes
    argsort""".split())
NPSCALAR_OK = frozenset("""item tolist dtype shape ndim size real imag conjugate round
    is_integer as_integer_ratio""".split())
NPDTYPE_OK = frozenset("name kind itemsize char str byteorder".split())
#: torch.Generator: PyTorch's public methods only (its engine state stays private)
GENERATOR_OK = frozenset("manual_seed seed initial_seed get_state set_state device".split())

import collections as _collections  # noqa: E402

_BUILTIN_TYPE_RULES = {
    # state_dict() is an OrderedDict and Optimizer.state a defaultdict: dict rules
    _collections.OrderedDict: (_DICT_OK, _DICT_WRAPPED),
    _collections.defaultdict: (_DICT_OK, _DICT_WRAPPED),
    str: (_STR_OK, _STR_WRAPPED), list: (_LIST_OK, _LIST_WRAPPED), tuple: (_TUPLE_OK, {}),
    dict: (_DICT_OK, _DICT_WRAPPED), set: (_SET_OK, _SET_WRAPPED),
    frozenset: (_FROZENSET_OK, {}), int: (_INT_OK, {}), bool: (_INT_OK, {}),
    float: (_FLOAT_OK, {}), complex: (_COMPLEX_OK, {}), range: (_RANGE_OK, {}),
    slice: (_SLICE_OK, {}),
}


_TORCH_NAMES: dict = {}


def torch_names(module: str):
    """The public names PyTorch has in ``module`` (``torch``, ``torch.nn``, ``Tensor``…), or None.

    From ``torch_names.txt`` (written by ``tools/gen_torch_names.py``), read on
    the first error that needs it.
    """
    if not _TORCH_NAMES:
        from pathlib import Path
        path = Path(__file__).with_name("torch_names.txt")
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            text = ""
        for line in text.splitlines():
            if line and not line.startswith("#") and ": " in line:
                mod, _, names = line.partition(": ")
                _TORCH_NAMES[mod] = frozenset(names.split())
        _TORCH_NAMES.setdefault("", frozenset())
    return _TORCH_NAMES.get(module)


def suggest(name, candidates, module: str | None = None) -> str:
    """``. Did you mean 'x'?`` from names agrad knows and PyTorch has in ``module``.

    A name PyTorch has but agrad lacks gets no look-alike (``torch.cuda`` is
    not ``cummax``): it is said to be missing from agrad.
    """
    names = sorted(c for c in candidates if isinstance(c, str))
    pytorch = torch_names(module) if module is not None else None
    if pytorch is not None:
        if name in pytorch:
            where = f"Tensor.{name}" if module == "Tensor" else f"{module}.{name}"
            return f" (PyTorch has {where}; agrad does not implement it)"
        names = [c for c in names if c in pytorch]
    m = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    return f". Did you mean '{m[0]}'?" if m else ""


def _type_name(obj) -> str:
    from .runtime import ScriptFunction
    if isinstance(obj, ScriptFunction):
        return "function"
    if isinstance(obj, (ModuleProxy, MissingModule)):
        return "module"
    return type(obj).__name__


def _blocked(obj, name, why=None):
    if why is None:
        why = "agrad scripts cannot reach Python's internals" if name.startswith("_") else \
            "it is not on agrad's allow-list"
    return SafetyError(f"access to attribute '{name}' of '{_type_name(obj)}' object is not "
                       f"allowed ({why})")


def _no_attr(obj, name, candidates):
    kind = _type_name(obj)
    return AttributeError(f"'{kind}' object has no attribute '{name}'"
                          f"{suggest(name, candidates, 'Tensor' if kind == 'Tensor' else None)}")


def _np():
    import numpy
    return numpy


_np_mod = None


def _torch_version(proxy):
    from ..legacy import TORCH_VERSION
    return TORCH_VERSION


def get_attribute(obj, name: str, formatter_factory=None):
    """``obj.name`` as a script may see it."""
    if type(obj) is _script_super():   # its own rules, also for super().__init__
        return obj._get(name)
    if name == "__version__" and type(obj) is ModuleProxy and obj._name == "torch":
        return _torch_version(obj)  # the one dunder scripts read: PyTorch's version string
    if name.startswith("__"):
        raise _blocked(obj, name, "dunder names are blocked in agrad scripts")
    t = type(obj)
    rule = _BUILTIN_TYPE_RULES.get(t)
    if rule is not None:
        ok, wrapped = rule
        if t is str and name in ("format", "format_map"):
            f = formatter_factory()
            if name == "format":
                return lambda *a, **k: f.format(obj, *a, **k)
            return lambda mapping: f.vformat(obj, (), mapping)
        if name in ok:
            return getattr(obj, name)
        w = wrapped.get(name)
        if w is not None:
            return w(obj)
        if hasattr(obj, name):
            raise _blocked(obj, name)
        raise _no_attr(obj, name, set(ok) | set(wrapped))
    if t is ModuleProxy or t is MissingModule:
        return obj._get(name)
    from .runtime import ScriptFunction
    if isinstance(obj, ScriptFunction):
        raise _no_attr(obj, name, ())
    global _np_mod
    np = _np_mod or _np()
    _np_mod = np
    if isinstance(obj, np.ndarray):
        return _allow(obj, name, NDARRAY_OK)
    if isinstance(obj, np.generic):
        return _allow(obj, name, NPSCALAR_OK)
    if isinstance(obj, np.dtype):
        return _allow(obj, name, NPDTYPE_OK)
    if isinstance(obj, BaseException):
        if name == "args":
            return obj.args
        raise _no_attr(obj, name, ("args",))
    if isinstance(obj, type):
        return _class_attribute(obj, name)
    if t.__name__ == "Generator" and t.__module__ == "agrad._generator":
        return _allow(obj, name, GENERATOR_OK)
    if is_engine_class(t) or is_script_class(t):
        if name.startswith("_") and name not in _EXTRA_PRIVATE and not _SAVED_RE.match(name):
            raise _blocked(obj, name)
        try:
            value = getattr(obj, name)
        except AttributeError as e:
            if str(e).startswith(f"'{t.__name__}' object has no attribute") or "has no attribute" in str(e):
                raise _no_attr(obj, name, _public_dir(obj)) from None
            raise
        return check_value(value, obj, name)
    if obj is None:
        raise AttributeError(f"'NoneType' object has no attribute '{name}'")
    if t in NAMEDTUPLE_CLASSES:  # made by a script's collections.namedtuple: its fields
        if name in t._fields or name in ("count", "index"):
            return getattr(obj, name)
        raise _no_attr(obj, name, t._fields + ("count", "index"))
    raise _blocked(obj, name, f"agrad scripts cannot use attributes of '{t.__name__}' objects")


def _script_super():
    from .classes import ScriptSuper
    return ScriptSuper


#: namedtuple classes made by scripts (collections.namedtuple in lang/stdlib.py)
NAMEDTUPLE_CLASSES: set = set()


def _allow(obj, name, ok):
    if name in ok:
        return getattr(obj, name)
    if hasattr(obj, name):
        raise _blocked(obj, name)
    raise _no_attr(obj, name, ok)


def _public_dir(obj):
    try:
        return [n for n in dir(obj) if not n.startswith("_")]
    except Exception:
        return []


def _class_attribute(cls, name):
    if cls in _BUILTIN_TYPE_RULES:
        ok, wrapped = _BUILTIN_TYPE_RULES[cls]
        if name in ok:
            return getattr(cls, name)
        raise _blocked(cls, name)
    if not (is_engine_class(cls) or is_script_class(cls)):
        raise _blocked(cls, name, f"agrad scripts cannot use attributes of class "
                                  f"'{cls.__name__}'")
    if name.startswith("_"):
        raise _blocked(cls, name)
    # only names defined by engine/script classes, not type's own (mro, ...)
    for klass in cls.__mro__:
        if klass is object:
            break
        if (is_engine_class(klass) or is_script_class(klass)) and name in klass.__dict__:
            return check_value(getattr(cls, name), cls, name)
    raise _no_attr(cls, name, [n for k in cls.__mro__ if k is not object
                               for n in k.__dict__ if not n.startswith("_")])


def check_value(value, owner, name):
    """Refuse values that would open a way out (modules, foreign classes)."""
    if isinstance(value, types.ModuleType):
        raise _blocked(owner, name, "modules cannot be reached through attributes")
    if isinstance(value, type):
        if is_engine_class(value) or is_script_class(value) or value in _BUILTIN_TYPE_RULES:
            return value
        raise _blocked(owner, name, f"class '{value.__name__}' is not available in agrad scripts")
    if callable(value) and getattr(value, "__name__", None) in _DANGEROUS_CALLABLE_NAMES:
        raise _blocked(owner, name)
    return value


# ------------------------------------------------------------ assignment

TENSOR_SETTABLE = ("requires_grad", "grad", "data")


def is_ctx_object(obj) -> bool:
    """A custom Function's ``ctx`` (it has save_for_backward)."""
    t = type(obj)
    return is_engine_class(t) and hasattr(t, "save_for_backward")


def _is_nn_module(obj) -> bool:
    import sys
    m = sys.modules.get("agrad.nn.modules.module")
    return m is not None and isinstance(obj, m.Module)


def set_attribute(obj, name, value, tensor_class=None):
    if name.startswith("_"):
        raise _blocked(obj, name, "names starting with '_' cannot be set in agrad scripts")
    t = type(obj)
    if tensor_class is not None and isinstance(obj, tensor_class):
        if name in TENSOR_SETTABLE:
            setattr(obj, name, value)
            return
        raise SafetyError(f"cannot set attribute '{name}' of 'Tensor' objects in agrad scripts "
                          f"(only requires_grad, grad and data can be set)")
    if is_ctx_object(obj) or is_script_class(t) or (isinstance(obj, type) and is_script_class(obj)):
        setattr(obj, name, value)
        return
    if _is_nn_module(obj):   # model.fc = nn.Linear(...): Module.__setattr__ registers it
        setattr(obj, name, value)
        return
    if t is ModuleProxy or t is MissingModule:
        raise SafetyError(f"cannot set attribute '{name}' of module '{obj._name}'")
    raise SafetyError(f"cannot set attribute '{name}' of '{_type_name(obj)}' objects in agrad "
                      f"scripts")


# ------------------------------------------------------------- formatting

class SafeFormatter(string.Formatter):
    """``str.format`` whose ``{0.name}`` and ``{0[key]}`` fields obey the
    attribute allow-lists and whose widths obey --max-elements."""

    def __init__(self, getattr_fn):
        super().__init__()
        self._getattr = getattr_fn

    def get_field(self, field_name, args, kwargs):
        import _string
        first, rest = _string.formatter_field_name_split(field_name)
        obj = self.get_value(first, args, kwargs)
        for is_attr, i in rest:
            if is_attr:
                obj = self._getattr(obj, i)
            else:
                obj = obj[i]
        return obj, first

    def format_field(self, value, format_spec):
        check_format_spec(format_spec)
        return format(value, format_spec)

    def vformat(self, format_string, args, kwargs):
        result = super().vformat(format_string, args, kwargs)
        check_size(len(result), "string")
        return result


# -------------------------------------------------------------- helpers

def bounded_list(iterable, what="list", start=0, cancel=None):
    """list(iterable), stopping with LimitError once it passes --max-elements."""
    n = sized_len(iterable)
    if n is not None and not isinstance(iterable, (dict,)) and type(iterable).__name__ != "Tensor":
        check_size(start + n, what)
        return list(iterable)
    limit = get_max_elements()
    out = []
    append = out.append
    for i, x in enumerate(iterable):
        if limit is not None and start + i >= limit:
            check_size(start + i + 1, what)
        if cancel is not None and not (i & 0xFFF):
            cancel()
        append(x)
    return out


def int_pow(base, exp, cancel=None):
    """``base ** exp`` for ints, refusing results over the size limit and
    staying interruptible (a Python loop of big multiplications)."""
    if exp < 0 or base in (0, 1, -1):
        return base ** exp
    bits = exp * math.log2(abs(base)) if base else 0
    check_int_bits(int(bits))
    if bits < 1 << 16:
        return base ** exp
    result = 1
    b = base
    e = exp
    while e:
        if e & 1:
            result *= b
        e >>= 1
        if e:
            b *= b
        if cancel is not None:
            cancel()
    return result


# -------------------------------------------------- math's big-integer functions

def _bits_of(x):
    return abs(x).bit_length() if isinstance(x, int) else 64


def _m_factorial(n):
    if isinstance(n, int) and n > 2:
        check_int_bits(int(n * math.log2(n)))
    return math.factorial(n)


def _m_comb(n, k):
    if isinstance(n, int) and isinstance(k, int) and n > 2 and 0 <= k <= n:
        check_int_bits(int(min(k, n - k) * math.log2(n)))
    return math.comb(n, k)


def _m_perm(n, k=None):
    if isinstance(n, int) and n > 2:
        kk = n if k is None else k
        if isinstance(kk, int) and 0 <= kk <= n:
            check_int_bits(int(kk * math.log2(n)))
    return math.perm(n, k)


def _m_prod(iterable, *, start=1):
    items = bounded_list(iterable)
    check_int_bits(sum(_bits_of(x) for x in items) + _bits_of(start))
    return math.prod(items, start=start)


def _m_lcm(*ints):
    check_int_bits(sum(_bits_of(x) for x in ints))
    return math.lcm(*ints)


_MATH_CHECKED = {"factorial": _m_factorial, "comb": _m_comb, "perm": _m_perm,
                 "prod": _m_prod, "lcm": _m_lcm}
