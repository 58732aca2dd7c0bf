import torch as t

x = t.ones(3,requires_grad = True)
y = t.ones(3,requires_grad = True)
w = t.rand(3,requires_grad = True)
y = x * w

def variable_hook(grad):
    print("y的梯度:\n",grad)
hook_handle = y.register_hook(variable_hook)
z = y.sum()
z.backward()
hook_handle.remove()# 移除hook
