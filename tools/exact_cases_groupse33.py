"""Regression cases of the exactness groups of the replayed run dt33c (helper "groupse", session 33).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    case("resize-as-memory-format-restrides",  # (value:resize_as_) any memory_format, contiguous_format
         # too, restrides the storage (empty_tensor_restride); none keeps the strides of a same-size tensor
         ["x = torch.tensor([[True, True, True], [False, False, False], [False, True, False]])",
          "f = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])",
          "t = torch.zeros(3, 3)"],
         ["(lambda v: (v, v.stride()))(x.clone().t().resize_as_(t, memory_format=torch.preserve_format))",
          "(lambda v: (v, v.stride()))(x.clone().t().resize_as_(t, memory_format=torch.contiguous_format))",
          "(lambda v: (v, v.stride()))(x.clone().t().resize_as_(t))",
          "(lambda v: (v, v.stride()))(f.clone().t().resize_(3, 2, memory_format=torch.contiguous_format))",
          "(lambda v: (v, v.stride()))(f.clone().t().resize_(3, 2))"]),
    case("addbmm-addmm-addmv-beta0-zero-signs",  # (repr:addbmm) addbmm is an addmm_ per batch, beta on
         # the first; BLAS's gemm/gemv with beta 0 add alpha * a @ b into a zeroed C: +0.0 with a negative
         # alpha (float32/64 gemm; gemv in every float dtype), the k = 1 outer product stays -0.0
         ["a = torch.tensor([[0.0, 1.0], [0.0, 2.0]])",
          "b = torch.tensor([[1.0, 0.0], [1.0, 0.0]])",
          "s = torch.ones(2, 2)",
          "x9 = torch.tensor([[[0.0], [0.0]]], requires_grad=True)",
          "x10 = torch.tensor([[[-1.25, 0.0, -2.0]]], requires_grad=True)",
          "x11 = torch.tensor([[2.0, 0.5, -2.75], [-2.25, 2.0, -1.25]])"],
         ["x11.addbmm(x9, x10, beta=0)",
          "[torch.addmm(s.to(d), a.to(d), b.to(d), beta=0, alpha=al) for d in (torch.float32, torch.float64, "
          "torch.float16) for al in (-1, -2.5)]",
          "[torch.addmm(s[:1].to(d), a[:1, :1].to(d), b[:1].to(d), beta=0, alpha=-1) for d in (torch.float32, "
          "torch.float16)]",
          "[torch.baddbmm(s[None].to(d), a[None].to(d), b[None].to(d), beta=0, alpha=-1) for d in (torch.float32, "
          "torch.float16)]",
          "[torch.addmv(s[0].to(d), a.t().to(d), b[1].to(d), beta=0, alpha=-1) for d in (torch.float32, "
          "torch.float64, torch.float16)]",
          "torch.addbmm(s, a[None, :, :1], b[None, :1], beta=0, alpha=-1)",
          "torch.addbmm(s, torch.stack([a, -a]), torch.stack([b, b]), beta=0, alpha=-1)",
          "torch.addbmm(s, a[None][:0], b[None][:0], beta=0, alpha=-1)",
          "torch.addbmm(torch.tensor([-0.0, 1.0]), a[None][:0], b[None][:0], beta=2)"]),
    case("grid-sample-3d-nan-place-clips-to-last",  # (value:grid_sample) the 3-D scalar kernel's forward
         # clip_coordinates is std::min(size - 1, std::max(x, 0)): a NaN place (a NaN or infinite coordinate
         # under border/reflection) samples index size - 1; the backward's clip keeps NaN (no gradient);
         # reflection's flip count beyond int's range is INT_MIN, even (the grid gradient's zero signs)
         ["inf, nan = float('inf'), float('nan')",
          "x = torch.arange(24.0).reshape(1, 1, 2, 3, 4).requires_grad_()",
          "vals = [inf, -inf, nan, 1e30, -1e30, 0.2]",
          "g = torch.tensor([[[[[v, 0.3, -0.2] for v in vals], [[0.1, v, 0.9] for v in vals]]]], "
          "requires_grad=True)",
          "w = torch.arange(1.0, 13.0).reshape(1, 1, 1, 2, 6)",
          "gd = torch.tensor([[[[[2.0 ** 32 + 2, 0.0, 0.0], [2.0 ** 32 + 4, 0.5, 0.0]]]]], dtype=torch.float64)",
          "x10 = torch.tensor([[[[[1.5, nan, -2.5], [-1.5, 2.25, 0.25]]], [[[0.75, 1.25, 2.5], [1.0, 1.75, -3.0]]]]])",
          "x11 = torch.tensor([[[[[-1.25, -3.0, 0.0], [1.25, -2.75, -1.0]], [[3.0, 3.0, 2.5], [-3.0, 0.0, 0.0]]], "
          "[[[-inf, 2.0, 2.25], [0.5, 1.25, 1.25]], [[-2.75, -1.25, -0.25], [2.0, -2.5, -3.0]]]]]) / 3"],
         ["F.grid_sample(x10, x11, mode='nearest', padding_mode='reflection', align_corners=True)",
          "[F.grid_sample(x, g, mode=m, padding_mode=p, align_corners=a) for m in ('nearest', 'bilinear') "
          "for p in ('zeros', 'border', 'reflection') for a in (True, False)]",
          "[torch.autograd.grad((F.grid_sample(x, g, mode=m, padding_mode=p, align_corners=a) * w).sum(), [x, g]) "
          "for m in ('nearest', 'bilinear') for p in ('border', 'reflection') for a in (True, False)]",
          "F.grid_sample(x.detach().double(), gd, padding_mode='reflection', align_corners=True)"]),
]
