"""Regression cases of the lead's groups from runs dt33a/dt33c (seeds 33000000 and 33050000).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import GRAPH, case

_ERR = ("def err(f):\n    try:\n        return f()\n    except Exception as e:\n"
        "        return type(e).__name__ + ': ' + str(e).splitlines()[0]")


CASES = [
    case("scatter-reduce-into-a-0d-self",  # (raises-only-agrad:scatter_reduce)
         [GRAPH, "x = torch.tensor(0.5, requires_grad=True)", "s = torch.tensor([1.5, -2.0, 0.0], requires_grad=True)",
          "i = torch.tensor([0, 0, 0])",
          "rs = {r: torch.scatter_reduce(x, 0, i, s, r, include_self=inc) for r in ('sum', 'prod', 'mean', 'amax', 'amin') for inc in (True, False)}",
          "gs = {k: torch.autograd.grad(v, [x, s], create_graph=True) for k, v in rs.items()}"],
         ["rs", "gs", "graph(rs[('prod', True)].grad_fn)",
          "torch.tensor(3.0).scatter_reduce(0, torch.tensor(0), torch.tensor(2.0), 'prod')",
          "torch.tensor(3).scatter_reduce(0, torch.tensor([0, 0]), torch.tensor([2, 5]), 'mean')"]),
    case("keyword-only-str-takes-none",  # (error-type:divide_: str? rounding_mode, bool? stable)
         [_ERR, "t = torch.tensor([5, 7])"],
         ["err(lambda: t.clone().divide_(torch.tensor([2, 2]), rounding_mode=None))",
          "err(lambda: t.div(2, rounding_mode=None))", "err(lambda: torch.div(t, 2, rounding_mode=None))",
          "err(lambda: torch.divide(t, torch.tensor(2), rounding_mode=None))",
          "err(lambda: t.clone().divide_(2, rounding_mode=None))", "err(lambda: t.div(2, rounding_mode=3))",
          "err(lambda: torch.sort(torch.tensor([3, 1, 2]), stable=None))"]),
]
