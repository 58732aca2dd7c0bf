"""Regression cases for the mismatch groups of issue 10 (tools/difftest.py finds them).

Each case is a short program and the expressions whose printed form must be
PyTorch's: ``repr`` of the value (memory addresses removed), or the exception
as ``TypeName: text``; the warnings of the whole case are recorded too.
``python tools/gen_exact_golden.py`` runs them under PyTorch and writes
tests/golden/exact.json; tests/test_exact_golden.py runs them under agrad.

Case: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


CASES = [
    case("leaf-grad-aliases-gradient",
         ["x = torch.tensor([1., 2.], requires_grad=True)", "g = torch.tensor([10., 20.])",
          "x.backward(gradient=g)", "x.sum().backward()"],
         ["g", "x.grad", "x.grad is g"]),
    case("leaf-grad-aliases-gradient-inputs",
         ["x = torch.tensor([1., 2.], requires_grad=True)", "g = torch.tensor([10., 20.])",
          "torch.autograd.backward([x], [g], inputs=[x])", "x.sum().backward()"],
         ["g", "x.grad"]),
    case("grad-dtype-cast",
         ["x = torch.tensor([1., 2.], requires_grad=True)",
          "x.backward(gradient=torch.ones(2, dtype=torch.float64))",
          "y = torch.tensor([1., 2.], requires_grad=True)",
          "(y * 2).backward(gradient=torch.tensor([1, 2]))"],
         ["x.grad", "y.grad"]),
    case("materialize-grads",
         ["x = torch.tensor([1.], requires_grad=True)", "y = torch.tensor([1.], requires_grad=True)"],
         ["torch.autograd.grad((x * 2).sum(), [y], create_graph=True, allow_unused=True, materialize_grads=True)",
          "torch.autograd.grad((x * 2).sum(), [y, x], allow_unused=True, materialize_grads=True)"]),
    case("backward-create-graph-accum",
         ["x = torch.tensor([1., 2.], requires_grad=True)", "(x * x).sum().backward(create_graph=True)",
          "y = torch.tensor([1., 2.], requires_grad=True)", "(y * 2).sum().backward(create_graph=True)"],
         ["x.grad", "x.grad.grad_fn.next_functions[0]", "type(x.grad.grad_fn.next_functions[1][0]).__name__",
          "y.grad"]),
    case("namedtuple-repr",
         ["x = torch.tensor([[3., 1.], [2., 5.]], requires_grad=True)"],
         ["x.sort()", "x.max(0)", "x.min(1, keepdim=True)", "x.topk(1)", "x.median(0)", "x.kthvalue(1)",
          "x.mode(0)", "x.cummax(0)", "x.cummin(1)", "x.aminmax()", "torch.slogdet(x)",
          "torch.linalg.slogdet(x)", "x.nanmedian(1)", "str(x.max(1))"]),
    case("floordiv-grad",
         ["x = torch.tensor([5.5, -5.5], requires_grad=True)", "y = torch.tensor([2., 2.])",
          "z = x * 1", "z //= 2", "w = x * 1", "w.floor_divide_(y)"],
         ["x // 2", "(x // 2).requires_grad", "(x // y).grad_fn.next_functions", "y // x", "torch.floor_divide(x, y)",
          "z", "z.grad_fn.next_functions", "torch.autograd.grad(z.sum(), x)", "torch.autograd.grad((x // y).sum(), x)",
          "w", "torch.div(x, y, rounding_mode='trunc')", "torch.div(x, 2, rounding_mode='floor')",
          "torch.div(x, y, rounding_mode='floor').grad_fn.next_functions",
          "torch.autograd.grad(torch.div(x, y, rounding_mode='floor').sum(), x)",
          "torch.tensor([7, -7]) // 2"]),
    case("notimplemented-node",
         ["x = torch.tensor([1.5, 2.5], requires_grad=True)", "v = torch.tensor([0.5, 0.5])"],
         ["x.heaviside(v)", "x.heaviside(v).grad_fn.next_functions", "type(x.heaviside(v).grad_fn).__name__",
          "x.heaviside(v).grad_fn.name()", "torch.autograd.grad(x.heaviside(v).sum(), x)"]),
    case("bitwise-float-exc-type",
         ["x = torch.tensor([1.5, 2.5])", "i = torch.tensor([1, 2])"],
         ["x & i", "i | x", "torch.bitwise_xor(x, i)", "i ^ 3"]),
    case("signed-zero-remainder",
         ["x = torch.tensor([0.5, -1., 0., 5.5, -5.5, 3.])"],
         ["x % -0.5", "x % 0.5", "torch.remainder(x, torch.tensor(-2.))", "3.5 % torch.tensor([-2., 2.])",
          "x.remainder(-1.0)", "torch.tensor([5, -5]) % 3"]),
    case("arg-typecheck",
         ["x = torch.tensor([1., 2.])"],
         ["torch.relu(1.0)", "F.relu(1.0)", "torch.sum(1.5)", "torch.minimum(x, 0.5)", "torch.logical_or(x, 2)",
          "torch.matmul(x, 1.0)", "F.gelu([1.0])", "torch.mean(None)", "torch.dot(x, [1, 2])", "x.dot(2)",
          "torch.cat([x, 1.5])", "torch.cat(1.5)", "torch.stack((x, 1.5))", "torch.linalg.solve(x, 1.0)",
          "F.linear(x, x, 1.0)", "torch.logical_not(1.5)", "torch.softmax(1.0, 0)", "torch.add(1.5, x)",
          "torch.einsum('i,i', x, 1.5)"]),
    case("0dim-dim-arg",
         ["x = torch.tensor(1.5, requires_grad=True)", "b = torch.tensor(True)"],
         ["x.sum(0)", "x.mean(-1, keepdim=True)", "x.amax(0)", "x.logsumexp(0)", "x.prod(0)", "x.norm(dim=0)",
          "x.var_mean(0)", "x.nansum(0)", "torch.count_nonzero(x, 0)", "b.all(0)", "b.any(-1)",
          "x.sum((0, -1))", "x.sum(1)", "torch.split(x, 1)", "x.split_with_sizes([1])", "torch.unbind(x)",
          "torch.unbind(x, 5)", "x.roll(1, 0)", "torch.movedim(x, 0, -1)", "torch.movedim(x, 0, 1)",
          "torch.autograd.grad(x.mean(0), x)"]),
    case("create-graph-scalar-overloads",
         ["x = torch.tensor([1., -2.], requires_grad=True)",
          "g2 = torch.autograd.grad((x ** 2).sum(), x, create_graph=True)[0]",
          "g3 = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)[0]",
          "ge = torch.autograd.grad(torch.exp2(x).sum(), x, create_graph=True)[0]",
          "gd = torch.autograd.grad((x / 4).sum(), x, create_graph=True)[0]",
          "gh = torch.autograd.grad((x * 2).sum(), x, create_graph=True)[0]"],
         ["g2", "g2.grad_fn.next_functions", "g2.grad_fn.next_functions[1][0].next_functions", "g3",
          "g3.grad_fn.next_functions[1][0].next_functions", "ge", "ge.grad_fn.next_functions", "gd", "gh",
          "torch.autograd.grad(g2.sum(), x)", "torch.autograd.grad(g3.sum(), x)",
          "torch.autograd.grad(ge.sum(), x)"]),
    case("int-pow-negative-tensor-exponent",
         [],
         ["torch.tensor([1, -1, -1, 2, 0, 3]) ** torch.tensor([-1, -1, -2, -3, 2, 2])",
          "torch.tensor([2]) ** -1", "torch.pow(torch.tensor([[1], [-1]]), torch.tensor([-3, -4]))"]),
]
