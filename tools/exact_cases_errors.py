"""Regression cases of issue 10's error groups from the fresh runs (helper "diff"), and the shift operators.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


_INTS = ["i8 = torch.tensor([1, -1, 5, -128, 127], dtype=torch.int8)",
         "u8 = torch.tensor([1, 255, 5, 128], dtype=torch.uint8)",
         "i16 = torch.tensor([1, -1, 5, -7], dtype=torch.int16)",
         "i32 = torch.tensor([1, -1, 5, -7], dtype=torch.int32)",
         "i64 = torch.tensor([1, -1, 5, -7])", "f = torch.tensor([1., 2.])", "b = torch.tensor([True, False])"]

CASES = [
    case("shift-values",
         _INTS,
         ["i8 << 1", "i8 << 7", "i8 << 8", "i8 << -1", "i8 >> 1", "i8 >> 7", "i8 >> 8", "i8 >> -1", "i8 << 260",
          "i8 >> 260", "u8 << 1", "u8 >> 1", "u8 << 8", "u8 >> 8", "u8 << -1", "u8 >> -1", "u8 << 257",
          "i16 << 16", "i16 >> 16", "i16 << 15", "i32 << 32", "i32 >> 32", "i32 << 31", "i64 << 63", "i64 << 64",
          "i64 >> 64", "i64 << -1", "i64 >> -1", "i64 >> 63", "torch.tensor([3]) << 2 ** 63",
          "torch.tensor(2 ** 62) << 1", "torch.tensor(-2 ** 62) << 2", "torch.tensor(2 ** 40) >> 3",
          "i64 << torch.tensor([0, 1, 64, -1])", "i64 >> torch.tensor([0, 1, 64, -1])",
          "u8 << torch.tensor([1, 2, 3, 4], dtype=torch.int8)", "torch.tensor(5, dtype=torch.uint8) << i64",
          "b << 1", "b << i64[:2]", "1 << i64", "True << i64", "i64 << True", "i8.__rlshift__(2)",
          "i8.__rrshift__(2)", "i8.__rlshift__(torch.tensor(3))", "torch.bitwise_left_shift(i64, 2)",
          "torch.bitwise_left_shift(2, i64)", "torch.bitwise_right_shift(i64, 1)", "i64.bitwise_left_shift(2)",
          "i64.bitwise_right_shift(i64)", "torch.bitwise_left_shift(i64, 1, out=torch.empty(4, dtype=torch.int64))"]),
    case("shift-in-place",
         _INTS,
         ["i64.clone().bitwise_left_shift_(2)", "i8.clone().bitwise_left_shift_(torch.tensor([1]))",
          "u8.clone().bitwise_right_shift_(-1)", "i8.clone().__ilshift__(1)", "i8.clone().__irshift__(i8)",
          "i64.clone().bitwise_not_()", "b.clone().bitwise_not_()", "u8.clone().bitwise_not_()"]),
    case("shift-errors",
         _INTS,
         ["f << 1", "f >> 1", "f << f", "i64 << f", "i64 << 1.5", "i64 >> 1.5", "b << b", "b >> b", "b << True",
          "i64 << b", "1.5 << i64", "torch.tensor([1], dtype=torch.float16) << 1", "i8.__rlshift__(2.5)",
          "i64.__lshift__('a')", "i64.__lshift__(None)", "i64[:2] << i64[:3]", "torch.tensor(2) << torch.tensor([1.5])",
          "torch.bitwise_left_shift(f, 1)", "torch.bitwise_left_shift(i64, 1.5)", "torch.bitwise_left_shift(1.5, i64)",
          "torch.bitwise_left_shift(1, 2)", "torch.bitwise_left_shift(i64, 'a')", "torch.bitwise_left_shift(i64, None)",
          "i64.bitwise_right_shift()", "torch.bitwise_right_shift(i64)", "i64.clone().bitwise_left_shift_(f[:1])",
          "i8.clone().__ilshift__(1.5)", "i8.clone().__irshift__(torch.ones(2, 5, dtype=torch.int8))",
          "f.clone().bitwise_right_shift_(1)", "b.clone().bitwise_right_shift_(1)", "f.clone().bitwise_not_()",
          "torch.tensor([1.], requires_grad=True) << 1", "torch.tensor([1.], requires_grad=True).bitwise_left_shift_(1)",
          "i64.bitwise_not_(1)"]),
]

CASES += [
    case("index-select-add-0d",
         ["x = torch.tensor(2.75, dtype=torch.float64, requires_grad=True)", "m = torch.ones(2, 3)",
          "s = torch.tensor(2., requires_grad=True)", "r = torch.index_add(x, 0, torch.tensor([0]), s, alpha=3)"],
         ["torch.index_select(x, 0, torch.tensor([0]))", "torch.index_select(x, -1, torch.tensor(0))",
          "torch.index_select(torch.tensor(5), 0, torch.tensor(0))",
          "torch.autograd.grad(torch.index_select(x, 0, torch.tensor([0])) * 3, x)", "r", "torch.autograd.grad(r, [x, s])",
          "torch.index_add(torch.tensor(4, dtype=torch.int32), 0, torch.tensor(0), torch.tensor(-1, dtype=torch.int32), alpha=2)",
          "torch.index_add(torch.tensor([4, 5], dtype=torch.int32), 0, torch.tensor([1]), torch.tensor([-3], dtype=torch.int32), alpha=2.7)",
          "torch.index_add(m, 0, torch.tensor([0]), torch.ones(1, 2))", "torch.index_add(m, 0, torch.tensor([0]), torch.ones(2, 3))",
          "torch.index_add(m, 1, torch.tensor([0]), torch.ones(2))", "torch.index_add(m, 0, torch.tensor([0.]), torch.ones(1, 3))",
          "torch.index_add(torch.tensor(1.), 0, torch.tensor([0]), torch.ones(1, 3))",
          "torch.index_add(torch.tensor(1.), 0, torch.tensor([0, 0]), torch.tensor(2.))",
          "torch.index_add(torch.tensor(1.), 0, torch.tensor([2]), torch.tensor(2.))",
          "torch.index_add(torch.ones(3), 0, torch.tensor([2]), torch.tensor(2.))",
          "torch.index_add(torch.ones(3), 0, torch.tensor([-1]), torch.tensor([2.]))",
          "torch.index_add(m, 1, torch.tensor([0]), torch.tensor(2.))"]),
    case("matmul-dtype-order",
         ["d2 = torch.ones(3, 1, dtype=torch.float64)", "l1 = torch.tensor([-3])", "f1 = torch.ones(1)",
          "l2 = torch.ones(3, 1, dtype=torch.long)", "f = torch.float64"],
         ["d2 @ l1", "l2 @ f1", "l1 @ d2.t()", "torch.mv(d2, l1)", "torch.mv(d2, torch.ones(2, dtype=torch.long))",
          "torch.ones(2, 3, 1, dtype=f) @ l1", "l1 @ torch.ones(2, 1, 3, dtype=f)",
          "torch.ones(2, 3, 1, dtype=f) @ torch.ones(2, 1, 3, dtype=torch.long)",
          "torch.ones(2, 3, 1, dtype=f) @ torch.ones(2, 1, dtype=torch.long)", "torch.ones(3, 1, dtype=f) @ torch.ones(2, 1, 3, dtype=torch.long)",
          "torch.ones(3, 1, dtype=torch.bool) @ torch.ones(1, dtype=torch.int32)",
          "torch.mm(torch.ones(2, 3, dtype=f), torch.ones(2, 3, dtype=torch.long))",
          "torch.bmm(torch.ones(2, 3, 1, dtype=f), torch.ones(2, 2, 3, dtype=torch.long))",
          "torch.bmm(torch.ones(2, 3, 1, dtype=torch.long), torch.ones(2, 1, 3))",
          "torch.addmv(torch.ones(3), torch.ones(3, 1, dtype=f), torch.ones(1, dtype=torch.long))",
          "torch.addmv(torch.ones(3, dtype=torch.long), torch.ones(3, 1, dtype=f), torch.ones(1, dtype=f))",
          "torch.addmv(torch.ones(2), torch.ones(2, 3, dtype=f), torch.ones(2, dtype=f))"]),
    case("addbmm-baddbmm-order",
         ["f = torch.float64"],
         ["torch.baddbmm(torch.ones(2, 3), torch.ones(2, 3), torch.ones(3, 3))", "torch.baddbmm(torch.ones(2, 3), torch.ones(3), torch.ones(3, 3))",
          "torch.baddbmm(torch.ones(2, 3), torch.tensor(1.), torch.ones(3, 3))", "torch.baddbmm(torch.ones(2, 3), torch.ones(1, 2, 3), torch.ones(3))",
          "torch.baddbmm(torch.ones(2, 3), torch.ones(1, 2, 3, dtype=f), torch.ones(1, 3, 3))",
          "torch.baddbmm(torch.ones(2, 3, dtype=f), torch.ones(1, 2, 3, dtype=f), torch.ones(1, 3, 3))",
          "torch.baddbmm(torch.ones(2, 2, 4, 3), torch.ones(1, 2, 3), torch.ones(1, 3, 3))",
          "torch.baddbmm(torch.ones(2, 3), torch.ones(1, 2, 3, 1), torch.ones(1, 3, 3))",
          "torch.addbmm(torch.ones(2, 3), torch.ones(2, 3), torch.ones(3, 3))", "torch.addbmm(torch.ones(2, 3), torch.tensor(1.), torch.ones(3, 3))",
          "torch.addbmm(torch.ones(3, 1, 2), torch.ones(3, 1, 2), torch.ones(3, 1, 2))",
          "torch.addbmm(torch.ones(2, 3), torch.ones(1, 2, 3, dtype=f), torch.ones(1, 3, 3))",
          "torch.addbmm(torch.ones(2, 3, dtype=f), torch.ones(1, 2, 3), torch.ones(1, 3, 3))",
          "torch.addbmm(torch.ones(2, 3, dtype=f), torch.ones(0, 2, 3), torch.ones(0, 3, 3))",
          "torch.addbmm(torch.ones(2, 3, dtype=torch.uint8), torch.ones(1, 2, 3, dtype=torch.uint8), torch.ones(1, 3, 3, dtype=torch.uint8))",
          "torch.addbmm(torch.ones(2, 3), torch.ones(1, 2, 3, 5), torch.ones(1, 3, 3))"]),
    case("nll-loss-order",
         ["x = torch.ones(3, 2)"],
         ["F.nll_loss(x, torch.ones(3, 2))", "F.nll_loss(torch.ones(2), torch.ones(2, dtype=torch.long))",
          "F.nll_loss(torch.ones(2), torch.ones(1, dtype=torch.long))",
          "F.nll_loss(torch.ones(2), torch.ones(1, dtype=torch.long), reduction='none').shape",
          "F.nll_loss(x, torch.ones(3, dtype=torch.long), weight=torch.ones(2, dtype=torch.float64))",
          "F.nll_loss(torch.ones(3, 2, dtype=torch.long), torch.ones(3, dtype=torch.long))",
          "F.nll_loss(x, torch.ones(3), weight=torch.ones(3))", "F.nll_loss(torch.ones(2), torch.ones(2, 1))",
          "F.nll_loss(torch.ones(2, 3, 4, 5), torch.ones(2, 4))", "F.nll_loss(torch.ones(2, 3, 4, 5, dtype=torch.long), torch.ones(2, 4, 5, dtype=torch.long))",
          "F.nll_loss(torch.ones(2, 3, 4), torch.ones(2, 4, dtype=torch.long), weight=torch.ones(3, dtype=torch.float64))",
          "F.nll_loss(torch.ones(2, 3, 4, 5), torch.ones(2, 4, 5, dtype=torch.long), weight=torch.ones(2))",
          "F.nll_loss(torch.ones(2, 3, 4, 5), torch.ones(2, 4, 6, dtype=torch.long))",
          "F.nll_loss(torch.ones(3, 2, dtype=torch.bool), torch.ones(3, dtype=torch.long))",
          "F.cross_entropy(torch.ones(3, 2), torch.ones(3, 3))"]),
    case("activation-checks",
         ["x = torch.tensor([-2.25, 1.0, 0.5], dtype=torch.float64)"],
         ["F.hardtanh_(x.clone(), max_val=-1.5)", "F.hardtanh_(x.clone(), 0.5, -1.5)", "F.hardtanh(x, max_val=-1.5)",
          "F.hardtanh_(torch.tensor([True]))", "torch.celu_(torch.zeros(0, dtype=torch.float64).requires_grad_(), alpha=0.0)",
          "torch.celu_(torch.zeros(2), alpha=0.0)", "F.celu(torch.zeros(2, requires_grad=True), 0.0, True)",
          "torch.threshold(torch.tensor(-4, dtype=torch.int32), 0.0, 0.0, False)", "F.threshold(torch.tensor(-4), 0.0, 1.0, False)",
          "torch.feature_dropout(torch.ones(2, 2, 2), float('nan'), True)", "torch.feature_dropout(torch.ones(2, 2, 2), float('nan'), False)",
          "torch.dropout(torch.ones(2, 2), float('nan'), True)", "F.dropout(torch.ones(2, 2), float('nan'), False)",
          "F.dropout2d(torch.ones(2, 2, 2, 2), float('nan'))", "F.dropout(torch.ones(2), -1)"]),
]

CASES += [
    case("pointwise-loss-dtypes",
         ["i = torch.tensor([[3, 3, -3]])", "f = torch.tensor([[1., 2., 3.]])", "b = torch.tensor([True])",
          "h = torch.tensor([3., -3.], dtype=torch.float16)", "d = torch.tensor([1., 1.], dtype=torch.float64)"],
         ["F.huber_loss(i, torch.tensor(-1), delta=0.001)", "F.huber_loss(i, torch.tensor(-1.))", "F.huber_loss(f, i)",
          "F.huber_loss(b, torch.tensor([1.]))", "F.huber_loss(h, d)", "F.huber_loss(d, h, reduction='none')",
          "F.smooth_l1_loss(i, torch.tensor(-1))", "F.smooth_l1_loss(i, f)", "F.smooth_l1_loss(b, b)",
          "F.mse_loss(i, torch.tensor(-1), reduction='none')", "F.mse_loss(b, b)", "F.mse_loss(h, d)",
          "F.l1_loss(i, torch.tensor(-1), reduction='none')"]),
    case("empty-loss-mean-no-warning",
         [],
         ["F.binary_cross_entropy(torch.zeros(0, requires_grad=True), torch.zeros(0))",
          "F.binary_cross_entropy_with_logits(torch.zeros(0), torch.zeros(0))", "F.mse_loss(torch.zeros(0), torch.zeros(0))",
          "F.huber_loss(torch.zeros(0), torch.zeros(0))", "F.smooth_l1_loss(torch.zeros(0), torch.zeros(0))"]),
]

CASES += [
    case("bool-kernels-and-wrapped-scalars",
         ["b = torch.tensor([True, False])", "u = torch.tensor([5, 7, 1], dtype=torch.uint8)"],
         ["torch.trunc(b)", "torch.floor(b)", "b.ceil()", "torch.round(b)", "torch.round(b, decimals=1)", "torch.fix(b)",
          "b.clone().round_()", "torch.trunc(torch.tensor([3]))", "torch.addcmul(b, b, b)", "b.clone().addcmul_(b, b)",
          "torch.addcmul(b, b, torch.tensor([2]))", "torch.addcdiv(torch.ones(4, 3), torch.ones(3, 2).t(), torch.ones(4, 3))",
          "torch.addcdiv(torch.ones(4, 3), torch.ones(3, 2), torch.ones(4, 3))", "torch.addcmul(torch.ones(1), torch.ones(2), torch.ones(3))",
          "torch.addcmul(torch.ones(2, 1), torch.ones(3), torch.ones(4, 5, 1))", "u.clone().fmod_(-1)", "u.fmod(-3)", "u.fmod(300)",
          "torch.tensor([5, -7], dtype=torch.int8).fmod(300)", "u.remainder(-3)"]),
    case("index-add-bounds",
         [],
         ["torch.ones(3, 4).index_add(1, torch.tensor([-1]), torch.ones(3, 1))", "torch.ones(4).index_add(0, torch.tensor([4]), torch.ones(1))",
          "torch.ones(4, 2).index_add(0, torch.tensor([0, 5, -1]), torch.ones(3, 2))",
          "torch.ones(2, 3, 4).index_add(2, torch.tensor([5]), torch.ones(2, 3, 1))",
          "torch.ones(2, 3, 4).index_add(1, torch.tensor([5]), torch.ones(2, 1, 4))"]),
]

CASES += [
    case("parser-and-factory-checks",
         ["x = torch.ones(2)"],
         ["torch.tensor(-1).repeat()", "x.repeat(2)", "x.prod(keepdim=False)", "x.min(keepdim=False)", "x.max(keepdim=True)",
          "torch.prod(x, keepdim=False)", "torch.min(x, keepdim=False)", "torch.ones(2, 3).prod(1, True)",
          "torch.ones(2, 3).max(1, keepdim=True)", "x.std(unbiased=True, keepdim=False, correction=0.001)",
          "torch.std(x, unbiased=True, keepdim=False, correction=0.001)", "x.var(unbiased=True, correction=1)",
          "x.lerp_(weight=1, end='a')", "torch.eye(1, -1)", "torch.eye(-1)", "torch.eye(-1, -2)",
          "torch.ones(3, 4, 4).unflatten(-2, (3, 2, -1, 2, 2))", "torch.ones(3, 4, 4).unflatten(-1, (0, -1))"]),
    case("trunc-floor-divide-by-zero",
         [],
         ["torch.divide(torch.tensor([4, -1, 0]), torch.tensor([0, 1, 2]), rounding_mode='trunc')",
          "torch.divide(torch.tensor([4, -1, 0]), 0, rounding_mode='floor')",
          "torch.divide(torch.tensor([7, -7, 7, -7, 2 ** 62 + 1]), torch.tensor([2, 2, -2, -2, 3]), rounding_mode='trunc')",
          "torch.divide(torch.tensor([7., -7.]), 0, rounding_mode='trunc')",
          "torch.divide(torch.tensor([-128], dtype=torch.int8), -1, rounding_mode='trunc')"]),
    case("embedding-dist-norm-lu",
         [],
         ["F.embedding(torch.ones(2, dtype=torch.float16), torch.ones(2, 2, dtype=torch.float16))",
          "F.embedding(torch.ones(2, dtype=torch.bool), torch.ones(2, 2))", "F.embedding(torch.ones(2, dtype=torch.uint8), torch.ones(2, 2))",
          "torch.tensor([True]).dist(torch.tensor(False))", "torch.tensor([True]).dist(torch.tensor(1.))",
          "torch.ones(2, dtype=torch.long).dist(torch.ones(3, dtype=torch.long))", "torch.tensor([1]).dist(torch.tensor(1))",
          "torch.linalg.vector_norm(torch.tensor([1., 2]), dtype=torch.int32)", "torch.linalg.vector_norm(torch.tensor([1., 2]), dtype=torch.float16)",
          "torch.linalg.matrix_norm(torch.tensor([[1., 2]]), dtype=torch.int32)",
          "torch.linalg.matrix_norm(torch.tensor([[1., 2]]), 'nuc', dtype=torch.float64)",
          "torch.linalg.norm(torch.tensor([[-2.5, -2.75]]), 1, keepdim=True, dtype=torch.float16)",
          "torch.linalg.norm(torch.tensor([[-2.5, -2.75]]), 2, dtype=torch.float64)", "torch.norm(torch.tensor([[-2.5, -2.75]]), 1, dtype=torch.float16)",
          "torch.linalg.lu_factor(torch.ones(1, 0, dtype=torch.int32))", "torch.linalg.lu_factor(torch.ones(2, 0, 3, dtype=torch.int64))",
          "torch.linalg.lu_factor(torch.ones(2, 2, dtype=torch.int32))", "torch.linalg.lu_factor(torch.ones(2, 0, 3))"]),
]

CASES += [
    case("var-view-bool-products",
         ["b = torch.ones(2, 2, dtype=torch.bool)", "v = torch.ones(2, dtype=torch.bool)"],
         ["torch.var(torch.ones(2), unbiased=False, keepdim=False)", "torch.ones(2).var(unbiased=False, keepdim=True)",
          "torch.std(torch.ones(2), False, keepdim=True)", "torch.var(torch.ones(2), keepdim=True)",
          "torch.var(torch.ones(2, 3), 1, False, True)", "torch.tensor(9, dtype=torch.uint8).view()",
          "torch.ones(2, 2, 2, dtype=torch.bool) @ torch.ones(2, 2, 2, dtype=torch.bool)", "b @ b", "v @ v", "b @ v", "v @ b",
          "torch.vdot(v, v)", "torch.addmm(b, b, b)", "torch.addmv(v, b, v)", "torch.baddbmm(b[None], b[None], b[None])",
          "torch.addbmm(b, b[None], b[None])", "b.mm(torch.ones(2, 0, dtype=torch.bool))",
          "torch.ones(2, 0, dtype=torch.bool) @ torch.ones(0, dtype=torch.bool)"]),
    case("lerp-zero-division-copy-inplace-bitwise",
         ["i = torch.tensor([[-1, 3]])"],
         ["torch.lerp(torch.tensor([True]), torch.tensor([False]), torch.tensor([True]))", "torch.lerp(torch.tensor([1]), torch.tensor([2]), 0.5)",
          "torch.lerp(torch.ones(2, dtype=torch.long), torch.ones(3, dtype=torch.long), 0.5)",
          "torch.lerp(torch.ones(2), torch.ones(2), torch.ones(3))", "torch.tensor([1]).lerp_(torch.tensor([2]), 0.5)",
          "torch.zeros(0, dtype=torch.uint8).floor_divide_(0)", "torch.zeros(0, dtype=torch.long) // 0", "torch.zeros(0, dtype=torch.long) % 0",
          "torch.fmod(torch.zeros(0, dtype=torch.long), 0)", "torch.div(torch.zeros(0, dtype=torch.long), 0, rounding_mode='floor')",
          "torch.zeros(2, 0, dtype=torch.long) // torch.zeros(2, 1, dtype=torch.long)", "torch.ones(2, dtype=torch.long) % 0",
          "(torch.ones(4) * 1)[1:].copy_(torch.ones(4))", "torch.ones(3).copy_(torch.ones(2, 3))",
          "(i * 1).__ior__(torch.tensor(1.75))", "(i * 1).__iand__(1.5)", "(i * 1).__ixor__(3)", "torch.tensor([True, False]).__ior__(1)",
          "torch.tensor([1, 2]).__iand__(torch.tensor([[1], [2]]))", "torch.tensor([1, 2]).bitwise_and_(3)",
          "torch.tensor([1, 2], dtype=torch.int8).bitwise_xor_(torch.tensor([4, 4]))", "torch.tensor([1., 2]).bitwise_xor_(1)",
          "torch.tensor([True]).bitwise_or_(torch.tensor([False]))", "torch.tensor([1, 2]).bitwise_and_()", "torch.tensor([1, 2]).__iand__('a')"]),
]

CASES += [
    case("expand-checks-first",
         [],
         ["torch.tensor([0.0, 2.25, 3.0, 0.25], requires_grad=True).t().__setitem__(slice(None, None, 2), torch.tensor([1.25, -2.0, -1.0, -2.25]))",
          "torch.tensor([-0.5, 1.75, 2.0], requires_grad=True).__setitem__(slice(1, None), torch.tensor([-1.0, 2.75, 0.0]))",
          "torch.ones(3, 2).__setitem__(slice(1, None), torch.ones(1, 1, 3))",
          "torch.ones(3, 2, requires_grad=True).__setitem__(torch.tensor([0, 1]), torch.ones(4, 1))",
          "torch.tensor([[1]]).masked_scatter_(torch.tensor([[True], [False], [True]]), torch.tensor([[2], [4], [3]]))",
          "torch.ones(2).masked_scatter_(torch.ones(2, 2, dtype=torch.bool), torch.ones(4))",
          "torch.ones(2, 2).masked_scatter_(torch.ones(2, dtype=torch.bool), torch.ones(4))",
          "torch.conv2d(torch.tensor([True, False]), torch.tensor([False, False]), bias=torch.tensor([0, 0]))",
          "torch.conv1d(torch.ones(2), torch.ones(2), bias=torch.ones(2, dtype=torch.float64))",
          "F.conv2d(torch.ones(2), torch.ones(2), bias=torch.ones(2, dtype=torch.half))",
          "torch.conv_transpose2d(torch.ones(1, 1, 2, 2), torch.ones(1, 1, 1, 1), torch.ones(1, dtype=torch.float64))"]),
    case("empty-inputs-reach-no-kernel",
         [],
         ["torch.zeros(0, dtype=torch.bool).expand(2, 0).log_softmax(1)", "torch.zeros(0, dtype=torch.long).softmax(0)",
          "F.log_softmax(torch.zeros(2, 0, dtype=torch.long), 0)", "torch.zeros(2, dtype=torch.bool).log_softmax(0)",
          "torch.cholesky(torch.zeros(0))", "torch.cholesky(torch.zeros(0, dtype=torch.long))", "torch.cholesky(torch.zeros(2, 0))",
          "torch.zeros(0)[[0, 0]]", "torch.zeros(2, 0)[:, [1]]", "torch.zeros(0).__setitem__([0], 1.)", "torch.zeros(3)[[5]]"]),
]

CASES += [
    case("lerp-saves-what-it-needs",
         ["x2 = torch.tensor([0.0, -0.75, -1.5, 0.0])", "e = torch.tensor(-1.75, requires_grad=True)",
          "r4 = torch.lerp(x2, e, torch.tensor([2.5, 3.0, 0.25, 0.5]))", "x2.select(0, 0).mul_(2)",
          "r4.backward(gradient=torch.tensor([-2.5, -2.25, -1.0, -2.5]))",
          "w = torch.tensor([0.5, 0.25], requires_grad=True)", "a = torch.tensor([0., 1.], requires_grad=True)",
          "r = torch.lerp(a, torch.tensor(2., requires_grad=True), w)"],
         ["e.grad", "torch.autograd.grad(r.sum(), [a, w], create_graph=True)"]),
]

CASES += [
    case("lstsq-checks",
         [],
         ["torch.linalg.lstsq(torch.ones(2, 2, dtype=torch.bool), torch.ones(2, 2, dtype=torch.bool))",
          "torch.linalg.lstsq(torch.ones(2, 2), torch.ones(2, 2, dtype=torch.long))",
          "torch.linalg.lstsq(torch.ones(2, 2, dtype=torch.long), torch.ones(2, 2))",
          "torch.linalg.lstsq(torch.ones(2, 2, dtype=torch.float16), torch.ones(2, 2, dtype=torch.float16))",
          "torch.linalg.lstsq(torch.ones(2), torch.ones(2))", "torch.linalg.lstsq(torch.ones(2, 2), torch.tensor(1.))"]),
]

CASES += [
    case("loss-weight-checks",
         [],
         ["F.huber_loss(torch.tensor([0.0, -0.75]).expand(2, 2), torch.tensor([[2.0, 0.5], [-1.5, -1.75]]), weight=1.75)",
          "F.huber_loss(torch.tensor([0.0, -0.75]), torch.tensor([[2.0, 0.5], [-1.5, -1.75]]), weight=torch.ones(2, 2))",
          "F.huber_loss(torch.tensor([0.0, -0.75]), torch.tensor([[2.0, 0.5], [-1.5, -1.75]]), weight=torch.ones(2))",
          "F.huber_loss(torch.ones(2), torch.ones(2), delta=-1, weight=torch.ones(3))",
          "F.huber_loss(torch.ones(2), torch.zeros(2), delta=0.5, weight=torch.tensor([1., 2.]))",
          "F.mse_loss(torch.ones(2), torch.zeros(2), weight=2.0)"]),
]

CASES += [
    case("setitem-expand-rank-negative-zero-p",
         [],
         ["torch.tensor([[[0.5]], [[-0.25]], [[0.25]]], requires_grad=True)[::2].__setitem__(-1, torch.tensor([[[-2.5]], [[0.0]]], requires_grad=True))",
          "torch.ones(3, 2).__setitem__(0, torch.ones(2, 2))", "torch.ones(3, 2).__setitem__(slice(1, None), torch.ones(1, 2))",
          "torch.tensor([4, 4, 2], dtype=torch.int32).geometric_(-0.0)"]),
]

CASES += [
    case("hardtanh-unsigned-smooth-l1-nan-beta",
         [],
         ["F.hardtanh_(torch.tensor([[8], [5], [7]], dtype=torch.uint8).mT)", "F.hardtanh(torch.tensor([[8], [5], [7]], dtype=torch.uint8))",
          "F.hardtanh(torch.tensor([[8], [5], [7]], dtype=torch.uint8), 0., 6.)", "F.relu6(torch.tensor([8, 5], dtype=torch.uint8))",
          "F.smooth_l1_loss(torch.ones(2), torch.zeros(2), beta=float('nan'))"]),
]

CASES += [
    case("argmax-bool-selu-args-trace-bool",
         [],
         ["torch.argmax(torch.ones(2, 2, dtype=torch.bool), -2, False)", "torch.ones(2, dtype=torch.bool).argmin()",
          "torch.selu(torch.ones(2), False)", "torch.selu(torch.ones(2))", "F.selu(torch.ones(2), False)",
          "torch.ones(2, 2, dtype=torch.bool).trace()", "torch.ones(2, 2, dtype=torch.long).trace()"]),
]

CASES += [
    case("integer-device-means-an-accelerator",
         [],
         ["torch.device(1)", "torch.device(0)", "torch.device(-1)", "torch.zeros(2, device=0)",
          "torch.zeros(2).to(1)", "torch.zeros(2).to(device=0)", "torch.zeros(2).to(1, dtype=torch.int64)",
          "torch.zeros(2).to('cuda')", "torch.device('cuda', 0)"]),
]

# A second backward fails exactly where PyTorch's node saved a tensor for the inputs that require grad:
# the indices of sort/topk/max(dim)/cummax/..., scatter's index, masked_scatter's mask, getitem's indices,
# sgn's self, reflection padding's self; not fmod's or addcmul's operands, nor scatter_add's index, kept only
# for an operand that does not require grad.
_TWICE = ["x = torch.tensor([[0.5, 2.0, 1.5], [-2.75, -2.0, 0.25]], requires_grad=True)",
          "c = torch.tensor([[1.5, -1.0, 2.5], [0.75, 3.0, -0.5]])", "i = torch.tensor([[1, 0, 1], [0, 1, 1]])"]
_TWICE_CALLS = ["x.msort()", "x.sort(1, descending=True)[0]", "x.topk(2)[0]", "x.kthvalue(1)[0]", "x.max(0)[0]",
                "x.median(0)[0]", "x.nanmedian(1)[0]", "x.mode(0)[0]", "x.cummax(0)[0]", "x.cummin(1)[0]",
                "x.scatter(1, i, c)", "c.scatter(1, i, x)", "x.scatter(1, i, 2.0)", "x.scatter_add(1, i, c)",
                "c.scatter_add(1, i, x)", "x.index_add(0, torch.tensor([1]), c[:1])",
                "c.index_add(0, torch.tensor([1]), x[:1])", "x.index_copy(0, torch.tensor([1]), c[:1])",
                "x.index_fill(0, torch.tensor([1]), 1.0)", "x.masked_scatter(c > 0, c)", "x[c > 0]",
                "x[[0, 1], [1, 2]]", "x.sgn()", "F.pad(x, (1, 1), mode='reflect')",
                "F.pad(x[None], (1, 1), mode='replicate')", "F.embedding(torch.tensor([0, 1]), x)", "x.fmod(c)",
                "c.fmod(x)", "x.addcmul(c, c)", "c.addcmul(c, x)", "x.addcdiv(c, c)"]
CASES += [
    case("second-backward-where-a-tensor-was-saved",
         _TWICE + [f"r{k} = {e}\nr{k}.sum().backward()\nr{k}.sum().backward()" for k, e in enumerate(_TWICE_CALLS)],
         ["x.grad", "x.sort(0)[0].grad_fn._saved_indices", "x.max(1)[0].grad_fn._saved_indices",
          "x.scatter_add(1, i, c).grad_fn._saved_index", "(x * c).grad_fn._saved_self", "x.fmod(c).grad_fn._saved_other"]),
]

# float16 has no LAPACK kernel: each linalg op's own error (dispatch's "... not implemented for 'Half'" or
# "Low precision dtypes not supported"), not numpy's TypeError; linalg.cond's order of checks; matrix_rank's.
_H = ["h = torch.tensor([[2.0, 1.0], [0.5, 3.0]], dtype=torch.float16)", "n = torch.tensor([[2.0, 1.0]])",
      "b = torch.ones(2, 2, dtype=torch.bool)"]
CASES += [
    case("linalg-half-errors",
         _H,
         ["torch.linalg.qr(h)", "h.qr()", "torch.linalg.svd(h)", "torch.svd(h)", "torch.linalg.svdvals(h)",
          "torch.linalg.pinv(h)", "h.pinverse()", "torch.linalg.inv(h)", "h.inverse()", "torch.linalg.det(h)",
          "h.det()", "torch.linalg.slogdet(h)", "h.logdet()", "torch.linalg.solve(h, h)", "torch.linalg.cholesky(h)",
          "torch.linalg.eigh(h)", "torch.linalg.eigvalsh(h)", "torch.linalg.lu_factor(h)", "torch.linalg.cond(h)",
          "torch.linalg.matrix_norm(h, ord=2)", "torch.linalg.matrix_norm(h, ord='nuc')",
          "torch.linalg.matrix_norm(h, ord=1)", "torch.linalg.matrix_power(h, -1)", "torch.linalg.norm(h, 2)",
          "torch.linalg.matrix_rank(h)", "torch.linalg.qr(torch.zeros(0, 3, dtype=torch.float16))",
          "torch.linalg.inv(torch.zeros(0, 0, dtype=torch.float16))",
          "torch.linalg.lu_factor(torch.zeros(0, 0, dtype=torch.float16))"]),
    case("linalg-cond-check-order-matrix-rank-dims",
         _H,
         ["torch.linalg.cond(b)", "torch.linalg.cond(b, 'fro')", "torch.linalg.cond(b, 'nuc')", "torch.linalg.cond(b, 1)",
          "torch.linalg.cond(b, -2)", "torch.linalg.cond(h, 'fro')", "torch.linalg.cond(h, 'nuc')", "torch.linalg.cond(h, 1)",
          "torch.linalg.cond(torch.ones(3, 0, 4, dtype=torch.int64))",
          "torch.linalg.cond(torch.ones(3, 0, 0, dtype=torch.int64), 'fro')",
          "torch.linalg.cond(torch.ones(3, 0, 4, dtype=torch.float16))", "torch.linalg.cond(b, 'abc')",
          "torch.linalg.cond(n, 1.0)", "torch.linalg.cond(n, -1.5)", "torch.linalg.cond(n, float('-inf'))",
          "torch.linalg.cond(n, 3)", "torch.linalg.cond(torch.ones(2, 2), float('nan'))", "torch.linalg.cond(n, 1)",
          "torch.linalg.cond(n, 'nuc')", "torch.linalg.cond(torch.tensor([[2.0, 1.0], [0.5, 3.0]]), -1)",
          "torch.linalg.matrix_rank(torch.tensor(0.5, dtype=torch.float16))", "torch.linalg.matrix_rank(torch.tensor([1]))",
          "torch.linalg.matrix_rank(torch.tensor([[1, 2]]))", "torch.linalg.matrix_rank(torch.ones(3, 4, 1, dtype=torch.float16))"]),
]
