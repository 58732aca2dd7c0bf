"""Regression cases of helper "groups41" (session 41): groups of the lead's runs dt40 and dt41.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case, outcomes

CASES = [
    case("conv-empty-spatial-input",  # (raises-only-torch:pow, dt40f) _select_conv_backend refuses an input
         # with a batch and channels but an empty spatial dim (a 1-D one's shape as its 4-D view), in the
         # forward and in every convolution of the double backward (gI = conv(gO, ggW) of a transposed
         # convolution whose output has an empty dim); the Empty backend's view refuses a negative size
         outcomes(["F.conv2d(torch.zeros(1, 1, 0, 3), torch.ones(1, 1, 1, 1), padding=1).shape",
                   "F.conv1d(torch.zeros(2, 1, 0), torch.ones(1, 1, 1), padding=1).shape",
                   "F.conv_transpose2d(torch.zeros(1, 1, 0, 3), torch.ones(1, 1, 1, 1)).shape",
                   "F.conv_transpose1d(torch.zeros(0, 1, 2), torch.ones(1, 1, 1), padding=2).shape",
                   "F.conv_transpose2d(torch.zeros(0, 2, 1, 0), torch.ones(2, 1, 1, 1), padding=1, dilation=2).shape",
                   "F.conv_transpose1d(torch.zeros(0, 1, 1), torch.ones(1, 1, 1), padding=1).shape",
                   "F.conv2d(torch.zeros(1, 0, 0, 3), torch.ones(2, 0, 1, 1), padding=1).shape"])
        + ["x7 = torch.tensor([[[[[2.0, -2.25, 2.75], [2.0, 1.5, -1.75]], [[-2.0, 2.75, -1.75], [2.25, -2.5, 2.25]], "
           "[[-3.0, 0.0, 0.0], [0.5, 0.75, 2.25]]]], [[[[0.0, -2.0, 2.0], [1.25, 0.0, -2.0]], [[0.5, 2.5, 2.75], "
           "[0.75, -2.75, -2.5]], [[0.0, 2.25, 1.75], [-0.25, 0.0, -0.75]]]]])",
           "x8 = torch.tensor([[[[[1.25]], [[3.0]], [[0.0]]]]], requires_grad=True)",
           "r10 = F.conv_transpose3d(x7, x8, padding=1)",
           "gs = torch.autograd.grad(r10.sum(), [x8], create_graph=True)",
           "try:\n    gs[0].pow(2).sum().backward()\n    err = None\nexcept RuntimeError as e:\n    err = str(e)",
           "w = torch.tensor([[[[0.5, -1.0]]]], requires_grad=True)",
           "r = F.conv_transpose2d(torch.ones(2, 1, 2, 1), w, padding=(1, 0))",
           "g1 = torch.autograd.grad(r.sum(), [w], create_graph=True)",
           "try:\n    g1[0].sum().backward()\n    err2 = None\nexcept RuntimeError as e:\n    err2 = str(e)"],
         ["out", "tuple(r10.shape)", "gs[0]", "err", "tuple(r.shape)", "err2"]),
    case("setitem-expanded-last-write-stays",  # (value:setitem, dt41a) ``q[[0, 0]] = v`` into an expanded tensor
         # (elements sharing memory) with the write recorded: index_put's kernel writes every indexed element in
         # turn, C order, and the last write to a memory location stays even when it is the old value (agrad wrote
         # only the elements the result changed)
         ["x2 = torch.tensor([[[-2.75], [-2.0], [1.25]], [[0.0], [0.0], [-1.75]]], dtype=torch.float16, "
          "requires_grad=True)",
          "gs7 = torch.autograd.grad(x2.sum(), [x2], create_graph=True, materialize_grads=True)",
          "q8 = gs7[0]",
          "q8[[0, 0]] = torch.tensor([[[1.75], [-1.75], [0.5]], [[-1.25], [-2.5], [1.0]]], dtype=torch.float16, "
          "requires_grad=True)",
          "leaf = torch.ones(3, requires_grad=True)",
          "x = (leaf * 1).expand(2, 3)",
          "x[[1, 0]] = torch.tensor([[1.0, 2, 3], [4, 1, 6]])",
          "leaf2 = torch.ones(3, 1, requires_grad=True)",
          "y = (leaf2 * 1).expand(3, 2)",
          "y[:, [1, 0]] = torch.tensor([[1.0, 2], [4, 5], [7, 1]], requires_grad=True)"],
         ["gs7[0]", "x", "y", "y.grad_fn.name()"]),
    case("reduced-loss-storage-bytes",  # (repr:untyped_storage, dt41a) soft_margin_loss and binary_cross_entropy
         # reduce into the unreduced loss's own tensor: its storage keeps the loss past element 0 (in the input's
         # memory order, weights applied); agrad's held np.empty's bytes there
         ["a = torch.tensor([[0.25, 0.5, 0.75], [0.125, 0.625, 0.875]])",
          "t = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])",
          "s1 = F.soft_margin_loss(a, t * 2 - 1).untyped_storage()",
          "s2 = F.binary_cross_entropy(a.t(), t.t(), weight=torch.tensor([0.5, 2.0]), reduction='sum')"
          ".untyped_storage()",
          "s3 = F.binary_cross_entropy(a.double(), t.double()).untyped_storage()",
          "s4 = F.soft_margin_loss(a.t(), t.t(), reduction='sum').untyped_storage()"],
         ["list(s1)", "list(s2)", "list(s3)", "list(s4)"]),
]
