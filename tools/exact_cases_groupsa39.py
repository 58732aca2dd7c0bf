"""Regression cases of session 39's groupsa39 work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    # (dt38d numpy:@) dot, vdot and linalg.cross have ZeroTensor kernels of their own: sgn's zero gradient
    # @ a vector (dot), vdot, inner, a full tensordot and cross are ZeroTensors (their .numpy() raises);
    # mm, mv, bmm and sum materialise it
    case("zero-tensor-dot-vdot-cross-kernels", [
        "x = torch.tensor([0.0, 3.0], requires_grad=True)",
        "z = torch.autograd.grad(x.sgn().sum(), [x], create_graph=True)[0]",
        "w = torch.ones(2, 2, requires_grad=True)",
        "Z = torch.autograd.grad(w.sgn().sum(), [w])[0]",
        "c = torch.ones(3, requires_grad=True)",
        "C = torch.autograd.grad(c.sgn().sum(), [c])[0]",
        "t = torch.tensor([2.75, -2.0])",
        "def zt(f):\n    r = f()\n    return (r._is_zerotensor(), tuple(r.shape), r.numpy(force=True).tolist())",
        "out = [zt(f) for f in (lambda: z @ t, lambda: t @ z, lambda: torch.dot(z, t), lambda: torch.vdot(t, z),"
        " lambda: torch.inner(z, t), lambda: torch.tensordot(z, t, 1), lambda: z @ z, lambda: torch.linalg.vecdot(z, t),"
        " lambda: torch.linalg.cross(C, torch.tensor([1.0, 2.0, 3.0])), lambda: torch.cross(torch.ones(2, 3), C[None], dim=1),"
        " lambda: Z @ t, lambda: Z @ torch.ones(2, 2), lambda: z.sum())]",
        "try:\n    (z @ t).numpy()\nexcept RuntimeError as e:\n    err = str(e)",
    ], ["out", "err"]),
    # (dt38d grad_fn:grad) the backward of a CopySlices recorded by a create_graph pass (copy_ into a slice)
    # takes CopySlices' own steps under create_graph again: the gradient copied (CopyBackwards), as_strided, a
    # clone for copy_'s CopyBackwards (src's part), the slice zeroed by copy_ (self's part); was as_strided alone
    case("copy-slices-double-backward-records-copy-and-clone", [
        "def walk(fn):\n    idx, out, q = {}, [], [fn]\n    while q:\n        f = q.pop(0)\n"
        "        if f is None or id(f) in idx:\n            continue\n        idx[id(f)] = len(idx)\n        out.append(f)\n"
        "        q.extend(n for n, _ in f.next_functions)\n"
        "    return [(f.name(), [None if n is None else idx[id(n)] for n, _ in f.next_functions]) for f in out]",
        "x = torch.tensor([-2.0, 3.0, -3.0, 0.25], requires_grad=True)",
        "r = x * 1",
        "r.erf_()",
        "r[0].sigmoid_()",
        "q = torch.autograd.grad(r.sum(), [x], create_graph=True)[0]",
        "g = torch.autograd.grad(q.sum(), [x], create_graph=True)[0]",
        "a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)",
        "y = torch.tensor([0.5, -1.0], requires_grad=True)",
        "b = a * a",
        "b[1:] = y * y",
        "h = torch.autograd.grad(b.pow(2).sum(), [a, y], create_graph=True)",
        "h2 = torch.autograd.grad((h[0].sum() + h[1].sum()) ** 2, [a, y], create_graph=True)",
        "h3 = torch.autograd.grad((h2[0] * h2[0]).sum() + h2[1].sum(), [a, y])",
        "v = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)",
        "k = torch.autograd.grad((v.as_strided((2,), (2,), 1) ** 2).sum(), [v], create_graph=True)[0]",
        "k2 = torch.autograd.grad((k ** 3).sum(), [v], create_graph=True)[0]",
    ], ["walk(g.grad_fn)", "g", "walk(h2[0].grad_fn)", "walk(h2[1].grad_fn)", "h2", "h3", "walk(k2.grad_fn)", "k2"]),
    # (dt38c error-text:setitem) an empty bool mask tensor is a mask (it was taken as an empty long index:
    # x[mask] of a (1, 0) tensor had shape [1, 0, 0], and a write through it leaked numpy's TypeError/ValueError);
    # setitem's value with leading dims of one is a view without them, another tensor than self: an empty one
    # overlaps nothing (shape mismatch or no error), where self itself (or index_put_'s value) is a full overlap
    case("empty-bool-mask-and-setitem-self-overlap", [
        "def err(f):\n    try:\n        f()\n        return 'ok'\n    except Exception as e:\n        return (type(e).__name__, str(e)[:110])",
        "x2 = torch.tensor([[[0, -1]]])",
        "v3 = x2[:, 1:]",
        "x = torch.tensor([[1., 2.]])",
        "v = x[:, :0]",
        "z = torch.zeros(1, 0, 2)",
        "shapes = [tuple(t.shape) for t in (v[v > 0], v3[v3 > 0], z[z > 0], z[torch.zeros(1, 0, dtype=torch.bool)],"
        " torch.zeros(2, 0, 3)[torch.zeros(2, 0, dtype=torch.bool)], torch.zeros(2, 0, 3)[0, torch.zeros(0, dtype=torch.bool)])]",
        "def put(t, m, val):\n    t[m] = val",
        "out = [err(lambda: put(v3, v3 > 0, v3)), err(lambda: put(v3, v3 > 0, v3[0])), err(lambda: put(v3, v3 >= 0, x2)),"
        " err(lambda: put(v, v > 0, torch.zeros(1, 0, 3))), err(lambda: put(v, v > 0, v.t())),"
        " err(lambda: put(torch.zeros(1, 0), torch.zeros(1, 0, dtype=torch.bool), torch.zeros(1, 0))),"
        " err(lambda: put(torch.zeros(0, 2), torch.zeros(0, 2, dtype=torch.bool), torch.zeros(1, 2)[:0])),"
        " err(lambda: torch.zeros(2, 0).index_put_((torch.zeros(2, 0, dtype=torch.bool),), torch.zeros(2, 0)))]",
        "y = torch.zeros(0, 2)",
        "out.append(err(lambda: put(y, y > 0, y)))",
        "w = torch.zeros(1, 0)",
        "out.append(err(lambda: put(w, w > 0, w)))",
    ], ["shapes", "out"]),
    # (dt38c error-text:backward) a slice write into a tensor whose elements share memory (as_strided_ with a
    # stride 0, not a view): its CopySlices copies the gradient into a new tensor of those strides, which copy_
    # refuses, before the older nodes run (was their "backward through the graph a second time" / version error)
    case("copy-slices-of-overlapping-base-refuses-gradient", [
        "def err(f):\n    try:\n        f()\n        return 'ok'\n    except Exception as e:\n        return (type(e).__name__, str(e)[:90])",
        "out = []",
        "for dt in (torch.float16, torch.float32):\n"
        "    for k in range(3):\n"
        "        x1 = torch.tensor([[[1.0]]], dtype=dt, requires_grad=True)\n"
        "        y = torch.tensor([[[-1.25]]], dtype=dt, requires_grad=True)\n"
        "        r3 = (x1.logaddexp(y), x1.exp(), x1 + 1)[k]\n"
        "        r4 = r3.as_strided_((2,), (0,), storage_offset=0)\n"
        "        out.append(err(lambda: r3.sum().backward()))\n"
        "        r4[1:] = 0.001\n"
        "        out.append(err(lambda: r3.sum().backward()))\n"
        "        out.append(x1.grad)",
        "x = torch.tensor([[[1.0]]], requires_grad=True)",
        "r = x * 2",
        "r.as_strided_((2,), (0,), storage_offset=0)",
        "r[1:].mul_(2)",
        "e2 = err(lambda: r.sum().backward())",
    ], ["out", "e2"]),
    # (dt38b grad_fn:grad) a LAPACK result of no elements has PyTorch's column-major strides (a size 0 counted
    # as 1: svd's U of a 2 x 0 matrix is (1, 2)), and so does a slice of a tensor (numpy's strides kept): mm's
    # backward takes the column-major branch for them as PyTorch's does (nuclear_norm's double backward graph)
    case("empty-lapack-results-column-major-strides", [
        "def walk(fn):\n    idx, out, q = {}, [], [fn]\n    while q:\n        f = q.pop(0)\n"
        "        if f is None or id(f) in idx:\n            continue\n        idx[id(f)] = len(idx)\n        out.append(f)\n"
        "        q.extend(n for n, _ in f.next_functions)\n"
        "    return [(f.name(), [None if n is None else idx[id(n)] for n, _ in f.next_functions]) for f in out]",
        "L = torch.linalg",
        "x = torch.arange(12.).reshape(3, 4)",
        "strides = [t.stride() for t in (L.svd(torch.zeros(2, 0), full_matrices=False)[0], L.svd(torch.zeros(3, 2, 0), full_matrices=False)[0],"
        " L.qr(torch.zeros(2, 0))[0], L.qr(torch.zeros(3, 0, 2))[1], L.lstsq(torch.zeros(2, 0), torch.zeros(2, 1))[0],"
        " torch.geqrf(torch.zeros(0, 2))[0], L.solve(torch.zeros(0, 0), torch.zeros(0, 2)), L.lu_factor(torch.zeros(2, 0))[0],"
        " x[:, :0], x.t()[:, :0], x[:0].t(), x.narrow(1, 2, 0), x[:0].reshape(0, 2, 2).permute(2, 0, 1))]",
        "x1 = torch.zeros(0).requires_grad_()",
        "r3 = torch.nuclear_norm(x1.expand(2, 0), dim=(0, 1))",
        "q8 = torch.autograd.grad(r3.sum(), [x1], create_graph=True)[0]",
        "g9 = torch.autograd.grad(q8.sum(), [x1], create_graph=True)[0]",
    ], ["strides", "walk(g9.grad_fn)"]),
    # linalg ops of empty matrices that leaked numpy's errors (ldl_factor, ldl_solve, cholesky_ex, cholesky_inverse:
    # a reshape(-1, 0, 0)); matrix_norm of a positive ord over a dim of no elements is zeros without history
    # (amin of a negative one refuses)
    case("empty-matrices-ldl-cholesky-matrix-norm", [
        "def err(f):\n    try:\n        r = f()\n        r = r if isinstance(r, tuple) else (r,)\n"
        "        return [(tuple(t.shape), t.stride(), t.dtype, t.grad_fn is not None) for t in r]\n"
        "    except Exception as e:\n        return (type(e).__name__, str(e)[:80])",
        "L = torch.linalg",
        "out = []",
        "for sh in [(0, 0), (2, 0, 0)]:\n"
        "    Z = torch.zeros(*sh)\n"
        "    out += [err(lambda: L.ldl_factor_ex(Z)), err(lambda: L.ldl_solve(*L.ldl_factor(Z), torch.zeros(*sh[:-1], 1))),"
        " err(lambda: L.cholesky_ex(Z)), err(lambda: torch.cholesky_inverse(Z)), err(lambda: torch.cholesky_inverse(Z, upper=True))]",
        "x = torch.zeros(2, 3, 0, requires_grad=True)",
        "norms = [err(lambda: L.matrix_norm(x, o, keepdim=k)) for o in (2, -2, 1, -1, float('inf'), 'nuc', 'fro') for k in (False, True)]",
        "more = [err(lambda: L.matrix_norm(x, 2, dim=(0, 2), dtype=torch.float64)), err(lambda: L.matrix_norm(x, 1, dim=(2, 0))),"
        " err(lambda: L.matrix_norm(torch.zeros(2, 3, 0, dtype=torch.float16), 1)), err(lambda: L.norm(torch.zeros(3, 0), 2)),"
        " err(lambda: L.matrix_norm(torch.zeros(0, 3), -1))]",
    ], ["out", "norms", "more"]),
    # (own difftest seed 39110000, error-text:solve_triangular) the solvers' argument checks in ATen's order:
    # solve_triangular's A square before B a matrix; lu_solve's dtypes, int32 pivots, A square ("torch.linalg."),
    # the pivots' count and shape, their values (numpy's IndexError leaked); ldl_solve's A square and floating
    # before B's size, the pivots' shape before their dtype, their values
    case("solver-argument-checks-in-aten-order", [
        "def err(f):\n    try:\n        r = f()\n        return tuple(r.shape)\n    except Exception as e:\n"
        "        return (type(e).__name__, str(e)[:100])",
        "L = torch.linalg",
        "pi = torch.ones(2, dtype=torch.int32)",
        "pf = torch.zeros(2)",
        "E = torch.eye(2)",
        "args = [(torch.zeros(2, 3), pf, torch.tensor(2.)), (torch.zeros(2, 3), pi, torch.tensor(2.)), (torch.zeros(3), pi, torch.tensor(2.)),"
        " (E, pf, torch.tensor(2.)), (E, pi, torch.zeros(2)), (E, pi, torch.zeros(2, 1, dtype=torch.float64)),"
        " (E.long(), pi, torch.zeros(2, 1).long()), (E, pi, torch.zeros(3, 1)), (E, torch.ones(3, dtype=torch.int32), torch.zeros(2, 1)),"
        " (E, pf, torch.zeros(2, 1)), (E, pi.long(), torch.zeros(2, 1)), (E.half(), pi, torch.zeros(2, 1).half()),"
        " (E, torch.tensor([0, 1], dtype=torch.int32), torch.ones(2, 1)), (E, torch.tensor([1, 3], dtype=torch.int32), torch.ones(2, 1)),"
        " (E, torch.tensor([2, 2], dtype=torch.int32), torch.ones(2, 1))]",
        "out = [[err(lambda: f(A, p, B)) for A, p, B in args] for f in (L.ldl_solve, L.lu_solve,"
        " lambda A, p, B: L.lu_solve(A, p, B, left=False), lambda A, p, B: L.solve_triangular(A, B, upper=False))]",
    ], ["out"]),
    # as_strided and unfold have ZeroTensor kernels (views): of sgn's zero gradient they are ZeroTensors too
    case("zero-tensor-as-strided-and-unfold-views", [
        "w = torch.ones(2, 3, requires_grad=True)",
        "Z = torch.autograd.grad(w.sgn().sum(), [w])[0]",
        "out = [(r._is_zerotensor(), tuple(r.shape), r.stride()) for r in (Z.unfold(1, 2, 1), Z.as_strided((2,), (1,)),"
        " Z.as_strided((2, 2), (1, 2), 1), Z[0].unfold(0, 3, 1), Z.T.unfold(0, 2, 2))]",
        "try:\n    Z.unfold(1, 2, 1).numpy()\nexcept RuntimeError as e:\n    err = str(e)",
    ], ["out", "err"]),
    # (dt39b shape:lstsq) a matrix B of one dim fewer than A: ATen broadcasts A's batch with B's leading dims (its
    # rows), so lstsq of a (1, 2, 1) A and a (2, 1) B solves two copies: a (2, 1, 1) solution; the rank and the
    # singular values are of A's batch alone
    case("lstsq-matrix-b-of-fewer-dims-and-rank-batch", [
        "A = torch.tensor([[[1.], [2.]]], dtype=torch.float64, requires_grad=True)",
        "B = torch.tensor([[3.], [5.]], dtype=torch.float64, requires_grad=True)",
        "r = torch.linalg.lstsq(A, B)",
        "r.solution.sum().backward()",
        "shapes = []",
        "for a, b in [((1, 2, 1), (2, 1)), ((1, 2, 2), (2, 1)), ((1, 3, 2), (3, 1)), ((1, 2, 1), (3, 2, 1)), ((2, 1, 3, 2), (4, 3, 1)),"
        " ((3, 2), (2,))]:\n"
        "    for d in ('gelsy', 'gelsd', 'gelss'):\n"
        "        o = torch.linalg.lstsq(torch.arange(float(torch.Size(a).numel())).reshape(a).double().cos(),"
        " torch.ones(*b, dtype=torch.float64), driver=d)\n"
        "        shapes.append([tuple(t.shape) for t in o] + [o.rank.tolist()])",
    ], ["r", "A.grad", "B.grad", "shapes"]),
    # (dt39b stride:grad) masked_select's gradient is laid out as zeros_like(self.expand(...)) (preserve): a
    # transposed or permuted input's gradient has its layout (a leaf's then contiguous), with and without create_graph
    case("masked-select-gradient-layout", [
        "x = torch.arange(24.).reshape(3, 2, 4).cos().requires_grad_()",
        "out = []",
        "for k in range(5):\n"
        "    for cg in (False, True):\n"
        "        v = (x.transpose(0, -1), x.permute(1, 2, 0), x[:, :, ::2], x.transpose(0, 1), x.transpose(0, 2)[None])[k]\n"
        "        m = v[0] > 0 if k == 3 else v > 0\n"
        "        r = v.masked_select(m)\n"
        "        g = torch.autograd.grad(r.sum(), [x], create_graph=cg, retain_graph=True)[0]\n"
        "        gv = torch.autograd.grad((r * r).sum(), [v], create_graph=cg)[0]\n"
        "        out.append((g.stride(), gv.stride(), gv.grad_fn is not None))",
    ], ["out"]),
]
