"""Regression cases of session 29's helper "nngaps": nn.functional functions and layers real scripts
call that agrad lacked (rms_norm, lp_pool, local_response_norm, ...), avg_pool's order of additions,
and a sum over trailing dims as TensorIterator coalesces them (tools/exact_cases.py adds them).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``;
``graph`` is exact_cases.GRAPH.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    return [
        case("rms-norm",  # ops/norm_composites.py: ATen's composite (opmath upcast, eps=None, contiguous result)
             [graph, "x = torch.linspace(-2., 3., 24).view(2, 3, 4).requires_grad_()",
              "w = torch.tensor([0.5, -1.25, 2., 1.], requires_grad=True)", "h = x.detach().half().requires_grad_()",
              "xt = x.detach().transpose(1, 2).requires_grad_()"],
             ["F.rms_norm(x, (4,))", "F.rms_norm(x, [3, 4], eps=0.1)", "F.rms_norm(x, (4,), w)",
              "graph(F.rms_norm(x, (4,), w).grad_fn)", "torch.autograd.grad(F.rms_norm(x, (4,), w).pow(2).sum(), [x, w])",
              "F.rms_norm(h, (4,), w.detach().half())", "graph(F.rms_norm(h, (4,)).grad_fn)",
              "F.rms_norm(x.detach().double(), (4,), eps=1e-3)", "graph(F.rms_norm(xt, (3,)).grad_fn)",
              "F.rms_norm(xt, (3,)).stride()", "F.rms_norm(x, (4,), w.detach().double())",
              "F.rms_norm(x, (3,))", "F.rms_norm(x, (4,), torch.ones(3))", "F.rms_norm(x, ())",
              "F.rms_norm(x, (1, 2, 3, 4))", "F.rms_norm(x, 4)", "F.rms_norm(x, (4.0,))", "F.rms_norm(x, (4,), 2)",
              "F.rms_norm(torch.arange(4), (4,))", "torch.rms_norm(x, [4], None, 1e-2)"]),
        case("rms-norm-module",
             ["torch.manual_seed(0)", "m = torch.nn.RMSNorm(4)", "n = torch.nn.RMSNorm([3, 4], eps=1e-3, elementwise_affine=False)",
              "x = torch.linspace(-2., 3., 24).view(2, 3, 4)"],
             ["m", "n", "m.weight", "n.weight", "sorted(m.state_dict())", "hasattr(m, 'bias')", "m(x)", "n(x)",
              "torch.nn.RMSNorm(3, dtype=torch.float64).weight"]),
        case("lp-pool",  # ops/pooling_composites.py: F's composite over avg_pool/max_pool
             [graph, "x = torch.linspace(-2., 3., 36).view(1, 2, 3, 6).double().requires_grad_()",
              "y = x.detach().float().requires_grad_()"],
             ["F.lp_pool2d(x, 2, 2)", "graph(F.lp_pool2d(x, 2, (2, 3)).grad_fn)",
              "torch.autograd.grad(F.lp_pool2d(x, 2, (2, 3), 1).sum(), x)", "F.lp_pool1d(y[0], 1, 3, 2, True)",
              "F.lp_pool2d(y, float('inf'), 2)", "graph(F.lp_pool2d(y, float('-inf'), 2).grad_fn)",
              "F.lp_pool3d(x, 2, (1, 2, 2))", "F.lp_pool1d(x[0], 2, 2)", "F.lp_pool2d(x, 2, (2, 2, 2))",
              "F.lp_pool2d(x[0, 0, 0], 2, 1)", "torch.nn.LPPool2d(2, 3)", "torch.nn.LPPool1d(1.5, 2, 1, True)",
              "torch.nn.LPPool3d(2, (1, 2, 2))(x)", "torch.nn.LPPool1d(1, 2)(y[0])"]),
        case("local-response-norm",  # ops/norm_composites.py: F's composite (pad + avg_pool over channels)
             [graph, "x = torch.linspace(-2., 3., 48).view(2, 4, 6).double().requires_grad_()"],
             ["F.local_response_norm(x, 2, beta=0.5)", "graph(F.local_response_norm(x, 3, beta=0.5).grad_fn)",
              "torch.autograd.grad(F.local_response_norm(x, 3, 0.1, 1.0, 2.0).sum(), x)",
              "F.local_response_norm(x.view(2, 4, 2, 3), 3, beta=1.0)", "F.local_response_norm(x.view(1, 2, 4, 2, 3).float(), 2, beta=1.0)",
              "graph(F.local_response_norm(x.view(2, 4, 2, 3), 2, beta=1.0).grad_fn)",
              "F.local_response_norm(x[0], 2)", "F.local_response_norm(torch.ones(0, 2, 3), 2)",
              "torch.nn.LocalResponseNorm(2)", "torch.nn.LocalResponseNorm(3, 0.01, 0.5, 2.0)(x)"]),
        case("avg-pool-sum-order",  # ops/pooling.py: each window summed in order in the input's dtype
             ["x = torch.linspace(-2.3, 3.7, 3 * 7 * 8).view(1, 3, 7, 8).requires_grad_()",
              "c = x.detach().permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)", "e = torch.ones(0, 1, 3, 3, requires_grad=True)"],
             ["F.avg_pool2d(x, (2, 3))", "F.avg_pool2d(x.double(), 3, 2, 1, True, False)", "F.avg_pool2d(x.half(), 3, 2, 1)",
              "F.avg_pool2d(x, 3, 2, 1, True, True, 5)", "F.avg_pool1d(x[0], 3, 2, 1)", "F.avg_pool3d(x, 2, 1)",
              "F.avg_pool2d(c, 3, 1, 1)", "F.avg_pool2d(torch.arange(-12, 12).view(2, 3, 4), 2, 1, 1)",
              "F.avg_pool3d(torch.arange(24).view(1, 2, 3, 4), (1, 2, 2))", "F.avg_pool2d(torch.ones(2, 3, 4, dtype=torch.uint8), 2)",
              "F.avg_pool3d(torch.ones(1, 2, 3, 4).half(), 1)", "F.avg_pool2d(torch.ones(4), 1)", "F.avg_pool2d(torch.tensor(1.), 1)",
              "F.avg_pool1d(torch.ones(4), 1)", "F.avg_pool2d(torch.ones(2, 1, 0), 1)", "F.max_pool2d(torch.ones(0, 2, 2), 1)",
              "F.max_pool2d(torch.ones(2, 2, 2, 2, 2), 1)", "F.avg_pool2d(torch.ones(2, 2, 2, 2, 2), 1)",
              "F.max_pool2d(e, 2, return_indices=True)", "torch.autograd.grad(F.avg_pool2d(e, 2).sum() + F.max_pool2d(e, 2).sum(), e)"]),
        case("adaptive-max-pool",  # ops/pooling_composites.py: AdaptiveMaxPool2DBackward0/3DBackward0, the kernel's scan
             [graph, "x = torch.tensor([[[1., float('nan'), 3., 0.5, -2.], [float('nan'), 2., float('-inf'), 4., 4.]], "
              "[[float('-inf'), float('-inf'), 1., 1., 0.], [-0., 0., 2., -1., 7.]]], requires_grad=True)",
              "y = torch.linspace(-3., 2., 2 * 3 * 5 * 7).view(2, 3, 5, 7).requires_grad_()",
              "c = y.detach().permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2).requires_grad_()"],
             ["F.adaptive_max_pool1d(x, 3, True)", "torch.adaptive_max_pool1d(x, (2,))", "F.adaptive_max_pool2d(x, 1, True)",
              "F.adaptive_max_pool2d(x, (None, 2), return_indices=True)", "graph(F.adaptive_max_pool1d(x, 2).grad_fn)",
              "F.adaptive_max_pool2d(y, (2, 3), True)", "graph(F.adaptive_max_pool2d(y, 3).grad_fn)",
              "torch.autograd.grad(F.adaptive_max_pool2d(y, (2, 4)).pow(2).sum(), y, create_graph=True)",
              "graph(torch.autograd.grad(F.adaptive_max_pool2d(y, 2).sum(), y, create_graph=True)[0].grad_fn)",
              "torch.autograd.grad(F.adaptive_max_pool2d(c, 3).sum(), c)[0].stride()",
              "F.adaptive_max_pool3d(y, (2, 2, 3), True)", "graph(F.adaptive_max_pool3d(y, 2).grad_fn)",
              "F.adaptive_max_pool1d(x, (3, 4))", "F.adaptive_max_pool1d(x[0, 0], 3)", "F.adaptive_max_pool2d(y, (2, 3, 4))",
              "F.adaptive_max_pool2d(y[:, :0], 2)", "F.adaptive_max_pool2d(y[:0], 2)", "F.adaptive_max_pool2d(y, (0, 3))",
              "F.adaptive_max_pool2d(y, (-1, 3))", "F.adaptive_max_pool2d(y.long(), 2)", "F.adaptive_max_pool3d(y.long(), 1)",
              "F.adaptive_max_pool2d(y.view(1, 1, 2, 3, 35), 1)", "F.adaptive_max_pool2d(y.half(), 2)",
              "torch.nn.AdaptiveMaxPool2d((2, None))", "torch.nn.AdaptiveMaxPool1d(3, True)(x)",
              "torch.nn.AdaptiveMaxPool3d(2)(y)"]),
        case("triplet-margin-loss",  # ops/margin_losses.py: ATen's composite over pairwise_distance
             [graph, "a = torch.linspace(-2., 3., 20).view(4, 5).double().requires_grad_()",
              "p = torch.linspace(1., -1.5, 20).view(4, 5).double()", "n = torch.cos(torch.arange(20.)).view(4, 5).double()"],
             ["F.triplet_margin_loss(a, p, n)", "graph(F.triplet_margin_loss(a, p, n, swap=True).grad_fn)",
              "F.triplet_margin_loss(a, p, n, margin=0.5, p=1, reduction='none')", "F.triplet_margin_loss(a, p, n, p=3, swap=True, reduction='sum')",
              "torch.autograd.grad(F.triplet_margin_loss(a, p, n, eps=0.1, swap=True), a, create_graph=True)",
              "graph(F.triplet_margin_loss(a[0], p[0], n[0], reduction='none').grad_fn)",
              "F.triplet_margin_loss(a, p[0], n)", "F.triplet_margin_loss(a, p, n, margin=0)", "F.triplet_margin_loss(a, p, n, reduction='x')",
              "F.triplet_margin_loss(a, p[:2], n)", "F.triplet_margin_loss(a, p, n, size_average=False)",
              "torch.triplet_margin_loss(a, p, n, 1.0, 2.0, 1e-6, False, 2)",
              "torch.nn.TripletMarginLoss(margin=-1)", "torch.nn.TripletMarginLoss(margin=2.0, p=1, swap=True)",
              "torch.nn.TripletMarginLoss(swap=True, reduction='none')(a, p, n)"]),
        case("gumbel-softmax",  # ops/gumbel.py: F's composite over exponential_ (PyTorch's CPU stream)
             ["torch.manual_seed(3)", "x = torch.linspace(-2., 2., 15).view(5, 3).t().requires_grad_()",
              "y = F.gumbel_softmax(x, tau=0.5)", "h = F.gumbel_softmax(x, hard=True, dim=0)", "e = F.gumbel_softmax(x[0], eps=1e-3)"],
             ["y", "h", "e", "torch.autograd.grad((y * torch.arange(15.).view(3, 5)).sum(), x)",
              "torch.autograd.grad((h * torch.arange(15.).view(3, 5)).sum(), x)", "torch.rand(2)"]),
        case("sum-trailing-dims",  # _cascade.py: contiguous trailing dims reduced as one row
             ["x = torch.linspace(-1.3, 2.9, 3 * 6 * 5).view(3, 6, 5).double().pow(2)", "y = x.float()"],
             ["x.sum((1, 2))", "x.mean([2, 1], keepdim=True)", "y.sum((1, 2))", "y.mean((-1, -2))",
              "x.view(3, 2, 3, 5).sum((1, 2, 3))"]),
    ]
