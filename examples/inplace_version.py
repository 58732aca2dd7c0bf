# In-place writes and the version counter (first seed note).
# Run:  agrad eval examples/inplace_version.py
import torch as t

a = t.tensor([1.0, 3.0], requires_grad=True)
b = a + 2
print(b._version)

b[0] = 100
print(b._version)

loss = (b * b).mean()

loss.backward()
print(b._version)
