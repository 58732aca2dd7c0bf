"""Recurrent layers, multi-head attention and channel dropout in scripts: output as
PyTorch prints it, PyTorch's errors, and no way out of the sandbox through them."""

from __future__ import annotations

import textwrap

import pytest

from agrad.lang import Source, run

SEQ_MODEL = textwrap.dedent("""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    torch.manual_seed(0)
    class Tagger(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(10, 4)
            self.lstm = nn.LSTM(4, 6, num_layers=2, batch_first=True, bidirectional=True)
            self.attn = nn.MultiheadAttention(12, 3, batch_first=True)
            self.gru = nn.GRUCell(12, 5)
            self.drop = nn.Dropout1d(0.25)
            self.out = nn.Linear(5, 3)
        def forward(self, tokens, pad):
            x = self.emb(tokens)
            x, (h, c) = self.lstm(x)
            a, w = self.attn(x, x, x, key_padding_mask=pad)
            h = torch.zeros(a.shape[0], 5)
            for t in range(a.shape[1]):
                h = self.gru(a[:, t], h)
            return self.out(self.drop(h)), w
    net = Tagger()
    print(net)
    tokens = torch.tensor([[1, 2, 3, 0], [4, 5, 0, 0]])
    pad = tokens == 0
    y, w = net(tokens, pad)
    loss = F.cross_entropy(y, torch.tensor([0, 2]))
    loss.backward()
    print(y, w, loss)
    print(net.lstm.weight_hh_l1_reverse.grad.norm(), net.attn.in_proj_weight.grad.sum())
    rnn = nn.RNN(3, 2, nonlinearity='relu')
    print(rnn(torch.randn(4, 3)))
    print(torch.rand(2))
""")


def _run(text):
    return run(Source("seq.py", text), timeout=120)


def test_sequence_model_runs():
    res = _run(SEQ_MODEL)
    assert res.error is None, res.error.render()
    assert "(lstm): LSTM(4, 6, num_layers=2, batch_first=True, bidirectional=True)" in res.stdout
    assert "NonDynamicallyQuantizableLinear(in_features=12, out_features=12, bias=True)" in res.stdout


@pytest.mark.torch
def test_sequence_model_prints_what_torch_prints():
    torch = pytest.importorskip("torch")
    import contextlib
    import io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(SEQ_MODEL, "seq.py", "exec"), {"torch": torch})   # noqa: S102 (the reference)
    res = _run(SEQ_MODEL)
    assert res.error is None, res.error.render()
    assert res.stdout == buf.getvalue()


@pytest.mark.parametrize("code,fragment", [
    # (_flat_weights_names, _flat_weights and _all_weights are reachable, as d2l's init_seq2seq reads them:
    # tests/lang/test_class_names_escapes.py)
    ("import torch\nm = torch.nn.LSTM(2, 3)\nm._flat_weights_names.__class__.__mro__", "dunder"),
    ("import torch\nm = torch.nn.LSTM(2, 3)\nm._layer_params()", "'_layer_params'"),
    ("import torch\nm = torch.nn.RNN(2, 3)\nm.all_weights.__class__.__mro__", "dunder"),
    ("import torch\nm = torch.nn.MultiheadAttention(4, 2)\nm.out_proj.__class__.__mro__",
     "dunder"),
    ("import torch\nm = torch.nn.MultiheadAttention(4, 2)\nm._reset_parameters()",
     "'_reset_parameters'"),
    ("import torch.nn.functional as F\nF.multi_head_attention_forward.__globals__", "dunder"),
    ("import torch.nn.functional as F\nF.multi_head_attention_forward.__code__", "dunder"),
    ("import torch\nm = torch.nn.RNNCell(2, 3)\nm.forward.__func__", "dunder"),
    ("import torch\nm = torch.nn.Dropout2d()\nm._functional", "'_functional'"),
    ("import torch\ntorch.nn.modules.rnn._CELLS", "has no attribute 'modules'"),
])
def test_no_escape_through_the_new_layers(code, fragment):
    res = run(Source("attack.py", code), timeout=30)
    assert res.error is not None, res.stdout
    assert fragment in res.error.message, res.error.message


@pytest.mark.parametrize("code,type_name,message", [
    ("import torch\ntorch.nn.LSTM(3, 4)(torch.ones(2, 2, 5))", "RuntimeError",
     "input.size(-1) must be equal to input_size. Expected 3, got 5"),
    ("import torch\ntorch.nn.GRU(3, 4)(torch.ones(2, 2, 3), torch.ones(2, 2, 4))", "RuntimeError",
     "Expected hidden size (1, 2, 4), got [2, 2, 4]"),
    ("import torch\ntorch.nn.MultiheadAttention(5, 2)", "AssertionError",
     "embed_dim must be divisible by num_heads"),
    ("import torch\ntorch.nn.functional.dropout1d(torch.ones(5), 0.5)", "RuntimeError",
     "dropout1d: Expected 2D or 3D input, but received a 1D input. Note that dropout1d exists to "
     "provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, and "
     "an optional batch dimension (i.e. 2D or 3D inputs)."),
])
def test_bad_input_gets_pytorch_errors(code, type_name, message):
    res = run(Source("bad.py", code), timeout=30)
    assert res.error is not None
    assert (res.error.type_name, res.error.message) == (type_name, message)
