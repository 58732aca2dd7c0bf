# Follows PyTorch's notes "Extending PyTorch" (extending torch.autograd): LinearFunction with
# needs_input_grad, MulConstant (a non-tensor argument), MyCube (an extra output saved for double
# backward, setup_context), a Function with mark_non_differentiable (sort), set_materialize_grads,
# once_differentiable, wrapping in an nn.Module, and gradcheck on each.
# Changed: the inputs are seeded random tensors (torch.manual_seed(0)); the results are printed.
import torch
from torch import nn
from torch.autograd import Function
from torch.autograd.function import once_differentiable

torch.manual_seed(0)


# Inherit from Function
class LinearFunction(Function):

    # Note that forward, setup_context, and backward are @staticmethods
    @staticmethod
    def forward(input, weight, bias=None):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    # inputs is a Tuple of all of the inputs passed to forward.
    # output is the output of the forward().
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)

    # This function has only a single output, so it gets only one gradient
    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None

        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)

        return grad_input, grad_weight, grad_bias


linear = LinearFunction.apply

input = (torch.randn(20, 20, dtype=torch.double, requires_grad=True),
         torch.randn(30, 20, dtype=torch.double, requires_grad=True))
test = torch.autograd.gradcheck(linear, input, eps=1e-6, atol=1e-4)
print(test)

x = torch.randn(4, 3, requires_grad=True)
w = torch.randn(2, 3, requires_grad=True)
b = torch.randn(2)
y = linear(x, w, b)
print(y, y.grad_fn)
y.sum().backward()
print(x.grad, w.grad, b.grad)


class MulConstant(Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant

    @staticmethod
    def setup_context(ctx, inputs, output):
        # ctx is a context object that can be used to stash information
        # for backward computation
        tensor, constant = inputs
        ctx.constant = constant

    @staticmethod
    def backward(ctx, grad_output):
        # We return as many input gradients as there were arguments.
        # Gradients of non-Tensor arguments to forward must be None.
        return grad_output * ctx.constant, None


a = torch.randn(3, requires_grad=True)
out = MulConstant.apply(a, 2.5)
out.backward(torch.ones(3))
print(out, a.grad)


class MyCube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        # We wish to save dx for backward. In order to do so, it must
        # be returned as an output.
        dx = 3 * x ** 2
        result = x ** 3
        return result, dx

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        result, dx = output
        ctx.save_for_backward(x, dx)

    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        # In order for the autograd.Function to work with higher-order
        # gradients, we must add the gradient contribution of `dx`,
        # which is grad_dx * 6 * x.
        result = grad_output * dx + grad_dx * 6 * x
        return result


# Wrap MyCube in a function so that it is clearer what the output is
def my_cube(x):
    result, dx = MyCube.apply(x)
    return result


x = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
y = my_cube(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
gg, = torch.autograd.grad(g.sum(), x)
print(y, g, gg)
xd = torch.randn(3, dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(my_cube, xd), torch.autograd.gradgradcheck(my_cube, xd))


class Sort(Function):
    @staticmethod
    def forward(ctx, x):
        out, idx = torch.sort(x)
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return out, idx

    @staticmethod
    def backward(ctx, g1, g2):
        idx, = ctx.saved_tensors
        grad_input = torch.zeros_like(g1)
        grad_input.index_add_(0, idx, g1)
        return grad_input


x = torch.randn(5, requires_grad=True)
out, idx = Sort.apply(x)
print(out, idx, idx.requires_grad)
(out * torch.arange(5.)).sum().backward()
print(x.grad)


class SimpleFunc(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return x.clone(), x.clone()

    @staticmethod
    @once_differentiable
    def backward(ctx, g1, g2):  # g1 and g2 can be None
        x, = ctx.saved_tensors
        grad_input = torch.zeros_like(x)
        if g1 is not None:  # We must check for None now
            grad_input += g1
        if g2 is not None:
            grad_input += g2
        return grad_input


a = torch.tensor(1., requires_grad=True)
b, _ = SimpleFunc.apply(a)
b.backward()  # G2 will be None
print(a.grad)
g, = torch.autograd.grad(SimpleFunc.apply(a)[1] * 3, a, create_graph=True)
print(g, g.requires_grad, g.grad_fn)
try:
    g.backward()
except RuntimeError as e:
    print(e)


class Linear(nn.Module):
    def __init__(self, input_features, output_features, bias=True):
        super().__init__()
        self.input_features = input_features
        self.output_features = output_features

        # nn.Parameter is a special kind of Tensor, that will get
        # automatically registered as Module's parameter once it's assigned
        # as an attribute. Parameters and buffers need to be registered, or
        # they won't appear in .parameters() (doesn't apply to buffers), and
        # won't be converted when e.g. .cuda() is called. You can use
        # .register_buffer() to register buffers.
        # nn.Parameters require gradients by default.
        self.weight = nn.Parameter(torch.empty(output_features, input_features))
        if bias:
            self.bias = nn.Parameter(torch.empty(output_features))
        else:
            # You should always register all possible parameters, but the
            # optional ones can be None if you want.
            self.register_parameter('bias', None)

        # Not a very smart way to initialize weights
        nn.init.uniform_(self.weight, -0.1, 0.1)
        if self.bias is not None:
            nn.init.uniform_(self.bias, -0.1, 0.1)

    def forward(self, input):
        # See the autograd section for explanation of what happens here.
        return LinearFunction.apply(input, self.weight, self.bias)

    def extra_repr(self):
        # (Optional)Set the extra information about this module. You can test
        # it by printing an object of this class.
        return 'input_features={}, output_features={}, bias={}'.format(
            self.input_features, self.output_features, self.bias is not None
        )


m = Linear(3, 2)
print(m)
y = m(torch.randn(4, 3))
print(y, y.grad_fn)
y.pow(2).mean().backward()
print(m.weight.grad, m.bias.grad)
m2 = Linear(3, 2, bias=False)
print(m2, list(m2.named_parameters())[0][0], m2.bias)
