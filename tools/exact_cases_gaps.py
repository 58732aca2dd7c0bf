"""Regression cases of session 28's helper "gaps": tensors read as Python scalars (in nested
lists given to torch.tensor), reductions over an empty dim tuple (tools/exact_cases.py adds them).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``;
``graph`` is exact_cases.GRAPH.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    return [
        case("tensor-of-a-list-of-tensors",  # each tensor in the list is one Python scalar (__float__ / __index__)
             ["y = torch.tensor(2.5, requires_grad=True)"],
             ["torch.tensor([torch.ones(1)])", "torch.tensor([torch.ones(1, 1)], dtype=torch.float64)",
              "torch.tensor([[torch.tensor(3)], [torch.tensor(True)]])", "torch.tensor([torch.tensor(2.)], dtype=torch.int64)",
              "torch.tensor([torch.ones(1)], dtype=torch.bool)", "torch.tensor([torch.ones(2)])",
              "torch.tensor([torch.tensor([3, 4])], dtype=torch.int32)", "torch.tensor([torch.tensor([3])], dtype=torch.int32)",
              "torch.tensor([y, 1])", "torch.as_tensor([[y], [y * 2]])", "torch.tensor([torch.tensor(True)], dtype=torch.float32)",
              "[10, 20][torch.tensor([1])]", "[10, 20][torch.tensor([[1]])]", "[10, 20][torch.tensor([1, 0])]"]),
        case("reductions-over-no-dims",  # dim=(): most reduce everything; logsumexp fails in its in-place add
             [graph, "x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)", "v = torch.tensor([1., 2.], requires_grad=True)"],
             ["x.mean(())", "x.mean((), keepdim=True)", "x.mean([], True, dtype=torch.float64)", "torch.logsumexp(v, ())",
              "torch.logsumexp(x, [], keepdim=True)", "graph(torch.logsumexp(x, [], keepdim=True).grad_fn)",
              "torch.logsumexp(torch.tensor([[1, 2]]), ())", "torch.logsumexp(torch.ones(0, 2), ())",
              "torch.logsumexp(torch.ones(0, 2), (), True)", "torch.logsumexp(torch.tensor(2.), ())",
              "x.count_nonzero([])", "x.count_nonzero(())", "x.aminmax(dim=[0])", "x.aminmax(dim=(0,))",
              "torch.autograd.grad(x.mean(()), x)", "torch.autograd.grad(x.logsumexp((), True).sum(), x)",
              "x.amax(())", "x.amin([])", "x.sum(())", "x.nansum(())", "x.std(())", "x.var(())", "x.norm(dim=())",
              "torch.linalg.vector_norm(x, dim=())", "x.any(())", "x.all([])", "x.nanmean(())", "torch.std_mean(x, ())",
              "torch.var_mean(x, ())", "torch.tensor(2.).amax(())"]),
        case("repeat-interleave",  # ops/repeats.py: int repeats (views + clone), tensor repeats (index_select), indices
             [graph, "x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)", "s = torch.tensor(5., requires_grad=True)"],
             ["x.repeat_interleave(2)", "graph(x.repeat_interleave(2).grad_fn)", "torch.repeat_interleave(x, 2, dim=0)",
              "graph(x.repeat_interleave(2, dim=1).grad_fn)", "graph(x.t().repeat_interleave(2).grad_fn)",
              "torch.repeat_interleave(x, torch.tensor([1, 2]), dim=1)", "graph(x.repeat_interleave(torch.tensor([1, 2, 1, 1])).grad_fn)",
              "x.repeat_interleave(torch.tensor(2), dim=1)", "x.repeat_interleave(torch.tensor([3]), dim=-2)",
              "x.repeat_interleave(2, dim=1, output_size=4)", "x.repeat_interleave(torch.tensor([1, 2]), dim=1, output_size=3)",
              "torch.autograd.grad(x.repeat_interleave(torch.tensor([0, 3]), 0).sum(), x)",
              "torch.autograd.grad((x.repeat_interleave(3, 1) * torch.arange(12.).view(2, 6)).sum(), x)",
              "torch.repeat_interleave(torch.tensor([1, 2, 3]))", "torch.repeat_interleave(torch.tensor([1, 0, 2], dtype=torch.int32))",
              "torch.repeat_interleave(torch.tensor([], dtype=torch.long))", "torch.repeat_interleave(torch.tensor([1, 2]), output_size=3)",
              "s.repeat_interleave(3)", "s.repeat_interleave(torch.tensor(2))", "x.repeat_interleave(0, 0)", "torch.ones(2, 0).repeat_interleave(2, 1)",
              "x.repeat_interleave(-1)", "x.repeat_interleave(2, dim=2)", "x.repeat_interleave(torch.tensor([1, 2, 3]), dim=0)",
              "x.repeat_interleave(torch.tensor([[1]]), dim=0)", "x.repeat_interleave(torch.tensor([1., 2.]), dim=0)",
              "torch.repeat_interleave(torch.tensor([1, -2]))", "torch.repeat_interleave(torch.tensor([[1, 2]]))",
              "torch.repeat_interleave(torch.tensor([1., 2.]))", "torch.repeat_interleave(torch.tensor([1, 2]), output_size=4)",
              "x.repeat_interleave(torch.tensor([1, 2]), dim=1, output_size=4)", "x.repeat_interleave(2, dim=1, output_size=3)",
              "torch.repeat_interleave(torch.tensor(3))", "x.repeat_interleave(torch.tensor([1, -2]), dim=1)",
              "s.repeat_interleave(3, dim=0)", "x.repeat_interleave(2.5)", "x.repeat_interleave(2, dim=1).stride()"]),
        case("searchsorted-bucketize",  # ops/bucketize.py: ATen's binary search, its checks in their order
             ["s = torch.tensor([1., 3., 5., 5., 7.])", "v = torch.tensor([[0., 5., 8.], [3., 4., 7.]])",
              "s2 = torch.tensor([[1., 3., 5.], [2., 4., 6.]])", "u = torch.tensor([5., 1., 3.])", "o = torch.empty(0, dtype=torch.long)",
              "w = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)"],
             ["torch.searchsorted(s, v)", "torch.searchsorted(s, v, right=True)", "torch.searchsorted(s, v, side='right')",
              "torch.searchsorted(s, v, side='left', right=True)", "torch.searchsorted(s, v, side='right', right=False)",
              "torch.searchsorted(s, v, side='middle')", "torch.searchsorted(s, 5)", "torch.searchsorted(s, 5.0, right=True)",
              "torch.searchsorted(s.long(), 4.5)", "torch.searchsorted(s2, torch.tensor([[3., 3.], [3., 7.]]))",
              "torch.searchsorted(s2, torch.tensor([[3.], [3.], [1.]]))", "torch.searchsorted(s2, torch.tensor([3.]))",
              "torch.searchsorted(s2, torch.tensor(3.))", "torch.searchsorted(s, v, out_int32=True)",
              "torch.searchsorted(u, v, sorter=torch.tensor([1, 2, 0]))", "torch.searchsorted(u, v, sorter=torch.tensor([1, 2, 0]), side='right')",
              "torch.searchsorted(u, v, sorter=torch.tensor([1, 2]))", "torch.searchsorted(u, v, sorter=torch.tensor([1., 2, 0]))",
              "torch.searchsorted(u, v, sorter=torch.tensor([1, 2, 5]))", "torch.searchsorted(u, v, sorter=torch.tensor([1, -2, 0]))",
              "torch.searchsorted(s, v.long())", "torch.searchsorted(s.long(), v)", "torch.searchsorted(torch.tensor(1.), v)",
              "torch.searchsorted(s, torch.tensor(4., requires_grad=True))", "torch.searchsorted(torch.tensor([]), v)",
              "torch.searchsorted(s, torch.tensor([float('nan'), -float('inf'), float('inf')]))",
              "torch.searchsorted(torch.tensor([1., float('nan')]), torch.tensor([float('nan'), 2.]))",
              "torch.searchsorted(s, torch.empty(2, 0))", "torch.searchsorted(s.bool(), v.bool())", "torch.searchsorted(s.int(), v.int())",
              "torch.searchsorted(s, v, out_int32=True, out=torch.empty(0, dtype=torch.long))",
              "torch.searchsorted(s, v, out=o)", "o", "torch.searchsorted(s, w)", "torch.searchsorted(s, w.t())",
              "torch.searchsorted(s2.t().contiguous().t(), v)",
              "torch.bucketize(v, s)", "torch.bucketize(v, s, right=True)", "torch.bucketize(v, s, out_int32=True)",
              "torch.bucketize(4, s)", "torch.bucketize(4.5, s, right=True)", "torch.bucketize(v, s2)", "torch.bucketize(v.int(), s)",
              "torch.bucketize(v, torch.tensor(3.))", "torch.bucketize(torch.tensor(3.), s)", "torch.bucketize(w, s)"]),
        case("gcd-lcm",  # ops/gcd.py: ATen's calc_gcd/calc_lcm (C remainder, int arithmetic, wrap-around)
             ["a = torch.tensor([4, -6, 0, 0, 15, -9223372036854775807 - 1])", "b = torch.tensor([6, 9, 5, 0, -10, 6])",
              "c = a.clone()", "d = a.clone()"],
             ["torch.gcd(a, b)", "torch.lcm(a, b)", "a.gcd(b)", "a.lcm(3)", "torch.gcd(a, 4)", "torch.gcd(4, a)",
              "torch.gcd(a.int(), b)", "torch.gcd(a.short(), b.byte())", "torch.gcd(a.float(), b)", "torch.gcd(a, b.float())",
              "torch.gcd(a.bool(), b.bool())", "torch.lcm(torch.tensor([2**40, 3]), torch.tensor([2**40 * 3, 5]))",
              "torch.lcm(torch.tensor([2**62]), torch.tensor([3]))", "torch.gcd(a.view(2, 3), torch.tensor([2, 3, 4]))",
              "torch.gcd(a.int(), torch.tensor(7))", "c.gcd_(b)", "c", "a.int().lcm_(b)", "d.lcm_(torch.tensor(3))", "d",
              "torch.gcd(torch.tensor(4), torch.tensor(6))", "torch.gcd(a, b, out=torch.empty(0, dtype=torch.long))",
              "torch.gcd(torch.tensor([4, 6], dtype=torch.uint8), torch.tensor([250, 9], dtype=torch.uint8))",
              "torch.lcm(torch.tensor([100, 6], dtype=torch.uint8), torch.tensor([3, 9], dtype=torch.uint8))",
              "torch.lcm(torch.tensor([-100, 6], dtype=torch.int8), torch.tensor([3, -9], dtype=torch.int8))",
              "torch.gcd(torch.tensor([-128, 6], dtype=torch.int8), torch.tensor([0, -9], dtype=torch.int8))",
              "torch.gcd_(a.clone(), b)", "a.float().gcd_(b)", "a[:2].gcd_(torch.ones(3, dtype=torch.long))",
              "torch.gcd(a, torch.ones(2, dtype=torch.long))"]),
    ]
