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
]
