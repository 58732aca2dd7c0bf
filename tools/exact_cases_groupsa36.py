"""Regression cases of session 36's groupsa36 work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    del graph
    return CASES


CASES = [
    # addmm / addmv / addbmm with alpha 0: BLAS scales C alone (beta * self), so a -0.0 in self stays -0.0 and
    # a NaN or inf in the product is not read
    case("addmm-alpha0-signed-zero", [
        "c = torch.tensor([[-0.0, 0.0], [float('nan'), 1.0]])",
        "a = torch.tensor([[float('nan'), 1.0], [float('inf'), 2.0]])",
        "b = torch.tensor([[1.0, -1.0], [2.0, 3.0]])",
    ], [
        "torch.addmm(c, a, b, alpha=0).tolist()",
        "torch.addmm(c, a, b, alpha=0, beta=-1).tolist()",
        "torch.addmm(c.double(), a.double(), b.double(), alpha=-0.0, beta=2).tolist()",
        "c.clone().addmm_(a, b, alpha=0).tolist()",
        "torch.addbmm(c, a[None], b[None], alpha=0).tolist()",
        "torch.addmv(c[0], a, b[0], alpha=0).tolist()",
        "torch.addmv(c[0], a, b[0], alpha=0, beta=-1).tolist()",
        "torch.baddbmm(c[None], a[None], b[None], alpha=0).tolist()",
    ]),
]
