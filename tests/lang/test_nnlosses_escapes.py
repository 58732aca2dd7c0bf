"""Session 30's nn functions and layers (margin losses, unpooling, embedding_bag, pdist, grid
sampling, channel_shuffle) in scripts: they run, and their functions, modules, results and nodes
expose nothing of the engine."""

from __future__ import annotations

import pytest

from agrad.lang import Source, run

HEAD = ("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
        "x = torch.tensor([[0.5, -1.0, 2.0, 1.5], [3.0, 0.25, -0.5, 1.0]], requires_grad=True)\n"
        "y = torch.tensor([1, 3])\nt = torch.tensor([[1, -1, 0, 0], [0, 2, -1, 0]])\n")


def blocked(text, type_name="AttributeError"):
    err = run(Source("attack.py", text), timeout=20).error
    assert err is not None, f"not blocked: {text!r}"
    assert err.type_name == type_name and "Traceback" not in err.render(), err.render()


LOSSES = [
    "F.multi_margin_loss.__globals__", "F.multilabel_margin_loss.__code__", "F.soft_margin_loss.__globals__",
    "F.multilabel_soft_margin_loss.__wrapped__", "F.triplet_margin_with_distance_loss.__globals__",
    "F.multi_margin_loss(x, y).grad_fn.__dict__", "F.multilabel_margin_loss(x, t).grad_fn._saved_is_target.__class__.__subclasses__",
    "F.soft_margin_loss(x, x.detach()).grad_fn._op", "torch.autograd.grad(F.multi_margin_loss(x, y), x, create_graph=True)[0].grad_fn.__dict__",
    "nn.MultiMarginLoss().forward.__globals__", "nn.MultiLabelMarginLoss.__init__.__globals__", "nn.MultiLabelSoftMarginLoss().__class__.__mro__",
    "nn.TripletMarginWithDistanceLoss().distance_function.forward.__globals__",
    "torch.pdist.__globals__", "F.pdist.__code__", "torch.pdist(x).grad_fn.__dict__",
    "torch.autograd.grad(torch.pdist(x).sum(), x, create_graph=True)[0].grad_fn._op",
    "F.channel_shuffle.__globals__", "torch.channel_shuffle(x.view(1, 2, 4), 2).grad_fn.__dict__",
    "nn.ChannelShuffle(2).forward.__globals__",
    "F.max_unpool2d.__globals__", "F.max_unpool1d.__code__", "F.max_unpool3d.__globals__", "F.max_pool3d_with_indices.__globals__",
    "F.max_unpool1d(x, torch.tensor([[0, 3, 4, 7], [1, 2, 5, 6]]), 2).grad_fn.next_functions[0][0].__dict__",
    "nn.MaxUnpool2d(2).forward.__globals__", "nn.MaxUnpool1d(2).__class__.__mro__",
    "F.affine_grid.__globals__", "F.grid_sample.__code__", "F.embedding_bag.__globals__",
    "nn.EmbeddingBag(4, 2).forward.__globals__", "F.embedding_bag(y // 3, x, torch.tensor([0, 1])).grad_fn.__dict__",
    "F.grid_sample(x.view(1, 1, 2, 4), F.affine_grid(torch.eye(2, 3)[None], (1, 1, 2, 4), False), align_corners=False).grad_fn.__dict__",
    "F.affine_grid(torch.eye(2, 3)[None].requires_grad_(), (1, 1, 2, 2), False).grad_fn._op",
]


@pytest.mark.parametrize("use", LOSSES)
def test_new_nn_functions_expose_no_internals(use):
    blocked(HEAD + f"print({use})\n")


def test_margin_losses_run_in_scripts(run_ok):
    res = run_ok(HEAD + "def dist(a, b):\n    return (a - b).abs().sum(-1)\n"
                 "z = F.multi_margin_loss(x, y) + F.multilabel_margin_loss(x, t) + F.soft_margin_loss(x, x.detach().sign())\n"
                 "z = z + F.multilabel_soft_margin_loss(x, (x > 0).float(), reduction='sum')\n"
                 "z = z + nn.TripletMarginWithDistanceLoss(distance_function=dist)(x, x + 1, x.flip(0))\n"
                 "z.backward()\nprint(z.grad_fn.name(), nn.MultiMarginLoss(p=2, margin=0.5), x.grad[0])\n")
    assert res.stdout == ("AddBackward0 MultiMarginLoss() "  # (PyTorch's numbers)
                          "tensor([ 0.1084, -0.6491,  0.2053,  0.1816])\n")


def test_pdist_and_channel_shuffle_run_in_scripts(run_ok):
    res = run_ok(HEAD + "d = torch.pdist(x, 1) + F.pdist(x)\n"
                 "z = nn.ChannelShuffle(2)(x.view(1, 4, 2)).view(2, 4) * torch.arange(8.).view(2, 4)\n"
                 "(d.sum() + z.sum()).backward()\nprint(d.grad_fn.next_functions[0][0].name(), nn.ChannelShuffle(2), x.grad)\n")
    assert res.stdout == ("PdistBackward0 ChannelShuffle(groups=2) tensor([[-1.6608, -0.3304,  5.6608,  6.1322],\n"
                          "        [ 3.6608,  4.3304,  4.3392,  5.8678]])\n")  # (PyTorch's numbers)


def test_max_unpool_runs_in_scripts(run_ok):
    res = run_ok(HEAD + "o, i = F.max_pool1d(x.view(1, 2, 4), 2, return_indices=True)\n"
                 "u = nn.MaxUnpool1d(2)(o, i)\n(u * torch.arange(8.).view(1, 2, 4)).sum().backward()\n"
                 "print(u.grad_fn.name(), nn.MaxUnpool2d(2), x.grad)\n")
    assert res.stdout == ("SqueezeBackward1 MaxUnpool2d(kernel_size=(2, 2), stride=(2, 2), padding=(0, 0)) "
                          "tensor([[0., 0., 2., 0.],\n        [4., 0., 0., 7.]])\n")


def test_spatial_transformer_runs_in_scripts(run_ok):
    res = run_ok(HEAD + "theta = torch.tensor([[[1.0, 0.25, 0.0], [-0.25, 1.0, 0.5]]], requires_grad=True)\n"
                 "grid = F.affine_grid(theta, (1, 1, 2, 4), align_corners=False)\n"
                 "y = F.grid_sample(x.view(1, 1, 2, 4), grid, align_corners=False)\n"
                 "y.sum().backward()\nprint(y.grad_fn.name(), grid.grad_fn.name(), theta.grad)\n")
    assert res.stdout == ("GridSampler2DBackward0 AffineGridGeneratorBackward0 tensor([[[-0.5156, -2.5312,  0.9375],\n"
                          "         [-1.7188, -1.9375, -2.1250]]])\n")  # (PyTorch's numbers)


def test_embedding_bag_runs_in_scripts(run_ok):
    res = run_ok(HEAD + "torch.manual_seed(0)\nbag = nn.EmbeddingBag(4, 2, mode='sum', padding_idx=1)\n"
                 "out = bag(torch.tensor([0, 1, 2, 3, 3]), torch.tensor([0, 2]))\nout.sum().backward()\n"
                 "print(bag, out.grad_fn.name(), bag.weight.grad)\n")
    assert res.stdout == ("EmbeddingBag(4, 2, mode='sum', padding_idx=1) EmbeddingBagBackward0 tensor([[1., 1.],\n"
                          "        [0., 0.],\n        [1., 1.],\n        [2., 2.]])\n")
