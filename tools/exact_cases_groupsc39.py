"""Regression cases of session 39's groupsc39 work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    case("index-reduce-written-before-errors",  # (gc39 value:index_reduce_) what index_reduce_ wrote when it
         # raises: a bool mean has added every slice in before its floor division fails (a view's base keeps
         # it); an excluded self (include_self=False) is filled with the reduction's identity (prod 1, amax
         # -inf / lowest, amin inf / max, mean 0) for every index before the loop meets a negative index
         ["x = torch.tensor([[[True], [False], [True]], [[False], [True], [False]], [[True], [False], [False]]])",
          "v = x[::2]",
          "s = torch.tensor([[[False, False], [False, False], [False, True]], [[True, True], [False, True], "
          "[True, True]]])",
          "v.index_reduce_(2, torch.tensor([0, 0]), s, 'mean', include_self=True)",
          "y = [torch.tensor([[2, 3, 7], [4, 5, 6]]).to(t) for t in (torch.uint8, torch.float32, torch.int64)]",
          "ys = [[z.clone() for z in y] for _ in range(4)]",
          "for red, zs in zip(('amin', 'amax', 'prod', 'mean'), ys):\n    for z in zs:\n        try:\n"
          "            z.index_reduce_(1, torch.tensor([1, -1]), torch.ones(2, 2).to(z.dtype), red, "
          "include_self=False)\n        except IndexError as e:\n            err = str(e)",
          "w = [torch.tensor(5.0) for _ in range(4)]",
          "for red, z in zip(('amin', 'amax', 'prod', 'mean'), w):\n    try:\n"
          "        z.index_reduce_(0, torch.tensor(-1), torch.tensor(2.0), red, include_self=False)\n"
          "    except IndexError as e:\n        err0 = str(e)",
          "u = torch.tensor([2, 3, 7], dtype=torch.uint8)"],
         ["x", "v", "ys", "err", "w", "err0",
          "u.index_reduce_(0, torch.tensor([-1]), torch.tensor([1], dtype=torch.uint8), 'amin', "
          "include_self=False)", "u"]),
    case("sdpa-flash-path-and-layouts",  # (gc39 stride:grad) the flash kernel's gradients are zeros of (B, L, H, E)
         # transposed (was C order); its output is laid out like the query (empty_like); the CPU flash path
         # needs each input's last dim of stride 1, one batch size, one number of heads (or enable_gqa's),
         # a mask of 2 or 4 dims broadcasting to (B, H, L, S): else the math path (UnsafeViewBackward0)
         ["F = torch.nn.functional",
          "g = torch.Generator().manual_seed(391)",
          "q = torch.randn(2, 3, 4, 2, generator=g, requires_grad=True)",
          "k = torch.randn(2, 3, 5, 2, generator=g, requires_grad=True)",
          "v = torch.randn(2, 3, 5, 2, generator=g, requires_grad=True)",
          "r = F.scaled_dot_product_attention(q, k, v)",
          "gs = torch.autograd.grad(r.sum(), [q, k, v], create_graph=True)",
          "qt = torch.randn(2, 4, 3, 2, generator=g).transpose(1, 2).requires_grad_()",
          "r2 = F.scaled_dot_product_attention(qt, k, v, is_causal=True)",
          "qp = torch.randn(4, 2, 3, 2, generator=g).permute(1, 2, 0, 3)",
          "r3 = F.scaled_dot_product_attention(qp, k, v)",
          "kl = torch.randn(2, 3, 2, 5, generator=g).transpose(-1, -2).requires_grad_()",
          "r4 = F.scaled_dot_product_attention(q, kl, v)",
          "gs4 = torch.autograd.grad(r4.sum(), [q, kl])",
          "r5 = F.scaled_dot_product_attention(q, k[:1], v[:1])",
          "r6 = F.scaled_dot_product_attention(q, k, v, attn_mask=torch.zeros(3, 4, 5))",
          "r7 = F.scaled_dot_product_attention(q, k, v, attn_mask=torch.zeros(1, 3, 4, 1))",
          "r8 = F.scaled_dot_product_attention(q, k[:, :1], v[:, :1], enable_gqa=True)",
          "r9 = F.scaled_dot_product_attention(q, k[:, :1], v[:, :1])"],
         ["r.grad_fn.name()", "r.stride()", "[t.stride() for t in gs]", "gs[0].grad_fn.name()",
          "r2.grad_fn.name()", "r2.stride()", "r3.stride()", "r4.grad_fn.name()", "r4.stride()",
          "[t.stride() for t in gs4]", "[t.grad_fn.name() for t in (r5, r6, r7, r8, r9)]",
          "[t.stride() for t in (r5, r6, r7, r8, r9)]", "r4", "gs4[1]"]),
    case("grad-strides-of-dims-of-one-element",  # (gc39 probe of the math path of sdpa) the strides PyTorch
         # gives a gradient's dims of one element: unsqueeze's (squeeze's backward, was numpy's reshape),
         # computeStride's (view/reshape of an odd-strided tensor and their backward), TensorIterator's sort
         # for a tensor times a number (the number an operand: no fast set-up; backward too), a gradient
         # passed through (add's) as it came
         ["F = torch.nn.functional",
          "a = torch.ones(1, 2).t()",
          "g = a.unsqueeze(0) * 1.5",
          "t = torch.ones(1, 1, 2)",
          "k = torch.cat([t, t], 2).narrow(2, 0, 2)",
          "x = torch.ones(1, 2, 1, requires_grad=True)",
          "s = torch.ones(1, 2, 1, requires_grad=True)",
          "q = torch.ones(2, 1, 2, requires_grad=True)",
          "kk = torch.ones(1, 1, 2, requires_grad=True)",
          "gm = torch.autograd.grad(torch.matmul(q, kk.transpose(-2, -1)).sum(), kk)[0]",
          "gs = torch.autograd.grad(F.scaled_dot_product_attention(q, kk, kk * 1).sum(), kk)[0]",
          "y = torch.rand(2, 1).requires_grad_()",
          "gp = torch.rand(4, 2)[::2, :1]",
          "z = torch.rand(1, 2, 2, 2).requires_grad_()",
          "g4 = torch.rand(8).as_strided((1, 2, 2, 2), (1, 1, 4, 2))"],
         ["a.reshape(1, 2, 1).stride()", "a.view(1, 2, 1).stride()", "torch.ones(2, 1)[:1].view(1, 1).stride()",
          "(g * 0.5).stride()", "(k.transpose(-2, -1) * 0.5).stride()",
          "torch.autograd.grad(s.squeeze(0), s, a)[0].stride()",
          "torch.autograd.grad(x * 0.5, x, g)[0].stride()", "torch.autograd.grad(x / 2.0, x, g)[0].stride()",
          "torch.autograd.grad(x.view(1, 2, 1), x, g)[0].stride()", "gm.stride()", "gs.stride()",
          "torch.autograd.grad(y + 1.0, y, gp)[0].stride()",
          "torch.autograd.grad(y + torch.ones(2, 1), y, gp)[0].stride()",
          "torch.autograd.grad(z * 0.5, z, g4)[0].stride()",
          "torch.autograd.grad(z * torch.ones(1, 2, 2, 2), z, g4)[0].stride()"]),
    case("node-post-hook-sees-none-where-no-gradient-is-computed",  # (gc39 probe) a generated node computes an
         # input's gradient only where task_should_compute_output says so: an edge (an input that requires
         # grad) to a node the pass executes (autograd.grad's inputs); cat's/stack's list formula and a
         # custom Function's backward give them all; each fitted to its input's shape and dtype first
         ["x = torch.ones(2, 2, requires_grad=True)", "y = torch.ones(2, 2)",
          "w = torch.ones(2, 2, requires_grad=True)", "seen = []",
          "def run(z, inputs=None):\n    z.grad_fn.register_hook(lambda gi, go: seen.append("
          "[None if t is None else tuple(t.shape) for t in gi]))\n"
          "    torch.autograd.grad(z.sum(), inputs) if inputs else z.sum().backward()",
          "run(x + y)", "run(x + y, [x])", "run(torch.mm(x, w), [x])", "run(torch.mm(x, w))", "run(x * y, [x])",
          "run(torch.addmm(w, x, w), [x])", "run(torch.cat([x, y]), [x])", "run(torch.stack([x, w]), [x])",
          "b = torch.ones(2, 1, requires_grad=True)", "c = torch.ones(2, dtype=torch.float64, requires_grad=True)",
          "run(b * w)", "run(torch.addmm(c.float(), x, w))", "run(x + c)"],
         ["seen"]),
    case("grid-sample-backward-output-mask-is-the-pass-s-needs",  # (gc39 value:grad) grid_sampler's backward
         # kernel is chosen by output_mask, task_should_compute_output's: an input that requires grad but whose
         # gradient autograd.grad does not ask for takes the grid-only kernel (other float32 roundings)
         ["F = torch.nn.functional",
          "x5 = torch.tensor([[[[-0.5]]], [[[1.75]]]], requires_grad=True)",
          "x6 = (torch.tensor([[[[-1.5, 0.25], [-2.0, 1.0], [-2.0, 1.0]], [[-0.25, 2.5], [2.75, -0.5], "
          "[-0.75, 1.25]]], [[[0.0, 2.25], [0.0, -2.0], [0.0, -2.0]], [[-2.0, -2.25], [0.0, -2.25], "
          "[2.0, 2.25]]]]) / 2.4).requires_grad_()",
          "g = torch.Generator().manual_seed(392)",
          "x = torch.randn(2, 2, 3, 3, 3, generator=g, requires_grad=True)",
          "grid = (torch.rand(2, 2, 2, 2, 3, generator=g) * 3 - 1.5).requires_grad_()"],
         ["[torch.autograd.grad(F.grid_sample(x5, x6, mode='bicubic', padding_mode=p).sum(), [x6])[0].tolist() "
          "for p in ('zeros', 'border', 'reflection')]",
          "torch.autograd.grad(F.grid_sample(x5, x6, mode='bicubic', padding_mode='border').sum(), [x5, x6])[1]"
          ".tolist()",
          "torch.autograd.grad(F.grid_sample(x, grid, padding_mode='reflection').sum(), [grid])[0].tolist()"]),
]
