"""The form of a regression case of tools/exact_cases.py, shared by the case files (tools/exact_cases_*.py).

A case is ``{"id": ..., "code": [statements], "show": [expressions]}``: tools/gen_exact_golden.py runs the
statements under PyTorch and records each expression's printed form; tests/test_exact_golden.py compares agrad's.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def outcomes(calls: list[str]) -> list[str]:
    """Statements that run each call and record its result or its exception's type and text in ``out``."""
    code = ["out = []"]
    for call in calls:
        code.append(f"try:\n    out.append({call})\nexcept Exception as ex_:\n"
                    f"    out.append(type(ex_).__name__ + ': ' + str(ex_))")
    return code


# a definition for a case's code (``[GRAPH, ...]``): ``graph(f)`` lists the nodes of f's graph, breadth first,
# each with the names of its next functions (None for no edge)
GRAPH = ("def graph(f):\n"
         "    out, todo, seen = [], [f], []\n"
         "    while todo:\n"
         "        f = todo.pop(0)\n"
         "        if f is None or any(f is s for s in seen):\n"
         "            continue\n"
         "        seen.append(f)\n"
         "        out.append((f.name(), [None if n is None else n.name() for n, _ in f.next_functions]))\n"
         "        todo.extend(n for n, _ in f.next_functions)\n"
         "    return out")
