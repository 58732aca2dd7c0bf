"""Regression cases of issue 10's linear algebra groups (helper "linalg"; tools/exact_cases.py adds them).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``;
``graph`` is exact_cases.GRAPH, the statement that defines ``graph(fn)``.
"""

from __future__ import annotations

from exact_case_form import GRAPH, case


CASES = [
    case("linalg-empty-any-dtype",
         [GRAPH, "h = torch.zeros(0, 0, dtype=torch.float16, requires_grad=True)"],
         ["torch.linalg.eigh(torch.eye(0, dtype=torch.bool))", "torch.linalg.eigvalsh(torch.zeros(3, 0, 0, dtype=torch.long))",
          "torch.linalg.eigh(torch.zeros(0, 2, 2, dtype=torch.int32), UPLO='U')", "torch.linalg.eigh(h)",
          "graph(torch.linalg.eigh(h)[1].grad_fn)", "torch.linalg.svd(h)", "torch.linalg.svdvals(h)",
          "torch.linalg.cholesky(h)", "graph(torch.linalg.svd(h)[0].grad_fn)",
          "torch.linalg.eigh(torch.ones(2, 2, dtype=torch.long))", "torch.linalg.eigh(torch.zeros(0, 0, dtype=torch.bool), UPLO='X')"]),
    case("solve-triangular-checks-and-values",
         ["S = torch.linalg.solve_triangular", "e = torch.eye(2)", "o = torch.ones(2, 2)", "n, i = float('nan'), float('inf')"],
         ["S(e)", "S()", "S(e, upper=True)", "S(B=e, upper=True)", "S(input=e, B=e, upper=True)", "S(e, e, 1, 2)",
          "S(e, e, upper=True, unitriangular=1.0)", "S(e, e, upper=True, out=1)", "S(e, e, upper=True, input=e)",
          "S(e, e, upper=torch.tensor(True))", "S(e, e, upper=False, left=torch.tensor(1))", "S(e, None, upper=True)",
          "S(e, [1.], upper=True)", "S(e, e, foo=1)", "S(e, torch.ones(2, 1))", "S(e, torch.ones(2, 1), upper=True, left=False)",
          "S(e, torch.ones(2), upper=True)", "S(torch.ones(2), o, upper=True)", "S(torch.ones(2, 3), o, upper=True)",
          "S(e, torch.ones(3, 2), upper=True)", "S(e, torch.ones(2, 3), upper=True, left=False)", "S(e.double(), o, upper=True)",
          "S(e.long(), o.long(), upper=True)", "S(e.half(), o.half(), upper=True)", "S(e.bool(), o.bool(), upper=True)",
          "S(torch.zeros(0, 0).half(), torch.ones(0, 2).half(), upper=True)", "S(torch.zeros(0, 0), torch.ones(0, 2), upper=True)",
          "S(e, o.double(), upper=False)", "S(e.double(), o.half(), upper=False)", "S(e.long(), o, upper=False)",
          "S(e.expand(3, 2, 2), o, upper=True)", "S(e.expand(3, 2, 2), torch.ones(4, 2, 2), upper=True)",
          "S(e.expand(3, 2, 2), torch.ones(1, 3, 2, 1), upper=False)", "S(torch.zeros(2, 2), o, upper=True)",
          "S(torch.tensor([[0., 1.], [0., 2.]]), o, upper=True)", "S(torch.zeros(2, 2), o, upper=True, unitriangular=True)",
          "S(torch.tensor([[2., n], [1., 4.]]), o, upper=False)", "S(torch.tensor([[2., 1.], [i, 4.]]), torch.ones(2, 1), upper=False)",
          "S(torch.tensor([[2., 0.], [i, 4.]]), torch.tensor([[0.], [1.]]), upper=False)",
          "S(torch.tensor([[2., 0.], [i, 4.]]), torch.tensor([[0., 1.], [1., 1.]]), upper=False, left=False)",
          "S(torch.tensor([[2., 1.], [3., 4.]]), torch.tensor([[i], [1.]]), upper=False)",
          "S(torch.tensor([[2., 1.], [3., 4.]]), torch.tensor([[1., 2.], [3., 4.]]), upper=True, left=False)",
          "S(torch.tensor([[2., 1.], [3., 4.]]), o, upper=1)", "S(1, o, upper=True)", "S(e, 2, upper=True)", "S(e, o, True)",
          "S(e, o, upper=True, out=torch.zeros(2, 2))", "S(e, o, upper=None)", "S(A=e, B=o, upper=True)",
          "S(e, o, upper=True, left=None)", "S(e[None], torch.ones(2), upper=True)"]),
    case("solve-triangular-backward",
         [GRAPH, "a = torch.tensor([[2.0, 0.5, 1.0], [0.25, 3.0, -1.0], [1.5, -0.75, 1.5]], dtype=torch.float64)",
          "b = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.25]])",
          "def st(dt, **kw):\n    A = a.to(dt).requires_grad_()\n    B = (b.mT if kw.get('left') is False else b).clone().requires_grad_()\n"
          "    X = torch.linalg.solve_triangular(A, B, **kw)\n"
          "    gA, gB = torch.autograd.grad((X * X).sum(), [A, B], create_graph=True)\n"
          "    (gA.sum() + (gB * gB).sum()).backward()\n"
          "    return X, gA, gB, A.grad, B.grad, graph(gA.grad_fn), graph(gB.grad_fn)"],
         ["st(torch.float64, upper=False)", "st(torch.float32, upper=True, unitriangular=True)",
          "st(torch.float64, upper=True, left=False)", "st(torch.float32, upper=False, left=False, unitriangular=True)",
          "torch.autograd.grad(torch.linalg.solve_triangular(a.requires_grad_(), b.double().expand(2, 3, 2), upper=True).sum(), a)",
          "graph(torch.linalg.solve_triangular(a.detach(), b.requires_grad_(), upper=True).grad_fn)"]),
    case("qr-cholesky-backward-through-solve-triangular",
         [GRAPH, "a = torch.tensor([[2.0, 0.5, 1.0], [0.25, 3.0, -1.0], [1.5, -0.75, 1.5]], dtype=torch.float64)",
          "s = torch.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]], dtype=torch.float64)",
          "def qg(rows, cols, which):\n    A = a[:rows, :cols].clone().requires_grad_()\n    Q, R = torch.linalg.qr(A)\n"
          "    f = {'QR': (Q * Q * 0.5).sum() + (R * R * R).sum(), 'R': (R * R * R).sum(), 'Q': (Q * Q * Q).sum()}[which]\n"
          "    g, = torch.autograd.grad(f, [A], create_graph=True)\n    g.sum().backward()\n"
          "    return (graph(g.grad_fn),) + ((g, A.grad) if which != 'Q' else ())",  # (Q alone: a gradient of rounding noise)
          "def cg(upper, legacy):\n    S = s.clone().requires_grad_()\n"
          "    L = torch.cholesky(S, upper=upper) if legacy else torch.linalg.cholesky(S, upper=upper)\n"
          "    g, = torch.autograd.grad((L * L * L).sum(), [S], create_graph=True)\n    g.sum().backward()\n"
          "    return graph(g.grad_fn), g, S.grad"],
         [f"qg({r}, {c}, {w!r})" for r, c in ((3, 3), (3, 2), (2, 3)) for w in ("QR", "R", "Q")]
         + [f"cg({u}, {lg})" for u in (False, True) for lg in (False, True)]
         + ["torch.linalg.qr(a.requires_grad_()).Q.grad_fn._saved_Q.shape",
            "torch.linalg.qr(a.requires_grad_()).R.grad_fn._saved_R.shape"]),
    case("qr-float32-householder-rounding",
         ["o = torch.ones(3, 4)", "r1 = torch.tensor([[1.0], [3.0], [-2.0], [0.5]]) * torch.tensor([[0.75, -1.0, 2.0]])",
          "rep = torch.tensor([[2.75, -2.0, 0.0], [-2.75, -0.5, 2.75], [2.75, -2.0, 0.0]])",
          "g = torch.tensor([[-2.5, 2.25, -3.0, 0.25, -2.5], [0.0, -0.5, -0.5, -3.0, -3.0], [-3.0, 1.0, 0.25, 1.0, -1.5],"
          " [-2.5, 2.25, -3.0, 0.25, -2.5]])"],
         ["[t.tolist() for t in torch.qr(o)]", "[t.tolist() for t in torch.linalg.qr(-o.mT, mode='complete')]",
          "[t.tolist() for t in torch.linalg.qr(r1)]", "[t.tolist() for t in torch.linalg.qr(r1.mT)]",
          "[t.tolist() for t in torch.linalg.qr(rep)]", "[t.tolist() for t in torch.linalg.qr(g)]",
          "[t.tolist() for t in torch.linalg.qr(torch.tensor([[2.25], [0.75]]))]", "torch.linalg.qr(g.mT, mode='r').R.tolist()"]),
    case("solve-lu-steps-as-mkl",
         ["a = torch.tensor([[-0.5, 0.75, 1.75, 0.0], [1.75, -1.75, 1.75, -2.75], [2.25, -0.5, 1.25, 0.0], [1.0, 2.0, -2.75, 1.5]],"
          " dtype=torch.float64)",
          "z = torch.tensor([[-1.0, 0.0, -0.0], [-1.0, -1.0, -2.0], [1.0, -1.0, 0.0]])",
          "zb = torch.tensor([[2.5, 0.25, -0.0], [-0.5, 2.0, 2.25], [2.0, 2.25, 0.0]])",
          "c = torch.tensor([[1.0, -2.0, 0.25], [-2.75, 1.75, -2.5], [1.25, 1.75, -0.25]], dtype=torch.float64)"],
         ["torch.linalg.solve(a, a).tolist()", "torch.linalg.solve(a.mT, torch.ones(4, 4, dtype=torch.float64)).tolist()",
          "torch.linalg.solve(a, torch.ones(4, dtype=torch.float64)).tolist()", "torch.linalg.solve(z, zb).tolist()",
          "torch.linalg.solve(z, zb, left=False).tolist()", "torch.linalg.solve(c, c.mT).tolist()",
          "torch.linalg.solve(c.float(), c.float()[:, :1]).tolist()", "torch.linalg.lu_factor(c).LU.tolist()",
          "torch.linalg.lu_factor(a).LU.tolist()"]),
    case("cholesky-nonfinite-steps",
         ["n, i = float('nan'), float('inf')",
          "def ch(m, upper=False, dt=torch.float32, legacy=False):\n    x = torch.tensor(m, dtype=dt)\n"
          "    return (torch.cholesky(x, upper=upper) if legacy else torch.linalg.cholesky(x, upper=upper)).tolist()"],
         ["ch([[n, 1.], [1., 2.]])", "ch([[2., n], [n, 2.]], True)", "ch([[2., 1.], [n, 2.]])", "ch([[2., 1.], [n, 2.]], True)",
          "ch([[2., n], [1., 2.]])", "ch([[2., n], [1., 2.]], True, legacy=True)", "ch([[4., 1., 0.], [1., n, 0.], [0., 0., 1.]])",
          "ch([[4., 1., 0.], [1., 3., 0.], [n, 0., 1.]], True)", "ch([[i, 1.], [1., 2.]])", "ch([[i, 1.], [1., 2.]], dt=torch.float64)",
          "ch([[2., 1.], [1., i]])", "ch([[4., 1., 0.], [1., i, 0.], [0., 0., 1.]])",
          "ch([[4., 1., 0.], [1., i, 0.], [0., 0., 1.]], dt=torch.float64)", "ch([[4., 1., 0.], [1., 3., 0.], [-i, 0., 1.]])",
          "ch([[[1., 0.], [0., 1.]], [[n, 0.], [0., 1.]]], legacy=True)", "ch([[-1., 0.], [0., n]])",
          "ch([[[[1.25, -1.5], [-2.75, -3.0]], [[n, 1.75], [n, 0.5]]]], legacy=True)"]),
    case("linalg-result-layout",  # LAPACK's column-major results: is_contiguous, view, randn_like's draws, graphs
         [GRAPH, "a = torch.tensor([[2.0, 0.5, 1.0], [0.25, 3.0, -1.0], [1.5, -0.75, 1.5]], dtype=torch.float64)",
          "s = a @ a.mT + torch.eye(3, dtype=torch.float64)", "b4 = torch.stack([a, a.mT, a * 2, s])",
          "def lay(t):\n    torch.manual_seed(0)\n"
          "    return tuple(t.shape), t.is_contiguous(), t.mT.is_contiguous(), torch.randn_like(t).tolist()",
          "x4 = b4.clone().requires_grad_()"],
         ["lay(torch.inverse(b4))", "lay(torch.linalg.inv(a))", "lay(torch.linalg.solve(b4, b4[0]))",
          "lay(torch.linalg.solve(b4, b4[:, 0]))", "lay(torch.linalg.solve(a, a[0]))", "lay(torch.linalg.solve(b4, a))",
          "lay(torch.linalg.solve(b4, b4, left=False))", "lay(torch.linalg.cholesky(s))",
          "lay(torch.linalg.cholesky(b4[3:], upper=True))", "lay(torch.cholesky(s))",
          "[lay(t) for t in torch.linalg.qr(a[:, :2])]", "[lay(t) for t in torch.linalg.qr(b4[:, :2])]",
          "[lay(t) for t in torch.linalg.qr(a[:, :2], mode='complete')]", "lay(torch.linalg.qr(a, mode='r').R)",
          "lay(torch.linalg.eigh(s).eigenvectors)", "lay(torch.linalg.eigh(b4[3:]).eigenvalues)",
          "[lay(t) for t in torch.linalg.svd(b4[:, :2])]", "[lay(t) for t in torch.linalg.svd(a[:2], full_matrices=False)]",
          "[lay(t) for t in torch.svd(b4[:, :, :2])]", "[lay(t) for t in torch.linalg.lu_factor(b4[:, :, :2])]",
          "lay(torch.linalg.lu_solve(*torch.linalg.lu_factor(b4), b4))",
          "lay(torch.linalg.lu_solve(*torch.linalg.lu_factor(a), a[:2], left=False))",
          "lay(torch.linalg.solve_triangular(a.triu(), b4, upper=True))",
          "lay(torch.linalg.solve_triangular(a.triu(), a[:2], upper=True, left=False))",
          "lay(torch.linalg.lstsq(a[:, :2], a).solution)", "lay(torch.linalg.lstsq(a[:2], a[:2]).solution)",
          "lay(torch.linalg.lstsq(b4[:, :, :2], b4[:, :, 0]).solution)", "lay(torch.linalg.pinv(b4[:, :2]))",
          "lay(torch.linalg.matrix_power(b4, -2))", "torch.linalg.inv(a).view(-1)", "torch.linalg.inv(a).mT.view(-1)",
          "graph(torch.autograd.grad(torch.inverse(x4).sum(), [x4], create_graph=True)[0].grad_fn)",
          "graph(torch.autograd.grad(torch.linalg.solve(x4, x4[:, 0]).sum(), [x4], create_graph=True)[0].grad_fn)",
          "graph(torch.autograd.grad(torch.linalg.eigh(x4 @ x4.mT)[1].pow(2).sum(), [x4], create_graph=True)[0].grad_fn)"]),
    case("lstsq-shape-checks",  # ATen's order: dims, rows, batch, driver, dtype; a B of one dim fewer is a matrix unless it is A[..., 0]'s shape
         ["L = torch.linalg.lstsq", "o = torch.ones", "A = torch.tensor([[[1.0, 2.0], [3.0, -1.0], [0.5, 0.25]], "
          "[[2.0, 0.0], [1.0, 1.0], [-1.0, 3.0]], [[1.0, 1.0], [0.0, 2.0], [2.0, -2.0]]], requires_grad=True)",
          "B = torch.tensor([[1.0, -1.0], [2.0, 0.5], [0.0, 3.0]], requires_grad=True)"],
         ["L(o(3, 2), o(4, 3, 5))", "L(o(3, 2), o(4, 3, 5), driver='x')", "L(o(4, 3, 2), o(4, 5))", "L(o(5, 4, 3, 2), o(3, 5))",
          "L(o(5, 4, 3, 2).long(), o(3, 5).long())", "L(o(2, 3, 2), o(3, 2, 5))", "L(o(3, 2), o(4))", "L(o(1, 3, 2), o(2, 3))",
          "L(o(2, 3, 2), o(1, 3))", "L(o(2, 2, 3, 2), o(2, 1, 3))", "L(o(2, 3, 2), o(2, 3, 2, 1))", "L(o(2, 3, 3), o(3, 3))",
          "L(o(3, 2).long(), o(3, 1).long(), driver='x')", "L(o(3, 2).half(), o(3, 1).half())",
          "L(o(3, 2).half(), o(3, 1).half(), rcond=0.1)", "L(o(3, 2).long(), o(3, 1).long(), rcond=0.1)",
          "L(A, B).solution", "torch.autograd.grad(L(A.double(), B.double()).solution.pow(2).sum(), [A, B])"]),
    case("qr-float32-zero-signs",  # sgemv's sum from +0.0 (a -0.0 of R stays), ger skipping a zero w in orgqr (Q's -0.0s stay)
         ["def qr(m, mode='reduced'):\n    return [t.tolist() for t in torch.linalg.qr(torch.tensor(m), mode=mode)]"],
         ["qr([[-1.5, -0.0, 3.0]])", "qr([[1.5, -0.0, -0.0]], 'complete')", "qr([[-1.5, -0.0], [0.0, -0.0]])",
          "qr([[-3.0, -0.0, 2.25, -1.5], [-0.0, 0.0, 1.0, 0.0], [0.5, -0.0, 2.25, -3.0]])",
          "qr([[0.0, -0.0, -1.5], [0.0, -0.0, 0.0], [0.0, -3.0, 0.5], [-1.5, 0.0, 0.5]], 'complete')",
          "qr([[-3.0, -0.0, 2.25], [0.0, 0.0, -1.5], [0.0, -0.0, -1.5], [-3.0, -0.0, 0.0]])",
          "repr(torch.tensor([[-1.5, -0.0, 3.0]], requires_grad=True).qr())"]),
    case("svd-one-row-householder",  # gesdd of one row: one reflector (S = |beta|, Vh = H's rows); one column: S likewise
         ["def sv(m, fm=True, dt=torch.float32):\n    return [t.tolist() for t in torch.linalg.svd(torch.tensor(m, dtype=dt), full_matrices=fm)]",
          "x1 = torch.tensor([[2.5, 0.25, 0.0], [0.0, 0.75, 2.5]], dtype=torch.float32, requires_grad=True)"],
         ["sv([[2.5, 0.25, 0.0]])", "sv([[-3.0, -2.75, 0.5, -3.0, -2.75]], False)", "sv([[0.75, -3.0, 0.0]])",
          "sv([[0.25, 0.75, -0.0, 0.0, 0.75]], True, torch.float64)", "sv([[-0.0, 0.0, 0.0]])", "sv([[-1.5]])",
          "sv([[[-1.5, -0.0, 2.25]], [[0.001, 7.0, -0.0]]], False, torch.float64)",
          "torch.linalg.svdvals(torch.tensor([[0.25], [-3.0], [-0.0], [1.75]]))", "sv([[0.25], [-3.0], [-0.0]])[1:]",
          "torch.linalg.svdvals(torch.tensor([[1.0, 2.25, -0.5]]).mT.double())",
          "torch.autograd.grad(torch.linalg.svdvals(x1[::2]).sum(), [x1], create_graph=True)[0].pow(2).sum()",
          "torch.autograd.grad(torch.autograd.grad(torch.linalg.svdvals(x1[::2]).sum(), [x1], create_graph=True)[0]"
          ".pow(2).sum(), [x1])"]),
    case("pinv-inf-spread",  # MKL spreads a scaled inf as NaN over U or Vh: pinv NaN everywhere (tall; inf in row 0; square, column 0)
         ["i = float('inf')", "def pv(m, dt=torch.float32):\n    return torch.linalg.pinv(torch.tensor(m, dtype=dt)).tolist()"],
         ["pv([[1.5, 0.0], [i, -1.0], [0.5, 3.0]])", "pv([[0.5, -i, 1.5], [3.0, -2.0, 0.0]], torch.float64)",
          "pv([[1.5, 0.5], [i, -1.0]])", "pv([[0.5, 1.5, 3.0, 0.5], [i, -1.0, -2.0, 0.5], [0.0, 0.5, 1.5, -1.0]])",
          "pv([[i, 0.0], [0.0, -1.0]])", "pv([[2.0, 0.0, 1.0], [0.0, -i, 0.0], [0.0, 0.0, 3.0]])",
          "pv([[1.5, 0.5, 1.5, -1.0], [i, 0.0, -1.0, 0.0]], torch.float64)",
          "torch.tensor([[[-2.0, 0.75], [-1.5, 0.75], [0.0, 0.0]], [[2.5, 0.0], [i, 0.75], [-0.75, 1.75]]]).pinverse().isnan()"]),
    case("lu-factor-backward-rectangular",  # lu_factor_ex_backward: lu_unpack (LuUnpackBackward0), narrow, linalg_lu_backward
         [GRAPH, "A = torch.tensor([[2.0, 0.5, 1.0, -0.5], [0.25, 3.0, -1.0, 1.0], [1.5, -0.75, 1.5, 2.0]], dtype=torch.float64)",
          "def lg(a, values=True):\n    a = a.clone().requires_grad_()\n    LU, piv = torch.linalg.lu_factor(a)\n"
          "    g, = torch.autograd.grad((LU * LU * LU).sum(), [a], create_graph=True)\n"
          "    return graph(g.grad_fn), (g if values else g.shape)"],
         ["lg(A[:, :3])", "lg(A[:2, :3])", "lg(A[:, :2])", "lg(A)", "lg(A[:2].mT)", "lg(A[:1, :1])", "lg(A[:, :1])",
          "lg(torch.stack([A[:, :3], A[:, 1:]]), False)"]),
    case("lu-solve-getrs-and-backward",  # getrs's substitutions; linalg_lu_solve_LU on lu_unpack's factors (graphs)
         [GRAPH, "A = torch.tensor([[2.0, 0.5, 1.0], [0.25, 3.0, -1.0], [1.5, -0.75, 1.5]], dtype=torch.float64)",
          "B = torch.tensor([[1.0, -2.0], [0.5, 0.25], [3.0, 1.0]], dtype=torch.float64)",
          "def ls(left, adjoint, batched=False, dt=torch.float64):\n"
          "    a = (torch.stack([A, A.mT]) if batched else A).to(dt).requires_grad_()\n"
          "    b = (B if left else B.mT).to(dt).requires_grad_()\n    LU, piv = torch.linalg.lu_factor(a)\n"
          "    X = torch.linalg.lu_solve(LU, piv, b, left=left, adjoint=adjoint)\n"
          "    ga, gb = torch.autograd.grad((X * X).sum(), [a, b], create_graph=True)\n"
          "    return X.tolist(), X.is_contiguous(), graph(ga.grad_fn), graph(gb.grad_fn)"],
         [f"ls({l}, {a}, {b})" for l in (True, False) for a in (False, True) for b in (False, True)]
         + ["ls(True, False, dt=torch.float32)[0]", "ls(False, True, dt=torch.float32)[0]"]),
    case("lstsq-empty",
         [],
         [f"torch.linalg.lstsq(torch.zeros({sa}), torch.zeros({sb}), driver={d!r})"
          for sa, sb in [("0, 0", "0, 0"), ("2, 0, 0", "2, 0, 3"), ("3, 0", "3, 2"), ("0, 3", "0, 2"), ("0, 3", "0"),
                         ("2, 0, 2", "2, 0, 1")]
          for d in (None, "gels", "gelsd")]),
]
