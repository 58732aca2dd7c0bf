"""autograd.grad(is_grads_batched=True) equals one backward pass per seed, for every node the batched
pass vectorises (batched.ELEMENTWISE, batched.RULES) and for nodes it runs per element."""

from __future__ import annotations

import numpy as np
import pytest

import agrad as torch
from agrad.autograd import batched

from agrad.ops import pointwise as _pw

F = torch.nn.functional


def _grad1(f, x):
    """The first derivative with its graph: the nodes of a double backward."""
    return torch.autograd.grad(f(x * 1.5).sum(), x, create_graph=True)[0] * x

# name -> function of (a, b, m) with a, b of shape [3] (b used as a second input) and m [2, 3]
GRAPHS = {
    "AddBackward0": lambda a, b, m: a + b, "SubBackward0": lambda a, b, m: a - m,
    "MulBackward0": lambda a, b, m: a * m, "DivBackward0": lambda a, b, m: m / (b.abs() + 1),
    "NegBackward0": lambda a, b, m: -a, "PowBackward0": lambda a, b, m: a ** 3,
    "PowBackward1": lambda a, b, m: (a.abs() + 0.5) ** b,
    # the Scalar overloads recorded inside formulas (double backward)
    "AddBackward1": lambda a, b, m: _pw._add_scalar(a, other=2.0) * b,
    "SubBackward1": lambda a, b, m: _pw._sub_scalar(a, other=2.0) * b,
    "MulBackward1": lambda a, b, m: _pw._mul_scalar(a, other=2.0) * b,
    "DivBackward1": lambda a, b, m: _pw._div_scalar(a, other=2.0) * b, "RsubBackward1": lambda a, b, m: 1 - a,
    "TanhBackwardBackward0": lambda a, b, m: _grad1(lambda t: t.tanh(), a),
    "SigmoidBackwardBackward0": lambda a, b, m: _grad1(lambda t: t.sigmoid(), a),
    "ThresholdBackwardBackward0": lambda a, b, m: _grad1(lambda t: (t * t).relu(), a),
    "ReciprocalBackward0": lambda a, b, m: (a.abs() + 1).reciprocal(), "ExpBackward0": lambda a, b, m: a.exp(),
    "LogBackward0": lambda a, b, m: (a.abs() + 1).log(), "SinBackward0": lambda a, b, m: a.sin(),
    "CosBackward0": lambda a, b, m: a.cos(), "TanBackward0": lambda a, b, m: (a * 0.3).tan(),
    "TanhBackward0": lambda a, b, m: a.tanh(), "SigmoidBackward0": lambda a, b, m: a.sigmoid(),
    "SqrtBackward0": lambda a, b, m: (a.abs() + 1).sqrt(), "RsqrtBackward0": lambda a, b, m: (a.abs() + 1).rsqrt(),
    "AbsBackward0": lambda a, b, m: a.abs(), "ReluBackward0": lambda a, b, m: a.relu(),
    "Expm1Backward0": lambda a, b, m: a.expm1(), "Log1PBackward0": lambda a, b, m: (a.abs()).log1p(),
    "SinhBackward0": lambda a, b, m: a.sinh(), "CoshBackward0": lambda a, b, m: a.cosh(),
    "AsinBackward0": lambda a, b, m: (a * 0.3).asin(), "AcosBackward0": lambda a, b, m: (a * 0.3).acos(),
    "AtanBackward0": lambda a, b, m: a.atan(), "ErfBackward0": lambda a, b, m: a.erf(),
    "WhereBackward0": lambda a, b, m: torch.where(a > 0, a, b * 2), "CloneBackward0": lambda a, b, m: a.clone(),
    "AliasBackward0": lambda a, b, m: a[...], "ToCopyBackward0": lambda a, b, m: a.float(),
    "MmBackward0": lambda a, b, m: m.mm(torch.outer(a, b)), "MvBackward0": lambda a, b, m: (m * b).mv(a),
    "DotBackward0": lambda a, b, m: a.dot(b), "AddmmBackward0": lambda a, b, m: F.linear(m, torch.outer(a, b), a),
    "ViewBackward0": lambda a, b, m: (m * a).view(6), "TBackward0": lambda a, b, m: (m * a).t(),
    "TransposeBackward0": lambda a, b, m: (m * a).transpose(0, 1),
    "PermuteBackward0": lambda a, b, m: (m * a).unsqueeze(0).permute(2, 0, 1),
    "UnsqueezeBackward0": lambda a, b, m: a.unsqueeze(1), "SqueezeBackward0": lambda a, b, m: a.unsqueeze(0).squeeze(),
    "ExpandBackward0": lambda a, b, m: a.expand(2, 3), "SumBackward0": lambda a, b, m: (m * a).sum(),
    "SumBackward1": lambda a, b, m: (m * a).sum(1), "MeanBackward0": lambda a, b, m: (m * a).mean(),
    "MeanBackward1": lambda a, b, m: (m * a).mean(0, keepdim=True),
    "SoftmaxBackward0": lambda a, b, m: torch.softmax(m * a, 1) + torch.softmax(m * b, -2),
    "LogSoftmaxBackward0": lambda a, b, m: torch.log_softmax(m * a, 0) + torch.log_softmax(m * b, -1),
    "CatBackward0": lambda a, b, m: torch.cat([a, b]) * torch.cat([m, m], -1).sum(0),
    "StackBackward0": lambda a, b, m: torch.stack([a, b], 1) * torch.stack([b, a], -1).exp(),
    "SelectBackward0": lambda a, b, m: (m * a)[1] + (m * b).select(-1, 2).sum(),
    "SliceBackward0": lambda a, b, m: a[1:] * m[:, ::2].sum(),
    # not vectorised: run per element
    "CumsumBackward0": lambda a, b, m: a.cumsum(0), "IndexBackward0": lambda a, b, m: (m * a)[[1, 0, 1]],
}


def _inputs(seed):
    rng = np.random.default_rng(seed)
    a = torch.tensor(rng.standard_normal(3), dtype=torch.float64, requires_grad=True)
    b = torch.tensor(rng.standard_normal(3), dtype=torch.float64, requires_grad=True)
    m = torch.tensor(rng.standard_normal((2, 3)), dtype=torch.float64, requires_grad=True)
    return a, b, m


@pytest.mark.parametrize("name", sorted(GRAPHS))
@pytest.mark.parametrize("create_graph", [False, True])
def test_batched_equals_one_seed_at_a_time(name, create_graph):
    a, b, m = _inputs(len(name))
    out = GRAPHS[name](a, b, m)
    assert out.grad_fn is not None
    names = set()
    stack = [out.grad_fn]
    while stack:
        n = stack.pop()
        names.add(type(n).__name__)
        stack += [nx for nx, _ in n.next_functions if nx is not None]
    assert name in names
    rng = np.random.default_rng(1)
    seeds = torch.tensor(rng.standard_normal((4,) + tuple(out.shape)), dtype=out.dtype)
    got = torch.autograd.grad(out, (a, b, m), seeds, is_grads_batched=True, retain_graph=True,
                              create_graph=create_graph, allow_unused=True)
    for k, x in enumerate((a, b, m)):
        rows = [torch.autograd.grad(out, x, seeds[i], retain_graph=True, allow_unused=True,
                                    create_graph=create_graph)[0] for i in range(4)]
        if all(r is None for r in rows):
            assert got[k] is None
            continue
        want = np.stack([r.detach().numpy() if r is not None else np.zeros(x.shape) for r in rows])
        assert got[k].shape == (4,) + tuple(x.shape)
        np.testing.assert_allclose(got[k].detach().numpy(), want, rtol=1e-6, atol=1e-6)
        assert got[k].requires_grad == any(r is not None and r.requires_grad for r in rows)


def test_every_vectorised_node_is_tested():
    assert (batched.ELEMENTWISE | set(batched.RULES)) - {"SqueezeBackward1", "SqueezeBackward2",
                                                         "SqueezeBackward4", "UnsafeViewBackward0",
                                                         "ReshapeAliasBackward0"} <= set(GRAPHS)


def test_second_order_nodes_batched():
    """Hessian rows through the backward graph (TanhBackwardBackward0, ...) in one batched pass."""
    x = torch.tensor([0.3, -0.2, 0.9], dtype=torch.float64, requires_grad=True)
    for f in (lambda t: t.tanh(), lambda t: t.sigmoid(), lambda t: (t * t).relu()):
        g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
        H = torch.autograd.grad(g, x, torch.eye(3, dtype=torch.float64), is_grads_batched=True, retain_graph=True)[0]
        rows = [torch.autograd.grad(g[i], x, retain_graph=True)[0].numpy() for i in range(3)]
        np.testing.assert_allclose(H.numpy(), np.stack(rows), rtol=1e-12)


def test_hooks_fall_back_to_one_pass_per_seed():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    y = x * 3
    y.register_hook(lambda g: seen.append(tuple(g.shape)))
    g, = torch.autograd.grad(y, x, torch.eye(2), is_grads_batched=True)
    assert seen == [(2,), (2,)]
    assert g.tolist() == [[3.0, 0.0], [0.0, 3.0]]


def test_unused_input_error_and_materialize():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    z = torch.tensor([1.0], requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError, match="index 1 appears to not have been used"):
        torch.autograd.grad(y, (x, z), torch.eye(2), is_grads_batched=True, retain_graph=True)
    g = torch.autograd.grad(y, (x, z), torch.eye(2), is_grads_batched=True, materialize_grads=True)
    assert tuple(g[1].shape) == (2, 1)
