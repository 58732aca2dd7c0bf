# A custom autograd Function: an affine layer (first seed note), checked.
# Run:  agrad eval examples/custom_function.py
#       agrad check examples/custom_function.py --of loss
import torch as t
class LinearFunction(t.autograd.Function):

    @staticmethod
    def forward(ctx, input, weight, bias=None):
        ctx.save_for_backward(input, weight, bias)
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

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

input_data = t.tensor([[2.0]],requires_grad=True)
w = t.tensor([[3.0]], requires_grad=True)
loss = linear(input_data,w)
print(loss)

print(w.grad,input_data.grad)
loss.backward()
print(w.grad,input_data.grad)
