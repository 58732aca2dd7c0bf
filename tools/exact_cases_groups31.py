"""Regression cases of the groups of run dt20k-30 (values, graphs, random ops; helper "groupsb", session 31).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    return [
        case("dropout-nd-inplace-on-a-view-changes-the-view",  # (grad_fn:dropout1d, shape:dropout3d) F's
             # unsqueeze_/squeeze_ change the view's own metadata: SqueezeBackward4 over the regenerated view
             # (AsStridedBackward0), an error in between leaves it unsqueezed; in no_grad mode its grad_fn goes stale
             [graph, "def err(f):\n    try:\n        return f()\n    except RuntimeError as e:\n        return str(e)",
              "torch.manual_seed(3)", "b = torch.rand(4, 6, requires_grad=True)", "x = b * 1", "v = x[:, 1:]",
              "r = F.dropout1d(v, p=0.3, inplace=True)", "(r * torch.arange(5.)).sum().backward()",
              "b2 = torch.rand(4, 6, requires_grad=True)", "x2 = b2 * 1", "v2 = x2[:, 1:].t()",
              "r2 = F.dropout3d(v2, p=0.3, inplace=True)", "x2.mul_(2)", "(v2 * torch.arange(4.)).sum().backward()",
              "v3 = torch.arange(24).reshape(4, 6)[:, 1:]", "e3 = err(lambda: F.dropout1d(v3, inplace=True))",
              "x4 = torch.rand(4, 6, requires_grad=True) * 1", "v4 = x4[:, 1:]",
              "with torch.no_grad():\n    r4 = F.dropout1d(v4, inplace=True)",
              "x5 = torch.rand(4, 6, requires_grad=True) * 1", "v5 = x5[1:]",
              "with torch.no_grad():\n    v5.transpose_(0, 1)",
              "v6 = torch.rand(3, 4, 5).transpose(0, 1)", "r6 = F.dropout3d(v6, training=True, inplace=True)"],
             ["r", "(v._version, x._version)", "b.grad", "graph(r.grad_fn)", "r.stride()", "r2", "v2._version", "b2.grad",
              "graph(v2.grad_fn)", "(v2.shape, v2.stride())", "e3", "(v3.shape, v3._version)",
              "(v4.shape, v4._version)", "graph(v4.grad_fn)", "graph(v5.grad_fn)", "r6", "v6.shape"]),
    ]
