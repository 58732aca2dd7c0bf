"""Regression cases of issue 10's layout groups: results whose memory order PyTorch fixes
(so that ``is_contiguous()``, ``.view`` and the draw order of ``*_like`` random functions,
which follow the layout, agree).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    case("softmax-results-are-contiguous",  # (seed 18000000: rand_like of a float64 softmin of a transpose)
         ["x = torch.tensor([[[-1.25, 2.75], [2.5, -1.5], [-1.5, -1.0]]])", "v = x.transpose(0, -1)",
          "h = x.half().transpose(0, -1)"],
         [f"[F.{f}(a, dim=d{k}).is_contiguous() for d in (0, 1, 2)]"
          for f in ("softmax", "softmin", "log_softmax") for a, k in (("v", ""), ("v", ", dtype=torch.float64"),
                                                                     ("h", ""))]
         + ["(torch.manual_seed(0), torch.rand_like(F.softmin(v, dim=-1, dtype=torch.float64)))[1]",
            "(torch.manual_seed(0), torch.randn_like(torch.log_softmax(v, 0)))[1]",
            "F.softmax(v, dim=0).view(-1)"]),
    case("stride-and-size-dim-arguments",
         ["x = torch.arange(6.).view(2, 3)", "e = torch.zeros(0, 3)"],
         ["x.stride()", "x.stride(-1)", "x.t().stride()", "torch.tensor(1.).stride()", "x[:, None].stride()",
          "x[None].expand(2, 2, 3).stride()", "x[:, ::2].stride()", "x.unsqueeze(0).stride()",
          "x.t().unsqueeze(1).stride()", "x.t().unsqueeze(-1).stride()", "x.sum(1, keepdim=True).stride()",
          "e.stride()", "torch.zeros(3, 1).t().stride()", "x.t().contiguous().stride()", "x.view(3, 2).stride()",
          "torch.ones(4, 5)[1:3, ::2].t().stride()", "x.t()[None].stride()", "(x.t() + 1).stride()",
          "x.t().clone().stride()", "x.stride(None)", "x.stride(dim=1)", "x.stride(torch.tensor(1))",
          "x.stride(2)", "torch.tensor(1.).stride(0)", "x.stride(1.0)", "x.stride('a')", "x.stride(True)",
          "x.stride(torch.tensor(1.5))", "x.size(True)", "x.size('a')", "torch.tensor(1.).size(0)",
          "x.size(torch.tensor(True))", "x.size(torch.tensor([1]))", "x.size(-3)"]),
    case("results-of-expanded-inputs-are-laid-out-as-pytorch-s",  # (numpy's astype put a stride-0 dim innermost)
         ["e = torch.tensor([-1, 3, 4, 3]).expand(2, 4)",
          "f16 = torch.tensor([-3.0, -1.5], dtype=torch.float16).expand(2, 2)",
          "b = torch.zeros(3, 2, dtype=torch.int64).t().expand(4, 2, 3)",
          "x = torch.zeros(4, 6, dtype=torch.float64)[:, ::2].t()",
          "f = torch.tensor([1.0, -2.25], dtype=torch.float64, requires_grad=True).expand(2, 2)"],
         [f"({e}).stride()" for e in (
             "torch.erf(e)", "torch.sinc(e)", "e.arcsinh()", "torch.isinf(e)", "torch.isnan(e)", "torch.round(e)",
             "e == -0.5", "torch.ne(e, torch.ones(2, 4))", "e * torch.ones(4)", "torch.float_power(e, torch.ones(2, 4))",
             "torch.hardshrink(f16)", "F.tanhshrink(e)", "f.float()", "f.to(torch.float16)", "b.float()", "torch.erf(b)",
             "b * 1.5", "x.float()", "torch.sin(x)", "torch.sigmoid(f16)", "f16 + 1", "f16 * f16", "e + 1",
             "torch.clamp(e, 0, 2)", "torch.where(e > 0, e, 0.5)", "F.relu(f16)", "torch.abs(e)", "torch.lerp(f, f, 0.5)",
             "torch.addcmul(e, e, e)", "torch.exp(f16)", "f16.neg()", "torch.logit(f16)", "f16.frac()")]
         + ["f.double().view(-1)", "f.float().view(-1)", "(torch.manual_seed(0), torch.rand_like(torch.erf(e)))[1]"]),
    case("results-laid-out-like-the-input-or-contiguous",  # (seed 18500000 with strides compared)
         ["xi = torch.arange(32).reshape(4, 4, 2).mT", "xf = torch.arange(32.).reshape(4, 4, 2).mT",
          "t3 = torch.arange(24.).reshape(2, 3, 4).transpose(0, -1)", "sq = torch.arange(16.).reshape(4, 4).mT"],
         [f"({e}).stride()" for e in (
             "torch.heaviside(sq, sq)", "torch.round(xi)", "torch.round(xf)", "torch.round(xf, decimals=1)",
             "torch.trunc(xi)", "torch.floor(xi)", "torch.ceil(xi)", "torch.fix(xi)", "torch.tril(t3)", "torch.triu(t3)",
             "torch.argsort(xf, descending=True)", "torch.sort(xf)[0]", "torch.sort(xf)[1]", "xi ** xi", "xf ** 2",
             "2 ** xf", "xi ** 2", "torch.cross(torch.arange(18.).reshape(3, 3, 2), torch.ones(3, 3, 2), dim=1)",
             "torch.linalg.cross(t3[:, :3], t3[:, :3])", "xi.abs()", "xi.neg()", "xi.sign()", "xi.clone()",
             "torch.cumsum(xf, 1)", "torch.cumprod(xf, 1)", "torch.flip(xf, [0])", "xf.relu()", "F.relu(xi)",
             "torch.nan_to_num(xf)", "torch.nan_to_num(xi)", "(xi > 3).sign()", "torch.clamp(xi, 1, 3)",
             "torch.where(xi > 3, xi, xi)", "torch.maximum(xi, xi)", "torch.bitwise_and(xi, 3)", "xi // 2", "xi % 3",
             "xf.sigmoid()", "torch.exp(xi)")]
         + ["(torch.manual_seed(0), torch.rand_like(torch.sort(xf)[0]))[1]",
            "(torch.manual_seed(0), torch.randn_like(torch.round(xi).double()))[1]"]),
    case("accumulate-grad-lays-a-leafs-grad-out-as-the-contract-says",  # (lead's repro, 21:33)
         ["x3 = torch.zeros(2, 2, 1, requires_grad=True)", "h = x3.register_hook(lambda g: g * 2)",
          "x3.transpose(0, -1).backward(torch.ones(1, 2, 2))",
          "a = torch.zeros(3, 2).t().requires_grad_()", "(a * 2).backward(torch.ones(2, 3))",
          "b = torch.zeros(3, 2).requires_grad_()", "(b * 2).backward(torch.ones(2, 3).t())",
          "c = torch.zeros(3, 2).requires_grad_()", "hc = c.register_hook(lambda g: g.t().contiguous().t())",
          "(c * 2).backward(torch.ones(3, 2), create_graph=True)",
          "d = torch.zeros(3, 4)[:, ::2].requires_grad_()", "(d * 2).backward(torch.ones(2, 3).t())",
          "e = torch.zeros(2, 1, 3).permute(2, 1, 0).requires_grad_()", "(e * 2).backward(torch.ones(3, 1, 2))",
          "f = torch.zeros(2, 1, 3).requires_grad_()", "(f * 2).backward(torch.ones(3, 1, 2).permute(2, 1, 0))",
          "w = torch.zeros(2, 3).t().requires_grad_()", "gw = torch.ones(2, 3).t()", "(w * 1).backward(gw)",
          "(w * 1).sum().backward()"],
         [f"{v}.grad.stride()" for v in ("x3", "a", "b", "c", "d", "e", "f", "w")]
         + ["x3.grad", "c.grad", "gw", "(torch.manual_seed(0), torch.rand_like(b.grad))[1]"]),
    case("pointwise-results-of-casts-and-fresh-kernels-are-laid-out-as-pytorch-s",  # (dt20k-28: isreal, log1p, ...)
         ["t = torch.tensor([[[1.0, -2.0, 0.5], [0.0, 3.0, -1.5]], [[2.0, 0.25, -0.5], [1.0, -3.0, 0.75]]]).transpose(0, -1)",
          "ti = t.long()", "tb = t > 0", "th = t.half()", "e = torch.tensor([-1, 0, 2]).expand(2, 3)",
          "eb = torch.tensor([True, False, True]).expand(2, 3)", "eu = torch.tensor([7, 3, 1], dtype=torch.uint8).expand(2, 3)",
          "c = torch.tensor([[-3, 3], [0, 1]])", "d = torch.arange(24).reshape(4, 3, 2)[::2].diagonal()"],
         [f"({e}).stride()" for e in (
             "torch.isreal(t)", "torch.isreal(t.mT)", "torch.isreal(e)", "tb.log1p()", "ti.log1p()", "t.log1p()",
             "torch.sqrt(ti)", "F.softplus(t)", "F.softplus(th)", "F.silu(t)", "F.logsigmoid(t)",
             "F.logsigmoid(t.double())", "2 ** t", "2 ** e", "torch.reciprocal(e)", "e.rad2deg()", "eu.deg2rad()",
             "torch.logit(eu, 0.001)", "eb.clip(min=-2.0)", "torch.fmod(eb, 1.5)", "torch.pow(e, 0.5)", "eb ** 2",
             "torch.clamp(eb, -1, 1)", "torch.copysign(e, 1.5)", "torch.xlogy(e, 2.0)", "d ** c", "ti ** ti",
             "tb ** True", "tb ** False", "torch.isclose(t, t.contiguous())", "torch.isclose(ti, e[:1, :2, None])",
             "torch.isclose(tb, tb.contiguous())", "torch.heaviside(t, t.contiguous())", "torch.heaviside(ti, e[:1, :2, None])")]
         + ["torch.isclose(th.mT, th.mT.contiguous(), 0.25, 2.0).view(-1)", "torch.isreal(e).view(-1)",
            "(torch.manual_seed(0), torch.rand_like(tb.log1p()))[1]"]),
    case("composite-results-and-gradients-are-laid-out-as-pytorch-s",  # (dt20k-28: rrelu, logsumexp, grads, ...)
         ["t = torch.tensor([[[1.0, -2.0, 0.5], [0.0, 3.0, -1.5]], [[2.0, 0.25, -0.5], [1.0, -3.0, 0.75]]]).transpose(0, -1)",
          "d = torch.tensor([[-1.25, -1.0], [-1.0, -3.0]], dtype=torch.float64).t()",
          "s = torch.tensor([[-1.25, 0.5], [-2.25, 2.0], [1.25, 0.25]])[::2]",
          "h = torch.tensor([[-2.5, 2.0, 0.0], [-2.75, 3.0, 0.0]], dtype=torch.float16).t()",
          "m = torch.arange(8.).reshape(2, 2, 2).mT",
          "x1 = torch.tensor([-1.75, -2.0], dtype=torch.float64, requires_grad=True)", "r = torch.sign(x1.expand(2, 2))",
          "r.retain_grad()", "torch.adjoint(r).backward(torch.tensor([[0.5, -2.25], [-2.0, 0.0]], dtype=torch.float64))",
          "x = torch.arange(12.).reshape(3, 4).requires_grad_()", "b = x.t() * 2", "v = b[1:]", "v[..., 0] = 0.5",
          "g1 = torch.autograd.grad(b.sum() * 1, [x], retain_graph=True)[0]",
          "g2 = torch.autograd.grad(b.sum() * 1, [x], create_graph=True)[0]",
          "c = x.t() * 1", "c[:, 1] = torch.ones(4, requires_grad=True)",
          "g3 = torch.autograd.grad(c.sum(), [x], retain_graph=True)[0]",
          "g4 = torch.autograd.grad(c.sum(), [x], create_graph=True)[0]"],
         [f"({e}).stride()" for e in (
             "torch.div(d, s, rounding_mode=None)", "torch.div(d, s, rounding_mode='floor')", "F.rrelu(t)",
             "F.rrelu(t, training=True)", "torch.rrelu(t)", "torch.logsumexp(t, 0)", "torch.logsumexp(t, 1, keepdim=True)",
             "torch.logsumexp(t.long(), 0)", "torch.layer_norm(h, (2,), eps=3.0)", "F.layer_norm(h.float(), (2,))",
             "torch.matrix_power(m, 0)", "torch.matrix_power(m, 1)", "torch.matrix_power(m.transpose(0, -1), 1)",
             "torch.matrix_power(m, 2)", "r.grad", "g1", "g2", "g3", "g4")]
         + ["type(torch.matrix_power(m.requires_grad_(), 1).grad_fn).__name__", "torch.logsumexp(t, 0).view(-1)",
            "g2.view(-1)", "r.grad.view(-1)"]),
    case("scans-topk-and-masked-fill-give-c-ordered-results",  # (strides: logcumsumexp along dim 1, topk, masked_fill)
         ["t = torch.arange(24.).reshape(2, 3, 4).transpose(0, 2) / 7", "e = (torch.arange(4.) / 7).expand(2, 3, 4)",
          "s = (torch.arange(72.).reshape(2, 3, 12) / 7)[:, :, ::3]",
          "cl = torch.arange(48.).reshape(2, 3, 2, 4).permute(0, 3, 1, 2) / 7",
          "u = torch.arange(12, dtype=torch.uint8).reshape(3, 4).t()"],
         [f"[r.stride() for r in ({e},)]" for e in (
             "torch.logcumsumexp(t, 1)", "torch.logcumsumexp(e, 1)", "torch.logcumsumexp(s, 1)",
             "torch.logcumsumexp(cl, 1)", "torch.logcumsumexp(t.half(), 1)", "*torch.cummax(t, 1)",
             "*torch.cummin(e, 2)", "torch.cumsum(cl, 1)", "torch.cumprod(s, 2)",
             "*torch.topk(t, 2, 0)", "*torch.topk(e, 2, 0)", "*torch.topk(cl, 2, 0)", "*torch.topk(s, 1, 2)",
             "*torch.kthvalue(t, 2, 0)", "t.masked_fill(t > 1, 0)", "u.masked_fill(u > 3, 0)",
             "cl.masked_fill(torch.tensor(True), 0)", "t.masked_fill(t > 1, torch.tensor(2.))",
             "t.expand(2, 4, 3, 2).masked_fill(t > 1, 0)", "e.masked_fill(e > 0.2, 1)")]
         + ["(torch.manual_seed(0), torch.rand_like(torch.logcumsumexp(t, 1)))[1]", "t.masked_fill(t > 1, 0).view(-1)"]),
    case("shifts-are-laid-out-as-tensor-iterator-lays-them-out",  # (uint8 << of an expanded input was (1, 3))
         ["ue = torch.arange(4, dtype=torch.uint8).expand(3, 4)", "u = torch.arange(12, dtype=torch.uint8).reshape(3, 4).t()",
          "i16 = torch.arange(4, dtype=torch.int16).expand(2, 3, 4).transpose(0, 2)",
          "i64 = torch.arange(12).reshape(3, 4).t().expand(2, 4, 3)"],
         [f"({e}).stride()" for e in (
             "ue << 1", "ue >> 1", "u << 1", "u >> 2", "ue << ue", "i16 << 3", "i16 >> 1", "i64 << 2", "i64 >> i64",
             "torch.bitwise_left_shift(ue, 2)", "torch.bitwise_right_shift(i16, torch.ones(3, 2, dtype=torch.int16))",
             "1 << ue", "ue.t() << 1")]
         + ["ue << 1", "i16 >> 1"]),
    case("cat-stack-roll-and-constant-pad-take-cat-s-memory-format",  # (cat of one transposed tensor was not contiguous)
         ["t = torch.arange(24.).reshape(2, 3, 4).transpose(0, 2)", "e = torch.arange(4.).expand(2, 3, 4)",
          "cl = torch.arange(48.).reshape(2, 3, 2, 4).permute(0, 3, 1, 2)", "m = torch.arange(12.).reshape(3, 4).t()"],
         [f"({e}).stride()" for e in (
             "torch.cat([m])", "torch.cat([m], 1)", "torch.cat([m, m])", "torch.cat([e, e], 1)", "torch.cat([t, t], 2)",
             "torch.hstack([m])", "torch.vstack([m])", "torch.dstack([m])", "torch.cat([cl, cl], 1)",
             "torch.cat([cl, cl.contiguous()])", "torch.cat([cl, torch.zeros(0)], 1)", "torch.hstack([cl, cl])",
             "torch.stack([m])", "torch.stack([t, t])", "torch.stack([t, t], 3)", "torch.stack([e, e], 1)",
             "torch.stack([cl, cl])", "torch.stack([cl, cl], 1)", "torch.stack([cl, cl], 4)",
             "torch.roll(m, 1, 0)", "torch.roll(e, 1, 0)", "torch.roll(t, 1)", "torch.roll(cl, 1, 1)", "torch.roll(cl, 0, 1)",
             "torch.roll(cl, (1, 1), (0, 1))", "torch.roll(t, (1, -1), (0, 2))", "torch.flip(e, [0])",
             "torch.flipud(e)", "torch.fliplr(e)", "torch.flip(t, [1])", "torch.flip(cl, [3])",
             "F.pad(m, (1, 1))", "F.pad(t, (1, 0, 0, 1))", "F.pad(cl, (1, 1))", "F.pad(cl, (0, 0, -1, 0))",
             "F.pad(m, (0, 0))", "F.pad(t, (-1, 0))", "F.pad(cl, (0, 0))", "F.pad(cl[:, :, :, ::2], (0, 0, 0, 0))",
             "F.pad(e, (1, 0))", "F.pad(e, (0, 0))")]
         + ["torch.cat([m]).view(-1)", "torch.roll(m, 1, 0).view(-1)", "torch.stack([cl, cl])[1, 0, 1]",
            "(lambda r: (r.add_(100), m.sum())[1])(F.pad(m, (0, 0)))", "(torch.manual_seed(0), torch.randn_like(torch.cat([t, t])))[1]"]),
    case("reductions-gather-and-scatter-give-c-ordered-results",  # (ATen's reduction outputs are contiguous)
         ["t = torch.arange(1., 25.).reshape(2, 3, 4).transpose(0, 2) / 7",
          "cl = torch.arange(1., 49.).reshape(2, 3, 2, 4).permute(0, 3, 1, 2) / 7",
          "p = torch.arange(1., 25.).reshape(2, 3, 4).permute(1, 2, 0) / 7", "ti = (t * 7).long()",
          "i0 = torch.zeros(1, 3, 2, dtype=torch.long)"],
         [f"[r.stride() for r in ({e},)]" for e in (
             "t.amax(-1)", "t.amin(0)", "cl.amax(-1)", "*torch.aminmax(t, dim=-1)", "t.std(0)", "t.std(-1)",
             "t.var(-1, keepdim=True)", "cl.std(0)", "p.std(0)", "*torch.var_mean(t, -1)", "*torch.std_mean(cl, 0)",
             "t.norm(dim=1)", "p.norm(dim=1)", "torch.linalg.vector_norm(t, dim=-1)",
             "torch.linalg.vector_norm(t, float('inf'), dim=-1)", "t.norm(p=1, dim=-1)", "cl.norm(dim=-1)",
             "t.all(-1)", "t.any(0)", "ti.all(-1)", "(t > 1).any(-1)", "torch.count_nonzero(t, -1)",
             "*torch.nanmedian(t, 0)", "*torch.median(p, 0)", "t.sum(0)", "*t.max(-1)",
             "t.scatter(0, i0, 1.0)", "cl.scatter(1, torch.zeros(2, 1, 3, 2, dtype=torch.long), 2.0)",
             "torch.gather(t, 0, torch.zeros(2, 3, 4, dtype=torch.long).transpose(0, 2))",
             "torch.gather(cl, 1, torch.zeros(2, 4, 3, 2, dtype=torch.long))", "t.index_fill(0, torch.tensor([0]), 1.0)")]
         + ["t.std(0).view(-1)", "(torch.manual_seed(0), torch.rand_like(t.amax(-1)))[1]"]),
    case("pointwise-losses-without-reduction-keep-the-iterator-s-layout",  # (mse/huber/bce of a transposed input)
         ["a = torch.arange(1., 25.).reshape(2, 3, 4).transpose(0, 2) / 25", "b = torch.linspace(0.1, 0.9, 24).view(4, 3, 2)",
          "e = (torch.arange(1., 5.) / 7).expand(2, 3, 4)", "f = torch.linspace(0.1, 0.9, 24).view(3, 2, 4).transpose(0, 1)",
          "cl = torch.arange(1., 49.).reshape(2, 3, 2, 4).permute(0, 3, 1, 2) / 49", "c = torch.linspace(0.1, 0.9, 48).view(2, 4, 3, 2)"],
         [f"({e}).stride()" for e in (
             "F.mse_loss(a, b, reduction='none')", "F.mse_loss(b, a, reduction='none')", "F.mse_loss(e, f, reduction='none')",
             "F.l1_loss(a, b, reduction='none')", "F.smooth_l1_loss(a, b, reduction='none')",
             "F.huber_loss(a, b, reduction='none')", "F.huber_loss(cl, c, reduction='none')",
             "F.smooth_l1_loss(e, f, reduction='none')", "F.binary_cross_entropy(a, b, reduction='none')",
             "F.binary_cross_entropy(b, a, reduction='none')", "F.binary_cross_entropy(a, b, reduction='none', weight=torch.ones(2))",
             "F.binary_cross_entropy(cl, c, reduction='none')", "F.binary_cross_entropy(e, f, reduction='none')")]
         + ["F.mse_loss(a, b, reduction='none').view(-1)"]),
    case("advanced-indexing-results-are-laid-out-as-the-index-kernel-s-iterator",  # (x[:, idx] of a transposed x)
         ["a = torch.arange(1., 25.).reshape(2, 3, 4).transpose(0, 2) / 7",
          "e = (torch.arange(1., 5.) / 7).expand(2, 3, 4)",
          "s = (torch.arange(1., 73.).reshape(2, 3, 12) / 7)[:, :, ::3]",
          "cl = (torch.arange(1., 49.).reshape(2, 3, 2, 4) / 7).permute(0, 3, 1, 2)",
          "p = torch.arange(1., 25.).reshape(2, 3, 4).permute(1, 2, 0)", "i = torch.tensor([0, 1])",
          "j = torch.tensor([[0, 1], [1, 0]])"],
         [f"({e}).stride()" for e in ("a[i]", "a[:, i]", "a[:, :, i]", "a[j]", "a[:, j]", "a[i, :, i]", "a[:, i, i]",
             "a[i, i]", "a[j, :, i]", "a[..., j]", "a[a > 0.5]", "a[:, a[0] > 0.5]", "e[i]", "e[:, i]", "e[..., i]",
             "e[j]", "e[:, j]", "e[i, :, i]", "s[i]", "s[:, i]", "s[:, :, j]", "s[i, :, i]", "cl[i]", "cl[:, i]",
             "cl[:, :, i]", "cl[..., i]", "cl[:, i, :, i]", "cl[:, i, i]", "p[:, i]", "p[j]", "p[:, :, i]",
             "p[i, ..., i]", "a[:, None, i]", "a[0, i]", "a[1:, i]", "a[::2, i]",
             "a.expand(2, 4, 3, 2)[:, i]", "a.expand(2, 4, 3, 2)[i]")]
         + ["a[:, i].view(-1)", "(torch.manual_seed(0), torch.rand_like(cl[:, i]))[1]"]),
    case("elementwise-gradients-are-laid-out-as-pytorch-s-backward-kernels-lay-them-out",  # (iter's gradient sweep)
         ["x = torch.tensor([[[1.0, -2.0, 0.5], [0.0, 3.0, -1.5]], [[2.0, 0.25, -0.5], [1.0, -3.0, 0.75]]], requires_grad=True)",
          "c = x * 1", "t = (x * 1).transpose(0, -1)", "gc = torch.ones(3, 2, 2)", "gt = torch.ones(3, 2, 2).transpose(0, -1)",
          "def g(f, v, go, cg=False):\n    return torch.autograd.grad(f(v), [v], go, create_graph=cg)[0].stride()",
          "ct = c.transpose(0, -1)"],
         [f"g({f}, {v}, {go}{cg})" for f in (
             "torch.sin", "torch.exp", "torch.tanh", "torch.sigmoid", "torch.relu", "F.leaky_relu", "F.gelu", "F.softplus",
             "F.elu", "F.hardtanh", "F.logsigmoid", "lambda v: v ** 3", "lambda v: v * v", "lambda v: torch.maximum(v, v * 0.5)",
             "lambda v: v.std(0)", "lambda v: v.norm(dim=0)", "lambda v: v.unsqueeze(0).expand(2, *v.shape)")
          for v, go in (("c", "gt"), ("t", "gc")) for cg in ("", ", True")
          if not (go == "gt" and f.startswith("lambda v: v.") or go == "gt" and "maximum" in f)]),
    case("bool-kernels-of-a-broadcast-input-are-laid-out-as-tensoriterator-sorts-it",  # (iter's sweep: t1 layout)
         ["x = torch.tensor([[[1.0, -2.0]], [[0.5, 0.0]], [[3.0, -1.5]], [[2.0, 0.25]]]).permute(2, 1, 0).expand(2, 3, 4)",
          "xi = x.long()", "xb = x > 0"],
         [f"({e}).stride()" for e in (
             "torch.isnan(x)", "torch.isinf(x)", "torch.isfinite(x)", "torch.isposinf(x)", "torch.isneginf(x)",
             "torch.signbit(x)", "torch.signbit(xi)", "torch.isnan(xi)", "torch.logical_not(x)", "torch.logical_not(xb)",
             "torch.bitwise_not(xi)", "torch.bitwise_not(xb)", "~xb", "torch.sin(x)", "x.abs()", "torch.angle(x)",
             "torch.angle(xi)", "torch.angle(x.long().expand(2, 3, 4))", "torch.frexp(x)[0]", "torch.frexp(x)[1]")]),
    case("glu-and-prelu-of-a-broadcast-permuted-input-are-laid-out-as-tensoriterator-sorts-it",  # (iter's sweep)
         ["x = torch.tensor([[[1.0, -2.0]], [[0.5, 0.0]], [[3.0, -1.5]], [[2.0, 0.25]]]).permute(2, 1, 0).expand(2, 3, 4)",
          "t = torch.arange(24.).reshape(4, 3, 2).transpose(0, -1) - 10"],
         [f"({e}).stride()" for e in (
             "F.glu(x, -1)", "F.glu(t, -1)", "F.glu(t, 1)", "F.prelu(x, torch.tensor([0.25]))",
             "F.prelu(t, torch.tensor([0.25]))", "F.prelu(t, torch.tensor([0.25, 0.5, 1.0]))")]),
    case("nn-kernels-allocate-in-the-input-s-suggested-memory-format",  # (pooling/conv/norms/pads of channels-last)
         ["cl = (torch.arange(1., 49.).reshape(2, 3, 2, 4) / 7).permute(0, 3, 1, 2)",
          "t4 = (torch.arange(1., 49.).reshape(2, 4, 3, 2) / 7).transpose(2, 3)",
          "t3 = (torch.arange(1., 25.).reshape(2, 3, 4) / 7).transpose(1, 2)",
          "e4 = (torch.arange(1., 3.) / 7).expand(2, 4, 3, 2)", "w = torch.ones(2, 4, 1, 1)"],
         [f"[r.stride() for r in (lambda v: v if isinstance(v, tuple) else (v,))({e})]" for e in ("F.max_pool2d(cl, 1)", "F.max_pool2d(t4, 1)",
             "F.max_pool2d(e4, 1)", "F.max_pool2d(cl, 2, 1)", "F.max_pool2d(cl, 1, return_indices=True)",
             "F.avg_pool2d(cl, 1)", "F.avg_pool2d(t4, 1)",
             "F.adaptive_avg_pool2d(cl, 2)", "F.adaptive_avg_pool2d(t4, 2)", "F.max_pool1d(t3, 1)",
             "F.avg_pool1d(t3, 1)", "F.interpolate(cl, scale_factor=2)", "F.interpolate(t4, scale_factor=2)",
             "F.interpolate(cl, scale_factor=2, mode='bilinear')",
             "F.interpolate(t4, scale_factor=2, mode='bilinear')", "F.interpolate(t3, scale_factor=2)",
             "F.interpolate(t3, scale_factor=2, mode='linear')", "F.conv2d(cl, w)", "F.conv2d(t4, w)",
             "F.conv2d(e4, w)", "F.conv1d(t3, torch.ones(2, 4, 1))",
             "F.conv_transpose2d(cl, torch.ones(4, 2, 1, 1))", "F.batch_norm(cl, torch.zeros(4), torch.ones(4))",
             "F.batch_norm(t4, torch.zeros(4), torch.ones(4))", "F.batch_norm(t3, torch.zeros(4), torch.ones(4))",
             "F.batch_norm(e4, torch.zeros(4), torch.ones(4))",
             "F.batch_norm(cl, torch.zeros(4), torch.ones(4), training=True)", "F.group_norm(cl, 1)",
             "F.group_norm(t4, 2)", "F.group_norm(t3, 2)", "F.instance_norm(cl)", "F.instance_norm(t3)",
             "F.pixel_shuffle(cl, 1)", "F.pixel_shuffle(cl, 2)", "F.pixel_unshuffle(cl, 1)",
             "F.pad(t3, (1, 1), mode='replicate')", "F.pad(t3, (1, 1), mode='reflect')",
             "F.pad(cl, (1, 1, 1, 1), mode='replicate')", "F.pad(cl, (1, 1, 1, 0), mode='reflect')",
             "F.pad(t4, (1, 1, 1, 1), mode='reflect')", "F.pad(cl, (1, 1, 1, 1), mode='circular')",
             "F.unfold(cl, 1)", "F.unfold(t4, 1)", "F.relu(cl)", "F.dropout2d(cl, 0.0)",
             "F.embedding(torch.tensor([[0, 1], [1, 0]]).t(), torch.rand(3, 2))",
             "F.one_hot(torch.tensor([[0, 1], [1, 2]]).t())", "F.one_hot(torch.tensor([0, 1, 2]).expand(2, 3))",
             "F.softmax(cl, 1)", "F.log_softmax(cl, 1)", "F.layer_norm(cl, (2,))", "F.upsample(cl, scale_factor=2)",
             "F.max_pool1d(t3.clone().requires_grad_(), 1)", "F.max_pool1d(t3, 1, return_indices=True)",
             "F.avg_pool1d(t3, 1)")]
         + ["F.conv2d(cl, w).flatten()",
            "(torch.manual_seed(0), torch.rand_like(F.interpolate(cl, scale_factor=2)))[1][0, 0]"]),
    case("pointwise-loss-gradients-are-contiguous-as-aten-s-backward-kernels-write-them",  # (iter's 2-input grad sweep)
         ["x = torch.tensor([[[1.0, -2.0, 0.5], [0.0, 3.0, -1.5]], [[2.0, 0.25, -0.5], [1.0, -3.0, 0.75]]], requires_grad=True)",
          "c = x * 1", "t = (x * 2).transpose(0, -1).contiguous().transpose(0, -1)",
          "gt = torch.ones(3, 2, 2).transpose(0, -1)",
          "def g(f, cg=False):\n    return [a.stride() for a in torch.autograd.grad(f(c, t), [c, t], gt, create_graph=cg)]"],
         [f"g({f}{cg})" for f in (
             "lambda a, b: F.mse_loss(a, b, reduction='none')", "lambda a, b: F.smooth_l1_loss(a, b, reduction='none')",
             "lambda a, b: F.huber_loss(a, b, reduction='none')", "lambda a, b: a * b", "lambda a, b: torch.maximum(a, b)")
          for cg in ("", ", True")]),
    case("reshape-that-copies-clones-in-c-order",  # (a copying reshape of an expanded channels-last tensor)
         ["cl = (torch.arange(1., 49.).reshape(2, 3, 2, 4) / 7).permute(0, 3, 1, 2)",
          "t = torch.arange(24.).reshape(2, 3, 4).transpose(0, 2)", "s = torch.arange(48.).reshape(2, 3, 8)[:, :, ::2]"],
         [f"({e}).stride()" for e in (
             "cl.expand(2, *cl.shape).reshape(-1, *cl.shape[1:])", "cl.expand(2, *cl.shape).flatten(0, 1)",
             "cl.reshape(2, 4, 6)", "cl.reshape(8, 3, 2)", "t.reshape(4, 6)", "t.reshape(2, 2, 3, 2)", "s.reshape(6, 4)",
             "cl.flatten(1)", "t.flatten(0, 1)")]
         + ["type(t.requires_grad_().reshape(-1).grad_fn.next_functions[0][0]).__name__"]),
    case("a-resized-out-takes-the-result-s-layout",  # (out=torch.empty(0) of a transposed input's exp was C)
         ["t = torch.arange(12.).reshape(3, 4).t()", "o = torch.empty(3, 4).t()", "o2 = torch.empty(4, 3)",
          "e = torch.arange(4.).expand(3, 4)"],
         [f"({e}).stride()" for e in (
             "torch.add(t, 1, out=o)", "torch.add(t, 1, out=o2)", "torch.add(t, 1, out=torch.empty(0))",
             "torch.exp(t, out=torch.empty(0))", 
             "torch.sum(t, 0, out=torch.empty(0))",
             "torch.cumsum(t, 0, out=torch.empty(0))", "torch.cat([t, t], out=torch.empty(0))",
             "torch.sort(t, 0, out=(torch.empty(0), torch.empty(0, dtype=torch.long)))[0]",
             "torch.matmul(t, t.t(), out=torch.empty(0))", "torch.exp(e, out=torch.empty(0))",
             "torch.add(e, t.t(), out=torch.empty(0))")]
         + ["torch.exp(t, out=torch.empty(0)).view(-1)"]),
]

CASES += [
    case("iterator-dims-of-one-element",  # (dt30: stride:adaptive_max_pool1d_with_indices) a dim of one element takes
         # part in TensorIterator's sort of the strides; operands of one shape, all contiguous, take the fast set-up
         ["x = torch.zeros(2, 3).t()[:, :1]", "y = torch.zeros(3, 1)", "z = torch.zeros(1, 4, 2).transpose(1, 2)",
          "w = torch.zeros(2, 4, 1).permute(2, 0, 1)", "v = torch.zeros(3, 2).t()[None]",
          "p = torch.tensor([[[-1.5], [2.5], [1.75]], [[0.0], [0.0], [-1.0]]]).transpose(0, -1)",
          "q = torch.tensor([[[0.25, 2.5], [2.0, -0.5], [-0.25, 2.0]]])"],
         ["[(x + x).stride(), (x + 2).stride(), (x + torch.tensor(2.)).stride(), (x * y).stride(), (y * x).stride()]",
          "[(z + z).stride(), (z + w).stride(), (w + z).stride(), (w + w).stride(), (z + 1).stride(), (w + 1).stride()]",
          "[(v + v).stride(), (v * 2).stride(), (v + torch.zeros(2, 3)).stride(), (v + v.contiguous()).stride()]",
          "(p * q).stride()", "[t.stride() for t in F.adaptive_max_pool1d(p * q, 2, True)]", "F.adaptive_avg_pool1d(p * q, 2).stride()",
          "[t.stride() for t in F.max_pool1d_with_indices(p * q, 1)]"]),
]

CASES += [
    case("layer-norm-backward-half",  # (dt30: grad-value:backward) float16 layer_norm's backward: mean and rstd as
         # native_layer_norm returns them (half), the kernel's float opmath, dgamma/dbeta summed in half buffers per thread
         ["x = torch.tensor([[1.25, 2.75, 1.75], [-2.75, 2.25, -2.75]], dtype=torch.float16, requires_grad=True)",
          "w = torch.tensor([1.5, -0.5, 2.0], dtype=torch.float16, requires_grad=True)",
          "g = torch.tensor([1.0, 2.0, -1.0], dtype=torch.float16)",
          "h = (torch.arange(60, dtype=torch.float16) % 7 - 3).reshape(6, 10).requires_grad_()",
          "v = torch.linspace(-2, 2, 10, dtype=torch.float16).requires_grad_()"],
         ["torch.autograd.grad(torch.layer_norm(x, (3,)).sum(), x)[0].tolist()",
          "[t.tolist() for t in torch.autograd.grad((torch.layer_norm(x, (3,), w, w) * g).sum(), (x, w))]",
          "[t.tolist() for t in torch.autograd.grad((torch.layer_norm(h, (10,), v, v) * h.detach().cos()).sum(), (h, v))]",
          "torch.autograd.grad(torch.layer_norm(x, (3,)).sum(), x, create_graph=True)[0].tolist()"]),
]

CASES += [
    case("half-max-all-signed-zero",  # (dt30: repr:max) float16 max()/min() over all elements: the zero of the
         # kernel's vector lanes (16 halves from 16 elements on, else 8 floats), as float32's
         ["pats = [[-0., -0., 0., 0.], [0., 0., -0., -0.], [-0.] * 9 + [0.], [0.] * 9 + [-0.], [-0., 0.] * 20, [0., -0.] * 20, "
          "[-0.] * 17 + [0.], [0.] * 33 + [-0.] * 2, [-1., -0., 0.] * 7]"],
         ["[str(torch.tensor(p, dtype=torch.float16).max()) for p in pats]",
          "[str(torch.tensor(p, dtype=torch.float16).neg().min()) for p in pats]",
          "[str(torch.tensor(p, dtype=torch.float32).max()) for p in pats]"]),
    case("layer-norm-rowwise-moments",  # (issue 10) float32/float64 rows longer than a register: ATen's RowwiseMoments
         # (Welford in chunks of 16 vectors, cascade merges, tail, lane merges), ds/db with the last partial vector's
         # products fused, dgamma fused into the per-thread buffers
         ["a = ((torch.arange(1800) * 7919 % 1013) - 506).reshape(6, 300) / 37.0 + 3.0",
          "x = a.clone().requires_grad_()",
          "w = (torch.arange(300) % 11 - 5.0).div(4.0).requires_grad_()",
          "b = (torch.arange(300) % 7 - 3.0).div(8.0).requires_grad_()",
          "g = ((torch.arange(1800) * 31 % 97) - 48.0).reshape(6, 300) / 16.0",
          "xd = a[:, :141].double().requires_grad_()",
          "wd = w.detach()[:141].double().requires_grad_()"],
         ["torch.layer_norm(a, (300,), w, b)[:, ::23].tolist()",
          "torch.layer_norm(a, (300,))[:, 7::29].tolist()",
          "[t[..., ::19].tolist() for t in torch.autograd.grad((torch.layer_norm(x, (300,), w, b) * g).sum(), (x, w, b))]",
          "torch.autograd.grad((torch.layer_norm(x, (300,)) * g).sum(), x)[0][:, 5::31].tolist()",
          "torch.layer_norm(xd, (141,), wd)[:, ::13].tolist()",
          "[t[..., ::11].tolist() for t in torch.autograd.grad((torch.layer_norm(xd, (141,), wd, wd) * g[:, :141]).sum(), (xd, wd))]"]),
]

CASES += [
    case("final-run-groups-dt30b",  # (dt30 end run: raises-only-agrad:%, error-type:max_pool1d(_with_indices), stride:rsub)
         ["v = torch.zeros(2, 3, 4).transpose(0, -1) + 1.5", "x = torch.tensor([2.0, -0.75], dtype=torch.float64)",
          "b = torch.tensor([[[True, False, True, False]]])",
          "a = torch.tensor([[2.5, 0.75, -1.25, -1.5], [0.0, 3.0, 3.0, 2.0]], requires_grad=True).transpose(0, -1)",
          "o = torch.tensor([[0.0, 0.5], [-2.25, 1.75], [-2.0, 2.25], [2.75, 1.5]], requires_grad=True)"],
         ["(x % v).shape", "(x % v)[0]", "torch.fmod(x, v)[1]", "(x + v).stride()", "torch.max_pool1d(b[0], 2)",
          "torch.max_pool1d_with_indices(b, 1)", "F.max_pool2d(b[None], 1)", "F.max_pool3d(b[None, None], 1)",
          "F.max_pool1d(b, 2, return_indices=True)", "torch.rsub(a, o, alpha=0.001).stride()", "torch.rsub(a, o).stride()",
          "torch.rsub(a, 2.0).stride()", "torch.rsub(a, o, alpha=2)"]),
]

CASES += [
    case("hardtanh-backward-nan-bound",  # (dt30 end run: grad-value:backward) a NaN bound: the vector code's blocks give
         # 0, the scalar loop past them passes the gradient unless x <= min or x >= max
         ["n = float('nan')"],
         [f"[torch.autograd.grad(F.hardtanh(x, lo, hi).sum(), x)[0].tolist() for x in "
          f"((torch.arange(k, dtype=torch.{d}) / 4 - 1.5).requires_grad_() for k in (1, 3, 8, 9, 17, 20))]"
          for d in ("float64", "float32") for lo, hi in (("n", "1.0"), ("-1.0", "n"), ("n", "n"))]),
]
