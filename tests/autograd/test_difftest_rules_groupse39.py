"""The differential tester's rules touched by session 39's groupse39: ``lapack-downstream`` for the zero
signs of a later statement's repr."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import difftest  # noqa: E402

_X = "x1 = torch.tensor([[1.0, 0.0], [-1.75, -2.0]], dtype=torch.float32, requires_grad=True)"


@pytest.mark.torch
def test_lapack_downstream_covers_zero_signs_of_a_rounded_pinverse_only():
    """round_ of a float32 pinverse: MKL's -1.5e-7 rounds to -0., agrad's +1.2e-8 to 0. (run 39490000):
    lapack-downstream. A nonzero value apart, or the same sign flip with no LAPACK op before, is not."""
    torch = pytest.importorskip("torch")
    import agrad

    lines = [_X, "r3 = torch.pinverse(x1)", "r4 = torch.round_(r3)"]
    found = difftest.diff_program(lines)
    assert found is not None and found[0] == "documented:lapack-downstream:round_", found
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    assert difftest.compare_statement(want[2], got[2])[0] == "repr"
    assert difftest.lapack_zero_signs(lines, 2, got, want[2], got[2])
    other = copy.deepcopy(got[2])  # a real difference besides the sign: 1. printed as 2.
    for k in ("r3", "r4"):
        d = other["vars"][k]
        d["data"] = d["data"].copy()
        d["data"][0, 0] = 2.0
        d["repr"] = d["repr"].replace("[[ 1.,", "[[ 2.,")
    assert difftest.compare_statement(want[2], other) is not None
    assert not difftest.lapack_zero_signs(lines, 2, got, want[2], other)

    plain = [_X, "r3 = x1 * torch.tensor([[1.0, -1e-8], [-1.0, -0.5]])", "r4 = torch.round_(r3)"]
    want, got = difftest.run_program(torch, plain), difftest.run_program(agrad, plain)
    flipped = copy.deepcopy(got[2])
    for k in ("r3", "r4"):
        d = flipped["vars"][k]
        d["data"] = d["data"].copy()
        d["data"][0, 1] = 0.0
        d["repr"] = d["repr"].replace("-0.", " 0.", 1)
    aspect = difftest.compare_statement(want[2], flipped)
    assert aspect is not None and aspect[0] == "repr", aspect
    assert not difftest.lapack_zero_signs(plain, 2, got, want[2], flipped)
