"""Regression cases of helper "runs41" (session 41): groups of its own difftest runs (seeds 40600000 on).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case, outcomes


CASES = [
    case("gradient-dim-checks-of-a-0d-input",  # (error-text:gradient, run 40615000) pre_check_gradient wraps
         # the dims as dim_list_to_bitset does (a 0-d tensor takes -1 and 0; a repeat is refused as it comes),
         # then reads self.size(dim) of each dim as given, which a 0-d tensor has none of
         ["x = torch.tensor(-2.0, requires_grad=True)", "y = torch.tensor([[1., 2., 4.]])"]
         + outcomes(["torch.gradient(x, spacing=0.5, dim=1, edge_order=1)", "torch.gradient(x, dim=-2)",
                     "torch.gradient(x, dim=0)", "torch.gradient(x, dim=-1)", "torch.gradient(x, dim=[0, -1])",
                     "torch.gradient(x, dim=[0, 2])", "torch.gradient(y, dim=[0, 0, 5])",
                     "torch.gradient(y, dim=[1, -1])", "torch.gradient(y, dim=[1, 3])", "torch.gradient(y, dim=0)",
                     "torch.gradient(y, edge_order=2)", "torch.gradient(x)"]),
         ["out"]),
    case("matrix-exp-products-in-bmm-order",  # (grad-numeric:backward, run 40615000) mexp's products are
         # _matmul_impl's bmm_out into its buffer's slots: its own loop below 400 multiply-adds, MKL's sgemm
         # (where the result's rows fall) above; the squarings batched by s; T8's constants rounded from double
         ["x2 = torch.tensor([[3.0, 3.0, -0.25, -0.25], [-1.0, 1.0, 0.5, 1.75], [-0.5, -3.0, 1.0, 0.0], "
          "[-1.75, 1.0, 1.0, 3.0]], requires_grad=True)",
          "r3 = torch.matrix_exp(x2)", "r4 = r3[::2].rad2deg_()", "r4.sum().backward()",
          "a = (torch.arange(64.).reshape(8, 8) % 5 - 2) * 0.01", "t8 = torch.linalg.matrix_exp(a)",
          "b = torch.stack([(torch.arange(36.).reshape(6, 6) % 7 - 3) * s for s in (0.5, 3.0, 0.02, 3.0)])",
          "tb = torch.linalg.matrix_exp(b)"],
         ["r3.tolist()", "x2.grad.tolist()", "t8.tolist()", "tb.tolist()"]),
    case("logsigmoid-hardsigmoid-backward-layouts",  # (stride:grad, run 40615000) log_sigmoid_backward_cpu
         # writes into empty_like(grad_output) (a sum's expanded gradient: C order in the view's shape, so the
         # transposed leaf's gradient has strides (1, 4, 16)); hardsigmoid_backward is TensorIterator's binary op
         ["x1 = (torch.arange(32.).reshape(4, 4, 2) / 4 - 3).requires_grad_()", "v2 = x1.transpose(0, -1)",
          "g1, = torch.autograd.grad(F.logsigmoid(v2).sum(), [x1], create_graph=True)",
          "g2, = torch.autograd.grad(F.logsigmoid(v2).sum(), [x1])",
          "g3, = torch.autograd.grad(F.logsigmoid(x1), [x1], torch.ones(2, 4, 4).transpose(0, -1))",
          "g4, = torch.autograd.grad(F.hardsigmoid(v2).sum(), [x1])",
          "g5, = torch.autograd.grad(F.hardsigmoid(x1), [x1], torch.ones(2, 4, 4).transpose(0, -1))"],
         ["g1.stride()", "g2.stride()", "g3.stride()", "g4.stride()", "g5.stride()", "g1", "g5"]),
    case("float-power-out-grad-name-quantile-out-resize",  # (error-text:float_power, warning:quantile, run
         # 40633000/40636000) float_power's out= is pow_out's (its autograd refusal names pow()); quantile_out
         # resizes out with resize_output's warning before computing, then copies
         ["x = torch.tensor([[0.0, -1.25], [3.0, -1.25]], requires_grad=True)"]
         + outcomes(["torch.float_power(x, torch.tensor([[-2.0, 1.5], [-1.75, 2.75]]), out=torch.zeros(2, 2, "
                     "dtype=torch.float64))", "torch.float_power(x, 2, out=torch.zeros(2, 2, dtype=torch.float64))",
                     "torch.float_power(2.5, x, out=torch.zeros(2, 2, dtype=torch.float64))",
                     "torch.float_power(x, 2, out=torch.zeros(2, 2))"])
         + ["y = torch.tensor([-1.75, 0.5, 2.0])", "o = torch.tensor([1.5, 0.0])", "r = torch.quantile(y, 0.3, out=o)",
            "o2 = torch.zeros(3)", "r2 = torch.nanquantile(y, torch.tensor([0.2, 0.9]), out=o2)"],
         ["out", "r", "o.shape", "r2", "o2.shape"]),
    case("max-pool1d-checks-before-the-kernel",  # (error-type:max_pool1d, run 40642000) ATen's max_pool1d runs
         # check_max_pool1d (its own texts, the output size) before its float-only kernel refuses an integer input
         ["x = torch.tensor([[0, 4, 4]])", "y = torch.ones(2, 5)"]
         + outcomes(["torch.max_pool1d(x.t(), 2)", "torch.max_pool1d(x, 4)", "torch.max_pool1d(x, 2)",
                     "torch.max_pool1d(y, 0)", "torch.max_pool1d(y, 2, 0)", "torch.max_pool1d(y, 4, 1, 3)",
                     "torch.max_pool1d(y, 2, 1, 0, 0)", "torch.max_pool1d(y, 2, 1, 0, [1, 1])",
                     "torch.max_pool1d(y, 2, 1, [0, 0])", "torch.max_pool1d(y, 6, 6, 3, 1, True)",
                     "torch.max_pool1d(y.requires_grad_(), 3, 1, -1)"]),
         ["out"]),
    case("linalg-pinv-out-overloads",  # (raises-only-agrad:pinv, run 40648000) float tolerances or rcond: the
         # composite overload (computed, resized, out.copy_: CopyBackwards); None/tensor tolerances: autograd refuses;
         # checkLinalgCompatibleDtype's text for an out it cannot cast into
         ["x = torch.tensor([[1.0, 2.0], [0.5, 3.0]], requires_grad=True)", "o1 = torch.zeros(3)",
          "r1 = torch.linalg.pinv(x, rtol=0.1, out=o1)", "o2 = torch.zeros(2, 2)", "r2 = torch.linalg.pinv(x, 0.1, out=o2)",
          "g = r1.grad_fn.name(), r2.grad_fn.name(), o1.shape, o1._version"]
         + outcomes(["torch.linalg.pinv(x, out=torch.zeros(2, 2))",
                     "torch.linalg.pinv(x, rtol=torch.tensor(0.1), out=torch.zeros(2, 2))",
                     "torch.linalg.pinv(x, 0.1, out=torch.zeros(2, 2, dtype=torch.int32))",
                     "torch.linalg.pinv(x.detach(), out=torch.zeros(2, 2, dtype=torch.int32))",
                     "torch.linalg.pinv(x.detach(), atol=0.5, out=torch.zeros(2, 2, dtype=torch.float64)).dtype"]),
         ["g", "r1", "out"]),
]
