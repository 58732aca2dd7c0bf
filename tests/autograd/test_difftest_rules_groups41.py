"""The differential tester's rules touched by session 41's groups41: ``svd-inf-nan`` for a gradient through
the singular vectors of a matrix with an inf (run dt40c)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import difftest  # noqa: E402

_X3 = ("x3 = torch.tensor([[-1.5, 2.75, -3.0, float('-inf')], [-2.5, -2.75, 1.75, 1.75], [1.75, -1.0, 1.25, -2.75], "
       "[1.5, -1.0, 1.25, -1.25]], dtype=torch.float32, requires_grad=True)")
_NUC = [_X3, "v4 = x3[:, 1:]", "r7 = torch.nuclear_norm(v4, dim=(1, 0))", "r7.sum().backward()"]


@pytest.mark.torch
def test_svd_inf_nan_covers_a_gradient_through_nan_singular_vectors():
    """nuclear_norm of a 3 x 4 matrix with -inf at (2, 0) (dt40c): MKL's U is NaN in rows 1 and 2 and its row 0
    [0, -1, 0], agrad's a permutation; the gradient U Vh differs beyond PyTorch's NaNs: svd-inf-nan. Not when
    the inf sits where PyTorch's singular vectors come out finite (a gradient without a NaN that differs: a
    real difference still), nor without the inf."""
    found = difftest.diff_program(_NUC)
    assert found is not None and found[0] == "documented:svd-inf-nan:backward", found
    finite_vectors = [_X3.replace("-3.0, float('-inf')], [-2.5, -2.75, 1.75, 1.75]",
                                  "-3.0, 1.0], [-2.5, -2.75, 1.75, float('-inf')]")] + _NUC[1:]
    found = difftest.diff_program(finite_vectors)
    assert found is not None and found[0] == "grad-value:backward", found
    assert difftest.diff_program([_X3.replace("float('-inf')", "-1.0")] + _NUC[1:]) is None


def _obs(**tensors):
    return {"error": None, "warnings": [], "vars": {name: {
        "kind": "tensor", "dtype": "torch.float32", "shape": list(np.shape(a)), "data": np.array(a, np.float32),
        "requires_grad": False, "is_leaf": True, "repr": repr(a), "graph": None} for name, a in tensors.items()}}


def test_svd_inf_nan_gradient_rule_is_narrow():
    """Only a backward/grad statement after an SVD op of an inf, and only tensors that hold a NaN in PyTorch's:
    another tensor that differs, an SVD of a finite tensor, or the SVD statement itself is not covered."""
    nan, inf = float("nan"), float("inf")
    lines = ["x = torch.tensor([[1., inf, 2.]])", "r = torch.linalg.svdvals(x)", "g = torch.autograd.grad(r.sum(), x)"]
    state = _obs(x=[[1.0, inf, 2.0]])
    want = _obs(x=[[1.0, inf, 2.0]], g=[[0.0, -1.0, nan]])
    got = _obs(x=[[1.0, inf, 2.0]], g=[[1.0, 0.0, 0.0]])
    aspect, _ = difftest.compare_statement(want, got)
    assert difftest.documented(aspect, lines[2], want, got, (lines, [state, state, want], 2)) == "svd-inf-nan"
    finite = _obs(x=[[1.0, 3.0, 2.0]])
    assert difftest.documented(aspect, lines[2], want, got, (lines, [finite, finite, want], 2)) is None
    assert difftest.documented(aspect, lines[1], want, got, (lines, [state, want], 1)) is None
    sin = [lines[0], "r = torch.sin(x)", lines[2]]
    assert difftest.documented(aspect, sin[2], want, got, (sin, [state, state, want], 2)) is None
    want2 = _obs(x=[[1.0, inf, 2.0]], g=[[0.0, -1.0, nan]], h=[2.0])
    got2 = _obs(x=[[1.0, inf, 2.0]], g=[[1.0, 0.0, 0.0]], h=[3.0])
    aspect, _ = difftest.compare_statement(want2, got2)
    assert difftest.documented(aspect, lines[2], want2, got2, (lines, [state, state, want2], 2)) is None
    no_nan = _obs(x=[[1.0, inf, 2.0]], g=[[0.0, -1.0, 0.0]])
    aspect, _ = difftest.compare_statement(no_nan, got)
    assert difftest.documented(aspect, lines[2], no_nan, got, (lines, [state, state, no_nan], 2)) is None
