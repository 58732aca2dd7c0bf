"""Regression cases of session 31's helper "nnrest": torch.nn's remaining losses, pools and layers (CTC loss,
fractional max pooling, grid_sample's bicubic mode, AdaptiveLogSoftmaxWithLoss and the small ones).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``;
``graph`` is exact_cases.GRAPH.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


_CTC = [
    "torch.manual_seed(0)",
    "lp = torch.randn(6, 2, 5).log_softmax(2).detach().requires_grad_()",
    "ld = lp.detach().double().requires_grad_()",
    "tg = torch.tensor([[1, 2, 2], [3, 1, 0]])",
    "il = torch.tensor([6, 5])",
    "tl = torch.tensor([3, 2])",
    "bad = torch.tensor([[1, 1, 1], [1, 1, 1]])",
]


def cases(graph: str) -> list[dict]:
    return [
        case("ctc-loss",  # ops/ctc_loss.py: ATen's CPU forward-backward (CtcLossBackward0), its wrapper's graph
             [graph] + _CTC,
             ["F.ctc_loss(lp, tg, il, tl, reduction='none')", "F.ctc_loss(lp, tg, il, tl)", "F.ctc_loss(lp, tg, il, tl, reduction='sum')",
              "graph(F.ctc_loss(lp, tg, il, tl).grad_fn)", "graph(F.ctc_loss(lp, tg, il, tl, zero_infinity=True).grad_fn)",
              "torch.autograd.grad(F.ctc_loss(lp, tg, il, tl), lp)", "torch.autograd.grad(F.ctc_loss(ld, tg, il, tl, reduction='sum'), ld)",
              "F.ctc_loss(ld, tg, (6, 5), (3, 2), reduction='none')", "F.ctc_loss(lp, torch.tensor([1, 2, 2, 3, 1]), il, tl, reduction='none')",
              "F.ctc_loss(lp, bad, torch.tensor([3, 2]), tl, reduction='none')",
              "F.ctc_loss(lp, bad, torch.tensor([3, 2]), tl, reduction='none', zero_infinity=True)",
              "torch.autograd.grad(F.ctc_loss(lp, bad, torch.tensor([3, 2]), tl, zero_infinity=True), lp)",
              "F.ctc_loss(lp, tg, torch.tensor([0, 5]), torch.tensor([0, 2]), reduction='none')",
              "torch.autograd.grad(F.ctc_loss(lp, tg, torch.tensor([0, 5]), torch.tensor([0, 2])), lp)",
              "F.ctc_loss(lp, tg, il, tl, blank=4, reduction='none')", "F.ctc_loss(lp[:, 0], tg[0], torch.tensor(6), torch.tensor(3))",
              "graph(F.ctc_loss(lp[:, 0], tg[0], (6,), (3,), reduction='none').grad_fn)",
              "torch.ctc_loss(lp, tg, il, tl, 0, 2, False)", "F.ctc_loss(lp, tg.int(), il.int(), tl.int())",
              "torch.autograd.grad(torch.autograd.grad(F.ctc_loss(ld, tg, il, tl), ld, create_graph=True)[0].sum(), ld)",
              "torch.autograd.grad(F.ctc_loss(ld, tg, il, tl), ld, create_graph=True)[0].grad_fn.name()"]),
        case("ctc-loss-errors",  # ATen's checks, in its order
             _CTC,
             ["F.ctc_loss(lp.long(), tg, il, tl)", "F.ctc_loss(lp.half(), tg, il, tl)", "F.ctc_loss(lp[:, :, 0], tg, il, tl)",
              "F.ctc_loss(lp[None], tg, il, tl)", "F.ctc_loss(lp, tg[None], il, tl)", "F.ctc_loss(lp, tg, il, tl, blank=5)",
              "F.ctc_loss(lp, tg, il, tl, blank=-1)", "F.ctc_loss(lp, tg, torch.tensor([6, 5, 4]), tl)",
              "F.ctc_loss(lp, tg, il, torch.tensor([3]))", "F.ctc_loss(lp, tg, il, torch.tensor([3, -1]))",
              "F.ctc_loss(lp, tg, il, torch.tensor([4, 1]))", "F.ctc_loss(lp, tg, torch.tensor([6, -1]), tl)",
              "F.ctc_loss(lp, tg, torch.tensor([7, 5]), tl)", "F.ctc_loss(lp, tg[:1], il, tl)",
              "F.ctc_loss(lp, torch.tensor([1, 2, 3, 4]), il, tl)", "F.ctc_loss(lp, tg, il.float(), tl)",
              "F.ctc_loss(lp, tg, il, tl.bool())", "F.ctc_loss(lp, tg, il, (3, 2))", "F.ctc_loss(lp, tg, [6.0, 5], [3, 2])",
              "F.ctc_loss(lp, tg, il, tl, reduction='avg')", "F.ctc_loss(lp[:, :0], tg[:0], il[:0], tl[:0])",
              "F.ctc_loss(lp, tg, il, tl, blank=1.0)"]),
        case("ctc-loss-module",
             _CTC + ["m = torch.nn.CTCLoss(blank=0, reduction='sum', zero_infinity=True)"],
             ["m", "torch.nn.CTCLoss()", "(m.blank, m.reduction, m.zero_infinity)", "m(lp, tg, il, tl)",
              "torch.nn.CTCLoss(reduction='none')(lp, tg, [6, 5], [3, 2])"]),
        case("fractional-max-pool2d",  # ops/fractional_pooling.py: seeded samples, ATen's intervals and scan
             [graph, "torch.manual_seed(0)", "x = torch.randn(2, 3, 7, 8, requires_grad=True)",
              "d = torch.randn(1, 2, 6, 6, dtype=torch.float64, requires_grad=True)",
              "n = torch.tensor([[[[1., float('nan'), 3.], [4., 5., 6.], [7., 8., 9.]]]], requires_grad=True)"],
             ["(torch.manual_seed(1), F.fractional_max_pool2d(x, 3, output_size=4, return_indices=True))[1]",
              "(torch.manual_seed(2), F.fractional_max_pool2d(x, (2, 3), output_ratio=(0.5, 0.6)))[1]",
              "(torch.manual_seed(3), torch.autograd.grad(F.fractional_max_pool2d(x, 2, output_size=(5, 4)).sum(), x))[1]",
              "(torch.manual_seed(4), F.fractional_max_pool2d(x[0], 2, output_size=3, return_indices=True))[1]",
              "F.fractional_max_pool2d(x, 2, output_size=3, _random_samples=torch.full((2, 3, 2), 0.5))",
              "F.fractional_max_pool2d(n, 2, output_size=2, return_indices=True, _random_samples=torch.zeros(1, 1, 2))",
              "(torch.manual_seed(5), F.fractional_max_pool2d(x.half(), 2, output_size=3))[1]",
              "graph(F.fractional_max_pool2d(x, 2, output_size=3).grad_fn)",
              "(torch.manual_seed(6), torch.autograd.grad(F.fractional_max_pool2d(d, 2, output_size=3).sum(), d, create_graph=True)[0].grad_fn.name())[1]",
              "F.fractional_max_pool2d_with_indices(x, 2, output_size=3, _random_samples=torch.zeros(2, 3, 2))[1]",
              "F.fractional_max_pool2d(x, 2, output_ratio=0.5)", "F.fractional_max_pool2d(x, 2)",
              "F.fractional_max_pool2d(x, 5, output_size=4)", "F.fractional_max_pool2d(x, (2, 6), output_size=4)",
              "F.fractional_max_pool2d(x[None], 2, output_size=3)", "F.fractional_max_pool2d(torch.ones(2, 0, 4, 4), 2, output_size=3)",
              "F.fractional_max_pool2d(x, 2, output_size=3, _random_samples=torch.rand(1, 3, 2))",
              "F.fractional_max_pool2d(x, 2, output_size=3, _random_samples=torch.rand(2, 3, 3))",
              "F.fractional_max_pool2d(x, 2, output_size=3, _random_samples=torch.rand(2, 3, 2).double())",
              "F.fractional_max_pool2d(x, (2, 2, 2), output_size=3)", "F.fractional_max_pool2d(torch.ones(1, 2, 5, 5).long(), 2, output_size=3)",
              "F.fractional_max_pool2d(x, 2, output_ratio=(0.5, 0.5, 0.5))"]),
        case("fractional-max-pool3d",
             [graph, "torch.manual_seed(0)", "x = torch.randn(2, 2, 5, 6, 7, requires_grad=True)"],
             ["(torch.manual_seed(1), F.fractional_max_pool3d(x, 2, output_size=(3, 4, 3), return_indices=True))[1]",
              "(torch.manual_seed(2), torch.autograd.grad(F.fractional_max_pool3d(x, (2, 1, 3), output_ratio=0.5).sum(), x))[1]",
              "(torch.manual_seed(3), F.fractional_max_pool3d(x[0].double(), 2, output_size=3))[1]",
              "graph(F.fractional_max_pool3d(x, 2, output_size=3).grad_fn)",
              "F.fractional_max_pool3d(x, 3, output_size=3)", "F.fractional_max_pool3d(torch.randn(2, 6, 6, 4), 2, output_size=3)",
              "F.fractional_max_pool3d(x[None], 2, output_size=3)", "F.fractional_max_pool3d(x, 2, output_size=3, _random_samples=torch.rand(2, 2, 2))",
              "F.fractional_max_pool3d(x, (2, 2), output_size=3)", "F.fractional_max_pool3d(x, 2)"]),
        case("fractional-max-pool-modules",
             ["torch.manual_seed(0)", "x = torch.randn(1, 2, 6, 6)", "m = torch.nn.FractionalMaxPool2d(2, output_ratio=(0.5, 0.7), return_indices=True)"],
             ["m", "(m.kernel_size, m.output_size, m.output_ratio, m.return_indices)", "sorted(m.state_dict())", "m(x)",
              "torch.nn.FractionalMaxPool3d((2, 1, 2), output_size=(3, 3, 3))", "torch.nn.FractionalMaxPool3d(2, output_size=2)(x)",
              "torch.nn.FractionalMaxPool2d(2)", "torch.nn.FractionalMaxPool2d(2, output_size=2, output_ratio=0.5)",
              "torch.nn.FractionalMaxPool2d(2, output_ratio=1.5)", "torch.nn.FractionalMaxPool3d(0, output_ratio=0.5)",
              "torch.nn.FractionalMaxPool2d(2, output_size=3, _random_samples=torch.full((1, 2, 2), 0.25))(x)"]),
        case("grid-sample-bicubic",  # ops/grid_sampling_bicubic.py: the kernel's contractions, both backward instances
             [graph, "torch.manual_seed(0)", "x = torch.randn(2, 3, 5, 6, requires_grad=True)",
              "g = (torch.rand(2, 4, 7, 2) * 2.6 - 1.3).requires_grad_()", "d = x.detach().double().requires_grad_()",
              "gd = g.detach().double().requires_grad_()", "w = torch.randn(2, 3, 4, 7)"],
             ["F.grid_sample(x, g, mode='bicubic', align_corners=False)",
              "torch.autograd.grad((F.grid_sample(x, g, mode='bicubic', align_corners=True) * w).sum(), [x, g])",
              "torch.autograd.grad((F.grid_sample(x.detach(), g, mode='bicubic', padding_mode='border', align_corners=False) * w).sum(), g)",
              "torch.autograd.grad((F.grid_sample(x, g.detach(), mode='bicubic', padding_mode='reflection', align_corners=True) * w).sum(), x)",
              "torch.autograd.grad((F.grid_sample(d, gd, mode='bicubic', padding_mode='reflection', align_corners=False) * w.double()).sum(), [d, gd])",
              "F.grid_sample(d.detach(), gd.detach(), mode='bicubic', padding_mode='border', align_corners=True)",
              "graph(F.grid_sample(x, g, mode='bicubic', align_corners=False).grad_fn)",
              "F.grid_sample(x[None], torch.zeros(1, 2, 3, 4, 3), mode='bicubic', align_corners=False)",
              "F.grid_sample(torch.arange(12.).view(1, 1, 3, 4), torch.tensor([[[[float('nan'), 0.2], [0.3, float('inf')], [5.0, -7.0]]]]), mode='bicubic', padding_mode='border', align_corners=False)"]),
        case("nllloss2d",  # the deprecated alias of NLLLoss (its FutureWarning)
             ["m = torch.nn.NLLLoss2d(ignore_index=2)", "x = torch.linspace(-1., 1., 24).view(2, 3, 2, 2).log_softmax(1)",
              "t = torch.tensor([[[0, 1], [2, 1]], [[1, 1], [0, 2]]])"],
             ["m", "m(x, t)", "isinstance(m, torch.nn.NLLLoss)"]),
    ]
