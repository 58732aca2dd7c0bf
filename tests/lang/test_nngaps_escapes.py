"""Session 29's new nn functions and layers (rms_norm, lp_pool, local_response_norm, RMSNorm, ...) in
scripts: they run, and their functions, modules, results and nodes expose nothing of the engine."""

from __future__ import annotations

import pytest

from agrad.lang import Source, run

HEAD = ("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
        "x = torch.tensor([[[0.5, -1.0, 2.0, 1.5], [3.0, 0.25, -0.5, 1.0]]], requires_grad=True)\n")


def blocked(text, type_name="AttributeError"):
    err = run(Source("attack.py", text), timeout=20).error
    assert err is not None, f"not blocked: {text!r}"
    assert err.type_name == type_name and "Traceback" not in err.render(), err.render()


@pytest.mark.parametrize("use", [
    "F.rms_norm.__globals__", "torch.rms_norm.__code__", "F.lp_pool1d.__globals__", "F.lp_pool2d.__wrapped__",
    "F.local_response_norm.__globals__", "nn.RMSNorm.__init__.__globals__", "nn.RMSNorm(4).forward.__func__",
    "nn.LPPool1d(2, 2).forward.__globals__", "nn.LocalResponseNorm(2).__class__.__mro__",
    "F.rms_norm(x, (4,)).grad_fn.__dict__", "F.lp_pool1d(x, 2, 2).grad_fn.next_functions[0][0].__dict__",
    "F.local_response_norm(x, 2).grad_fn._saved_self.__class__.__subclasses__",
    "F.adaptive_max_pool1d.__globals__", "torch.adaptive_max_pool1d.__code__", "F.adaptive_max_pool2d_with_indices.__globals__",
    "F.adaptive_max_pool2d(x, 1).grad_fn.__dict__", "F.adaptive_max_pool1d(x, 2, True)[1].__class__.__subclasses__",
    "nn.AdaptiveMaxPool2d(1).forward.__globals__", "F.triplet_margin_loss.__globals__", "torch.triplet_margin_loss.__code__",
    "nn.TripletMarginLoss().forward.__globals__", "F.gumbel_softmax.__globals__", "F.gumbel_softmax(x).grad_fn.__dict__", "F.triplet_margin_loss(x, x * 2, x).grad_fn.__dict__",
])
def test_new_nn_functions_expose_no_internals(use):
    blocked(HEAD + f"print({use})\n")


def test_new_nn_functions_run_in_scripts(run_ok):
    res = run_ok(HEAD + "m = nn.RMSNorm(4)\ny = m(x) + F.lp_pool1d(x, 1, 2).sum() + F.local_response_norm(x, 2).sum()\n"
                 "y = y + nn.AdaptiveMaxPool1d(2)(x).sum()\n"
                 "y.sum().backward()\nprint(m, nn.LPPool2d(2, 3), nn.LocalResponseNorm(2), m.weight.grad)\n")
    assert res.stdout.startswith("RMSNorm((4,), eps=None, elementwise_affine=True) "
                                 "LPPool2d(norm_type=2, kernel_size=3, stride=None, ceil_mode=False) "
                                 "LocalResponseNorm(2, alpha=0.0001, beta=0.75, k=1.0) tensor([")
