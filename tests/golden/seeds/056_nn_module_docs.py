# Follows the examples in PyTorch's torch.nn.Module documentation and the "Modules" note as a user
# types them: the Model with conv layers, add_module/register_buffer/register_parameter,
# children/modules/named_modules (with duplicates), named_parameters with prefix and recurse,
# apply(init_weights), state_dict keys with a persistent=False buffer, train/eval/requires_grad_,
# zero_grad, get_submodule/get_parameter, forward pre-hooks and hooks, full backward
# hooks, extra_repr and to(dtype).
# Changed: values are printed; the models' inputs are seeded (torch.manual_seed(0)).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Model(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, 20, 5)
        self.conv2 = nn.Conv2d(20, 20, 5)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        return F.relu(self.conv2(x))


model = Model()
print(model)
print(model(torch.randn(1, 1, 12, 12)).shape)

l = nn.Linear(2, 2)
net = nn.Sequential(l, l)
for idx, m in enumerate(net.modules()):
    print(idx, '->', m)
for idx, m in enumerate(net.named_modules()):
    print(idx, '->', m)
print(list(net.named_modules(remove_duplicate=False))[1:])


@torch.no_grad()
def init_weights(m):
    print(m)
    if type(m) is nn.Linear:
        m.weight.fill_(1.0)
        print(m.weight)


net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
net.apply(init_weights)

for name, param in net.named_parameters(prefix='net'):
    print(name, param.size())
print([n for n, _ in net.named_parameters(recurse=False)], [n for n, _ in net[0].named_parameters()])


class Buffered(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('running_mean', torch.zeros(3))
        self.register_buffer('scratch', torch.ones(2), persistent=False)
        self.register_parameter('scale', nn.Parameter(torch.ones(3)))
        self.add_module('inner', nn.Linear(3, 1))

    def forward(self, x):
        self.running_mean += x.mean(0).detach()
        return self.inner(x * self.scale)


b = Buffered()
print(list(b.state_dict().keys()), [n for n, _ in b.named_buffers()])
print(b(torch.ones(4, 3)), b.running_mean)
print(list(b.children()), list(b.named_children()))
print(b.get_submodule('inner'), b.get_parameter('inner.bias').shape, b.get_buffer('scratch'))
b.eval()
print(b.training, b.inner.training)
b.train()
b.requires_grad_(False)
print([p.requires_grad for p in b.parameters()])
b.requires_grad_(True)
out = b(torch.ones(2, 3)).sum()
out.backward()
print(b.scale.grad)
b.zero_grad()
print(b.scale.grad)


def pre_hook(module, args):
    print('pre', type(module).__name__, [a.shape for a in args])
    return (args[0] * 2,)


def fwd_hook(module, args, output):
    print('fwd', output.shape)
    return output + 1


lin = nn.Linear(3, 2)
h1 = lin.register_forward_pre_hook(pre_hook)
h2 = lin.register_forward_hook(fwd_hook)
x = torch.ones(1, 3)
print(lin(x))
h1.remove()
h2.remove()
print(lin(x))


def bw_hook(module, grad_input, grad_output):
    print('backward', type(module).__name__, [None if g is None else g.shape for g in grad_input],
          [g.shape for g in grad_output])


h = lin.register_full_backward_hook(bw_hook)
lin(x.requires_grad_()).sum().backward()
h.remove()


class MyLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_features, out_features))
        self.bias = nn.Parameter(torch.randn(out_features))

    def forward(self, input):
        return (input @ self.weight) + self.bias

    def extra_repr(self):
        return 'in_features={}, out_features={}'.format(*self.weight.shape)


m = MyLinear(4, 3)
print(m)
sample_input = torch.randn(4)
print(m(sample_input))
m = m.to(torch.float64)
print(m.weight.dtype, m(sample_input.double()).dtype)
dyn = nn.ModuleDict({'linear': nn.Linear(2, 2), 'act': nn.ReLU()})
print(dyn, len(dyn), list(dyn.keys()))
pl = nn.ParameterList([nn.Parameter(torch.zeros(2)) for _ in range(2)])
print(pl, sum(p.numel() for p in pl))
