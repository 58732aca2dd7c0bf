"""Regression cases of session 39's groupsb39 work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    del graph
    return CASES


CASES = [
    # (dt38d warning:ldexp) a float self with a bool exponent: the kernel's TensorIterator resizes its out
    # (self's own, or out=) with the warning before the dispatch refuses Bool; ldexp_ refuses quietly
    case("ldexp-bool-exponent-resize-warns-first", [
        "r1 = torch.cos(torch.tensor([-0.5, -2.5], dtype=torch.float16))[:1].ldexp(torch.ones(4, 0, 3, dtype=torch.bool))",
        "r2 = torch.ldexp(torch.ones(1), torch.ones(2, dtype=torch.bool), out=torch.ones(1, 1, dtype=torch.float64))",
        "r3 = torch.ldexp(torch.ones(0), torch.ones(3, 0, dtype=torch.bool))",
        "r4 = torch.ones(2, 2).ldexp_(torch.ones(2, dtype=torch.bool))",
        "r5 = torch.ldexp(torch.ones(1, requires_grad=True), torch.ones(2, dtype=torch.bool), out=torch.ones(3))",
        "r6 = torch.ldexp(torch.ones(1, dtype=torch.int64), torch.ones(5, dtype=torch.bool), out=torch.ones(1))",
    ], ["r6"]),
]
