"""Regression cases of session 39's lead work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case, outcomes as _outcomes


_EMBEDDING_BAG = [
    "W = torch.tensor([[0.75, 3.0, -1.25], [-2.25, 0.0, -0.75], [-1.75, 3.0, -0.25]]).requires_grad_()",
    "idx = torch.tensor([1, 0, 2, 1])",
    "psw = torch.tensor([-0.25, -2.5, 1.0, 0.0]).requires_grad_()",
    "r = F.embedding_bag(idx, W, offsets=torch.tensor([0, 1, 3]), mode='sum', per_sample_weights=psw)",
    "gw, gp = torch.autograd.grad(r, [W, psw], torch.ones(3, 3).requires_grad_(), create_graph=True)",
    "rm = F.embedding_bag(idx, W, offsets=torch.tensor([0, 1, 3]), mode='max')",
    "gm, = torch.autograd.grad(rm.sum(), [W], create_graph=True)",
    "go = torch.ones(3, 3).requires_grad_()",
    "gm2, = torch.autograd.grad(rm, [W], go, create_graph=True)",
]

CASES = [
    # embedding_bag under create_graph: the weight's gradient is _embedding_bag_backward's node
    # (EmbeddingBagBackwardBackward0: edges to the gradient and the per-sample weights, its derivative not
    # implemented), the per-sample weights' a NotImplemented node (dt39a grad-requires_grad: .grad of the
    # weight did not require grad)
    case("embedding-bag-create-graph",
         _EMBEDDING_BAG + _outcomes([
             "torch.autograd.grad(gw.sum(), [psw])",
             "torch.autograd.grad(gp.sum(), [W])",
             "torch.autograd.grad(gm2.sum(), [go])"]),
         ["gw", "gp", "gw.grad_fn.name()", "[f is None or f.name() for f, _ in gw.grad_fn.next_functions]",
          "[f.name() for f, _ in gp.grad_fn.next_functions]", "gm.requires_grad", "gm2.grad_fn.name()",
          "[f is None or f.name() for f, _ in gm2.grad_fn.next_functions]", "out"]),
    # an expression statement's value is dropped at once, as Python drops it: the view `r4[:, 0]` that exp_
    # changed in place dies, and with it the node its regenerated history had (AsStridedBackward0), which
    # exp_'s saved result holds weakly: unpacked under create_graph, the result's history is ExpBackward0
    # itself (agrad kept the statement's value until the next one: groupsb38's grad_fn:backward)
    case("inplace-view-saved-result-after-expression-statement",
         ["x1 = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)",
          "r4 = x1 * 1",
          "r4[:, 0].exp_()",
          "q, = torch.autograd.grad(r4.sum(), [x1], create_graph=True)",
          "names = []",
          "def walk(fn, depth):\n    if fn is not None:\n        names.append((depth, fn.name()))\n"
          "        for f, _ in fn.next_functions:\n            walk(f, depth + 1)",
          "walk(q.grad_fn, 0)"],
         ["q", "names"]),
    # frobenius_norm's dims as linalg_vector_norm checks them: each wrapped (a 0-d input's as if it had one dim),
    # none twice, the first met a second time named, in the order given (dt39c raises-only-torch:frobenius_norm:
    # agrad skipped the checks for a 0-d input); the same message for the reductions' dim lists (was the smallest)
    case("frobenius-norm-dim-checks",
         ["x = torch.tensor(2.0, requires_grad=True)", "y = torch.ones(2, 3, requires_grad=True)"] + _outcomes([
             "torch.frobenius_norm(x, (0,))", "torch.frobenius_norm(x, 1)", "torch.frobenius_norm(x, (0, -1))",
             "torch.frobenius_norm(x, (5, 5))", "torch.frobenius_norm(x, (0, 0, 0))",
             "torch.frobenius_norm(torch.tensor(2), (1,))", "torch.frobenius_norm(y, (5,))",
             "torch.frobenius_norm(y, (-1, 1))", "torch.frobenius_norm(y, ())", "torch.frobenius_norm(x, (-1,), True)",
             "torch.sum(torch.ones(2, 2, 2), (0, 1, 1))", "torch.sum(torch.ones(2, 2, 2), (2, 0, -1))",
             "torch.amax(torch.ones(2, 2, 2), (1, 0, -2))"]),
         ["out"]),
    # addcdiv_'s refusal of integer division comes before TensorIterator's overlap errors (dt39c error-text:addcdiv_)
    case("addcdiv-inplace-integer-division-first",
         ["x1 = torch.tensor([[[3, 4, 4, -3], [2, -3, 0, 0]], [[3, 1, 4, 3], [-3, 3, 0, -1]]], dtype=torch.int32)",
          "f = torch.tensor([[1., 2.], [3., 4.]])"] + _outcomes([
             "x1[::2].addcdiv_(torch.tensor([2, 3, -4, 2], dtype=torch.int32), x1)",
             "x1[:, :1].addcdiv_(x1, x1, value=2)", "f[:1].addcdiv_(f, f)",
             "f.expand(2, 2, 2).addcdiv_(f.long(), f.long())", "x1.addcdiv_(x1, torch.ones(4))"]),
         ["out"]),
    # a float32 product in MKL's order has a memory of its own: the emulated kernels' last step could be a
    # slice of their scratch buffer, which as_strided_scatter / as_strided / untyped_storage then saw (dt39d
    # value:as_strided_scatter: a silent wrong result; 108 probe products 18 -> 0)
    case("mkl-product-owns-its-storage",
         ["x5 = torch.tensor([-1.0, 0.5, -0.25])", "x3 = torch.tensor([[-2.75, 2.25, 1.5]])",
          "x4 = torch.tensor([[-0.75, -1.75, 0.0], [2.5, 1.75, -0.0], [2.5, 0.0, -1.25]])",
          "r6 = x5.addmm(x3, x4)", "r7 = torch.mm(torch.ones(1, 3), x4)"],
         ["r6.stride()", "r6.untyped_storage().nbytes()", "r6.as_strided_scatter(torch.tensor([0.5, 0.0]), (2,), (1,), 1)",
          "r7.stride()", "r7.as_strided((2,), (1,), 1)"]),
]
