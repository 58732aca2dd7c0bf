"""Charts of ``agrad eval --plot NAME``: a terminal line chart (braille dots) and an SVG.

Both take a series (``app.loops.Series``: ``name``, ``values``, ``where``) of
the values recorded at the end of each loop iteration.  Non-finite values are
left out of the scale and drawn as gaps.  No dependency: the SVG is written
by hand (one ``<polyline>`` per finite run, at most :data:`SVG_POINTS`
points per series after min/max bucketing).
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

HEIGHT = 10          # text rows of the terminal chart
SVG_POINTS = 2000
_BRAILLE = 0x2800
# the dot bits of a braille cell, by (row 0-3, column 0-1)
_DOTS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))


def _fmt(v: float) -> str:
    return f"{v:.4g}"


def _scale(values):
    finite = [v for v in values if math.isfinite(v)]
    if not finite:
        return None
    lo, hi = min(finite), max(finite)
    if lo == hi:
        pad = abs(lo) * 0.5 or 1.0
        lo, hi = lo - pad, hi + pad
    return lo, hi


def _title(series) -> str:
    n = len(series.values)
    where = f", recorded at {series.where}" if series.where else ""
    more = " (the first 1,000,000)" if getattr(series, "truncated", False) else ""
    return f"{series.name}: {n} value{'s' if n != 1 else ''}{more}{where}"


def _columns(values, n_cols):
    """Per dot column, the (min, max) of the values drawn there (None: a gap), joined to the
    previous column's last value so that the line is continuous."""
    n = len(values)
    cols = []
    prev_last = None
    for c in range(n_cols):
        if n <= n_cols:   # fewer values than columns: the line between them
            t = c * (n - 1) / max(n_cols - 1, 1)
            i = int(t)
            a, b = values[i], values[min(i + 1, n - 1)]
            bucket = [a + (b - a) * (t - i)] if math.isfinite(a) and math.isfinite(b) else []
        else:
            lo_i, hi_i = c * n // n_cols, max((c + 1) * n // n_cols, c * n // n_cols + 1)
            bucket = [v for v in values[lo_i:hi_i] if math.isfinite(v)]
        if not bucket:
            cols.append(None)
            prev_last = None
            continue
        lo, hi = min(bucket), max(bucket)
        if prev_last is not None:
            lo, hi = min(lo, prev_last), max(hi, prev_last)
        cols.append((lo, hi))
        prev_last = bucket[-1]
    return cols


def text_chart(series, width: int, height: int = HEIGHT) -> list[str]:
    """The chart as lines of at most ``width`` columns: a title, the plot with the y
    axis on the left, and the x axis (iterations)."""
    values = series.values
    title = _title(series)[:width]
    scale = _scale(values)
    if scale is None:
        return [title, "(no finite value to draw)"[:width]]
    lo, hi = scale
    labels = [_fmt(hi), _fmt((lo + hi) / 2), _fmt(lo)]
    lw = max(len(s) for s in labels)
    plot_w = max(width - lw - 2, 4)
    n = len(values)
    cols = _columns(values, 2 * plot_w)
    dots_h = 4 * height
    grid = [[0] * plot_w for _ in range(height)]

    def y_dot(v):
        return round((hi - v) / (hi - lo) * (dots_h - 1))

    for c, span in enumerate(cols):
        if span is None:
            continue
        cell_x, sub = divmod(c, 2)
        top, bottom = y_dot(span[1]), y_dot(span[0])
        for yd in range(top, bottom + 1):
            grid[yd // 4][cell_x] |= _DOTS[yd % 4][sub]
    lines = [title]
    label_rows = {0: labels[0], height // 2: labels[1], height - 1: labels[2]}
    for r in range(height):
        label = label_rows.get(r, "")
        tick = "┤" if r in label_rows else "│"
        cells = "".join(chr(_BRAILLE + b) if b else " " for b in grid[r]).rstrip()
        lines.append(f"{label:>{lw}} {tick}{cells}")
    lines.append(" " * (lw + 1) + "└" + "─" * plot_w)
    first, last = "1", str(n)
    gap = plot_w - len(first) - len(last)
    lines.append(" " * (lw + 2) + (first + " " * gap + last if gap > 0 else last))
    return [ln[:width] for ln in lines]


def _buckets(values, limit):
    """(index, value) points, at most ``limit`` (min and max of each bucket, in order)."""
    n = len(values)
    if n <= limit:
        return list(enumerate(values))
    out = []
    per = limit // 2
    for b in range(per):
        lo_i, hi_i = b * n // per, (b + 1) * n // per
        chunk = [(i, values[i]) for i in range(lo_i, hi_i)]
        finite = [p for p in chunk if math.isfinite(p[1])]
        if not finite:
            out.append((lo_i, math.nan))
            continue
        a, z = min(finite, key=lambda p: p[1]), max(finite, key=lambda p: p[1])
        out += sorted({a, z})
    return out


def svg_chart(plots: dict, width: int = 720, panel: int = 260) -> str:
    """One SVG with a panel per series (title, y ticks at min/mid/max, x from 1 to N)."""
    left, right, top, bottom = 80, 20, 34, 36
    height = panel * len(plots)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>']
    for k, series in enumerate(plots.values()):
        y0 = k * panel
        pw, ph = width - left - right, panel - top - bottom
        x_at, y_top = left, y0 + top
        parts.append(f'<text x="{left}" y="{y0 + 20}" font-size="14" font-weight="bold">'
                     f'{escape(_title(series))}</text>')
        parts.append(f'<rect x="{x_at}" y="{y_top}" width="{pw}" height="{ph}" fill="none" '
                     'stroke="#999"/>')
        values = series.values
        scale = _scale(values)
        if scale is None:
            parts.append(f'<text x="{x_at + 10}" y="{y_top + ph / 2:.1f}">no finite value to '
                         'draw</text>')
            continue
        lo, hi = scale
        n = len(values)
        for frac, v in ((0.0, hi), (0.5, (lo + hi) / 2), (1.0, lo)):
            y = y_top + frac * ph
            parts.append(f'<line x1="{x_at - 4}" y1="{y:.1f}" x2="{x_at}" y2="{y:.1f}" '
                         'stroke="#999"/>')
            parts.append(f'<text x="{x_at - 6}" y="{y + 4:.1f}" text-anchor="end">'
                         f'{escape(_fmt(v))}</text>')
        base = y_top + ph + 16
        parts.append(f'<text x="{x_at}" y="{base:.1f}">1</text>')
        parts.append(f'<text x="{x_at + pw}" y="{base:.1f}" text-anchor="end">{n}</text>')
        parts.append(f'<text x="{x_at + pw / 2:.1f}" y="{base + 12:.1f}" text-anchor="middle" '
                     'fill="#555">iteration</text>')
        run = []
        for i, v in _buckets(values, SVG_POINTS):
            if not math.isfinite(v):
                _polyline(parts, run)
                run = []
                continue
            x = x_at + (i / (n - 1) * pw if n > 1 else pw / 2)
            y = y_top + (hi - v) / (hi - lo) * ph
            run.append(f"{x:.1f},{y:.1f}")
        _polyline(parts, run)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _polyline(parts, run):
    if len(run) == 1:
        x, y = run[0].split(",")
        parts.append(f'<circle cx="{x}" cy="{y}" r="2" fill="#1f77b4"/>')
    elif run:
        parts.append('<polyline fill="none" stroke="#1f77b4" stroke-width="1.5" points="'
                     + " ".join(run) + '"/>')
