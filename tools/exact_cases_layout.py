"""Regression cases of issue 10's layout groups: results whose memory order PyTorch fixes
(so that ``is_contiguous()``, ``.view`` and the draw order of ``*_like`` random functions,
which follow the layout, agree).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


CASES = [
    case("softmax-results-are-contiguous",  # (seed 18000000: rand_like of a float64 softmin of a transpose)
         ["x = torch.tensor([[[-1.25, 2.75], [2.5, -1.5], [-1.5, -1.0]]])", "v = x.transpose(0, -1)",
          "h = x.half().transpose(0, -1)"],
         [f"[F.{f}(a, dim=d{k}).is_contiguous() for d in (0, 1, 2)]"
          for f in ("softmax", "softmin", "log_softmax") for a, k in (("v", ""), ("v", ", dtype=torch.float64"),
                                                                     ("h", ""))]
         + ["(torch.manual_seed(0), torch.rand_like(F.softmin(v, dim=-1, dtype=torch.float64)))[1]",
            "(torch.manual_seed(0), torch.randn_like(torch.log_softmax(v, 0)))[1]",
            "F.softmax(v, dim=0).view(-1)"]),
    case("stride-and-size-dim-arguments",
         ["x = torch.arange(6.).view(2, 3)", "e = torch.zeros(0, 3)"],
         ["x.stride()", "x.stride(-1)", "x.t().stride()", "torch.tensor(1.).stride()", "x[:, None].stride()",
          "x[None].expand(2, 2, 3).stride()", "x[:, ::2].stride()", "x.unsqueeze(0).stride()",
          "x.t().unsqueeze(1).stride()", "x.t().unsqueeze(-1).stride()", "x.sum(1, keepdim=True).stride()",
          "e.stride()", "torch.zeros(3, 1).t().stride()", "x.t().contiguous().stride()", "x.view(3, 2).stride()",
          "torch.ones(4, 5)[1:3, ::2].t().stride()", "x.t()[None].stride()", "(x.t() + 1).stride()",
          "x.t().clone().stride()", "x.stride(None)", "x.stride(dim=1)", "x.stride(torch.tensor(1))",
          "x.stride(2)", "torch.tensor(1.).stride(0)", "x.stride(1.0)", "x.stride('a')", "x.stride(True)",
          "x.stride(torch.tensor(1.5))", "x.size(True)", "x.size('a')", "torch.tensor(1.).size(0)",
          "x.size(torch.tensor(True))", "x.size(torch.tensor([1]))", "x.size(-3)"]),
]
