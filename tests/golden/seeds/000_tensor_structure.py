import torch as t

a = t.tensor(2.0,requires_grad=True)
print(a)
b = a.exp()
print(b)

c = t.tensor(2.0)
print(c)
print(c.exp())
