# d2l style (LeNet with batch norm built from lazy layers; a dummy batch, then net.apply(init_cnn) with
# type(module) == nn.Linear checks; 4 SGD steps). Random inputs instead of Fashion-MNIST. nnmodules, session 30.
import torch
import torch.nn as nn

torch.manual_seed(0)


def init_cnn(module):
    if type(module) == nn.Linear or type(module) == nn.Conv2d:
        nn.init.xavier_uniform_(module.weight)


net = nn.Sequential(
    nn.LazyConv2d(6, kernel_size=5, padding=2), nn.LazyBatchNorm2d(), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.LazyConv2d(16, kernel_size=5), nn.LazyBatchNorm2d(), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2), nn.Flatten(),
    nn.LazyLinear(120), nn.LazyBatchNorm1d(), nn.Sigmoid(),
    nn.LazyLinear(84), nn.LazyBatchNorm1d(), nn.Sigmoid(),
    nn.LazyLinear(10))
print(net)
X = torch.randn(4, 1, 28, 28)
net(X)
net.apply(init_cnn)
print(net)
for layer in net:
    X = layer(X)
    print(type(layer), 'output shape:\t', X.shape)
print(sum(p.numel() for p in net.parameters()))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
loss = nn.CrossEntropyLoss()
data = torch.randn(8, 1, 28, 28)
labels = torch.randint(0, 10, (8,))
for step in range(4):
    l = loss(net(data), labels)
    opt.zero_grad()
    l.backward()
    opt.step()
    print(step, round(l.item(), 5))
print(net[1].running_mean[:3], net[1].num_batches_tracked)
net.eval()
print(net(data[:2]).argmax(1))
