"""Regression cases of session 33's groups (helper "groupsa"): autograd graphs and gradients.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import GRAPH, case


CASES = [
    case("adaptive-avg-pool-window-loops",  # (dt32 grad-value:backward) ATen's loops over each output's
         # window: a NaN in the gradient reaches that window's inputs only; sums in C order from 0 divided
         # dim by dim (2-D float16 in float, 3-D float16 in float16); the deltas added output by output
         [GRAPH, "g = torch.tensor([[[1.75, -3.0, 1.5], [-2.0, float('nan'), 1.25], [0.5, 2.5, float('inf')]]],"
          " dtype=torch.float64)",
          "x = torch.tensor([[[3.0, 2.75, 0.5, -0.75, -2.0], [-1.0, 2.0, -1.75, -0.75, 2.25], [1.0, -2.5, -1.0,"
          " -2.75, -1.0], [0.0, -0.5, -2.0, -2.5, 0.0]]], dtype=torch.float64, requires_grad=True)",
          "y = F.adaptive_avg_pool2d(x, (3, 3))", "y.backward(g)",
          "a = ((torch.arange(105.).reshape(3, 5, 7) * 7 % 11 - 5) / 3).requires_grad_()",
          "b = F.adaptive_avg_pool2d(a, (4, 6))", "b.backward((torch.arange(72.).reshape(3, 4, 6) * 5 % 13 - 6) / 7)",
          "h = ((torch.arange(210.).reshape(2, 3, 5, 7) * 7 % 11 - 5) / 3).half().requires_grad_()",
          "h2 = F.adaptive_avg_pool2d(h, (3, 4))", "h3 = F.adaptive_avg_pool3d(h, (2, 4, 3))",
          "h3.backward(((torch.arange(24.).reshape(1, 2, 4, 3) * 5 % 13 - 6) / 7).half().expand(2, 2, 4, 3))",
          "u = ((torch.arange(12.).reshape(1, 2, 6) * 5 % 7 - 3) / 9).requires_grad_()",
          "v = F.adaptive_avg_pool1d(u, 17)", "gu, = torch.autograd.grad(v, u, ((torch.arange(34.).reshape(1, 2, 17) * 3 % 10 - 4) / 7)"
          ", create_graph=True)"],
         ["x.grad.tolist()", "y.tolist()", "b.tolist()", "a.grad.tolist()", "h2.tolist()", "h3.tolist()",
          "h.grad.tolist()", "v.tolist()", "gu.tolist()", "graph(gu.grad_fn)"]),
    case("sum-dense-memory-order",  # a sum of every element of a channels-last or permuted tensor adds in
         # memory order (TensorIterator's), as a contiguous one does
         [GRAPH, "c = ((torch.arange(210.).reshape(2, 3, 5, 7) * 7 % 11 - 5) / 3).to(memory_format=torch.channels_last)",
          "p = ((torch.arange(336.).reshape(4, 2, 6, 7) * 5 % 13 - 6) / 7).permute(2, 0, 3, 1)"],
         ["c.sum().item()", "c.mean().item()", "p.sum().item()", "p.double().permute(1, 0, 2, 3).sum().item()"]),
    case("saved-output-unpacked-as-new-tensor",  # (dt32 error-text:backward) under create_graph a saved
         # output comes back as a new tensor whose grad_fn is the node that saved it: a later in-place op on
         # the output (which rebases it) leaves that grad_fn, which the version error names
         [GRAPH, "def err(f):\n    try:\n        return f()\n    except RuntimeError as e:\n        return str(e)",
          "x = torch.tensor([-1.0, 0.5], dtype=torch.float64, requires_grad=True)", "r = torch.sigmoid(x)",
          "g, = torch.autograd.grad(r.sum(), [x], create_graph=True)", "r[:] = 3.0",
          "y = torch.tanh(x)", "h, = torch.autograd.grad(y.sum(), [x], create_graph=True)", "y.mul_(2)",
          "z = x.exp()", "k, = torch.autograd.grad(z.sum(), [x], create_graph=True)", "z[0] = 1.0"],
         ["graph(g.grad_fn)", "graph(r.grad_fn)", "err(lambda: g.sum().backward())", "graph(h.grad_fn)",
          "err(lambda: h.sum().backward())", "err(lambda: k.sum().backward())"]),
    case("view-of-detached-base-regenerated",  # (dt32 grad_fn:add_, clamp_) a view with a grad_fn whose
         # base was detached in place: an in-place change since (version) regenerates its grad_fn as
         # AsStridedBackward0 with no next edge; no change keeps it; an in-place op on such a view of a (now
         # leaf) base is refused as one on a view of a leaf
         [GRAPH, "def err(f):\n    try:\n        return f()\n    except RuntimeError as e:\n        return str(e)",
          "x4 = torch.tensor([[1.25]], requires_grad=True)", "v5 = x4[:, 1:]", "r9 = torch.detach_(x4)",
          "r11 = r9.add_(-2)",
          "x1 = torch.tensor([[1.0, -2.0], [3.0, -4.0]], requires_grad=True)", "v2 = x1.t()",
          "r3 = torch.detach_(x1)", "r3[0].clamp_(min=0.0)",
          "x = torch.tensor([[1.0, -2.0], [3.0, -4.0]], requires_grad=True)", "y = x * 2", "a = y[0]",
          "b = y[1]", "y.detach_()", "c = a[1:]",
          "z = x * 3", "d = z[0]", "z.detach_()", "e = err(lambda: d.mul_(2))", "z.add_(1)"],
         ["graph(v5.grad_fn)", "(v5.requires_grad, v5.is_leaf)", "graph(v2.grad_fn)", "graph(a.grad_fn)",
          "graph(b.grad_fn)", "graph(c.grad_fn)", "e", "graph(d.grad_fn)"]),
    case("set-on-view-rebases-base",  # (dt32 grad_fn:set_) set_ on a view is an in-place op on the view:
         # the base's history becomes a CopySlices wrapping set_'s NotImplemented node and the view (now on
         # other memory) an AsStridedBackward0 of the base; on a view of a leaf that requires grad, refused
         [GRAPH, "def err(f):\n    try:\n        return f()\n    except RuntimeError as e:\n        return str(e)",
          "x = torch.tensor([[2.5, -2.5], [0.75, 0.5], [-2.5, -2.75], [2.5, -0.75]], dtype=torch.float16)",
          "v = x[::2]", "s = torch.tensor([[0.25, 1.0], [-0.5, 2.5]], dtype=torch.float16, requires_grad=True)",
          "r = v.set_(source=s)", "y = torch.zeros(4, 2, requires_grad=True) * 1", "w = y[1]",
          "t = torch.ones(3, requires_grad=True)", "w.set_(t.untyped_storage(), 1, (2,), (1,))",
          "z = torch.zeros(4, requires_grad=True)", "u = z[:2]"],
         ["r is v", "graph(r.grad_fn)", "graph(x.grad_fn)", "(r.shape, r.stride(), r._base is x)",
          "err(lambda: r.sum().backward())", "graph(w.grad_fn)", "graph(y.grad_fn)",
          "err(lambda: u.set_(torch.ones(3)))", "x._version"]),
    case("narrow-copy-backward-unwrapped-start",  # (dt33 value:grad) NarrowCopyBackward0 is
         # slice_backward(grad, sizes, dim, start, start + length): a negative start is wrapped there but the
         # end is not, so start + length == 0 slices nothing (zeros, or copy_'s error past one element)
         [GRAPH, "def err(f):\n    try:\n        return f()\n    except RuntimeError as e:\n        return str(e)",
          "x = torch.tensor([[-2.0, -0.5, 3.0], [1.0, 2.0, 3.0]], requires_grad=True)",
          "g1, = torch.autograd.grad(x.narrow_copy(-1, -1, 1).sum(), [x], create_graph=True)",
          "g2, = torch.autograd.grad(x.narrow_copy(1, -3, 1).sum(), [x], create_graph=True)",
          "g3, = torch.autograd.grad(x.narrow_copy(0, -1, 1).sum(), [x], create_graph=True)"],
         ["g1", "g2", "graph(g2.grad_fn)", "g3",
          "err(lambda: torch.autograd.grad(x.narrow_copy(-1, -2, 2).sum(), [x]))",
          "err(lambda: torch.autograd.grad(x.narrow_copy(0, -2, 2).sum(), [x]))",
          "graph(x.narrow_copy(1, 1, 2).grad_fn)"]),
    case("sdpa-math-softmax-backward-data-and-flash-edges",  # (dt32 grad_fn:grad, dt33 grad_fn:backward,
         # grad_fn:scaled_dot_product_attention) the math path's _safe_softmax backward is
         # _softmax_backward_data (SoftmaxBackwardDataBackward0 under create_graph); an attn_mask that
         # requires grad takes the math path even for 4-D inputs; the flash backward's NotImplemented node
         # has edges for its arguments that require grad only (grad_out, query, key, value, out)
         [GRAPH, "q = torch.tensor([[2.0, 1.5, 2.0], [-2.0, 0.0, 0.0], [2.5, 1.0, -2.75]], requires_grad=True)",
          "k = torch.tensor([[-0.5, -0.0, 2.75]])", "v = torch.tensor([[-0.5, 2.25, 0.25]], requires_grad=True)",
          "r = F.scaled_dot_product_attention(q, k, v)",
          "gq, gv = torch.autograd.grad(r.sum(), [q, v], create_graph=True)",
          "(gq.pow(2).sum() + gv.pow(2).sum()).backward()",
          "q4 = (torch.arange(16.).reshape(1, 2, 2, 4) / 7 - 1).double()",
          "k4 = (torch.arange(24.).reshape(1, 2, 3, 4) / 5 - 2).double()",
          "v4 = (torch.arange(24.).reshape(1, 2, 3, 4) / 9 - 1).double().requires_grad_()",
          "m = torch.tensor([[-2.5, -2.0, 1.25]], dtype=torch.float64, requires_grad=True)",
          "r4 = F.scaled_dot_product_attention(q4, k4, v4, attn_mask=m)",
          "a = (torch.arange(24.).reshape(1, 2, 3, 4) / 11).requires_grad_()",
          "b = (torch.arange(24.).reshape(1, 2, 3, 4) / 13 - 1).requires_grad_()",
          "c = torch.arange(24.).reshape(1, 2, 3, 4) / 17", "r5 = F.scaled_dot_product_attention(a, c, b)",
          "g5 = torch.autograd.grad(r5, [b], torch.ones(1, 2, 3, 4), create_graph=True)[0]"],
         ["graph(gq.grad_fn)", "graph(gv.grad_fn)", "q.grad", "graph(r4.grad_fn)", "r4", "graph(g5.grad_fn)"]),
    case("saved-tensor-checks-sigmoid-ldexp-maxpool",  # (dt33 grad_fn:grad, raises-only-torch:grad and
         # :backward) sigmoid_backward's output derivative is grad * grad_output * (-2 * output + 1) (MulBackward1,
         # AddBackward1); ldexp saves other and its result whichever input requires grad (a later in-place
         # change is caught); max pooling's backward saves its indices (a second pass through it fails)
         [GRAPH, "def err(f):\n    try:\n        return f()\n    except RuntimeError as e:\n        return str(e)",
          "x1 = torch.tensor([[0.0, -0.25, 0.75, 1.75]], dtype=torch.float64, requires_grad=True)",
          "r3 = x1 * 1", "r3[1:].sigmoid_()", "q5, = torch.autograd.grad(r3.sum(), [x1], create_graph=True)",
          "g9, = torch.autograd.grad(torch.fmax(q5, torch.tensor([[3.0, -1.75, 0.75, -2.75]], dtype=torch.float64,"
          " requires_grad=True)).sum(), [x1], create_graph=True)",
          "a = torch.tensor([[2.5, -1.5], [0.5, -0.75]], dtype=torch.float16, requires_grad=True)",
          "r = torch.ldexp(a, torch.tensor([[3.0, 0.5], [-2.25, -2.5]], dtype=torch.float16))", "r.log_()",
          "p = torch.tensor([[[[[2.0], [-0.5]], [[-1.25], [0.75]]]]], dtype=torch.float64, requires_grad=True)",
          "q, = torch.autograd.grad(F.adaptive_max_pool3d(p, 2).sum(), [p], create_graph=True)",
          "q.pow(2).sum().backward()"],
         ["graph(g9.grad_fn)", "g9", "err(lambda: torch.autograd.grad(r.sum(), [a]))", "graph(q.grad_fn)",
          "err(lambda: q.sum().backward())"]),
    case("conv-onednn-direct-kernel-skips-padding",  # (dt32 grad-value:backward) oneDNN's direct float32
         # kernel (ungrouped, 2+ samples, padding below the kernel size) never reads the padding: an inf weight
         # or a NaN gradient meets no padded zero (the gemm kernel's im2col and float64's slow path: NaN)
         [GRAPH, "x = ((torch.arange(50.).reshape(2, 1, 5, 5) * 7 % 11 - 5) / 4).requires_grad_()",
          "w = torch.tensor([[[[float('inf'), 0.5, -1.0], [0.25, 1.5, -0.75], [2.0, -0.5, 1.0]]]], requires_grad=True)",
          "y = F.conv2d(x, w, padding=1)",
          "g = torch.ones(2, 1, 5, 5)", "g[1, 0, 4, 1] = float('nan')", "g[0, 0, 2, 3] = float('inf')",
          "w2 = torch.tensor([[[[-1.75, -1.75, -0.75], [0.75, -1.25, -1.75], [2.0, -0.25, -2.5]]]], requires_grad=True)",
          "y2 = F.conv2d(x, w2, padding=1)", "y2.backward(g)",
          "y3 = F.conv2d(x.double(), w.double(), padding=1)",
          "y4 = F.conv2d(x[:1], w, padding=1)", "y5 = F.conv1d(x.flatten(2), w[:, :, 0], padding=1)"],
         ["y.isnan().sum()", "y[:, :, 1:, 1:]", "w2.grad", "y3.isnan().sum()", "y4.isnan().sum()",
          "y5.isnan().sum()"]),
]
