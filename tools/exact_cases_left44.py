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
CASES += [
    case("scatter-index-ops-read-overlapping-src-in-loop-order",  # (value:scatter_add_, run 42242000) self a
         # strided view of src (c10 finds the overlap too hard: no error): the kernel reads each source element
         # from memory after its earlier writes -- scatter's loop over the index's elements, index_add_ /
         # index_reduce_'s over the index's slices, index_copy_'s over the source's elements
         ["idx = torch.tensor([[0, 0], [1, 1], [1, 0]])",
          "x1 = torch.tensor([[-1.5, 0.25], [2.25, -2.75], [1.0, -3.0]], requires_grad=True)",
          "r1 = x1 * 1", "r1[::2].scatter_add_(0, idx, r1)", "r1.sum().backward()",
          "r2 = torch.tensor([[-1.5, 0.25], [2.25, -2.75], [1.0, -3.0]])", "r2[::2].scatter_(0, idx, r2)",
          "r3 = torch.tensor([[-1.5, 0.25], [2.25, -2.75], [1.0, -3.0]])",
          "r3[::2].scatter_reduce_(0, idx, r3, 'prod', include_self=False)",
          "r4 = torch.tensor([[-1.5, 0.25], [2.25, -2.75], [1.0, -3.0]], dtype=torch.float64)",
          "r4[::2].index_add_(0, torch.tensor([0, 1, 1]), r4, alpha=2)",
          "r5 = torch.tensor([[-1.5, 0.25], [2.25, -2.75], [1.0, -3.0]])",
          "r5[::2].index_reduce_(0, torch.tensor([0, 1, 1]), r5, 'mean')",
          "r6 = torch.tensor([[-1.5, 0.25], [2.25, -2.75], [1.0, -3.0]])",
          "r6[::2].index_copy_(0, torch.tensor([1, 0]), r6[:2])",
          "r7 = torch.arange(12.).reshape(3, 4)", "r7[:, ::2].scatter_add_(1, torch.tensor([[1, 0, 1]] * 3), r7)"],
         ["r1", "x1.grad", "r2", "r3", "r4", "r5", "r6", "r7"]),
]
