"""Regression cases of helper "left44" (session 44): leftovers of session 43 and the groups of its own runs.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    case("index-reduce-amin-amax-zero-tie-by-slice-loop",  # (repr:index_reduce, dt43d) a self of 2+ dims:
         # each index's slice is reduced by minimum_stub / maximum_stub, whose vector code (whole blocks of
         # 16 floats along the result's row) takes the source's zero on a tie, its scalar loop self's; the
         # result's own layout (in place, out=) decides the rows
         ["s = torch.zeros(3, 17).neg()", "src = torch.zeros(2, 17)", "i = torch.tensor([1, 0])",
          "r1 = torch.index_reduce(s, 0, i, src, 'amin')",
          "r2 = torch.index_reduce(s, 0, i, src, 'amax', include_self=False)",
          "o = torch.empty(17, 3).t()", "r3 = torch.index_reduce(s, 0, i, src, 'amin', out=o)",
          "r4 = s.t().contiguous().t().index_reduce_(0, i, src, 'amax')",
          "r5 = torch.index_reduce(s.double(), 0, i, src.double(), 'amin')",
          "r6 = torch.index_reduce(s[:, :8], 0, i, src[:, :8], 'amin')",
          "n = s.clone()", "n[1, ::2] = float('nan')", "r7 = torch.index_reduce(n, 0, i, src, 'amin')"],
         ["r1.signbit()", "r2.signbit()", "r3.signbit()", "r4.signbit()", "r5.signbit()", "r6.signbit()",
          "r7.signbit()", "r7.isnan()"]),
]
