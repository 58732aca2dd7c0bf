"""Special functions: lgamma, digamma, polygamma, mvlgamma, erfinv, i0 and torch.special's ops
(i0e, i1, i1e, ndtr, ndtri, entr, xlog1py, zeta), with first and second derivatives."""

from . import case, inp, val

INF = float("inf")
NAN = float("nan")

CASES = [
    case("lgamma", "torch.lgamma(a)", a=inp(3, 2, kind="positive"), second=True),
    case("lgamma_negative", "torch.lgamma(a)", a=val([-0.5, -1.5, -2.25, 0.0, -3.0, INF, -INF, NAN])),
    case("lgamma_int64", "torch.lgamma(a)", a=inp(3, 2, kind="int", dtype="int64")),
    case("lgamma_inplace", code="c = a * 1.0\nc.lgamma_()\nout = c", a=inp(3, 2, kind="positive")),
    case("digamma", "torch.digamma(a)", a=inp(3, 2, kind="positive"), second=True),
    case("digamma_float64", "a.digamma()", a=inp(3, 2, dtype="float64"), second=True),
    case("digamma_poles", "torch.digamma(a)", a=val([0.0, -0.0, -1.0, -2.5, INF, -INF, NAN])),
    case("polygamma_1", "torch.polygamma(1, a)", a=inp(3, 2, kind="positive"), second=True),
    case("polygamma_3", "torch.polygamma(3, a)", a=inp(3, 2, kind="positive", dtype="float64"), second=True),
    case("polygamma_method", "a.polygamma(2)", a=inp(3, 2, kind="positive")),
    case("polygamma_inplace", code="c = a * 1.0\nc.polygamma_(2)\nout = c", a=inp(3, 2, kind="positive")),
    case("special_polygamma", "torch.special.polygamma(0, a)", a=inp(3, 2, kind="positive")),
    case("mvlgamma", "torch.mvlgamma(a + 2, 3)", a=inp(3, 2, kind="positive"), second=True),
    case("multigammaln", "torch.special.multigammaln(a + 1, 1)", a=inp(3, 2, kind="positive", dtype="float64")),
    case("mvlgamma_inplace", code="c = a + 1.0\nc.mvlgamma_(2)\nout = c", a=inp(3, 2, kind="positive")),
    case("erfinv", "torch.erfinv(a)", a=inp(3, 2, kind="unit"), second=True),
    case("erfinv_edges", "torch.erfinv(a)", a=val([-1.0, 1.0, 0.0, 2.0, -0.0])),
    case("i0", "torch.i0(a)", a=inp(3, 2), second=True),
    case("i0e", "torch.special.i0e(a)", a=inp(3, 2), second=True),
    case("i1", "torch.special.i1(a)", a=inp(3, 2), second=True),
    case("i1e", "torch.special.i1e(a)", a=inp(3, 2, dtype="float64"), second=True),
    case("ndtri", "torch.special.ndtri(a)", a=inp(3, 2, kind="rand"), second=True),
    case("ndtr", "torch.special.ndtr(a)", a=inp(3, 2), second=True),
    case("erfcx", "torch.special.erfcx(a)", a=inp(3, 2), second=True),
    case("erfcx_float64", "torch.special.erfcx(a * 4)", a=inp(3, 2, dtype="float64"), second=True),
    case("log_ndtr", "torch.special.log_ndtr(a * 3)", a=inp(3, 2), second=True),
    case("log_ndtr_float64", "torch.special.log_ndtr(a)", a=inp(3, 2, dtype="float64"), second=True),
    case("igamma", "torch.igamma(a + 0.5, b)", a=inp(3, 2, kind="positive", requires_grad=False),
         b=inp(3, 2, kind="positive"), second=True),
    case("igammac", "torch.igammac(a + 0.5, b)", a=inp(3, 2, kind="positive", dtype="float64", requires_grad=False),
         b=inp(3, 2, kind="positive", dtype="float64"), second=True),
    case("gammainc", "torch.special.gammainc(a + 1, b)", a=inp(3, 2, kind="positive", requires_grad=False),
         b=inp(3, 2, kind="positive")),
    case("igamma_method", "(a + 2).igammac(b)", a=inp(3, 2, kind="positive", requires_grad=False),
         b=inp(3, 2, kind="positive")),
    case("entr", "torch.special.entr(a)", a=inp(3, 2, kind="positive"), second=True),
    case("xlog1py", "torch.special.xlog1py(a, b)", a=inp(3, 2), b=inp(3, 2, kind="positive"), second=True),
    case("xlog1py_scalar_self", "torch.special.xlog1py(2.5, b)", b=inp(3, 2, kind="positive"), second=True),
    case("xlog1py_scalar_other", "torch.special.xlog1py(a, 0.75)", a=inp(3, 2), second=True),
    case("zeta", "torch.special.zeta(a + 2, b)", a=inp(3, 2, kind="positive", requires_grad=False),
         b=inp(3, 2, kind="positive"), second=True),
    case("zeta_scalar_self", "torch.special.zeta(3.0, b)", b=inp(3, 2, kind="positive"), second=True),
    case("zeta_scalar_other", "torch.special.zeta(a + 2, 2.0)", a=inp(3, 2, kind="positive", requires_grad=False)),
]
