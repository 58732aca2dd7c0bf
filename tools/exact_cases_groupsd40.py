"""Regression cases of helper "groupsd40" (session 40): its own difftest runs (seeds 39900000 on).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case

_HEX = "def hexes(t):\n    return [v.hex() for v in t.detach().flatten().tolist()]"

CASES = [
    case("set-moves-retain-grad",  # (grad:backward, run 39909000) ``r.retain_grad(); r.set_()``: the
         # retain_grad hook moves to set_'s NotImplemented node, as an in-place op's, so the backward
         # retains the gradient it reaches set_ with (an empty one for set_()) before set_'s error
         ["x1 = torch.tensor([[0.5, -2.75], [-1.5, 3.0]], requires_grad=True)",
          "r6 = x1 * 1", "r6.retain_grad()", "r6.set_()",
          "try:\n    r6.sum().backward(create_graph=True)\nexcept RuntimeError as e:\n    err1 = str(e)",
          "r7 = x1 * 1", "r7.retain_grad()", "r7.set_(torch.ones(4, requires_grad=True) * 1, 0, (2, 2))",
          "try:\n    (r7 * 2).sum().backward()\nexcept RuntimeError as e:\n    err2 = str(e)",
          "r8 = x1 * 1", "r8.retain_grad()", "r8.set_(torch.ones(3))",
          "try:\n    torch.autograd.grad(r8.sum(), [x1])\nexcept RuntimeError as e:\n    err3 = str(e)"],
         ["r6.grad", "err1", "r7.grad", "err2", "r8.grad", "err3", "x1.grad"]),
    case("dgemm-transposed-b-lanes",  # (numeric:grad corrcoef, run 39906000) MKL's float64 dgemm of a
         # row-major A and a transposed B, n from 2 to 11: 2 lanes for the first 4 (n // 4) columns, 8 (two
         # AVX registers) for the rest; a row of A off a 16-byte boundary adds its first product to its second
         [_HEX, "g = torch.Generator().manual_seed(40)",
          "a = torch.randn(5, 9, generator=g, dtype=torch.float64)",
          "w = torch.randn(11, 10, generator=g, dtype=torch.float64)",
          "c = torch.randn(5, 6, generator=g, dtype=torch.float64)",
          "b3 = torch.randn(2, 7, 21, generator=g, dtype=torch.float64)",
          "x = torch.tensor([[-1.25, -0.75, -0.5], [0.75, 0.5, 1.0]], dtype=torch.float64)"],
         ["hexes(a @ w[:, :9].t())", "hexes(a[:, 1:] @ w[:6, 2:].t())", "hexes(torch.addmm(c, a, w[:6, :9].t(), beta=0.5))",
          "hexes(torch.nn.functional.linear(a, w[:3, :9], w[:3, 9]))", "hexes(torch.bmm(b3[:, :5], b3.transpose(1, 2)))",
          "hexes(torch.cov(a))", "hexes(torch.corrcoef(x))", "hexes(a[:, :7] @ w[:4, :7].t())",
          "hexes(torch.randn(4, 29, generator=g) @ torch.randn(5, 30, generator=g)[:, :29].t())"]),
    case("dgemv-lanes",  # (the same probe, n = 1) MKL's float64 dgemv of a row-major A: rows four at a time
         # over 2 lanes after a head of (k - 1) % 2 + 1 products; the m % 4 last rows over 4, 2 or 8 lanes after
         # 2 products (a strided x: 8 each), as mm with one column, mv, matmul by a vector and F.linear to one
         [_HEX, "g = torch.Generator().manual_seed(41)",
          "a = torch.randn(7, 27, generator=g, dtype=torch.float64)",
          "w = torch.randn(27, 3, generator=g, dtype=torch.float64)",
          "b = torch.randn(1, generator=g, dtype=torch.float64)"],
         ["hexes(a @ w[:, :1])", "hexes(torch.mv(a, w[:, 0].contiguous()))", "hexes(a[:5, :26] @ w[:26, 1])",
          "hexes(torch.nn.functional.linear(a[:6], w[:, 2].contiguous()[None], b))",
          "hexes(torch.addmm(b, a[:, :12], w[:12, 0].contiguous()[:, None]))", "hexes(a[:3, :18] @ w[:18, :1])"]),
    case("pooling-backward-in-input-format",  # (stride:grad, run 39912000) a 2-d pooling's backward (max, avg,
         # adaptive avg; the 1-d ones through them) allocates grad_input in its input's suggested memory format: a
         # 1-d pooling of a transposed input unsqueezes it to a channels-last 4-d one; the double backward's zeros
         # for self stay C-ordered (the codegen's at::zeros(self_sym_sizes) for zeros_like(self))
         ["x1 = torch.tensor([[[-1.25, -0.25], [0.0, 0.0], [-2.5, -2.0]], [[0.75, -3.0], [2.25, 2.5], [-0.5, -0.75]],"
          " [[float('inf'), 0.0], [-1.25, -1.25], [1.0, -2.25]]], dtype=torch.float64, requires_grad=True)",
          "r3 = F.lp_pool1d(x1.mT, float('inf'), 1)",
          "gs6 = torch.autograd.grad(r3.sum(), [x1], create_graph=True, allow_unused=True)",
          "x2 = torch.arange(96.0, dtype=torch.float64).view(2, 3, 4, 4).contiguous(memory_format=torch.channels_last)",
          "x2.requires_grad_()",
          "out = []",
          "for f in (lambda t: F.avg_pool2d(t, 2), lambda t: F.max_pool2d(t, 2), lambda t: F.adaptive_avg_pool2d(t, 3),"
          " lambda t: F.avg_pool1d(t[:, :, 0].mT, 1), lambda t: F.max_pool1d(t[:, :, 0].mT, 2)):\n"
          "    y = f(x2)\n"
          "    g, = torch.autograd.grad((y * y).sum(), [x2], create_graph=True)\n"
          "    gg, = torch.autograd.grad((g * g).sum(), [x2])\n"
          "    out.append((g.stride(), gg.stride(), g.sum().item(), gg.sum().item()))"],
         ["gs6[0].stride()", "gs6", "out"]),
    case("setitem-ellipsis-slices-index-last-dims",  # (raises-only-agrad:backward, run 39915000) x[..., :n, :n] = v
         # of a 4-d x whose first dims are of size 1 or 2: the slices after the Ellipsis index the last dims, so it
         # does not select all of x (agrad wrote every element: a silent wrong result, and matrix_exp's backward of
         # a 4-d input, which builds its block matrix so, refused the expand)
         ["m1 = torch.zeros(1, 1, 4, 4)", "m1[..., :2, :2] = 5.", "m2 = torch.zeros(2, 4)", "m2[..., :2] = torch.ones(1)",
          "m3 = torch.zeros(3, 2, 2)", "m3[:, ..., :5] = 2.", "m4 = torch.zeros(2, 3, 4)", "m4[:, :2, ...] = 3.",
          "x4 = torch.tensor([[[[0.5, 0.0], [0.25, -0.5]], [[0.0, 1.0], [0.0, 0.0]]]], requires_grad=True)",
          "r11 = torch.linalg.matrix_exp(x4)", "r11.backward(gradient=torch.ones(1, 2, 2, 2, dtype=torch.float64))"],
         ["m1", "m2", "m3", "m4", "x4.grad.shape", "x4.grad.dtype"]),
]
