"""Issue 10's fixed mismatch groups, printed as PyTorch prints them (tests/golden/exact.json).

Cases live in tools/exact_cases.py; regenerate with ``python tools/gen_exact_golden.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import difftest  # noqa: E402
import exact_cases  # noqa: E402
from gen_exact_golden import GOLDEN, run_exact_case  # noqa: E402

ENTRIES = json.loads(GOLDEN.read_text())["cases"]


def test_golden_matches_case_table():
    assert {c["id"]: c for c in exact_cases.CASES} == {k: e["case"] for k, e in ENTRIES.items()}, \
        "tests/golden/exact.json is out of date: run python tools/gen_exact_golden.py"


@pytest.mark.parametrize("case_id", list(ENTRIES))
def test_prints_as_pytorch(case_id):
    import agrad

    entry = ENTRIES[case_id]
    got = run_exact_case(agrad, entry["case"])
    assert got["shown"] == entry["shown"], "\n".join(
        f"--- torch:\n{want}\n--- agrad:\n{have}" for want, have in zip(entry["shown"], got["shown"]) if want != have)
    # PyTorch gives some warnings once per process: agrad may repeat those
    extra = [w for w in got["warnings"] if w not in entry["warnings"]
             and not w.split(": ", 1)[1].startswith(difftest.WARN_ONCE_PREFIXES)]
    assert not extra and set(entry["warnings"]) <= set(got["warnings"]), (entry["warnings"], got["warnings"])
