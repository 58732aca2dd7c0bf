# Follows d2l's weight decay (3.7: l2_penalty from scratch with lambd 0 and 3, then SGD with a
# weight_decay parameter group), dropout (5.6: dropout_layer from scratch, the concise Net with
# LazyLinear and Dropout, train/eval) and parameter initialisation (6.3: apply with init_normal,
# xavier_uniform_ and my_init) chapters. Changed: smaller sizes, 10 epochs, values printed, inputs
# seeded (torch.manual_seed(42)), no d2l package (its Trainer: a plain loop).
import math
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(42)

# d2l 3.7 weight decay: high-dimensional linear regression, from scratch and concise
n_train, n_test, num_inputs, batch_size = 20, 100, 200, 5
true_w, true_b = torch.ones((num_inputs, 1)) * 0.01, 0.05
def synthetic(n):
    X = torch.randn(n, num_inputs)
    noise = torch.randn(n, 1) * 0.01
    return X, torch.matmul(X, true_w) + true_b + noise
train_X, train_y = synthetic(n_train)
test_X, test_y = synthetic(n_test)

def l2_penalty(w):
    return (w ** 2).sum() / 2

def train_scratch(lambd):
    w = torch.normal(0, 0.01, size=(num_inputs, 1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    lr = 0.01
    for epoch in range(10):
        perm = torch.randperm(n_train)
        for i in range(0, n_train, batch_size):
            idx = perm[i:i + batch_size]
            X, y = train_X[idx], train_y[idx]
            l = ((torch.matmul(X, w) + b - y) ** 2 / 2).mean() + lambd * l2_penalty(w)
            l.backward()
            with torch.no_grad():
                for p in (w, b):
                    p -= lr * p.grad
                    p.grad.zero_()
    with torch.no_grad():
        test_l = ((torch.matmul(test_X, w) + b - test_y) ** 2 / 2).mean()
    print(f"lambd={lambd}: L2 norm of w {float(l2_penalty(w)):.6f}, test loss {test_l.item():.6f}")

train_scratch(0)
train_scratch(3)

def train_concise(wd):
    net = nn.Sequential(nn.Linear(num_inputs, 1))
    for param in net.parameters():
        param.data.normal_()
    loss = nn.MSELoss(reduction='none')
    trainer = torch.optim.SGD([{"params": net[0].weight, 'weight_decay': wd},
                               {"params": net[0].bias}], lr=0.003)
    for epoch in range(10):
        for i in range(0, n_train, batch_size):
            X, y = train_X[i:i + batch_size], train_y[i:i + batch_size]
            trainer.zero_grad()
            l = loss(net(X), y)
            l.mean().backward()
            trainer.step()
    print('w的L2范数：', net[0].weight.norm().item(), trainer.param_groups[0]['weight_decay'])
    print(trainer)

train_concise(0)
train_concise(3)

# d2l 5.6 dropout from scratch and concise
def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    if dropout == 1:
        return torch.zeros_like(X)
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)

X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
print(dropout_layer(X, 0.))
print(dropout_layer(X, 0.5))
print(dropout_layer(X, 1.))

class Net(nn.Module):
    def __init__(self, num_outputs, num_hiddens_1, num_hiddens_2, dropout_1, dropout_2):
        super().__init__()
        self.net = nn.Sequential(
            nn.Flatten(), nn.LazyLinear(num_hiddens_1), nn.ReLU(),
            nn.Dropout(dropout_1), nn.LazyLinear(num_hiddens_2), nn.ReLU(),
            nn.Dropout(dropout_2), nn.LazyLinear(num_outputs))
    def forward(self, X):
        return self.net(X)

model = Net(num_outputs=10, num_hiddens_1=32, num_hiddens_2=16, dropout_1=0.5, dropout_2=0.5)
X = torch.randn(6, 1, 4, 4)
y = torch.randint(0, 10, (6,))
model(X)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(4):
    out = model(X)
    l = F.cross_entropy(out, y)
    opt.zero_grad(); l.backward(); opt.step()
    print(step, round(l.item(), 6))
model.eval()
with torch.no_grad():
    print(model(X).argmax(dim=1), model.training, model.net[3].training)
print(model)
# weight initialisation (d2l 6.3)
def init_normal(module):
    if type(module) == nn.Linear:
        nn.init.normal_(module.weight, mean=0, std=0.01)
        nn.init.zeros_(module.bias)
def init_xavier(module):
    if type(module) == nn.Linear:
        nn.init.xavier_uniform_(module.weight)
def my_init(module):
    if type(module) == nn.Linear:
        print("Init", *[(name, param.shape) for name, param in module.named_parameters()][0])
        nn.init.uniform_(module.weight, -10, 10)
        module.weight.data *= module.weight.data.abs() >= 5
net = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.LazyLinear(1))
net(torch.rand(2, 4))
net.apply(init_normal)
print(net[0].weight.data[0], net[0].bias.data[0])
net[0].apply(init_xavier)
print(net[0].weight.data[0])
net.apply(my_init)
print(net[0].weight[:2])
print(math.isclose(net[2].weight.std().item(), net[2].weight.std().item()))
