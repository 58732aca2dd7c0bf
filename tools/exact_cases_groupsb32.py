"""Regression cases of the nn-functional groups of the replayed run dt20k-31 (helper "groupsb", session 32).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    return [
        case("ctc-loss-aten-default-reduction-is-none",  # (shape:ctc_loss) torch.ctc_loss's omitted reduction is
             # 0: the parser reads the signature's "at::Reduction::Mean" with atol; F.ctc_loss's is 'mean'
             [graph, "lp = torch.tensor([[[1.25, 2.75], [-1.75, -2.0]], [[2.5, -2.5], [-1.25, -2.75]], [[0.5, -2.5],"
              " [-2.0, -2.75]], [[1.25, 1.5], [0.0, 2.25]], [[2.25, -1.25], [1.0, -1.75]]]).log_softmax(2)"
              ".requires_grad_()", "t = torch.tensor([[1], [1]])"],
             ["torch.ctc_loss(lp, t, (2, 1), (0, 0), zero_infinity=False)",
              "torch.ctc_loss(lp, t, torch.tensor([2, 1]), torch.tensor([0, 1]))",
              "torch.ctc_loss(lp, t, (2, 1), (1, 0), 0, 1)", "torch.ctc_loss(lp, t, (2, 1), (1, 1), 0, 2)",
              "torch.ctc_loss(lp[:, 0], t[0], (2,), (1,))", "F.ctc_loss(lp, t, (2, 1), (0, 1))",
              "graph(torch.ctc_loss(lp, t, (5, 3), (1, 1), blank=1).grad_fn)"]),
    ]
