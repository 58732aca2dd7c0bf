"""Regression cases of helper "runs44b" (session 44).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case

# float32 NaNs of distinct payloads and signs (the third and fourth signaling), as int32 bits
_NANS32 = "[0x7fc00001, -0x3ffffe, 0x7f800003, -0x7ffffc, 0x7fc00005, -0x400000, 0x7f800007, 0x7fc00008]"
_NANS32B = "[-0x3ffff0, 0x7fc00011, -0x7fffee, 0x7f800013, 0x7fc00014, 0x7fc00000, -0x3fffea, 0x7f800017]"

CASES = [
    case("mul-nan-of-two-nans-by-lanes",  # (issue 10) PyTorch's float32/float64 mul gives, where both
         # operands are NaN, one of them quieted as its compiled loops pick: blocks of two AVX2 vectors
         # other's, the vectorised tail after them self's in 4-wide (2-wide) steps, a CPU scalar's in
         # the tail's first 1 + 4k, a strided row's other's; numpy's loops picked otherwise
         [f"a = torch.tensor({_NANS32} * 5, dtype=torch.int32).view(torch.float32)",
          f"b = torch.tensor({_NANS32B} * 5, dtype=torch.int32).view(torch.float32)",
          "bits = lambda t: t.view(torch.int32 if t.dtype == torch.float32 else torch.int64).tolist()",
          "r1 = bits(a[:31] * b[:31])", "r2 = bits(a[:23] * b[1])", "r3 = bits(a[2] * b[:23])",
          "r4 = bits(a[::2] * b[1::2])", "r5 = bits(a[:15].clone().mul_(b[:15]))",
          "r6 = bits(a[:7] * float('nan'))", "r7 = bits(-float('nan') * a[:6])",
          "o = torch.empty(0)", "torch.mul(a[:12], b[:12], out=o)", "r8 = bits(o)",
          "r9 = bits(a[:15].double() * b[:15].double())", "r10 = bits(a[:7].double() * b[3].double())",
          "r11 = bits(a[:30].reshape(3, 10) * b[:3].reshape(3, 1))", "r12 = bits(float('nan') / a[:9])",
          "r13 = bits(a[:12] / b[:12])"],
         [f"r{i}" for i in range(1, 14)]),
    case("half-mul-nan-of-two-nans-by-lanes",  # (issue 10) float16 mul: blocks of 32 and the contiguous
         # tail self's NaN (a row of one element other's); beside a one-element other (a number, 0-d,
         # expanded) the reduced-float kernel over self alone: other's; other repeating along a row:
         # the block's first 16 self's, the last 16 other's, each tail's first element other's
         ["a = torch.tensor([0x7e01, -0x1fe, 0x7c03] * 24, dtype=torch.int16).view(torch.float16)",
          "b = torch.tensor([-0x1ef, 0x7e11, 0x7c13] * 24, dtype=torch.int16).view(torch.float16)",
          "bits = lambda t: t.view(torch.int16).tolist()",
          "r1 = bits(a[:35] * b[:35])", "r2 = bits(a[:1] * b[:1])", "r3 = bits(a[:5] * b[4])",
          "r4 = bits(a[:36] * float('nan'))", "r5 = bits(a[:1].expand(35) * b[:35])",
          "r6 = bits(a[:70].reshape(2, 35) * b[:2].reshape(2, 1))", "r7 = bits(a[1].expand(34) * b[2].expand(34))"],
         ["r1", "r2", "r3", "r4", "r5", "r6", "r7"]),
    case("mul-backward-nan-of-two-nans",  # (issue 10) MulBackward0's grad * other and grad * self are
         # mul's kernel: its NaN of two NaNs (the gradient the first operand)
         [f"a = torch.tensor({_NANS32} * 3, dtype=torch.int32).view(torch.float32).requires_grad_()",
          f"b = torch.tensor({_NANS32B} * 3, dtype=torch.int32).view(torch.float32).requires_grad_()",
          "g = torch.tensor([0x7fc00021, -0x3fffde, 0x7f800023, 1065353216] * 6, dtype=torch.int32).view(torch.float32)",
          "(a * b).backward(g[:24])", "x = torch.tensor([0.5] * 9, dtype=torch.float64, requires_grad=True)",
          "(x * float('nan')).backward(torch.full((9,), float('nan'), dtype=torch.float64).neg())",
          "bits = lambda t: t.view(torch.int32 if t.dtype == torch.float32 else torch.int64).tolist()",
          "r1 = bits(a.grad)", "r2 = bits(b.grad)", "r3 = bits(x.grad)"],
         ["r1", "r2", "r3"]),
]
