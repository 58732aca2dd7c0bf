"""The differential tester's rule ``matrix-exp-half`` for gradients (session 39's groupsd39): the backward
of a float16 ``matrix_exp`` runs PyTorch's float16 kernel (on the block matrix [[A^H, G], [0, A^H]]),
which overflows in its own constants as the forward does (docs/semantics.md, "float16 `matrix_exp`")."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import difftest  # noqa: E402


def _obs(dtype="torch.float16", requires_grad=True, **tensors):
    np_dtype = np.float16 if dtype == "torch.float16" else np.float32
    return {"error": None, "warnings": [], "vars": {name: {
        "kind": "tensor", "dtype": dtype, "shape": list(np.shape(a)), "data": np.array(a, np_dtype),
        "requires_grad": requires_grad, "is_leaf": False, "repr": repr(a), "graph": None}
        for name, a in tensors.items()}}


def _grads(dtype="torch.float16", **tensors):
    """An autograd.grad statement's tuple of gradients."""
    obs = _obs(dtype, False, **tensors)
    items = list(obs["vars"].values())
    return {"error": None, "warnings": [], "vars": {"gs": {"kind": "seq", "type": "builtins.tuple", "items": items,
                                                           "repr": repr([i["repr"] for i in items])}}}


LINES = ["x1 = torch.tensor([[2.5]], dtype=torch.float16, requires_grad=True)", "r6 = torch.matrix_exp(x1)",
         "gs = torch.autograd.grad(r6.sum(), [x1], create_graph=True)"]


def _documented(lines, want_i, got_i, before=None):
    before = before or [_obs(x1=[[2.5]]), _obs(r6=[[12.1875]])]
    aspect, _ = difftest.compare_statement(want_i, got_i)
    i = len(lines) - 1
    return difftest.documented(aspect, lines[i], want_i, got_i, (lines, [*before, want_i], i))


def test_a_float16_matrix_exp_gradient_is_documented_only_nearby():
    """PyTorch's gradient of exp([[2.5]]) in float16 is NaN or inf (the 2 x 2 block matrix through the
    float16 kernel); agrad's is the float64 one rounded. Documented for a gradient statement after a float16
    matrix_exp that requires grad whose float16 values alone differ; not after a float32 matrix_exp, one that
    records no graph, another op, nor for a statement that takes no gradient or a float32 value."""
    want, got = _grads(g=[[float("nan")]]), _grads(g=[[12.1875]])
    assert _documented(LINES, want, got) == "matrix-exp-half"
    assert _documented([LINES[0], "r6 = x1.matrix_exp()", LINES[2]], want, got) == "matrix-exp-half"
    assert _documented([LINES[0], "r6 = torch.linalg.inv(x1)", LINES[2]], want, got) is None
    floats = [_obs("torch.float32", x1=[[2.5]]), _obs("torch.float32", r6=[[12.18249]])]
    assert _documented(LINES, want, got, floats) is None
    no_graph = [_obs(x1=[[2.5]]), _obs(requires_grad=False, r6=[[12.1875]])]
    assert _documented(LINES, want, got, no_graph) is None
    assert _documented(LINES[:2] + ["gs = r6 * 2"], want, got) is None
    f32 = _grads("torch.float32", g=[[float("nan")]]), _grads("torch.float32", g=[[12.18]])
    assert _documented(LINES, *f32) is None
    shape = _grads(g=[[float("nan")]]), _grads(g=[[12.1875, 1.0]])
    assert _documented(LINES, *shape) is None


@pytest.mark.torch
def test_the_runs_float16_matrix_exp_gradients_are_documented():
    pytest.importorskip("torch")
    program = ["x1 = torch.tensor([[2.5]], dtype=torch.float16, requires_grad=True)",
               "r2 = x1 @ torch.tensor([[-1.75]], dtype=torch.float16)",
               "r6 = torch.matrix_exp(r2)",
               "gs8 = torch.autograd.grad(r6.sum(), [x1], create_graph=True, allow_unused=True)"]
    found = difftest.diff_program(program)
    assert found is not None and found[0] == "documented:matrix-exp-half:grad", found
    backward = ["x1 = torch.tensor([[0.5]], dtype=torch.float16, requires_grad=True)", "r6 = x1.matrix_exp()",
                "r6.sum().backward()"]
    found = difftest.diff_program(backward)
    assert found is not None and found[0] == "documented:matrix-exp-half:backward", found


def _svd_obs(u, s, v, kind="torch.return_types.svd"):
    items = [{"kind": "tensor", "dtype": "torch.float32", "shape": list(np.shape(a)), "data": np.array(a, np.float32),
              "requires_grad": False, "is_leaf": True, "repr": repr(a), "graph": None} for a in (u, s, v)]
    return {"error": None, "warnings": [], "vars": {"r": {"kind": "seq", "type": kind, "items": items,
                                                          "repr": repr([i["repr"] for i in items])}}}


def test_another_basis_of_a_repeated_singular_value_is_documented_only_nearby():
    """[[0, 0, 2.5, 0], [0, 2.5, 0, 0]] has the singular value 2.5 twice: MKL's gesdd gives U = I, V's
    columns e3, e2; agrad's (numpy's) U = [[0, 1], [1, 0]], V's columns e2, e3 -- the same rotation of both
    sides. Documented for svd; not when U and V turn differently (U S V^T changes), when the values are not
    repeated, when S differs, nor for another op."""
    v_w = [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 0.0]]
    v_g = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]
    want = _svd_obs([[1.0, 0.0], [0.0, 1.0]], [2.5, 2.5], v_w)
    got = _svd_obs([[0.0, 1.0], [1.0, 0.0]], [2.5, 2.5], v_g)
    aspect, _ = difftest.compare_statement(want, got)
    assert difftest.documented(aspect, "r = torch.svd(a)", want, got) == "svd-repeated"
    lin_w = _svd_obs([[1.0, 0.0], [0.0, 1.0]], [2.5, 2.5], np.array(v_w).T.tolist(), "torch.return_types.linalg_svd")
    lin_g = _svd_obs([[0.0, 1.0], [1.0, 0.0]], [2.5, 2.5], np.array(v_g).T.tolist(), "torch.return_types.linalg_svd")
    assert difftest.documented(aspect, "r = torch.linalg.svd(a, full_matrices=False)", lin_w, lin_g) == "svd-repeated"
    assert difftest.documented(aspect, "r = torch.linalg.eigh(a)", want, got) is None
    turned_u_only = _svd_obs([[0.0, 1.0], [1.0, 0.0]], [2.5, 2.5], v_w)
    assert difftest.documented(aspect, "r = torch.svd(a)", want, turned_u_only) is None
    distinct_w = _svd_obs([[1.0, 0.0], [0.0, 1.0]], [2.5, 2.0], v_w)
    distinct_g = _svd_obs([[0.0, 1.0], [1.0, 0.0]], [2.5, 2.0], v_g)
    assert difftest.documented(aspect, "r = torch.svd(a)", distinct_w, distinct_g) is None
    other_s = _svd_obs([[0.0, 1.0], [1.0, 0.0]], [2.5, 2.4999], v_g)
    assert difftest.documented(aspect, "r = torch.svd(a)", want, other_s) is None


@pytest.mark.torch
def test_the_runs_svd_of_a_repeated_singular_value_is_documented():
    pytest.importorskip("torch")
    program = ["a = torch.tensor([[0.0, 0.0, 2.5, 0.0], [0.0, 2.5, 0.0, 0.0]])", "r = torch.svd(a)"]
    found = difftest.diff_program(program)
    assert found is not None and found[0] == "documented:svd-repeated:svd", found
