"""nn_cases for recurrent layers, multi-head attention, channel dropout and the shaping layers
(registered in nn_cases.CASES; see tools/nn_cases.py)."""

from __future__ import annotations

from nn_cases import CASES, T, case, data, error, fix

__all__: list = []


def _flat(outs):
    """The tensors of a module's result, in order (tuples nested one level, as LSTM's)."""
    if isinstance(outs, (tuple, list)):
        return [t for o in outs for t in _flat(o)]
    return [] if outs is None else [outs]


def run_seq(torch, module, *inputs, **kwargs):
    """Forward, then backward of sum_i sum(out_i * w_i) over every tensor output:
    the outputs, grad_fn names, input and parameter gradients."""
    outs = _flat(module(*inputs, **kwargs))
    total = 0
    for i, o in enumerate(outs):
        total = total + (o * torch.tensor(data(*o.shape, k=90 + i), dtype=o.dtype)).sum()
    total.backward()
    res = {"outs": [o.detach() for o in outs]}
    for i, x in enumerate(_flat(list(inputs))):
        if getattr(x, "requires_grad", False) and x.is_leaf:
            res[f"grad_input{i}"] = x.grad
    for name, p in module.named_parameters():
        res[f"grad_{name}"] = p.grad
    return res


def _seq_case(name, make, inputs, dtype=None, family="rnn", **kwargs):
    def fn(torch):
        m = fix(torch, make(torch.nn))
        if dtype == "double":
            m = m.double()
        dt = torch.float64 if dtype == "double" else torch.float32
        args = [tuple(T(torch, *s, k=j * 10 + i, grad=True, dtype=dt) for i, s in enumerate(x))
                if isinstance(x, list) else T(torch, *x, k=j, grad=True, dtype=dt)
                for j, x in enumerate(inputs)]
        return run_seq(torch, m, *args, **kwargs)
    CASES.setdefault(family, {})[name] = fn


# ------------------------------------------------------------------ RNN / LSTM / GRU

_seq_case("rnn_tanh", lambda nn: nn.RNN(3, 4), [(5, 2, 3)])
_seq_case("rnn_relu_h0", lambda nn: nn.RNN(3, 4, nonlinearity="relu"), [(4, 2, 3), (1, 2, 4)])
_seq_case("rnn_2layer_bidir_batch_first", lambda nn: nn.RNN(3, 4, 2, batch_first=True,
                                                            bidirectional=True),
          [(2, 5, 3), (4, 2, 4)])
_seq_case("rnn_unbatched_h0", lambda nn: nn.RNN(2, 3, num_layers=2), [(4, 2), (2, 3)])
_seq_case("rnn_nobias_double", lambda nn: nn.RNN(3, 2, bias=False), [(3, 2, 3)], dtype="double")
_seq_case("gru", lambda nn: nn.GRU(3, 4), [(5, 2, 3)])
_seq_case("gru_2layer_bidir_h0", lambda nn: nn.GRU(3, 2, num_layers=2, bidirectional=True),
          [(4, 3, 3), (4, 3, 2)])
_seq_case("gru_batch_first_unbatched", lambda nn: nn.GRU(2, 3, batch_first=True), [(5, 2)])
_seq_case("gru_double_nobias", lambda nn: nn.GRU(2, 3, bias=False), [(3, 2, 2)], dtype="double")
_seq_case("lstm", lambda nn: nn.LSTM(3, 4), [(5, 2, 3)])
_seq_case("lstm_h0_c0", lambda nn: nn.LSTM(3, 4), [(4, 2, 3), [(1, 2, 4), (1, 2, 4)]])
_seq_case("lstm_2layer_bidir_batch_first", lambda nn: nn.LSTM(3, 4, 2, batch_first=True,
                                                              bidirectional=True),
          [(2, 4, 3), [(4, 2, 4), (4, 2, 4)]])
_seq_case("lstm_proj", lambda nn: nn.LSTM(3, 4, proj_size=2, num_layers=2), [(3, 2, 3)])
_seq_case("lstm_proj_bidir_double", lambda nn: nn.LSTM(2, 3, proj_size=1, bidirectional=True),
          [(3, 2, 2)], dtype="double")
_seq_case("lstm_unbatched_hc", lambda nn: nn.LSTM(2, 3), [(4, 2), [(1, 3), (1, 3)]])

# ------------------------------------------------------------------ cells

_seq_case("rnn_cell", lambda nn: nn.RNNCell(3, 4), [(2, 3), (2, 4)])
_seq_case("rnn_cell_relu_nohx", lambda nn: nn.RNNCell(3, 4, nonlinearity="relu"), [(2, 3)])
_seq_case("rnn_cell_unbatched", lambda nn: nn.RNNCell(3, 2, bias=False), [(3,), (2,)])
_seq_case("lstm_cell", lambda nn: nn.LSTMCell(3, 4), [(2, 3), [(2, 4), (2, 4)]])
_seq_case("lstm_cell_nohx_double", lambda nn: nn.LSTMCell(3, 2), [(2, 3)], dtype="double")
_seq_case("lstm_cell_unbatched", lambda nn: nn.LSTMCell(2, 3), [(2,), [(3,), (3,)]])
_seq_case("gru_cell", lambda nn: nn.GRUCell(3, 4), [(2, 3), (2, 4)])
_seq_case("gru_cell_unbatched_nobias", lambda nn: nn.GRUCell(2, 3, bias=False), [(2,), (3,)])


@case("rnn")
def rnn_grad_fns(torch):
    nn = torch.nn
    x3, x2 = torch.ones(3, 2, 3, requires_grad=True), torch.ones(3, 3, requires_grad=True)
    names = {}
    for label, m in [("rnn", nn.RNN(3, 4)), ("rnn_bidir", nn.RNN(3, 4, bidirectional=True)),
                     ("gru_bidir", nn.GRU(3, 4, bidirectional=True)),
                     ("gru_bf", nn.GRU(3, 4, batch_first=True)),
                     ("rnn_bf_2layer", nn.RNN(3, 4, 2, batch_first=True)),
                     ("lstm_bidir", nn.LSTM(3, 4, bidirectional=True)),
                     ("lstm_bf_bidir", nn.LSTM(3, 4, batch_first=True, bidirectional=True))]:
        out, h = m(x3)
        h = h[0] if isinstance(h, tuple) else h
        names[label] = [type(out.grad_fn).__name__, type(h.grad_fn).__name__]
    for label, m in [("rnn_unbatched", nn.RNN(3, 2)), ("lstm_unbatched", nn.LSTM(3, 2))]:
        out, h = m(x2)
        h = h[0] if isinstance(h, tuple) else h
        names[label] = [type(out.grad_fn).__name__, type(h.grad_fn).__name__]
    x = torch.ones(2, 3, requires_grad=True)
    names["cells"] = [type(nn.RNNCell(3, 2)(x).grad_fn).__name__,
                      [type(t.grad_fn).__name__ for t in nn.LSTMCell(3, 2)(x)],
                      type(nn.GRUCell(3, 2)(x).grad_fn).__name__,
                      type(nn.GRUCell(3, 2)(x[0]).grad_fn).__name__]
    return names


@case("rnn")
def rnn_reprs_and_names(torch):
    nn = torch.nn
    mods = [nn.RNN(3, 4), nn.RNN(3, 4, 2, nonlinearity="relu", bias=False, batch_first=True,
                                 dropout=0.25, bidirectional=True),
            nn.LSTM(3, 4, proj_size=2, num_layers=2, bidirectional=True), nn.GRU(5, 6, 3),
            nn.RNNCell(3, 4), nn.RNNCell(3, 4, bias=False, nonlinearity="relu"),
            nn.LSTMCell(2, 3), nn.GRUCell(2, 3, bias=False),
            nn.Sequential(nn.LSTM(2, 3, batch_first=True)),
            nn.MultiheadAttention(8, 2), nn.MultiheadAttention(6, 3, kdim=2, vdim=4, bias=False),
            nn.Dropout1d(), nn.Dropout2d(0.2, inplace=True), nn.Dropout3d(0.0)]
    return {"reprs": [repr(m) for m in mods],
            "names": [[n for n, _ in m.named_parameters()] for m in mods],
            "shapes": [[list(p.shape) for p in m.parameters()] for m in mods],
            "all_weights": [[list(p.shape) for p in ws] for ws in mods[2].all_weights]}


@case("rnn")
def rnn_default_initialisation(torch):
    nn = torch.nn
    torch.manual_seed(3)
    mods = [nn.RNN(2, 3, bidirectional=True), nn.LSTM(2, 3, proj_size=1), nn.GRU(2, 2, 2),
            nn.RNNCell(2, 2), nn.LSTMCell(2, 1), nn.GRUCell(1, 2),
            nn.MultiheadAttention(4, 2), nn.MultiheadAttention(4, 2, kdim=3, vdim=2,
                                                                add_bias_kv=True)]
    return {"params": [[p.detach() for p in m.parameters()] for m in mods],
            "after": torch.rand(2)}


@case("rnn")
def rnn_dropout_between_layers(torch):
    nn = torch.nn
    torch.manual_seed(5)
    m = fix(torch, nn.GRU(2, 3, num_layers=3, dropout=0.5)).double()
    x = T(torch, 4, 2, 2, dtype=torch.float64, grad=True)
    res = run_seq(torch, m, x)
    m.eval()
    res["eval"] = m(x)[0].detach()
    res["after"] = torch.rand(2)
    return res


@case("rnn")
def rnn_errors(torch):
    nn = torch.nn
    rnn, lstm = nn.RNN(3, 4), nn.LSTM(3, 4)
    return {"errors": [
        error(lambda: rnn(torch.ones(2, 3, 5))),
        error(lambda: rnn(torch.ones(5))),
        error(lambda: rnn(torch.ones(2, 2, 3), torch.ones(1, 3, 4))),
        error(lambda: rnn(torch.ones(2, 2, 3), torch.ones(2, 4))),
        error(lambda: rnn(torch.ones(2, 2, 3, dtype=torch.float64))),
        error(lambda: lstm(torch.ones(2, 2, 3), (torch.ones(1, 2, 4), torch.ones(1, 2, 5)))),
        error(lambda: lstm(torch.ones(2, 3), (torch.ones(1, 2, 4), torch.ones(1, 4)))),
        error(lambda: nn.GRU(3, 4)(torch.ones(2, 3, 4, 5))),
        error(lambda: nn.RNN(3, 4, nonlinearity="sigmoid")),
        error(lambda: nn.GRU(3, 4, proj_size=2)),
        error(lambda: nn.LSTM(3, 4, proj_size=4)),
        error(lambda: nn.RNN(3, 4, dropout=1.5)),
        error(lambda: nn.RNN(0, 4)),
        error(lambda: nn.RNNCell(3, 4)(torch.ones(2, 5))),
        error(lambda: nn.GRUCell(3, 4)(torch.ones(2, 3), torch.ones(3, 4))),
        error(lambda: nn.LSTMCell(3, 4)(torch.ones(2, 3), (torch.ones(2, 4), torch.ones(2, 5)))),
        error(lambda: nn.RNNCell(3, 4)(torch.ones(2, 2, 3))),
    ]}


# ------------------------------------------------------------------ multi-head attention

def _mha_case(name, make, shapes, same=(), **kwargs):
    """``same``: which of (query, key, value) are the same tensor, e.g. ("qkv",) or ("kv",)."""
    def fn(torch):
        m = fix(torch, make(torch.nn), scale=0.3)
        q = T(torch, *shapes[0], k=0, grad=True)
        k = q if "qkv" in same else T(torch, *shapes[1], k=1, grad=True)
        v = k if ("kv" in same or "qkv" in same) else T(torch, *shapes[2], k=2, grad=True)
        kw = {key: (val(torch) if callable(val) else val) for key, val in kwargs.items()}
        res = run_seq(torch, m, q, k, v, **kw)
        res["grad_fns"] = [type(o.grad_fn).__name__ for o in _flat(m(q, k, v, **kw))]
        return res
    CASES.setdefault("attention", {})[name] = fn


_mha_case("mha_self", lambda nn: nn.MultiheadAttention(4, 2), [(3, 2, 4)], same=("qkv",))
_mha_case("mha_self_batch_first", lambda nn: nn.MultiheadAttention(4, 2, batch_first=True),
          [(2, 3, 4)], same=("qkv",))
_mha_case("mha_cross", lambda nn: nn.MultiheadAttention(6, 3), [(2, 2, 6), (4, 2, 6), (4, 2, 6)])
_mha_case("mha_kv_same", lambda nn: nn.MultiheadAttention(4, 1), [(2, 2, 4), (3, 2, 4)],
          same=("kv",))
_mha_case("mha_per_head_weights", lambda nn: nn.MultiheadAttention(4, 2), [(3, 2, 4)],
          same=("qkv",), average_attn_weights=False)
_mha_case("mha_no_weights", lambda nn: nn.MultiheadAttention(4, 2), [(3, 2, 4)], same=("qkv",),
          need_weights=False)
_mha_case("mha_kdim_vdim", lambda nn: nn.MultiheadAttention(4, 2, kdim=3, vdim=5),
          [(2, 2, 4), (3, 2, 3), (3, 2, 5)])
_mha_case("mha_bias_kv_zero_attn", lambda nn: nn.MultiheadAttention(4, 2, add_bias_kv=True,
                                                                     add_zero_attn=True),
          [(2, 2, 4), (3, 2, 4), (3, 2, 4)],
          key_padding_mask=lambda torch: torch.tensor([[False, False, True], [False, True, True]]))
_mha_case("mha_key_padding_mask", lambda nn: nn.MultiheadAttention(4, 2, batch_first=True),
          [(2, 3, 4), (2, 4, 4), (2, 4, 4)],
          key_padding_mask=lambda torch: torch.tensor([[False, False, False, True],
                                                       [False, True, True, True]]))
_mha_case("mha_bool_attn_mask_no_weights", lambda nn: nn.MultiheadAttention(4, 2),
          [(3, 2, 4)], same=("qkv",), need_weights=False,
          attn_mask=lambda torch: torch.tensor([[False, True, True], [False, False, True],
                                                [False, False, False]]))
_mha_case("mha_float_masks", lambda nn: nn.MultiheadAttention(4, 2), [(3, 2, 4), (2, 2, 4),
                                                                      (2, 2, 4)],
          attn_mask=lambda torch: torch.tensor([[0.0, -1.0], [0.5, 0.0], [0.0, 0.25]]),
          key_padding_mask=lambda torch: torch.tensor([[0.0, -0.5], [0.0, 0.0]]))
_mha_case("mha_3d_mask_per_head", lambda nn: nn.MultiheadAttention(4, 2), [(2, 1, 4)],
          same=("qkv",), average_attn_weights=False,
          attn_mask=lambda torch: torch.tensor([[[0.0, -1.0], [0.0, 0.0]],
                                                [[0.0, 0.0], [-2.0, 0.0]]]))
_mha_case("mha_unbatched", lambda nn: nn.MultiheadAttention(4, 2, bias=False),
          [(3, 4), (2, 4), (2, 4)])


@case("attention")
def mha_errors(torch):
    nn = torch.nn
    m = nn.MultiheadAttention(4, 2)
    x = torch.ones(3, 2, 4)
    return {"errors": [
        error(lambda: nn.MultiheadAttention(5, 2)),
        error(lambda: nn.MultiheadAttention(0, 2)),
        error(lambda: m(x, torch.ones(3, 4), torch.ones(3, 4))),
        error(lambda: m(x, x, x, attn_mask=torch.ones(2, 2))),
        error(lambda: m(x, x, x, key_padding_mask=torch.ones(2, 3, dtype=torch.long))),
        error(lambda: m(x, x, x, key_padding_mask=torch.zeros(2, 2, dtype=torch.bool))),
        error(lambda: m(torch.ones(3, 2, 6), torch.ones(3, 2, 6), torch.ones(3, 2, 6))),
        error(lambda: m(x, x, x, is_causal=True)),
    ]}


# ------------------------------------------------------------------ channel dropout

@case("random")
def channel_dropout(torch):
    nn, F = torch.nn, torch.nn.functional
    torch.manual_seed(1)
    x1 = torch.ones(2, 5, 3, requires_grad=True)
    y1 = nn.Dropout1d(0.4)(x1)
    y1.sum().backward()
    x2 = torch.ones(2, 4, 2, 2)
    res = {"d1": y1.detach(), "d1_grad": x1.grad, "d2": nn.Dropout2d(0.5)(x2),
           "d1_unbatched": F.dropout1d(torch.ones(6, 2), 0.5),
           "d3": F.dropout3d(torch.ones(3, 1, 2, 1), 0.3),
           "d2_p1": F.dropout2d(torch.ones(1, 2, 2, 2), 1.0),
           "eval": F.dropout2d(torch.ones(1, 2, 2, 2), 0.5, training=False),
           "after": torch.rand(2)}
    res["errors"] = [error(lambda: F.dropout1d(torch.ones(2, 3, 4, 5))),
                     error(lambda: nn.Dropout2d(1.5))]
    return res


# ------------------------------------------------------------------ shaping layers

def _shape_case(name, make, *shapes):
    def fn(torch):
        m = fix(torch, make(torch.nn))
        return run_seq(torch, m, *[T(torch, *s, k=i, grad=True) for i, s in enumerate(shapes)])
    CASES.setdefault("shaping", {})[name] = fn


_shape_case("zero_pad2d", lambda nn: nn.ZeroPad2d((1, 0, 2, 1)), (1, 2, 3, 3))
_shape_case("constant_pad1d", lambda nn: nn.ConstantPad1d(2, 3.5), (2, 3))
_shape_case("constant_pad3d", lambda nn: nn.ConstantPad3d((1, 0, 0, 1, 1, 0), -1.0), (1, 1, 2, 2, 2))
_shape_case("reflection_pad1d", lambda nn: nn.ReflectionPad1d((2, 1)), (1, 2, 4))
_shape_case("reflection_pad2d", lambda nn: nn.ReflectionPad2d(1), (1, 1, 3, 4))
_shape_case("replication_pad2d", lambda nn: nn.ReplicationPad2d((0, 2, 1, 0)), (2, 1, 2, 3))
_shape_case("replication_pad1d", lambda nn: nn.ReplicationPad1d(3), (1, 2, 2))
_shape_case("circular_pad2d", lambda nn: nn.CircularPad2d(1), (1, 1, 3, 3))
_shape_case("pixel_shuffle", lambda nn: nn.PixelShuffle(2), (1, 8, 2, 3))
_shape_case("pixel_unshuffle", lambda nn: nn.PixelUnshuffle(2), (1, 2, 4, 6))
_shape_case("upsample_nearest", lambda nn: nn.Upsample(scale_factor=2), (1, 2, 2, 3))
_shape_case("upsample_bilinear2d", lambda nn: nn.UpsamplingBilinear2d(size=(4, 5)), (1, 1, 2, 3))
_shape_case("upsample_linear", lambda nn: nn.Upsample(size=7, mode="linear"), (1, 2, 3))
_shape_case("unfold", lambda nn: nn.Unfold(2, padding=1, stride=2), (1, 2, 4, 3))
_shape_case("fold", lambda nn: nn.Fold((3, 4), 2), (1, 8, 6))
_shape_case("softmax2d", lambda nn: nn.Softmax2d(), (2, 3, 2, 2))
_shape_case("cosine_similarity", lambda nn: nn.CosineSimilarity(dim=0), (4, 3), (4, 3))
_shape_case("pairwise_distance", lambda nn: nn.PairwiseDistance(p=1.5, keepdim=True), (3, 4),
            (3, 4))
_shape_case("instance_norm1d", lambda nn: nn.InstanceNorm1d(3), (2, 3, 5))
_shape_case("instance_norm2d_affine", lambda nn: nn.InstanceNorm2d(2, affine=True), (2, 2, 3, 3))
_shape_case("instance_norm1d_unbatched", lambda nn: nn.InstanceNorm1d(2), (2, 4))


@case("shaping")
def shaping_reprs_and_errors(torch):
    nn = torch.nn
    mods = [nn.ZeroPad1d(2), nn.ZeroPad2d((1, 2, 3, 4)), nn.ZeroPad3d(1), nn.ConstantPad1d(1, 2.5),
            nn.ConstantPad2d(1, -1), nn.ConstantPad3d((1, 2, 3, 4, 5, 6), 0.0),
            nn.ReflectionPad1d(1), nn.ReflectionPad2d((1, 0, 1, 0)), nn.ReflectionPad3d(1),
            nn.ReplicationPad1d(2), nn.ReplicationPad2d(1), nn.ReplicationPad3d(1),
            nn.CircularPad1d(1), nn.CircularPad2d((1, 1, 0, 0)), nn.CircularPad3d(1),
            nn.PixelShuffle(3), nn.PixelUnshuffle(2), nn.Upsample(scale_factor=2),
            nn.Upsample(size=(4, 5), mode="bilinear", align_corners=True),
            nn.UpsamplingNearest2d(scale_factor=3), nn.UpsamplingBilinear2d(size=4),
            nn.Fold((4, 5), 2, stride=1), nn.Unfold((2, 3), dilation=2), nn.Softmax2d(),
            nn.CosineSimilarity(), nn.PairwiseDistance(), nn.InstanceNorm1d(3),
            nn.InstanceNorm2d(4, affine=True, track_running_stats=True), nn.InstanceNorm3d(2)]
    x = torch.ones(1, 1, 2, 2)
    in2 = nn.InstanceNorm2d(2, track_running_stats=True)
    in2(T(torch, 2, 2, 3, 3))
    in2.eval()
    return {"reprs": [repr(m) for m in mods],
            "state": list(nn.InstanceNorm2d(2, affine=True, track_running_stats=True)
                          .state_dict().keys()),
            "running": [in2.running_mean, in2.running_var, in2(T(torch, 1, 2, 3, 3, k=3))],
            "errors": [error(lambda: nn.CircularPad2d(1)(torch.ones(2))),
                       error(lambda: nn.Softmax2d()(torch.ones(2, 2))),
                       error(lambda: nn.InstanceNorm2d(3, affine=True)(x)),
                       error(lambda: nn.InstanceNorm1d(2)(torch.ones(2, 2, 2, 2)))]}
