# PyTorch's "Forward-mode Automatic Differentiation" tutorial
# (pytorch/tutorials intermediate_source/forward_ad_usage.py), with torch.func in place of the
# old functorch package, a seed, and prints of what it computes.  Two changes for agrad's
# sandbox, which cannot delete attributes: "Usage with Modules" calls the module's functional
# form with the dual parameters instead of delattr/setattr on the module, and the custom
# Function's jvp sets ctx.result to None instead of deleting it.
import torch
import torch.autograd.forward_ad as fwAD

torch.manual_seed(0)

# Basic usage ---------------------------------------------------------------
primal = torch.randn(10, 10)
tangent = torch.randn(10, 10)

def fn(x, y):
    return x ** 2 + y ** 2

with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    assert fwAD.unpack_dual(dual_input).tangent is tangent

    dual_input_alt = fwAD.make_dual(primal, tangent.T)
    assert fwAD.unpack_dual(dual_input_alt).tangent is not tangent

    plain_tensor = torch.randn(10, 10)
    dual_output = fn(dual_input, plain_tensor)

    jvp = fwAD.unpack_dual(dual_output).tangent
    print(dual_output[:2, :4])
    print(jvp[:2, :4])

assert fwAD.unpack_dual(dual_output).tangent is None
print(torch.allclose(jvp, 2 * primal * tangent))

# Usage with Modules ---------------------------------------------------------
import torch.nn as nn

model = nn.Linear(5, 5)
input = torch.randn(16, 5)

params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}

with fwAD.dual_level():
    dual = {name: fwAD.make_dual(p, tangents[name]) for name, p in params.items()}
    out = torch.nn.functional.linear(input, dual["weight"], dual["bias"])
    jvp = fwAD.unpack_dual(out).tangent
    print(out[:2])

print(jvp[:2])

# Using the functional Module API --------------------------------------------
from torch.func import functional_call

model = nn.Linear(5, 5)

dual_params = {}
with fwAD.dual_level():
    for name, p in params.items():
        dual_params[name] = fwAD.make_dual(p, tangents[name])
    out = functional_call(model, dual_params, input)
    jvp2 = fwAD.unpack_dual(out).tangent

assert torch.allclose(jvp, jvp2)
print(torch.allclose(jvp, jvp2))

# Custom autograd Function ----------------------------------------------------
class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result

    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        ctx.result = None  # the tutorial frees it with del (agrad scripts cannot delete attributes)
        return gO

fn = Fn.apply

primal = torch.randn(10, 10, dtype=torch.double, requires_grad=True)
tangent = torch.randn(10, 10)

with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn(dual_input)
    jvp = fwAD.unpack_dual(dual_output).tangent
    print(jvp[0, :4])

print(torch.autograd.gradcheck(Fn.apply, (primal,), check_forward_ad=True,
                               check_backward_ad=False, check_undefined_grad=False,
                               check_batched_grad=False))

# Functional API ---------------------------------------------------------------
import torch.func as ft

primal0 = torch.randn(10, 10)
tangent0 = torch.randn(10, 10)
primal1 = torch.randn(10, 10)
tangent1 = torch.randn(10, 10)

def fn(x, y):
    return x ** 2 + y ** 2

primal_out, tangent_out = ft.jvp(fn, (primal0, primal1), (tangent0, tangent1))
print(tangent_out[0, :4])

primal = torch.randn(10, 10)
tangent = torch.randn(10, 10)
y = torch.randn(10, 10)

import functools
new_fn = functools.partial(fn, y=y)
primal_out, tangent_out = ft.jvp(new_fn, (primal,), (tangent,))
print(tangent_out[0, :4])

# Using the functional API with Modules -----------------------------------------
model = nn.Linear(5, 5)
input = torch.randn(16, 5)
tangents = tuple([torch.rand_like(p) for p in model.parameters()])
params = tuple(model.parameters())
names = [name for name, _ in model.named_parameters()]

def func_params_only(params):
    return functional_call(model, dict(zip(names, params)), (input,))

model_output, jvp_out = ft.jvp(func_params_only, (params,), (tangents,))
print(jvp_out[:2])
