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
size limits (:mod:`agrad.lang.limits`) raise ``agrad._limits.LimitError``.
Script classes may define only :data:`ALLOWED_SPECIAL_METHODS`; numpy arrays
the engine returns reach scripts as guarded arrays (:mod:`agrad.lang.guarded`).
"""

from __future__ import annotations

import math
import re
import sys
import types

from .limits import (_MATH_CHECKED, _w_add, _w_append, _w_expandtabs, _w_extend, _w_insert,
                     _w_join, _w_pad, _w_replace, _w_setdefault, _w_union, _w_update,
                     check_format_spec, check_size)
# the size checks used to live here: other modules may still import them from safety
from ..tensor import Size as _Size
from .limits import (as_count, bounded_list, check_int_bits, check_percent_format,  # noqa: F401
                     int_pow, sized_len, trusted_items)


class SafetyError(AttributeError):
    """A script tried to reach something agrad scripts may not reach."""


class ScriptImportError(ImportError):
    pass


class ScriptClassError(SafetyError):
    """A script class defines a special name agrad does not allow (shown as TypeError)."""

    shown_as = "TypeError"


# ------------------------------------------------------------------- names

#: Names a script may not use, with the reason shown in the NameError.
FORBIDDEN_NAMES = {
    "open": "agrad scripts cannot access files",
    "eval": "agrad scripts cannot run code from strings",
    "exec": "agrad scripts cannot run code from strings",
    "compile": "agrad scripts cannot run code from strings",
    "__import__": "use an import statement (torch, torch.nn, torch.nn.functional, "
                  "torch.autograd, torch.optim, math)",
    "globals": "agrad scripts cannot inspect the interpreter",
    "locals": "agrad scripts cannot inspect the interpreter",
    "vars": "agrad scripts cannot inspect the interpreter",
    "dir": "agrad scripts cannot inspect the interpreter",
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
}

#: Names never exposed from an engine module: they read or write files or
#: reach outside the process.
FORBIDDEN_MEMBERS = frozenset({
    "save", "load", "from_file", "hub", "utils", "jit", "compile", "onnx", "package",
    "multiprocessing", "distributed", "library", "ops", "classes", "testing", "backends",
    "cuda", "mps", "xpu", "fx", "export", "profiler", "serialization", "storage",
    "set_default_tensor_type", "set_limits", "lang", "cli", "app", "render", "os", "sys", "np",
    "numpy", "register_kl",  # (torch.distributions' registry is shared by every script run)
    "tofile", "fromfile", "savetxt", "loadtxt", "savez", "memmap", "dump", "dumps",
})

_DANGEROUS_CALLABLE_NAMES = frozenset({
    "save", "load", "savez", "savez_compressed", "savetxt", "loadtxt", "genfromtxt",
    "fromfile", "tofile", "dump", "dumps", "memmap", "open", "system", "popen", "exec",
    "eval", "compile", "__import__", "getattr", "setattr", "delattr", "globals", "locals",
    "vars", "input", "breakpoint", "import_module",
})

#: names that read or write files (their refusal says so)
_FILE_NAMES = frozenset({
    "save", "load", "savez", "savez_compressed", "savetxt", "loadtxt", "genfromtxt", "fromfile",
    "tofile", "memmap", "open", "from_file", "fromregex", "DataSource", "dump", "dumps"})

_SAVED_RE = re.compile(r"_saved_\w+\Z|_raw_saved_\w+\Z")
_EXTRA_PRIVATE = frozenset({"_version"})
#: an nn.Module's registries, which tutorials write to (d2l's MySequential: ``self._modules[str(i)] = m``):
#: plain dicts of the module's own children, parameters and buffers; and an RNN's lists of its weights'
#: names and weights (d2l's init_seq2seq: ``for param in module._flat_weights_names``)
_MODULE_REGISTRIES = frozenset({"_modules", "_parameters", "_buffers", "_flat_weights_names", "_flat_weights",
                                "_all_weights"})


def _is_module(obj) -> bool:
    from ..nn.modules.module import Module
    return isinstance(obj, Module)

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
            if klass is _Size:  # named torch.Size like PyTorch's: admitted by identity
                ok = True
                break
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

    __slots__ = ("_name", "_module", "_submodules", "_cache", "_note")

    def __init__(self, name, module, submodules=None, note=None):
        self._name = name
        self._module = module                  # a module, or its dotted name (loaded lazily)
        self._submodules = submodules or {}   # attr -> ModuleProxy | MissingModule
        self._cache = {}
        self._note = note   # what a missing name's error adds (a curated module's scope)

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
        if type(value) not in (bool, int, float, str, type(None)):  # (flags such as cudnn.enabled change)
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
        if name in _FILE_NAMES:  # (a refusal: getattr's default and hasattr do not hide it)
            return SafetyError(f"module '{self._name}' has no attribute '{name}' (agrad scripts "
                               f"cannot access files)")
        allowed = getattr(self._module, "_agrad_allowed", None)
        if allowed is not None and self._note is None:
            return AttributeError(f"module '{self._name}' has no attribute '{name}' in agrad scripts (allowed: "
                                  f"{', '.join(allowed)})")
        hint = suggest(name, self._public_names(), self._name)
        note = f" ({self._note})" if self._note and not hint else ""
        return AttributeError(f"module '{self._name}' has no attribute '{name}'{hint}{note}")

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
        return True  # math, and the allow-listed modules (lang/stdlib.py, lang/numpy_module.py hold only allowed names)
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


# ------------------------------------------------------------ script classes

#: The special methods a script class may define (docs/language.md,
#: "Classes").  Everything else with a double-underscore name -- special
#: attributes such as ``__array_interface__`` or ``__slots__``, and the
#: methods numpy or Python consult behind the script's back (``__array__``,
#: ``__index__``, ``__float__``, ``__del__``, ``__reduce__``, ``__getattr__``,
#: ``__init_subclass__``, ``__format__`` ...) -- is refused when the class is
#: defined.
ALLOWED_SPECIAL_METHODS = frozenset("""
    __init__ __post_init__ __call__ __repr__ __str__ __len__ __getitem__ __setitem__ __delitem__
    __iter__ __next__ __contains__ __bool__ __hash__ __enter__ __exit__
    __eq__ __ne__ __lt__ __le__ __gt__ __ge__ __neg__ __pos__ __abs__ __invert__
    __add__ __sub__ __mul__ __truediv__ __floordiv__ __mod__ __pow__ __matmul__
    __and__ __or__ __xor__ __lshift__ __rshift__
    __radd__ __rsub__ __rmul__ __rtruediv__ __rfloordiv__ __rmod__ __rpow__ __rmatmul__
    __rand__ __ror__ __rxor__ __rlshift__ __rrshift__
    __iadd__ __isub__ __imul__ __itruediv__ __ifloordiv__ __imod__ __ipow__ __imatmul__
    __iand__ __ior__ __ixor__ __ilshift__ __irshift__
""".split())


def _is_script_function(v) -> bool:
    return type(v).__name__ == "ScriptFunction" and type(v).__module__.startswith("agrad.lang")


def check_class_namespace(name: str, ns: dict) -> None:
    """Refuse a script class body that defines a special name outside
    :data:`ALLOWED_SPECIAL_METHODS`, or an allowed one that is not a method
    written in the script (``__len__ = len``, ``__hash__ = 3``)."""
    for key, value in ns.items():
        if not (key.startswith("__") and key.endswith("__")):
            continue
        if key not in ALLOWED_SPECIAL_METHODS:
            raise ScriptClassError(
                f"class {name} cannot define '{key}': agrad script classes may define only "
                f"these special methods: __init__, __post_init__, __call__, __repr__, __str__, __len__, "
                f"__getitem__, __setitem__, __iter__, __next__, __contains__, __bool__, "
                f"__hash__, __enter__, __exit__, comparisons and arithmetic operators "
                f"(docs/language.md)")
        if not (_is_script_function(value) or (key == "__hash__" and value is None)):
            raise ScriptClassError(f"class {name}: '{key}' must be a method defined in the script "
                              f"(def or lambda), not a '{_type_name(value)}' object")


def script_object_repr(self) -> str:
    """The default repr of a script class's instances: no memory address."""
    return f"<__main__.{type(self).__qualname__} object>"


# ------------------------------------------------------------- exceptions

def _safe_arg(v, depth=0):
    t = type(v)
    if v is None or t in (str, int, float, bool, complex):
        return v
    if t in (tuple, list) and depth < 4 and len(v) <= 64:
        out = [_safe_arg(x, depth + 1) for x in v]
        return tuple(out) if t is tuple else out
    if is_engine_class(t) or is_script_class(t):
        return v
    try:
        return str(v)
    except Exception:
        return "<unprintable>"


def exception_args(e) -> tuple:
    """``e.args`` as a script may see it: numbers, strings, tensors and script
    objects as they are, anything else (numpy's ufuncs and dtypes in its
    exceptions, engine internals) as its text."""
    try:
        args = e.args
    except Exception:
        return ()
    if type(args) is not tuple:
        return ()
    return tuple(_safe_arg(a) for a in args)


# ------------------------------------------------------ attribute allow-lists


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
_SET_OK = frozenset("clear copy discard pop remove".split())
_SETOPS = ("difference", "intersection", "isdisjoint", "issubset", "issuperset",
           "symmetric_difference", "union")
_SET_WRAPPED = {"add": _w_add, "update": lambda s: _w_update(s, "set"),
                **{m: (lambda m: lambda st: _w_union(st, m))(m) for m in _SETOPS}}
_FROZENSET_OK = frozenset(("copy",))
_FROZENSET_WRAPPED = {m: (lambda m: lambda st: _w_union(st, m))(m) for m in _SETOPS}
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
    frozenset: (_FROZENSET_OK, _FROZENSET_WRAPPED), int: (_INT_OK, {}), bool: (_INT_OK, {}),
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
    import difflib  # only when a name is missing (not on the start-up path)
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
_guarded_mod = None


def _guarded():
    global _guarded_mod
    if _guarded_mod is None:
        from . import guarded
        _guarded_mod = guarded
    return _guarded_mod


def unguard_args(func, args, kwargs):
    """Arguments of a call with guarded arrays replaced by their numpy arrays
    when ``func`` is the engine's (``torch.from_numpy(a)``, ``torch.tensor(a)``,
    ``t.copy_(a)``); never for script code, builtins or an engine method bound
    to a class (``Function.apply`` hands its arguments to the script's forward)."""
    mod = _guarded_mod or sys.modules.get("agrad.lang.guarded")
    if mod is None:             # no guarded array exists yet
        return args, kwargs
    G = mod.ndarray
    for a in args:
        if a.__class__ is G:
            break
    else:
        for a in kwargs.values():
            if a.__class__ is G:
                break
        else:
            return args, kwargs
    if getattr(func, "_agrad_calls_script", False) is True:
        return args, kwargs   # torch.func transforms and what they return hand their arguments to script code
    if isinstance(func, types.MethodType):
        owner = func.__self__
        engine = (not isinstance(owner, type) and is_engine_class(type(owner))
                  and not is_script_class(type(owner)))
    elif isinstance(func, type):
        engine = is_engine_class(func) and not is_script_class(func)
    else:
        engine = is_engine_module_name(getattr(func, "__module__", None))
    if not engine:
        return args, kwargs
    return ([a._a if a.__class__ is G else a for a in args],
            {k: (v._a if v.__class__ is G else v) for k, v in kwargs.items()})


#: result types known to hold no numpy array (filled as types are seen)
_NO_GUARD: set = {int, float, bool, str, type(None), complex}
NO_GUARD = _NO_GUARD  # read by the interpreter before it calls guard()


def guard(value):
    """A value the engine hands to a script, made safe to hold: real numpy
    arrays become guarded arrays (:mod:`agrad.lang.guarded`), also inside a
    returned tuple or list."""
    t = type(value)
    if t in _NO_GUARD:
        return value
    if t is tuple or t is list or issubclass(t, (_np_mod or _np()).ndarray):
        return _guarded().guard(value)
    if len(_NO_GUARD) < 4096:
        _NO_GUARD.add(t)
    return value


def _torch_version(proxy):
    from ..legacy import TORCH_VERSION
    return TORCH_VERSION


def get_attribute(obj, name: str, formatter_factory=None):
    """``obj.name`` as a script may see it."""
    if type(obj) is _script_super():   # its own rules, also for super().__init__
        return obj._get(name)
    if name == "__version__" and type(obj) is ModuleProxy and obj._name == "torch":
        return _torch_version(obj)  # the one dunder scripts read: PyTorch's version string
    if name in ("__name__", "__qualname__", "__class__"):
        from .classnames import class_dunder  # (type(e).__name__, layer.__class__.__name__)
        found = class_dunder(obj, name)
        if found is not None:
            return found
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
    g = _guarded_mod or sys.modules.get("agrad.lang.guarded")  # (no guarded array before it is imported)
    if g is not None and t is g.ndarray:
        if name in g.NDARRAY_NAMES:
            return getattr(obj, name)
        if hasattr(np.ndarray, name):
            raise _blocked(obj, name)
        raise _no_attr(obj, name, g.NDARRAY_NAMES)
    if isinstance(obj, np.ndarray):
        return _allow(obj, name, NDARRAY_OK)
    if isinstance(obj, np.generic):
        return _allow(obj, name, NPSCALAR_OK)
    if isinstance(obj, np.dtype):
        return _allow(obj, name, NPDTYPE_OK)
    if isinstance(obj, BaseException):
        if name == "args":
            return exception_args(obj)
        raise _no_attr(obj, name, ("args",))
    if isinstance(obj, type):
        return _class_attribute(obj, name)
    if t.__name__ == "Generator" and t.__module__ == "agrad._generator":
        return _allow(obj, name, GENERATOR_OK)
    if is_engine_class(t) or is_script_class(t):
        if name.startswith("_") and name not in _EXTRA_PRIVATE and not _SAVED_RE.match(name) and not (
                name in _MODULE_REGISTRIES and _is_module(obj)):
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
    """lang.classes.ScriptSuper (imported on first use: classes imports this module)."""
    global _script_super
    from .classes import ScriptSuper
    _script_super = lambda: ScriptSuper  # noqa: E731 - every attribute read asks; an import a call cost ~1 us
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
    if callable(value) and getattr(value, "__name__", None) in _DANGEROUS_CALLABLE_NAMES \
            and not _is_module_eval(value):
        raise _blocked(owner, name)
    return guard(value)


def _is_module_eval(value) -> bool:
    """nn.Module.eval (``model.eval()``), agrad's own method that only sets ``training``, or a
    script's own method of that name (a script class overriding it): their name is on the list
    of dangerous callables, they are not."""
    fn = getattr(value, "__func__", value)
    if _is_script_function(fn):
        return True
    return getattr(fn, "__module__", None) == "agrad.nn.modules.module" and \
        getattr(fn, "__qualname__", None) == "Module.eval"


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


def delete_attribute(obj, name, tensor_class=None):
    """``del obj.name``: what ``obj.name = ...`` may set, a script may delete, with PyTorch's
    behaviour (``del x.grad`` is ``x.grad = None``; ``del model.fc`` unregisters the layer)."""
    if name.startswith("_"):
        raise _blocked(obj, name, "names starting with '_' cannot be deleted in agrad scripts")
    t = type(obj)
    if tensor_class is not None and isinstance(obj, tensor_class):
        if name == "grad":
            del obj.grad
            return
        if name == "data":
            raise RuntimeError("Deleting tensor data is not allowed. Delete tensor instead!")
        if name == "requires_grad":
            raise RuntimeError("requires_grad must be a bool")  # (PyTorch's setter, given no value)
        if hasattr(t, name):
            raise AttributeError(f"attribute '{name}' of 'torch._C.TensorBase' objects is not writable")
        raise AttributeError(f"'Tensor' object has no attribute '{name}'")
    if is_ctx_object(obj) or is_script_class(t) or (isinstance(obj, type) and is_script_class(obj)) \
            or _is_nn_module(obj):
        delattr(obj, name)
        return
    if t is ModuleProxy or t is MissingModule:
        raise SafetyError(f"cannot delete attribute '{name}' of module '{obj._name}'")
    raise SafetyError(f"cannot delete attribute '{name}' of '{_type_name(obj)}' objects in agrad "
                      f"scripts")
