# Modifying a saved tensor before backward: PyTorch's error (exit status 1).
# Run:  agrad eval examples/inplace_error.py
import torch as t

a = t.tensor([1.0, 3.0], requires_grad=True)
b = a + 2
print(b._version) # 0
loss = (b * b).mean()
b[0] = 1000.0
print(b._version) # 1
loss.backward()
