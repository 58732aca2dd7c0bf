"""Regression cases of session 38's groupsb38 work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    case("sdpa-flash-causal-fills-scores-before-scale",  # (dt37e value:scaled_dot_product_attention) is_causal
         # on the flash path writes -inf over the unscaled scores past each query (an inf * 0 NaN there is gone),
         # then the unmasked max (a NaN in the scalar tail passed over: a zero row); a zero row's weights still
         # multiply the values (0 * NaN); a scale < 0 turns the -inf into +inf (NaN rows)
         ["x5 = torch.tensor([[[[-0.75, -1.75, 1.25]], [[-1.5, -1.5, -2.75]]], [[[float('inf'), 0.0, 1.5]],"
          " [[-2.75, -1.0, 2.0]]]], requires_grad=True)",
          "x6 = torch.tensor([[[[-2.5, -1.0, 1.0]], [[1.5, -2.75, -2.25]]], [[[0.0, float('inf'), -2.0]],"
          " [[0.25, 0.5, 2.75]]]], requires_grad=True)",
          "x7 = torch.tensor([[[[1.75, 0.75, 2.5]], [[-0.5, -1.75, 3.0]]], [[[-1.0, -1.25, 0.0]],"
          " [[2.75, -2.0, -0.25]]]], requires_grad=True)",
          "r9 = F.scaled_dot_product_attention(x5, x6, x7, is_causal=True)",
          "r9.sum().backward()",
          "g = torch.Generator().manual_seed(38)",
          "q, k, v = (torch.randn(1, 2, n, 3, generator=g) for n in (4, 6, 6))",
          "q[0, 0, 0, 0] = float('nan')", "k[0, 1, 3, 1] = float('inf')", "v[0, 0, 5, 2] = float('nan')",
          "def hexes(t):\n    return [v.hex() for v in t.flatten().tolist()]"],
         ["r9", "x5.grad", "x6.grad", "x7.grad",
          "hexes(F.scaled_dot_product_attention(q, k, v, is_causal=True))",
          "hexes(F.scaled_dot_product_attention(q[..., :3, :], k[..., :2, :], v[..., :2, :], is_causal=True))",
          "hexes(F.scaled_dot_product_attention(q.double(), k.double(), v.double(), is_causal=True))",
          "F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=-1.0)",
          "F.scaled_dot_product_attention(q, k, v, attn_mask=torch.zeros(4, 6), is_causal=True)"]),
    case("sdpa-flash-backward-in-the-kernels-steps",  # (dt37c grad-numeric:backward) the flash backward:
         # the weights again from the forward's logsumexp, dsum = rowsum(grad * out), grad_v = w^T g,
         # grad_w = w * (g v^T - dsum), scale * grad_w k, scale * grad_w^T q, in the kernel's gemm orders
         ["x7 = torch.tensor([[[[-1.25, -2.75, 0.75]], [[0.25, 0.0, 0.75]]], [[[-2.0, -1.75, -1.75]],"
          " [[-1.75, -2.75, -1.0]]]], requires_grad=True)",
          "x8 = torch.tensor([[[[-1.0, -2.5, 1.75], [1.5, 0.0, -0.25], [0.0, 2.75, -0.25]], [[1.0, 0.5, -2.0],"
          " [1.75, -0.5, 2.5], [0.25, 3.0, 2.5]]], [[[0.75, -1.0, -1.25], [-0.0, -0.0, 1.75], [0.0, -1.0, 1.75]],"
          " [[0.5, -0.5, -0.25], [1.0, 0.25, 1.5], [0.0, 1.75, 1.25]]]], requires_grad=True)",
          "x9 = torch.tensor([[[[-0.5, -1.0, 1.5], [-2.25, 2.25, 2.0], [-1.5, 1.0, 0.0]], [[-2.25, 0.25, -3.0],"
          " [-2.75, 2.25, 1.75], [-3.0, 1.0, -0.5]]], [[[1.0, 0.75, float('nan')], [0.0, 0.0, 2.0],"
          " [0.5, 0.5, 0.5]], [[-2.75, -1.25, 2.25], [0.0, 1.25, 0.75], [-2.5, 0.0, -0.25]]]], requires_grad=True)",
          "torch.log2(F.scaled_dot_product_attention(x7, x8, x9, scale=2.0)).sum().backward()",
          "g = torch.Generator().manual_seed(7)",
          "def grads(dt, n, e, **kw):\n"
          "    q, k, v = (torch.randn(2, 2, m, e, generator=g, dtype=dt).requires_grad_() for m in (3, n, n))\n"
          "    F.scaled_dot_product_attention(q, k, v, **kw).backward(torch.randn(2, 2, 3, e, generator=g, dtype=dt))\n"
          "    return [x.hex() for t in (q, k, v) for x in t.grad.flatten().tolist()]"],
         ["[x.hex() for x in x8.grad.flatten().tolist()]", "[x.hex() for x in x7.grad.flatten().tolist()]",
          "grads(torch.float32, 3, 2)", "grads(torch.float32, 2, 3, is_causal=True)",
          "grads(torch.float32, 3, 1, attn_mask=torch.randn(3, 3, generator=g))",
          "grads(torch.float64, 3, 3)", "grads(torch.float64, 2, 2, scale=0.5, is_causal=True)",
          "grads(torch.float64, 3, 2, attn_mask=torch.randn(3, 3, generator=g, dtype=torch.float64))"]),
    case("block-diag-backward-slices-twice-a-full-block-too",  # (dt37b grad_fn:backward) block_diag_backward
         # takes each block as grad.slice(0, ...).slice(1, ...): two SliceBackward0 under create_graph, also over
         # the whole gradient (Python's x[0:2, 0:2] there would be one AliasBackward0)
         ["x3 = torch.tensor([[-2.75, 0.5], [2.0, -2.25]], requires_grad=True)",
          "r10 = torch.block_diag(x3 * 1).sin()[...].diag_embed(dim1=0)",
          "r10.sum().backward(create_graph=True)",
          "b = torch.tensor([5.0, 6.0, 7.0], requires_grad=True)", "c = torch.tensor(8.0, requires_grad=True)",
          "gs = torch.autograd.grad(torch.block_diag(x3 * 1, b * 1, c * 1).sin().sum(), [x3, b, c],"
          " create_graph=True)",
          "def chain(f):\n    out = []\n    while f is not None:\n        out.append(f.name())\n"
          "        nf = [n for n, _ in f.next_functions if n is not None]\n        f = nf[0] if nf else None\n"
          "    return out"],
         ["chain(x3.grad.grad_fn)", "[chain(g.grad_fn) for g in gs]", "x3.grad"]),
    case("conv-memory-format-1d-weight-decides-3d-float64-contiguous",  # (conv1d, a transposed weight: output
         # strides) a 1-D convolution runs as a 2-D one of its contiguous input and its weight unsqueezed at dim 2:
         # channels-last where that weight suggests it; the backward's input and weight gradients in the
         # backend's format too; a 3-D one only on oneDNN (float64's slow kernels are contiguous)
         ["def lay(t, how):\n    if how == 'cl':\n        return t.transpose(1, -1).contiguous().transpose(1, -1)\n"
          "    if how == 'p':\n        return t.movedim(1, -1).contiguous().movedim(-1, 1)\n    return t",
          "def strides(f, x, w, **kw):\n    x = x.detach().requires_grad_()\n    w = w.detach().requires_grad_()\n"
          "    o = f(x, w, **kw)\n    gx, gw = torch.autograd.grad(o.pow(2).sum(), (x, w), create_graph=True)\n"
          "    return [o.stride(), gx.stride(), gw.stride()]",
          "x1 = torch.arange(36.).reshape(2, 3, 6) / 7",
          "w1 = lay(torch.arange(24.).reshape(4, 3, 2) / 5, 'cl')",
          "x2 = torch.arange(48.).reshape(1, 2, 4, 6) / 7",
          "w2 = lay(torch.arange(24.).reshape(2, 2, 2, 3) / 5, 'p')",
          "x3 = lay(torch.arange(128.).reshape(2, 2, 4, 4, 2) / 7, 'p')",
          "w3 = torch.arange(24.).reshape(3, 2, 2, 2, 1) / 5"],
         ["strides(F.conv1d, x1, w1)", "strides(F.conv1d, x1.double(), w1.double(), padding=1)",
          "strides(F.conv1d, lay(x1, 'cl'), w1[..., :1].contiguous())", "F.conv1d(x1[0], w1).stride()",
          "strides(F.conv_transpose1d, x1, lay(torch.arange(18.).reshape(3, 2, 3), 'cl'))",
          "strides(F.conv2d, x2, w2)", "strides(F.conv2d, x2.double(), w2.double())",
          "strides(F.conv3d, x3, w3)", "strides(F.conv3d, x3.double(), w3.double())",
          "F.conv1d(x1, w1)"]),
    case("forward-ad-formulas-read-primals-through-views-zero-tangents",  # (jvp / forward AD grad_fn chains)
         # a forward formula reads a primal that requires grad through _fw_primal (Identity; torch.func.jvp's:
         # an alias), and a missing tangent is a zero tensor whose terms join the graph: mul's formula
         # other_t * self_p + self_t * other_p (a Python number's too), div's (self_t - other_t * result) / other_p
         ["def tree(f):\n    if f is None:\n        return 'None'\n"
          "    return f.name() + '(' + ', '.join(tree(n) for n, _ in f.next_functions) + ')'",
          "x = torch.tensor([1.0, 2.0], requires_grad=True)", "b = torch.tensor([3.0, 0.5], requires_grad=True)",
          "t = torch.tensor([0.5, 0.25])", "tr = torch.tensor([0.5, 0.25], requires_grad=True)",
          "fns = [lambda a: a * 2, lambda a: 2 * a, torch.sin, lambda a: a * b, lambda a: b * a, lambda a: a / 2,"
          " lambda a: a / b, lambda a: b / a, lambda a: a + b, lambda a: a.exp()]",
          "fwAD = torch.autograd.forward_ad",
          "def fw(f, p, tt):\n    with fwAD.dual_level():\n        y = f(fwAD.make_dual(p, tt))\n"
          "        pr, tg = fwAD.unpack_dual(y)\n        return [tree(pr.grad_fn), tree(tg.grad_fn), tg]",
          "def jv(f, p, tt):\n    o, j = torch.func.jvp(f, (p,), (tt,))\n    return [tree(o.grad_fn), tree(j.grad_fn), j]"],
         ["[fw(f, x, t) for f in fns]", "[fw(f, x.detach(), tr) for f in fns]",
          "[jv(f, x, t) for f in fns]", "[jv(f, x, tr) for f in fns]"]),
    # (left: torch.func.jvp of a function that closes over a tensor requiring grad, with primals that do not,
    # keeps that tensor's graph in PyTorch; agrad detaches its outputs then, as it must for jvp(grad(f)),
    # whose inner grad's own graph PyTorch's levels unwrap: the seeds' jacobians/hessians tutorial)
    case("retain-grad-stranded-by-inplace-view-op-then-inplace-asserts",  # (dt38-2 raises-only-torch:reciprocal_)
         # an in-place view op (squeeze_, t_, unsqueeze_, as_strided_) gives a tensor that retains grad its node
         # without moving the retain_grad hook (set_history); the next in-place op's rebase_history finds none on
         # the old node: PyTorch's INTERNAL ASSERT (the op has written the tensor)
         ["def run(f):\n    try:\n        return f()\n    except RuntimeError as e:\n        return str(e)",
          "def sq():\n    x1 = torch.tensor([-1.0, 2.25, -1.25, -2.0], requires_grad=True)\n"
          "    r4 = x1.expand(2, 4).log()\n    r4.retain_grad()\n    r5 = r4.squeeze_(-2)\n    r5.reciprocal_()",
          "def tt():\n    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)\n    r = x * 1\n"
          "    r.retain_grad()\n    r.t_()\n    r[0].mul_(2)\n    return r.grad_fn.name()",
          "def ok():\n    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)\n    r = x * 1\n"
          "    r.retain_grad()\n    r.t_()\n    r.t_()\n    r.sum().backward()\n    return r.grad",
          "def view():\n    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)\n    r = x * 1\n"
          "    v = r[0]\n    v.retain_grad()\n    r.mul_(2)\n    v.sum().backward()\n    return v.grad_fn.name(), v.grad"],
         ["run(sq)", "run(tt)", "run(ok)", "run(view)"]),
    case("zero-tensor-diagonal-stays-zero-through-diag-embed-backward",  # (dt38-2 grad-value:pow) a ZeroTensor's
         # diagonal is a ZeroTensor (a view): diag_embed's backward of sgn's zero gradient keeps it, so times
         # -inf it is 0, not NaN; diagonal's own backward (diagonal_backward: zeros, then a copy) is plain zeros
         ["def dd(f):\n    x1 = torch.tensor(2.5, dtype=torch.float64, requires_grad=True)\n"
          "    y = torch.tensor(float('-inf'), dtype=torch.float64, requires_grad=True)\n"
          "    g, = torch.autograd.grad(f(x1 * y).sum(), [x1], create_graph=True)\n"
          "    g.pow(2).sum().backward()\n    return x1.grad, y.grad"],
         ["dd(lambda r: r.diagflat().abs())", "dd(lambda r: r.view(1, 1).diagonal().abs())",
          "dd(lambda r: r.view(1).diag_embed().abs())", "dd(lambda r: torch.diag(r.view(1, 1)).abs())",
          "dd(lambda r: r.view(1, 1).diag_embed(dim1=0).abs())"]),
    case("forward-ad-formula-numbers-are-scalars",  # (forward AD of pow) a forward formula is C++: a Python number
         # in its arithmetic is a Scalar (pow_backward's exponent * self.pow(exponent - 1): MulBackward1)
         ["def tree(f):\n    if f is None:\n        return 'None'\n"
          "    return f.name() + '(' + ', '.join(tree(n) for n, _ in f.next_functions) + ')'",
          "fwAD = torch.autograd.forward_ad",
          "def fw(f, p, tt):\n    with fwAD.dual_level():\n        tg = fwAD.unpack_dual(f(fwAD.make_dual(p, tt))).tangent\n"
          "        return [tree(tg.grad_fn), tg]",
          "x = torch.tensor([1.0, 2.0], requires_grad=True)", "t = torch.tensor([0.5, 0.25])"],
         ["fw(lambda a: a ** 2, x, t)", "fw(lambda a: a ** 0.5, x, t)", "fw(lambda a: a ** 3, x.detach(), t.requires_grad_())",
          "torch.func.jvp(lambda a: a ** 2, (x,), (t,))[1].grad_fn.next_functions"]),
    case("addr-inplace-autograd-checks-before-the-vectors",  # (dt38-4 error-text:addr_) autograd's in-place checks
         # (a leaf that requires grad, a view of one) come before addr's own; the write's overlap check after them
         ["def run(f):\n    try:\n        f()\n        return 'ok'\n    except RuntimeError as e:\n        return str(e)",
          "x = torch.tensor([-0.75, -2.5, -3.0], dtype=torch.float16, requires_grad=True)",
          "m = torch.ones(4, 3, dtype=torch.float16)", "w = torch.ones(3, 3, requires_grad=True)",
          "e = torch.ones(1, 3).expand(2, 3)"],
         ["run(lambda: x.addr_(m.t(), torch.tensor([-2.75, -0.25, 0.5], dtype=torch.float64)))",
          "run(lambda: w[0:2].addr_(torch.ones(2, 2), torch.ones(3)))",
          "run(lambda: e.addr_(torch.ones(2, 2), torch.ones(3)))", "run(lambda: e.addr_(torch.ones(2), torch.ones(3)))"]),
    case("forward-ad-where-one-node",  # (forward AD of where) derivatives.yaml's where(condition, self_t, other_t):
         # one WhereBackward0, a missing tangent a zero tensor (plain zeros in the values)
         ["fwAD = torch.autograd.forward_ad", "x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)",
          "t = torch.tensor([0.5, -0.0, 2.0], requires_grad=True)",
          "def fw(f):\n    with fwAD.dual_level():\n        d = fwAD.make_dual(x, t)\n"
          "        tg = fwAD.unpack_dual(f(d)).tangent\n"
          "        return tg, tg.grad_fn.name(), [n is not None and n.name() for n, _ in tg.grad_fn.next_functions]"],
         ["fw(lambda d: torch.where(x > 0, d, 0.0))", "fw(lambda d: torch.where(x > 0, 1.0, d))",
          "fw(lambda d: torch.where(x > 0, d, d * 2))", "fw(lambda d: torch.where(x > 0, d, torch.tensor([[1.0], [2.0]])))"]),
    case("forward-ad-div-maximum-atan2-formulas-with-zero-tangents",  # (forward AD values and graphs) PyTorch's
         # formulas: div (self_t - other_t * result) / other_p, maximum/minimum other_t + where(self_p == other_p,
         # 0.5, self_p > other_p) * (self_t - other_t), atan2 (-self_p * other_t + other_p * self_t) /
         # (self_p^2 + other_p^2); a missing tangent a zero tensor (no NaN from 0 * inf, signs of zeros kept)
         ["fwAD = torch.autograd.forward_ad",
          "a = torch.tensor([1.0, 2.0, -0.0, 0.0, float('inf'), 3.0, float('nan'), -1.5], dtype=torch.float64)",
          "b = torch.tensor([1.0, -2.0, 0.0, -0.0, 2.0, float('inf'), 1.0, 2.5], dtype=torch.float64)",
          "ta = torch.tensor([0.5, -0.0, 2.0, -1.0, 0.25, 1.0, 3.0, -0.0], dtype=torch.float64)",
          "tb = torch.tensor([-0.0, 1.5, 0.0, 2.0, -3.0, 0.5, 1.0, 0.0], dtype=torch.float64)",
          "def fw(f, which):\n    with fwAD.dual_level():\n        x = fwAD.make_dual(a, ta) if 'a' in which else a\n"
          "        y = fwAD.make_dual(b, tb) if 'b' in which else b\n        t = fwAD.unpack_dual(f(x, y)).tangent\n"
          "        return [v.hex() if v == v else 'nan' for v in t.tolist()]",
          "def tree(f):\n    if f is None:\n        return 'None'\n"
          "    return f.name() + '(' + ', '.join(tree(n) for n, _ in f.next_functions) + ')'",
          "x = torch.tensor([1.0, 2.0], requires_grad=True)", "y = torch.tensor([3.0, 0.5], requires_grad=True)",
          "def g(f):\n    with fwAD.dual_level():\n"
          "        return tree(fwAD.unpack_dual(f(fwAD.make_dual(x, torch.tensor([0.5, 0.25])), y)).tangent.grad_fn)"],
         ["[fw(f, w) for f in (torch.maximum, torch.minimum, torch.atan2, torch.div) for w in ('a', 'b', 'ab')]",
          "[g(f) for f in (torch.maximum, torch.minimum, torch.atan2, torch.div, lambda p, q: q / p)]"]),
    case("pdist-backward-has-no-half",  # (dt38-6 raises-only-torch:grad) _pdist_backward's kernel dispatch has no
         # Half: a float16 pdist that ran (one row, no rows, no columns) cannot be differentiated
         ["def run(shape):\n    x = torch.ones(shape, dtype=torch.float16, requires_grad=True)\n    try:\n"
          "        r = torch.pdist(x)\n        return torch.autograd.grad(r.sum(), [x], create_graph=True)\n"
          "    except NotImplementedError as e:\n        return str(e)"],
         ["run((1, 4))", "run((0, 2))", "run((2, 0))", "run((3, 2))"]),
]
