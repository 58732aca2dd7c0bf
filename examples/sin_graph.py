# The sin example of the second seed note: grad_fn chain, retain_grad.
# Run:  agrad eval examples/sin_graph.py
#       agrad graph examples/sin_graph.py
import math
import torch

a = torch.linspace(0., 2. * math.pi, steps=25, requires_grad=True)
b = torch.sin(a)
c = 2 * b
d = c + 1
out = d.sum()

print(a.grad_fn)
print(b.grad_fn)
print(c.grad_fn)
print(d.grad_fn)
print(out.grad_fn)

b.retain_grad()
out.backward()

print(a.grad)
print(b.grad)
