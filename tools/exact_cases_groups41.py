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
    case("stack-family-out-is-cat-out",  # (error-type:row_stack, run 41410000) vstack/row_stack/dstack/column_stack/
         # hstack with out= are cat_out: its TypeError for an out dtype the inputs cannot be cast to (before the
         # shapes), and autograd's refusal naming cat (before every check of the kernel)
         ["x = torch.tensor([0.5, 1.0], requires_grad=True)", "y = torch.tensor([0.5, 1.0], dtype=torch.float64)"]
         + outcomes(["torch.row_stack([y, y * 2], out=torch.zeros(3, 2, dtype=torch.int32))",
                     "torch.vstack([y, torch.ones(3)], out=torch.zeros(0, dtype=torch.int64))",
                     "torch.dstack([y, y], out=torch.zeros(0, dtype=torch.int32))",
                     "torch.column_stack([y, y], out=torch.zeros(0, dtype=torch.int32))",
                     "torch.hstack([y, y], out=torch.zeros(0, dtype=torch.int32))",
                     "torch.vstack([x, x], out=torch.zeros(2, 2))",
                     "torch.cat([x, torch.ones(2, 2)], out=torch.zeros(0, dtype=torch.int64))",
                     "torch.dstack([y, y], out=torch.zeros(0, dtype=torch.float64)).shape"]),
         ["out"]),
    case("nanmean-out-dtype",  # (raises-only-torch:nanmean, run 41410000) nanmean_out is nansum_out(out, dtype) over
         # the count: a dtype that is not out's is make_reduction's error (after the count's dim check and nansum's
         # autograd refusal); an integer input is nanmean_out's own text
         ["x = torch.tensor([[2.25, 0.0, -1.0, 0.5], [2.75, 2.0, -3.0, -1.0]], dtype=torch.float64)",
          "w = torch.tensor([[2.25, float('nan')], [1.0, 2.0]], requires_grad=True)"]
         + outcomes(["torch.nanmean(x, dtype=torch.float32, out=x)", "x.shape",
                     "torch.nanmean(x, 1, dtype=torch.float64, out=torch.zeros(()))",
                     "torch.nanmean(x, out=torch.zeros(()))",
                     "torch.nanmean(w, dtype=torch.float64, out=torch.zeros(()))",
                     "torch.nanmean(w, 3, dtype=torch.float64, out=torch.zeros(()))",
                     "torch.nanmean(torch.ones(2, dtype=torch.int32), out=torch.zeros(()))"]),
         ["out"]),
    case("addbmm-out-keeps-strides",  # (value:addbmm, run 41410000) addbmm_out's result.resize_as_(self) sets sizes
         # only: an out of the product's shape keeps its strides (a strided view writes its own elements); an
         # overlapping one is addmm_'s refusal when there are batches (beta 0: no copy_ first)
         ["b5 = torch.tensor([[-2.5, -0.5, 0.5, 9.0], [0.0, 1.5, -1.0, 1.5], [0.0, -2.75, -2.75, 2.75]])",
          "o6 = b5.view(2, 6)[..., ::2].mT",
          "r7 = torch.addbmm(torch.tensor([[1.75, -3.0], [0.25, 1.0], [0.0, 2.5]]), "
          "torch.tensor([[[2.0], [0.25], [2.75]], [[-1.5], [3.0], [2.75]]]), "
          "torch.tensor([[[0.25, 2.75]], [[1.75, -2.75]]]), alpha=-1.5, out=o6)",
          "e = torch.ones(1, 2).expand(3, 2)"]
         + outcomes(["torch.addbmm(torch.ones(3, 2), torch.ones(2, 3, 1), torch.ones(2, 1, 2), beta=0, out=e)",
                     "torch.addbmm(torch.ones(3, 2), torch.ones(0, 3, 1), torch.ones(0, 1, 2), beta=0, out=e).stride()"]),
         ["b5", "r7.stride()", "out"]),
    case("out-of-non-differentiable-ops",  # (raises-only-agrad:legendre_polynomial_p, run 41420000) ops without a
         # derivative (comparisons, logical ops, argmax, the special polynomials and Bessel functions, histc) have
         # no autograd check in their out= overloads: an out that requires grad is written as it is
         ["x1 = torch.tensor(-2.25, requires_grad=True)",
          "r2 = torch.special.legendre_polynomial_p(x1, 0, out=x1)",
          "o = torch.zeros(2, requires_grad=True)", "r3 = torch.eq(torch.tensor([0.5, 1.0]), 0.5, out=o)",
          "o2 = torch.zeros(2, requires_grad=True)", "r4 = torch.special.bessel_j0(torch.tensor([0.25, 1.5]), out=o2)",
          "o3 = torch.zeros(2, requires_grad=True)"]
         + outcomes(["torch.argmax(torch.tensor([0.25, 1.5]), out=o3)", "torch.sin(torch.ones(2), out=o3)",
                     "torch.floor(torch.ones(2), out=o3)"]),
         ["r2", "x1.requires_grad", "x1.grad_fn", "r3", "r4", "out"]),
    case("special-ndtr-out-copies",  # (raises-only-agrad:ndtr, run 41420000) special_ndtr_out is composite: the
         # result computed, its cast checked, out resized, then out.copy_(result): a CopyBackwards on out, copy_'s
         # refusal of a leaf that requires grad, no out= refusal
         ["x2 = torch.tensor([[1.25, -2.0]], requires_grad=True)", "o7 = torch.tensor([[-2.5, 1.5]])",
          "r8 = torch.special.ndtr(x2, out=o7)", "r8.sum().backward()"]
         + outcomes(["torch.special.ndtr(x2, out=torch.zeros(2, dtype=torch.int64))",
                     "torch.special.ndtr(x2, out=torch.zeros(2, requires_grad=True))",
                     "torch.special.ndtr(x2.detach(), out=torch.zeros(0, dtype=torch.float64))"]),
         ["r8", "o7.grad_fn.name()", "x2.grad", "out"]),
    case("scatter-family-out-structured",  # (error-text:scatter_reduce, run 41420000) scatter, scatter_add and
         # scatter_reduce out=: the meta refuses an out that overlaps itself, the index or src, then one of another
         # dtype than self's ("Expected out tensor to have dtype ..."), and resizes it before the kernel's index check
         ["x7 = torch.tensor([[[0.25], [2.25]]])", "idx = torch.tensor([[[0], [0]]])",
          "x11 = torch.tensor([[[-3.0], [0.75]]])", "i2 = idx.clone()", "s2 = x11.clone()",
          "o = torch.zeros(4)"]
         + outcomes(["torch.scatter_reduce(x7, 2, i2, x11, 'prod', include_self=False, out=i2)",
                     "torch.scatter_reduce(x7, 2, idx, x11, 'sum', out=torch.zeros(1, 2, 1, dtype=torch.float64))",
                     "torch.scatter(x7, 2, idx, s2, out=s2)",
                     "torch.scatter_add(x7, 2, idx, x11, out=torch.zeros(1).expand(1, 2, 1))",
                     "torch.scatter(x7, 2, idx, 1.5, out=torch.zeros(2, dtype=torch.int64))",
                     "torch.scatter_add(x7, 2, torch.tensor([[[5], [0]]]), x11, out=o)", "o.shape"]),
         ["out"]),
    case("mode-kthvalue-outs-keepdim-resize",  # (warning:mode, run 41430000) mode's and kthvalue's outs are
         # resized to the keepdim shape (unsqueezed at dim first: mode's always, kthvalue's when one dim short),
         # the warning shows those shapes; mode checks both dtypes first, kthvalue resizes values before its
         # indices' dtype error
         ["x = torch.tensor([[-1.5, -1.5, -3.0], [2.0, 1.0, 1.0]])", "o1 = torch.zeros(3)",
          "o2 = torch.zeros(5, dtype=torch.int64)", "r = torch.mode(x, out=(o1, o2))",
          "p1 = torch.zeros(2, 2)", "p2 = torch.zeros(2, dtype=torch.int64)", "r2 = torch.kthvalue(x, 2, out=(p1, p2))",
          "q1 = torch.zeros(3)"]
         + outcomes(["torch.mode(x, out=(torch.zeros(3), torch.zeros(3)))",
                     "torch.kthvalue(x, 2, keepdim=True, out=(q1, torch.zeros(3)))", "q1.shape"]),
         ["r", "r2", "out"]),
    case("composite-outs-norm-power-histogram",  # (run 41440000: stride:ndtr, stride:matrix_power,
         # raises-only-agrad:norm, raises-only-agrad:histogram) linalg.norm / matrix_norm out= are composites
         # (dtype check, resize_output, out.copy_: CopyBackwards); a resized out is contiguous (ndtr,
         # matrix_power of -1); histogram's out= is autograd's not-implemented fallback (NotImplemented nodes)
         ["x = torch.tensor([[1.0, 2.0], [3.0, 4.5]], requires_grad=True)", "o = torch.zeros(0)",
          "r = torch.linalg.norm(x, out=o)", "o2 = torch.zeros(0)", "r2 = torch.linalg.matrix_norm(x, 'nuc', out=o2)",
          "o3 = torch.zeros(0)", "r3 = torch.special.ndtr(torch.ones(3, 2).t(), out=o3)",
          "m = torch.tensor([[-1.0, -0.0, 3.0], [3.0, 0.0, -1.75], [2.5, 2.0, 0.0]], dtype=torch.float64)",
          "o4 = torch.zeros(0, dtype=torch.float64)", "r4 = torch.linalg.matrix_power(m, -1, out=o4)",
          "h = torch.histogram(x.detach().flatten(), 3, weight=x.flatten(), out=(torch.zeros(0), torch.zeros(0)))"]
         + outcomes(["torch.linalg.norm(x, out=torch.zeros(0, dtype=torch.float64))",
                     "torch.linalg.matrix_norm(x, out=torch.zeros(1, requires_grad=True))",
                     "torch.linalg.vector_norm(x, out=torch.zeros(0))"]),
         ["r", "r2", "r3.stride()", "r4.stride()", "r4", "h.hist", "h.bin_edges.grad_fn.name()", "out"]),
    case("matrix-power-out-recorded",  # (raises-only-agrad:matrix_power, run 41450000) linalg_matrix_power_impl into
         # out of an input that requires grad: out resized first, then copy_ (n 0, 1, a power of two: CopyBackwards
         # on out, none for the identity) or linalg_inv_out / matmul_out (their refusal of out=)
         ["m = torch.tensor([[-2.0, -2.5], [1.25, 1.0]], requires_grad=True)",
          "o0, o1, o4 = torch.zeros(2), torch.zeros(2, 2), torch.zeros(2, 2, dtype=torch.float64)",
          "r0 = torch.linalg.matrix_power(m, 0, out=o0)", "r1 = torch.linalg.matrix_power(m, 1, out=o1)",
          "r4 = torch.linalg.matrix_power(m, 4, out=o4)"]
         + outcomes(["torch.linalg.matrix_power(m, -1, out=torch.zeros(2, 2))",
                     "torch.linalg.matrix_power(m, 3, out=torch.zeros(2, 2))",
                     "torch.linalg.matrix_power(m, 6, out=torch.zeros(2, 2))",
                     "torch.linalg.matrix_power(m, 2, out=torch.zeros(2, 2, dtype=torch.int64))"]),
         ["r0", "r1", "r4", "out"]),
    case("iterator-out-internal-overlap-first",  # (dt41c error-text:i0, raises-only-torch:bessel_j0) a TensorIterator
         # op's out= that overlaps itself (an expanded tensor) is refused first (compute_mem_overlaps), before the
         # dtype and shape checks
         ["v = torch.tensor([1, 9], dtype=torch.uint8).expand(2, 2)",
          "w = torch.tensor([1.0, 1.0], dtype=torch.float64).expand(2, 2)"]
         + outcomes(["torch.special.i0(v, out=v)", "torch.special.bessel_j0(w, out=w)",
                     "torch.sin(w, out=torch.zeros(1).expand(3))", "torch.special.erfcx(w, out=w)",
                     "torch.abs(w, out=w)", "torch.special.hermite_polynomial_he(w, 1, out=w)"]),
         ["out"]),
]
