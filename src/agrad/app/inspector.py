"""The inspector's command bodies and sections (issue 14): ``agrad trace``, the
``--anomaly`` report, ``graph --flow`` and ``--versions``, ``check --nodes``.

Split from :mod:`.commands` (which calls these) to keep each file readable.
"""

from __future__ import annotations

from ..render.console import Output
from .commands import (EXIT_OK, EXIT_SCRIPT, _Live, _output, _script_error_code, _show_error,
                       _show_warnings, _start, _suggest, _target_note, _usage)


# ------------------------------------------------------------------ --anomaly

def anomaly_json(obj: dict, s, code: int) -> int:
    """Add the ``anomaly`` record; a run that made a non-finite value is not ok (exit 1)."""
    from .anomaly import anomaly_error
    record = s.anomaly.record()
    obj["anomaly"] = record
    if record["forward"] is None and record["backward"] is None:
        return code
    if obj.get("error") is None:
        obj["ok"] = False
        obj["error"] = anomaly_error(record)
    return code if code != EXIT_OK else EXIT_SCRIPT


def anomaly_text(out: Output, s, code: int) -> int:
    from .anomaly import report_lines
    record = s.anomaly.record()
    out.flush()
    for line in report_lines(record, s.sources, out.width):
        out.note(line)
    if record["forward"] is None and record["backward"] is None:
        return code
    return code if code != EXIT_OK else EXIT_SCRIPT


def flow_text(out, s, model) -> None:
    """The gradient-flow section after the tree (``--flow``)."""
    from ..render import flowview, traceview
    if not model.nodes:
        return
    lines = flowview.text_lines(model, flowview.flow_records(model, s.grads), out.width)
    if out.format == "rich":
        lines_rich(out, lines, traceview.STYLES)
    else:
        out.raw("".join(head + "".join(t for t, _s in parts) + "\n" for head, parts in lines))


def version_records(s, model) -> list:
    from .versions import version_records
    return version_records(s.versions, s.namespace if s.result is not None else {}, model.id_of)


def versions_text(out, s, model) -> None:
    """The version timeline after a graph or trace (``--versions``)."""
    from ..render import traceview, versionview
    records = version_records(s, model)
    if not records:
        out.info("agrad: no tensor was modified in place")
        return
    lines = versionview.text_lines(records, out.width)
    if out.format == "rich":
        lines_rich(out, lines, traceview.STYLES)
    else:
        out.raw("".join(head + "".join(t for t, _s in parts) + "\n" for head, parts in lines))


class NoGraph:
    """The graph of a run that failed: no node has an id."""

    @staticmethod
    def id_of(node):
        return None


# ------------------------------------------------------------------ trace

def run_trace(req, kw) -> int:
    from ..tensor import Tensor
    from ..render import graphmodel, traceview
    from .session import auto_backward, leaf_names, origin_fn

    out = _output(kw)
    fmt = out.format
    live = _Live(req, out, show_output=False)
    s, usage = _start(req, kw, trace=True)
    if usage is not None:
        return _usage(out, "trace", usage)
    rec = s.trace
    if s.error is None:
        if fmt != "json":
            _show_warnings(out, s.warnings[live.warned:])
        t = s.target
        if not s.result.backward_ran:
            if not isinstance(t, Tensor) or not t._requires_grad:
                why = ("the script bound no tensor" if s.target_name is None else
                       f"the target {s.target_name} " + ("is not a tensor" if not isinstance(t, Tensor)
                                                         else "does not require grad"))
                return _usage(out, "trace", f"nothing to trace: the script ran no backward pass and {why}"
                              + _suggest(s))
            n_warn = len(s.warnings)
            b = auto_backward(s, retain_graph=True)
            out.info(b.note)
            if fmt != "json":
                _show_warnings(out, s.warnings[n_warn:])
        else:
            _target_note(out, s)
    elif fmt != "json":
        _show_warnings(out, s.warnings[live.warned:])
    steps = rec.executed(failed=s.error is not None)
    # ids as agrad graph gives them for the node where the pass started (the target's, when the
    # pass started from the target)
    root = steps[0].node if steps else None
    model = graphmodel.GraphModel(root, origins=origin_fn(s) if s.result is not None else None,
                                 leaf_names=leaf_names(s).get, collapse=True,
                                 max_depth=graphmodel.depth_for_width(out.width))
    node_id = kw.get("node")
    if node_id is not None and not (0 <= node_id < len(model.nodes)):
        return _usage(out, "trace", f"--node {node_id}: the graph has nodes #0–#{len(model.nodes) - 1}"
                      if model.nodes else f"--node {node_id}: there is no graph")
    view = traceview.TraceView(steps, model, limit=kw.get("limit"), node_id=node_id,
                               collapse=not kw.get("expand"), failed=s.error is not None)
    code = EXIT_OK if s.error is None else _script_error_code(s.error)
    if fmt == "json":
        from ..render.evalview import error_json
        obj = traceview.trace_json(view, s.target_name, rec.passes)
        obj["versions"] = version_records(s, model)
        obj["ok"] = s.error is None
        obj["error"] = error_json(s.error) if s.error is not None else None
        out.json(obj)
        return code
    header = _trace_header(rec, view)
    if fmt == "rich":
        lines_rich(out, traceview.text_lines(view, out.width, header), traceview.STYLES)
    else:
        out.raw("".join(head + "".join(t for t, _s in parts) + "\n"
                        for head, parts in traceview.text_lines(view, out.width, header)))
    if s.versions is not None and s.versions.timelines:
        versions_text(out, s, model)
    if s.error is not None:
        out.flush()
        _show_error(out, s.error)
    return code


def _trace_header(rec, view) -> str:
    if not rec.passes:
        return "no backward pass ran"
    which = f"backward pass {rec.passes} of {rec.passes}" if rec.passes > 1 else "the backward pass"
    return f"{which}: {view.total} steps in the engine's order"


def lines_rich(out, lines, styles) -> None:
    from rich.text import Text
    console = out.console
    text = Text(no_wrap=True, overflow="ignore")
    n = 0
    for head, parts in lines:
        if n:
            text.append("\n")
        text.append(head, style="dim")
        for piece, style in parts:
            text.append(piece, style=styles.get(style) or None)
        n += 1
        if n >= 2000:
            console.print(text, soft_wrap=True)
            text = Text(no_wrap=True, overflow="ignore")
            n = 0
    if n:
        console.print(text, soft_wrap=True)


def node_records(s, t, params, samples, width):
    """``check --nodes``: each node's backward checked alone; records and text lines, or the
    reason the graph cannot be replayed."""
    from ..render import graphmodel
    from ..render.graphview import fit_parts, fmt_num
    from .check import CheckError
    from .nodecheck import check_nodes
    from .session import leaf_names, origin_fn
    try:
        results = check_nodes(t, s.calls or {}, samples=samples, **params)
    except CheckError as exc:
        return str(exc)
    model = graphmodel.GraphModel(t._grad_fn, origins=origin_fn(s), leaf_names=leaf_names(s).get,
                                 max_depth=graphmodel.depth_for_width(width))
    records, lines = [], [("", []), ("", fit_parts("", [(
        "each node alone, in float64: its backward against central differences", "id")],
        width))]
    first = None
    for r in results:
        gn = model.nodes[model.id_of(r.node)]
        o = gn.origin
        rec = {"id": gn.id, "node": r.name, "source": o.where if o else None,
               "span": list(o.span) if o is not None and o.span is not None else None,
               "text": o.text if o else None, "checked": r.checked,
               "max_abs_error": _json_num(r.max_abs_error), "passed": r.passed, "note": r.note}
        records.append(rec)
        if not r.passed and first is None:
            first = rec
        parts = [(f"#{gn.id}", "id"), (" ", ""), (r.name, "name"), ("  ", "")]
        if r.note:
            parts.append((r.note, "grad"))
        else:
            parts += [(f"checked {r.checked}  max_abs_error {fmt_num(r.max_abs_error)}", "grad"),
                      ("  ", ""), ("ok" if r.passed else "MISMATCH", "saved" if r.passed else "hook")]
        lines.append(("  ", fit_parts("  ", parts, width)))
    if first is not None:
        where = f"{first['source']}:{first['span'][1]}" if first["span"] else (first["source"] or "")
        parts = [("first wrong node: ", "hook"), (f"#{first['id']}", "id"), (" ", ""),
                 (first["node"], "name")]
        if first["text"]:
            parts += [("  ", ""), (first["text"], "label")]
        if where:
            parts += [("  ", ""), (where, "where")]
        lines.append(("", fit_parts("", parts, width)))
    else:
        lines.append(("", fit_parts("", [("every node's backward agrees with its forward", "saved")],
                                    width)))
    return {"nodes": records, "first_wrong": first, "lines": lines}


def _json_num(x):
    from ..render.records import json_float
    return json_float(float(x))


