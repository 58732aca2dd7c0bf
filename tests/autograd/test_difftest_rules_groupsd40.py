"""The differential tester's rules touched by session 40's groupsd40: ``vml-sqrt-inside`` for a gradient
after a ``corrcoef`` (tools/difftest_vmlsqrt.py), whose standard deviations are MKL VML's float64 roots."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import difftest  # noqa: E402
import difftest_vmlsqrt  # noqa: E402

_X = "x1 = torch.tensor([[-0.75, -0.25], [0.0, 2.25], [3.0, -2.25]], dtype=torch.float64, requires_grad=True)"


@pytest.mark.torch
@pytest.mark.parametrize("form", ["torch.corrcoef(x1)", "x1.corrcoef()"])
def test_a_corrcoef_gradient_off_by_vml_sqrt_is_documented_only_when_the_rounded_root_explains_it(form):
    """sqrt(13.78125) is VML's 3.7123106012293747 in PyTorch, the correctly rounded ...743 in agrad: the
    correlations of rows 2 and 3 are -0.9999999999999999 and -1.0000000000000002 before the clip, whose
    gradient is 1 and 0, and the create_graph gradient of the sum, zero in exact arithmetic, [0, 0] against
    [4.4e-16, -4.4e-16] in row 1 (run 39906000). Replayed with a correctly rounded root PyTorch gives
    agrad's bits; another gradient of agrad's is still a difference."""
    torch = pytest.importorskip("torch")
    import agrad

    lines = [_X, f"r4 = {form}",
             "gs10 = torch.autograd.grad(r4.sum(), [x1], create_graph=True, allow_unused=True, materialize_grads=True)"]
    found = difftest.diff_program(lines)  # (zero in exact arithmetic: gemm-zero-gradient's noise too)
    assert found is not None and found[0] in ("documented:vml-sqrt-inside:grad", "documented:gemm-zero-gradient:grad")
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    assert difftest.compare_statement(want[2], got[2])[0] == "numeric"
    assert difftest_vmlsqrt.rounded_root_gradient(lines, 2, want[2], got[2], difftest.op_of, difftest.compare_desc)
    own = copy.deepcopy(got[2])
    item = own["vars"]["gs10"]["items"][0]
    item["data"] = item["data"] * 2
    assert not difftest_vmlsqrt.rounded_root_gradient(lines, 2, want[2], own, difftest.op_of, difftest.compare_desc)
    # (the same gradient after a cov, whose composite takes no root: nothing to replay)
    other = [_X, "r4 = torch.cov(x1)", lines[2]]
    assert not difftest_vmlsqrt.rounded_root_gradient(other, 2, want[2], got[2], difftest.op_of, difftest.compare_desc)


@pytest.mark.torch
def test_the_rules_corrcoef_with_a_rounded_root_is_agrads_where_the_covariance_agrees():
    """The composite with a correctly rounded root gives agrad's corrcoef and its gradient bit for bit
    (float32 and float64 rows of 2 to 5 observations whose covariance agrees), and not PyTorch's when
    a root is VML's other ulp: the replay tells the two apart."""
    torch = pytest.importorskip("torch")
    import agrad

    rng = np.random.default_rng(40)
    told = 0
    for _ in range(60):
        dtype = str(rng.choice(["float32", "float64"]))
        a = (np.round(rng.standard_normal((int(rng.integers(2, 5)), int(rng.integers(2, 6)))) * 4) / 4).astype(dtype)
        if not np.array_equal(torch.cov(torch.tensor(a)).numpy(), agrad.cov(agrad.tensor(a)).numpy()):
            continue  # (a float64 dgemm's order agrad does not emulate: not this rule's)
        xt, xa = torch.tensor(a, requires_grad=True), agrad.tensor(a, requires_grad=True)
        yt, ya = difftest_vmlsqrt._rounded_root_corrcoef(xt), agrad.corrcoef(xa)
        yt.sum().backward()
        ya.sum().backward()
        assert np.array_equal(yt.detach().numpy(), ya.detach().numpy(), equal_nan=True)
        assert np.array_equal(xt.grad.numpy(), xa.grad.numpy(), equal_nan=True)
        told += not np.array_equal(torch.corrcoef(torch.tensor(a)).numpy(), ya.detach().numpy(), equal_nan=True)
    assert told
