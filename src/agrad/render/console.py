"""Where output goes: formats, the rich console, and the one diagnostics channel.

* Results go to standard output; notes, warnings and errors to standard
  error, always as plain text (``agrad: ...``), whatever the format.
* ``--format auto`` is ``rich`` when standard output is a terminal and
  ``text`` otherwise; ``text`` never contains colour codes.
* Colour (rich only): ``--color``/``--no-color``, else ``NO_COLOR`` (set and
  not empty: no colour), else ``FORCE_COLOR`` (set and not empty: colour,
  and ``auto`` is ``rich`` even when piped), else colour on a terminal.
* ``--quiet``: no notes (which target, the automatic backward); warnings
  and errors still go to standard error.
* The width of every view is ``--columns N``, else the terminal's (standard
  output's, else standard error's), else ``$COLUMNS``, else 80 -- also when
  output is piped; no line a view draws is longer.
* rich is imported only when something is rendered with it, and user text
  is always handed to it as :class:`rich.text.Text`, never as markup.
"""

from __future__ import annotations

import os
import sys

FORMATS = ("auto", "rich", "text", "json")
GRAPH_FORMATS = FORMATS + ("dot", "mermaid", "html", "svg")


def resolve_color(color: bool | None = None) -> bool | None:
    """True/False when colour is asked for or refused, None: decide by the terminal."""
    if color is not None:
        return color
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return None


def resolve_format(fmt: str, stream=None, color: bool | None = None) -> str:
    if fmt != "auto":
        return fmt
    if resolve_color(color) is True:
        return "rich"
    stream = stream if stream is not None else sys.stdout
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    if tty and os.environ.get("TERM") != "dumb":
        return "rich"
    return "text"


DEFAULT_WIDTH = 80


def resolve_width(columns: int | None = None, streams=None) -> int:
    """The width views fit: ``columns``, the terminal's, ``$COLUMNS``, or 80."""
    if columns:
        return int(columns)
    for stream in streams if streams is not None else (sys.stdout, sys.stderr):
        try:
            if stream.isatty():
                size = os.get_terminal_size(stream.fileno()).columns
                if size > 0:
                    return size
        except (AttributeError, ValueError, OSError):
            continue
    env = os.environ.get("COLUMNS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    return DEFAULT_WIDTH


class Output:
    """Writes results to ``out`` and diagnostics to ``err``."""

    def __init__(self, fmt: str, out=None, err=None, width: int | None = None, console=None,
                 quiet: bool = False, color: bool | None = None):
        self.out = out if out is not None else sys.stdout
        self.err = err if err is not None else sys.stderr
        self.color = resolve_color(color)
        self.format = resolve_format(fmt, self.out, self.color)
        self.quiet = quiet
        if width is None and console is not None:
            width = console.width
        self.width = width if width is not None else resolve_width(None, (self.out, self.err))
        self._console = console  # tests pass Console(color_system=None, width=N)

    # results --------------------------------------------------------------
    def line(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def raw(self, text: str) -> None:
        self.out.write(text)

    def json(self, obj) -> None:
        import json
        self.out.write(json.dumps(obj, ensure_ascii=False, allow_nan=False) + "\n")

    @property
    def console(self):
        """A rich Console on standard output (imported on first use)."""
        if self._console is None:
            from rich.console import Console
            colour = {} if self.color is None else (
                {"force_terminal": True, "no_color": False} if self.color
                else {"color_system": None, "no_color": True})
            self._console = Console(file=self.out, markup=False, highlight=False, emoji=False,
                                    width=self.width, soft_wrap=False, **colour)
        return self._console

    # diagnostics ----------------------------------------------------------
    def note(self, text: str) -> None:
        """Warnings and errors: always shown."""
        self.err.write(text + "\n")

    def info(self, text: str) -> None:
        """A note about what agrad chose or did (``--quiet`` leaves it out)."""
        if text and not self.quiet:
            self.err.write(text + "\n")

    def flush(self) -> None:
        for s in (self.out, self.err):
            try:
                s.flush()
            except (OSError, ValueError):
                pass
