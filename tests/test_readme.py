"""The README's `$ agrad ...` examples print what the README shows (tools/check_readme.py runs
them as a user would: from the repository's root, 80 columns, no colour)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_TOOL = Path(__file__).resolve().parents[1] / "tools" / "check_readme.py"
_spec = importlib.util.spec_from_file_location("check_readme", _TOOL)
check_readme = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_readme)

EXAMPLES = [(command, expected) for _, _, command, expected in
            check_readme.examples(check_readme.README.read_text(encoding="utf-8"))
            if not any(flag in command for flag in check_readme.SKIP)]


def test_the_readme_has_examples():
    assert len(EXAMPLES) >= 20


@pytest.mark.parametrize("command,expected", EXAMPLES, ids=[c[:60] for c, _ in EXAMPLES])
def test_readme_example_prints_what_the_readme_shows(command, expected):
    got = check_readme.run(command)
    if got.startswith("sh: ") and "not found" in got.splitlines()[0]:
        pytest.skip(f"a tool this example pipes into is not installed: {got.splitlines()[0]}")
    want = check_readme.normalise(expected)
    if check_readme.matches(want, check_readme.normalise(got)):
        return
    quiet = check_readme.run(command, merged=False)  # the README may show standard output alone
    assert check_readme.matches(want, check_readme.normalise(quiet)), (
        f"$ {command}\n--- README\n{expected}--- now\n{got}")
