"""The differential tester's rule of session 38's groupsd38: ``vml-log-gradient`` (tools/difftest_lapack.py),
logcumsumexp's backward taking PyTorch's log kernel (MKL VML's, not correctly rounded) of the gradient."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import difftest  # noqa: E402


def _tensor_obs(**tensors):
    return {"error": None, "warnings": [], "vars": {name: {
        "kind": "tensor", "dtype": "torch.float32", "shape": list(np.shape(a)), "data": np.array(a, np.float32),
        "requires_grad": False, "is_leaf": True, "repr": repr(a), "graph": None} for name, a in tensors.items()}}


def _documented(lines, want, got):
    return difftest.difftest_lapack.log_inside_gradient(lines, len(lines) - 1, want, got, difftest.op_of,
                                                        difftest._agrees_but_where)


def test_logcumsumexp_log_last_bit_in_a_gradient_is_documented_only_nearby():
    """VML's float32 log(1.5) is 0.40546513, the correctly rounded 0.40546510: logcumsumexp's backward
    takes log|grad| and subtracts the exps of its positive and negative parts, so a double backward's
    gradient moves by ulps (0.072101355 against 0.072100878 of 0.22, session 38's run 38550000). Within
    1000 ulps of the largest magnitude it is documented; not further, not without a logcumsumexp, not for
    a statement that takes no gradient."""
    lines = ["x1 = torch.tensor([-0.75, 0.25, -1.75], requires_grad=True)", "r4 = x1.logcumsumexp(dim=0)",
             "gs = torch.autograd.grad(r4.sum(), [x1], create_graph=True)", "gs[0].pow(2).sum().backward()"]
    want = _tensor_obs(g=[0.14710379, 0.072100878, -0.21920443])
    got = _tensor_obs(g=[0.14710379, 0.072101355, -0.21920443])
    far = _tensor_obs(g=[0.14710379, 0.0722, -0.21920443])
    assert _documented(lines, want, got)
    assert not _documented(lines, want, far)
    assert not _documented([lines[0], "r4 = x1.logsumexp(dim=0)", *lines[2:]], want, got)
    assert not _documented(lines[:3] + ["r5 = gs[0] * 2"], want, got)


@pytest.mark.torch
def test_the_runs_logcumsumexp_double_backward_is_documented():
    pytest.importorskip("torch")
    program = ["x1 = torch.tensor([-0.75, 0.25, -1.75], dtype=torch.float32, requires_grad=True)",
               "r4 = x1.logcumsumexp(dim=0)",
               "x9 = (torch.tensor([[[[2.0, 0.75], [-2.0, -0.25]]]], dtype=torch.float32)).requires_grad_()",
               "gs12 = torch.autograd.grad(r4.sum(), [x9, x1], create_graph=True, allow_unused=True)",
               "sum(g.pow(2).sum() for g in gs12 if g is not None).backward()"]
    found = difftest.diff_program(program)
    assert found is not None and found[0] == "documented:vml-log-gradient:pow", found
