"""Regression cases of the linear-algebra and numerics groups of the replayed run dt20k-32 (helper "groupsb",
session 33).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    return [
        case("cholesky-float32-inf-pivot-stays-inf",  # (value:cholesky_ex) MKL's small spotrf (n <= 16): an inf
             # pivot's root stays inf, the column below it NaN (a refined reciprocal), failing the next pivot;
             # larger float32 matrices and float64 divide (a finite entry over inf is 0)
             ["inf = float('inf')",
              "a = torch.tensor([[inf, -inf, inf], [-inf, 12.5625, 1.1875], [inf, 1.1875, 12.375]])",
              "b = torch.tensor([[4.0, 1.0, 1.0], [1.0, inf, 1.0], [1.0, 1.0, 4.0]])",
              "c = torch.eye(17) * 2 + 0.125",
              "c[3, 3] = inf"],
             ["torch.linalg.cholesky_ex(a)", "torch.linalg.cholesky_ex(a, upper=True)", "torch.linalg.cholesky_ex(b)",
              "torch.linalg.cholesky_ex(a.double())", "torch.linalg.cholesky_ex(torch.tensor([[inf, 1.0], [1.0, 1.0]]))",
              "torch.linalg.cholesky_ex(c)[0][:6, :5]", "torch.linalg.cholesky_ex(c)[1]",
              "torch.linalg.cholesky(c)[5:7, 2:5]", "torch.linalg.cholesky(b)"]),
    ]
