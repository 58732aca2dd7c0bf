"""Regression cases of session 34's float32 matrix-product orders (issue 10: MKL's order of additions,
src/agrad/ops/_gemm_order.py; the probe is tools/gemm_order.py).

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``. Values
are shown with .tolist() (every bit of each float32).
"""

from __future__ import annotations

from exact_case_form import GRAPH, case


def cases(graph: str) -> list[dict]:
    del graph
    r = "torch.manual_seed(3)"
    return [
        case("gemm-order-linear-forward",  # x @ w.t() (lanes, gemv), + bias; x @ w (sequential, FMA chains)
             [r, "S = [(16, 8, 1), (16, 4, 8), (20, 8, 1), (16, 8, 2), (1, 8, 1), (5, 16, 3), (7, 24, 8), "
                 "(6, 20, 12), (3, 40, 16), (2, 8, 8), (13, 30, 20)]",
              "P = [(torch.randn(m, k), torch.randn(n, k), torch.randn(n)) for m, k, n in S]"],
             ["[torch.nn.functional.linear(x, w, b).tolist() for x, w, b in P]",
              "[(x @ w.t()).tolist() for x, w, b in P]",
              "[(x @ w.t().contiguous()).tolist() for x, w, b in P]",
              "[torch.addmm(b, x, w.t().contiguous()).tolist() for x, w, b in P]"]),
        case("gemm-order-linear-backward",  # grad @ W (row-major), grad.t() @ x (transposed a)
             [r, "torch.manual_seed(5)", "lin = torch.nn.Linear(8, 3)", "x = torch.randn(16, 8, requires_grad=True)",
              "lin2 = torch.nn.Linear(3, 1)", "y = lin2(torch.tanh(lin(x))).pow(2).sum()", "y.backward()"],
             ["y.item()", "lin.weight.grad.tolist()", "lin.bias.grad.tolist()", "lin2.weight.grad.tolist()",
              "x.grad.tolist()"]),
        case("gemm-order-long-k",  # K-blocks: one chain up to 192, two halves to 384, then blocks of 192
             [r, "A = torch.randn(4, 400)", "B = torch.randn(400, 13)"],
             ["(A[:, :150] @ B[:150]).tolist()", "(A[:, :256] @ B[:256]).tolist()", "(A @ B).tolist()"]),
        case("gemm-order-mv-dot",  # sgemv's head + 4 lanes; sdot's accumulators; a strided dot sequential
             [r, "M = torch.randn(8, 45)", "v = torch.randn(90)"],
             ["[torch.mv(M[:, :k].contiguous(), v[:k]).tolist() for k in (3, 5, 8, 13, 45)]",
              "[torch.dot(M[0, :k], v[:k]).item() for k in (3, 4, 6, 9, 12, 17, 28, 33, 44)]",
              "torch.dot(v[::2], M[1]).item()", "(M[0] @ v[:45]).item()"]),
        case("gemm-order-short-rows-transposed",  # x @ w.t() with k below a row's alignment peel (n 4-11)
             [r, "x = torch.randn(6, 3)", "w = torch.randn(5, 3)", "x2 = torch.randn(5, 2)", "w2 = torch.randn(8, 2)",
              "x7 = torch.randn(9, 7)", "w7 = torch.randn(4, 7)"],
             ["(x @ w.t()).tolist()", "(x2 @ w2.t()).tolist()", "torch.nn.functional.linear(x7, w7).tolist()",
              "(x7[1:] @ w7.t()).tolist()"]),
        case("gemm-order-bmm",  # PyTorch's own loop below 400 multiply-adds, MKL's per matrix above
             [r, "a = torch.randn(3, 5, 7)", "b = torch.randn(3, 7, 4)", "c = torch.randn(2, 6, 40)",
              "d = torch.randn(2, 40, 16)"],
             ["torch.bmm(a, b).tolist()", "torch.bmm(c, d).tolist()", "(c @ d[0]).tolist()",
              "torch.bmm(c, d.transpose(1, 2).contiguous().transpose(1, 2)).tolist()"]),
    ]


CASES = cases(GRAPH)
