"""Regression cases of issue 10's missing linear algebra (helper "linalg2", session 30; tools/exact_cases.py
adds them): the ``_ex`` forms and their info tensors, linalg.lu, torch.lu, lu_unpack, torch.lu_solve,
cholesky_solve, cholesky_inverse, triangular_solve, geqrf, householder_product/orgqr, ormqr, and the
composites vander, tensorinv, tensorsolve, nuclear_norm, frobenius_norm.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


_N, _I = "float('nan')", "float('inf')"


def cases(graph: str) -> list[dict]:
    return [
        case("linalg-ex-forms-info",  # info tensors, LAPACK's leftovers where a matrix fails, check_errors' texts
             ["L = torch.linalg", "A = torch.tensor([[1., 2., 3.], [2., 4., 6.], [1., 0., 1.]])",
              "S = torch.tensor([[4., 2., 1.], [2., 1., 0.], [1., 0., 3.]])",
              "G = torch.tensor([[2., 0.5, 1.], [0.25, 3., -1.], [1.5, -0.75, 1.5]], dtype=torch.float64)"],
             ["L.inv_ex(A)", "L.inv_ex(G)", "L.inv_ex(torch.stack([A, 2 * torch.eye(3)]))", "L.inv_ex(torch.zeros(0, 2, 2))",
              f"L.inv_ex(torch.tensor([[{_N}, 1.], [1., 1.]]))", "L.inv_ex(A, check_errors=True)",
              "L.inv_ex(torch.stack([A, A]), check_errors=True)", "L.inv_ex(torch.ones(2, 3))", "L.inv_ex(A.long())",
              "L.inv_ex(A.half())",
              "L.solve_ex(A, torch.ones(3, 2))", "L.solve_ex(G, torch.ones(3, dtype=torch.float64))",
              "L.solve_ex(torch.zeros(3, 3), torch.ones(2, 3, 1))", "L.solve_ex(torch.randn(2, 3, 3).mT @ torch.eye(3), torch.ones(3)).info",
              "L.solve_ex(A, torch.ones(3), check_errors=True)", "L.solve_ex(torch.zeros(3, 2, 2), torch.ones(2, 2), check_errors=True)",
              "L.solve_ex(A, torch.ones(3, 2), left=False)", "L.solve_ex(torch.eye(2), torch.ones(3))",
              "L.cholesky_ex(S)", "L.cholesky_ex(S, upper=True)", "L.cholesky_ex(torch.stack([torch.eye(3), S]))",
              "L.cholesky_ex(torch.zeros(0, 2, 2))", f"L.cholesky_ex(torch.tensor([[4., 1.], [1., {_N}]]))",
              "L.cholesky_ex(S, check_errors=True)", "L.cholesky_ex(torch.stack([S, S]), check_errors=True)",
              "L.cholesky_ex(torch.ones(2))", "L.cholesky_ex(S.long())",
              "L.lu_factor_ex(A)", "L.lu_factor_ex(torch.zeros(2, 0, 3))", "L.lu_factor_ex(torch.zeros(3, 3, dtype=torch.float64))",
              "L.lu_factor_ex(A, check_errors=True)", "L.lu_factor_ex(torch.stack([A, A]), check_errors=True)",
              "L.lu_factor_ex(A.long())", "L.lu_factor_ex(A, pivot=False)",
              "[t.stride() for t in L.lu_factor_ex(torch.ones(2, 3, 4))]", "L.inv_ex(torch.eye(3).expand(2, 3, 3)).inverse.stride()",
              "L.solve_ex(torch.eye(3).expand(2, 3, 3), torch.ones(3)).result.stride()"]),
        case("linalg-lu-unpack-and-deprecated",
             [graph, "L = torch.linalg", "A = torch.tensor([[1., 2., 3.], [2., 4., 6.], [1., 0., 1.]])",
              "G = torch.tensor([[2., 0.5, 1.], [0.25, 3., -1.], [1.5, -0.75, 1.5]], dtype=torch.float64)",
              "LU, p = L.lu_factor(G)",
              "def gr(f, *xs):\n    xs = [x.clone().requires_grad_() for x in xs]\n    out = f(*xs)\n"
              "    outs = out if isinstance(out, tuple) else (out,)\n"
              "    g = torch.autograd.grad(sum((o * o).sum() for o in outs if o.requires_grad), xs, create_graph=True)\n"
              "    return [o.grad_fn for o in outs], g, [graph(x.grad_fn) for x in g]"],
             ["L.lu(A)", "L.lu(torch.ones(2, 3))", "L.lu(G[:, :2])", "L.lu(torch.zeros(0, 3))", "L.lu(torch.zeros(2, 0, 0))",
              "[t.stride() for t in L.lu(torch.ones(2, 4, 3))]", "L.lu(torch.ones(2))", "L.lu(A.long())", "L.lu(A, pivot=False)",
              "torch.lu(A)", "torch.lu(A, get_infos=True)", "A.lu()", "A.lu(get_infos=True)", "torch.lu(torch.ones(2))",
              "torch.lu_solve(torch.ones(3, 2, dtype=torch.float64), LU, p)", "torch.ones(3, 2, dtype=torch.float64).lu_solve(LU, p)",
              "torch.lu_solve(torch.ones(3), LU, p)",
              "torch.lu_unpack(LU, p)", "torch.lu_unpack(LU, p, unpack_data=False)", "torch.lu_unpack(LU, p, unpack_pivots=False)",
              "torch.lu_unpack(LU.long(), p)", "torch.lu_unpack(*L.lu_factor(G[:2]))", "torch.lu_unpack(*L.lu_factor(G[:, :2]))",
              "torch.lu_unpack(LU, p.long())", "torch.lu_unpack(LU, torch.tensor([0, 2, 3], dtype=torch.int32))",
              "torch.lu_unpack(torch.ones(2), p)",
              "gr(lambda a: L.inv_ex(a).inverse, G)", "gr(lambda a, b: L.solve_ex(a, b).result, G, torch.ones(3, 2, dtype=torch.float64))",
              "gr(lambda a: L.cholesky_ex(a @ a.mT).L, G)", "gr(lambda a: L.lu_factor_ex(a).LU, G)",
              "gr(lambda a: L.lu(a)[1:], G)", "gr(lambda a: L.lu(a).L, G)", "gr(lambda a: L.lu(a).U, G[:2])",
              "gr(lambda a: L.lu(a)[1:], G[:, :2])", "gr(lambda a: torch.lu_unpack(*L.lu_factor(a))[1:], G)",
              "gr(lambda a: torch.lu(a)[0], G)", "L.lu(G.requires_grad_()).L.grad_fn._saved_U"]),
        case("cholesky-solve-inverse-triangular-solve",  # potrs, potri (trtri + lauum's -0.0s), trsm; checks in ATen's order
             [graph, "A = torch.tensor([[2., 0.5, 1.], [0.25, 3., -1.], [1.5, -0.75, 1.5]], dtype=torch.float64)",
              "Lw = torch.linalg.cholesky(A @ A.mT + torch.eye(3, dtype=torch.float64))",
              "B = torch.tensor([[1., -2.], [0.5, 0.25], [3., 1.]], dtype=torch.float64)",
              "def gr(f, *xs):\n    xs = [x.clone().requires_grad_() for x in xs]\n    out = f(*xs)\n"
              "    outs = out if isinstance(out, tuple) else (out,)\n"
              "    g = torch.autograd.grad(sum((o * o * o).sum() for o in outs if o.requires_grad), xs, create_graph=True)\n"
              "    return [o.grad_fn for o in outs], g, [graph(x.grad_fn) for x in g]"],
             ["torch.cholesky_solve(B, Lw)", "torch.cholesky_solve(B.float(), Lw.float())", "torch.cholesky_solve(B, Lw.mT, upper=True)",
              "torch.cholesky_solve(B.expand(2, 3, 2), Lw).stride()", "torch.cholesky_inverse(Lw)", "torch.cholesky_inverse(Lw.float())",
              "torch.cholesky_inverse(Lw.mT, upper=True)", "torch.cholesky_inverse(torch.eye(3))", "torch.cholesky_inverse(torch.eye(2))",
              "torch.cholesky_inverse(torch.zeros(0, 2, 2))", "torch.cholesky_inverse(Lw.expand(2, 3, 3)).stride()",
              "torch.triangular_solve(B, A)", "torch.triangular_solve(B.float(), A.float(), upper=False, transpose=True)",
              "torch.triangular_solve(B, A, unitriangular=True)", "torch.triangular_solve(B, torch.zeros(3, 3, dtype=torch.float64))",
              "torch.triangular_solve(B[:, :1], A.expand(2, 3, 3))", "B.triangular_solve(A, False)",
              "[t.stride() for t in torch.triangular_solve(B.expand(4, 3, 2), A)]",
              "torch.cholesky_solve(torch.ones(3, 2), torch.ones(2, 3).double())", "torch.cholesky_solve(torch.ones(2, 2), torch.ones(2))",
              "torch.cholesky_solve(torch.ones(2), torch.ones(2, 2))", "torch.cholesky_solve(torch.ones(3, 2).long(), torch.ones(2, 3).long())",
              "torch.cholesky_solve(torch.ones(3, 2).half(), torch.ones(2, 2).half())", "torch.cholesky_solve(torch.ones(2, 2).half(), torch.ones(2, 2).half())",
              "torch.cholesky_solve(torch.ones(3, 2, 2), torch.ones(4, 2, 2))", "torch.cholesky_inverse(torch.ones(2, 2).half())",
              "torch.cholesky_inverse(torch.zeros(3, 2, 2))", "torch.cholesky_inverse(torch.tensor([[1., 0.], [1., 0.]]))",
              "torch.cholesky_inverse(torch.ones(2))", "torch.cholesky_inverse(torch.ones(2, 3))", "torch.cholesky_inverse(torch.eye(2).long())",
              "torch.triangular_solve(torch.ones(2, 2), torch.ones(2))", "torch.triangular_solve(torch.ones(2), torch.ones(2, 2))",
              "torch.triangular_solve(torch.ones(3, 2), torch.ones(2, 3).double())",
              "torch.triangular_solve(torch.ones(2, 2).half(), torch.ones(2, 2).half())", "torch.triangular_solve(torch.ones(3, 2), torch.ones(2, 2))",
              "gr(lambda b, l: torch.cholesky_solve(b, l), B, Lw)", "gr(lambda b, l: torch.cholesky_solve(b, l, upper=True), B, Lw.mT)",
              "gr(lambda l: torch.cholesky_solve(B, l), Lw)", "gr(lambda b: torch.cholesky_solve(b, Lw), B)",
              "gr(lambda l: torch.cholesky_inverse(l), Lw)", "gr(lambda l: torch.cholesky_inverse(l, True), Lw.mT)",
              "gr(lambda b, a: torch.triangular_solve(b, a), B, A)", "gr(lambda b, a: torch.triangular_solve(b, a, False, True, True), B, A)",
              "gr(lambda b, a: torch.triangular_solve(b, a).solution, B, A)",
              "gr(lambda b, a: torch.triangular_solve(b, a).cloned_coefficient, B, A)",
              "gr(lambda a: torch.triangular_solve(B, a), A)", "gr(lambda b: torch.triangular_solve(b, A), B)"]),
        case("linalg-composites-vander-tensorinv-norms",  # ATen's composites: their graphs, dtypes, checks; inv by getrf + getrs
             [graph, "x = torch.tensor([1., 2., 3.], requires_grad=True)",
              "A4 = (torch.eye(4) + 0.5 * torch.arange(16.).reshape(4, 4) / 16).reshape(4, 2, 2).requires_grad_()",
              "def g(r):\n    return r, (graph(r.grad_fn) if r.grad_fn is not None else None)"],
             ["g(torch.linalg.vander(x))", "g(torch.linalg.vander(x, N=5))", "torch.linalg.vander(torch.tensor([1, 2], dtype=torch.int32))",
              "torch.linalg.vander(torch.tensor([1, 2], dtype=torch.uint8))", "torch.linalg.vander(torch.tensor([1., 2.]).half())",
              "torch.linalg.vander(torch.ones(2, 3), N=2)", "torch.linalg.vander(torch.tensor(2.))", "torch.linalg.vander(torch.tensor([True]))",
              "torch.linalg.vander(x, N=1)", "torch.linalg.vander(x.double(), N=3).stride()",
              "g(torch.linalg.tensorinv(A4, ind=1))", "torch.linalg.tensorinv(A4.detach().reshape(2, 2, 4))",
              "torch.linalg.tensorinv(torch.ones(2, 2, 2), ind=2)", "torch.linalg.tensorinv(torch.ones(2, 2), ind=3)",
              "torch.linalg.tensorinv(torch.ones(4, 2, 2).long(), ind=1)", "torch.linalg.tensorinv(torch.zeros(2, 2), ind=1)",
              "torch.linalg.tensorinv(torch.ones(4, 2, 2), ind=0)", "torch.linalg.tensorinv(torch.eye(4).reshape(2, 2, 2, 2)).shape",
              "g(torch.linalg.tensorsolve(A4.reshape(2, 2, 4), torch.ones(2, 2, requires_grad=True)))",
              "g(torch.linalg.tensorsolve(A4.reshape(2, 2, 4).permute(2, 0, 1), torch.ones(2, 2), dims=(0,)))",
              "torch.linalg.tensorsolve(torch.eye(4).reshape(2, 2, 2, 2), torch.ones(2, 2), dims=(0, 1))",
              "torch.linalg.tensorsolve(torch.ones(2, 2), torch.ones(2).long())", "torch.linalg.tensorsolve(torch.zeros(2, 2), torch.ones(2))",
              "torch.linalg.tensorsolve(torch.eye(6).reshape(6, 2, 3), torch.ones(6), dims=(0,))",
              "g(torch.nuclear_norm(A4))", "g(torch.nuclear_norm(A4[0]))", "g(torch.nuclear_norm(A4[0], keepdim=True))",
              "torch.nuclear_norm(A4[0], True)", "g(torch.nuclear_norm(A4, dim=(0, 2), keepdim=True))", "torch.nuclear_norm(A4, dim=0)",
              "torch.nuclear_norm(A4, (0,))", "torch.nuclear_norm(torch.ones(2))", "torch.nuclear_norm(torch.ones(2, 2).long())",
              "g(torch.frobenius_norm(A4, dim=(0, 1)))", "g(torch.frobenius_norm(A4, dim=1))", "torch.frobenius_norm(A4, dim=())",
              "torch.frobenius_norm(A4, dim=(0, 1), keepdim=True)", "torch.frobenius_norm(A4, (0, 1, 2))",
              "torch.frobenius_norm(torch.ones(2, 2).long(), dim=(0, 1))", "torch.frobenius_norm(A4, dim=(0, 1), keepdim=True).stride()",
              "torch.linalg.inv(A4.detach().reshape(4, 4))", "torch.linalg.inv(A4.detach().reshape(4, 4).double())",
              "torch.linalg.inv_ex(A4.detach().reshape(4, 4)[:3, :3])"]),
        case("geqrf-householder-product-ormqr",  # geqr2/org2r in MKL's arithmetic; ormqr's reflectors; checks in ATen's order
             ["A = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], dtype=torch.float64)",
              "M = torch.tensor([[2., 0.5, 1.], [0.25, 3., -1.], [1.5, -0.75, 1.5], [0.3, 0.2, -0.4]], dtype=torch.float64)",
              "C = torch.tensor([[1., -2.], [0.5, 0.25], [3., 1.], [0.1, 0.7]], dtype=torch.float64)",
              "def gr(f, *xs):\n    xs = [x.clone().requires_grad_() for x in xs]\n    out = f(*xs)\n"
              "    return out.grad_fn, torch.autograd.grad((out * out * out).sum(), xs)",
              "a, tau = torch.geqrf(M)"],
             ["torch.geqrf(A)", "torch.geqrf(A.float())", "torch.geqrf(torch.ones(2, 3))", "torch.geqrf(torch.zeros(0, 2))",
              "torch.geqrf(M.expand(2, 4, 3))", "torch.geqrf(A).a.stride()", "A.geqrf()", "torch.geqrf(torch.ones(2))", "torch.geqrf(A.long())",
              "torch.geqrf(A.half())", "torch.linalg.householder_product(a, tau)", "torch.linalg.householder_product(*torch.geqrf(M.float()))",
              "torch.linalg.householder_product(torch.ones(3, 2), torch.ones(2))", "torch.linalg.householder_product(torch.ones(3, 2), torch.ones(1))",
              "torch.linalg.householder_product(torch.ones(3, 0), torch.ones(0))", "torch.orgqr(torch.ones(3, 2), torch.ones(2))", "M.orgqr(tau)",
              "torch.linalg.householder_product(torch.ones(2, 3, 2), torch.ones(2, 1)).stride()",
              "torch.linalg.householder_product(torch.ones(2, 3), torch.ones(2))", "torch.linalg.householder_product(torch.ones(3, 2), torch.ones(3))",
              "torch.linalg.householder_product(torch.ones(3, 2), torch.ones(2).double())", "torch.linalg.householder_product(torch.ones(3), torch.ones(2))",
              "torch.linalg.householder_product(torch.ones(3, 2).long(), torch.ones(2).long())",
              "torch.linalg.householder_product(torch.ones(4, 3, 2), torch.ones(2))", "torch.linalg.householder_product(torch.ones(4, 3, 2), torch.ones(5, 2))",
              "torch.ormqr(a, tau, C)", "torch.ormqr(a, tau, C, transpose=True)", "torch.ormqr(a, tau, C.mT, left=False)",
              "torch.ormqr(a, tau, C.mT, left=False, transpose=True)", "torch.ormqr(*torch.geqrf(M.float()), C.float())",
              "torch.ormqr(torch.ones(3, 2), torch.ones(2), torch.ones(3, 4)).stride()", "torch.ormqr(torch.ones(3, 2), torch.ones(2).double(), torch.ones(3, 2))",
              "torch.ormqr(torch.ones(3, 2).long(), torch.ones(2).long(), torch.ones(3, 2).long())",
              "torch.ormqr(torch.ones(3, 2), torch.ones(2), torch.ones(4, 2), left=False)", "torch.ormqr(torch.ones(2, 3, 2), torch.ones(2), torch.ones(3, 2))",
              "torch.ormqr(torch.ones(2, 3, 2), torch.ones(2, 2), torch.ones(3, 2))", "torch.ormqr(torch.ones(2, 3, 2), torch.ones(4, 2), torch.ones(2, 3, 2))",
              "torch.ormqr(torch.ones(2, 3, 2), torch.ones(2, 2), torch.ones(4, 3, 2))", "torch.ormqr(torch.ones(3, 2), torch.ones(1), torch.ones(3, 2))",
              "torch.ormqr(torch.ones(3, 2), torch.ones(2), torch.ones(3, 2).double())", "torch.ormqr(torch.ones(3), torch.ones(2), torch.ones(3, 2))",
              "torch.ormqr(torch.ones(3, 2), torch.ones(2), torch.ones(3))", "C.ormqr(torch.ones(4, 2), torch.ones(2))",
              "gr(lambda a, t: torch.linalg.householder_product(a, t), a, tau)", "gr(lambda a, t: torch.linalg.householder_product(a, t), a[:, :2], tau[:1])",
              "gr(lambda a, t: torch.linalg.householder_product(a, t), a.expand(2, 4, 3), tau.expand(2, 3))",
              "gr(lambda a, t, c: torch.ormqr(a, t, c), a, tau, C)", "gr(lambda a, t, c: torch.ormqr(a, t, c, transpose=True), a, tau, C)",
              "gr(lambda a, t, c: torch.ormqr(a, t, c, left=False), a, tau, C.mT)",
              "gr(lambda a, t, c: torch.ormqr(a, t, c, left=False, transpose=True), a, tau, C.mT)",
              "[t.grad_fn for t in torch.geqrf(M.requires_grad_())]"]),
    ]
