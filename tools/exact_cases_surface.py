"""Regression cases of the Tensor surface (session 28, helper "surface"): attributes and
aliases (ops/aliases.py), nanmean, the legacy constructor and ``x.new``, apply_/map_, diff,
bincount, Tensor.unfold, fill_diagonal_, rot90 (tools/exact_cases.py adds them).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``;
``graph`` is exact_cases.GRAPH.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    return [
        case("tensor-attributes-and-method-aliases",  # ops/aliases.py; export(method=True) makes every alias a method
             [graph, "x = torch.tensor([[1.5, -2.0], [3.0, 0.5]], requires_grad=True)"],
             ["x.real is x", "x.imag", "torch.real(x) is x", "torch.imag(x.long())", "torch.real(2.0)", "x.real.requires_grad",
              "[x.conj() is x, x.resolve_conj() is x, x.resolve_neg() is x, x.conj_physical() is x, x.positive() is x]",
              "x.bool().positive()", "[x.is_conj(), x.is_neg(), torch.is_conj(x), x.is_shared(), x.is_pinned()]",
              "[x.is_signed(), x.byte().is_signed(), x.bool().is_signed(), torch.is_signed(x.long())]",
              "[x[0, 0].is_nonzero(), torch.zeros(1).is_nonzero(), torch.is_nonzero(torch.tensor([float('nan')]))]",
              "x.is_nonzero()", "torch.ones(0).is_nonzero()", "bool(torch.ones(0))",
              "[x.is_same_size(x), x.is_same_size(x[0]), torch.is_same_size(x, x.t())]", "x.is_same_size(2)",
              "[x.nbytes, x.itemsize, x[0].nbytes, x.expand(3, 2, 2).nbytes, x.double().itemsize, x.bool().nbytes]",
              "[x.layout, x.is_cpu, x.is_meta, x.is_sparse, x.is_quantized, x.is_mkldnn, x.is_nested]",
              "graph(x.swapaxes(0, 1).grad_fn)", "x.swapaxes(axis0=0, axis1=1)", "torch.swapaxes(x, axis0=1, axis1=0)",
              "x.swapdims(dim0=0, dim1=1)", "x.swapaxes(0)", "graph(x.broadcast_to(3, 2, 2).grad_fn)",
              "x.broadcast_to(size=(2, 2))", "x.broadcast_to(3)", "x.broadcast_to()",
              "[x.divide(2), x.multiply(3), x.subtract(1, alpha=2), x.negative(), x.absolute()]",
              "[x.greater(2), x.greater_equal(2), x.less(2), x.less_equal(2), x.not_equal(2)]",
              "[x.arctan2(x), x[0].ger(x[1]), x.inner(x)]", "x.divide('a')", "x.multiply()", "x.negative(1)",
              "x.subtract(x, 2)", "x.ger(x)", "x.conj(1)", "x.imag()"]),
        case("nanmean",  # nansum(input, dim, keepdim, dtype) / isnan(input).logical_not().sum(dim, keepdim)
             [graph, "x = torch.tensor([[1.5, float('nan'), 0.25], [3.0, 0.5, -1.1]], requires_grad=True)",
              "w = torch.linspace(-3, 7, 1000).reshape(10, 100)"],
             ["x.nanmean()", "graph(x.nanmean().grad_fn)", "torch.nanmean(x, 1, keepdim=True)", "x.nanmean(dim=(0, 1))",
              "x.nanmean(-1, True)", "x.nanmean(())", "torch.nanmean(x, dim=None, keepdim=True)", "x.nanmean(dtype=torch.float64)",
              "torch.autograd.grad(x.nanmean(1).sum(), x)", "torch.autograd.grad(x.nanmean(1, dtype=torch.float64).sum(), x)",
              "torch.nanmean(torch.tensor([1, 2]))", "torch.nanmean(torch.tensor([True]))", "torch.nanmean(x, dtype=torch.int64)",
              "torch.nanmean(torch.zeros(0))", "torch.nanmean(torch.ones(2, 0), 1)", "torch.nanmean(torch.ones(2, 0), 0)",
              "torch.nanmean(x.detach(), 1, out=torch.empty(2))", "torch.nanmean(x.detach(), 1, out=torch.empty(2, dtype=torch.float64)).tolist()",
              "torch.nanmean(x, 1, out=torch.empty(2))", "torch.nanmean(x.detach().half(), 0).tolist()", "x.detach().nanmean(1).tolist()",
              "torch.nanmean(x, 2)", "torch.nanmean(w, 1).tolist()", "torch.nanmean(w.double(), 0).tolist()", "torch.nanmean(3.0)",
              "torch.nansum(x, ())", "torch.nansum(x, [], keepdim=True)"]),
        case("legacy-new-and-tensor-new",  # legacy_tensor_new: a tensor is aliased (typed: its dtype checked)
             ["x = torch.tensor([1.5, -2.0], requires_grad=True)", "import numpy as np"],
             ["torch.Tensor(3.5)", "torch.Tensor('a')", "torch.Tensor(2, 2.0)", "torch.Tensor(torch.tensor(3))",
              "torch.Tensor(2, dtype=torch.float64)", "torch.Tensor(torch.ones(2).int())", "torch.DoubleTensor(torch.ones(2))",
              "torch.Tensor(True)", "torch.Tensor(None)", "torch.Tensor(2, None)", "torch.Tensor(x)", "torch.Tensor(x) is x",
              "torch.FloatTensor(x).grad_fn", "torch.Tensor(range(3))", "torch.Tensor(np.ones(2)[0])", "torch.Tensor(2, True).shape",
              "[y := torch.Tensor(x.detach()), y.add_(1), x]", "x.new(2, 3).shape", "x.new((2, 3)).dtype", "x.new([1, 2])",
              "x.int().new([1.5, 2])", "x.new()", "x.new(x) is x", "x.new(x).grad_fn", "x.new(x.int())", "x.new(torch.tensor(3))",
              "x.new(2, requires_grad=True)", "x.new(3.5)", "x.new('a')", "x.double().new([1, 2])"]),
        case("apply-and-map",  # a Python function per element, in the logical order; no version bump, no graph
             ["x = torch.tensor([[1.5, -2.0], [3.0, 0.5]])"],
             ["x.clone().apply_(lambda v: v * 2)", "x.int().apply_(lambda v: v * 2.7)", "x.int().apply_(lambda v: -7.9)",
              "x.clone().apply_(lambda v: type(v).__name__ == 'float' and 1)", "x.int().apply_(lambda v: type(v).__name__ == 'int')",
              "x.bool().apply_(lambda v: not v)", "x.clone().requires_grad_().apply_(lambda v: v)", "x.clone().apply_(lambda v: 'a')",
              "x.clone().apply_(lambda v: None)", "x.clone().apply_(3)", "x.clone().map_(x, lambda a, b: a + b)",
              "x.clone().map_(x[0], lambda a, b: a * b)", "x[0].clone().map_(x, lambda a, b: a * b)",
              "x.clone().map_(x.int(), lambda a, b: a + b)", "x.clone().map_(2, lambda a, b: a)",
              "x.clone().map_(x.clone().requires_grad_(), lambda a, b: a)",
              "[c := [], x.t().clone().apply_(lambda a: c.append(a) or a), c][2]",
              "[c := [], x.t().clone().map_(x, lambda a, b: c.append((a, b)) or a), c][2]",
              "[y := x.clone(), y.apply_(lambda v: v), y._version][2]", "[y := x.clone(), y[0].apply_(lambda v: 7), y][2]",
              "x.half().apply_(lambda v: v / 3)", "x.clone().apply_(lambda v: torch.tensor(2.5))", "torch.tensor(3.0).apply_(abs)"]),
        case("diff",  # ATen's composite: narrow(a, d, 1, len-1) - narrow(a, d, 0, len-1), n times, after cat(prepend, a, append)
             [graph, "x = torch.tensor([[1.0, 4.0, 9.0], [2.0, 3.0, 7.0]], requires_grad=True)"],
             ["torch.diff(x)", "x.diff(n=2)", "x.diff(dim=0)", "x.diff(n=0)", "x.diff(n=5)", "torch.diff(x, prepend=torch.zeros(2, 1))",
              "torch.diff(x, append=x)", "torch.diff(x, n=-1)", "torch.diff(torch.tensor(1.0))", "torch.diff(x, prepend=torch.zeros(2))",
              "torch.diff(x.bool())", "torch.diff(torch.tensor([1, 5, 2]))", "graph(x.diff().grad_fn)", "graph(x.diff(n=2).grad_fn)",
              "graph(torch.diff(x, prepend=torch.zeros(2, 1)).grad_fn)", "graph(x.diff(n=0).grad_fn)", "torch.diff(x, dim=2)",
              "torch.diff(x, prepend=torch.zeros(3, 1))", "torch.diff(torch.ones(0))", "torch.diff(x, 1, 1, torch.zeros(2, 1, dtype=torch.float64))",
              "torch.diff(x, n=1.5)", "torch.autograd.grad(x.diff(n=2).pow(2).sum(), x)", "torch.diff(x, n=0, prepend=torch.zeros(2, 1))",
              "torch.diff(x, dim=0, append=torch.ones(1, 3))", "torch.diff(x, prepend=2)",
              "torch.diff(torch.tensor([True, False, False, True]), n=2)", "torch.diff(torch.linspace(0, 1, 40) ** 2).tolist()",
              "torch.diff(x, prepend=torch.zeros(2, 1), dim=5)", "x.t().diff().stride()"]),
        case("bincount",  # counts in int64; weights summed one by one in input order, float32 for float32 weights, else double
             ["x = torch.tensor([1, 3, 1, 0])", "w = torch.ones(4, requires_grad=True)", "torch.manual_seed(0)",
              "i = torch.randint(0, 7, (100000,))", "v = torch.rand(100000)"],
             ["torch.bincount(x)", "x.bincount(minlength=6)", "x.bincount(torch.tensor([0.5, 1.0, 2.0, 0.25]))",
              "x.bincount(torch.tensor([0.5, 1.0, 2.0, 0.25]).double())", "x.bincount(torch.tensor([1, 2, 3, 4]))",
              "x.bincount(torch.tensor([True, False, True, True]))", "x.bincount(torch.tensor([0.5, 1.0, 2.0, 0.25]).half())",
              "torch.bincount(x.float())", "torch.bincount(torch.tensor([-1, 2]))", "torch.bincount(x.reshape(2, 2))",
              "torch.bincount(x, minlength=-1)", "torch.bincount(x, torch.ones(3))", "torch.bincount(torch.tensor([], dtype=torch.long))",
              "torch.bincount(torch.tensor([], dtype=torch.long), torch.tensor([]).double(), 2)", "torch.bincount(x.byte())",
              "torch.bincount(x.bool())", "torch.bincount(x, w)", "torch.bincount(x, w).grad_fn.next_functions",
              "torch.autograd.grad(torch.bincount(x, w).sum(), w)", "torch.bincount(torch.tensor(3))", "torch.bincount(x, minlength=2.5)",
              "torch.bincount(x, minlength=True)", "torch.bincount(x, minlength=torch.tensor(5))", "torch.bincount(1)", "torch.bincount(x, 2)",
              "torch.bincount(i, v).tolist()", "torch.bincount(i, v.double()).tolist()", "torch.bincount(i)", "x.bincount(None, 5)"]),
        case("tensor-unfold",  # a view of windows (UnfoldBackward0); unfold_backward adds them in window order
             [graph, "x = (torch.arange(12.0).reshape(3, 4) * 0.37).requires_grad_()", "w = torch.linspace(-1, 1, 16).reshape(2, 4, 2)",
              "r = (torch.linspace(-3, 7, 101) * 1.37 % 2.3).requires_grad_()", "rw = torch.linspace(-1, 1, 48 * 7).reshape(48, 7) * 3.1"],
             ["x.unfold(1, 2, 1)", "x.unfold(1, 2, 1).stride()", "x.unfold(0, 2, 2)", "x.unfold(1, 5, 1)", "x.unfold(1, 0, 1)",
              "x.unfold(1, 2, 0)", "x.unfold(1, -1, 1)", "x.unfold(2, 2, 1)", "torch.tensor(3.0).unfold(0, 1, 1)",
              "torch.tensor(3.0).unfold(0, 2, 1)", "x.unfold(-1, 3, 2)", "x.t().unfold(0, 2, 1).stride()",
              "graph(torch.autograd.grad(x.unfold(1, 3, 1).pow(2).sum(), x, create_graph=True)[0].grad_fn)",
              "x.unfold(1, 2.0, 1)", "x.unfold(1, 2, True)", "x.unfold(dimension=1, size=2, step=1).shape", "torch.ones(0, 3).unfold(0, 1, 1)",
              "x.unfold(1, 4, 1).stride()", "x.unfold(1, 1, 5).shape", "torch.autograd.grad(x.unfold(1, 3, 1).pow(2).sum(), x)",
              "torch.autograd.grad((x.unfold(0, 2, 1) * w).sum(), x)[0].tolist()",
              "torch.autograd.grad(torch.autograd.grad((x.unfold(1, 3, 1) ** 3).sum(), x, create_graph=True)[0].sum(), x)",
              "x.unfold(1, 2, 1).unfold(0, 2, 1).stride()", "torch.autograd.grad(x.unfold(1, 2, 1).unfold(0, 2, 1).sum(), x)",
              "r.unfold(0, 5, 3).sum(-1).tolist()", "r.unfold(0, 17, 3).mean(-1).tolist()",
              "torch.autograd.grad((r.unfold(0, 7, 2) * rw).sum(), r)[0].tolist()", "x.detach().unfold(1, 2, 1).requires_grad"]),
        case("fill-diagonal",  # as_strided([min(h, w)], [sum of strides]).fill_(v), then the wrapped diagonals: CopySlices
             [graph, "w = torch.ones(3, 3, requires_grad=True)", "v = torch.ones(7, 3, requires_grad=True)",
              "x = w * 1", "x.fill_diagonal_(3)", "y = v * 1", "y.fill_diagonal_(3, wrap=True)"],
             ["x", "graph(x.grad_fn)", "x._version", "torch.autograd.grad(x.sum(), w)", "y", "graph(y.grad_fn)", "y._version",
              "torch.autograd.grad(y.pow(2).sum(), v)", "torch.zeros(7, 3).fill_diagonal_(5)", "torch.zeros(3, 5).fill_diagonal_(5)",
              "torch.zeros(2, 2, 2).fill_diagonal_(5)", "torch.zeros(2, 3, 2).fill_diagonal_(1)", "torch.zeros(3).fill_diagonal_(1)",
              "w.fill_diagonal_(1)", "torch.zeros(3, 3).fill_diagonal_(torch.tensor(2.0))", "torch.zeros(3, 3, dtype=torch.int64).fill_diagonal_(2.7)",
              "torch.zeros(3, 3).t().fill_diagonal_(1)", "torch.zeros(3, 3)[:, :2].fill_diagonal_(1)", "torch.zeros(7, 3)[::2].fill_diagonal_(1, True)",
              "torch.zeros(8, 3).fill_diagonal_(2, True)", "torch.zeros(9, 2).fill_diagonal_(2, True)", "torch.zeros(4, 3).fill_diagonal_(2, True)",
              "torch.zeros(3, 3, 3).fill_diagonal_(7).nonzero().tolist()", "torch.zeros(0, 0).fill_diagonal_(1)",
              "torch.zeros(2, 2).fill_diagonal_(1, wrap=1)", "torch.zeros(2, 2).fill_diagonal_('a')", "torch.zeros(2, 2).fill_diagonal_()"]),
        case("rot90",  # Rot90Backward0 (grad.rot90(-k, dims)); values laid out as ATen's flip + transpose_ steps
             [graph, "x = torch.arange(6.0).reshape(2, 3).requires_grad_()"],
             ["x.rot90()", "graph(x.rot90().grad_fn)", "x.rot90(2)", "x.rot90(3)", "x.rot90(0)", "x.rot90(-1)", "x.rot90(5)",
              "x.rot90(1, [1, 0])", "torch.rot90(x, 1, (0,))", "torch.rot90(x, 1, [0, 0])", "torch.rot90(x[0])", "torch.rot90(x, 1, [0, 5])",
              "torch.rot90(x, 1, [0, -2])", "torch.rot90(x, 1, [-1, -2])", "[x.rot90(k).stride() for k in range(4)]",
              "[x.t().rot90(k).stride() for k in range(4)]", "x.rot90(1, [0, 1, 2])", "torch.rot90(x, 1.5)", "torch.rot90(x, True)",
              "torch.ones(2, 3, 4).permute(2, 0, 1).rot90(1, [0, 2]).stride()",
              "graph(torch.autograd.grad(x.rot90(3).pow(2).sum(), x, create_graph=True)[0].grad_fn)",
              "torch.autograd.grad((x.rot90(1) * torch.arange(6.0).reshape(3, 2)).sum(), x)", "torch.rot90(x, dims=[1, 0], k=2)"]),
    ]
