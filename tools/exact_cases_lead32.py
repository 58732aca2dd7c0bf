"""Regression cases of the lead's groups from run dt32a (seed 32000000, 20,000 programs on 0d1d84a).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    return [
        case("full-slice-by-written-bounds",  # (grad_fn:cumulative_trapezoid on an empty input)
             [graph, "x = torch.zeros(3, requires_grad=True)", "e = torch.zeros(0, requires_grad=True)"],
             ["graph(x[(slice(-3, None),)].grad_fn)", "graph(x[(slice(0, 5),)].grad_fn)",
              "graph(x[(slice(None, -1),)].grad_fn)", "graph(x[0:, None].grad_fn)",
              "graph(e[(slice(None, -1),)].grad_fn)", "graph(e[(slice(0, 0),)].grad_fn)",
              "graph(torch.cumulative_trapezoid(torch.zeros(0), e).grad_fn)"]),
    ]
