# The note's snippet uses torch without importing it: import added.
import torch

a = torch.arange(5.,requires_grad=True)
b = torch.sin(a)
b.backward(gradient=torch.ones_like(b))
with torch.no_grad():
    a[1] = 10
    a.grad.zero_()  # a.grad = 0
print(a)  # tensor([0,10,2,3,4], requires_grad=True)
