"""Regression cases of issue 10's error, exception-type and printing groups left by seeds 16000000
and 17000000 (helper "errors").

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


CASES = [
    case("matrix-rank-checks",
         ["x2 = torch.tensor([[4, 3, 0]], dtype=torch.int32)", "sq = torch.tensor([[4, 3], [0, 1]], dtype=torch.int32)",
          "d = torch.tensor([[4., 3.], [0., 1.]], dtype=torch.float64)"],
         ["torch.linalg.matrix_rank(x2, rtol=0.5)", "torch.linalg.matrix_rank(x2)", "torch.linalg.matrix_rank(x2.half())",
          "torch.linalg.matrix_rank(x2, atol=1.0)", "torch.linalg.matrix_rank(x2, tol=1.0)",
          "torch.linalg.matrix_rank(x2.bool(), rtol=0.5)", "torch.linalg.matrix_rank(x2.half(), rtol=0.5)",
          "torch.linalg.matrix_rank(x2, rtol=0.5, hermitian=True)", "torch.linalg.matrix_rank(sq, rtol=0.5, hermitian=True)",
          "torch.linalg.matrix_rank(sq.half(), rtol=0.5, hermitian=True)", "torch.linalg.matrix_rank(x2.to(torch.uint8), 0.5)",
          "torch.linalg.matrix_rank(d, 0.5, True)", "torch.linalg.matrix_rank(d, torch.tensor(0.5), True)",
          "torch.linalg.matrix_rank(torch.ones(2, 0, 3).int(), rtol=0.5)",
          "torch.linalg.matrix_rank(torch.ones(0, 2, 3).int(), rtol=0.5, hermitian=True)",
          "torch.linalg.matrix_rank(torch.ones(3, 0, 2, 3).half(), rtol=torch.tensor([1., 2.]), hermitian=True)",
          "torch.linalg.matrix_rank(torch.ones(2, 3), atol=torch.tensor([1., 2.]), rtol=0.1)",
          "torch.linalg.matrix_rank(torch.ones(2, 3), atol=1, rtol=torch.tensor(0.1))",
          "torch.linalg.matrix_rank(torch.ones(2, 2, 3), None)", "torch.linalg.matrix_rank(torch.ones(2, 3), tol=None)",
          "torch.linalg.matrix_rank(torch.ones(2, 3), atol=torch.tensor([1., 2.]))"]),
]

CASES += [
    case("bool-tensor-symint",
         ["b = torch.tensor(True)", "x = torch.ones(3, 3)"],
         ["x.clone().triu_(b)", "x.triu(b)", "torch.triu(x, b)", "torch.tril(x, diagonal=b)",
          "x.clone().tril_(torch.tensor([True]))", "x.clone().triu_(torch.tensor([1]))",
          "x.clone().triu_(torch.tensor(1.))"]),
    case("in-place-output-shape-first",
         ["b = torch.tensor([True, True])", "i = torch.tensor([1, 2])", "x2 = torch.tensor([[[False]], [[True]], [[True]]])",
          "x4 = torch.tensor([True, False, True])", "r5 = x4 * 1"],
         ["b[::2].pow_(torch.tensor([True, False]))", "i[:1].clone().remainder_(torch.tensor([0, 2]))",
          "i[:1].clone().add_(torch.tensor([1, 2]), alpha=2.5)", "i[:1].clone().fmod_(torch.tensor([0, 0]))",
          "i[:1].clone().div_(torch.tensor([0, 0]), rounding_mode='floor')", "r5.clone().__imod__(x2)",
          "r5.clone().__ifloordiv__(x2)", "x4.clone().remainder_(x2)", "x4.clone().__ipow__(x2)",
          "x4.clone().__ipow__(x2[0, 0])", "i[:1].clone().lerp_(i.float(), 0.5)", "b[:1].clone().sub_(b)",
          "r5.clone().remainder_(torch.tensor([1, 0, 2]))", "r5"]),
    case("clamp-bool-kernels",
         ["e = torch.zeros(0, dtype=torch.bool)", "b = torch.tensor([True, False])"],
         ["e.clamp(True)", "e.clamp(e, e)", "b.clamp(torch.tensor(1), b)", "b.clamp(min=True, max=None)",
          "b.clamp_min(torch.tensor(1))", "b[:1].clone().clamp_(b, b)", "b.clamp(b, torch.ones(3, dtype=torch.bool))",
          "b.clone().clamp_max_(True)", "b.clone().clamp_min_(True)", "b.clamp(max=True)", "b.clamp(True, False)",
          "b.clamp_max(1)", "b.clamp_max(1.5)", "b.clamp_max(b)", "b.clamp(b, b)", "b.clamp(b)", "torch.clip(b, True)",
          "b.clone().clip_(max=True)", "b.clamp_max(torch.tensor(True))", "b[:1].clone().clamp_max_(True)",
          "torch.tensor([1, 2]).clamp_max(True)"]),
    case("addcmul-value-conversion",
         ["x1 = torch.tensor([0, 1, -2, 4], dtype=torch.int32)", "t = torch.tensor([0, -4, 4, 4], dtype=torch.int32)",
          "h = x1.half()"],
         ["x1.addcmul(t, t, value=float('nan'))", "x1.addcmul(t, t, value=float('inf'))",
          "x1.addcmul(t, t, value=1e10)", "x1.addcmul(t, t, value=2.5)", "x1.long().addcmul(t, t, value=2**40)",
          "x1.long().addcmul(t, t, value=2**70)", "x1.bool().addcmul(t.bool(), t.bool(), value=float('nan'))",
          "x1.to(torch.int8).addcmul(t.to(torch.int8), t.to(torch.int8), value=300)",
          "x1.to(torch.uint8).addcmul(t.to(torch.uint8), t.to(torch.uint8), value=-1)",
          "h.addcmul(t.half(), t.half(), value=1e10)", "h.addcmul(t.half(), t.half(), value=0.1)",
          "h.addcdiv(t.half(), t.half() + 1, value=0.1)", "x1.float().addcmul(t.float(), t.float(), value=1e300)",
          "x1.float().addcdiv(t.float(), t, value=-1e300)", "x1.clone().addcmul_(t, t, value=float('nan'))",
          "x1.addcmul(t, t[:2], value=float('nan'))", "x1.addcmul(t.float(), t, value=float('nan'))",
          "torch.addcmul(x1.double(), t.float(), t.float(), value=1e300)"]),
    case("matrix-norm-order-first",
         ["v = torch.tensor([-1.0, 1.5], dtype=torch.float16)", "m = torch.tensor([[1., 2.], [3., -4.]], requires_grad=True)"],
         ["torch.linalg.matrix_norm(v, 3)", "torch.linalg.matrix_norm(v, 'abc')", "torch.linalg.matrix_norm(m, 3, dim=(0,))",
          "torch.linalg.matrix_norm(m, 3, dim=(0, 0))", "torch.linalg.matrix_norm(m, 3.14159265)",
          "torch.linalg.matrix_norm(m, 1e20)", "torch.linalg.matrix_norm(m, float('nan'))", "torch.linalg.matrix_norm(m, 0)",
          "torch.linalg.norm(v, 3, dim=(0, 1))", "torch.linalg.norm(v, 'abc')", "torch.norm(m, 'abc')",
          "torch.norm(m, 'nuc')", "torch.norm(m, 'nuc', dim=(1, 0))", "torch.norm(m, 'nuc', dim=1)",
          "torch.norm(m, 'fro', dim=(0, 1, 1))", "torch.norm(v, 'nuc')", "m.norm('nuc', keepdim=True)",
          "torch.norm(m, 'nuc', dtype=torch.float64)", "torch.autograd.grad(torch.norm(m, 'nuc'), m)"]),
    case("embedding-0d-weight",
         ["x1 = torch.tensor(0.5)", "w = torch.tensor(0.5, requires_grad=True)"],
         ["F.embedding(x1, w, -1)", "F.embedding(x1, w, 1)", "F.embedding(x1, w)",
          "torch.embedding(torch.tensor(0.5), torch.tensor([0]))", "torch.embedding(w, torch.tensor([0.5]))",
          "F.embedding(torch.tensor([0]), w.detach())", "w.size(0)", "w.size(-1)", "w.size(5)", "torch.ones(2).size(-2)"]),
]

CASES += [
    case("copysign-saves-result",
         ["x1 = torch.tensor([False])", "x = torch.tensor([1., -2.])",
          "x3 = torch.tensor([[[-3.0, 0.25], [0.75, -2.25]], [[-2.0, 0.5], [0.75, -1.5]]], dtype=torch.float64, "
          "requires_grad=True)",
          "r6 = torch.copysign(x1, x3)", "r6[::2].div_(0.0)", "o = torch.tensor([1., -1.], requires_grad=True)",
          "r = torch.copysign(x, o)"],
         ["r6.sum().backward()", "r.grad_fn._saved_result", "r.grad_fn._saved_self",
          "torch.autograd.grad(torch.copysign(x, o).sum(), o)", "torch.autograd.grad(torch.copysign(o, x).sum(), o)"]),
    case("pointwise-loss-empty-mean-backward",
         ["x1 = torch.zeros(0, dtype=torch.float32).requires_grad_()",
          "r5 = F.huber_loss(torch.msort(x1), torch.zeros(0, dtype=torch.float32))",
          "r5.backward(gradient=torch.tensor(-1.0, dtype=torch.float64))", "g = torch.tensor(1., dtype=torch.float64)"],
         ["r5", "x1.grad", "torch.autograd.grad(F.huber_loss(x1, torch.zeros(0)), x1, g)",
          "torch.autograd.grad(F.mse_loss(x1, torch.zeros(0)), x1, g)",
          "torch.autograd.grad(F.smooth_l1_loss(x1, torch.zeros(0)), x1, g)",
          "torch.autograd.grad(F.huber_loss(x1, torch.zeros(0)), x1)"]),
]
