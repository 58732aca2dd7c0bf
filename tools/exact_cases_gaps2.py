"""Regression cases of session 29's helper "gaps": the functions real scripts call that agrad
lacked (quantile, cdist, cov, histc, ...), and sort's order of tied values (tools/exact_cases.py
adds them).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``;
``graph`` is exact_cases.GRAPH.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    return [
        case("sort-ties-std-sort",  # ops/sorting.py: unstable sort = libstdc++'s std::sort on (value, index) past 16
             ["x = torch.tensor([float(i % 4) for i in range(40)], requires_grad=True)",
              "n = torch.tensor([0., 1., float('nan'), -0., 0., 1., float('nan'), 2.] * 3)"],
             ["x.sort()", "x.sort(descending=True).indices", "x.argsort()", "x.sort(stable=True).indices",
              "x.view(2, 20).t().sort(0).indices", "n.sort().indices", "n.sort(descending=True).indices",
              "n.long().sort().indices", "n.bool().sort().indices", "torch.autograd.grad(x.sort().values[10:15].sum(), x)",
              "torch.arange(20).remainder(3).sort(stable=False).indices"]),
        case("quantile-nanquantile",  # ops/quantiles.py: ATen's sort/gather/lerp composite, its checks in order
             [graph, "x = torch.tensor([[0.3, -1.2, 2.5, 0.7, 0.1], [1., 4., -2., 3.5, 0.], [float('nan'), 1., 2., 3., 4.]], "
              "requires_grad=True)", "q = torch.tensor([0.1, 0.25, 0.5, 1.])", "y = x.detach().double()", "o = torch.empty(0)"],
             ["torch.quantile(x, 0.3)", "graph(torch.quantile(x, 0.3).grad_fn)", "torch.quantile(x, q, dim=1)",
              "graph(torch.quantile(x, q, dim=0, keepdim=True).grad_fn)", "torch.nanquantile(x, q, dim=1, keepdim=True)",
              "torch.nanquantile(x, 0.4, dim=0, interpolation='nearest')", "graph(torch.nanquantile(x, 0.4, dim=0, interpolation='lower').grad_fn)",
              "torch.quantile(y, q.double(), 1, interpolation='lower')", "torch.quantile(y, q.double(), 1, interpolation='higher')",
              "torch.quantile(y, q.double(), 0, True, interpolation='midpoint')", "x.quantile(0.5, 1, True)", "y.nanquantile(q.double())",
              "torch.autograd.grad(torch.nanquantile(x, q, 1).sum(), x)", "torch.quantile(x.detach(), q, 1, out=o)", "o.stride()",
              "torch.quantile(x, 0.5, out=torch.empty(0)).grad_fn", "torch.quantile(torch.tensor(3.), q, dim=0, keepdim=True)",
              "torch.nanquantile(torch.full((2, 3), float('nan')), 0.4, 1)", "torch.quantile(torch.tensor([1., 2., 3., 4.]), "
              "torch.tensor([0.5, 1/6, 0.125]), interpolation='nearest')", "torch.quantile(x, torch.tensor(0.2, requires_grad=True)).grad_fn",
              "torch.quantile(x, 1.5)", "torch.quantile(x, torch.tensor([1.5]))", "torch.quantile(x, q.double())",
              "torch.quantile(x.long(), 0.5)", "torch.quantile(torch.empty(0), 0.5)", "torch.quantile(x, torch.tensor([[0.5]]))",
              "torch.quantile(x, 0.5, interpolation='foo')", "torch.quantile(x, 0.5, dim=3)", "torch.quantile(x, float('nan'))",
              "torch.quantile(x, 0.5, out=torch.empty(0, dtype=torch.float64))", "torch.quantile(x, torch.tensor(float('nan')))",
              "torch.quantile(x, 0.5, 1.0)", "torch.quantile(x, 'a')", "torch.quantile(x, 0.5, interpolation=1)",
              "torch.quantile(torch.empty(0).long(), 2., interpolation='foo')"]),
        case("cdist",  # ops/distances.py: _cdist_forward's kernel or _euclidean_dist (p 2, mode / more than 25 rows)
             [graph, "a = torch.tensor([[0., 1., 2.], [1., -1., 0.5], [3., 0., 0.]], requires_grad=True)",
              "b = torch.tensor([[[1., 1., 1.]], [[0., 2., -1.]]], requires_grad=True)",
              "z = torch.tensor([[0., 1., 2.], [0., 1., 2.], [1., float('nan'), 0.]], requires_grad=True)",
              "big = torch.arange(90.).view(30, 3).div(7).requires_grad_()"],
             ["torch.cdist(a, b)", "graph(torch.cdist(a, b).grad_fn)", "torch.cdist(a, b, p=1)", "torch.cdist(a, b, 0.)",
              "torch.cdist(a, b, p=float('inf'))", "torch.cdist(a, b, p=3.)", "torch.cdist(a.double(), b.double(), p=0.5)",
              "graph(torch.cdist(a, b, compute_mode='use_mm_for_euclid_dist').grad_fn)",
              "graph(torch.cdist(big, a).grad_fn)", "graph(torch.cdist(big, a, compute_mode='donot_use_mm_for_euclid_dist').grad_fn)",
              "torch.autograd.grad(torch.cdist(a, b).sum(), [a, b])", "torch.autograd.grad(torch.cdist(a, b, p=1).sum(), [a, b])",
              "torch.autograd.grad(torch.cdist(z, z, p=1).sum(), z)", "torch.autograd.grad(torch.cdist(z, z).sum(), z)",
              "torch.autograd.grad(torch.cdist(z, z, p=float('inf')).sum(), z)", "torch.cdist(z, z, p=0)",
              "torch.autograd.grad(torch.cdist(a, b, p=1).sum(), a, create_graph=True)[0].grad_fn",
              "torch.autograd.grad(torch.autograd.grad(torch.cdist(a, b, p=1).sum(), a, create_graph=True)[0].sum(), a)",
              "torch.cdist(torch.zeros(0, 3, requires_grad=True), a)", "torch.cdist(torch.zeros(2, 0), torch.zeros(3, 0))",
              "torch.cdist(a, b, compute_mode='x')", "torch.cdist(a, b[..., :2])", "torch.cdist(a[0], b)", "torch.cdist(a, b[0, 0])",
              "torch.cdist(a.long(), b)", "torch.cdist(a, b.long())", "torch.cdist(a, b, p=-1)", "torch.cdist(a, b, p=float('nan'))",
              "torch.cdist(a, b.double())", "torch.cdist(a.half(), b.half())", "torch.cdist(a, b, 2, None)", "torch.cdist(1, b)",
              "torch.cdist(a, 'x')", "torch.cdist(a, torch.ones(3, 1, 3))", "torch.cdist(torch.ones(2, 4, 3), torch.ones(3, 1, 3))"]),
        case("stale-saved-inputs-before-outputs",  # autograd/graph.py: a node checks its saved inputs (by name), then outputs
             ["a = torch.tensor([2., 3.])", "b = torch.tensor([1., 2.], requires_grad=True)", "r = a ** b", "a.add_(1)",
              "s = b.exp() * 1", "t = s.tanh()", "s.add_(1)"],
             ["r.detach().mul_(2)", "torch.autograd.grad(r.sum(), b)", "torch.autograd.grad(t.sum(), b)"]),
        case("cov-corrcoef",  # ops/statistics.py: Correlation.cpp's composites (its corner cases too)
             [graph, "x = torch.tensor([[0.5, -1., 2.5, 0.75, 0.], [1., 4., -2., 3.5, 0.], [2., 1., 2., 3., 4.]], requires_grad=True)",
              "fw = torch.tensor([1, 2, 0, 3, 1])", "aw = torch.tensor([0.5, 1., 2., 0.25, 1.], requires_grad=True)",
              "v = torch.tensor([1., 2., 4., 7.])", "i = torch.tensor([[1, 2, 3], [4, 0, 1]])",
              "u = torch.tensor([[1.], [2.]])", "k = torch.tensor([[1], [2]])"],
             ["graph(torch.cov(x).grad_fn)", "graph(torch.cov(x, aweights=aw).grad_fn)",
              "graph(torch.cov(x, fweights=fw, aweights=aw, correction=0).grad_fn)", "graph(torch.corrcoef(x).grad_fn)",
              "torch.cov(v)", "torch.cov(v, correction=0)", "torch.cov(v[:1])", "torch.cov(torch.tensor(3.))", "torch.cov(i).dtype",
              "torch.cov(torch.ones(2, 0))", "torch.cov(x, correction=7)", "torch.cov(u, fweights=torch.tensor([2]))", "u",
              "torch.cov(k, aweights=torch.tensor([2.]))", "k", "torch.cov(x[:, :1], fweights=torch.tensor([2]))",
              "torch.corrcoef(v)", "torch.corrcoef(torch.tensor([[1., 1., 1.], [1., 2., 3.]]))", "torch.corrcoef(torch.ones(3, 1))",
              "torch.cov(x.bool())", "torch.cov(torch.ones(2, 2, 2))", "torch.cov(x, fweights=aw)", "torch.cov(x, aweights=fw)",
              "torch.cov(x, fweights=fw[:3])", "torch.cov(x, fweights=-fw)", "torch.cov(x, aweights=-aw)", "torch.cov(x, fweights=fw * 0)",
              "torch.cov(x, fweights=fw.view(5, 1))", "torch.cov(x, aweights=aw.view(1, 5))", "torch.cov(x, correction=True)",
              "torch.cov(x, correction=1.5)", "torch.cov(x, fweights=1)", "torch.corrcoef(torch.ones(2, 2, 2))", "torch.corrcoef(x.bool())"]),
        case("histc-histogram",  # ops/statistics.py: Histogram.cpp's edges, checks in order, the CPU kernel's bins
             ["x = torch.tensor([0.3, -1.2, 2.5, 0.7, 0.1, 1., 4.], requires_grad=True)",
              "r = torch.arange(-50, 150).float().div(7).sin().mul(3)", "e = torch.tensor([0., 1., 3.])"],
             ["torch.histc(x)", "torch.histc(x, bins=4, min=0, max=3)", "torch.histc(x.detach().double(), 5)", "x.histc(3)",
              "torch.histc(torch.tensor([]), 3)", "torch.histc(torch.tensor([2., 2.]), 3)", "torch.histc(x.half(), 3)",
              "torch.histc(x, 3, max=1)", "torch.histc(torch.tensor([float('nan'), 1.]), 3, 0, 2)", "torch.histc(r, 13)",
              "torch.histc(r, 17, -1, 2)", "torch.histogram(x, 4)", "torch.histogram(x.detach(), e)",
              "torch.histogram(x.detach(), 3, range=(0., 2.), density=True)", "torch.histogram(x.detach(), 3, weight=torch.ones(7))",
              "torch.histogram(torch.tensor([]), 3)", "torch.histogram(x.detach(), torch.tensor([0., 1., 1., 3.]))",
              "torch.histogram(torch.tensor([1., 1.]), 2)", "torch.histogram(r, 13)", "torch.histogram(r, 7, range=(-1., 2.5), density=True)",
              "torch.histogram(r, torch.linspace(-3, 3, 8))", "torch.histogram(x, 2, density=True, weight=torch.zeros(7))",
              "torch.histogram(x.half(), torch.tensor([0., 1.]).half())", "torch.histogram(x, 2).hist.grad_fn.name()",
              "torch.autograd.grad(torch.histogram(x, 2).hist.sum(), x)",
              "torch.histc(x.long(), 4)", "torch.histc(x, 0)", "torch.histc(x, 4, 3, 1)", "torch.histc(torch.tensor([float('nan'), 1.]), 3)",
              "torch.histc(torch.tensor([float('inf'), 1.]), 3)", "torch.histc(x, 3, min=float('nan'))", "torch.histc(x.long(), 3, 2, 1)",
              "torch.histc(x, -2)", "torch.histc(x.long(), 3, 1, 1)", "torch.histc(x, 2.5)", "torch.histogram(x.detach().long(), 3)",
              "torch.histogram(x.detach(), 0)", "torch.histogram(x.detach(), 3, range=(2., 1.))",
              "torch.histogram(x.detach(), 3, weight=torch.ones(7).double())", "torch.histogram(x.detach(), e.double())",
              "torch.histogram(torch.tensor([float('nan')]), 2)", "torch.histogram(x.detach(), 3, range=(0, float('inf')))",
              "torch.histogram(x, 2, range=(0., 1., 2.))", "torch.histogram(x, 2, weight=torch.ones(3))",
              "torch.histogram(x, torch.tensor([1.]))", "torch.histogram(x, torch.tensor([[1., 2.]]))", "torch.histogram(x, torch.tensor([]))",
              "torch.histogram(x.long(), torch.tensor([1, 2]))", "torch.histogram(x.half(), 2)"]),
        case("indices-block-diag-products",  # ops/combinatorics.py: tril/triu_indices, block_diag, cartesian_prod, combinations
             [graph, "a = torch.tensor([1., 2., 3.], requires_grad=True)", "b = torch.tensor([4., 5.], requires_grad=True)",
              "m = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)"],
             ["torch.tril_indices(3, 4, 1)", "torch.triu_indices(4, 3, -1)", "torch.tril_indices(0, 3)", "torch.tril_indices(0, 3).stride()",
              "torch.tril_indices(3, 3, dtype=torch.int32)", "torch.triu_indices(3, 3, 5)", "torch.tril_indices(-1, 3)", "torch.tril_indices(3, -1)",
              "torch.tril_indices(3, 3, dtype=torch.float32)", "torch.tril_indices(3, 3, dtype=torch.uint8)", "torch.tril_indices(3., 3)",
              "torch.triu_indices(2, 2, requires_grad=True)", "torch.block_diag(m, a, b.view(2, 1), torch.tensor(7.))",
              "graph(torch.block_diag(m, a, b.view(2, 1)).grad_fn)", "torch.block_diag()", "torch.block_diag(m.long(), a)",
              "torch.block_diag(torch.tensor([True]), torch.tensor([2]))", "torch.block_diag(m, torch.zeros(0, 3))", "torch.block_diag(m, torch.zeros(0))",
              "torch.autograd.grad(torch.block_diag(m, a, torch.tensor(7., requires_grad=True)).sum(), [m, a])",
              "torch.autograd.grad(torch.block_diag(m, a, torch.tensor(7., requires_grad=True)).sum(), a)[0].stride()",
              "torch.autograd.grad((torch.block_diag(m, a.double()) * 2).sum(), [m, a])", "torch.block_diag(torch.ones(2, 2, 2))",
              "torch.cartesian_prod(a, b)", "graph(torch.cartesian_prod(a, b).grad_fn)", "torch.cartesian_prod(a)", "torch.cartesian_prod(a, b, a).shape",
              "graph(torch.cartesian_prod(a, torch.tensor([], requires_grad=True)).grad_fn)", "torch.cartesian_prod(a, b.double())",
              "torch.cartesian_prod(a, m)", "torch.cartesian_prod()", "torch.combinations(a)", "graph(torch.combinations(a).grad_fn)",
              "torch.combinations(a, 3)", "torch.combinations(a, with_replacement=True)", "torch.combinations(a, 0)", "torch.combinations(a, 4)",
              "torch.combinations(a.long(), 2)", "torch.combinations(torch.tensor([]), 2)", "torch.combinations(b, 2, True)",
              "torch.autograd.grad(torch.combinations(a, 2, True).pow(2).sum(), a)", "torch.combinations(m)", "torch.combinations(a, -1)",
              "torch.combinations(a, 2.5)", "torch.combinations(torch.tensor(2.))"]),
    ]
