"""Regression cases of the smaller tensor-surface groups of the session-31 end run, replayed in session 32
(helper "groupsc").

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import GRAPH, case


CASES = [
    case("ldl-solve-signed-zeros-as-mkl",  # (repr:ldl_solve) MKL's sytrs: dger leaves a column whose
         # multiplier is zero alone, dgemv('T') sums from the first product (not from +0)
         ["def lcg(k):\n    while True:\n        k = (k * 1103515245 + 12345) % 2 ** 31\n        yield k >> 16",
          "g = lcg(11)",
          "def sample(n, dt):\n    a = torch.tensor([[[-2., -1., 0., 0., 1., 2., 0.5][next(g) % 7] for j in range(n)]"
          " for i in range(n)], dtype=dt)\n    a = a + a.T\n"
          "    b = torch.tensor([[[-1., -0., 0., 0., 1.][next(g) % 5] for j in range(3)] for i in range(n)], dtype=dt)\n"
          "    return a, b",
          "def signs(k):\n    out = []\n    for t in range(k):\n        a, b = sample(2 + t % 4, (torch.float32, torch.float64)[t % 2])\n"
          "        ld, piv, info = torch.linalg.ldl_factor_ex(a)\n        if info.item():\n            continue\n"
          "        x = torch.linalg.ldl_solve(ld, piv, b)\n        out.append((x.tolist(), x.signbit().tolist()))\n"
          "    return out",
          "x6 = (torch.tensor([[[3.0, -2.25, -2.25], [float('-inf'), -3.0, 0.25], [0.0, -2.5, float('inf')]]])"
          " + 4 * torch.eye(3)).requires_grad_()",
          "ld6, piv6 = torch.linalg.ldl_factor(x6)",
          "x9 = torch.tensor([[[2.5, 1.75], [-2.25, -1.25], [-2.25, -2.5]]], requires_grad=True)"],
         ["signs(120)", "torch.linalg.ldl_solve(ld6, piv6, x9)"]),
    case("clamp-min-max-tensor-bound-layout",  # (stride:clamp_min, stride:clamp_max) a tensor bound: the
         # result laid out by TensorIterator (the first input decides), as maximum's
         ["v = torch.arange(8.).reshape(4, 2).t()", "p = torch.ones(3, 4, 2).permute(2, 0, 1)",
          "vi = torch.arange(16).reshape(4, 4).mT",
          "x = torch.ones(4, 2, requires_grad=True)"],
         ["[(f(v, torch.ones(2, 4)).stride(), f(torch.ones(2, 4), v).stride(), f(v, torch.ones(4)).stride(),"
          " f(p, torch.ones(4)).stride(), f(p, torch.ones(2, 1, 4)).stride(), f(p[:, :1], torch.ones(2, 3, 4)).stride())"
          " for f in (torch.clamp_min, torch.clamp_max)]",
          "torch.clamp_max(vi, torch.full((4, 4), 5)).stride()",
          "torch.autograd.grad(torch.clamp_min(x.t(), torch.zeros(2, 4)).sum(), x)[0].stride()"]),
    case("uniform-random-normal-argument-parsing",  # (raises-only-torch:uniform_, raises-only-torch:normal) the
         # keyword of uniform_'s and random_'s first parameter is `from` (from_= is refused); normal's overloads:
         # a number mean needs std and size, a tensor mean or std takes no size, dtype, layout, device
         ["def err(f):\n    try:\n        return f()\n    except TypeError as e:\n        return str(e)",
          "x = torch.ones(2, 3, dtype=torch.float64)", "torch.manual_seed(5)"],
         ["err(lambda: x.uniform_(from_=-1.0, to=2.5))", "err(lambda: x.random_(from_=2))",
          "err(lambda: x.random_(2, from_=1))", "x.uniform_(-1.0, to=2.5)", "x.uniform_(**{'from': 3.0, 'to': 4.0})",
          "x.uniform_(to=0.5)", "x.random_(2, to=5)", "x.random_(**{'from': 1, 'to': 3})", "x.random_(to=3)",
          "err(lambda: torch.normal(0.0, size=(2, 1), dtype=torch.float16))",
          "err(lambda: torch.normal(mean=0.0, size=(2, 1)))", "err(lambda: torch.normal(torch.zeros(2), size=(2, 1)))",
          "err(lambda: torch.normal(torch.zeros(2), 2.0, dtype=torch.float64))",
          "err(lambda: torch.normal(2.0, torch.ones(2), size=(2,)))", "err(lambda: torch.normal(torch.zeros(2), device='cpu'))",
          "torch.normal(0.0, 1.0, size=(2, 1), dtype=torch.float16)", "torch.normal(0.0, std=2.0, size=(2,))",
          "torch.normal(torch.zeros(2))", "torch.normal(torch.zeros(2), 0.5)", "torch.normal(2.0, torch.ones(2))",
          "torch.normal(1, 2, (3,))"]),
    case("linalg-pinv-overloads",  # (raises-only-torch:pinv) rcond (positional, with hermitian) takes no atol
         # or rtol beside it; the parameter is `input`; hermitian of a non-square matrix is eigh's error
         ["def err(f):\n    try:\n        return f()\n    except (TypeError, RuntimeError) as e:\n        return str(e)",
          "A = torch.tensor([[-2.0, 1.0], [-0.25, 3.0], [0.25, 1.0], [2.75, 0.0]])",
          "S = torch.tensor([[-2.0, 1.0], [1.0, 3.0]], dtype=torch.float64)"],
         ["err(lambda: torch.linalg.pinv(A, atol=3.0, rtol=-1.5, rcond=0.5))",
          "err(lambda: torch.linalg.pinv(A, rcond=0.5, atol=0.1))", "err(lambda: torch.linalg.pinv(A, 0.5, rtol=0.1))",
          "err(lambda: torch.linalg.pinv(A=A))", "err(lambda: torch.linalg.pinv(A, 0.5, True))",
          "err(lambda: torch.linalg.pinv(A, hermitian=True, atol=1.0))",
          "torch.linalg.pinv(A, 0.5)", "torch.linalg.pinv(A, torch.tensor(0.5))",
          "torch.linalg.pinv(input=A, rcond=torch.tensor(0.5))", "torch.linalg.pinv(S, 0.1, True)",
          "torch.linalg.pinv(S, rcond=0.1, hermitian=True)"]),
    case("as-strided-reads-outside-the-input",  # (raises-only-agrad:as_strided_) a view reading storage the
         # input does not hold: as_strided_backward reads its storage back at the input's positions, so those
         # elements get no gradient (as_strided_ in place: AsStridedBackward1)
         [GRAPH, "x1 = torch.tensor([[1.75], [2.0]], requires_grad=True)", "r2 = x1 * 1",
          "r3 = r2[0].as_strided_((1,), (1,), 1)", "r3.sum().backward()",
          "x = torch.arange(6., requires_grad=True)", "w = torch.arange(4., requires_grad=True)", "v = (x * 1)[1:4]",
          "a = v.as_strided((2, 2), (3, 2), 0)", "b = v.as_strided((2, 2), (1, 1), 0)",
          "ga, = torch.autograd.grad((a * w.reshape(2, 2)).sum(), x, create_graph=True)",
          "gb, = torch.autograd.grad((b * w.reshape(2, 2)).sum(), x, create_graph=True)",
          "(ga * torch.arange(6.)).sum().backward()", "wa = w.grad.clone()",
          "(gb * torch.arange(6.)).sum().backward()"],
         ["(r3, r2._version, x1.grad)", "graph(r3.grad_fn)", "(a, ga, b, gb)", "graph(ga.grad_fn)", "graph(gb.grad_fn)",
          "(wa, w.grad)"]),
    case("add-sub-integer-alpha-and-deprecated-overloads",  # (raises-only-agrad:add, raises-only-agrad:sub) an
         # integer alpha converted as the kernel's Scalar::to<T> (uint8 takes -1 as 255; out of range: PyTorch's
         # overflow error); add/sub/add_/sub_(input, Number alpha, Tensor other): the deprecated overloads
         [GRAPH, "def err(f):\n    try:\n        return f()\n    except (TypeError, RuntimeError) as e:\n        return str(e)",
          "u = torch.tensor([[0, 5], [1, 6]], dtype=torch.uint8)", "v = torch.tensor([[3, 7], [4, 2]], dtype=torch.uint8)",
          "x = torch.tensor([1., 2.], requires_grad=True)", "y = torch.tensor([3., 4.], requires_grad=True)",
          "r = torch.sub(x, 2.5, y)", "r.sum().backward()"],
         ["u.add(v, alpha=-1)", "torch.sub(u[::2], v, alpha=-1)", "u.clone().sub_(v, alpha=-3)", "torch.add(u, 3, alpha=-1)",
          "err(lambda: torch.add(u, v, alpha=300))", "err(lambda: torch.add(u, v, alpha=2 ** 63))",
          "err(lambda: torch.add(u.short(), 2, alpha=-70000))", "torch.add(u.to(torch.int8), v.to(torch.int8), alpha=-200)",
          "torch.add(x, 2, y)", "x.add(2, y)", "torch.sub(x, 2, y)", "x.sub(2, y)", "x.detach().add_(2, y)",
          "x.detach().sub_(2, y)", "torch.add(x, 2, other=y)", "torch.add(x, 2.5, 3)", "x.add(2, 3)",
          "torch.add(u, -1, v)", "err(lambda: torch.add(x, 2, y, alpha=3))", "err(lambda: torch.subtract(x, 2, y))",
          "(r, x.grad, y.grad)", "graph(r.grad_fn)"]),
    case("empty-slice-storage-offset",  # (value:storage_offset) an empty slice starts at its (clamped) start
         # times the stride, as PyTorch's slice (numpy's starts at the input's first element)
         ["x = torch.zeros(3, 1)", "y = torch.zeros(3, 4)"],
         ["[v.storage_offset() for v in (x[:, 1:], x[1:, 1:], x[5:], x[:, 3:], x[2:2], y[:, 4:], y[1:1, 2:], y[:, 10:],"
          " y[4:], y.narrow(1, 4, 0), y[:, 2:][:, 3:], y.t()[4:], y[2:][5:])]"]),
    case("nonzero-static-size-parsing",  # (error-text:nonzero_static) size is an int to PyTorch's parser: an
         # integral one-element tensor too; a tuple, a float, None, a float tensor are refused by name
         ["def err(f):\n    try:\n        return f()\n    except (TypeError, RuntimeError) as e:\n        return str(e)",
          "x = torch.tensor([[-3.0, 0.5, 0.0, 0.75]])"],
         ["[err(lambda: x.nonzero_static(size=s)) for s in ((4, 1), 2.0, None, True, torch.tensor(2.0), torch.tensor([1, 2]))]",
          "x.nonzero_static(size=torch.tensor(2))", "x.nonzero_static(size=torch.tensor([3]), fill_value=7)"]),
    case("addmm-baddbmm-addr-inplace-shape-errors",  # (error-text:addmm_, error-text:addr_) structured in-place
         # calls keep self's sizes ("Bad in-place call"); addr_ wants self 2-D and of the outer product's size
         ["def err(f):\n    try:\n        return f()\n    except (TypeError, RuntimeError) as e:\n        return str(e)",
          "m = torch.ones(2, 2)", "n = torch.ones(2, 3)", "b = torch.ones(2, 3, 3)",
          "x = torch.zeros(2, 3, requires_grad=True)"],
         ["err(lambda: torch.zeros(2, 3)[0].addmm_(m, n, alpha=-1.5))", "err(lambda: torch.zeros(5).addmm_(m, n))",
          "err(lambda: torch.zeros(2, 1).addmm_(m, n))", "err(lambda: x.clone()[0].addmm_(m, n))",
          "err(lambda: torch.zeros(3, 3).baddbmm_(b, b))", "err(lambda: torch.zeros(2, 3, 3)[:, :1].baddbmm_(b, b))",
          "err(lambda: torch.zeros(5).baddbmm_(b, b))", "err(lambda: torch.tensor([1, 1]).addr_(torch.tensor([-1, 2]), torch.tensor([3, -1])))",
          "err(lambda: torch.zeros(3, 2).addr_(torch.ones(2), torch.ones(3)))", "err(lambda: torch.zeros(1, 3).addr_(torch.ones(2), torch.ones(3)))",
          "err(lambda: torch.zeros(2, 3, 1).addr_(torch.ones(2), torch.ones(3)))",
          "err(lambda: torch.zeros(2, dtype=torch.int64).addr_(torch.ones(2), torch.ones(3)))",
          "torch.zeros(2, 3).addmm_(m, n, beta=2)", "torch.zeros(2, 3).addr_(torch.ones(2), torch.ones(3), alpha=2)"]),
    case("scatter-index-put-no-overlap-and-logical-inplace-overlap-first",  # (raises-only-torch:scatter_add_,
         # error-type:index_copy_, error-text:logical_and_) scatter_/scatter_add_/scatter_reduce_/index_add_/
         # index_copy_/put_ refuse an index or src sharing the written tensor's memory (assert_no_overlap), before
         # their own checks; logical_and_ & co.: the written tensor's internal overlap before the shapes
         ["def err(f):\n    try:\n        return f()\n    except (TypeError, RuntimeError, IndexError) as e:\n"
          "        return type(e).__name__ + ': ' + str(e)",
          "r = torch.tensor([1.25, 2.0, 3.0])", "i = torch.tensor([0, 1])",
          "b = torch.tensor([[True, False, False, True], [False, True, True, False]])",
          "v = torch.tensor([1, -4, -1, -4]).expand(2, 4)"],
         ["err(lambda: torch.tensor(1.25).scatter_add_(-1, torch.tensor(0), torch.tensor(1.25)))",
          "err(lambda: r.scatter_add_(0, i, r))", "err(lambda: r.scatter_(0, i, r))", "err(lambda: r.scatter_add_(0, i, r[1:]))",
          "err(lambda: r.scatter_reduce_(0, i, r, 'sum'))", "err(lambda: r.index_add_(0, i, r))",
          "err(lambda: r.put_(i, r))", "err(lambda: b[...].index_copy_(1, torch.tensor([[0, 1, 0, 0], [0, 0, 1, 1]]), b))",
          "err(lambda: b.index_copy_(1, torch.tensor([0, 1, 0, 0]), b))",
          "err(lambda: b.index_copy_(1, torch.tensor([0, 1, 0, 0]), b[:, :2]))",
          "torch.arange(8.).reshape(2, 4).index_copy_(1, i, torch.arange(8.).reshape(2, 4)[:, 2:])",
          "err(lambda: v.logical_and_(v.ceil().swapaxes_(-1, -2)))", "err(lambda: v.logical_or_(torch.ones(3, 4)))",
          "err(lambda: v.logical_xor_(torch.ones(2, 4)))", "err(lambda: v.logical_not_())",
          "err(lambda: torch.tensor([1, 0]).logical_and_(torch.ones(3, 2)))"]),
    case("to-overloads-and-storage-of-a-permuted-result",  # (raises-only-torch:to, raises-only-agrad:share_memory_)
         # to()'s three overloads: a dtype or tensor first takes no dtype=/device= beside it; the storage of a
         # result laid out like a permuted input (one dense buffer in another order)
         ["def err(f):\n    try:\n        return f()\n    except (TypeError, RuntimeError) as e:\n        return str(e)",
          "x = torch.tensor([[True, False], [True, False], [False, False]])",
          "x3 = torch.tensor([[[-4, 4, -2], [3, 1, 1]], [[-3, -1, -3], [-1, 2, 3]]])", "r5 = -x3.mT",
          "r6 = r5.share_memory_()"],
         ["err(lambda: x.to(torch.float64, dtype=torch.float32))", "err(lambda: x.to('cpu', torch.float64, dtype=torch.float32))",
          "err(lambda: x.to(torch.float64, False, True, dtype=torch.float32))", "err(lambda: x.to('cpu', device='cpu'))",
          "err(lambda: x.to(torch.ones(1), dtype=torch.int32))", "err(lambda: x.to(torch.int32, device='cpu'))",
          "x.to('cpu', torch.int32, False, True)", "x.to(torch.float64, copy=True)", "x.to(torch.int32, False, True)",
          "x.to(None, torch.int32)", "x.to(2.0)",
          "(r6 is r5, r5.is_shared(), r5.stride(), r5.storage_offset(), r5.untyped_storage().size())",
          "r5.untyped_storage().tolist()", "r5[1:, :, 1:].storage_offset()", "r5.as_strided((2, 2), (1, 3), 1)"]),
    case("custom-function-output-views-refuse-inplace",  # (error-text:pow_) a view a custom Function returns
         # (resize_as's Resize) and views of it: IN_CUSTOM_FUNCTION, PyTorch's refusal of an in-place change to it,
         # directly or through its base, with grad mode on or off when the Function ran
         ["def err(f):\n    try:\n        return f()\n    except RuntimeError as e:\n        return str(e)",
          "x1 = torch.tensor([[-1.75, -0.25], [1.25, -1.75]], requires_grad=True)", "r6 = x1.resize_as(x1)",
          "y = x1 * 1", "r7 = y.resize_as(y)", "r8 = r7[0]", "y.add_(1)",
          "with torch.no_grad():\n    r9 = x1.resize(4)", "with torch.no_grad():\n    v = r6[0]",
          "z = torch.tensor([[1.0, 2.0]])", "rz = z.resize_as(z)", "rz.mul_(2)"],
         ["err(lambda: r6[:, 0].pow_(-1.5))", "err(lambda: r6.pow_(2))", "err(lambda: r7.grad_fn)",
          "err(lambda: r8.grad_fn)", "err(lambda: r9.mul_(2))", "err(lambda: v.mul_(2))", "rz"]),
    case("float32-short-dot-and-mv-sequential",  # (numeric:@) MKL's sdot of up to 3 elements and sgemv of up to
         # 4 columns: a plain left-to-right sum of the float32 products (numpy's BLAS may pair them)
         ["def lcg(k):\n    while True:\n        k = (k * 1103515245 + 12345) % 2 ** 31\n        yield k >> 16",
          "g = lcg(5)", "def vec(n):\n    return torch.tensor([(next(g) % 2001 - 1000) / 337.0 for _ in range(n)])",
          "r4 = torch.tensor([2, 4, 4]).sigmoid()", "w = torch.tensor([-0.25, -2.25, 2.5])"],
         ["[(r4 @ w).item(), torch.dot(r4, w).item(), torch.matmul(r4[None], w).item(), torch.mv(r4[None], w).item()]",
          "[torch.dot(a, b).item() for a, b in ((vec(n), vec(n)) for n in (2, 3, 3, 3, 2, 3) * 10)]",
          "[torch.mv(m, v).tolist() for m, v in ((vec(3 * k).reshape(3, k), vec(k)) for k in (2, 3, 4) * 10)]"]),
    case("groups32b-small-surface-fixes",  # (error-text:addmv_, raises-only-torch:pinverse, warning:resize_as,
         # error-type:rsub, raises-only-agrad:repeat_interleave, stride:new_tensor) addmv_'s Bad in-place call;
         # pinverse's rcond is a float; resize_as warns before its argument fails; rsub's broadcast error names
         # other first; repeat_interleave of a transposed input; a copy of an expanded tensor is contiguous
         [GRAPH, "def err(f):\n    try:\n        return f()\n    except (TypeError, RuntimeError, AttributeError) as e:\n"
          "        return type(e).__name__ + ': ' + str(e)",
          "r5 = torch.tensor([[3.0, 1.75], [1.0, 2.0]]).t()", "v4 = torch.tensor([1.75, -3.0, 2.0, -2.25]).expand(2, 4)",
          "x = torch.tensor([[3.0, 1.75]], dtype=torch.float64, requires_grad=True)", "ri = (x.mT * 1).repeat_interleave(3, 0)",
          "w = err(lambda: torch.ones(4, 2).t()[:1].resize_as(1.75))"],
         ["err(lambda: torch.tensor([0.0, -3.0])[::2].addmv_(torch.ones(2, 2), torch.ones(2)))",
          "err(lambda: torch.pinverse(torch.ones(2, 3), rcond=None))", "torch.pinverse(torch.ones(2, 3), 0.5)", "w",
          "err(lambda: torch.rsub(torch.ones(1, 2, 3), torch.ones(2, 4, 3, 3)))",
          "err(lambda: torch.rsub(torch.ones(2, 3), torch.ones(3, 2), alpha=2))",
          "(ri, ri.stride())", "graph(ri.grad_fn)", "r5.repeat_interleave(2, 1)", "r5.repeat_interleave(2)",
          "[torch.tensor(v4, dtype=d).stride() for d in (None, torch.int32, torch.float64)]",
          "torch.tensor([1], dtype=torch.int32).new_tensor(v4).stride()", "torch.tensor(r5).stride()"]),
    case("soft-margin-loss-saves-its-target",  # (known: soft_margin_loss missed an in-place change of its target)
         # PyTorch saves the target: changed in place before backward, the backward fails its version check
         ["def err(f):\n    try:\n        return f()\n    except RuntimeError as e:\n        return str(e)",
          "x = torch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)",
          "t = torch.tensor([[1.0, -1.0], [-1.0, 1.0]])", "l = F.soft_margin_loss(x, t)",
          "l2 = F.soft_margin_loss(x, t, reduction='none')", "l3 = F.multilabel_soft_margin_loss(x, t.abs())",
          "l4 = F.soft_margin_loss(x, t.clone(), reduction='sum')",
          "g, = torch.autograd.grad(l4, x, create_graph=True)", "t.mul_(2)"],
         ["err(lambda: l.backward())", "err(lambda: l2.sum().backward())", "err(lambda: l3.backward())",
          "l4.grad_fn._saved_target", "g", "torch.autograd.grad(g.sum(), x)"]),
    case("as-strided-scatter-src-gradient-is-a-view",  # (raises-only-agrad:as_strided_scatter; known: src's
         # gradient aliasing) src's gradient is grad.contiguous().as_strided(...): it shares the caller's gradient;
         # a view past the gradient's elements is as_strided's setStorage error at backward; self's gradient is the
         # buffer read back through as_strided (AsStridedBackward0 over CopySlices)
         [GRAPH, "def err(f):\n    try:\n        return f()\n    except RuntimeError as e:\n        return str(e)",
          "x = torch.zeros(2, 3, requires_grad=True)", "s = torch.ones(2, requires_grad=True)",
          "r = x.as_strided_scatter(s, (2,), (1,), 1)", "g = torch.arange(6.).reshape(2, 3)", "r.backward(g)",
          "s.grad.mul_(10)",
          "x3 = torch.arange(64.).reshape(4, 4, 4)", "x4 = torch.tensor([3.0, 2.25], requires_grad=True)",
          "r5 = x3[::2].as_strided_scatter(x4, (2,), (1,), storage_offset=40)",
          "x2 = torch.zeros(2, 3, requires_grad=True)", "s2 = torch.ones(2, requires_grad=True)",
          "r2 = x2.as_strided_scatter(s2 * 2, (2,), (1,), 1)",
          "gx, gs = torch.autograd.grad((r2 * r2).sum(), (x2, s2), create_graph=True)",
          "(gs.sum() + gx.sum()).backward()"],
         ["(x.grad, s.grad, g)", "r5[1]", "err(lambda: r5.sum().backward())", "(gx, gs, s2.grad, x2.grad)",
          "graph(gx.grad_fn)", "graph(gs.grad_fn)"]),
    case("memory-format-keyword-and-preserve",  # (the generator's new memory_format= draws) casts, contiguous and
         # is_contiguous take memory_format by keyword only (the parser's "takes 0 positional arguments but 1 was
         # given"); contiguous(preserve_format) of a non-contiguous tensor is refused; resize_as_(preserve_format)
         # takes the template's suggested format; the parser names torch.memory_format
         ["def err(f):\n    try:\n        return f()\n    except (TypeError, RuntimeError) as e:\n        return str(e)",
          "x = torch.tensor([[[-4, 4], [0, 2]]], dtype=torch.int32)", "y = torch.zeros(2, 3, 4, 5)",
          "t = torch.ones(2, 3, 4, 5).contiguous(memory_format=torch.channels_last)"],
         ["err(lambda: x.long(torch.preserve_format))", "err(lambda: x.half(torch.channels_last_3d))",
          "err(lambda: x.is_contiguous(torch.preserve_format))", "err(lambda: x.float(1, 2))",
          "err(lambda: x.contiguous(torch.contiguous_format))", "x.long(memory_format=torch.preserve_format).dtype",
          "err(lambda: y.t().contiguous(memory_format=torch.preserve_format) if False else y.transpose(0, 1).contiguous(memory_format=torch.preserve_format))",
          "y.contiguous(memory_format=torch.preserve_format).stride()",
          "y.clone().resize_as_(t, memory_format=torch.preserve_format).stride()",
          "y.clone().resize_as_(torch.ones(2, 3, 4, 5).permute(0, 2, 1, 3), memory_format=torch.preserve_format).stride()",
          "torch.tensor([[[3, -1], [4, 1], [-1, 3]]]).resize_as_(torch.ones(1, 3, 2), memory_format=torch.preserve_format)",
          "err(lambda: torch.ones(2).to(torch.float16, dtype=torch.int64, memory_format=torch.preserve_format))",
          "err(lambda: torch.randint_like(torch.ones(3, 4, 1), memory_format=torch.channels_last_3d))",
          "err(lambda: torch.tensor([0.0]).resize_())"]),
]
