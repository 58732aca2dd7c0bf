"""The differential tester's rules touched by session 42's lead: ``lapack-conditioning`` for the
reflectors geqrf computes past the rank of a numerically rank-deficient matrix (run dt42a value:geqrf)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import difftest  # noqa: E402

_RANK2 = ["x3 = torch.tensor([[[[-1.25, 0.75, -2.25, 2.5], [1.75, -3.0, 0.75, 1.75]]], [[[3.0, 0.25, 0.5, -2.0], "
          "[-2.25, 2.75, 3.0, 2.75]]]], dtype=torch.float32)",
          "r4 = F.upsample_bilinear(x3, scale_factor=3)", "r9 = torch.geqrf(r4)"]
_FULL = ["a = torch.tensor([[2.0, -1.0, 0.5], [0.25, 3.0, -1.5], [1.0, 0.5, 2.5], [-0.75, 1.25, 0.0]])",
         "r = torch.geqrf(a)"]


def _off(obs, name, where, by):
    off = copy.deepcopy(obs)
    item = off["vars"][name]["items"][0]
    item["data"] = item["data"].copy()
    item["data"][where] += by
    return off


@pytest.mark.torch
def test_geqrf_past_the_rank_is_documented_only_for_a_rank_deficient_input():
    """A 6 x 12 bilinear upsampling of 2 rows (rank 2): MKL's and agrad's reflectors past column 2 are each
    rounding noise made orthogonal, far apart; lapack-conditioning takes them (kappa ~ 1e8). The same change in
    a well-conditioned 4 x 3 matrix's reflectors still counts."""
    pytest.importorskip("torch")
    import agrad
    import torch

    want, got = difftest.run_program(torch, _RANK2), difftest.run_program(agrad, _RANK2)
    program = (_RANK2, want, 2)
    moved = _off(got[2], "r9", (0, 0, 5, 4), 1.0)  # (whatever agrad's noise is: one trailing reflector far off)
    aspect, _ = difftest.compare_statement(want[2], moved)
    assert aspect == "value"
    assert difftest.documented(aspect, _RANK2[2], want[2], moved, program) == "lapack-conditioning"
    want, got = difftest.run_program(torch, _FULL), difftest.run_program(agrad, _FULL)
    assert difftest.compare_statement(want[1], got[1]) is None
    off = _off(got[1], "r", (3, 2), 0.5)
    aspect, _ = difftest.compare_statement(want[1], off)
    assert aspect == "value"
    assert difftest.documented(aspect, _FULL[1], want[1], off, (_FULL, want, 1)) is None


_LP = ["x = torch.tensor([[5.75, 3.25, 1.25]], dtype=torch.float64)",
       "r = F.lp_pool1d(x, 2.0, 3)", "e = r.erfc()"]


@pytest.mark.torch
def test_lp_pool_root_is_vml_downstream():
    """lp_pool1d of norm 2 over [5.75, 3.25, 1.25] is sqrt(45.1875): MKL VML's 6.722164829874377, one ulp above
    the correctly rounded root agrad gives; erfc magnifies it to a numeric difference (run dt42a numeric:erfc):
    vml-downstream, when PyTorch's replay with agrad's root in place gives agrad's erfc. A difference that the root
    does not explain still counts."""
    pytest.importorskip("torch")
    import agrad
    import torch

    found = difftest.diff_program(_LP)
    assert found is not None and found[:2] == ("documented:vml-downstream:erfc", 2), found
    want, got = difftest.run_program(torch, _LP), difftest.run_program(agrad, _LP)
    off = copy.deepcopy(got[2])
    off["vars"]["e"]["data"] = off["vars"]["e"]["data"] * (1 + 1e-9)
    aspect, _ = difftest.compare_statement(want[2], off)
    assert aspect == "numeric"
    assert difftest.documented(aspect, _LP[2], want[2], off, (_LP, want, 2)) is None


_CHOL = ["x11 = torch.tensor([[2.5, -1.5, -2.75], [1.0, 1.25, -2.5], [-2.25, -2.5, -1.0]], dtype=torch.float32)",
         "x12 = (x11 @ x11.mT + 3 * torch.eye(3, dtype=torch.float32)).requires_grad_()",
         "o13 = torch.zeros(3, 3, dtype=torch.float64)",
         "with torch.no_grad():\n    r14 = torch.cholesky(x12, out=o13)"]


@pytest.mark.torch
def test_float32_lapack_result_in_a_float64_out_keeps_float32_rounding():
    """torch.cholesky of a float32 matrix into a float64 out= (run dt42b numeric:cholesky): spotrf's float32
    rounding seen in float64 is lapack-conditioning's, its bound taken with float32's eps; 1e-2 off is not."""
    pytest.importorskip("torch")
    import agrad
    import torch

    want, got = difftest.run_program(torch, _CHOL), difftest.run_program(agrad, _CHOL)
    program = (_CHOL, want, 3)
    moved = copy.deepcopy(got[3])
    for k in ("r14", "o13"):
        moved["vars"][k]["data"] = moved["vars"][k]["data"].copy()
        moved["vars"][k]["data"][2, 0] = want[3]["vars"][k]["data"][2, 0] + 1.5e-8  # (an ulp of float32 there)
    aspect, _ = difftest.compare_statement(want[3], moved)
    assert aspect == "numeric"
    assert difftest.documented(aspect, _CHOL[3], want[3], moved, program) == "lapack-conditioning"
    for k in ("r14", "o13"):
        moved["vars"][k]["data"][2, 0] = want[3]["vars"][k]["data"][2, 0] * (1 + 1e-2)
    aspect, _ = difftest.compare_statement(want[3], moved)
    assert difftest.documented(aspect, _CHOL[3], want[3], moved, program) is None


_MED = ["x1 = torch.tensor([[[0.0, 1.25, -0.75]], [[3.0, 0.0, -1.75]]], dtype=torch.float64, requires_grad=True)",
        "q = torch.autograd.grad(x1.sum(), [x1], create_graph=True)[0]",
        "o8 = torch.zeros(2, 1, dtype=torch.float64)", "o9 = torch.zeros(2, 1, dtype=torch.int64)",
        "w = torch.ones(2)",
        "r = torch.median(q, dim=2, out=(o8, o9))"]


@pytest.mark.torch
def test_median_of_stride0_takes_its_outs():
    """median along a dim of stride 0 (a sum's create_graph gradient, all strides 0) reads past the element in
    PyTorch (run dt42c value:median: 6.9e-310 run to run): median-stride0 takes the result and its out= tensors,
    not another variable that differs."""
    pytest.importorskip("torch")
    import agrad
    import torch

    want, got = difftest.run_program(torch, _MED), difftest.run_program(agrad, _MED)
    program = (_MED, want, 5)
    found = difftest.compare_statement(want[5], got[5])
    if found is not None:  # (PyTorch's garbage could, in principle, be the right value: nothing to excuse then)
        assert found[0] in ("value", "numeric")
        assert difftest.documented(found[0], _MED[5], want[5], got[5], program) == "median-stride0"
    off = copy.deepcopy(got[5])
    off["vars"]["w"]["data"] = off["vars"]["w"]["data"] + 1
    aspect, _ = difftest.compare_statement(want[5], off)
    assert difftest.documented(aspect, _MED[5], want[5], off, program) is None
