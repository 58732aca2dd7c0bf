"""Session 31's nn functions and layers (CTC loss, fractional max pooling, grid_sample bicubic,
AdaptiveLogSoftmaxWithLoss, LinearCrossEntropyLoss, SyncBatchNorm, conv_tbc, NLLLoss2d, Container) in
scripts: they run, and their functions, modules, results and nodes expose nothing of the engine."""

from __future__ import annotations

import pytest

from agrad.lang import Source, run

HEAD = ("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
        "lp = torch.linspace(-2., 1., 20).view(5, 1, 4).log_softmax(2).requires_grad_()\n"
        "tg = torch.tensor([[1, 2]])\nx = torch.linspace(-1., 2., 32).view(1, 2, 4, 4).requires_grad_()\n")


def blocked(text, type_name="AttributeError"):
    err = run(Source("attack.py", text), timeout=20).error
    assert err is not None, f"not blocked: {text!r}"
    assert err.type_name == type_name and "Traceback" not in err.render(), err.render()


USES = [
    "F.ctc_loss.__globals__", "torch.ctc_loss.__code__", "nn.CTCLoss().forward.__globals__", "nn.CTCLoss.__init__.__globals__",
    "F.ctc_loss(lp, tg, [5], [2]).grad_fn.__dict__", "F.ctc_loss(lp, tg, [5], [2], reduction='none').grad_fn._op",
    "F.ctc_loss(lp, tg, [5], [2], reduction='none').grad_fn.tp.__class__.__mro__",  # (a node's arrays: no dunders)
    "torch.autograd.grad(F.ctc_loss(lp, tg, [5], [2]), lp, create_graph=True)[0].grad_fn.__dict__",
    "F.fractional_max_pool2d.__globals__", "F.fractional_max_pool3d_with_indices.__code__",
    "F.fractional_max_pool2d(x, 2, output_size=3).grad_fn.__dict__",
    "F.fractional_max_pool2d(x, 2, output_size=3).grad_fn.indices.__array_interface__",
    "nn.FractionalMaxPool2d(2, output_size=2).forward.__globals__", "nn.FractionalMaxPool3d.__mro__",
    "nn.NLLLoss2d.__init__.__globals__",
    "nn.AdaptiveLogSoftmaxWithLoss(4, 6, [2]).forward.__globals__", "nn.AdaptiveLogSoftmaxWithLoss(4, 6, [2])(x.view(8, 4), tg.view(-1).repeat(4)).__class__.__mro__",
    "nn.AdaptiveLogSoftmaxWithLoss(4, 6, [2])(x.view(8, 4), tg.view(-1).repeat(4)).loss.grad_fn.__dict__",
    "nn.LinearCrossEntropyLoss(4, 3).forward.__globals__", "F.linear_cross_entropy.__globals__",
    "nn.SyncBatchNorm(2).forward.__globals__", "nn.SyncBatchNorm.convert_sync_batchnorm.__func__",
    "nn.Container.__init__.__globals__", "torch.conv_tbc.__globals__", "F.conv_tbc(x[0], torch.ones(1, 4, 2), torch.ones(2)).grad_fn.__dict__",
    "torch.native_channel_shuffle.__code__", "torch.native_channel_shuffle(x, 2).grad_fn.__dict__",
    "F.grid_sample(x, torch.zeros(1, 2, 2, 2), mode='bicubic', align_corners=False).grad_fn.__dict__",
]


@pytest.mark.parametrize("use", USES)
def test_new_nn_functions_expose_no_internals(use):
    blocked(HEAD + f"print({use})\n")


def test_ctc_loss_runs_in_scripts(run_ok):
    res = run_ok(HEAD + "loss = nn.CTCLoss()(lp, tg, torch.tensor([5]), torch.tensor([2]))\nloss.backward()\n"
                 "print(loss, loss.grad_fn.next_functions[0][0].next_functions[0][0].name(), nn.CTCLoss(blank=1), lp.grad[0])\n")
    assert res.stdout == ("tensor(1.9232, grad_fn=<MeanBackward0>) CtcLossBackward0 CTCLoss() "  # (PyTorch's numbers)
                          "tensor([[-0.0951, -0.1941,  0.1332,  0.1560]])\n")


def test_fractional_max_pool_runs_in_scripts(run_ok):
    res = run_ok(HEAD + "torch.manual_seed(0)\ny, i = nn.FractionalMaxPool2d(2, output_ratio=0.5, return_indices=True)(x)\n"
                 "(y * torch.arange(8.).view(1, 2, 2, 2)).sum().backward()\n"
                 "print(y.grad_fn.name(), nn.FractionalMaxPool2d(2, output_size=3), i.tolist(), x.grad.sum())\n")
    assert res.stdout == ("FractionalMaxPool2DBackward0 FractionalMaxPool2d() [[[[5, 7], [13, 15]], [[5, 7], [13, 15]]]] "
                          "tensor(28.)\n")


def test_adaptive_softmax_and_small_layers_run_in_scripts(run_ok):
    res = run_ok(HEAD + "torch.manual_seed(0)\nm = nn.AdaptiveLogSoftmaxWithLoss(4, 6, [2], div_value=2.0)\n"
                 "r = m(x.view(8, 4), torch.tensor([0, 1, 2, 3, 4, 5, 0, 5]))\nr.loss.backward()\n"
                 "s = nn.SyncBatchNorm(2)(x)\nl = nn.LinearCrossEntropyLoss(4, 3)(x.view(8, 4), torch.tensor([0, 1, 2, 0, 1, 2, 0, 1]))\n"
                 "y = F.conv_tbc(x.view(4, 2, 4), torch.ones(2, 4, 3), torch.zeros(3), 1)\n"
                 "print(r.loss, r.output.shape, m.predict(x.view(8, 4)), s.grad_fn.name(), l.grad_fn.name(), y.grad_fn.name(), y.shape)\n")
    assert res.stdout == ("tensor(2.2646, grad_fn=<MeanBackward0>) torch.Size([8]) tensor([0, 0, 1, 1, 1, 1, 1, 1]) "
                          "NativeBatchNormBackward0 NllLossBackward0 ConvTbcBackward0 torch.Size([5, 2, 3])\n")
