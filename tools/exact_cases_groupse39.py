"""Regression cases of helper "groupse39" (session 39): leftovers of groupsd39's difftest runs.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    case("put_-source-aliasing-self",  # (value:put_, run 39490000) put_'s serial loop reads a source that
         # shares self's memory when it visits each element, after the earlier writes
         ["x1 = torch.arange(8.)", "x1[::2].put_(torch.tensor([0, 1, 0, 3, 2, 1, 0, 3]), x1, accumulate=True)",
          "x2 = torch.arange(8.)", "x2[::2].put_(torch.tensor([0, 1, 0, 3, 2, 1, 0, 3]), x2, accumulate=False)",
          "x3 = torch.arange(16.).reshape(4, 4)", "x3[:, 1::2].put_(torch.tensor([[0, 7, 1, 1]] * 4), x3.t())",
          "w = torch.arange(8., requires_grad=True)", "y = w * 1",
          "y[::2].put_(torch.tensor([0, 1, 0, 3]), y[:4], accumulate=True)"],
         ["x1", "x2", "x3", "y"]),
]
