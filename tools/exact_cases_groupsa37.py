"""Regression cases of session 37's groupsa37 work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    # larfg scales a column whose reflector's beta is below safmin (2^-102 float32, 2^-969 float64) up by
    # 1/safmin before the reflector, and beta back: a subnormal matrix gets an orthonormal Q (was Q's
    # columns of +-1, not orthonormal); float64's norm of values below 2^-511 squares them scaled up
    case("qr-subnormal-orthonormal", [
        "t = 1.401298464324817e-45",
        "a = torch.tensor([[0.0, t, t], [-t, 0.0, t], [-t, t, -t]])",
        "d = torch.tensor([[3.0, 1.0, 2.0], [1.0, -2.0, 0.0], [2.0, 1.0, 1.0]], dtype=torch.float64)",
    ], [
        "[x.tolist() for x in torch.linalg.qr(a)]",
        "[x.tolist() for x in torch.linalg.qr(a, mode='complete')]",
        "[x.tolist() for x in torch.linalg.qr(a * 3e-40)]",
        "[x.tolist() for x in torch.linalg.qr(d * 1e-160)]",
        "[x.tolist() for x in torch.linalg.qr(d * 1e-300)]",
        "[x.tolist() for x in torch.linalg.qr(d * 5e-324, mode='complete')]",
        "[x.tolist() for x in torch.geqrf(a)]",
    ]),
    # gesdd scales a matrix whose largest magnitude is outside [sqrt(safmin)/eps, its reciprocal] to that
    # bound first (lascl), S back after: a one-row SVD of tiny or huge values (was infs and NaNs in Vh for
    # subnormals, last bits off for the others); a row with an inf: gesdd's NaNs, U +1
    case("svd-one-row-scaled", [
        "t = 1.401298464324817e-45",
        "a = torch.tensor([[t, t, 0.0, -t]])",
        "b = torch.tensor([[2.5, -1.0, 0.75, 3.0]])",
        "inf = float('inf')",
    ], [
        "[x.tolist() for x in torch.linalg.svd(a)]",
        "torch.linalg.svdvals(a.t()).tolist()",
        "[x.tolist() for x in torch.linalg.svd(b * 1e-30)]",
        "[x.tolist() for x in torch.linalg.svd(b * 3e37, full_matrices=False)]",
        "[x.tolist() for x in torch.linalg.svd(b.double() * 1e-310)]",
        "[x.tolist() for x in torch.linalg.svd(b.double() * 1e300)]",
        "[x.tolist() for x in torch.linalg.svd(torch.tensor([[1.0, inf, -2.0]]))]",
        "torch.linalg.svdvals(torch.tensor([[-inf], [1.0]], dtype=torch.float64)).tolist()",
    ]),
    # _vec_softmax / _vec_logsoftmax along another dim than the last: float64 as float32 (Sleef's exp
    # on whole vectors of 4 inner positions within a thread's range, glibc's exp on the rest, the exps
    # added in the dim's order; log_softmax: chunks of 128 KiB / dim_size, Sleef's log of every sum);
    # float32's scalar exp is glibc's expf (not exp in double rounded once); the backward's exp likewise
    case("softmax-float64-other-dim-kernel", [
        "x = torch.tensor([[[-0.0, -2.75, 2.75, 1.75], [2.25, 1.75, -2.25, -2.25], [0.0, 2.25, 0.0, -0.5], [-1.5, 2.5, 1.0, -2.75]], "
        "[[0.5, -1.5, 1.5, 2.5], [0.0, 0.25, -0.25, -1.75], [-2.25, 0.25, -1.25, 0.0], [-2.0, 1.75, 1.0, -2.5]]], "
        "dtype=torch.float64, requires_grad=True)",
        "torch.softmax(x, 1).sum().backward()",
        "b = (torch.arange(20000, dtype=torch.float64) * 0.37 % 7 - 3).reshape(2000, 10)",
        "c = (torch.arange(6000, dtype=torch.float64) * 0.61 % 9 - 4).reshape(6, 40, 25)",
        "w = (torch.arange(6000, dtype=torch.float64) * 0.23 % 3 - 1).reshape(6, 40, 25)",
        "cr = c.clone().requires_grad_()",
        "torch.log_softmax(cr, 1).backward(w)",
    ], [
        "torch.softmax(x, 1).tolist()",
        "x.grad.tolist()",
        "torch.log_softmax(x, 0).tolist()",
        "torch.softmax(b, 0)[::50].tolist()",
        "torch.log_softmax(b, 0)[::50].tolist()",
        "torch.softmax(b.float(), 0)[::50].tolist()",
        "torch.log_softmax(b.float(), 0)[::50].tolist()",
        "torch.softmax(c, 1)[:, ::8].tolist()",
        "torch.log_softmax(c, 0)[:, ::8].tolist()",
        "torch.softmax(c.float(), 1)[:, ::8].tolist()",
        "cr.grad[:, ::8].tolist()",
    ]),
    # float32 lstsq (gelsy) of a full-column-rank A: MKL's sgelsy in float32 (geqr2's reflectors, orm2r's
    # larf adding each w from the last row up, back substitution dividing for one column of B and by the
    # reciprocal for more); was numpy's QR in double (0.009900983 where PyTorch's cancellation gives
    # 0.009900916, difftest dt37a numeric:lstsq). (Larger A are left out: MKL's sgelsy of a 4 x 2 A gave
    # -0.41437867 in the golden generator's process and -0.41437870 (agrad's) alone, its kernels' path
    # depending on the process's state)
    case("lstsq-float32-gelsy-steps", [
        "a = torch.tensor([[-2.25], [-2.75]])",
        "b = torch.tensor([[-2.5], [2.0]])",
        "c = torch.tensor([[1.5, -0.75], [2.0, 0.5], [-1.25, 2.75], [0.25, -3.0]])",
        "d = torch.tensor([[-1.0, 2.5], [0.5, 0.25], [3.0, -2.0], [1.75, 1.0]])",
    ], [
        "torch.linalg.lstsq(a, b).solution.tolist()",
        "torch.linalg.lstsq(a, torch.cat([b, b * 3 - 1], 1)).solution.tolist()",
    ]),  # (the 3 x 1 c[:3, :1] gave PyTorch 0.86400008 or 0.86399996 from one golden run to the next: dropped)
    # clamp_ without bounds on a tensor whose elements overlap: clamp's own check comes before the written-to
    # tensor's overlap (after autograd's leaf and view checks); was the overlap error (run 37210000)
    case("clamp-in-place-no-bounds-overlap", [
        "x = torch.tensor([-1], dtype=torch.int32).expand(2, 1)",
        "y = torch.tensor([-1.5, 2.0], requires_grad=True)",
    ], [
        "torch.clamp_(x)", "x.clamp_()", "x.clip_(None, None)", "x.clamp_(min=0)", "y.clamp_()",
        "torch.tensor([0.5]).expand(3).clamp_(max=None)",
    ]),
    # layer_norm's double backward over an empty normalized shape: ATen's 3.0 / N is inf for N = 0 (was
    # Python's ZeroDivisionError; run 37220000)
    case("layer-norm-empty-double-backward", [
        "x = torch.zeros(0, dtype=torch.float32).requires_grad_()",
        "r = torch.nn.functional.layer_norm(x, (0,), eps=-0.0)",
        "g, = torch.autograd.grad(r.sum(), [x], create_graph=True)",
        "g.pow(2).sum().backward()",
        "w = torch.zeros(2, 0, dtype=torch.float64).requires_grad_()",
        "rw = torch.nn.functional.layer_norm(w, (0,))",
        "gw, = torch.autograd.grad(rw.sum(), [w], create_graph=True)",
        "gw.sum().backward()",
    ], [
        "g", "x.grad", "gw", "w.grad",
    ]),
    # setitem into a size-1 slice of an expanded dim: PyTorch's slice keeps stride 0 there, so the value
    # expanded to the slice (its new dim's stride the next size times stride) has other strides over the
    # same bytes: a partial overlap, refused; was copied (copy_'s early exit; run 37220000)
    case("setitem-slice-of-expanded-dim-overlap", [
        "x1 = torch.tensor([3, 0], dtype=torch.int32)",
        "v2 = x1.expand(2, 2)",
        "y = torch.tensor([3.0, 0.0])",
        "w = y.expand(3, 2)",
    ], [
        "v2.__setitem__(slice(None, None, 2), x1)", "v2.__setitem__(slice(None, 1), x1)",
        "v2.__setitem__(0, x1)", "v2.__setitem__(slice(None, 1), x1[None])",
        "w.__setitem__(slice(1, 2), y.clone())", "w.__setitem__((None, slice(None, None, 2)), y)",
        "w.__setitem__((Ellipsis, slice(None, 1), slice(None)), y)", "x1", "y",
    ]),
    # map_'s dtype check names a dtype without a legacy torch.*Tensor class by its C++ type (CPUBoolType);
    # asarray of a non-float tensor with requires_grad=True: its own "Only ... and complex" text (run 37240000)
    case("map-legacy-type-and-asarray-grad-text", [
        "x = torch.tensor([-3.0, 2.0])",
        "b = torch.tensor([True, False])",
        "w = torch.tensor([[1.5]], requires_grad=True)",
    ], [
        "x.expand(2, 2).map_(b.expand(2, 2), lambda p, q: p)", "x.clone().map_(b, lambda p, q: p)",
        "b.clone().map_(x, lambda p, q: p)", "x.clone().map_(torch.tensor([1, 2]), lambda p, q: p)",
        "torch.asarray(w, dtype=torch.int64)", "torch.asarray(w, dtype=torch.bool, requires_grad=True)",
        "torch.asarray(w.detach(), dtype=torch.int32, requires_grad=True)",
    ]),
    # ldl_factor reads the lower triangle as it is: symmetrising by adding the mirrored zeros made a -0.0
    # +0.0, whose scaling by a negative pivot then gave -0.0 where PyTorch has 0.0 (run 37240000 repr)
    case("ldl-factor-signed-zeros", [
        "x = torch.tensor([[1.0, 3.0, 0.0, -1.25], [0.0, -1.5, -2.5, 2.0], [-0.75, -1.5, 0.75, 0.0], "
        "[1.5, -2.25, 1.5, -1.25]])",
    ], [
        "torch.linalg.ldl_factor(-x)", "torch.linalg.ldl_factor(x)", "torch.linalg.ldl_factor_ex(-x.double())",
    ]),
    # ldexp of an integer self with an integer exponent: mul(self, pow(2.0, other)), whose power is laid out
    # contiguous, so a transposed exponent gives a C-ordered result (was the kernel's TensorIterator layout,
    # (1, 8, 4); run 37250000 stride:ldexp)
    case("ldexp-integer-self-layout", [
        "x1 = torch.tensor([[[-1, 3], [-1, 4]]], dtype=torch.int32)",
        "x2 = torch.tensor([[[1, 0, 0, 1], [1, 1, 0, 1]], [[0, 1, 1, 1], [0, 0, 1, 1]]])",
        "v3 = x2.transpose(0, -1)",
    ], [
        "torch.ldexp(x1, v3).stride()", "torch.ldexp(x1, v3)", "torch.ldexp(x1.to(torch.uint8), v3.int()).stride()",
        "torch.ldexp(x1.expand(4, 2, 2).transpose(1, 2), v3).stride()",
    ]),
    # an integer nextafter(_) whose operands do not broadcast: TensorIterator's size error comes before the
    # kernel's dtype dispatch (run 37260000 error-type:nextafter_)
    case("nextafter-shapes-before-dtype", [
        "b = torch.zeros(4, 4, dtype=torch.bool)",
        "i = torch.tensor([-2, -4, 3], dtype=torch.int32)",
    ], [
        "i.nextafter_(b)", "i.nextafter(b)", "torch.nextafter(i, b)", "i.clone().nextafter_(i)",
        "i.clone().atan2_(torch.zeros(4, 4, dtype=torch.int32))",
    ]),
    # ldexp_ is self.mul_(pow(2.0, other)): other reaches mul_ as a new tensor, so an other overlapping self is
    # no partial overlap (was refused; run 37260000 raises-only-agrad:ldexp_); self's own checks stay
    case("ldexp-in-place-overlapping-other", [
        "x = torch.tensor([2.75, 1.0, 3.0])",
    ], [
        "(lambda y: y[::2].ldexp_(y[:2]))(x.clone())", "(lambda y: y[:2].ldexp_(y[1:]))(x.clone())",
        "(lambda y: y[::2].ldexp_(y))(torch.tensor([2.75]))", "x.clone().expand(2, 3).ldexp_(x)",
        "x.clone().ldexp_(torch.zeros(2, 3))",
    ]),
    # embedding's backward skips the padding_idx rows (an inf there is not read: no inf * 0 NaN in the padding
    # row's gradient; run 37260000 grad-value:backward)
    case("embedding-padding-inf-gradient", [
        "w = torch.tensor([[-2.5, 2.25, -0.25], [0.5, -1.0, -3.0], [-2.75, 2.75, 1.5]]).requires_grad_()",
        "idx = torch.tensor([[0, 0, 2], [0, 0, 2], [0, 0, 0]])",
        "g = torch.tensor([[[-1.0, -3.0, 1.0], [0.0, 1.25, float('inf')], [2.5, 3.0, 1.5]], "
        "[[-1.25, 0.0, 0.0], [2.5, -2.0, -3.0], [-0.5, -2.5, -1.25]], [[0.0, 0.5, -1.5], [1.5, -3.0, 0.25], "
        "[2.25, -2.0, -1.5]]])",
        "torch.nn.functional.embedding(idx, w, padding_idx=0).backward(g)",
        "a = w.grad.clone()",
        "w.grad = None",
        "torch.nn.functional.embedding(idx, w, padding_idx=0, scale_grad_by_freq=True).backward(g)",
    ], [
        "a", "w.grad",
    ]),
]
