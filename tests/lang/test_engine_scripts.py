"""Scripts that use the engine: imports, grad modes, hooks, custom Functions,
f-strings over tensors -- compared with what PyTorch prints."""

from __future__ import annotations

import pytest

from agrad.lang import run


def test_imports_bind_the_supported_modules(run_ok):
    res = run_ok("import torch\nimport torch as t\nimport torch.nn as nn\n"
                 "import torch.nn.functional as F\nfrom torch import nn as nn2\n"
                 "from torch.autograd import Function\nimport math\nfrom math import pi\n"
                 "import torch.autograd\n"
                 "print(t.ones(1), F.relu(t.tensor([-1.0, 2.0])), nn is nn2, round(pi, 2),"
                 " Function is not None, math.sqrt(4))\n")
    assert res.stdout == "tensor([1.]) tensor([0., 2.]) True 3.14 True 2.0\n"


def test_bare_torch_names_and_modules_are_in_scope(run_ok):
    res = run_ok("x = tensor([1.0, 2.0], requires_grad=True)\ny = mean(sin(x) * 2)\n"
                 "print(y.grad_fn, float32, torch.float64, F.relu(-x).sum().item())\n")
    assert res.stdout.startswith("<MeanBackward0 object at 0x")
    assert res.stdout.endswith(" torch.float32 torch.float64 0.0\n")


def test_optim_is_importable_in_every_form(run_ok):
    for text in ("import torch.optim as optim\nprint(optim.SGD)",
                 "from torch import nn, optim\nprint(optim.Adam)",
                 "import torch\nprint(torch.optim.SGD)", "print(optim.SGD)"):
        assert "SGD" in run_ok(text).stdout or "Adam" in run_ok(text).stdout, text


def test_with_no_grad_and_grad_mode_decorator(run_ok):
    res = run_ok("import torch\nw = torch.ones(2, requires_grad=True)\n"
                 "with torch.no_grad():\n    y = w * 2\n    w.add_(1)\n"
                 "print(y.requires_grad, w)\n"
                 "@torch.no_grad()\ndef f(v):\n    return v * 3\n"
                 "print(f(w).requires_grad, (w * 3).requires_grad)\n"
                 "with torch.enable_grad(), torch.set_grad_enabled(False) as g:\n"
                 "    print((w * 1).requires_grad)\n")
    assert res.stdout == ("False tensor([2., 2.], requires_grad=True)\n"
                          "False True\nFalse\n")


def test_only_engine_context_managers():
    err = run("with 1:\n    pass\n").error
    assert err.type_name == "TypeError" and "only grad modes" in err.message


def test_hooks_with_def_and_lambda(run_ok):
    res = run_ok("import torch\nx = torch.ones(3, requires_grad=True)\ny = x * 2\n"
                 "def show(g):\n    print('y grad', g)\nh = y.register_hook(show)\n"
                 "x.register_hook(lambda g: g * 10)\ny.sum().backward()\nh.remove()\n"
                 "print(x.grad)\n")
    assert res.stdout == "y grad tensor([1., 1., 1.])\ntensor([20., 20., 20.])\n"


def test_error_inside_a_hook_points_into_the_hook():
    res = run("import torch\nx = torch.ones(2, requires_grad=True)\n"
              "def bad(g):\n    return g + undefined\n"
              "x.register_hook(bad)\n(x * 2).sum().backward()\n")
    assert res.error.type_name == "NameError" and res.error.line == 4


def test_custom_function_with_ctx_attributes_and_gradcheck(run_ok):
    res = run_ok("""
import torch
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, power=3):
        ctx.save_for_backward(x)
        ctx.power = power
        return x ** power

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * ctx.power * x ** (ctx.power - 1), None

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Cube.apply(x)
print(y)
y.sum().backward()
print(x.grad, ctx_ok := 1) if False else print(x.grad)
xd = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(Cube.apply, (xd,)))
""".replace("print(x.grad, ctx_ok := 1) if False else print(x.grad)", "print(x.grad)"))
    assert res.stdout == ("tensor([1., 8.], grad_fn=<CubeBackward>)\n"
                          "tensor([ 3., 12.])\nTrue\n")


def test_function_ctx_cannot_reach_private_names():
    res = run("""
import torch
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx._secret = 1
        return x * 1
    @staticmethod
    def backward(ctx, g):
        return g
F.apply(torch.ones(1, requires_grad=True))
""")
    assert res.error.type_name == "AttributeError" and res.error.line == 6


def test_fstrings_and_format_over_tensors(run_ok):
    res = run_ok("import torch\nx = torch.tensor([1.5, 2.0], requires_grad=True)\n"
                 "print(f'{x.shape} {x.dtype} {x.sum().item():.2f} {x!r}')\n"
                 "print('{0.shape} {0.requires_grad}'.format(x))\n")
    assert res.stdout == ("torch.Size([2]) torch.float32 3.50 "
                          "tensor([1.5000, 2.0000], requires_grad=True)\n"
                          "torch.Size([2]) True\n")


def test_version_counter_and_saved_tensor_attributes(run_ok):
    res = run_ok("import torch\na = torch.tensor([1.0, 3.0], requires_grad=True)\n"
                 "b = a * a\nprint(b._version, b.grad_fn._saved_self is not None)\n")
    assert res.stdout == "0 True\n"


@pytest.mark.parametrize("text,type_name,line", [
    ("import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * x).sum()\ny.backward()\n"
     "y.backward()\n", "RuntimeError", 5),
    ("import torch\nx = torch.ones(2, requires_grad=True)\n(x * 2).backward()\n",
     "RuntimeError", 3),
    ("import torch\ntorch.ones(2, 3) @ torch.ones(2, 3)\n", "RuntimeError", 2),
])
def test_engine_errors_keep_pytorch_type_and_get_a_position(text, type_name, line):
    err = run(text).error
    assert err.type_name == type_name and err.line == line
