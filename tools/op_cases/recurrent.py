"""The oneDNN LSTM layer (ATen's mkldnn_rnn_layer, node MkldnnRnnLayerBackward0): a float32 nn.LSTM
without projections, seeded; its outputs, the gradient of the input (and the initial states) and,
where asked, second derivatives (the node's backward recomputes ATen's default-path layer)."""

from . import case, inp

CASES = [
    case("lstm_layer", code="torch.manual_seed(0)\nout = torch.nn.LSTM(3, 4)(a)[0]", a=inp(5, 2, 3)),
    case("lstm_layer_states", code="torch.manual_seed(1)\nout, (h, c) = torch.nn.LSTM(3, 2, 2)(a, (b, d))\nout = (h, c, out)",
         a=inp(4, 1, 3), b=inp(2, 1, 2), d=inp(2, 1, 2)),
    case("lstm_layer_bidir_batch_first_nobias",
         code="torch.manual_seed(2)\nout = torch.nn.LSTM(2, 3, bidirectional=True, batch_first=True, bias=False)(a)[0]",
         second=True, a=inp(2, 3, 2)),
    case("lstm_layer_unbatched", code="torch.manual_seed(3)\nout = torch.nn.LSTM(2, 2)(a)[1][1]", second=True, a=inp(3, 2)),
]
