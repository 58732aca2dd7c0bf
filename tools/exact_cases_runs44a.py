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
    case("view-backward-after-base-as-strided-in-place-past-it",  # (raises-only-agrad:backward, run 42542000)
         # a view of r4 changed in place, then r4.as_strided_ to a geometry past the view's start: the view's
         # AsStridedBackward0 reads the gradient at the input's storage offset, the view's elements before it
         # dropped (agrad's scatter indexed -5: IndexError), with and without create_graph
         ["x3 = torch.tensor([[2.25, 2.75, -0.75], [-2.75, -2.75, -1.75]], requires_grad=True)",
          "r4 = x3 * 1", "r5 = r4[...].sin_()", "r4.as_strided_((1,), (0,), storage_offset=5)",
          "r5.sum().backward()",
          "y3 = torch.tensor([[2.25, 2.75, -0.75], [-2.75, -2.75, -1.75]], requires_grad=True)",
          "s4 = y3 * 1", "s5 = s4[1:].mul_(2)", "s4.as_strided_((2,), (1,), storage_offset=3)",
          "g, = torch.autograd.grad(s5.sum(), [y3], create_graph=True)"],
         ["x3.grad", "g"]),
    case("qr-out-grad-refusal-names-linalg-qr",  # (error-text:qr, run 42548000) torch.qr(out=) is qr_out over
         # linalg_qr_out: the autograd out= refusal names linalg_qr()
         ["x = torch.ones(2, 2, requires_grad=True)"] + outcomes(
             ["torch.qr(x, out=(torch.empty(0), torch.empty(0)))",
              "torch.qr(x, some=False, out=(torch.empty(0), torch.empty(0)))"]),
         ["out"]),
]
