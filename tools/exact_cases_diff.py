"""Regression cases of issue 10's error, warning, printing and type groups (tools/exact_cases.py adds them).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
A case's warnings are compared as a set; PyTorch's once-per-process warnings are
checked by tests/test_warn_once.py.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


CASES = [
    case("size-type",
         ["s = torch.broadcast_shapes()", "t = torch.ones(2, 3).shape"],
         ["type(s)", "type(t)", "type(t).__module__", "type(t).__name__", "torch.Size", "type(torch.Size)",
          "type(t[1:])", "t[1:]", "isinstance(t, tuple)"]),
    case("parser-invalid-combination",
         ["x = torch.ones(2, 3)", "m = torch.ones(3, 3)", "i = torch.zeros(2, 3, dtype=torch.long)"],
         ["x.lerp_(x, 'a')", "x.lerp_(1.0, 0.5)", "x.lerp_()", "x.lerp_(x, 0.5, 1)", "torch.lerp(x, 2.0, 0.5)",
          "m.addmm_()", "torch.addmm(m, -1.75, m, alpha=-1.5)", "torch.addmm(m, 2.0, m, m)",
          "x.scatter_(0, 1)", "x.scatter_(0, i)", "x.scatter_()", "x.scatter_(0, i, 'a')", "x.scatter(0, i)",
          "torch.linspace(0, 1)", "torch.linspace(0, 1, 'a')", "torch.linspace(0, 1, 2.5)", "torch.linspace()",
          "torch.linspace(0, 1, 2, 3)", "torch.conv3d(torch.ones(2), -3.0)", "torch.clamp()", "torch.add(x)",
          "torch.rand()", "x.view(torch.float32, 1)", "torch.sum(x, 0, True, 1, 2)"]),
    case("parser-argument-type",
         ["x = torch.ones(2, 3)", "m = torch.eye(3)"],
         ["m.addmm_(m, 2)", "m.addmm_(1, m)", "torch.cholesky(m, upper=1)", "torch.linalg.cholesky(m, upper=1)",
          "torch.cholesky(m, 1)", "x.tril_(1.5)", "x.tril_('a')", "x.tril_(True)", "x.tril_(0, 1)",
          "F.conv_transpose1d(torch.ones(1, 1, 3), torch.ones(1, 1, 2), bias=1)",
          "F.conv_transpose2d(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 2, 2), bias=1.0)",
          "torch.range(0, 'a')", "x.softmax(0, 1)", "x.softmax(dim=None)", "torch.softmax(x, None)",
          "torch.full((2,), 1, 2)", "x.scatter_add_(0.0)", "torch.permute(x, 1, 0)", "x.index_select(0)"]),
    case("parser-missing-arguments",
         ["x = torch.ones(2, 3)"],
         ["x.softmax()", "torch.softmax(x)", "x.log_softmax()", "torch.log_softmax(x)", "torch.ones()",
          "torch.zeros()", "torch.empty()", "torch.full((2,))", "torch.range(0)", "torch.range()", "torch.cumsum(x)",
          "x.transpose(0)", "torch.transpose(x, 0)", "torch.empty(2, -1)", "torch.ones(2, 3).shape",
          "torch.ones([2]).shape", "torch.zeros(torch.Size([2])).shape"]),
    case("parser-no-arguments",
         ["x = torch.tensor([[-1, 3], [-4, 2]])", "f = torch.ones(2)"],
         ["x.logical_not(x)", "x.negative_(x)", "x.neg_(x)", "f.sin(1)", "f.t(1)", "f.sin(a=1)"]),
    case("check-order",
         ["x = torch.ones(2, 3)"],
         ["torch.index_select(x, 5, torch.tensor([0.5]))", "torch.index_select(x, 0, torch.tensor([[0]]))",
          "torch.index_select(x, 5, torch.tensor([[0]]))", "torch.index_select(x, 0, torch.tensor([0.5]))",
          "torch.index_select(torch.tensor(1.), 1, torch.tensor([0.5]))",
          "F.log_softmax(torch.tensor([0]))"]),
    case("warn-once-texts",
         [],
         ["torch.tensor(1.).adjoint()", "torch.meshgrid(torch.ones(2), torch.ones(3))"]),
    case("setitem-too-many-indices",
         ["x = torch.ones(2)", "y = torch.ones(2, requires_grad=True) * 1"],
         ["x.__setitem__((slice(None), 0), torch.tensor([0., 2.]))", "x.__setitem__((slice(None), 0), 1.0)",
          "y.__setitem__((slice(None), 0), 1.0)", "x[0, 0]"]),
    case("bitwise-broadcast-and-dtype",
         ["b = torch.ones(2, 3, dtype=torch.bool)", "i = torch.ones(2, 3, dtype=torch.int64)",
          "h = torch.ones(4, dtype=torch.float16)"],
         ["b.__iand__(torch.ones(3, 3, dtype=torch.bool))", "i.__ior__(torch.ones(3, 3, dtype=torch.int64))",
          "torch.logical_and(b, torch.ones(3, 3, dtype=torch.bool))", "h ^ torch.ones(4)", "h.__ixor__(torch.ones(4))",
          "h ^ 2", "torch.ones(2, dtype=torch.int32) & torch.ones(2)"]),
    case("linalg-messages",
         [],
         ["torch.linalg.lu_factor(torch.ones(2))", "torch.linalg.cond(torch.tensor(1.), 3.0)",
          "torch.linalg.cond(torch.tensor([1., 2.]))", "torch.linalg.cond(torch.tensor([1., 2.]), 'fro')",
          "torch.linalg.eigvalsh(torch.ones(1))", "torch.linalg.eigvalsh(torch.ones(2, 3))",
          "torch.linalg.eigvalsh(torch.ones(2, 2, dtype=torch.long))", "torch.linalg.eigh(torch.ones(2, 2, dtype=torch.int32))",
          "torch.linalg.qr(torch.ones(1), 'reflect')", "torch.linalg.qr(torch.ones(2, 2, dtype=torch.long), 'x')",
          "torch.tensor([[-2]]).cholesky()", "torch.linalg.cholesky(torch.tensor([[-2]]))"]),
    case("kernel-checks",
         ["b = torch.ones(2, dtype=torch.bool)", "u = torch.tensor([3, 0], dtype=torch.uint8)"],
         ["F.hardtanh(b)", "F.relu6(b)", "F.hardtanh_(b)", "torch.relu(torch.tensor([3.0, -0.0, float('nan')]))",
          "torch.mean(torch.ones(2), dtype=torch.bool)", "torch.mean(torch.ones(2, dtype=torch.int64))",
          "F.dropout2d(torch.ones(2), p=1.0)", "F.dropout3d(torch.ones(2), p=1.0)",
          "torch.tensor([[1.75, -1.0, 0.0]]) // 0", "torch.tensor([[1, 2]]) // 0",
          "torch.tensor([[1.75, 1.0]]).floor_divide(0)", "u.clone().clamp_(torch.tensor([-3, -1], dtype=torch.int32))",
          "u.clone().clamp_(max=torch.tensor([-3, -1], dtype=torch.int32))",
          "torch.clamp(torch.tensor([True, False]), max=torch.tensor([False, False]))",
          "torch.ones(1, 1).t().nansum(keepdim=True)", "torch.ones(2, 3).nansum(keepdim=True)",
          "F.upsample_nearest(torch.ones(3, 4), size=(3, 2, 2))",
          "F.interpolate(torch.ones(1, 1, 3), scale_factor=[2, 2])", "F.interpolate(torch.ones(3), size=[2, 2])"]),
]
