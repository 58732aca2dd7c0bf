# PyTorch's "Hooks for autograd saved tensors" tutorial (intermediate_source/
# autograd_saved_tensors_hooks_tutorial.py): _saved_ attributes, pack/unpack hooks, hooks returning an
# int, a tuple with a closure, save_on_cpu in a module. Seeded (torch.manual_seed(0)) and with the values
# printed that the tutorial asserts. Left out: the repr/eval example (agrad scripts cannot run code from
# strings) and the save-to-disk sections (agrad scripts cannot access files).
import torch
import torch.nn as nn

torch.manual_seed(0)
a = torch.randn(5, requires_grad=True)
b = torch.ones(5, requires_grad=True)
y = a * b
print(y.grad_fn._saved_self)
print(y.grad_fn._saved_other)

def f(x):
    return x * x

x = torch.randn(5, requires_grad=True)
y = f(f(f(x)))
print(y.grad_fn._saved_self, y.grad_fn.next_functions[0][0]._saved_other)

a = torch.randn(5, requires_grad=True)
b = torch.ones(5, requires_grad=True)
y = a * b
print(y.grad_fn._saved_self is a)   # True
print(y.grad_fn._saved_other is b)  # True

a = torch.randn(5, requires_grad=True)
y = torch.exp(a)
print(y.grad_fn._saved_result.equal(y))  # True
print(y.grad_fn._saved_result is y)      # False

def pack_hook(x):
    print("Packing", x)
    return x

def unpack_hook(x):
    print("Unpacking", x)
    return x
a = torch.ones(5, requires_grad=True)
b = torch.ones(5, requires_grad=True) * 2

with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b

y.sum().backward()
print(a.grad, b.grad)

x = torch.randn(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda x: x * 4, lambda x: x / 4):
    y = torch.pow(x, 2)
y.sum().backward()
assert(x.grad.equal(2 * x))
print(x.grad)

storage = []

def pack(x):
    storage.append(x)
    return len(storage) - 1

def unpack(x):
    return storage[x]

x = torch.randn(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = x * x
y.sum().backward()
print(len(storage), x.grad.equal(2 * x))

def pack(x):
    delta = torch.randn(*x.size())
    return x - delta, lambda x: x + delta

def unpack(packed):
    x, f = packed
    return f(x)

x = torch.randn(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = x * x
y.sum().backward()
print(torch.allclose(x.grad, 2 * x), x.grad)

def pack_hook(x):
    return (x.device, x.cpu())

def unpack_hook(packed):
    device, tensor = packed
    return tensor.to(device)

x = torch.randn(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = x * x
y.sum().backward()
print(torch.allclose(x.grad, (2 * x)))

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(5))

    def forward(self, x):
        with torch.autograd.graph.save_on_cpu(pin_memory=True):
            return self.w * x

x = torch.randn(5)
model = Model()
loss = model(x).sum()
loss.backward()
print(loss, model.w.grad)

class SaveToCpu(nn.Module):
    def __init__(self, module):
        super().__init__()
        self.module = module

    def forward(self, *args, **kwargs):
        with torch.autograd.graph.save_on_cpu(pin_memory=True):
            return self.module(*args, **kwargs)

model = nn.Sequential(
    nn.Linear(10, 100),
    SaveToCpu(nn.Linear(100, 100)),
    nn.Linear(100, 10),
)
print(model)
x = torch.randn(10)
loss = model(x).sum()
loss.backward()
print(loss, model[1].module.bias.grad[:5])

x = torch.ones(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 10, lambda t: t):
    y = x.pow(2)
print(y.grad_fn._saved_self)
print(y.grad_fn._saved_self)
print("Double access succeeded!")
