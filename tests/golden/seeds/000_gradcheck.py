import torch as t
class LinearFunction(t.autograd.Function):

    # 注意forward和backward函数都是静态方法 (@staticmethods)
    @staticmethod
    # bias(偏移量)是一个缺省参数。参数的设定是任意的。
    def forward(ctx, input, weight, bias=None):
        ctx.save_for_backward(input, weight, bias) # 保存参数以供backward使用
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    # 仿射层仅有一个输出，所以也就只有一个梯度
    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors # 获取到forward时传入的参数
        grad_input = grad_weight = grad_bias = None

    #needs_input_grad 是一个布尔型元组，用于标记变量是否需要求梯度。
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)

        return grad_input, grad_weight, grad_bias

test_input1 = t.tensor(t.rand(2,7),requires_grad=True)
test_input2 = t.tensor(t.rand(5,7),requires_grad=True)

t.autograd.gradcheck(LinearFunction.apply,(test_input1,test_input2),eps=1e-2)
