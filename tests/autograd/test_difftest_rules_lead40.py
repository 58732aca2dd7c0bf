"""The differential tester's rules extended by session 40's lead: ``vml-downstream`` for the tuple of
gradients ``torch.autograd.grad`` returns (docs/semantics.md)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import difftest  # noqa: E402


@pytest.mark.torch
def test_vml_downstream_explains_the_gradients_autograd_grad_returns():
    """atan's VML ulp at -1.5 (0.98279369 against the correctly rounded 0.98279375), magnified by the
    in-place log1p's gradient 1 / (1 + atan(x)) (17.882526 against 17.882587, run dt40c): PyTorch's
    replay with agrad's atan result gives agrad's returned gradients, so vml-downstream; a gradient off
    on its own, or no VML op before it, is not covered."""
    torch = pytest.importorskip("torch")
    import agrad

    lines = ["x1 = torch.tensor([[1.25, -2.5, 0.5], [-3.0, 0.5, 1.0], [-1.5, -3.0, 0.0]], requires_grad=True)",
             "r10 = torch.arctan(x1)", "r11 = torch.log1p_(r10)",
             "gs14 = torch.autograd.grad(r11.sum(), [x1], create_graph=True, allow_unused=True)"]
    found = difftest.diff_program(lines)
    assert found is not None and found[0] == "documented:vml-downstream:grad", found
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)

    def explained(lines, got_i):
        return difftest.difftest_lapack.explained(lines, 3, got, want[3], got_i, difftest.op_of,
                                                  difftest.difftest_lapack.VML_OPS, difftest.compare_desc,
                                                  difftest._agree_once, True)
    assert explained(lines, got[3])
    own = copy.deepcopy(got[3])
    item = own["vars"]["gs14"]["items"][0]
    item["data"] = item["data"] * np.float32(1 + 1e-4)
    assert not explained(lines, own)
    assert not explained([lines[0], "r10 = x1 * 0.75", lines[2], lines[3]], got[3])


@pytest.mark.torch
def test_vml_log_inside_slogdet():
    """PyTorch's slogdet sums VML's log of the LU diagonal of A^T (docs/semantics.md, vml-log-inside): a
    det-1 float32 matrix's logabsdet is 5.96e-8 in PyTorch, 2.98e-8 (the correctly rounded logs' sum) in
    agrad (run dt40c); covered when the replay with a correctly rounded log gives agrad's value bit for
    bit, not for a logabsdet off on its own or another op."""
    torch = pytest.importorskip("torch")
    import agrad
    import difftest_vmlsqrt

    lines = ["x2 = torch.tensor([[1.0, 1.5], [-0.5, 0.25]], dtype=torch.float32)", "r6 = torch.linalg.slogdet(x2)"]
    found = difftest.diff_program(lines)
    assert found is not None and found[0] == "documented:vml-log-inside:slogdet", found
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)

    def explained(lines, got_i):
        return difftest_vmlsqrt.rounded_log_slogdet_explains(lines, 1, lines[1], want[1], got_i, difftest._agree_once)
    assert explained(lines, got[1])
    own = copy.deepcopy(got[1])
    item = own["vars"]["r6"]["items"][1]
    item["data"] = item["data"] * np.float32(2)
    assert not explained(lines, own)
    logdet = [lines[0], "r6 = torch.logdet(x2)"]
    found = difftest.diff_program(logdet)
    assert found is not None and found[0] == "documented:vml-log-inside:logdet", found
    det = [lines[0], "r6 = torch.linalg.det(x2) * 1.5"]  # (not one of the ops: no replay asked)
    assert difftest.diff_program(det) is None


@pytest.mark.torch
def test_replay_puts_a_return_types_tuple_back():
    """The replay of lapack-downstream writes agrad's results into PyTorch's: a torch.return_types
    structseq (cholesky_ex's (L, info)) is built from a sequence; its positional form raised TypeError
    and took the whole tester down (run dt40e: seeds 39835543, 39842835 'not compared')."""
    torch = pytest.importorskip("torch")
    import difftest_lapack

    old = torch.linalg.cholesky_ex(torch.eye(2))
    desc = {"kind": "seq", "items": [{"kind": "tensor", "data": np.eye(2, dtype=np.float32) * 2},
                                     {"kind": "tensor", "data": np.array(0, np.int32)}]}
    new = difftest_lapack._as_torch(torch, desc, old)
    assert type(new) is type(old) and new.L.tolist() == [[2.0, 0.0], [0.0, 2.0]] and new.info.item() == 0
    found = difftest.diff_program(["x = torch.tensor([[4.0, 2.0], [2.0, 3.0]], requires_grad=True)",
                                   "r = torch.linalg.cholesky_ex(x)", "r.L.sum().backward()"])
    assert found is None or found[0].startswith("documented:"), found
