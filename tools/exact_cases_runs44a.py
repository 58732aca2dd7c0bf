"""Regression cases of helper "runs44a" (session 44): groups of its own difftest runs.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case, outcomes

CASES = [
    case("repeat-interleave-tensor-repeats-checks",  # (error-type:repeat_interleave, run 42530000) ATen's
         # repeat_interleave_symint: the repeats' rank first, then input.sym_size(dim) of the dim as given (a 0-d
         # input with a dim: IndexError), the size message naming that dim unwrapped; repeat_interleave_common
         # with output_size: the empty({output_size}) and compute_cpu's size check before the negative one; the
         # int overload unsqueezes before its output_size check
         outcomes(["torch.tensor(2.5).repeat_interleave(repeats=torch.tensor([3, 1]), dim=0)",
                   "torch.tensor(2.5).repeat_interleave(torch.tensor([2]), dim=-1)",
                   "torch.tensor(2.5).repeat_interleave(torch.tensor(2), dim=1)",
                   "torch.tensor(2.5).repeat_interleave(torch.tensor([2]))",
                   "torch.arange(6.).reshape(2, 3).repeat_interleave(torch.tensor([1, 2]), dim=-1)",
                   "torch.arange(6.).reshape(2, 3).repeat_interleave(torch.tensor([1, 0, 2]), dim=-2)",
                   "torch.arange(6.).reshape(2, 3).repeat_interleave(torch.tensor([1, 0, 2]), dim=-1)",
                   "torch.tensor([1., 2.]).repeat_interleave(torch.tensor([[1, 2]]), dim=5)",
                   "torch.repeat_interleave(torch.tensor([-1, 2, 1]), output_size=3)",
                   "torch.repeat_interleave(torch.tensor([-1, 2, 1]), output_size=2)",
                   "torch.repeat_interleave(torch.tensor([1, 2, 1]), output_size=-1)",
                   "torch.tensor([1., 2.]).repeat_interleave(torch.tensor([1, -2]), dim=0, output_size=-1)",
                   "torch.repeat_interleave(torch.tensor(2.5), 2, dim=0, output_size=4)",
                   "torch.repeat_interleave(torch.tensor([2.5]), 2, dim=0, output_size=4)"]),
         ["out"]),
]
