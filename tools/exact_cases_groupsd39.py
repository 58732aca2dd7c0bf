"""Regression cases of helper "groupsd39" (session 39): groups of its own difftest runs (seeds 394xxxxx).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    return [
        case("unfold-fold-integer-dtypes",  # (raises-only-torch:unfold) im2col's and col2im's CPU kernels
             # dispatch on floating types and bool only, after their shape checks (which come first)
             ["i = torch.ones(4, 3, 3, dtype=torch.int64)",
              "b = torch.ones(1, 4, 3, 3, dtype=torch.bool)",
              "c = torch.ones(1, 4, 4, dtype=torch.uint8)"],
             ["F.unfold(i, 1)", "F.unfold(i.to(torch.int8)[None][:0], 1)", "F.unfold(i, 5)", "F.unfold(b, 2)",
              "F.fold(c, (2, 2), 1)", "F.fold(c.to(torch.int32), (2, 2), 1)", "F.fold(c[0].bool(), (2, 2), 1)",
              "F.fold(c[:, :, :3], (2, 2), 1)"]),
        case("conv-weight-type-text-bool",  # (the oneDNN backend's same-type check names a bool tensor
             # by Tensor::toString: CPUBoolType)
             ["x = torch.ones(2, 3, 8, 8)"],
             ["F.conv2d(x, torch.ones(4, 3, 3, 3, dtype=torch.bool), stride=2)",
              "F.conv2d(x, torch.ones(4, 3, 3, 3, dtype=torch.uint8), stride=2)"]),
    ]
