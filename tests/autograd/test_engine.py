"""The autograd engine as a user meets it: the seed experiments, hooks, errors, modes."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import agrad as torch
from agrad.autograd.graph import FREED_MESSAGE
from agrad.tensor import NON_LEAF_GRAD_WARNING


def seed_graph():
    x = torch.ones([2, 2])
    w1 = torch.tensor(2.0, requires_grad=True)
    w2 = torch.tensor(3.0, requires_grad=True)
    w3 = torch.tensor(4.0, requires_grad=True)
    l1 = x * w1
    l2 = l1 + w2
    l3 = l1 * w3
    l4 = l2 * l3
    return (w1, w2, w3), (l1, l2, l3, l4), l4.mean()


# --- the seed notes ---------------------------------------------------------------

def test_seed_backward_experiment():
    (w1, w2, w3), (l1, l2, l3, l4), loss = seed_graph()
    assert [w.is_leaf for w in (w1, w2, w3)] == [True] * 3
    assert [l.is_leaf for l in (l1, l2, l3, l4)] == [False] * 4
    assert [type(l.grad_fn).__name__ for l in (l1, l2, l3, l4)] == [
        "MulBackward0", "AddBackward0", "MulBackward0", "MulBackward0"]
    assert loss.grad_fn.name() == "MeanBackward0"
    loss.backward()
    assert (w1.grad.item(), w2.grad.item(), w3.grad.item()) == (28.0, 8.0, 10.0)
    assert repr(w1.grad) == "tensor(28.)"


def test_reading_grad_of_non_leaf_warns_and_is_none():
    _, (l1, *_), loss = seed_graph()
    loss.backward()
    with pytest.warns(UserWarning) as record:
        assert l1.grad is None
    assert str(record[0].message) == NON_LEAF_GRAD_WARNING


def test_sin_over_linspace_gives_two_cos():
    a = torch.linspace(0.0, 2.0 * math.pi, steps=25, requires_grad=True)
    b = torch.sin(a)
    c = 2 * b
    d = c + 1
    out = d.sum()
    b.retain_grad()
    out.backward()
    np.testing.assert_allclose(a.grad.numpy(), 2 * np.cos(a.detach().numpy()), atol=1e-6)
    assert b.grad.tolist() == [2.0] * 25
    assert [t.grad_fn.name() for t in (b, c, d, out)] == [
        "SinBackward0", "MulBackward0", "AddBackward0", "SumBackward0"]


class LinearFunction(torch.autograd.Function):
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


def test_custom_linear_function():
    x = torch.tensor([[2.0]], requires_grad=True)
    w = torch.tensor([[3.0]], requires_grad=True)
    loss = LinearFunction.apply(x, w)
    assert repr(loss) == "tensor([[6.]], grad_fn=<LinearFunctionBackward>)"
    assert loss.grad_fn.name() == "LinearFunctionBackward"
    assert [type(n).__name__ for n, _ in loss.grad_fn.next_functions] == ["AccumulateGrad"] * 2
    loss.backward()
    assert w.grad.item() == 2.0 and x.grad.item() == 3.0


def test_custom_function_gradcheck_in_float32_warns_and_passes():
    torch.manual_seed(0)
    a = torch.rand(2, 7, requires_grad=True)
    b = torch.rand(5, 7, requires_grad=True)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        assert torch.autograd.gradcheck(LinearFunction.apply, (a, b), eps=1e-2) is True
    assert [str(w.message)[:71] for w in record] == [
        f"Input #{i} requires gradient and is not a double precision floating point" for i in (0, 1)]


def test_gradcheck_reports_a_wrong_backward():
    class Bad(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x  # should be 2 * x

    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    with pytest.raises(torch.autograd.GradcheckError) as info:
        torch.autograd.gradcheck(Bad.apply, (x,))
    assert str(info.value).startswith("Jacobian mismatch for output 0 with respect to input 0,\nnumerical:")
    assert torch.autograd.gradcheck(Bad.apply, (x,), raise_exception=False) is False


def test_gradgradcheck_on_composite():
    x = torch.tensor([0.3, -1.2, 2.0], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradgradcheck(lambda t: (t.sin() * t.exp()).sum(), (x,))


# --- hooks ---------------------------------------------------------------------------

def test_hook_sees_and_replaces_gradient_and_can_be_removed():
    x = torch.ones(3, requires_grad=True)
    y = x * 2
    seen = []
    handle = y.register_hook(lambda g: seen.append(g.tolist()) or g * 10)
    y.sum().backward()
    assert seen == [[1.0, 1.0, 1.0]]
    assert x.grad.tolist() == [20.0, 20.0, 20.0]
    handle.remove()
    x.grad = None
    y = x * 2
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]


def test_leaf_hook_runs_before_accumulation():
    x = torch.ones(2, requires_grad=True)
    x.register_hook(lambda g: g + 1)
    (x * 3).sum().backward()
    assert x.grad.tolist() == [4.0, 4.0]


def test_hooks_run_in_pytorch_order():
    x = torch.tensor(1.0, requires_grad=True)
    order = []
    a = x * 2
    b = x * 3
    a.register_hook(lambda g: order.append("a"))
    b.register_hook(lambda g: order.append("b"))
    (a + b).backward()
    assert order == ["b", "a"]  # the node made last runs first


def test_retain_grad_keeps_non_leaf_gradient():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    y.retain_grad()
    assert y.retains_grad
    y.sum().backward()
    assert y.grad.tolist() == [1.0, 1.0]


# --- graph lifetime ------------------------------------------------------------------

def test_backward_twice_raises_pytorch_error():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError) as info:
        y.backward()
    assert str(info.value) == FREED_MESSAGE


def test_retain_graph_accumulates_over_two_backward_calls():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.tolist() == [4.0, 8.0]


def test_non_scalar_backward_needs_gradient():
    x = torch.ones(3, requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        y.backward()
    y.backward(gradient=torch.tensor([1.0, 0.0, 2.0]))
    assert x.grad.tolist() == [2.0, 0.0, 4.0]


def test_backward_on_tensor_without_grad():
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad and does not have a grad_fn"):
        torch.ones(2).sum().backward()


def test_deep_chain_runs_backward_without_recursion():
    x = torch.tensor(0.5, requires_grad=True)
    y = x
    for _ in range(100_000):
        y = y * 1.0
    y.backward()
    assert x.grad.item() == 1.0


# --- higher order and autograd.grad ----------------------------------------------------

def test_create_graph_gives_second_derivative():
    x = torch.tensor(2.0, requires_grad=True)
    y = x ** 3
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    assert g.item() == 12.0 and g.grad_fn is not None
    (h,) = torch.autograd.grad(g, x)
    assert h.item() == 12.0


def test_autograd_grad_does_not_accumulate_and_checks_unused():
    a = torch.ones(2, requires_grad=True)
    b = torch.ones(2, requires_grad=True)
    (ga,) = torch.autograd.grad((a * 3).sum(), [a])
    assert ga.tolist() == [3.0, 3.0] and a.grad is None
    with pytest.raises(RuntimeError, match="The differentiated Tensor at index 1 appears to not have been used"):
        torch.autograd.grad((a * 3).sum(), [a, b])
    ga, gb = torch.autograd.grad((a * 3).sum(), [a, b], allow_unused=True)
    assert gb is None


def test_backward_inputs_limits_accumulation():
    a = torch.ones(2, requires_grad=True)
    b = torch.ones(2, requires_grad=True)
    (a * b).sum().backward(inputs=[a])
    assert a.grad.tolist() == [1.0, 1.0] and b.grad is None


# --- leaves, requires_grad, .grad ----------------------------------------------------

def test_requires_grad_rules():
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf variables"):
        y.requires_grad = False
    with pytest.raises(RuntimeError, match="Only Tensors of floating point and complex dtype can require gradients"):
        torch.tensor([1, 2], requires_grad=True)
    z = torch.zeros(2)
    z.requires_grad_()
    assert z.requires_grad and z.is_leaf


def test_grad_assignment_is_checked():
    x = torch.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"attempting to assign a gradient of size '\[2\]' to a tensor of size '\[3\]'"):
        x.grad = torch.ones(2)
    x.grad = torch.ones(3)
    x.grad = None


def test_accumulate_grad_node_points_at_leaf():
    x = torch.ones(2, requires_grad=True)
    node = (x * 2).grad_fn.next_functions[0][0]
    assert type(node).__name__ == "AccumulateGrad"
    assert node.name() == "torch::autograd::AccumulateGrad"
    assert node.variable is x
    assert (x * 2).grad_fn.next_functions[1] == (None, 0)


def test_a_leaf_and_its_graph_are_freed_without_the_cycle_collector():
    # PyTorch's leaf holds its AccumulateGrad weakly: a leaf made and used in each run of a
    # loop is freed by reference counts when the run ends (it was cyclic garbage a run)
    import gc
    import weakref

    x = torch.ones(2, 2)
    gc.collect()
    gc.disable()
    try:
        w = torch.tensor(2.0, requires_grad=True)
        (x * w * w).mean().backward()
        leaf, node = weakref.ref(w), weakref.ref((x * w).grad_fn.next_functions[1][0])
        del w
        assert leaf() is None and node() is None
    finally:
        gc.enable()


def test_accumulate_grad_node_is_shared_while_a_graph_holds_it():
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    node = y.grad_fn.next_functions[0][0]
    assert (x * 3).grad_fn.next_functions[0][0] is node
    assert torch.autograd.grad((x * 3).sum(), x)[0].tolist() == [3.0, 3.0]
    del y, node  # (no graph holds it: the next graph gets a node of its own, as in PyTorch)
    assert (x * 2).grad_fn.next_functions[0][0].variable is x


def test_a_leaf_hook_outlives_the_graphs():
    x = torch.ones(2, requires_grad=True)
    x.register_hook(lambda g: g * 10)
    (x * 2).sum().backward()
    import gc
    gc.collect()
    (x * 3).sum().backward()
    assert x.grad.tolist() == [50.0, 50.0]


# --- in place and versions -------------------------------------------------------------

def test_version_counter_and_copy_slices():
    a = torch.tensor([1.0, 3.0], requires_grad=True)
    b = a + 2
    assert b._version == 0
    b[0] = 100
    assert b._version == 1
    assert b.grad_fn.name() == "torch::autograd::CopySlices"
    loss = (b * b).mean()
    loss.backward()
    assert a.grad.tolist() == [0.0, 5.0]


def test_modified_saved_tensor_raises_pytorch_error():
    a = torch.tensor([1.0, 3.0], requires_grad=True)
    b = a + 2
    loss = (b * b).mean()
    b[0] = 1000.0
    with pytest.raises(RuntimeError) as info:
        loss.backward()
    assert str(info.value).startswith(
        "one of the variables needed for gradient computation has been modified by an inplace operation: "
        "[torch.FloatTensor [2]], which is output 0 of torch::autograd::CopySlices, is at version 1; "
        "expected version 0 instead.")


def test_inplace_on_leaf_that_requires_grad():
    a = torch.tensor([10.0, 5.0, 2.0, 3.0], requires_grad=True)
    for act in (lambda: a.__setitem__(slice(None), 0), lambda: a.add_(1), lambda: a.zero_()):
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place operation."):
            act()


def test_no_grad_update_of_leaf():
    a = torch.arange(5.0, requires_grad=True)
    b = torch.sin(a)
    b.backward(gradient=torch.ones_like(b))
    with torch.no_grad():
        a[1] = 10
        a.grad.zero_()
    assert repr(a) == "tensor([ 0., 10.,  2.,  3.,  4.], requires_grad=True)"
    assert a.grad.tolist() == [0.0] * 5
    assert a._version == 1


def test_inplace_ops_record_and_differentiate():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    y.mul_(3)
    y.exp_()  # ExpBackward0 saves its result: the in-place output itself
    assert y.grad_fn.name() == "ExpBackward0" and y._version == 2
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 3 * np.exp([3.0, 6.0]), rtol=1e-6)


def test_inplace_op_reading_its_own_output_raises_like_pytorch():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    y.mul_(y)  # MulBackward0 saved `other`, which is y itself, now changed
    with pytest.raises(RuntimeError, match="which is output 0 of Mul, is at version 1; expected version 0"):
        y.sum().backward()


def test_detach_shares_data_and_version():
    x = torch.ones(2, requires_grad=True)
    d = x.detach()
    d.add_(1)
    assert x.tolist() == [2.0, 2.0] and x._version == 1 and not d.requires_grad


# --- grad modes ----------------------------------------------------------------------------

def test_grad_modes():
    x = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        assert not (x * 2).requires_grad
        with torch.enable_grad():
            assert (x * 2).requires_grad
    with torch.set_grad_enabled(False):
        assert not (x * 2).requires_grad
    assert torch.is_grad_enabled()
    with torch.inference_mode():
        assert not (x * 2).requires_grad

    @torch.no_grad()
    def f(t):
        return t * 2

    assert not f(x).requires_grad and torch.is_grad_enabled()


def test_no_grad_detach_experiment_from_seed():
    torch.manual_seed(0)
    x = torch.ones(5)
    w = torch.randn(5, 3, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    z = torch.matmul(x, w) + b
    assert z.requires_grad
    with torch.no_grad():
        z = torch.matmul(x, w) + b
    assert not z.requires_grad
    assert not (torch.matmul(x, w) + b).detach().requires_grad


# --- custom Function details ------------------------------------------------------------

def test_mark_non_differentiable_and_dirty():
    class SortWithIndex(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            values, idx = x.sort() if hasattr(x, "sort") else (x, x)
            ctx.mark_non_differentiable(idx)
            ctx.save_for_backward(idx)
            return values, idx

        @staticmethod
        def backward(ctx, g_values, g_idx):
            (idx,) = ctx.saved_tensors
            out = torch.zeros_like(g_values)
            out[idx] = g_values
            return out

    class AddOneInPlace(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
    values, idx = SortWithIndex.apply(x)
    assert values.requires_grad and not idx.requires_grad
    (values * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert x.grad.tolist() == [3.0, 1.0, 2.0]

    y = x * 1
    z = AddOneInPlace.apply(y)
    assert z is y and y.grad_fn.name() == "AddOneInPlaceBackward"


def test_custom_function_backward_with_wrong_gradient_count():
    class TwoGrads(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g, g

    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"function TwoGradsBackward returned an incorrect number of gradients \(expected 1, got 2\)"):
        TwoGrads.apply(x).sum().backward()


def test_custom_function_twice_backward_frees_saved_tensors():
    x = torch.tensor([[2.0]], requires_grad=True)
    w = torch.tensor([[3.0]], requires_grad=True)
    out = LinearFunction.apply(x, w)
    out.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        out.backward()


def test_custom_function_supports_double_backward():
    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 3 * x ** 2 * g

    x = torch.tensor(2.0, requires_grad=True)
    (g,) = torch.autograd.grad(Cube.apply(x), x, create_graph=True)
    (h,) = torch.autograd.grad(g, x)
    assert (g.item(), h.item()) == (12.0, 12.0)


def test_node_hooks_and_prehooks():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    seen = []
    y.grad_fn.register_prehook(lambda grad_outputs: seen.append("pre"))
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append("post"))
    y.sum().backward()
    assert seen == ["pre", "post"]


# --- live comparison with PyTorch ---------------------------------------------------------

HOOK_SCRIPT = """
x = torch.tensor([1.0, 2.0], requires_grad=True)
a = x * 2
b = a.exp()
c = a.sin()
d = (b * c).sum() + a.sum()
for name, t in (("a", a), ("b", b), ("c", c), ("d", d)):
    t.register_hook(lambda g, name=name: order.append(name))
x.register_hook(lambda g: order.append("x"))
d.backward()
"""


@pytest.mark.torch
def test_hook_order_matches_pytorch():
    real = pytest.importorskip("torch")
    runs = []
    for mod in (torch, real):
        order = []
        exec(HOOK_SCRIPT, {"torch": mod, "order": order})
        runs.append(order)
    assert runs[0] == runs[1]


def test_inplace_on_views():
    x = torch.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="^a view of a leaf Variable that requires grad is being used in an in-place operation.$"):
        x[0].add_(1)
    y = x * 2
    v = y[0]
    v.mul_(3)  # PyTorch rewrites y's history: CopySlices wrapping the MulBackward0 of the view
    assert y.grad_fn.name() == "torch::autograd::CopySlices"
    assert [n.name() if n else None for n, _ in y.grad_fn.next_functions] == ["MulBackward0", None]
    assert v.grad_fn.name() == "AsStridedBackward0" and y._version == v._version == 1
    with torch.no_grad():
        y[1:].mul_(3)  # not recorded, and the base sees it
    assert y.tolist() == [6.0, 6.0, 6.0] and y._version == 2
    y.sum().backward()
    assert x.grad.tolist() == [6.0, 2.0, 2.0]  # the no_grad change is not in the graph (as in PyTorch)
    z = torch.zeros(3)
    z[:2].add_(1)  # nothing requires grad: a plain write through the view
    assert z.tolist() == [1.0, 1.0, 0.0]


def test_backward_with_a_gradient_per_output():
    x = torch.ones(2, requires_grad=True)
    y1, y2 = (x * 2).sum(), (x * 3).sum()
    with pytest.raises(RuntimeError, match="^got 2 tensors and 1 gradients$"):
        torch.autograd.backward([y1, y2], [torch.tensor(1.0)])
    torch.autograd.backward([y1, y2], [torch.tensor(1.0), torch.tensor(2.0)])
    assert x.grad.tolist() == [8.0, 8.0]


def test_start_observers_are_told_of_the_first_node_of_each_pass_and_keep_the_array_formulas(monkeypatch):
    from agrad.autograd import engine
    from agrad.ops._op import OPS

    seen, raw = [], []
    for name in ("MulBackward0", "SinBackward0"):
        node = OPS[name].node
        monkeypatch.setattr(node, "_raw", lambda self, g, f=node._raw: raw.append(self.name()) or f(self, g))
    monkeypatch.setattr(engine, "start_observers", [seen.append])
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a, b = (x * 2).sum(), x.sin().sum()  # b made last: PyTorch's order runs it first
    a.backward(retain_graph=True)  # x * 2 saves the 2 (PyTorch frees it with the graph)
    torch.autograd.grad([a, b], [x])
    assert seen == [a.grad_fn, b.grad_fn] and "MulBackward0" in raw and "SinBackward0" in raw
