"""Regression cases of session 34's sums helper: PyTorch's order of additions in sum, mean and nansum
over any set of dims, any layout (TensorIterator's reordered and coalesced dims, cascade_sum's four
loops), and float16's Half stores.

Same form as tools/exact_cases.py: ``{"id": name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import GRAPH, case


_Z = "((torch.arange({n}.) * 7919 % 1009 - 504) / 37).reshape({shape})"


CASES = [
    case("sum-dims-any-layout",  # a BatchNorm tutorial's per-channel z.mean(dim=(0, 2, 3)): the middle
         # and non-adjacent dims, permuted, sliced and expanded inputs add in PyTorch's order
         ["z = " + _Z.format(n=300, shape="4, 3, 5, 5"),
          "w = " + _Z.format(n=2640, shape="6, 11, 40"), "d = w.double()",
          "p = w.permute(2, 0, 1)", "s = w[:, ::2, 1:]", "e = " + _Z.format(n=160, shape="4, 40, 1") + ".expand(4, 40, 3)"],
         ["z.mean(dim=(0, 2, 3)).tolist()", "z.sum(dim=(0, 2, 3)).tolist()", "z.sum(dim=(0, 2)).tolist()",
          "z.sum(dim=1, keepdim=True).tolist()", "w.sum(dim=1).tolist()", "w.sum(dim=(0, 2)).tolist()",
          "d.sum(dim=(0, 2)).tolist()", "d.mean(dim=1).tolist()", "p.sum(dim=0).tolist()", "p.sum(dim=(1, 2)).tolist()",
          "s.sum(dim=(0, 2)).tolist()", "s.sum().item()", "e.sum(dim=1).tolist()", "e.sum(dim=(0, 1)).tolist()",
          "torch.nansum(w.masked_fill(w > 12, float('nan')), dim=(0, 2)).tolist()"]),
    case("sum-float16-half-stores",  # float16: each partial sum stored into the Half output (rounded,
         # then added and rounded again), except where sum_out takes the input to float (the two
         # innermost iteration dims both reduced); mean sums in float and rounds once; nansum never
         # takes the float path
         ["h = (" + _Z.format(n=2640, shape="6, 11, 40") + ").half()",
          "n = h.masked_fill(h > 12, float('nan'))"],
         ["h.sum(dim=0).tolist()", "h.sum(dim=2).tolist()", "h.sum(dim=(1, 2)).tolist()", "(h * 9).sum(dim=2).tolist()", "h.sum(dim=(0, 2)).tolist()", "h.sum(dim=1).tolist()", "h.sum().item()",
          "h.mean(dim=(0, 2)).tolist()", "h.mean(dim=0).tolist()", "h.permute(2, 1, 0).sum(dim=2).tolist()",
          "torch.nansum(n, dim=(0, 2)).tolist()", "torch.nansum(n).item()"]),
    case("logsumexp-sum-order",  # logsumexp's sum of exp(x - max) is at::sum_out: PyTorch's order of additions
         ["d = (" + _Z.format(n=2640, shape="6, 11, 40") + " / 4).double()"],
         ["d.logsumexp(dim=1).tolist()", "d.logsumexp(dim=(0, 2)).tolist()", "d.logsumexp(dim=2).tolist()",
          "d.permute(2, 0, 1).logsumexp(dim=0).tolist()", "(d - d.amax(dim=1, keepdim=True)).exp().sum(dim=1).float().tolist()"]),
    case("broadcast-gradient-middle-dim",  # the gradient of a broadcast input is summed back (sum_to) over
         # a middle dim in PyTorch's order
         [GRAPH, "x = (" + _Z.format(n=120, shape="3, 1, 40") + ").requires_grad_()",
          "y = " + _Z.format(n=1320, shape="3, 11, 40"), "(x * y).sum().backward()",
          "a = (" + _Z.format(n=11, shape="11, 1") + ").double().requires_grad_()",
          "b = " + _Z.format(n=440, shape="4, 11, 10") + ".double()", "(a * b * b).sum().backward()"],
         ["x.grad.tolist()", "a.grad.tolist()", "y.sum_to_size(3, 1, 40).tolist()"]),
]
