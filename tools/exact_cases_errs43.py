"""Regression cases of helper "errs43" (session 43).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import GRAPH, case

# float32 NaNs of distinct payloads and signs (the last two signaling), as int32 bits
_NANS32 = "[0x7fc00001, -0x3ffffe, 0x7f800003, -0x7ffffc, 0x7fc00005, -0x400000, 0x7f800007, 0x7fc00008, 1065353216]"
_NANS32B = "[-0x3ffff0, 0x7fc00011, -0x7fffee, 0x7f800013, 0x7fc00014, 0x7fc00000, -0x3fffea, 0x7f800017, 0x7fc00018]"

CASES = [
    case("add-sub-nan-of-other",  # (errs42's lane table) PyTorch's float32/float64 add and sub kernels give
         # other's NaN, quieted, where both operands are NaN (sub: add's with -alpha, the NaN's sign kept),
         # in every lane: contiguous, strided, broadcast, 0-d, numbers, alpha, in place, out=, rsub, mixed
         # dtypes; numpy gave self's
         [f"a = torch.tensor({_NANS32} * 3, dtype=torch.int32).view(torch.float32)",
          f"b = torch.tensor({_NANS32B} * 3, dtype=torch.int32).view(torch.float32)",
          "bits = lambda t: t.view(torch.int32 if t.dtype == torch.float32 else torch.int64).tolist()",
          "r1 = bits(a + b)", "r2 = bits(a - b)", "r3 = bits(torch.add(a, b, alpha=2))",
          "r4 = bits(torch.sub(a, b, alpha=-3))", "r5 = bits(a.clone().add_(b))", "r6 = bits(a.clone().sub_(b))",
          "o = torch.empty(0)", "torch.sub(a, b, out=o)", "r7 = bits(o)",
          "r8 = bits(a[:26:2] + b[1::2])", "r9 = bits(a + b[2])", "r10 = bits(a[1] - b)",
          "r11 = bits(a - b[:1].expand(27))", "r12 = bits(a + float('nan'))", "r13 = bits(a - -float('nan'))",
          "r14 = bits(torch.rsub(a, b))", "r15 = bits(torch.rsub(a, b, alpha=2))", "r16 = bits(float('nan') - a)",
          "r17 = bits(a.double() + b)", "r18 = bits(a + b.double())", "r19 = bits(a[3] + b[1])",
          "r20 = bits(a.reshape(3, 9).t() + b.reshape(9, 3))"],
         [f"r{i}" for i in range(1, 21)]),
    case("cond-nuc-svdvals-composite",  # (errs42's run 41618000) linalg.cond(A, 'nuc') is ATen's
         # svdvals(A).sum(-1) * svdvals(A).reciprocal().sum(-1): no inverse, no nan_to_num (a zero matrix: nan),
         # the graph MulBackward0(SumBackward1(LinalgSvdBackward0), SumBackward1(ReciprocalBackward0))
         [GRAPH, "A = torch.tensor([[[2., 0.], [0., 4.]], [[0., 0.], [0., 0.]]], requires_grad=True)",
          "r = torch.linalg.cond(A, 'nuc')", "g = graph(r.grad_fn)", "r[0].backward()",
          "B = torch.diag(torch.tensor([3., -1., 2.], dtype=torch.float64)).requires_grad_()",
          "r2 = torch.linalg.cond(B, p='nuc')", "r2.backward()",
          "o = torch.empty(0, dtype=torch.float64)", "torch.linalg.cond(B.detach(), 'nuc', out=o)"],
         ["r", "g", "A.grad", "r2", "B.grad", "o"]),
    case("set-on-integral-self-requiring-grad",  # (errs42's left item) set_ of a bool or integer tensor that
         # requires grad (lt_ of a tensor requiring grad made it so): VariableType records set_'s NotImplemented
         # node on any dtype (no "Autograd not support dtype"); a view of it is still refused (CopySlices)
         ["t = torch.tensor([0.5, -1.0, 2.0, 3.0], requires_grad=True)",
          "b = torch.zeros(4, dtype=torch.bool)", "b.lt_(t)", "b.set_(torch.ones(3, dtype=torch.bool))",
          "n1 = (type(b.grad_fn).__name__, b.requires_grad, b._version, [type(f).__name__ for f, _ in b.grad_fn.next_functions])",
          "i = torch.zeros(4, dtype=torch.int64)", "i.lt_(t)", "i.set_()", "n2 = (type(i.grad_fn).__name__, i.tolist())",
          "j = torch.zeros(4, dtype=torch.int32)", "j.lt_(t)", "j.set_(torch.ones(4, dtype=torch.int32).untyped_storage(), 1, (2,), (1,))",
          "n3 = (type(j.grad_fn).__name__, j.tolist())",
          "k = torch.zeros(4, dtype=torch.bool)", "k.lt_(t)",
          "try:\n    k[1:3].set_(torch.ones(2, dtype=torch.bool))\nexcept Exception as e:\n    err4 = str(e)"],
         ["b", "n1", "n2", "n3", "err4"]),
    case("getrf-nan-pivot-of-17-or-more",  # (dt42e value:lu) MKL's getrf of a matrix of 17 or more rows or
         # columns pivots on a column's first NaN, over any magnitude (inf too), every column step; a smaller
         # matrix's search is the reference's (a NaN never larger, unless in the first place)
         ["A = torch.eye(17, dtype=torch.float64) * 0.5 + 0.01",
          "A[:, 0] = torch.tensor([1.0, 3.0, float('inf'), float('nan'), 2.0] * 3 + [1.0, 1.0], dtype=torch.float64)",
          "A[:3, 5] = 0.5", "A[7, 5] = float('nan')", "A[11, 5] = 9.0",
          "p1 = torch.linalg.lu_factor_ex(A).pivots", "p2 = torch.linalg.lu(A[:, :3]).P.argmax(0)",
          "p3 = torch.linalg.lu_factor_ex(A[:16, :16]).pivots", "p4 = torch.linalg.lu_factor_ex(A[:3].float()).pivots"],
         ["p1", "p2", "p3", "p4"]),
    case("grid-sample-reflection-minus-inf-grad-sign",  # (strides42's run 41718000, seed 41718994) float32
         # bilinear grid_sample's vector kernel under reflection keeps the gradient at a NaN place (an infinite
         # grid coordinate: the clip's mask passes a NaN) with reflect's sign: -inf lies below low, and
         # one_more_flip (NaN > NaN) is false, so its multiplier is -scale (+inf's and NaN's +scale); W even:
         # the NaN place's wrapped offsets stay in rows 0 and 1 of the input
         ["x = torch.arange(12, dtype=torch.float32).reshape(2, 1, 3, 2).sin()",
          "g = torch.tensor([[[[0.1, -0.2], [0.3, float('-inf')], [0.5, 0.7]]], [[[0.3, 0.25], [-0.9, float('-inf')], "
          "[0.3, 0.3]]]]).requires_grad_()",
          "F.grid_sample(x, g, mode='bilinear', padding_mode='reflection', align_corners=True).sum().backward()",
          "g1 = g.grad.clone()", "g.grad = None",
          "F.grid_sample(x, g, mode='bilinear', padding_mode='reflection', align_corners=False).sum().backward()"],
         ["g1", "g.grad"]),
    case("half-add-sub-nan-by-lanes",  # (errs42's lane table) float16 add/sub: where both operands are NaN,
         # PyTorch's vector lanes (blocks of 32) give other's NaN, its scalar loop (the tail) self's
         ["a = torch.tensor([0x7e01, -0x1fe, 0x7c03] * 23, dtype=torch.int16).view(torch.float16)",
          "b = torch.tensor([-0x1ef, 0x7e11, 0x7c13] * 23, dtype=torch.int16).view(torch.float16)",
          "bits = lambda t: t.view(torch.int16).tolist()",
          "r1 = bits(a + b)", "r2 = bits(a - b)", "r3 = bits(torch.add(a, b, alpha=3))", "r4 = bits(a.clone().sub_(b))",
          "r5 = bits(a + float('nan'))", "r6 = bits(a[:40] - b[:1].expand(40))", "r7 = bits(a.reshape(3, 23) + b.reshape(3, 23))"],
         ["r1", "r2", "r3", "r4", "r5", "r6", "r7"]),
]
