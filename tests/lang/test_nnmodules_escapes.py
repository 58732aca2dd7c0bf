"""Session 30's new layers (Transformer and its parts, the 3-D pools, BatchNorm3d, the lazy
layers and their UninitializedParameter/UninitializedBuffer placeholders) in scripts:
they run, and their modules, methods, results and nodes expose nothing of the engine."""

from __future__ import annotations

import pytest

from agrad.lang import Source, run

HEAD = ("import torch\nimport torch.nn as nn\n"
        "x = torch.ones(2, 3, 4, requires_grad=True)\n"
        "v = torch.ones(1, 2, 2, 4, 4, requires_grad=True)\n"
        "enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 6, 0.0), 1, "
        "enable_nested_tensor=False)\n")


def blocked(text, type_name="AttributeError"):
    err = run(Source("attack.py", text), timeout=30).error
    assert err is not None, f"not blocked: {text!r}"
    assert err.type_name == type_name and "Traceback" not in err.render(), err.render()


@pytest.mark.parametrize("use", [
    "nn.Transformer.__init__.__globals__", "nn.Transformer.generate_square_subsequent_mask.__globals__",
    "nn.Transformer.__mro__", "enc.forward.__func__", "enc.layers[0].__dict__",
    "enc.layers[0]._sa_block.__globals__", "enc.layers[0].activation.__globals__",
    "enc.layers[0]._ff.__code__", "enc._padded_rows.__func__", "enc.layers.__class__.__subclasses__",
    "enc(x).grad_fn.__dict__", "enc(x).grad_fn.next_functions[0][0].__dict__",
    "nn.TransformerDecoderLayer(4, 2).forward.__globals__", "nn.TransformerDecoder.__init__.__code__",
    "nn.MaxPool3d(2).forward.__globals__", "nn.AvgPool3d(2)(v).grad_fn.__dict__",
    "nn.AdaptiveAvgPool3d(1).__class__.__mro__", "nn.BatchNorm3d(2)._check_input_dim.__func__",
    "nn.BatchNorm3d(2)(v).grad_fn._saved_self.__class__.__subclasses__",
    "nn.CrossMapLRN2d(2)(v[0]).grad_fn.__dict__", "nn.CrossMapLRN2d(2)(v[0]).grad_fn._function",
    "nn.CrossMapLRN2d(2)(v[0]).grad_fn.scale.__class__.__mro__", "nn.CrossMapLRN2d(2).forward.__globals__",
])
def test_new_layers_expose_no_internals(use):
    blocked(HEAD + f"print({use})\n")


def test_script_activation_runs_inside_the_layer(run_ok):
    res = run_ok(HEAD + "def act(t):\n    return torch.tanh(t) * 2\n"
                 "layer = nn.TransformerEncoderLayer(4, 2, 6, 0.0, activation=act)\n"
                 "e = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)\n"
                 "e(x).sum().backward()\n"
                 "print(e.layers[1].activation is act, e.layers[0].activation_relu_or_gelu, "
                 "x.grad.shape)\n")
    assert res.stdout == "True 0 torch.Size([2, 3, 4])\n"


def test_new_layers_run_in_scripts(run_ok):
    res = run_ok(HEAD + "t = nn.Transformer(4, 2, 1, 1, 6, dropout=0.0)\n"
                 "y = t(x, x[:2], tgt_mask=t.generate_square_subsequent_mask(2))\n"
                 "z = nn.MaxPool3d(2)(v).sum() + nn.AvgPool3d(2)(v).sum() + "
                 "nn.AdaptiveAvgPool3d(1)(v).sum() + nn.BatchNorm3d(2)(v).sum() + "
                 "nn.CrossMapLRN2d(2)(v[0]).sum()\n"
                 "(y.sum() + z).backward()\n"
                 "print(y.shape, y.grad_fn.name(), list(t.state_dict())[:2])\n")
    assert res.stdout == ("torch.Size([2, 3, 4]) NativeLayerNormBackward0 "
                          "['encoder.layers.0.self_attn.in_proj_weight', "
                          "'encoder.layers.0.self_attn.in_proj_bias']\n")


def test_nested_tensor_warning_points_at_the_script_line(run_ok):
    res = run_ok("import torch\nimport torch.nn as nn\n\n"
                 "enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2), 1)\n")
    [w] = res.warnings
    assert w.render() == ("<script>:4: UserWarning: enable_nested_tensor is True, but "
                          "self.use_nested_tensor is False because encoder_layer.self_attn."
                          "batch_first was not True(use batch_first for better inference "
                          "performance)\n"
                          "  enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2), 1)")


LAZY = ("import torch\nimport torch.nn as nn\n"
        "lin = nn.LazyLinear(3)\np = nn.UninitializedParameter()\n")


@pytest.mark.parametrize("use", [
    "lin._initialize_hook", "lin._forward_pre_hooks", "lin.weight._data", "lin.weight.__class__.__mro__",
    "lin.weight.numel.__closure__", "lin.weight.t.__globals__", "lin.weight.materialize.__func__",
    "lin.initialize_parameters.__globals__", "lin.cls_to_become.__init__.__globals__",
    "lin.has_uninitialized_params.__code__", "nn.LazyConv2d.__mro__", "p.__reduce_ex__",
    "nn.UninitializedBuffer.__subclasses__", "nn.LazyBatchNorm1d().running_mean.__class__.__mro__",
])
def test_lazy_layers_expose_no_internals(use):
    blocked(LAZY + f"print({use})\n")


def test_placeholders_refuse_as_pytorch(run_err):
    err = run_err(LAZY + "lin.weight.numel()\n")
    assert err.type_name == "ValueError" and err.message.startswith(
        "Attempted to use an uninitialized parameter in <method 'numel' of "
        "'torch._C.TensorBase' objects>.")
    err = run_err(LAZY + "p.shape\n")
    assert err.type_name == "RuntimeError" and "Can't access the shape" in err.message


def test_materialize_is_size_limited(run_err):
    err = run_err(LAZY + "p.materialize((100000, 100000))\n")
    assert err.type_name == "LimitError"


def test_lazy_layers_run_in_scripts(run_ok):
    res = run_ok(LAZY + "net = nn.Sequential(nn.LazyConv2d(2, 3, padding=1), nn.LazyBatchNorm2d(), "
                 "nn.Flatten(), lin)\nprint(net[0], net[3])\n"
                 "net(torch.ones(1, 1, 2, 2)).sum().backward()\n"
                 "print(net[0], net[1], net[3], lin.weight.grad.shape)\n")
    assert res.stdout == (
        "LazyConv2d(0, 2, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1)) "
        "LazyLinear(in_features=0, out_features=3, bias=True)\n"
        "Conv2d(1, 2, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1)) "
        "BatchNorm2d(2, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True) "
        "Linear(in_features=8, out_features=3, bias=True) torch.Size([3, 8])\n")


FAST = ("import torch\nimport torch.nn as nn\ntorch.manual_seed(0)\n"
        "enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), 1)"
        ".eval()\npad = torch.tensor([[False, False, True]])\nx = torch.randn(1, 3, 8)\n")


def test_fast_path_switch_and_nested_tensor_zeros(run_ok):
    # PyTorch 2.13 prints the same two lines (its nested tensors leave zeros at padded positions)
    res = run_ok(FAST + "with torch.no_grad():\n    a = enc(x, src_key_padding_mask=pad)\n"
                 "    torch.backends.mha.set_fastpath_enabled(False)\n"
                 "    b = enc(x, src_key_padding_mask=pad)\n"
                 "print(a[0, 2, :3], torch.backends.mha.get_fastpath_enabled())\n"
                 "print(b[0, 2, :3])\n")
    assert res.stdout == ("tensor([0., 0., 0.]) False\n"
                          "tensor([ 1.8086,  0.4425, -1.2146])\n")
    [w] = res.warnings
    assert w.render().startswith(
        "<script>:8: UserWarning: The PyTorch API of nested tensors is in prototype stage and will "
        "change in the near future. We recommend specifying layout=torch.jagged when constructing "
        "a nested tensor, as this layout receives active development, has better operator "
        "coverage, and works with torch.compile.")


def test_fast_path_switch_lasts_until_the_script_ends(run_ok):
    run_ok("import torch\ntorch.backends.mha.set_fastpath_enabled(False)\n")
    assert run_ok("import torch\nprint(torch.backends.mha.get_fastpath_enabled())\n").stdout == "True\n"


@pytest.mark.parametrize("use", ["torch.backends.mha._settings",
                                 "torch.backends.mha.set_fastpath_enabled.__globals__",
                                 "torch.backends.mha.__dict__"])
def test_mha_switch_exposes_no_internals(use):
    blocked(f"import torch\nprint({use})\n")
