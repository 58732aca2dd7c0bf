"""``agrad eval`` output: the script's printed text, then a table of its tensors.

Plain text (``--format text``) is a header line and one line per tensor,
columns separated by two spaces, no colour; rich (``--format rich``) is the
same table drawn by rich.  ``--format json`` is SPEC §3's object.
"""

from __future__ import annotations

from ..tensor import Tensor
from .records import node_display_name, short_value, value_record

COLUMNS = ("name", "shape", "dtype", "value", "requires_grad", "is_leaf", "grad_fn", "grad")


def tensor_rows(namespace: dict) -> list[tuple[str, ...]]:
    rows = []
    for name, v in namespace.items():
        if not isinstance(v, Tensor):
            continue
        fn = v._grad_fn
        grad = v._grad
        rows.append((
            name,
            "[" + ", ".join(str(s) for s in v._data.shape) + "]",
            v.dtype.name,
            short_value(v._data, v.dtype.name),
            str(bool(v._requires_grad)),
            str(fn is None),
            node_display_name(fn) if fn is not None else "None",
            short_value(grad._data, grad.dtype.name) if grad is not None else "None",
        ))
    return rows


def other_last_value(namespace: dict) -> str | None:
    """``_ = ...`` when the script ended in a bare expression that is not a tensor."""
    if "_" in namespace and not isinstance(namespace["_"], Tensor):
        try:
            return "_ = " + repr(namespace["_"])
        except Exception:
            return None
    return None


def _script_output(out, stdout: str, streamed: bool = False) -> None:
    """The script's output (``streamed``: it is already out, as it was printed)."""
    if stdout and not streamed:
        out.raw(stdout if stdout.endswith("\n") else stdout + "\n")
    elif stdout and not stdout.endswith("\n"):
        out.raw("\n")


def render_text(out, stdout: str, namespace: dict, streamed: bool = False) -> None:
    _script_output(out, stdout, streamed)
    rows = tensor_rows(namespace)
    extra = other_last_value(namespace)
    if (rows or extra) and stdout:
        out.line()
    if rows:
        widths = [max(len(COLUMNS[i]), *(len(r[i]) for r in rows)) for i in range(len(COLUMNS))]
        for r in [COLUMNS] + rows:
            out.line("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    if extra:
        out.line(extra)


def render_rich(out, stdout: str, namespace: dict, streamed: bool = False) -> None:
    from rich.table import Table
    from rich.text import Text

    console = out.console
    if stdout:
        _script_output(out, stdout, streamed)
        out.out.flush()
    rows = tensor_rows(namespace)
    extra = other_last_value(namespace)
    if rows:
        table = Table(title=None, show_edge=False, header_style="bold", pad_edge=False)
        styles = ("bold yellow", "green", "green", "", "", "", "cyan", "magenta")
        for col, st in zip(COLUMNS, styles):
            table.add_column(col, style=st or None, overflow="fold")
        for r in rows:
            table.add_row(*[Text(c) for c in r])
        if stdout:
            console.print()
        console.print(table)
    if extra:
        console.print(Text(extra))


def eval_json(session, *, error=None) -> dict:
    """SPEC §3's ``agrad eval --format json`` object."""
    ns = session.namespace if session is not None and session.result is not None else (
        dict(session.bindings) if session is not None else {})
    b = session.backward if session is not None else None
    err = error if error is not None else (session.error if session is not None else None)
    return {
        "ok": err is None,
        "stdout": session.stdout if session is not None else "",
        "warnings": [warning_text(w) for w in (session.warnings if session is not None else [])],
        "backward": {"auto": True, "of": b.of} if b is not None and b.auto else None,
        "variables": {name: value_record(v) for name, v in ns.items()},
        "error": error_json(err) if err is not None else None,
    }


def warning_text(w) -> str:
    """A script warning on one line: ``source:line: Category: message``."""
    where = w.source or "<script>"
    if w.line is not None:
        where += f":{w.line}"
    return f"{where}: {w.category}: {w.message}"


def error_json(err) -> dict:
    if isinstance(err, dict):
        return err
    to_dict = getattr(err, "to_dict", None)
    if to_dict is not None:
        return to_dict()
    return {"type": getattr(err, "type_name", type(err).__name__), "message": str(err),
            "source": None, "line": None, "column": None}
