"""Regression cases for the mismatch groups of issue 10 (tools/difftest.py finds them).

Each case is a short program and the expressions whose printed form must be
PyTorch's: ``repr`` of the value (memory addresses removed), or the exception
as ``TypeName: text``; the warnings of the whole case are recorded too.
``python tools/gen_exact_golden.py`` runs them under PyTorch and writes
tests/golden/exact.json; tests/test_exact_golden.py runs them under agrad.

Case: ``{"id": group name, "code": [statements], "show": [expressions]}``.
This file holds the first cases; the rest live in case files, tools/exact_cases_NAME.py, each a module-level
list ``CASES`` built with tools/exact_case_form.py's ``case`` (and ``outcomes``: calls whose result or exception
is recorded, ``GRAPH``: a function listing a graph's nodes). A new case file needs no import here: every
tools/exact_cases_*.py is added, in the order of the file names.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from exact_case_form import GRAPH, case


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
    case("one-gradient-two-leaves",
         ["a = torch.tensor([1., 2.], requires_grad=True)", "b = torch.tensor([1., 2.], requires_grad=True)",
          "(a + b).pow(2).sum().backward()", "(a * 3).sum().backward()",
          "c = torch.tensor([1., 2.], requires_grad=True)", "d = c * 1", "(d - c).exp().sum().backward()"],
         ["a.grad", "b.grad", "c.grad"]),
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
    case("create-graph-wrapped-number",
         ["x = torch.tensor([2.25, 2.5], requires_grad=True)", "y = x * 1", "y[:].abs_()",
          "g = torch.autograd.grad(y.sum(), x, create_graph=True)[0]",
          "h = torch.autograd.grad((x * x / 3).sum(), x, create_graph=True)[0]"],
         ["g.grad_fn.next_functions", "g.grad_fn.name()", "h.grad_fn.name()", "h.grad_fn.next_functions"]),
    case("copy-scalar",
         ["x = torch.tensor([1, 2, 3])", "x.copy_(-1.5)", "y = torch.zeros(2)", "y.copy_(True)",
          "z = torch.ones(2, requires_grad=True) * 1", "z.copy_(2.5)"],
         ["x", "y", "z"]),
    case("zero-dim-masked-select",
         ["a = torch.tensor(-0.25, requires_grad=True)", "r = torch.masked_select(a, a < 0)"],
         ["r", "torch.autograd.grad(r.sum(), a)", "torch.masked_select(a, a > 0)"]),
    case("setitem-noop-slice",
         ["x = torch.ones(2, 3, requires_grad=True)", "a = x * 1", "a[:] = 1.5", "b = x * 1", "b[..., :] = torch.ones(3)",
          "c = x * 1", "c[0:, ::1] = torch.ones(2, 3, requires_grad=True)", "d = x * 1", "d[...] = torch.tensor(2.)",
          "e = torch.zeros(2, 3)", "e[:] = torch.arange(3.)", "f = torch.zeros(2, 2, dtype=torch.int64)", "f[...] = 7"],
         ["a", "a.grad_fn.next_functions", "b", "b.grad_fn.next_functions", "c.grad_fn", "d.grad_fn.next_functions",
          "e", "f", "torch.autograd.grad((a * b).sum(), x)"]),
    case("clamp-backward-selects",
         ["x = torch.tensor([[-0.25, -1.0], [2.75, -1.0]], requires_grad=True)", "r = x[0].clamp(-0.0)",
          "r.backward(gradient=torch.tensor([1.0, -2.5]))", "y = torch.tensor([0.5, 2.], requires_grad=True)",
          "lo = torch.tensor([0., 0.], requires_grad=True)",
          "g = torch.autograd.grad(y.clamp(0, 1).sum(), y, create_graph=True)[0]"],
         ["x.grad", "g", "torch.autograd.grad(torch.clamp(y, lo, torch.ones(2)).sum(), [y, lo])"]),
    case("setitem-broadcast",
         ["x = torch.zeros(2, 3)", "x[0] = torch.ones(1, 1, 3)", "w = torch.ones(1, 3, requires_grad=True)",
          "y = torch.ones(2, 3, requires_grad=True) * 1", "y[0] = w",
          "i = torch.tensor([[[3, -1, 1], [3, -3, 0]], [[-1, -2, -3], [3, 4, 1]]])"],
         ["x", "x.__setitem__(0, torch.ones(2, 3))", "x.__setitem__((slice(None), 0), torch.ones(3))",
          "x.__setitem__(slice(None, None, 2), torch.ones(2, 2, 3))", "x.__setitem__([0, 1], torch.ones(3, 3))",
          "i.__setitem__(slice(None, None, 2), i.clone())", "y.grad_fn.next_functions[1][0].name()",
          "torch.autograd.grad(y.sum(), w)"]),
    case("expanded-write",
         ["x = torch.tensor([1., 2., 3.])", "v = x.expand(2, 3)", "v[[0, 0]] = torch.tensor([2.75])",
          "y = torch.tensor([1., 2., 3.])", "w = y.expand(2, 3)", "w.fill_(0.5)",
          "z = torch.tensor([1., 2., 3.])", "u = z.expand(2, 3)", "u.index_fill_(0, torch.tensor([0]), 2.)",
          "a = torch.tensor([2.75], dtype=torch.float64, requires_grad=True)",
          "q = torch.autograd.grad(a.sum(), [a], create_graph=True)[0]", "q.mul_(torch.tensor([2.0], dtype=torch.float64))",
          "b = torch.tensor([1., 2., 3.])", "c = b.expand(2, 3)", "c[0] = 5."],
         ["x", "y", "z", "q", "b", "c.mul_(2)", "c.__setitem__((slice(None), 0), 7.)", "c.zero_()", "b"]),
    case("method-arity-first",
         ["x = torch.ones(2, requires_grad=True)"],
         ["x.sin_(1)", "x.arcsin_(x)", "x.exp_(2)", "torch.sin(x, 1)"]),
    case("fused-double-backward",
         ["x = torch.tensor([-5., -3., -1., -0.25, 0., 0.5, 3., 25., float('nan')], "
          "dtype=torch.float64, requires_grad=True)",
          "w = torch.linspace(-1, 2, 9, dtype=torch.float64)",
          "gs = [torch.autograd.grad((f(x) * w).sum(), x, create_graph=True)[0] for f in "
          "(F.elu, torch.selu, F.hardtanh, F.hardshrink, F.softshrink, F.leaky_relu, F.softplus, F.logsigmoid, "
          "F.hardswish, F.relu6, lambda t: F.threshold(t, 0.5, 2.0), lambda t: F.elu(t * 1, inplace=True))]",
          "hs = [torch.autograd.grad((g * g).sum(), x, allow_unused=True)[0] for g in gs]"],
         ["[g.grad_fn.name() for g in gs]", "[len(g.grad_fn.next_functions) for g in gs]", "gs", "hs"]),
    case("setitem-value-view-expand",
         ["g = torch.zeros(1, 2, dtype=torch.float64)", "v = torch.ones(1, 2, dtype=torch.float64, requires_grad=True)",
          "g[None] = v", "h = torch.zeros(2, 3)", "u = torch.ones(3, requires_grad=True)", "h[:] = u",
          "k = torch.zeros(2, 3)", "s = torch.ones(1, 3, requires_grad=True)", "k[[0]] = s",
          "m = torch.zeros(2, 3)", "t = torch.ones(1, requires_grad=True)", "m[0] = t"],
         ["g.grad_fn.next_functions[1][0].name()", "g.grad_fn.next_functions[1][0].next_functions[0][0].name()",
          "h.grad_fn.next_functions[1][0].name()", "k.grad_fn.next_functions[1][0].name()",
          "m.grad_fn.next_functions[1][0].name()", "torch.autograd.grad(m.sum(), t)"]),
    case("hinge-embedding-margin-sub",
         ["x = torch.tensor([2.5, -1.], requires_grad=True)",
          "r = F.hinge_embedding_loss(x, torch.tensor([-1., -1.]))"],
         ["r", "r.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0].next_functions[0][0].name()"]),
    case("sub-bool",
         ["b = torch.tensor([True, False])", "x = torch.tensor([[0.25], [0.5]], requires_grad=True)"],
         ["torch.ones(2) - True", "b - 1", "1 - b", "b - b", "torch.tensor([1, 2]) - False", "b.sub_(1)",
          "(x ** b).sum().backward()"]),
    case("multi-output-view-inplace",
         ["x = torch.ones(4, 2, requires_grad=True)", "r = x * 1", "y = torch.ones(4)",
          "with torch.no_grad():\n    s = r.split(1)\n    v = r[0]", "flags = (v.requires_grad, v.is_leaf)"],
         ["r.split(1)[0].fill_(0.5)", "r.chunk(2)[1].mul_(2)", "r.unbind(0)[2].add_(1)", "r.split([1, 3])[1].zero_()",
          "r.tensor_split(2)[0].zero_()", "torch.split(r, 2)[1][0].zero_()", "r.split(1)[0].detach().zero_()",
          "r.split(1)[0].__setitem__(0, 1.)", "y.split(1)[0].zero_()", "s[0].mul_(2)", "v.mul_(2)", "flags",
          "v.grad_fn"]),
    case("inplace-compare-recorded",
         ["x = torch.tensor([1.5, 1.5, -1.75], requires_grad=True)", "r = x * 1",
          "r.le_(torch.tensor([1.0, -2.25, 2.0], requires_grad=True))", "r.sum().backward()",
          "v = torch.tensor([1.5, 1.5, -1.75], dtype=torch.float64, requires_grad=True).ceil()",
          "w = v[...].le_(torch.tensor([1.0, -2.25, 2.0], dtype=torch.float64, requires_grad=True))"],
         ["r", "x.grad", "w", "v"]),
    case("small-fixes-2",
         ["b = torch.tensor([[False, True]])", "y = torch.tensor([1., -2.], requires_grad=True)", "r = 0.25 % y"],
         ["torch.sign(b)", "b.sgn()", "torch.tensor([[1., 2.]]).any(keepdim=True)", "r", "r.grad_fn.next_functions",
          "r.sum().backward()", "F.threshold(torch.tensor([float('nan'), -3., 2., -2.]), -2.0, 0.5)",
          "5 % torch.tensor([3, 4])", "torch.tensor([[9, 2], [1, 0]], dtype=torch.uint8).all(0)"]),
    case("shrink-nan",
         ["x = torch.tensor([float('nan'), 0.25, -0.75, 2.0])"],
         ["F.hardshrink(x)", "F.softshrink(x)", "torch.hardshrink(x, 0.3)"]),
    case("adjoint-low-dims",
         ["a = torch.ones((), requires_grad=True)", "b = torch.ones(3)", "m = torch.ones(2, 3, requires_grad=True)"],
         ["a.adjoint() is a", "torch.adjoint(a)", "b.adjoint()", "m.adjoint()"]),
    case("inplace-cast-and-wrapped-ints",
         ["a = torch.ones(2)", "a.add_(torch.ones(2, dtype=torch.float64))", "b = torch.ones(2, dtype=torch.int32)",
          "b += torch.ones(2, dtype=torch.int64)", "c = torch.ones(2, dtype=torch.float16)",
          "c.sub_(torch.ones(2, dtype=torch.float64) * 0.5)", "u = torch.tensor([9, 2], dtype=torch.uint8)",
          "s = torch.tensor(2., requires_grad=True)"],
         ["a", "b", "c", "u < -3", "u == 300", "u + 300", "torch.ones(2, dtype=torch.int64).add_(torch.ones(2))",
          "torch.ones(2, dtype=torch.bool).add_(torch.ones(2, dtype=torch.int64))",
          "torch.inner(s, torch.tensor([1., 2.]))", "torch.inner(torch.tensor([1., 2.]), torch.tensor(3.))"]),
]



CASES += [
    case("double-backward-sum-to",
         [GRAPH, "x = torch.tensor([0.5, 1.5], requires_grad=True)",
          "y = torch.tensor([[0.5, 1.5], [2., 3.]], requires_grad=True)",
          "z = torch.tensor([[0.5], [1.5]], requires_grad=True)", "s = torch.tensor(2., requires_grad=True)",
          "gx, = torch.autograd.grad((x.expand(3, 2) ** 2).sum(), [x], create_graph=True)",
          "gz, = torch.autograd.grad(((z * y) ** 2).sum(), [z], create_graph=True)",
          "gs, = torch.autograd.grad(((s * y) ** 2).sum(), [s], create_graph=True)",
          "gp, = torch.autograd.grad(x.expand(2, 2).prod(), [x], create_graph=True)"],
         ["graph(gx.grad_fn)", "graph(gz.grad_fn)", "graph(gs.grad_fn)", "graph(gp.grad_fn)", "gp",
          "graph(x.expand(2, 2).sum_to_size(2).grad_fn)", "graph(y.sum_to_size(2, 1).grad_fn)"]),
    case("reduction-backward-unsqueeze",
         [GRAPH, "x = torch.tensor([[-3.0, -2.5, 0.5], [1.0, -1.5, 2.0]], requires_grad=True)"]
         + [f"g{i}, = torch.autograd.grad(({e}).sum(), [x], create_graph=True)" for i, e in enumerate([
             "torch.norm(x)", "torch.norm(x, dim=(0, 1))", "torch.norm(x, dim=0)",
             "torch.linalg.vector_norm(x, 3, dim=[])", "torch.linalg.vector_norm(x, 3, dim=-1)",
             "torch.logsumexp(x, (0, 1))", "torch.std(x, 0)"])],
         [f"graph(g{i}.grad_fn)" for i in range(7)] + ["g0", "g4"]),
    case("backward-flip",
         [GRAPH, "x = torch.tensor([[0.25, -0.75, 2.5], [1., 2., 0.5]], requires_grad=True)",
          "g1, = torch.autograd.grad((x.cumsum(1) ** 2).sum(), [x], create_graph=True)",
          "g2, = torch.autograd.grad(x.logcumsumexp(1).sum(), [x], create_graph=True)",
          "g3, = torch.autograd.grad((x.prod(1) ** 2).sum(), [x], create_graph=True)"],
         ["graph(g1.grad_fn)", "graph(g2.grad_fn)", "graph(g3.grad_fn)", "g2"]),
    case("formula-scalar-operands",
         [GRAPH, "x = torch.tensor([[0.3], [-0.5], [0.25]], requires_grad=True)",
          "e = torch.tensor([[1.0], [0.25], [0.5]], requires_grad=True)",
          "w = torch.tensor([[-1.25], [0.0], [-1.75]], requires_grad=True)"]
         + [f"g{i}, = torch.autograd.grad(({e}).sum(), [x], create_graph=True)" for i, e in enumerate([
             "x.lerp(e, w)", "e / x", "2 ** x", "0 ** x", "x.reciprocal()", "torch.sinc(x)", "x.abs()",
             "torch.atan2(x, e)", "torch.atan2(e, x)"])],
         [f"graph(g{i}.grad_fn)" for i in range(9)] + ["g1", "g3", "g5"]),
    case("atan2-zero-grad",
         ["a = torch.tensor([0., 0., 1e-30, 1e-200], dtype=torch.float64, requires_grad=True)",
          "b = torch.tensor([0., 1., 1e-30, 0.], dtype=torch.float64, requires_grad=True)"],
         ["torch.autograd.grad(torch.atan2(a, b).sum(), [a, b])",
          "torch.autograd.grad(torch.atan2(a, b).sum(), [a, b], create_graph=True)"]),
]

CASES += [
    case("softmax-backward-data-nodes",
         [GRAPH, "x = torch.tensor([[0.3, 1.0], [-0.5, 2.0], [0.25, 0.1]], requires_grad=True)",
          "v = torch.tensor([[1.0, 2.0], [0.5, -1.0], [0.2, 0.3]], requires_grad=True)",
          "s = torch.tensor(0.7, requires_grad=True)"]
         + [f"g{i}, = torch.autograd.grad(({e} * v).sum(), [x], create_graph=True)\n"
            f"h{i} = torch.autograd.grad((g{i} * v).sum(), [x, v], create_graph=True)" for i, e in enumerate([
                "torch.softmax(x, 1)", "torch.log_softmax(x, 1)", "torch.softmax(x, 0).log()", "F.softmin(x, 0)"])]
         + ["g4, = torch.autograd.grad(torch.softmax(s, 0) * 3, [s], create_graph=True)"],
         [f"graph({t}{i}.grad_fn)" for i in range(4) for t in ("g", "h")[:1]]
         + [f"[graph(t.grad_fn) for t in h{i}]" for i in range(4)]
         + ["g0", "h0", "g1", "h1", "g4", "graph(g4.grad_fn)"]),
]

CASES += [
    case("argmax-keepdim-all",
         ["x = torch.tensor([[1., 3.], [2., 0.]])"],
         ["x.argmax(keepdim=True)", "x.argmin(keepdim=True)", "torch.argmax(x, keepdim=True).shape",
          "torch.tensor(2.).argmax(keepdim=True)", "torch.tensor([1., 2.]).argmin(dim=None, keepdim=True)"]),
    case("matmul-non-tensor",
         ["x = torch.ones(2)"],
         ["x @ 2.0", "-0.25 @ x", "x @ [1., 2.]", "[1., 2.] @ x", "x @ True", "None @ x"]),
    case("pow-bool",
         ["b = torch.tensor([True, False])", "i = torch.tensor([1, 2])", "f = torch.tensor([1., 2.])"],
         ["b ** b", "b ** True", "b ** False", "b ** 2", "b ** i", "i ** b", "f ** b", "b ** f", "True ** b",
          "2 ** b", "torch.pow(b, b)", "b.pow_(b)", "b ** torch.tensor(True)", "torch.tensor(True) ** b"]),
    case("pow-backward-formulas",
         [GRAPH, "x = torch.tensor([[0.0, 2.0], [-1.5, 0.5]], requires_grad=True)",
          "e = torch.tensor([[0.0, 1.25], [2.0, -1.5]], requires_grad=True)",
          "e64 = torch.tensor([[0.0, 1.25], [2.0, -1.5]], dtype=torch.float64, requires_grad=True)",
          "z = torch.tensor([1., float('nan')], requires_grad=True)"]
         + [f"g{i} = torch.autograd.grad(({e}).sum(), [x, e, e64], create_graph=True, allow_unused=True)"
            for i, e in enumerate(["x ** e", "x ** e.detach()", "x ** e64", "x ** 0", "x.detach() ** e"])],
         [f"[None if t is None else graph(t.grad_fn) for t in g{i}]" for i in range(5)]
         + ["g0", "g2", "g3", "torch.autograd.grad(((z * torch.tensor([float('nan'), 1.])) ** 0).sum(), [z])"]),
    case("reduction-backward-view-or-unsqueeze",
         [GRAPH, "x = torch.tensor([[-3.0, -2.5, 0.5], [1.0, -1.5, 2.0]], requires_grad=True)"]
         + [f"g{i}, = torch.autograd.grad({e}.sinh().sum(), [x], create_graph=True)" for i, e in enumerate([
             "torch.amax(x, (0, 1))", "torch.amin(x, -1)", "torch.mean(x, 0)", "torch.mean(x, (0, 1))",
             "torch.mean(x)"])],
         [f"graph(g{i}.grad_fn)" for i in range(5)]),
]

# the error, warning, printing and type groups live in their own table
# ... and the value, gradient, dtype and graph groups in theirs
CASES += [
    case("zeros-like-grad",
         ["x = torch.tensor([1.0, -2.0, 3.5], requires_grad=True)",
          "g = torch.tensor([float('inf'), float('nan'), 1.0], requires_grad=True)",
          "def zg(y):\n    r, = torch.autograd.grad(y, [x], g, create_graph=True)\n    return r, r.grad_fn",
          "s = x * 1", "s[:] = torch.tensor([1., 2., 3.])"],
         ["zg(x.sign())", "zg(x.sgn())", "zg(torch.div(x, 2.0, rounding_mode='floor'))", "zg((x * 1).zero_())",
          "zg((x * 1).fill_(2.0))", "zg((x * 1).fill_(torch.tensor(2.0)))",
          "zg((x * 1).copy_(torch.tensor([1., 2., 3.])))", "zg((x * 1).normal_())", "zg((x * 1).bernoulli_(0.5))",
          "zg(s)", "zg(x.clamp_min(0.))", "zg(x.clamp_max(0.))", "zg(x.clamp_min(torch.tensor(0.)))",
          "zg(x.clamp_max(torch.tensor([0., 1., 2.])))"]),
    case("sign-heaviside-nan",
         ["x = torch.tensor([[0.0, 1.5, float('nan'), -1.0, -0.0]], dtype=torch.float64)"],
         ["x.sign()", "x[...].sgn()", "torch.heaviside(x, torch.tensor([2.0, 3., 4., 5., 6.], dtype=torch.float64))",
          "x.float().sign()", "x.half().heaviside(torch.tensor(-0.0, dtype=torch.float16))"]),
    case("reduction-dim-none-keepdim",
         ["x = torch.tensor([[1., 2., float('nan')], [0.5, 1.5, 2.5]], requires_grad=True)"],
         ["x.nansum(keepdim=True)", "torch.nansum(x, keepdim=True)", "x.sum(dim=None, keepdim=True)",
          "torch.sum(x, None)", "x.sum()", "x.mean(dim=None, keepdim=True)", "x.mean(None)", "x.mean()"]),
    case("scatter-0d",
         ["s = torch.tensor(10.5, requires_grad=True)", "v = torch.tensor(2.0, requires_grad=True)",
          "y = s.scatter_add(0, torch.tensor([0]), v)", "y.backward()"],
         ["torch.tensor(10.5).scatter_add(0, torch.tensor([0, 0]), torch.tensor([-2.0, 1.]))",
          "torch.tensor(10.5).scatter(0, torch.tensor([0, 0]), torch.tensor([-2.0, 1.]))",
          "torch.tensor(10.5).scatter(0, torch.tensor([0]), 3.0, reduce='add')",
          "torch.tensor(10.5).scatter(0, torch.tensor([0, 0]), 3.0, reduce='multiply')",
          "torch.tensor(10.5).scatter(0, torch.tensor(0), 3.0)",
          "torch.tensor([1., 2.]).scatter(0, torch.tensor([0]), torch.tensor(-2.0))",
          "torch.tensor([1., 2.]).scatter_add(0, torch.tensor([0, 1]), torch.tensor(-2.0))",
          "y", "s.grad", "v.grad"]),
    case("copy-into-integer",
         ["v = torch.tensor([[1.5], [-2.0]], requires_grad=True)", "a = torch.tensor([[1], [2]])", "a.copy_(v)",
          "b = torch.tensor([[1], [2]])", "b[:] = v", "c = torch.tensor([[1], [2]])", "c[0] = v[0]",
          "d = torch.tensor([[1], [2]])", "d[0].copy_(v[0])", "e = torch.tensor([[1], [2]])", "e.fill_(v[0, 0])"],
         ["(a, a.requires_grad, a.is_leaf)", "(b, b.requires_grad)", "(c, c.requires_grad)", "(d, d.requires_grad)",
          "e"]),
]

CASES += [
    case("inplace-original-self-clone",
         [GRAPH, "x = torch.tensor([1.0, -2.0, 3.5], requires_grad=True)",
          "w = torch.tensor([0.5, 2.0, -1.0], requires_grad=True)",
          "def gg(f):\n    r = x * 1\n    f(r)\n    gs = torch.autograd.grad((r * r).sum(), [x, w], create_graph=True, "
          "allow_unused=True)\n    return [None if g is None else graph(g.grad_fn) for g in gs]"],
         ["gg(lambda r: r.abs_())", "gg(lambda r: r.mul_(w))", "gg(lambda r: r.exp_())", "gg(lambda r: r.pow_(2))",
          "gg(lambda r: r[1:].abs_())", "gg(lambda r: r.sin_())", "gg(lambda r: r.atan2_(w))",
          "gg(lambda r: r[0].mul_(w[1]))"]),
    case("view-version-regenerates",
         ["x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)",
          "a = x[:, 1:]", "b = x.mT", "c = x[0]",
          "with torch.no_grad():\n    a.unsqueeze(0).mul_(2)",
          "y = x * 1", "d = y[0]", "e = d[1:]", "y.detach().zero_()",
          "with torch.no_grad():\n    f = x[1]",
          "s = x.split(1)[0]", "t = s[0]", "with torch.no_grad():\n    x.mul_(2)"],
         ["a.grad_fn.name()", "b.grad_fn.name()", "c.grad_fn.next_functions", "d.grad_fn.name()", "e",
          "f.grad_fn", "f", "s.grad_fn", "t.grad_fn", "t"]),
    case("evenly-distribute-backward",
         [GRAPH, "x = torch.tensor([1., 3., 3., 2.], requires_grad=True)",
          "n = torch.tensor([1., float('nan'), 2., float('nan')], requires_grad=True)",
          "g = torch.tensor(float('inf'), requires_grad=True)"]
         + [f"{v}{f}, = torch.autograd.grad({v}.{f}(), [{v}], g, create_graph=True)"
            for v in "xn" for f in ("max", "min", "median", "nanmedian")],
         [f"({v}{f}, graph({v}{f}.grad_fn))" for v in "xn" for f in ("max", "min", "median", "nanmedian")]),
    case("ravel-contiguous-view",
         [GRAPH, "x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)"],
         ["graph(x.t().ravel().grad_fn)", "graph(x.ravel().grad_fn)", "graph(x[:, :1].ravel().grad_fn)"]),
]

CASES += [
    case("layer-norm-backward-node",
         [GRAPH, "x = torch.tensor([[-1.5, -1.75, 0.25], [-3.0, 0.5, 2.0]], requires_grad=True)",
          "w = torch.tensor([0.5, 2.0, -1.0], requires_grad=True)",
          "b = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)",
          "v = torch.tensor([[1.0, 2.0, -0.5], [0.3, 0.2, 0.1]], requires_grad=True)",
          "def ln(*args):\n    y = F.layer_norm(x, (3,), *args)\n    ins = [x] + [a for a in args if a is not None]\n"
          "    gs = torch.autograd.grad((y * v).sum(), ins + [v], create_graph=True)\n"
          "    hs = torch.autograd.grad((gs[0] * v).sum(), [x, v] + ins[1:], create_graph=True, allow_unused=True)\n"
          "    return gs, [graph(g.grad_fn) for g in gs], hs, [None if h is None else graph(h.grad_fn) for h in hs]",
          "s = torch.tensor([[-0.25, -3.0, -2.25], [-2.75, 2.5, -2.0], [1.5, -2.0, 0.0]], requires_grad=True)",
          "F.layer_norm(s, (3,), eps=0.25).sum().backward()"],
         ["ln()", "ln(w)", "ln(w, b)", "ln(None, b)", "s.grad", "F.layer_norm(s, (3,), w, b, eps=0.1)",
          "F.layer_norm(s, (3,), None, b)", "F.layer_norm(s.double(), (3,), w.double())"]),
]

CASES += [
    case("matrix-exp-backward-copy-slices",
         [GRAPH, "x = torch.tensor([[[0.75, 3.0], [0.0, -2.0]], [[0.5, 0.25], [-1.0, 0.1]]], requires_grad=True)",
          "torch.linalg.matrix_exp(x).sum().backward(create_graph=True)",
          "g, = torch.autograd.grad((torch.matrix_exp(x) ** 2).sum(), x, create_graph=True)",
          "h, = torch.autograd.grad(g.sum(), x)"],
         ["x.grad", "graph(x.grad.grad_fn)", "g", "graph(g.grad_fn)", "h"]),
    case("inner-is-tensordot",
         [GRAPH, "a1 = torch.tensor([1., 2.], requires_grad=True)", "b1 = torch.tensor([3., 4.], requires_grad=True)",
          "a2 = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)",
          "b2 = torch.tensor([[3., 4.], [5., 6.]], requires_grad=True)"],
         ["graph(torch.inner(a1, b1).grad_fn)", "graph(torch.inner(a2, b1).grad_fn)",
          "graph(torch.inner(a1, b2).grad_fn)", "graph(torch.inner(a2, b2).grad_fn)",
          "graph(torch.inner(a2, b2.detach()).grad_fn)", "torch.inner(a2, b2)", "torch.inner(a1, b1[0])",
          "torch.inner(torch.ones(2), torch.ones(3))", "torch.inner(torch.ones(2), torch.ones(2, dtype=torch.float64))"]),
]

CASES += [
    case("loss-backward-nodes",
         [GRAPH, "x = torch.tensor([[0.3, -1.2, 2.5], [1.0, 0.2, -0.7]], requires_grad=True)",
          "t = torch.tensor([[0.1, -1.0, 0.5], [1.5, 0.2, 0.0]], requires_grad=True)",
          "c = torch.tensor([2, 0])", "ci = torch.tensor([2, -100])",
          "def gg(y):\n    gs = torch.autograd.grad(y.sum(), [x, t], create_graph=True, allow_unused=True)\n"
          "    hs = torch.autograd.grad((gs[0] * x).sum(), [x, t], create_graph=True, allow_unused=True)\n"
          "    return [None if g is None else (g, graph(g.grad_fn)) for g in gs], "
          "[None if h is None else (h, None if h.grad_fn is None else graph(h.grad_fn)) for h in hs]"],
         [f"gg(F.{f}(x, {a}, reduction='{r}'{k}))" for f, a, k in [
             ("mse_loss", "t", ""), ("smooth_l1_loss", "t", ", beta=0.8"), ("huber_loss", "t", ", delta=0.8"),
             ("nll_loss", "c", ""), ("nll_loss", "ci", "")] for r in ("mean", "sum", "none")]
         + ["gg(F.cross_entropy(x, c))", "gg(F.nll_loss(x, ci, weight=torch.tensor([1., 2., 3.])))"]),
]

CASES += [
    case("setitem-copy-slices-create-graph",
         [GRAPH, "x = torch.tensor([2.5, -3.0, 0.25, 1.0], requires_grad=True)",
          "w = torch.tensor([0.5, 2.0], requires_grad=True)", "s = torch.tensor(1.5, requires_grad=True)",
          "g = torch.tensor([1., 2., 3., 4.], requires_grad=True)",
          "def gg(f):\n    r = x * 1\n    f(r)\n    gs = torch.autograd.grad(r, [x, w, s], g, create_graph=True, "
          "allow_unused=True)\n    return [None if t is None else (t, None if t.grad_fn is None else graph(t.grad_fn)) "
          "for t in gs]",
          "y = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)", "z = y * 1",
          "z[0] = torch.tensor([5., 6.], requires_grad=True) * y[1]", "z[:, 1] += y[0]",
          "h, = torch.autograd.grad((z ** 2).sum(), y, create_graph=True)"],
         ["gg(lambda r: r.__setitem__(slice(1, 3), w))", "gg(lambda r: r.__setitem__(-1, s))",
          "gg(lambda r: r.__setitem__(0, 3.0))", "gg(lambda r: r.__setitem__(slice(0, 2), s))",
          "gg(lambda r: r.__setitem__(slice(0, 4, 2), w * 2))", "h", "graph(h.grad_fn)",
          "torch.autograd.grad(h.sum(), y)"]),
]

CASES += [
    case("clamp-nan-bound",
         ["x3 = torch.tensor([[2, -3], [2, 0]], dtype=torch.int32)",
          "x1 = torch.tensor([-1.0, -2.0, float('nan'), 0.0], requires_grad=True)"],
         ["x3.clamp(min=float('nan'))", "x1.clip(max=float('nan'))", "x1.clamp(float('nan'), 1.)",
          "x1.clamp(0., max=-0.)", "torch.autograd.grad(x1.clamp(min=float('nan')).sum(), x1)"]),
]

CASES += [
    case("sum-to-size-int64",
         ["u = torch.tensor([[[3, 2]], [[1, 1]]], dtype=torch.uint8)", "b = torch.tensor([[True, False], [True, True]])",
          "h = torch.tensor([[3., 2.], [1., 1.]], dtype=torch.float16)"],
         ["u.sum_to_size(2)", "u.sum_to_size(1, 2)", "u[:1].sum_to_size(1, 1, 2)", "b.sum_to_size(2)",
          "b.sum_to_size(2, 2)", "h.sum_to_size(1, 2)", "torch.tensor([1, 2], dtype=torch.int8).sum_to_size(1)"]),
]

CASES += [
    case("aminmax-keepdim-everything",
         ["x = torch.tensor([[0., -0., 2.], [1., -3., 5.]], requires_grad=True)",
          "v = torch.tensor([0.5, 0.0, 1.0], dtype=torch.float64)", "r = torch.aminmax(x, keepdim=True)"],
         ["r", "torch.aminmax(v, keepdim=True)", "torch.aminmax(torch.tensor(2.), keepdim=True)",
          "torch.autograd.grad(r.max.sum(), x)"]),
]

# then every case file, tools/exact_cases_*.py, in the order of their names
for _path in sorted(Path(__file__).parent.glob("exact_cases_*.py")):
    CASES += importlib.import_module(_path.stem).CASES
