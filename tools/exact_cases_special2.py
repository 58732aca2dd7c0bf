"""Regression cases of session 30's helper "special2": torch.special's Airy, Bessel and
orthogonal-polynomial functions (agrad/ops/special_functions.py, _bessel_math.py,
_polynomial_math.py), erfcx, log_ndtr, igamma, igammac (special.py, _erfcx_math.py, _igamma_math.py):
values bit for bit
(``tolist()``), printed values, promotion, layouts, no history, nodes and gradients, errors.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``;
``graph`` is exact_cases.GRAPH.
"""

from __future__ import annotations

from exact_case_form import case


_EDGES = ("[0., -0., 1., -1., 2., -2., 0.5, -0.5, 2.09, -2.09, 5., -5., 8., -8., 1e-6, 1e-30, 50., -60., 130., -200.,"
          " 1e5, 3e9, -1e12, float('inf'), float('-inf'), float('nan')]")
_UNARY = ["airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0", "modified_bessel_i1",
          "modified_bessel_k0", "modified_bessel_k1", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1",
          "spherical_bessel_j0"]
_POLY = ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w",
         "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
         "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he", "laguerre_polynomial_l",
         "legendre_polynomial_p"]
#: (no NaN x at degrees from 2: PyTorch's recurrence then never runs and its result is an uninitialised
#: register, 0 or the previous element's value; docs/semantics.md)
_X = "[0., -0., 1., -1., 0.5, -0.5, 0.25, 0.75, 0.93, -0.37, 2., -3.5, 1.5, float('inf'), -float('inf')]"
_N = "[[0.], [1.], [2.], [3.], [5.], [7.], [9.], [12.], [2.5], [-1.], [40.], [150.], [float('nan')], [float('inf')]]"


CASES = [
    case("special2-bessel-bit-for-bit",  # Cephes' steps with the AVX2 build's FMAs, glibc's sinf/cosf
         ["x = torch.linspace(-12.3, 14.7, 37, dtype=torch.float64)", f"e = torch.tensor({_EDGES}, dtype=torch.float64)"],
         [f"torch.special.{fn}({v}).tolist()" for fn in _UNARY for v in ("x", "x.float()", "e", "e.float()")]),
    case("special2-polynomials-bit-for-bit",  # closed forms with glibc's acos/acosf, the recurrences fused
         [f"x = torch.tensor({_X}, dtype=torch.float64)", f"n = torch.tensor({_N}, dtype=torch.float64)"],
         [f"torch.special.{fn}({a}, {b}).tolist()" for fn in _POLY
          for a, b in (("x", "n"), ("x.float()", "n.float()"), ("x * 3 - 1", "n[:8]"))]
         + [f"torch.special.{fn}(torch.tensor([float('nan')]), torch.tensor([[0.], [1.], [-1.], [float('nan')]])).tolist()"
            for fn in _POLY]
         + ["torch.special.hermite_polynomial_h(x, torch.tensor([128., 129., 512., 513.]).view(4, 1)).tolist()",
            "torch.special.hermite_polynomial_he(x.float(), torch.tensor([128., 129.]).view(2, 1)).tolist()"]),
    case("special2-forms-and-promotion",  # ints/bools to the default float, numbers beside tensors, out=
         ["i = torch.tensor([1, 2, 3])", "b = torch.tensor([True, False])", "x = torch.tensor([0.25, 1.5, -0.75])",
          "m = torch.linspace(0.1, 0.9, 12).view(3, 4).t()", "o = torch.empty(3, dtype=torch.float64)"],
         [f"torch.special.{fn}(i)" for fn in ("bessel_j0", "airy_ai", "modified_bessel_k0")]
         + ["torch.special.spherical_bessel_j0(b)",
            "torch.special.airy_ai(x=x)", "torch.special.scaled_modified_bessel_k1(x=x.abs())",
            "torch.special.bessel_j1(input=x)", "torch.special.bessel_y0(x, out=o)", "o",
            "torch.special.chebyshev_polynomial_t(i, i)", "torch.special.chebyshev_polynomial_u(i, 2)",
            "torch.special.chebyshev_polynomial_v(0.5, i)", "torch.special.chebyshev_polynomial_w(x, i.double())",
            "torch.special.legendre_polynomial_p(x, 2.7)", "torch.special.laguerre_polynomial_l(x, True)",
            "torch.special.hermite_polynomial_h(b, b)", "torch.special.hermite_polynomial_he(x=x, n=3)",
            "torch.special.shifted_chebyshev_polynomial_t(x, torch.tensor([3], dtype=torch.uint8))",
            "torch.special.shifted_chebyshev_polynomial_u(x.view(3, 1), torch.tensor([1., 2.]))",
            "torch.special.laguerre_polynomial_l(x, 3, out=o)", "o"]
         + [f"torch.special.{fn}(m).stride()" for fn in ("bessel_j0", "modified_bessel_i1", "airy_ai")]
         + ["torch.special.legendre_polynomial_p(m, 3).stride()", "torch.special.chebyshev_polynomial_t(2.0, m).stride()",
            "torch.special.hermite_polynomial_h(m, m).stride()"]),
    case("special2-no-history",  # derivatives.yaml: non_differentiable (no node, no grad)
         ["x = torch.tensor([0.5, 1.5, 2.5], requires_grad=True)"],
         [f"(lambda r: (r.requires_grad, r.grad_fn, r.is_leaf))(torch.special.{fn}(x))" for fn in _UNARY]
         + [f"(lambda r: (r.requires_grad, r.grad_fn))(torch.special.{fn}(x, 3))" for fn in _POLY]
         + ["torch.special.chebyshev_polynomial_t(2.0, x).requires_grad", "torch.special.bessel_j0(x, out=torch.empty(3))",
            "torch.special.bessel_j0(x).sum().backward()"]),
    case("special2-erfcx-log-ndtr",  # the Faddeeva pieces (double Horner), the fused continued fraction
         ["x = torch.linspace(-30.5, 70.25, 45, dtype=torch.float64)", f"e = torch.tensor({_EDGES}, dtype=torch.float64)",
          "d = torch.tensor([-3.0, -0.5, 0.25, 2.5], dtype=torch.float64, requires_grad=True)",
          "i = torch.tensor([1, 2, 3])", "o = torch.empty(4)"],
         [f"torch.special.erfcx({v}).tolist()" for v in ("x", "x.float()", "e", "e.float()")]
         + [f"torch.special.log_ndtr({v}).tolist()" for v in ("x", "e")]
         + ["torch.special.log_ndtr(x.float()).tolist()", "torch.special.log_ndtr(e.float()).tolist()",  # (glibc's erfcf)
            "torch.special.log_ndtr(torch.linspace(-40, -1, 17)).tolist()", "torch.special.erfcx(i)",
            "torch.special.log_ndtr(torch.tensor([True, False]))", "torch.special.erfcx(d.detach(), out=o)", "o",
            "torch.special.erfcx(torch.linspace(0.1, 0.9, 12).view(3, 4).t()).stride()"]
         + [f"graph(torch.special.{fn}(d).grad_fn)" for fn in ("erfcx", "log_ndtr")]
         + [f"torch.autograd.grad(torch.special.{fn}(d).sum(), d)" for fn in ("erfcx", "log_ndtr")]
         + [f"graph(torch.autograd.grad(torch.autograd.grad(torch.special.{fn}(d).sum(), d, create_graph=True)[0].sum(), d,"
            " create_graph=True)[0].grad_fn)" for fn in ("erfcx", "log_ndtr")]
         + ["torch.special.erfcx(d.half())", "torch.special.log_ndtr(d.half())", "torch.special.erfcx(1.0)",
            "torch.special.erfcx(d, out=torch.empty(4))"]),
    case("special2-igamma",  # SciPy's igam/igamc as Math.h; igammac's build fused, igamma's not
         ["a = torch.tensor([0.5, 1.5, 3.0, 25.0, 150.0, 250.0, 1e-3, 7.5], dtype=torch.float64)",
          "x = torch.tensor([[0.25], [1.0], [2.0], [24.0], [160.0], [260.0], [1e-4], [40.0]], dtype=torch.float64)",
          f"e = torch.tensor({_EDGES}, dtype=torch.float64)",
          "d = torch.tensor([0.5, 2.0, 4.5], dtype=torch.float64, requires_grad=True)",
          "i = torch.tensor([1, 2, 3])", "o = torch.empty(3)"],
         [f"torch.{fn}({u}, {v}).tolist()" for fn in ("igamma", "igammac")
          for u, v in (("a", "x"), ("e.view(-1, 1)", "e"))]
         + [f"torch.{fn}(a.float(), x.float())" for fn in ("igamma", "igammac")]
         + [f"torch.{fn}(torch.linspace(0.05, 9.5, 23).view(-1, 1), torch.linspace(0.01, 12.0, 9)).tolist()"
            for fn in ("igamma", "igammac")]  # (float32: glibc's lgammaf, erfcf ported)
         + ["torch.special.gammainc(a, x[3])", "torch.special.gammaincc(a.half(), x.half()[2])", "torch.igamma(i, d.detach())",
            "torch.igammac(torch.tensor([True]), d.detach().float())", "torch.igamma(a[:3].float(), d.detach())",
            "a[:3].clone().igamma_(d.detach())", "a[:3].float().igammac_(d.detach())", "a[:3].igammac(d.detach())",
            "torch.igamma(a[:3], d.detach(), out=o)", "o", "torch.igamma(torch.ones(2, 3).t(), torch.ones(3, 2)).stride()"]
         + [f"graph(torch.{fn}(a[:3], d).grad_fn)" for fn in ("igamma", "igammac")]
         + ["graph(torch.special.gammainc(a[:3], d).grad_fn)", "graph(torch.special.gammaincc(2.0 * d.detach(), d).grad_fn)"]
         + [f"torch.autograd.grad(torch.{fn}(a[:3], d).sum(), d)" for fn in ("igamma", "igammac")]
         + [f"graph(torch.autograd.grad(torch.autograd.grad(torch.{fn}(a[:3], d).sum(), d, create_graph=True)[0].sum(), d,"
            " create_graph=True)[0].grad_fn)" for fn in ("igamma", "igammac")]
         + ["torch.igamma(d, d).sum().backward()", "torch.igammac(d, a[:3]).sum().backward()", "torch.igamma(i, i)",
            "torch.igamma(d, 2.0)", "torch.special.gammainc(2.0, d)", "torch.igammac(d, torch.ones(2))",
            "torch.igamma(d.detach(), d.detach(), out=torch.empty(3, dtype=torch.int64))"]),
    case("special2-erfinv-central",  # (float64 erfinv of values all in one range: calerf of an empty tail)
         ["x = torch.tensor([0.1, 0.5, -0.25], dtype=torch.float64, requires_grad=True)"],
         ["torch.special.erfinv(x * 1).tolist()", "torch.autograd.grad(torch.erfinv(x).sum(), x)",
          "torch.erfc(torch.tensor([], dtype=torch.float64))", "torch.erf(torch.zeros(0, 3, dtype=torch.float64))"]),
    case("special2-errors",  # the parser's messages, the kernels' dispatch
         ["x = torch.tensor([0.5, 1.5])", "h = x.half()"],
         ["torch.special.bessel_j0(1.0)", "torch.special.airy_ai(input=x)", "torch.special.chebyshev_polynomial_t(2, 3)",
          "torch.special.chebyshev_polynomial_t(x, 'a')", "torch.special.chebyshev_polynomial_t(input=x, n=2)",
          "torch.special.legendre_polynomial_p(x, torch.ones(3))", "torch.special.hermite_polynomial_h(h, 2)",
          "torch.special.chebyshev_polynomial_w(2.0, h)"]
         + [f"torch.special.{fn}(h)" for fn in _UNARY]
         + [
            "torch.special.bessel_j0(torch.tensor([1, 2]), out=torch.empty(2, dtype=torch.int64))"]),
]
