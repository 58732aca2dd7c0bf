# Follows d2l's Modern CNNs chapter (8.6 ResNet's Residual block, 8.7 DenseNet's dense and
# transition blocks, 8.4 GoogLeNet's Inception block, 8.3 NiN's blocks with d2l's layer-by-layer
# shape printout through layer.__class__.__name__) and a LeNet-like net with BatchNorm trained five
# SGD steps. Changed: smaller channel counts and inputs, values printed, inputs seeded
# (torch.manual_seed(0)), no d2l package (its Module/Trainer: a plain loop).
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)

class Residual(nn.Module):
    """The Residual block of ResNet models (d2l 8.6)."""
    def __init__(self, num_channels, use_1x1conv=False, strides=1):
        super().__init__()
        self.conv1 = nn.LazyConv2d(num_channels, kernel_size=3, padding=1, stride=strides)
        self.conv2 = nn.LazyConv2d(num_channels, kernel_size=3, padding=1)
        if use_1x1conv:
            self.conv3 = nn.LazyConv2d(num_channels, kernel_size=1, stride=strides)
        else:
            self.conv3 = None
        self.bn1 = nn.LazyBatchNorm2d()
        self.bn2 = nn.LazyBatchNorm2d()

    def forward(self, X):
        Y = F.relu(self.bn1(self.conv1(X)))
        Y = self.bn2(self.conv2(Y))
        if self.conv3:
            X = self.conv3(X)
        Y += X
        return F.relu(Y)

blk = Residual(3)
X = torch.randn(4, 3, 6, 6)
print(blk(X).shape)
blk = Residual(6, use_1x1conv=True, strides=2)
print(blk(X).shape)
print(blk(X)[0, 0])

def conv_block(num_channels):
    return nn.Sequential(nn.LazyBatchNorm2d(), nn.ReLU(), nn.LazyConv2d(num_channels, kernel_size=3, padding=1))

class DenseBlock(nn.Module):
    def __init__(self, num_convs, num_channels):
        super(DenseBlock, self).__init__()
        layer = []
        for i in range(num_convs):
            layer.append(conv_block(num_channels))
        self.net = nn.Sequential(*layer)

    def forward(self, X):
        for blk in self.net:
            Y = blk(X)
            X = torch.cat((X, Y), dim=1)
        return X

blk = DenseBlock(2, 10)
X = torch.randn(4, 3, 8, 8)
Y = blk(X)
print(Y.shape)
print(Y[1, 5, :3])

def transition_block(num_channels):
    return nn.Sequential(nn.LazyBatchNorm2d(), nn.ReLU(), nn.LazyConv2d(num_channels, kernel_size=1),
                         nn.AvgPool2d(kernel_size=2, stride=2))

blk = transition_block(10)
print(blk(Y).shape)

class Inception(nn.Module):
    def __init__(self, c1, c2, c3, c4, **kwargs):
        super(Inception, self).__init__(**kwargs)
        self.b1_1 = nn.LazyConv2d(c1, kernel_size=1)
        self.b2_1 = nn.LazyConv2d(c2[0], kernel_size=1)
        self.b2_2 = nn.LazyConv2d(c2[1], kernel_size=3, padding=1)
        self.b3_1 = nn.LazyConv2d(c3[0], kernel_size=1)
        self.b3_2 = nn.LazyConv2d(c3[1], kernel_size=5, padding=2)
        self.b4_1 = nn.MaxPool2d(kernel_size=3, stride=1, padding=1)
        self.b4_2 = nn.LazyConv2d(c4, kernel_size=1)

    def forward(self, x):
        b1 = F.relu(self.b1_1(x))
        b2 = F.relu(self.b2_2(F.relu(self.b2_1(x))))
        b3 = F.relu(self.b3_2(F.relu(self.b3_1(x))))
        b4 = F.relu(self.b4_2(self.b4_1(x)))
        return torch.cat((b1, b2, b3, b4), dim=1)

inc = Inception(4, (3, 6), (2, 4), 4)
out = inc(torch.randn(2, 5, 7, 7))
print(out.shape, out.sum().item(), out[1, :, 3, 3])

def nin_block(out_channels, kernel_size, strides, padding):
    return nn.Sequential(
        nn.LazyConv2d(out_channels, kernel_size, strides, padding), nn.ReLU(),
        nn.LazyConv2d(out_channels, kernel_size=1), nn.ReLU(),
        nn.LazyConv2d(out_channels, kernel_size=1), nn.ReLU())

net = nn.Sequential(
    nin_block(8, kernel_size=5, strides=2, padding=0),
    nn.MaxPool2d(3, stride=2),
    nin_block(10, kernel_size=3, strides=1, padding=1),
    nn.AdaptiveAvgPool2d((1, 1)),
    nn.Flatten())
X = torch.randn(3, 1, 20, 20)
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__, 'output shape:\t', X.shape)
print(X)

net = nn.Sequential(nn.LazyConv2d(6, kernel_size=3), nn.LazyBatchNorm2d(), nn.Sigmoid(),
                    nn.AvgPool2d(2), nn.Flatten(), nn.LazyLinear(10))
X = torch.randn(8, 1, 10, 10)
y = torch.randint(0, 10, (8,))
net(X)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for epoch in range(5):
    loss = F.cross_entropy(net(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, loss.item())
print(net[1].running_mean, net[1].running_var)
net.eval()
print(net(X).argmax(1), (net(X).argmax(1) == y).float().mean())
