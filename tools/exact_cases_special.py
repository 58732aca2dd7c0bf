"""Regression cases of session 29's helper "special": lgamma, digamma, polygamma, mvlgamma, erfinv,
i0 and torch.special (agrad/ops/special.py, _special_math.py, _lgamma_math.py): values bit for bit
where the kernels' steps are ATen's (``tolist()``), printed values elsewhere, node names, gradients,
promotion and errors.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``;
``graph`` is exact_cases.GRAPH.
"""

from __future__ import annotations

from exact_case_form import GRAPH, case


_EDGES = "[0., -0., 1., 2., -1., -2.5, 0.5, 8., -8., 9.5, 1e-30, 1e30, float('inf'), float('-inf'), float('nan')]"
_PROBS = "[0., 1., 0.5, 0.1, 0.9, 0.01, 0.99, 1e-20, 1e-300, 1 - 2**-40, 0.13, 0.87, -0.5, 1.5, float('nan')]"


def cases(graph: str) -> list[dict]:
    exact = ["torch.special.i0e", "torch.special.i1e", "torch.digamma", "lambda v: torch.polygamma(1, v)"]
    return [
        case("special-values-bit-for-bit",  # ATen's Math.h steps (the AVX2 build's fused multiply-adds)
             ["x = torch.linspace(-12.3, 12.7, 41, dtype=torch.float64)", f"e = torch.tensor({_EDGES}, dtype=torch.float64)",
              f"p = torch.tensor({_PROBS}, dtype=torch.float64)"],
             [f"({fn})({v}).tolist()" for fn in exact for v in ("x", "x.float()", "e", "e.float()")]
             + [f"torch.polygamma(1, {v}).tolist()" for v in ("x.float() / 3", "-x.float() * 2.5 - 0.3")]
             + [f"torch.special.ndtri({v}).tolist()" for v in ("p", "p.float()", "torch.linspace(0, 1, 33)")]
             + [f"torch.special.entr({v}).tolist()" for v in ("x.float()", "e.float()")]
             + [f"torch.special.xlog1py(x, {v}).tolist()" for v in ("e", "x * 0.1", "-1.0")]
             + [f"torch.special.xlog1py(x.float(), {v}).tolist()" for v in ("x.float() * 0.1", "2.5")]
             + [f"torch.erfinv({v}).tolist()" for v in ("x / 13", "(x / 13).float()", "p * 2 - 1", "(p * 2 - 1).float()",
                                                         "torch.linspace(-1, 1, 41).half()")]
             + [f"torch.lgamma({v}).tolist()" for v in ("x", "x.float()", "e", "e.float()", "x.half()", "x[::3]", "x.float()[1::2]")]
             + ["torch.mvlgamma(x.abs() + 2, 4).tolist()", "torch.mvlgamma(x.float().abs() + 1, 2).tolist()"]
             + ["torch.erfinv(torch.tensor([2., -2., float('nan'), -float('nan')])).signbit()",
                "torch.erfinv(torch.tensor([2., -2., float('nan')], dtype=torch.float64)).signbit()"]),
        case("special-values-printed",  # (the last bits of erfinv (MKL's), zeta, polygamma may differ)
             [f"e = torch.tensor({_EDGES})", "x = torch.linspace(-7.25, 7.5, 12)", "h = x.half()"],
             ["torch.lgamma(e)", "torch.lgamma(x)", "torch.lgamma(x.double())", "torch.lgamma(h)", "torch.digamma(h)",
              "torch.polygamma(3, x)", "torch.polygamma(2, e)", "torch.special.polygamma(4, x.double())",
              "torch.mvlgamma(x.abs() + 2, 3)", "torch.special.multigammaln(x.double().abs() + 1, 1)",
              "torch.erfinv(torch.linspace(-1, 1, 9))", "torch.erfinv(e)", "torch.i0(x)", "torch.i0(e)", "torch.special.i1(x)",
              "torch.special.i1(e)", "torch.special.zeta(x.abs() + 1.5, x)", "torch.special.zeta(3, e)",
              "torch.special.zeta(e, 2.5)", "torch.special.ndtr(x)", "torch.special.ndtr(e.double())", "torch.i0(h)",
              "torch.special.i0e(h)", "torch.special.entr(h)", "torch.special.xlog1py(h, h)", "torch.polygamma(1, h)"]),
        case("special-graphs-and-gradients",  # derivatives.yaml's formulas, PyTorch's node names
             [graph, "x = torch.tensor([0.5, 1.5, 3.25], requires_grad=True)",
              "d = torch.tensor([0.25, 2.0, 5.5], dtype=torch.float64, requires_grad=True)"],
             [f"graph({e}.grad_fn)" for e in (
                 "torch.lgamma(x)", "torch.digamma(x)", "torch.polygamma(2, x)", "torch.mvlgamma(x + 1, 2)",
                 "torch.erfinv(x / 4)", "torch.i0(x)", "torch.special.i0e(x)", "torch.special.i1(x)", "torch.special.i1e(x)",
                 "torch.special.ndtri(x / 4)", "torch.special.ndtr(x)", "torch.special.entr(x)", "torch.special.zeta(2, x)",
                 "torch.special.zeta(x + 2, x)", "torch.special.zeta(x + 2, 3)", "torch.special.xlog1py(x, x)",
                 "torch.special.xlog1py(2, x)", "torch.special.xlog1py(x, 2)", "x.clone().polygamma_(1)", "x.clone().lgamma_()",
                 "x.clone().mvlgamma_(1)", "torch.special.gammaln(x)", "torch.special.psi(x)", "torch.special.expit(x)",
                 "torch.special.round(x)", "torch.special.multigammaln(x + 1, 3)", "torch.special.polygamma(0, x)")]
             + [f"torch.autograd.grad({e}.sum(), d)" for e in (
                 "torch.lgamma(d)", "torch.digamma(d)", "torch.polygamma(1, d)", "torch.polygamma(3, d)", "torch.mvlgamma(d + 2, 3)",
                 "torch.erfinv(d / 8)", "torch.i0(d)", "torch.special.i0e(d)", "torch.special.i1(d)", "torch.special.i1e(d)",
                 "torch.special.i1(d * 0)", "torch.special.i1e(d * 0)", "torch.special.ndtri(d / 8)", "torch.special.ndtr(d)",
                 "torch.special.entr(d)", "torch.special.zeta(3, d)", "torch.special.xlog1py(d, d)", "torch.special.xlog1py(d, -1)",
                 "torch.special.xlog1py(0.5, d)", "torch.special.xlog1py(d * 0, d - 3)")]
             + [f"graph(torch.autograd.grad(torch.autograd.grad(({fn})(d).sum(), d, create_graph=True)[0].sum(), d, "
                f"create_graph=True)[0].grad_fn)" for fn in (
                 "torch.special.i1", "torch.special.i1e", "torch.special.i0e", "torch.i0", "lambda v: torch.special.xlog1py(v, v)",
                 "lambda v: torch.mvlgamma(v + 2, 2)", "lambda v: torch.special.zeta(3, v)", "torch.special.entr")]
             + ["torch.autograd.grad(torch.autograd.grad(torch.lgamma(d).sum(), d, create_graph=True)[0].sum(), d)",
                "graph(torch.autograd.grad(torch.special.i0e(d).sum(), d, create_graph=True)[0].grad_fn)"]),
        case("special-promotion-and-forms",  # ints and bools to the default float; out=, in-place, methods
             ["i = torch.tensor([1, 2, 3])", "b = torch.tensor([True, False])", "x = torch.tensor([0.5, 1.5])",
              "o = torch.empty(2)", "h = torch.tensor([0.5, 1.5], dtype=torch.float16)"],
             ["torch.lgamma(i)", "torch.digamma(b)", "torch.polygamma(2, i)", "torch.mvlgamma(i + 1, 2)", "torch.erfinv(b)",
              "torch.i0(b)", "torch.special.i1(i)", "torch.special.ndtri(b)", "torch.special.entr(i)", "torch.special.zeta(i + 1, i)",
              "torch.special.xlog1py(i, i)", "torch.special.zeta(2, i)", "torch.special.xlog1py(i, 2.5)", "torch.special.ndtr(i)",
              "torch.special.zeta(x, x.double())", "torch.lgamma(x, out=o)", "o", "torch.special.i0e(x, out=o)", "o",
              "torch.polygamma(1, x, out=o)", "x.clone().polygamma_(2)", "x.clone().erfinv_()", "x.clone().i0_()",
              "x.clone().digamma_()", "x.mvlgamma(p=1)", "x.polygamma(3)", "torch.special.multigammaln(x + 1, p=2)",
              "torch.special.softmax(x, 0, torch.float64)", "torch.special.log_softmax(x, 0, dtype=torch.float64)",
              "torch.special.logsumexp(x, 0, True)", "torch.special.round(x, decimals=1)", "torch.special.xlogy(2, x)",
              "torch.special.logit(x, eps=0.25)", "torch.special.exp2(x)", "torch.special.sinc(x)", "torch.special.erfc(x)",
              "torch.special.log1p(x)", "torch.special.expm1(x)", "torch.special.erf(x)", "torch.special.i0(x)",
              "torch.special.polygamma(1, h)", "torch.special.erfinv(x / 2)"]
             + [f"({fn})(torch.linspace(0.1, 0.9, 12).view(3, 4).t()).stride()" for fn in (
                 "torch.lgamma", "torch.digamma", "torch.erfinv", "torch.i0", "torch.special.i0e", "torch.special.i1",
                 "torch.special.ndtri", "torch.special.entr", "lambda v: torch.polygamma(2, v)", "torch.special.ndtr",
                 "lambda v: torch.special.xlog1py(v, v)", "lambda v: torch.special.zeta(v + 2, v)",
                 "lambda v: torch.mvlgamma(v + 1, 2)", "lambda v: torch.lgamma(v.double())")]),
        case("special-errors",  # the parser's messages, the kernels' checks
             ["x = torch.tensor([0.5, 1.5], requires_grad=True)", "h = torch.tensor([0.5, 1.5], dtype=torch.float16)"],
             ["torch.special.entr(1.0)", "torch.polygamma(1.5, x)", "torch.polygamma(-1, x)", "x.polygamma(1.5)",
              "torch.mvlgamma(x, 2.0)", "torch.mvlgamma(x, 0)", "x.mvlgamma(0)", "torch.special.multigammaln(x, p=0)",
              "torch.special.zeta(2, 3)", "torch.lgamma(2.0)", "torch.special.i0e([1.0])", "torch.special.ndtri(h)",
              "torch.special.zeta(h, h)", "torch.i0(x, out=torch.empty(2))", "torch.special.i0e(x, out=torch.empty(2))",
              "torch.special.zeta(x + 2, x).sum().backward()", "torch.special.zeta(x, 2.0).sum().backward()",
              "torch.special.xlog1py(x, 'a')", "torch.special.softmax(x)", "torch.special.polygamma(x, 2)",
              "torch.special.round(x, 1)", "torch.tensor([1, 2]).lgamma_()",
              "torch.autograd.grad(torch.special.i1(h.requires_grad_()).sum(), h)",
              "torch.autograd.grad(torch.special.i1e(h).sum(), h)", "torch.autograd.grad(torch.i0(h).sum(), h)",
              "torch.autograd.grad(torch.special.i0e(h).sum(), h)"]),
    ]


CASES = cases(GRAPH)
