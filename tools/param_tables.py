"""What tools/gen_bool_params.py and tools/gen_scalar_params.py share: the parameters of every signature in
agrad's signature tables, gathered by position and by keyword name, and the writing of a generated table."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from agrad.ops import _pyargs  # noqa: E402


def kinds_by_key(kind):
    """``(key, by_position, by_name)`` for each public name with signatures: the set of ``kind(param)`` that
    its signatures give each position (after ``self`` for a method; keyword-only ones have none) and name."""
    for key in sorted(_pyargs._table()):
        found = _pyargs._signatures(key)
        if not found:
            continue
        by_position, by_name = {}, {}
        for sig in found[1]:
            pos = 0
            for p in sig.params:
                by_name.setdefault(p.name, set()).add(kind(p))
                if not p.keyword_only:
                    by_position.setdefault(pos, set()).add(kind(p))
                    pos += 1
        yield key, by_position, by_name


def render(doc: list[str], table: dict) -> str:
    """The module: ``doc`` (its docstring's lines, quotes included), then ``TABLE``."""
    lines = [*doc, "", "TABLE = {"]
    lines += [f"    {key!r}: ({positions!r}, {names!r})," for key, (positions, names) in table.items()]
    lines.append("}")
    return "\n".join(lines) + "\n"


def write(out: Path, text: str, script: str, argv) -> int:
    """Write the generated ``text`` to ``out``; with ``--check``, exit 1 when ``out`` differs from it."""
    if "--check" in argv:
        if out.read_text() != text:
            print(f"{out.relative_to(ROOT)} is out of date; run python tools/{script}", file=sys.stderr)
            return 1
        return 0
    out.write_text(text)
    print(f"wrote {out.relative_to(ROOT)}")
    return 0
