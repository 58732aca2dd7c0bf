"""Regression cases of the last undocumented groups of run dt20k-29b and of the out= gaps
(helper "groups").

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    return [
        case("histogram-range-nan-is-the-first-met",  # (dt20k-29b error-text:histogram) aminmax over dim 0 is
             # one scalar loop per column: it stops at the first NaN and returns it, sign and all
             ["n = float('nan')", "x = torch.tensor([-1.75, 0.25, -2.0, 1.5], dtype=torch.float64)",
              "def err(f):\n    try:\n        return f()\n    except RuntimeError as e:\n        return str(e)"],
             ["err(lambda: torch.arccos(x).histogram(3))", "err(lambda: torch.tensor([-n, 1.0, n]).histogram(2))",
              "err(lambda: torch.tensor([1.0, n, -n]).histogram(2))",
              "[v.signbit() for v in torch.tensor([[1.0, -n], [n, 2.0], [-n, n]]).aminmax(dim=0)]",
              "[v.signbit() for v in torch.tensor([[1.0, -n, n], [n, -n, 2.0]]).aminmax(dim=1)]"]),
        case("histc-range-around-one-value",  # (dt20k-29b error-text:histc) one below and one above the value;
             # for float and double an end that rounds back onto it is the next representable number
             ["def err(f):\n    try:\n        return f()\n    except RuntimeError as e:\n        return str(e)",
              "i = float('inf')"],
             ["err(lambda: torch.tensor(-i).histc())", "err(lambda: torch.tensor([i, i]).histc(3))",
              "err(lambda: torch.tensor(-i, dtype=torch.float64).histc(2))",
              "err(lambda: torch.tensor([-i, -i], dtype=torch.float16).histc(2))",
              "[torch.tensor([v, v]).histc(b) for v in (2.0 ** 24, -2.0 ** 24, 2.0 ** 25, 1e20, 4.0) for b in (2, 3)]",
              "[torch.tensor([v, v], dtype=torch.float64).histc(4) for v in (1e20, 2.0 ** 53, -3e300)]",
              "[torch.tensor([v, v], dtype=torch.float16).histc(3) for v in (2048.0, -2048.0, 4096.0)]",
              "err(lambda: torch.tensor([1e4, 1e4], dtype=torch.float16).histc(3, min=1e20, max=1e20))",
              "torch.tensor([], dtype=torch.float32).histc(3, min=1e20, max=1e20)"]),
    ]
