# PyTorch 1.7 printed grad_fn=<CopySlices> here; PyTorch 2.x raises at a[:] = 0.
import torch as t

a = t.tensor([10., 5., 2., 3.], requires_grad=True)
print(a, a.is_leaf)

a[:] = 0
print(a, a.is_leaf)

loss = (a*a).mean()
#loss.backward()
