"""Regression cases of issue 10's graph and gradient-bookkeeping groups (helper "graphs"; tools/exact_cases.py adds them).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``;
``graph`` is exact_cases.GRAPH, the statement that defines ``graph(fn)`` (every node, breadth first,
with the names of its next functions).
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    return [
        case("accumulate-grad-steals-views",
             ["x = torch.tensor([[-0.75], [2.25]], requires_grad=True)", "g = torch.tensor([[-2.25, -2.5]])",
              "x.mT.backward(gradient=g)", "x.mT.sum().backward()",
              "y = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)", "gy = torch.ones(3, 2)",
              "y.mT.backward(gradient=gy)", "y.mT.sum().backward()",
              "z = torch.tensor([1.0, 2.0], requires_grad=True)", "gz = torch.tensor([0.5, 0.5])",
              "z.backward(gradient=gz)", "z.sum().backward()",
              "w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)", "gw = torch.ones(4)",
              "w.reshape(4).backward(gradient=gw, create_graph=True)", "w.sum().backward()",
              "a = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)",
              "b = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)", "gab = torch.ones(4)",
              "(a + b.view(4)).backward(gradient=gab)", "(a + b.view(4)).sum().backward()",
              "c = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)",
              "d = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)",
              "((c.view(4) + d.view(4)) * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()",
              "(c * 10).sum().backward()",
              "e = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)", "ge = torch.ones(2, 2)",
              "h = e.register_hook(lambda t: t.view(2, 2))", "e.backward(gradient=ge)", "e.sum().backward()"],
             ["g", "x.grad", "gy", "gz", "gw", "gab", "b.grad", "a.grad", "c.grad", "d.grad", "ge"]),
        case("mish-silu-double-backward-nodes",
             [graph, "x = torch.tensor([-2.75, 0.5, 30.0], dtype=torch.float64, requires_grad=True)",
              "gm, = torch.autograd.grad(F.mish(x).pow(2).sum(), [x], create_graph=True)",
              "gs, = torch.autograd.grad(F.silu(x).pow(2).sum(), [x], create_graph=True)"],
             ["graph(gm.grad_fn)", "graph(gs.grad_fn)", "torch.autograd.grad(gm.sum(), [x])",
              "torch.autograd.grad(gs.sum(), [x])"]),
        case("poisson-nll-loss-operand-order",
             [graph, "x = torch.tensor([-2.75, 0.5, 3.0], dtype=torch.float64, requires_grad=True)",
              "t = torch.tensor([1.0, 2.0, 3.5], dtype=torch.float64, requires_grad=True)",
              "g1 = torch.autograd.grad(F.poisson_nll_loss(x.pow(2), t).pow(2), [x, t], create_graph=True)",
              "g2 = torch.autograd.grad(F.poisson_nll_loss(x.pow(2), t, full=True).pow(2), [x, t], create_graph=True)",
              "g3 = torch.autograd.grad(F.poisson_nll_loss(x, t, log_input=False, full=True).pow(2), [x, t], "
              "create_graph=True)"],
             ["graph(g1[0].grad_fn)", "graph(g1[1].grad_fn)", "graph(g2[0].grad_fn)", "graph(g2[1].grad_fn)",
              "graph(g3[0].grad_fn)", "graph(g3[1].grad_fn)"]),
        case("copy-slices-backward-twice",
             ["x = torch.tensor([[-2.75, 0.75, 2.0], [-3.0, -1.25, 1.25]])",
              "x[None].sub_(torch.tensor([[2.0, -3.0, 3.0], [-2.25, -1.75, 3.0]], requires_grad=True))",
              "x.backward(gradient=torch.ones(2, 3), retain_graph=True)", "x.sum().backward()",
              "x.sum().backward()",
              "y = torch.zeros(3)", "w = torch.ones(3, requires_grad=True)", "y[1:].mul_(w[1:])",
              "a = torch.autograd.grad(y.sum(), [w])", "b = torch.autograd.grad(y.sum(), [w])"],
             ["x", "a"]),
    ]
