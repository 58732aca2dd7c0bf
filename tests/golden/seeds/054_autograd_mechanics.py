# Follows PyTorch's notes "Autograd mechanics" as a user types them: how autograd encodes the
# history (grad_fn, saved tensors: _saved_self / _saved_result of pow and exp), locally disabling
# gradient computation (requires_grad, no_grad, inference_mode, set_grad_enabled, a frozen
# submodule), in-place correctness checks (the version counter error), hooks on saved tensors
# (saved_tensors_hooks with pack/unpack) and backward hooks on tensors and Nodes in their order.
# Changed: values are printed; the error messages are caught and printed; the inference-mode
# part prints requires_grad only (agrad has no inference tensors: Tensor.is_inference and their
# errors are left out), and the complex-autograd section is left out (agrad has no complex
# dtypes: docs/semantics.md); so is register_hooks on a node's _raw_saved_self (agrad's op nodes
# have no SavedVariable objects).
import torch
from torch import nn

x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(x.equal(y.grad_fn._saved_self))  # True
print(x is y.grad_fn._saved_self)  # True

x = torch.randn(5, requires_grad=True)
y = x.exp()
print(y.equal(y.grad_fn._saved_result))  # True
print(y is y.grad_fn._saved_result)  # False

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
model[0].requires_grad_(False)
out = model(torch.randn(2, 3)).sum()
out.backward()
print(model[0].weight.grad, model[2].weight.grad is not None)

x = torch.tensor([1.], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad)


@torch.no_grad()
def doubler(x):
    return x * 2


z = doubler(x)
print(z.requires_grad)

with torch.inference_mode():
    w = x * 3
print(w.requires_grad, torch.is_inference_mode_enabled())

is_train = False
with torch.set_grad_enabled(is_train):
    y = x * 2
print(y.requires_grad)
torch.set_grad_enabled(True)
y = x * 2
print(y.requires_grad)
torch.set_grad_enabled(False)
y = x * 2
print(y.requires_grad)
torch.set_grad_enabled(True)

a = torch.randn(3, requires_grad=True)
b = a.sigmoid()
b.mul_(2)
try:
    b.sum().backward()
except RuntimeError as e:
    print(e)

a = torch.randn(3, requires_grad=True)
b = a * a
c = b.exp()
b.add_(1)
print(b._version)
try:
    c.sum().backward()
except RuntimeError as e:
    print(e)


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


class SelfDeletingTempFile():
    def __init__(self, tensor):
        self.tensor = tensor.clone()


def pack_hook(tensor):
    temp_file = SelfDeletingTempFile(tensor)
    return temp_file


def unpack_hook(temp_file):
    return temp_file.tensor


x = torch.randn(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = x.pow(2)
print(y.grad_fn._saved_self.equal(x), y.grad_fn._saved_self is x)
y.sum().backward()
print(x.grad.equal(2 * x))


a = torch.tensor(1., requires_grad=True)
b = a.clone()
b.register_hook(lambda grad: print("tensor hook", grad) or grad * 2)
b.grad_fn.register_prehook(lambda gO: print("node prehook", gO) or None)
b.grad_fn.register_hook(lambda gI, gO: print("node hook", gI, gO) or None)
b.retain_grad()
c = b * 3
c.backward()
print(a.grad, b.grad)

x = torch.tensor([1.0, 2.0], requires_grad=True)
handle = x.register_post_accumulate_grad_hook(lambda p: print("accumulated", p.grad))
(x * x).sum().backward()
handle.remove()
(x * x).sum().backward()
print(x.grad)
