"""Session 40's surface in scripts: Tensor.is_inference, torch.is_inference and torch.inference_mode's
objects (the version counter class that marks an inference tensor stays out of reach), torch.poisson
(its node, its sampler's helpers) and torch.histogramdd run, and expose nothing of the engine."""

from __future__ import annotations

import pytest

from agrad.lang import Source, run

HEAD = ("import torch\nwith torch.inference_mode():\n    x = torch.ones(3)\n"
        "w = torch.ones(3, requires_grad=True)\nim = torch.inference_mode()\n")


def blocked(text, type_name="AttributeError"):
    err = run(Source("attack.py", text), timeout=20).error
    assert err is not None, f"not blocked: {text!r}"
    assert err.type_name == type_name and "Traceback" not in err.render(), err.render()


@pytest.mark.parametrize("use", [
    "x._vc", "x._vc.__class__", "x.is_inference.__func__", "x.is_inference.__self__", "torch.is_inference.__globals__",
    "torch.is_inference.__code__", "im.__class__.__new__", "im._target", "im.__dict__", "im._prev",
    "torch.inference_mode.__mro__", "torch.is_inference_mode_enabled.__globals__", "x.detach()._vc",
    "im.clone().__class__.__init__.__globals__", "x[1:]._view_meta", "w[1:]._base",
])
def test_inference_surface_exposes_no_internals(use):
    blocked(HEAD + f"print({use})\n")


def test_inference_tensors_run_in_scripts(run_ok):
    res = run_ok(HEAD + "print(x.is_inference(), torch.is_inference(w), im.mode, im.clone().mode)\n"
                 "try:\n    x.add_(1)\nexcept RuntimeError as e:\n    print(str(e)[:40])\nprint(x)\n"
                 "with im:\n    print(torch.is_inference_mode_enabled(), (w * 2).is_inference())\n")
    assert res.stdout == ("True False True True\nInplace update to inference tensor outsi\ntensor([2., 2., 2.])\n"
                          "True True\n")


@pytest.mark.parametrize("use", [
    "torch.poisson.__globals__", "torch.poisson.__code__", "torch.poisson(w).grad_fn.__dict__",
    "torch.poisson(w).grad_fn._saved_self", "torch.poisson(w).grad_fn.__class__.__mro__",
    "torch.poisson(w).grad_fn.next_functions[0][0].__dict__", "torch.Generator()._key_pos",
])
def test_poisson_exposes_no_internals(use):
    blocked(HEAD + f"print({use})\n")


def test_poisson_runs_in_scripts(run_ok):
    res = run_ok(HEAD + "g = torch.Generator().manual_seed(0)\n"
                 "y = torch.poisson(torch.tensor([0., 0.5, 3., 10., 50.]) * w[0], g)\n"
                 "y.sum().backward()\nprint(y, w.grad, torch.rand(1, generator=g))\n")
    assert res.stdout == ("tensor([ 0.,  2.,  4., 11., 49.], grad_fn=<PoissonBackward0>) tensor([0., 0., 0.]) "
                          "tensor([0.4194])\n")  # (PyTorch 2.13's)


@pytest.mark.parametrize("use", [
    "torch.histogramdd.__globals__", "torch.histogramdd(x[:, None], 2).__class__.__base__.__subclasses__",
    "torch.histogramdd(x[:, None], 2)._make.__globals__", "torch.histogramdd(w[:, None], 2).hist.grad_fn.__dict__",
    "torch.histogramdd(w[:, None], 2).bin_edges[0].grad_fn._saved_value",
    "torch.return_types.histogramdd.__new__.__globals__",
])
def test_histogramdd_exposes_no_internals(use):
    blocked(HEAD + f"print({use})\n")


def test_histogramdd_runs_in_scripts(run_ok):
    res = run_ok(HEAD + "r = torch.histogramdd(torch.tensor([[0., 1.], [1., 0.], [2., 0.]]), [2, 1])\n"
                 "print(r)\nprint(r.hist.shape, len(r.bin_edges), type(r).__name__)\n")
    assert res.stdout == ("torch.return_types.histogramdd(\nhist=tensor([[1.],\n        [2.]]),\n"
                          "bin_edges=(tensor([0., 1., 2.]), tensor([0., 1.])))\ntorch.Size([2, 1]) 2 histogramdd\n")
