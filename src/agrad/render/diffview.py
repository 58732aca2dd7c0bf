"""``agrad diff``'s views: text and rich (fitted to the width), LaTeX, JSON.

The result (``agrad.app.diff.Result``) holds the derivatives, each with its
expression (or the reason it has none) and its value, the named common
sub-expressions (``t1 = ...``) and the constants shown by name.

    t1 = exp(x*w)
    dy/dx = w*t1
          = 2.7183
"""

from __future__ import annotations

import numpy as np

from .records import array_json, short_value

STYLES = {"label": "bold cyan", "eq": "dim", "value": "green", "note": "yellow", "name": "bold"}


# ------------------------------------------------------------------ lines

def _breaks(text: str, words: bool = False):
    """Places where an expression may wrap: after ' + ', ' - ', '*', ', ', ' @ ' (outside nothing
    in particular: any of them keeps the text readable)."""
    out = []
    i = 0
    n = len(text)
    while i < n:
        for sep in ((" ",) if words else (" + ", " - ", " @ ", ", ", "*")):
            if text.startswith(sep, i):
                j = i + len(sep)
                if sep in (" + ", " - ", " @ ", " "):
                    out.append(i + 1)  # the operator starts the next line
                else:
                    out.append(j)
                i = j - 1
                break
        i += 1
    return out


def wrap(prefix: str, text: str, width: int, indent: int | None = None, words: bool = False) -> list[str]:
    """``prefix + text`` in lines of at most ``width`` characters, broken at operators;
    continuation lines are indented by ``indent`` (default: the prefix's length, or 4)."""
    if indent is None:
        indent = len(prefix) if len(prefix) <= width // 2 else 4
    indent = min(indent, max(width // 2, 0))
    lines = []
    line = prefix
    pos = 0
    points = _breaks(text, words)
    while pos < len(text):
        room = width - len(line)
        rest = text[pos:]
        if len(rest) <= room:
            line += rest.lstrip() if line.strip() == "" else rest
            pos = len(text)
            break
        cut = strong = None
        for p in points:
            if pos < p <= pos + room:
                cut = p
                if text[p:p + 2] in ("+ ", "- ", "@ ") and text[p - 1] == " ":
                    strong = p  # a break between terms reads best
        if strong is not None and strong - pos >= 0.6 * room:
            cut = strong
        if cut is None:
            cut = pos + max(room, 1)
        piece = text[pos:cut].rstrip()
        line += piece.lstrip() if line.strip() == "" else piece
        lines.append(line)
        line = " " * indent
        pos = cut
        while pos < len(text) and text[pos] == " ":
            pos += 1
    if line.strip() or not lines:
        lines.append(line)
    return lines


def _value(d, width) -> str:
    v = np.asarray(d.value)
    return short_value(v, d.dtype, width=max(width, 12))


def blocks(result, width: int):
    """[(kind, text)] lines: kinds 'def', 'label', 'cont', 'value', 'note', 'blank'."""
    out = []
    for name, arr in result.constants:
        arr = np.asarray(arr)
        if arr.size <= 8:
            for ln in wrap(f"{name} = ", f"tensor({short_value(arr, _dtype(arr), width=10**6)})", width):
                out.append(("def", ln))
        else:
            shape = "[" + ", ".join(map(str, arr.shape)) + "]"
            for ln in wrap(f"{name} = ", f"a constant of the script, shape {shape} (its value: --format json)",
                           width):
                out.append(("def", ln))
    for name, e in result.definitions:
        for ln in wrap(f"{name} = ", result.text(e), width):
            out.append(("def", ln))
    for d in result.derivatives:
        label = d.label
        if d.expr is not None:
            lines = wrap(f"{label} = ", result.text(d.expr), width)
            out.append(("label", lines[0]))
            out.extend(("cont", ln) for ln in lines[1:])
        else:
            for k, ln in enumerate(wrap(f"{label}: ", f"no symbolic form: {d.reason}", width, words=True)):
                out.append(("label" if k == 0 else "note", ln))
        pad = " " * (len(label) + 1) if len(label) + 1 <= width // 2 else "    "
        value = _value(d, width - len(pad) - 2)
        for ln in wrap(pad + "= ", value, width):
            out.append(("value", ln))
    return out


def _dtype(arr) -> str:
    return {"f": "float32" if arr.dtype == np.float32 else "float64", "b": "bool"}.get(
        arr.dtype.kind, str(arr.dtype))


def render_text(out, result) -> None:
    lines = [text for _, text in blocks(result, out.width)]
    if lines:
        out.raw("\n".join(lines) + "\n")


def render_rich(out, result) -> None:
    from rich.text import Text

    text = Text(no_wrap=True, overflow="ignore")
    for k, (kind, line) in enumerate(blocks(result, out.width)):
        if k:
            text.append("\n")
        if kind == "label":
            head, sep, rest = line.partition(" = ") if " = " in line else line.partition(": ")
            text.append(head, style=STYLES["label"])
            text.append(sep, style=STYLES["eq"])
            text.append(rest, style=STYLES["note"] if sep == ": " else None)
        elif kind == "def":
            head, sep, rest = line.partition(" = ")
            text.append(head, style=STYLES["name"])
            text.append(sep + rest)
        elif kind == "value":
            text.append(line, style=STYLES["value"])
        elif kind == "note":
            text.append(line, style=STYLES["note"])
        else:
            text.append(line)
    out.console.print(text, soft_wrap=True)


# ------------------------------------------------------------------ LaTeX

def render_latex(out, result) -> None:
    """One line per definition and derivative, ready for an ``align`` environment;
    values follow as LaTeX comments."""
    lines = latex_lines(result)
    if lines:
        out.raw("\n".join(lines) + "\n")


def latex_lines(result) -> list[str]:
    lines = []
    for name, arr in result.constants:
        lines.append(f"% {name}: a constant of the script, shape {list(np.asarray(arr).shape)}")
    for name, e in result.definitions:
        lines.append(f"{result.latex_name(name)} &= {result.latex(e)} \\\\")
    for d in result.derivatives:
        if d.expr is None:
            lines.append(f"% {d.label}: no symbolic form: {d.reason}")
            lines.append(f"{d.latex_label} &\\approx {_latex_value(d)} \\\\")
            continue
        lines.append(f"{d.latex_label} &= {result.latex(d.expr)} \\\\")
        lines.append(f"% {d.label} = {short_value(np.asarray(d.value), d.dtype, width=10**6)}")
    for k in range(len(lines) - 1, -1, -1):  # the last line of the align ends without a break
        if lines[k].endswith(" \\\\"):
            lines[k] = lines[k][:-3]
            break
    return lines


def _latex_value(d):
    v = np.asarray(d.value)
    if v.size == 1:
        return f"{float(v.reshape(-1)[0]):.6g}"
    return r"\text{" + short_value(v, d.dtype, width=60) + "}"


# ------------------------------------------------------------------ JSON

def _tensor_value(d):
    return array_json(np.asarray(d.value))


def diff_json(result, *, error=None) -> dict:
    """``{"ok", "target", "order", "summed", "constants", "definitions", "derivatives", "error"}``."""
    if result is None:
        return {"ok": False, "target": None, "order": None, "summed": None, "constants": [],
                "definitions": [], "derivatives": [], "error": error}
    ders = []
    for d in result.derivatives:
        rec = {"name": d.label, "of": d.of, "wrt": list(d.wrt), "symbolic": d.expr is not None,
               "expr": None, "latex": None, "tree": None, "reason": d.reason,
               "shape": list(np.asarray(d.value).shape), "dtype": d.dtype, "value": _tensor_value(d)}
        if d.expr is not None:
            rec["expr"], rec["latex"], rec["tree"] = result.text(d.expr), result.latex(d.expr), result.tree(d.expr)
        ders.append(rec)
    order = max((len(d.wrt) for d in result.derivatives), default=1)
    return {"ok": True, "target": result.target, "order": order, "summed": result.summed,
            "constants": [{"name": n, "shape": list(np.asarray(a).shape), "value": array_json(np.asarray(a))}
                          for n, a in result.constants],
            "definitions": [{"name": n, "expr": result.text(e), "latex": result.latex(e),
                             "tree": result.tree(e)} for n, e in result.definitions],
            "derivatives": ders, "error": error}
