"""Regression cases of session 29's helper "gaps": the functions real scripts call that agrad
lacked (quantile, cdist, cov, histc, ...), and sort's order of tied values (tools/exact_cases.py
adds them).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``;
``graph`` is exact_cases.GRAPH.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    return [
        case("sort-ties-std-sort",  # ops/sorting.py: unstable sort = libstdc++'s std::sort on (value, index) past 16
             ["x = torch.tensor([float(i % 4) for i in range(40)], requires_grad=True)",
              "n = torch.tensor([0., 1., float('nan'), -0., 0., 1., float('nan'), 2.] * 3)"],
             ["x.sort()", "x.sort(descending=True).indices", "x.argsort()", "x.sort(stable=True).indices",
              "x.view(2, 20).t().sort(0).indices", "n.sort().indices", "n.sort(descending=True).indices",
              "n.long().sort().indices", "n.bool().sort().indices", "torch.autograd.grad(x.sort().values[10:15].sum(), x)",
              "torch.arange(20).remainder(3).sort(stable=False).indices"]),
    ]
