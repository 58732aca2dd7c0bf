"""Regression cases of issue 10's linear algebra groups (helper "linalg"; tools/exact_cases.py adds them).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``;
``graph`` is exact_cases.GRAPH, the statement that defines ``graph(fn)``.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    return [
        case("linalg-empty-any-dtype",
             [graph, "h = torch.zeros(0, 0, dtype=torch.float16, requires_grad=True)"],
             ["torch.linalg.eigh(torch.eye(0, dtype=torch.bool))", "torch.linalg.eigvalsh(torch.zeros(3, 0, 0, dtype=torch.long))",
              "torch.linalg.eigh(torch.zeros(0, 2, 2, dtype=torch.int32), UPLO='U')", "torch.linalg.eigh(h)",
              "graph(torch.linalg.eigh(h)[1].grad_fn)", "torch.linalg.svd(h)", "torch.linalg.svdvals(h)",
              "torch.linalg.cholesky(h)", "graph(torch.linalg.svd(h)[0].grad_fn)",
              "torch.linalg.eigh(torch.ones(2, 2, dtype=torch.long))", "torch.linalg.eigh(torch.zeros(0, 0, dtype=torch.bool), UPLO='X')"]),
        case("lstsq-empty",
             [],
             [f"torch.linalg.lstsq(torch.zeros({sa}), torch.zeros({sb}), driver={d!r})"
              for sa, sb in [("0, 0", "0, 0"), ("2, 0, 0", "2, 0, 3"), ("3, 0", "3, 2"), ("0, 3", "0, 2"), ("0, 3", "0"),
                             ("2, 0, 2", "2, 0, 1")]
              for d in (None, "gels", "gelsd")]),
    ]
