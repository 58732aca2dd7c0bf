"""Regression cases of session 36's lead work (issues 10 and 12), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
Values are shown with .tolist() (every bit of each float).
"""

from __future__ import annotations

from exact_case_form import GRAPH, case


def cases(graph: str) -> list[dict]:
    del graph
    r = "torch.manual_seed(0)"
    return [
        case("softmax-large-lastdim",  # over GRAIN_SIZE elements: the kernels' steps (were numpy's)
             [r, "x = (torch.randn(5000, 7) * 3).requires_grad_()", "y = torch.log_softmax(x, 1)",
              "g = torch.randn(5000, 7)", "y.backward(g)", "z = torch.softmax(x.detach().double() * 2, -1)",
              "w = torch.softmax(torch.randn(3, 20000), 1)"],
             ["y[::97].tolist()", "x.grad[::89].tolist()", "z[::211].tolist()", "w[:, ::997].tolist()"]),
        case("softmax-large-otherdim-float32",  # _vec_softmax over 8 inner positions at once, libm's after
             [r, "x = (torch.randn(7, 5000) * 3).requires_grad_()", "y = torch.softmax(x, 0)",
              "y.backward(torch.randn(7, 5000))", "l = torch.log_softmax(x.detach(), 0)"],
             ["y[:, ::101].tolist()", "x.grad[:, ::103].tolist()", "l[:, ::107].tolist()"]),
        case("tanh-large",  # float32/float64 tanh over 65,536 elements: several blocks
             [r, "x = torch.randn(70000, dtype=torch.float64) * 4", "y = torch.tanh(x)",
              "f = torch.tanh(x.float())", "xg = x.clone().requires_grad_()", "torch.tanh(xg).sum().backward()"],
             ["y[::311].tolist()", "f[::313].tolist()", "xg.grad[::317].tolist()"]),
        case("index-fill-writes-before-the-bad-index",  # the kernel's C-order visit: written, then IndexError
             ["a = torch.arange(12.).reshape(4, 3)", "v = a[::2]",
              "try:\n    v.index_fill_(0, torch.tensor([0, 0, 1]), 0.5)\nexcept IndexError as e:\n    err = str(e)",
              "b = torch.arange(12.).reshape(4, 3)",
              "try:\n    b.index_fill_(1, torch.tensor([1, -7, 0]), torch.tensor(-2.))\nexcept IndexError as e:\n    err2 = str(e)",
              "x = torch.ones(3, 2, requires_grad=True)", "y = x * 2",
              "try:\n    y.index_fill_(0, torch.tensor([-1, 9]), 7.)\nexcept IndexError as e:\n    err3 = str(e)"],
             ["err", "a", "a._version", "err2", "b", "err3", "y", "y._version", "y.grad_fn.name()"]),
        case("indexing-kernels-write-before-the-bad-index",  # index_add_/index_copy_/scatter_/scatter_add_/put_
             ["ops = [lambda a: a.index_add_(0, torch.tensor([1, 7, 2]), torch.ones(3, 3)),\n"
              "       lambda a: a.index_add_(1, torch.tensor([1, 7]), torch.ones(4, 2)),\n"
              "       lambda a: a.view(2, 2, 3).index_add_(1, torch.tensor([1, 0, 9]), torch.ones(2, 3, 3), alpha=2),\n"
              "       lambda a: a.index_add_(0, torch.tensor([3, 3, -1]), torch.ones(3, 3), alpha=2),\n"
              "       lambda a: a.view(-1).index_add_(0, torch.tensor([3, 3, 12]), torch.tensor([1., 2., 3.])),\n"
              "       lambda a: a.index_copy_(0, torch.tensor([1, 7, 2]), torch.ones(3, 3)),\n"
              "       lambda a: a.index_copy_(1, torch.tensor([2, 3]), -torch.ones(4, 2)),\n"
              "       lambda a: a.scatter_(0, torch.tensor([[1, 2, 9], [0, 0, 0]]), -1.),\n"
              "       lambda a: a.scatter_(1, torch.tensor([[2, 0], [1, 5]]), torch.tensor([[-1., -2.], [-3., -4.]])),\n"
              "       lambda a: a.scatter_add_(1, torch.tensor([[2, 2], [1, -1]]), torch.full((2, 2), 10.)),\n"
              "       lambda a: a.put_(torch.tensor([1, 40, 2]), torch.tensor([-1., -2., -3.])),\n"
              "       lambda a: a.put_(torch.tensor([1, 1, -2, 99]), torch.ones(4), accumulate=True)]",
              "out = []",
              "for f in ops:\n    a = torch.arange(12.).reshape(4, 3)\n    try:\n        f(a)\n"
              "    except (IndexError, RuntimeError) as e:\n        out.append(str(e))\n    out.append(a.tolist())",
              "x = torch.zeros(4, 3, requires_grad=True)", "y = x * 1",
              "try:\n    y[::2].scatter_(0, torch.tensor([[1, 0, 3]]), 5.)\nexcept RuntimeError as e:\n    err = str(e)"],
             ["out", "err", "y", "y._version"]),
        case("index-out-of-bounds-names-the-tensors-place",  # a[:, idx]: "dimension 0"; the first bad entry
             ["a = torch.arange(24.).reshape(2, 3, 4)", "m = torch.tensor([True, False])",
              "uses = [lambda: a[:, torch.tensor([5])], lambda: a[:, :, torch.tensor([1, 9])], lambda: a[0, torch.tensor([7])],\n"
              "        lambda: a[:, torch.tensor([0]), torch.tensor([9])], lambda: a[torch.tensor([1, -5, 9])],\n"
              "        lambda: a[:, torch.tensor([[1, 7], [-9, 0]])], lambda: a[m, torch.tensor([8])],\n"
              "        lambda: a[None, :, torch.tensor([4, 2])], lambda: a[..., torch.tensor([4])]]",
              "out = []",
              "for f in uses:\n    try:\n        f()\n    except IndexError as e:\n        out.append(str(e))",
              "try:\n    a[:, torch.tensor([2, 5])] = 1.\nexcept IndexError as e:\n    out.append(str(e))"],
             ["out"]),
        case("argument-and-check-order-texts",  # dt36a error-text:argsort, error-text:soft_margin_loss, error-type:index_select
             ["r = torch.tensor([1.25])", "out = []",
              "uses = [lambda: r.argsort(-1, descending=True, stable=True), lambda: torch.argsort(r, -1, True),\n"
              "        lambda: F.soft_margin_loss(torch.tensor([False, True]), torch.tensor([1.5], dtype=torch.float64)),\n"
              "        lambda: torch.tensor(-3.0).index_select(0, torch.tensor([-3, -2])),\n"
              "        lambda: torch.tensor(-3.0).index_select(0, torch.tensor([], dtype=torch.long)),\n"
              "        lambda: torch.tensor(-3.0).index_select(0, torch.tensor([1]))]",
              "for f in uses:\n    try:\n        out.append(f())\n    except Exception as e:\n        out.append(type(e).__name__ + ': ' + str(e))"],
             ["out"]),
        case("xlog1py-number-other-nan-gradient",  # SpecialXlog1PyBackward2: other > -1 else self's zeros masked
             ["out = []",
              "for other in (float('nan'), -1.0, -3.0, 2.0):\n    x = torch.tensor([0.0, 1.5, -0.0], requires_grad=True)\n"
              "    torch.special.xlog1py(x, other).sum().backward()\n    out.append(x.grad.tolist())"],
             ["out"]),
        case("baddbmm-small-loop-sum-from-plus-zero",  # below 400 multiply-adds: acc = 0 + products, then alpha *
             ["a = torch.tensor([[[-2.25], [2.5]], [[-0.75], [2.25]]])", "b = torch.tensor([[[1.25, 3.0, 3.0]], [[0.75, 0.0, 1.75]]])",
              "out = []",
              "for beta, alpha in ((0, 2), (0, -1), (1, 2), (0.5, -1)):\n"
              "    s = torch.tensor([[[-0.25, -2.25, float('inf')], [-0.25, -2.75, 1.25]], [[-0.5, float('nan'), -0.5], [-2.5, 3.0, 1.25]]])\n"
              "    out.append(repr(s.baddbmm_(a, b, beta=beta, alpha=alpha)))"],
             ["out"]),
        case("scalar-op-keeps-layout-sdpa-double-backward",  # mul.Scalar of a transposed key: TensorIterator's layout
             ["q = torch.tensor([[-2.75]])", "k = torch.tensor([[2.0], [-2.25]]).requires_grad_()",
              "v = torch.tensor([[2.0, 0.25, 0.25], [-1.25, 0.0, -0.5]]).requires_grad_()",
              "g, = torch.autograd.grad(F.scaled_dot_product_attention(q, k, v).sum(), k, create_graph=True)",
              "names = []",
              "def walk(fn, depth=0):\n    if fn is not None and depth < 9:\n        names.append('  ' * depth + fn.name())\n"
              "        for f, _ in fn.next_functions:\n            walk(f, depth + 1)",
              "walk(g.grad_fn)"],
             ["names", "g"]),
        case("copy-slices-into-an-overlapping-base-raises",  # CopySlices' result.copy_(grad) into the base's strides
             ["x = torch.arange(16.).reshape(4, 4, 1).requires_grad_()", "r = x * 1", "v = r.as_strided_((2, 1), (0, 2), 3)",
              "v.narrow(0, 0, 1).add_(1)",
              "try:\n    r.sum().backward()\nexcept RuntimeError as e:\n    err = str(e)"],
             ["err", "x.grad", "r.grad_fn.name()"]),
        case("saved-input-detached-in-place-raises",  # SavedVariable::unpack: a non-leaf input detach_ took out
             ["a = torch.ones(3, requires_grad=True)", "b = a * 2", "c = b.exp()", "d = b.sin()", "b.detach_()",
              "c.sum().backward(retain_graph=True)", "g1 = a.grad.clone()",
              "try:\n    d.sum().backward()\nexcept RuntimeError as e:\n    err = str(e)",
              "x = torch.tensor([[-2.0, 1.75], [1.0, float('nan')]], requires_grad=True)", "r = x * 1", "r.abs_()",
              "n = torch.norm(r, dtype=torch.float64)", "torch.detach_(r)",
              "try:\n    torch.autograd.grad(n, [x], create_graph=True)\nexcept RuntimeError as e:\n    err2 = str(e)",
              "e0 = torch.ones(2, requires_grad=True)", "k = e0 * 1", "k.detach_()", "z = (k * e0).sum()", "z.backward()"],
             ["g1", "err", "err2", "e0.grad"]),
        case("setitem-writes-before-the-bad-index",  # index_put's C-order visit over the indexing result
             ["def s1(a): a[:, torch.tensor([2, 0, 5])] = -1.",
              "def s2(a): a[1, :, torch.tensor([[3, -1], [9, 0]])] = torch.tensor([-1., -2.])",
              "def s3(a): a[torch.tensor([1, -1, 2])] = torch.arange(12.).reshape(3, 4) * -1",
              "def s4(a): a.index_put_((torch.tensor([0, 7]),), torch.tensor(-5.))",
              "def s5(a): a[torch.tensor([1, 2]), :, 0] = -9.",
              "out = []",
              "for f in (s1, s2, s3, s4, s5):\n    a = torch.arange(24.).reshape(2, 3, 4)\n    try:\n        f(a)\n"
              "    except IndexError as e:\n        out.append(str(e))\n    out.append(a.tolist())"],
             ["out"]),
        case("dt36b-checks-divide-cat-histc",  # divide(rounding_mode=None)'s broadcast error, cat of legacy empties, histc's ends
             ["out = []",
              "uses = [lambda: torch.divide(torch.ones(4), torch.ones(2, 4, 3), rounding_mode=None),\n"
              "        lambda: torch.ones(4).div(torch.ones(2, 4, 3), rounding_mode=None),\n"
              "        lambda: torch.concat([torch.zeros(0, dtype=torch.float64).requires_grad_()], dim=1),\n"
              "        lambda: torch.cat([torch.zeros(0)], dim=-2),\n"
              "        lambda: torch.histc(torch.zeros(0, dtype=torch.uint8), bins=3),\n"
              "        lambda: torch.histc(torch.tensor([0, 0], dtype=torch.uint8), bins=3),\n"
              "        lambda: torch.histc(torch.tensor([127], dtype=torch.int8), bins=3),\n"
              "        lambda: torch.histc(torch.tensor([5, 5], dtype=torch.uint8), bins=3)]",
              "for f in uses:\n    try:\n        out.append(repr(f()))\n    except Exception as e:\n        out.append(type(e).__name__ + ': ' + str(e))"],
             ["out"]),
        case("resize-same-shape-keeps-the-version",  # resize_/resize_as_ bump the version only for a new shape
             ["x = torch.ones(4)", "v = [x._version]", "x.resize_(4)", "v.append(x._version)", "x.resize_(2, 2)",
              "v.append(x._version)", "x.resize_as_(torch.ones(2, 2, dtype=torch.int64))", "v.append(x._version)",
              "y = torch.ones(2, 3, 4, 5)", "y.resize_(2, 3, 4, 5, memory_format=torch.channels_last)",
              "a = torch.tensor([0.5, -2.25, -0.0, -1.0])", "r = a.resize_as_(torch.tensor([2, -4, 3, -2]))",
              "t = torch.tensor([0.25, -1.0, -1.0, -3.0], requires_grad=True)",
              "l = torch.binary_cross_entropy_with_logits(a, t, reduction=1)", "r[0].mul_(2.0)",
              "try:\n    l.backward(gradient=torch.tensor(-1.25))\nexcept RuntimeError as e:\n    err = str(e)"],
             ["v", "y._version", "y.stride()", "err"]),
        case("bce-with-logits-laid-out-as-the-target",  # (1 - target).mul_(input)...: the target's layout
             [r, "x = torch.randn(4, 4, 3, dtype=torch.float64, requires_grad=True)", "v = x.transpose(0, -1)",
              "g = torch.randn(3, 4, 4, dtype=torch.float64)", "a = torch.binary_cross_entropy_with_logits(g, v)",
              "b = F.binary_cross_entropy_with_logits(v, g, reduction='none')"],
             ["a.stride()", "b.stride()", "a[0].tolist()"]),
    ]


CASES = cases(GRAPH)
