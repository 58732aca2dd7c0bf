"""Session 29's new torch functions (quantile, cdist, cov, histc, ...) in scripts: they run, and
their functions, results and nodes expose nothing of the engine."""

from __future__ import annotations

import pytest

from agrad.lang import Source, run

HEAD = ("import torch\nx = torch.tensor([[0.5, -1.0, 2.0], [3.0, 0.25, -0.5]], requires_grad=True)\n"
        "q = torch.tensor([0.25, 0.5])\n")


def blocked(text, type_name="AttributeError"):
    err = run(Source("attack.py", text), timeout=20).error
    assert err is not None, f"not blocked: {text!r}"
    assert err.type_name == type_name and "Traceback" not in err.render(), err.render()


@pytest.mark.parametrize("use", [
    "torch.quantile.__globals__", "torch.nanquantile.__code__", "x.quantile.__func__", "x.nanquantile.__self__",
    "torch.quantile(x, q, 1).grad_fn.__dict__", "torch.quantile(x, 0.5).grad_fn._saved_self.__dict__",
    "torch.histogram(x, 2).__class__.__base__.__subclasses__", "torch.histogram(x, 2).hist.grad_fn.__dict__",
    "torch.histc.__globals__", "torch.histogram(x, 2)._make.__globals__",
    "torch.block_diag(x, x).grad_fn.__class__.__init__.__globals__", "torch.tril_indices.__code__",
    "torch.combinations(x[0]).grad_fn.next_functions[0][0].__dict__", "torch.cartesian_prod.__globals__",
    "torch.renorm(x, 2, 0, 1).grad_fn.__dict__", "torch.ldexp.__globals__", "x.addr.__func__", "torch.vander.__code__",
    "torch.nextafter(x, q[0]).grad_fn._saved_self.__dict__", "torch.chain_matmul.__globals__",
    "torch.unique_consecutive(x).grad_fn.__class__.__mro__",
    "torch.cov.__globals__", "x.corrcoef.__func__", "torch.cov(x).grad_fn.__class__.__mro__",
    "torch.cdist.__globals__", "torch.cdist(x, x).grad_fn._saved_x1.__class__.__subclasses__",
    "torch.cdist(x, x, compute_mode='use_mm_for_euclid_dist').grad_fn.next_functions[0][0].__dict__",
])
def test_new_functions_expose_no_internals(use):
    blocked(HEAD + f"print({use})\n")


def test_cdist_runs_in_scripts(run_ok):
    res = run_ok(HEAD + "d = torch.cdist(x, x, p=1)\nd.sum().backward()\nprint(d, x.grad)\n")
    assert res.stdout == ("tensor([[0.0000, 6.2500],\n        [6.2500, 0.0000]], grad_fn=<CdistBackward0>) "
                          "tensor([[-2., -2.,  2.],\n        [ 2.,  2., -2.]])\n")


def test_histogram_runs_in_scripts(run_ok):
    res = run_ok(HEAD + "h = torch.histogram(x.detach(), 2)\nprint(h.hist, h[1], torch.histc(x.detach(), 2))\n")
    assert res.stdout == "tensor([4., 2.]) tensor([-1.,  1.,  3.]) tensor([4., 2.])\n"


def test_new_functions_run_in_scripts(run_ok):
    res = run_ok(HEAD + "print(torch.quantile(x, q, dim=1), x.nanquantile(0.5, 0, True, interpolation='lower'))\n")
    assert res.stdout == ("tensor([[-0.2500, -0.1250],\n        [ 0.5000,  0.2500]], grad_fn=<SqueezeBackward4>) "
                          "tensor([[ 0.5000, -1.0000, -0.5000]], grad_fn=<SqueezeBackward4>)\n")
