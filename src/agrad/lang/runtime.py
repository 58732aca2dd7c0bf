"""What a running script is made of: the control-flow signals (break, continue,
return), cancellation, the lazy link to the agrad engine (:data:`ENGINE`, the
torch namespace a script sees), script functions and variable frames.
"""

from __future__ import annotations

import math
import sys
import inspect
import types

from .safety import ModuleProxy

DEFAULT_MAX_DEPTH = 200

_MISSING = object()


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class _Return(Exception):
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


_BREAK = _Break()
_CONTINUE = _Continue()
_CONTROL = (_Break, _Continue, _Return)


class Cancelled(Exception):
    """Raised inside the worker when the caller gave up (timeout)."""


class ScriptRecursionError(RecursionError):
    pass


# --------------------------------------------------------------- the engine

class _Engine:
    """Lazy handles on the agrad engine (it may be absent or half-written)."""

    def __init__(self):
        self.error = None
        self.mod = None
        self.tensor = None
        self.function = None
        self.grad_fns = ()
        self.proxies = None
        self.names = None

    def load(self):
        if self.mod is not None or self.error is not None:
            return self.mod
        try:
            import agrad
            self.mod = agrad
            self.tensor = getattr(agrad, "Tensor", None)
            ag = getattr(agrad, "autograd", None)
            self.function = getattr(ag, "Function", None)
            self.grad_fns = tuple(f for f in (getattr(ag, "grad", None),
                                              getattr(ag, "backward", None)) if f is not None)
        except Exception as e:   # engine missing or mid-edit
            self.error = e
            self.mod = None
        return self.mod

    def runs(self):
        """The engine's backward-pass counter (None if it has none)."""
        if self.mod is None:
            return None
        eng = sys.modules.get("agrad.autograd.engine")
        v = getattr(eng, "runs", None)
        return v if isinstance(v, int) else None

    def module_proxies(self):
        if self.proxies is not None:
            return self.proxies
        agrad = self.load()
        proxies = {"math": ModuleProxy("math", math)}
        if agrad is None:
            self.proxies = proxies
            return proxies

        def sub(parent, name, attr, children=()):
            m = getattr(parent, attr, None)
            if not isinstance(m, types.ModuleType):
                return None
            subs = {}
            for c in children:
                cname, cattr, grand = c
                p = sub(m, f"{name}.{cattr}", cattr, grand)
                if p is not None:
                    subs[cattr] = p
            return ModuleProxy(name, m, subs)

        # torch.optim, torch.utils.data, torch.distributions, nn.init and nn.utils load when a script
        # first reaches them (the proxy holds the module's dotted name until then)
        lazy = ModuleProxy
        nn_init = lazy("torch.nn.init", "agrad.nn.init")
        nn_utils = lazy("torch.nn.utils", "agrad.nn.utils", {"rnn": lazy("torch.nn.utils.rnn", "agrad.nn.utils.rnn")})
        nn = sub(agrad, "torch.nn", "nn", [("functional", "functional", ())])
        if nn is not None:
            nn._submodules.update({"init": nn_init, "utils": nn_utils})
        autograd = sub(agrad, "torch.autograd", "autograd",
                       [("graph", "graph", ()), ("forward_ad", "forward_ad", ()), ("function", "function", ())])
        if autograd is not None:   # loaded when a script first reaches it
            autograd._submodules["functional"] = lazy("torch.autograd.functional", "agrad.autograd.functional")
        lr_scheduler = lazy("torch.optim.lr_scheduler", "agrad.optim.lr_scheduler")
        optim = lazy("torch.optim", "agrad.optim", {"lr_scheduler": lr_scheduler})
        data = lazy("torch.utils.data", "agrad.utils.data")
        utils = lazy("torch.utils", "agrad.utils", {"data": data})
        func = lazy("torch.func", "agrad.func")
        distributions = lazy("torch.distributions", "agrad.distributions",
                             {"kl": lazy("torch.distributions.kl", "agrad.distributions.kl"),
                              "constraints": lazy("torch.distributions.constraints",
                                                  "agrad.distributions.constraints")})
        subs = {"optim": optim, "utils": utils, "func": func, "distributions": distributions}
        if nn is not None:
            subs["nn"] = nn
        if autograd is not None:
            subs["autograd"] = autograd
        for extra in ("linalg", "special", "fft", "cuda", "accelerator", "return_types"):
            p = sub(agrad, f"torch.{extra}", extra)
            if p is not None:
                subs[extra] = p
        backends = sub(agrad, "torch.backends", "backends", [("mps", "mps", ()), ("cudnn", "cudnn", ()),
                                                              ("mha", "mha", ())])
        if backends is not None:
            subs["backends"] = backends
        torch = ModuleProxy("torch", agrad, subs)
        proxies.update({"torch": torch, "optim": optim, "torch.optim.lr_scheduler": lr_scheduler,
                        "torch.utils": utils, "torch.utils.data": data, "torch.func": func})
        if nn is not None:
            proxies["torch.nn"] = nn
            proxies["nn"] = nn
            proxies["torch.nn.init"] = nn_init
            proxies["torch.nn.utils"] = nn_utils
            f = nn._submodules.get("functional")
            if f is not None:
                proxies["torch.nn.functional"] = f
                proxies["F"] = f
        if autograd is not None:
            proxies["torch.autograd"] = autograd
        proxies["torch.optim"] = optim
        # every torch submodule by its dotted name, for `import torch.cuda`, `from torch.backends import mps`
        todo = [("torch", torch)]
        while todo:
            dotted, proxy = todo.pop()
            for attr, child in proxy._submodules.items():
                if isinstance(child, ModuleProxy):
                    proxies.setdefault(f"{dotted}.{attr}", child)
                    todo.append((f"{dotted}.{attr}", child))
        self.proxies = proxies
        return proxies

    def bare_names(self):
        """torch names in scope without an import (SPEC §1)."""
        if self.names is not None:
            return self.names
        proxies = self.module_proxies()
        names = _BareNames({k: proxies[k] for k in ("torch", "nn", "F", "optim", "math") if k in proxies})
        names.torch = proxies.get("torch")
        self.names = names
        return names


class _BareNames(dict):
    """The bare names: the fixed ones, then torch's public names (not its submodules), each
    looked up when first asked for (a name of an op family not loaded yet loads it only then:
    agrad/ops/_families.py); listing them looks every one up."""

    __slots__ = ("torch", "_candidates", "_complete")

    def __init__(self, fixed):
        super().__init__(fixed)
        self.torch, self._candidates, self._complete = None, None, False

    def get(self, name, default=None):
        if dict.__contains__(self, name):
            return dict.__getitem__(self, name)
        torch = self.torch
        if torch is None or self._complete or type(name) is not str:
            return default
        if self._candidates is None:
            self._candidates = {n for n in dir(torch._mod()) if not n.startswith("_")}
        if name not in self._candidates or name in torch._submodules:
            return default
        try:
            value = torch._get(name)
        except Exception:
            return default
        dict.__setitem__(self, name, value)
        return value

    def _fill(self):
        if not self._complete and self.torch is not None:
            for n in self.torch._public_names():
                if n not in self.torch._submodules:
                    self.get(n)
            self._complete = True

    def __iter__(self):
        self._fill()
        return dict.__iter__(self)

    def __len__(self):
        self._fill()
        return dict.__len__(self)

    def keys(self):
        self._fill()
        return dict.keys(self)

    def items(self):
        self._fill()
        return dict.items(self)

    def values(self):
        self._fill()
        return dict.values(self)

    def __contains__(self, name):
        return self.get(name, _ABSENT) is not _ABSENT


_ABSENT = object()


ENGINE = _Engine()

SUPPORTED_IMPORTS = ("torch, torch.nn, torch.nn.functional, torch.nn.init, torch.nn.utils, "
                     "torch.nn.utils.rnn, torch.autograd, torch.autograd.function, torch.autograd.functional, torch.func, torch.optim, "
                     "torch.optim.lr_scheduler, torch.utils.data, torch.distributions, torch.distributions.kl, "
                     "torch.distributions.constraints, "
                     "math, numpy and the standard modules time, random, collections, itertools, "
                     "functools, operator, typing, copy, gc, dataclasses, string, unicodedata")


# ------------------------------------------------------------- functions

class ScriptFunction:
    """A function or lambda defined by a script.  Calling it from Python (the
    engine calling a hook, Function.apply calling forward) runs its body in
    the interpreter that defined it."""

    def __init__(self, interp, name, params, body, is_lambda, closure, globals_frame, src,
                 scope, defaults, doc=None):
        self._interp = interp
        self.__name__ = name
        self.__qualname__ = name
        self.__module__ = "__main__"
        self.__doc__ = doc
        self._params = params
        self._body = body
        self._is_lambda = is_lambda
        self._closure = closure
        self._globals = globals_frame
        self._src = src
        self._scope = scope
        self._defaults = defaults          # name -> value
        self._positional = [p.name for p in params if p.kind == "pos"]
        self._vararg = next((p.name for p in params if p.kind == "vararg"), None)
        self._kwonly = [p.name for p in params if p.kind == "kwonly"]
        self._kwarg = next((p.name for p in params if p.kind == "kwarg"), None)

    def __call__(self, *args, **kwargs):
        return self._interp.call_script(self, args, kwargs)

    @property
    def __signature__(self):
        """The parameters as ``inspect.signature`` reads them (the engine binds a custom
        Function's forward arguments with them, defaults applied, as PyTorch's apply does)."""
        P = inspect.Parameter
        kinds = {"pos": P.POSITIONAL_OR_KEYWORD, "kwonly": P.KEYWORD_ONLY, "vararg": P.VAR_POSITIONAL,
                 "kwarg": P.VAR_KEYWORD}
        params = []
        for p in self._params:
            if p.name is None:  # (a bare *)
                continue
            kind = kinds[p.kind]
            default = self._defaults.get(p.name, P.empty) if kind in (P.POSITIONAL_OR_KEYWORD,
                                                                     P.KEYWORD_ONLY) else P.empty
            params.append(P(p.name, kind, default=default))
        return inspect.Signature(params)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return types.MethodType(self, obj)

    def __repr__(self):
        return f"<function {self.__qualname__}>"


def qualname_prefix(frame) -> str:
    """What Python puts before a name defined in ``frame``: ``f.<locals>.`` in a call of f,
    ``C.`` in class C's body (a class frame's ``qual``), nothing at the top level."""
    while frame.parent is not None and frame.fn is None and not frame.is_class:
        frame = frame.parent  # (a comprehension's frame: its enclosing scope's prefix)
    if frame.is_class:
        return frame.qual + "."
    if frame.fn is not None:
        return frame.fn.__qualname__ + ".<locals>."
    return ""


class Frame:
    """Variables of one scope.  ``scope`` is the function's Scope (None for the
    module, a class body or a comprehension); ``parent`` the lexically
    enclosing frame."""

    __slots__ = ("vars", "scope", "parent", "globals", "src", "is_class", "fn", "annotations", "qual")

    def __init__(self, vars, scope, parent, globals_frame, src, is_class=False):
        self.fn = None  # the ScriptFunction whose call this frame is (for super())
        self.annotations = None  # a class body's annotated names: [(name, annotation)]
        self.vars = vars
        self.scope = scope
        self.parent = parent
        self.globals = globals_frame if globals_frame is not None else self
        self.src = src
        self.is_class = is_class
