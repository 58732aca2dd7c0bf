"""Regression cases of helper "runs43" (session 43): groups of its own difftest runs (seeds 42200000-42242000).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


def _stale(name, setup, change, loss="a.sum()"):
    """``setup`` recorded, ``change`` in place, then a backward of ``loss``: the error text (or "ok")."""
    return [*setup, change,
            f"try:\n    {loss}.backward()\n    {name} = 'ok'\nexcept RuntimeError as e:\n    {name} = str(e)[:150]"]


_X = "x = torch.tensor([[1., 5., 2.], [3., 0., 4.]], requires_grad=True)"

CASES = [
    case("saved-integer-output-changed-in-place",  # (error-text:grad, r42215000) PyTorch saves the indices
         # output of max/min/sort/topk/kthvalue/mode/median/nanmedian(dim)/cummax/cummin (frexp's exponent): changed in place
         # before the backward, its version error (agrad kept only the array: no error)
         [*_stale("e1", [_X, "a, b = torch.max(x * 1, 1)"], "b.mul_(1)"),
          *_stale("e2", [_X, "a, b = torch.sort(x * 1, 1)"], "b.add_(0)"),
          *_stale("e3", [_X, "a, b = torch.topk(x * 1, 2, 1)"], "b.mul_(1)"),
          *_stale("e4", [_X, "a, b = torch.kthvalue(x * 1, 2, 1)"], "b.mul_(1)"),
          *_stale("e5", [_X, "a, b = torch.mode(x * 1, 1)"], "b.mul_(1)"),
          *_stale("e6", [_X, "a, b = torch.median(x * 1, 1)"], "b.mul_(1)"),
          *_stale("e7", [_X, "a, b = torch.nanmedian(x * 1, 1)"], "b.mul_(1)"),
          *_stale("e8", [_X, "a, b = torch.min(x * 1, 1)"], "b.mul_(1)"),
          *_stale("e9", [_X, "a, b = torch.cummin(x * 1, 1)"], "b.mul_(1)"),
          # (cummax saves self too: an input is unpacked, and checked, before an output)
          *_stale("e10", [_X, "y = x * 1", "a, b = torch.cummax(y, 1)"], "y.add_(1); b.mul_(1)"),
          *_stale("e11", [_X, "a, b = torch.sort(x * 1, dim=1, stable=True)"], "b.mul_(1)"),
          *_stale("e13", [_X, "a, b = torch.frexp(x * 1)"], "b.mul_(1)"),
          # (not changed: the gradient as before)
          *_stale("e12", [_X, "a, b = torch.max(x * 1, 1)"], "c = b * 1")],
         ["e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9", "e10", "e11", "e12", "e13", "x.grad"]),
    case("saved-outputs-unpacked-after-inputs",  # (error-text:grad, r42215000) lu_factor's LU and pivots both
         # changed: PyTorch checks its saved inputs by name, then its saved outputs by name, the outputs that
         # are not differentiable among them (LU before pivots; max_pool2d's self before its indices)
         [*_stale("e1", ["A = (torch.tensor([[-2.75, 2.25], [-3.0, 2.75]]) + 4 * torch.eye(2)).requires_grad_()",
                         "a, b = torch.linalg.lu_factor(A)"], "a.square_(); b.remainder_(torch.tensor([8, 7]))"),
          "x4 = torch.tensor([[[[1., 5., 2., 7.], [3., 0., 4., 6.], [2., 8., 1., 3.], [9., 2., 5., 4.]]]], "
          "requires_grad=True)",
          *_stale("e2", ["y = x4 * 1", "a, b = F.max_pool2d(y, 2, return_indices=True)"], "y.add_(1); b.mul_(1)"),
          *_stale("e3", ["y = x4 * 1", "a, b = F.adaptive_max_pool2d(y, 2, return_indices=True)"],
                  "y.add_(1); b.mul_(1)")],
         ["e1", "e2", "e3"]),
    case("saved-float-outputs-changed-in-place",  # (neighbours of the above) aminmax saves min and max,
         # slogdet its sign, lstsq its solution: changed in place, PyTorch's error names the output
         [*_stale("e1", [_X, "a, b = torch.aminmax(x * 1, dim=1)"], "b.mul_(1)"),
          *_stale("e2", [_X, "a, b = torch.aminmax(x * 1, dim=1)"], "a.add_(1); b.mul_(1)"),
          *_stale("e3", ["A = torch.tensor([[2., 1.], [1., 3.]], requires_grad=True)",
                         "a, b = torch.linalg.slogdet(A * 1)"], "a.add_(1)", loss="b"),
          *_stale("e4", ["A = torch.tensor([[1., 5.], [3., 0.], [2., 2.]], requires_grad=True)",
                         "a = torch.linalg.lstsq(A * 1, torch.ones(3, 1)).solution"], "a.add_(0)")],
         ["e1", "e2", "e3", "e4"]),
    case("dgemm-alpha-zero-signs",  # (repr:addmm, r42230000) float64 addmm with an alpha: MKL's dgemm scales
         # the terms as it packs them and sums from C, so a zero's sign is that of (alpha * a) @ b + C's sums, not
         # alpha times the sum's (-1.5 * +0.0 + -0.0 was -0.0; PyTorch's +0.0); a column-major mat1 with 2 to 11
         # columns: every element whose products and C are all -0.0 is -0.0
         ["x6 = torch.tensor([[3.0, 0.5], [0.5, -2.5], [2.25, 2.0]], dtype=torch.float64, requires_grad=True)",
          "x7 = torch.tensor([[0.25, -2.5, -0.75], [0.5, -0.5, 0.0]], dtype=torch.float64, requires_grad=True)",
          "x8 = torch.tensor(-0.0, dtype=torch.float64, requires_grad=True)",
          "r1 = x8.addmm(x6, x7, alpha=-1.5)",
          "a = torch.tensor([[1.5, -2.5, -0.0], [-0.0, -2.5, 1.5]], dtype=torch.float64)",
          "b = torch.tensor([[-0.0, 1.5, 0.5], [0.5, -0.0, -0.0], [-2.5, 0.5, -0.0]], dtype=torch.float64)",
          "s = torch.tensor([[-0.0, -0.0, -0.0], [-0.0, 0.0, -0.0]], dtype=torch.float64)",
          "r2 = torch.addmm(s, a, b, alpha=2)", "r3 = torch.addmm(s, a, b, alpha=-0.5, beta=2)",
          "r4 = torch.addmm(s, a.t().contiguous().t(), b)", "r5 = torch.addmm(s, a.t().contiguous().t(), b, alpha=-1)",
          "r6 = torch.addmm(s, a, b.t().contiguous().t(), alpha=-2)",
          "r7 = torch.addbmm(s, a.unsqueeze(0), b.unsqueeze(0), alpha=-1.5)"],
         ["r1", "r2", "r3", "r4", "r5", "r6", "r7"]),
    case("slow-conv-transpose-input-grad-one-term",  # (grad-repr:backward, dt43b) a transposed convolution
         # PyTorch's slow kernels take (3-D with a dilation; float64): the input's gradient is one gemm per sample
         # of the weight (C_in x C_out * K) and the gradient's columns; of one term (C_out * K = 1) BLAS writes
         # the plain product, so a zero gradient times a negative weight stays -0.0 (agrad's batched matmul: +0.0)
         ["x7 = torch.tensor([[[[[-0.5, -1.75], [-3.0, -3.0]]], [[[0.75, 1.5], [-2.5, 1.25]]], [[[-1.5, -2.25], "
          "[-3.0, 2.5]]], [[[1.25, 0.0], [0.25, -0.75]]]]], requires_grad=True)",
          "x8 = torch.tensor([[[[[0.25]]]], [[[[2.25]]]], [[[[-0.5]]]], [[[[-2.25]]]]], requires_grad=True)",
          "r10 = torch.conv_transpose3d(x7, x8, stride=2, dilation=2)",
          "g16 = torch.tensor([[[[[3.0, 0.0, 0.0], [2.25, -2.25, -2.5], [float('inf'), 1.25, 0.75]]]]])",
          "r10.backward(gradient=g16)",
          "a = torch.tensor([[[0.5, -0.0, 2.0], [-1.5, 0.0, 0.5]]], dtype=torch.float64, requires_grad=True)",
          "w = torch.tensor([[[-2.0]], [[0.5]]], dtype=torch.float64, requires_grad=True)",
          "y = F.conv_transpose1d(a, w, stride=2)",
          "y.backward(torch.tensor([[[0.0, 1.0, -0.0, 2.0, 0.0]]], dtype=torch.float64))",
          "b = torch.tensor([[[[0.5, -0.0], [2.0, 0.0]]] * 2], dtype=torch.float64, requires_grad=True)",
          "wb = torch.tensor([[[[-2.0]]], [[[0.5]]]], dtype=torch.float64, requires_grad=True)",
          "yb = F.conv_transpose2d(b, wb, groups=2)", "yb.backward(torch.zeros_like(yb))"],
         ["x7.grad", "x8.grad", "a.grad", "w.grad", "b.grad", "wb.grad"]),
    case("grid-sample-bicubic-reflection-double-grid-grad",  # (grad-numeric:backward, r42233000) bicubic
         # grid_sample's grid gradient without the input's, float64 reflection padding: that instance of ATen's
         # kernel computes the coefficients unfused (the others fuse every Horner step); a 1 x 1 image's
         # gradient is all rounding, so every bit shows
         ["x11 = torch.tensor([[[[0.25]]], [[[-2.5]]]], dtype=torch.float64)",
          "x12 = (torch.tensor([[[[-2.75, 2.5], [2.0, 0.0], [0.0, 0.25]], [[-1.25, 0.0], [-3.0, 2.5], [-2.75, 1.0]]], "
          "[[[2.5, -1.75], [0.25, -2.5], [float('inf'), -1.25]], [[-3.0, 0.0], [-1.75, -3.0], [-0.0, 0.25]]]], "
          "dtype=torch.float64) / 2.4).requires_grad_()",
          "F.grid_sample(x11, x12, mode='bicubic', padding_mode='reflection', align_corners=False).sum().backward()",
          "g1 = x12.grad.tolist()", "x12.grad = None",
          "x2 = torch.tensor([[[[0.25, 1.5], [2.0, -1.0]]]], dtype=torch.float64)",
          "F.grid_sample(x2, x12[:1], mode='bicubic', padding_mode='reflection', align_corners=True).sum().backward()",
          "g2 = x12.grad.tolist()", "x12.grad = None",
          "F.grid_sample(x2.float(), x12[:1].float(), mode='bicubic', padding_mode='reflection').sum().backward()",
          "g3 = x12.grad.tolist()"],
         ["g1", "g2", "g3"]),
    case("frobenius-norm-out-grad-error-names-norm",  # (error-text:frobenius_norm, r42242000) frobenius_norm's
         # out= form is ATen's composite over norm_out: with an input (or out) that requires grad, norm()'s error
         ["import warnings", "warnings.simplefilter('ignore')",
          "x4 = torch.tensor([[[-3.0, -1.0], [1.25, 1.5]]], dtype=torch.float64, requires_grad=True)",
          "try:\n    torch.frobenius_norm(x4, -2, keepdim=True, out=torch.zeros(1, dtype=torch.float64))\n"
          "except RuntimeError as e:\n    e1 = str(e)[:60]",
          "try:\n    torch.frobenius_norm(x4.detach(), (0, 1), out=torch.zeros(2, dtype=torch.float64, "
          "requires_grad=True))\nexcept RuntimeError as e:\n    e2 = str(e)[:60]"],
         ["e1", "e2"]),
    case("vecdot-vectors-out-grad-error-names-vdot",  # (error-text:vecdot, r42245000) linalg.vecdot of two vectors
         # is vdot_out with out=: an argument that requires grad gives vdot()'s error, before vdot's size check
         ["x2 = torch.tensor([-2.25, -1.75, 1.75], dtype=torch.float64, requires_grad=True)",
          "o4 = torch.tensor(0.25, dtype=torch.float64)",
          "try:\n    torch.linalg.vecdot(x2, torch.tensor([-0.25, -1.25, 0.0], dtype=torch.float64), dim=0, out=o4)\n"
          "except RuntimeError as e:\n    e1 = str(e)[:60]",
          "try:\n    torch.linalg.vecdot(x2, torch.ones(1, dtype=torch.float64), out=o4)\n"
          "except RuntimeError as e:\n    e2 = str(e)[:60]",
          "try:\n    torch.linalg.vecdot(x2[None], torch.ones(3, dtype=torch.float64), out=o4)\n"
          "except RuntimeError as e:\n    e3 = str(e)[:60]"],
         ["e1", "e2", "e3"]),
]
