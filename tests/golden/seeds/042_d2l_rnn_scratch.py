# Follows d2l.ai's PyTorch chapter "Recurrent Neural Network Implementation from Scratch" (0.17
# edition) and "Concise Implementation of Recurrent Neural Networks", rewritten as a user would type
# them: F.one_hot of a transposed batch, get_params with normal * 0.01, init_rnn_state as a tuple, the
# rnn function over time steps with torch.tanh and torch.cat of outputs, RNNModelScratch, predict_ch8
# with a character vocabulary, grad_clipping over parameters, a few training steps with
# torch.optim.SGD; then nn.RNN with the RNNModel wrapper (nn.Linear on Y.reshape) and begin_state.
# Changed: the time machine text cannot be downloaded: a short seeded text (random.seed(0)) over
# 'abcde ' and its own character vocabulary; 20 steps of batches 4x5 instead of 500 epochs; the
# perplexity is printed every 5 steps (with .1f, as train_ch8 prints it).
import math
import random
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)
random.seed(0)
text = ''.join(random.choice('abcde ') for _ in range(200))
vocab = sorted(set(text))
char_to_idx = {c: i for i, c in enumerate(vocab)}
corpus = [char_to_idx[c] for c in text]
print(len(vocab), vocab, corpus[:10])
print(F.one_hot(torch.tensor([0, 2]), len(vocab)))
X = torch.arange(10).reshape((2, 5))
print(F.one_hot(X.T, 28).shape)


def get_params(vocab_size, num_hiddens, device):
    num_inputs = num_outputs = vocab_size

    def normal(shape):
        return torch.randn(size=shape, device=device) * 0.01

    W_xh = normal((num_inputs, num_hiddens))
    W_hh = normal((num_hiddens, num_hiddens))
    b_h = torch.zeros(num_hiddens, device=device)
    W_hq = normal((num_hiddens, num_outputs))
    b_q = torch.zeros(num_outputs, device=device)
    params = [W_xh, W_hh, b_h, W_hq, b_q]
    for param in params:
        param.requires_grad_(True)
    return params


def init_rnn_state(batch_size, num_hiddens, device):
    return (torch.zeros((batch_size, num_hiddens), device=device), )


def rnn(inputs, state, params):
    W_xh, W_hh, b_h, W_hq, b_q = params
    H, = state
    outputs = []
    for X in inputs:
        H = torch.tanh(torch.mm(X, W_xh) + torch.mm(H, W_hh) + b_h)
        Y = torch.mm(H, W_hq) + b_q
        outputs.append(Y)
    return torch.cat(outputs, dim=0), (H,)


class RNNModelScratch:
    def __init__(self, vocab_size, num_hiddens, device,
                 get_params, init_state, forward_fn):
        self.vocab_size, self.num_hiddens = vocab_size, num_hiddens
        self.params = get_params(vocab_size, num_hiddens, device)
        self.init_state, self.forward_fn = init_state, forward_fn

    def __call__(self, X, state):
        X = F.one_hot(X.T, self.vocab_size).type(torch.float32)
        return self.forward_fn(X, state, self.params)

    def begin_state(self, batch_size, device):
        return self.init_state(batch_size, self.num_hiddens, device)


num_hiddens = 16
device = torch.device('cpu')
net = RNNModelScratch(len(vocab), num_hiddens, device, get_params, init_rnn_state, rnn)
state = net.begin_state(X.shape[0], device)
X = torch.tensor([corpus[:5], corpus[5:10]])
Y, new_state = net(X, state)
print(Y.shape, len(new_state), new_state[0].shape)


def predict_ch8(prefix, num_preds, net, device):
    state = net.begin_state(batch_size=1, device=device)
    outputs = [char_to_idx[prefix[0]]]
    get_input = lambda: torch.tensor([outputs[-1]], device=device).reshape((1, 1))
    for y in prefix[1:]:
        _, state = net(get_input(), state)
        outputs.append(char_to_idx[y])
    for _ in range(num_preds):
        y, state = net(get_input(), state)
        outputs.append(int(y.argmax(dim=1).reshape(1)))
    return ''.join([vocab[i] for i in outputs])


print(predict_ch8('ab ', 10, net, device))


def grad_clipping(net, theta):
    if isinstance(net, nn.Module):
        params = [p for p in net.parameters() if p.requires_grad]
    else:
        params = net.params
    norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm


def batches(num_steps, batch_size):
    offset = 0
    while True:
        Xs, Ys = [], []
        for b in range(batch_size):
            start = (offset + b * 37) % (len(corpus) - num_steps - 1)
            Xs.append(corpus[start:start + num_steps])
            Ys.append(corpus[start + 1:start + num_steps + 1])
        offset += num_steps
        yield torch.tensor(Xs), torch.tensor(Ys)


loss = nn.CrossEntropyLoss()
updater = torch.optim.SGD(net.params, lr=1)
it = batches(5, 4)
for step in range(20):
    X, Y = next(it)
    state = net.begin_state(batch_size=X.shape[0], device=device)
    y = Y.T.reshape(-1)
    y_hat, state = net(X, state)
    l = loss(y_hat, y.long()).mean()
    updater.zero_grad()
    l.backward()
    grad_clipping(net, 1)
    updater.step()
    if (step + 1) % 5 == 0:
        print(f'{step + 1} 困惑度 {math.exp(l.item()):.1f}')
print(predict_ch8('ab ', 10, net, device))

rnn_layer = nn.RNN(len(vocab), num_hiddens)
state = torch.zeros((1, 4, num_hiddens))
print(state.shape)
X = torch.rand(size=(5, 4, len(vocab)))
Y, state_new = rnn_layer(X, state)
print(Y.shape, state_new.shape)


class RNNModel(nn.Module):
    def __init__(self, rnn_layer, vocab_size, **kwargs):
        super(RNNModel, self).__init__(**kwargs)
        self.rnn = rnn_layer
        self.vocab_size = vocab_size
        self.num_hiddens = self.rnn.hidden_size
        if not self.rnn.bidirectional:
            self.num_directions = 1
            self.linear = nn.Linear(self.num_hiddens, self.vocab_size)
        else:
            self.num_directions = 2
            self.linear = nn.Linear(self.num_hiddens * 2, self.vocab_size)

    def forward(self, inputs, state):
        X = F.one_hot(inputs.T.long(), self.vocab_size)
        X = X.to(torch.float32)
        Y, state = self.rnn(X, state)
        output = self.linear(Y.reshape((-1, Y.shape[-1])))
        return output, state

    def begin_state(self, device, batch_size=1):
        if not isinstance(self.rnn, nn.LSTM):
            return torch.zeros((self.num_directions * self.rnn.num_layers,
                                batch_size, self.num_hiddens), device=device)
        else:
            return (torch.zeros((
                self.num_directions * self.rnn.num_layers,
                batch_size, self.num_hiddens), device=device),
                torch.zeros((
                    self.num_directions * self.rnn.num_layers,
                    batch_size, self.num_hiddens), device=device))


net = RNNModel(rnn_layer, vocab_size=len(vocab))
net = net.to(device)
print(predict_ch8('ab ', 10, net, device))
print(net)
lstm_net = RNNModel(nn.LSTM(len(vocab), num_hiddens), vocab_size=len(vocab))
out, (h, c) = lstm_net(torch.tensor([corpus[:5]]), lstm_net.begin_state(device))
print(out.shape, out.grad_fn, h.grad_fn)
