"""The bodies of ``agrad eval``, ``agrad graph`` and ``agrad check``.

Each takes the parsed options, runs a :mod:`.session`, hands the result to
the views, and returns the exit status.  Every outcome in ``--format json``
is exactly one JSON object on standard output.
"""

from __future__ import annotations

from ..render.console import Output

EXIT_OK, EXIT_SCRIPT, EXIT_USAGE, EXIT_MISMATCH, EXIT_INTERRUPT = 0, 1, 2, 3, 130

_state = {"hard_exit": False}


def set_hard_exit() -> None:
    _state["hard_exit"] = True


def hard_exit_pending() -> bool:
    """True when a timed-out script's thread is still running (the process must not wait)."""
    return _state["hard_exit"]


# ------------------------------------------------------------------ errors

def _usage_record(message: str) -> dict:
    return {"type": "UsageError", "message": message, "source": None, "line": None, "column": None}


def _empty_json(command, error: dict) -> dict:
    if command == "eval":
        return {"ok": False, "stdout": "", "warnings": [], "backward": None, "variables": {},
                "error": error}
    if command == "graph":
        return {"ok": False, "target": None, "root": None, "nodes": [], "edges": [], "groups": [],
                "error": error}
    if command == "check":
        return {"ok": False, "target": None, "leaves": [], "error": error}
    if command == "diff":
        return {"ok": False, "target": None, "order": None, "summed": None, "constants": [],
                "definitions": [], "derivatives": [], "error": error}
    if command in ("jacobian", "hessian"):
        from ..render.matrixview import matrix_json
        return matrix_json(error=error)
    if command == "trace":
        return {"ok": False, "target": None, "passes": 0, "total_steps": 0, "steps": [], "runs": [],
                "versions": [], "error": error}
    return {"ok": False, "error": error}


def report_usage_error(exc, command, as_json) -> int:
    """A click usage error (bad option, missing value): exit 2."""
    import sys
    message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
    if as_json:
        Output("json").json(_empty_json(command, _usage_record(message)))
    else:
        ctx = getattr(exc, "ctx", None)
        if ctx is not None:
            sys.stderr.write(ctx.get_usage() + "\n")
            sys.stderr.write(f"Try '{ctx.command_path} -h' for help.\n\n")
        sys.stderr.write(f"agrad: error: {message}\n")
    return EXIT_USAGE


def report_internal_error(exc, command, as_json) -> int:
    import sys
    message = f"internal error: {type(exc).__name__}: {exc} (run with --debug for a traceback)"
    if as_json:
        Output("json").json(_empty_json(command, {"type": "InternalError", "message": message,
                                                  "source": None, "line": None, "column": None}))
    else:
        sys.stderr.write(f"agrad: {message}\n")
    return EXIT_SCRIPT


def report_interrupt(as_json, command) -> None:
    import sys
    if as_json:
        try:
            Output("json").json(_empty_json(command, {"type": "KeyboardInterrupt",
                                                      "message": "interrupted", "source": None,
                                                      "line": None, "column": None}))
        except Exception:
            pass
    sys.stderr.write("agrad: interrupted\n")


def _usage(out: Output, command: str, message: str, anomaly: bool = False) -> int:
    if out.format == "json":
        obj = _empty_json(command, _usage_record(message))
        if anomaly:
            obj["anomaly"] = None  # nothing ran
        out.json(obj)
    else:
        out.note(f"agrad: error: {message}")
    return EXIT_USAGE


def _script_error_code(err) -> int:
    from ..lang import ScriptSyntaxError
    return EXIT_USAGE if isinstance(err, ScriptSyntaxError) else EXIT_SCRIPT


def _show_error(out: Output, err) -> None:
    text = err.render() if hasattr(err, "render") else str(err)
    if getattr(err, "auto_backward", False):
        text += "\n    (raised by the automatic backward pass; --no-backward skips it)"
    out.note(text)


def _show_warnings(out: Output, warnings) -> None:
    for w in warnings:
        out.note(w.render())


class _Live:
    """The script's output and warnings as they happen (issue 13: streaming).

    ``show_output``: print the script's output on standard output as it comes
    (eval in text and rich); it is kept in any case.  Warnings go to standard
    error as they are raised, except in JSON."""

    def __init__(self, req, out: Output, show_output: bool):
        from .contained import script_output
        self.out, self.warned = out, 0

        def output(text):
            script_output(out, text, show_output)

        req.on_output = output
        if out.format != "json":
            req.on_warning = self.warning

    def warning(self, w) -> None:
        self.warned += 1
        self.out.flush()
        self.out.note(w.render())
        self.out.flush()


def _output(kw) -> Output:
    return Output(kw["fmt"], width=kw.get("columns"), quiet=kw.get("quiet", False),
                  color=kw.get("color"))


def _loop_watch(kw):
    """The watch of the script's loops: the progress bar (standard error a terminal, not
    JSON, not --quiet) and ``--plot``; None when neither is wanted."""
    from . import contained
    send = None
    if kw.get("fmt") != "json" and not kw.get("quiet"):
        send = contained.progress_sender()
    plots = tuple(dict.fromkeys(kw.get("plot") or ()))
    if send is None and not plots:
        return None
    from .loops import LoopWatch
    return LoopWatch(plots, send)


def _start(req, kw, **flags):
    """Run the session; returns (session, None) or (None, usage message)."""
    from . import contained
    from .session import UsageError, run_session
    from .. import lang

    _state["hard_exit"] = False
    req.loop_watch = _loop_watch(kw)
    timeout = req.timeout
    if contained.active():
        timeout = None  # the parent process enforces it (and the child may not open a file)
    if timeout is not None:
        lang.arm_hard_exit(timeout + 5.0)
    try:
        s = run_session(req, **flags)
    except UsageError as exc:
        return None, str(exc)
    finally:
        if timeout is not None:
            lang.disarm_hard_exit()
    if s.result is not None and s.result.worker_alive:
        _state["hard_exit"] = True
    return s, None


# ------------------------------------------------------------------ eval

def run_eval(req, kw) -> int:
    from ..render import evalview

    anomaly = kw.get("anomaly", False)
    if anomaly:  # (only then: the contained child would compile it on every run)
        from . import inspector
    out = _output(kw)
    as_json = out.format == "json"
    live = _Live(req, out, show_output=not as_json)
    s, usage = _start(req, kw, anomaly=anomaly, origins=anomaly)  # no graph view: no origins
    if usage is not None:
        return _usage(out, "eval", usage, anomaly)
    if s.error is None:
        _show_warnings(out, [] if as_json else s.warnings[live.warned:])
        n_warn = len(s.warnings)
        from .session import auto_backward
        b = auto_backward(s, enabled=not kw["no_backward"])
        out.info(b.note)
        if not as_json:
            _show_warnings(out, s.warnings[n_warn:])
    elif not as_json:
        _show_warnings(out, s.warnings[live.warned:])
    plots = req.loop_watch.series if kw.get("plot") else None
    if as_json:
        obj = evalview.eval_json(s)
        code = EXIT_OK if s.error is None else _script_error_code(s.error)
        if plots is not None:
            obj["plots"] = {n: [_json_number(v) for v in p.values] for n, p in plots.items()}
            if s.error is None:
                problem = _plot_problem(plots)
                if problem is None and kw.get("plot_out"):
                    _write_svg(plots, kw["plot_out"])
                elif problem is not None:
                    obj["ok"], obj["error"] = False, _usage_record(problem)
                    code = EXIT_USAGE
        if anomaly:
            code = inspector.anomaly_json(obj, s, code)
        out.json(obj)
        return code
    if s.error is not None:
        if s.stdout and not s.stdout.endswith("\n"):
            out.raw("\n")
        out.flush()
        _show_error(out, s.error)
        code = _script_error_code(s.error)
        return inspector.anomaly_text(out, s, code) if anomaly else code
    namespace = {} if kw.get("no_table") else s.namespace
    if out.format == "rich":
        evalview.render_rich(out, s.stdout, namespace, streamed=True)
    else:
        evalview.render_text(out, s.stdout, namespace, streamed=True)
    code = inspector.anomaly_text(out, s, EXIT_OK) if anomaly else EXIT_OK
    if plots is not None:
        plot_code = _show_plots(out, plots, kw.get("plot_out"))
        code = code if code != EXIT_OK else plot_code
    return code


# ------------------------------------------------------------------ --plot

def _json_number(v: float):
    import math
    if math.isfinite(v):
        return v
    return "nan" if v != v else ("inf" if v > 0 else "-inf")


def _plot_problem(plots) -> str | None:
    """Why ``--plot`` cannot draw: a name no loop assigns, or a value that is not a scalar."""
    for name, p in plots.items():
        if p.problem is not None:
            return f"--plot {name}: {p.problem}"
        if p.where is None:
            return (f"--plot {name}: no loop of the script assigns {name} (--plot records a "
                    "variable at the end of each iteration of the loop that assigns it)")
    return None


def _write_svg(plots, path) -> None:
    from ..render.chart import svg_chart
    from .contained import write_file
    write_file(path, svg_chart(plots).encode("utf-8"))


def _show_plots(out: Output, plots, path) -> int:
    from ..render.chart import text_chart
    problem = _plot_problem(plots)
    if problem is not None:
        out.flush()
        out.note(f"agrad: error: {problem}")
        return EXIT_USAGE
    lines = []
    for p in plots.values():
        lines += [""] + text_chart(p, out.width)
    out.raw("\n".join(lines) + "\n")
    if path:
        out.flush()
        _write_svg(plots, path)
    return EXIT_OK


# ------------------------------------------------------------------ graph

#: ``-o FILE`` with ``--format auto``: the format its suffix names.
_SUFFIX_FORMATS = {".html": "html", ".htm": "html", ".svg": "svg", ".json": "json", ".dot": "dot",
                   ".gv": "dot", ".mmd": "mermaid", ".txt": "text"}


def run_graph(req, kw) -> int:
    path = kw.get("output")
    if not path:
        return _graph(req, kw, _output(kw))
    import io
    import os
    from .contained import write_file

    if kw["fmt"] == "auto":
        kw = {**kw, "fmt": _SUFFIX_FORMATS.get(os.path.splitext(path)[1].lower(), "auto")}
    buf = io.StringIO()
    code = _graph(req, kw, Output(kw["fmt"], out=buf, width=kw.get("columns"),
                                  quiet=kw.get("quiet", False), color=kw.get("color")))
    data = buf.getvalue()
    if data:  # what would have gone to standard output (nothing after a script error)
        write_file(path, data.encode("utf-8", "backslashreplace"))
    return code


def _graph(req, kw, out) -> int:
    from ..autograd.graph import leaf_node
    from ..tensor import Tensor
    from ..render import graphexport, graphmodel, graphview
    from .session import auto_backward, leaf_names, origin_fn

    fmt = out.format
    if fmt == "html":  # the page shows every node's saved tensors and gradient
        kw = {**kw, "saved": True, "grads": True}
    live = _Live(req, out, show_output=False)
    anomaly = kw.get("anomaly", False)
    versions = kw.get("versions", False)
    flow = kw.get("flow", False)
    if anomaly or versions or flow:  # (only then)
        from . import inspector
    s, usage = _start(req, kw, observe_grads=kw["grads"] or flow, anomaly=anomaly, versions=versions)
    if usage is not None:
        return _usage(out, "graph", usage, anomaly)
    if s.error is not None:
        return _graph_error(out, s, live.warned, versions)
    if fmt != "json":
        _show_warnings(out, s.warnings[live.warned:])
    t = s.target
    if t is not None and not isinstance(t, Tensor):
        if req.of is not None:
            from .session import describe
            return _usage(out, "graph", f"--of {req.of}: {req.of} is {describe(t)}, not a tensor")
        out.info(f"agrad: the target {s.target_name} is not a tensor: no graph to show"
                 + _suggest(s))
        t = None
    elif t is not None:
        _target_note(out, s)
    if kw["grads"] or anomaly or flow:
        n_warn = len(s.warnings)
        if not s.result.backward_ran and t is not None:
            b = auto_backward(s, retain_graph=True)
            out.info(b.note)
            if s.error is not None:
                return _graph_error(out, s, live.warned, versions)
            if fmt != "json":
                _show_warnings(out, s.warnings[n_warn:])
    root = None
    if t is None:
        if s.target_name is None:
            out.info("agrad: the script bound no tensor: no graph to show")
    elif t._grad_fn is not None:
        root = t._grad_fn
    elif t._requires_grad:
        root = leaf_node(t)
        if req.of is None:
            out.info(f"agrad: {s.target_name} is a leaf: its graph is one AccumulateGrad node"
                     + _suggest(s))
    else:
        out.info(f"agrad: {s.target_name} does not require grad: it has no graph" + _suggest(s))
    names = leaf_names(s)
    expand = kw.get("expand", False)
    model = graphmodel.GraphModel(root, origins=origin_fn(s), leaf_names=names.get, collapse=not expand,
                                 max_depth=graphmodel.depth_for_width(out.width))
    grads = s.grads if kw["grads"] else None
    saved = kw["saved"]
    if fmt == "json":
        obj = graphexport.graph_json(model, s.target_name, saved=saved, grads=grads, expand=expand)
        if versions:
            obj["versions"] = inspector.version_records(s, model)
        if flow:
            from ..render.flowview import flow_records
            obj["flow"] = flow_records(model, s.grads)
        obj["error"] = None
        code = inspector.anomaly_json(obj, s, EXIT_OK) if anomaly else EXIT_OK
        out.json(obj)
        return code
    elif fmt == "dot":
        graphexport.render_dot(model, s.target_name, out.line)
    elif fmt == "mermaid":
        graphexport.render_mermaid(model, s.target_name, out.line)
    elif fmt == "html":
        from ..render import htmlview
        htmlview.render_html(model, s.target_name, out.raw, grads=grads)
    elif fmt == "svg":
        from ..render import svgview
        svgview.render_svg(model, s.target_name, out.raw, grads=grads)
    elif fmt == "rich":
        _graph_rich(out, model, saved, grads)
        if flow:
            inspector.flow_text(out, s, model)
        if versions:
            inspector.versions_text(out, s, model)
    else:
        buf = []
        graphview.render_text(model, buf.append, saved=saved, grads=grads, width=out.width)
        if buf:
            out.raw("\n".join(buf) + "\n")
        if flow:
            inspector.flow_text(out, s, model)
        if versions:
            inspector.versions_text(out, s, model)
    return inspector.anomaly_text(out, s, EXIT_OK) if anomaly else EXIT_OK


def _suggest(s) -> str:
    """``; pass --of NAME (loss, l4)`` when another tensor would do, else nothing."""
    from .target import suggest_of
    how = suggest_of(s.namespace, exclude=s.target_name)
    return f"; {how}" if how else ""


def _target_note(out, s) -> None:
    """Which tensor ``graph`` and ``check`` are about, and why (not with --of, nor in JSON)."""
    if out.format == "json" or s.target_reason in (None, "of"):
        return
    from .target import note
    out.info(note(s.target_name, s.target_reason))


def _graph_error(out, s, warned=0, versions=False) -> int:
    from . import inspector
    code = _script_error_code(s.error)
    no_graph = inspector.NoGraph()
    if out.format == "json":
        from ..render.evalview import error_json
        obj = _empty_json("graph", error_json(s.error))
        if versions:
            obj["versions"] = inspector.version_records(s, no_graph)
        if s.anomaly is not None:
            code = inspector.anomaly_json(obj, s, code)
        out.json(obj)
    else:
        _show_warnings(out, s.warnings[warned:])
        if versions:  # the timeline up to the error: the in-place change that broke backward
            inspector.versions_text(out, s, no_graph)
            out.flush()
        _show_error(out, s.error)
        if s.anomaly is not None:
            code = inspector.anomaly_text(out, s, code)
    return code


def _graph_rich(out, model, saved, grads) -> None:
    from rich.text import Text
    from ..render.graphview import STYLES, text_lines

    console = out.console
    text = Text(no_wrap=True, overflow="ignore")
    n = 0
    for head, parts in text_lines(model, saved=saved, grads=grads, width=out.width):
        if n:
            text.append("\n")
        text.append(head, style="dim")
        for piece, style in parts:
            text.append(piece, style=STYLES.get(style) or None)
        n += 1
        if n >= 2000:  # print in batches: one huge Text is slow to lay out
            console.print(text, soft_wrap=True)
            text = Text(no_wrap=True, overflow="ignore")
            n = 0
    if n:
        console.print(text, soft_wrap=True)


# ------------------------------------------------------------------ check

def run_check(req, kw) -> int:
    from .check import CheckError, check_target
    from ..tensor import Tensor
    from ..render import checkview
    from .session import describe, leaf_names

    out = _output(kw)
    fmt = out.format
    live = _Live(req, out, show_output=False)
    s, usage = _start(req, kw, record_calls=True)
    if usage is not None:
        return _usage(out, "check", usage)
    if s.error is not None:
        if fmt == "json":
            from ..render.evalview import error_json
            out.json(checkview.check_json(target=s.target_name, error=error_json(s.error)))
        else:
            _show_warnings(out, s.warnings[live.warned:])
            _show_error(out, s.error)
        return _script_error_code(s.error)
    if fmt != "json":
        _show_warnings(out, s.warnings[live.warned:])
    t, name = s.target, s.target_name
    problem = None
    if name is None:
        problem = "the script bound no tensor: nothing to check"
    elif not isinstance(t, Tensor):
        problem = f"the target {name} is {describe(t)}, not a tensor: nothing to check" + _suggest(s)
    elif not t._requires_grad:
        problem = f"{name} does not require grad: nothing to check" + _suggest(s)
    elif t._grad_fn is None:
        problem = f"{name} is a leaf: there is no graph to check" + _suggest(s)
    elif not t.dtype.is_floating_point:
        problem = f"{name} is {t.dtype.name}: only float targets can be checked"
    if problem is not None:
        return _usage(out, "check", problem)
    _target_note(out, s)
    names = leaf_names(s)
    params = {"eps": kw["eps"], "atol": kw["atol"], "rtol": kw["rtol"]}

    def node_where(node):
        w = s.origins.get(node)
        return f"{w[0].name}:{w[1]}" if w else None

    try:
        report = check_target(t, name, s.calls or {}, leaf_names=names.get, samples=kw["samples"],
                              node_where=node_where, **params)
    except CheckError as exc:
        err = {"type": "CheckError", "message": str(exc), "source": None, "line": None, "column": None}
        if fmt == "json":
            out.json(checkview.check_json(target=name, error=err))
        else:
            out.note(f"agrad: cannot check {name}: {exc}")
        return EXIT_SCRIPT
    nodes = None
    if kw.get("nodes"):
        from . import inspector
        nodes = inspector.node_records(s, t, params, kw["samples"], out.width)
        if isinstance(nodes, str):  # the graph cannot be replayed node by node
            err = {"type": "CheckError", "message": nodes, "source": None, "line": None, "column": None}
            if fmt == "json":
                out.json(checkview.check_json(target=name, error=err))
            else:
                out.note(f"agrad: cannot check the nodes of {name}: {nodes}")
            return EXIT_SCRIPT
    nodes_ok = nodes is None or nodes["first_wrong"] is None
    if fmt == "json":
        error = None
        if not report.ok:
            error = {"type": "GradcheckError", "message": _mismatch_message(report),
                     "source": None, "line": None, "column": None}
            where = report.custom_failures[0][1] if report.custom_failures else None
            if where and ":" in where:
                src, _, line = where.rpartition(":")
                error["source"], error["line"] = src, int(line) if line.isdigit() else None
        elif not nodes_ok:
            bad = nodes["first_wrong"]
            error = {"type": "GradcheckError",
                     "message": f"the backward of {bad['node']} (#{bad['id']}) disagrees with its forward",
                     "source": bad["source"], "line": bad["span"][0] if bad["span"] else None,
                     "column": bad["span"][1] if bad["span"] else None}
        obj = checkview.check_json(report, error=error)
        if nodes is not None:
            obj["ok"] = obj["ok"] and nodes_ok
            obj["nodes"], obj["first_wrong"] = nodes["nodes"], nodes["first_wrong"]
        out.json(obj)
    else:
        if fmt == "rich":
            checkview.render_rich(out, report, params)
        else:
            checkview.render_text(out, report, params)
        if nodes is not None:
            from ..render import traceview
            lines = nodes["lines"]
            if fmt == "rich":
                inspector.lines_rich(out, lines, traceview.STYLES)
            else:
                out.raw("".join(head + "".join(t for t, _s in parts) + "\n" for head, parts in lines))
    return EXIT_OK if report.ok and nodes_ok else EXIT_MISMATCH


def _mismatch_message(report) -> str:
    failed = [leaf for leaf in report.leaves if not leaf.passed]
    parts = [f"analytic and numerical gradients of {report.target} disagree for "
             + ", ".join(leaf.name for leaf in failed)]
    if report.custom_failures:
        parts.append("the backward of custom Function "
                     + ", ".join(n for n, _w in report.custom_failures) + " disagrees with its forward")
    return "; ".join(parts)


# ------------------------------------------------------------------ jacobian, hessian

def run_derivative(kind: str, req, kw) -> int:
    """``agrad jacobian`` / ``agrad hessian``: the target's derivative matrix w.r.t. its leaves."""
    from . import derivatives
    from .session import leaf_names
    from ..render import matrixview
    from ..render.evalview import error_json

    out = _output(kw)
    fmt = out.format
    live = _Live(req, out, show_output=False)
    s, usage = _start(req, kw)
    if usage is not None:
        return _usage(out, kind, usage)
    if s.error is not None:
        if fmt == "json":
            out.json(matrixview.matrix_json(error=error_json(s.error)))
        else:
            _show_warnings(out, s.warnings[live.warned:])
            _show_error(out, s.error)
        return _script_error_code(s.error)
    if fmt != "json":
        _show_warnings(out, s.warnings[live.warned:])
    if s.target_name is None:
        return _usage(out, kind, "the script bound no tensor: nothing to differentiate")
    _target_note(out, s)
    compute = derivatives.jacobian if kind == "jacobian" else derivatives.hessian
    try:
        m = compute(s.target_name, s.target, leaf_names(s), _suggest(s))
    except derivatives.DerivativeError as exc:
        return _usage(out, kind, str(exc))
    except (RuntimeError, ValueError) as exc:   # e.g. the script's own backward freed the graph
        err = {"type": type(exc).__name__, "message": str(exc), "source": None, "line": None, "column": None}
        if fmt == "json":
            out.json(matrixview.matrix_json(error=err))
        else:
            out.note(f"agrad: cannot take the {kind} of {s.target_name}: {type(exc).__name__}: {exc}")
        return EXIT_SCRIPT
    if fmt == "json":
        out.json(matrixview.matrix_json(m))
    elif fmt == "rich":
        matrixview.render_rich(out, m)
    else:
        matrixview.render_text(out, m)
    return EXIT_OK


def run_jacobian(req, kw) -> int:
    return run_derivative("jacobian", req, kw)


def run_hessian(req, kw) -> int:
    return run_derivative("hessian", req, kw)
