"""Regression cases of session 37's lead work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


_CHAIN = ("def chain(t):\n    out = []\n    f = t.grad_fn\n    while f is not None:\n"
          "        out.append(f.name())\n        nf = [n for n, _ in f.next_functions if n is not None]\n"
          "        f = nf[0] if nf else None\n    return out")

CASES = [
    # torch.func.jvp: the primal outputs are aliases (AliasBackward0) of what the function computed, over
    # an alias of each input that requires grad; aux is returned as computed; a primal that does not
    # require grad gives outputs that do not (the tangent alone may)
    case("func-jvp-output-graphs",
         ["ft = torch.func", _CHAIN, "x = torch.ones(2, requires_grad=True)", "t = torch.ones(2)",
          "o1, j1 = ft.jvp(lambda x: x.sin(), (x,), (t,))", "o2, j2 = ft.jvp(lambda x: x, (x,), (t,))",
          "o3, j3, a3 = ft.jvp(lambda x: (x.sin(), x.cos()), (x,), (t,), has_aux=True)",
          "o4, j4 = ft.jvp(lambda x: x.sin(), (x.detach(),), (torch.ones(2, requires_grad=True),))",
          "o5, j5 = ft.jvp(lambda x: x.exp(), (torch.ones(2),), (t,))"],
         ["o1", "j1", "chain(o1)", "o2", "chain(o2)", "o3", "a3", "chain(a3)", "o4", "o4.requires_grad", "j4",
          "chain(j4)", "o5", "j5"]),
    # index_reduce_'s reduce check is its meta function's: before the internal-overlap error
    case("index-reduce-inplace-checks-reduce-before-overlap",
         ["v = torch.tensor([1, 1]).expand(2, 2)", "i = torch.tensor([0, 1])", "s = torch.tensor([[3, -3], [-2, -4]])",
          "try:\n    v.index_reduce_(1, i, s, 'sum')\nexcept RuntimeError as e:\n    e1 = str(e)",
          "try:\n    v.index_reduce_(1, i, s, 'prod')\nexcept RuntimeError as e:\n    e2 = str(e)"],
         ["e1", "e2"]),
    # hinge_embedding_loss of an integer input converts the margin with c10's overflow check
    case("hinge-embedding-integer-margin-overflow",
         ["x = torch.tensor([-2, 3, 0], dtype=torch.int32)", "t = torch.tensor([2, -1, 4], dtype=torch.int32)",
          "out = []",
          "for m in [float('inf'), float('nan'), 1e10, 2.5, -3.0]:\n    try:\n"
          "        out.append(torch.hinge_embedding_loss(x, t, margin=m, reduction=0))\n"
          "    except Exception as e:\n        out.append(type(e).__name__ + ': ' + str(e))"],
         ["out"]),
    # x[i, j] = v / index_put_ with several index tensors meeting a bad entry: index_put's kernel has written
    # the entries before it (C order over the dims before, the broadcast index, the dims after; index tensors
    # apart: the broadcast dims first), each index tensor checked in turn
    case("index-put-several-index-tensors-writes-before-the-bad-entry",
         ["def put(x, i, v):\n    x[i] = v",
          "def probe(f, shape=(2, 3, 4)):\n    x = torch.arange(float(torch.Size(shape).numel())).reshape(shape)\n"
          "    try:\n        f(x)\n    except IndexError as e:\n        return str(e), x.flatten().tolist()\n"
          "    return None, x.flatten().tolist()",
          "t = torch.tensor",
          "r = [probe(lambda x: put(x, (t([0, 1, 1, 0]), t([2, 0, 5, 1])), -1.)),\n"
          "     probe(lambda x: put(x, (t([0, 1, 1, 0]), t([2, 0, 1, 1]), t([3, 1, 4, 0])), t([-1., -2, -3, -4]))),\n"
          "     probe(lambda x: put(x, (slice(None), t([[0, 2], [1, 7]]), t([1, 3])), -5.)),\n"
          "     probe(lambda x: put(x, (t([0, 3]), t([[1], [2]])), t([-1., -2, -3, -4]))),\n"
          "     probe(lambda x: x.index_put_((t([1, 1, 9]), t([2, 2, 1])), t(10.), accumulate=True)),\n"
          "     probe(lambda x: put(x, (t([1, -3, 0]), slice(None), t([-1, 2, 0])), -7.)),\n"
          "     probe(lambda x: put(x, (slice(None), t([0, 1, 1]), 0, t([1, 2, 9])), -1.), (2, 2, 3, 4)),\n"
          "     probe(lambda x: put(x, (slice(None), t([0, 1, 1]), slice(None), t([1, 2, 9])), -1.), (2, 2, 3, 4))]"],
         ["r"]),
    # torch.nn.utils.rnn.pad_sequence / unpad_sequence (ATen's full + select/narrow copy_ per sequence)
    case("pad-sequence",
         ["ps = torch.nn.utils.rnn.pad_sequence", "up = torch.nn.utils.rnn.unpad_sequence",
          "a = torch.ones(3, 2, requires_grad=True)", "b = torch.ones(1, 2) * 2", "p = ps([a, b])",
          "p2 = ps([a, b], batch_first=True, padding_value=-1)", "p3 = ps([a, b], batch_first=True, padding_side='left')",
          "u = up(p2, torch.tensor([3, 1]), batch_first=True)",
          "i = ps([torch.ones(2, dtype=torch.int64), torch.ones(3, dtype=torch.int64)], padding_value=2.7)",
          "m = ps((torch.ones(2, dtype=torch.float64), torch.ones(3)))",
          "errs = []",
          "for f in [lambda: ps([torch.ones(2), torch.ones(3, 2)]), lambda: ps([]), lambda: ps([a], padding_side='mid')]:\n"
          "    try:\n        f()\n    except RuntimeError as e:\n        errs.append(str(e))",
          "p.sum().backward()"],
         ["p", "p2", "p2.grad_fn.next_functions[1]", "p3", "u", "i", "m", "errs", "a.grad", "ps(torch.ones(2, 3))"]),
    # a 0-d tensor's index_fill_/index_copy_/scatter_/scatter_add_/scatter_reduce_ meeting a bad index: each
    # entry before it wrote the one element (dt37b value:index_fill_)
    case("zero-dim-indexing-writes-before-the-bad-index",
         ["def probe(f):\n    x = torch.tensor([2.0, -1.0, 1.5, 1.0])\n    try:\n        f(x)\n"
          "    except (IndexError, RuntimeError) as e:\n        return str(e), x.tolist()\n    return None, x.tolist()",
          "t = torch.tensor",
          "r = [probe(lambda x: x[0].index_fill_(0, t([0, 3, 3]), -1.0)),\n"
          "     probe(lambda x: x[0].index_fill_(0, t([-1, 1]), t(4.0))),\n"
          "     probe(lambda x: x[0].index_copy_(0, t([0, 0, 3]), t([7.0, 8.0, 9.0]))),\n"
          "     probe(lambda x: x[0].scatter_(0, t([0, 2]), t([7.0, 8.0]))),\n"
          "     probe(lambda x: x[0].scatter_(0, t([0, 0, 2]), 5.0)),\n"
          "     probe(lambda x: x[0].scatter_add_(0, t([0, 0, 2]), t([7.0, 8.0, 9.0]))),\n"
          "     probe(lambda x: x[0].scatter_reduce_(0, t([0, 0, 2]), t([7.0, 8.0, 9.0]), 'prod')),\n"
          "     probe(lambda x: x[0].scatter_reduce_(0, t([0, 0, 2]), t([7.0, 8.0, 9.0]), 'amax', include_self=False))]"],
         ["r"]),
    # addmv with one column: gemv's y = beta * y, then y += (alpha * x[0]) * A[:, 0] (dt37c repr:addmv_: -0.0 kept)
    case("addmv-one-column-gemv-order",
         ["x = torch.tensor([-0.0])", "r1 = x.addmv_(torch.tensor([[0.0]]), torch.tensor([-0.25]))",
          "r2 = torch.addmv(torch.tensor([-0.0, -0.0], dtype=torch.float64), torch.tensor([[0.0], [1.0]], dtype=torch.float64),"
          " torch.tensor([-0.25], dtype=torch.float64))",
          "g = torch.Generator().manual_seed(3)",
          "s, a, v = torch.randn(9, generator=g), torch.randn(9, 1, generator=g), torch.randn(1, generator=g)",
          "r3 = [torch.addmv(s, a, v, beta=b, alpha=al).tolist() for b, al in [(1, 1), (0.5, 1), (1, 0.7), (2.5, -1.5), (0, 2.0)]]",
          "r4 = torch.addmv(s.double(), a.double(), v.double(), beta=0.3, alpha=-2.0).tolist()"],
         ["r1", "r2", "r3", "r4"]),
    # tensordot of a 0-d tensor with dims: sym_size's "Dimension specified as 0 but tensor has no dimensions"
    case("tensordot-zero-dim-dims",
         ["errs = []",
          "for f in [lambda: torch.tensordot(torch.ones(4, 3), torch.tensor(2.), dims=([-1], [0])),\n"
          "          lambda: torch.tensordot(torch.tensor(2.), torch.ones(3), dims=([0], [0])),\n"
          "          lambda: torch.tensordot(torch.ones(3), torch.tensor(2.), dims=([0], [-1]))]:\n"
          "    try:\n        f()\n    except IndexError as e:\n        errs.append(str(e))"],
         ["errs"]),
    # resize_ with a memory format of the wrong rank: PyTorch resizes (C-contiguous) first, then raises; no version
    case("resize-memory-format-rank-after-resize",
         ["x1 = torch.tensor([0.75, 2.5, -1.5])", "v2 = x1.expand(2, 3)",
          "try:\n    v2.resize_(1, 3, 2, memory_format=torch.channels_last_3d)\nexcept RuntimeError as e:\n    e1 = str(e)",
          "z = torch.zeros(2, 3)",
          "try:\n    z.resize_(1, 3, 2, 2, memory_format=torch.channels_last_3d)\nexcept RuntimeError as e:\n    e2 = str(e)"],
         ["e1", "v2.shape", "v2.stride()", "v2._version", "e2", "z.shape", "z.stride()", "z._version"]),
    # igamma/igammac: autograd.grad of `other` alone does not ask for the input's not-implemented derivative
    # (PyTorch's output_mask; dt37b raises-only-agrad:grad)
    case("igamma-grad-of-other-alone",
         ["x1 = torch.tensor([[0.75, 3.0], [float('inf'), 1.5]], requires_grad=True)",
          "x2 = torch.tensor([2.5, 2.0], requires_grad=True)",
          "g1 = torch.autograd.grad(x1.igamma(x2).sum(), [x2], create_graph=True)",
          "g2 = torch.autograd.grad(x1.igammac(x2).sum(), [x2])",
          "try:\n    torch.autograd.grad(x1.igamma(x2).sum(), [x1, x2])\nexcept NotImplementedError as e:\n    e1 = str(e)"],
         ["g1", "g2", "e1"]),
    # a transposed convolution's bias of another dtype: oneDNN's check where it runs, slow_conv_transpose3d's read in
    # 3-D otherwise, accepted by the 1-D/2-D slow path (dt37b raises-only-torch:conv_transpose3d)
    case("conv-transpose-bias-dtype",
         ["b = torch.tensor([2.0], dtype=torch.float64)", "out = []",
          "for f, xs, ws, dt in [(F.conv_transpose1d, (1, 2, 4), (2, 1, 2), torch.float32),\n"
          "                      (F.conv_transpose1d, (2, 2, 4), (2, 1, 2), torch.float32),\n"
          "                      (F.conv_transpose2d, (1, 2, 4, 4), (2, 1, 5, 5), torch.float32),\n"
          "                      (F.conv_transpose3d, (1, 2, 3, 3, 1), (2, 1, 2, 3, 1), torch.float32),\n"
          "                      (F.conv_transpose3d, (2, 2, 3, 3, 1), (2, 1, 2, 3, 1), torch.float32),\n"
          "                      (F.conv_transpose3d, (1, 2, 3, 3, 1), (2, 1, 2, 3, 1), torch.float64)]:\n"
          "    for bias in [b, torch.tensor([2.0], dtype=torch.float16), torch.tensor([2.0])]:\n"
          "        try:\n            r = f(torch.ones(xs, dtype=dt), torch.ones(ws, dtype=dt), bias=bias)\n"
          "            out.append((r.dtype, r.sum().item()))\n"
          "        except RuntimeError as e:\n            out.append(str(e))"],
         ["out"]),
    # bilinear with an inf or a NaN: every product of _trilinear's two bmms is made, so an inf times a zero is NaN
    # (dt37c value:bilinear)
    case("bilinear-inf-times-zero",
         ["inf, nan = float('inf'), float('nan')",
          "cases = [(torch.tensor([[0.0]]), torch.tensor([[0.0, -0.25]]), torch.tensor([[[1.25, -inf]], [[2.0, -2.0]]])),\n"
          "         (torch.tensor([[1.0, 0.0]]), torch.tensor([[0.0, 2.0]]), torch.tensor([[[inf, 1.0], [2.0, 3.0]]])),\n"
          "         (torch.tensor([[1.0, 1.0]]), torch.tensor([[inf, 0.0]]), torch.tensor([[[0.0, 1.0], [2.0, 3.0]]])),\n"
          "         (torch.tensor([[nan, 1.0], [1.0, 2.0]]), torch.tensor([[1.0, 0.0], [0.5, 1.0]]),"
          " torch.tensor([[[0.0, 1.0], [2.0, 3.0]]]))]",
          "out = [torch.bilinear(a, b, w, torch.ones(w.shape[0])) for a, b, w in cases]"],
         ["out"]),
    # batch_norm without weight, double backward through both the input's and the bias's gradients: ATen's
    # batchnorm_double_backward adds an undefined term (ggB is expanded only when affine); with the bias's alone,
    # its term is dropped (dt37c raises-only-torch:pow)
    case("batch-norm-no-weight-double-backward",
         ["x = torch.tensor([[0.0, 0.0, -2.0, -1.5], [-2.25, 0.5, -3.0, -0.25], [-2.0, 1.5, 0.5, 3.0]], requires_grad=True)",
          "rm, rv = torch.tensor([1.5, 3.0, 2.5, -1.25]), torch.tensor([1.25, 0.5, 2.5, 1.25])",
          "b = torch.tensor([0.25, -2.25, -1.25, -2.0], requires_grad=True)",
          "out = []",
          "for training in (False, True):\n"
          "    for inputs in ([x, b], [b], [x]):\n"
          "        r = F.batch_norm(x, rm, rv, bias=b, eps=1e-05, training=training)\n"
          "        gs = torch.autograd.grad(r.sum(), inputs, create_graph=True)\n"
          "        x.grad = None\n"
          "        try:\n"
          "            sum(g.pow(2).sum() for g in gs).backward()\n"
          "            out.append(None if x.grad is None else x.grad.abs().max().item() < 1e-12)\n"
          "        except RuntimeError as e:\n"
          "            out.append(str(e))"],
         ["out"]),
    # resize_ with preserve_format: resized (C-contiguous) first, then refused, no new version (dt37e shape:resize_)
    case("resize-preserve-format-after-resize",
         ["x = torch.tensor([-1.75, 1.75, 0.25, 0.0])",
          "try:\n    x.resize_(1, 2, 2, memory_format=torch.preserve_format)\nexcept RuntimeError as e:\n    e1 = str(e)",
          "z = torch.zeros(2, 3)", "z.resize_as_(torch.zeros(1, 2, 2), memory_format=torch.preserve_format)"],
         ["e1", "x.shape", "x.stride()", "x._version", "z.shape", "z._version"]),
    # addbmm's result owns its storage (untyped_storage() of a 1 x 1 result: 4 bytes; dt37e repr:untyped_storage)
    case("addbmm-result-storage",
         ["x2 = torch.tensor([[[-1.75, 0.0]], [[-1.25, 1.25]]], requires_grad=True)",
          "x3 = torch.tensor([[[-2.25], [2.75]], [[1.25], [1.75]]], requires_grad=True)",
          "x4 = torch.tensor([[-0.75]], requires_grad=True)", "r5 = x4.addbmm(x2, x3, beta=2.0, alpha=1)",
          "r6 = torch.addbmm(torch.zeros(2, 1), torch.ones(3, 2, 4), torch.ones(3, 4, 1))"],
         ["r5", "r5.untyped_storage().nbytes()", "r6.untyped_storage().nbytes()", "r6.stride()"]),
]
