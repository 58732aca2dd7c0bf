"""Issue 11's surface (devices, legacy names and formatting, standard-library modules,
saved-tensor hooks) against PyTorch: the snippets of tools/surface_cases.py print and fail
under agrad as tools/gen_surface_golden.py recorded them under PyTorch 2.13."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from agrad.lang import Source, run

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = json.loads((ROOT / "tests" / "golden" / "surface.json").read_text(encoding="utf-8"))["cases"]

sys.path.insert(0, str(ROOT / "tools"))  # the generator imports tools/torch_reference.py
_spec = importlib.util.spec_from_file_location("gen_surface_golden", ROOT / "tools" / "gen_surface_golden.py")
gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen)


def _agrad(code):
    import agrad

    try:
        res = run(Source("<snippet>", code), timeout=60)
    finally:
        agrad.set_default_device(None)  # process-wide state a snippet may change (the CLI runs each in a child)
    error = None
    if res.error is not None:
        error = {"type": res.error.type_name, "message": gen.normalise(res.error.message)}
    return {"stdout": gen.normalise(res.stdout), "error": error}, res


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_snippet_matches_pytorch(name):
    expected = GOLDEN[name]
    got, res = _agrad(expected["code"])
    if expected["error"] is None and got["error"] is not None:
        pytest.fail(res.error.render())
    assert got["stdout"] == expected["stdout"]
    assert got["error"] == expected["error"]


def test_golden_file_matches_case_table():
    spec = importlib.util.spec_from_file_location("surface_cases", ROOT / "tools" / "surface_cases.py")
    cases = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cases)
    assert {k: v["code"] for k, v in GOLDEN.items()} == cases.CASES, \
        "tests/golden/surface.json is out of date; run python tools/gen_surface_golden.py"


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_snippet_matches_live_torch(name):
    pytest.importorskip("torch")
    code = GOLDEN[name]["code"]
    expected = gen.run_torch(code)
    got, _ = _agrad(code)
    assert got == expected
