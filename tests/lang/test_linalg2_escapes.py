"""Session 30's linear algebra (inv_ex, solve_ex, cholesky_ex, lu_factor_ex, linalg.lu, torch.lu, lu_unpack,
torch.lu_solve, ...) in scripts: they run, and their functions, results and nodes expose nothing of the engine."""

from __future__ import annotations

import pytest

from agrad.lang import Source, run

HEAD = ("import torch\n"
        "a = torch.tensor([[2.0, 0.5, 1.0], [0.25, 3.0, -1.0], [1.5, -0.75, 1.5]], requires_grad=True)\n"
        "s = torch.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]], requires_grad=True)\n"
        "b = torch.tensor([[1.0, -2.0], [0.5, 0.25], [3.0, 1.0]], requires_grad=True)\n")


def blocked(text, type_name="AttributeError"):
    err = run(Source("attack.py", text), timeout=20).error
    assert err is not None, f"not blocked: {text!r}"
    assert err.type_name == type_name and "Traceback" not in err.render(), err.render()


@pytest.mark.parametrize("use", [
    "torch.linalg.inv_ex.__globals__", "torch.linalg.solve_ex.__wrapped__", "torch.linalg.cholesky_ex.__code__",
    "torch.linalg.lu_factor_ex.__globals__", "torch.linalg.lu.__globals__", "torch.lu.__globals__",
    "torch.lu_unpack.__wrapped__", "torch.lu_solve.__code__", "a.lu.__func__", "b.lu_solve.__globals__",
    "torch.linalg.inv_ex(a).__class__.__mro__", "torch.linalg.inv_ex(a).inverse.grad_fn.__dict__",
    "torch.linalg.solve_ex(a, b).info.__class__.__subclasses__", "torch.linalg.cholesky_ex(s).L.grad_fn._saved_result.__dict__",
    "torch.linalg.lu(a).L.grad_fn.__dict__", "torch.linalg.lu(a).L.grad_fn._saved_P.__class__.__subclasses__",
    "torch.lu_unpack(*torch.linalg.lu_factor(a)).U.grad_fn.__dict__", "torch.linalg.lu_factor_ex(a).LU.grad_fn._op",
    "torch.linalg.lu(a)._asdict.__globals__",
    "torch.cholesky_solve.__globals__", "b.cholesky_solve.__func__", "torch.cholesky_inverse.__wrapped__",
    "torch.triangular_solve.__code__", "torch.cholesky_solve(b, s).grad_fn.__dict__",
    "torch.cholesky_inverse(s).grad_fn._saved_self.__class__.__subclasses__",
    "torch.triangular_solve(b, a).cloned_coefficient.grad_fn.__dict__", "torch.triangular_solve(b, a).__class__.__mro__",
    "torch.linalg.vander.__globals__", "torch.linalg.tensorinv.__code__", "torch.linalg.tensorsolve.__globals__",
    "torch.nuclear_norm.__globals__", "torch.frobenius_norm.__code__", "torch.frobenius_norm(a, (0, 1)).grad_fn.__dict__",
    "torch.geqrf.__globals__", "a.geqrf.__func__", "torch.linalg.householder_product.__wrapped__", "torch.orgqr.__code__",
    "torch.ormqr.__globals__", "torch.geqrf(a).a.grad_fn.__dict__", "torch.orgqr(*torch.geqrf(a)).grad_fn._saved_tau.__class__.__subclasses__",
    "torch.ormqr(*torch.geqrf(a), b).grad_fn.__dict__",
    "torch.linalg.ldl_factor.__globals__", "torch.linalg.ldl_factor_ex.__wrapped__", "torch.linalg.ldl_solve.__code__",
    "torch.linalg.ldl_factor(s).LD.grad_fn.__dict__", "torch.matrix_rank.__globals__", "a.symeig.__func__", "torch.solve.__code__",
])
def test_new_linalg_functions_expose_no_internals(use):
    blocked(HEAD + f"print({use})\n")


def test_new_linalg_functions_run_in_scripts(run_ok):
    res = run_ok(HEAD + "P, L, U = torch.linalg.lu(a)\nX, info = torch.linalg.solve_ex(a, b)\n"
                 "y = (L * U).sum() + X.sum() + torch.linalg.inv_ex(a).inverse.sum() + torch.linalg.cholesky_ex(s).L.sum()\n"
                 "LU, piv, inf = torch.linalg.lu_factor_ex(a)\ny = y + torch.lu_unpack(LU, piv).L.sum() + torch.lu_solve(b, LU, piv).sum()\n"
                 "y = y + torch.cholesky_solve(b, s).sum() + s.cholesky_inverse().sum() + sum(t.sum() for t in torch.triangular_solve(b, a))\n"
                 "y = y + torch.linalg.vander(a[0]).sum() + torch.linalg.tensorinv(s, ind=1).sum() + torch.linalg.tensorsolve(s, b[:, 0]).sum()\n"
                 "y = y + torch.nuclear_norm(a) + torch.frobenius_norm(a, (0, 1))\n"
                 "v, tau = torch.geqrf(a.detach())\ny = y + torch.linalg.householder_product(v, tau).sum() + torch.ormqr(v, tau, b).sum()\n"
                 "LD, pv = torch.linalg.ldl_factor(s.detach())\nprint(torch.linalg.ldl_solve(LD, pv, b.detach()).shape)\n"
                 "y.backward()\nprint(info, inf, P.dtype, a.grad.shape, b.grad.shape, s.grad.shape)\n")
    assert res.stdout.startswith("torch.Size([3, 2])\ntensor(0, dtype=torch.int32) tensor(0, dtype=torch.int32) torch.float32 torch.Size([3, 3])")
