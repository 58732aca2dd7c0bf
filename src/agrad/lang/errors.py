"""Errors and warnings of agrad scripts, with positions and a caret display.

Every problem a script can cause reaches the caller as one of two
exceptions, never as a Python traceback:

* :class:`ScriptSyntaxError` -- the text does not parse (type ``SyntaxError``);
* :class:`ScriptError` -- the script raised while running.  ``type_name`` is
  the PyTorch/Python exception type (``RuntimeError``, ``NameError``, ...),
  ``message`` its text, and ``exc`` the original exception object.

Positions are 1-based; ``end_column`` is exclusive (one past the last
character), as in lark.
"""

from __future__ import annotations


class Record:
    """A plain record: ``repr`` and ``==`` from its ``_fields``, as a dataclass's.

    Written out rather than ``@dataclass``: building a dataclass execs generated
    code (a few million instructions each at start-up)."""

    __slots__ = ()
    _fields: tuple = ()
    __hash__ = None  # mutable and compared by value, as a dataclass

    def __repr__(self):
        body = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields)
        return f"{type(self).__name__}({body})"

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self._fields)


class Source:
    """One piece of script text and the name it is shown under.

    ``name`` is what messages print: a path (``model.py``), ``<stdin>`` or
    ``<expr 1>``.
    """

    __slots__ = ("name", "text", "_lines")

    def __init__(self, name: str, text: str):
        self.name = name
        self.text = text
        self._lines: list[str] | None = None

    def line_text(self, line: int) -> str:
        """The text of 1-based ``line`` (without its newline), or ''."""
        if self._lines is None:
            self._lines = self.text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        if 1 <= line <= len(self._lines):
            return self._lines[line - 1]
        return ""

    def __repr__(self) -> str:
        return f"Source({self.name!r}, <{len(self.text)} chars>)"


SHOWN_LINE = 120  # characters of a long source line shown under an error


def _caret_block(src_line: str, column: int | None, end_column: int | None) -> str:
    """The source line and a caret line under columns [column, end_column)."""
    if not src_line.strip():
        return ""
    # expand tabs in a way that keeps the caret aligned with the text
    raw = src_line
    stripped = raw.lstrip()
    indent = len(raw) - len(stripped)
    shown = stripped.rstrip()
    out = "    " + shown.expandtabs(4)
    if column is None:
        if len(shown) > SHOWN_LINE:
            return "    " + shown.expandtabs(4)[:SHOWN_LINE] + "…"
        return out
    start = max(column - 1 - indent, 0)
    start = min(start, len(shown))
    if end_column is None or end_column <= column:
        width = 1
    else:
        width = max(1, min(end_column - column, len(shown) - start))
    prefix = shown[:start].expandtabs(4)
    seg = shown[start:start + width].expandtabs(4)
    line, col, carets = shown.expandtabs(4), len(prefix), max(1, len(seg))
    if len(line) > SHOWN_LINE:  # a 300 KB line is shown as a window around the caret
        lo = max(0, min(col - SHOWN_LINE // 3, len(line) - SHOWN_LINE))
        hi = lo + SHOWN_LINE
        piece = ("…" if lo else "") + line[lo:hi] + ("…" if hi < len(line) else "")
        col = col - lo + (1 if lo else 0)
        carets = max(1, min(carets, hi - lo - (col - (1 if lo else 0))))
        return "    " + piece + "\n    " + " " * col + "^" * carets
    return out + "\n    " + " " * len(prefix) + "^" * max(1, len(seg))


class ScriptError(Exception):
    """A script failed at run time (or, for the subclass, did not parse).

    Attributes: ``type_name``, ``message``, ``source`` (the name of the
    source), ``line``, ``column``, ``end_line``, ``end_column`` (of the
    failing expression), ``stmt_line`` (first line of the statement that was
    running), ``source_line`` (text of ``line``), ``exc`` (the original
    exception, or None).
    """

    def __init__(self, type_name: str, message: str, *, source: str | None = None,
                 line: int | None = None, column: int | None = None,
                 end_line: int | None = None, end_column: int | None = None,
                 stmt_line: int | None = None, source_line: str = "",
                 exc: BaseException | None = None):
        super().__init__(f"{type_name}: {message}")
        self.type_name = type_name
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        self.end_line = end_line
        self.end_column = end_column
        self.stmt_line = stmt_line if stmt_line is not None else line
        self.source_line = source_line
        self.exc = exc

    def location(self) -> str:
        """``file:line:col`` (as much of it as is known)."""
        parts = [self.source or "<script>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def render(self) -> str:
        """``file:line:col: Type: message``, the source line and a caret."""
        head = f"{self.location()}: {self.type_name}: {self.message}"
        end = self.end_column if (self.end_line in (None, self.line)) else None
        block = _caret_block(self.source_line, self.column, end)
        return head + ("\n" + block if block else "")

    def to_dict(self) -> dict:
        """The JSON error record of SPEC §3."""
        return {"type": self.type_name, "message": self.message, "source": self.source,
                "line": self.line, "column": self.column}

    def __str__(self) -> str:
        return f"{self.location()}: {self.type_name}: {self.message}"


class ScriptSyntaxError(ScriptError):
    """The script text does not parse; ``type_name`` is always ``SyntaxError``."""

    def __init__(self, message: str, **kw):
        super().__init__("SyntaxError", message, **kw)


class CompileTimeSyntaxError(SyntaxError):
    """A syntax error found while running that Python finds when compiling
    (``x = *a``, ``break`` outside a loop): reported as a ScriptSyntaxError (exit 2)."""


class ScriptWarning(Record):
    """A Python warning raised while the script ran (e.g. PyTorch's non-leaf
    ``.grad`` UserWarning), with the script position that was running."""

    _fields = ("category", "message", "source", "line", "source_line")

    def __init__(self, category: str, message: str, source: str | None = None,
                 line: int | None = None, source_line: str = ""):
        self.category = category
        self.message = message
        self.source = source
        self.line = line
        self.source_line = source_line

    def render(self) -> str:
        where = self.source or "<script>"
        if self.line is not None:
            where += f":{self.line}"
        text = f"{where}: {self.category}: {self.message}"
        if self.source_line.strip():
            text += "\n  " + self.source_line.strip()  # (Python's warnings.formatwarning: two spaces)
        return text

    def __str__(self) -> str:
        return self.message
