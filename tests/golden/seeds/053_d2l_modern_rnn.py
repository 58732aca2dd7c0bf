# Follows d2l.ai's PyTorch chapters "Long Short-Term Memory (LSTM)" (LSTMScratch: init_weight,
# the gates loop, then the concise nn.LSTM), "Gated Recurrent Units (GRU)" (GRUScratch and the
# concise nn.GRU), "Deep Recurrent Neural Networks" (StackedRNNScratch, nn.GRU with num_layers=2),
# "Bidirectional Recurrent Neural Networks" (BiRNNScratch, nn.GRU bidirectional) and the
# "Encoder-Decoder" / "Seq2Seq" encoder (Seq2SeqEncoder with its shape checks), as a user types them.
# Changed: The Time Machine cannot be downloaded: seeded random token ids (torch.manual_seed(0))
# with a vocabulary of 28; d2l.Module/d2l.RNNScratch become plain nn.Module classes; 3 SGD steps
# with gradient clipping on one batch instead of the training runs; results are printed.
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)


class LSTMScratch(nn.Module):
    def __init__(self, num_inputs, num_hiddens, sigma=0.01):
        super().__init__()
        self.num_inputs, self.num_hiddens, self.sigma = num_inputs, num_hiddens, sigma

        init_weight = lambda *shape: nn.Parameter(torch.randn(*shape) * sigma)
        triple = lambda: (init_weight(num_inputs, num_hiddens),
                          init_weight(num_hiddens, num_hiddens),
                          nn.Parameter(torch.zeros(num_hiddens)))
        self.W_xi, self.W_hi, self.b_i = triple()  # Input gate
        self.W_xf, self.W_hf, self.b_f = triple()  # Forget gate
        self.W_xo, self.W_ho, self.b_o = triple()  # Output gate
        self.W_xc, self.W_hc, self.b_c = triple()  # Input node

    def forward(self, inputs, H_C=None):
        if H_C is None:
            # Initial state with shape: (batch_size, num_hiddens)
            H = torch.zeros((inputs.shape[1], self.num_hiddens),
                            device=inputs.device)
            C = torch.zeros((inputs.shape[1], self.num_hiddens),
                            device=inputs.device)
        else:
            H, C = H_C
        outputs = []
        for X in inputs:
            I = torch.sigmoid(torch.matmul(X, self.W_xi) +
                              torch.matmul(H, self.W_hi) + self.b_i)
            F = torch.sigmoid(torch.matmul(X, self.W_xf) +
                              torch.matmul(H, self.W_hf) + self.b_f)
            O = torch.sigmoid(torch.matmul(X, self.W_xo) +
                              torch.matmul(H, self.W_ho) + self.b_o)
            C_tilde = torch.tanh(torch.matmul(X, self.W_xc) +
                                 torch.matmul(H, self.W_hc) + self.b_c)
            C = F * C + I * C_tilde
            H = O * torch.tanh(C)
            outputs.append(H)
        return outputs, (H, C)


vocab_size, batch_size, num_steps = 28, 4, 8
X = torch.randint(0, vocab_size, (batch_size, num_steps))
Y = torch.randint(0, vocab_size, (batch_size, num_steps))
embs = F.one_hot(X.T, vocab_size).type(torch.float32)

lstm = LSTMScratch(num_inputs=vocab_size, num_hiddens=32)
outputs, (H, C) = lstm(embs)
print(len(outputs), outputs[0].shape, H[0, :6], C[0, :6])


class GRUScratch(nn.Module):
    def __init__(self, num_inputs, num_hiddens, sigma=0.01):
        super().__init__()
        self.num_inputs, self.num_hiddens, self.sigma = num_inputs, num_hiddens, sigma

        init_weight = lambda *shape: nn.Parameter(torch.randn(*shape) * sigma)
        triple = lambda: (init_weight(num_inputs, num_hiddens),
                          init_weight(num_hiddens, num_hiddens),
                          nn.Parameter(torch.zeros(num_hiddens)))
        self.W_xz, self.W_hz, self.b_z = triple()  # Update gate
        self.W_xr, self.W_hr, self.b_r = triple()  # Reset gate
        self.W_xh, self.W_hh, self.b_h = triple()  # Candidate hidden state

    def forward(self, inputs, H=None):
        if H is None:
            # Initial state with shape: (batch_size, num_hiddens)
            H = torch.zeros((inputs.shape[1], self.num_hiddens),
                            device=inputs.device)
        outputs = []
        for X in inputs:
            Z = torch.sigmoid(torch.matmul(X, self.W_xz) +
                              torch.matmul(H, self.W_hz) + self.b_z)
            R = torch.sigmoid(torch.matmul(X, self.W_xr) +
                              torch.matmul(H, self.W_hr) + self.b_r)
            H_tilde = torch.tanh(torch.matmul(X, self.W_xh) +
                                 torch.matmul(R * H, self.W_hh) + self.b_h)
            H = Z * H + (1 - Z) * H_tilde
            outputs.append(H)
        return outputs, H


gru = GRUScratch(num_inputs=vocab_size, num_hiddens=32)
outputs, H = gru(embs)
print(len(outputs), H[1, :6])


class RNNLM(nn.Module):
    """The RNN-based language model (d2l.RNNLM with a concise RNN)."""
    def __init__(self, rnn, vocab_size, lr):
        super().__init__()
        self.rnn, self.vocab_size, self.lr = rnn, vocab_size, lr
        self.linear = nn.LazyLinear(vocab_size)

    def output_layer(self, hiddens):
        return self.linear(hiddens).swapaxes(0, 1)

    def forward(self, X, state=None):
        embs = F.one_hot(X.T, self.vocab_size).type(torch.float32)
        rnn_outputs, _ = self.rnn(embs, state)
        return self.output_layer(rnn_outputs)

    def loss(self, Y_hat, Y):
        Y_hat = Y_hat.reshape((-1, Y_hat.shape[-1]))
        Y = Y.reshape((-1,))
        return F.cross_entropy(Y_hat, Y, reduction='mean')


def clip_gradients(model, grad_clip_val):
    params = [p for p in model.parameters() if p.requires_grad]
    norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))
    if norm > grad_clip_val:
        for param in params:
            param.grad[:] *= grad_clip_val / norm


def train_steps(model, steps=3):
    model(X)  # (the lazy layer's shape)
    optimizer = torch.optim.SGD(model.parameters(), lr=model.lr)
    for step in range(steps):
        l = model.loss(model(X), Y)
        optimizer.zero_grad()
        l.backward()
        clip_gradients(model, 1)
        optimizer.step()
        print(step, l)


class LSTM(nn.Module):
    def __init__(self, num_inputs, num_hiddens):
        super().__init__()
        self.num_inputs, self.num_hiddens = num_inputs, num_hiddens
        self.rnn = nn.LSTM(num_inputs, num_hiddens)

    def forward(self, inputs, H_C=None):
        return self.rnn(inputs, H_C)


lstm = LSTM(num_inputs=vocab_size, num_hiddens=32)
model = RNNLM(lstm, vocab_size=vocab_size, lr=4)
print(model.rnn)
train_steps(model)


class GRU(nn.Module):
    def __init__(self, num_inputs, num_hiddens, num_layers=1, dropout=0):
        super().__init__()
        self.num_inputs, self.num_hiddens = num_inputs, num_hiddens
        self.rnn = nn.GRU(num_inputs, num_hiddens, num_layers=num_layers, dropout=dropout)

    def forward(self, inputs, H=None):
        return self.rnn(inputs, H)


gru = GRU(num_inputs=vocab_size, num_hiddens=32)
model = RNNLM(gru, vocab_size=vocab_size, lr=4)
train_steps(model)


class StackedRNNScratch(nn.Module):
    def __init__(self, num_inputs, num_hiddens, num_layers, sigma=0.01):
        super().__init__()
        self.num_inputs, self.num_hiddens, self.num_layers = num_inputs, num_hiddens, num_layers
        self.rnns = nn.Sequential(*[RNNScratch(
            num_inputs if i == 0 else num_hiddens, num_hiddens, sigma)
            for i in range(num_layers)])

    def forward(self, inputs, Hs=None):
        outputs = inputs
        if Hs is None:
            Hs = [None] * self.num_layers
        for i in range(self.num_layers):
            outputs, Hs[i] = self.rnns[i](outputs, Hs[i])
            outputs = torch.stack(outputs, 0)
        return outputs, Hs


class RNNScratch(nn.Module):
    def __init__(self, num_inputs, num_hiddens, sigma=0.01):
        super().__init__()
        self.num_inputs, self.num_hiddens, self.sigma = num_inputs, num_hiddens, sigma
        self.W_xh = nn.Parameter(torch.randn(num_inputs, num_hiddens) * sigma)
        self.W_hh = nn.Parameter(torch.randn(num_hiddens, num_hiddens) * sigma)
        self.b_h = nn.Parameter(torch.zeros(num_hiddens))

    def forward(self, inputs, state=None):
        if state is None:
            state = torch.zeros((inputs.shape[1], self.num_hiddens), device=inputs.device)
        else:
            state, = state
        outputs = []
        for X in inputs:
            state = torch.tanh(torch.matmul(X, self.W_xh) + torch.matmul(state, self.W_hh) + self.b_h)
            outputs.append(state)
        return outputs, state


stacked = StackedRNNScratch(num_inputs=vocab_size, num_hiddens=32, num_layers=2)
outputs, Hs = stacked(embs)
print(outputs.shape, len(Hs), Hs[1][0, :5])

gru = GRU(num_inputs=vocab_size, num_hiddens=32, num_layers=2)
model = RNNLM(gru, vocab_size=vocab_size, lr=2)
print(model.rnn.rnn)
train_steps(model)


class BiRNNScratch(nn.Module):
    def __init__(self, num_inputs, num_hiddens, sigma=0.01):
        super().__init__()
        self.num_inputs, self.num_hiddens, self.sigma = num_inputs, num_hiddens, sigma
        self.f_rnn = RNNScratch(num_inputs, num_hiddens, sigma)
        self.b_rnn = RNNScratch(num_inputs, num_hiddens, sigma)
        self.num_hiddens *= 2  # The output dimension will be doubled

    def forward(self, inputs, Hs=None):
        f_H, b_H = Hs if Hs is not None else (None, None)
        f_outputs, f_H = self.f_rnn(inputs, f_H)
        b_outputs, b_H = self.b_rnn(reversed(inputs), b_H)
        outputs = [torch.cat((f, b), -1) for f, b in zip(
            f_outputs, reversed(b_outputs))]
        return outputs, (f_H, b_H)


birnn = BiRNNScratch(num_inputs=vocab_size, num_hiddens=16)
outputs, (f_H, b_H) = birnn(embs)
print(len(outputs), outputs[0].shape, outputs[-1][0, 14:18])

bi_gru = nn.GRU(vocab_size, 16, bidirectional=True)
out, H = bi_gru(embs)
print(out.shape, H.shape, out[0, 0, 14:18], H[1, 0, :3])


def init_seq2seq(module):  #@save
    """Initialize weights for sequence-to-sequence learning."""
    if type(module) == nn.Linear:
        nn.init.xavier_uniform_(module.weight)
    if type(module) == nn.GRU:
        for param in module._flat_weights_names:
            if "weight" in param:
                nn.init.xavier_uniform_(module._parameters[param])


class Seq2SeqEncoder(nn.Module):  #@save
    """The RNN encoder for sequence-to-sequence learning."""
    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers,
                 dropout=0):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = GRU(embed_size, num_hiddens, num_layers, dropout)
        self.apply(init_seq2seq)

    def forward(self, X, *args):
        # X shape: (batch_size, num_steps)
        embs = self.embedding(X.t().type(torch.int64))
        # embs shape: (num_steps, batch_size, embed_size)
        outputs, state = self.rnn(embs)
        # outputs shape: (num_steps, batch_size, num_hiddens)
        # state shape: (num_layers, batch_size, num_hiddens)
        return outputs, state


vocab_size, embed_size, num_hiddens, num_layers = 10, 8, 16, 2
batch_size, num_steps = 4, 9
encoder = Seq2SeqEncoder(vocab_size, embed_size, num_hiddens, num_layers)
X = torch.zeros((batch_size, num_steps))
enc_outputs, enc_state = encoder(X)
print(enc_outputs.shape, enc_state.shape, enc_state[1, 0, :4])
