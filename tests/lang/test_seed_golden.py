"""The seed snippets run under agrad print, warn and fail as PyTorch 2.13 does.

Golden files come from tools/gen_seed_golden.py (run with real PyTorch).
"""

from __future__ import annotations

import importlib.util
import sys
import json
from pathlib import Path

import pytest

import agrad
from agrad.lang import Source, run

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT / "tests" / "golden" / "seeds"

sys.path.insert(0, str(ROOT / "tools"))  # the generator imports tools/torch_reference.py
_spec = importlib.util.spec_from_file_location("gen_seed_golden", ROOT / "tools" / "gen_seed_golden.py")
gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen)

CASES = sorted(SEEDS.glob("*.expected.json"))


@pytest.mark.parametrize("expected_path", CASES, ids=[p.name.split(".")[0] for p in CASES])
def test_seed_matches_pytorch(expected_path):
    expected = json.loads(expected_path.read_text(encoding="utf-8"))
    script = SEEDS / expected["script"]
    # A snippet that draws without manual_seed gets an OS seed, as in PyTorch, and only its
    # layout is compared; an OS seed can draw a weight 1000x smaller than another (about one
    # run in 200), which PyTorch prints in scientific notation: the layout then differs.
    agrad.manual_seed(20261201)
    res = run(Source(script.name, script.read_text(encoding="utf-8")), timeout=60)
    mode = expected["compare"]
    got_err = None
    if res.error is not None:
        got_err = {"type": res.error.type_name, "message": gen.normalise(res.error.message),
                   "line": res.error.line}
        if expected["error"] is None:
            pytest.fail(res.error.render())
    assert gen.normalise(res.stdout, mode) == gen.normalise(expected["stdout"], mode)
    assert got_err == expected["error"]
    got_warnings = [{"category": w.category, "message": gen.normalise_warning(w.message),
                     "line": w.line} for w in res.warnings]
    assert got_warnings == expected["warnings"]
    last = None if not res.has_last_value else gen.normalise(repr(res.last_value))
    assert last == expected["last_value"]


def test_every_seed_script_has_a_golden_file():
    scripts = {p.stem for p in SEEDS.glob("*.py")}
    goldens = {p.name.split(".")[0] for p in CASES}
    assert scripts == goldens
