# Follows PyTorch's "Deep Learning with PyTorch: A 60 Minute Blitz": A Gentle Introduction to
# torch.autograd (pytorch/tutorials beginner_source/blitz/autograd_tutorial.py), rewritten as a user
# would type it.
# Changed: torchvision's resnet18 and its weights cannot be downloaded: a small nn.Sequential with
# a final layer named fc stands in (seeded torch.manual_seed(0), rand inputs and labels); the
# frozen-parameter part then replaces model.fc as the tutorial does. Results are printed.
import torch
from torch import nn, optim

torch.manual_seed(0)


class SmallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(4, 1000)

    def forward(self, x):
        return self.fc(self.pool(torch.relu(self.conv(x))).flatten(1))


model = SmallNet()
data = torch.rand(1, 3, 64, 64)
labels = torch.rand(1, 1000)

prediction = model(data)
loss = (prediction - labels).sum()
loss.backward()
optim_ = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
optim_.step()
print(loss, model.fc.bias[:4])

a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3 * a ** 3 - b ** 2
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
print(9 * a ** 2 == a.grad)
print(-2 * b == b.grad)
print(Q, a.grad, b.grad)

x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)
a = x + y
print(f"Does `a` require gradients?: {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")

for param in model.parameters():
    param.requires_grad = False
model.fc = nn.Linear(4, 10)
optimizer = optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
print([p.requires_grad for p in model.parameters()])
out = model(data)
out.sum().backward()
print(model.conv.weight.grad is None, model.fc.weight.grad.shape)
optimizer.step()
print(model.fc.bias)
