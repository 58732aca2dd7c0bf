"""Regression cases of session 35's groupsa work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import GRAPH, case


CASES = [
    case("set-view-then-inplace-view-of-it",  # (end run raises-only-agrad:setitem) a view that set_ gave other
         # memory stays a view of its base to autograd: an in-place op on a view of it writes that memory (the
         # base keeps its values), its CopySlices reads the base's gradient through the view's geometry
         # (as_strided: refused where that reaches past the base)
         [GRAPH, "a = torch.arange(12., requires_grad=True)", "b = a * 1", "r6 = b[4:8]",
          "t = torch.tensor([5.0, 6.0, 7.0])",
          "with torch.no_grad():\n    r6.set_(source=t)", "r7 = r6[1:]", "r7[None] = -2.0",
          "r7.mul_(3.0)", "b.sum().backward(retain_graph=True)",
          "a2 = torch.arange(4., requires_grad=True)", "b2 = a2 * 1", "v = b2[1:3]",
          "with torch.no_grad():\n    v.set_(source=torch.arange(10.))", "w = v[5:]", "w.mul_(-2.0)",
          "def err(f):\n    try:\n        return f()\n    except RuntimeError as e:\n        return str(e)"],
         ["b", "r6", "r7", "t", "graph(b.grad_fn)", "a.grad", "b2", "v", "w",
          "err(lambda: b2.sum().backward())", "w.sum()"]),
    case("set-view-with-grad-then-setitem",  # (end run raises-only-agrad:setitem) set_ recorded on a view,
         # then setitem on a view of it: values and nodes; backward meets set_'s missing derivative
         ["a = torch.arange(12., requires_grad=True)", "b = a * 1", "r6 = b[4:8]",
          "t = torch.tensor([5.0, 6.0, 7.0])", "r6.set_(source=t)", "r7 = r6[1:]", "r7[None] = -2.0",
          "def err(f):\n    try:\n        return f()\n    except RuntimeError as e:\n        return str(e)"],
         ["b", "r6", "r7", "t", "err(lambda: b.sum().backward())"]),
    case("group-norm-backward-kernel-order",  # (end run grad-value:backward) ATen's GroupNormBackward kernel:
         # ds/db per channel (map2_reduce_all), CalcDsDb's lanes then the channels past them (fused; with N * G
         # == 1 parallel_for's inline copy: unfused blocks of half a register first), c2/c3 contracted as the
         # compiler does, dX = fma(c1, dY, c2 X) + c3; dgamma/dbeta summed over the batch from zero
         ["torch.manual_seed(7)",
          "def bits(shape, groups, dt, weight):\n"
          "    x = torch.randn(shape, dtype=dt).requires_grad_()\n"
          "    w = torch.randn(shape[1], dtype=dt).requires_grad_() if weight else None\n"
          "    g = torch.randn(shape, dtype=dt)\n"
          "    ins = [x] + ([w] if weight else [])\n"
          "    return [t.tolist() for t in torch.autograd.grad(F.group_norm(x, groups, w), ins, g)]",
          "r = [bits(s, G, dt, wt) for dt in (torch.float32, torch.float64) for s, G in [((1, 4), 2), ((1, 4), 1),"
          " ((1, 6, 5), 1), ((2, 6), 3), ((1, 7), 1), ((2, 4, 3, 3), 2), ((3, 16, 9), 4), ((2, 8, 17), 2),"
          " ((1, 12, 7), 1), ((1, 10, 2), 1)] for wt in (False, True) for _ in range(3)]"],
         ["r"]),
    case("reduce-all-nan-sign-histc-text",  # (end run error-text:histc) max()/min()/aminmax() over a dense
         # float/double/half tensor of 2 or more elements give AVX2's all-ones (negative) NaN, a single element or
         # a strided input its own NaN; histc prints the range's NaN with that sign ("nan" from cov's 0/0)
         ["pn = abs(torch.tensor(float('nan')))",
          "def err(f):\n    try:\n        return f()\n    except RuntimeError as e:\n        return str(e)",
          "def signs(x):\n    a, b = x.aminmax()\n"
          "    return [bool(torch.signbit(t)) for t in (a, b, x.max(), x.min(), x.amax(), x.reshape(-1).aminmax(dim=0)[1])]",
          "xs = [torch.arange(float(n), dtype=dt) for n in (1, 2, 3, 9, 40) for dt in (torch.float32, torch.float64,"
          " torch.float16)]",
          "for x in xs:\n    x[x.numel() // 2] = pn",
          "m = torch.arange(12.).reshape(3, 4)", "m[1, 2] = pn",
          "c = torch.cov(torch.tensor([[1.0, 1.0]]), correction=2)",
          "c2 = torch.cov(torch.tensor([[1.0, float('nan')]]), correction=1)"],
         ["[signs(x) for x in xs]", "signs(m.t())",
          "[bool(torch.signbit(t)) for t in (m[:, ::2].max(), m[:, ::2].aminmax()[0], m.t().max())]",
          "[err(lambda: torch.histc(x)) for x in xs if x.dtype != torch.float16]",
          "err(lambda: torch.histc(c))", "err(lambda: torch.histc(c2))", "err(lambda: torch.histc(-c))",
          "err(lambda: torch.histc(m[:, ::2]))", "err(lambda: torch.histogram(xs[4], 3))"]),
    case("python-int-past-64-bits-and-generator-type",  # (end run error-text:add_, error-text:rand) a Python
         # int that no Scalar holds (under -2**63, 2**64 or more): the parser's OverflowError; a generator= of
         # another type: the parser's TypeError (one signature: 'must be torch.Generator', several: the list)
         ["def err(f):\n    try:\n        return f()\n    except Exception as e:\n"
          "        return type(e).__name__ + ': ' + str(e)",
          "x = torch.ones(2)", "i = torch.ones(2, dtype=torch.int64)"],
         ["[[err(f) for f in (lambda: x.add_(v), lambda: x + v, lambda: v - x, lambda: x * v, lambda: i + v,"
          " lambda: x.div_(v), lambda: x.pow(v), lambda: x.add(1, alpha=v), lambda: x.sub(v), lambda: x > v,"
          " lambda: x.fill_(v))] for v in (2**64, -2**63 - 1, 2**70, 2**63)]",
          "err(lambda: torch.rand(3, generator=5))", "err(lambda: torch.randn(3, generator='a'))",
          "err(lambda: torch.ones(3).uniform_(generator=5))",
          "err(lambda: torch.multinomial(torch.ones(3), 2, generator=1.5))",
          "err(lambda: torch.randint(5, (2,), generator=[1]))", "err(lambda: torch.randperm(4, generator=3))",
          "err(lambda: torch.normal(0., 1., (2,), generator=3))",
          "err(lambda: torch.bernoulli(torch.ones(2), generator=3))",
          "torch.rand(2, generator=torch.Generator().manual_seed(3))",
          "torch.randperm(3, generator=torch.Generator().manual_seed(1))"]),
    case("addmm-one-term-into-c-keeps-negative-zero",  # (end run value:conv_tbc) a one-term product (k = 1)
         # added into C (beta not 0) is the plain product, -0.0 kept, for one row or one column as for more:
         # addmm/addmm_ and conv_tbc's taps (addmm_ into the bias rows)
         ["def sb(t):\n    return torch.signbit(t).int().flatten().tolist()",
          "def case(m, n, beta, alpha, dt):\n    c = torch.full((m, n), -0.0, dtype=dt)\n"
          "    a = torch.tensor([(-0.0 if i % 2 == 0 else 0.0) for i in range(m)], dtype=dt).reshape(m, 1)\n"
          "    b = torch.tensor([(1.0 if j % 2 == 0 else -1.0) for j in range(n)], dtype=dt).reshape(1, n)\n"
          "    return [sb(torch.addmm(c, a, b, beta=beta, alpha=alpha)), sb(c.clone().addmm_(a, b, beta=beta,"
          " alpha=alpha)), sb(torch.addmm(c, a, b, beta=0, alpha=alpha))]",
          "x = torch.tensor([[[-2.0], [-2.0]], [[-0.0], [0.0]], [[0.0], [-0.0]]], requires_grad=True)",
          "w = torch.tensor([[[1.0]]], requires_grad=True)", "b = torch.tensor([-0.0], requires_grad=True)",
          "y = torch.conv_tbc(x, w, b, 1)",
          "gx, gw, gb = torch.autograd.grad(y, (x, w, b), torch.full_like(y, -0.0))"],
         ["[case(m, n, be, al, dt) for dt in (torch.float32, torch.float64) for m, n in ((1, 1), (2, 1), (1, 3),"
          " (9, 1), (2, 2), (3, 4)) for be, al in ((1, 1), (1, -1), (0.5, 2))]", "sb(y)", "y",
          "[sb(gx), sb(gw), sb(gb)]"]),
    case("unsqueeze-inplace-strides-gelu-onednn-zero",  # (dt35 groupsa value:dim_order, repr:round)
         # unsqueeze_ takes unsqueeze's strides (the new dim: the next dim's size times its stride, 1 at the
         # end; the others kept); oneDNN's exact gelu of a contiguous float32 tensor of 2 or more elements
         # gives +0.0 for its zeros (of -0.0, and far below zero), the kernel elsewhere -0.0
         ["x4 = torch.tensor([[[-3]], [[3]], [[-2]]], dtype=torch.int64)", "v5 = x4.transpose(0, -1)",
          "r7 = v5.unsqueeze_(2)", "z = torch.zeros(1, 3)[:, ::2]", "z2 = z.clone()",
          "def fresh():\n    return torch.zeros(2, 1, 3).transpose(0, 2)",
          "x = torch.tensor([-0.0, 0.0, -1e-30, -1e-40, -1e-10, -1.0, -10.0, -20.0, -50.0, -100.0, -0.0, 3.0])",
          "def sb(t):\n    return torch.signbit(t).int().tolist()"],
         ["r7.stride()", "r7.dim_order()", "z.unsqueeze_(2).stride()", "z2.unsqueeze_(0).stride()",
          "[fresh().unsqueeze_(d).stride() for d in range(4)]",
          "[sb(F.gelu(t)) for t in (x, x[:1], x[::2], x.double(), x.half())]",
          "[sb(F.gelu(t, approximate='tanh')) for t in (x, x[::2])]", "sb(F.gelu(x).round())"]),
]
