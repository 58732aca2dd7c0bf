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
        case("retain-grad-moves-with-in-place",
             ["x = torch.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)",
              "r = x.rad2deg()", "r.retain_grad()", "r.narrow(0, 0, 1).neg_()", "r.sum().backward()",
              "p = torch.tensor([-0.25, -0.75], requires_grad=True)",
              "q = p.arccos()", "q2 = q + q", "q.retain_grad()", "q[::2].add_(-2.0)", "q2.sum().backward()",
              "s = torch.tensor([1.0, 2.0], requires_grad=True)", "y = s * 2", "y.retain_grad()",
              "seen = []", "h = y.register_hook(lambda g: seen.append(g))", "y.mul_(3)", "(y * 5).sum().backward()",
              "u = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)", "w = u * 2", "v = w[:2]", "v.retain_grad()",
              "w.mul_(3)", "(v * 5).sum().backward()"],
             ["r.grad", "x.grad", "q.grad", "y.grad", "seen", "s.grad", "v.grad", "u.grad"]),
        case("prelu-kernel-backward-node",
             [graph, "x = torch.tensor([[-2.0, 1.5, 0.0], [0.5, -1.0, 2.0]], dtype=torch.float64, requires_grad=True)",
              "w = torch.tensor([0.25, -0.5, 2.0], dtype=torch.float64, requires_grad=True)",
              "y = F.prelu(x, w)", "gx, gw = torch.autograd.grad((y * y).sum(), [x, w], create_graph=True)",
              "s = torch.tensor(-2.0, dtype=torch.float64, requires_grad=True)",
              "gs, = torch.autograd.grad(s.prelu(torch.tensor(-2.75, dtype=torch.float64)).sum(), [s], create_graph=True)",
              "h = torch.tensor([[0.0, -1.0], [-0.5, 2.0]], dtype=torch.float16, requires_grad=True)",
              "torch.prelu(h, torch.tensor(2.25, dtype=torch.float16)).sum().backward(create_graph=True)"],
             ["graph(gx.grad_fn)", "graph(gw.grad_fn)", "gx", "gw", "gs", "graph(gs.grad_fn)", "h.grad",
              "torch.autograd.grad(gx.pow(2).sum() + gw.pow(2).sum(), [x, w])",
              "torch.autograd.grad(gs, [s], allow_unused=True)"]),
        case("autograd-grad-inputs-forms",
             ["x = torch.tensor([1.0, 2.0], requires_grad=True)", "w = torch.tensor(3.0, requires_grad=True)",
              "torch.autograd.grad((x * 2).sum(), [])", "torch.autograd.grad([], [])",
              "(x * 2).sum().backward(inputs=[])",
              "torch.autograd.grad((x * 2).sum(), [x], materialize_grads=True, allow_unused=False)",
              "d = torch.autograd.grad((x * w).sum(), {'a': x, 'b': w})",
              "torch.autograd.backward((x * w).sum(), inputs={'a': x})"],
             ["d", "x.grad", "w.grad"]),
        case("value-selecting-backward-scatter",
             [graph, "x = torch.tensor([[0.3, -0.6, 0.8], [0.45, 0.2, -0.9], [0.1, 0.7, -0.35]], dtype=torch.float64, "
                     "requires_grad=True)",
              "gs = [torch.autograd.grad(y.pow(3).sum(), x, create_graph=True)[0] for y in "
              "[x.sort(1)[0], x.max(1)[0], x.kthvalue(2, 0, keepdim=True)[0], x.topk(2)[0], x.median(0)[0]]]"],
             ["[graph(g.grad_fn) for g in gs]", "gs", "[torch.autograd.grad(g.pow(2).sum(), x)[0] for g in gs]"]),
        case("double-backward-stack-mv-index-select-nodes",
             [graph, "x = torch.tensor([[0.3, -0.6, 0.8], [0.45, 0.2, -0.9], [0.1, 0.7, -0.35]], dtype=torch.float64, "
                     "requires_grad=True)",
              "y = torch.tensor([[0.5, 0.25, -0.6], [-0.2, 0.9, 0.4], [0.3, -0.15, 0.65]], dtype=torch.float64, "
              "requires_grad=True)",
              "gs = [torch.autograd.grad(f.pow(3).sum(), [x, y], create_graph=True, allow_unused=True) for f in "
              "[torch.mv(x, y[0]), torch.addmv(x[0], x, y[0]), torch.stack([x, y], 1), "
              "x.index_select(0, torch.tensor([0, 0, 2])), x.index_add(1, torch.tensor([1]), y[:, :1]), "
              "x[torch.tensor([0, 2, 0])], x[x > 0]]]"],
             ["[[None if g is None else graph(g.grad_fn) for g in p] for p in gs]", "gs"]),
        case("masked-select-backward-masked-scatter",
             [graph, "x = torch.tensor([[-1.5, 2.0], [0.5, -0.3]], dtype=torch.float64, requires_grad=True)",
              "g1, = torch.autograd.grad(torch.masked_select(x, x > 0).pow(3).sum(), [x], create_graph=True)",
              "g2, = torch.autograd.grad(torch.masked_select(x, torch.tensor([True, False])).pow(3).sum(), [x], "
              "create_graph=True)",
              "s = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)",
              "g3, = torch.autograd.grad(torch.masked_select(s, torch.tensor(True)).pow(3).sum(), [s], create_graph=True)"],
             ["graph(g1.grad_fn)", "graph(g2.grad_fn)", "graph(g3.grad_fn)", "g1", "g2", "g3",
              "torch.autograd.grad(g1.pow(2).sum() + g2.pow(2).sum(), [x])"]),
        case("margin-ranking-loss-operand-order",
             [graph, "a = torch.tensor([1.0, -2.0], dtype=torch.float64, requires_grad=True)",
              "b = torch.tensor([0.5, 0.5], dtype=torch.float64, requires_grad=True)",
              "t = torch.tensor([1.0, -1.0], dtype=torch.float64, requires_grad=True)",
              "gs = torch.autograd.grad(F.margin_ranking_loss(a, b, t, 0.5).pow(2), [a, b, t], create_graph=True)",
              "x = torch.tensor([-3.0, -0.5], dtype=torch.float16, requires_grad=True)",
              "g, = torch.autograd.grad(F.margin_ranking_loss(x, torch.tensor([3.0, -0.25], dtype=torch.float16), x, -0.0)"
              ".sum(), [x], create_graph=True)"],
             ["[graph(v.grad_fn) for v in gs]", "gs", "graph(g.grad_fn)", "g"]),
        case("copy-slices-backward-twice",
             ["x = torch.tensor([[-2.75, 0.75, 2.0], [-3.0, -1.25, 1.25]])",
              "x[None].sub_(torch.tensor([[2.0, -3.0, 3.0], [-2.25, -1.75, 3.0]], requires_grad=True))",
              "x.backward(gradient=torch.ones(2, 3), retain_graph=True)", "x.sum().backward()",
              "x.sum().backward()",
              "y = torch.zeros(3)", "w = torch.ones(3, requires_grad=True)", "y[1:].mul_(w[1:])",
              "a = torch.autograd.grad(y.sum(), [w])", "b = torch.autograd.grad(y.sum(), [w])"],
             ["x", "a"]),
        case("accumulate-grad-holds-its-leaf",
             ["x = torch.tensor([1.0, 0.5, -1.25], requires_grad=True)",
              "q, = torch.autograd.grad((x ** torch.tensor([-1.5, 1.25, 0.0])).sum(), [x], create_graph=True)",
              "r = torch.vstack([q, torch.tensor([-1.25, 0.0, 1.25], requires_grad=True), torch.ones(3)])",
              "g = torch.tensor([[-0.75, 0.0, 0.0], [-3.0, -2.5, -0.5], [0.5, -2.0, -2.25]])",
              "r.backward(gradient=g)", "r.sum().backward()"],
             ["g", "x.grad"]),
        case("float-power-casts-exponent-first",
             [graph, "x = torch.tensor([[-1.0, -2.25, 0.5], [3.0, -1.0, -2.25]], requires_grad=True)",
              "y = torch.tensor([2.0, 0.0, -1.5], dtype=torch.float64, requires_grad=True)",
              "gs = [torch.autograd.grad(f.sum(), [x, y], create_graph=True, allow_unused=True) for f in "
              "[torch.float_power(x, x), torch.float_power(x, y), torch.float_power(y, x), x.float_power(2.0), "
              "torch.float_power(2, x)]]",
              "x.float_power(x).sum().backward(create_graph=True)"],
             ["[[None if g is None else graph(g.grad_fn) for g in p] for p in gs]", "gs", "graph(x.grad.grad_fn)"]),
        case("gradient-into-integer-tensor",
             [graph, "w = torch.tensor([[-2.25], [2.5], [-2.0]], dtype=torch.float64, requires_grad=True)",
              "x = torch.tensor([[1], [-2], [1]])", "x.ge_(w)",
              "torch.xlogy(x, torch.tensor([[3], [2], [3]])).sum().backward()",
              "torch.autograd.grad((x * w).sum(), [w], create_graph=True)", "torch.autograd.grad((x * 1.5).sum(), [x])",
              "b = torch.tensor([[True], [False], [True]])", "b.eq_(w)", "torch.autograd.grad(b.float().sum(), [w])",
              "x.sum().backward()"],
             ["graph(x.grad_fn)", "x.requires_grad", "graph(b.grad_fn)", "w.grad"]),
        case("cat-keeps-legacy-empty-inputs",
             [graph, "e = torch.zeros(0, dtype=torch.float64).requires_grad_()",
              "y = torch.tensor([[1.0, 2.0]], dtype=torch.float64, requires_grad=True)",
              "rs = [torch.cat([y, e * 1, e], 1), torch.hstack([e, torch.tensor(2.0)]), torch.cat([e, torch.ones(2)]), "
              "torch.cat([torch.zeros(0), y.reshape(2), e]), torch.cat([e, e]), "
              "torch.concat([torch.zeros(3, 2, 3, dtype=torch.uint8)[:, 1:], e, torch.zeros(0)])]",
              "gs = [torch.autograd.grad(r.pow(2).sum(), [e, y], create_graph=True, allow_unused=True) for r in rs]",
              "b = torch.autograd.grad(torch.cat([e, y.reshape(2)]), [e, y], "
              "grad_outputs=torch.eye(2, dtype=torch.float64), is_grads_batched=True)"],
             ["[(r.dtype, r.requires_grad, graph(r.grad_fn)) for r in rs]", "gs", "b"]),
    ]
