"""Regression cases of session 37's groupsb37 work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    case("leaves-ready-together-run-in-the-ready-queue-order",  # std::priority_queue ties: libstdc++'s heap
         ["x = torch.tensor([[[[-2.0, -2.0, 2.0], [1.75, -0.5, 1.25], [3.0, -1.25, 0.25]]]], requires_grad=True)",
          "w = torch.tensor([[[[-0.5], [0.0], [-0.75]]]], requires_grad=True)",
          "b = torch.tensor([0.0], requires_grad=True)",
          "h = x.register_hook(lambda g: g * 2)",
          "gs = torch.autograd.grad(F.conv2d(x, w, b).sum(), [x], create_graph=True)",
          "def second():\n    try:\n        gs[0].pow(2).sum().backward()\n    except TypeError as e:\n"
          "        return str(e)",
          "err = second()",
          "out = []",
          "ls = [torch.tensor([float(i), 1.0], requires_grad=True) for i in range(12)]",
          "hs = [l.register_hook(lambda g, i=i: out.append(i)) for i, l in enumerate(ls)]",
          "s = sum(ls[i] * ls[i + 1] for i in range(0, 12, 2))",
          "tot = torch.cat(ls).sum().add(s.sum())",
          "tot.backward(retain_graph=True)",
          "o1 = list(out)",
          "out.clear()",
          "g2 = torch.autograd.grad(tot, ls[1::3] + ls[::4], retain_graph=True)",
          "o2 = list(out)",
          "out.clear()",
          "a = [torch.tensor([0.5, float(i), -1.0], requires_grad=True) for i in range(6)]",
          "ha = [t.register_hook(lambda g, i=i: out.append(i)) for i, t in enumerate(a)]",
          "m = torch.stack(a[:3]) @ torch.stack(a[3:]).t()",
          "p = m.exp() * a[0][:, None] + a[5].sin().sum()",
          "g3 = torch.autograd.grad(p.sum(), a, create_graph=True)",
          "o3 = list(out)"],
         ["err", "w.grad", "b.grad", "o1", "o2", "o3"]),
    case("setitem-of-a-view-writes-the-slice-with-copy-or-fill",  # copy_to on the slice: one CopySlices
         ["def walk(f, seen):\n    if f is not None and f not in seen:\n        seen.append(f)\n"
          "        for n, _ in f.next_functions:\n            walk(n, seen)",
          "def shape_of(f):\n    s = []\n    walk(f, s)\n    return [(n.name(), [None if m is None else s.index(m) "
          "for m, _ in n.next_functions]) for n in s]",
          "v = torch.tensor([3.0], requires_grad=True)",
          "def write(k):\n    x = torch.tensor([0.0, 2.0, 1.0], requires_grad=True)\n    r = x * 1\n"
          "    if k == 0:\n        r[1:][0] = 2.0\n    elif k == 1:\n        r[1:][0] = v[0]\n"
          "    elif k == 2:\n        r[::2][None] = 0.5\n    else:\n        r[:2][None, 1:] = v\n"
          "    g = torch.autograd.grad(r.exp().sum(), [x, v], create_graph=True, allow_unused=True)\n"
          "    return r, shape_of(r.grad_fn), g, [None if t is None else shape_of(t.grad_fn) for t in g]",
          "h = torch.tensor([0.0], dtype=torch.float16, requires_grad=True)",
          "r6 = h * 1",
          "r10 = r6[::2].contiguous()",
          "r10[None] = 0.5",
          "torch.special.ndtr(r6).sum().backward(create_graph=True)"],
         ["write(0)", "write(1)", "write(2)", "write(3)", "shape_of(h.grad.grad_fn)"]),
    case("vector-norm-2-in-the-kernels-order",  # is_reduce_lastdim after coalescing, else NormTwoOps in order
         ["x1 = torch.tensor([[[0.75, 1.25, -2.0, 1.5], [-1.5, 3.0, -0.5, -1.0], [0.75, 2.5, -1.75, 2.0]], "
          "[[1.0, -2.0, 1.0, -0.5], [2.0, -3.0, 0.0, 3.0], [0.0, -2.25, 2.5, 0.0]]], dtype=torch.float64, "
          "requires_grad=True)",
          "r5 = torch.linalg.matrix_norm(x1.deg2rad(), dtype=torch.float64)",
          "gs = torch.autograd.grad(r5.sum(), [x1], create_graph=True)",
          "gs[0].pow(2).sum().backward()",
          "g = torch.Generator().manual_seed(3)",
          "a = torch.randn(3, 5, 7, generator=g, dtype=torch.float64)",
          "b = torch.randn(2, 3, 1, 5, generator=g)",
          "c = torch.tensor([[5.0], [-1e200]], dtype=torch.float64)"],
         ["r5.tolist()", "x1.grad", "[v.hex() for v in torch.linalg.vector_norm(a, dim=(0, 2)).tolist()]",
          "[v.hex() for v in torch.linalg.vector_norm(a, dim=(1, 2)).tolist()]",
          "[v.hex() for v in torch.linalg.vector_norm(a.transpose(0, 2), dim=0).flatten().tolist()]",
          "[v.hex() for v in torch.linalg.vector_norm(a[..., ::2], dim=(0, 1), dtype=torch.float64).tolist()]",
          "torch.linalg.vector_norm(b, dim=(1, 3)).flatten().tolist()",
          "torch.linalg.vector_norm(b.half(), dim=(0, 1)).flatten().tolist()",
          "torch.linalg.vector_norm(c, dim=1)", "torch.linalg.vector_norm(c[1])", "torch.norm(c, dim=1)"]),
    case("ldexp-float-exponent-takes-mul-layout",  # at::mul(self, at::pow(2.0, other))'s own layout
         ["base = torch.arange(8.0).reshape(4, 2, 1) / 4",
          "def run(sv, k):\n    o = [base.permute(2, 0, 1), base.permute(2, 0, 1).transpose(1, 2), base.permute(2, 1, 0),"
          " torch.arange(8.0).reshape(2, 4).t()][k].detach().requires_grad_()\n"
          "    s = sv.clone().requires_grad_()\n    r = torch.ldexp(s, o)\n"
          "    g = torch.arange(float(r.numel())).reshape(r.shape)\n"
          "    gs = torch.autograd.grad(r, [s, o], g.transpose(0, -1).contiguous().transpose(0, -1))\n"
          "    return r.stride(), [x.stride() for x in gs], [x.tolist() for x in gs]"],
         ["run(torch.tensor(1.5), 0)", "run(torch.tensor([1.5, 2.0]), 1)", "run(torch.ones(1, 4, 2), 0)",
          "run(torch.tensor([[1.5], [2.0], [3.0], [4.0]]), 2)", "run(torch.tensor(1.5), 3)",
          "torch.ldexp(torch.tensor(1.5), base.permute(2, 0, 1).long()).stride()"]),
    case("sdpa-flash-short-rows-in-the-kernels-order",  # glibc exp, sum in order, gemm, times 1 / sum
         ["x5 = torch.tensor([[[[-3.0, float('-inf')], [-1.0, 0.75], [1.25, 0.75]], [[1.0, 1.75], [-0.25, 2.25], "
          "[-3.0, -0.5]]], [[[0.0, 0.0], [-1.25, 0.0], [0.5, -2.0]], [[-1.5, -1.75], [2.5, -1.25], [-0.75, 1.75]]]])",
          "x6 = torch.tensor([[[[0.0, 2.0], [0.25, 1.75], [3.0, 0.0]], [[-3.0, 3.0], [-0.75, -1.75], [1.0, 1.25]]], "
          "[[[0.0, float('-inf')], [2.25, 0.25], [2.75, 0.5]], [[1.5, -0.25], [3.0, 2.25], [2.0, 2.75]]]])",
          "x7 = torch.tensor([[[[-0.5, -0.5], [-0.5, 2.25], [0.0, -0.5]], [[0.75, -1.75], [2.0, -1.25], [0.75, -2.5]]], "
          "[[[2.75, -0.5], [2.5, 2.75], [3.0, 1.5]], [[2.25, -1.5], [-3.0, 2.5], [-2.0, 3.0]]]])",
          "g = torch.Generator().manual_seed(5)",
          "q, k, v = (torch.randn(2, 2, 4, 3, generator=g, dtype=d) for d in (torch.float32,) * 3)",
          "m = torch.randn(4, 4, generator=g)",
          "qd, kd, vd = (t.double() for t in (q, k, v))",
          "def hexes(t):\n    return [v.hex() for v in t.flatten().tolist()]"],
         ["hexes(F.scaled_dot_product_attention(x5, x6, x7))", "hexes(F.scaled_dot_product_attention(q, k, v))",
          "hexes(F.scaled_dot_product_attention(q, k, v, attn_mask=m))",
          "hexes(F.scaled_dot_product_attention(q, k, v, is_causal=True))",
          "hexes(F.scaled_dot_product_attention(qd, kd[..., :3, :], vd[..., :3, :]))",
          "hexes(F.scaled_dot_product_attention(qd, kd[..., :3, :], vd[..., :3, :], attn_mask=m[:, :3].double()))"]),
    case("sdpa-flash-one-key-block-exp-u20",  # exp_u20 over whole vectors, lanes folded, mask fused
         ["g = torch.Generator().manual_seed(9)",
          "q, k, v = (torch.randn(2, 1, n, 3, generator=g) for n in (5, 19, 19))",
          "m = torch.randn(5, 19, generator=g)",
          "mb = torch.rand(5, 19, generator=g) > 0.3",
          "def hexes(t):\n    return [v.hex() for v in t.flatten().tolist()]"],
         ["hexes(F.scaled_dot_product_attention(q, k, v))",
          "hexes(F.scaled_dot_product_attention(q, k, v, attn_mask=m))",
          "hexes(F.scaled_dot_product_attention(q, k, v, attn_mask=mb))",
          "hexes(F.scaled_dot_product_attention(q, k, v, is_causal=True))",
          "hexes(F.scaled_dot_product_attention(q[..., :2], k[..., :2], v[..., :2], scale=0.3))"]),
    case("one-gradient-two-leaves-the-last-takes-it",  # AccumulateGrad's use count: 2 while the other waits
         ["x1 = torch.tensor([-2.25, -1.25, 2.75, 0.0], requires_grad=True)",
          "o = torch.tensor([0.25, -0.75, 0.0, 0.5], requires_grad=True)",
          "g10 = torch.tensor([[3.0, -1.5, -3.0, 0.0], [1.0, 2.0, 3.0, -2.25]])",
          "torch.vstack([x1 + o, torch.tensor([-1.0, -0.75, -0.75, 3.0], requires_grad=True)]).backward(g10)",
          "x1.grad += 1",
          "o.grad += 10",
          "a = torch.tensor([1.0, 2.0], requires_grad=True)",
          "b = torch.tensor([3.0, 4.0], requires_grad=True)",
          "h = b.register_hook(lambda g: None)",
          "g = torch.tensor([[5.0, 6.0], [7.0, 8.0]])",
          "torch.stack([a + b, a * 1]).backward(g)",
          "a.grad += 1",
          "b.grad += 100"],
         ["g10", "x1.grad", "o.grad", "g", "a.grad", "b.grad"]),
    case("normal-through-a-strided-view-reads-the-views-layout",  # normal_'s vector path: the view's own
         ["torch.manual_seed(605)",
          "x = torch.zeros(3, 3, 4, requires_grad=True) * 1",
          "r = x[::2].normal_(std=0.5)",
          "torch.manual_seed(605)",
          "y = torch.zeros(3, 3, 4, requires_grad=True) * 1",
          "s = y[:, :, ::2].normal_()"],
         ["x", "y"]),
    case("pow-inplace-exponent-grad-in-the-promoted-dtype",  # pow_backward_exponent: self.to(result_type)
         ["x1 = torch.tensor([[[2.0, 2.25, -1.0, 3.0]]], dtype=torch.float64, requires_grad=True)",
          "v = torch.tensor([[[1.5, 0.25, 0.5, 2.0], [3.0, 1.1, 0.7, 0.3]]])",
          "r = v * 1",
          "r.pow_(x1)",
          "r.sum().backward()"],
         ["[t.hex() for t in x1.grad.flatten().tolist()]", "r.dtype"]),
    case("as-strided-backward-sums-stride-zero-dims",  # as_strided_backward: size 1 squeezed, stride 0 summed
         ["def walk(f, seen):\n    if f is not None and f not in seen:\n        seen.append(f)\n"
          "        for n, _ in f.next_functions:\n            walk(n, seen)",
          "def names(t):\n    s = []\n    walk(t.grad_fn, s)\n    return [n.name() for n in s]",
          "x1 = torch.tensor([-1.0, -2.0, 3.0, 0.75], dtype=torch.float64, requires_grad=True)",
          "def run(size, stride):\n    r = torch.as_strided(x1 * 1, size, stride)\n"
          "    g, = torch.autograd.grad((r * r).sum(), [x1], create_graph=True)\n    return g, names(g)"],
         ["run((2,), (0,))", "run((2, 1, 2), (0, 5, 1))", "run((2, 2, 2), (0, 2, 0))", "run((2, 1, 2), (1, 7, 1))",
          "run((2, 2), (1, 1))"]),
    case("nextafter-half-equal-returns-other",  # c10's Half nextafter: y when x == y (+0.0 for -0.0 -> 0.0)
         ["a = torch.tensor([-0.0, 0.0, 1.0, float('nan'), -0.0], dtype=torch.float16)",
          "b = torch.tensor([0.0, -0.0, 1.0, 1.0, -0.0], dtype=torch.float16)",
          "c = a.clone()",
          "d = c.nextafter_(b)"],
         ["torch.nextafter(a, b)", "c", "torch.nextafter(a.float(), b.float())"]),
    case("rrelu-backward-layout",  # leaky_relu_backward(grad, self): self first; training: noise * grad (C)
         ["x2 = torch.tensor([[-0.0, 0.75, -2.0], [-0.75, 0.25, 1.25], [1.25, 2.5, -0.5]], requires_grad=True)",
          "def run(train, t):\n    torch.manual_seed(3)\n    r = F.rrelu(x2.t().to(t), upper=0.25, training=train)\n"
          "    r = r / torch.tensor([[-0.25, -0.75, -0.25], [-1.75, 2.0, 1.0], [2.5, 0.25, 0.25]], dtype=t)\n"
          "    g, = torch.autograd.grad(r.sum(), [x2], create_graph=True)\n    return g.stride(), g",
          "x = torch.arange(24.0).reshape(4, 3, 2).sub(11.5).permute(2, 0, 1).detach().requires_grad_()",
          "def perm(train):\n    torch.manual_seed(4)\n    r = F.rrelu(x, training=train)\n"
          "    g, = torch.autograd.grad(r, [x], torch.ones(2, 4, 3), create_graph=True)\n    return r.stride(), g.stride()"],
         ["run(False, torch.float32)", "run(True, torch.float32)", "run(False, torch.float16)",
          "run(False, torch.float64)", "perm(False)", "perm(True)"]),
    case("inplace-on-view-saved-result-error-names-its-node",  # CopySlices' release drops its op's edges
         ["x3 = torch.tensor([[[2.0, 1.0], [0.75, -0.25]], [[0.25, 1.0], [0.75, 1.25]]], dtype=torch.float64)"
          ".requires_grad_()",
          "r4 = torch.adaptive_avg_pool1d(x3, (2,))",
          "r5 = F.celu(r4, inplace=True)",
          "r4[[0, 0]] = 2.0",
          "def attempt(f):\n    try:\n        f()\n    except RuntimeError as e:\n        return str(e)",
          "e1 = attempt(lambda: r4.backward(gradient=torch.ones(2, 2, 2, dtype=torch.float64)))",
          "y = torch.tensor([1.0, -2.0, 3.0], requires_grad=True) * 1",
          "v = y[1:]",
          "w = v.relu_()",
          "v[0] = 5.0",
          "e2 = attempt(lambda: y.sum().backward())"],
         ["e1", "e2"]),
]
