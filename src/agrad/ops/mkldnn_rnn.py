"""The LSTM layer of PyTorch's oneDNN path (ATen's ``mkldnn_rnn_layer``): one node,
``MkldnnRnnLayerBackward0``, per layer and direction of a float32 ``nn.LSTM``.

On the CPU, ATen's ``lstm`` hands a float32 input (of at least one element) to oneDNN
unless the LSTM has projections (``mkldnn_rnn``, aten/src/ATen/native/mkldnn/RNN.cpp):
the input made contiguous (after ``transpose(0, 1)`` for ``batch_first``), each layer and
direction one ``mkldnn_rnn_layer`` call on ``(input, w_ih, w_hh, b_ih, b_hh, hx[index],
cx[index])`` -- zeros of ``w_ih``'s and ``w_hh``'s shapes for the biases of a layer without
them -- its three results the layer's output sequence and final ``h`` and ``c``; the two
directions' outputs concatenated on the last dim; ``at::dropout`` between layers in training;
the final states stacked.  So a float32 LSTM's output shows ``grad_fn=<MkldnnRnnLayerBackward0>``
and its node has seven inputs, as in PyTorch.

The numbers are those of ATen's default path (the input projected at once, the cell applied
step by step), which oneDNN's kernels equal to float32 rounding; the node's backward runs that
computation's own backward (recomputed from the saved inputs).  oneDNN's workspace
(``_saved_result3``) is not modelled.
"""

from __future__ import annotations

from ..autograd import graph
from ..tensor import Tensor
from ._op import FUNCTIONAL, FUNCTIONS, Op

_state = graph._state


def lstm_cell(x_w, hidden, p):
    """ATen's LSTM cell on a projected input ``x_w``: four chunked gates, then the optional
    projection ``w_hr`` (p: (w_ih, w_hh, b_ih, b_hh, w_hr), None where absent)."""
    hx, cx = hidden
    gates = FUNCTIONAL["linear"](hx, p[1], p[3]) + x_w
    i, f, g, o = gates.unsafe_chunk(4, 1)
    i, f, g, o = i.sigmoid(), f.sigmoid(), g.tanh(), o.sigmoid()
    cy = f * cx + i * g
    hy = o * cy.tanh()
    if p[4] is not None:
        hy = hy.matmul(p[4].t())
    return hy, cy


def _layer(x, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse):
    """One layer and direction as ATen's default path computes it: (output, h, c)."""
    steps = list(FUNCTIONAL["linear"](x, w_ih, b_ih).unbind(0))
    if reverse:
        steps.reverse()
    p = (w_ih, w_hh, b_ih, b_hh, None)
    hidden, outs = (hx, cx), []
    for x_w in steps:
        hidden = lstm_cell(x_w, hidden, p)
        outs.append(hidden[0])
    if reverse:
        outs.reverse()
    return FUNCTIONS["stack"](outs, 0), hidden[0], hidden[1]


def _as_tensors(arrays):
    return [Tensor._make(a) for a in arrays]


def _layer_fwd(ctx, x, w0, w1, w2, w3, hx, cx, reverse, has_biases):
    prev = _state["enabled"]
    _state["enabled"] = False
    try:
        x, w0, w1, w2, w3, hx, cx = _as_tensors((x, w0, w1, w2, w3, hx, cx))
        out, hy, cy = _layer(x, w0, w1, w2 if has_biases else None, w3 if has_biases else None, hx, cx, reverse)
    finally:
        _state["enabled"] = prev
    return out._data, hy._data, cy._data


_NAMES = ("input", "weight0", "weight1", "weight2", "weight3", "hx_", "cx_")

_mkldnn_layer = Op("MkldnnRnnLayerBackward0", _layer_fwd, inputs=_NAMES,
                   saves=_NAMES + ("result0", "result1", "result2"),
                   output_names=("result0", "result1", "result2"), outputs=3, multi_grad=True,
                   jvp="unsupported")
_mkldnn_layer.jvp_name = "mkldnn_rnn_layer"  # (PyTorch has no forward-mode formula: its error)


@_mkldnn_layer.derivative
def _(ctx, grads):
    from ..autograd.engine import grad as autograd_grad

    create = _state["enabled"]  # (the engine runs a formula in grad mode only under create_graph)
    saved = [ctx.input, ctx.weight0, ctx.weight1, ctx.weight2, ctx.weight3, ctx.hx_, ctx.cx_]
    wanted = [i for i in range(7) if ctx.needs(i)]
    prev = _state["enabled"]
    _state["enabled"] = True
    try:
        if create:  # the recomputation hangs off the saved tensors themselves: higher derivatives
            leaves = saved
        else:
            leaves = [t.detach().requires_grad_() if i in wanted else t.detach() for i, t in enumerate(saved)]
        outs = _layer(leaves[0], leaves[1], leaves[2], leaves[3] if ctx.has_biases else None,
                      leaves[4] if ctx.has_biases else None, leaves[5], leaves[6], ctx.reverse)
        got = autograd_grad(outs, [leaves[i] for i in wanted], list(grads), create_graph=create,
                            allow_unused=True, materialize_grads=True)
    finally:
        _state["enabled"] = prev
    res = [None] * 7
    for i, g in zip(wanted, got):
        res[i] = g
    return tuple(res)


def mkldnn_rnn_layer(input, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse, has_biases):
    """ATen's mkldnn_rnn_layer for an LSTM: (output, hy, cy) of one layer and direction,
    recorded as one MkldnnRnnLayerBackward0 node."""
    return _mkldnn_layer(input, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse=reverse, has_biases=has_biases)
