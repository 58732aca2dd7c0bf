"""torch.func beyond the golden file: vmap's randomness modes and its batched vjp_fn, nesting,
functional_call's restoring, transforms inside backward()."""

from __future__ import annotations

import numpy as np
import pytest

import agrad as torch
from agrad import func
from agrad.autograd import engine


def test_vmap_of_vjp_fn_is_one_batched_backward_pass():
    W = torch.tensor([[1.0, 2.0, 0.5], [-1.0, 0.0, 3.0]])
    x = torch.tensor([0.3, -0.2, 0.9])
    _, vjp_fn = func.vjp(lambda t: (W @ t).tanh(), x)
    runs = engine.runs
    jac, = func.vmap(vjp_fn)(torch.eye(2))
    assert engine.runs == runs + 1
    rows = [vjp_fn(torch.eye(2)[i])[0] for i in range(2)]
    np.testing.assert_allclose(jac.numpy(), torch.stack(rows).numpy(), rtol=1e-6)
    # other in_dims: one call per element, the same values
    jac_t, = func.vmap(vjp_fn, in_dims=1)(torch.eye(2))
    np.testing.assert_allclose(jac_t.numpy(), jac.numpy(), rtol=1e-6)


def test_randomness_modes():
    x = torch.zeros(3, 2)
    torch.manual_seed(0)
    same = func.vmap(lambda t: t + torch.rand(2), randomness="same")(x)
    assert torch.equal(same[0], same[1]) and torch.equal(same[1], same[2])
    torch.manual_seed(0)
    different = func.vmap(lambda t: t + torch.rand(2), randomness="different")(x)
    assert not torch.equal(different[0], different[1])
    with pytest.raises(RuntimeError, match="randomness error mode"):
        func.vmap(lambda t: t * torch.randn(2))(x)
    torch.rand(1)  # the check is gone after the error: drawing works again


def test_nested_vmap_and_out_dims():
    a = torch.arange(6.0).reshape(2, 3)
    b = torch.tensor([1.0, 10.0, 100.0])
    outer = func.vmap(func.vmap(torch.mul, in_dims=(0, None)), in_dims=(None, 0))
    got = outer(b, a)              # got[i, j] = b[j] * a[i]... mapped over a's rows, then b's elements
    want = np.stack([np.stack([bj * a.numpy()[i] for bj in b.numpy()]) for i in range(2)])
    np.testing.assert_allclose(got.numpy(), want)
    pair = func.vmap(lambda t: (t * 2, t.sum()), out_dims=(1, 0))(a)
    assert pair[0].shape == (3, 2) and pair[1].shape == (2,)
    np.testing.assert_allclose(pair[0].numpy(), (a * 2).t().numpy())


def test_vmap_keeps_the_graph():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    y = func.vmap(lambda r: (r * w).sum())(torch.ones(3, 2))
    y.sum().backward()
    assert w.grad.tolist() == [3.0, 3.0]


def test_grad_results_are_detached_at_the_outermost_level_only():
    x = torch.tensor([1.0, 2.0])
    g = func.grad(lambda t: (t ** 3).sum())(x)
    assert not g.requires_grad and g.grad_fn is None
    xr = torch.tensor([1.0, 2.0], requires_grad=True)
    g = func.grad(lambda t: (t ** 3).sum())(xr)
    assert g.requires_grad
    g.sum().backward()
    assert xr.grad.tolist() == [6.0, 12.0]


def test_functional_call_restores_parameters_even_on_error():
    lin = torch.nn.Linear(2, 1)
    w0 = lin.weight
    with pytest.raises(RuntimeError):
        func.functional_call(lin, {"weight": torch.ones(1, 2)}, (torch.ones(3),))
    assert lin.weight is w0 and "weight" not in lin.__dict__
    out = func.functional_call(lin, {"weight": torch.ones(1, 2), "bias": torch.zeros(1)}, (torch.ones(2),))
    assert out.tolist() == [2.0] and lin.weight is w0


def test_per_sample_grads_match_a_loop():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
    params = {k: v.detach() for k, v in model.named_parameters()}
    data, targets = torch.randn(5, 3), torch.randn(5, 1)

    def loss(p, x, t):
        return ((func.functional_call(model, p, (x.unsqueeze(0),)) - t) ** 2).mean()

    per = func.vmap(func.grad(loss), in_dims=(None, 0, 0))(params, data, targets)
    for i in range(5):
        model.zero_grad()
        ((model(data[i:i + 1]) - targets[i]) ** 2).mean().backward()
        for k, p in model.named_parameters():
            np.testing.assert_allclose(per[k][i].numpy(), p.grad.numpy(), rtol=1e-5, atol=1e-7)
