"""The progress bar of a long loop: one line on standard error, drawn with rich.

The contained child sends a record for the outermost running loop (see
:mod:`agrad.app.loops`); the parent's supervisor hands it here.  The line is
redrawn in place (``\\r`` and erase-to-end-of-line), taken away before any
other output is written and drawn again after it, and removed when the loop
ends: nothing of it stays on the screen or reaches a pipe.
"""

from __future__ import annotations

import io
import os


def _clock(seconds: float) -> str:
    s = int(seconds)
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class ProgressLine:
    def __init__(self, stream, width: int, color: bool | None = None):
        self.stream = stream
        self.width = max(int(width or 80), 20)
        self.color = color
        self.record = None
        self.shown = False

    def update(self, record: dict) -> None:
        if record.get("end"):
            self.record = None
            self.clear()
            return
        self.record = record
        self.draw()

    def draw(self) -> None:
        if self.record is None:
            return
        self._write("\r" + self.render(self.record) + "\x1b[K")
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self._write("\r\x1b[K")
            self.shown = False

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            pass

    def render(self, r: dict) -> str:
        """One line of at most ``width - 1`` columns: the loop, a bar, count and times."""
        from rich.console import Console
        from rich.progress_bar import ProgressBar
        from rich.table import Table
        from rich.text import Text

        total, count, fraction = r.get("total"), r.get("count", 0), r.get("fraction")
        elapsed = float(r.get("elapsed") or 0.0)
        counts = f"{count}/{total}" if total else f"{count} iterations"
        times = _clock(elapsed)
        if fraction:
            times += f" < {_clock(elapsed * (1 - fraction) / fraction)}"
        width = self.width - 1
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True, overflow="ellipsis", ratio=1, max_width=max(width // 3, 8))
        if total:
            grid.add_column(no_wrap=True, width=max(min(40, width // 3), 5))
        grid.add_column(no_wrap=True)
        grid.add_column(no_wrap=True)
        cells = [Text(r.get("text", ""), style="bold")]
        if total:
            cells.append(ProgressBar(total=1.0, completed=fraction or 0.0))
        cells += [Text(counts), Text(times, style="dim")]
        grid.add_row(*cells)
        color_system = None if self.color is False or os.environ.get("NO_COLOR") else "auto"
        console = Console(file=io.StringIO(), width=width, force_terminal=True,
                          color_system=color_system, legacy_windows=False, highlight=False)
        console.print(grid, end="")
        line = console.file.getvalue().split("\n", 1)[0]
        return line
