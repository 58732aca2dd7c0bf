"""Regression cases of session 34's groups (helper "groupsa"): autograd graphs and gradients.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import GRAPH, case


CASES = [
    case("amax-restore-reduced-dims-view",  # (dt34 grad_fn:grad) restore_reduced_dims of amax/amin/aminmax
         # backward reshapes with the dims as given: always a view (ViewBackward0, a 0-d result too), and
         # dim 0 of a 0-d input restores a [1] that the engine sums back (SumBackward0)
         [GRAPH, "x = torch.tensor(2.5, dtype=torch.float16, requires_grad=True)",
          "g1, = torch.autograd.grad(torch.exp2(torch.amax(x)).sum(), [x], create_graph=True)",
          "g2, = torch.autograd.grad(torch.amin(x, 0).exp(), [x], create_graph=True)",
          "g3, = torch.autograd.grad(sum(torch.aminmax(x)).exp(), [x], create_graph=True)",
          "g4, = torch.autograd.grad(sum(torch.aminmax(x, dim=-1)).exp(), [x], create_graph=True)",
          "y = torch.tensor([[1.0, 3.0, 3.0], [2.0, -1.0, 2.0]], dtype=torch.float64, requires_grad=True)",
          "h1, = torch.autograd.grad(torch.amax(y, ()).exp(), [y], create_graph=True)",
          "h2, = torch.autograd.grad(torch.amin(y, [0, -1]).exp(), [y], create_graph=True)",
          "h3, = torch.autograd.grad(sum(torch.aminmax(y, dim=1)).exp().sum(), [y], create_graph=True)"],
         ["graph(g1.grad_fn)", "graph(g2.grad_fn)", "graph(g3.grad_fn)", "graph(g4.grad_fn)",
          "g1.item()", "g4.item()", "graph(h1.grad_fn)", "h1.tolist()", "graph(h2.grad_fn)",
          "graph(h3.grad_fn)", "h3.tolist()"]),
    case("half-activation-float-opmath",  # (dt34 grad-value:pow) PyTorch's float16 activation kernels work
         # in float (Sleef's expf/erf in the vector blocks of 16 halves, libm's in the tail) and round once:
         # hardswish/elu/selu/celu/leaky_relu/logsigmoid/gelu backward, sigmoid/silu/mish/gelu forward,
         # rrelu (eval: leaky_relu's kernels); hardshrink compares in float16 (lambd rounded to it)
         ["x = ((torch.arange(-700., 700.) * 7 % 1399 - 699) / 97).half().requires_grad_()",
          "g = ((torch.arange(1400.) * 5 % 13 - 6) / 3.7).half()",
          "def grads(f):\n    y = f(x)\n    gx, = torch.autograd.grad(y, [x], g[:y.numel()], create_graph=True)\n"
          "    return [y.tolist(), gx.tolist()]",
          "r = {n: grads(f) for n, f in [('hardswish', F.hardswish), ('elu', F.elu), ('selu', F.selu),"
          " ('celu', lambda t: F.celu(t, 0.3)), ('leaky', lambda t: F.leaky_relu(t, 0.3)),"
          " ('logsigmoid', F.logsigmoid), ('gelu', F.gelu), ('gelu_tanh', lambda t: F.gelu(t, approximate='tanh')),"
          " ('sigmoid', torch.sigmoid), ('silu', F.silu), ('mish', F.mish), ('rrelu', lambda t: F.rrelu(t, 0.1, 0.3)),"
          " ('hardshrink', lambda t: F.hardshrink(t, 0.3)), ('silu_strided', lambda t: F.silu(t[1::3])),"
          " ('gelu_tail', lambda t: F.gelu(t[:37]))]}",
          "xs = torch.tensor([[[-1.75, 2.0, -2.75], [1.75, -2.5, 1.5], [0.75, 0.75, -1.0]], [[-3.0, 1.0, 0.25],"
          " [0.0, 1.0, 0.5], [0.0, -2.75, -3.0]]], dtype=torch.float16, requires_grad=True)",
          "gs, = torch.autograd.grad(torch.special.expm1(F.hardswish(xs)).sum(), [xs], create_graph=True)",
          "gs.pow(2).sum().backward()"],
         ["r", "gs.tolist()", "xs.grad.tolist()"]),
    case("sdpa-flash-one-key-plain-product",  # (dt34 repr:scaled_dot_product_attention) one key: the flash
         # kernel's gemm per block of queries is a one-term product, which BLAS writes as the plain product
         # (a -0.0 value stays -0.0) for a block of 2 or more queries and a head size of 2 or more
         ["q = ((torch.arange(396.) % 7 - 3) / 2).reshape(2, 1, 66, 3)",
          "k = torch.tensor([[[[-1.75, 3.0, 0.5]]], [[[0.5, 0.25, -1.0]]]])",
          "v = torch.tensor([[[[-0.0, 1.0, -0.0]]], [[[0.0, -0.0, 3.0]]]])",
          "m = torch.where(torch.arange(66) % 3 != 0, 0.0, float('-inf')).reshape(66, 1)",
          "def signs(t):\n    return torch.signbit(t).flatten().tolist()"],
         ["signs(F.scaled_dot_product_attention(q, k, v))", "signs(F.scaled_dot_product_attention(q, k, v, attn_mask=m))",
          "signs(F.scaled_dot_product_attention(q.double(), k.double(), v.double()))",
          "signs(F.scaled_dot_product_attention(q[:, :, :1], k, v))",
          "signs(F.scaled_dot_product_attention(q[:, :, :33], k, v))",
          "signs(F.scaled_dot_product_attention(q[..., :1], k[..., :1], v[..., :1]))",
          "signs(F.scaled_dot_product_attention(q.half(), k.half(), v.half()))"]),
    case("bce-weight-requires-grad-before-dtypes",  # (dt34 error-text:binary_cross_entropy) autograd's check
         # of a weight that requires grad comes before the kernel's check of the dtypes
         ["def err(f):\n    try:\n        return f()\n    except RuntimeError as e:\n        return str(e)",
          "x = torch.tensor([[-0.75, 2.75], [2.75, -2.75]], dtype=torch.float64).sigmoid()",
          "y = torch.tensor([[-0.75, 1.5], [2.75, 2.25]]).sigmoid()",
          "w = torch.tensor([[1.25, -0.25], [-0.25, 2.0]], requires_grad=True)"],
         ["err(lambda: F.binary_cross_entropy(x, y, w))", "err(lambda: F.binary_cross_entropy(y, x, w[0]))",
          "err(lambda: F.binary_cross_entropy(x, y, w.detach()))",
          "err(lambda: F.binary_cross_entropy(x.int(), x.int(), w))"]),
    case("masked-scatter-check-order",  # (dt34 error-text:masked_scatter_) masked_scatter_ checks the dtypes of
         # self and source, then expands the mask to self, then the mask's dtype; masked_scatter broadcasts
         # mask and self first
         ["def err(f):\n    try:\n        return f()\n    except RuntimeError as e:\n        return str(e)",
          "s = torch.tensor([0.5, 3.0])", "d = torch.zeros(2, 2, 3, 1, 1, dtype=torch.float64)"],
         ["err(lambda: d.clone().masked_scatter_(s > 0, s))", "err(lambda: d.masked_scatter(s > 0, s))",
          "err(lambda: torch.zeros(2).masked_scatter_(torch.ones(3, 2, dtype=torch.bool), s.double()))",
          "err(lambda: torch.zeros(2).masked_scatter_(torch.ones(3, 2), s))",
          "err(lambda: torch.zeros(2).masked_scatter(torch.ones(2), s.double()))",
          "err(lambda: torch.zeros(2, 3).masked_scatter_(torch.ones(3, dtype=torch.uint8), torch.zeros(6)))",
          "err(lambda: torch.zeros(2, 3).masked_scatter(torch.ones(4, dtype=torch.bool), torch.zeros(6).int()))",
          "err(lambda: d.clone().masked_scatter_(s > 0, s.double()))"]),
    case("half-silu-mish-backward-kernels",  # without create_graph silu's and mish's float16 gradients are
         # their backward kernels' (in float, Sleef's in the 16-half vector blocks, libm's in the tail)
         ["x = ((torch.arange(-700., 700.) * 7 % 1399 - 699) / 97).half().requires_grad_()",
          "g = ((torch.arange(1400.) * 5 % 13 - 6) / 3.7).half()",
          "gs, = torch.autograd.grad(F.silu(x), [x], g)", "gm, = torch.autograd.grad(F.mish(x), [x], g)",
          "t = x.detach()[:594].reshape(18, 33).t().requires_grad_()",
          "gt, = torch.autograd.grad(F.silu(t), [t], torch.full((33, 18), 1.37, dtype=torch.float16))"],
         ["gs.tolist()", "gm.tolist()", "gt.tolist()", "gt.stride()"]),
    case("half-scalar-arithmetic-and-rsqrt",  # float16 kernels: add/sub round a scalar operand to float16
         # first (mul/div read it in float); alpha: one fused multiply-add in float in the vector code, float16
         # steps in the scalar loop; rsqrt: 1 / sqrt in float (vector), 1 / float16 sqrt (scalar loop);
         # number ** tensor's gradient takes the log of the number as given, in double
         ["x = ((torch.arange(-700., 700.) * 7 % 1399 - 699) / 97).half()", "y = x.flip(0)",
          "p = (torch.arange(1., 301.) / 37).half().requires_grad_()", "g = ((torch.arange(300.) * 5 % 13 - 6) / 3.7).half()"],
         ["(x + 0.5306282510621704).tolist()", "(x - 0.1).tolist()", "(x[:13] + torch.tensor(0.53, dtype=torch.float64)).tolist()",
          "torch.add(x, y, alpha=0.3).tolist()", "torch.add(x[:13], y[:13], alpha=0.3).tolist()",
          "torch.sub(x, y, alpha=0.3).tolist()", "torch.add(x, 0.53, alpha=0.3).tolist()",
          "x.abs().rsqrt().tolist()", "x[:31].abs().rsqrt().tolist()",
          "torch.autograd.grad(1.7 ** p, [p], g)[0].tolist()", "torch.autograd.grad(0.3 ** p.float(), [p], g.float())[0].tolist()"]),
    case("empty-view-as-strided-backward-and-empty-mm-layout",  # (dt34 requires_grad:grad, grad_fn:grad)
         # as_strided_backward of a view with no elements gives new zeros (no history); an empty (1, 0)
         # matrix has PyTorch's contiguous strides (1, 1): mm's backward takes it as column-major
         [GRAPH, "x = torch.zeros(0).requires_grad_()", "r = x * 1", "v = r[:1].neg_()",
          "g, = torch.autograd.grad(torch.log1p(v).sum(), [x], create_graph=True)",
          "y = torch.ones(3).requires_grad_()",
          "h, = torch.autograd.grad(torch.log1p(torch.as_strided(y * 2, (2, 0), (1, 1))).sum(), [y], create_graph=True)",
          "z = torch.zeros(0, dtype=torch.float64).requires_grad_()",
          "k, = torch.autograd.grad(z.corrcoef().sum(), [z], create_graph=True)",
          "a = torch.zeros(1, 0, dtype=torch.float64).requires_grad_()", "b = torch.zeros(0, 3, dtype=torch.float64).requires_grad_()",
          "ga, gb = torch.autograd.grad((torch.mm(a, b) ** 2).sum(), [a, b], create_graph=True)"],
         ["(g.requires_grad, g.grad_fn)", "(h.requires_grad, h.tolist())", "graph(k.grad_fn)", "graph(ga.grad_fn)",
          "graph(gb.grad_fn)"]),
    case("regenerated-view-without-edge-backward",  # (dt34 raises-only-agrad:backward) a view whose base was
         # detached and changed in place regenerates AsStridedBackward0 with no next edge: backward through
         # it computes nothing (was a TypeError from agrad's formula)
         ["x1 = torch.tensor([0.25], dtype=torch.float64, requires_grad=True)", "v2 = x1.expand(2, 1)",
          "r4 = torch.detach_(x1)", "x1[None].relu_()", "v2.sum().backward()",
          "x = torch.tensor([0.25, 1.0], requires_grad=True)", "v = x[:1]", "torch.detach_(x)", "x.mul_(2)",
          "y = (v * 3).sum()", "y.backward()"],
         ["x1.grad", "(v2.requires_grad, v2.grad_fn.name())", "x.grad", "y.requires_grad"]),
]
