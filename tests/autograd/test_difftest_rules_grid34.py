"""The differential tester's grid_sample double-backward rules (tools/difftest_gridsample.py): the
second derivative's composed graph under create_graph, and zero signs where a multiplier is 0."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import difftest  # noqa: E402
from difftest_gridsample import after_double_backward  # noqa: E402

GRAPH = [
    'torch.manual_seed(46)',
    'x1 = torch.randn(1, 3, 2, 2, dtype=torch.float32).requires_grad_()',
    'g1 = (torch.rand(1, 2, 3, 2, dtype=torch.float32) * 2.6 - 1.3).requires_grad_()',
    "r1 = F.grid_sample(x1, g1, mode='bilinear', padding_mode='zeros', align_corners=False)",
    'a1, b1 = torch.autograd.grad((r1 * r1).sum(), [x1, g1], create_graph=True)',
    'c1 = torch.autograd.grad(a1.sin().sum() + b1.sum(), [x1, g1], create_graph=True)',
    'd1 = torch.autograd.grad(c1[0].sum() + c1[1].pow(2).sum(), [x1, g1], allow_unused=True)',
]

SIGNS = [
    'torch.manual_seed(5)',
    'x1 = torch.randn(2, 1, 3, 1, dtype=torch.float64).requires_grad_()',
    'g1 = (torch.rand(2, 2, 1, 2, dtype=torch.float64) * 2.6 - 1.3).requires_grad_()',
    "r1 = F.grid_sample(x1, g1, mode='bilinear', padding_mode='border', align_corners=False)",
    'a1, b1 = torch.autograd.grad((r1 * r1).sum(), [x1, g1], create_graph=True)',
    'c1 = torch.autograd.grad((a1 * a1).sum() + (b1 * b1).sum(), [x1, g1], allow_unused=True)',
]


def test_after_double_backward_needs_grid_sample_and_create_graph():
    assert after_double_backward(GRAPH, 5)
    assert not after_double_backward([s.replace("F.grid_sample(x1, g1", "F.interpolate(x1") for s in GRAPH], 5)
    assert not after_double_backward([s.replace("create_graph=True", "retain_graph=True") for s in GRAPH], 5)


def _first_difference(lines):
    torch = pytest.importorskip("torch")
    import agrad

    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    for i in range(len(lines)):
        found = difftest.compare_statement(want[i], got[i])
        if found:
            return found[0], difftest.documented(found[0], lines[i], want[i], got[i], (lines, want, i))
    return None


@pytest.mark.torch
def test_composed_third_order_graph_is_documented():
    assert _first_difference(GRAPH) == ("grad_fn", "grid-sample-double-backward-graph")


@pytest.mark.torch
def test_zero_signs_of_a_clipped_place_are_documented():
    assert _first_difference(SIGNS) == ("repr", "grid-sample-double-backward-zero-signs")
