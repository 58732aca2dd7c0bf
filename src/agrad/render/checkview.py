"""``agrad check`` output: one row per leaf, and the custom Function to blame."""

from __future__ import annotations

from .records import json_float

COLUMNS = ("leaf", "shape", "checked", "max_abs_error", "max_rel_error", "worst_index",
           "analytic", "numerical", "result")


def _num(x) -> str:
    if x is None:
        return "-"
    if x != x:
        return "nan"
    if x == 0:
        return "0"
    return f"{x:.4e}" if (abs(x) < 1e-3 or abs(x) >= 1e5) else f"{x:.6g}"


def rows(report) -> list[tuple[str, ...]]:
    out = []
    for leaf in report.leaves:
        out.append((
            leaf.name,
            "[" + ", ".join(map(str, leaf.shape)) + "]",
            str(leaf.checked),
            _num(leaf.max_abs_error),
            _num(leaf.max_rel_error),
            "[" + ", ".join(map(str, leaf.worst_index)) + "]",
            _num(leaf.analytic),
            _num(leaf.numerical),
            "ok" if leaf.passed else "MISMATCH",
        ))
    return out


def header(report, params) -> str:
    text = (f"gradient check of {report.target} in float64: central differences, "
            f"eps={params['eps']:g} atol={params['atol']:g} rtol={params['rtol']:g}")
    return text + ("\n" + projection_line(report) if report.projected is not None else "")


def projection_line(report) -> str:
    """What was checked for a non-scalar target: the gradient of one random projection."""
    name = report.target
    shape = "[" + ", ".join(map(str, report.projected)) + "]"
    return (f"{name} has shape {shape}: checked the gradients of ({name} * v).sum() for a fixed "
            f"random v (standard normal, seed {report.seed}), one vector-Jacobian product")


def summary_lines(report) -> list[str]:
    lines = []
    for name, where in report.custom_failures:
        at = f" ({where})" if where else ""
        lines.append(f"custom Function {name}{at}: its backward disagrees with central "
                     "differences of its forward")
    failed = [leaf.name for leaf in report.leaves if not leaf.passed]
    n = len(report.leaves)
    if not n:
        lines.append("no leaf requires grad: nothing to check")
    elif failed:
        lines.append(f"MISMATCH: {len(failed)} of {n} leaves fail ({', '.join(failed)})")
    else:
        lines.append(f"ok: {n} {'leaf passes' if n == 1 else 'leaves pass'}")
    return lines


def _wrap(text: str, width: int) -> list[str]:
    import textwrap
    out = []
    for line in text.split("\n"):
        out += textwrap.wrap(line, width, subsequent_indent="    ", break_long_words=False,
                             break_on_hyphens=False) or [""]
    return out


def _table_fits(rs, width: int, sep: int) -> list | None:
    widths = [max(len(COLUMNS[i]), *(len(r[i]) for r in rs)) for i in range(len(COLUMNS))]
    return widths if sum(widths) + sep * (len(widths) - 1) <= width else None


def block_lines(rs, width: int) -> list[str]:
    """One block per leaf when the table is too wide: ``x  [3]  ok`` then key=value lines."""
    lines = []
    for r in rs:
        lines.append(f"{r[0]}  {r[1]}  {r[-1]}")
        pieces = [f"{k}={v}" for k, v in zip(COLUMNS[2:-1], r[2:-1])]
        line = "   "
        for p in pieces:
            if len(line) > 3 and len(line) + 2 + len(p) > width:
                lines.append(line)
                line = "   "
            line += ("  " if len(line) > 3 else " ") + p
        lines.append(line)
    return lines


def render_text(out, report, params) -> None:
    width = out.width or 80
    for ln in _wrap(header(report, params), width):
        out.line(ln)
    rs = rows(report)
    if rs:
        widths = _table_fits(rs, width, 2)
        if widths is None:
            for ln in block_lines(rs, width):
                out.line(ln)
        else:
            for r in [COLUMNS] + rs:
                out.line("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    for ln in summary_lines(report):
        for part in _wrap(ln, width):
            out.line(part)


def render_rich(out, report, params) -> None:
    from rich.table import Table
    from rich.text import Text

    console = out.console
    width = out.width or 80
    for ln in _wrap(header(report, params), width):
        console.print(Text(ln, style="bold"))
    rs = rows(report)
    if rs and _table_fits(rs, width, 3) is not None:
        table = Table(show_edge=False, header_style="bold", pad_edge=False)
        for col in COLUMNS:
            table.add_column(col, justify="right" if col in ("checked",) else "left", no_wrap=True)
        for r in rs:
            cells = [Text(c) for c in r]
            cells[0].stylize("bold yellow")
            cells[-1].stylize("green" if r[-1] == "ok" else "bold red")
            table.add_row(*cells)
        console.print(table)
    elif rs:
        for ln in block_lines(rs, width):
            console.print(Text(ln, no_wrap=True))
    for ln in summary_lines(report):
        for part in _wrap(ln, width):
            console.print(Text(part, style="bold red" if not report.ok else "green", no_wrap=True))


def check_json(report=None, target=None, error=None) -> dict:
    leaves = []
    if report is not None:
        for leaf in report.leaves:
            leaves.append({
                "name": leaf.name,
                "shape": list(leaf.shape),
                "max_abs_error": json_float(leaf.max_abs_error),
                "max_rel_error": json_float(leaf.max_rel_error),
                "worst_index": list(leaf.worst_index),
                "checked": leaf.checked,
                "passed": leaf.passed,
                "node": leaf.node,
            })
    return {
        "ok": error is None and (report is None or report.ok),
        "target": report.target if report is not None else target,
        "leaves": leaves,
        "error": error,
    }
