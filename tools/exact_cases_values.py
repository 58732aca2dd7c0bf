"""Regression cases of issue 10's value, gradient, dtype and graph groups (tools/exact_cases.py adds them).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``;
``graph`` is exact_cases.GRAPH, the statement that defines ``graph(fn)`` (every node, breadth first,
with the names of its next functions).
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    return [
        case("cumprod-double-backward-zeros",
             [graph, "x = torch.tensor([[1.5, 0.0, 0.5], [3.0, 2.0, 0.0]], requires_grad=True)",
              "g, = torch.autograd.grad(torch.cumprod(x, 1).pow(2).sum(), [x], create_graph=True)",
              "g.pow(2).sum().backward()"],
             ["graph(g.grad_fn)", "g", "x.grad"]),
        case("narrow-is-slice",
             [graph, "x = torch.tensor([[1.5, 0.0, 0.5], [3.0, 2.0, 0.0]], requires_grad=True)"],
             ["graph(x.narrow(1, 0, 3).grad_fn)", "graph(torch.narrow(x, 0, 0, 2).grad_fn)",
              "graph(x.narrow(-1, 1, 1).grad_fn)", "graph(torch.linalg.cond(x[:, :2].double()).grad_fn)"]),
        case("div-rounding-mode-none",
             [graph, "x = torch.tensor([[2.0, -1.5], [0.25, 3.0]], requires_grad=True)",
              "y = torch.tensor([0.5, -2.0], requires_grad=True)",
              "g, = torch.autograd.grad((x % x).sum(), [x], create_graph=True)",
              "h, = torch.autograd.grad(torch.div(x, y, rounding_mode=None).sum(), [y], create_graph=True)",
              "i = torch.tensor([[-float('inf')], [2.0]]) % x"],
             ["graph(g.grad_fn)", "graph(torch.div(x, y, rounding_mode=None).grad_fn)",
              "graph(x.div(2, rounding_mode=None).grad_fn)", "graph(torch.divide(x, y, rounding_mode='floor').grad_fn)",
              "graph(h.grad_fn)", "h", "torch.div(torch.tensor([1, 2]), 4, rounding_mode=None)",
              "torch.autograd.grad(i.sum(), [x])"]),
        case("vdot-vecdot",
             [graph, "x = torch.tensor([1.25, 0.75, -1.5], requires_grad=True)",
              "y = torch.tensor([3.0, -0.5, 0.25], requires_grad=True)",
              "g = torch.autograd.grad(torch.vdot(x, y), [x, y], create_graph=True)"],
             ["torch.vdot(x, y)", "x.vdot(y)", "graph(torch.linalg.vecdot(x, y).grad_fn)",
              "graph(torch.linalg.vecdot(x, y, dim=3).grad_fn)", "graph(torch.linalg.vecdot(x[None], y).grad_fn)",
              "[graph(t.grad_fn) for t in g]", "torch.vdot(x, torch.ones(2))", "torch.vdot(x[None], y)",
              "torch.vdot(x, y.double())", "torch.vdot(torch.tensor([1, 2]), torch.tensor([3, 4]))"]),
        case("bool-dtype-reductions",
             ["b = torch.tensor([[[True, False], [True, True]], [[True, True], [True, True]]])",
              "v = torch.tensor([[1, -4], [-1, -1], [0, 0]]).t().logical_not()",
              "i8 = torch.tensor([[3, 5], [7, 9]], dtype=torch.int8)"],
             ["torch.prod(b, dtype=torch.bool)", "torch.prod(b, 1, dtype=torch.bool)", "b.prod(dtype=torch.bool)",
              "torch.prod(i8, dtype=torch.int8)", "torch.prod(i8, 0, dtype=torch.int8)",
              "torch.tensordot(v, torch.tensor([[False, False, False], [True, False, True]]))"]),
        case("mean-dtype-one-node",
             [graph, "x = torch.tensor([[0.25, 1.5], [-2.0, 3.0]], requires_grad=True)",
              "a = torch.mean(x, dtype=torch.float16)", "b = x.mean(1, dtype=torch.float64)",
              "(a + b.sum()).backward()"],
             ["a", "b", "graph(a.grad_fn)", "graph(b.grad_fn)", "x.grad", "torch.tensor([1, 2, 4]).mean(dtype=torch.float32)",
              "torch.tensor([0.1, 0.2, 0.3]).mean(dtype=torch.float16)"]),
        case("float16-opmath-activations",
             ["x = torch.tensor([-3.0, -2.75, -1.3, 0.7, 2.9, 3.0, float('nan'), 1e-3], dtype=torch.float16)"],
             ["torch.sinc(x)", "F.hardsigmoid(x)", "F.hardsigmoid(x.float())", "F.elu(x, 1.7)", "F.gelu(x)",
              "F.silu(x)", "F.mish(x)", "F.softplus(x)", "F.logsigmoid(x)", "F.hardswish(x)", "F.celu(x, 0.7)"]),
        case("det-double-backward",
             [graph, "a = torch.tensor([[1.5, -2.0], [0.5, 3.0]], dtype=torch.float64, requires_grad=True)",
              "s = torch.tensor([[1.0, 2.0, 0.5], [2.0, 4.0, 1.0], [0.0, 1.0, 3.0]], requires_grad=True)",
              "m = torch.tensor([[[1.0, 2.0], [2.0, 4.0]], [[1.5, -2.0], [0.5, 3.0]]], requires_grad=True)",
              "ga, = torch.autograd.grad(torch.det(a), [a], create_graph=True)",
              "gs, = torch.autograd.grad(torch.det(s), [s], create_graph=True)",
              "gm, = torch.autograd.grad(torch.linalg.det(m).sum(), [m], create_graph=True)",
              "gl, = torch.autograd.grad(torch.slogdet(a)[1], [a], create_graph=True)",
              "ge = torch.autograd.grad(torch.det(torch.zeros(0, 2, 2, requires_grad=True)).sum(), "
              "[torch.zeros(0, 2, 2, requires_grad=True)], allow_unused=True)"],
             ["graph(ga.grad_fn)", "ga", "graph(gs.grad_fn)", "(gs * 1e4).round() / 1e4 + 0.0", "gm", "graph(gl.grad_fn)", "gl",
              "torch.autograd.grad(ga.sum(), [a])", "torch.autograd.grad(gm.pow(2).sum(), [m])",
              "torch.det(s)", "torch.det(s.t())", "torch.linalg.slogdet(m)", "torch.det(m)"]),
    ]
