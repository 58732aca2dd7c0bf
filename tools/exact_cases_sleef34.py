"""Regression cases of session 34's helper "sleef": pow through Sleef's powf8_u10 / powd4_u10 where
PyTorch's loop runs its vector code, glibc's pow in its scalar loop (ops/_sleef_pow.py).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
Each tensor of 37 elements is two vector blocks (16 floats, or 4 blocks of 8 doubles) and a scalar tail
of 5: both codes show.
"""

from __future__ import annotations

from exact_case_form import GRAPH, case


_SPECIALS = ("[0.0, -0.0, float('inf'), float('-inf'), float('nan'), 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0,"
             " 1e-40, 1e30, -1e30, 2.5, -2.5]")


def _forms(dtype: str) -> list[str]:
    return [f"x = ((torch.arange(37.) * 7 % 23 + 0.5) / 3.7).to({dtype})",
            f"n = ((torch.arange(37.) * 5 % 17 - 8) / 1.3).to({dtype})",
            f"e = ((torch.arange(37.) * 3 % 11 - 5) / 2.9).to({dtype})",
            f"k = (torch.arange(37.) % 7 - 3).to({dtype})",
            "p1 = x.pow(1 / 3)", "p2 = x ** 0.7", "p3 = x.pow(-1.3)", "p4 = x ** 2.5", "p5 = x ** 4",
            "p6 = x.pow(e)", "p7 = n.pow(k)", "p8 = 2.0 ** e", "p9 = 3.3 ** x.reshape(1, 37).t()",
            "q = x.reshape(37, 1).expand(37, 5).t()", "p10 = q ** 1.7", "p11 = q.contiguous() ** 1.7",
            "p12 = x[::2] ** 0.3", "w = x.clone()", "w.pow_(0.9)", "p13 = torch.pow(x, torch.tensor(0.7, dtype=x.dtype))",
            f"s = torch.tensor({_SPECIALS}, dtype={dtype})", "S = s.reshape(18, 1).expand(18, 18).contiguous()",
            "p14 = S.pow(S.t())", "p15 = torch.float_power(x, 0.3)"]


def cases(graph: str) -> list[dict]:
    shows = ["p1.tolist()", "p2.tolist()", "p3.tolist()", "p4.tolist()", "p5.tolist()", "p6.tolist()",
             "p7.tolist()", "p8.tolist()", "p9.tolist()", "p10.tolist()", "p11.tolist()", "p12.tolist()",
             "w.tolist()", "p13.tolist()", "p14.tolist()", "torch.signbit(p14).tolist()", "p15.tolist()"]
    return [
        case("pow-sleef-float32-vector-and-tail", _forms("torch.float32"), shows),
        case("pow-sleef-float64-vector-and-tail", _forms("torch.float64"), shows),
        case("sleef-exp2-expm1-log1p-sigmoid",  # exp2 and float64 sigmoid: Sleef's in the vector blocks,
             # glibc's in the tail; expm1 and log1p: Sleef's for every element (vec::map); double exp finite
             # up to ln(DBL_MAX); float32 log1p of d > 1e38 is logf(d), NaN signs as Sleef's
             ["a = (torch.arange(37.) * 7 % 23 - 11) * 1.37", "b = a.double()",
              "c = (torch.arange(37.) * 5 % 17 + 0.25) / 3.1 - 0.8", "d = c.double()",
              "w = torch.tensor([-709.7827125, -709.78271, -709.7827129] + [-700.5] * 13, dtype=torch.float64)",
              "v = torch.tensor([3e38, float('nan'), -3.0, -float('nan'), 1.5e38] + [0.5] * 11)",
              "p = torch.full((8,), 2.0, dtype=torch.float64) ** torch.full((8,), 709.7827125 / 0.6931471805599453,"
              " dtype=torch.float64)"],
             ["a.exp2().tolist()", "b.exp2().tolist()", "a.expm1().tolist()", "b.expm1().tolist()",
              "c.log1p().tolist()", "d.log1p().tolist()", "b.sigmoid().tolist()", "F.silu(b).tolist()",
              "w.sigmoid().tolist()", "v.log1p().tolist()", "torch.signbit(v.log1p()).tolist()", "p.tolist()",
              "torch.exp2(a.reshape(1, 37).expand(3, 37).t()).tolist()"]),
        case("sleef-sinh-cosh-vector-and-tail",  # Sleef's sinhf8/coshf8/atanhf8 (d4) in the vector
             # blocks, glibc's sinh/cosh in the tail; inf beyond 89 (710), a NaN the all-ones NaN
             ["a = (torch.arange(37.) * 7 % 23 - 11) * 0.83", "b = a.double()",
              "s = torch.tensor([88.9, 89.0, 89.5, -89.5, float('nan'), float('inf'), -0.0, 1e-40] * 2)",
              "r = (torch.arange(600.) * 7 % 23 - 11).reshape(20, 30) * 0.41",
              "x = b.clone().requires_grad_()", "g, = torch.autograd.grad(x.sinh().sum() + x.cosh().sum(), x)"],
             ["a.sinh().tolist()", "a.cosh().tolist()", "b.sinh().tolist()", "b.cosh().tolist()", "s.sinh().tolist()",
              "torch.signbit(s.sinh()).tolist()", "s.cosh().tolist()", "s.double().sinh().tolist()",
              "r.t().sinh().tolist()", "r.t().sinh().stride()", "r[:, ::2].cosh().tolist()", "g.tolist()",
              "(a / 11.5).atanh().tolist()", "(b / 11.5).atanh().tolist()", "torch.signbit((a / 9).atanh()).tolist()",
              "(r / 4.6).t().atanh().tolist()"]),
        case("pdist-sleef-pow",  # pdist's map: Sleef's pow of every column's |x_i - x_j| (tail lanes too), then
             # std::pow(agg, 1.0 / p) with p a scalar_t (float32: 1 / float(0.7))
             ["x = ((torch.arange(99.) * 7 % 23 - 11) / 3.7).reshape(9, 11)", "y = x.double()"],
             ["[torch.pdist(x, p).tolist() for p in (0.7, 1.5, 2.5, 3.0)]",
              "[torch.pdist(y, p).tolist() for p in (0.7, 1.5, 2.5, 3.0)]"]),
        case("pow-sleef-gradients",  # pow's backward takes pow again (exponent - 1), lp_pool's double
             # backward goes through pow of pow, ldexp's gradient through 2 ** other
             [graph, "x = ((torch.arange(37.) * 7 % 23 + 0.5) / 3.7).requires_grad_()",
              "y = x.pow(1 / 3)", "g, = torch.autograd.grad(y.sum(), x, create_graph=True)",
              "g2, = torch.autograd.grad(g.sum(), x)",
              "e = ((torch.arange(37.) * 3 % 11 - 5) / 2.9).requires_grad_()",
              "z = x.pow(e)", "ga, gb = torch.autograd.grad(z.sum(), (x, e), create_graph=True)",
              "gg, = torch.autograd.grad(ga.sum(), x)",
              "u = ((torch.arange(80.) * 7 % 23 + 0.5) / 3.7).reshape(2, 1, 40).double().requires_grad_()",
              "v = F.lp_pool1d(u, 3, 4)", "gu, = torch.autograd.grad(v.sum(), u, create_graph=True)",
              "gu2, = torch.autograd.grad((gu * gu).sum(), u)",
              "m = ((torch.arange(37.) * 7 % 23 + 0.5) / 3.7).requires_grad_()",
              "l = torch.ldexp(m, (torch.arange(37) % 9 - 4))", "gl, = torch.autograd.grad(l.sum(), m)"],
             ["y.tolist()", "g.tolist()", "g2.tolist()", "z.tolist()", "ga.tolist()", "gg.tolist()",
              "v.tolist()", "gu.tolist()", "gu2.tolist()", "l.tolist()", "gl.tolist()", "graph(g.grad_fn)"]),
    ]


CASES = cases(GRAPH)
