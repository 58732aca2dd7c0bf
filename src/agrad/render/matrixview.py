"""``agrad jacobian`` / ``agrad hessian`` output: the matrix with row and column labels.

Numbers are formatted as PyTorch prints the whole matrix (one format for
every element: fixed, whole-number or scientific, precision 4).  A matrix
wider than the output is cut into blocks of columns, each with the row
labels, like a wide table in a terminal; nothing is elided.
"""

from __future__ import annotations

import numpy as np

from .records import array_json

_SEP = 2


def header(m) -> str:
    shape = "[" + ", ".join(map(str, m.target_shape)) + "]"
    wrt = ", ".join(f"{n} [{', '.join(map(str, s))}]" for n, s in m.leaves)
    what = "Jacobian" if m.kind == "jacobian" else "Hessian"
    return f"{what} of {m.target} {shape} {m.dtype} with respect to {wrt}: {len(m.rows)} x {len(m.columns)}"


def cells(m) -> list[list[str]]:
    """The formatted numbers, row by row, all right-aligned to one width."""
    from ..printing import PrintOptions, _format_floats
    if m.values.size == 0:
        return [[] for _ in m.rows]
    texts, _width = _format_floats(m.values.reshape(-1).astype(np.float64), PrintOptions())
    n = len(m.columns)
    return [texts[i * n:(i + 1) * n] for i in range(len(m.rows))]


def column_blocks(m, body, width: int) -> list[range]:
    """Ranges of columns that fit in ``width`` beside the row labels (at least one column each)."""
    label_w = max((len(r) for r in m.rows), default=0)
    widths = [max(len(c), *(len(r[j]) for r in body)) if body else len(c) for j, c in enumerate(m.columns)]
    blocks, start, used = [], 0, label_w
    for j, w in enumerate(widths):
        if j > start and used + _SEP + w > width:
            blocks.append(range(start, j))
            start, used = j, label_w
        used += _SEP + w
    if start < len(widths) or not blocks:
        blocks.append(range(start, len(widths)))
    return blocks


def header_lines(m, width: int) -> list[str]:
    import textwrap
    return textwrap.wrap(header(m), width, subsequent_indent="    ", break_long_words=False,
                         break_on_hyphens=False) or [""]


def text_lines(m, width: int) -> list[str]:
    body = cells(m)
    label_w = max((len(r) for r in m.rows), default=0)
    lines = header_lines(m, width)
    for block in column_blocks(m, body, width):
        widths = [max(len(m.columns[j]), *(len(r[j]) for r in body)) for j in block]
        lines.append("")
        lines.append((" " * label_w + "".join(" " * _SEP + m.columns[j].rjust(w)
                                              for j, w in zip(block, widths))).rstrip())
        for label, row in zip(m.rows, body):
            lines.append(label.ljust(label_w) + "".join(" " * _SEP + row[j].rjust(w) for j, w in zip(block, widths)))
    return lines


def render_text(out, m) -> None:
    for line in text_lines(m, out.width or 80):
        out.line(line)


def render_rich(out, m) -> None:
    from rich.table import Table
    from rich.text import Text

    console = out.console
    width = out.width or 80
    for line in header_lines(m, width):
        console.print(Text(line, style="bold"), no_wrap=True)
    body = cells(m)
    for block in column_blocks(m, body, width - 2):
        table = Table(show_edge=False, header_style="bold", pad_edge=False, box=None, padding=(0, 0, 0, _SEP))
        table.add_column("", style="bold yellow", no_wrap=True)
        for j in block:
            table.add_column(Text(m.columns[j]), justify="right", no_wrap=True)
        for label, row in zip(m.rows, body):
            texts = [Text(row[j], style="dim" if _is_zero(row[j]) else "") for j in block]
            table.add_row(Text(label), *texts)
        console.print(table)


def _is_zero(text: str) -> bool:
    t = text.strip().lstrip("-")
    return t.rstrip("0").rstrip(".") in ("", "0") and "e" not in t or t.startswith("0.0000e+00")


def matrix_json(m=None, *, error=None) -> dict:
    """``{"ok", "kind", "target", "leaves", "rows", "columns", "matrix", "blocks", "error"}``."""
    if m is None:
        return {"ok": False, "kind": None, "target": None, "leaves": [], "rows": [], "columns": [], "matrix": [],
                "blocks": [], "error": error}
    blocks = [{"of": r, "wrt": c, "shape": list(v.shape), "value": array_json(v)} for (r, c), v in m.blocks.items()]
    return {
        "ok": error is None,
        "kind": m.kind,
        "target": {"name": m.target, "shape": list(m.target_shape), "dtype": m.dtype},
        "leaves": [{"name": n, "shape": list(s)} for n, s in m.leaves],
        "rows": list(m.rows),
        "columns": list(m.columns),
        "matrix": array_json(m.values),
        "blocks": blocks,
        "error": error,
    }
