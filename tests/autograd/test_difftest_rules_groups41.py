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


def _storage(floats):
    raw = np.array(floats, np.float32).view(np.uint8)
    return {"kind": "other", "repr": "".join(f" {b}\n" for b in raw)
            + f"[torch.storage.UntypedStorage(device=cpu) of size {raw.size}]"}


def test_uninitialised_covers_a_reduced_mse_or_smooth_l1_loss_storage():
    """``r.untyped_storage()`` of a reduced smooth_l1_loss / mse_loss (run dt41a): ATen's meta function
    allocates the output at the broadcast shape (uninitialised) and resizes it to 0-d, so its storage past
    element 0 is whatever malloc's chunk held. Covered when only those bytes differ; not the first element,
    another variable, a storage of another size, nor soft_margin_loss's (its storage holds the unreduced
    loss, which agrad keeps)."""
    lines = ["x = torch.tensor([0.5, 1.5, -2.0])", "r = F.smooth_l1_loss(x, torch.zeros(3), reduction='sum')",
             "s = r.untyped_storage()"]
    loss = {"kind": "tensor", "dtype": "torch.float32", "shape": [], "data": np.array(3.0, np.float32),
            "requires_grad": False, "is_leaf": True, "repr": "tensor(3.)", "graph": None}
    x = _obs(x=[0.5, 1.5, -2.0])["vars"]["x"]

    def obs(storage, **more):
        return {"error": None, "warnings": [], "vars": {"x": x, "r": loss, "s": storage, **more}}
    want, got = obs(_storage([3.0, 1e-30, 7.5])), obs(_storage([3.0, 1.125, 2.5]))
    before = {"error": None, "warnings": [], "vars": {"x": x, "r": loss}}
    aspect, _ = difftest.compare_statement(want, got)
    assert aspect == "repr"
    assert difftest.documented(aspect, lines[2], want, got, (lines, [before, before, want], 2)) == "uninitialised"
    mse = [lines[0], "r = F.mse_loss(x, torch.zeros(3))", lines[2]]
    assert difftest.documented(aspect, lines[2], want, got, (mse, [before, before, want], 2)) == "uninitialised"
    soft = [lines[0], "r = F.soft_margin_loss(x, torch.ones(3))", lines[2]]
    assert difftest.documented(aspect, lines[2], want, got, (soft, [before, before, want], 2)) is None
    first = obs(_storage([2.0, 1.125, 2.5]))
    assert difftest.documented(aspect, lines[2], want, first, (lines, [before, before, want], 2)) is None
    shorter = obs(_storage([3.0, 1.125]))
    assert difftest.documented(aspect, lines[2], want, shorter, (lines, [before, before, want], 2)) is None
    other = obs(_storage([3.0, 1.125, 2.5]), y=x)
    want_y = obs(_storage([3.0, 1e-30, 7.5]), y=_obs(y=[1.0, 1.5, -2.0])["vars"]["y"])
    assert difftest.documented(aspect, lines[2], want_y, other, (lines, [before, before, want_y], 2)) is None
