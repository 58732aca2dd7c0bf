"""Regression cases of issue 10's numeric groups left by seed 18000000's 20k run (helper "numeric"):
which elements PyTorch's loops give their vector code and which their scalar code, accumulation
dtypes and orders.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


_LAYOUTS = ("x[:3].expand(2, 3)", "x[:20].expand(3, 20)", "x[:5].reshape(5, 1).expand(5, 19)",
            "x[:77].reshape(7, 11).t()", "x[:60].reshape(3, 4, 5).permute(2, 0, 1)", "x[::2]",
            "x[:77].reshape(7, 11)[:, ::2]", "x[:66].reshape(3, 22)[::2, :19]", "x[5:40]", "x[:0]", "x[3:4]")

CASES = [
    case(f"scalar-tail-of-layouts-{fn}",  # (expanded inputs were scrambled: their result ravelled in another order)
         ["x = torch.linspace(-0.95, 0.95, 100, dtype=torch.float64)", "f = x.float()"],
         [f"{fn}({v}).tolist()" for v in _LAYOUTS] + [f"{fn}({v.replace('x[', 'f[')}).tolist()" for v in _LAYOUTS])
    for fn in ("torch.sinh", "torch.cosh", "torch.atanh")
]

CASES += [
    case("vector-lanes-of-layouts-activations",  # (the vector code's lanes were taken in flat C order)
         ["x = torch.linspace(-4, 4, 100)"],
         [f"{fn}({v}).tolist()" for fn in ("torch.sigmoid", "F.silu", "F.softplus") for v in _LAYOUTS[:8]]
         + [f"F.softshrink({v}, 0.5).tolist()" for v in _LAYOUTS[5:8]]),
]

CASES += [
    case("nan-signs-of-domain-errors",  # (signbit of a float32 xlogy(x, -1): PyTorch's NaN has its sign bit set)
         ["x = torch.tensor([-2., 2., 5., -1.5, float('-inf'), 3.] * 4)", "d = x.double()",
          "x4 = torch.tensor([[[3.0, -2.25], [1.5, 0.0]], [[-3.0, -3.0], [-2.75, 0.0]]]).mT"],
         [f"{e}.signbit().tolist()" for e in (
             "x4.xlogy(-1)", "x[:3].xlogy(-1)", "x.xlogy(-1)", "d.xlogy(-1)", "torch.xlogy(x, x)",
             "x.sqrt()", "d.sqrt()", "x[:3].sqrt()", "x.log2()", "x[:5].log2()", "(-x).log1p()", "(-d).log1p()",
             "(-x[:3]).log1p()", "x.atanh()", "x[:3].atanh()", "d.atanh()", "x.pow(0.5)", "d.pow(0.5)",
             "x[:3].pow(-0.5)", "x.log()", "x.asin()", "x.acos()")]),
]

CASES += [
    case("float16-log-softmax-last-dim",  # (the sum of exps and its log are rounded to float16 in PyTorch's kernel)
         ["x = torch.tensor([-1.75, 1.5, 3.0], dtype=torch.float64, requires_grad=True)",
          "h = torch.linspace(-3, 3, 37).half().reshape(1, 37)", "t = torch.tensor([0.0, -0.25, 1.5]).half()",
          "r = F.log_softmax(x, 0, dtype=torch.float16)", "g = torch.autograd.grad(r.sum(), [x], create_graph=True)"],
         ["r.tolist()", "g[0].tolist()", "F.log_softmax(h, -1).tolist()", "F.log_softmax(h.t(), 0).tolist()",
          "F.cross_entropy(t, t).item()", "torch.log_softmax(torch.tensor([0.75, -0.5]).half(), 0).tolist()"]),
]

CASES += [
    case("float16-sums-accumulate-in-float",  # (numpy adds float16 along an outer dim in float16)
         ["h = (torch.linspace(-2, 2, 60) ** 3).half().reshape(3, 4, 5)",
          "x3 = torch.tensor([[[-2.75, 2.25, 0.75]], [[1.75, -1.75, 0.5]], [[-1.5, 1.0, 1.0]]], dtype=torch.float16, "
          "requires_grad=True)",
          "y3 = torch.tensor([[[0.75, -2.75, -1.5]], [[-1.25, -2.25, -2.25]], [[-1.75, -2.0, -1.75]]], dtype=torch.float16)",
          "torch.cosine_similarity(x3, y3, dim=-3).sum().backward()"],
         ["h.sum(0).tolist()", "h.sum(1).tolist()", "h.sum((0, 1)).tolist()", "h.sum((0, 2)).tolist()",
          "h.nansum(0).tolist()", "h.mean(0).tolist()", "h.sum_to_size(1, 4, 1).tolist()", "x3.grad.tolist()"]),
]

CASES += [
    case("cross-product-fused-first-product",  # (PyTorch's kernel fuses a[i] * b[j] into the subtraction)
         ["x = torch.tensor([[1.0, -2.5, -1.25], [-1.75, -1.5, 1.25], [-1.75, 2.25, 3.0], [3.0, -0.25, 0.75]])",
          "r = x.asin()", "p = torch.linspace(-2, 2, 30).reshape(2, 3, 5) ** 3", "q = torch.linspace(3, -1, 15).reshape(3, 5)"],
         ["torch.linalg.cross(-r, r).tolist()", "torch.linalg.cross(p, q, dim=1).tolist()",
          "torch.linalg.cross(p.double(), q.double(), dim=-2).tolist()", "torch.cross(p.mT, q.mT, dim=-1).tolist()"]),
]

CASES += [
    case("float64-two-norm-over-the-last-dim",  # (ATen fuses each leftover square into the sum)
         ["x2 = torch.tensor([2.5, -3.0, 1.5], dtype=torch.float64, requires_grad=True)",
          "y2 = torch.tensor([2.75, -2.0, 2.5], dtype=torch.float64)",
          "r = torch.pairwise_distance(x2, y2)", "g = torch.autograd.grad(r.sum(), [x2], create_graph=True)",
          "sum(t.pow(2).sum() for t in g).backward()",
          "m = (torch.linspace(-3, 3, 70, dtype=torch.float64) ** 3).reshape(5, 14)"],
         ["r.item()", "g[0].tolist()", "x2.grad.tolist()", "torch.linalg.vector_norm(m, 2, -1).tolist()",
          "m.norm().item()", "torch.linalg.vector_norm(m[:, :7], 2, -1, keepdim=True).tolist()"]),
]

CASES += [
    case("fmod-remainder-nan-signs-of-vector-lanes",  # (Sleef's fmod in the vector code signs its NaNs otherwise)
         ["v = torch.tensor([float('inf'), float('-inf'), 3.0, -3.0, 0.0, -0.0, float('nan'), -float('nan')])",
          "a = v.reshape(8, 1).expand(8, 8).reshape(64)", "b = v.repeat(8)", "f = torch.tensor([3.0, -1e30, 1e10, 2.0] * 4)",
          "g = torch.tensor([1e-40, 1e-30, -1e-30, 0.5] * 4)"],
         [f"{e}.signbit().tolist()" for e in (
             "torch.fmod(a, b)", "torch.fmod(a.double(), b.double())", "torch.remainder(a, b)",
             "torch.remainder(a.double(), b.double())", "torch.fmod(a[:7], b[:7])", "torch.fmod(a[40:47], b[40:47])",
             "torch.fmod(a[:20], b[:20])", "(a % float('nan'))", "(a % 0.0)", "(a.double() % float('nan'))",
             "(a.reshape(8, 8).t() % b.reshape(8, 8))", "(2.0 % a)")]
         + ["torch.fmod(f, g).tolist()", "torch.fmod(f[:5], g[:5]).tolist()", "torch.remainder(f, g).tolist()",
            "torch.fmod(f.double() * 1e280, g.double() * 1e-280).tolist()"]),
]

CASES += [
    case("logit-nan-signs-of-its-paths",  # (MKL's log for a dense input, Sleef's and libm's lanes otherwise)
         ["v = torch.tensor([-0.5, 1.5, -0.0, 0.0, 1.0, 2.0, -3.0, float('nan'), -float('nan'), float('inf'),"
          " -float('inf'), 0.25] * 4)", "d = v.double()"],
         [f"{e}.signbit().tolist()" for e in (
             "v.logit()", "d.logit()", "v[:3].logit()", "v[::2].logit()", "d[::2].logit()", "v[:1].expand(20).logit()",
             "d[1:2].expand(20).logit()", "v[7:8].expand(19).logit()", "v.reshape(4, 12).t()[::2].logit()",
             "v.logit(0.1)", "v[::2].logit(0.1)", "v[8:9].expand(20).logit(0.1)")]
         + ["v[11:12].expand(20).logit().tolist()", "v[:12].reshape(3, 4).t().logit().tolist()"]),
]

CASES += [
    case("float64-silu-mish-kernel-steps",  # (agrad took x * sigmoid(x) and x * tanh(logaddexp(0, x)))
         ["x = torch.linspace(-9, 9, 61, dtype=torch.float64) ** 3 / 40"],
         ["F.silu(x[6:]).tolist()", "F.mish(x[6:22]).tolist()", "F.silu(x[:5]).tolist()", "F.silu(x[::2]).tolist()"]),
]

CASES += [
    case("silu-mish-backward-kernels",  # (first-order gradients took the differentiable formula's steps)
         ["x = (torch.linspace(-6, 6, 53, dtype=torch.float64) ** 3 / 20).requires_grad_()",
          "g = torch.linspace(-1, 1, 53, dtype=torch.float64)",
          "f = x.detach().float().requires_grad_()", "gf = g.float()"],
         ["torch.autograd.grad(F.silu(x), x, g)[0].tolist()", "torch.autograd.grad(F.mish(x), x, g)[0].tolist()",
          "torch.autograd.grad(F.silu(x[::2]), x, g[::2])[0].tolist()",
          "torch.autograd.grad(F.mish(x[:20].expand(2, 20)), x, g[:40].reshape(2, 20))[0].tolist()",
          "torch.autograd.grad(F.silu(f), f, gf)[0].tolist()", "torch.autograd.grad(F.silu(f[1:]).sum(), f)[0].tolist()",
          "F.mish(x[:37]).tolist()", "F.silu(x[5:]).tolist()", "F.mish(f).tolist()",
          "torch.autograd.grad(F.mish(f), f, gf)[0].tolist()",
          "torch.autograd.grad(F.mish(f[:48].reshape(3, 16)), f, gf[:1].expand(3, 16))[0].tolist()",
          "torch.autograd.grad(F.mish(f[:48].reshape(3, 16).t()), f, gf[:48].reshape(16, 3))[0].tolist()",
          "F.mish(f[::2]).tolist()", "F.mish(torch.tensor([-1e-30, 1e-8, -2.5e-4, 30.0, -90.0, 0.0, -0.0]).repeat(3)).tolist()",
          "torch.autograd.grad(F.silu(x), x, g, create_graph=True)[0].grad_fn.name()",
          "torch.autograd.grad(F.mish(x), x, g, create_graph=True)[0].grad_fn.name()"]),
]

CASES += [
    case("atan2-float32-sleef-and-glibc",  # (agrad took numpy's float32 arctan2: 39% of random pairs an ulp off)
         ["y = torch.linspace(-3, 3, 37) ** 3", "x = torch.linspace(2.5, -2, 37) ** 5",
          "s = torch.tensor([0.0, -0.0, float('inf'), float('-inf'), float('nan'), 1.0, -1.0, 1e-40])",
          "S = s.repeat(8)", "T = s.repeat_interleave(8)"],
         ["torch.atan2(y, x).tolist()", "torch.atan2(y[::2], x[::2]).tolist()",
          "torch.atan2(y[:36].reshape(6, 6).t(), x[:36].reshape(6, 6)).tolist()",
          "torch.atan2(y[:32].reshape(2, 16), x[:16]).tolist()", "y.atan2(x[5]).tolist()",
          "torch.atan2(S, T).tolist()", "torch.atan2(S, T).signbit().tolist()",
          "torch.atan2(S[:63], T[:63]).signbit().tolist()", "torch.atan2(S[::3], T[::3]).tolist()",
          "torch.atan2(S[::3], T[::3]).signbit().tolist()"]),
]

CASES += [
    case("float16-fmod-remainder-nan-signs",  # (float16 NaN signs were numpy's: the vector code is Sleef's float code)
         ["v = torch.tensor([0.0, -0.0, float('inf'), float('-inf'), float('nan'), 1.5, -2.0, 65504.0], dtype=torch.float16)",
          "a = v.repeat(8)", "b = v.repeat_interleave(8)", "n = -a"],
         [f"{e}.signbit().tolist()" for e in (
             "torch.fmod(a, b)", "torch.remainder(a, b)", "torch.fmod(n, b)", "torch.fmod(a[:40], b[:40])",
             "torch.fmod(a, 0.0)", "torch.remainder(n, float('nan'))", "torch.fmod(a[::2], b[::2])",
             "torch.remainder(a.reshape(2, 32), b[:32])", "torch.remainder(5.0, b)")]),
]

CASES += [
    case("float64-logit-sleef-and-glibc-log",  # (the vector code's Sleef log and the scalar loop's glibc log were taken as correctly rounded)
         ["p = torch.arange(1, 1202, dtype=torch.float64) / 1202"],
         ["p[::2].logit().tolist()", "p[:1200].reshape(40, 30)[:, :19].logit().tolist()", "p[7:27].expand(3, 20).logit(0.25).tolist()"]),
]

CASES += [
    case("elu-selu-celu-sleef-expm1",  # (agrad took numpy's expm1: the vector code's is Sleef's expm1f8/expm1d4_u10)
         ["x = torch.arange(-1000, 1001, dtype=torch.float64) / 97", "f = x.float()"],
         [f"F.{fn}({v}).tolist()" for fn in ("elu", "selu") for v in ("x", "f", "x[::3]", "f[5:]")]
         + ["F.celu(f[:1001], 0.5).tolist()", "F.elu(x[:1003], 2.0).tolist()", "torch.expm1(x[:99]).tolist()",
            "F.elu(torch.tensor([0.0, -0.0, -1.75, 1.75] * 5), -1.5).signbit().tolist()"]),
    case("elu-selu-celu-backward-kernel",  # (agrad folded the constants into one and took numpy's exp; celu's scale 1/alpha)
         ["x = (torch.arange(-500, 501, dtype=torch.float64) / 97).requires_grad_()", "f = x.detach().float().requires_grad_()",
          "g = (torch.arange(1001, dtype=torch.float64) % 17 - 8) / 3", "gf = g.float()", "n = torch.tensor([float('nan'), -1.0] * 10, requires_grad=True)"],
         [f"torch.autograd.grad(F.{fn}, {v}, {w})[0].tolist()" for fn, v, w in (
             ("elu(x, 0.7)", "x", "g"), ("selu(x)", "x", "g"), ("celu(x, 1.3)", "x", "g"), ("celu(x[::2], 1.3)", "x", "g[::2]"),
             ("elu(f, 0.7)", "f", "gf"), ("selu(f[3:])", "f", "gf[3:]"), ("celu(f[::3], 0.3)", "f", "gf[::3]"),
             ("elu(n[::2])", "n", "torch.ones(10)"), ("elu(n)", "n", "torch.ones(20)"))]),
]

CASES += [
    case("softplus-kernels-sleef-exp",  # (float64 took logaddexp, the gradients numpy's exp)
         ["x = (torch.arange(-500, 501, dtype=torch.float64) / 37).requires_grad_()", "f = x.detach().float().requires_grad_()",
          "g = (torch.arange(1001, dtype=torch.float64) % 17 - 8) / 3", "gf = g.float()"],
         ["F.softplus(x).tolist()", "F.softplus(x[::2], 0.7, 3.1).tolist()",
          "torch.autograd.grad(F.softplus(x), x, g)[0].tolist()", "torch.autograd.grad(F.softplus(f, 2.0), f, gf)[0].tolist()",
          "torch.autograd.grad(F.softplus(f[::3], 1.5, 0.1), f, gf[::3])[0].tolist()"]),
]

CASES += [
    case("logsigmoid-kernels-sleef",  # (float64 took numpy's exp/log1p; float32 gradients were computed in double; NaN's sign)
         ["x = (torch.arange(-500, 501, dtype=torch.float64) / 37).requires_grad_()", "f = x.detach().float().requires_grad_()",
          "g = (torch.arange(1001, dtype=torch.float64) % 17 - 8) / 3", "gf = g.float()",
          "n = torch.tensor([float('nan'), 1.0, -2.0] * 6)"],
         ["F.logsigmoid(x).tolist()", "F.logsigmoid(x[::3]).tolist()", "torch.autograd.grad(F.logsigmoid(x), x, g)[0].tolist()",
          "torch.autograd.grad(F.logsigmoid(f), f, gf)[0].tolist()", "torch.autograd.grad(F.logsigmoid(f[::2]), f, gf[::2])[0].tolist()",
          "F.logsigmoid(n).signbit().tolist()", "F.logsigmoid(n.double()).signbit().tolist()", "F.logsigmoid(n.half()).signbit().tolist()"]),
]

CASES += [
    case("tanh-one-element-float64",  # (a one-element float64 tanh took numpy's tanh, an ulp off in a fifth of values;
         # the backward's 1 - y² showed it: dt30 seed 30000000's grad-numeric:backward)
         ["vals = [v / 16 for v in range(-60, 61) if v]"],
         ["[torch.tanh(torch.tensor([v], dtype=torch.float64)).item() for v in vals]",
          "[torch.autograd.grad(torch.tanh(x), x)[0].item() for x in "
          "(torch.tensor([v], dtype=torch.float64, requires_grad=True) for v in vals)]",
          "[torch.tensor([v], dtype=torch.float64).tanh().item() for v in vals]"]),
]

CASES += [
    case("erf-kernel-empty-range",  # (a float64 erfinv whose tail was empty raised an internal UnboundLocalError)
         ["x = torch.tensor([0.5, -0.25], dtype=torch.float64, requires_grad=True)"],
         ["torch.special.erfinv(x * 1)", "torch.erf(torch.zeros(0, dtype=torch.float64))", "torch.erfc(torch.zeros(2, 0))",
          "torch.special.erfinv(torch.zeros(0))", "torch.autograd.grad(torch.erfinv(x).sum(), x)[0]"]),
]
