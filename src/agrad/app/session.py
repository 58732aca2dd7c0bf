"""One CLI run: read the inputs, run the script, pick the target, backward.

The commands in :mod:`agrad.cli` build a :class:`Request` from their
options and call :func:`run_session`; what comes back (:class:`Session`)
holds everything the renderers show: the script's result, the target, what
the automatic backward pass did, where each graph node came from, and (for
``--grads``) the gradients that reached each node.

Problems with the inputs raise :class:`UsageError` (exit 2); problems of
the script are in ``Session.error`` (a ``ScriptError``).
"""

from __future__ import annotations

import os
import sys
import warnings

from .inputs import InputError, as_param, file_tensor, is_file_value, plan_lazy_chunks, split_binding


class UsageError(Exception):
    """A usage error: bad option value, unreadable SOURCE or @file, unknown --of."""


class Request:
    """The options of one command: inputs, engine settings, the target."""

    def __init__(self, files=(), exprs=(), sets=(), params=(), dtype=None, seed=None,
                 max_elements=None, timeout=None, of=None, backend=None):
        self.files, self.exprs, self.sets, self.params = files, exprs, sets, params
        self.dtype, self.seed, self.max_elements, self.timeout = dtype, seed, max_elements, timeout
        self.of = of
        self.backend = backend  # app.backend.Config, None for numpy
        # streaming (set by the commands): called as the script prints / warns
        self.on_output = None
        self.on_warning = None
        self.loop_watch = None  # app.loops.LoopWatch: the progress bar and --plot


class Backward:
    """What agrad did about the automatic backward pass (SPEC §3)."""

    def __init__(self, auto: bool, of, note: str):
        self.auto = auto  # agrad ran target.backward()
        self.of = of
        self.note = note  # the one line for standard error ("" when there is nothing to say)


class Session:
    """A finished run: the script's result and what the views need from it."""

    def __init__(self, request, result, sources, bindings, *, stdout="", warnings=(), error=None,
                 origins=None, interp=None):
        self.request = request
        self.result = result  # lang RunResult
        self.sources = sources
        self.bindings = bindings
        self.stdout = stdout
        self.warnings = list(warnings)
        self.error = error  # ScriptError | None
        self.target_name = None
        self.target = None
        self.target_reason = None  # a key of app.target.REASONS
        self.roots = None  # app.target.BackwardRoots of the run
        self.backward = None  # Backward
        self.origins = origins if origins is not None else {}  # node -> (Source, line, col, end_col)
        self.grads = None  # node -> grad summary (--grads)
        self.calls = None  # node -> recorded call (agrad check)
        self.interp = interp
        self.observer = None  # the --grads observer, installed again for the automatic backward
        self.anomaly = None  # the --anomaly watch (app.anomaly.AnomalyWatch), likewise
        self.trace = None  # agrad trace's recorder (app.trace.TraceRecorder), likewise
        self.versions = None  # app.versions.VersionRecorder: who bumped each version

    @property
    def namespace(self) -> dict:
        ns = dict(self.result.namespace) if self.result is not None else dict(self.bindings)
        if self.result is not None and self.result.has_last_value:
            ns["_"] = self.result.last_value
        return ns


# ------------------------------------------------------------------ sources

MAX_SOURCE = 16 << 20  # bytes (characters on standard input) of one script


def _too_large(what: str) -> UsageError:
    return UsageError(f"cannot read {what}: it holds more than {MAX_SOURCE >> 20} MiB, "
                      "too large for a script")


def _piped(stream) -> bool:
    """A standard input that is open and not a terminal: a pipe or a redirected file."""
    if stream is None:
        return False
    try:
        return not stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def read_sources(files, exprs, stdin=None):
    """SOURCE files (``-`` is standard input) then ``-e`` snippets, as lang Sources."""
    from ..lang import Source

    out = []
    used_stdin = False
    implicit = False
    if not files and not exprs and _piped(stdin if stdin is not None else sys.stdin):
        files, implicit = ["-"], True  # `agrad eval < model.py`: a piped stdin is the script
    for path in files:
        if path == "-":
            if used_stdin:
                raise UsageError("'-' (standard input) can be given only once")
            used_stdin = True
            stream = stdin if stdin is not None else sys.stdin
            if stream is None:
                raise UsageError("cannot read standard input: it is closed")
            try:
                text = stream.read(MAX_SOURCE + 1)
            except UnicodeDecodeError:
                raise UsageError("cannot read standard input: it is not UTF-8 text") from None
            except OSError as exc:
                raise UsageError(f"cannot read standard input: {exc.strerror or exc}") from None
            if isinstance(text, bytes):
                text = text.decode("utf-8", errors="replace")
            if len(text) > MAX_SOURCE:
                raise _too_large("standard input")
            if implicit and not text.strip():
                raise UsageError("no script given (standard input is empty): pass a SOURCE file, "
                                 "'-' for standard input, or -e CODE")
            out.append(Source("<stdin>", text))
            continue
        try:
            with open(path, "rb") as f:
                import stat
                mode = os.fstat(f.fileno()).st_mode
                if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
                    raise UsageError(f"cannot read {path!r}: it is a device, not a script")
                data = f.read(MAX_SOURCE + 1)
        except FileNotFoundError:
            raise UsageError(f"cannot read {path!r}: no such file") from None
        except IsADirectoryError:
            raise UsageError(f"cannot read {path!r}: it is a directory") from None
        except PermissionError:
            raise UsageError(f"cannot read {path!r}: permission denied") from None
        except OSError as exc:
            raise UsageError(f"cannot read {path!r}: {exc.strerror or exc}") from None
        if len(data) > MAX_SOURCE:
            raise _too_large(repr(path))
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise UsageError(f"cannot read {path!r}: it is not UTF-8 text") from None
        out.append(Source(path, text))
    for i, code in enumerate(exprs, 1):
        out.append(Source(f"<expr {i}>", code))
    if not out:
        raise UsageError("no script given: pass a SOURCE file, '-' for standard input, or -e CODE")
    return out


# ------------------------------------------------------------------ bindings

def make_bindings(sets, params, *, max_elements=None, timeout=None) -> dict:
    """``--set`` then ``--param`` values, evaluated in order (later ones see earlier ones)."""
    from ..lang import ScriptError, eval_expression

    bindings: dict = {}
    plan_lazy_chunks([("--set", t) for t in sets] + [("--param", t) for t in params])
    for option, items in (("--set", sets), ("--param", params)):
        for text in items:
            try:
                name, value = split_binding(option, text)
                if is_file_value(value):
                    v = file_tensor(option, value, max_elements)
                else:
                    try:
                        v = eval_expression(value, dict(bindings), source_name=f"<{option} {name}>",
                                            timeout=timeout, max_elements=max_elements)
                    except ScriptError as err:
                        raise InputError(f"{option} {name}={value}: {err.type_name}: {err.message}") from None
                if option == "--param":
                    try:
                        v = as_param(v)
                    except Exception as exc:
                        raise InputError(
                            f"--param {name}={value}: cannot make a tensor that requires grad of it: "
                            f"{exc}") from None
            except InputError as exc:
                raise UsageError(str(exc)) from None
            bindings.pop(name, None)
            bindings[name] = v
    return bindings


# ------------------------------------------------------------------ where nodes come from

class _NodeOrigins:
    """While installed, notes where in the script each graph node was made:
    ``(Source, line, column, end_column)`` of the sub-expression whose op made it
    (columns None when only the line is known); ``get(node)`` reads it.

    The language's record hook (``lang.span_hook``, one of the engine's
    ``graph.record_hooks``, a ``graph.NodeHook``: it reads the node alone) notes it.  The note is kept on the node itself (freed
    with it: a training loop's old graphs go as they went), else, for a node
    without a ``__dict__``, in a weak dictionary.
    """

    def __init__(self):
        import weakref
        self.others = weakref.WeakKeyDictionary()
        self._hook = None

    def get(self, node, default=None):
        try:  # not getattr: a node's __getattr__ looks for saved tensors
            return object.__getattribute__(node, "_agrad_origin")
        except AttributeError:
            return self.others.get(node, default)

    def __enter__(self):
        from ..autograd import graph
        from ..lang import span_hook
        self._hook = graph.NodeHook(span_hook(self.others))
        graph.record_hooks.append(self._hook)
        return self

    def __exit__(self, *exc):
        from ..autograd import graph
        graph.record_hooks.remove(self._hook)
        return False


class _GradObserver:
    """Summaries of the gradients that reach each node during backward passes."""

    def __init__(self):
        import weakref
        self.grads = weakref.WeakKeyDictionary()

    def __call__(self, node, grads_by_output):
        g = grads_by_output.get(0)
        if g is None and grads_by_output:
            g = next((x for x in grads_by_output.values() if x is not None), None)
        if g is not None:
            from ..render.graphview import grad_summary
            self.grads[node] = grad_summary(g)

    def __enter__(self):
        from ..autograd import engine
        engine.observers.append(self)
        return self

    def __exit__(self, *exc):
        from ..autograd import engine
        try:
            engine.observers.remove(self)
        except ValueError:
            pass
        return False


# ------------------------------------------------------------------ the run

def run_session(req: Request, *, stdin=None, origins=True, observe_grads=False,
                record_calls=False, anomaly=False, capture=None, trace=False,
                versions=False) -> Session:
    """Run the script of ``req``; the target is chosen, nothing else is done yet.

    ``origins``: note where each graph node was made (``Session.origins``; the graph
    views and --anomaly read it): a record hook per op, which ``eval`` does without."""
    import contextlib

    import agrad
    from .. import dtypes
    from .. import lang

    if req.dtype is not None:
        agrad.set_default_dtype(dtypes._BY_NAME[req.dtype])
    if req.seed is not None:
        try:
            agrad.manual_seed(req.seed)
        except (ValueError, OverflowError, TypeError) as exc:
            raise UsageError(f"--seed {req.seed}: {exc}") from None
    if req.max_elements is not None:
        agrad._limits.set_max_elements(req.max_elements or None)
    sources = read_sources(req.files, req.exprs, stdin)
    if req.backend is not None:
        from . import backend
        try:
            backend.activate(req.backend)
        except backend.BackendError as exc:
            raise UsageError(str(exc)) from None
    max_el = agrad._limits.get_max_elements()
    bindings = make_bindings(req.sets, req.params, max_elements=max_el, timeout=req.timeout)

    origin_rec = _NodeOrigins()
    observer = _GradObserver() if observe_grads else None
    watch = None
    if anomaly:
        from .anomaly import AnomalyWatch, bindings_of
        watch = AnomalyWatch(bindings_of(req, bindings))
        watch.origins = origin_rec
    recorder = None
    from .target import BackwardRoots
    roots = BackwardRoots()
    with contextlib.ExitStack() as stack:
        if origins or anomaly:
            stack.enter_context(origin_rec)
        stack.enter_context(roots)
        if observer is not None:
            stack.enter_context(observer)
        if watch is not None:
            stack.enter_context(watch)
        from .versions import VersionRecorder
        # always: an in-place error names the statement that broke it (only in-place ops pay)
        versions_rec = stack.enter_context(VersionRecorder(saves=versions or trace))
        recorder_t = None
        if trace:
            from .trace import TraceRecorder
            recorder_t = stack.enter_context(TraceRecorder())
        if record_calls:
            from .check import Recorder
            recorder = stack.enter_context(Recorder())
        if capture is not None:  # agrad diff's record hook
            stack.enter_context(capture)
        # a script's set_detect_anomaly(True) lasts until the script ends, not into the next run
        from ..autograd.anomaly_mode import set_detect_anomaly
        stack.enter_context(set_detect_anomaly(False))
        try:
            result = lang.run(sources, bindings, timeout=req.timeout, max_elements=max_el,
                              on_output=req.on_output, on_warning=req.on_warning,
                              loop_watch=req.loop_watch)
        finally:
            if req.loop_watch is not None:
                req.loop_watch.finish()
    _agrad_hints(result.error)
    from .versions import version_hint
    version_hint(result.error, versions_rec)
    s = Session(req, result, sources, bindings, stdout=result.stdout,
                warnings=list(result.warnings), error=result.error,
                origins=origin_rec, interp=result.interpreter)
    if observer is not None:
        s.grads = observer.grads
        s.observer = observer
    s.anomaly = watch
    s.trace = recorder_t
    s.versions = versions_rec
    if recorder is not None:
        s.calls = recorder.calls
    s.roots = roots
    if result.error is None:
        _pick_target(s)
    return s


#: PyTorch's hints that name what agrad lacks, and what the CLI says instead.
_HINTS = {
    "Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
    "with torch.autograd.set_detect_anomaly(True, check_nan=False).":
    "Hint: look for an in-place operation on this tensor (a method ending in _, an indexed "
    "assignment, +=) after the operation that saved it.",
}


def _agrad_hints(err) -> None:
    """The engine speaks PyTorch's words (its goldens check them); the CLI's hints name only
    what agrad has."""
    message = getattr(err, "message", None)
    if not isinstance(message, str):
        return
    for theirs, ours in _HINTS.items():
        if theirs in message:
            err.message = message = message.replace(theirs, ours)
            err.args = (f"{err.type_name}: {message}",)


def _pick_target(s: Session) -> None:
    from ..tensor import Tensor

    ns = s.namespace
    of = s.request.of
    if of is not None:
        if of not in ns:
            known = [k for k, v in ns.items() if isinstance(v, Tensor)]
            hint = f"; tensors: {', '.join(known)}" if known else "; the script bound no tensor"
            raise UsageError(f"--of {of}: the script bound no variable {of!r}{hint}")
        s.target_name, s.target, s.target_reason = of, ns[of], "of"
        return
    from .target import choose
    s.target_name, s.target, s.target_reason = choose(ns, s.result, s.roots)


def describe(value) -> str:
    from ..tensor import Tensor
    if isinstance(value, Tensor):
        return "a tensor"
    if value is None:
        return "None"
    kind = type(value).__name__
    return f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind}"


def auto_backward(s: Session, *, enabled=True, retain_graph=False) -> Backward:
    """SPEC §3's rule: run ``target.backward()`` if the script made no backward pass."""
    from ..tensor import Tensor

    from .target import REASONS, suggest_of

    name, t = s.target_name, s.target
    if not enabled:
        b = Backward(False, None, "agrad: no automatic backward (--no-backward)")
    elif s.result.backward_ran:
        b = Backward(False, None, "")  # the script made its own: nothing to say
    elif name is None:
        b = Backward(False, None, "")  # nothing autograd-related to say
    elif not isinstance(t, Tensor):
        b = Backward(False, None, f"agrad: no automatic backward: the target {name} is {describe(t)}, "
                                  "not a tensor" + _also(suggest_of(s.namespace, name)))
    elif not t._requires_grad:
        b = Backward(False, None, f"agrad: no automatic backward: {name} does not require grad"
                     + _also(suggest_of(s.namespace, name)))
    elif t._data.size != 1:
        shape = "[" + ", ".join(map(str, t._data.shape)) + "]"
        how = suggest_of(s.namespace, name)
        b = Backward(False, None,
                     f"agrad: no automatic backward: {name} has shape {shape}, and backward() needs "
                     f"a scalar; {how + ', or ' if how else ''}reduce it ({name}.sum())")
    elif not t.dtype.is_floating_point:
        b = Backward(False, None, f"agrad: no automatic backward: {name} is {t.dtype.name}, not a float")
    else:
        why = ("the script made no backward pass" if s.target_reason in (None, "of")
               else f"{name}: {REASONS[s.target_reason]}")
        b = Backward(True, name, f"agrad: ran {name}.backward() ({why}; --no-backward skips it)")
        _run_backward(s, t, retain_graph)
    s.backward = b
    return b


def _also(suggestion: str) -> str:
    return f"; {suggestion}" if suggestion else ""


def _run_backward(s: Session, t, retain_graph: bool) -> None:
    """``t.backward()`` after the script, with its hooks' prints and warnings kept."""
    from .._limits import memory_limit_error
    from ..lang import ScriptError, ScriptWarning

    interp = s.interp
    before = len(interp.out) if interp is not None else 0
    where = _assignment_of(s, s.target_name)
    import contextlib
    with warnings.catch_warnings(record=True) as caught, (s.observer or contextlib.nullcontext()), \
            (s.anomaly or contextlib.nullcontext()), (s.trace or contextlib.nullcontext()):
        warnings.simplefilter("always")
        try:
            t.backward(retain_graph=retain_graph or None)
        except ScriptError as err:
            s.error = err
        except Exception as exc:  # the engine's error for the automatic call
            src, line, text = where
            kind, message = type(exc).__name__, str(exc)
            limit = memory_limit_error(exc) if isinstance(exc, MemoryError) else None
            if limit is not None:  # out of memory under --max-memory: agrad's limit error
                kind, message = "LimitError", str(limit)
            s.error = ScriptError(kind, message, source=src, line=line,
                                  column=None, source_line=text or "", exc=exc)
            s.error.auto_backward = True
        if s.error is not None:
            from .versions import version_hint
            _agrad_hints(s.error)
            version_hint(s.error, s.versions)
    if interp is not None and len(interp.out) > before:
        s.stdout += "".join(interp.out[before:])
    for w in caught:
        src, line, text = where
        s.warnings.append(ScriptWarning(w.category.__name__, str(w.message), src, line, text or ""))


def _assignment_of(s: Session, name):
    r = s.result
    for a in reversed(r.assignments or []):
        if a.name == name:
            return a.source, a.line, a.text
    return None, None, None


# ------------------------------------------------------------------ names and origins

def leaf_names(s: Session) -> dict:
    """AccumulateGrad node -> the name of its leaf (``w1``, ``pair[0]``, ``net.fc.weight``)."""
    from ..autograd.graph import accumulator_of
    from ..tensor import Tensor

    out: dict = {}
    seen = set()
    stack = [(name, v, 0) for name, v in reversed(list(s.namespace.items()))]
    while stack:
        name, v, depth = stack.pop()
        if isinstance(v, Tensor):
            acc = accumulator_of(v)
            if acc is not None and acc not in out:
                out[acc] = name
            continue
        if depth > 4 or id(v) in seen:
            continue
        if isinstance(v, (list, tuple)):
            seen.add(id(v))
            for i in range(len(v) - 1, -1, -1):
                stack.append((f"{name}[{i}]", v[i], depth + 1))
        elif isinstance(v, dict):
            seen.add(id(v))
            for k in reversed(list(v)):
                stack.append((f"{name}[{k!r}]", v[k], depth + 1))
        else:
            named = getattr(type(v), "named_parameters", None)
            if named is not None:
                seen.add(id(v))
                try:
                    items = list(v.named_parameters())
                except Exception:
                    items = []
                for pname, p in reversed(items):
                    stack.append((f"{name}.{pname}", p, depth + 1))
    return out


def node_vars(s: Session) -> dict:
    """Graph node -> the variable whose tensor it made (the last binding wins)."""
    from ..tensor import Tensor

    out: dict = {}
    for name, v in s.namespace.items():
        if isinstance(v, Tensor) and v._grad_fn is not None:
            out[v._grad_fn] = name
    for a in s.result.assignments or []:
        v = a.value
        if isinstance(v, Tensor) and v._grad_fn is not None:
            out.setdefault(v._grad_fn, a.name)
    return out


def origin_fn(s: Session):
    """``node -> Origin`` for the graph view."""
    from ..autograd.graph import AccumulateGrad
    from ..autograd.graph import accumulator_of
    from ..tensor import Tensor
    from ..render.graphmodel import Origin

    vars_ = node_vars(s)
    where = s.origins
    leaf_where: dict = {}
    for a in s.result.assignments or []:
        v = a.value
        acc = accumulator_of(v) if isinstance(v, Tensor) and v._grad_fn is None else None
        if acc is not None:
            leaf_where.setdefault(acc, (a.source, a.line, a.text))
    for name in s.bindings:
        v = s.bindings[name]
        acc = accumulator_of(v) if isinstance(v, Tensor) else None
        if acc is not None:
            opt = "--param" if v._requires_grad else "--set"
            leaf_where.setdefault(acc, (opt, None, None))

    made: dict = {}  # (where, var) -> Origin: the nodes of a loop share theirs

    def origin(node):
        if isinstance(node, AccumulateGrad):
            w = leaf_where.get(node)
            if w is None:
                return None
            return Origin(None, w[0], w[1], w[2])
        var = vars_.get(node)
        w = where.get(node)
        o = made.get((w, var))
        if o is None:
            o = made[(w, var)] = _origin(w, var)
        return o

    def many(nodes) -> list:
        """``[origin(node) for node in nodes]``, in bulk (10^5 nodes: a page's data)."""
        wget, vget, leaf_type = where.get, vars_.get, AccumulateGrad
        out = []
        add = out.append
        for node in nodes:
            if isinstance(node, leaf_type):
                add(origin(node))
                continue
            var, w = vget(node), wget(node)
            o = made.get((w, var))
            if o is None:
                o = made[(w, var)] = _origin(w, var)
            add(o)
        return out

    def _origin(w, var):
        if w is None:
            return Origin(var) if var else None
        src, line, col, end = w
        full = src.line_text(line) if line else ""
        if col is not None and full.strip() != full[col - 1:end - 1].strip():
            text = full[col - 1:end - 1].strip()
            if var:
                text = f"{var} = {text}"
            return Origin(var, src.name, line, text or None, (line, col, end))
        return Origin(var, src.name, line, full.strip() or None, (line, col, end) if col else None)

    origin.many = many
    return origin
