"""The differential tester's rule ``vml-log-gradient`` (tools/difftest_lapack.py): logcumsumexp's backward taking
PyTorch's log kernel (MKL VML's, not correctly rounded) of the gradient (session 38's groupsd38), the incomplete
gamma functions' gradient of ``other`` taking its log and exp kernels (session 42's errs42); and
``lapack-downstream`` for a statement that writes a LAPACK result only into ``out=`` (errs42)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import difftest  # noqa: E402
import difftest_rules  # noqa: E402


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


def test_igamma_gradient_last_bits_are_documented_only_nearby():
    """VML's float32 log(0.75) is -0.28768206, the correctly rounded -0.28768209: igamma's gradient of other,
    grad * exp((self - 1) * log(other) - other - lgamma(self)), is then -0.019878328 in PyTorch and
    -0.019878298 in agrad (run dt41e). Documented within 1000 ulps of the largest finite magnitude; not
    further, not without an incomplete gamma, not for a statement that takes no gradient."""
    lines = ["x2 = torch.tensor([[-1.5, 1.75, 0.75], [-1.75, 0.75, -2.5]], requires_grad=True)",
             "g3 = torch.tensor([[1.0, 0.0, -1.25], [0.25, -0.25, 0.0]])", "r9 = g3.igamma_(x2)",
             "r9.sum().backward()"]
    nan, inf = float("nan"), float("inf")
    want = _tensor_obs(g=[[nan, nan, -0.0198783278465271], [nan, inf, nan]])
    got = _tensor_obs(g=[[nan, nan, -0.019878298044204712], [nan, inf, nan]])
    far = _tensor_obs(g=[[nan, nan, -0.0199], [nan, inf, nan]])
    assert _documented(lines, want, got)
    assert not _documented(lines, want, far)
    assert not _documented([*lines[:2], "r9 = g3.xlogy_(x2)", lines[3]], want, got)
    assert not _documented(lines[:3] + ["r10 = r9 * 2"], want, got)


@pytest.mark.torch
def test_the_groups_igamma_backward_is_documented():
    pytest.importorskip("torch")
    program = ["x2 = torch.tensor([[-1.5, 1.75, 0.75], [-1.75, 0.75, -2.5]], dtype=torch.float32, requires_grad=True)",
               "g3 = torch.tensor([[1.0, 0.0, -1.25], [0.25, -0.25, 0.0]], dtype=torch.float32)",
               "x2.backward(gradient=g3)", "x2.sum().backward()", "r9 = g3.igamma_(x2)",
               "x11 = torch.tensor([False, False, True], dtype=torch.bool)", "v12 = x11.expand(2, 3)",
               "g3[None].div_(v12)", "r13 = r9.t()", "r13.sum().backward()"]
    found = difftest.diff_program(program)
    assert found is not None and found[0].startswith("documented:vml-log-gradient:"), found


def test_an_out_target_is_the_lapack_statements_result():
    """A LAPACK statement that assigns nothing but writes one ``out=`` tensor: that tensor is its result, which
    ``lapack-downstream``'s replay puts in place; a tuple of outs or an out not last is no such target.
    ``out_targets_of`` also takes a last ``out=(a, b)`` tuple: each tensor is a result (runs44a)."""
    target = difftest.difftest_lapack.out_target_of
    assert target("with torch.no_grad():\n    torch.linalg.eigvalsh(x3, out=o4)") == "o4"
    assert target("torch.linalg.svdvals(x, out = o2 )") == "o2"
    assert target("torch.linalg.eigh(x3, out=(o4, o5))") is None
    assert target("torch.linalg.eigvalsh(x3, out=o4, UPLO='U')") is None
    assert target("r = torch.linalg.eigvalsh(x3)") is None
    targets = difftest.difftest_lapack.out_targets_of
    assert targets("torch.linalg.eigh(x7, 'U', out=(o8, o9))") == ["o8", "o9"]
    assert targets("with torch.no_grad():\n    torch.linalg.eigh(x3, out=( o4 ,o5, ))") == ["o4", "o5"]
    assert targets("torch.linalg.eigvalsh(x3, out=o4)") == ["o4"]
    assert targets("torch.linalg.eigh(x3, out=(o4, o5), UPLO='U')") == []
    assert targets("r = torch.linalg.eigh(x3)") == []


@pytest.mark.torch
def test_an_exp2_of_a_float32_eigvalsh_out_is_lapack_downstream():
    """Own run 41609000: float32 eigvalsh into out= (ssyevd's last bits: 1309434.75 against 1309436.5 after
    exp2_), replayed with agrad's eigenvalues written into the out: documented."""
    pytest.importorskip("torch")
    program = ["x2 = torch.tensor([[[1.25, -0.5, 0.25], [-1.75, -1.5, -2.5], [-2.75, -1.0, 0.0]], [[3.0, -1.0, 1.75], "
               "[0.5, -0.5, 2.5], [1.75, 0.5, -1.0]]], dtype=torch.float32)",
               "x3 = (x2 @ x2.mT + 3 * torch.eye(3, dtype=torch.float32)).requires_grad_()",
               "o4 = torch.tensor([[2.5, -1.5, -2.0], [3.0, 0.0, 0.0]], dtype=torch.float32)",
               "with torch.no_grad():\n    torch.linalg.eigvalsh(x3, out=o4)", "r7 = o4.exp2_()"]
    found = difftest.diff_program(program)
    assert found is not None and found[0] == "documented:lapack-downstream:exp2_", found


_EIGH_OUT = ["x6 = torch.tensor([[-2.0, 2.25], [-0.75, -0.0]], dtype=torch.float32)",
             "x7 = (x6 @ x6.mT + 2 * torch.eye(2, dtype=torch.float32))",
             "o8 = torch.tensor([-3.0, float('inf')], dtype=torch.float32)",
             "o9 = torch.tensor([2.75], dtype=torch.float32)",
             "torch.linalg.eigh(x7, 'U', out=(o8, o9))",
             "r10 = o9.float_power(torch.tensor([[-0.25, -2.25], [3.0, 0.0]], dtype=torch.float32, requires_grad=True))"]


@pytest.mark.torch
def test_a_float_power_of_eigh_out_tuple_eigenvectors_is_lapack_downstream():
    """Own run 42500000 (runs44a): float32 eigh into ``out=(o8, o9)``, ssyevd's eigenvector 0.16883376 in MKL
    against 0.16883375, an ulp; float_power takes it to float64 (1.5600379932928796 against 1.5600380277148735).
    PyTorch's replay with agrad's o8 and o9 written in gives agrad's value: lapack-downstream. A float_power off
    on its own, or the same values without the eigh, is not covered."""
    torch = pytest.importorskip("torch")
    import agrad

    found = difftest.diff_program(_EIGH_OUT)
    assert found is not None and found[0] == "documented:lapack-downstream:float_power", found
    want, got = difftest.run_program(torch, _EIGH_OUT), difftest.run_program(agrad, _EIGH_OUT)
    assert difftest.compare_statement(want[5], got[5])[0] == "numeric"

    def explained(lines, got_i):
        return difftest.difftest_lapack.explained(lines, 5, got, want[5], got_i, difftest.op_of,
                                                  difftest.CONDITIONED_OPS, difftest.compare_desc,
                                                  difftest._agree_once)
    assert explained(_EIGH_OUT, got[5])
    own = copy.deepcopy(got[5])
    own["vars"]["r10"]["data"][1, 0] *= 1 + 1e-7
    assert not explained(_EIGH_OUT, own)
    assert not explained(_EIGH_OUT[:4] + ["o8.copy_(torch.linalg.eigvalsh(x7))", _EIGH_OUT[5]], got[5])


_EIGH_INTO_INPUT = ["x6 = torch.tensor([[[-1.75, 2.0, -2.5], [0.0, -1.25, 0.25], [-1.5, 1.75, -1.0]], [[-0.25, 2.0, -0.25], "
                    "[-0.0, -1.5, 1.25], [2.25, 3.0, 1.25]]], dtype=torch.float32)",
                    "x7 = (x6 @ x6.mT + 3 * torch.eye(3, dtype=torch.float32))",
                    "o8 = torch.tensor([[0.25, float('-inf'), 0.5], [0.25, -1.0, 0.75]], dtype=torch.float32)",
                    "r9 = torch.linalg.eigh(x7, out=(o8, x7))"]


@pytest.mark.torch
def test_eigh_into_its_own_input_is_conditioned_by_that_input():
    """The lead's dt44a (runs44a): eigh writing its eigenvectors into its input, ``out=(o8, x7)``. An out='s old
    value is not read, but x7 is also the matrix eigh reads: its condition (6.9) bounds ssyevd's rounding
    (-0.38491112 in MKL, -0.38491049 in agrad, as for eigh(x7) without out=). A value off past the bound is
    not covered."""
    torch = pytest.importorskip("torch")
    import agrad

    found = difftest.diff_program(_EIGH_INTO_INPUT)
    assert found is not None and found[0] == "documented:lapack-signs:eigh", found
    lines = _EIGH_INTO_INPUT
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    kappa, power = difftest_rules._condition_of(lines, want, 3)
    assert 6 < kappa < 7 and power == 1
    aspect = difftest.compare_statement(want[3], got[3])[0]
    assert aspect == "numeric"
    assert difftest.documented(aspect, lines[3], want[3], got[3], (lines, want, 3))
    off = copy.deepcopy(got[3])
    for name in ("x7",):
        off["vars"][name]["data"][0, 0, 0] += 1e-3
    off["vars"]["r9"]["items"][1]["data"][0, 0, 0] += 1e-3
    assert not difftest.documented(difftest.compare_statement(want[3], off)[0], lines[3], want[3], off, (lines, want, 3))
