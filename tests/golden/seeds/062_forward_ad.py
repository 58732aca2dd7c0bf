# PyTorch's "Forward-mode Automatic Differentiation" tutorial (intermediate/forward_ad_usage), as a user
# runs it today: torch.func.jvp and functional_call in place of the retired functorch module, and
# prints of what the tutorial computes (it only asserts).  Seeded (torch.manual_seed(0)).
import torch
import torch.autograd.forward_ad as fwAD

torch.manual_seed(0)
primal = torch.randn(3, 3)
tangent = torch.randn(3, 3)

def fn(x, y):
    return x ** 2 + y ** 2

with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    assert fwAD.unpack_dual(dual_input).tangent is tangent
    dual_input_alt = fwAD.make_dual(primal, tangent.T)
    assert fwAD.unpack_dual(dual_input_alt).tangent is not tangent
    print(fwAD.unpack_dual(dual_input_alt).tangent.stride(), tangent.T.stride())
    plain_tensor = torch.randn(3, 3)
    dual_output = fn(dual_input, plain_tensor)
    print(dual_output)
    jvp = fwAD.unpack_dual(dual_output).tangent
    print(jvp)
    print(fwAD.unpack_dual(dual_output))
    print(torch.allclose(jvp, 2 * primal * tangent))

assert fwAD.unpack_dual(dual_output).tangent is None
print(dual_output)

import torch.nn as nn

model = nn.Linear(5, 5)
input = torch.randn(16, 5)

params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}

with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    out = model(input)
    jvp = fwAD.unpack_dual(out).tangent
print(jvp[:3])
print(out.shape, out.requires_grad, out.grad_fn)

from torch.func import functional_call

model = nn.Linear(5, 5)
dual_params = {}
with fwAD.dual_level():
    for name, p in params.items():
        dual_params[name] = fwAD.make_dual(p, tangents[name])
    out = functional_call(model, dual_params, input)
    jvp2 = fwAD.unpack_dual(out).tangent
print(torch.allclose(jvp, jvp2), (jvp - jvp2).abs().max())

class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result

    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        del ctx.result
        return gO

fn = Fn.apply

primal = torch.randn(4, 4, dtype=torch.double, requires_grad=True)
tangent = torch.randn(4, 4)

with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn(dual_input)
    jvp = fwAD.unpack_dual(dual_output).tangent
print(jvp.dtype, jvp[0])
print(dual_output.grad_fn)

print(torch.autograd.gradcheck(Fn.apply, (primal,), check_forward_ad=True,
                               check_backward_ad=False, check_undefined_grad=False,
                               check_batched_grad=False))

import torch.func as ft

primal0 = torch.randn(3, 3)
tangent0 = torch.randn(3, 3)
primal1 = torch.randn(3, 3)
tangent1 = torch.randn(3, 3)

def fn(x, y):
    return x ** 2 + y ** 2

primal_out, tangent_out = ft.jvp(fn, (primal0, primal1), (tangent0, tangent1))
print(primal_out)
print(tangent_out)

primal = torch.randn(3, 3)
tangent = torch.randn(3, 3)
y = torch.randn(3, 3)

import functools
new_fn = functools.partial(fn, y=y)
primal_out, tangent_out = ft.jvp(new_fn, (primal,), (tangent,))
print(tangent_out)

model = nn.Linear(5, 5)
input = torch.randn(16, 5)
tangents = tuple([torch.rand_like(p) for p in model.parameters()])
params = dict(model.named_parameters())

def func_params_only(*ps):
    return functional_call(model, dict(zip(params, ps)), (input,))

model_output, jvp_out = ft.jvp(func_params_only, tuple(params.values()), tangents)
print(model_output[:2])
print(jvp_out[:2])
