"""Random programs of common ops, run under agrad and PyTorch: values, node names, gradients.

Marked ``torch``: it runs when PyTorch is installed and is skipped otherwise.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import agrad

UNARY = ["exp", "sin", "cos", "tanh", "sigmoid", "relu", "abs", "neg", "sqrt_abs", "log_abs", "square"]
BINARY = ["+", "-", "*", "/", "max", "min", "pow"]
REDUCE = ["sum", "mean", "sum0", "mean1", "amax", "norm", "logsumexp"]
SHAPE = ["t", "reshape", "unsqueeze", "index", "slice", "expand", "matmul", "softmax", "where", "clamp",
         "cumsum", "inplace", "setitem", "stack", "view_mul", "view_t"]


def make_program(rng: random.Random, steps: int = 8) -> list[str]:
    lines = ["a = torch.tensor(A, requires_grad=True)", "b = torch.tensor(B, requires_grad=True)"]
    live = ["a", "b"]  # all of shape (3, 4) except where noted
    for i in range(steps):
        kind = rng.choice(["unary", "binary", "binary", "shape"])
        x = rng.choice(live)
        name = f"v{i}"
        if kind == "unary":
            op = rng.choice(UNARY)
            expr = {"sqrt_abs": f"({x}.abs() + 0.1).sqrt()", "log_abs": f"({x}.abs() + 0.1).log()",
                    "square": f"{x} ** 2"}.get(op, f"torch.{op}({x})")
        elif kind == "binary":
            y = rng.choice(live + ["0.5", "2"])
            op = rng.choice(BINARY)
            if op in "+-*":
                expr = f"{x} {op} {y}"
            elif op == "/":
                expr = f"{x} / ({y} * {y} + 1)" if y not in ("0.5", "2") else f"{x} / {y}"
            elif op == "pow":
                expr = f"({x}.abs() + 0.5) ** 1.5"
            else:
                expr = f"torch.maximum({x}, {y} if isinstance({y}, torch.Tensor) else torch.tensor({y}))" \
                    if op == "max" else f"torch.minimum({x}, {y} if isinstance({y}, torch.Tensor) else torch.tensor({y}))"
        else:
            op = rng.choice(SHAPE)
            expr = {"t": f"{x}.t().t()", "reshape": f"{x}.reshape(4, 3).reshape(3, 4)",
                    "unsqueeze": f"{x}.unsqueeze(0).squeeze(0)", "index": f"{x}[[0, 2, 1]]",
                    "slice": f"torch.cat([{x}[:, :2], {x}[:, 2:]], 1)",
                    "expand": f"{x}[:1].expand(3, 4) * {x}",
                    "matmul": f"({x} @ {x}.t()) @ {rng.choice(live)} / 4",
                    "softmax": f"torch.softmax({x}, {rng.choice([0, 1, -1])})",
                    "where": f"torch.where({x} > 0, {x}, {rng.choice(live)})",
                    "clamp": f"{x}.clamp(-0.5, 0.5)", "cumsum": f"{x}.cumsum(1)",
                    "inplace": f"({x} * 1).mul_(2).add_({rng.choice(live)})",
                    "setitem": None, "stack": f"torch.stack([{x}, {rng.choice(live)}]).sum(0)",
                    "view_mul": None, "view_t": None}[op]
            if op in ("view_mul", "view_t"):  # in place through a view: the base's history is rewritten
                y = rng.choice(live)
                lines.append(f"{name} = {x} * 1")
                lines.append(f"{name}[1].mul_({y}[0] + 1)" if op == "view_mul"
                             else f"{name}.t()[1:].add_({y}.t()[1:])")
                live.append(name)
                continue
            if expr is None:
                lines.append(f"{name} = {x} * 1")
                expr = None
                lines.append(f"{name}[1] = {rng.choice(live)}[0] * 3")
                live.append(name)
                continue
        lines.append(f"{name} = {expr}")
        live.append(name)
    red = rng.choice(REDUCE)
    last = live[-1]
    lines.append("out = " + {"sum": f"{last}.sum()", "mean": f"{last}.mean()", "sum0": f"({last}.sum(0) ** 2).sum()",
                             "mean1": f"{last}.mean(1, keepdim=True).exp().sum()", "amax": f"{last}.amax(1).sum()",
                             "norm": f"{last}.norm()", "logsumexp": f"{last}.logsumexp(1).sum()"}[red])
    return lines


def run(mod, code, A, B):
    ns = {"torch": mod, "A": A, "B": B}
    exec(code, ns)
    out = ns["out"]
    names = []
    stack, seen = [out.grad_fn], set()
    while stack:
        n = stack.pop()
        if n is None or id(n) in seen:
            continue
        seen.add(id(n))
        names.append(n.name())
        stack.extend(f for f, _ in n.next_functions)
    out.backward()
    grads = [np.zeros((3, 4)) if ns[v].grad is None else ns[v].grad.numpy().copy() for v in "ab"]
    return (float(out.item()), sorted(names), *grads)


@pytest.mark.torch
@pytest.mark.parametrize("seed", range(400))
def test_random_program_matches_pytorch(seed):
    torch = pytest.importorskip("torch")
    rng = random.Random(seed)
    code = "\n".join(make_program(rng))
    data = np.random.default_rng(seed)
    A = data.standard_normal((3, 4)).round(3).tolist()
    B = data.standard_normal((3, 4)).round(3).tolist()
    want = run(torch, code, A, B)
    got = run(agrad, code, A, B)
    assert got[1] == want[1], code
    assert np.isclose(got[0], want[0], rtol=1e-4, atol=1e-5), code
    np.testing.assert_allclose(got[2], want[2], rtol=1e-3, atol=1e-4, err_msg=code)
    np.testing.assert_allclose(got[3], want[3], rtol=1e-3, atol=1e-4, err_msg=code)


def run_second(mod, code, A, B):
    ns = {"torch": mod, "A": A, "B": B}
    exec(code, ns)
    a, b = ns["a"], ns["b"]
    ga, gb = mod.autograd.grad(ns["out"], [a, b], create_graph=True, allow_unused=True)
    total = sum((g * g).sum() for g in (ga, gb) if g is not None and g.requires_grad)
    if not isinstance(total, (mod.Tensor,)):
        return None
    total.backward()
    return [np.zeros((3, 4)) if t.grad is None else t.grad.numpy().copy() for t in (a, b)]


@pytest.mark.torch
@pytest.mark.parametrize("seed", range(150))
def test_random_program_second_derivatives_match_pytorch(seed):
    torch = pytest.importorskip("torch")
    rng = random.Random(seed)
    code = "\n".join(make_program(rng, steps=5))
    data = np.random.default_rng(seed)
    A = data.standard_normal((3, 4)).round(3).tolist()
    B = data.standard_normal((3, 4)).round(3).tolist()
    want = run_second(torch, code, A, B)
    got = run_second(agrad, code, A, B)
    if want is None:
        assert got is None, code
        return
    for w, g in zip(want, got):
        np.testing.assert_allclose(g, w, rtol=1e-3, atol=1e-4, err_msg=code)
