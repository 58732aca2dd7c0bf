"""Regression cases of session 37's lead work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    del graph
    return CASES


_CHAIN = ("def chain(t):\n    out = []\n    f = t.grad_fn\n    while f is not None:\n"
          "        out.append(f.name())\n        nf = [n for n, _ in f.next_functions if n is not None]\n"
          "        f = nf[0] if nf else None\n    return out")

CASES = [
    # torch.func.jvp: the primal outputs are aliases (AliasBackward0) of what the function computed, over
    # an alias of each input that requires grad; aux is returned as computed; a primal that does not
    # require grad gives outputs that do not (the tangent alone may)
    case("func-jvp-output-graphs",
         ["ft = torch.func", _CHAIN, "x = torch.ones(2, requires_grad=True)", "t = torch.ones(2)",
          "o1, j1 = ft.jvp(lambda x: x.sin(), (x,), (t,))", "o2, j2 = ft.jvp(lambda x: x, (x,), (t,))",
          "o3, j3, a3 = ft.jvp(lambda x: (x.sin(), x.cos()), (x,), (t,), has_aux=True)",
          "o4, j4 = ft.jvp(lambda x: x.sin(), (x.detach(),), (torch.ones(2, requires_grad=True),))",
          "o5, j5 = ft.jvp(lambda x: x.exp(), (torch.ones(2),), (t,))"],
         ["o1", "j1", "chain(o1)", "o2", "chain(o2)", "o3", "a3", "chain(a3)", "o4", "o4.requires_grad", "j4",
          "chain(j4)", "o5", "j5"]),
]
