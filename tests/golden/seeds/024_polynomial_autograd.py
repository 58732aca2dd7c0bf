# Follows PyTorch's "Learning PyTorch with Examples": Tensors and autograd (pytorch/tutorials
# beginner_source/examples_autograd/polynomial_autograd.py), rewritten as a user would type it.
# Changed: torch.manual_seed(0) first (reproducible weights); 500 iterations instead of 2000;
# the weights' repr (with requires_grad) is printed at the end.
import torch
import math

torch.manual_seed(0)
dtype = torch.float
device = "cpu"

x = torch.linspace(-math.pi, math.pi, 2000, dtype=dtype, device=device)
y = torch.sin(x)

a = torch.randn((), dtype=dtype, device=device, requires_grad=True)
b = torch.randn((), dtype=dtype, device=device, requires_grad=True)
c = torch.randn((), dtype=dtype, device=device, requires_grad=True)
d = torch.randn((), dtype=dtype, device=device, requires_grad=True)

learning_rate = 1e-6
for t in range(500):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad

        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None

print(f'Result: y = {a.item()} + {b.item()} x + {c.item()} x^2 + {d.item()} x^3')
print(a, b, c, d, loss)
