"""Session 30's linear algebra (issue 10, helper linalg2): the ``_ex`` forms (inv_ex, solve_ex,
cholesky_ex, lu_factor_ex), linalg.lu, torch.lu, torch.lu_solve, torch.lu_unpack, cholesky_solve, cholesky_inverse, triangular_solve, geqrf, householder_product/orgqr, ormqr, and the composites vander, tensorinv, tensorsolve,
nuclear_norm, frobenius_norm; gradients,
second derivatives, info tensors, return types and errors."""

from . import case, inp, val

D = {"dtype": "float64"}
SPD = "a @ a.mT + 3 * torch.eye(a.shape[-1], dtype=a.dtype)"
SINGULAR3 = [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]]
NOT_PD = [[4.0, 2.0, 1.0], [2.0, 1.0, 0.0], [1.0, 0.0, 3.0]]

CASES = [
    # the _ex forms
    case("inv_ex", "torch.linalg.inv_ex(a)", a=inp(3, 3, **D), second=True),
    case("inv_ex_singular", "torch.linalg.inv_ex(a)", a=val(SINGULAR3, requires_grad=False)),
    case("error_inv_ex_check", "torch.linalg.inv_ex(a, check_errors=True)", a=val(SINGULAR3)),
    case("solve_ex", "torch.linalg.solve_ex(a, b)", a=inp(3, 3, **D), b=inp(3, 2, **D), second=True),
    case("solve_ex_vector_batched", "torch.linalg.solve_ex(a, b)", a=inp(2, 3, 3, **D), b=inp(3, **D)),
    case("solve_ex_singular", "torch.linalg.solve_ex(a, b)", a=val(SINGULAR3, requires_grad=False),
         b=inp(3, 2, requires_grad=False)),
    case("cholesky_ex", f"torch.linalg.cholesky_ex({SPD})", a=inp(3, 3, **D), second=True),
    case("cholesky_ex_upper_batched", f"torch.linalg.cholesky_ex({SPD}, upper=True)", a=inp(2, 3, 3, **D)),
    case("cholesky_ex_not_pd", "torch.linalg.cholesky_ex(a)", a=val(NOT_PD, requires_grad=False)),
    case("error_cholesky_ex_check", "torch.linalg.cholesky_ex(a, check_errors=True)", a=val(NOT_PD)),
    case("lu_factor_ex", "torch.linalg.lu_factor_ex(a)", a=inp(3, 4, **D), second=True),
    case("lu_factor_ex_singular", "torch.linalg.lu_factor_ex(a)", a=val(SINGULAR3, requires_grad=False)),
    # linalg.lu, torch.lu, lu_unpack, torch.lu_solve
    case("linalg_lu", "torch.linalg.lu(a)", a=inp(3, 3, **D), second=True),
    case("linalg_lu_wide", "torch.linalg.lu(a)", a=inp(2, 4, **D), second=True),
    case("linalg_lu_tall_batched", "torch.linalg.lu(a)", a=inp(2, 4, 3, **D)),
    case("linalg_lu_L_only", "torch.linalg.lu(a).L", a=inp(3, 3, **D)),
    case("linalg_lu_U_only_tall", "torch.linalg.lu(a).U", a=inp(4, 2, **D)),
    case("torch_lu", "torch.lu(a)", a=inp(3, 3, **D)),
    case("torch_lu_infos", "torch.lu(a, get_infos=True)", a=inp(2, 3, 3, **D)),
    case("lu_unpack", code="lu, piv = torch.linalg.lu_factor(a)\nout = torch.lu_unpack(lu, piv)",
         a=inp(3, 3, **D), second=True),
    case("lu_unpack_wide", code="lu, piv = torch.linalg.lu_factor(a)\nout = torch.lu_unpack(lu, piv)",
         a=inp(2, 4, **D)),
    case("lu_unpack_tall", code="lu, piv = torch.linalg.lu_factor(a)\nout = torch.lu_unpack(lu, piv)",
         a=inp(4, 2, **D)),
    case("torch_lu_solve", code="lu, piv = torch.linalg.lu_factor(a)\nout = torch.lu_solve(b, lu, piv)",
         a=inp(3, 3, **D), b=inp(3, 2, **D)),
    case("lu_solve_method", code="lu, piv = torch.linalg.lu_factor(a)\nout = b.lu_solve(lu, piv)",
         a=inp(3, 3, **D), b=inp(2, 3, 1, **D)),
    # cholesky_solve, cholesky_inverse, triangular_solve
    case("cholesky_solve", code=f"l = torch.linalg.cholesky({SPD})\nout = torch.cholesky_solve(b, l)",
         a=inp(3, 3, **D), b=inp(3, 2, **D), second=True),
    case("cholesky_solve_upper_batched", code=f"u = torch.linalg.cholesky({SPD}, upper=True)\n"
         "out = torch.cholesky_solve(b, u, upper=True)", a=inp(3, 3, **D), b=inp(2, 3, 2, **D)),
    case("cholesky_solve_method_float32", code=f"l = torch.linalg.cholesky({SPD})\nout = b.cholesky_solve(l)",
         a=inp(3, 3), b=inp(3, 1), tol={"rtol": 1e-4, "atol": 1e-5}),
    case("error_cholesky_solve_sizes", "torch.cholesky_solve(b, a)", a=inp(2, 2), b=inp(3, 2)),
    case("cholesky_inverse", code=f"l = torch.linalg.cholesky({SPD})\nout = torch.cholesky_inverse(l)",
         a=inp(3, 3, **D), second=True),
    case("cholesky_inverse_upper_batched", code=f"u = torch.linalg.cholesky({SPD}, upper=True)\n"
         "out = u.cholesky_inverse(upper=True)", a=inp(2, 3, 3, **D)),
    case("error_cholesky_inverse_singular", "torch.cholesky_inverse(a)", a=val([[1.0, 0.0], [1.0, 0.0]])),
    case("triangular_solve", "torch.triangular_solve(b, a)", a=inp(3, 3, **D), b=inp(3, 2, **D), second=True),
    case("triangular_solve_lower_transpose_unit", "torch.triangular_solve(b, a, False, True, True)",
         a=inp(3, 3, **D), b=inp(3, 2, **D), second=True),
    case("triangular_solve_solution_only_batched", "torch.triangular_solve(b, a, upper=False).solution",
         a=inp(3, 3, **D), b=inp(2, 3, 1, **D)),
    case("triangular_solve_copy_only", "torch.triangular_solve(b, a).cloned_coefficient", a=inp(3, 3, **D), b=inp(3, 2, **D)),
    case("triangular_solve_method", "b.triangular_solve(a)", a=inp(2, 2, **D), b=inp(2, 3, **D)),
    # composites
    case("linalg_vander", "torch.linalg.vander(a)", a=inp(3, **D), second=True),
    case("linalg_vander_N_batched", "torch.linalg.vander(a, N=4)", a=inp(2, 3)),
    case("linalg_vander_int", "torch.linalg.vander(a)", a=inp(3, kind="int", dtype="int64")),
    case("linalg_tensorinv", f"torch.linalg.tensorinv(({SPD}).reshape(4, 2, 2), ind=1)", a=inp(4, 4, **D), second=True),
    case("linalg_tensorsolve", f"torch.linalg.tensorsolve(({SPD}).reshape(2, 3, 6), b)", a=inp(6, 6, **D), b=inp(2, 3, **D),
         second=True),
    case("linalg_tensorsolve_dims", f"torch.linalg.tensorsolve(({SPD}).reshape(6, 2, 3), b, dims=(0,))", a=inp(6, 6, **D),
         b=inp(2, 3, **D)),
    case("nuclear_norm", "torch.nuclear_norm(a)", a=inp(3, 4, **D), second=True),
    case("nuclear_norm_dim_keepdim", "torch.nuclear_norm(a, dim=(0, 2), keepdim=True)", a=inp(3, 2, 4, **D)),
    case("frobenius_norm", "torch.frobenius_norm(a, dim=(0, 1))", a=inp(3, 4, **D), second=True),
    case("frobenius_norm_dim_keepdim", "torch.frobenius_norm(a, dim=-1, keepdim=True)", a=inp(2, 3, 4)),
    case("error_frobenius_norm_three_dims", "torch.frobenius_norm(a, dim=(0, 1, 2))", a=inp(2, 3, 4)),
    # geqrf, householder_product, ormqr
    case("geqrf", "torch.geqrf(a)", a=inp(4, 3, **D, requires_grad=False)),
    case("error_geqrf_backward", code="x = torch.geqrf(a)\nx.a.sum().backward()\nout = a.grad", a=inp(3, 2, **D)),
    case("householder_product", code="v, tau = torch.geqrf(a.detach())\nv.requires_grad_()\ntau.requires_grad_()\n"
         "out = torch.linalg.householder_product(v, tau) * torch.linalg.householder_product(v, tau)",
         a=inp(4, 3, **D), numeric=False),
    case("orgqr_batched_fewer_reflectors", code="v, tau = torch.geqrf(a.detach())\nv.requires_grad_()\n"
         "out = torch.orgqr(v, tau[..., :1])", a=inp(2, 3, 2, **D), numeric=False),
    case("ormqr", code="v, tau = torch.geqrf(a.detach())\nv.requires_grad_()\ntau.requires_grad_()\nout = torch.ormqr(v, tau, c)",
         a=inp(4, 3, **D), c=inp(4, 2, **D), numeric=False),
    case("ormqr_right_transpose", code="v, tau = torch.geqrf(a.detach())\nv.requires_grad_()\ntau.requires_grad_()\n"
         "out = torch.ormqr(v, tau, c, left=False, transpose=True)", a=inp(4, 3, **D), c=inp(2, 4, **D), numeric=False),
    case("error_ormqr_tau", "torch.ormqr(a, c, a)", a=inp(3, 2, requires_grad=False), c=inp(3, requires_grad=False)),
]
