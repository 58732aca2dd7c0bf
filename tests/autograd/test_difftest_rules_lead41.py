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
