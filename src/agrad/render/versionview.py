"""The version timeline of tensors modified in place (``graph --versions``, ``trace``).

For each tensor: its versions, each with the statement that made it (runs of
versions made by one statement -- an optimizer step in a loop -- on one
line), then the saved-tensor slots that hold it with the version each
expects; a slot whose version has moved on is ``stale``: backward through
that node raises PyTorch's in-place error.
"""

from __future__ import annotations

from .graphview import fit_parts, fmt_shape


def _where(h) -> str:
    if h["source"] is None:
        return "outside the script"
    col = f":{h['column']}" if h["column"] is not None else ""
    return f"{h['source']}:{h['line']}{col}"


def _runs(history):
    """Consecutive versions made by the same statement, as (first, last, record)."""
    out = []
    for h in history:
        key = (h["source"], h["line"], h["column"])
        if out and out[-1][3] == key and h["version"] == out[-1][1] + 1:
            out[-1] = (out[-1][0], h["version"], out[-1][2], key)
        else:
            out.append((h["version"], h["version"], h, key))
    return out


def text_lines(records, width=None):
    """(head, [(text, style)]) lines of the section (nothing when no tensor was modified in place)."""
    if not records:
        return
    yield "", []
    yield "", fit_parts("", [("versions: tensors modified in place", "id")], width)
    for r in records:
        name = r["tensor"] or "(a tensor no variable holds)"
        meta = f"{fmt_shape(r['shape'])} {r['dtype']}" if r["shape"] is not None else ""
        yield "", fit_parts("", [(name, "var"), ("  ", ""), (meta, "meta"), ("  ", ""),
                                 (f"version {r['version']}", "name")], width)
        if r["dropped"]:
            yield "    ", fit_parts("    ", [(f"({r['dropped']} older versions not kept)", "id")], width)
        for first, last, h, _key in _runs(r["history"]):
            label = f"version {first}" if first == last else f"versions {first}–{last}"
            parts = [(label, "saved"), ("  ", "")]
            if h["text"]:
                parts += [(h["text"], "label"), ("  ", "")]
            parts.append((_where(h), "where"))
            yield "    ", fit_parts("    ", parts, width)
        for sv in r["saved"]:
            parts = [(f"saved as {sv['slot']} of ", "grad")]
            if sv["id"] is not None:
                parts += [(f"#{sv['id']}", "id"), (" ", "")]
            parts += [(sv["node"], "refname"), (f": expects version {sv['expected']}", "grad")]
            if sv["stale"]:
                parts.append(("  stale", "hook"))
            yield "    ", fit_parts("    ", parts, width)
