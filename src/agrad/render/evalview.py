"""``agrad eval`` output: the script's printed text, then a table of its tensors.

Plain text (``--format text``) is a header line and one line per tensor,
columns separated by two spaces, no colour; rich (``--format rich``) is the
same table drawn by rich.  ``--format json`` is SPEC §3's object.
"""

from __future__ import annotations

from ..tensor import Tensor
import numpy as np

from .records import _one_line, node_display_name, short_value, value_record

COLUMNS = ("name", "shape", "dtype", "value", "requires_grad", "is_leaf", "grad_fn", "grad")


#: Columns that give way (cut with …) when the table is too wide; the others never do.
VALUE, GRAD = COLUMNS.index("value"), COLUMNS.index("grad")
#: The narrowest value or grad column worth drawing; below it, one block per tensor.
MIN_CUT = 20
#: Space between columns: plain text and rich's table.
SEP_TEXT, SEP_RICH = 2, 3
STYLES = ("bold yellow", "green", "green", "", "", "", "cyan", "magenta")


def tensor_rows(namespace: dict) -> list[tuple[str, ...]]:
    return [row for row, _t in _rows(namespace)]


def _named_tensors(namespace: dict):
    """(name, tensor) for the script's tensors and, for each nn.Module, its
    parameters and buffers by path (``net.fc.weight``), each tensor once."""
    import sys
    mod = sys.modules.get("agrad.nn.modules.module")   # loaded only if the script used nn
    module_cls = getattr(mod, "Module", None) if mod is not None else None
    seen = set()
    for name, v in namespace.items():
        if isinstance(v, Tensor):
            yield name, v
        elif module_cls is not None and isinstance(v, module_cls):
            try:
                members = list(v.named_parameters()) + list(v.named_buffers())
            except Exception:
                continue
            for pname, p in members:
                if id(p) not in seen:
                    seen.add(id(p))
                    yield f"{name}.{pname}", p


def _rows(namespace: dict) -> list[tuple[tuple[str, ...], Tensor]]:
    rows = []
    for name, v in _named_tensors(namespace):
        fn = v._grad_fn
        grad = v._grad
        rows.append(((
            name,
            "[" + ", ".join(str(s) for s in v._data.shape) + "]",
            v.dtype.name,
            short_value(v._data, v.dtype.name),
            str(bool(v._requires_grad)),
            str(fn is None),
            node_display_name(fn) if fn is not None else "None",
            short_value(grad._data, grad.dtype.name) if grad is not None else "None",
        ), v))
    return rows


def cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters, its end replaced by ``…`` when cut."""
    if len(text) <= width:
        return text
    return text[:max(0, width - 1)] + "…" if width > 0 else ""


def _fit_value(text: str, t, width: int) -> str:
    """A value cell in ``width``: summarised further first (fewer elements), then cut."""
    if len(text) <= width or t is None:
        return cut(text, width)
    short = short_value(t._data, t.dtype.name, width=width)
    if len(short) > width and t._data.size and type(t._data) is np.ndarray:
        short = _one_line(np.asarray(t._data), t.dtype.name, 2, 1)  # first and last elements only
    return cut(short, width)


def plan_widths(rows, width: int, sep: int):
    """Column widths that fit ``width``, or None when one block per tensor reads better.

    The name, shape, dtype, requires_grad, is_leaf and grad_fn columns keep
    their full width and titles; value and grad share what is left.
    """
    nat = [max(len(COLUMNS[i]), *(len(r[i]) for r in rows)) for i in range(len(COLUMNS))]
    total = sum(nat) + sep * (len(COLUMNS) - 1)
    if total <= width:
        return nat
    room = width - (total - nat[VALUE] - nat[GRAD])
    if room < min(nat[VALUE], MIN_CUT) + min(nat[GRAD], MIN_CUT):
        return None
    v = min(nat[VALUE], max(MIN_CUT, room - min(nat[GRAD], room // 2)))
    g = min(nat[GRAD], room - v)
    widths = list(nat)
    widths[VALUE], widths[GRAD] = v, g
    return widths


def _fitted_rows(rows_t, widths):
    out = []
    for row, t in rows_t:
        row = list(row)
        row[VALUE] = _fit_value(row[VALUE], t, widths[VALUE])
        row[GRAD] = _fit_value(row[GRAD], t._grad, widths[GRAD])
        out.append(tuple(row))
    return out


def block_lines(rows_t, width: int) -> list[list[tuple[str, str]]]:
    """One block per tensor, as lines of (text, style) pieces, none longer than ``width``::

        l4  [2, 2] float32  requires_grad=True  is_leaf=False  grad_fn=MulBackward0
            value [[40., 40.], [40., 40.]]
            grad  None
    """
    lines = []
    indent = "    "
    for row, t in rows_t:
        name, shape, dtype, value, rg, leaf, fn, grad = row
        groups = [[(name, STYLES[0]), (f"{shape} {dtype}", "green")],
                  [(f"requires_grad={rg}", ""), (f"is_leaf={leaf}", ""), (f"grad_fn={fn}", "cyan")]]
        pieces = groups[0] + groups[1]
        if sum(len(t) for t, _s in pieces) + 2 * (len(pieces) - 1) <= width:
            groups = [pieces]  # all on one line
        for k, group in enumerate(groups):
            line, used, empty = ([(indent, "")], len(indent), True) if k else ([], 0, True)
            for text, style in group:
                if not empty and used + 2 + len(text) > width:
                    lines.append(line)
                    line, used, empty = [(indent, "")], len(indent), True
                if not empty:
                    line.append(("  ", ""))
                    used += 2
                piece = cut(text, width - used)
                line.append((piece, style))
                used += len(piece)
                empty = False
            lines.append(line)
        room = width - len(indent) - 6
        lines.append([(indent + "value ", "dim"), (_fit_value(value, t, room), "")])
        lines.append([(indent + "grad  ", "dim"),
                      (_fit_value(grad, t._grad, room), "magenta")])
    return lines


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


def _width(out) -> int:
    return out.width if getattr(out, "width", None) else 80


def render_text(out, stdout: str, namespace: dict, streamed: bool = False) -> None:
    _script_output(out, stdout, streamed)
    rows_t = _rows(namespace)
    extra = other_last_value(namespace)
    width = _width(out)
    if (rows_t or extra) and stdout:
        out.line()
    if rows_t:
        widths = plan_widths([r for r, _t in rows_t], width, SEP_TEXT)
        if widths is None:
            for line in block_lines(rows_t, width):
                out.line("".join(t for t, _s in line).rstrip())
        else:
            for r in [COLUMNS] + _fitted_rows(rows_t, widths):
                out.line("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    if extra:
        out.line(cut(extra, width))


def render_rich(out, stdout: str, namespace: dict, streamed: bool = False) -> None:
    from rich.table import Table
    from rich.text import Text

    console = out.console
    width = _width(out)
    if stdout:
        _script_output(out, stdout, streamed)
        out.out.flush()
    rows_t = _rows(namespace)
    extra = other_last_value(namespace)
    if rows_t:
        if stdout:
            console.print()
        widths = plan_widths([r for r, _t in rows_t], width, SEP_RICH)
        if widths is None:
            text = Text(no_wrap=True, overflow="ellipsis")
            for k, line in enumerate(block_lines(rows_t, width)):
                if k:
                    text.append("\n")
                for piece, style in line:
                    text.append(piece, style=style or None)
            console.print(text)
        else:
            table = Table(title=None, show_edge=False, header_style="bold", pad_edge=False)
            for col, st, w in zip(COLUMNS, STYLES, widths):
                table.add_column(col, style=st or None, width=w, no_wrap=True, overflow="ellipsis")
            for r in _fitted_rows(rows_t, widths):
                table.add_row(*[Text(c) for c in r])
            console.print(table)
    if extra:
        console.print(Text(cut(extra, width), no_wrap=True))


def eval_json(session, *, error=None) -> dict:
    """SPEC §3's ``agrad eval --format json`` object."""
    ns = session.namespace if session is not None and session.result is not None else (
        dict(session.bindings) if session is not None else {})
    b = session.backward if session is not None else None
    err = error if error is not None else (session.error if session is not None else None)
    return {
        "ok": err is None,
        "stdout": session.stdout if session is not None else "",
        "warnings": [warning_json(w) for w in (session.warnings if session is not None else [])],
        "backward": {"auto": True, "of": b.of} if b is not None and b.auto else None,
        "variables": {name: value_record(v) for name, v in ns.items()},
        "error": error_json(err) if err is not None else None,
    }


def warning_json(w) -> dict:
    """A script warning as a JSON record, like an error's: type, message, source, line."""
    return {"type": w.category, "message": w.message, "source": w.source, "line": w.line}


def error_json(err) -> dict:
    if isinstance(err, dict):
        return err
    to_dict = getattr(err, "to_dict", None)
    if to_dict is not None:
        return to_dict()
    return {"type": getattr(err, "type_name", type(err).__name__), "message": str(err),
            "source": None, "line": None, "column": None}
