"""Forward mode on random programs of the op table (the generator of test_random_programs:
pointwise ops, reductions, views, in-place ops through views, setitem, matmul, softmax, ...).

For each program ``out = f(a, b)`` with tangents ``(va, vb)``: the tangent of ``out`` is
``J v``; with ``u = 1`` it must equal ``<v, J^T u>``, the gradients dotted with the tangents
(agrad alone); and, marked ``torch``, it must equal PyTorch's tangent.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import agrad
from test_random_programs import make_program


def dual_program(rng):
    lines = make_program(rng)
    assert lines[0].startswith("a = ") and lines[1].startswith("b = ")
    head = ["a0 = torch.tensor(A, requires_grad=True)", "b0 = torch.tensor(B, requires_grad=True)",
            "a = fwAD.make_dual(a0, torch.tensor(VA))", "b = fwAD.make_dual(b0, torch.tensor(VB))"]
    return "\n".join(head + lines[2:])


def run(mod, code, data):
    fwAD = mod.autograd.forward_ad
    ns = {"torch": mod, "fwAD": fwAD, **data}
    with fwAD.dual_level():
        exec(code, ns)
        out = ns["out"]
        tangent = fwAD.unpack_dual(out).tangent
        jv = 0.0 if tangent is None else float(tangent.item())
    ga, gb = mod.autograd.grad(out, [ns["a0"], ns["b0"]], allow_unused=True)
    vjp = sum(float((g.detach().numpy().astype(np.float64) * np.asarray(v)).sum())
              for g, v in ((ga, data["VA"]), (gb, data["VB"])) if g is not None)
    return jv, vjp


def _data(seed):
    gen = np.random.default_rng(seed)
    return {k: gen.standard_normal((3, 4)).round(3).tolist() for k in ("A", "B", "VA", "VB")}


@pytest.mark.parametrize("seed", range(300))
def test_jvp_equals_the_vjp_transpose(seed):
    code = dual_program(random.Random(seed))
    jv, vjp = run(agrad, code, _data(seed))
    assert np.isclose(jv, vjp, rtol=1e-3, atol=1e-4), code


@pytest.mark.torch
@pytest.mark.parametrize("seed", range(100))
def test_tangent_matches_pytorch(seed):
    torch = pytest.importorskip("torch")
    code = dual_program(random.Random(seed))
    want, _ = run(torch, code, _data(seed))
    got, _ = run(agrad, code, _data(seed))
    assert np.isclose(got, want, rtol=1e-3, atol=1e-4), code
