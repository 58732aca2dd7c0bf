"""Golden cases of the lead's fixes in session 42 (each names the differential run's group)."""
from __future__ import annotations

from exact_case_form import GRAPH, case, outcomes

CASES = [
    case("kthvalue-out-of-kept-shape-squeezed",  # (dt42a warning:kthvalue) an out of the keepdim shape is resized
         # to it (no change, no warning) and squeezed by the kernel; one with a dim less is unsqueezed first
         ["x = torch.tensor([[[1]], [[-3]]], dtype=torch.int32)",
          "o1 = torch.tensor([[1, -1], [-1, -3]], dtype=torch.int32)[..., ::2]",
          "o2 = torch.tensor([[[-1]], [[2]]])",
          "r = torch.kthvalue(x, 1, out=(o1, o2))", "s = (o1.shape, o1.stride(), o2.shape, o2.stride())"],
         ["r", "s"]),
    case("frobenius-norm-out-dtype",  # (dt42a error-text:frobenius_norm) at::norm_out's structured check
         ["x = torch.tensor([-2.5, -1.0])"] +
         outcomes([f"torch.frobenius_norm(x, -1, out=torch.tensor(-2, dtype=torch.{d}))"
                   for d in ("int32", "float64", "float16", "bool")]),
         ["out"]),
    case("outer-out-refusal-names-mul",  # (dt42a error-text:ger) outer's out= is mul_out's
         ["x = torch.tensor([1.75, 0.75, -2.25], requires_grad=True)", "y = torch.tensor([-0.5, 1.0, 2.75])"] +
         outcomes(["torch.outer(x, y, out=torch.zeros(3, 3))", "torch.ger(x, y, out=torch.zeros(3, 3))",
                   "torch.outer(y, y, out=x)"]),
         ["out"]),
    case("fallback-out-with-history",  # (dt42a raises-only-agrad:conj_physical) autograd's not-implemented
         # fallback refuses an out only where its in-place check would (a leaf that requires grad, its view, a view
         # made under no_grad); an out with a history is written and takes a NotImplemented node whose inputs are
         # the op's tensors that require grad, out last
         [GRAPH, "x = torch.tensor([1.25, -1.75], requires_grad=True)",
          "b = x * 2", "r1 = torch.conj_physical(b, out=b)", "g1 = graph(b.grad_fn)",
          "c = x * 2", "r2 = torch.heaviside(x, c, out=c)", "g2 = graph(c.grad_fn)",
          "d = x * 2", "r3 = torch.floor_divide(torch.ones(2), 2, out=d[:1])", "g3 = graph(d.grad_fn)",
          "e = x * 2", "with torch.no_grad():\n    v = e[1:]"] +
         outcomes(["torch.conj_physical(torch.ones(2), out=x)", "torch.softmax(torch.ones(2), 0, out=x[:])",
                   "torch.heaviside(x[:1], e[:1], out=v)"]),
         ["r1", "g1", "r2", "g2", "r3", "g3", "d", "out"]),
    case("conj-physical-out-layout",  # (dt42a stride:conj_physical) a resized out is laid out as TensorIterator
         # lays out the input's copy
         ["x = torch.arange(24.).reshape(2, 3, 4)", "out = []",
          "for v in (x.transpose(0, -1), x[:, ::2], x.permute(1, 2, 0)[:, ::2]):\n"
          "    o = torch.zeros(0)\n    torch.conj_physical(v, out=o)\n    out.append((o.shape, o.stride()))"],
         ["out"]),
    case("cholesky-out-contiguous",  # (dt42a stride:cholesky) torch.cholesky's out= is the result resized into
         # C-ordered (resize_output) and copied; linalg.cholesky's keeps LAPACK's column-major layout
         ["a = torch.tensor([[[6.0, 0.0], [0.0, 2.5625]]])", "out = []",
          "for up in (False, True):\n"
          "    for o in (torch.zeros(0), torch.zeros(2, 2), torch.zeros(4, 4)[::2, ::2], torch.zeros(1, 2, 2).mT):\n"
          "        torch.cholesky(a, up, out=o)\n        p = torch.zeros(0)\n"
          "        torch.linalg.cholesky(a, upper=up, out=p)\n        out.append((o.stride(), p.stride(), o))"],
         ["out"]),
    case("fallback-out-refusal-histogram-ldl",  # the same rule for histogram's and ldl_factor's outs (ldl_factor's
         # refusal names ldl_factor_ex, the composite's inner op); an out with a history and no input requiring grad
         # takes a NotImplemented node of its own
         ["w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)", "x = torch.tensor([1.25, -1.75, 0.5])",
          "a = torch.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)",
          "h = w * 2", "r = torch.histogram(x, 2, out=(h, torch.zeros(4)))", "n = type(h.grad_fn).__name__"] +
         outcomes(["torch.histogram(x, 2, out=(w[:], torch.zeros(2)))",
                   "torch.linalg.ldl_factor(a.detach(), out=(a[:], torch.zeros(2, dtype=torch.int32)))",
                   "torch.linalg.ldl_factor(a, out=(torch.zeros(2, 2, requires_grad=True), torch.zeros(2, dtype=torch.int32)))"]),
         ["r", "n", "out"]),
    case("rounding-out-refuses-autograd-first",  # (dt42b error-text:ceil) check_all_same_dtype's "Found dtype"
         # comes after autograd's refusal of an input that requires grad
         ["x = torch.tensor([0.5, 2.25], dtype=torch.float64, requires_grad=True)", "r = x[0] * 1"] +
         outcomes([f"torch.{f}(r, out=torch.tensor(0.25, dtype=torch.float16))"
                   for f in ("ceil", "floor", "trunc", "round", "frac", "abs", "neg", "sign")] +
                  ["torch.ceil(r.detach(), out=torch.tensor(0.25, dtype=torch.float16))"]),
         ["out"]),
    case("linspace-tensor-end-out-fallback",  # (dt42b requires_grad:linspace) the Tensor overloads' out= runs
         # autograd's not-implemented fallback: an end that requires grad leaves out with a NotImplemented node,
         # out resized without a warning, one of as many elements keeping its shape
         [GRAPH, "t = torch.tensor(-1.25, dtype=torch.float64, requires_grad=True)", "o1 = torch.zeros(0)",
          "r1 = torch.linspace(3, t, 4, out=o1)", "g1 = graph(o1.grad_fn)", "o2 = torch.zeros(2, 2)",
          "r2 = torch.logspace(t, t, 4, out=o2)", "g2 = graph(o2.grad_fn)", "o3 = torch.zeros(3)",
          "r3 = torch.linspace(t.detach(), 2, 4, out=o3)"] +
         outcomes(["torch.linspace(3, t, 4, out=torch.zeros(3, requires_grad=True))"]),
         ["r1", "g1", "r2", "g2", "r3", "out"]),
    case("cat-serial-kernel-size-one-strides",  # (dt42b value:column_stack) cat_out's serial kernel into a
         # contiguous out whose stride at the dim is not its layout's: numel // (size * stride) blocks of
         # size * stride elements, so a (1, 1) out of strides (2, 2) along dim 1 is not written at all
         ["out = []",
          "for shape, strides, dim in (((1, 1), (2, 2), 1), ((1, 1), (2, 2), 0), ((3, 1), (1, 2), 1), ((4, 1), (1, 3), 1), "
          "((1, 1, 2), (1, 5, 1), 1), ((2, 1, 3), (3, 7, 1), 1), ((2, 2), (2, 1), 1)):\n"
          "    x = torch.arange(1., 1 + torch.Size(shape).numel()).reshape(shape)\n"
          "    base = torch.zeros(16)\n    o = base.as_strided(shape, strides)\n"
          "    torch.cat([x], dim, out=o)\n    out.append((base, o._version))",
          "b = torch.tensor([[0.0, -1.0]])", "o5 = b.view(1, 2)[..., ::2].mT",
          "r = torch.column_stack([torch.tensor([0.5])], out=o5)",
          "i = torch.zeros(16, dtype=torch.int64)", "ri = torch.cat([torch.ones(1, 1, dtype=torch.int64)], 1, out=i.as_strided((1, 1), (2, 2)))"],
         ["out", "r", "b", "i"]),
    case("as-strided-scatter-backward-offset",  # (dt42b raises-only-agrad:backward) as_strided_scatter of a view at
         # an offset, storage_offset None: the backward reads the contiguous gradient from its first element
         # (offset 0), for src's gradient and the place of self's
         ["x = torch.arange(12., dtype=torch.float64).reshape(2, 6).requires_grad_()", "out = []",
          "for v, size, stride, off in ((x[:, 1:], (2,), (2,), None), (x[1:], (2,), (2,), 1), ((x * 1)[1:], (3,), (1,), None)):\n"
          "    src = torch.ones(size, dtype=torch.float64, requires_grad=True)\n"
          "    r = torch.as_strided_scatter(v, src, size, stride, off)\n"
          "    r.backward(torch.arange(r.numel(), dtype=torch.float64).reshape(r.shape) + 1)\n"
          "    out.append((r, x.grad.clone(), src.grad))\n    x.grad = None"],
         ["out"]),
    case("qr-outs-resized-in-turn",  # (dt42b shape:qr) linalg_qr's meta sets Q (resized, column-major) before
         # R's dtype is refused; torch.qr(out=) is linalg_qr_out
         ["x = torch.tensor([[1.5, -2.5, -2.25], [0.5, 1.0, 2.0], [3.0, 0.25, -1.0], [1.0, 1.0, 0.0]])", "out = []",
          "for mode in ('reduced', 'complete', 'r'):\n"
          "    for a, b in ((torch.zeros(0), torch.zeros(0, dtype=torch.int64)), (torch.zeros(5), torch.zeros(0, dtype=torch.float64)), "
          "(torch.zeros(0, dtype=torch.float64), torch.zeros(2)), (torch.zeros(2, 3)[:, ::2], torch.zeros(0, dtype=torch.int32))):\n"
          "        try:\n            torch.linalg.qr(x, mode, out=(a, b))\n"
          "        except RuntimeError as e:\n            out.append(str(e))\n"
          "        out.append((a.shape, a.stride(), b.shape, b.stride()))",
          "a, b = torch.zeros(1), torch.zeros(1, dtype=torch.bool)"] + outcomes(["torch.qr(x, out=(a, b))"]) +
         ["s = (a.shape, a.stride(), b.shape)"],
         ["out", "s"]),
    case("round-decimals-half-in-float",  # (dt42c value:round) round_decimals' kernel computes float16 in float32
         ["x = torch.tensor([968.0, 0.0100021, 65504.0, -1.2345, 12345.678, 2.5], dtype=torch.float16)",
          "out = [x.round(decimals=d) for d in (-5, -2, 0, 2, 3, 5)]"],
         ["out"]),
    case("factory-dtype-against-out",  # (dt42c raises-only-torch:rand) the binding's check_out_type_matches, first
         [] + outcomes(["torch.rand(1, 2, dtype=torch.float16, out=torch.zeros(2, dtype=torch.uint8))",
                        "torch.randn(2, dtype=torch.float64, out=torch.zeros(2))",
                        "torch.zeros(2, dtype=torch.float64, out=torch.zeros(2))",
                        "torch.ones(2, dtype=torch.int64, out=torch.zeros(2))",
                        "torch.full((2,), 1.0, dtype=torch.float64, out=torch.zeros(2))",
                        "torch.empty(2, dtype=torch.float64, out=torch.zeros(2)).shape",
                        "torch.randint(3, (2,), dtype=torch.float64, out=torch.zeros(2))",
                        "torch.randperm(3, dtype=torch.float64, out=torch.zeros(3))",
                        "torch.arange(3, dtype=torch.float64, out=torch.zeros(3))",
                        "torch.eye(2, dtype=torch.float64, out=torch.zeros(2, 2))",
                        "torch.linspace(0, 1, 3, dtype=torch.float64, out=torch.zeros(3))",
                        "torch.logspace(0, 1, 3, dtype=torch.float64, out=torch.zeros(3))",
                        "torch.normal(0., 1., (2,), dtype=torch.float64, out=torch.zeros(2))",
                        "torch.zeros(2, -1, dtype=torch.float64, out=torch.zeros(2))",
                        "torch.arange(3, dtype=torch.float32, out=torch.zeros(3))"]),
         ["out"]),
    case("histc-out-dtype-first",  # (dt42c error-text:histc) histogram_histc_out checks out's dtype first; an
         # integer input's out is resized before the kernel refuses it
         ["x = torch.tensor([[-2.75, 2.5], [1.0, 1.75]], dtype=torch.float64)"] +
         outcomes(["torch.histc(x, max=2.0, out=torch.zeros(3, dtype=torch.int32))",
                   "torch.histc(x, bins=-1, out=torch.zeros(3, dtype=torch.int32))",
                   "torch.histc(x.half(), out=torch.zeros(3))", "torch.histc(x.float(), out=torch.zeros(3, dtype=torch.float64))"])
         + ["o = torch.zeros(3, dtype=torch.int32)"] + [o.replace("out = []", "out2 = []").replace("out.append", "out2.append")
                                                      for o in outcomes(["torch.histc(x.int(), out=o)"])] + ["s = o.shape"],
         ["out", "out2", "s"]),
    case("lu-factor-backward-checks-pivots",  # (dt42c error-type:backward) lu_factor's backward unpacks its saved
         # pivots with lu_unpack's range check (apply_ changes them without a version bump)
         ["a = (torch.tensor([[-1.25, -1.5, 0.0], [0.0, -1.0, 2.75], [-2.75, -1.0, 1.25]], dtype=torch.float64) "
          "+ 4 * torch.eye(3)).requires_grad_()", "lu, piv = torch.linalg.lu_factor(a)", "r = piv.apply_(lambda v: v * 2)"] +
         outcomes(["lu.sum().backward()"]),
         ["out"]),
    case("vecdot-out-dtype-histogramdd-no-dims-alpha-after-broadcast",  # (dt42d's three groups) vecdot's own out
         # dtype text; histogramdd of rows with no dimension: a 0-d empty sum and no edges; add/sub/rsub's float alpha
         # for integral tensors refused after the operands' broadcast
         ["x = torch.tensor([[1.5, 2.0], [3.0, -1.0]])", "u = torch.arange(24, dtype=torch.uint8).reshape(4, 2, 3)",
          "e = torch.zeros(0, dtype=torch.int32)", "y = torch.tensor([[[-2.25, -0.5], [-0.5, 0.0]]], requires_grad=True)"] +
         outcomes(["torch.linalg.vecdot(x, x, out=torch.zeros(2, dtype=torch.uint8))",
                   "torch.linalg.vecdot(x, x, out=torch.zeros(2, dtype=torch.float64))",
                   "torch.rsub(e, u[::2], alpha=3.0)", "torch.rsub(u, e, alpha=3.0)", "torch.sub(u, e, alpha=3.0)",
                   "torch.add(u, e, alpha=3.0)", "torch.rsub(u, 2, alpha=3.0)",
                   "torch.histogramdd(torch.unfold_copy(y, 0, 0, 1), 1)", "torch.histogramdd(torch.zeros(3, 0), 1)"]),
         ["out"]),
    case("unary-out-layout-decides-vector-lanes",  # (dt42c numeric:exp_) an existing out= of its own layout is
         # one of TensorIterator's operands: a stepped or transposed out runs the scalar loop (libm's sinhf: an ulp
         # from Sleef's vector sinhf at 4), a contiguous one the vector code
         ["x = torch.full((16,), -4.)", "out = []",
          "for o in (torch.zeros(32)[::2], torch.zeros(16), torch.zeros(2, 8).t().t()):\n"
          "    torch.sinh(x, out=o)\n    out.append([float(v).hex() for v in o.tolist()])",
          "o = torch.zeros(8, 4).t()", "r = torch.cosh(torch.full((4, 8), 3.), out=o)",
          "i = torch.zeros(4, 4, 6)[..., ::2]", "ri = torch.sinh(torch.full((4, 4, 3), -4, dtype=torch.int64), out=i)",
          "h = ([float(v).hex() for v in o.flatten().tolist()], [float(v).hex() for v in i.flatten().tolist()])"],
         ["out", "h"]),
    case("linear-bias-added-in-place-scatter-half-no-partial",  # (dt42e raises-only-torch:linear, value:scatter_)
         # F.linear's unfused path is matmul then add_(bias): the output's dtype refuses a float bias, its
         # version counts the add; float16's scatter kernels leave self as it was at a bad index (other dtypes
         # keep the writes before it)
         ["w = torch.tensor([[1.5, -2.0, 0.5], [0.25, 1.0, -1.0]], requires_grad=True)",
          "b = torch.tensor([0.5, -0.25], requires_grad=True)",
          "r1 = F.linear(torch.ones(2, 4, 3)[:, ::2], w, b)", "v1 = r1._version",
          "idx = torch.tensor([[2, 1, 0], [0, 5, 1], [1, 1, 1]])", "h = torch.zeros(3, 3, dtype=torch.float16)",
          "f = torch.zeros(3, 3)"] +
         outcomes(["F.linear(torch.tensor([0, 1, 2]), torch.tensor([4, 2, 2]), torch.tensor(1.0, requires_grad=True))",
                   "h.scatter_(0, idx, 2.0)", "h.scatter_add_(0, idx, torch.ones(3, 3, dtype=torch.float16))",
                   "f.scatter_(0, idx, 2.0)"]) + ["s = (h, f)"],
         ["r1", "v1", "out", "s"]),
]
