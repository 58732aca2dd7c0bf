"""agrad's script language: a safe subset of Python with PyTorch in scope.

The API the CLI uses::

    from agrad.lang import Source, run, eval_expression, ScriptError, ScriptSyntaxError

    result = run([Source("model.py", text), Source("<expr 1>", "loss = l4.mean()")],
                 bindings={"x": some_tensor}, timeout=2.0)

``run(sources, bindings=None, *, timeout=None, max_elements=None,
max_depth=200, max_nesting=100) -> RunResult``
    Parses every source (a :class:`Source`, a list of them, or a plain
    string), then runs them in order as one script in one namespace
    (SPEC §3: files first, then ``-e`` snippets).  ``bindings`` are bound
    before the script runs (``--set``/``--param``).  It never raises for a
    problem of the script: syntax errors, runtime errors, limits and the
    timeout all come back in ``RunResult.error``.  The script runs in a
    worker thread (with a large stack); with ``timeout`` the call returns
    after that many seconds even if the worker is stuck in one long numpy
    call -- ``RunResult.timed_out`` is then True and
    ``RunResult.worker_alive`` says whether the thread is still running (the
    CLI should then end the process; :func:`arm_hard_exit` is a last resort
    for a call that holds the GIL).  ``max_elements`` (default: the current
    ``agrad._limits`` setting) bounds tensors, lists, strings, ranges and
    integers (in bits); ``max_depth`` bounds script recursion;
    ``max_nesting`` bounds expression/block nesting.  ``on_output(text)``
    is called with each piece of output as the script prints it, and
    ``on_warning(ScriptWarning)`` with each warning as it is raised (in the
    worker thread; the CLI streams them).  ``loop_watch`` (the CLI's progress
    bar and ``--plot``) is told of each ``for``/``while`` loop and each of its
    finished iterations (see ``Interpreter.loop_watch``).

:class:`RunResult`
    ``namespace``: the script's top-level variables (and the bindings) in
    order of first binding, without modules, functions, lambdas and classes;
    ``stdout``: what the script printed; ``warnings``: list of
    :class:`ScriptWarning` (``.category``, ``.message``, ``.source``,
    ``.line``, ``.render()``), each (category, message, line) once;
    ``last_value``/``has_last_value``: the value of a final bare
    expression statement if not None (the CLI's ``_``);
    ``last_tensor_name``: the name bound by the last top-level assignment
    whose value was a tensor; ``target_name``: ``"_"`` or that name (SPEC §3
    target rule); ``backward_ran``: whether ``backward()`` or
    ``autograd.grad()``/``autograd.backward()`` ran; ``assignments``: list
    of :class:`Assignment` (name, value, source, line, text) for each
    top-level assignment of a tensor, in order (for ``agrad graph``'s
    "source of the tensor"); ``error``: None or a :class:`ScriptError`
    (``isinstance(err, ScriptSyntaxError)`` for syntax errors: exit 2);
    ``ok``.

:class:`ScriptError` / :class:`ScriptSyntaxError`
    ``.type_name`` ("RuntimeError", "SyntaxError", ...), ``.message``,
    ``.source``, ``.line``, ``.column``, ``.end_line``, ``.end_column``
    (1-based, end exclusive), ``.stmt_line``, ``.render()`` (``file:line:col:
    Type: message``, the source line and carets), ``.to_dict()`` (the JSON
    error record).

``eval_expression(text, bindings=None, *, source_name="<set>", timeout=None)``
    Evaluates one expression (``--set NAME=VALUE``) and returns its value as
    is (``2`` stays an int); raises ScriptSyntaxError/ScriptError.
    ``parse_value`` is the same function.

``parse(sources, max_nesting=100)``
    Only parses (raises ScriptSyntaxError); returns the AST modules.
"""

from __future__ import annotations

import sys
import threading
import time
import types
import warnings as _warnings
from .errors import Record, ScriptError, ScriptSyntaxError, ScriptWarning, Source
from .._warn_once import issuing

__all__ = ["Source", "run", "RunResult", "Assignment", "eval_expression", "parse_value", "current_position", "current_span",
           "span_hook",
           "parse", "ScriptError", "ScriptSyntaxError", "ScriptWarning", "arm_hard_exit",
           "disarm_hard_exit",
           "DEFAULT_MAX_DEPTH", "DEFAULT_MAX_NESTING"]

DEFAULT_MAX_DEPTH = 200
DEFAULT_MAX_NESTING = 100
_STACK_SIZE = 256 * 1024 * 1024


class Assignment(Record):
    """A top-level ``name = <tensor>`` that ran: where a tensor came from."""

    _fields = ("name", "value", "source", "line", "text")

    def __init__(self, name: str, value: object, source: str, line: int, text: str):
        self.name = name
        self.value = value
        self.source = source
        self.line = line
        self.text = text


class RunResult(Record):
    """What :func:`run` and :func:`eval_expression` return.

    ``interpreter``: the interpreter that ran the script (its ``out`` list is
    where prints go: the CLI's automatic backward appends hook output there)."""

    _fields = ("namespace", "stdout", "warnings", "error", "last_value", "has_last_value",
               "last_tensor_name", "backward_ran", "timed_out", "worker_alive", "assignments",
               "interpreter")

    def __init__(self, namespace: dict, stdout: str, warnings: list, error: ScriptError | None = None,
                 last_value: object = None, has_last_value: bool = False,
                 last_tensor_name: str | None = None, backward_ran: bool = False,
                 timed_out: bool = False, worker_alive: bool = False, assignments: list | None = None,
                 interpreter: object = None):
        self.namespace = namespace
        self.stdout = stdout
        self.warnings = warnings
        self.error = error
        self.last_value = last_value
        self.has_last_value = has_last_value
        self.last_tensor_name = last_tensor_name
        self.backward_ran = backward_ran
        self.timed_out = timed_out
        self.worker_alive = worker_alive
        self.assignments = [] if assignments is None else assignments
        self.interpreter = interpreter

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def target_name(self) -> str | None:
        """SPEC §3: ``_`` when the script ends in a bare expression with a
        value, else the last top-level assignment of a tensor."""
        return "_" if self.has_last_value else self.last_tensor_name


def _as_sources(sources) -> list:
    if isinstance(sources, Source):
        return [sources]
    if isinstance(sources, str):
        return [Source("<script>", sources)]
    out = []
    for s in sources:
        out.append(s if isinstance(s, Source) else Source(f"<expr {len(out) + 1}>", str(s)))
    return out


def parse(sources, *, max_nesting: int = DEFAULT_MAX_NESTING):
    """Parse sources into AST modules (raises ScriptSyntaxError)."""
    from .parser import parse_script
    return [parse_script(s, max_nesting=max_nesting) for s in _as_sources(sources)]


def _visible(value) -> bool:
    from .runtime import ScriptFunction
    from .safety import MissingModule, ModuleProxy
    return not isinstance(value, (ModuleProxy, MissingModule, ScriptFunction, type,
                                  types.FunctionType, types.BuiltinFunctionType,
                                  types.MethodType, staticmethod, classmethod,
                                  types.ModuleType))


def _snapshot(d: dict) -> dict:
    for _ in range(20):
        try:
            return {k: v for k, v in list(d.items()) if _visible(v)}
        except RuntimeError:   # changed size while the worker still runs
            continue
    return {}


class _Job:
    def __init__(self, sources, bindings, mode, max_depth, max_nesting, on_output=None,
                 on_warning=None, loop_watch=None):
        from .interpreter import Interpreter
        self.sources = sources
        self.bindings = dict(bindings or {})
        self.mode = mode
        self.max_nesting = max_nesting
        self.interp = Interpreter(max_depth=max_depth)
        self.interp.sink = on_output
        self.interp.loop_watch = loop_watch
        self.on_warning_sink = on_warning
        self.error = None
        self.value = None
        self.warnings: list[ScriptWarning] = []
        self._seen = set()
        self.runs_before = None
        self.runs_after = None
        self.done = False

    # warnings raised by the engine while the script runs
    def on_warning(self, message, category, filename, lineno, file=None, line=None):
        try:
            fname = str(filename).replace("\\", "/")
            from_engine = issuing() or ("/agrad/" in fname and "/agrad/lang/" not in fname)
            if not from_engine and not issubclass(category, UserWarning):
                return
            stmt = self.interp.cur_stmt
            frame = self.interp.cur_frame
            src = frame.src if frame is not None else None
            ln = getattr(stmt, "line", None)
            key = (category.__name__, str(message), src.name if src else None, ln)
            if key in self._seen:
                return
            self._seen.add(key)
            w = ScriptWarning(category.__name__, str(message), src.name if src else None, ln,
                              src.line_text(ln) if (src is not None and ln) else "")
            self.warnings.append(w)
            if self.on_warning_sink is not None:
                self.on_warning_sink(w)
        except Exception:
            pass

    def work(self):
        from .runtime import ENGINE, Cancelled
        from .parser import parse_expression, parse_script
        import numpy as np
        interp = self.interp
        _running.interp = interp
        try:
            # numpy's error state is per thread: this one starts with numpy's
            # default, which would print "divide by zero encountered in log"
            # where PyTorch silently gives -inf
            # torch.set_num_threads, use_deterministic_algorithms, ...: the script's own, until it ends
            from ..settings import script_scope
            with _warnings.catch_warnings(), np.errstate(all="ignore"), script_scope():
                _warnings.simplefilter("always")
                _warnings.showwarning = self.on_warning
                try:
                    ENGINE.load()
                    self.runs_before = ENGINE.runs()
                    interp.globals.vars.update(self.bindings)
                    if self.mode == "expression":
                        src = self.sources[0]
                        node = parse_expression(src.text, src.name,
                                                max_nesting=self.max_nesting)
                        self.value = interp.eval_expression(node, src)
                    else:
                        modules = [parse_script(s, max_nesting=self.max_nesting)
                                   for s in self.sources]
                        for m, s in zip(modules, self.sources):
                            interp.run_module(m, s)
                except ScriptError as e:
                    self.error = e
                except Cancelled:
                    self.error = interp.wrap(Cancelled(), interp.cur_stmt, interp.cur_frame)
                except RecursionError as e:
                    self.error = ScriptError("RecursionError", str(e) or
                                             "maximum recursion depth exceeded")
                except MemoryError as e:
                    from .._limits import memory_limit_error
                    limit = memory_limit_error(e)
                    self.error = (ScriptError("LimitError", str(limit)) if limit is not None
                                  else ScriptError("MemoryError", "out of memory"))
                except BaseException as e:   # a bug in agrad: still no traceback
                    self.error = interp.wrap(e, interp.cur_stmt, interp.cur_frame)
                finally:
                    self.runs_after = ENGINE.runs()
        except BaseException as e:   # pragma: no cover
            if self.error is None:
                self.error = ScriptError(type(e).__name__, str(e))
        finally:
            self.done = True

    def result(self, timed_out=False, worker_alive=False) -> RunResult:
        from .runtime import ENGINE
        interp = self.interp
        backward = interp.backward_calls > 0
        if self.runs_before is not None and self.runs_after is not None:
            backward = backward or self.runs_after != self.runs_before
        elif self.runs_before is not None:
            now = ENGINE.runs()
            backward = backward or (now is not None and now != self.runs_before)
        last = interp.last_top_value
        if self.error is not None:
            last = None
        return RunResult(
            namespace=_snapshot(interp.globals.vars),
            stdout=interp.stdout(),
            warnings=list(self.warnings),
            error=self.error,
            last_value=last,
            has_last_value=last is not None,
            last_tensor_name=interp.last_tensor_name,
            backward_ran=backward,
            timed_out=timed_out,
            worker_alive=worker_alive,
            assignments=[Assignment(n, v, s.name, ln, text)
                         for (n, v, s, ln, text) in list(interp.assignments)],
            interpreter=interp,
        )


_run_lock = threading.Lock()


def _start_script_thread(work, patience=2.0):
    """Start the thread that runs a script, on its own big stack.  A run's ``join`` returns
    when the thread's Python state is gone, a moment before its OS thread has exited and
    its stack is unmapped; under a tight ``--max-memory`` (a data limit, which stacks count
    against) the next run's stack fits only once that has happened, so a failed start is
    retried for up to ``patience`` seconds before it counts."""
    deadline = time.monotonic() + patience
    while True:
        t = threading.Thread(target=work, name="agrad-script", daemon=True)
        try:
            t.start()
            return t
        except RuntimeError:  # "can't start new thread"
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.005)


def _execute(job: _Job, timeout, max_elements):
    from .. import _limits
    from .runtime import Cancelled

    old_limit = _limits.get_max_elements()
    if max_elements is not None:
        _limits.set_max_elements(max_elements)
    old_rec = sys.getrecursionlimit()
    want = 20000 + 40 * job.interp.max_depth
    if old_rec < want:
        sys.setrecursionlimit(want)
    old_stack = None
    try:
        old_stack = threading.stack_size(_STACK_SIZE)
    except (ValueError, RuntimeError):   # platform without it
        old_stack = None
    try:
        t = _start_script_thread(job.work)
    finally:
        if old_stack is not None:
            threading.stack_size(old_stack)
    timed_out = False
    try:
        t.join(timeout)
        if t.is_alive():
            timed_out = True
            job.interp.cancelled = True
            t.join(0.2)     # a Python-level loop stops at its next statement
    except BaseException:
        job.interp.cancelled = True
        raise
    alive = t.is_alive()
    if timed_out:
        err = job.error
        if err is None or alive or (err.exc is not None and isinstance(err.exc, Cancelled)):
            interp = job.interp
            stmt, frame = interp.cur_stmt, interp.cur_frame
            err = interp.wrap(Cancelled(), stmt, frame)
            err.message = (f"the script did not finish within {timeout:g} s (--timeout)"
                           + ("; it is still running in a worker thread" if alive else ""))
            err.args = (f"TimeoutError: {err.message}",)
        job.error = err
    if not alive:
        if max_elements is not None:
            _limits.set_max_elements(old_limit)
        if sys.getrecursionlimit() != old_rec:
            sys.setrecursionlimit(old_rec)
    return job.result(timed_out=timed_out, worker_alive=alive)


def run(sources, bindings=None, *, timeout: float | None = None,
        max_elements: int | None = None, max_depth: int = DEFAULT_MAX_DEPTH,
        max_nesting: int = DEFAULT_MAX_NESTING, on_output=None, on_warning=None,
        loop_watch=None) -> RunResult:
    """Run sources as one script; see the module docstring."""
    job = _Job(_as_sources(sources), bindings, "script", max_depth, max_nesting,
               on_output=on_output, on_warning=on_warning, loop_watch=loop_watch)
    return _execute(job, timeout, max_elements)


def eval_expression(text: str, bindings=None, *, source_name: str = "<set>",
                    timeout: float | None = None, max_elements: int | None = None,
                    max_depth: int = DEFAULT_MAX_DEPTH,
                    max_nesting: int = DEFAULT_MAX_NESTING):
    """Evaluate one expression and return its value (raises ScriptError)."""
    job = _Job([Source(source_name, text)], bindings, "expression", max_depth, max_nesting)
    res = _execute(job, timeout, max_elements)
    if res.error is not None:
        raise res.error
    return job.value


parse_value = eval_expression


_running = threading.local()  # the interpreter running in this thread, if any


def current_position():
    """(source name, line) of the statement the script is running in this thread,
    or None outside a script.  Engine hooks (the graph view's "which line made this
    node") call it while an op is being recorded."""
    interp = getattr(_running, "interp", None)
    if interp is None:
        return None
    stmt, frame = interp.cur_stmt, interp.cur_frame
    if stmt is None or frame is None:
        return None
    return (frame.src, stmt.line)


def current_span():
    """(source, line, column, end_column) of the sub-expression whose op is running
    in this thread (``x*w1`` of ``y = (x*w1).relu()``), columns 1-based and end
    exclusive; the whole statement's first line (column None) when no single-line
    sub-expression is running (an augmented assignment, a ``for`` over a tensor);
    None outside a script."""
    interp = getattr(_running, "interp", None)
    if interp is None:
        return None
    stmt, frame = interp.cur_stmt, interp.cur_frame
    if stmt is None or frame is None:
        return None
    expr = interp.cur_expr
    # one tuple per sub-expression (a loop's ops share it; an AST node is of one source)
    key = expr if expr is not None and expr.line == expr.end_line else stmt
    span = interp.spans.get(key)
    return span if span is not None else _new_span(interp, key, expr, stmt, frame)


def _new_span(interp, key, expr, stmt, frame):
    if key is expr:
        span = (frame.src, expr.line, expr.col, expr.end_col)
    elif stmt.line == stmt.end_line:
        span = (frame.src, stmt.line, stmt.col, stmt.end_col)
    else:
        span = (frame.src, stmt.line, None, None)
    interp.spans[key] = span
    return span


def span_hook(fallback):
    """A function ``note(node)`` for the engine's record hooks (``graph.record_hooks``, as a
    ``graph.NodeHook``: it reads the node alone) that notes on each node recorded while a
    script runs in this thread the :func:`current_span` of the op that made it: as the node's
    attribute ``_agrad_origin`` (an attribute, not ``node.__dict__[...]``: reading ``__dict__``
    makes Python build it), else, for a node without a ``__dict__``, in ``fallback[node]`` (a
    weak dictionary).  One call per op: the span is looked up here, not through current_span()."""
    running = _running

    def note(node):
        interp = getattr(running, "interp", None)
        if interp is None:
            return
        stmt = interp.cur_stmt
        frame = interp.cur_frame
        if stmt is None or frame is None:
            return
        expr = interp.cur_expr
        key = expr if expr is not None and expr.line == expr.end_line else stmt
        span = interp.spans.get(key)
        if span is None:
            span = _new_span(interp, key, expr, stmt, frame)
        try:
            node._agrad_origin = span
        except AttributeError:
            fallback[node] = span

    return note


def arm_hard_exit(seconds: float) -> None:
    """Last-resort watchdog for the CLI: end the process with status 1 after
    ``seconds`` even if a single C call holds the GIL (so that run()'s timeout
    cannot return).  Uses faulthandler's C thread; it writes nothing visible.
    Call :func:`disarm_hard_exit` when the run is over."""
    import faulthandler
    import os
    global _devnull
    if _devnull is None:
        _devnull = open(os.devnull, "w")
    faulthandler.dump_traceback_later(seconds, repeat=False, file=_devnull, exit=True)


def disarm_hard_exit() -> None:
    import faulthandler
    global _devnull
    faulthandler.cancel_dump_traceback_later()
    if _devnull is not None:
        _devnull.close()
        _devnull = None


_devnull = None
