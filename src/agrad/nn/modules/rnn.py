"""RNN, LSTM, GRU and their cells, computed as ATen's CPU code computes them.

ATen (aten/src/ATen/native/RNN.cpp) runs a layer on the CPU by projecting the
whole input sequence at once (``linear(input, w_ih, b_ih)``), unbinding it
over time and applying the cell step by step; a bidirectional layer runs the
reverse direction over the reversed steps and concatenates the two outputs on
the last dimension; dropout (``at::dropout``) goes between layers in training
mode.  The cells here are ATen's: ``tanh(linear(h, w_hh, b_hh) + x_w)`` for
RNN, four chunked gates for LSTM (with the optional ``w_hr`` projection), three
for GRU.  So the output's ``grad_fn`` is PyTorch's (``StackBackward0``,
``CatBackward0``, ``SqueezeBackward1``) and the numbers match to float32
rounding.  Default initialisation is ``reset_parameters``: every parameter
``uniform_(-1/sqrt(hidden_size), 1/sqrt(hidden_size))`` in registration order.
"""

from __future__ import annotations

import math
import numbers

from ... import dtypes
from ...ops import FUNCTIONAL as _F
from ...ops import FUNCTIONS as _T
from ..._warn_once import warn_once
from ...ops.factories import empty, zeros
from ...ops.mkldnn_rnn import lstm_cell, mkldnn_rnn_layer
from .. import init
from ..parameter import Parameter
from .module import Module
from ..._warn_once import warn as _warn

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_linear = _F["linear"]


def _dtype(dtype):
    return dtype if dtype is not None else dtypes.get_default_dtype()


# ------------------------------------------------------------------ cells (ATen's)

def _simple_cell(act):
    def cell(x_w, h, p):
        return act(_linear(h, p[1], p[3]) + x_w)
    return cell


def _gru_cell(x_w, h, p):
    ir, ii, in_ = x_w.unsafe_chunk(3, 1)
    hr, hi, hn = _linear(h, p[1], p[3]).unsafe_chunk(3, 1)
    reset = (hr + ir).sigmoid()
    update = (hi + ii).sigmoid()
    new = (in_ + hn * reset).tanh()
    return (h - new) * update + new


_CELLS = {"RNN_TANH": _simple_cell(lambda t: t.tanh()), "RNN_RELU": _simple_cell(lambda t: t.relu()),
          "LSTM": lstm_cell, "GRU": _gru_cell}


def _run_direction(cell, steps, hidden, p):
    outputs = []
    for x_w in steps:
        hidden = cell(x_w, hidden, p)
        outputs.append(hidden[0] if isinstance(hidden, tuple) else hidden)
    return outputs, hidden


def _rnn_layers(mode, input, hiddens, params, num_layers, dropout, train, bidirectional):
    """ATen's apply_layer_stack over Full(Bidirectional)Layer: the last layer's output
    and every (layer, direction)'s final hidden state, in order."""
    cell = _CELLS[mode]
    stack, cat = _T["stack"], _T["cat"]
    if input.shape[0] == 0:
        raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
    dirs = 2 if bidirectional else 1
    finals = []
    layer_input = input
    for layer in range(num_layers):
        outs = []
        for d in range(dirs):
            p = params[layer * dirs + d]
            steps = list(_linear(layer_input, p[0], p[2]).unbind(0))
            if d == 1:
                steps.reverse()
            step_out, final = _run_direction(cell, steps, hiddens[layer * dirs + d], p)
            if d == 1:
                step_out.reverse()
            outs.append(stack(step_out, 0))
            finals.append(final)
        layer_input = outs[0] if dirs == 1 else cat(outs, outs[0].dim() - 1)
        if dropout != 0 and train and layer < num_layers - 1:
            layer_input = _F["dropout"](layer_input, dropout, True)
    return layer_input, finals


# ------------------------------------------------------------------ RNNBase

class RNNBase(Module):
    """The parameters and checks shared by RNN, LSTM and GRU (PyTorch's RNNBase)."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1
        if (not isinstance(dropout, numbers.Number) or isinstance(dropout, bool)
                or not 0 <= dropout <= 1):
            raise ValueError("dropout should be a number in range [0, 1] representing the "
                             "probability of an element being zeroed")
        if dropout > 0 and num_layers == 1:
            _warn("dropout option adds dropout after all but last recurrent layer, so "
                  "non-zero dropout expects num_layers greater than 1, but got "
                  f"dropout={dropout} and num_layers={num_layers}")
        for name, value, kind in (("bias", bias, bool), ("batch_first", batch_first, bool),
                                  ("input_size", input_size, int)):
            if not isinstance(value, kind):
                raise TypeError(f"{name} should be of type {kind.__name__}, got: "
                                f"{type(value).__name__}")
        if input_size <= 0:
            raise ValueError("input_size must be greater than zero")
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        gate_size = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}[mode] * hidden_size
        d = _dtype(dtype)
        self._flat_weights_names = []
        self._all_weights = []
        real_hidden = proj_size if proj_size > 0 else hidden_size
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input_size = input_size if layer == 0 else real_hidden * num_directions
                suffix = "_reverse" if direction == 1 else ""
                shapes = [("weight_ih", (gate_size, layer_input_size)),
                          ("weight_hh", (gate_size, real_hidden))]
                if bias:
                    shapes += [("bias_ih", (gate_size,)), ("bias_hh", (gate_size,))]
                if proj_size > 0:
                    shapes.append(("weight_hr", (proj_size, hidden_size)))
                names = []
                for stem, shape in shapes:
                    name = f"{stem}_l{layer}{suffix}"
                    setattr(self, name, Parameter(empty(shape, dtype=d)))
                    names.append(name)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def flatten_parameters(self):
        """A no-op on the CPU, as in PyTorch."""

    @property
    def _flat_weights(self):
        return [getattr(self, n) for n in self._flat_weights_names]

    @property
    def all_weights(self):
        return [[getattr(self, n) for n in names] for names in self._all_weights]

    def _layer_params(self):
        """Per (layer, direction): (w_ih, w_hh, b_ih, b_hh, w_hr), None where absent."""
        out = []
        for names in self._all_weights:
            by_stem = {n.split("_l")[0]: getattr(self, n) for n in names}
            out.append(tuple(by_stem.get(s) for s in
                             ("weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr")))
        return out

    def check_input(self, input, batch_sizes=None):
        w = self._flat_weights[0]
        if input.dtype != w.dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype "
                             f"({w.dtype}). Convert input: input.to({w.dtype}), or convert "
                             f"model: model.to({input.dtype})")
        if input.dim() != 3:
            raise RuntimeError(f"input must have 3 dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.size(-1)}")

    def get_expected_hidden_size(self, input, batch_sizes=None):
        mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * num_directions, mini_batch, size)

    def check_hidden_size(self, hx, expected_hidden_size, msg="Expected hidden size {}, got {}"):
        if tuple(hx.size()) != tuple(expected_hidden_size):
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input, hidden, batch_sizes=None):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s

    def _zeros(self, input, size):
        num_directions = 2 if self.bidirectional else 1
        batch = input.size(0) if self.batch_first else input.size(1)
        return zeros(self.num_layers * num_directions, batch, size, dtype=input.dtype)

    def _batch_input(self, input, name):
        if not hasattr(input, "dim"):
            raise TypeError(f"{name}.forward() expects a Tensor input, got "
                            f"{type(input).__name__} (PackedSequence is not supported by agrad)")
        if input.dim() not in (2, 3):
            got = (f"{input.dim()}D tensor instead" if name == "RNN"
                   else f"{input.dim()}D instead")
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {got}")
        is_batched = input.dim() == 3
        if not is_batched:
            input = input.unsqueeze(0 if self.batch_first else 1)
        return input, is_batched

    def _run(self, input, hiddens):
        if self.batch_first:
            input = input.transpose(0, 1)
        return _rnn_layers(self.mode, input, hiddens, self._layer_params(), self.num_layers,
                           self.dropout, self.training, self.bidirectional)

    def _one_hidden_forward(self, input, hx, name):
        input, is_batched = self._batch_input(input, name)
        if hx is not None:
            if is_batched and hx.dim() != 3:
                raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got "
                                   f"{hx.dim()}-D tensor")
            if not is_batched:
                if hx.dim() != 2:
                    raise RuntimeError(f"For unbatched 2-D input, hx should also be 2-D but got "
                                       f"{hx.dim()}-D tensor")
                hx = hx.unsqueeze(1)
        else:
            hx = self._zeros(input, self.hidden_size)
        self.check_forward_args(input, hx)
        output, finals = self._run(input, list(hx.unbind(0)))
        hidden = _T["stack"](finals, 0)
        if self.batch_first:   # ATen's rnn_tanh/rnn_relu/gru transpose in place (LSTM does not)
            output.transpose_(0, 1)
        if not is_batched:
            output = output.squeeze(0 if self.batch_first else 1)
            hidden = hidden.squeeze(1)
        return output, hidden


class RNN(RNNBase):
    """Elman RNN: h_t = tanh(x_t W_ihᵀ + b_ih + h_{t-1} W_hhᵀ + b_hh) (or relu)."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or "
                             "'relu'.")
        super().__init__(mode, *args, **kwargs)

    def forward(self, input, hx=None):
        return self._one_hidden_forward(input, hx, "RNN")


class GRU(RNNBase):
    """Gated recurrent unit, with PyTorch's gate order (reset, update, new)."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        return self._one_hidden_forward(input, hx, "GRU")


class LSTM(RNNBase):
    """Long short-term memory, gates (input, forget, cell, output); ``proj_size`` adds
    PyTorch's projection of h."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input, batch_sizes=None):
        mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        return (self.num_layers * num_directions, mini_batch, self.hidden_size)

    def check_forward_args(self, input, hidden, batch_sizes=None):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def forward(self, input, hx=None):
        input, is_batched = self._batch_input(input, "LSTM")
        real_hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        if hx is None:
            hx = (self._zeros(input, real_hidden), self._zeros(input, self.hidden_size))
        else:
            h0, c0 = hx
            if is_batched:
                if h0.dim() != 3 or c0.dim() != 3:
                    raise RuntimeError(f"For batched 3-D input, hx and cx should also be 3-D but "
                                       f"got ({h0.dim()}-D, {c0.dim()}-D) tensors")
            else:
                if h0.dim() != 2 or c0.dim() != 2:
                    raise RuntimeError(f"For unbatched 2-D input, hx and cx should also be 2-D "
                                       f"but got ({h0.dim()}-D, {c0.dim()}-D) tensors")
                hx = (h0.unsqueeze(1), c0.unsqueeze(1))
        self.check_forward_args(input, hx)
        stack = _T["stack"]
        if input.dtype is dtypes.float32 and input.numel() != 0 and self.proj_size == 0:
            output, hy, cy = self._onednn(input, hx)
        else:
            if input.dtype is dtypes.float32 and input.numel() != 0:
                warn_once("LSTM with projections is not supported with oneDNN. Using default implementation.")
            hiddens = list(zip(hx[0].unbind(0), hx[1].unbind(0)))
            output, finals = self._run(input, hiddens)
            hy, cy = stack([f[0] for f in finals], 0), stack([f[1] for f in finals], 0)
        if self.batch_first:
            output = output.transpose(0, 1)
        if not is_batched:
            output = output.squeeze(0 if self.batch_first else 1)
            hy, cy = hy.squeeze(1), cy.squeeze(1)
        return output, (hy, cy)

    def _onednn(self, input, hx):
        """ATen's mkldnn_rnn (a float32 LSTM without projections): each layer and direction one
        MkldnnRnnLayerBackward0 node (``agrad.ops.mkldnn_rnn``); (output, h_n, c_n), the output
        still time-major."""
        x = (input.transpose(0, 1) if self.batch_first else input).contiguous()
        h0, c0 = hx[0].contiguous(), hx[1].contiguous()
        dirs = 2 if self.bidirectional else 1
        params = self._layer_params()
        hys, cys = [], []
        for layer in range(self.num_layers):
            outs = []
            for d in range(dirs):
                index = layer * dirs + d
                w_ih, w_hh, b_ih, b_hh, _ = params[index]
                if not self.bias:
                    b_ih, b_hh = zeros(w_ih.shape, dtype=w_ih.dtype), zeros(w_hh.shape, dtype=w_hh.dtype)
                out, hy, cy = mkldnn_rnn_layer(x, w_ih, w_hh, b_ih, b_hh, h0[index], c0[index], d == 1, self.bias)
                outs.append(out)
                hys.append(hy)
                cys.append(cy)
            x = outs[0] if dirs == 1 else _T["cat"](outs, 2)
            if self.dropout != 0 and self.training and layer < self.num_layers - 1:
                x = _F["dropout"](x, self.dropout, True)
        stack = _T["stack"]
        return x, stack(hys, 0), stack(cys, 0)


# ------------------------------------------------------------------ cells

class RNNCellBase(Module):
    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        d = _dtype(dtype)
        self.weight_ih = Parameter(empty((num_chunks * hidden_size, input_size), dtype=d))
        self.weight_hh = Parameter(empty((num_chunks * hidden_size, hidden_size), dtype=d))
        if bias:
            self.bias_ih = Parameter(empty(num_chunks * hidden_size, dtype=d))
            self.bias_hh = Parameter(empty(num_chunks * hidden_size, dtype=d))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        nonlinearity = self.__dict__.get("nonlinearity", "tanh")
        if nonlinearity != "tanh":
            s += f", nonlinearity={nonlinearity}"
        return s

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _params(self):
        return (self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh, None)

    def _check(self, input, hiddens, gates):
        """ATen's checks of the *_cell functions."""
        w_ih, w_hh = self.weight_ih, self.weight_hh
        for name, w in (("weight_ih", w_ih), ("weight_hh", w_hh)):
            if w.size(0) != gates * w_hh.size(1):
                raise RuntimeError(f"{name} first dim must be {gates} * hidden_size = "
                                   f"{gates * w_hh.size(1)}, but got {w.size(0)}")
        if input.size(1) != w_ih.size(1):
            raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} expected "
                               f"{w_ih.size(1)}")
        for label, hx in enumerate(hiddens):
            if input.size(0) != hx.size(0):
                raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden{label} "
                                   f"batch size {hx.size(0)}")
            if hx.size(1) != w_hh.size(1):
                raise RuntimeError(f"hidden{label} has inconsistent hidden_size: got {hx.size(1)}, "
                                   f"expected {w_hh.size(1)}")

    def _prepare(self, input, hx, name, what="hidden"):
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected {what} to be 1D or 2D, got {hx.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = zeros(input.size(0), self.hidden_size, dtype=input.dtype)
        elif not is_batched:
            hx = hx.unsqueeze(0)
        return input, hx, is_batched

    def _input_projection(self, input):
        return _linear(input, self.weight_ih, self.bias_ih)


class RNNCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None,
                 dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        input, hx, is_batched = self._prepare(input, hx, "RNNCell")
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        self._check(input, [hx], 1)
        mode = "RNN_TANH" if self.nonlinearity == "tanh" else "RNN_RELU"
        ret = _CELLS[mode](self._input_projection(input), hx, self._params())
        return ret if is_batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        if input.dim() not in (1, 2):
            raise ValueError(f"LSTMCell: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None:
            for idx, value in enumerate(hx):
                if value.dim() not in (1, 2):
                    raise ValueError(f"LSTMCell: Expected hx[{idx}] to be 1D or 2D, got "
                                     f"{value.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            z = zeros(input.size(0), self.hidden_size, dtype=input.dtype)
            hx = (z, z)
        elif not is_batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        if len(hx) != 2:
            raise RuntimeError("lstm_cell expects two hidden states")
        self._check(input, list(hx), 4)
        hy, cy = lstm_cell(self._input_projection(input), tuple(hx), self._params())
        return (hy, cy) if is_batched else (hy.squeeze(0), cy.squeeze(0))


class GRUCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        input, hx, is_batched = self._prepare(input, hx, "GRUCell")
        self._check(input, [hx], 3)
        ret = _gru_cell(self._input_projection(input), hx, self._params())
        return ret if is_batched else ret.squeeze(0)
