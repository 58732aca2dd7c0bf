"""Regression cases of issue 10's backward groups fixed by helper "autograd" (session 29; tools/exact_cases.py
adds them): logit_backward's kernel, gelu_backward's float32 steps, vector_norm's double backward graph,
saved tensors freed after a backward, matrix_exp's backward; and of helper "order" (session 29): the order
in which double-backward graphs are recorded (tools/graph_order.py), seen as the order their nodes run.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``;
``graph`` is exact_cases.GRAPH, the statement that defines ``graph(fn)``.
"""

from __future__ import annotations

from exact_case_form import GRAPH, case


CASES = [
    case("logit-backward-kernel",  # dt20k-28b grad-value:backward (eps < 0: NaN outside [0, 1])
         ["v = [0.75, -0.25, 2.0, -2.5, -3.0, 4.0, 0.0, -0.0, 1.0, float('nan'), float('inf'), float('-inf'),"
          " 0.5, 1e-9, 0.999, 0.25]",
          "x = torch.tensor(v, requires_grad=True)", "g = torch.tensor([(i * 7) % 5 - 2.0 for i in range(16)])",
          "xd = torch.tensor(v, dtype=torch.float64, requires_grad=True)", "gd = g.double()",
          "x3 = torch.tensor(v[:12], requires_grad=True)", "g3 = g[:12]",
          "xh = torch.tensor(v * 3, dtype=torch.float16, requires_grad=True)", "gh = torch.cat([g, g, g]).half()",
          "def lg(x, g, eps, cg=False):\n    return torch.autograd.grad(torch.logit(x, eps=eps), x, g, create_graph=cg)[0]"],
         [*(f"lg({x}, {g}, {eps})" for x, g in (("x", "g"), ("xd", "gd"), ("x3", "g3"))
            for eps in (None, -2.0, -1e-9, 0.0, 0.1)),
          "lg(x, g[:1].expand(16), None)", "lg(x3, g3[:1].expand(12), 0.0)",
          "lg(xh, gh, -0.5)", "lg(xh, gh, 0.0)", "lg(x3, g3, -2.0, True)", "lg(x3, g3, 0.1, True)",
          "torch.logit(x, eps=-1e-9)", "torch.logit(xh, eps=-1e-9)", "torch.logit(x3, eps=-2.0)",
          "torch.signbit(lg(x, g, 0.0))", "torch.signbit(lg(x3, g3, None))"]),
    case("logit-backward-zerotensor",  # dt20k-29 (triage2): sgn's ZeroTensor gradient reaches the kernel as zeros
         ["x = torch.tensor([0.25, float('nan'), 1.5, 0.0, 1.0, -0.5], requires_grad=True)",
          "def zg(eps):\n    return torch.autograd.grad(torch.sgn(torch.logit(x, eps=eps)), x, torch.ones(6))[0]"],
         ["zg(None)", "zg(0.1)", "zg(-1.0)", "torch.signbit(zg(None))"]),
    case("dt20k-29b-lead",  # the end run of session 29: internal errors and a float16 kernel
         ["x0 = torch.tensor(-1.0, dtype=torch.float64, requires_grad=True)", "ls = F.logsigmoid(x0)",
          "ls.backward()",
          "xu = torch.tensor([[[2.75, 1.0, -2.0]]], requires_grad=True)", "u = F.unfold(xu, 1)",
          "with torch.no_grad():\n    u[0].abs_()\n    u[:, 1].neg_()",
          "r6 = torch.full((3, 4, 2), 0.5).expm1()", "r7 = F.unfold(r6, 1)", "r6[:, 0].zero_()",
          "r4 = torch.tensor([float('-inf'), 1.5, -3.0]).addr(torch.tensor([-1.5, 0.0, 1.5]),"
          " torch.tensor([1.25, -1.25, -0.75]), beta=-0.0)",
          "with torch.no_grad():\n    r4.diagonal().neg_()",
          "xh = torch.tensor([-3.0, -0.5, 0.75, 2.25, 5.0], dtype=torch.float16, requires_grad=True)",
          "gh, = torch.autograd.grad(xh.tanh(), xh, torch.tensor([1.0, -0.75, 2.0, 0.5, 1.5], dtype=torch.float16),"
          " create_graph=True)",
          "def err(f):\n    try:\n        f()\n    except (RuntimeError, IndexError) as e:\n        return str(e)",
          "def si():\n    v = torch.tensor([[-0.75, -1.5, 2.0], [2.25, -1.25, -3.0], [-0.5, 0.25, 2.0]])[::2]\n"
          "    v[v > 0] = v"],
         ["ls", "x0.grad", "xu", "u", "r7", "r4", "gh", "gh.tolist()", "gh.grad_fn",
          "torch.renorm(torch.tensor([[1.5, -3.0], [2.0, 2.75]]).t(), 1.0, -2, 2.0).stride()",
          "err(lambda: torch.amax(torch.zeros(2, 0, dtype=torch.int64), -1))",
          "err(lambda: torch.amin(torch.zeros(2, 0), (-1, 0)))",
          "torch.rrelu(torch.tensor([-2.25, 0.75]), lower=-0.0, upper=-0.0, training=True)",
          "err(lambda: F.max_pool1d(torch.zeros(4, 1), 2))", "err(lambda: F.lp_pool1d(torch.zeros(4, 1), float('inf'), 2))",
          "err(lambda: F.max_pool1d(torch.zeros(4, 1, requires_grad=True), 2, return_indices=True))",
          "torch.ones(1, 1, dtype=torch.bool).ldexp(torch.ones(2, 1, dtype=torch.int64))",
          "torch.ones(1, 1, dtype=torch.int64).ldexp(torch.ones(2, 1, dtype=torch.bool))",
          "err(si)",
          "[err(lambda: F.unfold(torch.zeros(s, requires_grad=r), 2)) for s in ((2,), ()) for r in (False, True)]",
          "err(lambda: F.max_pool1d_with_indices(torch.zeros(3), 1))",
          "err(lambda: F.max_pool1d(torch.zeros(1, 1, 1, 3), 1, return_indices=True))",
          "err(lambda: F.max_pool1d(torch.zeros(3), 1))"]),
    case("second-backward-through-saved-self",  # dt20k-28b raises-only-torch:backward (AngleBackward0 saves self)
         ["x = torch.tensor([[[1.75, 0.75]], [[-1.25, -0.75]], [[1.25, float('nan')]]], requires_grad=True)",
          "r = torch.angle(x)", "g = torch.ones(3, 1, 2)", "r.backward(gradient=g)", "r.sum().backward()",
          "y = torch.tensor([[1.0, 2.0], [3.0, -4.0]], requires_grad=True)", "t = y.t()",
          "ga, = torch.autograd.grad(t.angle(), t, torch.ones(2, 2))",
          "s, l = torch.linalg.slogdet(y)", "gs = torch.autograd.grad(s.sum(), y, allow_unused=True)",
          "torch.autograd.grad(s.sum(), y, allow_unused=True)"],
         ["x.grad", "r.grad_fn._saved_self", "ga", "ga.stride()", "gs"]),
    case("vector-norm-backward-graph",  # dt20k-28b grad_fn:backward (norm p=NaN, dtype=float64)
         [GRAPH, "x1 = torch.tensor(0.0, requires_grad=True)",
          "r3 = x1.norm(float('nan'), dim=-1, keepdim=True, dtype=torch.float64)",
          "torch.square(r3).sum().backward(create_graph=True)",
          "x = torch.tensor([[0.0, -1.5, 2.0], [0.5, 0.0, 0.0]], requires_grad=True)",
          "def ng(p, **kw):\n    g, = torch.autograd.grad(torch.square(torch.linalg.vector_norm(x, p, dim=-1, **kw)).sum(), x,"
          " create_graph=True)\n    return g, torch.autograd.grad(g.sum(), x, allow_unused=True)[0]",
          "gs = [ng(p, **kw) for p in (float('nan'), float('inf'), -1.0, 0.5, 1.5, 3.0)"
          " for kw in ({}, {'dtype': torch.float64, 'keepdim': True})]"],
         ["graph(x1.grad.grad_fn)", "x1.grad", *(f"graph(gs[{i}][0].grad_fn)" for i in range(12)),
          *(f"gs[{i}][1]" for i in range(12)), "[torch.signbit(g[1]) for g in gs]"]),
    case("gelu-backward-aten-kernel-float32",  # dt20k-28b grad-numeric:backward (ATen's path; contiguous: oneDNN)
         ["v = [[-2.75, 2.25, 0.25, -3.0, 5.5, -0.5, 1.0, 0.84375, 1.6435403, -3.15909, -0.3771567, 3.6550689,"
          " 1.1535972, -5.9, 6.5, 1e-30, -1e-20], [0.125, -1.25, 4.0, -4.5, 2.0, -2.0, 0.0, -0.0, float('inf'),"
          " float('-inf'), float('nan'), 0.7, -0.7, 1.3, -1.3, 2.8, -2.9]]",
          "b = torch.tensor(v, requires_grad=True)", "g = torch.tensor(v).mul(0.75).add(0.5).nan_to_num(1.0)",
          "g1, = torch.autograd.grad(F.gelu(b.t()).sum(), b)",
          "g2, = torch.autograd.grad(F.gelu(b.t()), b, g.t())",
          "g3, = torch.autograd.grad(F.gelu(b[:, ::2]).sum(), b)",
          "g4 = [torch.autograd.grad(F.gelu(b[0, i]), b)[0][0, i] for i in range(17)]",
          "x1 = torch.tensor([-2.75, 2.25, 0.25], requires_grad=True)", "r4 = x1 * 1", "r4[1:] = 1.0",
          "F.gelu(r4[::2]).sum().backward(create_graph=True)"],
         ["g1", "g2", "g3", "g4", "x1.grad", "x1.grad.grad_fn"]),
    case("double-backward-last-input-first",  # PyTorch's nodes make the input gradients' steps by input name
         ["x = torch.tensor([[0.7, -1.3, 2.1, 0.05], [-0.4, 0.9, -2.6, 1.7], [1.1, -0.2, 0.3, -1.9]], requires_grad=True)",
          "y = torch.tensor([[0.3, 1.6, -0.8, 0.2], [1.4, -0.6, 0.5, -1.1], [-0.9, 2.2, 0.15, 0.8]], requires_grad=True)",
          "p = torch.tensor([[0.2, 0.1, 0.4, 0.3], [0.25, 0.25, 0.3, 0.2], [0.6, 0.1, 0.1, 0.2]], requires_grad=True)",
          "w = torch.tensor([[1.5, -0.5, 2.0, 0.75], [-1.25, 0.5, 1.0, -2.0], [0.25, 1.75, -0.75, 1.25]])",
          "def h2(f, *xs):\n    gs = torch.autograd.grad((f(*xs) * w[:f(*xs).shape[0]] if f(*xs).dim() == 2 else f(*xs) * w[0, :f(*xs).shape[-1]]"
          ").sum(), xs, create_graph=True)\n    return [g.tolist() for g in torch.autograd.grad(sum((g * g).sum() for g in gs), xs)]"],
         ["h2(F.softsign, x)", "h2(F.normalize, x)", "h2(lambda a: F.normalize(a, dim=0), x)",
          "h2(lambda a, b: F.kl_div(a, b, reduction='none'), x, p)", "h2(lambda a, b: F.cosine_similarity(a, b), x, y)",
          "h2(lambda a, b: a / b, x, y)", "h2(lambda a, b: a * b.exp(), x, y)", "h2(torch.hypot, x, y)",
          "h2(lambda a, b: torch.lerp(a, b, p), x, y)", "h2(torch.atan2, x, y)",
          "h2(lambda a, b: a.abs() ** 3.0 * b, x, y)", "h2(lambda a, b: torch.xlogy(a, b.abs()), x, y)",
          "h2(torch.sinc, x)", "h2(lambda a, b: torch.addcdiv(a, a, b, value=0.5), x, y)",
          "h2(lambda a, b: torch.special.xlog1py(a, b.abs()), x, y)", "h2(lambda a: a.std(1, keepdim=True), x)",
          "h2(lambda a: a.var(0), x)", "h2(F.silu, x)", "h2(F.mish, x)", "h2(lambda a: a @ a.t(), x)",
          "h2(lambda a, b: torch.cov(a * b), x, y)", "h2(lambda a: torch.linalg.inv(a[:, :3]), x)"]),
    case("det-1x1-gradient",  # linalg_det_backward of a 1x1 matrix: the gradient expanded, no solve
         ["a = torch.tensor([[[2.5]], [[0.0]], [[3.0]], [[-7.1]], [[float('inf')]], [[float('nan')]]], requires_grad=True)",
          "w = torch.tensor([3.0, -2.0, 0.1, 1.3, 1.0, 1.0], requires_grad=True)",
          "g1, = torch.autograd.grad((torch.det(a) * w.detach()).sum(), a)",
          "g2, = torch.autograd.grad((torch.det(a.double()) * w.detach().double()).sum(), a)",
          "g3, = torch.autograd.grad((torch.det(a) * w.detach()).sum(), a, create_graph=True)",
          "g4, = torch.autograd.grad((torch.det(a) * w).sum(), a, create_graph=True)",
          "g5, = torch.autograd.grad(torch.linalg.det(a[0]), a, create_graph=True)"],
         ["g1", "g1.flatten().tolist()", "g2", "g3", "g3.requires_grad", "g4", "g4.grad_fn", "g4.grad_fn.next_functions",
          "torch.autograd.grad(g4.sum(), w)", "g5"]),
    case("double-backward-run-order",  # tools/graph_order.py: NotImplemented unnumbered, renorm_backward's operands
         ["def runs(out, *xs):\n    seen, todo, log = [], [out.grad_fn], []\n    while todo:\n        f = todo.pop(0)\n"
          "        if f is None or any(f is s for s in seen):\n            continue\n        seen.append(f)\n"
          "        f.register_prehook(lambda g, f=f: log.append((f.name(),"
          " [n and n.name() for n, _ in f.next_functions])))\n"
          "        todo.extend(n for n, _ in f.next_functions)\n    try:\n"
          "        r = torch.autograd.grad(out, xs, allow_unused=True)\n    except RuntimeError as e:\n"
          "        r = str(e)\n    return log, r",
          "a = torch.tensor([[0.5, -1.25, 2.0], [3.5, -0.75, 0.25]], requires_grad=True)",
          "g1, = torch.autograd.grad((a.sin() + F.hardsigmoid(a)).sum(), a, create_graph=True)",
          "g2, = torch.autograd.grad((F.hardsigmoid(a * 0.75) + (a * 2).exp()).sum(), a, create_graph=True)",
          "g3, = torch.autograd.grad(torch.renorm(a, 2, 0, 1.5).pow(2).sum(), a, create_graph=True)",
          "g4, = torch.autograd.grad(torch.renorm(a.double(), 1, 1, 0.5).sum(), a, create_graph=True)",
          "b = torch.tensor([[1.5, 0.25, -0.5], [0.75, 2.0, -1.0], [-0.25, 0.5, 1.25]], requires_grad=True)",
          "gc = torch.autograd.grad(torch.cdist(a, b, compute_mode='use_mm_for_euclid_dist').sum(), (a, b),"
          " create_graph=True)",
          "gb = torch.autograd.grad(torch.bmm(a.unsqueeze(0), b.unsqueeze(0)).pow(2).sum(), (a, b), create_graph=True)",
          "m = torch.tensor([[[1.0, 2.0], [2.0, 4.0]], [[0.5, -1.0], [1.5, 2.0]]], requires_grad=True)",
          "gd, = torch.autograd.grad(torch.det(m).sum(), m, create_graph=True)",
          "xn = torch.tensor([[[0.5, -1.0, 2.0], [1.5, 0.25, -0.75], [3.0, -2.0, 0.5], [1.0, 1.0, -1.5]],"
          " [[-0.5, 2.5, 1.0], [0.75, -1.25, 0.0], [2.0, 0.5, -3.0], [-1.0, 1.5, 0.25]]], requires_grad=True)",
          "wn = torch.tensor([1.5, -0.5, 2.0, 0.75], requires_grad=True)",
          "bn = torch.tensor([0.25, 1.0, -0.5, 0.0], requires_grad=True)",
          "gg = torch.autograd.grad(F.group_norm(xn, 2, wn, bn).pow(2).sum(), (xn, wn), create_graph=True)",
          "gi = torch.autograd.grad(F.instance_norm(xn, weight=wn, bias=bn).pow(2).sum(), (xn, wn), create_graph=True)",
          "def lus(**kw):\n    LU, piv = torch.linalg.lu_factor(b)\n"
          "    g, = torch.autograd.grad(torch.linalg.lu_solve(LU, piv, b.t(), **kw).pow(2).sum(), b, create_graph=True)\n"
          "    return runs(g.pow(2).sum(), b)[0]",
          "def pv(t):\n    g, = torch.autograd.grad(torch.linalg.pinv(t).pow(2).sum(), a, create_graph=True)\n"
          "    return runs(g.pow(2).sum(), a)[0]",
          "def sv(t, f):\n    g, = torch.autograd.grad(f(torch.linalg.svd(t, full_matrices=False)), a, create_graph=True)\n"
          "    return runs(g.pow(2).sum(), a)[0]",
          "def eh(f):\n    g, = torch.autograd.grad(f(torch.linalg.eigh(b + b.t())), b, create_graph=True)\n"
          "    return runs(g.pow(2).sum(), b)[0]",
          "def ad(**kw):\n    g = torch.autograd.grad(torch.addr(b, a[0], a[1], **kw).pow(2).sum(), (b, a), create_graph=True)\n"
          "    return runs(g[0].sum() + g[1].sum(), a, b)[0]"],
         ["runs(g1.sum(), a)", "runs(g2.sum(), a)", "runs(g3.sum(), a)", "runs((g4 * g4).sum(), a)",
          "runs((gc[0] * gc[0]).sum() + (gc[1] * gc[1]).sum(), a, b)",
          "runs((gb[0] * gb[0]).sum() + (gb[1] * gb[1]).sum(), a, b)", "runs((gd * gd).sum(), m)[0]",
          "runs(gg[0].pow(2).sum() + gg[1].pow(2).sum(), xn, wn)[0]",
          "runs(gi[0].pow(2).sum() + gi[1].pow(2).sum(), xn, wn)[0]", "lus()", "lus(adjoint=True)",
          "lus(left=False)", "lus(left=False, adjoint=True)", "pv(a)", "pv(a.t())",
          "sv(a.t(), lambda r: r.U.pow(2).sum())", "sv(a, lambda r: r.Vh.pow(2).sum())",
          "sv(a, lambda r: (r.U.pow(2).sum() + r.Vh.pow(2).sum() + r.S.sum()))",
          "eh(lambda r: r.eigenvalues.pow(2).sum())", "eh(lambda r: r.eigenvectors.pow(2).sum())",
          "ad()", "ad(alpha=2.5, beta=-0.5)", "ad(alpha=1.0, beta=1.0)"]),
]
