"""vmap's batched tensors: which functions run vectorised (no op run per element, func called once), that
the results equal func applied element by element, gradients through the batched ops, the per-op fallback
and the per-element restart, and a live comparison with PyTorch."""

from __future__ import annotations

import numpy as np
import pytest

import agrad as torch
from agrad import func
from agrad.func import _batched

F = torch.nn.functional


def _counts():
    return dict(_batched.STATS)


def _loop(f, *args, in_dims=0):
    """f per element, stacked: what vmap must give."""
    dims = in_dims if isinstance(in_dims, tuple) else (in_dims,) * len(args)
    size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
    outs = [f(*(a if d is None else a.select(d, i) for a, d in zip(args, dims))) for i in range(size)]
    if isinstance(outs[0], tuple):
        return tuple(torch.stack([o[k] for o in outs]) for k in range(len(outs[0])))
    return torch.stack(outs)


def _assert_same(got, want):
    if isinstance(want, tuple):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _assert_same(g, w)
        return
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape, got.dtype, want.dtype)
    np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=1e-5, atol=1e-6)


torch.manual_seed(0)
X = torch.randn(5, 3)
Y = torch.randn(5, 3)
M = torch.randn(3, 3)
W = torch.randn(4, 3)
BIAS = torch.randn(4)
A3 = torch.randn(5, 2, 3)
CONV_W = torch.randn(3, 2, 3, 3)
IMAGES = torch.randn(2, 2, 5, 5)

VECTORISED = {
    "unary": (lambda a: a.sin().exp() - a.tanh().sigmoid() + a.abs().sqrt(), (X,)),
    "binary": (lambda a, b: a * b + a / (b.abs() + 1) - b ** 2 + 2 ** a, (X, Y)),
    "scalars_first": (lambda a: 1 - a + 2 * a - 3 / (a.abs() + 1), (X,)),
    "compare_where": (lambda a, b: torch.where(a > b, a, b * 0.5) + (a <= 0).float(), (X, Y)),
    "clamp_activations": (lambda a: F.relu(a) + F.gelu(a) + F.leaky_relu(a, 0.2) + a.clamp(-0.5, 0.5), (X,)),
    "broadcast_unbatched": (lambda a: a + M, (X,)),
    "broadcast_rank": (lambda a, b: a.unsqueeze(-1) * b, (X, Y)),
    "mv": (lambda a: M @ a, (X,)),
    "vm": (lambda a: a @ M, (X,)),
    "mm_both": (lambda a, b: a.unsqueeze(-1) @ b.unsqueeze(0), (X, Y)),
    "matmul_rank3": (lambda a: a @ M, (A3,)),
    "dot": (torch.dot, (X, Y)),
    "linear": (lambda a: F.linear(a, W, BIAS), (X,)),
    "mlp": (lambda a: torch.tanh(W @ a + BIAS).sum(), (X,)),
    "linear_batched_weight": (lambda w: F.linear(X[0], w), (torch.randn(5, 4, 3),)),
    "softmax": (lambda a: F.softmax(a, dim=0) + a.log_softmax(-1), (X,)),
    "reductions": (lambda a: (a.sum(), a.sum(0), a.mean(), a.amax(), a.argmax(), a.var(), a.std(0, keepdim=True),
                              a.logsumexp(0), a.prod()), (X,)),
    "reductions_rank3": (lambda a: (a.sum(1), a.mean((0, 1)), a.max(-1).values, a.min(0).indices, a.sum()), (A3,)),
    "sort_topk": (lambda a: (a.sort().values, a.topk(2).indices, a.cumsum(0)), (X,)),
    "views": (lambda a: a.view(3, 1).expand(3, 2).t().reshape(-1).unflatten(0, (2, 3)).permute(1, 0), (X,)),
    "views_rank3": (lambda a: a.transpose(0, 1).flatten().view(3, 2).movedim(0, 1).squeeze(), (A3,)),
    "index": (lambda a: a[1:] - a[0] + a[..., ::2].sum() + a[None].sum(0)[-1], (X,)),
    "index_tensor": (lambda a: a[torch.tensor([2, 0])] * a.index_select(0, torch.tensor([1, 1])), (X,)),
    "unbind_iter": (lambda a: torch.stack([v * i for i, v in enumerate(a)]) * len(a), (X,)),
    "cat_stack": (lambda a, b: torch.cat([a, b, M[0]]).sum() + torch.stack([a, b], 1).sum(0), (X, Y)),
    "split_chunk": (lambda a: a.chunk(3)[1] + a.split(2)[0].sum() + a.narrow(0, 1, 2).sum(), (X,)),
    "flip_diag": (lambda a: a.flip(0) + a.unsqueeze(1).expand(3, 3).diagonal() + a.outer(a).triu().sum(0), (X,)),
    "masked_inplace": (lambda a: a.masked_fill(a < 0, 0.0).clone().mul_(2).add_(1), (X,)),
    "mse": (lambda a, b: F.mse_loss(a, b) + F.mse_loss(a, b, reduction="sum"), (X, Y)),
    "casts": (lambda a: a.double().sum() + a.to(torch.float64).mean(), (X,)),
    "zeros_like": (lambda a: torch.zeros_like(a) + torch.ones_like(a) * a, (X,)),
    "long": (lambda a: a.sum() + a.max(), (torch.arange(15).reshape(5, 3),)),
    "losses": (lambda a, t: F.cross_entropy(a.view(1, 3), t.view(1)) + F.nll_loss(a.log_softmax(0), t),
               (X, torch.tensor([0, 2, 1, 1, 0]))),
    "conv_pool": (lambda a: F.max_pool2d(F.conv2d(a, CONV_W, padding=1), 2).sum((1, 2)), (torch.randn(5, 2, 4, 4),)),
    "conv_batched_weight": (lambda w: F.conv2d(IMAGES, w, groups=2, stride=2), (torch.randn(5, 4, 1, 3, 3),)),
    "einsum": (lambda a, b: torch.einsum("ij,jk->ik", a, b) + torch.einsum("ij,jk", a, M), (A3, torch.randn(5, 3, 3))),
    "repeat_roll_gather": (lambda a: a.repeat(2, 1).roll(1) + a.gather(0, torch.tensor([[2, 0, 0]])).sum(),
                           (torch.randn(5, 3, 3),)),
    "layer_norm_embedding": (lambda a, i: F.layer_norm(a, (3,)) * F.embedding(i, M).sum(), (X, torch.tensor([0, 2, 1, 1, 0]))),
}


@pytest.mark.parametrize("name", sorted(VECTORISED))
def test_vectorised_ops_equal_the_loop_and_run_once(name):
    f, args = VECTORISED[name]
    before = _counts()
    got = func.vmap(f)(*args)
    assert _counts() == before, f"{name}: an op ran per element or func ran per element"
    _assert_same(got, _loop(f, *args))


def test_in_dims_out_dims_and_unbatched_outputs_without_a_loop():
    before = _counts()
    got = func.vmap(lambda a, m: (a @ m, m.sum(), a.sum()), in_dims=(1, None), out_dims=(1, None, 0))(X.t(), M)
    assert _counts() == before
    _assert_same(got[0], (X @ M).t())
    _assert_same(got[1], M.sum())
    _assert_same(got[2], X.sum(1))
    expanded = func.vmap(lambda a: M)(X)   # an output that does not depend on the batch is expanded
    assert expanded.shape == (5, 3, 3) and bool((expanded == M).all())


def test_nested_vmap_is_vectorised_at_both_levels():
    before = _counts()
    got = func.vmap(func.vmap(torch.dot, in_dims=(0, None)), in_dims=(None, 0))(X, Y)
    inner = func.vmap(lambda r: func.vmap(lambda c: (r * c).sum() + r.max())(M))(X)
    assert _counts() == before
    _assert_same(got, Y @ X.t())
    _assert_same(inner, X @ M.t() + X.max(1).values.unsqueeze(1))


def test_gradients_flow_through_the_batched_ops():
    w = W.clone().requires_grad_()
    func.vmap(lambda a: torch.tanh(F.linear(a, w, BIAS)).pow(2).sum())(X).sum().backward()
    w2 = W.clone().requires_grad_()
    sum(torch.tanh(F.linear(X[i], w2, BIAS)).pow(2).sum() for i in range(5)).backward()
    np.testing.assert_allclose(w.grad.numpy(), w2.grad.numpy(), rtol=1e-5, atol=1e-6)
    x = X.clone().requires_grad_()
    func.vmap(lambda a: (a.softmax(0) * a).sum())(x).sum().backward()
    x2 = X.clone().requires_grad_()
    sum((x2[i].softmax(0) * x2[i]).sum() for i in range(5)).backward()
    np.testing.assert_allclose(x.grad.numpy(), x2.grad.numpy(), rtol=1e-5, atol=1e-6)


def test_per_sample_gradients_are_one_backward_pass():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.Tanh(), torch.nn.Linear(8, 4))
    params = {k: v.detach() for k, v in model.named_parameters()}
    targets = torch.tensor([0, 3, 1, 1, 2])

    def loss(p, a, t):
        return F.cross_entropy(func.functional_call(model, p, (a.unsqueeze(0),)), t.unsqueeze(0))

    before, runs = _counts(), torch.autograd.engine.runs
    per = func.vmap(func.grad(loss), in_dims=(None, 0, 0))(params, X, targets)
    assert _counts() == before and torch.autograd.engine.runs == runs + 1
    for i in range(5):
        model.zero_grad()
        loss({k: v for k, v in model.named_parameters()}, X[i], targets[i]).backward()
        for k, p in model.named_parameters():
            np.testing.assert_allclose(per[k][i].numpy(), p.grad.numpy(), rtol=1e-5, atol=1e-6)
    both, value = func.vmap(func.grad_and_value(lambda a, c: (a.sin() * c).sum(), argnums=(0, 1)),
                            in_dims=(0, None))(X, Y[0])
    _assert_same(both[0], X.cos() * Y[0])
    _assert_same(both[1], X.sin())
    _assert_same(value, (X.sin() * Y[0]).sum(1))


def test_transforms_inside_vmap_run_on_the_batch():
    before = _counts()
    want = torch.stack([torch.diag(3 * X[i] ** 2) for i in range(5)])
    _assert_same(func.vmap(func.jacrev(lambda a: a ** 3))(X), want)
    _assert_same(func.vmap(func.jacfwd(lambda a: a ** 3))(X), want)
    _assert_same(func.vmap(func.hessian(lambda a: (a ** 3).sum()))(X), torch.stack([torch.diag(6 * X[i])
                                                                                   for i in range(5)]))
    out, tangent = func.vmap(lambda a, t: func.jvp(lambda u: (M @ u).tanh(), (a,), (t,)))(X, Y)
    _assert_same(out, (X @ M.t()).tanh())
    _assert_same(tangent, (1 - (X @ M.t()).tanh() ** 2) * (Y @ M.t()))
    _assert_same(func.vmap(lambda a: func.vjp(torch.sin, a)[1](Y[0])[0])(X), X.cos() * Y[0])
    assert _counts() == before


def test_an_op_without_a_rule_runs_per_element_and_the_rest_stays_batched():
    before = _counts()
    got = func.vmap(lambda a: a.norm() * a.sin())(X)   # norm has no rule
    assert _counts()["fallback"] == before["fallback"] + 1 and _counts()["restart"] == before["restart"]
    _assert_same(got, _loop(lambda a: a.norm() * a.sin(), X))
    y = X.clone()
    func.vmap(lambda a: (a.__setitem__(0, 7.0), a)[1])(y)   # in place, per element, into the batch
    assert y[:, 0].tolist() == [7.0] * 5


def test_what_vmap_cannot_batch_runs_func_per_element():
    before = _counts()
    # a transform inside two vmaps lifts a tensor batched at the outer level: func per element there
    got = func.vmap(func.vmap(func.grad(lambda a: (a ** 3).sum())))(A3)
    assert _counts()["restart"] == before["restart"] + 1
    _assert_same(got, 3 * A3 ** 2)
    torch.manual_seed(1)
    diff = func.vmap(lambda a: a + torch.rand(3), randomness="different")(X)
    torch.manual_seed(1)
    want = torch.stack([X[i] + torch.rand(3) for i in range(5)])   # the loop's draws, from the same state
    _assert_same(diff, want)
    torch.manual_seed(2)
    same = func.vmap(lambda a: a * 0 + torch.rand(3), randomness="same")(X)
    assert bool((same == same[0]).all())
    with pytest.raises(RuntimeError, match="randomness error mode"):
        func.vmap(lambda a: F.dropout(a, 0.5))(X)


def test_the_element_view():
    seen = {}

    def f(a):
        seen.update(shape=a.shape, dim=a.dim(), size=a.size(-1), numel=a.numel(), len=len(a), dtype=a.dtype,
                    tensor=isinstance(a, torch.Tensor), text=repr(a))
        return a

    func.vmap(f)(A3)
    assert seen["shape"] == (2, 3) and seen["dim"] == 2 and seen["size"] == 3 and seen["numel"] == 6
    assert seen["len"] == 2 and seen["dtype"] is torch.float32 and seen["tensor"]
    assert seen["text"].startswith("BatchedTensor(lvl=1, bdim=0, value=\n    tensor([[[")
    for bad, message in ((lambda a: a.item(), ".item()"), (lambda a: bool(a.sum() > 0), "data-dependent"),
                         (lambda a: a.numpy(), "storage"), (lambda a: a.backward(), "functorch transform")):
        with pytest.raises(RuntimeError, match=message):
            func.vmap(bad)(X)


@pytest.mark.torch
def test_live_against_pytorch():
    pt = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    data = {k: rng.standard_normal(s).astype(np.float32) for k, s in
            (("x", (6, 4)), ("w1", (5, 4)), ("b1", (5,)), ("w2", (3, 5)), ("y", (6, 3)))}

    def program(mod, t):
        Fm = mod.nn.functional

        def f(a, target):
            h = Fm.gelu(Fm.linear(a, t["w1"], t["b1"]))
            out = (t["w2"] @ h).log_softmax(0)
            return Fm.mse_loss(out, target) + out.topk(2).values.sum() + mod.stack([h, h.flip(0)]).var(0).sum()

        return mod.func.vmap(f)(t["x"], t["y"])

    want = program(pt, {k: pt.tensor(v) for k, v in data.items()})
    got = program(torch, {k: torch.tensor(v) for k, v in data.items()})
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)


def test_every_free_function_with_a_rule_reaches_it():
    """A free function without an argument check needs the catching wrapper (ops/_argcheck.BATCHABLE) to
    reach its batching rule; without it vmap would run func once per element."""
    from agrad.func._batching_rules import RULES
    from agrad.ops import FUNCTIONAL, FUNCTIONS, LINALG
    from agrad.ops._argcheck import BATCHABLE
    from agrad.ops._argcheck_table import TABLE

    missing = set()
    for form, names in (("torch", FUNCTIONS), ("F", FUNCTIONAL), ("linalg", LINALG)):
        for name, fn in names.items():
            inner = getattr(fn, "__wrapped__", fn)
            if f"{form}.{name}" not in TABLE and getattr(inner, "__name__", None) in RULES and fn is inner:
                missing.add(inner.__name__)
    assert not missing, f"add to BATCHABLE: {sorted(missing)}"
    assert BATCHABLE <= set(RULES)
