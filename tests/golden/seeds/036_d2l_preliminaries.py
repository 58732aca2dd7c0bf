# Follows d2l.ai's PyTorch chapters "Data Manipulation" (ndarray), "Linear Algebra" and "Automatic
# Differentiation" (chapter_preliminaries), rewritten as a user would type them: arange, reshape,
# zeros/ones/randn, elementwise operators, exp, cat, ==, sum, broadcasting, indexing and slicing,
# in-place updates with id(), numpy conversion, sum/mean along axes with keepdims, cumsum, dot,
# mv, mm, norms; then backward of 2 * x @ x, of sum, of a non-scalar with gradient=, detach, and
# the gradient through Python control flow.
# Changed: torch.manual_seed(0) for randn / the control-flow input; id() equalities printed as
# booleans; the pandas part is left out.
import torch

torch.manual_seed(0)
x = torch.arange(12, dtype=torch.float32)
print(x, x.numel(), x.shape)
X = x.reshape(3, 4)
print(X, x.reshape(-1, 4).shape)
print(torch.zeros((2, 3, 4)))
print(torch.ones((2, 3, 4)).sum())
print(torch.randn(3, 4).shape)
print(torch.tensor([[2, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]]))
print(X[-1], X[1:3])
X[1, 2] = 17
print(X)
X[:2, :] = 12
print(X)

x = torch.tensor([1.0, 2, 4, 8])
y = torch.tensor([2, 2, 2, 2])
print(x + y, x - y, x * y, x / y, x ** y)
print(torch.exp(x))
X = torch.arange(12, dtype=torch.float32).reshape((3, 4))
Y = torch.tensor([[2.0, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
print(torch.cat((X, Y), dim=0), torch.cat((X, Y), dim=1))
print(X == Y)
print(X.sum())
a = torch.arange(3).reshape((3, 1))
b = torch.arange(2).reshape((1, 2))
print(a, b, a + b)

before = id(Y)
Y = Y + X
print(id(Y) == before)
Z = torch.zeros_like(Y)
before = id(Z)
Z[:] = X + Y
print(id(Z) == before)
before = id(X)
X += Y
print(id(X) == before)

A = X.numpy()
B = torch.from_numpy(A)
print(type(A), type(B))
a = torch.tensor([3.5])
print(a, a.item(), float(a), int(a))

x = torch.tensor(3.0)
y = torch.tensor(2.0)
print(x + y, x * y, x / y, x ** y)
x = torch.arange(3)
print(x, x[2], len(x), x.shape)
A = torch.arange(6).reshape(3, 2)
print(A.T)
A = torch.tensor([[1, 2, 3], [2, 0, 4], [3, 4, 5]])
print(A == A.T)
print(torch.arange(24).reshape(2, 3, 4))
A = torch.arange(6, dtype=torch.float32).reshape(2, 3)
B = A.clone()
print(A, A + B, A * B)
a = 2
X = torch.arange(24).reshape(2, 3, 4)
print(a + X, (a * X).shape)
x = torch.arange(3, dtype=torch.float32)
print(x, x.sum())
print(A.shape, A.sum())
print(A.shape, A.sum(axis=0).shape, A.sum(axis=1).shape)
print(A.sum(axis=[0, 1]) == A.sum())
print(A.mean(), A.sum() / A.numel())
print(A.mean(axis=0), A.sum(axis=0) / A.shape[0])
sum_A = A.sum(axis=1, keepdims=True)
print(sum_A, sum_A.shape)
print(A / sum_A)
print(A.cumsum(axis=0))
y = torch.ones(3, dtype=torch.float32)
print(x, y, torch.dot(x, y), torch.sum(x * y))
print(A.shape, x.shape, torch.mv(A, x), A @ x)
B = torch.ones(3, 4)
print(torch.mm(A, B), A @ B)
u = torch.tensor([3.0, -4.0])
print(torch.norm(u), torch.abs(u).sum(), torch.norm(torch.ones((4, 9))))

x = torch.arange(4.0)
print(x)
x.requires_grad_(True)
print(x.grad)
y = 2 * torch.dot(x, x)
print(y)
y.backward()
print(x.grad, x.grad == 4 * x)
x.grad.zero_()
y = x.sum()
y.backward()
print(x.grad)
x.grad.zero_()
y = x * x
y.backward(gradient=torch.ones(len(y)))
print(x.grad)
x.grad.zero_()
y = x * x
u = y.detach()
z = u * x
z.sum().backward()
print(x.grad == u)
x.grad.zero_()
y.sum().backward()
print(x.grad == 2 * x)


def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c


a = torch.randn(size=(), requires_grad=True)
d = f(a)
d.backward()
print(a.grad == d / a, a, d)
