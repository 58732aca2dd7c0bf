"""Every agrad op against PyTorch: stored goldens, and live torch when installed.

Cases live in tools/op_cases; regenerate the goldens with
``python tools/gen_op_golden.py`` after changing them.
"""

from __future__ import annotations

import importlib

import pytest

import golden_harness

# ops warn as PyTorch does (deprecations, size mismatches): expected here, not news
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

CASES = golden_harness.load_cases()
GOLDEN = golden_harness.load_golden()["cases"]


@pytest.fixture(scope="module")
def agrad():
    # Imported here so that collection works while the engine is being written.
    return importlib.import_module("agrad")


def _fail_on(problems: list[str], case: dict) -> None:
    if problems:
        source = case.get("expr") or case["code"]
        pytest.fail(f"{case['id']}: {source}\n" + "\n".join(problems), pytrace=False)


@pytest.mark.parametrize("case_id", list(GOLDEN))
def test_op_matches_golden(agrad, case_id):
    entry = GOLDEN[case_id]
    _fail_on(golden_harness.check_golden(agrad, entry), entry["case"])


def test_golden_file_matches_case_table():
    table = {case["id"]: golden_harness.normalize_case(case) for case in CASES}
    missing = sorted(set(table) - set(GOLDEN))
    extra = sorted(set(GOLDEN) - set(table))
    changed = sorted(i for i in set(table) & set(GOLDEN) if GOLDEN[i]["case"] != table[i])
    assert not (missing or extra or changed), (
        "tests/golden/ops/ is out of date; run python tools/gen_op_golden.py\n"
        f"  missing: {missing}\n  no longer in the table: {extra}\n  changed: {changed}"
    )


@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_op_matches_live_torch(torch, agrad, case):
    _fail_on(golden_harness.check_live(agrad, torch, case), case)
