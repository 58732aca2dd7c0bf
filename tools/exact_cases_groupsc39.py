"""Regression cases of session 39's groupsc39 work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    del graph
    return [
        case("index-reduce-written-before-errors",  # (gc39 value:index_reduce_) what index_reduce_ wrote when it
             # raises: a bool mean has added every slice in before its floor division fails (a view's base keeps
             # it); an excluded self (include_self=False) is filled with the reduction's identity (prod 1, amax
             # -inf / lowest, amin inf / max, mean 0) for every index before the loop meets a negative index
             ["x = torch.tensor([[[True], [False], [True]], [[False], [True], [False]], [[True], [False], [False]]])",
              "v = x[::2]",
              "s = torch.tensor([[[False, False], [False, False], [False, True]], [[True, True], [False, True], "
              "[True, True]]])",
              "v.index_reduce_(2, torch.tensor([0, 0]), s, 'mean', include_self=True)",
              "y = [torch.tensor([[2, 3, 7], [4, 5, 6]]).to(t) for t in (torch.uint8, torch.float32, torch.int64)]",
              "ys = [[z.clone() for z in y] for _ in range(4)]",
              "for red, zs in zip(('amin', 'amax', 'prod', 'mean'), ys):\n    for z in zs:\n        try:\n"
              "            z.index_reduce_(1, torch.tensor([1, -1]), torch.ones(2, 2).to(z.dtype), red, "
              "include_self=False)\n        except IndexError as e:\n            err = str(e)",
              "w = [torch.tensor(5.0) for _ in range(4)]",
              "for red, z in zip(('amin', 'amax', 'prod', 'mean'), w):\n    try:\n"
              "        z.index_reduce_(0, torch.tensor(-1), torch.tensor(2.0), red, include_self=False)\n"
              "    except IndexError as e:\n        err0 = str(e)",
              "u = torch.tensor([2, 3, 7], dtype=torch.uint8)"],
             ["x", "v", "ys", "err", "w", "err0",
              "u.index_reduce_(0, torch.tensor([-1]), torch.tensor([1], dtype=torch.uint8), 'amin', "
              "include_self=False)", "u"]),
    ]
