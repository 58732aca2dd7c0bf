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


_GROW = ["x1 = torch.tensor([[1.25, -3.0], [2.0, 0.0], [-3.0, -1.25]], dtype=torch.float32)", "v2 = x1[1:]",
         "r5 = v2.resize_as_(x1)", "x1.view(-1).fill_(0.5)"]


@pytest.mark.torch
def test_resize_view_growth_covers_a_write_through_the_base_only():
    """v2.resize_as_(x1) grows a view of x1 past the storage: PyTorch grows the shared storage, so a later
    fill_ through x1 shows in r5; agrad's r5 has its own buffer (seed 39482599): resize-view-growth. Not a
    resize that does not grow, a variable other than the view differing, agrad's view changed since the
    resize, nor a statement that names the view."""
    torch = pytest.importorskip("torch")
    import agrad

    found = difftest.diff_program(_GROW)
    # The two elements the resize adds are uninitialised memory in PyTorch: when they happen not to be what
    # agrad's resize gives, the resize statement itself (index 2) differs first, under its own rule.
    assert found is not None and found[:2] in (("documented:resize-view-growth:view", 3),
                                               ("documented:resize-uninitialised:resize_as_", 2)), found
    want, got = difftest.run_program(torch, _GROW), difftest.run_program(agrad, _GROW)

    def fires(lines, got_i, got_obs=got):
        return difftest.difftest_uninit.view_growth(lines, 3, want, got_obs[:3] + [got_i], difftest.compare_desc,
                                                    difftest._agree_once)
    assert fires(_GROW, got[3])
    shrink = _GROW[:2] + ["r5 = v2.resize_(2, 2)", _GROW[3]]  # (no growth: the same fabricated difference)
    assert not fires(shrink, got[3])
    other = copy.deepcopy(got[3])  # x1 differs too
    other["vars"]["x1"]["data"] = other["vars"]["x1"]["data"] + 1
    assert not fires(_GROW, other)
    changed = copy.deepcopy(got[3])  # agrad's view is not what it was after the resize
    changed["vars"]["r5"]["data"] = changed["vars"]["r5"]["data"] + 1
    assert not fires(_GROW, changed)
    named = _GROW[:3] + ["v2.view(-1)[:1].fill_(0.5)"]
    assert not fires(named, got[3])
