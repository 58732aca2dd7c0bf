# Follows PyTorch's tutorial "Double Backward with Custom Functions" as a user types it: Square
# (save inputs), Exp (save outputs), Sinh (intermediate results returned as outputs), the
# SinhBad variant whose intermediates are not saved for double backward, and Cube with a custom
# backward Function (CubeBackward), each checked with gradcheck and gradgradcheck.
# Changed: torchviz cannot draw graphs here: the graphs are printed as grad_fn names and
# next_functions; SinhBad's gradgradcheck failure is caught and its first line printed.
import torch


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        # Because we are saving one of the inputs use `save_for_backward`
        # Save non-tensors and non-inputs/non-outputs directly on ctx
        ctx.save_for_backward(x)
        return x**2

    @staticmethod
    def backward(ctx, grad_out):
        # A function support double backward automatically if autograd
        # is able to record the computations performed in backward
        x, = ctx.saved_tensors
        return grad_out * 2 * x


# Use double precision because finite differencing method magnifies errors
x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(Square.apply, x))
# Use gradcheck to verify second-order derivatives
print(torch.autograd.gradgradcheck(Square.apply, x))

x = torch.tensor(1., requires_grad=True).clone()
out = Square.apply(x)
grad_x, = torch.autograd.grad(out, x, create_graph=True)
print(out, grad_x)
print(grad_x.grad_fn, grad_x.grad_fn.next_functions)
grad_x.backward()
print(x.is_leaf)


class Exp(torch.autograd.Function):
    # Simple case where everything goes well
    @staticmethod
    def forward(ctx, x):
        # This time we save the output
        result = torch.exp(x)
        # Note that we should use `save_for_backward` here when
        # the tensor saved is an output (or an input).
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_out):
        result, = ctx.saved_tensors
        return result * grad_out


x = torch.tensor(1., requires_grad=True, dtype=torch.double).clone()
# Validate our gradients using gradcheck
print(torch.autograd.gradcheck(Exp.apply, x))
print(torch.autograd.gradgradcheck(Exp.apply, x))

out = Exp.apply(x)
grad_x, = torch.autograd.grad(out, x, create_graph=True)
print(out, grad_x, grad_x.grad_fn)
gg, = torch.autograd.grad(grad_x, x)
print(gg)


class Sinh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.save_for_backward(expx, expnegx)
        # In order to be able to save the intermediate results, we need to
        # include them as outputs.
        return (expx - expnegx) / 2, expx, expnegx

    @staticmethod
    def backward(ctx, grad_out, _grad_out_exp, _grad_out_negexp):
        expx, expnegx = ctx.saved_tensors
        grad_input = grad_out * (expx + expnegx) / 2
        # We cannot skip accumulating these even though we won't use the outputs
        # directly. They will be used later in the second backward.
        grad_input += _grad_out_exp * expx
        grad_input -= _grad_out_negexp * expnegx
        return grad_input


def sinh(x):
    # Create a wrapper that only returns the first output
    return Sinh.apply(x)[0]


x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(sinh, x))
print(torch.autograd.gradgradcheck(sinh, x))

x = torch.tensor(0.5, requires_grad=True, dtype=torch.double)
out = sinh(x)
grad_x, = torch.autograd.grad(out, x, create_graph=True)
print(out, grad_x)
print(torch.autograd.grad(grad_x, x))


class SinhBad(torch.autograd.Function):
    # This is an example of what NOT to do!
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.expx = expx
        ctx.expnegx = expnegx
        return (expx - expnegx) / 2

    @staticmethod
    def backward(ctx, grad_out):
        expx = ctx.expx
        expnegx = ctx.expnegx
        grad_input = grad_out * (expx + expnegx) / 2
        return grad_input


x = torch.tensor(0.5, requires_grad=True, dtype=torch.double)
out = SinhBad.apply(x)
grad_x, = torch.autograd.grad(out, x, create_graph=True)
print(out, grad_x, grad_x.requires_grad, grad_x.grad_fn)
x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(SinhBad.apply, x))
try:
    torch.autograd.gradgradcheck(SinhBad.apply, x)
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])


def cube_forward(x):
    return x**3


def cube_backward(grad_out, x):
    return grad_out * 3 * x**2


def cube_backward_backward(grad_out, sav_grad_out, x):
    return grad_out * sav_grad_out * 6 * x


def cube_backward_backward_grad_out(grad_out, x):
    return grad_out * 3 * x**2


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return cube_forward(x)

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return CubeBackward.apply(grad_out, x)


class CubeBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, grad_out, x):
        ctx.save_for_backward(x, grad_out)
        return cube_backward(grad_out, x)

    @staticmethod
    def backward(ctx, grad_out):
        x, sav_grad_out = ctx.saved_tensors
        dx = cube_backward_backward(grad_out, sav_grad_out, x)
        dgrad_out = cube_backward_backward_grad_out(grad_out, x)
        return dgrad_out, dx


x = torch.tensor(2., requires_grad=True, dtype=torch.double)

print(torch.autograd.gradcheck(Cube.apply, x))
# Use gradcheck to verify second-order derivatives
print(torch.autograd.gradgradcheck(Cube.apply, x))

out = Cube.apply(x)
grad_x, = torch.autograd.grad(out, x, create_graph=True)
print(out, grad_x)
print(grad_x.grad_fn, grad_x.grad_fn.next_functions)
grad_grad_x, = torch.autograd.grad(grad_x, x, create_graph=True)
print(grad_grad_x, grad_grad_x.grad_fn)
