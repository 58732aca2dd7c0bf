"""The differential tester's rules touched by session 43's lead: ``lapack-conditioning`` conditions a
one-triangle op (eigh, cholesky, ``hermitian=True``) by the symmetric matrix it reads (run dt43b numeric:pinv)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import difftest  # noqa: E402


def _program(nan_at):
    t = [[-1.25, 0.0, 0.0], [-1.0, 1.25, 2.0], [-2.25, 1.5, 1.5]]
    t[nan_at[0]][nan_at[1]] = "float('nan')"
    rows = ", ".join("[" + ", ".join(str(v) for v in row) + "]" for row in t)
    return ["x1 = torch.tensor([[1.75, 2.75, 2.25], [-0.5, -3.0, -1.75], [1.75, -2.25, 1.75]])",
            f"r2 = torch.subtract(x1, torch.tensor([{rows}]))",
            "r3 = torch.linalg.pinv(r2, hermitian=True, rtol=-1.5)"]


def _scaled(obs, name, by):
    off = copy.deepcopy(obs)
    d = off["vars"][name]
    d["data"] = d["data"] * by
    return off


@pytest.mark.torch
def test_hermitian_pinv_is_conditioned_by_the_triangle_it_reads():
    """pinv(hermitian=True) runs syevd on the lower triangle: a NaN above the diagonal is never read, and the
    matrix read (condition 40) bounds the rounding at 1.2e-4 of the largest magnitude. A difference within
    it is lapack-conditioning (before, the matrix with its NaN had no condition number: none was); one
    past it is not."""
    pytest.importorskip("torch")
    import agrad
    import torch

    lines = _program((0, 1))
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    for by, documented in ((1 + 1e-5, "lapack-conditioning"), (1 + 1e-2, None)):
        off = _scaled(got[2], "r3", by)
        aspect, _ = difftest.compare_statement(want[2], off)
        assert aspect in ("numeric", "value")
        assert difftest.documented(aspect, lines[2], want[2], off, (lines, want, 2)) == documented


_POISSON = ["x6 = torch.tensor([[-1.5, -2.75], [1.0, 0.25]])",
            "x8 = torch.tensor([[1.5, -2.0], [0.0, -0.25]]).abs()",
            "r9 = F.poisson_nll_loss(x6, x8, full=True)", "r12 = r9.tan_()"]


@pytest.mark.torch
def test_tan_after_poisson_nll_loss_is_vml_downstream():
    """poisson_nll_loss(full=True)'s float32 loss takes VML's log of the target: 3.2146351 in PyTorch, 3.2146349
    correctly rounded (within the numeric class); tan_ near pi makes the ulp 3e-6 relative (run dt43b): vml-downstream,
    PyTorch's tan of agrad's loss being agrad's. A tan_ result that the loss does not explain still counts."""
    pytest.importorskip("torch")
    import agrad
    import torch

    found = difftest.diff_program(_POISSON)
    assert found is not None and found[:2] == ("documented:vml-downstream:tan_", 3), found
    want, got = difftest.run_program(torch, _POISSON), difftest.run_program(agrad, _POISSON)
    off = copy.deepcopy(got)
    for name in ("r9", "r12"):  # (one tensor, two names)
        off[3]["vars"][name]["data"] = off[3]["vars"][name]["data"] * (1 + 1e-4)
    assert difftest.compare_statement(want[3], off[3]) is not None
    assert not difftest.difftest_lapack.explained(_POISSON, 3, off, want[3], off[3], difftest.op_of,
                                                  difftest.difftest_lapack.VML_OPS, difftest.compare_desc,
                                                  difftest._agree_once, True)
