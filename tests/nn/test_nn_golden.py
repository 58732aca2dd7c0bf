"""torch.nn / optim / data cases (tools/nn_cases.py) against goldens from PyTorch,
and live against torch when it is installed."""

from __future__ import annotations

import json
import sys
import warnings

from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from nn_golden import GOLDEN_DIR, REPO_ROOT, compare, encode  # noqa: E402

sys.path.insert(0, str(REPO_ROOT / "tools"))
import nn_cases  # noqa: E402

GOLDEN = {}
for _path in sorted(GOLDEN_DIR.glob("*.json")):
    for _name, _entry in json.loads(_path.read_text())["cases"].items():
        GOLDEN[(_path.stem, _name)] = _entry

CASE_IDS = [(f, n) for f, cases in sorted(nn_cases.CASES.items()) for n in cases]


def _tol(family, name):
    """Per-case tolerance: a case function may carry ``tolerance = (rtol, atol)``."""
    return getattr(nn_cases.CASES[family][name], "tolerance", None)


def _run(mod, family, name):
    mod.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return encode(nn_cases.CASES[family][name](mod))


@pytest.mark.parametrize("family,name", CASE_IDS, ids=[f"{f}-{n}" for f, n in CASE_IDS])
def test_matches_golden(family, name):
    import agrad
    assert (family, name) in GOLDEN, "golden missing: run python tools/gen_nn_golden.py"
    problems = compare(GOLDEN[(family, name)], _run(agrad, family, name), tol=_tol(family, name))
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def test_no_stale_goldens():
    assert set(GOLDEN) == set(CASE_IDS)


@pytest.mark.torch
@pytest.mark.parametrize("family,name", CASE_IDS, ids=[f"{f}-{n}" for f, n in CASE_IDS])
def test_matches_live_torch(family, name):
    torch = pytest.importorskip("torch")
    import agrad
    problems = compare(_run(torch, family, name), _run(agrad, family, name),
                       tol=_tol(family, name))
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)
