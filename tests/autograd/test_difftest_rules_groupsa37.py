"""The differential tester's rules touched by session 37's groupsa37: ``vml-sqrt-inside`` for a
``torch.cosine_embedding_loss`` called without a reduction (which reduces nothing)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import difftest  # noqa: E402
import difftest_rules  # noqa: E402


@pytest.mark.torch
def test_vml_sqrt_inside_replays_torch_cosine_embedding_loss_without_a_reduction():
    """torch.cosine_embedding_loss(x, y, t, 0.5) gives one loss a row (its schema's default "Mean" is
    not an int to Python's parser: none); the rule's replay must do the same, or a VML root's ulp
    (sqrt(9.0625 * 5), 1 - cos = 0.03438425 against agrad's 0.03438419, difftest dt36b) stays
    undocumented. An agrad value off on its own is still a difference."""
    torch = pytest.importorskip("torch")
    import agrad

    lines = ["x11 = (torch.tensor([[-2.0, 2.25], [0.25, 0.25]], dtype=torch.float32)).requires_grad_()",
             "x12 = (torch.tensor([[-1.0, 2.0], [0.5, float('inf')]], dtype=torch.float32)).requires_grad_()",
             "x13 = (torch.tensor([2.75, -1.0], dtype=torch.float32).sign() + 0.5).sign()",
             "r14 = torch.cosine_embedding_loss(x11, x12, x13, 0.5)"]
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    assert want[3]["vars"]["r14"]["shape"] == [2]
    aspect, _ = difftest.compare_statement(want[3], got[3])
    assert aspect == "numeric"
    program = (lines, want, 3)
    assert difftest.documented(aspect, lines[3], want[3], got[3], program) == "vml-sqrt-inside"
    own = copy.deepcopy(got[3])
    own["vars"]["r14"]["data"] = own["vars"]["r14"]["data"] * np.float32(1 + 1e-5)
    assert difftest.documented(*difftest.compare_statement(want[3], own)[:1], lines[3], want[3], own, program) is None


@pytest.mark.torch
def test_lapack_downstream_covers_the_bytes_of_a_cholesky_factor_only_as_the_replay_gives_them():
    """untyped_storage() of a float32 cholesky factor shows MKL's last bit (0.71648771 against agrad's
    0.71648777, run dt37a): documented as lapack-downstream when PyTorch's replay with agrad's factor
    gives agrad's bytes; other bytes are not."""
    torch = pytest.importorskip("torch")
    import agrad

    lines = ["x5 = torch.tensor([[[-1.75, -1.5], [1.25, -2.75]]], dtype=torch.float32)",
             "x6 = (x5 @ x5.mT + 2 * torch.eye(2, dtype=torch.float32)).requires_grad_()",
             "x7 = torch.linalg.cholesky(x6)", "r12 = x7.untyped_storage()"]
    found = difftest.diff_program(lines)
    assert found is not None and found[0] == "documented:lapack-downstream:untyped_storage", found
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    assert difftest.compare_statement(want[3], got[3])[0] == "repr"

    def explained(got_obs, got_i):
        return difftest.difftest_lapack.explained(lines, 3, got_obs, want[3], got_i, difftest.op_of,
                                                  difftest.CONDITIONED_OPS, difftest.compare_desc,
                                                  difftest._agree_once)
    assert explained(got, got[3])
    other = copy.deepcopy(got[3])
    other["vars"]["r12"]["repr"] = other["vars"]["r12"]["repr"].replace(" 107\n", " 108\n", 1)
    assert not explained(got, other)


@pytest.mark.torch
def test_vml_zero_gradient_counts_an_in_place_vml_function():
    """sin_'s backward takes VML's cos(1) (0.54030234, agrad's 0.54030228), and x / x's gradient, zero in
    exact arithmetic, is -1.5e-8 in PyTorch and 0 in agrad (run 37210000): vml-zero-gradient, with the
    in-place sin_ as its VML op; an op outside the list (abs_) does not qualify."""
    torch = pytest.importorskip("torch")
    import agrad

    lines = ["x1 = torch.tensor([-1.75, -0.25, 0.25], dtype=torch.float32, requires_grad=True)",
             "r3 = x1 / x1", "r4 = r3.sin_()", "g6 = torch.tensor([-0.75, -1.5, 1.5], dtype=torch.float32)",
             "r4.backward(gradient=g6)"]
    found = difftest.diff_program(lines)
    assert found is not None and found[0] == "documented:vml-zero-gradient:backward", found
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    ops = difftest.difftest_lapack.VML_OPS

    def noise(lines):
        return difftest.difftest_lapack.zero_gradient_noise(lines, want, 4, want[4], got[4], difftest.op_of, ops,
                                                            difftest._agrees_but_where)
    assert noise(lines)
    assert not noise(lines[:2] + ["r4 = r3.abs_()"] + lines[3:])


@pytest.mark.torch
def test_orgqr_conditioning_reads_the_reflectors_and_the_product():
    """float64 orgqr with an inf above the diagonal (never read) and taus that make Q of condition 121: its
    double backward, 8.6e-8 apart in 62,269 (run 37210000), is lapack-conditioning; kappa is the product's,
    the reflectors taken as read; a difference past that bound is not documented."""
    torch = pytest.importorskip("torch")
    import agrad

    lines = ["x5 = (torch.tensor([[-2.75, float('-inf'), -0.25], [-1.5, 3.0, -2.75], [2.25, 2.5, -1.75], "
             "[-2.75, -2.0, -1.25]], dtype=torch.float64)).requires_grad_()",
             "x6 = (torch.tensor([-3.0, -1.0, 0.5], dtype=torch.float64)).requires_grad_()",
             "r7 = x5.orgqr(x6)",
             "gs13 = torch.autograd.grad(r7.sum(), [x6], create_graph=True, allow_unused=True)",
             "sum(g.pow(2).sum() for g in gs13 if g is not None).backward()"]
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    kappa, power = difftest_rules._condition_of(lines, want, 4)
    assert power == 2 and 120 < kappa < 122
    aspect, _ = difftest.compare_statement(want[4], got[4])
    assert aspect == "grad-numeric"
    assert difftest.documented(aspect, lines[4], want[4], got[4], (lines, want, 4)) == "lapack-conditioning"
    far = copy.deepcopy(got[4])
    far["vars"]["x5"]["grad"]["data"] = far["vars"]["x5"]["grad"]["data"] * (1 + 1e-6)
    assert difftest.documented(aspect, lines[4], want[4], far, (lines, want, 4)) is None
    assert difftest_rules._first_argument("r = torch.orgqr(a1, t)") == "a1"
    assert difftest_rules._first_argument("r = torch.linalg.householder_product(A, tau)") == "A"


@pytest.mark.torch
def test_pinv_singular_reads_a_receiver_sliced_in_the_statement():
    """v2[::2].pinverse() of a float32 matrix of -1.25s (rank 1): MKL leaves a noise singular value 1.5e-7
    above rcond=1e-15 (4.2e6 in the result), agrad 0 (-0.1): pinv-singular, the matrix read by slicing v2
    (run 37250000); a slice that is not singular is not covered."""
    torch = pytest.importorskip("torch")
    import agrad

    lines = ["x1 = torch.full((4, 3), -1.25)", "v2 = x1.transpose(0, -1)", "r7 = v2[::2].pinverse()"]
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    aspect, _ = difftest.compare_statement(want[2], got[2])
    assert aspect == "value"
    assert difftest.documented(aspect, lines[2], want[2], got[2], (lines, want, 2)) == "pinv-singular"
    regular = ["x1 = torch.tensor([[1.0, 2.0, 0.5], [3.0, -1.0, 2.0], [0.5, 0.25, 1.0], [2.0, 1.0, -1.5]])",
               lines[1], lines[2]]
    want_r = difftest.run_program(torch, regular)
    assert not difftest_rules._pinv_of_singular(regular, want_r, 2, want[2], got[2])
    assert difftest_rules._basic_index("[::2][1:, -1]") == [(slice(None, None, 2),), (slice(1, None), -1)]


@pytest.mark.torch
def test_vml_downstream_explains_a_gradient_through_vml_results():
    """tan's VML ulp at -1.5, magnified by sinh's gradient (132997312 against 132997464, run 37250000):
    PyTorch's replay with agrad's tan result gives agrad's gradient, so vml-downstream; a gradient off on
    its own, or no VML op before it, is not covered."""
    torch = pytest.importorskip("torch")
    import agrad

    lines = ["x1 = torch.tensor([[-1.5, -2.0], [-2.25, -0.25]], dtype=torch.float32, requires_grad=True)",
             "r8 = x1.tan()", "r9 = torch.sinh(r8)", "r9.sum().backward(create_graph=True)"]
    found = difftest.diff_program(lines)
    assert found is not None and found[0] == "documented:vml-downstream:backward", found
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)

    def explained(lines, got_i):
        return difftest.difftest_lapack.explained_gradient(lines, 3, got, want[3], got_i, difftest.op_of,
                                                           difftest.difftest_lapack.VML_OPS, difftest.compare_desc)
    assert explained(lines, got[3])
    own = copy.deepcopy(got[3])
    own["vars"]["x1"]["grad"]["data"] = own["vars"]["x1"]["grad"]["data"] * np.float32(1 + 1e-4)
    assert not explained(lines, own)
    assert not explained([lines[0], "r8 = x1 * 1.0", lines[2], lines[3]], got[3])
