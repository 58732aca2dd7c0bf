"""Regression cases of session 38's groupsd38 work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    case("loss-reduction-enum-only-at-torch-level",  # (gd38 error-type:binary_cross_entropy_with_logits)
         # F's losses take the reduction's name only (_Reduction.get_enum: a number is a ValueError, F.poisson_nll_loss
         # concatenates it: a TypeError); F.binary_cross_entropy_with_logits compares the sizes before
         # torch.binary_cross_entropy_with_logits' parser reads weight and pos_weight; the torch-level losses
         # reduce for 1 (mean) and 2 (sum) only, any other number is unreduced
         ["x = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], requires_grad=True)",
          "y = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])", "z = torch.tensor([[1.0, 2.0]])",
          "t1 = torch.tensor([1.0, -1.0])",
          "lp = torch.tensor([[[-1.0, -2.0, -0.5]], [[-0.3, -1.0, -2.0]], [[-1.0, -1.0, -1.0]]], requires_grad=True)",
          "r1 = torch.binary_cross_entropy_with_logits(x, y, None, None, 5)", "r1.sum().backward()",
          "r2 = torch.ctc_loss(lp, torch.tensor([[1, 2]]), [3], [2], 0, -1, False)", "r2.sum().backward()",
          "r3 = F.mse_loss(x, y, reduction='elementwise_mean')"],
         ["F.binary_cross_entropy_with_logits(z, y, -1, pos_weight=-1.0)",
          "F.binary_cross_entropy_with_logits(z, y, 1.5, reduction='foo')",
          "F.binary_cross_entropy_with_logits(x, y, -1, pos_weight=-1.0)",
          "F.binary_cross_entropy_with_logits(x, y, None, pos_weight=2)",
          "F.binary_cross_entropy_with_logits(x, 1)",
          "F.binary_cross_entropy_with_logits(x, y, reduction=1)", "F.mse_loss(x, y, reduction=2)",
          "F.kl_div(x, y, reduction=0)", "F.triplet_margin_loss(x, y, x + 1, reduction=1)",
          "F.multi_margin_loss(x, torch.tensor([0, 2]), reduction=2)", "F.poisson_nll_loss(x, y, reduction=1)",
          "F.poisson_nll_loss(x, y, reduction=None)", "F.ctc_loss(lp, torch.tensor([[1, 2]]), [3], [2], reduction=1)",
          "r1", "x.grad", "r2", "lp.grad", "r3", "torch.kl_div(x, y, 3)",
          "torch.cosine_embedding_loss(x, y, t1, 0.0, 7)", "torch.triplet_margin_loss(x, y, x + 1, 1.0, 2.0, 1e-6, False, -2)"]),
    case("loss-parser-checks-after-reduction",  # (own probe after gd38_38500000) F.cross_entropy and F.nll_loss
         # check the reduction's name, then torch._C._nn's parser checks every argument in order: ignore_index a
         # SymInt (a one-element integral tensor too; a bool one its conversion's assert; 2**63 overflows),
         # label_smoothing a float (a 0-d tensor too); kl_div's log_target a bool (None, ints refused); the
         # torch-level reduction an int (a 0-d integral tensor too)
         ["x = torch.tensor([[0.1, 0.2, 0.3], [0.5, 0.9, 0.2]], requires_grad=True)",
          "y = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])", "c = torch.tensor([0, 2])",
          "r1 = F.cross_entropy(x, c, ignore_index=torch.tensor([[2]]), label_smoothing=torch.tensor(0.25))",
          "r1.backward()"],
         ["F.cross_entropy(x, c, ignore_index=1.5)", "F.nll_loss(x, c, ignore_index=True)",
          "F.nll_loss(x, c, ignore_index=None)", "F.cross_entropy(x, c, ignore_index=torch.tensor(True))",
          "F.cross_entropy(x, c, ignore_index=2 ** 63)", "F.nll_loss(x, c, ignore_index=torch.tensor([2, 3]))",
          "F.cross_entropy(x, c, label_smoothing=None)", "F.cross_entropy(x, y, label_smoothing=[1])",
          "F.cross_entropy(x, c, label_smoothing=torch.tensor([0.1]))",
          "F.cross_entropy(1, c, reduction='foo')", "F.nll_loss(x, c, 2, reduction='foo')",
          "F.cross_entropy(x, c, 2, ignore_index=1.5)", "F.cross_entropy(x, 1, ignore_index=1.5)",
          "F.kl_div(x, y, log_target=1)", "F.kl_div(x, y, reduction='batchmean', log_target=None)",
          "torch.kl_div(x, y, 1, log_target=1.5)", "torch.kl_div(x, y, torch.tensor(2, dtype=torch.uint8))",
          "torch.kl_div(x, y, 2 ** 63)", "torch.kl_div(x, y, torch.tensor([2]))",
          "F.nll_loss(x.log_softmax(1), c, ignore_index=torch.tensor(2, dtype=torch.int16))",
          "F.cross_entropy(x, y, label_smoothing=torch.tensor(1, dtype=torch.uint8))",
          "r1", "x.grad"]),
    case("loss-float-parameters-parsed",  # (own probe) F's Python-level losses: a call that does not bind fails
         # there first; cosine/hinge_embedding_loss and poisson_nll_loss check the reduction's name before the
         # parser's tensor checks; the parser's float margin/eps/delta/beta (a 0-d tensor without grad too, no
         # None, str, 1-element tensor) at the torch level too; huber_loss's reduction before its delta check;
         # smooth_l1_loss tests beta == 0 before the reduction
         ["x = torch.tensor([[0.1, 0.2, 0.3], [0.5, 0.9, 0.2]], requires_grad=True)",
          "y = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])", "t1 = torch.tensor([1.0, -1.0])",
          "ty = torch.tensor([[1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]])",
          "r1 = torch.hinge_embedding_loss(x, ty, torch.tensor(0.5), 1) + F.cosine_embedding_loss(x, y, t1,"
          " torch.tensor(2))", "r1.backward()"],
         ["F.huber_loss(1, y, size_average=False)", "F.gaussian_nll_loss(1, y, y, reduce=False)",
          "F.cosine_embedding_loss(1, y, t1, reduction='foo')", "F.hinge_embedding_loss(x, 1.5, reduction='foo')",
          "F.poisson_nll_loss(None, y, reduction='foo')", "F.cosine_embedding_loss(x, y, t1, None)",
          "torch.cosine_embedding_loss(x, y, t1, None, 1)", "torch.hinge_embedding_loss(x, ty, torch.tensor([0.5]), 1)",
          "torch.poisson_nll_loss(x, y, True, False, 'a', 1)", "F.margin_ranking_loss(x, y, ty, None)",
          "torch.margin_ranking_loss(x, y, ty, torch.tensor(0.5, requires_grad=True), 1)",
          "F.hinge_embedding_loss(x, ty, 2 ** 70)", "F.hinge_embedding_loss(x.int(), ty, 2 ** 70)",
          "F.huber_loss(x, y, delta=None)", "F.huber_loss(x, y, delta=torch.tensor([0.5]))",
          "F.huber_loss(x, y, 'foo', -1.0)", "F.huber_loss(x.int(), y, 'foo')", "F.huber_loss(x, y, 'sum', torch.tensor(2))",
          "F.smooth_l1_loss(x, y, reduction='foo', beta=torch.tensor([0.0, 1.0]))",
          "F.smooth_l1_loss(x, y, beta='a')", "F.smooth_l1_loss(x, y, beta=torch.tensor(0.5))",
          "F.poisson_nll_loss(x, y, eps=torch.tensor(0.5), log_input=False)", "r1", "x.grad"]),
    case("sub-alpha-other-gradient-negated-then-scaled",  # (gd38_38560000 grad_fn:grad) sub's other gradient
         # is derivatives.yaml's maybe_multiply(-grad, alpha): NegBackward0 under MulBackward1 under create_graph,
         # and a NaN gradient's sign flipped before the product (first-order too)
         ["x1 = torch.tensor([float('inf'), -0.5, 2.5, -1.75], requires_grad=True)",
          "x2 = torch.tensor([[[-2.25], [3.0]], [[-1.25], [-1.0]]])",
          "r4 = x2.subtract(x1, alpha=0.25).acosh()",
          "gs6 = torch.autograd.grad(r4.sum(), [x1], create_graph=True)",
          "x = torch.tensor([float('nan'), 1.5, -2.0], dtype=torch.float64, requires_grad=True)",
          "y = torch.tensor([0.5, -float('nan'), 3.0], dtype=torch.float64, requires_grad=True)",
          "g = torch.tensor([float('nan'), -float('nan'), 2.0], dtype=torch.float64, requires_grad=True)",
          "gx, gy = torch.autograd.grad(x.sub(y, alpha=-0.5), [x, y], g, create_graph=True)",
          "y2 = y.detach().requires_grad_()", "torch.sub(x.detach(), y2, alpha=2).backward(g.detach())"],
         ["gs6[0]", "gs6[0].grad_fn.next_functions[0][0].next_functions[0][0]",
          "gy", "torch.signbit(gy)", "gy.grad_fn", "gy.grad_fn.next_functions", "torch.signbit(y2.grad)",
          "y2.grad"]),
    case("pointwise-loss-cast-keeps-expanded-dims",  # (gd38_38580000 stride:mse_loss) a broadcast input cast to
         # the common dtype keeps its expanded dims: the unreduced loss is laid out as TensorIterator lays it out
         ["x1 = torch.tensor([[1.5, 1.5], [2.25, 2.0]], dtype=torch.float16, requires_grad=True)",
          "x2 = torch.ones(3, 2, 2, dtype=torch.float64, requires_grad=True)"],
         ["F.mse_loss(x1, x2, reduction='none').stride()", "F.mse_loss(x2, x1, reduction='none').stride()",
          "F.smooth_l1_loss(x1.float(), x2, reduction='none').stride()",
          "F.huber_loss(x1, x2, reduction='none').stride()", "F.huber_loss(x1[:1].float(), x2, reduction='none')",
          "F.mse_loss(x1.float().t(), x2, reduction='none').stride()", "F.mse_loss(x1, x2, reduction='none')"]),
    case("slogdet-backward-diag-embed-zero-signs",  # (gd38_38580000 grad-repr:backward) slogdet_backward solves
         # A^T X = diag_embed(g): +0.0 off the diagonal for a negative g too (was eye * g: -0.0)
         ["x2 = torch.tensor([[[2.0, -1.5], [-1.75, 1.0]], [[0.5, -0.0], [0.0, 0.5]], [[-0.25, 0.5], [-1.5, 1.25]],"
          " [[1.5, -1.25], [-0.25, 1.0]]], requires_grad=True)",
          "r10 = x2.logdet()", "r10.backward(gradient=torch.tensor([-0.5, -3.0, float('nan'), 1.25]))",
          "y = torch.tensor([[0.5, -0.0], [0.0, -1.5]], dtype=torch.float64, requires_grad=True)",
          "torch.linalg.slogdet(y)[1].backward(torch.tensor(-3.0, dtype=torch.float64))"],
         ["x2.grad", "torch.signbit(x2.grad)", "y.grad", "torch.signbit(y.grad)"]),
]
