"""The differential tester's rules touched by session 41's lead: ``svd-inf-nan``'s matrices (with
``lapack-conditioning``) for the singular vectors of a batch matrix with an inf (run dt41b)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import difftest  # noqa: E402

_SVD = ["x2 = torch.tensor([[[-2.0, 0.0, -2.25, -2.75], [1.0, 1.25, float('inf'), -1.5], [-0.5, 0.25, -1.0, 3.0]], "
        "[[-1.25, 0.5, -2.0, 0.0], [3.0, 1.5, 2.25, -1.5], [-0.25, 2.25, -2.0, 2.75]], [[-2.0, 2.0, -3.0, 2.25], "
        "[-0.5, -0.0, 0.0, -0.75], [-0.75, 0.0, 0.75, 2.5]]], dtype=torch.float32)",
        "r6 = 0.75 + x2", "r18 = torch.linalg.svd(r6)"]


@pytest.mark.torch
def test_svd_of_a_batch_matrix_with_an_inf_is_documented_only_within_that_matrix():
    """MKL's U of the matrix with an inf is NaN but for a column [0, 0, 1], agrad's a permutation: svd-inf-nan's
    matrices, the others within LAPACK's rounding (lapack-conditioning, which takes both); a real difference in
    another batch matrix still counts."""
    pytest.importorskip("torch")
    import agrad
    import torch

    found = difftest.diff_program(_SVD)
    assert found is not None and found[:2] == ("documented:lapack-conditioning:svd", 2), found
    want, got = difftest.run_program(torch, _SVD), difftest.run_program(agrad, _SVD)
    program = (_SVD, want, 2)
    aspect, _ = difftest.compare_statement(want[2], got[2])
    assert difftest.documented(aspect, _SVD[2], want[2], got[2], program) == "lapack-conditioning"
    off = copy.deepcopy(got[2])  # batch matrix 1 of U off by 0.1: no NaN there, so no excuse
    u = off["vars"]["r18"]["items"][0]
    u["data"] = u["data"].copy()
    u["data"][1, 0, 0] += 0.1
    aspect, _ = difftest.compare_statement(want[2], off)
    assert difftest.documented(aspect, _SVD[2], want[2], off, program) is None


def _f64(**tensors):
    import numpy as np
    return {"error": None, "warnings": [], "vars": {name: {
        "kind": "tensor", "dtype": "torch.float64", "shape": list(np.shape(a)), "data": np.array(a, np.float64),
        "requires_grad": False, "is_leaf": True, "repr": repr(a), "graph": None} for name, a in tensors.items()}}


def test_a_vml_result_in_a_float64_out_is_documented_within_two_float32_ulps_only():
    """torch.log of float32 1.5 into a float64 out= (run dt41d numeric:log): VML's 0.40546513 against the
    correctly rounded 0.40546510, one float32 ulp, seen in float64: vml-downstream. Not 3 ulps, not without out=,
    not another op."""
    stmt = "r3 = torch.log(x1, out=o2)"
    want = _f64(r3=0.40546512603759766, o2=0.40546512603759766)
    got = _f64(r3=0.40546509623527527, o2=0.40546509623527527)
    aspect, _ = difftest.compare_statement(want, got)
    assert aspect == "numeric"
    assert difftest.documented(aspect, stmt, want, got) == "vml-downstream"
    assert difftest.documented(aspect, "r3 = torch.log(x1)", want, got) is None
    assert difftest.documented(aspect, "r3 = torch.add(x1, 1, out=o2)", want, got) is None
    far = _f64(r3=0.40546503, o2=0.40546503)  # (3 float32 ulps below)
    aspect, _ = difftest.compare_statement(want, far)
    assert difftest.documented(aspect, stmt, want, far) is None


def test_a_float32_logit_in_a_float64_out_is_vml_downstream():
    """(alias43, run 41912000 seed 41913821) special.logit of a dense float32 tensor into a float64 out=: vsLn's
    last bit, one float32 ulp seen in float64; not 3 ulps."""
    stmt = "with torch.no_grad():\n    r7 = torch.special.logit(r3, out=o6)"
    want = _f64(r7=1.003255844116211, o6=1.003255844116211)
    got = _f64(r7=1.0032557249069214, o6=1.0032557249069214)
    aspect, _ = difftest.compare_statement(want, got)
    assert difftest.documented(aspect, stmt, want, got) == "vml-downstream"
    far = _f64(r7=1.0032553672790527, o6=1.0032553672790527)  # (3 float32 ulps below)
    aspect, _ = difftest.compare_statement(want, far)
    assert difftest.documented(aspect, stmt, want, far) is None
