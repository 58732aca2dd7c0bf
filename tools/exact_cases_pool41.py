"""Regression cases of helper "pool41" (session 41): memory layouts of the pooling, normalisation, padding and
convolution ops on channels-last and other non-contiguous inputs (issue 10), and what that probe found.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case

_HEX = "def hexes(t):\n    return [v.hex() for v in t.detach().flatten().tolist()]"
_F = "F = torch.nn.functional"
# a 2 x 3 x 4 x 6 x 5 input laid out channels_last_3d, a leaf
_X5 = ("x5 = (torch.arange(720.).reshape(2, 3, 4, 6, 5) * 0.37 % 1.9 - 0.8)"
       ".contiguous(memory_format=torch.channels_last_3d).requires_grad_()")

CASES = [
    case("pool3d-channels-last-3d-output-c-order",  # (issue 10) avg_pool3d, adaptive_avg_pool3d (and
         # interpolate's area mode over three dims, which is it), adaptive_max_pool3d and lp_pool3d of a
         # channels_last_3d input: C-ordered outputs (their meta functions and the adaptive templates'
         # resize_), C-ordered gradients; max_pool3d's output follows the input
         [_F, _X5,
          "outs = [F.avg_pool3d(x5, 2, 1, 1), F.avg_pool3d(x5, 3, 2, 1, ceil_mode=True, count_include_pad=False),"
          " F.adaptive_avg_pool3d(x5, (3, 4, 2)), F.interpolate(x5, size=(5, 5, 5), mode='area'),"
          " F.adaptive_max_pool3d(x5, (3, 4, 2)), F.lp_pool3d(x5, 2, 2), F.max_pool3d(x5, 2)]",
          "v, i = F.adaptive_max_pool3d(x5, (2, 3, 2), return_indices=True)",
          "grads = [torch.autograd.grad(o, x5, torch.ones(o.shape), create_graph=True)[0] for o in outs]",
          "go = torch.ones(outs[5].shape, requires_grad=True)",
          "g5, = torch.autograd.grad(outs[5], x5, go, create_graph=True)",
          "gg = torch.autograd.grad(g5, [x5, go], torch.ones(g5.shape))"],
         ["[o.stride() for o in outs]", "(v.stride(), i.stride())", "[g.stride() for g in grads]",
          "[g.stride() for g in gg]", "outs[2][1, 2]", "grads[4][1, 0, 0]"]),
    case("adaptive-avg-pool-1x1-channels-last-as-strided",  # (issue 10) adaptive_avg_pool2d/3d to 1 x 1 (x 1)
         # of a channels-last input: the mean over the spatial dims, restrided in place to channels-last
         # strides (as_strided_: AsStridedBackward1, version 1); adaptive_avg_pool1d of a transposed input
         # unsqueezes it to a channels-last one
         [_F, _X5, "x4 = torch.arange(24.).reshape(2, 3, 2, 2).contiguous(memory_format=torch.channels_last)"
          ".requires_grad_()",
          "x3 = torch.arange(10.).reshape(2, 5, 1).expand(2, 5, 3).transpose(1, 2).requires_grad_()",
          "a = F.adaptive_avg_pool2d(x4, 1)", "b = F.adaptive_avg_pool3d(x5, (1, 1, 1))",
          "c = F.adaptive_avg_pool1d(x3.transpose(1, 2).contiguous().transpose(1, 2), 1)",
          "d = F.adaptive_avg_pool2d(x4.contiguous(), 1)",
          "ga, = torch.autograd.grad(a, x4, torch.ones(2, 3, 1, 1))"],
         ["(a.stride(), a.grad_fn.name(), a._version)", "(b.stride(), b.grad_fn.name(), b._version)",
          "(c.stride(), c.grad_fn.name(), c.grad_fn.next_functions[0][0].name())",
          "(d.stride(), d.grad_fn.name(), d._version)", "(ga.stride(), ga[1, 2])", "a.flatten()"]),
    case("grad-accumulation-laid-out-first-operand",  # (issue 10: lp_pool1d's double backward of a transposed
         # input) two gradients of one input summed without a graph are laid out as ATen's old.add_(var) /
         # old + var lays them out, the first to arrive deciding (numpy's sum leaned to C order); and a formula's
         # zeros_like(grad) (threshold_backward's self, the rounding ops') is laid out like grad
         [_F, "torch.manual_seed(0)",
          "x1 = torch.randn(2, 6, 3, dtype=torch.float64).transpose(1, 2).requires_grad_()",
          "g, = torch.autograd.grad(F.lp_pool1d(x1, 2, 2).sum(), x1, create_graph=True)",
          "gg, = torch.autograd.grad((g * g).sum(), x1)",
          "a = torch.randn(3, 4).t().requires_grad_()",
          "ga, = torch.autograd.grad((a * 2).sum() + (a.t().contiguous().t() * 3).sum(), a)",
          "h = torch.randn(4, 3).t().requires_grad_()",
          "gh, = torch.autograd.grad(F.relu(h), h, torch.ones(3, 4), create_graph=True)",
          "q = torch.randn(3, 4).t().requires_grad_()",
          "r = F.threshold(q, 0.1, 0.0) * 1",
          "gq, = torch.autograd.grad(r, q, torch.randn(3, 4).t().requires_grad_(), create_graph=True)"],
         ["(g.stride(), gg.stride())", "ga.stride()", "gh.stride()",
          "[None if t is None else t.stride()"
          " for t in torch.autograd.grad(gq, [q], torch.randn(3, 4).t(), allow_unused=True)]",
          "gg[1]"]),
    case("channels-last-gradients-in-input-format",  # (issue 10) a channels-last input's gradient of
         # batch_norm (empty_like(input, suggest_memory_format)), reflection/replication padding (zeros_like of
         # that format), prelu (one TensorIterator over self, weight and grad: both gradients laid out as self,
         # the weight's then summed in that order); rms_norm of a channels-last input stays so (no contiguous())
         [_F, "x = (torch.arange(2 * 3 * 4 * 5.).reshape(2, 3, 4, 5) * 0.7 % 2.3 - 1)"
          ".contiguous(memory_format=torch.channels_last).requires_grad_()",
          "w = torch.tensor([0.5, -0.25, 2.0], requires_grad=True)",
          "x5 = torch.arange(120.).reshape(1, 3, 2, 4, 5).contiguous(memory_format=torch.channels_last_3d)"
          ".requires_grad_()",
          "outs = [F.batch_norm(x, None, None, training=True), F.batch_norm(x, torch.zeros(3), torch.ones(3), w),"
          " F.pad(x, (2, 1, 1, 2), mode='reflect'), F.pad(x, (2, 1, 1, 2), mode='replicate'),"
          " F.pad(x5, (1, 1, 1, 1, 1, 0), mode='replicate'), F.prelu(x, w)]",
          "grads = [torch.autograd.grad(o, x, torch.ones(o.shape), retain_graph=True)[0] if o.ndim == 4 else"
          " torch.autograd.grad(o, x5, torch.ones(o.shape))[0] for o in outs]",
          "gw, = torch.autograd.grad(outs[5], w, torch.arange(120.).reshape(2, 3, 4, 5) % 1.3)",
          "y = F.rms_norm(x, (5,))", "yt = F.rms_norm(x.transpose(2, 3), (4,))"],
         ["[g.stride() for g in grads]", "gw", "(y.stride(), y.grad_fn.name())", "(yt.stride(), yt.grad_fn.name())"]),
    case("onednn-weight-gradient-channels-last-strides",  # (issue 10) oneDNN's weight gradient of a
         # channels-last float32 convolution is allocated channels-last: c10's strides for its dims of one
         # element too (a depthwise weight (6, 1, 3, 3): (9, 1, 3, 1)); the float64 slow kernels' keeps C's there
         ["F = torch.nn.functional", "xs = torch.arange(2 * 3 * 6 * 7.).reshape(2, 3, 6, 7) % 1.7",
          "def wgrad(dtype, wshape, groups):\n"
          "    x = xs.to(dtype).contiguous(memory_format=torch.channels_last)\n"
          "    w = (torch.arange(float(torch.Size(wshape).numel())).reshape(wshape) % 0.9).to(dtype).requires_grad_()\n"
          "    return torch.autograd.grad(F.conv2d(x, w, groups=groups).sum(), w)[0].stride()"],
         ["[wgrad(d, s, g) for d in (torch.float32, torch.float64) for s, g in (((6, 1, 3, 3), 3), ((4, 3, 1, 1), 1),"
          " ((4, 3, 3, 1), 1))]"]),
    case("onednn-channels-last-grouped-conv-skips-padding",  # (issue 10, convgroups40's left) a channels-last
         # float32 grouped or depthwise convolution runs oneDNN's nhwc kernels (brg_conv_fwd, brdgmm_dw; a dilated
         # depthwise one jit_dw or jit:avx2 where they take it, else gemm): none reads the padding, so an inf
         # weight over padded positions gives inf or a number there, not NaN; the gradients' NaN patterns were
         # already oneDNN's (the documented rule onednn-grouped-padding is gone)
         ["F = torch.nn.functional",
          "x = (torch.arange(96.).reshape(2, 4, 3, 4) % 1.3).contiguous(memory_format=torch.channels_last)"
          ".requires_grad_()",
          "w = torch.ones(4, 2, 2, 3)", "w[1, 0, 0, 0] = float('inf')", "w.requires_grad_()",
          "wd = torch.ones(4, 1, 3, 3)", "wd[2, 0, 1, 2] = float('inf')",
          "x3 = torch.ones(1, 2, 3, 3, 3).contiguous(memory_format=torch.channels_last_3d)",
          "w3 = torch.ones(2, 1, 2, 2, 2)", "w3[0, 0, 0, 0, 0] = float('inf')",
          "r = F.conv2d(x, w, padding=1, groups=2)", "rd = F.conv2d(x.detach(), wd, padding=(1, 2), groups=4)",
          "r3 = F.conv3d(x3, w3, padding=1, groups=2)",
          "gx, gw = torch.autograd.grad(r, [x, w], torch.ones(r.shape))"],
         ["r.isnan().sum()", "r[0, 1]", "rd.isnan().sum()", "rd[1, 2]", "r3.isnan().sum()", "r3[0, 0, 0]",
          "(gx.isnan().sum(), gw.isnan().sum())"]),
    case("batch-norm-strided-and-channels-last-kernels",  # (issue 10) batch_norm of an input that is neither C- nor
         # channels-last-contiguous takes ATen's non-contiguous path (at::mean; per channel a serial double sum of
         # (x - mean)^2 in TensorIterator's order; ((x - mean) * invstd) * w + b), its backward also for a
         # contiguous input whose output gradient is not (an expanded one: at::sum, a serial double dot product,
         # (go - sum / n - (x - mean) * k) * invstd * w); a channels-last(-3d) input the channels-last kernels
         # (the stats over rows of channels, out = fma(x, alpha, beta)); agrad's float64 formula before
         [_HEX, _F, "torch.manual_seed(3)", "a = torch.randn(3, 4, 5, 6)",
          "w = torch.randn(4, requires_grad=True)", "b = torch.randn(4, requires_grad=True)",
          "rm, rv = torch.zeros(4), torch.ones(4)",
          "xs = [a.transpose(2, 3).requires_grad_(), a[:, :, :, ::2].requires_grad_(),"
          " a.contiguous(memory_format=torch.channels_last).requires_grad_(),"
          " a[:1].expand(3, 4, 5, 6).requires_grad_(),"
          " torch.randn(2, 4, 3, 2, 5).contiguous(memory_format=torch.channels_last_3d).requires_grad_()]",
          "ys = [F.batch_norm(x, rm, rv, w, b, training=True) for x in xs]",
          "gs = [torch.autograd.grad(y.sum(), [x, w]) for x, y in zip(xs, ys)]",
          "c = a.requires_grad_()", "yc = F.batch_norm(c, None, None, w, None, training=True)",
          "gc = torch.autograd.grad(yc.sum(), [c, w])",
          "ye = F.batch_norm(xs[0], rm, rv, w, b, training=False)",
          "ge = torch.autograd.grad(ye, [xs[0], w], torch.randn(3, 4, 6, 5))"],
         ["[hexes(y) for y in ys]", "[[hexes(t) for t in g] for g in gs]", "[hexes(t) for t in gc]",
          "(hexes(rm), hexes(rv))", "(hexes(ye), [hexes(t) for t in ge])"]),
    case("pooling-backward-sums-in-output-order",  # (issue 10's probe) a pooling backward adds each input's terms one
         # output after the other: max pooling's grad_input[index] += grad in the gradient's type (float32: bincount's
         # double sums rounded once before), average pooling's in increasing output order (col2im added them
         # kernel offset first to last: decreasing outputs)
         [_HEX, _F, "torch.manual_seed(5)",
          "x = torch.randn(2, 3, 6, 7, requires_grad=True)", "x5 = torch.randn(1, 2, 5, 6, 5, requires_grad=True)",
          "xd = torch.randn(2, 3, 6, 7, dtype=torch.float64, requires_grad=True)",
          "outs = [F.max_pool2d(x, 3, 1, 1), F.avg_pool2d(x, 3, 1, 1), F.avg_pool2d(xd, 3, 1, 1, ceil_mode=True,"
          " count_include_pad=False), F.max_pool3d(x5, 3, 1, 1), F.avg_pool3d(x5, 3, 1), F.adaptive_max_pool2d(x, (5, 6)),"
          " F.avg_pool1d(xd[0], 4, 1, 2)]",
          "grads = [torch.autograd.grad(o, x5 if o.dim() == 5 else xd if o.dtype == torch.float64 else x,"
          " torch.randn(o.shape, dtype=o.dtype))[0] for o in outs]"],
         ["[hexes(g) for g in grads]"]),
    case("max-pool1d-empty-dims-own-check",  # (own run 41413000, error-text:max_pool1d) max_pool1d (without
         # indices) checks first that no dim but a 3-d input's batch is empty, with its own text, before the
         # with-indices path that an input requiring grad takes
         ["F = torch.nn.functional"]
         + ["out = []"] + [f"try:\n    out.append(tuple(F.max_pool1d(torch.zeros({shp}, requires_grad={rg}), 2).shape))\n"
                           f"except RuntimeError as e:\n    out.append(str(e))"
                           for shp in ((4, 0), (0, 3), (0, 3, 5), (2, 0, 5), (2, 3, 0)) for rg in (False, True)],
         ["out"]),
]
