"""Linear-algebra decompositions and what is built on them: cholesky, qr, eigh/eigvalsh,
svd/svdvals, lstsq, pinv, matrix_rank, matrix_exp, matrix_power, multi_dot, cond,
lu_factor, lu_solve, solve_triangular; gradients, second derivatives, return types and errors.

Singular and eigen vectors are fixed only up to sign, so cases use them through
sign-free expressions (squares, products like U diag(S) Vh)."""

from . import case, inp, val

D = {"dtype": "float64"}
SPD = "a @ a.mT + 3 * torch.eye(a.shape[-1], dtype=a.dtype)"
SYM = "(a + a.mT)"

CASES = [
    # cholesky
    case("cholesky", f"torch.linalg.cholesky({SPD})", a=inp(4, 4, **D), second=True),
    case("cholesky_upper_batched", f"torch.linalg.cholesky({SPD}, upper=True)", a=inp(2, 3, 3, **D), second=True),
    case("cholesky_float32", f"torch.linalg.cholesky({SPD})", a=inp(3, 3), tol={"rtol": 1e-4, "atol": 1e-5}),
    case("torch_cholesky", f"torch.cholesky({SPD})", a=inp(3, 3, **D)),
    case("error_cholesky_not_pd", "torch.linalg.cholesky(a)", a=val([[1.0, 2.0], [2.0, 1.0]])),
    case("error_cholesky_batch_not_pd", "torch.linalg.cholesky(a)",
         a=val([[[1.0, 0.0], [0.0, 1.0]], [[-1.0, 0.0], [0.0, 1.0]]])),
    case("error_cholesky_not_square", "torch.linalg.cholesky(a)", a=inp(2, 3)),
    # qr
    case("qr_tall", "torch.linalg.qr(a)", a=inp(5, 3, **D), second=True),
    case("qr_wide", "torch.linalg.qr(a)", a=inp(3, 5, **D), second=True),
    case("qr_square_batched", "torch.linalg.qr(a)", a=inp(2, 3, 3, **D)),
    case("qr_r_only_grad", "torch.linalg.qr(a).R", a=inp(4, 3, **D)),
    case("qr_q_only_grad", "torch.linalg.qr(a).Q", a=inp(4, 3, **D)),
    case("qr_complete_wide", "torch.linalg.qr(a, mode='complete')", a=inp(3, 4, **D)),
    case("qr_mode_r", code="out = torch.linalg.qr(a, mode='r')\nout = (torch.tensor(list(out.Q.shape)), out.R)",
         a=inp(4, 3, **D, requires_grad=False)),
    case("qr_float32", "torch.linalg.qr(a)", a=inp(4, 3), tol={"rtol": 1e-4, "atol": 1e-5}),
    case("torch_qr", "torch.qr(a)", a=inp(4, 3, **D)),
    case("error_qr_complete_tall_backward", code="q, r = torch.linalg.qr(a, mode='complete')\n"
         "out = torch.autograd.grad(q.sum(), a)", a=inp(4, 3, **D)),
    case("error_qr_mode_r_backward", code="q, r = torch.linalg.qr(a, mode='r')\nout = torch.autograd.grad(r.sum(), a)",
         a=inp(4, 3, **D)),
    case("error_qr_mode", "torch.linalg.qr(a, mode='thin')", a=inp(3, 3)),
    # eigh
    case("eigvalsh", f"torch.linalg.eigvalsh({SYM})", a=inp(4, 4, **D), second=True),
    case("eigh_vectors_squared", f"torch.linalg.eigh({SYM}).eigenvectors ** 2", a=inp(4, 4, **D), second=True),
    case("eigh_both", code=f"w, v = torch.linalg.eigh({SYM})\nout = (w, v * v)", a=inp(2, 3, 3, **D)),
    # PyTorch's gradients below are by design not the derivative of the function of every entry:
    # eigh reads one triangle, full U's extra columns are ignored, pinv's cutoff drops values
    case("eigh_upper", "torch.linalg.eigh(a, UPLO='U').eigenvalues", a=inp(3, 3, **D), numeric=False),
    case("eigh_reconstruct", code=f"w, v = torch.linalg.eigh({SYM})\nout = v @ torch.diag_embed(w) @ v.mT",
         a=inp(3, 3, **D)),
    case("eigh_repeated_nan", code="w, v = torch.linalg.eigh(a)\nout = torch.autograd.grad(v.sum(), a)",
         a=val([[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 1.0]], dtype="float64"), numeric=False),
    case("eigvalsh_repeated_finite", "torch.linalg.eigvalsh(a)",
         a=val([[2.0, 0.0], [0.0, 2.0]], dtype="float64")),
    case("error_eigh_not_square", "torch.linalg.eigh(a)", a=inp(2, 3)),
    case("error_eigh_uplo", "torch.linalg.eigh(a, UPLO='X')", a=inp(2, 2)),
    # svd
    case("svdvals_tall", "torch.linalg.svdvals(a)", a=inp(5, 3, **D), second=True),
    case("svdvals_wide_batched", "torch.linalg.svdvals(a)", a=inp(2, 3, 4, **D)),
    case("svd_u_squared", "torch.linalg.svd(a).U ** 2", a=inp(5, 3, **D), second=True, numeric=False),
    case("svd_vh_squared_thin", "torch.linalg.svd(a, full_matrices=False).Vh ** 2", a=inp(3, 5, **D),
         second=True),
    case("svd_all_parts", code="u, s, vh = torch.linalg.svd(a, full_matrices=False)\n"
         "out = (u * u, s, vh * vh, u @ torch.diag_embed(s) @ vh)", a=inp(4, 4, **D)),
    case("svd_reconstruct_wide", code="u, s, vh = torch.linalg.svd(a, full_matrices=False)\n"
         "out = (u * s.unsqueeze(-2)) @ vh", a=inp(2, 3, 4, **D)),
    case("svd_float32", "torch.linalg.svdvals(a)", a=inp(4, 3), tol={"rtol": 1e-4, "atol": 1e-5}),
    case("torch_svd", code="u, s, v = torch.svd(a)\nout = (u * u, s, v * v)", a=inp(4, 3, **D)),
    case("torch_svd_no_uv", "torch.svd(a, compute_uv=False)", a=inp(3, 2, **D)),
    case("svd_repeated_nan", code="u, s, vh = torch.linalg.svd(a)\nout = torch.autograd.grad(u.sum(), a)",
         a=val([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 3.0]], dtype="float64"), numeric=False),
    case("error_svd_int", "torch.linalg.svd(a)", a=inp(2, 2, kind="int", dtype="int64")),
    # pinv, matrix_rank, lstsq
    case("pinv_tall", "torch.linalg.pinv(a)", a=inp(5, 3, **D), second=True),
    case("pinv_wide", "torch.linalg.pinv(a)", a=inp(3, 5, **D), second=True),
    case("pinv_hermitian", f"torch.linalg.pinv({SYM}, hermitian=True)", a=inp(4, 4, **D)),
    case("pinv_rank_deficient", "torch.linalg.pinv(a)", a=val([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]], dtype="float64")),
    case("pinv_atol", "torch.linalg.pinv(a, atol=0.5)", a=inp(3, 3, **D), numeric=False),
    case("torch_pinverse", "torch.pinverse(a)", a=inp(3, 4, **D)),
    case("matrix_rank", "torch.linalg.matrix_rank(a)", a=val([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])),
    case("matrix_rank_batched_tol", "torch.linalg.matrix_rank(a, atol=1.0, rtol=0.0)", a=inp(2, 3, 3, **D)),
    case("matrix_rank_hermitian", f"torch.linalg.matrix_rank({SYM}, hermitian=True)", a=inp(3, 3, **D)),
    case("lstsq", "torch.linalg.lstsq(a, b)", a=inp(5, 3, **D), b=inp(5, 2, **D), second=True),
    case("lstsq_vector_rhs", "torch.linalg.lstsq(a, b).solution", a=inp(4, 2, **D), b=inp(4, **D)),
    case("lstsq_batched", "torch.linalg.lstsq(a, b)", a=inp(2, 4, 3, **D), b=inp(2, 4, 1, **D)),
    case("lstsq_gelsd", "torch.linalg.lstsq(a, b, driver='gelsd')", a=inp(5, 3, **D), b=inp(5, 2, **D)),
    case("error_lstsq_rows", "torch.linalg.lstsq(a, b)", a=inp(4, 3, **D), b=inp(5, 2, **D)),
    # matrix_exp, matrix_power, multi_dot
    case("matrix_exp", "torch.linalg.matrix_exp(a)", a=inp(4, 4, **D), second=True),
    case("matrix_exp_large_norm", "torch.matrix_exp(a * 4)", a=inp(2, 3, 3, **D), tol={"rtol": 1e-8, "atol": 1e-9}),
    case("matrix_exp_float32", "torch.linalg.matrix_exp(a)", a=inp(3, 3), tol={"rtol": 1e-4, "atol": 1e-5}),
    case("matrix_power_5", "torch.linalg.matrix_power(a, 5)", a=inp(3, 3, **D), second=True),
    case("matrix_power_0", "torch.linalg.matrix_power(a, 0)", a=inp(3, 3, **D)),
    case("matrix_power_1", "torch.linalg.matrix_power(a, 1)", a=inp(3, 3, **D)),
    case("matrix_power_neg", "torch.linalg.matrix_power(a, -2)", a=inp(2, 3, 3, **D)),
    case("matrix_power_method", "a.matrix_power(3)", a=inp(3, 3, **D)),
    case("multi_dot_two", "torch.linalg.multi_dot([a, b])", a=inp(2, 3, **D), b=inp(3, 4, **D)),
    case("multi_dot_three", "torch.linalg.multi_dot([a, b, c])", a=inp(5, 2, **D), b=inp(2, 6, **D),
         c=inp(6, 3, **D), second=True),
    case("multi_dot_chain_vectors", "torch.linalg.multi_dot([a, b, c, d])", a=inp(2, **D), b=inp(2, 5, **D),
         c=inp(5, 3, **D), d=inp(3, **D)),
    case("error_multi_dot_one", "torch.linalg.multi_dot([a])", a=inp(2, 2)),
    case("error_multi_dot_shapes", "torch.linalg.multi_dot([a, b])", a=inp(2, 3), b=inp(2, 3)),
    # matrix norms through the singular values, cond
    case("matrix_norm_2", "torch.linalg.matrix_norm(a, 2)", a=inp(4, 3, **D), second=True),
    case("matrix_norm_neg2_keepdim", "torch.linalg.matrix_norm(a, -2, keepdim=True)", a=inp(2, 3, 4, **D)),
    case("matrix_norm_nuc_dims", "torch.linalg.matrix_norm(a, 'nuc', dim=(0, 2))", a=inp(3, 2, 4, **D)),
    case("linalg_norm_nuc", "torch.linalg.norm(a, 'nuc')", a=inp(3, 3, **D)),
    case("linalg_norm_2", "torch.linalg.norm(a, 2)", a=inp(3, 4, **D)),
    case("cond", "torch.linalg.cond(a)", a=inp(4, 4, **D), second=True),
    case("cond_neg2_rect", "torch.linalg.cond(a, -2)", a=inp(3, 4, **D)),
    case("cond_fro", "torch.linalg.cond(a, 'fro')", a=inp(3, 3, **D, requires_grad=False)),
    case("cond_inf_singular", "torch.linalg.cond(a, float('inf'))",
         a=val([[1.0, 2.0], [2.0, 4.0]], dtype="float64", requires_grad=False)),
    case("error_cond_fro_backward", code="out = torch.autograd.grad(torch.linalg.cond(a, 'fro'), a)",
         a=inp(3, 3, **D)),
    # solve_triangular
    case("solve_triangular_upper", "torch.linalg.solve_triangular(a.triu() + 3 * torch.eye(3, dtype=a.dtype), b, upper=True)",
         a=inp(3, 3, **D), b=inp(3, 2, **D), second=True),
    case("solve_triangular_right_unit", "torch.linalg.solve_triangular(a, b, upper=False, left=False, unitriangular=True)",
         a=inp(2, 3, 3, **D), b=inp(2, 3, **D), second=True),
    case("error_solve_triangular_long", "torch.linalg.solve_triangular(a, a, upper=True)",
         a=val([[1, 0], [0, 1]], dtype="int64", requires_grad=False)),
    # lu_factor, lu_solve
    case("lu_factor", "torch.linalg.lu_factor(a)", a=inp(4, 4, **D), second=True),
    case("lu_factor_batched", "torch.linalg.lu_factor(a)", a=inp(2, 3, 3, **D)),
    case("lu_factor_pivots", "torch.linalg.lu_factor(a).pivots", a=val([[1.0, 2.0, 0.0], [3.0, 4.0, 1.0],
                                                                      [0.5, 0.0, 9.0]])),
    case("error_lu_factor_singular", "torch.linalg.lu_factor(a)", a=val([[1.0, 2.0], [2.0, 4.0]])),
    case("lu_solve", code="lu, piv = torch.linalg.lu_factor(a)\nout = torch.linalg.lu_solve(lu, piv, b)",
         a=inp(3, 3, **D), b=inp(3, 2, **D), second=True),
    case("lu_solve_adjoint", code="lu, piv = torch.linalg.lu_factor(a)\n"
         "out = torch.linalg.lu_solve(lu, piv, b, adjoint=True)", a=inp(3, 3, **D), b=inp(3, 2, **D)),
    case("lu_solve_right", code="lu, piv = torch.linalg.lu_factor(a)\n"
         "out = torch.linalg.lu_solve(lu, piv, b, left=False)", a=inp(3, 3, **D), b=inp(2, 3, **D)),
    case("lu_solve_right_adjoint", code="lu, piv = torch.linalg.lu_factor(a)\n"
         "out = torch.linalg.lu_solve(lu, piv, b, left=False, adjoint=True)", a=inp(3, 3, **D), b=inp(2, 3, **D)),
    case("error_lu_solve_shapes", code="lu, piv = torch.linalg.lu_factor(a)\nout = torch.linalg.lu_solve(lu, piv, b)",
         a=inp(3, 3, **D), b=inp(4, 2, **D)),
]
