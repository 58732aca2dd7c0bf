"""torch.func and torch.autograd.functional in scripts: what scripts reach through them (escape tests)
and that the transforms run from the script language."""

from __future__ import annotations

import pytest

from agrad.lang import Source, run


def blocked(text, *, type_name=None, contains=None):
    res = run(Source("attack.py", text), timeout=20)
    err = res.error
    assert err is not None, f"not blocked: {text!r} -> {res.stdout!r}"
    if type_name:
        assert err.type_name == type_name, err.render()
    if contains:
        assert contains in err.message, err.render()
    assert "Traceback" not in err.render()
    return err


PRE = "import torch\nfrom torch.func import grad, vmap, jacrev, jacfwd, vjp, jvp, hessian, functional_call\n" \
      "f = lambda x: (x * x).sum()\n"


@pytest.mark.parametrize("expr", [
    "grad(f)._fn", "grad(f)._name", "grad(f).__call__", "grad(f).__closure__", "grad(f).__wrapped__",
    "vmap(f)._fn", "jacrev(f)._fn", "jacfwd(f)._fn", "hessian(f)._fn", "vjp(torch.sin, torch.ones(2))[1]._fn",
    "grad.__globals__", "grad.__code__", "vmap.__module__", "torch.func.vmap.__defaults__",
    "torch.autograd.functional.jacobian.__globals__",
])
def test_transforms_expose_no_python_internals(expr):
    blocked(PRE + f"{expr}\n", type_name="AttributeError")


@pytest.mark.parametrize("name", ["transforms", "_pytree", "_state", "Tensor", "grad_mode", "Transformed"])
def test_func_module_exposes_only_the_transforms(name):
    blocked(PRE + f"torch.func.{name}\n", type_name="AttributeError")


@pytest.mark.parametrize("name", ["grad_mode", "_grad", "_ops", "_tensor"])
def test_functional_module_exposes_only_its_functions(name):
    blocked(PRE + f"torch.autograd.functional.{name}\n", type_name="AttributeError")


def test_guarded_arrays_stay_guarded_through_transforms(run_ok):
    """A transform hands its arguments to script code: a numpy array arrives guarded, never as numpy's own."""
    for call in ("vmap(g, in_dims=(None, 0))(a, torch.ones(2, 2))", "grad(lambda t, a: g(a, t).sum(), argnums=0)(torch.ones(2), a)",
                 "functional_call(M(), {}, (a,))"):
        res = run_ok(PRE + "import numpy as np\nimport torch.nn as nn\n"
                     "def g(a, t):\n    print(isinstance(a, np.ndarray), a.__class__.__mro__ if False else a.shape)\n"
                     "    return t\n"
                     "class M(nn.Module):\n    def forward(self, a):\n        print(a.shape)\n"
                     "        return torch.ones(1)\n"
                     f"a = np.ones(3)\n{call}\n")
        assert "(3,)" in res.stdout


def test_script_object_lengths_are_not_trusted():
    """in_dims / outputs that are script objects are leaves, never iterated."""
    text = PRE + ("class L:\n    def __len__(self):\n        return 1\n"
                  "    def __iter__(self):\n        while True:\n            yield 0\n"
                  "vmap(lambda x: x, in_dims=L())(torch.ones(2))\n")
    blocked(text)


def test_transforms_in_a_script(run_ok):
    res = run_ok(PRE + "x = torch.tensor([1.0, 2.0])\nprint(grad(f)(x), jacrev(torch.sin)(x).shape, "
                 "vmap(f)(torch.ones(3, 2)), hessian(f)(x))\n"
                 "from torch.autograd.functional import jacobian, hessian as H\n"
                 "print(jacobian(torch.exp, x), H(f, x))\nprint(grad(f))\n")
    assert res.stdout == (
        "tensor([2., 4.]) torch.Size([2, 2]) tensor([2., 2., 2.]) tensor([[2., 0.],\n        [0., 2.]])\n"
        "tensor([[2.7183, 0.0000],\n        [0.0000, 7.3891]]) tensor([[2., 0.],\n        [0., 2.]])\n"
        "<function <lambda>>\n")


def test_randomness_error_in_a_script():
    e = blocked(PRE + "vmap(lambda x: x + torch.randn(2))(torch.ones(3, 2))\n", type_name="RuntimeError")
    assert e.message.startswith("vmap: called random operation while in randomness error mode")


@pytest.mark.parametrize("call", [
    "torch.autograd.functional.jacobian(lambda t: t * 2, torch.ones(5000))",
    "torch.autograd.functional.jacobian(lambda t: t * 2, torch.ones(5000), vectorize=True)",
    "torch.func.jacrev(lambda t: t * 2)(torch.ones(5000))",
    "torch.func.jacfwd(lambda t: t * 2)(torch.ones(5000))",
])
def test_jacobian_bases_are_size_checked_before_allocating(call):
    res = run(Source("attack.py", f"import torch\n{call}\n"), timeout=60, max_elements=10**6)
    assert res.error is not None and res.error.type_name == "LimitError", res.error and res.error.render()


@pytest.mark.parametrize("expr", [
    "a._value", "a._level", "a._data", "a._value.numpy()", "a.__class__.__mro__", "type(a).__mro__", "type(a)._value",
    "a.shape.__class__.__bases__", "a.sum.__self__", "a.sin.__closure__", "a.T.__dict__", "a.tolist()",
    "a.numpy()", "a.item()",
])
def test_batched_tensors_expose_no_internals(expr):
    """What func sees inside vmap (a batched tensor): its batch, level and data stay out of reach."""
    blocked(PRE + f"def g(a):\n    return {expr}\nvmap(g)(torch.ones(3, 2))\n")


def test_batched_tensor_in_a_script_runs_vectorised(run_ok):
    res = run_ok(PRE + "import torch.nn.functional as F\nW = torch.ones(2, 2)\n"
                 "def g(a):\n    print(a.shape, len(a), a.dim())\n    return F.relu(W @ a).softmax(0).sum() + a[0]\n"
                 "print(vmap(g)(torch.arange(6.0).reshape(3, 2)))\n"
                 "print(vmap(lambda a: [v * 2 for v in a][1])(torch.ones(2, 2)))\n")
    assert res.stdout == "torch.Size([2]) 2 1\ntensor([1., 3., 5.])\ntensor([2., 2.])\n"
