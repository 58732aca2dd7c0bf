"""The differential tester's rule ``out-aliases-operand`` (session 42, alias42): ``out=`` that is one of the
call's own operands of an op whose reads of it are MKL's (addmm, addmv, linear, baddbmm, lu_solve, qr, svd)
or a race between threads (avg_pool2d). Observations written by hand."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import difftest  # noqa: E402


def _obs(**tensors):
    return {"error": None, "warnings": [], "vars": {name: {
        "kind": "tensor", "dtype": "torch.float32", "shape": list(np.shape(a)), "data": np.array(a, np.float32),
        "requires_grad": False, "is_leaf": True, "repr": repr(a), "graph": None} for name, a in tensors.items()}}


def _rule(stmt, want, got):
    found = difftest.compare_statement(want, got)
    return None if found is None else difftest.documented(found[0], stmt, want, got)


S, M = [[1.0, 2.0], [3.0, 4.0]], [[0.5, -1.0], [2.0, 1.5]]
TORCH, AGRAD = [[-0.875, 2.625], [1.0, 4.0]], [[1.875, -4.9375], [7.0, 2.0]]


def test_blas_operand_as_out_is_documented():
    want, got = _obs(s=S, m=M, x=TORCH, r=TORCH), _obs(s=S, m=M, x=AGRAD, r=AGRAD)
    assert _rule("r = torch.addmm(s, m, x, out=x)", want, got) == "out-aliases-operand"
    assert _rule("with torch.no_grad():\n    torch.linalg.lu_solve(x, p, s, adjoint=True, out=x)",
                 _obs(s=S, x=TORCH), _obs(s=S, x=AGRAD)) == "out-aliases-operand"
    assert _rule("r = F.avg_pool2d(x, 2, 1, out=x)", want, got) == "out-aliases-operand"


def test_nearby_differences_are_not():
    want, got = _obs(s=S, m=M, x=TORCH, r=TORCH), _obs(s=S, m=M, x=AGRAD, r=AGRAD)
    assert _rule("r = torch.addmm(s, m, o, out=x)", want, got) is None  # (out not an operand)
    assert _rule("r = torch.mm(m, x, out=x)", want, got) is None  # (agrad reproduces mm's)
    assert _rule("r = torch.addmm(s, m, x)", want, got) is None  # (no out)
    other = _obs(s=S, m=AGRAD, x=AGRAD, r=AGRAD)  # (another variable differs too)
    assert _rule("r = torch.addmm(s, m, x, out=x)", want, other) is None
    assert _rule("r = torch.addmm(s, mx, m, out=x)", want, got) is None  # (a name containing it)


def test_linear_is_documented_with_a_bias_only():
    # (session 43, alias43) linear without a bias is matmul_out, mm's zeroed BLAS result, which agrad gives
    want, got = _obs(s=S, m=M, x=TORCH), _obs(s=S, m=M, x=AGRAD)
    assert _rule("F.linear(x, m, s, out=x)", want, got) == "out-aliases-operand"
    assert _rule("F.linear(x, torch.ones(2, 2), bias=s, out=x)", want, got) == "out-aliases-operand"
    assert _rule("F.linear(x, m, out=x)", want, got) is None
    assert _rule("F.linear(x, torch.tensor([[2.0, 1.0], [0.0, 1.0]]), out=x)", want, got) is None
    assert _rule("F.linear(x, m, None, out=x)", want, got) is None
    assert _rule("F.linear(x, m, bias=None, out=x)", want, got) is None


def _svd_out_case(b_got=None, s_got=None):
    """torch.svd(a, out=(u, s, v)) of a matrix with an inf (S NaN: every vector is the null space's), v a
    strided view of b: PyTorch's values, agrad's with another permutation (or the given b, s)."""
    lines = ["a = torch.tensor([[float('inf'), 1.], [0., 1.]])", "b = torch.full((2, 4), 9.)", "u = torch.zeros(2, 2)",
             "s = torch.zeros(2)", "v = b[:, ::2]", "r = torch.svd(a, out=(u, s, v))"]
    nan, A = float("nan"), [[float("inf"), 1.0], [0.0, 1.0]]
    eye, swap = [[1.0, 0.0], [0.0, 1.0]], [[0.0, -1.0], [1.0, 0.0]]
    want = _obs(a=A, b=[[1.0, 9.0, 0.0, 9.0], [0.0, 9.0, 1.0, 9.0]], u=eye, s=[nan, nan], v=eye)
    got = _obs(a=A, b=b_got or [[0.0, 9.0, -1.0, 9.0], [1.0, 9.0, 0.0, 9.0]], u=swap, s=s_got or [nan, nan], v=swap)
    for obs in (want, got):
        items = [dict(obs["vars"][n]) for n in ("u", "s", "v")]
        obs["vars"]["r"] = {"kind": "seq", "type": "torch.return_types.svd_out", "items": items, "repr": ""}
    found = difftest.compare_statement(want, got)
    return None if found is None else difftest.documented(found[0], lines[-1], want, got, (lines, [want] * 6, 5))


@pytest.mark.torch
def test_svd_out_view_base_is_null_space():
    # (dt42a value:svd, alias43) the base of an out= view differs only where the view's stripped values do
    assert _svd_out_case() == "svd-null-space"


@pytest.mark.torch
def test_svd_out_view_base_elsewhere_is_not():
    assert _svd_out_case(b_got=[[0.0, 8.0, -1.0, 9.0], [1.0, 9.0, 0.0, 9.0]]) is None  # (an element not v's)
    assert _svd_out_case(s_got=[2.0, 1.0]) is None  # (the singular values differ)


def _int_obs(dtype, **tensors):
    obs = _obs(**tensors)
    for name, a in tensors.items():
        obs["vars"][name].update(dtype=dtype, data=np.array(a, np.int64 if dtype == "torch.int64" else np.int32))
    return obs


def test_int64_mm_past_8_is_documented_only_there():
    # (alias43) int64 mm's own kernel: blocks past an 8-long contraction read an out that is an operand
    big_w, big_g = np.arange(100).reshape(10, 10), np.arange(100).reshape(10, 10) + 1
    m = np.ones((10, 10))
    assert _rule("torch.mm(a, m, out=a)", _int_obs("torch.int64", a=big_w, m=m),
                 _int_obs("torch.int64", a=big_g, m=m)) == "out-aliases-operand"
    assert _rule("torch.mm(a, m, out=a)", _int_obs("torch.int32", a=big_w, m=m),
                 _int_obs("torch.int32", a=big_g, m=m)) is None  # (int32: ATen's loops, replayed)
    small_w, small_g, m8 = big_w[:8, :8], big_g[:8, :8], np.ones((8, 8))
    assert _rule("torch.mm(a, m, out=a)", _int_obs("torch.int64", a=small_w, m=m8),
                 _int_obs("torch.int64", a=small_g, m=m8)) is None  # (reads first: agrad's)
    assert _rule("torch.mm(o, m, out=a)", _int_obs("torch.int64", a=big_w, m=m, o=m),
                 _int_obs("torch.int64", a=big_g, m=m, o=m)) is None  # (out not an operand)
