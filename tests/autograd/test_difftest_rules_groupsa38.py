"""The differential tester's rules touched by session 38's groupsa38: ``vml-sqrt-inside`` for a gradient
after a ``cosine_embedding_loss`` (tools/difftest_vmlsqrt.py's ``rounded_root_gradient``)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import difftest  # noqa: E402
import difftest_vmlsqrt  # noqa: E402

_LOSS = ["x3 = torch.tensor([[-0.5, -0.75]], dtype=torch.float32)",
         "x4 = (torch.tensor([[-1.75, -2.5]], dtype=torch.float32)).requires_grad_()",
         "x5 = (torch.tensor([-0.75], dtype=torch.float32).sign() + 0.5).sign()",
         "r6 = F.cosine_embedding_loss(x3, x4, x5, margin=0.5)"]


@pytest.mark.torch
def test_a_create_graph_gradient_off_by_vml_sqrt_is_documented_only_when_the_rounded_root_explains_it():
    """sqrt(0.8125 * 9.3125) is VML's 2.7507100 in PyTorch, agrad's correctly rounded 2.7507102: the
    create_graph gradient is 0.0060997158 against agrad's 0.0060996860 (run dt37e). The replay with a
    correctly rounded root gives agrad's bits; any other gradient of agrad's is still a difference."""
    torch = pytest.importorskip("torch")
    import agrad

    lines = _LOSS + ["gs7 = torch.autograd.grad(r6.sum(), [x4], create_graph=True, allow_unused=True)"]
    found = difftest.diff_program(lines)
    assert found is not None and found[0] == "documented:vml-sqrt-inside:grad", found
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    aspect, _ = difftest.compare_statement(want[4], got[4])
    assert aspect == "numeric"
    assert difftest_vmlsqrt.rounded_root_gradient(lines, 4, want[4], got[4], difftest.op_of, difftest.compare_desc)
    own = copy.deepcopy(got[4])
    item = own["vars"]["gs7"]["items"][0]
    item["data"] = item["data"] * np.float32(1 + 1e-6)
    assert not difftest_vmlsqrt.rounded_root_gradient(lines, 4, want[4], own, difftest.op_of, difftest.compare_desc)


@pytest.mark.torch
def test_a_backward_s_leaf_gradient_is_replayed_too_and_needs_the_loss_before_it():
    """The same for ``.backward()``'s ``x4.grad`` (a grad-numeric difference); the rule needs the loss
    among the statements before the backward."""
    torch = pytest.importorskip("torch")
    import agrad

    lines = _LOSS + ["r6.backward()"]
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    aspect, _ = difftest.compare_statement(want[4], got[4])
    assert aspect == "grad-numeric"
    assert difftest_vmlsqrt.rounded_root_gradient(lines, 4, want[4], got[4], difftest.op_of, difftest.compare_desc)
    own = copy.deepcopy(got[4])
    own["vars"]["x4"]["grad"]["data"] = own["vars"]["x4"]["grad"]["data"] * np.float32(1 + 1e-6)
    assert not difftest_vmlsqrt.rounded_root_gradient(lines, 4, want[4], own, difftest.op_of, difftest.compare_desc)
    other = lines[:3] + ["r6 = (x3 * x4).sum().sqrt()", "r6.backward()"]
    assert not difftest_vmlsqrt.rounded_root_gradient(other, 4, want[4], got[4], difftest.op_of, difftest.compare_desc)


@pytest.mark.torch
def test_gaussian_nll_loss_off_by_vml_log_is_documented_only_when_the_rounded_log_explains_it():
    """F.gaussian_nll_loss's torch.log(var) is MKL VML's: log(0.40546510) is -0.90272045 in PyTorch, the
    correctly rounded -0.90272051 in agrad, the loss -0.015475929 against -0.015475959 (run 38100000).
    Replayed with a correctly rounded log PyTorch gives agrad's bits; another value of agrad's is not."""
    torch = pytest.importorskip("torch")
    import agrad
    import difftest_rules

    lines = ["x2 = torch.tensor([1.0, 3.0], dtype=torch.float32, requires_grad=True)",
             "r4 = x2 * 1", "r5 = r4.xlogy_(torch.tensor([1.5, -1.0], dtype=torch.float32))",
             "r6 = F.gaussian_nll_loss(r5, x2, r5, reduction='none')"]
    found = difftest.diff_program(lines)
    assert found is not None and found[0] == "documented:vml-log-inside:gaussian_nll_loss", found
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    assert difftest.compare_statement(want[3], got[3])[0] == "numeric"
    own = copy.deepcopy(got[3])
    own["vars"]["r6"]["data"] = own["vars"]["r6"]["data"] * np.float32(1 + 1e-6)
    assert not difftest_vmlsqrt.rounded_log_explains(lines, 3, lines[3], want[3], own, difftest_rules._agree_once)
