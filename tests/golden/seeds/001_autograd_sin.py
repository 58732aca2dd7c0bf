# The note's snippet uses torch and math without importing them: imports added.
import math
import torch

a = torch.linspace(0., 2. * math.pi, steps=25, requires_grad=True)
b = torch.sin(a)
c = 2 * b
d = c + 1
out = d.sum()

print(a.grad_fn)   # None
print(b.grad_fn)   # <SinBackward0 object at 0x000001C8E240F400>
print(c.grad_fn)   # <MulBackward0 object at 0x000001C8E240EB30>
print(d.grad_fn)   # <AddBackward0 object at 0x000001C8E240F400>
print(out.grad_fn) # <SumBackward0 object at 0x000001C8E240F190>

b.retain_grad()
out.backward()

print(a.grad)   # tensor([...],...), 约等于 2 * torch.cos(a)
print(b.grad)   # tensor([2.,2.,2.,...2.],...)
print(c.grad)   # None，不是计算图的叶节点，也没有 .retain_grad()
print(d.grad)   # None，不是计算图的叶节点，也没有 .retain_grad()
print(out.grad) # None，不是计算图的叶节点，也没有 .retain_grad()
