# A custom Function whose backward is wrong: `agrad check` names it (exit status 3).
# Run:  agrad check examples/bad_function.py
import torch

class MyExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        return grad_output * y * 2     # wrong: d/dx exp(x) is exp(x)

x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
loss = (MyExp.apply(x) * w).sum()
