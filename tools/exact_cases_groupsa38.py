"""Regression cases of session 38's groupsa38 work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    # Loss.cpp's EPSILON is a float: cosine_embedding_loss adds 9.99999996e-13 to each squared magnitude,
    # whose root shows in a float64 gradient of a zero row (3000000.0059937043, was 3000000.0)
    case("cosine-embedding-float-epsilon", [
        "a = torch.tensor([[1.0], [0.0], [-2.25]], dtype=torch.float64, requires_grad=True)",
        "b = torch.tensor([[2.0], [2.25], [2.5]], dtype=torch.float32, requires_grad=True)",
        "t = torch.tensor([-1.0, 1.0, 1.0])",
        "r = torch.cosine_embedding_loss(a, b, t, 0.0)",
        "r.backward(torch.tensor([0.0, -3.0, -0.5], dtype=torch.float64))",
        "c = torch.tensor([[-1.75], [-1.0], [0.0]], dtype=torch.float64, requires_grad=True)",
        "d = torch.tensor([[1.75], [-2.25], [-0.75]], dtype=torch.float32)",
        "s = F.cosine_embedding_loss(c, d, -torch.ones(3), reduction='none')",
        "s.sum().backward(create_graph=True)",
        "e = torch.zeros(2, 3, dtype=torch.float64, requires_grad=True)",
        "F.cosine_embedding_loss(e, torch.ones(2, 3, dtype=torch.float64), torch.ones(2)).backward()",
    ], [
        "r.tolist()", "a.grad.tolist()", "b.grad.tolist()", "s.tolist()", "c.grad.tolist()", "e.grad.tolist()",
    ]),
    # gesdd of a matrix of zeros: its singular values are the bidiagonal's diagonal, A's (no reflector
    # changes a -0.0), or for m >= int(1.5 n) rows R's of geqrf first (MKL applies its reflectors);
    # svdvals without a gradient computes no vectors: +0.0 (dlasq1's magnitudes)
    case("svd-signed-zeros", [
        "a = torch.full((2, 4), -0.0)",
        "b = torch.full((3, 3), -0.0, dtype=torch.float64); b[0, 0] = 0.0",
        "c = torch.full((4, 2), -0.0)",
        "d = torch.full((5, 4), -0.0, dtype=torch.float64); d[1, 1] = 0.0",
        "e = torch.full((2, 3, 2), -0.0)",
        "f = torch.full((2, 2), -0.0, requires_grad=True)",
    ], [
        "torch.linalg.svd(a)", "torch.linalg.svd(b, full_matrices=False).S", "torch.linalg.svd(c).S",
        "torch.linalg.svd(d).S", "torch.linalg.svd(e).S", "torch.linalg.svdvals(a)", "torch.linalg.svdvals(f)",
        "torch.svd(f, compute_uv=False).S", "torch.svd(a).S",
    ]),
    # MKL's geqrf past 20 rows leaves a column whose tau * w is zero as it is (BLAS ger's skip): a matrix
    # of signed zeros keeps its -0.0s (up to 20 rows every column takes the update: -0.0 - 0 * w = +0.0);
    # a NaN's product is not zero
    case("geqrf-past-20-rows-signed-zeros", [
        "a = torch.full((21, 2), -0.0)",
        "b = torch.full((20, 2), -0.0)",
        "c = torch.full((24, 3), -0.0, dtype=torch.float64); c[1:, 0] = 0.0; c[4, 2] = 1.5",
        "d = torch.zeros(24, 3, dtype=torch.float64); d[0, 0] = 1.5; d[5, 1] = float('nan'); d[2, 1] = 2.0",
    ], [
        "torch.geqrf(a)", "torch.geqrf(b).a[:3]", "torch.geqrf(c)", "torch.geqrf(d).a[:4]", "torch.linalg.qr(a).R",
    ]),
    # gels takes no rcond (it assumes a full-rank A): an rcond of 0.5 cut two of an underdetermined
    # system's singular values from agrad's solution (its residual 2.9, PyTorch's 1e-15; run dt37b)
    case("lstsq-gels-ignores-rcond", [
        "a = torch.tensor([[[-2.25, -2.75, 0.0, 1.5], [1.25, -0.5, 0.0, -2.75], [-3.0, -1.0, 2.75, -2.25]]], "
        "dtype=torch.float64)",
        "b = torch.tensor([[[2.0, 0.75, -1.0, -2.0], [1.25, 2.75, -1.25, -3.0], [2.75, 2.5, 0.5, 1.25]]], "
        "dtype=torch.float64)",
        "x = torch.linalg.lstsq(a, b, rcond=0.5, driver='gels').solution",
        "c = torch.tensor([[1.0, 0.5], [2.0, -1.0], [0.5, 3.0]])",
        "y = torch.linalg.lstsq(c, torch.ones(3, 2), rcond=0.9, driver='gels').solution",
    ], [
        "bool((a @ x - b).abs().max() < 1e-12)", "x.round(decimals=6)", "y.round(decimals=5)",
    ]),
    # ormqr from the left as MKL's larf: the first row always takes tau * w, the rows below only in the
    # columns whose w is not zero (ger's skip of a zero y): a NaN tau keeps 2.5 below a zero w (run dt37d);
    # w summed from the last row up with no +0.0 to start
    case("ormqr-left-zero-w-columns", [
        "g, tau = torch.geqrf(torch.tensor([[float('inf')], [1.25]], dtype=torch.float64))",
        "h, s = torch.geqrf(torch.tensor([[float('-inf')], [-0.3], [-1.3], [0.0]]))",
        "c = torch.tensor([[0.0, -1.9, 0.0], [float('inf'), -0.6, -0.1], [0.0, -0.8, -1.9], [0.0, -0.8, 0.0]])",
    ], [
        "g.ormqr(tau, torch.tensor([[0.0], [2.5]], dtype=torch.float64))",
        "torch.ormqr(h, s, c, transpose=True)", "torch.ormqr(h, s, c)",
    ]),
    # grid_sample's double backward: a tap outside the input reads its clamped place times 0, so an inf
    # there is NaN in the grid's gradient (run dt37e: x8.grad NaN, was inf)
    case("grid-sample-double-backward-masked-inf", [
        "x = torch.tensor([[[[-1.25, -0.5], [2.5, 0.0], [2.0, 1.75]], [[0.5, 0.0], [float('inf'), -1.25], [-0.5, 0.0]]]])",
        "g = (torch.tensor([[[[-2.0, -0.5]]]]) / 3).requires_grad_()",
        "r = F.grid_sample(x, g, align_corners=False)",
        "gs = torch.autograd.grad(r.sum(), [g], create_graph=True)",
        "gs[0].pow(2).sum().backward()",
        "y = torch.tensor([[[[float('inf'), -0.5], [2.5, 0.0], [2.0, 1.75]]]], requires_grad=True)",
        "h = (torch.tensor([[[[-2.0, -0.5]]]]) / 3).requires_grad_()",
        "o = F.grid_sample(y, h, align_corners=False)",
        "go = torch.ones_like(o).requires_grad_()",
        "gi, gh = torch.autograd.grad(o, [y, h], go, create_graph=True)",
        "dd = torch.autograd.grad(gh, [go, y, h], torch.tensor([[[[1.0, 0.0]]]]))",
    ], [
        "gs[0]", "g.grad", "dd",
    ]),
    # gels as dgels: QR (geqrf, ormqr, trsm) for m >= n, LQ (gelqf, trsm, ormlq) for m < n; a zero on
    # R's (L's) diagonal is trtrs's rank error, a rank-deficient A otherwise gives dgels's huge values
    case("lstsq-gels-steps", [
        "a = torch.tensor([[[-2.25, -2.75, 0.0, 1.5], [1.25, -0.5, 0.0, -2.75], [-3.0, -1.0, 2.75, -2.25]]], "
        "dtype=torch.float64)",
        "b = torch.tensor([[[2.0, 0.75], [1.25, 2.75], [2.75, 2.5]]], dtype=torch.float64)",
        "c = torch.tensor([[1.0, 0.5], [2.0, -1.0], [0.5, 3.0]])",
        "d = torch.tensor([[[1.0, 1.0], [0.0, 2.0]], [[0.0, 1.0], [0.0, 2.0]]])",
        "e = torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=torch.float64)",
    ], [
        "torch.linalg.lstsq(a, b, driver='gels').solution.tolist()",
        "torch.linalg.lstsq(a.float(), b.float(), driver='gels').solution.round(decimals=4)",
        "torch.linalg.lstsq(c, torch.tensor([[1.0], [0.5], [-2.0]]), driver='gels').solution.tolist()",
        "torch.linalg.lstsq(d, torch.ones(2, 1), driver='gels')",
        "torch.linalg.lstsq(e, torch.ones(2, 1, dtype=torch.float64), driver='gels').solution.tolist()",
    ]),
    # index_put_ with accumulate stops at a bad index having added what came before, into the tensor the
    # caller named: through a view of a tensor that requires grad too (its base keeps the sums, no
    # CopySlices: the op raised; run 38110000)
    case("index-put-accumulate-written-before-grad-view", [
        "x = torch.tensor([[-0.75, 1.0, -0.5, 0.5], [-1.75, -2.25, -0.25, -1.25]], dtype=torch.float64, "
        "requires_grad=True)",
        "v = torch.tensor([[-1.0, -1.25, -0.0, -2.5], [2.75, -2.0, float('inf'), 1.0], [2.25, 2.0, -3.0, -0.25]], "
        "dtype=torch.float64)",
        "r = x * 1",
        "try:\n    r[::2].index_put_((torch.tensor([0, 0, 1]),), v, True)\nexcept IndexError as e:\n    err = str(e)",
    ], [
        "err", "r", "r._version",
    ]),
    # a freed saved input lets go of its history (PyTorch's reset_data): sinc_'s saved clone of a view no
    # longer keeps the view's node of the time alive, so tan_'s stale saved result names its own node
    # ("output 0 of Tan", was AsStrided; run 38120000); kept alive by the caller, it is AsStrided
    case("stale-saved-result-of-inplace-on-view-names-its-op", [
        "x = torch.tensor([[0.75, 2.0], [1.75, -1.75]], requires_grad=True)",
        "r = x * 1",
        "v = r[0].tan_()",
        "v.sinc_()",
        "try:\n    r.sum().backward()\nexcept RuntimeError as e:\n    err = str(e)[:150]",
        "y = x * 1",
        "w = y[0].tan_()",
        "keep = w.grad_fn",
        "w.sin_()",
        "try:\n    y.sum().backward()\nexcept RuntimeError as e:\n    err2 = str(e)[:150]",
    ], [
        "err", "err2",
    ]),
    # setitem with basic indexing on a view a custom Function made writes into the slice, a view of it:
    # the refusal names the slice's op (Select, Slice, Unsqueeze), not the Function's (run 38130000)
    case("setitem-custom-view-names-the-slice", [
        "import warnings",
        "warnings.simplefilter('ignore')",
        "x = torch.tensor([[1.75, 2.0], [-2.5, 1.0]], requires_grad=True)",
        "r = (x * 1).resize_as(torch.zeros(2, 2))",
        "errs = []",
        "for code in ('r[..., 0] = -2.0', 'r[0:1] = -2.0', 'r[None] = -2.0', 'r[...] = -2.0', "
        "'r[torch.tensor([0])] = -2.0'):\n    try:\n        exec(code)\n    except RuntimeError as e:\n"
        "        errs.append(str(e)[:40])",
    ], [
        "errs",
    ]),
    # trapezoid with a constant spacing: ATen's (y.sum(dim) - (ends) * 0.5) * dx takes its right operand
    # first (GCC), so a backward runs the sum's node first and sums its gradient into y first: the
    # create_graph gradient's graph (run 38130000 grad_fn:grad)
    case("trapezoid-right-operand-first-graph", [
        "x = torch.tensor([-2.0, 0.0, float('nan')], dtype=torch.float64, requires_grad=True)",
        "r = torch.trapezoid(x.expand(2, 3).diagonal())",
        "r.exp2_()",
        "g = torch.autograd.grad(r.sum(), [x], create_graph=True)[0]",
        "def bfs(fn):\n    order, seen, i = [fn], {id(fn)}, 0\n    while i < len(order):\n"
        "        for f, _ in order[i].next_functions:\n            if f is not None and id(f) not in seen:\n"
        "                seen.add(id(f))\n                order.append(f)\n        i += 1\n"
        "    return [f.name() for f in order]",
    ], [
        "g", "bfs(g.grad_fn)",
    ]),
]
