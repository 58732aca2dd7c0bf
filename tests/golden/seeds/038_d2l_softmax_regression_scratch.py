# Follows d2l.ai's PyTorch chapter "Implementation of Softmax Regression from Scratch" (0.17 edition),
# rewritten as a user would type it: the softmax by exp and sum(1, keepdim=True), the net as
# X.reshape @ W + b, cross_entropy by fancy indexing y_hat[range(len(y_hat)), y], accuracy with
# argmax and type(y.dtype), an Accumulator class, evaluate_accuracy under no_grad with net.eval()
# skipped for a plain function, and the updater sgd.
# Changed: Fashion-MNIST cannot be downloaded: seeded synthetic images (torch.manual_seed(0), rand)
# of 1x28x28 and random labels, in a TensorDataset/DataLoader of 256 (shuffle=True, so the batches
# come from PyTorch's random stream); 2 epochs; the animator's plot is printed as numbers.
import torch
from torch.utils import data

torch.manual_seed(0)
train = data.TensorDataset(torch.rand(512, 1, 28, 28), torch.randint(0, 10, (512,)))
test = data.TensorDataset(torch.rand(256, 1, 28, 28), torch.randint(0, 10, (256,)))
batch_size = 256
train_iter = data.DataLoader(train, batch_size, shuffle=True)
test_iter = data.DataLoader(test, batch_size, shuffle=False)

num_inputs = 784
num_outputs = 10
W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)

X = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(X.sum(0, keepdim=True), X.sum(1, keepdim=True))


def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition


X = torch.normal(0, 1, (2, 5))
X_prob = softmax(X)
print(X_prob, X_prob.sum(1))


def net(X):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)


y = torch.tensor([0, 2])
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat[[0, 1], y])


def cross_entropy(y_hat, y):
    return - torch.log(y_hat[range(len(y_hat)), y])


print(cross_entropy(y_hat, y))


def accuracy(y_hat, y):
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


print(accuracy(y_hat, y) / len(y))


class Accumulator:
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def reset(self):
        self.data = [0.0] * len(self.data)

    def __getitem__(self, idx):
        return self.data[idx]


def evaluate_accuracy(net, data_iter):
    if isinstance(net, torch.nn.Module):
        net.eval()
    metric = Accumulator(2)
    with torch.no_grad():
        for X, y in data_iter:
            metric.add(accuracy(net(X), y), y.numel())
    return metric[0] / metric[1]


print(evaluate_accuracy(net, test_iter))


def train_epoch_ch3(net, train_iter, loss, updater):
    if isinstance(net, torch.nn.Module):
        net.train()
    metric = Accumulator(3)
    for X, y in train_iter:
        y_hat = net(X)
        l = loss(y_hat, y)
        if isinstance(updater, torch.optim.Optimizer):
            updater.zero_grad()
            l.mean().backward()
            updater.step()
        else:
            l.sum().backward()
            updater(X.shape[0])
        metric.add(float(l.sum()), accuracy(y_hat, y), y.numel())
    return metric[0] / metric[2], metric[1] / metric[2]


lr = 0.1


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


def updater(batch_size):
    return sgd([W, b], lr, batch_size)


num_epochs = 2
for epoch in range(num_epochs):
    train_metrics = train_epoch_ch3(net, train_iter, cross_entropy, updater)
    test_acc = evaluate_accuracy(net, test_iter)
    print(epoch + 1, train_metrics, test_acc)
print(W[:3, :3], b)
