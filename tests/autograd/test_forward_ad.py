"""torch.autograd.forward_ad: dual levels, make_dual/unpack_dual, tangents through ops,
in-place ops and views, custom Functions, and PyTorch's errors (texts from PyTorch 2.13)."""

from __future__ import annotations

import numpy as np
import pytest

import agrad as torch
import agrad.autograd.forward_ad as fwAD
from agrad.lang import Source, run


def _raises(exc, text, fn):
    with pytest.raises(exc) as info:
        fn()
    assert str(info.value) == text


def test_make_dual_outside_a_level():
    _raises(RuntimeError, "Trying to create a dual Tensor for forward AD but no level exists, make sure to "
            "enter_dual_level() first.", lambda: fwAD.make_dual(torch.ones(2), torch.ones(2)))


def test_levels():
    _raises(RuntimeError, "Dual level must be a positive number.", fwAD.exit_dual_level)
    assert fwAD.enter_dual_level() == 0
    try:
        _raises(RuntimeError, "Nested forward mode AD is not supported at the moment", fwAD.enter_dual_level)
        _raises(RuntimeError, "Trying to exit a forward AD level that was not the last one that was created. "
                "This is not supported.", lambda: fwAD.exit_dual_level(level=5))
    finally:
        fwAD.exit_dual_level(level=0)
    with fwAD.dual_level() as level:
        assert level == 0
    assert fwAD._LEVEL[0] is None


def test_make_dual_errors():
    x = torch.tensor([1., 2., 3.])
    with fwAD.dual_level():
        _raises(RuntimeError, "Trying to set a forward gradient that has a different size than that of the original "
                "Tensor, this is not supported. Tensor is of size [3] while the given forward gradient is of size [2].",
                lambda: fwAD.make_dual(x, torch.ones(2)))
        _raises(ValueError, "Expected tangent to be floating point or complex, but got: torch.int64",
                lambda: fwAD.make_dual(x, torch.ones(3, dtype=torch.int64)))
        _raises(ValueError, "Expected primal to be floating point or complex, but got: torch.int64",
                lambda: fwAD.make_dual(torch.tensor([1, 2]), torch.ones(2, dtype=torch.int64)))
        _raises(RuntimeError, "Invalid level given to _make_dual", lambda: fwAD.make_dual(x, torch.ones(3), level=3))
        d = fwAD.make_dual(x, torch.ones(3))
        _raises(RuntimeError, "Invalid level given to _fw_primal", lambda: fwAD.unpack_dual(d, level=3))
        _raises(RuntimeError, "Making a dual Tensor based on a Tensor that already has a forward gradient at the same "
                "level 0 is not supported.", lambda: fwAD.make_dual(d, torch.ones(3)))
        _raises(TypeError, "_unpack_dual(): argument 'dual' (position 1) must be Tensor, not int",
                lambda: fwAD.unpack_dual(3))


def test_printing_and_unpacking():
    x = torch.tensor([1., 2., 3.])
    t = torch.ones(3)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, t)
        assert repr(d) == "tensor([1., 2., 3.], tangent=tensor([1., 1., 1.]))"
        assert d._base is x and fwAD.unpack_dual(d).tangent is t
        y = d.sin()
        u = fwAD.unpack_dual(y)
        assert repr(u) == ("UnpackedDualTensor(primal=tensor([0.8415, 0.9093, 0.1411]), "
                           "tangent=tensor([ 0.5403, -0.4161, -0.9900]))")
        assert u[0] is u.primal and u.primal._base is y
        assert repr(fwAD.unpack_dual(x)) == "UnpackedDualTensor(primal=tensor([1., 2., 3.]), tangent=None)"
        assert fwAD.unpack_dual(x).primal is x
        assert repr(d.sum()) == "tensor(6., tangent=3.0)"
        xr = torch.tensor([1., 2.], requires_grad=True)
        dd = fwAD.make_dual(xr, torch.tensor([1., 1.]))
        assert repr(dd) == "tensor([1., 2.], grad_fn=<ViewBackward0>, tangent=tensor([1., 1.]))"
        assert repr(fwAD.unpack_dual(dd)) == (
            "UnpackedDualTensor(primal=tensor([1., 2.], grad_fn=<Identity>), tangent=tensor([1., 1.]))")
        assert fwAD.unpack_dual(dd).primal.grad_fn.name() == "torch::autograd::Identity"
        assert repr(d.detach()) == "tensor([1., 2., 3.])"
        assert repr(d.data) == "tensor([1., 2., 3.])"
    assert repr(y) == "tensor([0.8415, 0.9093, 0.1411])"
    assert fwAD.unpack_dual(y).tangent is None


def test_inplace_and_views():
    with fwAD.dual_level():
        a = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 0.]))
        ta = fwAD.unpack_dual(a).tangent
        a.mul_(3)
        assert repr(a) == "tensor([3., 6.], tangent=tensor([3., 0.]))" and repr(ta) == "tensor([3., 0.])"
        b = torch.tensor([1., 2.])
        b.add_(a)
        assert repr(b) == "tensor([4., 8.], tangent=tensor([3., 0.]))"
        c = fwAD.make_dual(torch.zeros(2, 2), torch.ones(2, 2))
        v = c[0]
        assert repr(v) == "tensor([0., 0.], tangent=tensor([1., 1.]))"
        v.mul_(5)
        assert repr(c) == ("tensor([[0., 0.],\n        [0., 0.]], tangent=tensor([[5., 5.],\n"
                           "        [1., 1.]]))")
        base = torch.zeros(2, 2)
        w = base[1]
        w.copy_(a)
        assert repr(base) == ("tensor([[0., 0.],\n        [3., 6.]], tangent=tensor([[0., 0.],\n"
                              "        [3., 0.]]))")
        assert repr(w) == "tensor([3., 6.], tangent=tensor([3., 0.]))"
        e = torch.zeros(3)
        e[0:2] = a
        assert repr(e) == "tensor([3., 6., 0.], tangent=tensor([3., 0., 0.]))"
        assert repr(torch.max(a, 0)) == "torch.return_types.max(\nvalues=tensor(6., tangent=0.0),\nindices=tensor(1))"
        assert repr(a.unbind()) == "(tensor(3., tangent=3.0), tensor(6., tangent=0.0))"
        assert repr(a > 1) == "tensor([True, True])"
        assert repr(a.double()) == ("tensor([3., 6.], dtype=torch.float64,\n"
                                    "       tangent=tensor([3., 0.], dtype=torch.float64))")


def test_tangents_compose_with_backward():
    with fwAD.dual_level():
        xr = torch.tensor([1., 2.], requires_grad=True)
        dd = fwAD.make_dual(xr, torch.tensor([1., 1.]))
        z = (dd * dd).sum()
        t = fwAD.unpack_dual(z).tangent
        assert t.item() == 6.0 and t.requires_grad
        (g,) = torch.autograd.grad(t, xr)
        assert g.tolist() == [2.0, 2.0]  # d/dx sum(2 x v) = 2 v


def test_custom_function():
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class G(F):
        @staticmethod
        def jvp(ctx, t):
            return t * 2

    with fwAD.dual_level():
        a = fwAD.make_dual(torch.tensor([3., 6.]), torch.tensor([3., 0.]))
        _raises(NotImplementedError, "You must implement the jvp function for custom autograd.Function to use it "
                "with forward mode AD.", lambda: F.apply(a))
        assert repr(G.apply(a)) == "tensor([ 6., 12.], tangent=tensor([6., 0.]))"


def test_op_without_forward_ad_raises_pytorchs_error():
    with fwAD.dual_level():
        a = fwAD.make_dual(torch.tensor([3., 6.]), torch.tensor([3., 0.]))
        with pytest.raises(NotImplementedError) as info:
            torch.unique(a)
        assert str(info.value).startswith("Trying to use forward AD with _unique2 that does not support it because "
                                          "it has not been implemented yet.\nPlease file an issue to PyTorch")


SCRIPT = """import torch
import torch.autograd.forward_ad as fwAD
from torch.autograd.forward_ad import dual_level, make_dual, unpack_dual
x = torch.tensor([1., 2.])
with dual_level():
    d = make_dual(x, torch.ones(2))
    y = (d * d).exp()
    print(y)
    p, t = unpack_dual(y)
    print(unpack_dual(y).tangent)
"""


def test_scripts_reach_forward_ad():
    res = run(Source("fw.py", SCRIPT), timeout=20)
    assert res.error is None, res.error.render()
    assert res.stdout == ("tensor([ 2.7183, 54.5981], tangent=tensor([  5.4366, 218.3926]))\n"
                          "tensor([  5.4366, 218.3926])\n")


@pytest.mark.parametrize("attack", [
    "fwAD._LEVEL", "fwAD._dual", "fwAD.NamedTuple", "fwAD._dual._np", "fwAD.set_tangent", "fwAD.tangent_of",
    "fwAD.make_dual.__globals__", "d._fw", "fwAD.unpack_dual(d)._make", "fwAD.dual_level().__enter__",
    "fwAD.UnpackedDualTensor.__new__",
])
def test_escapes_through_forward_ad_are_refused(attack):
    text = ("import torch\nimport torch.autograd.forward_ad as fwAD\nfwAD.enter_dual_level()\n"
            f"d = fwAD.make_dual(torch.ones(2), torch.ones(2))\nx = {attack}\n")
    res = run(Source("attack.py", text), timeout=20)
    assert res.error is not None, f"not blocked: {attack}"
    assert res.error.type_name in ("AttributeError", "NameError"), res.error.render()
    assert "Traceback" not in res.error.render()
    fwAD._dual.drop_all()  # the script ran in this process and left its level entered


def test_pytorch_forward_ad_tutorial():
    """examples/forward_ad_tutorial.py (PyTorch's tutorial) prints what it prints under PyTorch
    (tests/golden/forward_ad_tutorial.txt, written by tools/gen_forward_ad_golden.py --tutorial)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    text = (root / "examples" / "forward_ad_tutorial.py").read_text()
    res = run(Source("forward_ad_tutorial.py", text), timeout=120)
    assert res.error is None, res.error.render()
    want = (root / "tests" / "golden" / "forward_ad_tutorial.txt").read_text()
    assert res.stdout == want


def test_gradcheck_check_forward_ad():
    x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
    y = torch.tensor([[1.0, 2.0], [0.5, -0.3]], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda a: a.sin() * a.exp(), (x,), check_forward_ad=True)
    assert torch.autograd.gradcheck(lambda a, b: (a[:2] @ b).tanh(), (x, y), check_forward_ad=True)
    assert torch.autograd.gradcheck(lambda a, b: (a[:2] @ b).softmax(0), (x, y), check_forward_ad=True,
                                    check_backward_ad=False)

    class Bad(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_forward(a)
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx, g):
            a, = ctx.saved_tensors
            return 2 * a * g

        @staticmethod
        def jvp(ctx, t):
            a, = ctx.saved_tensors
            return 3 * a * t

    # PyTorch 2.13's text
    _raises(torch.autograd.GradcheckError,
            "Jacobian computed with forward mode mismatch for output 0 with respect to input 0,\n"
            "numerical:tensor([[ 1.0000,  0.0000,  0.0000],\n        [ 0.0000, -2.0000,  0.0000],\n"
            "        [ 0.0000,  0.0000,  4.0000]], dtype=torch.float64)\n"
            "analytical:tensor([[ 1.5000, -0.0000,  0.0000],\n        [ 0.0000, -3.0000,  0.0000],\n"
            "        [ 0.0000, -0.0000,  6.0000]], dtype=torch.float64)\n",
            lambda: torch.autograd.gradcheck(Bad.apply, (x,), check_forward_ad=True))
    assert torch.autograd.gradcheck(Bad.apply, (x,), check_forward_ad=True, raise_exception=False) is False


def test_no_level_costs_one_check():
    """Outside a dual level an op reads one flag; tensors carry no tangent slot value."""
    from agrad.autograd import _dual
    assert _dual._ACTIVE[0] is False
    y = torch.ones(2).sin()
    with pytest.raises(AttributeError):
        y._fw


def test_lerp_formula_with_a_bool_0d_weight():
    # derivatives.yaml's lerp(self_t, end_t, weight) + weight_t * (end - self): a 0-d bool weight
    # works as in the forward (the backward's 1 - weight refuses it); the tangent is lerp's bits
    a, b = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0, 5.0, 7.0])
    with fwAD.dual_level():
        t = fwAD.unpack_dual(torch.lerp(fwAD.make_dual(a, torch.ones(3)), b, torch.tensor(True))).tangent
        u = fwAD.unpack_dual(torch.lerp(a, fwAD.make_dual(b, torch.ones(3)), torch.tensor(True))).tangent
        w = torch.linspace(-1.2, 1.7, 20)
        ta, tb = torch.linspace(-3, 7, 20) * 1.37 % 3.1, torch.linspace(5, -2, 20) * 2.3 % 1.7
        v = fwAD.unpack_dual(torch.lerp(fwAD.make_dual(torch.zeros(20), ta), fwAD.make_dual(torch.ones(20), tb), w)).tangent
    assert t.tolist() == [0.0, 0.0, 0.0] and u.tolist() == [1.0, 1.0, 1.0]
    assert v.tolist() == torch.lerp(ta, tb, w).tolist()
