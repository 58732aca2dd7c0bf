"""Regression cases of helper "alias43" (session 43): ``out=`` that is one of the op's own inputs, and
out= checks of the matrix products.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    case("out-alias-1x1-product-zeroed",  # (value:linear, dt42e) a 1 x 1 x 1 float64 product into its own
         # operand reads BLAS's zeroed out as every other size does (F.linear without a bias is matmul_out)
         ["o1 = torch.tensor([[-2.25]], dtype=torch.float64)", "F.linear(o1, torch.tensor([[2.0]], dtype=torch.float64), out=o1)",
          "o2 = torch.tensor([[-1.5]], dtype=torch.float64)", "torch.mm(o2, torch.tensor([[2.0]], dtype=torch.float64), out=o2)",
          "o3 = torch.tensor([-1.5], dtype=torch.float64)", "torch.matmul(o3, torch.tensor([[3.0]], dtype=torch.float64), out=o3)",
          "o4 = torch.tensor([[0.5, 1.0], [2.0, -1.0]], dtype=torch.float64).reshape(1, 2, 2).expand(2, 2, 2).contiguous()",
          "F.linear(o4, torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64), out=o4)"],
         ["o1", "o2", "o3", "o4"]),
    case("mv-out-kept-as-addmv-self",  # mv_out hands addmv an out of <= 1 dim and n or 1 elements as its
         # self: addmv's checks name its dims and size (a 0-dim one: size(0)'s IndexError)
         ["def f(o, m, v):\n    try:\n        torch.mv(m, v, out=o)\n    except Exception as e:\n        return type(e).__name__ + ': ' + str(e)",
          "e1 = f(torch.zeros(1), torch.ones(2, 3), torch.ones(2))",
          "e2 = f(torch.zeros(()), torch.ones(2, 3), torch.ones(2))",
          "e3 = f(torch.zeros(()), torch.ones(2, 3), torch.ones(2, 2))",
          "e4 = f(torch.zeros(5), torch.ones(2, 3), torch.ones(2))"],
         ["e1", "e2", "e3", "e4"]),
]
CASES += [
    case("out-alias-int-products-aten-loops",  # (alias42 left) integer mm/mv into an operand: ATen's own
         # gemm/gemv loops (gemm_core_'s notrans zeroes C first, transa reads row by row as written; gemv 'n'
         # of a column-major matrix reads x[j] after earlier columns wrote it); int64 mm reads first (k <= 8)
         ["a1 = torch.tensor([[1, -2], [3, 4]], dtype=torch.int32)", "torch.mm(a1, torch.tensor([[2, 1], [0, -1]], dtype=torch.int32), out=a1)",
          "a2 = torch.tensor([[1, -2, 3]], dtype=torch.int16)", "torch.mm(a2, torch.arange(9, dtype=torch.int16).reshape(3, 3).t(), out=a2)",
          "b3 = torch.tensor([[1], [2], [-1]], dtype=torch.uint8)", "torch.mm(torch.arange(9, dtype=torch.uint8).reshape(3, 3), b3, out=b3)",
          "a4 = torch.tensor([[1, -2], [3, 4]])", "torch.mm(a4, torch.tensor([[2, 1], [0, -1]]), out=a4)",
          "v5 = torch.tensor([1, -2, 3])", "torch.mv(torch.arange(9).reshape(3, 3).t(), v5, out=v5)",
          "v6 = torch.tensor([1, -2, 3], dtype=torch.int32)", "torch.mv(torch.arange(9, dtype=torch.int32).reshape(3, 3), v6, out=v6)",
          "v7 = torch.tensor([2, -1, 3, 5])[::2]", "torch.mv(torch.arange(8).reshape(2, 4)[:, ::2], v7, out=v7)"],
         ["a1", "a2", "b3", "a4", "v5", "v6", "v7"]),
]
CASES += [
    case("fallback-node-edges-inputs-then-outs",  # (alias42 left) autograd's not-implemented fallback: one
         # NotImplemented node whose edges are every tensor argument that requires grad -- the inputs, then
         # the outs with their histories -- and every floating result takes it
         ["def edges(t):\n    return [n and n.name() for n, _ in t.grad_fn.next_functions]",
          "x1 = torch.tensor([1., 2., 3., 2.5], requires_grad=True)", "h1 = torch.ones(3, requires_grad=True) * 2",
          "b1 = torch.ones(4, requires_grad=True) * 3", "r1 = torch.histogram(x1, 3, out=(h1, b1))",
          "h2 = torch.ones(3, requires_grad=True) * 2", "r2 = torch.histogram(torch.tensor([1., 2., 3.]), 3, out=(h2, torch.zeros(4)))",
          "A3 = torch.tensor([[4., 1.], [1., 3.]], requires_grad=True)", "L3 = torch.ones(2, 2, requires_grad=True) * 1",
          "r3 = torch.linalg.ldl_factor(A3, out=(L3, torch.zeros(2, dtype=torch.int32)))",
          "o4 = torch.ones(3, 2, requires_grad=True) * 2", "r4 = torch.t_copy(torch.ones(2, 3, requires_grad=True), out=o4)",
          "e1, e1b, e2, e2b, e3, e4 = edges(h1), edges(b1), edges(h2), edges(r2[1]), edges(L3), edges(o4)"],
         ["e1", "e1b", "e2", "e2b", "e3", "e4", "h1.grad_fn is b1.grad_fn", "r2[1].grad_fn is h2.grad_fn"]),
]
CASES += [
    case("apply-map-checked-convert",  # (raises-only-torch:map2_, seed 41904773) the function's result stored
         # by checked_convert: an int past an integer dtype's range refused (an unsigned one lets a negative of
         # at most its max wrap), a float outside it (NaN, inf too) refused, floating dtypes never
         ["def f(dt, v):\n    x = torch.zeros(1, dtype=dt)\n    try:\n        x.apply_(lambda a: v)\n    except RuntimeError as e:\n        return str(e)\n    return x.tolist()",
          "r = [f(torch.uint8, 300), f(torch.uint8, -1), f(torch.uint8, -129), f(torch.uint8, -256), f(torch.int8, -129),"
          " f(torch.int16, 70000.0), f(torch.int32, 70000.0), f(torch.uint8, -0.5), f(torch.int64, float('nan')),"
          " f(torch.int64, 2 ** 63 - 1), f(torch.float16, 1e300), f(torch.bool, 3.7)]",
          "x2 = torch.tensor([4, 7, 5], dtype=torch.uint8)", "v2 = x2.expand(2, 3)",
          "try:\n    v2.map2_(v2, torch.tensor([[8, 0, 5], [9, 1, 3]], dtype=torch.uint8), lambda a, b, c: a + b * c)\nexcept RuntimeError as e:\n    e2 = str(e)"],
         ["r", "e2", "x2"]),
]
CASES += [
    case("inplace-argument-overlap-loop-order",  # (value:pow_, dt43b) an elementwise in-place op reading an
         # argument that shares self's memory in a layout c10 finds too hard (no error): TensorIterator's loop
         # reads it as the earlier writes left it -- element by element (basic_loop, the vectorized loop's
         # tail), in chunks of two AVX2 vectors, a stride-0 operand once per row
         ["b1 = (torch.arange(8.) * 0.37 - 1.1).reshape(4, 2)", "b1.pow_(b1.view(4, 2)[:, :1])",
          "b2 = (torch.arange(40.) * 0.37 - 1.1).reshape(2, 20)", "b2.add_(b2.view(2, 20)[:, 3:4])",
          "b3 = (torch.arange(12, dtype=torch.float64) * 0.37 - 1.1).reshape(3, 4)", "b3.mul_(b3.view(3, 4)[:, ::2].repeat(1, 2))",
          "b4 = (torch.arange(12, dtype=torch.float64) * 0.37 - 1.1).reshape(2, 6)", "b4.sub_(b4[:, ::2].repeat(1, 2))",
          "b5 = (torch.arange(16.) * 0.5 - 3).reshape(4, 4)", "b5.atan2_(b5.t())"],
         ["b1", "b2", "b3", "b4", "b5"]),
]
