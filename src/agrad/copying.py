"""copy.copy and copy.deepcopy for agrad scripts, without Python's pickle protocol.

Python's ``copy.deepcopy`` falls back to ``__reduce_ex__``, which a script object must
never be asked for.  This copier knows the types a script holds -- containers, numbers
and strings, tensors (leaves only, as PyTorch), engine objects that define
``__deepcopy__`` (modules, optimizers, parameters), the collections types and instances
of a script's own classes (their attributes, copied one by one) -- and refuses the rest
with a TypeError that says so.
"""

from __future__ import annotations

import collections
import types

from .tensor import Tensor

_ATOMIC = (type(None), bool, int, float, complex, str, bytes, range, slice, type, types.FunctionType,
           types.BuiltinFunctionType)
_NON_LEAF = ("Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the "
             "moment.  If you were attempting to deepcopy a module, this may be because of a "
             "torch.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001")


def _is_engine(cls):
    for k in cls.__mro__:
        mod = getattr(k, "__module__", "") or ""
        if mod == "agrad" or (mod.startswith("agrad.") and not mod.startswith("agrad.lang")):
            return True
    return False


def _is_script_class(cls):
    return any(k.__dict__.get("_agrad_script_class") for k in cls.__mro__)


def _atomic(x):
    if isinstance(x, _ATOMIC):
        return True
    cls = type(x)
    # dtypes, devices, Size-like immutable engine values, module proxies, script functions
    return getattr(cls, "__module__", "") in ("agrad.dtypes", "agrad.devices") or cls.__name__ in (
        "ScriptFunction", "ModuleProxy", "MissingModule")


def _tensor_deepcopy(t, memo):
    if not t.is_leaf:
        raise RuntimeError(_NON_LEAF)
    new = Tensor._make(t._data.copy(), t._requires_grad)
    memo[id(t)] = new
    if t._grad is not None:
        new._grad = deepcopy(t._grad, memo)
    return new


def deepcopy(x, memo=None, _nil=None):
    """copy.deepcopy(x) for the objects an agrad script can hold."""
    if memo is None:
        memo = {}
    key = id(x)
    if key in memo:
        return memo[key]
    if _atomic(x):
        return x
    cls = type(x)
    if cls is list:
        y = []
        memo[key] = y
        y.extend(deepcopy(v, memo) for v in x)
        return y
    if cls is tuple:
        y = tuple(deepcopy(v, memo) for v in x)
        return memo.setdefault(key, y)
    if cls is dict or cls is collections.OrderedDict:
        y = cls()
        memo[key] = y
        for k, v in x.items():
            y[deepcopy(k, memo)] = deepcopy(v, memo)
        return y
    if cls is collections.defaultdict or cls is collections.Counter:
        y = collections.defaultdict(x.default_factory) if cls is collections.defaultdict else collections.Counter()
        memo[key] = y
        for k, v in x.items():
            y[deepcopy(k, memo)] = deepcopy(v, memo)
        return y
    if cls is collections.deque:
        y = collections.deque(maxlen=x.maxlen)
        memo[key] = y
        y.extend(deepcopy(v, memo) for v in x)
        return y
    if cls is set or cls is frozenset:
        y = cls(deepcopy(v, memo) for v in x)
        memo[key] = y
        return y
    if cls is Tensor:
        return _tensor_deepcopy(x, memo)
    if issubclass(cls, tuple) and hasattr(cls, "_fields"):  # namedtuples, torch.return_types
        y = cls(*(deepcopy(v, memo) for v in x))
        memo[key] = y
        return y
    if _is_engine(cls) and not _is_script_class(cls):
        copier = getattr(cls, "__deepcopy__", None)
        if copier is not None:
            y = copier(x, memo)
            memo[key] = y
            return y
    if _is_script_class(cls):
        engine_copier = next((k.__dict__["__deepcopy__"] for k in cls.__mro__
                              if "__deepcopy__" in k.__dict__ and _is_engine(k)), None)
        if engine_copier is not None:  # a script subclass of nn.Module & co: the engine's copier
            y = engine_copier(x, memo)
            memo[key] = y
            return y
        y = object.__new__(cls)
        memo[key] = y
        for k, v in x.__dict__.items():
            y.__dict__[k] = deepcopy(v, memo)
        return y
    raise TypeError(f"copy.deepcopy of '{cls.__name__}' objects is not supported in agrad scripts")


def copy(x):
    """copy.copy(x): a shallow copy (a tensor: a new tensor sharing the storage, as PyTorch)."""
    if _atomic(x):
        return x
    cls = type(x)
    if cls in (list, dict, set, collections.OrderedDict, collections.Counter, collections.deque):
        return x.copy()
    if cls is collections.defaultdict:
        return collections.defaultdict(x.default_factory, x)
    if cls is tuple or cls is frozenset:
        return x
    if cls is Tensor:
        return Tensor._make(x._data, x._requires_grad)
    if _is_script_class(cls) and not any(_is_engine(k) for k in cls.__mro__ if k is not object):
        y = object.__new__(cls)
        y.__dict__.update(x.__dict__)
        return y
    raise TypeError(f"copy.copy of '{cls.__name__}' objects is not supported in agrad scripts")
