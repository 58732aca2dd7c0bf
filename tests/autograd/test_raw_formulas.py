"""The array form of a backward formula gives the same bits as the formula on tensors.

Hot ops carry their derivative twice, once written with agrad ops (so that
``create_graph=True`` records it) and once on numpy arrays (what a pass that
records nothing runs).  Every op with an array formula has cases here, run in
float32 and float64 with broadcasting, Python numbers and mixed dtypes, and
the leaves' gradients of both modes must be identical.
"""

from __future__ import annotations

import numpy as np
import pytest

import agrad as torch
import agrad.nn.functional as F
from agrad.autograd import engine
from agrad.ops._op import ALL_OPS

# op name -> cases: f(leaves) for leaves made from the shapes (positive values where asked)
CASES = {
    "AddBackward0": [((3, 1), (4,), lambda a, b: a + b), ((2, 3), (3,), lambda a, b: torch.add(a, b, alpha=2)),
                     ((2, 3), None, lambda a: a + 1.5)],
    "SubBackward0": [((3, 1), (4,), lambda a, b: a - b), ((2, 3), (2, 3), lambda a, b: torch.sub(a, b, alpha=-3))],
    "MulBackward0": [((3, 1), (4,), lambda a, b: a * b), ((2, 3), None, lambda a: a * 2.5),
                     ((4,), (), lambda a, b: a * b.double()), ((), (2, 2), lambda a, b: a * b),
                     ((), None, lambda a: torch.ones(2, 2) * a), ((2, 2), None, lambda a: a * torch.full((2, 2), 3.0))],
    "DivBackward0": [((3, 1), "pos4", lambda a, b: a / b), ((2, 3), None, lambda a: a / 3),
                     ((4,), "pos", lambda a, b: a / b.double())],
    "NegBackward0": [((2, 3), None, lambda a: -a)],
    "PowBackward0": [((2, 3), None, lambda a: a ** 3), ((2, 3), None, lambda a: a ** 0),
                     ("pos23", None, lambda a: a ** 0.5), ((3,), None, lambda a: a ** 2)],
    "ExpBackward0": [((2, 3), None, torch.exp)],
    "LogBackward0": [("pos23", None, torch.log)],
    "SinBackward0": [((2, 3), None, torch.sin), ((1,), None, torch.sin), ((), None, torch.sin)],
    "CosBackward0": [((2, 3), None, torch.cos)],
    "TanhBackward0": [((2, 3), None, torch.tanh), ((1,), None, torch.tanh), ((), None, torch.tanh)],
    "SigmoidBackward0": [((2, 3), None, torch.sigmoid)],
    "ReluBackward0": [((2, 3), None, torch.relu)],
    "SqrtBackward0": [("pos23", None, torch.sqrt)],
    "SumBackward0": [((2, 3), None, lambda a: a.sum()), ((), None, lambda a: a.sum())],
    "SumBackward1": [((2, 3, 4), None, lambda a: a.sum(1)), ((2, 3, 4), None, lambda a: a.sum((0, 2), keepdim=True)),
                     ((2, 3, 4), None, lambda a: a.sum(-1))],
    "MeanBackward0": [((2, 3), None, lambda a: a.mean()), ((5,), None, torch.mean)],
    "MeanBackward1": [((2, 3, 4), None, lambda a: a.mean(1)), ((2, 3, 4), None, lambda a: a.mean((0, 2), keepdim=True))],
    "MmBackward0": [((2, 3), (3, 4), torch.mm), ((3, 2), (3, 4), lambda a, b: a.t().mm(b))],
    "AddmmBackward0": [((4,), (2, 3), lambda b, a: torch.addmm(b, a, torch.ones(3, 4, dtype=a.dtype))),
                       ((2, 4), (2, 3), lambda b, a: torch.addmm(b, a, a.t().mm(a)[:, :1].expand(3, 4), beta=0.5,
                                                                   alpha=2))],
    "TBackward0": [((2, 3), None, lambda a: a.t()), ((3,), None, lambda a: a.t())],
    "ViewBackward0": [((2, 6), None, lambda a: a.view(3, 4)), ((2, 6), None, lambda a: a.view(-1))],
    "LogSoftmaxBackward0": [((4, 5), None, lambda a: F.log_softmax(a, 1)), ((2, 3, 4), None, lambda a: a.log_softmax(-1)),
                            ((), None, lambda a: a.log_softmax(0))],
    "NllLossBackward0": [((4, 5), None, lambda a: F.nll_loss(a, torch.tensor([0, 4, 2, 2]))),
                         ((4, 5), None, lambda a: F.nll_loss(a, torch.tensor([0, 4, 2, 2]), reduction="none")),
                         ((4, 5), None, lambda a: F.nll_loss(a, torch.tensor([1, 3, -100, 2]), reduction="sum")),
                         ((4, 5), None, lambda a: F.nll_loss(a, torch.tensor([1, 3, 0, 2]), weight=torch.arange(
                             1.0, 6.0, dtype=a.dtype))),
                         ((5,), None, lambda a: F.nll_loss(a, torch.tensor(3)))],
    "NllLoss2DBackward0": [((2, 3, 2, 2), None, lambda a: F.nll_loss(a, torch.tensor([[[0, 1], [2, 2]], [[1, 1], [0, 2]]])))],
    "MseLossBackward0": [((2, 3), (2, 3), F.mse_loss), ((2, 3), (2, 3), lambda a, b: F.mse_loss(a, b, reduction="sum")),
                         ((2, 3), (3,), lambda a, b: F.mse_loss(a, b.expand(2, 3), reduction="none")),
                         ((2, 3), None, lambda a: F.mse_loss(a, torch.ones(2, 3, dtype=torch.float64)))],
    "SmoothL1LossBackward0": [((2, 3), (2, 3), lambda a, b: F.smooth_l1_loss(a, b, beta=0.7)),
                              ((2, 3), (2, 3), lambda a, b: F.smooth_l1_loss(a, b, reduction="sum", beta=2.0)),
                              ((2, 3), None, lambda a: F.smooth_l1_loss(a, torch.zeros(2, 3, dtype=a.dtype),
                                                                         reduction="none"))],
    "HuberLossBackward0": [((2, 3), (2, 3), lambda a, b: F.huber_loss(a, b, delta=0.7)),
                           ((2, 3), (2, 3), lambda a, b: F.huber_loss(a, b, reduction="sum", delta=2.0)),
                           ((2, 3), None, lambda a: F.huber_loss(a, torch.zeros(2, 3, dtype=a.dtype), reduction="none"))],
    "SoftmaxBackward0": [((4, 5), None, lambda a: F.softmax(a, 1)), ((2, 3, 4), None, lambda a: a.softmax(0)),
                         ((), None, lambda a: a.softmax(0))],
    "UnsafeViewBackward0": [((2, 3, 4), (4, 5), lambda a, b: a @ b)],
    "ReshapeAliasBackward0": [((4, 6), None, lambda a: a[:, ::2].reshape(12))],
    "TransposeBackward0": [((2, 3, 4), None, lambda a: a.transpose(0, 2)), ((3,), None, lambda a: a.transpose(0, -1)),
                           ((), None, lambda a: a.transpose(0, -1))],
    "PermuteBackward0": [((2, 3, 4), None, lambda a: a.permute(2, 0, 1))],
    "SqueezeBackward0": [((2, 1, 3), None, lambda a: a.squeeze())],
    "SqueezeBackward1": [((2, 1, 3), None, lambda a: a.squeeze(1)), ((2, 1, 3), None, lambda a: a.squeeze(0))],
    "SqueezeBackward2": [((2, 1, 1), None, lambda a: a.squeeze((1, 2)))],
    "SqueezeBackward4": [((3,), (3, 4), lambda a, b: a @ b)],
    "UnsqueezeBackward0": [((2, 3), None, lambda a: a.unsqueeze(1)), ((), None, lambda a: a.unsqueeze(0))],
    "SelectBackward0": [((3, 4), None, lambda a: a[1]), ((3, 4), None, lambda a: a[:, -1])],
    "SliceBackward0": [((5, 4), None, lambda a: a[1:4]), ((5, 4), None, lambda a: a[:, ::2])],
    "ExpandBackward0": [((3, 1), None, lambda a: a.expand(2, 3, 4)), ((), None, lambda a: a.expand(5))],
}


def _leaf(spec, dtype, rng):
    if spec is None:
        return None
    positive = isinstance(spec, str)
    shape = {"pos23": (2, 3), "pos4": (4,), "pos": (4,)}[spec] if positive else spec
    data = rng.standard_normal(shape)
    if positive:
        data = np.abs(data) + 0.5
    return torch.tensor(data, dtype=dtype, requires_grad=True)


def _grads(fn, specs, dtype, arrays, seed=0):
    rng = np.random.default_rng(seed)
    leaves = [t for t in (_leaf(s, dtype, rng) for s in specs) if t is not None]
    out = fn(*leaves)
    g = torch.tensor(rng.standard_normal(tuple(out.shape)), dtype=out.dtype)
    engine.ARRAY_FORMULAS = arrays
    try:
        out.backward(g)
    finally:
        engine.ARRAY_FORMULAS = True
    return [(t.grad._data.dtype, t.grad._data.copy()) for t in leaves], out.grad_fn


def test_every_array_formula_has_cases():
    have = {op.name for op in ALL_OPS if op._raw is not None}
    assert have == set(CASES)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("name,case", [(n, c) for n, cs in CASES.items() for c in cs],
                         ids=[f"{n}-{i}" for n, cs in CASES.items() for i in range(len(cs))])
def test_array_formula_gives_the_tensor_formulas_bits(name, case, dtype):
    *specs, fn = case
    raw, node = _grads(fn, specs, dtype, True)
    assert node.name() == name
    assert node._raw is not None
    ref, _ = _grads(fn, specs, dtype, False)
    for (d1, a1), (d2, a2) in zip(raw, ref):
        assert d1 == d2
        assert a1.shape == a2.shape
        assert np.array_equal(a1, a2, equal_nan=True)


def test_the_same_gradient_reaching_two_leaves_is_not_shared():
    # add's formula hands one array to both inputs: each leaf's .grad must be its own
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([1.0, 2.0], requires_grad=True)
    (a + b).pow(2).sum().backward()
    assert a.grad._data is not b.grad._data
    (a * 3).sum().backward()
    assert b.grad.tolist() == [4.0, 8.0]
    assert a.grad.tolist() == [7.0, 11.0]


def _hooked_pass():
    x = torch.tensor([0.5, -1.0], requires_grad=True)
    seen = []
    y = torch.sin(x) * 2
    y.retain_grad()
    y.register_hook(lambda g: seen.append(g.tolist()) or g * 10)
    loss = torch.tanh(y).sum()
    (gx,) = torch.autograd.grad(loss, x, retain_graph=True)
    loss.backward()
    return seen, gx.tolist(), x.grad.tolist(), y.grad.tolist()


def test_array_mode_runs_hooks_retained_grads_and_grad_calls_as_tensor_mode_does():
    seen, gx, xg, yg = _hooked_pass()
    assert len(seen) == 2 and seen[0] == seen[1]
    assert gx == xg
    engine.ARRAY_FORMULAS = False
    try:
        assert _hooked_pass() == (seen, gx, xg, yg)
    finally:
        engine.ARRAY_FORMULAS = True
