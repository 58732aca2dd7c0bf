"""``type(e).__name__`` in scripts (tutorials print ``type(e).__name__``): a class's ``__name__`` and
``__qualname__`` are strings, the name PyTorch's class has; the class's other dunders stay blocked,
and ``type()`` of a caught built-in exception is its class, nothing more."""

from __future__ import annotations

import pytest

from agrad.lang import Source, run


def test_class_names_are_pytorchs(run_ok):
    res = run_ok("import torch\nfrom torch import nn\nclass Foo(nn.Module):\n    pass\n"
                 "x = torch.ones(1, requires_grad=True)\n"
                 "print(type(x).__name__, nn.Linear.__name__, Foo.__name__, Foo.__qualname__, int.__name__)\n"
                 "print(type(x.exp().grad_fn).__name__, type(nn.Linear(2, 2).weight).__name__)\n"
                 "class Bad(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, t):\n        return t * 2\n"
                 "    @staticmethod\n    def backward(ctx, g):\n        return g\n"
                 "try:\n    torch.autograd.gradcheck(Bad.apply, torch.ones(2, dtype=torch.double,"
                 " requires_grad=True))\nexcept Exception as e:\n    print(type(e).__name__)\n"
                 "try:\n    int('a')\nexcept ValueError as e:\n    print(type(e).__name__, type(e) is ValueError)\n"
                 "print(type(Exception()) is Exception)\n")
    assert res.stdout == ("Tensor Linear Foo Foo int\nExpBackward0 Parameter\nGradcheckError\n"
                          "ValueError True\nTrue\n")


@pytest.mark.parametrize("use", [
    "type(x).__name__.__class__.__mro__", "type(x).__dict__", "type(x).__mro__", "type(x).__subclasses__",
    "type(x).__name__.__class__.__subclasses__", "type(x).__module__", "type(x).__init__",
    "type(e).__subclasses__", "type(e).__mro__", "type(e).__traceback__", "e.__traceback__",
    "type(e).__init__.__globals__", "e.__class__.__mro__", "type(e).__base__",
])
def test_other_class_dunders_stay_blocked(use):
    code = ("import torch\nx = torch.ones(1)\ntry:\n    int('a')\nexcept ValueError as err:\n    e = err\n"
            f"print({use})\n")
    err = run(Source("attack.py", code), timeout=20).error
    assert err is not None, f"not blocked: {use!r}"
    assert "Traceback" not in err.render(), err.render()


def test_dunder_class_is_what_type_gives(run_ok):
    """d2l prints ``layer.__class__.__name__`` for each layer; ``obj.__class__`` is ``type(obj)``."""
    res = run_ok("import torch\nfrom torch import nn\nclass Net(nn.Module):\n    def __repr__(self):\n"
                 "        return self.__class__.__name__ + '()'\n"
                 "net = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), Net())\n"
                 "for layer in net:\n    print(layer.__class__.__name__, layer.__class__ is type(layer))\n"
                 "print(net[2], torch.ones(1).__class__, (1.5).__class__.__name__, [].__class__)\n"
                 "print(net[0].__class__(3, 1).weight.shape)\n")
    assert res.stdout == ("Linear True\nReLU True\nNet True\nNet() <class 'torch.Tensor'> float <class 'list'>\n"
                          "torch.Size([1, 3])\n")


@pytest.mark.parametrize("use", [
    "x.__class__.__mro__", "x.__class__.__bases__", "x.__class__.__subclasses__()", "x.__class__.__dict__",
    "x.__class__.__init__.__globals__", "().__class__.__base__", "''.__class__.__mro__[1].__subclasses__()",
    "torch.__class__", "print.__class__", "f.__class__", "g.__class__", "(lambda: 0).__class__",
    "x.__class__.__class__.__subclasses__", "x.grad_fn.__class__.__mro__", "net.__class__.__module__",
    "x.__class__.__getattribute__", "x.__class__.__reduce_ex__", "torch.nn.__class__", "range(2).__class__.__mro__",
])
def test_dunder_class_reaches_no_further_than_type(use):
    code = ("import torch\nfrom torch import nn\nx = torch.ones(1, requires_grad=True).exp()\n"
            "net = nn.Linear(1, 1)\ndef f():\n    return 1\ng = (i for i in range(2))\n"
            f"print({use})\n")
    err = run(Source("attack.py", code), timeout=20).error
    assert err is not None, f"not blocked: {use!r}"
    assert "Traceback" not in err.render(), err.render()


def test_nested_classes_and_functions_have_pythons_qualnames(run_ok):
    """A class or function defined in a function or class body is named as Python names it."""
    res = run_ok("import torch\nfrom torch import nn\nimport torch.nn.functional as F\n"
                 "def make():\n    class Inner(nn.Module):\n        pass\n    return Inner\n"
                 "class Outer:\n    class Nested:\n        pass\n    def method(self):\n"
                 "        def inner():\n            pass\n        return inner\n"
                 "I = make()\nprint(I, I.__qualname__, I.__name__, Outer.Nested.__qualname__)\n"
                 "print(Outer.method.__qualname__, Outer().method().__qualname__, Outer().method().__name__)\n"
                 "print((lambda: 0).__qualname__, [F.relu.__name__, torch.tanh.__name__, make.__name__])\n")
    assert res.stdout == ("<class '__main__.make.<locals>.Inner'> make.<locals>.Inner Inner Outer.Nested\n"
                          "Outer.method Outer.method.<locals>.inner inner\n<lambda> ['relu', 'tanh', 'make']\n")


@pytest.mark.parametrize("use", [
    "f.__globals__", "f.__code__", "f.__closure__", "f.__dict__", "f.__name__.__class__.__mro__",
    "F.relu.__globals__", "F.relu.__qualname__", "F.relu.__module__", "F.relu.__code__", "torch.tanh.__self__",
    "f.__call__", "f.__defaults__", "torch.nn.functional.__name__", "torch.__name__",
])
def test_function_names_reach_nothing_more(use):
    code = ("import torch\nimport torch.nn.functional as F\ndef f():\n    return 1\n"
            f"print({use})\n")
    err = run(Source("attack.py", code), timeout=20).error
    assert err is not None, f"not blocked: {use!r}"
    assert "Traceback" not in err.render(), err.render()


ONCE = ("import torch\nfrom torch.autograd.function import once_differentiable\n"
        "class F1(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
        "        return x * 2\n    @staticmethod\n    @once_differentiable\n    def backward(ctx, g):\n"
        "        return g * 2\n")


def test_once_differentiable_applies_and_its_double_backward_raises(run_ok):
    res = run_ok(ONCE + "x = torch.tensor([1.5], requires_grad=True)\ngy = torch.ones(1, requires_grad=True)\n"
                 "g, = torch.autograd.grad(F1.apply(x), x, gy, create_graph=True)\n"
                 "print(g, g.grad_fn.name())\ntry:\n    g.sum().backward()\nexcept RuntimeError as e:\n    print(e)\n")
    assert res.stdout == ("tensor([2.], grad_fn=<Error>) torch::autograd::Error\n"
                          "trying to differentiate twice a function that was marked with @once_differentiable\n")


@pytest.mark.parametrize("use", [
    "F1.backward.__wrapped__", "F1.backward.__globals__", "F1.backward.__closure__", "F1.backward.__code__",
    "torch.autograd.function.grad_mode", "torch.autograd.function.graph", "torch.autograd.function.inspect",
    "torch.autograd.function._tensor_type", "torch.autograd.function.once_differentiable.__globals__",
    "torch.autograd.function.Function.apply.__func__", "torch.autograd.function.forward_ad",
])
def test_autograd_function_module_reaches_nothing_more(use):
    err = run(Source("attack.py", ONCE + f"print({use})\n"), timeout=20).error
    assert err is not None, f"not blocked: {use!r}"
    assert "Traceback" not in err.render(), err.render()


def test_cudnn_flags_set_for_the_block(run_ok):
    res = run_ok("import torch\nc = torch.backends.cudnn\nprint(c.enabled, c.allow_tf32)\n"
                 "with c.flags(allow_tf32=False):\n    print(c.enabled, c.allow_tf32)\nprint(c.enabled, c.allow_tf32)\n")
    assert res.stdout == "True True\nFalse False\nTrue True\n"


@pytest.mark.parametrize("use", [
    "torch.backends.cudnn.sys", "torch.backends.cudnn._set_flags", "torch.backends.cudnn.flags()._old",
    "torch.backends.cudnn.flags()._values", "torch.backends.cudnn.flags().__enter__.__globals__",
    "torch.func.stack_module_state.__globals__", "torch.func._stacked_leaf",
])
def test_cudnn_flags_and_stack_module_state_reach_nothing_more(use):
    err = run(Source("attack.py", f"import torch\nprint({use})\n"), timeout=20).error
    assert err is not None, f"not blocked: {use!r}"
    assert "Traceback" not in err.render(), err.render()


def test_rnn_weight_names_and_reversed_tensor(run_ok):
    res = run_ok("import torch\nfrom torch import nn\ng = nn.GRU(2, 3)\nprint(g._flat_weights_names)\n"
                 "print(len(g._flat_weights), g._all_weights)\n"
                 "x = torch.arange(4.).reshape(2, 2).requires_grad_()\nprint(reversed(x), reversed(torch.tensor(1.)))\n")
    assert res.stdout == ("['weight_ih_l0', 'weight_hh_l0', 'bias_ih_l0', 'bias_hh_l0']\n"
                          "4 [['weight_ih_l0', 'weight_hh_l0', 'bias_ih_l0', 'bias_hh_l0']]\n"
                          "tensor([[2., 3.],\n        [0., 1.]], grad_fn=<FlipBackward0>) tensor(1.)\n")


@pytest.mark.parametrize("use", [
    "g._flat_weights_names.__class__.__base__", "g._flat_weights[0]._data", "g._flat_weights.__class__.__subclasses__",
    "g._all_weights[0].__class__.__subclasses__", "g._flat_weights[0].__dict__", "nn.Linear(2, 2)._flat_weights_names",
])
def test_rnn_weight_lists_reach_nothing_more(use):
    err = run(Source("attack.py", f"import torch\nfrom torch import nn\ng = nn.GRU(2, 3)\nprint({use})\n"),
              timeout=20).error
    assert err is not None, f"not blocked: {use!r}"
    assert "Traceback" not in err.render(), err.render()


def test_linalg_error_type_is_pytorchs(run_ok):
    """torch.linalg.LinAlgError (printed torch._C._LinAlgError, as PyTorch's): ``type(e)`` of a caught one
    is that class, the one the script can name."""
    res = run_ok("import torch\ntry:\n    torch.linalg.cholesky(-torch.eye(2))\nexcept Exception as e:\n"
                 "    print(type(e).__name__, type(e) is torch.linalg.LinAlgError, isinstance(e, RuntimeError))\n")
    assert res.stdout == "_LinAlgError True True\n"


@pytest.mark.parametrize("use", ["type(e).__mro__", "type(e).__base__", "type(e).__bases__", "type(e).__subclasses__",
                                 "type(e).__init__.__globals__", "type(e).__module__", "type(e).__dict__"])
def test_linalg_error_class_dunders_stay_blocked(use):
    code = ("import torch\ntry:\n    torch.linalg.cholesky(-torch.eye(2))\nexcept Exception as err:\n    e = err\n"
            f"print({use})\n")
    err = run(Source("attack.py", code), timeout=20).error
    assert err is not None, f"not blocked: {use!r}"
    assert "Traceback" not in err.render(), err.render()
