# The computational graph of the third seed note (PyTorch's autograd tutorial).
# Run:  agrad eval examples/bce_logits.py --seed 0
#       agrad graph examples/bce_logits.py --seed 0 --format mermaid
import torch

x = torch.ones(5)  # input tensor
y = torch.zeros(3)  # expected output
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w)+b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)

print('Gradient function for z =', z.grad_fn.name())
print('Gradient function for loss =', loss.grad_fn.name())

loss.backward()
print(w.grad)
print(b.grad)
