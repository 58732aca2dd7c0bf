"""torch.autograd.functional, torch.func and is_grads_batched against PyTorch 2.13 (tests/golden/func.json,
written by tools/gen_func_golden.py): every printed value and every error, text for text."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import agrad

GOLDEN = json.loads((Path(__file__).resolve().parents[1] / "golden" / "func.json").read_text())
_IDS = [c["name"] for c in GOLDEN["cases"]]


def run(case):
    import agrad.func  # noqa: F401  (loaded lazily in scripts)
    ns = {"torch": agrad, "F": agrad.nn.functional, "fn": agrad.autograd.functional, "func": agrad.func,
          "fwAD": agrad.autograd.forward_ad}
    for stmt in case["setup"] + case["statements"]:
        exec(stmt, ns)
    out = []
    for expr in case["expressions"]:
        try:
            out.append(repr(eval(expr, ns)))
        except Exception as e:  # noqa: BLE001
            out.append(f"Error: {type(e).__name__}: {e}")
    return out


#: Where agrad differs from PyTorch on purpose or for now, with the reason.
KNOWN: dict = {}


_NUM = re.compile(r"-?\d+\.\d*(?:e[-+]\d+)?|-?\d+e[-+]\d+")


def same(want: str, have: str) -> bool:
    """Equal text, or equal but for float32 rounding in the last printed digit (rtol 1e-4)."""
    if want == have:
        return True
    if _NUM.sub("#", want) != _NUM.sub("#", have):
        return False
    a = [float(v) for v in _NUM.findall(want)]
    b = [float(v) for v in _NUM.findall(have)]
    return len(a) == len(b) and all(abs(p - q) <= 1e-4 * max(abs(p), abs(q)) + 1e-7 for p, q in zip(a, b))


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=_IDS)
def test_case(case):
    got = run(case)
    for expr, want, have in zip(case["expressions"], case["expected"], got):
        if expr in KNOWN:
            assert have != want, f"{expr} now matches PyTorch: drop it from KNOWN"
            continue
        assert same(want, have), f"{expr}\n  torch: {want}\n  agrad: {have}"
