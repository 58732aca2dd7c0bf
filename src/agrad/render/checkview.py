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
    return (f"gradient check of {report.target} in float64: central differences, "
            f"eps={params['eps']:g} atol={params['atol']:g} rtol={params['rtol']:g}")


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


def render_text(out, report, params) -> None:
    out.line(header(report, params))
    rs = rows(report)
    if rs:
        widths = [max(len(COLUMNS[i]), *(len(r[i]) for r in rs)) for i in range(len(COLUMNS))]
        for r in [COLUMNS] + rs:
            out.line("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    for ln in summary_lines(report):
        out.line(ln)


def render_rich(out, report, params) -> None:
    from rich.table import Table
    from rich.text import Text

    console = out.console
    console.print(Text(header(report, params), style="bold"))
    rs = rows(report)
    if rs:
        table = Table(show_edge=False, header_style="bold", pad_edge=False)
        for col in COLUMNS:
            table.add_column(col, justify="right" if col in ("checked",) else "left")
        for r in rs:
            cells = [Text(c) for c in r]
            cells[0].stylize("bold yellow")
            cells[-1].stylize("green" if r[-1] == "ok" else "bold red")
            table.add_row(*cells)
        console.print(table)
    for ln in summary_lines(report):
        console.print(Text(ln, style="bold red" if not report.ok else "green"))


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
