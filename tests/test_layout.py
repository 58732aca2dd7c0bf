"""The import direction the layout promises (README, "Architecture"):
cli -> app -> lang and render -> tensor -> ops and autograd.

Read from the source with ``ast`` (every ``import``, at any depth, relative or
absolute), so a lazy import inside a function counts too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "src" / "agrad"

#: package (or top-level module) -> the agrad packages it must never import
FORBIDDEN = {
    "render": {"lang", "app", "cli"},
    "lang": {"app", "render", "cli"},
    "app": {"cli"},
    "autograd": {"lang", "app", "render", "cli"},
    "ops": {"lang", "app", "render", "cli"},
    "nn": {"lang", "app", "render", "cli"},
    "tensor": {"lang", "app", "render", "cli"},
    "dtypes": {"lang", "app", "render", "cli"},
    "printing": {"lang", "app", "render", "cli"},
    "linalg": {"lang", "app", "render", "cli"},
    "func": {"lang", "app", "render", "cli"},
    "distributions": {"lang", "app", "render", "cli"},
}


def _part(path: Path) -> str:
    """The top-level agrad part a file belongs to: "ops", "tensor", ..."""
    rel = path.relative_to(PKG)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def _imported(path: Path, text: str | None = None):
    """(line, top-level agrad part) for every agrad import in ``path`` (or in ``text``, as if at ``path``)."""
    tree = ast.parse(path.read_text() if text is None else text, str(path))
    package = list(path.relative_to(PKG).parent.parts)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "agrad" and len(parts) > 1:
                    yield node.lineno, parts[1]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                parts = (node.module or "").split(".")
                if parts[0] != "agrad":
                    continue
                parts = parts[1:]
            else:
                base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
                if node.level - 1 > len(package):
                    continue
                parts = base + (node.module.split(".") if node.module else [])
            if parts:
                yield node.lineno, parts[0]
            else:  # from agrad import x / from .. import x (at the top): x is the part
                for alias in node.names:
                    yield node.lineno, alias.name


FILES = sorted(PKG.rglob("*.py"))


def test_the_parts_exist():
    parts = {_part(p) for p in FILES}
    assert {"app", "render", "lang", "ops", "autograd", "tensor", "cli"} <= parts


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(PKG)))
def test_imports_run_one_way(path):
    forbidden = FORBIDDEN.get(_part(path), set())
    wrong = [f"line {line}: imports agrad.{part}" for line, part in _imported(path) if part in forbidden]
    assert not wrong, f"{path.relative_to(PKG)} ({_part(path)}) must not import {sorted(forbidden)}: {wrong}"


#: a module longer than this is split by concern (issue 12: "each file a readable size")
MAX_LINES = 800


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(PKG)))
def test_modules_stay_a_readable_size(path):
    lines = path.read_text().count("\n")
    assert lines <= MAX_LINES, f"{path.relative_to(PKG)} has {lines} lines: split it by concern"


def test_the_check_sees_every_kind_of_import():
    """The checker itself: lazy, relative, absolute and ``from .. import x`` imports are all seen."""
    text = ("import numpy\n"
            "from . import records\n"
            "def f():\n"
            "    from ..lang import run\n"
            "    import agrad.app.session\n"
            "    from .. import cli\n")
    found = [part for _, part in _imported(PKG / "render" / "probe.py", text)]
    assert found == ["render", "lang", "app", "cli"]
    assert _part(PKG / "render" / "probe.py") == "render"
