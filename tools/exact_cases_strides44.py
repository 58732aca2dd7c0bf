"""Regression cases of helper "strides44" (session 44): the strides of empty results made like their
input, of TensorIterator outputs over numbers, of resized outs and of accumulated gradients.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    case("empty-strides-made-like-input",  # results ATen allocates with empty_like(self) keep an empty input's very
         # strides: frexp's two outputs, the *_like samplers (randn_like of an expand keeps its 0), roll of a
         # 1-D tensor without dims
         ["x = torch.zeros(0)[::2]", "v = torch.zeros(0, dtype=torch.float64).expand(2, 0)",
          "torch.manual_seed(0)",
          "strides = [t.stride() for t in (*x.frexp(), torch.randn_like(v, dtype=torch.float16), torch.rand_like(v),"
          " torch.randint_like(v, 3), torch.randn_like(x), torch.bernoulli(v), x.roll(1), torch.zeros(0, 3).t().roll(1))]"],
         ["strides"]),
    case("empty-strides-number-operand",  # a number is a 0-d operand of TensorIterator's: operands of two
         # shapes, so no fast set-up: the output's strides are products of the sizes in its order of the dims
         ["x = torch.zeros(2, 1, 1)[:, 1:]", "y = torch.zeros(0, 3).t()",
          "strides = [t.stride() for t in (torch.special.chebyshev_polynomial_v(x, 1), torch.fmod(y, 2),"
          " y.remainder(1.5), torch.xlogy(y, 2), torch.special.hermite_polynomial_h(y, 2), x.copysign(-1),"
          " torch.clamp(x, x), torch.clamp(x, None, x))]"],
         ["strides"]),
    case("empty-strides-resized-outs",  # an out= TensorIterator resizes takes the strides it computes (the
         # chebyshev_polynomial_v of dt43e: (0, 1, 0)); ops that allocate like self without out= (nan_to_num,
         # deg2rad, hardshrink) lay a resized out out as that iterator does; resize_output + copy_ kernels
         # (cholesky_solve, matrix_power, cholesky_inverse into an out with elements) are C-ordered
         ["import warnings", "warnings.simplefilter('ignore')",
          "x = torch.zeros(2, 1, 1)[:, 1:]", "y = torch.zeros(0)[::2]", "z = torch.zeros(0, 3).t()",
          "m = torch.eye(2).expand(0, 2, 2)", "n = torch.eye(2).expand(2, 2, 2).contiguous()",
          "outs = [torch.tensor([0.0]) for _ in range(13)]",
          "with torch.no_grad():\n"
          "    torch.special.chebyshev_polynomial_v(x, 1, out=outs[0])\n"
          "    torch.add(x, 1, out=outs[1])\n"
          "    torch.nan_to_num(y, out=outs[2])\n"
          "    torch.deg2rad(y, out=outs[3])\n"
          "    torch.deg2rad(z, out=outs[4])\n"
          "    torch.hardshrink(z, out=outs[5])\n"
          "    torch.clamp(x, x, out=outs[6])\n"
          "    torch.cholesky_solve(n, n, out=outs[7])\n"
          "    torch.cholesky_inverse(n, out=outs[8])\n"
          "    torch.matrix_power(m, 1, out=outs[9])\n"
          "    torch.cholesky_inverse(n, out=outs[10].resize_(0))\n"
          "    torch.eq(z, 1, out=outs[11])\n"
          "    torch.msort(y, out=outs[12])",
          "strides = [o.stride() for o in outs]"],
         ["strides"]),
    case("empty-strides-gradients-accumulated",  # gradients of empty inputs: log_sigmoid_backward writes into
         # empty_like(grad_output) (the seed's expand: 0); zeros_like(grad) keeps grad's strides (sign, fill);
         # an input's zeros_like(self) of a real angle keeps self's; poisson's and normal's zeros are
         # contiguous; two gradients of one input: the older one, its storage's own, takes the other in place
         # (clamp(x, x): (0, 1, 0)), one gradient passed on twice or views of it are added (x - x, x.mT + x.mT)
         ["x1 = torch.zeros(0).requires_grad_()", "r2 = torch.feature_dropout(x1, 0.0, False)",
          "gs = torch.autograd.grad(torch.nn.functional.logsigmoid(r2).sum(), [x1, r2], create_graph=True)",
          "w = torch.zeros(0)[::2].requires_grad_()", "x = torch.zeros(2, 1, 1)[:, 1:].requires_grad_()",
          "y = torch.zeros(0, 3).t().requires_grad_()",
          "g = lambda f, t, c=False: torch.autograd.grad(f(t).sum(), t, create_graph=c)[0].stride()",
          "strides = [t.stride() for t in gs] + [g(torch.sign, w), g(lambda t: torch.fill(t, 1.), w),"
          " g(torch.angle, w), g(torch.poisson, y), g(torch.normal, y), g(lambda t: torch.clamp(t, t), x),"
          " g(lambda t: torch.clamp(t, t), x, True), g(lambda t: t - t, x), g(lambda t: t.mT + t.mT, y),"
          " g(lambda t: torch.pow(t, t), x), g(lambda t: t.roll(1), w)]"],
         ["strides"]),
    case("empty-strides-kernels-empty-paths",  # kernels' own paths for an empty input: torch.cholesky's
         # empty_like(contiguous), matrix_power's contiguous clone (n = 0, 1), svd's S C-ordered, _cdist_backward's
         # zeros_like(x1), pixel_unshuffle's self.clone() (the input's shape too: the gradient then fails the
         # engine's shape check), pixel_shuffle's output in the input's suggested format, ndtr's last mul by a
         # number over a tensor whose stride-0 dims decide nothing
         ["import warnings", "warnings.simplefilter('ignore')",
          "t = torch.zeros(2, 0, 3)[:, :, ::2].transpose(0, 1)", "p = torch.zeros(2, 0, 3).permute(2, 0, 1)",
          "v = torch.zeros(0).expand(2, 0).requires_grad_()", "x = torch.zeros(2, 1, 1)[:, 1:].requires_grad_()",
          "u = torch.zeros(1, 4, 0, 2).requires_grad_()",
          "strides = [r.stride() for r in (torch.cholesky(t), torch.matrix_power(t, 1), torch.matrix_power(t, 0),"
          " torch.linalg.svd(torch.zeros(2, 3, 0, 4))[1], torch.linalg.svdvals(torch.zeros(2, 0, 4)),"
          " torch.autograd.grad(torch.cdist(v, v).sum(), v)[0], torch.pixel_unshuffle(p, 1),"
          " torch.pixel_unshuffle(p, 2), torch.autograd.grad(torch.pixel_shuffle(x, 1).sum(), x)[0],"
          " torch.special.ndtr(x), torch.autograd.grad(torch.special.ndtr(x).sum(), x)[0])]",
          "shape = torch.pixel_unshuffle(u, 2).shape",
          "torch.autograd.grad(torch.pixel_unshuffle(u, 2).sum(), u)"],
         ["strides", "shape"]),
    case("ldexp-inplace-other-a-view-of-self",  # ldexp_ is self.mul_(pow(2.0, other)): other (here self's own
         # transpose) is read into a new tensor before any write, no element-by-element overlap (run 42303000)
         ["x2 = torch.tensor([[2.0, 1.25], [1.25, 2.0]], dtype=torch.float32)", "v3 = x2.t()",
          "r4 = torch.sin_(x2)", "r5 = r4.ldexp_(v3)",
          "y = torch.tensor([[0.5, -1.0, 2.0], [3.0, 0.25, -2.0], [1.0, 1.5, 0.0]], dtype=torch.float64)",
          "y.ldexp_(y.t())"],
         ["r5.tolist()", "y.tolist()"]),
    case("channel-shuffle-empty",  # channel_shuffle_cpu: an empty input's copy keeps its strides; the backward is
         # channel_shuffle(grad, C / groups) with its checks: no channels gives 0 groups, refused
         ["p = torch.zeros(2, 0, 3).permute(2, 0, 1).requires_grad_()", "x = torch.zeros(2, 1, 1)[:, 1:].requires_grad_()",
          "c = torch.zeros(2, 4, 0, 3).contiguous(memory_format=torch.channels_last).requires_grad_()",
          "strides = [torch.channel_shuffle(p, 1).stride(), torch.channel_shuffle(c, 2).stride(),"
          " torch.native_channel_shuffle(c, 2).stride(),"
          " torch.autograd.grad(torch.channel_shuffle(c, 2).sum(), c)[0].stride()]",
          "torch.autograd.grad(torch.channel_shuffle(x, 1).sum(), x)"],
         ["strides"]),
]
