# Follows d2l.ai's PyTorch chapters "Multilayer Perceptrons" (ReLU, sigmoid and tanh with their
# gradients), "Implementation of Multilayer Perceptrons" (MLPScratch with its relu, then the
# concise nn.Sequential MLP) and "Numerical Stability and Initialization" (vanishing sigmoid
# gradients, the product of 100 Gaussian matrices, Xavier initialization), as a user types them.
# Changed: Fashion-MNIST cannot be downloaded: seeded synthetic images (torch.manual_seed(0)) of
# one batch of 32, 3 SGD steps each; the plots are printed as numbers; losses print as tensors
# (4 digits: the 256 -> 10 layer's x @ W is MKL's sgemm with n = 10, whose order of additions
# agrad does not reproduce yet, docs/semantics.md).
import torch
from torch import nn

torch.manual_seed(0)

x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.relu(x)
print(y[75:85])
y.backward(torch.ones_like(x), retain_graph=True)
print(x.grad[75:85])

y = torch.sigmoid(x)
print(y[::20])
# Clear out previous gradients
x.grad.data.zero_()
y.backward(torch.ones_like(x), retain_graph=True)
print(x.grad[::20])

y = torch.tanh(x)
print(y[::20])
# Clear out previous gradients
x.grad.data.zero_()
y.backward(torch.ones_like(x), retain_graph=True)
print(x.grad[::20])


class MLPScratch(nn.Module):
    def __init__(self, num_inputs, num_outputs, num_hiddens, lr, sigma=0.01):
        super().__init__()
        self.lr = lr
        self.W1 = nn.Parameter(torch.randn(num_inputs, num_hiddens) * sigma)
        self.b1 = nn.Parameter(torch.zeros(num_hiddens))
        self.W2 = nn.Parameter(torch.randn(num_hiddens, num_outputs) * sigma)
        self.b2 = nn.Parameter(torch.zeros(num_outputs))

    def forward(self, X):
        X = X.reshape((-1, self.num_inputs))
        H = relu(torch.matmul(X, self.W1) + self.b1)
        return torch.matmul(H, self.W2) + self.b2


def relu(X):
    a = torch.zeros_like(X)
    return torch.max(X, a)


def forward(self, X):
    X = X.reshape((-1, self.num_inputs))
    H = relu(torch.matmul(X, self.W1) + self.b1)
    return torch.matmul(H, self.W2) + self.b2


model = MLPScratch(num_inputs=784, num_outputs=10, num_hiddens=256, lr=0.1)
model.num_inputs = 784
X = torch.rand(32, 1, 28, 28)
Y = torch.randint(0, 10, (32,))
optimizer = torch.optim.SGD(model.parameters(), lr=model.lr)
for step in range(3):
    l = nn.functional.cross_entropy(model(X), Y)
    optimizer.zero_grad()
    l.backward()
    optimizer.step()
    print(step, l)
print(model.b2)


class MLP(nn.Module):
    def __init__(self, num_outputs, num_hiddens, lr):
        super().__init__()
        self.lr = lr
        self.net = nn.Sequential(nn.Flatten(), nn.LazyLinear(num_hiddens),
                                 nn.ReLU(), nn.LazyLinear(num_outputs))

    def forward(self, X):
        return self.net(X)


model = MLP(num_outputs=10, num_hiddens=256, lr=0.1)
print(model)
model(X)
print(model)
optimizer = torch.optim.SGD(model.parameters(), lr=model.lr)
for step in range(3):
    l = nn.functional.cross_entropy(model(X), Y)
    optimizer.zero_grad()
    l.backward()
    optimizer.step()
    print(step, l)

x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.sigmoid(x)
y.backward(torch.ones_like(x))
print(y.detach()[::16], x.grad[::16])

M = torch.normal(0, 1, size=(4, 4))
print('a single matrix \n', M)
for i in range(100):
    M = M @ torch.normal(0, 1, size=(4, 4))
print('after multiplying 100 matrices\n', M)

net = nn.Sequential(nn.Linear(20, 30), nn.ReLU(), nn.Linear(30, 10))


def init_xavier(module):
    if type(module) == nn.Linear:
        nn.init.xavier_uniform_(module.weight)
        nn.init.zeros_(module.bias)


net.apply(init_xavier)
print(net[0].weight[0, :5], net[2].bias)
print(net[0].weight.std(), net[2].weight.abs().max())
for m in net:
    if type(m) == nn.Linear:
        nn.init.xavier_normal_(m.weight)
print(net[2].weight[:2, :4])
