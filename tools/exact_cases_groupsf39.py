"""Regression cases of helper "groupsf39" (session 39): groups of the lead's run dt39c.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    case("inplace-div-mul-mixed-dtype-grad",  # (grad-numeric:backward, dt39c) a float16 self divided or
         # multiplied in place by a float32/float64 tensor: the formula's -grad * self / other / other is
         # float32, not rounded through float16 (the array formula now leaves it to the tensor one)
         ["x1 = torch.tensor([2.25], requires_grad=True)",
          "r7 = torch.tensor([-0.25, -2.25, -0.75], dtype=torch.float16).expand(2, 3) * 1", "r7 /= x1",
          "r7.sum().backward()",
          "x2 = torch.tensor([0.3, -1.7, 2.1], dtype=torch.float64, requires_grad=True)",
          "s2 = torch.tensor([1.1, 2.5, -0.7], dtype=torch.float16, requires_grad=True)",
          "r8 = s2 * 1", "r8.mul_(x2)", "r8.sum().backward()",
          "x3 = torch.tensor(1.7, dtype=torch.float32, requires_grad=True)",
          "r9 = torch.tensor([0.3, 1.1], dtype=torch.float16) * 1", "r9.div_(x3)", "r9.sum().backward()"],
         ["x1.grad", "x2.grad", "s2.grad", "x3.grad"]),
    case("setitem-all-of-expanded-from-0d-value",  # (raises-only-torch:setitem, dt39c) ``v[:] = base`` of
         # ``v = base.expand(2, 1)``: the value stripped to 0-d and expanded has strides 0 only, v's second
         # stride is not: copy_ does not return early and refuses v's internal overlap
         ["x1 = torch.tensor([-3])", "v2 = x1.expand(2, 1)",
          "try:\n    v2[:] = x1\nexcept RuntimeError as e:\n    err1 = str(e)[:60]",
          "try:\n    v2[0:2] = x1.reshape(-1)[:1]\nexcept RuntimeError as e:\n    err2 = str(e)[:60]",
          "x3 = torch.tensor(4.)", "v3 = x3.expand(2, 1)", "v3[:] = x3.reshape(1)",
          "v4 = x1.expand(2, 1)", "v4[:, 0] = x1"],
         ["err1", "err2", "x3", "x1"]),
]
