import torch

x = torch.ones(5)  # input tensor
y = torch.zeros(3)  # expected output
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w)+b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)

#其中requires_grad的值可以在定义变量时设置（如上）也可以利用x.requires_grad_(True)设置

#接上面代码块
print('Gradient function for z =', z.grad_fn)
print('Gradient function for loss =', loss.grad_fn)

#计算梯度
loss.backward()
print(w.grad)
print(b.grad)
