# Follows d2l.ai's PyTorch chapters "Batch Normalization" (the from-scratch batch_norm function and
# BatchNorm module, then nn.BatchNorm2d/1d in a LeNet), "Dropout" (dropout_layer from scratch, the
# two-hidden-layer Net with is_training) and "Weight Decay" (l2_penalty, the high-dimensional linear
# regression trained with and without it), rewritten as a user would type them.
# Changed: Fashion-MNIST cannot be downloaded: seeded synthetic images (torch.manual_seed(0), rand)
# and labels; 3 SGD steps on one batch of 16 for the LeNet (instead of 10 epochs); weight decay's
# data are the chapter's synthetic_data, 5 epochs instead of 100, the norm of w rounded to 4 places
# (its gradient X^T g is MKL's gemv, whose last bits agrad does not reproduce); the plots are printed
# as numbers.
import torch
from torch import nn


def batch_norm(X, gamma, beta, moving_mean, moving_var, eps, momentum):
    if not torch.is_grad_enabled():
        X_hat = (X - moving_mean) / torch.sqrt(moving_var + eps)
    else:
        assert len(X.shape) in (2, 4)
        if len(X.shape) == 2:
            mean = X.mean(dim=0)
            var = ((X - mean) ** 2).mean(dim=0)
        else:
            mean = X.mean(dim=(0, 2, 3), keepdim=True)
            var = ((X - mean) ** 2).mean(dim=(0, 2, 3), keepdim=True)
        X_hat = (X - mean) / torch.sqrt(var + eps)
        moving_mean = momentum * moving_mean + (1.0 - momentum) * mean
        moving_var = momentum * moving_var + (1.0 - momentum) * var
    Y = gamma * X_hat + beta
    return Y, moving_mean.data, moving_var.data


class BatchNorm(nn.Module):
    def __init__(self, num_features, num_dims):
        super().__init__()
        if num_dims == 2:
            shape = (1, num_features)
        else:
            shape = (1, num_features, 1, 1)
        self.gamma = nn.Parameter(torch.ones(shape))
        self.beta = nn.Parameter(torch.zeros(shape))
        self.moving_mean = torch.zeros(shape)
        self.moving_var = torch.ones(shape)

    def forward(self, X):
        if self.moving_mean.device != X.device:
            self.moving_mean = self.moving_mean.to(X.device)
            self.moving_var = self.moving_var.to(X.device)
        Y, self.moving_mean, self.moving_var = batch_norm(
            X, self.gamma, self.beta, self.moving_mean,
            self.moving_var, eps=1e-5, momentum=0.9)
        return Y


torch.manual_seed(0)
net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5), BatchNorm(6, num_dims=4), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), BatchNorm(16, num_dims=4), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2), nn.Flatten(),
    nn.Linear(16 * 4 * 4, 120), BatchNorm(120, num_dims=2), nn.Sigmoid(),
    nn.Linear(120, 84), BatchNorm(84, num_dims=2), nn.Sigmoid(),
    nn.Linear(84, 10))
X = torch.rand(16, 1, 28, 28)
y = torch.randint(0, 10, (16,))
loss = nn.CrossEntropyLoss()
trainer = torch.optim.SGD(net.parameters(), lr=1.0)
for step in range(3):
    trainer.zero_grad()
    l = loss(net(X), y)
    l.backward()
    trainer.step()
    print(step, l)
print(net[1].gamma.reshape((-1,)), net[1].beta.reshape((-1,)))
print(net[1].moving_mean.reshape((-1,)), net[1].moving_var.reshape((-1,)))

net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5), nn.BatchNorm2d(6), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), nn.BatchNorm2d(16), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2), nn.Flatten(),
    nn.Linear(256, 120), nn.BatchNorm1d(120), nn.Sigmoid(),
    nn.Linear(120, 84), nn.BatchNorm1d(84), nn.Sigmoid(),
    nn.Linear(84, 10))
trainer = torch.optim.SGD(net.parameters(), lr=1.0)
for step in range(3):
    trainer.zero_grad()
    l = loss(net(X), y)
    l.backward()
    trainer.step()
    print(step, l)
print(net[1].running_mean, net[1].num_batches_tracked)
net.eval()
print(net(X[:2]))


def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    if dropout == 1:
        return torch.zeros_like(X)
    if dropout == 0:
        return X
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)


X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
print(X)
print(dropout_layer(X, 0.))
print(dropout_layer(X, 0.5))
print(dropout_layer(X, 1.))

num_inputs, num_outputs, num_hiddens1, num_hiddens2 = 784, 10, 256, 256
dropout1, dropout2 = 0.2, 0.5


class Net(nn.Module):
    def __init__(self, num_inputs, num_outputs, num_hiddens1, num_hiddens2,
                 is_training=True):
        super(Net, self).__init__()
        self.num_inputs = num_inputs
        self.training = is_training
        self.lin1 = nn.Linear(num_inputs, num_hiddens1)
        self.lin2 = nn.Linear(num_hiddens1, num_hiddens2)
        self.lin3 = nn.Linear(num_hiddens2, num_outputs)
        self.relu = nn.ReLU()

    def forward(self, X):
        H1 = self.relu(self.lin1(X.reshape((-1, self.num_inputs))))
        if self.training == True:
            H1 = dropout_layer(H1, dropout1)
        H2 = self.relu(self.lin2(H1))
        if self.training == True:
            H2 = dropout_layer(H2, dropout2)
        out = self.lin3(H2)
        return out


net = Net(num_inputs, num_outputs, num_hiddens1, num_hiddens2)
out = net(torch.rand(4, 1, 28, 28))
print(out.shape, out.grad_fn)
net = nn.Sequential(nn.Flatten(),
                    nn.Linear(784, 256), nn.ReLU(), nn.Dropout(dropout1),
                    nn.Linear(256, 256), nn.ReLU(), nn.Dropout(dropout2),
                    nn.Linear(256, 10))
print(net)
print((net[3](torch.ones(2, 8)) == 0).sum())


def synthetic_data(w, b, num_examples):
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


n_train, n_test, num_inputs, batch_size = 20, 100, 200, 5
true_w, true_b = torch.ones((num_inputs, 1)) * 0.01, 0.05
train_data = synthetic_data(true_w, true_b, n_train)
test_data = synthetic_data(true_w, true_b, n_test)


def init_params():
    w = torch.normal(0, 1, size=(num_inputs, 1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    return [w, b]


def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2


def train(lambd):
    w, b = init_params()
    lr = 0.003
    for epoch in range(5):
        for i in range(0, n_train, batch_size):
            X, y = train_data[0][i:i + batch_size], train_data[1][i:i + batch_size]
            l = ((X @ w + b - y) ** 2 / 2) + lambd * l2_penalty(w)
            l.sum().backward()
            with torch.no_grad():
                for param in (w, b):
                    param -= lr * param.grad / batch_size
                    param.grad.zero_()
    print('w的L2范数是：', round(torch.norm(w).item(), 4))


train(lambd=0)
train(lambd=3)
net = nn.Sequential(nn.Linear(num_inputs, 1))
trainer = torch.optim.SGD([
    {"params": net[0].weight, 'weight_decay': 3},
    {"params": net[0].bias}], lr=0.003)
print(trainer)
