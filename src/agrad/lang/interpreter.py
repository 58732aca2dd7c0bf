"""The evaluator: runs AST nodes against the namespace of SPEC §1.

An explicit tree walk (``Interpreter.eval`` for expressions,
``Interpreter.exec_block`` for statements).  Every exception raised while a
node runs is turned, at the innermost node, into a :class:`ScriptError`
carrying that node's position; control flow (break/continue/return) uses
private exceptions.  Script functions and lambdas are
:class:`ScriptFunction` objects, callable from Python too (the engine calls
hooks and custom Function methods), which run their body in this
interpreter.  Everything a script touches goes through
:mod:`agrad.lang.safety`.
"""

from __future__ import annotations

import math
import operator
import sys
import types

from .. import _limits
from . import ast as A
from .builtins import CHECKED, make_builtins
from .classes import BASES_MESSAGE, SUPER, adopt_methods, base_allowed, make_super
from .errors import CompileTimeSyntaxError, ScriptError, ScriptSyntaxError, Source
from .safety import (FORBIDDEN_NAMES, MissingModule, ModuleProxy, SafeFormatter, SafetyError,
                     ScriptImportError, bounded_list, check_format_spec,
                     check_int_bits, check_percent_format, check_size, get_attribute,
                     int_pow, is_engine_class, is_script_class, set_attribute, sized_len,
                     suggest)

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

        # torch.optim, torch.utils.data, nn.init and nn.utils load when a script
        # first reaches them (the proxy holds the module's dotted name until then)
        lazy = ModuleProxy
        nn_init = lazy("torch.nn.init", "agrad.nn.init")
        nn_utils = lazy("torch.nn.utils", "agrad.nn.utils")
        nn = sub(agrad, "torch.nn", "nn", [("functional", "functional", ())])
        if nn is not None:
            nn._submodules.update({"init": nn_init, "utils": nn_utils})
        autograd = sub(agrad, "torch.autograd", "autograd",
                       [("graph", "graph", ()), ("functional", "functional", ())])
        lr_scheduler = lazy("torch.optim.lr_scheduler", "agrad.optim.lr_scheduler")
        optim = lazy("torch.optim", "agrad.optim", {"lr_scheduler": lr_scheduler})
        data = lazy("torch.utils.data", "agrad.utils.data")
        utils = lazy("torch.utils", "agrad.utils", {"data": data})
        subs = {"optim": optim, "utils": utils}
        if nn is not None:
            subs["nn"] = nn
        if autograd is not None:
            subs["autograd"] = autograd
        for extra in ("linalg", "special", "fft"):
            p = sub(agrad, f"torch.{extra}", extra)
            if p is not None:
                subs[extra] = p
        torch = ModuleProxy("torch", agrad, subs)
        proxies.update({"torch": torch, "optim": optim, "torch.optim.lr_scheduler": lr_scheduler,
                        "torch.utils": utils, "torch.utils.data": data})
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
        self.proxies = proxies
        return proxies

    def bare_names(self):
        """torch names in scope without an import (SPEC §1)."""
        if self.names is not None:
            return self.names
        proxies = self.module_proxies()
        names = {k: proxies[k] for k in ("torch", "nn", "F", "optim", "math") if k in proxies}
        torch = proxies.get("torch")
        if torch is not None:
            for n in torch._public_names():
                if n in torch._submodules:
                    continue
                try:
                    names.setdefault(n, torch._get(n))
                except Exception:
                    pass
        self.names = names
        return names


ENGINE = _Engine()

SUPPORTED_IMPORTS = ("torch, torch.nn, torch.nn.functional, torch.nn.init, torch.nn.utils, "
                     "torch.autograd, torch.optim, torch.optim.lr_scheduler, torch.utils.data "
                     "and math")


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

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return types.MethodType(self, obj)

    def __repr__(self):
        return f"<function {self.__qualname__} at 0x{id(self):016x}>"


class Frame:
    """Variables of one scope.  ``scope`` is the function's Scope (None for the
    module, a class body or a comprehension); ``parent`` the lexically
    enclosing frame."""

    __slots__ = ("vars", "scope", "parent", "globals", "src", "is_class", "fn")

    def __init__(self, vars, scope, parent, globals_frame, src, is_class=False):
        self.fn = None  # the ScriptFunction whose call this frame is (for super())
        self.vars = vars
        self.scope = scope
        self.parent = parent
        self.globals = globals_frame if globals_frame is not None else self
        self.src = src
        self.is_class = is_class


# ------------------------------------------------------------ operators

_BINOP_FUNCS = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
    "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "@": operator.matmul,
    "<<": operator.lshift, ">>": operator.rshift, "&": operator.and_, "|": operator.or_,
    "^": operator.xor,
}
_IBINOP_FUNCS = {
    "+": operator.iadd, "-": operator.isub, "*": operator.imul, "/": operator.itruediv,
    "//": operator.ifloordiv, "%": operator.imod, "**": operator.ipow, "@": operator.imatmul,
    "<<": operator.ilshift, ">>": operator.irshift, "&": operator.iand, "|": operator.ior,
    "^": operator.ixor,
}
_CMP_FUNCS = {
    "<": operator.lt, ">": operator.gt, "==": operator.eq, ">=": operator.ge,
    "<=": operator.le, "!=": operator.ne, "is": operator.is_, "is not": operator.is_not,
    "in": lambda a, b: a in b, "not in": lambda a, b: a not in b,
}
_SEQ = (str, list, tuple)


def _bcast_numel(sa, sb):
    la, lb = len(sa), len(sb)
    total = 1
    for i in range(1, max(la, lb) + 1):
        x = sa[-i] if i <= la else 1
        y = sb[-i] if i <= lb else 1
        if x == y or y == 1:
            d = x
        elif x == 1:
            d = y
        else:
            return None
        total *= d
    return total


def _matmul_numel(sa, sb):
    if len(sa) == 0 or len(sb) == 0:
        return None
    if len(sa) == 1 and len(sb) == 1:
        return 1
    n = sa[-2] if len(sa) >= 2 else 1
    m = sb[-1] if len(sb) >= 2 else 1
    batch = _bcast_numel(tuple(sa[:-2]), tuple(sb[:-2])) or 1
    return batch * n * m


# -------------------------------------------------------------- interpreter

class Interpreter:
    """Runs parsed modules.  One interpreter per run; not thread-safe."""

    def __init__(self, *, max_depth=DEFAULT_MAX_DEPTH, output_limit=None):
        self.max_depth = max_depth
        self.depth = 0
        self.cancelled = False
        self.out: list[str] = []
        self.out_len = 0
        self.sink = None  # called with each piece of output as it is printed (streaming)
        self.output_limit = output_limit
        self.builtins = make_builtins(self)
        self.engine = ENGINE
        self.cur_stmt = None
        self.cur_frame = None
        self.handling: list[ScriptError] = []
        self.backward_calls = 0
        # module-level bookkeeping for the CLI
        self.last_top_value = None
        self.last_tensor_name = None
        self.assignments: list = []
        src = Source("<script>", "")
        self.globals = Frame({}, None, None, None, src)
        self._formatter = None
        self.ev = {cls: getattr(self, "ev_" + cls.__name__) for cls in (
            A.Name, A.Constant, A.JoinedStr, A.BinOp, A.UnaryOp, A.BoolOp, A.Compare, A.IfExp,
            A.Lambda, A.Call, A.Attribute, A.Subscript, A.Slice, A.Starred, A.Tuple, A.List,
            A.Set, A.Dict, A.ListComp, A.SetComp, A.GeneratorExp, A.DictComp, A.FormattedValue)}
        self.ex = {cls: getattr(self, "ex_" + cls.__name__) for cls in (
            A.ExprStmt, A.Assign, A.AugAssign, A.AnnAssign, A.Delete, A.Pass, A.Break,
            A.Continue, A.Return, A.Raise, A.Global, A.Nonlocal, A.Assert, A.Import,
            A.ImportFrom, A.If, A.While, A.For, A.Try, A.With, A.FunctionDef, A.ClassDef)}

    # ---------------------------------------------------------- output
    def write(self, text):
        self.out_len += len(text)
        if self.output_limit is not None and self.out_len > self.output_limit:
            check_size(self.out_len, "printed output")
        self.out.append(text)
        if self.sink is not None:
            self.sink(text)

    def stdout(self) -> str:
        return "".join(self.out)

    # ---------------------------------------------------------- errors
    def check_cancel(self):
        if self.cancelled:
            raise Cancelled()

    def wrap(self, e, node, frame) -> ScriptError:
        if isinstance(e, ScriptError):
            return e
        if isinstance(e, Cancelled):
            type_name, message = "TimeoutError", "the script ran past its time limit (--timeout)"
        elif isinstance(e, SafetyError):
            type_name, message = "AttributeError", str(e)
        elif isinstance(e, ScriptImportError):
            type_name, message = "ImportError", str(e)
        elif isinstance(e, ScriptRecursionError):
            type_name, message = "RecursionError", str(e)
        elif isinstance(e, MemoryError) and _limits.memory_limit_error(e) is not None:
            type_name, message = "LimitError", str(_limits.memory_limit_error(e))
        else:
            type_name = type(e).__name__
            try:
                message = str(e)
            except Exception:
                message = "<unprintable error>"
        line = getattr(node, "line", None)
        stmt = self.cur_stmt
        if line is None and stmt is not None:
            node = stmt
            line = stmt.line
        src = frame.src if frame is not None else self.globals.src
        where = dict(source=src.name, line=line, column=getattr(node, "col", None),
                     end_line=getattr(node, "end_line", None),
                     end_column=getattr(node, "end_col", None),
                     stmt_line=stmt.line if stmt is not None else line,
                     source_line=src.line_text(line) if line else "", exc=e)
        if isinstance(e, CompileTimeSyntaxError):
            err = ScriptSyntaxError(message, **where)
        else:
            err = ScriptError(type_name, message, **where)
        err.catchable = not isinstance(e, (Cancelled, SafetyError, _limits.LimitError,
                                           CompileTimeSyntaxError,
                                           MemoryError, RecursionError, ScriptImportError,
                                           SystemExit, KeyboardInterrupt))
        return err

    # ---------------------------------------------------------- running
    def run_module(self, module, src: Source):
        """Execute a parsed script's statements at top level."""
        frame = self.globals
        frame.src = src
        ex = self.ex
        for stmt in module.body:
            if self.cancelled:
                raise self.wrap(Cancelled(), stmt, frame)
            self.cur_stmt = stmt
            self.cur_frame = frame
            try:
                if stmt.__class__ is A.ExprStmt:
                    value = self.eval(stmt.value, frame)
                    self.last_top_value = value
                    continue
                self.last_top_value = None
                ex[stmt.__class__](stmt, frame)
            except ScriptError:
                raise
            except _CONTROL as e:   # pragma: no cover - the checker rejects these
                raise self.wrap(CompileTimeSyntaxError(f"'{type(e).__name__[1:].lower()}' outside loop"),
                                stmt, frame)
            except Exception as e:
                raise self.wrap(e, stmt, frame) from None

    def eval_expression(self, expr_node, src: Source):
        frame = self.globals
        frame.src = src
        self.cur_stmt = expr_node
        return self.eval(expr_node.body, frame)

    def exec_block(self, body, frame):
        ex = self.ex
        for stmt in body:
            if self.cancelled:
                raise self.wrap(Cancelled(), stmt, frame)
            self.cur_stmt = stmt
            self.cur_frame = frame
            try:
                ex[stmt.__class__](stmt, frame)
            except (ScriptError, _Break, _Continue, _Return):
                raise
            except Exception as e:
                raise self.wrap(e, stmt, frame) from None

    def eval(self, node, frame):
        try:
            return self.ev[node.__class__](node, frame)
        except (ScriptError, _Break, _Continue, _Return):
            raise
        except Exception as e:
            raise self.wrap(e, node, frame) from None

    # ---------------------------------------------------------- names
    def lookup(self, name, frame):
        f = frame
        while f is not None:
            v = f.vars.get(name, _MISSING)
            if v is not _MISSING:
                return v
            sc = f.scope
            if sc is not None:
                if name in sc.globals:
                    f = f.globals
                    v = f.vars.get(name, _MISSING)
                    if v is not _MISSING:
                        return v
                    break
                if name in sc.locals:
                    raise UnboundLocalError(
                        f"cannot access local variable '{name}' where it is not associated "
                        f"with a value")
            f = f.parent
        v = self.builtins.get(name, _MISSING)
        if v is not _MISSING:
            return v
        v = self.engine.bare_names().get(name, _MISSING)
        if v is not _MISSING:
            return v
        raise self.name_error(name, frame)

    def visible_names(self, frame):
        names = set(self.builtins) | set(self.engine.bare_names())
        f = frame
        while f is not None:
            names.update(f.vars)
            f = f.parent
        names.update(self.globals.vars)
        return names

    def name_error(self, name, frame):
        if name in FORBIDDEN_NAMES:
            return NameError(f"name '{name}' is not available in agrad scripts "
                             f"({FORBIDDEN_NAMES[name]})")
        if name.startswith("__") and name.endswith("__"):
            return NameError(f"name '{name}' is not available in agrad scripts "
                             f"(dunder names are blocked)")
        hint = suggest(name, {n for n in self.visible_names(frame) if not n.startswith("_")})
        extra = ""
        if not hint and self.engine.error is not None:
            extra = f" (the agrad engine could not be loaded: {self.engine.error})"
        return NameError(f"name '{name}' is not defined{hint}{extra}")

    def store(self, name, value, frame):
        sc = frame.scope
        if sc is not None:
            if name in sc.globals:
                frame.globals.vars[name] = value
                return
            if name in sc.nonlocals:
                f = frame.parent
                while f is not None:
                    if f.scope is not None and (name in f.scope.locals or name in f.vars):
                        f.vars[name] = value
                        return
                    f = f.parent
                raise CompileTimeSyntaxError(f"no binding for nonlocal '{name}' found")
        frame.vars[name] = value

    def delete_name(self, name, frame):
        sc = frame.scope
        target = frame
        if sc is not None and name in sc.globals:
            target = frame.globals
        if name not in target.vars:
            raise NameError(f"name '{name}' is not defined")
        del target.vars[name]

    # ---------------------------------------------------------- expressions
    def ev_Constant(self, node, frame):
        return node.value

    def ev_Name(self, node, frame):
        return self.lookup(node.id, frame)

    def formatter(self):
        if self._formatter is None:
            self._formatter = SafeFormatter(self.getattr)
        return self._formatter

    def getattr(self, obj, name):
        return get_attribute(obj, name, self.formatter)

    def ev_JoinedStr(self, node, frame):
        out = []
        total = 0
        for p in node.parts:
            s = p if isinstance(p, str) else self.eval(p, frame)
            total += len(s)
            out.append(s)
        check_size(total, "string")
        return "".join(out)

    def ev_FormattedValue(self, node, frame):
        v = self.eval(node.value, frame)
        if node.conversion == "r":
            v = repr(v)
        elif node.conversion == "s":
            v = str(v)
        elif node.conversion == "a":
            v = ascii(v)
        spec = "" if node.spec is None else self.eval(node.spec, frame)
        check_format_spec(spec)
        return format(v, spec)

    def ev_BinOp(self, node, frame):
        if node.op == "**":
            left = self.eval(node.left, frame)
            return self.binop("**", left, self.eval(node.right, frame))
        spine = []
        n = node
        while n.__class__ is A.BinOp and n.op != "**":
            spine.append(n)
            n = n.left
        value = self.eval(n, frame)
        for b in reversed(spine):
            right = self.eval(b.right, frame)
            try:
                value = self.binop(b.op, value, right)
            except (ScriptError, _Break, _Continue, _Return):
                raise
            except Exception as e:
                raise self.wrap(e, b, frame) from None
        return value

    def binop(self, op, a, b, inplace=False):
        ta, tb = type(a), type(b)
        if ta in (int, bool) and tb in (int, bool):
            if op == "**":
                return int_pow(a, b, self.check_cancel)
            if op == "*":
                check_int_bits(abs(a).bit_length() + abs(b).bit_length())
            elif op == "<<" and b > 0:
                check_int_bits(abs(a).bit_length() + b)
        elif op == "*":
            if ta in _SEQ and tb in (int, bool):
                check_size(len(a) * b, self._seq_name(a))
            elif tb in _SEQ and ta in (int, bool):
                check_size(len(b) * a, self._seq_name(b))
        elif op == "+":
            if ta in _SEQ and tb in _SEQ:
                check_size(len(a) + len(b), self._seq_name(a))
        elif op == "%" and ta is str:
            check_percent_format(a, b)
        if op != "**" and op not in ("<<", ">>") and ta not in (int, float, bool) \
                and tb not in (int, float, bool):
            self._check_array_op(op, a, b)
        f = (_IBINOP_FUNCS if inplace else _BINOP_FUNCS)[op]
        return f(a, b)

    @staticmethod
    def _seq_name(x):
        return "string" if isinstance(x, str) else type(x).__name__

    def _check_array_op(self, op, a, b):
        sa = self._shape(a)
        if sa is None:
            return
        sb = self._shape(b)
        if sb is None:
            return
        n = _matmul_numel(sa, sb) if op == "@" else _bcast_numel(sa, sb)
        if n is not None:
            check_size(n, "tensor")

    def _shape(self, x):
        t = self.engine.tensor
        if (t is not None and isinstance(x, t)) or type(x).__name__ == "ndarray":
            try:
                return tuple(int(d) for d in x.shape)
            except Exception:
                return None
        return None

    def ev_UnaryOp(self, node, frame):
        v = self.eval(node.operand, frame)
        op = node.op
        if op == "not":
            return not v
        if op == "-":
            return -v
        if op == "+":
            return +v
        return ~v

    def ev_BoolOp(self, node, frame):
        if node.op == "and":
            for e in node.values:
                v = self.eval(e, frame)
                if not v:
                    return v
            return v
        for e in node.values:
            v = self.eval(e, frame)
            if v:
                return v
        return v

    def ev_Compare(self, node, frame):
        left = self.eval(node.left, frame)
        result = True
        for op, comp in zip(node.ops, node.comparators):
            right = self.eval(comp, frame)
            result = _CMP_FUNCS[op](left, right)
            if len(node.ops) > 1 and not result:
                return result
            left = right
        return result

    def ev_IfExp(self, node, frame):
        if self.eval(node.test, frame):
            return self.eval(node.body, frame)
        return self.eval(node.orelse, frame)

    def make_function(self, name, params, body, is_lambda, scope, frame, doc=None):
        defaults = {}
        for p in params:
            if p.default is not None:
                defaults[p.name] = self.eval(p.default, frame)
        closure = frame
        # class bodies are not visible to the functions defined in them
        while closure is not None and closure.is_class:
            closure = closure.parent
        return ScriptFunction(self, name, params, body, is_lambda, closure, frame.globals,
                              frame.src, scope, defaults, doc)

    def ev_Lambda(self, node, frame):
        return self.make_function("<lambda>", node.params, node.body, True, node.scope, frame)

    def ev_Call(self, node, frame):
        func = self.eval(node.func, frame)
        if func is SUPER:
            return make_super([self.eval(a, frame) for a in node.args], frame)
        args = []
        for a in node.args:
            if a.__class__ is A.Starred:
                args.extend(bounded_list(self.eval(a.value, frame), "argument list",
                                         len(args)))
            else:
                args.append(self.eval(a, frame))
        kwargs = {}
        for name, v in node.keywords:
            if name is None:
                m = self.eval(v, frame)
                if not hasattr(m, "keys"):
                    raise TypeError(f"argument after ** must be a mapping, not "
                                    f"{type(m).__name__}")
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
        return func(*args, **kwargs)

    def call_script(self, fn, args, kwargs):
        if self.depth >= self.max_depth:
            raise ScriptRecursionError(
                f"maximum recursion depth exceeded (agrad scripts may nest at most "
                f"{self.max_depth} calls)")
        frame = Frame({}, fn._scope, fn._closure, fn._globals, fn._src)
        frame.fn = fn
        self.bind_args(fn, args, kwargs, frame.vars)
        saved = self.cur_stmt, self.cur_frame
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
            self.cur_stmt, self.cur_frame = saved

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

    def ev_Attribute(self, node, frame):
        return get_attribute(self.eval(node.value, frame), node.attr, self.formatter)

    def index_value(self, node, frame):
        if node.__class__ is A.Slice:
            return self.ev_Slice(node, frame)
        if node.__class__ is A.Tuple:
            return tuple(self.index_value(e, frame) for e in node.elts)
        return self.eval(node, frame)

    def ev_Subscript(self, node, frame):
        obj = self.eval(node.value, frame)
        return obj[self.index_value(node.index, frame)]

    def ev_Slice(self, node, frame):
        lo = None if node.lower is None else self.eval(node.lower, frame)
        hi = None if node.upper is None else self.eval(node.upper, frame)
        st = None if node.step is None else self.eval(node.step, frame)
        return slice(lo, hi, st)

    def ev_Starred(self, node, frame):
        raise CompileTimeSyntaxError("can't use starred expression here")

    def elements(self, elts, frame, what):
        out = []
        for e in elts:
            if e.__class__ is A.Starred:
                out.extend(bounded_list(self.eval(e.value, frame), what, len(out)))
            else:
                out.append(self.eval(e, frame))
        return out

    def ev_Tuple(self, node, frame):
        return tuple(self.elements(node.elts, frame, "tuple"))

    def ev_List(self, node, frame):
        return self.elements(node.elts, frame, "list")

    def ev_Set(self, node, frame):
        return set(self.elements(node.elts, frame, "set"))

    def ev_Dict(self, node, frame):
        d = {}
        for k, v in node.items:
            if k is None:
                m = self.eval(v, frame)
                if not hasattr(m, "keys"):
                    raise TypeError(f"'{type(m).__name__}' object is not a mapping")
                check_size(len(d) + (sized_len(m) or 0), "dict")
                d.update(m)
            else:
                key = self.eval(k, frame)
                d[key] = self.eval(v, frame)
        return d

    # comprehensions run in their own frame (Python 3 scoping)
    def _comp_frame(self, frame):
        return Frame({}, None, frame, frame.globals, frame.src)

    def _comp_loop(self, gens, i, cframe, frame, emit):
        g = gens[i]
        it = self.eval(g.iter, frame if i == 0 else cframe)
        n = 0
        for item in it:
            n += 1
            if not (n & 0x3FF) and self.cancelled:
                raise Cancelled()
            self.assign(g.target, item, cframe)
            ok = True
            for cond in g.ifs:
                if not self.eval(cond, cframe):
                    ok = False
                    break
            if not ok:
                continue
            if i + 1 < len(gens):
                self._comp_loop(gens, i + 1, cframe, frame, emit)
            else:
                emit()

    def _comprehension(self, node, frame, out, add, what):
        """Run a list/set/dict comprehension into ``out``; ``add(cframe)`` adds one item."""
        cframe = self._comp_frame(frame)
        limit = _limits.get_max_elements()

        def emit():
            if limit is not None and len(out) >= limit:
                check_size(len(out) + 1, what)
            add(cframe)
        self._comp_loop(node.generators, 0, cframe, frame, emit)
        return out

    def ev_ListComp(self, node, frame):
        out = []
        return self._comprehension(node, frame, out,
                                   lambda cf: out.append(self.eval(node.elt, cf)), "list")

    def ev_SetComp(self, node, frame):
        out = set()
        return self._comprehension(node, frame, out,
                                   lambda cf: out.add(self.eval(node.elt, cf)), "set")

    def ev_DictComp(self, node, frame):
        out = {}

        def add(cf):
            key = self.eval(node.key, cf)
            out[key] = self.eval(node.value, cf)
        return self._comprehension(node, frame, out, add, "dict")

    def ev_GeneratorExp(self, node, frame):
        gens = node.generators
        first = iter(self.eval(gens[0].iter, frame))
        cframe = self._comp_frame(frame)
        interp = self

        def gen():
            yield from interp._gen_loop(node, gens, 0, cframe, first)
        return gen()

    def _gen_loop(self, node, gens, i, cframe, it):
        g = gens[i]
        if it is None:
            it = self.eval(g.iter, cframe)
        for item in it:
            if self.cancelled:
                raise self.wrap(Cancelled(), node, cframe)
            self.assign(g.target, item, cframe)
            if all(self.eval(c, cframe) for c in g.ifs):
                if i + 1 < len(gens):
                    yield from self._gen_loop(node, gens, i + 1, cframe, None)
                else:
                    yield self.eval(node.elt, cframe)

    # ---------------------------------------------------------- assignment
    def assign(self, target, value, frame):
        cls = target.__class__
        if cls is A.Name:
            self.store(target.id, value, frame)
        elif cls is A.Attribute:
            obj = self.eval(target.value, frame)
            try:
                set_attribute(obj, target.attr, value, self.engine.tensor)
            except (ScriptError, _Break, _Continue, _Return):
                raise
            except Exception as e:
                raise self.wrap(e, target, frame) from None
        elif cls is A.Subscript:
            obj = self.eval(target.value, frame)
            idx = self.index_value(target.index, frame)
            try:
                if type(obj) is list and isinstance(idx, slice):
                    n = sized_len(value)
                    if n is None:
                        value = bounded_list(value)
                        n = len(value)
                    check_size(len(obj) + n, "list")
                elif type(obj) is dict and idx not in obj:
                    check_size(len(obj) + 1, "dict")
                elif isinstance(obj, (ModuleProxy, MissingModule)):
                    raise TypeError("'module' object does not support item assignment")
                obj[idx] = value
            except (ScriptError, _Break, _Continue, _Return):
                raise
            except Exception as e:
                raise self.wrap(e, target, frame) from None
        elif cls is A.Tuple or cls is A.List:
            self.unpack(target, value, frame)
        else:
            raise CompileTimeSyntaxError(f"cannot assign to {type(target).__name__}")

    def unpack(self, target, value, frame):
        elts = target.elts
        star = next((i for i, e in enumerate(elts) if e.__class__ is A.Starred), None)
        try:
            items = bounded_list(value, "unpacked sequence")
        except TypeError:
            raise TypeError(f"cannot unpack non-iterable {type(value).__name__} object") from None
        n = len(items)
        if star is None:
            if n > len(elts):
                raise ValueError(f"too many values to unpack (expected {len(elts)})")
            if n < len(elts):
                raise ValueError(f"not enough values to unpack (expected {len(elts)}, got {n})")
            for e, v in zip(elts, items):
                self.assign(e, v, frame)
            return
        before, after = star, len(elts) - star - 1
        if n < before + after:
            raise ValueError(f"not enough values to unpack (expected at least "
                             f"{before + after}, got {n})")
        for e, v in zip(elts[:before], items[:before]):
            self.assign(e, v, frame)
        self.assign(elts[star].value, items[before:n - after], frame)
        for e, v in zip(elts[star + 1:], items[n - after:]):
            self.assign(e, v, frame)

    def _note_top_assign(self, target, value, stmt, frame):
        """Remember the last top-level name bound to a tensor (the CLI's target)."""
        if frame is not self.globals:
            return
        t = self.engine.tensor
        names = []
        stack = [target]
        while stack:
            n = stack.pop()
            if n.__class__ is A.Name:
                names.append(n.id)
            elif n.__class__ in (A.Tuple, A.List):
                stack.extend(reversed([e.value if e.__class__ is A.Starred else e
                                       for e in n.elts]))
        for name in names:
            v = frame.vars.get(name)
            if t is not None and isinstance(v, t):
                self.last_tensor_name = name
                if len(self.assignments) < 100_000:
                    self.assignments.append((name, v, frame.src, stmt.line,
                                             frame.src.line_text(stmt.line).strip()))

    # ---------------------------------------------------------- statements
    def ex_ExprStmt(self, node, frame):
        self.eval(node.value, frame)

    def ex_Assign(self, node, frame):
        value = self.eval(node.value, frame)
        for target in node.targets:
            self.assign(target, value, frame)
        if frame is self.globals:
            for target in node.targets:
                self._note_top_assign(target, value, node, frame)

    def ex_AnnAssign(self, node, frame):
        if node.value is not None:
            value = self.eval(node.value, frame)
            self.assign(node.target, value, frame)
            self._note_top_assign(node.target, value, node, frame)

    def ex_AugAssign(self, node, frame):
        target = node.target
        cls = target.__class__
        if cls is A.Name:
            cur = self.lookup(target.id, frame)
            new = self._iop(node, cur, self.eval(node.value, frame), frame)
            self.store(target.id, new, frame)
            self._note_top_assign(target, new, node, frame)
        elif cls is A.Attribute:
            obj = self.eval(target.value, frame)
            cur = self.getattr(obj, target.attr)
            new = self._iop(node, cur, self.eval(node.value, frame), frame)
            try:
                set_attribute(obj, target.attr, new, self.engine.tensor)
            except Exception as e:
                raise self.wrap(e, target, frame) from None
        else:
            obj = self.eval(target.value, frame)
            idx = self.index_value(target.index, frame)
            cur = obj[idx]
            new = self._iop(node, cur, self.eval(node.value, frame), frame)
            obj[idx] = new

    def _iop(self, node, cur, value, frame):
        try:
            if node.op == "**" and type(cur) in (int, bool) and type(value) in (int, bool):
                return int_pow(cur, value, self.check_cancel)
            return self.binop(node.op, cur, value, inplace=True)
        except (ScriptError, _Break, _Continue, _Return):
            raise
        except Exception as e:
            raise self.wrap(e, node, frame) from None

    def ex_Delete(self, node, frame):
        for t in node.targets:
            if t.__class__ is A.Name:
                self.delete_name(t.id, frame)
            elif t.__class__ is A.Subscript:
                obj = self.eval(t.value, frame)
                del obj[self.index_value(t.index, frame)]
            else:
                raise SafetyError("attributes cannot be deleted in agrad scripts")

    def ex_Pass(self, node, frame):
        pass

    def ex_Break(self, node, frame):
        raise _BREAK

    def ex_Continue(self, node, frame):
        raise _CONTINUE

    def ex_Return(self, node, frame):
        raise _Return(None if node.value is None else self.eval(node.value, frame))

    def ex_Raise(self, node, frame):
        if node.exc is None:
            if self.handling:
                raise self.handling[-1]
            raise RuntimeError("No active exception to reraise")
        exc = self.eval(node.exc, frame)
        if isinstance(exc, type) and issubclass(exc, BaseException):
            exc = exc()
        if not isinstance(exc, Exception):
            raise TypeError("exceptions must derive from BaseException")
        if isinstance(exc, (SafetyError, Cancelled)) or not (
                type(exc).__module__ == "builtins" or is_engine_class(type(exc))):
            raise TypeError(f"agrad scripts cannot raise '{type(exc).__name__}'")
        if node.cause is not None:
            self.eval(node.cause, frame)
        err = self.wrap(exc, node, frame)
        raise err

    def ex_Global(self, node, frame):
        pass

    ex_Nonlocal = ex_Global

    def ex_Assert(self, node, frame):
        if not self.eval(node.test, frame):
            if node.msg is not None:
                raise AssertionError(self.eval(node.msg, frame))
            raise AssertionError()

    def _module(self, dotted):
        proxies = self.engine.module_proxies()
        if dotted in proxies:
            return proxies[dotted]
        root = dotted.split(".")[0]
        if root == "torch" and self.engine.mod is None:
            raise ScriptImportError(f"the agrad engine could not be loaded: {self.engine.error}")
        raise ScriptImportError(f"import of module '{dotted}' is not supported: agrad scripts "
                                f"can import {SUPPORTED_IMPORTS}")

    def ex_Import(self, node, frame):
        for dotted, asname in node.names:
            mod = self._module(dotted)
            if isinstance(mod, MissingModule):
                raise ScriptImportError(f"{dotted} is not supported yet in agrad")
            if asname is not None:
                self.store(asname, mod, frame)
            else:
                root = dotted.split(".")[0]
                self.store(root, self._module(root), frame)

    def ex_ImportFrom(self, node, frame):
        mod = self._module(node.module)
        if isinstance(mod, MissingModule):
            raise ScriptImportError(f"{node.module} is not supported yet in agrad")
        if node.names == "*":
            raise ScriptImportError(f"'from {node.module} import *' is not supported in agrad "
                                    f"scripts; import the names you need")
        for name, asname in node.names:
            try:
                value = mod._get(name)
            except AttributeError:
                raise ScriptImportError(
                    f"cannot import name '{name}' from '{node.module}'"
                    f"{suggest(name, mod._public_names())}") from None
            if isinstance(value, MissingModule):
                raise ScriptImportError(f"{node.module}.{name} is not supported yet in agrad")
            self.store(asname or name, value, frame)

    def ex_If(self, node, frame):
        while True:
            if self.eval(node.test, frame):
                self.exec_block(node.body, frame)
                return
            orelse = node.orelse
            if len(orelse) == 1 and orelse[0].__class__ is A.If:
                node = orelse[0]
                self.cur_stmt = node
                continue
            self.exec_block(orelse, frame)
            return

    def ex_While(self, node, frame):
        body = node.body
        while True:
            if self.cancelled:
                raise self.wrap(Cancelled(), node, frame)
            self.cur_stmt = node
            if not self.eval(node.test, frame):
                break
            try:
                self.exec_block(body, frame)
            except _Break:
                return
            except _Continue:
                continue
        self.exec_block(node.orelse, frame)

    def ex_For(self, node, frame):
        it = self.eval(node.iter, frame)
        try:
            iterator = iter(it)
        except TypeError:
            raise TypeError(f"'{type(it).__name__}' object is not iterable") from None
        body, target = node.body, node.target
        for item in iterator:
            if self.cancelled:
                raise self.wrap(Cancelled(), node, frame)
            self.cur_stmt = node
            self.assign(target, item, frame)
            try:
                self.exec_block(body, frame)
            except _Break:
                return
            except _Continue:
                continue
        self.exec_block(node.orelse, frame)

    def ex_Try(self, node, frame):
        try:
            try:
                self.exec_block(node.body, frame)
            except ScriptError as err:
                if isinstance(err, ScriptSyntaxError) or not getattr(err, "catchable", False):
                    raise
                exc = err.exc
                for h in node.handlers:
                    if h.type is not None:
                        kinds = self.eval(h.type, frame)
                        if not isinstance(kinds, tuple):
                            kinds = (kinds,)
                        for k in kinds:
                            if not (isinstance(k, type) and issubclass(k, BaseException)):
                                raise TypeError("catching classes that do not inherit from "
                                                "BaseException is not allowed")
                        if not isinstance(exc, kinds):
                            continue
                    if h.name is not None:
                        self.store(h.name, exc, frame)
                    self.handling.append(err)
                    try:
                        self.exec_block(h.body, frame)
                    finally:
                        self.handling.pop()
                        if h.name is not None:
                            frame.vars.pop(h.name, None)
                    break
                else:
                    raise
            else:
                self.exec_block(node.orelse, frame)
        finally:
            if node.finalbody:
                self.exec_block(node.finalbody, frame)

    def ex_With(self, node, frame):
        self._with(node, 0, frame)

    def _with(self, node, i, frame):
        if i == len(node.items):
            self.exec_block(node.body, frame)
            return
        expr, target = node.items[i]
        cm = self.eval(expr, frame)
        cls = type(cm)
        if not (is_engine_class(cls) or isinstance(cm, type) and is_engine_class(cm)):
            raise self.wrap(TypeError(
                f"'{cls.__name__}' object cannot be used in 'with' in agrad scripts (only "
                f"grad modes such as torch.no_grad() can)"), expr, frame)
        if not (hasattr(cls, "__enter__") and hasattr(cls, "__exit__")):
            raise self.wrap(TypeError(f"'{cls.__name__}' object does not support the context "
                                      f"manager protocol"), expr, frame)
        value = cls.__enter__(cm)
        try:
            if target is not None:
                self.assign(target, value, frame)
            self._with(node, i + 1, frame)
        except ScriptError as err:
            e = err.exc if err.exc is not None else err
            if cls.__exit__(cm, type(e), e, None) and getattr(err, "catchable", False):
                return
            raise
        except BaseException:
            cls.__exit__(cm, None, None, None)
            raise
        else:
            cls.__exit__(cm, None, None, None)

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
              or (isinstance(deco, type) and is_engine_class(deco)))
        if not ok:
            raise self.wrap(TypeError(
                "agrad scripts support only @staticmethod, grad-mode decorators "
                "(@torch.no_grad() ...) and decorators defined in the script"), node, frame)
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
        saved = self.cur_stmt, self.cur_frame
        try:
            self.exec_block(node.body, cframe)
        finally:
            self.cur_stmt, self.cur_frame = saved
        ns["_agrad_script_class"] = True
        ns["__module__"] = "__main__"
        ns["__qualname__"] = node.name
        cls = types.new_class(node.name, tuple(bases), {}, lambda body: body.update(ns))
        adopt_methods(cls, ns)
        value = cls
        for d in reversed(node.decorators):
            value = self.apply_decorator(self.eval(d, frame), value, d, frame)
        self.store(node.name, value, frame)


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
