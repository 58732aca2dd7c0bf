"""The differential tester's rules of session 37: ``vml-downstream`` for a statement that is itself a
VML op (a float32 ``cos`` of a ``tan_`` result near cos's zero)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import difftest  # noqa: E402


@pytest.mark.torch
def test_a_vml_cos_of_a_vml_tan_is_documented_when_agrads_tan_explains_it():
    """float32 tan(1.5) is VML's 14.101419 in PyTorch, the correctly rounded 14.101420 in agrad (dt37a
    numeric:cos, seed 37000000 run): cos of it, 0.0357, magnifies the ulp to 2.7e-5 relative.  With
    agrad's tan_ in place PyTorch's cos gives agrad's value; a cos off on its own is not covered."""
    torch = pytest.importorskip("torch")
    import agrad

    lines = ["x1 = torch.tensor(1.5, dtype=torch.float32, requires_grad=True)", "r7 = x1 * 1",
             "r8 = r7.tan_()", "r9 = torch.cos(r8)"]
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    aspect, _ = difftest.compare_statement(want[3], got[3])
    assert aspect in ("value", "numeric")

    def documented(lines, got_3, self_ok=True):
        return difftest.difftest_lapack.explained(lines, 3, got[:3] + [got_3], want[3], got_3, difftest.op_of,
                                                  difftest.difftest_lapack.VML_OPS, difftest.compare_desc,
                                                  difftest._agree_once, self_ok)
    assert documented(lines, got[3])
    assert not documented(lines, got[3], self_ok=False)  # (the rule before: a VML statement was never covered)
    own = copy.deepcopy(got[3])
    own["vars"]["r9"]["data"] = own["vars"]["r9"]["data"] * 1.001
    assert not documented(lines, own)  # cos off on its own
    assert not documented(lines[:2] + ["r8 = r7.exp2_()", "r9 = torch.cos(r8 * 7.25)"], got[3])  # no VML op before


@pytest.mark.torch
def test_a_grown_resize_of_a_tuple_item_is_documented():
    """``gs = torch.autograd.grad(...)`` then ``gs[0].resize_as_(x1)`` growing it (dt37c value:resize_as_): the
    tuple differs only in the grown tensor's new elements (PyTorch's uninitialised memory, agrad's zeros); an old
    element off, or a nonzero new one in agrad, still counts."""
    torch = pytest.importorskip("torch")
    import agrad

    lines = ["x1 = torch.tensor([-1.0, -0.5, 0.5, 0.25, 1.0, 2.0])", "x2 = torch.ones(2, 2, requires_grad=True)",
             "gs3 = torch.autograd.grad(x2.sum(), [x2], create_graph=True)", "q4 = gs3[0]", "r5 = q4.resize_as_(x1)"]
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    w, g = copy.deepcopy(want[4]), copy.deepcopy(got[4])
    for obs in (w, g):  # (PyTorch's new elements: whatever memory held; made nonzero here)
        for name in ("q4", "r5"):
            obs["vars"][name]["data"] = obs["vars"][name]["data"].copy()
        obs["vars"]["gs3"] = copy.deepcopy(obs["vars"]["gs3"])
    for name in ("q4", "r5"):
        w["vars"][name]["data"][4:] = 7.5
    w["vars"]["gs3"]["items"][0]["data"] = w["vars"]["q4"]["data"]
    aspect, _ = difftest.compare_statement(w, g)
    assert aspect in ("value", "numeric")
    assert difftest.documented(aspect, lines[4], w, g, (lines, want[:4] + [w], 4)) == "resize-uninitialised"
    old = copy.deepcopy(g)
    old["vars"]["gs3"]["items"][0]["data"][0] = 3.0
    assert difftest.documented(aspect, lines[4], w, old, (lines, want[:4] + [w], 4)) is None


@pytest.mark.torch
def test_grid_sample_double_backward_zero_signs_of_a_leaf_grad_are_documented():
    """grid_sample's double backward through ``sum(g.pow(2).sum() ...).backward()`` (dt37d grad-repr:pow): the
    leaf's .grad differs only in zeros' signs -> grid-sample-double-backward-zero-signs; a nonzero off, or the
    same program without grid_sample, still counts."""
    torch = pytest.importorskip("torch")

    lines = ["x5 = torch.tensor([[[[-0.5, 0.0, 1.25]]]], dtype=torch.float64).requires_grad_()",
             "x6 = (torch.tensor([[[[2.0, -2.75], [2.5, 1.0], [-2.0, -1.25]]]], dtype=torch.float64) / 3).requires_grad_()",
             "r7 = F.grid_sample(x5, x6, 'bilinear', padding_mode='reflection', align_corners=True)",
             "gs9 = torch.autograd.grad(r7.sum(), [x6], create_graph=True, allow_unused=True)",
             "sum(g.pow(2).sum() for g in gs9 if g is not None).backward()"]
    want = difftest.run_program(torch, lines)
    got = copy.deepcopy(want)
    mine, theirs = want[4]["vars"]["x6"]["grad"], got[4]["vars"]["x6"]["grad"]
    mine["data"], mine["repr"] = np.zeros_like(mine["data"]), "tensor([[[[0., 0.], ...]]])"  # PyTorch's +0.0
    theirs["data"], theirs["repr"] = -np.zeros_like(mine["data"]), "tensor([[[[-0., -0.], ...]]])"  # agrad's -0.0
    aspect, _ = difftest.compare_statement(want[4], got[4])
    assert aspect == "grad-repr"
    assert difftest.documented(aspect, lines[4], want[4], got[4], (lines, want, 4)) == \
        "grid-sample-double-backward-zero-signs"
    off = copy.deepcopy(got[4])
    off["vars"]["x6"]["grad"]["data"] = off["vars"]["x6"]["grad"]["data"] + 0.5
    assert difftest.documented(difftest.compare_statement(want[4], off)[0], lines[4], want[4], off,
                               (lines, want, 4)) is None
    plain = lines[:2] + ["r7 = x5.sum() * x6", lines[3], lines[4]]
    assert difftest.documented(aspect, plain[4], want[4], got[4], (plain, want, 4)) is None
