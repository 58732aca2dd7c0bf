"""Functions and classes: defining them (``def``, ``lambda``, ``class``,
decorators), calling anything (builtins, engine functions, script
functions), and binding arguments to parameters as Python does.

A mixin of :class:`agrad.lang.interpreter.Interpreter`.
"""

from __future__ import annotations

import sys
import types

from . import ast as A
from .builtins import CHECKED
from .classes import BASES_MESSAGE, SUPER, adopt_methods, base_allowed, make_super
from .errors import ScriptError
from .generators import ScriptGenerator
from .runtime import _MISSING, Frame, ScriptFunction, ScriptRecursionError, _Break, _Continue, _Return, qualname_prefix
from .expressions import PLAIN_RESULTS
from .limits import bounded_list, trusted_items
from .safety import (NO_GUARD, MissingModule, ModuleProxy, check_class_namespace, guard, is_engine_class,
                     script_object_repr, suggest, unguard_args)


_NAME, _CONSTANT = A.Name, A.Constant
_PASS = (ScriptError, _Break, _Continue, _Return)  # what eval() lets through unwrapped
_MODULES, _GUARDED = sys.modules, "agrad.lang.guarded"
_FUNCTION = types.FunctionType


def _once_differentiable():
    """torch.autograd.function.once_differentiable (an engine decorator scripts apply to backward)."""
    from ..autograd.function import once_differentiable
    return once_differentiable


class Functions:
    """Calls, function and class definitions."""

    def make_function(self, name, params, body, is_lambda, scope, frame, doc=None):
        defaults = {}
        for p in params:
            if p.default is not None:
                defaults[p.name] = self.eval(p.default, frame)
        closure = frame
        # class bodies are not visible to the functions defined in them
        while closure is not None and closure.is_class:
            closure = closure.parent
        fn = ScriptFunction(self, name, params, body, is_lambda, closure, frame.globals,
                            frame.src, scope, defaults, doc)
        if frame.parent is not None:
            fn.__qualname__ = qualname_prefix(frame) + name  # (make.<locals>.inner, Net.forward)
        return fn

    def ev_Lambda(self, node, frame):
        return self.make_function("<lambda>", node.params, node.body, True, node.scope, frame)

    def ev_Call(self, node, frame):
        # Names and constants are read here, other arguments evaluated with eval()'s
        # error handling inlined: the common call without a call of eval per argument
        f = node.func
        cls = f.__class__
        if cls is _NAME:
            name = f.id
            func = frame.vars.get(name, _MISSING)
            if func is _MISSING and frame.parent is None and frame.scope is None:
                # at module level lookup() goes on to the builtins, then the torch names
                func = self.builtins.get(name, _MISSING)
                if func is _MISSING and self.engine.names is not None:
                    func = self.engine.names.get(name, _MISSING)
            if func is _MISSING:
                func = self.eval(f, frame)
        else:
            try:
                func = self.ev[cls](f, frame)
            except _PASS:
                raise
            except Exception as e:
                raise self.wrap(e, f, frame) from None
        if func is SUPER:
            return make_super([self.eval(a, frame) for a in node.args], frame)
        args = []
        for a in node.args:
            cls = a.__class__
            if cls is _NAME:
                v = frame.vars.get(a.id, _MISSING)
                args.append(self.eval(a, frame) if v is _MISSING else v)
            elif cls is _CONSTANT:
                args.append(a.value)
            elif cls is A.Starred:
                args.extend(bounded_list(self.eval(a.value, frame), "argument list",
                                         len(args)))
            else:
                try:
                    args.append(self.ev[cls](a, frame))
                except _PASS:
                    raise
                except Exception as e:
                    raise self.wrap(e, a, frame) from None
        if not node.keywords:
            self.cur_expr = node
            if func.__class__ is _FUNCTION and _GUARDED not in _MODULES:
                # an engine function, the common call: what call() does for it, inlined
                for g in self.engine.grad_fns:
                    if func is g:
                        self.backward_calls += 1
                r = func(*args)
                rc = r.__class__
                return r if rc in PLAIN_RESULTS or rc in NO_GUARD else guard(r)
            return self.call(func, args, {})
        kwargs = {}
        for name, v in node.keywords:
            if name is None:
                m = self.eval(v, frame)
                if not hasattr(m, "keys"):
                    raise TypeError(f"argument after ** must be a mapping, not "
                                    f"{type(m).__name__}")
                m = trusted_items(m, "argument list", len(kwargs))
                for k in m.keys():
                    if not isinstance(k, str):
                        raise TypeError("keywords must be strings")
                    if k in kwargs:
                        raise TypeError(f"got multiple values for keyword argument '{k}'")
                    kwargs[k] = m[k]
            else:
                if name in kwargs:
                    raise TypeError(f"got multiple values for keyword argument '{name}'")
                kwargs[name] = self.eval(v, frame)
        self.cur_expr = node
        return self.call(func, args, kwargs)

    _HIGHER_ORDER = None

    def call(self, func, args, kwargs):
        cls = func.__class__
        if cls is ScriptFunction:
            return self.call_script(func, args, kwargs)
        if cls is ModuleProxy or cls is MissingModule:
            raise TypeError("'module' object is not callable")
        if cls is _BUILTIN_FN or cls is type:
            try:
                checked = CHECKED.get(func)
            except TypeError:
                checked = None
            if checked is not None:
                return checked(*args, **kwargs)
            if func in _HIGHER_ORDER_BUILTINS:
                args = [_checked_version(a) for a in args]
                if "key" in kwargs:
                    kwargs["key"] = _checked_version(kwargs["key"])
        elif cls is types.MethodType:
            if func.__name__ == "backward":
                t = self.engine.tensor
                if t is not None and isinstance(func.__self__, t):
                    self.backward_calls += 1
        else:
            for g in self.engine.grad_fns:
                if func is g:
                    self.backward_calls += 1
        if cls is not _BUILTIN_FN and _GUARDED in _MODULES:  # (no guarded array before it is imported)
            args, kwargs = unguard_args(func, args, kwargs)
        r = func(*args, **kwargs)
        rc = r.__class__
        # numpy arrays come back guarded (types known to hold none, tensors, skip the call)
        return r if rc in PLAIN_RESULTS or rc in NO_GUARD else guard(r)

    def call_script(self, fn, args, kwargs):
        if self.depth >= self.max_depth:
            raise ScriptRecursionError(
                f"maximum recursion depth exceeded (agrad scripts may nest at most "
                f"{self.max_depth} calls)")
        frame = Frame({}, fn._scope, fn._closure, fn._globals, fn._src)
        frame.fn = fn
        self.bind_args(fn, args, kwargs, frame.vars)
        if fn._scope is not None and fn._scope.yielding is not None:  # a generator function: nothing runs yet
            return ScriptGenerator(self, fn, frame)
        saved = self.cur_stmt, self.cur_frame, self.cur_expr
        self.depth += 1
        try:
            if fn._is_lambda:
                return self.eval(fn._body, frame)
            try:
                self.exec_block(fn._body, frame)
            except _Return as r:
                return r.value
            return None
        finally:
            self.depth -= 1
            self.cur_stmt, self.cur_frame, self.cur_expr = saved

    def bind_args(self, fn, args, kwargs, vars):
        name = fn.__name__ + "()"
        positional = fn._positional
        npos = len(positional)
        if len(args) > npos:
            if fn._vararg is None:
                given = len(args)
                takes = npos
                req = sum(1 for p in positional if p not in fn._defaults)
                if req != takes:
                    raise TypeError(f"{name} takes from {req} to {takes} positional arguments "
                                    f"but {given} were given")
                raise TypeError(f"{name} takes {takes} positional argument"
                                f"{'' if takes == 1 else 's'} but {given} "
                                f"{'was' if given == 1 else 'were'} given")
            vars[fn._vararg] = tuple(args[npos:])
        elif fn._vararg is not None:
            vars[fn._vararg] = ()
        for pname, value in zip(positional, args):
            vars[pname] = value
        extra = {} if fn._kwarg is not None else None
        for k, v in kwargs.items():
            if k in positional or k in fn._kwonly:
                if k in vars and k != fn._vararg:
                    raise TypeError(f"{name} got multiple values for argument '{k}'")
                vars[k] = v
            elif extra is not None:
                extra[k] = v
            else:
                hint = suggest(k, positional + fn._kwonly)
                raise TypeError(f"{name} got an unexpected keyword argument '{k}'{hint}")
        missing = []
        for pname in positional:
            if pname not in vars:
                if pname in fn._defaults:
                    vars[pname] = fn._defaults[pname]
                else:
                    missing.append(pname)
        if missing:
            raise TypeError(f"{name} missing {len(missing)} required positional argument"
                            f"{'' if len(missing) == 1 else 's'}: " + _quote_list(missing))
        kmissing = []
        for pname in fn._kwonly:
            if pname not in vars:
                if pname in fn._defaults:
                    vars[pname] = fn._defaults[pname]
                else:
                    kmissing.append(pname)
        if kmissing:
            raise TypeError(f"{name} missing {len(kmissing)} required keyword-only argument"
                            f"{'' if len(kmissing) == 1 else 's'}: " + _quote_list(kmissing))
        if extra is not None:
            vars[fn._kwarg] = extra

    def ex_FunctionDef(self, node, frame):
        fn = self.make_function(node.name, node.params, node.body, False, node.scope, frame,
                                node.doc)
        value = fn
        for d in reversed(node.decorators):
            deco = self.eval(d, frame)
            value = self.apply_decorator(deco, value, d, frame)
        self.store(node.name, value, frame)

    def apply_decorator(self, deco, value, node, frame):
        if deco is staticmethod:
            return staticmethod(value)
        ok = (deco.__class__ is ScriptFunction or is_engine_class(type(deco))
              or (isinstance(deco, type) and is_engine_class(deco)) or _stdlib_decorator(deco)
              or deco is _once_differentiable())
        if not ok:
            raise self.wrap(TypeError(
                "agrad scripts support only @staticmethod, grad-mode decorators "
                "(@torch.no_grad() ...), @dataclasses.dataclass, functools' @lru_cache, @cache "
                "and @total_ordering, and decorators defined in the script"), node, frame)
        try:
            return self.call(deco, [value], {})
        except ScriptError:
            raise
        except Exception as e:
            raise self.wrap(e, node, frame) from None

    def ex_ClassDef(self, node, frame):
        bases = [self.eval(b, frame) for b in node.bases]
        self.engine.load()
        for b, bnode in zip(bases, node.bases):
            if not base_allowed(b):
                raise self.wrap(TypeError(BASES_MESSAGE), bnode, frame)
        if node.keywords:
            raise TypeError("class keywords (metaclass=...) are not supported")
        ns: dict = {}
        cframe = Frame(ns, None, frame, frame.globals, frame.src, is_class=True)
        cframe.qual = qualname_prefix(frame) + node.name
        saved = self.cur_stmt, self.cur_frame, self.cur_expr
        try:
            self.exec_block(node.body, cframe)
        finally:
            self.cur_stmt, self.cur_frame, self.cur_expr = saved
        check_class_namespace(node.name, ns)
        if "__repr__" not in ns and all(
                getattr(b, "__repr__", None) is object.__repr__ for b in bases):
            ns["__repr__"] = script_object_repr
        ns["_agrad_script_class"] = True
        ns["__module__"] = "__main__"
        ns["__qualname__"] = cframe.qual
        cls = types.new_class(node.name, tuple(bases), {}, lambda body: body.update(ns))
        adopt_methods(cls, ns)
        if cframe.annotations:
            from .dataclasses_module import CLASS_ANNOTATIONS
            CLASS_ANNOTATIONS[cls] = tuple(cframe.annotations)
        value = cls
        for d in reversed(node.decorators):
            value = self.apply_decorator(self.eval(d, frame), value, d, frame)
        self.store(node.name, value, frame)


def _stdlib_decorator(deco) -> bool:
    from .stdlib import is_decorator
    return is_decorator(deco)


_HIGHER_ORDER_BUILTINS = frozenset({map, filter, sorted, min, max, iter})
_BUILTIN_FN = type(len)


def _checked_version(f):
    if f.__class__ is _BUILTIN_FN or f.__class__ is type:
        try:
            return CHECKED.get(f, f)
        except TypeError:
            return f
    return f


def _quote_list(names):
    q = [f"'{n}'" for n in names]
    if len(q) == 1:
        return q[0]
    return ", ".join(q[:-1]) + " and " + q[-1]
