"""``agrad graph``'s tree as text: a node's line, its extras (saved tensors, the
gradient that arrived), fitting a line to the terminal's width, and the plain
and rich renderings' shared line list.

The model it draws (ids, edges, the tree's lines) is :mod:`.graphmodel`; the
JSON, DOT and Mermaid exports are :mod:`.graphexport`.
"""

from __future__ import annotations

import numpy as np

from .graphmodel import GNode, GraphModel
from .records import json_float


# ------------------------------------------------------------------ node text

def fmt_shape(shape) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


def fmt_outputs(gn: GNode) -> str:
    if not gn.outputs:
        return ""
    return ", ".join(f"{fmt_shape(s)} {d}" for s, d in gn.outputs)


def node_parts(gn: GNode) -> list[tuple[str, str]]:
    """The pieces of a node line, each with a style name: id, name, meta, label, where."""
    parts = [(f"#{gn.id}", "id"), (" ", ""), (gn.name, "name")]
    out = fmt_outputs(gn)
    if out:
        parts += [("  ", ""), (out, "meta")]
    o = gn.origin
    if gn.is_leaf:
        parts += [("  ", ""), (gn.leaf, "var")]
        if o is not None and o.where:
            parts += [("  ", ""), (o.where, "where")]
    elif o is not None:
        label = o.text or (o.var and f"{o.var} = …")
        if label:
            parts += [("  ", ""), (label, "label")]
        if o.where:
            parts += [("  ", ""), (o.where_col, "where")]
    return parts


def ref_parts(gn: GNode) -> list[tuple[str, str]]:
    parts = [(f"↑ #{gn.id}", "ref"), (" ", ""), (gn.name, "refname")]
    if gn.is_leaf:
        parts += [(" ", ""), (f"({gn.leaf})", "refname")]
    return parts


def block_parts(gn: GNode) -> list[tuple[str, str]]:
    return [(f"↓ #{gn.id}", "ref"), (" ", ""), (gn.name, "refname")]


def run_parts(run) -> list[tuple[str, str]]:
    count, names, first, last = run
    return [(f"×{count}", "count"), (" ", ""), ("[" + " → ".join(names) + "]", "name"),
            ("  ", ""), (f"#{first}–#{last}", "id")]


def extra_lines(gn: GNode, saved: bool, grads) -> list[tuple[str, str]]:
    """(text, style) lines under a node: saved tensors, the gradient that arrived."""
    out = []
    if saved:
        info = saved_info(gn.node)
        for name, shape, dtype, version, freed in info:
            text = f"saved {name}  {fmt_shape(shape)} {dtype}  version {version}"
            if freed:
                text += "  freed"
            out.append((text, "saved"))
    if grads is not None:
        g = grads.get(gn.node)
        if g is None:
            out.append(("grad: (none arrived)", "grad"))
        else:
            out.append(("grad " + fmt_grad(g), "grad"))
    return out


def saved_info(node):
    """(name, shape, dtype, version, freed) of each tensor ``node`` saved for backward."""
    fn = getattr(node, "saved_tensors_info", None)
    if fn is None:
        return []
    return [(n, s, d, v, f) for n, s, d, v, f in fn()]


# ------------------------------------------------------------------ gradients

def grad_summary(tensor) -> dict:
    """shape, norm, min, max, nonfinite of a gradient (JSON ``grad`` of a node)."""
    data = np.asarray(tensor._data)
    if data.dtype.kind == "b":
        data = data.astype(np.float64)
    d64 = data.astype(np.float64, copy=False)
    finite = np.isfinite(d64)
    nonfinite = not bool(finite.all())
    if d64.size == 0:
        return {"shape": list(data.shape), "norm": 0.0, "min": None, "max": None, "nonfinite": False}
    with np.errstate(all="ignore"):
        norm = float(np.sqrt(np.sum(d64 * d64)))
    return {"shape": list(data.shape), "norm": json_float(norm),
            "min": json_float(float(np.min(d64))), "max": json_float(float(np.max(d64))),
            "nonfinite": nonfinite}


def fmt_num(x) -> str:
    if isinstance(x, str) or x is None:
        return str(x)
    if x == 0:
        return "0"
    if abs(x) >= 1e5 or abs(x) < 1e-4:
        return f"{x:.4e}"
    return f"{x:.4f}".rstrip("0").rstrip(".") if "." in f"{x:.4f}" else f"{x:.4f}"


def fmt_grad(summary: dict) -> str:
    text = (f"{fmt_shape(summary['shape'])}  norm={fmt_num(summary['norm'])}  "
            f"min={fmt_num(summary['min'])}  max={fmt_num(summary['max'])}")
    if summary["nonfinite"]:
        text += "  NONFINITE"
    return text


# ------------------------------------------------------------------ text

def text_lines(model: GraphModel, *, saved=False, grads=None, width=None):
    """The tree as (prefix, [(text, style)]) lines: plain and rich rendering share it.

    With ``width``, no line is longer: the statement's source text gives way
    first, then the ``file:line``, then the shape; the tree's guides never do.
    """
    nodes = model.nodes
    # when one line must drop the directories of its file:line, every line does (so they agree)
    short = width is not None and any(
        len(ln.prefix) + len(ln.conn) + sum(len(t) for t, _s in node_parts(nodes[ln.gid])) + 3 > width
        and any(st == "where" and "/" in t for t, st in node_parts(nodes[ln.gid]))
        for ln in model.lines if ln.kind == "node")
    for ln in model.lines:
        head = ln.prefix + ln.conn
        if ln.kind == "node":
            gn = nodes[ln.gid]
            parts = node_parts(gn) + ([("  ", ""), ("↓", "ref")] if ln.below else [])
            if short:
                parts = [(t.rsplit("/", 1)[1], st) if st == "where" and "/" in t else (t, st)
                         for t, st in parts]
            yield head, fit_parts(head, parts, width)
            if saved or grads is not None:
                body = ln.prefix + ("│  " if ln.conn == "├─ " else "   " if ln.conn == "└─ " else "")
                guide = body + ("│    " if ln.more else "     ")
                for text, style in extra_lines(gn, saved, grads):
                    yield guide, fit_parts(guide, [(text, style)], width)
        elif ln.kind == "ref":
            yield head, fit_parts(head, ref_parts(nodes[ln.gid]), width)
        elif ln.kind == "block":
            yield "", []
            yield head, fit_parts(head, block_parts(nodes[ln.gid]), width)
        else:
            parts = run_parts(ln.run) + ([("  ", ""), ("↓", "ref")] if ln.below else [])
            yield head, fit_parts(head, parts, width)


#: How a line too wide gives way, in order: (part style, shortest it may be cut to; 0 = may go).
_GIVE_WAY = (("label", 12), ("where", 0), ("label", 0), ("meta", 0), ("var", 6), ("refname", 6),
             ("saved", 10), ("grad", 10), ("name", 10))


def fit_parts(head: str, parts: list, width: int | None) -> list:
    """``parts`` cut (``…``) or left out so that ``head`` + parts fits in ``width``.

    The source text gives way first (to 12 characters), then ``file:line``
    (a path first loses its directories), the rest of the source text, the
    shapes; the tree's guides and the node's id never do.
    """
    if width is None:
        return parts
    total = len(head) + sum(len(t) for t, _s in parts)
    if total <= width:
        return parts
    parts = list(parts)
    for i, (text, style) in enumerate(parts):
        if style == "where" and "/" in text:
            short = text.rsplit("/", 1)[1]
            total -= len(text) - len(short)
            parts[i] = (short, style)
    for style, floor in _GIVE_WAY:
        i = len(parts) - 1
        while i >= 0 and total > width:
            text, st = parts[i]
            if st == style and len(text) > floor:
                new_len = max(floor, len(text) - (total - width))
                if new_len <= 1:  # the part goes, with the spacing before it
                    start = i - 1 if i > 0 and parts[i - 1][1] == "" and parts[i - 1][0].isspace() else i
                    total -= sum(len(t) for t, _s in parts[start:i + 1])
                    del parts[start:i + 1]
                    i = start
                else:
                    parts[i] = (text[:new_len - 1] + "…", st)
                    total -= len(text) - new_len
            i -= 1
        if total <= width:
            return parts
    # still too wide (a very narrow width): cut the line's end
    room = max(1, width - len(head))
    text = "".join(t for t, _s in parts)
    return [(text[:room - 1] + "…", "")]


def render_text(model: GraphModel, write, *, saved=False, grads=None, width=None) -> None:
    """Plain text: one line per call of ``write``."""
    for head, parts in text_lines(model, saved=saved, grads=grads, width=width):
        write(head + "".join(t for t, _s in parts))


STYLES = {
    "id": "dim", "name": "bold cyan", "meta": "green", "label": "", "where": "dim",
    "var": "bold yellow", "ref": "magenta", "refname": "dim", "count": "bold magenta",
    "saved": "blue", "grad": "yellow",
}
