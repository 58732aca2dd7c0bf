# PyTorch's "Learn the Basics: Automatic Differentiation with torch.autograd" (beginner_source/basics/
# autogradqs_tutorial.py), as a user runs it: seeded (torch.manual_seed(0)) so the printed gradients are
# PyTorch's; the torchviz example's model printed instead of drawn.
import torch

torch.manual_seed(0)
x = torch.ones(5)  # input tensor
y = torch.zeros(3)  # expected output
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)

print(f"Gradient function for z = {z.grad_fn}")
print(f"Gradient function for loss = {loss.grad_fn}")

loss.backward()
print(w.grad)
print(b.grad)

z = torch.matmul(x, w)+b
print(z.requires_grad)

with torch.no_grad():
    z = torch.matmul(x, w)+b
print(z.requires_grad)

z = torch.matmul(x, w)+b
z_det = z.detach()
print(z_det.requires_grad)

from torch import nn
model = nn.Sequential(
    nn.Linear(8, 16),
    nn.ReLU(),
    nn.Linear(16, 1)
)
x = torch.randn(1, 8, requires_grad=True)
y = model(x).mean()
print(y, y.grad_fn.next_functions)
y.backward()
print(x.grad)
print({name: p.grad.shape for name, p in model.named_parameters()})

inp = torch.eye(4, 5, requires_grad=True)
out = (inp+1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")
try:
    loss.backward()
except RuntimeError as e:
    print(e)
