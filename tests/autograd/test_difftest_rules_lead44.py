"""The differential tester's rules touched by session 44's lead: ``svd-inf-nan`` counts the norms that take an
SVD (ord 'nuc' of matrix_norm / linalg.norm / torch.norm, matrix_norm's ord 2 and -2) as SVDs (strides44's run
42312000: the gradient of matrix_norm(x1, 'nuc', (1, 0)) with a -inf)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import difftest  # noqa: E402
import difftest_rules  # noqa: E402


@pytest.mark.parametrize("stmt, svd", [
    ("r6 = torch.linalg.matrix_norm(x1, 'nuc', (1, 0))", True),
    ("r = torch.linalg.norm(x[0, :2], 'nuc')", True),
    ("r = torch.norm(x, p='nuc')", True),
    ("r = torch.linalg.matrix_norm(x, -2, dim=(0, 1))", True),
    ("r = torch.linalg.matrix_norm(x, ord=2.0)", True),
    ("r = torch.linalg.matrix_norm(x)", False),
    ("r = torch.linalg.matrix_norm(x, 'fro')", False),
    ("r = torch.linalg.matrix_norm(x, float('inf'))", False),
    ("r = torch.norm(x, 2)", False),
    ("r = x.norm(p='fro', dim=(0, 1))", False),
])
def test_a_norm_that_takes_an_svd_counts_as_one(stmt, svd):
    assert (difftest_rules.svd_op_of(stmt) in difftest_rules.SVD_OPS) is svd


def _program(ord_):
    return ["x1 = torch.tensor([[[-0.5, -0.25], [-0.75, -2.0], [float('-inf'), -1.25]]], requires_grad=True)",
            f"r6 = torch.linalg.matrix_norm(x1, {ord_}, (1, 0))", "r6.sum().backward()"]


@pytest.mark.torch
def test_the_gradient_of_a_nuclear_norm_of_an_inf_is_svd_inf_nan():
    """MKL's gesdd of the column with the -inf gives NaN singular vectors, so PyTorch's gradient is NaN there
    and agrad's a signed permutation: documented for ord 'nuc'; not for the Frobenius norm, which takes no SVD."""
    pytest.importorskip("torch")
    import agrad
    import torch

    lines = _program("'nuc'")
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    aspect, _ = difftest.compare_statement(want[2], got[2])
    assert aspect is not None and aspect.startswith("grad")
    assert difftest.documented(aspect, lines[2], want[2], got[2], (lines, want, 2)) == "svd-inf-nan"
    fro = _program("'fro'")
    assert difftest.documented(aspect, fro[2], want[2], got[2], (fro, want, 2)) is None


_CHOLESKY_SOLVE = ["x1 = torch.tensor([-1.75, 2.0, -2.0, 0.0], requires_grad=True)", "r4 = x1 * 1", "r4[None].zero_()",
                   "r6 = r4.ger(torch.tensor([-2.5, 2.5, 0.0, 2.0]))",
                   "r7 = torch.cholesky_solve(r6, torch.tensor([[-2.5, -2.5, 2.75, 0.75], [0.0, 2.75, float('-inf'), "
                   "-1.5], [0.25, -2.0, 0.25, -1.0], [-3.0, -1.25, -0.25, 2.75]]))"]


@pytest.mark.torch
def test_cholesky_solve_zero_signs_are_trsm_zero_signs():
    """potrs is MKL's trsm twice: an all-zero right-hand side keeps B's signs in PyTorch (column 0 -0.), agrad's
    substitution divides by the pivots (row 0 -0.): trsm-zero-signs (runs44a's seed 42551981); a value that
    differs is not."""
    pytest.importorskip("torch")
    import agrad
    import torch

    lines = _CHOLESKY_SOLVE
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    aspect, _ = difftest.compare_statement(want[4], got[4])
    assert aspect == "repr"
    assert difftest.documented(aspect, lines[4], want[4], got[4], (lines, want, 4)) == "trsm-zero-signs"
    off = copy.deepcopy(got[4])
    off["vars"]["r7"]["data"] = off["vars"]["r7"]["data"] + 1
    aspect, _ = difftest.compare_statement(want[4], off)
    assert difftest.documented(aspect, lines[4], want[4], off, (lines, want, 4)) is None


_ORGQR = ["x1 = torch.tensor(-0.75, requires_grad=True)",
          "x7 = (torch.tensor([[-0.25, -0.75, 2.25], [1.5, -0.75, -0.75], [-0.0, 1.5, 0.0]], dtype=torch.float64))"
          ".requires_grad_()",
          "x8 = (torch.tensor([-2.75], dtype=torch.float64)).requires_grad_()", "r9 = x7.orgqr(x8)",
          "gs10 = torch.autograd.grad(r9.sum(), [x1, x8], create_graph=True, allow_unused=True)",
          "sum(g.pow(2).sum() for g in gs10 if g is not None).backward()"]


@pytest.mark.torch
def test_a_zero_double_gradient_is_noise_at_the_scale_of_the_statements_gradients():
    """The double backward through orgqr gives x8 a gradient zero in exact arithmetic: 3.9e-14 in PyTorch and
    4.3e-14 in agrad, past 4 max(m, n) eps of what the program held before (7.2) but within it of x7's gradient
    in the same statement (365): lapack-zero-gradient (run dt44c). A gradient of 1e-9 is no noise."""
    pytest.importorskip("torch")
    import agrad
    import torch

    lines = _ORGQR
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    found = difftest.diff_program(lines)
    assert found is None or found[0].startswith("documented:lapack-zero-gradient")
    off = copy.deepcopy(got[5])
    off["vars"]["x8"]["grad"]["data"] = off["vars"]["x8"]["grad"]["data"] * 0 + 1e-9
    aspect, _ = difftest.compare_statement(want[5], off)
    assert aspect is not None
    assert not difftest.difftest_lapack.zero_gradient_noise(lines, want, 5, want[5], off, difftest.op_of,
                                                           difftest.CONDITIONED_OPS, difftest._agrees_but_where)
    assert difftest.difftest_lapack.zero_gradient_noise(lines, want, 5, want[5], got[5], difftest.op_of,
                                                       difftest.CONDITIONED_OPS, difftest._agrees_but_where) \
        or difftest.compare_statement(want[5], got[5])[0] is None


_PINVERSE = ["x3 = torch.tensor([[[-3.0, -1.75, 2.0], [-0.5, 0.0, 1.0], [-0.25, 1.25, 0.75]], [[2.75, -2.5, -1.5], "
             "[-1.75, 1.75, 1.5], [3.0, 2.75, -0.25]], [[-0.75, -1.0, -0.75], [-0.75, -1.0, 3.0], [-1.5, -2.0, -0.25]], "
             "[[-1.25, 2.5, -0.5], [3.0, -2.5, 2.25], [0.75, -1.25, -2.25]]], requires_grad=True)",
             "r6 = torch.pinverse(x3)"]


@pytest.mark.torch
def test_pinv_singular_takes_the_other_matrices_within_their_conditioning():
    """The third matrix is singular (its second column 4/3 of its first): PyTorch's pinverse is 4.7e6 there,
    agrad's 0.1 (pinv-singular). The second (condition 13) is 2.3e-6 off in float32 (1.2e-6 relative): within
    lapack-conditioning's bound, so the statement is pinv-singular (run dt44d); 1e-3 off is not."""
    pytest.importorskip("torch")
    import agrad
    import torch

    lines = _PINVERSE
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    aspect, _ = difftest.compare_statement(want[1], got[1])
    assert aspect is None or difftest.documented(aspect, lines[1], want[1], got[1], (lines, want, 1)) == "pinv-singular"
    off = copy.deepcopy(got[1])
    off["vars"]["r6"]["data"][1, 0, 0] += 1e-3
    aspect, _ = difftest.compare_statement(want[1], off)
    assert difftest.documented(aspect, lines[1], want[1], off, (lines, want, 1)) is None
