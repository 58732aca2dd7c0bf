"""Regression cases of the linear-algebra and numerics groups of the replayed run dt20k-32 (helper "groupsb",
session 33).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    case("cholesky-float32-inf-pivot-stays-inf",  # (value:cholesky_ex) MKL's small spotrf (n <= 16): an inf
         # pivot's root stays inf, the column below it NaN (a refined reciprocal), failing the next pivot;
         # larger float32 matrices and float64 divide (a finite entry over inf is 0)
         ["inf = float('inf')",
          "a = torch.tensor([[inf, -inf, inf], [-inf, 12.5625, 1.1875], [inf, 1.1875, 12.375]])",
          "b = torch.tensor([[4.0, 1.0, 1.0], [1.0, inf, 1.0], [1.0, 1.0, 4.0]])",
          "c = torch.eye(17) * 2 + 0.125",
          "c[3, 3] = inf"],
         ["torch.linalg.cholesky_ex(a)", "torch.linalg.cholesky_ex(a, upper=True)", "torch.linalg.cholesky_ex(b)",
          "torch.linalg.cholesky_ex(a.double())", "torch.linalg.cholesky_ex(torch.tensor([[inf, 1.0], [1.0, 1.0]]))",
          "torch.linalg.cholesky_ex(c)[0][:6, :5]", "torch.linalg.cholesky_ex(c)[1]",
          "torch.linalg.cholesky(c)[5:7, 2:5]", "torch.linalg.cholesky(b)"]),
    case("ormqr-as-larf-skips-zero-tau-and-zero-v",  # (value:ormqr) LAPACK's larf: a reflector with tau 0
         # is skipped (no 0 * inf); from the right a column where v is 0 is left as it is (ger's zero skip)
         ["inf, nan = float('inf'), float('nan')",
          "q, t = torch.geqrf(torch.tensor([[2.0, 1.0], [1.0, 3.0]], dtype=torch.float64))",
          "q1, t1 = torch.geqrf(torch.tensor([[-1.75]], dtype=torch.float64))",
          "q3, t3 = torch.geqrf(torch.tensor([[1.0, 0.5, 0.0], [2.0, -1.0, 0.0], [0.0, 1.0, 0.0]]))",
          "b = torch.tensor([[-inf, 1.0], [1.0, 2.0]], dtype=torch.float64)",
          "d = torch.tensor([[1.0, 1.0], [inf, 2.0]], dtype=torch.float64)",
          "e = torch.tensor([[1.5, -1.0, 0.0], [0.0, -1.0, 1.5], [1.5, 1.5, inf]])"],
         ["torch.ormqr(q1, t1, torch.tensor([[-inf, 0.75]], dtype=torch.float64))",
          "[torch.ormqr(q, t, x, left, tr) for x in (b, d) for left in (True, False) for tr in (False, True)]",
          "[torch.ormqr(q3, t3, x, left, tr) for x in (e, e.mT) for left in (True, False) for tr in (False, True)]"]),
    case("nanmedian-dim-all-nan-row-index",  # (value:nanmedian) a row of NaNs only: ATen's std::nth_element
         # with its NaNs all equivalent leaves index 2 of 4 (0, 0, 0, 2, 2, 3, 5, 6, ... for 1, 2, 3, ...) first
         ["nan = float('nan')", "x = torch.full((3, 7), nan)", "x[1, 2] = 1.5", "x[2, ::2] = 0.25"],
         ["torch.special.logit(torch.tensor([-3, -3, 4, -1]), eps=float('inf')).nanmedian(dim=0)",
          "x.nanmedian(1)", "x.t().nanmedian(0, keepdim=True)",
          "[torch.full((n,), nan).nanmedian(0).indices.item() for n in range(1, 20)]",
          "torch.full((2, 5), nan, dtype=torch.float64).nanmedian(-1)"]),
    case("matrix-rank-tol-with-atol-or-rtol-is-a-parser-error",  # (raises-only-torch:matrix_rank) no signature
         # of linalg_matrix_rank takes tol with atol or rtol (None included): the parser's TypeError
         ["x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64)"],
         ["torch.linalg.matrix_rank(x, tol=0.001, rtol=2.0)", "torch.linalg.matrix_rank(x, tol=0.001, atol=2.0)",
          "torch.linalg.matrix_rank(x, 0.1, rtol=0.1)", "torch.linalg.matrix_rank(x, tol=0.1, atol=None)",
          "torch.linalg.matrix_rank(x, torch.tensor(0.1), rtol=torch.tensor(0.2))",
          "torch.linalg.matrix_rank(x, tol=0.1)", "torch.linalg.matrix_rank(x, atol=None, rtol=None)",
          "torch.linalg.matrix_rank(x, atol=0.1, rtol=0.2)", "torch.linalg.matrix_rank(x, 0.1, True)"]),
    case("tensorsolve-other-of-more-dims-than-self",  # (error-text:tensorsolve) ATen slices self's sizes from
         # other.dim() for ndim - other.dim(): a negative length wraps round, std::vector's length error
         ["a = torch.tensor([4.0, 0.0, -1.0])", "b = torch.ones(3, 3, 1)"],
         ["torch.linalg.tensorsolve(a, b)", "torch.linalg.tensorsolve(a, b, dims=(0,))",
          "torch.linalg.tensorsolve(torch.ones(6), torch.ones(2, 3))",
          "torch.linalg.tensorsolve(torch.ones(2, 3), torch.ones(2, 3, 1))",
          "torch.linalg.tensorsolve(a, torch.ones(3))",
          "torch.linalg.tensorsolve(torch.eye(6).reshape(2, 3, 6), torch.ones(2, 3))"]),
    case("median-dim-of-bool-empty-dim-checked-first",  # (error-type:median) ATen's zero_numel_check_dims
         # comes before the dtype dispatch: a bool tensor's empty reduction dim is the IndexError
         [],
         ["torch.median(torch.zeros(0, dtype=torch.bool), -1)", "torch.nanmedian(torch.zeros(0, 2, dtype=torch.bool), 0)",
          "torch.median(torch.zeros(2, 0, dtype=torch.bool), 1)", "torch.nanmedian(torch.zeros(2, 0, dtype=torch.bool), 0)",
          "torch.median(torch.zeros(2, dtype=torch.bool), 0)", "torch.median(torch.zeros(0, dtype=torch.bool))"]),
    case("dim-order-memory-format-list",  # (raises-only-agrad:dim_order) a list of memory formats passes the
         # ambiguity check when the tensor is contiguous in exactly one; channels-last has no empty shortcut
         ["x = torch.zeros(1, 2, 3, 4)", "y = torch.zeros(2, 3, 4, 5).permute(0, 2, 3, 1)", "z = torch.zeros(2, 3, 1, 1)"],
         ["x.dim_order(ambiguity_check=[torch.contiguous_format, torch.channels_last])",
          "x.dim_order(ambiguity_check=[torch.channels_last])", "y.dim_order(ambiguity_check=[torch.channels_last])",
          "z.dim_order(ambiguity_check=[torch.contiguous_format])", "z.dim_order(ambiguity_check=[])",
          "z.dim_order()", "torch.zeros(1, 1, 1, 1).dim_order()", "x.dim_order(ambiguity_check=[torch.contiguous_format, 1])",
          "torch.zeros(1, 1).dim_order(ambiguity_check=[torch.channels_last])"]),
    case("kron-product-laid-out-as-tensoriterator",  # (stride:kron) the product of the two views is laid out as
         # TensorIterator sorts its operands' strides (size-1 dims' view strides included), and so is its view
         ["a = torch.tensor([[4, 1]], dtype=torch.int32)", "b = torch.tensor([[-2, 2]], dtype=torch.int32).t()",
          "c = torch.ones(3, 2).t()"],
         ["a.kron(b).stride()", "a.kron(b)", "torch.kron(torch.ones(1, 2), torch.ones(1, 2).t()).stride()",
          "torch.kron(c, torch.ones(2, 2)).stride()", "torch.kron(torch.ones(2, 1, 3), c).stride()",
          "torch.kron(c.double().requires_grad_(), torch.ones(2, 1, dtype=torch.float64))"]),
    case("bce-with-logits-float16-log-sigmoid-in-float-lanes",  # (numeric:binary_cross_entropy_with_logits)
         # a float16 input's log_sigmoid runs in float32 lanes (Sleef's expf and log1pf, the tail too), rounded
         # once to float16, before a float32 target's loss takes it
         ["x = torch.tensor([[1.0, float('inf'), -2.5], [2.5, 2.75, 0.25], [0.0, -0.5, 11.0]], dtype=torch.float16)",
          "t = torch.tensor([[-0.25, -1.75, -0.25], [-1.0, 0.0, 1.25], [2.75, 2.25, 0.0]])"],
         ["torch.binary_cross_entropy_with_logits(x, t, reduction=0)",
          "torch.binary_cross_entropy_with_logits(x, t.half(), None, torch.tensor(1.5, dtype=torch.float16), 0)",
          "F.binary_cross_entropy_with_logits(x, t.double(), weight=torch.tensor(0.75, dtype=torch.float64))"]),
    case("random-like-format-rank-before-kernel-checks",  # (error-text:randint_like) empty_like's rank error for
         # the memory format comes before random_'s range check and the samplers' dtype errors
         ["x = torch.zeros(3, 3, 1, dtype=torch.bool)"],
         ["torch.randint_like(x, 3, high=1, memory_format=torch.channels_last)",
          "torch.randint_like(x, -1, 1, memory_format=torch.channels_last)",
          "torch.randint_like(x, 5, 1, dtype=torch.float32, memory_format=torch.channels_last_3d)",
          "torch.randn_like(x, memory_format=torch.channels_last)", "torch.rand_like(x, memory_format=torch.channels_last)",
          "torch.randint_like(x, 3, high=1)", "torch.rand_like(x, memory_format=torch.contiguous_format)"]),
    case("group-norm-backward-as-the-cpu-kernel",  # (grad-value:backward, mini run seed 33910000) the first-order
         # backward is ATen's CPU kernel: c2, c3 from the gamma-weighted group sums of ds and db, dX = rstd gamma dY
         # + c2 X + c3, so an infinite weight gives -inf where PyTorch's does, not NaN everywhere
         ["x = torch.tensor([[[[1.0, 2.25], [1.75, 1.25], [-1.5, 3.0]], [[-0.25, 3.0], [1.75, 1.75], [2.75, -2.5]],"
          " [[-2.75, 0.75], [1.5, -0.5], [0.5, 2.5]]]], requires_grad=True)",
          "w = torch.tensor([-2.0, float('-inf'), 1.25], requires_grad=True)",
          "g = torch.tensor([[[[-1.5, 1.75], [1.0, -0.5], [-0.25, 3.0]], [[-1.75, 0.0], [-0.5, -1.75], [2.5, 0.25]],"
          " [[-3.0, -3.0], [-2.0, 0.0], [1.25, -2.25]]]])",
          "gx, gw, gb = torch.autograd.grad(F.group_norm(x, 1, w, torch.tensor([-0.25, -2.25, -1.0])), [x, w, x], g,"
          " allow_unused=True)",
          "gx2, gw2 = torch.autograd.grad(F.group_norm(x.double(), 3, w.double()), [x, w], g.double())"],
         ["torch.isinf(gx)", "torch.isnan(gx).sum()", "gw", "torch.isinf(gx2)", "gw2"]),
    case("group-norm-bias-without-weight-backward",  # (raises-only-agrad:grad, mini run seed 33920000) the pass's own
         # output mask decides what is computed; a bias gradient without a weight is PyTorch's error in both paths
         ["x = torch.tensor([[[3.0, 1.0], [0.0, 1.0], [-0.75, 0.0], [0.25, 0.25]]], requires_grad=True)",
          "b = torch.tensor([float('-inf'), -1.25, 1.0, 2.0], requires_grad=True)", "y = torch.group_norm(x, 2, bias=b)",
          "u = torch.ones(2, requires_grad=True)"],
         ["torch.autograd.grad(y.sum(), [u, x], create_graph=True, allow_unused=True)[1]",
          "torch.autograd.grad(y.sum(), [x, b], create_graph=True)", "torch.autograd.grad(y.sum(), [x, b])",
          "torch.autograd.grad(y.sum(), [x])[0]"]),
    case("gradient-of-a-0d-tensor-with-a-dim",  # (error-text:gradient, mini run seed 33920000) a dim of a 0-d
         # tensor is maybe_wrap_dim's IndexError (no scalar wrapping)
         ["x = torch.tensor(True)"],
         ["torch.gradient(x, spacing=1, dim=-1)", "torch.gradient(torch.tensor(1.0), dim=0)",
          "torch.gradient(torch.tensor(1.0), dim=[0])", "torch.gradient(torch.tensor(1.0))",
          "torch.gradient(torch.tensor(1.0), spacing=[torch.tensor(1.0)], dim=0)"]),
    case("unique-dim-output-layout",  # (stride:unique, mini run seed 33920000) unique(dim) of a non-contiguous
         # input: the moved dim first, contiguous, moved back (not the input's layout)
         ["x = torch.tensor([[[-0.25, -2.0], [1.0, -2.75]], [[0.5, float('nan')], [float('-inf'), -1.5]], [[-2.25, 2.25],"
          " [-3.0, -1.5]], [[2.75, 2.75], [1.0, -0.25]]], dtype=torch.float16).transpose(0, -1)",
          "y = torch.tensor([[1, 2], [3, 4], [1, 2]]).t()"],
         ["torch.unique(x, dim=-2).stride()", "torch.unique(x, dim=0).stride()", "torch.unique(x, dim=2).stride()",
          "torch.unique(y, dim=1).stride()", "torch.unique(y, dim=1)", "torch.unique(y.float(), dim=0).stride()"]),
]
