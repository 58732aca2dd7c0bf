"""Regression cases of session 38's groupsa38 work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    del graph
    return CASES


CASES = [
    # Loss.cpp's EPSILON is a float: cosine_embedding_loss adds 9.99999996e-13 to each squared magnitude,
    # whose root shows in a float64 gradient of a zero row (3000000.0059937043, was 3000000.0)
    case("cosine-embedding-float-epsilon", [
        "a = torch.tensor([[1.0], [0.0], [-2.25]], dtype=torch.float64, requires_grad=True)",
        "b = torch.tensor([[2.0], [2.25], [2.5]], dtype=torch.float32, requires_grad=True)",
        "t = torch.tensor([-1.0, 1.0, 1.0])",
        "r = torch.cosine_embedding_loss(a, b, t, 0.0)",
        "r.backward(torch.tensor([0.0, -3.0, -0.5], dtype=torch.float64))",
        "c = torch.tensor([[-1.75], [-1.0], [0.0]], dtype=torch.float64, requires_grad=True)",
        "d = torch.tensor([[1.75], [-2.25], [-0.75]], dtype=torch.float32)",
        "s = F.cosine_embedding_loss(c, d, -torch.ones(3), reduction='none')",
        "s.sum().backward(create_graph=True)",
        "e = torch.zeros(2, 3, dtype=torch.float64, requires_grad=True)",
        "F.cosine_embedding_loss(e, torch.ones(2, 3, dtype=torch.float64), torch.ones(2)).backward()",
    ], [
        "r.tolist()", "a.grad.tolist()", "b.grad.tolist()", "s.tolist()", "c.grad.tolist()", "e.grad.tolist()",
    ]),
]
