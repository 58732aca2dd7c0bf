# Follows PyTorch's NLP tutorial "Introduction to PyTorch" (pytorch/tutorials
# beginner_source/nlp/pytorch_tutorial.py, the version written with autograd.Variable), rewritten
# as a user would type it: torch.Tensor from lists, indexing, randn, cat, view, Variable's .data
# and grad_fn, backward, and the re-wrapped Variable that lost its history.
# Changed: the commented-out torch.cat of incompatible tensors is run last, to show its error.
import torch
import torch.autograd as autograd
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(1)

V_data = [1., 2., 3.]
V = torch.Tensor(V_data)
print(V)
M_data = [[1., 2., 3.], [4., 5., 6]]
M = torch.Tensor(M_data)
print(M)
T_data = [[[1., 2.], [3., 4.]],
          [[5., 6.], [7., 8.]]]
T = torch.Tensor(T_data)
print(T)
print(V[0])
print(M[0])
print(T[0])
x = torch.randn((3, 4, 5))
print(x)

x = torch.Tensor([1., 2., 3.])
y = torch.Tensor([4., 5., 6.])
z = x + y
print(z)

x_1 = torch.randn(2, 5)
y_1 = torch.randn(3, 5)
z_1 = torch.cat([x_1, y_1])
print(z_1)
x_2 = torch.randn(2, 3)
y_2 = torch.randn(2, 5)
z_2 = torch.cat([x_2, y_2], 1)
print(z_2)

x = torch.randn(2, 3, 4)
print(x)
print(x.view(2, 12))
print(x.view(2, -1))

x = autograd.Variable(torch.Tensor([1., 2., 3]), requires_grad=True)
print(x.data)
y = autograd.Variable(torch.Tensor([4., 5., 6]), requires_grad=True)
z = x + y
print(z.data)
print(z.grad_fn)
s = z.sum()
print(s)
print(s.grad_fn)
s.backward()
print(x.grad)

x = torch.randn((2, 2))
y = torch.randn((2, 2))
z = x + y
var_x = autograd.Variable(x, requires_grad=True)
var_y = autograd.Variable(y, requires_grad=True)
var_z = var_x + var_y
print(var_z.grad_fn)
var_z_data = var_z.data
new_var_z = autograd.Variable(var_z_data)
print(new_var_z.grad_fn)
print(type(var_z), type(new_var_z), new_var_z.requires_grad, isinstance(var_x, autograd.Variable))

torch.cat([x_1, x_2])
