"""Golden cases of the lead's fixes in session 44 (each names the differential run's group)."""
from __future__ import annotations

from exact_case_form import case, outcomes

CASES = [
    case("sdpa-flash-saves-its-mask",  # (dt44a raises-only-torch:backward) the flash node saves the float mask
         # it is given, so changing the mask in place before the backward is the version error; a bool mask is
         # saved as its 0 / -inf conversion
         ["q = torch.tensor([[[[0.5, -1.0], [1.5, 0.25], [-0.75, 2.0]]]], requires_grad=True)",
          "k = torch.tensor([[[[1.0, 0.5], [-0.5, 0.75], [0.25, -1.25]]]], requires_grad=True)",
          "v = torch.tensor([[[[2.0, -0.5], [0.5, 1.0], [-1.0, 0.25]]]], requires_grad=True)",
          "m1 = torch.tensor([[-1.5], [3.0], [1.0]])",
          "m2 = torch.tensor([[True, False, True], [True, True, False], [False, True, True]])",
          "r1 = F.scaled_dot_product_attention(q, k, v, m1, is_causal=True, scale=0.5)",
          "r2 = F.scaled_dot_product_attention(q, k, v, m2)",
          "s = (r1.grad_fn._saved_attn_mask is m1, r2.grad_fn._saved_attn_mask, "
          "F.scaled_dot_product_attention(q, k, v).grad_fn._saved_attn_mask)",
          "m1[1:].sigmoid_()", "m2.logical_not_()"] +
         outcomes(["r1.sum().backward()", "r2.sum().backward(create_graph=True)"]),
         ["s", "out", "q.grad"]),
]
