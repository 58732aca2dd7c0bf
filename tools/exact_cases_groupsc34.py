"""Regression cases of the numerics / linear-algebra / convolution groups of the session-34 run (helper "groupsc").

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


ERR = "def err(f):\n    try:\n        return f()\n    except Exception as e:\n        return type(e).__name__ + ': ' + str(e)"


CASES = [
    case("ldexp-0d-exponent-power-dtype",  # (numeric:ldexp) a 0-d floating exponent with a floating self other
         # than float32: the power in the common dtype of both (float64 self: a float64 power), a half result
         # through mul's reduced-float scalar path; float32 self keeps the exponent's own dtype
         ["x = torch.tensor([0.25, -2.75, 3.0], dtype=torch.float64, requires_grad=True)",
          "e = torch.tensor(1.5, requires_grad=True)",
          "r = torch.ldexp(x, e)", "r.sum().backward()"],
         ["r.tolist()", "x.grad.tolist()", "e.grad.item()",
          "torch.ldexp(torch.tensor([0.7, 3.0]), torch.tensor(0.1, dtype=torch.float16)).tolist()",
          "torch.ldexp(torch.tensor([0.7, 3.0], dtype=torch.float64), torch.tensor(0.1, dtype=torch.float16)).tolist()",
          "torch.ldexp(torch.tensor([0.7, 3.0], dtype=torch.float64), torch.tensor([0.1])).tolist()",
          "torch.ldexp(torch.tensor([0.7, 3.0], dtype=torch.float16), torch.tensor(0.1, dtype=torch.float64)).tolist()",
          "torch.ldexp(torch.tensor([0.7, 3.0], dtype=torch.float16), torch.tensor(-3.3)).tolist()",
          "torch.ldexp(torch.tensor(0.7, dtype=torch.float16), torch.tensor(0.1, dtype=torch.float64)).tolist()",
          "(lambda r: (r.dtype, r.tolist()))(torch.ldexp(torch.tensor([3, 5]), torch.tensor(0.1, dtype=torch.float16)))"]),
    case("lstsq-inf-b-residuals-zero-a",  # (value:lstsq) residuals are rows n.. of B as LAPACK leaves them
         # (scaled back in the first n rows only): an inf in B makes its own column's residual NaN, the others
         # 0; an all-zero A is a zero solution (and gels's residuals 0) whatever B holds
         ["A = torch.tensor([[2.0, 2.5], [-0.5, -2.0], [-1.0, 0.0]])",
          "B = torch.tensor([[0.0, -1.5], [2.25, 0.25], [float('inf'), 1.0]])",
          "Z = torch.zeros(3, 2)"],
         ["[t.tolist() for t in torch.linalg.lstsq(A, B, driver='gelss')]",
          "[t.tolist() for t in torch.linalg.lstsq(A.double(), B.double(), driver='gelsd')]",
          "[t.tolist() for t in torch.linalg.lstsq(A, B, driver='gels')]",
          "[t.tolist() for t in torch.linalg.lstsq(A, B.flip(0), driver='gels')]",
          "[t.tolist() for t in torch.linalg.lstsq(torch.stack([A, A]), torch.stack([B, B.flip(1)]), driver='gelss')]",
          "[t.tolist() for t in torch.linalg.lstsq(Z, B, driver='gels')]",
          "[t.tolist() for t in torch.linalg.lstsq(Z, B.nan_to_num(posinf=1.0), driver='gels')]",
          "[t.tolist() for t in torch.linalg.lstsq(Z, B, driver='gelsd')]",
          "[t.tolist() for t in torch.linalg.lstsq(Z, B.nan_to_num(posinf=float('nan')), driver='gelss')]"]),
    case("conv-transpose-strided-kernel-inf-weight",  # (value:conv_transpose3d) oneDNN's float32 transposed
         # convolution whose output's last dim is not a multiple of the stride there (ungrouped, or over 8
         # input channels a group) sums every stride-aligned tap of that dim, reading zeros past the input's
         # ends: an inf weight makes NaN there; other shapes, dilation, few channels a group do not
         ["x = torch.arange(20.).reshape(2, 2, 5) / 4 - 2",
          "w = torch.ones(2, 2, 3)", "w[0, 0, 0] = float('inf')", "w[1, 1, 2] = -float('inf')",
          "x3 = torch.arange(48.).reshape(2, 1, 2, 3, 4) / 8 - 3",
          "w3 = torch.ones(1, 2, 2, 2, 3)", "w3[0, 1, 0, 1, 0] = float('inf')",
          "xg = torch.ones(2, 18, 4)", "wg = torch.ones(18, 1, 3)", "wg[0, 0, 0] = float('inf')"],
         ["torch.conv_transpose1d(x, w, stride=2).tolist()",
          "torch.conv_transpose1d(x, w, stride=2, padding=1).tolist()",
          "torch.conv_transpose1d(x, w, stride=2, output_padding=1).tolist()",
          "torch.conv_transpose1d(x, w, stride=3, output_padding=1).tolist()",
          "torch.conv_transpose1d(x, w, stride=2, dilation=2).tolist()",
          "torch.conv_transpose1d(x[:1], w, stride=2).tolist()",
          "torch.conv_transpose3d(x3, w3, stride=2).isnan().nonzero().tolist()",
          "torch.conv_transpose2d(x3[:, :, 0], w3[:, :, 0], stride=(1, 2)).isnan().nonzero().tolist()",
          "torch.conv_transpose1d(xg, wg, stride=2, groups=2).isnan().nonzero().tolist()",
          "torch.conv_transpose1d(xg[:, :16], wg[:16], stride=2, groups=2).isnan().nonzero().tolist()"]),
    case("conv-backward-data-onednn-inf-weight",  # (grad-value, the kernels of the forward's case) oneDNN's
         # backward-data kernels: a strided convolution's input gradient sums every stride-aligned tap of the
         # last dim (zeros past the ends: NaN with an inf weight); a transposed one's input gradient is the
         # direct forward kernel, which never reads the padding
         ["x = torch.ones(2, 2, 5, requires_grad=True)", "w = torch.ones(2, 2, 3)", "w[0, 0, 0] = float('inf')",
          "torch.conv1d(x, w, stride=2).sum().backward()", "g1 = x.grad.tolist()", "x.grad = None",
          "torch.conv1d(x, w, stride=2, padding=1).sum().backward()", "g2 = x.grad.tolist()", "x.grad = None",
          "torch.conv_transpose1d(x, w, padding=1).sum().backward()", "g3 = x.grad.tolist()", "x.grad = None",
          "torch.conv_transpose1d(x, w, stride=2, padding=2).sum().backward()", "g4 = x.grad.tolist()",
          "x.grad = None", "torch.conv1d(x[:1], w, stride=2).sum().backward()", "g5 = x.grad.tolist()",
          "xi = torch.ones(2, 2, 5)", "xi[0, 0, 1] = float('inf')", "wi = torch.ones(2, 2, 3, requires_grad=True)",
          "torch.conv_transpose1d(xi, wi, padding=1).sum().backward()", "g6 = wi.grad.tolist()"],
         ["g1", "g2", "g3", "g4", "g5", "g6"]),
    case("lstsq-inf-a-gels-gelsd-errors",  # (raises-only-torch:lstsq) an inf in A: gels factors A scaled by 0
         # (NaNs among zeros) and reports the first zero left on R's diagonal as a rank error; gelsd of
         # min(m, n) <= 2 rejects the scaled A as a NaN (argument 4)
         [ERR, "inf = float('inf')", "B = torch.ones(3, 2)"],
         ["err(lambda: torch.linalg.lstsq(torch.tensor([[inf, 2.5], [-0.5, -2.0], [-1.0, 0.0]]), B, driver='gels'))",
          "err(lambda: torch.linalg.lstsq(torch.tensor([[2.0, 2.5], [-0.5, -inf], [-1.0, 0.0]]), B, driver='gels'))",
          "err(lambda: torch.linalg.lstsq(torch.tensor([[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[inf, 2.5], [-0.5, -2.0], "
          "[-1.0, 0.0]]]), torch.stack([B, B]), driver='gels'))",
          "err(lambda: torch.linalg.lstsq(torch.tensor([[2.0, 2.5, 1.0], [-0.5, -inf, 1.0]]), B[:2], driver='gels'))",
          "err(lambda: torch.linalg.lstsq(torch.tensor([[2.0, 2.5], [-0.5, -inf], [-1.0, 0.0]]), B, driver='gelsd'))",
          "err(lambda: torch.linalg.lstsq(torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]).double(), B.double(), "
          "driver='gelsd').rank)"]),
    case("var-mean-nan-before-inf",  # (value:var_mean) Welford's mean of a slice with a NaN before its one
         # infinity (the last element) is NaN, not the infinity
         ["t = torch.tensor([[float('nan'), float('nan'), -float('inf')], [1.0, float('inf'), 2.0], "
          "[2.0, 1.0, float('inf')], [float('nan'), 1.0, 2.0]]).t()"],
         ["[r.tolist() for r in torch.var_mean(t, 0)]", "[r.tolist() for r in torch.std_mean(t, 0)]",
          "[r.tolist() for r in torch.var_mean(t.t(), 1)]"]),
]
