"""Regression cases of the differences the differential tester found once its generator drew the whole
op table (helper "coverage", session 31; tools/exact_cases.py adds them).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    case("torch-max-pool-has-no-return-indices",  # ATen's torch.max_poolNd: F's wrappers add return_indices
         ["x = torch.arange(16.).reshape(1, 4, 4).requires_grad_()"],
         ["torch.max_pool2d(x, 2, return_indices=True)", "torch.max_pool2d(x, 2, 2, 0, 1, False, True)",
          "torch.max_pool1d(x, 2)", "torch.max_pool1d_with_indices(x, 2)",
          "torch.max_pool1d_with_indices(x, 2, return_indices=True)", "torch.max_pool3d(x[None], 1, ceil_mode=True)",
          "torch.max_pool3d(x[None], 2, return_indices=True)", "torch.max_pool2d(x, 3, stride=[])",
          "torch.max_pool2d(input=x, kernel_size=2)", "torch.max_pool1d(x, 2, 1, 1, 2, True)",
          "F.max_pool2d(x, 2, return_indices=True)"]),
    case("shuffles-by-one-copy",  # a factor of 1 moves nothing, but the result is a new tensor
         ["x = torch.tensor([[[0.75, -2.75], [2.5, 1.5]]])", "r = F.channel_shuffle(x, 1)",
          "p = torch.pixel_shuffle(x[None], 1)", "u = torch.pixel_unshuffle(x[None], 1)",
          "y = torch.tensor([[[0.5, 0.5], [-2.0, 0.25]]], requires_grad=True)", "q = F.channel_shuffle(y, 1) * 1",
          "x.transpose(0, -1).neg_()"],
         ["r", "p", "u", "r._version", "q", "F.pixel_shuffle(y[None], 1)"]),
    case("adaptive-average-nonfinite-stays-in-its-window",  # (a matrix product spread NaN = 0 * inf)
         ["n, i = float('nan'), float('inf')",
          "x8 = torch.tensor([[[[[-2.25, n, -1.5, -1.0, -1.25], [0.5, -2.0, 1.25, 0.0, 0.5], "
          "[1.0, 0.25, -0.75, 0.75, 2.5], [-2.25, 0.0, -0.75, -1.25, -2.5]]]]])",
          "x11 = torch.tensor([[[[-i], [3.0]], [[-2.25], [-1.25]]]])"],
         ["F.adaptive_avg_pool3d(x8, (3, 2, 3))", "F.interpolate(x11, scale_factor=2.0, mode='area')",
          "F.adaptive_avg_pool2d(torch.tensor([[[i, -i, 1.0], [2.0, 3.0, i]]]), (2, 2))",
          "F.adaptive_avg_pool1d(torch.tensor([[i, -i, 1.0, 2.0, 3.0]]), 3)",
          "F.adaptive_avg_pool2d(torch.tensor([[[i, 1.0], [2.0, 3.0]]], dtype=torch.float64), (1, 2))"]),
    case("area-interpolation-of-3d-input",  # (was a KeyError: adaptive_avg_pool1d through 2-D, as ATen)
         ["x9 = torch.tensor([[[1.25, -2.0, 2.25, -1.5], [0.75, 2.0, 0.75, 1.75]]])",
          "x3 = torch.tensor([[[0.0]]], requires_grad=True)"],
         ["F.interpolate(x9, scale_factor=3, mode='area')", "F.interpolate(x3, scale_factor=1.5, mode='area')",
          "F.interpolate(x3, scale_factor=3, mode='area')", "F.interpolate(x9, size=5, mode='area')"]),
    case("unfold-of-a-0d-tensor-by-0",  # (the size is the result's length: 0 or 1)
         ["x = torch.tensor(5., requires_grad=True)", "r = x.unfold(0, 0, 1)", "r.sum().backward()"],
         ["r", "r.shape", "r.stride()", "x.grad", "torch.tensor(5.).unfold(0, 1, 1)",
          "torch.tensor(5).unfold(-1, 0, 2)", "x.unfold(0, 2, 1)"]),
    case("group-norm-checks",  # F.group_norm's _verify_batch_size of [N*C//G, G, *rest]; num_groups <= 0
         [],
         ["F.group_norm(torch.ones(1, 4, 1, 1), 4)", "F.group_norm(torch.ones(1, 3, 1), 2)",
          "F.group_norm(torch.ones(2, 3), 4)", "F.group_norm(torch.ones(1, 1), 1)", "F.group_norm(torch.ones(2, 4, 1), 4)",
          "F.group_norm(torch.ones(1, 4), 0)", "F.group_norm(torch.ones(1, 4), -1)", "torch.group_norm(torch.ones(1, 4), -1)",
          "torch.group_norm(torch.ones(1, 4), 0)", "torch.group_norm(torch.ones(1, 4, 1), 4)"]),
    case("lu-without-pivoting-checks-after-the-dtype",  # (and never for an empty matrix, whose P is empty)
         ["x6 = torch.tensor([[4, 0, 3], [0, 2, 1]], dtype=torch.int64)"],
         ["torch.linalg.lu_factor_ex(x6, pivot=False)", "torch.linalg.lu_factor(x6, pivot=False)",
          "torch.linalg.lu(x6, pivot=False)", "torch.linalg.lu_factor_ex(x6.double(), pivot=False)",
          "torch.linalg.lu(x6.double(), pivot=False)", "torch.linalg.lu_factor_ex(x6.half(), pivot=False)",
          "torch.linalg.lu(x6.half(), pivot=False)", "torch.linalg.lu_factor_ex(torch.zeros(0, 0, dtype=torch.int64), pivot=False)",
          "torch.linalg.lu_factor_ex(torch.zeros(2, 0, 3), pivot=False)", "torch.linalg.lu(torch.zeros(2, 0, 3), pivot=False)",
          "torch.linalg.lu(torch.zeros(0, 2, dtype=torch.int64), pivot=False)",
          "torch.linalg.lu_factor(torch.zeros(0, 2, dtype=torch.half), pivot=False)"]),
    case("lu-unpack-without-data-still-has-its-node",  # (empty L and U of LuUnpackBackward0)
         ["a = (torch.tensor([[-1.0, -3.0, -0.25], [0.0, 2.5, 2.75], [-1.0, 0.0, 0.25]], dtype=torch.float64) "
          "+ 4 * torch.eye(3)).requires_grad_()", "lu, piv = torch.linalg.lu_factor(a)",
          "r = torch.lu_unpack(lu, piv, False)", "q = torch.lu_unpack(lu, piv, False, False)",
          "d = torch.lu_unpack(lu.detach(), piv, False)"],
         ["[(t.shape, t.requires_grad, t.grad_fn is not None) for t in r]",
          "[(t.shape, t.requires_grad, t.stride()) for t in q]", "[(t.shape, t.requires_grad) for t in d]",
          "torch.lu_unpack(lu, piv, True, False)[1].grad_fn is not None"]),
    case("svd-without-uv-v-is-a-transpose",  # (V = Vh^T of zeros: transposed strides)
         ["x4 = torch.tensor([[0.0, 0.5, 0.75]], requires_grad=True) * 1"],
         ["[(t.shape, t.stride(), t.requires_grad) for t in x4.svd(True, False)]",
          "[(t.shape, t.stride()) for t in x4.mT.svd(False, False)]",
          "[(t.shape, t.stride()) for t in torch.ones(2, 2, 3).svd(compute_uv=False)]"]),
    case("index-put-keeps-a-permuted-layout",  # (ATen's index_put clones self preserving its format)
         ["x1 = torch.tensor([[0.0, -2.25, 1], [1.0, -2.0, 1.0], [1.5, -2.25, -0.5]])", "v2 = x1.transpose(0, -1)",
          "y = v2.detach().requires_grad_()",
          "r = y.index_put((torch.tensor([0, 0]),), torch.tensor([1.0, 2.0]), accumulate=True)",
          "r.sum().backward()"],
         ["v2.index_put((torch.tensor([0]),), torch.tensor([1.0])).stride()",
          "v2.index_put((torch.tensor([0]),), torch.tensor([1.0]), accumulate=True).stride()",
          "x1[:, 1:].index_put((torch.tensor([0]),), torch.tensor([1.0])).stride()",
          "x1[::2].index_put((torch.tensor([0]),), torch.tensor([1.0])).stride()", "r", "r.stride()", "y.grad",
          "torch.ones(3, 1, 2).permute(2, 0, 1).index_put((torch.tensor([0]),), torch.tensor(5.)).stride()"]),
    case("index-reduce-shape-checks",  # (index_func_meta_impl's order; a 0-d self takes only a 0-d source)
         [],
         ["torch.tensor(2.0).index_reduce_(0, torch.tensor([0]), torch.tensor([3.0]), 'amax')",
          "torch.tensor(2.0).index_reduce_(0, torch.tensor([0]), torch.tensor(3.0), 'amax')",
          "torch.ones(2).index_reduce_(0, torch.tensor(0), torch.tensor(3.0), 'amax')",
          "torch.ones(2, 3).index_reduce_(0, torch.tensor([0]), torch.ones(3), 'amax')",
          "torch.ones(2, 3).index_reduce_(1, torch.tensor([0, 1]), torch.ones(2), 'amax')",
          "torch.ones(2).index_reduce_(0, torch.tensor([0]), torch.ones(1, 1), 'amax')",
          "torch.ones(2, 1).index_reduce_(0, torch.tensor([0]), torch.ones(1), 'amax')"]),
    case("inplace-inverse-hyperbolic-has-no-derivative",  # (AsinhBackward1 & co.: not_implemented in derivatives.yaml)
         ["x = torch.tensor([1.5, 2.0], requires_grad=True) * 1", "y = x.asinh_()",
          "z = torch.tensor([0.5, 0.25], requires_grad=True) * 1", "w = torch.tensor([1.5, 2.0], requires_grad=True) * 1",
          "v = w[:1]", "v.acosh_()"],
         ["y", "y.sum().backward()", "torch.arcsinh_(x * 1).grad_fn", "torch.atanh_(x * 0.1).grad_fn",
          "(x * 1).arccosh_().grad_fn", "z.arctanh_()", "torch.autograd.grad(z.sum(), z)",
          "torch.tensor([1.5, 2.0]).asinh_()", "torch.tensor([1, 2]).asinh_()",
          "torch.tensor([1.5, 2.0], requires_grad=True).asinh_()", "w", "v.grad_fn", "w.sum().backward()",
          "(torch.tensor([1.5, 2.0], dtype=torch.float16, requires_grad=True) * 1).atanh_()"]),
]
