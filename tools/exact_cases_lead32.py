"""Regression cases of the lead's groups from run dt32a (seed 32000000, 20,000 programs on 0d1d84a).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import GRAPH, case

_ERR = ("def err(f):\n    try:\n        f()\n        return 'ran'\n    except Exception as e:\n"
        "        return type(e).__name__ + ': ' + str(e).splitlines()[0]")


CASES = [
    case("full-slice-by-written-bounds",  # (grad_fn:cumulative_trapezoid on an empty input)
         [GRAPH, "x = torch.zeros(3, requires_grad=True)", "e = torch.zeros(0, requires_grad=True)"],
         ["graph(x[(slice(-3, None),)].grad_fn)", "graph(x[(slice(0, 5),)].grad_fn)",
          "graph(x[(slice(None, -1),)].grad_fn)", "graph(x[0:, None].grad_fn)",
          "graph(e[(slice(None, -1),)].grad_fn)", "graph(e[(slice(0, 0),)].grad_fn)",
          "graph(torch.cumulative_trapezoid(torch.zeros(0), e).grad_fn)"]),
    case("saved-targets-and-bag-indices-version-checked",  # (embedding_bag, multi_margin, multilabel_margin)
     [_ERR, "w = torch.randn(5, 3, requires_grad=True)", "x = torch.randn(3, 4, requires_grad=True)",
      "def bag(change, **kw):\n    i, o, p = torch.tensor([1, 2, 4, 0]), torch.tensor([0, 2]), torch.rand(4)\n"
      "    e = F.embedding_bag(i, w, o, per_sample_weights=p if kw.get('mode') == 'sum' else None, **kw)\n"
      "    {'i': i, 'o': o, 'p': p}[change].add_(0)\n    return err(lambda: e.sum().backward())",
      "def margin(change):\n    y, wt = torch.tensor([1, 0, 3]), torch.rand(4)\n"
      "    l = F.multi_margin_loss(x, y, weight=wt)\n    {'y': y, 'w': wt}[change].add_(0)\n"
      "    return err(lambda: l.backward())",
      "def multilabel(change):\n    y = torch.tensor([[1, 0, -1, 2], [0, -1, 1, 1], [3, -1, 0, 0]])\n"
      "    l = F.multilabel_margin_loss(x, y)\n    if change:\n        y.add_(0)\n"
      "    return err(lambda: l.backward())"],
     ["bag('i')", "bag('o')", "bag('i', mode='max')", "bag('p', mode='sum')", "bag('i', mode='sum')",
      "margin('y')", "margin('w')", "multilabel(True)", "multilabel(False)"]),
    case("scatter-reduce-amin-amax-zero-ties",  # (repr:scatter_reduce: std::min keeps the value held)
     ["x = torch.tensor([[1.25, 0.0, -0.0, 5.0], [-0.0, 2.0, 0.0, 1.0]])",
      "s = torch.tensor([[-0.0, 0.0, 0.0, -0.0], [0.0, -0.0, -0.0, 0.0]])",
      "i = torch.tensor([[0, 0, 1, 2], [0, 0, 2, 2]])"],
     ["[torch.signbit(x.scatter_reduce(1, i, s, r, include_self=b)).tolist() "
      "for r in ('amin', 'amax') for b in (True, False)]",
      "[torch.signbit(x.scatter_reduce(0, i[:, :2].flip(0), s[:, :2], r)).tolist() for r in ('amin', 'amax')]"]),
]
