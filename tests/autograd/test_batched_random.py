"""autograd.grad(is_grads_batched=True) on random programs of common ops (the generator of
test_random_programs.py): every row of the batched Jacobian equals its own backward pass, first and
second order; and, with PyTorch installed, equals torch.autograd.functional.jacobian(vectorize=True)."""

from __future__ import annotations

import importlib.util
import random
import re
from pathlib import Path

import numpy as np
import pytest

import agrad

_spec = importlib.util.spec_from_file_location("random_programs", Path(__file__).with_name("test_random_programs.py"))
_rp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_rp)


def program(seed, steps=8):
    rng = random.Random(seed)
    lines = _rp.make_program(rng, steps=steps)[:-1]        # without the final reduction
    last = re.match(r"(v\d+|a|b)", lines[-1]).group(1)
    data = np.random.default_rng(seed)
    A = data.standard_normal((3, 4)).round(3).tolist()
    B = data.standard_normal((3, 4)).round(3).tolist()
    return "\n".join(lines), last, A, B


def jacobians(mod, code, last, A, B, *, batched, order=1):
    ns = {"torch": mod, "A": A, "B": B}
    exec(code, ns)
    a, b, y = ns["a"], ns["b"], ns[last]
    if order == 2:   # the Jacobian of the gradient of a scalar built from y
        y = mod.autograd.grad((y * y).sum(), [a, b], create_graph=True, allow_unused=True)[0]
        if y is None or not y.requires_grad:
            return None
    flat = y.reshape(-1)
    n = flat.numel()
    eye = mod.eye(n, dtype=flat.dtype)
    if batched:
        g = mod.autograd.grad(flat, [a, b], eye, is_grads_batched=True, retain_graph=True, allow_unused=True)
        return [np.zeros((n, 3, 4)) if t is None else t.detach().numpy() for t in g]
    rows = [mod.autograd.grad(flat, [a, b], eye[i], retain_graph=True, allow_unused=True) for i in range(n)]
    return [np.stack([np.zeros((3, 4)) if r[k] is None else r[k].detach().numpy() for r in rows]) for k in range(2)]


@pytest.mark.parametrize("seed", range(200))
def test_batched_rows_equal_single_passes(seed):
    code, last, A, B = program(seed)
    got = jacobians(agrad, code, last, A, B, batched=True)
    want = jacobians(agrad, code, last, A, B, batched=False)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6, err_msg=code)


@pytest.mark.parametrize("seed", range(60))
def test_batched_second_order(seed):
    code, last, A, B = program(seed, steps=5)
    got = jacobians(agrad, code, last, A, B, batched=True, order=2)
    want = jacobians(agrad, code, last, A, B, batched=False, order=2)
    if want is None:
        assert got is None
        return
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5, err_msg=code)


@pytest.mark.torch
@pytest.mark.parametrize("seed", range(0, 200, 4))
def test_batched_jacobian_matches_pytorch(seed):
    torch = pytest.importorskip("torch")
    code, last, A, B = program(seed)
    want = jacobians(torch, code, last, A, B, batched=True)
    got = jacobians(agrad, code, last, A, B, batched=True)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-3, atol=1e-4, err_msg=code)
