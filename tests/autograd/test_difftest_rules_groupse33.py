"""The differential tester's ``vml-log-inside`` rule with poisson_nll_loss's flags passed by position
(dt33c numeric:poisson_nll_loss: ``torch.poisson_nll_loss(x, t, True, True, 1e-08, 1)``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import difftest  # noqa: E402
from difftest_rules import _poisson_flags  # noqa: E402


def test_poisson_flags_by_keyword_and_by_position():
    assert _poisson_flags("r = torch.poisson_nll_loss(x8, x10, True, True, 1e-08, 1)") == (True, True)
    assert _poisson_flags("r = torch.poisson_nll_loss(x8, x10, False, False, 1e-08, 1)") == (False, False)
    assert _poisson_flags("r = F.poisson_nll_loss(a[(0, 1)], b, True, False, reduction='sum')") == (True, False)
    assert _poisson_flags("r = F.poisson_nll_loss(a, b, full=True)") == (True, True)
    assert _poisson_flags("r = F.poisson_nll_loss(a, b)") == (True, False)


@pytest.mark.torch
def test_positional_full_poisson_loss_of_a_float32_target_is_vml_log_inside():
    """float32 log(1.5) is MKL VML's in PyTorch, an ulp above the correctly rounded value agrad gives;
    the float64 loss holds the float32 target's Stirling term."""
    torch = pytest.importorskip("torch")
    import agrad

    lines = ["x8 = (torch.tensor([[-2.5], [0.75], [-2.25]], dtype=torch.float64)).requires_grad_()",
             "x10 = torch.tensor([[-2.25], [1.5], [1.5]], dtype=torch.float32).abs()",
             "r11 = torch.poisson_nll_loss(x8, x10, True, True, 1e-08, 1)"]
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    aspect, _ = difftest.compare_statement(want[2], got[2])
    assert aspect == "numeric"
    assert difftest.documented(aspect, lines[2], want[2], got[2], (lines, want, 2)) == "vml-log-inside"
    plain = lines[:2] + ["r11 = torch.poisson_nll_loss(x8, x10, True, False, 1e-08, 1)"]
    want, got = difftest.run_program(torch, plain), difftest.run_program(agrad, plain)
    assert difftest.compare_statement(want[2], got[2]) is None or \
        difftest.documented("numeric", plain[2], want[2], got[2], (plain, want, 2)) != "vml-log-inside"
