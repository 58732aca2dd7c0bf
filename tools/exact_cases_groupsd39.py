"""Regression cases of helper "groupsd39" (session 39): groups of its own difftest runs (seeds 394xxxxx).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    case("unfold-fold-integer-dtypes",  # (raises-only-torch:unfold) im2col's and col2im's CPU kernels
         # dispatch on floating types and bool only, after their shape checks (which come first)
         ["i = torch.ones(4, 3, 3, dtype=torch.int64)",
          "b = torch.ones(1, 4, 3, 3, dtype=torch.bool)",
          "c = torch.ones(1, 4, 4, dtype=torch.uint8)"],
         ["F.unfold(i, 1)", "F.unfold(i.to(torch.int8)[None][:0], 1)", "F.unfold(i, 5)", "F.unfold(b, 2)",
          "F.fold(c, (2, 2), 1)", "F.fold(c.to(torch.int32), (2, 2), 1)", "F.fold(c[0].bool(), (2, 2), 1)",
          "F.fold(c[:, :, :3], (2, 2), 1)"]),
    case("conv-weight-type-text-bool",  # (the oneDNN backend's same-type check names a bool tensor
         # by Tensor::toString: CPUBoolType)
         ["x = torch.ones(2, 3, 8, 8)"],
         ["F.conv2d(x, torch.ones(4, 3, 3, 3, dtype=torch.bool), stride=2)",
          "F.conv2d(x, torch.ones(4, 3, 3, 3, dtype=torch.uint8), stride=2)"]),
    case("embedding-bag-promotes-indices-and-offsets",  # (raises-only-agrad:embedding_bag, a probe)
         # _embedding_bag_cpu_impl casts indices and offsets to their common type before checking it is
         # Long or Int: bool/uint8/int8/int16 indices with int64 offsets are taken; the texts name the common
         # type (c10's toString: CPUBoolType for bool)
         ["w = torch.arange(10.0).view(5, 2).requires_grad_()",
          "o = torch.tensor([0, 1])",
          "r = F.embedding_bag(torch.tensor([True, False, True]), w, o, mode='mean', scale_grad_by_freq=True)",
          "r.sum().backward()"],
         ["r", "w.grad", "F.embedding_bag(torch.tensor([1, 3, 4], dtype=torch.uint8), w, o, mode='max')",
          "F.embedding_bag(torch.tensor([1, 3, 4], dtype=torch.int8), w, o.to(torch.int32))",
          "F.embedding_bag(torch.tensor([1, 3, 4], dtype=torch.int8), w, o.to(torch.uint8))",
          "F.embedding_bag(torch.tensor([True, False]), w, torch.tensor([False]))",
          "F.embedding_bag(torch.tensor([1, 2]), w, torch.tensor([0.0]))",
          "F.embedding_bag(torch.tensor([[1, 2]], dtype=torch.uint8), w)",
          "F.embedding_bag(torch.tensor([1, 2]), w.detach().bool(), o)",
          "F.embedding_bag(torch.tensor([1, 2]), w.detach(), o, per_sample_weights=torch.ones(2, dtype=torch.bool), "
          "mode='sum')"]),
    case("reflection-replication-pad-checks",  # (a dtype sweep) the kernels dispatch on every dtype but bool,
         # after the checks: reflect's per dim (argument #4, #6, #8), then "too small" only when every output dim
         # is below one (2-D/3-D), then the output made (a negative size: empty's text; reflection_pad2d's resize_:
         # numel's overflow)
         ["b = torch.ones(1, 2, 4, 6, dtype=torch.bool)", "f = torch.ones(1, 2, 4, 6)"],
         ["F.pad(b[0, 0], (1, 1), mode='reflect')", "F.pad(b, (1, 1, 1, 1), mode='replicate')",
          "F.pad(b[None], (1, 1, 1, 1, 0, 0), mode='reflect')", "F.pad(b, (5, 5, 9, 1), mode='reflect')",
          "F.pad(f, (1, 1, 9, 1), mode='reflect')", "F.pad(f[None], (1, 1, 1, 1, 1, 2), mode='reflect')",
          "F.pad(f, (-3, -3, 1, 1), mode='reflect').shape", "F.pad(b, (-3, -3, 1, 1), mode='replicate')",
          "F.pad(f, (-4, -3, 1, 1), mode='reflect')", "F.pad(f, (-4, -3, 1, 1), mode='replicate')",
          "F.pad(f[None], (-4, -3, 1, 1, 0, 0), mode='reflect')", "F.pad(f, (-4, -3, -2, -2), mode='reflect')",
          "F.pad(f, (-4, -3, -2, -2), mode='replicate')", "F.pad(f[None], (-4, -3, -2, -2, -1, -1), mode='replicate')",
          "F.pad(f[0], (-4, -3), mode='replicate')"]),
    case("histogram-default-bins",  # (a sweep) torch.histogram's int overload: bins = 100 by default
         ["x = torch.tensor([1.0, 2.0, 3.0, 7.0, -1.0, 0.5])"],
         ["torch.histogram(x).hist.shape", "x.histogram(range=(0.0, 1.0)).bin_edges[:3]",
          "torch.histogram(x, weight=x, density=True).hist.sum()"]),
    case("bool-parameters-take-only-bools",  # (a sweep) PyTorch's parser refuses an int, a tensor or numpy's
         # bool for a bool parameter (svd's some, sum's keepdim, ...); a dim where another signature takes one
         # (std(x, 1)) is a dim
         ["x = torch.tensor([[3.0, 1.0, 2.0], [0.5, -1.0, 4.0]])"],
         ["torch.svd(x, 1)", "x.sum(0, 1)", "torch.sort(x, 0, 1)", "x.topk(2, 1, True, 0)", "torch.std(x, 1)",
          "torch.max(x, 0, x)", "x.var(0, True, True)", "torch.linalg.svd(x, full_matrices=0)",
          "torch.allclose(x, x, 1e-5, 1e-8, 1)", "x.to(torch.float64, False, 1)"]),
    case("grid-sample-float16",  # (a dtype sweep) PyTorch 2.13's CPU grid sampler dispatches Half (the vector
         # kernel in float16 lanes: each operation rounded, no fused multiply-add), forward and backward, 2-D and 3-D
         ["x = torch.tensor([[[[1.5, -2.25, 0.75], [2.0, 0.5, -1.0]]]], dtype=torch.float16, requires_grad=True)",
          "g = torch.tensor([[[[0.3, -0.7], [-1.1, 0.45]], [[0.9, 0.2], [0.05, -0.33]]]], dtype=torch.float16, "
          "requires_grad=True)",
          "r = F.grid_sample(x, g, mode='bicubic', padding_mode='reflection', align_corners=False)",
          "r.backward(torch.tensor([[[[0.5, -1.25], [2.0, 0.125]]]], dtype=torch.float16))",
          "r2 = F.grid_sample(x.detach(), g.detach(), align_corners=True)",
          "r3 = F.grid_sample(x.detach()[None], torch.tensor([[[[[0.1, -0.4, 0.2]]]]], dtype=torch.float16), "
          "align_corners=False)"],
         ["r", "x.grad", "g.grad", "r2", "r3",
          "F.grid_sample(x.detach(), g.detach().float(), align_corners=False)"]),
    case("unique-dim-zero-sized-dims",  # (dt39b raises-only-torch:unique) _unique_dim_cpu_template: a 0-sized dim
         # not selected is refused, two are refused, the selected one alone gives an empty result of the input's
         # sizes (contiguous) with empty inverse and counts
         ["x = torch.zeros(2, 0, 3)", "y = torch.tensor([[2.25, -3.0], [0.5, -0.5]]).narrow(-2, -1, 0)"],
         ["torch.unique(y, False, return_counts=True, dim=1)", "torch.unique(x, dim=0)", "torch.unique(x, dim=2)",
          "(lambda r: [(t.shape, t.stride()) for t in r])(torch.unique(x, dim=1, return_inverse=True, "
          "return_counts=True))", "torch.unique(torch.zeros(0, 0, 3), dim=0)",
          "(lambda v: (v.shape, v.stride()))(torch.zeros(3, 0).unique(dim=1))",
          "torch.unique_consecutive(x, dim=2)"]),
    case("bce-with-logits-check-order",  # (dt39b error-text:binary_cross_entropy_with_logits) ATen's order:
         # log_sigmoid(input), pos_weight - 1 (a bool pos_weight: sub's error), .mul(target), the in-place
         # mul_ into log_sigmoid(input), (1 - target).mul_(input) (an integral target: the cast), then weight
         ["x = torch.tensor(-0.75, dtype=torch.float64, requires_grad=True)",
          "m = torch.tensor([[True, True], [False, True]])",
          "i = torch.full((2, 2), 0.5)"],
         ["F.binary_cross_entropy_with_logits(x * 1, torch.tensor(2.75, dtype=torch.float64), pos_weight=m)",
          "F.binary_cross_entropy_with_logits(i, torch.ones(2, 2, dtype=torch.int64), torch.ones(3), "
          "pos_weight=torch.ones(1, 2, dtype=torch.int64))",
          "torch.binary_cross_entropy_with_logits(i[0, 0], torch.tensor(1), torch.ones(1, 2), torch.tensor(2.0))",
          "F.binary_cross_entropy_with_logits(i, torch.ones(2, 2), pos_weight=torch.full((2, 2), 2))"]),
    case("nan-to-num-integral-version",  # (error-text:backward, seed 39460264) an integral nan_to_num_ is
         # result.copy_(self): nothing written, the version counter moves (a saved tensor is then modified)
         ["x1 = torch.tensor([[-1.75], [-0.75]], requires_grad=True)", "x2 = torch.tensor([False])",
          "r3 = x2 ** x1", "v = x2._version", "r7 = x2[...].nan_to_num_(2.0)",
          "i = torch.tensor([1, 2]).expand(3, 2)", "i.nan_to_num_()"],
         ["x2._version - v", "i._version", "r3.sum().backward()"]),
    case("rrelu-inplace-half-leaf",  # (error-type:rrelu_, seed 39471777) autograd's leaf and view-of-leaf checks
         # come before the training kernel's dtype; that before the in-place overlap error
         ["h = torch.tensor([-1.0, 2.0], dtype=torch.float16, requires_grad=True)"],
         ["torch.rrelu_(h, upper=0.5, training=True)", "F.rrelu(h[:1], training=True, inplace=True)",
          "torch.rrelu_(h * 1, training=True)", "torch.rrelu_(torch.tensor([-1.0], dtype=torch.float16).expand(3), "
          "training=True)", "torch.rrelu_(torch.tensor([-1.0]).expand(3), training=True)"]),
    case("linalg-lu-integral-empty-permutation",  # (value:lu, run 39490000) an integral matrix without
         # elements: P is the identity (no row swapped), in the input's dtype
         ["x3 = torch.tensor(2, dtype=torch.int32)"],
         ["torch.linalg.lu(x3.nonzero())", "torch.linalg.lu(torch.zeros(2, 3, 0, dtype=torch.bool)).P",
          "torch.linalg.lu(torch.zeros(0, 3, dtype=torch.int64)).P.shape"]),
]
