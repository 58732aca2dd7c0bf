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

The interpreter is one class assembled from mixins, one concern a file:
:mod:`.expressions` (``ev_*``), :mod:`.statements` (``ex_*``),
:mod:`.functions` (calls, ``def``, ``lambda``, ``class``); what a running
script is made of (frames, script functions, the engine link, control-flow
signals) is in :mod:`.runtime`.
"""

from __future__ import annotations

from .. import _limits
from . import ast as A
from .builtins import make_builtins
from .errors import CompileTimeSyntaxError, ScriptError, ScriptSyntaxError, Source
from .expressions import Expressions
from .functions import Functions
from .generators import Generators
from .runtime import (_CONTROL, _MISSING, DEFAULT_MAX_DEPTH, ENGINE, Cancelled, Frame, ScriptRecursionError,
                      _Break, _Continue, _Return)
from .safety import (FORBIDDEN_NAMES, SafetyError, ScriptImportError, check_size, suggest,
                     torch_names)
from .statements import Statements


# -------------------------------------------------------------- interpreter

class Interpreter(Expressions, Statements, Functions, Generators):
    """Runs parsed modules.  One interpreter per run; not thread-safe."""

    def __init__(self, *, max_depth=DEFAULT_MAX_DEPTH, output_limit=None):
        self.max_depth = max_depth
        self.depth = 0
        self.cancelled = False
        self.out: list[str] = []
        self.out_len = 0
        self.sink = None  # called with each piece of output as it is printed (streaming)
        # told of every loop and each of its finished iterations (the CLI's progress bar
        # and --plot): start(node, frame, iterable) -> token, step(token, frame),
        # end(token), iterate(node, frame, iterable, iterator) -> iterator
        self.loop_watch = None
        self.output_limit = output_limit
        self.builtins = make_builtins(self)
        self.engine = ENGINE
        self.cur_stmt = None
        self.cur_frame = None
        # the expression whose op is being applied (set just before a binary or
        # unary operator, a subscript or a call runs; None at each new statement):
        # engine hooks read it through current_span()
        self.cur_expr = None
        self.spans: dict = {}  # AST node -> its span (current_span)
        self.stmt_texts: dict = {}  # top-level assignment -> its line's text (assignments)
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
            type_name, message = getattr(e, "shown_as", "AttributeError"), str(e)
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
        last = module.body[-1] if module.body else None
        for stmt in module.body:
            if self.cancelled:
                raise self.wrap(Cancelled(), stmt, frame)
            self.cur_stmt = stmt
            self.cur_frame = frame
            self.cur_expr = None
            try:
                if stmt.__class__ is A.ExprStmt:
                    # (only the last statement's value is kept, to be shown: an earlier one is dropped at once, as
                    # Python drops it, so what it alone held is freed: a view's node an in-place op saved weakly)
                    if stmt is last:
                        self.last_top_value = self.eval(stmt.value, frame)
                    else:
                        self.eval(stmt.value, frame)
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
        self.cur_expr = None
        return self.eval(expr_node.body, frame)

    def exec_block(self, body, frame):
        ex = self.ex
        for stmt in body:
            if self.cancelled:
                raise self.wrap(Cancelled(), stmt, frame)
            self.cur_stmt = stmt
            self.cur_frame = frame
            self.cur_expr = None
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
        if name in (torch_names("torch") or ()):  # a torch function agrad lacks: no look-alike
            hint = f" (PyTorch has torch.{name}; agrad does not implement it)"
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
