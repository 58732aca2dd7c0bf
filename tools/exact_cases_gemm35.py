"""Regression cases of session 35's gemm work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``. Values
are shown with .tolist() (every bit of each float32).
"""

from __future__ import annotations

from exact_case_form import GRAPH, case


def cases(graph: str) -> list[dict]:
    del graph
    r = "torch.manual_seed(7)"
    return [
        case("gemm-order-odd-k-halves",  # k 193-384: two chains of k // 2, an odd k's last product added after
             [r, "A = torch.randn(14, 301)", "B = torch.randn(301, 13)", "W = torch.randn(13, 301)",
              "c = torch.randn(13)"],
             ["(A @ B).tolist()", "(A @ W.t()).tolist()", "(A.t().contiguous().t() @ B).tolist()",
              "torch.addmm(c, A, B).tolist()", "(A[:, :197] @ B[:197]).tolist()"]),
        case("gemm-order-long-k-short-rows",  # below 12 rows the m % 4 last rows' kernel is not K-blocked
             [r, "A = torch.randn(7, 250)", "B = torch.randn(250, 16)", "W = torch.randn(16, 250)",
              "c = torch.randn(16)"],
             ["(A @ B).tolist()", "(A @ W.t()).tolist()", "(A[:3] @ B).tolist()", "torch.addmm(c, A[:5], B).tolist()",
              "(A.t().contiguous().t()[:6] @ B).tolist()"]),
        case("gemm-order-peeled-columns",  # b row-major, n 5-11: a C row off a 16-byte boundary peels columns
             [r, "A = torch.randn(9, 45)", "B = torch.randn(45, 11)", "c = torch.randn(11)", "T = torch.randn(20, 7)"],
             ["[(A @ B[:, :n]).tolist() for n in (5, 6, 7, 9, 10, 11)]", "(A[:, :13] @ B[:13, :7]).tolist()",
              "torch.addmm(c[:6], A, B[:, :6]).tolist()", "(A.t().contiguous().t() @ B[:, :9]).tolist()",
              "(T.t() @ T).tolist()", "(A[:7, :40] @ torch.randn(40, 13)).tolist()",
              "(A[:7] @ torch.randn(15, 45).t()).tolist()"]),
        case("gemm-order-gemv-last-rows",  # sgemv's m % 4 last rows: a head of 4, 8 lanes (4 for the second)
             [r, "M = torch.randn(11, 61)", "v = torch.randn(61)", "b = torch.randn(11)"],
             ["[torch.mv(M[:m, :k].contiguous(), v[:k]).tolist() for m, k in ((5, 13), (7, 40), (10, 61), (3, 20))]",
              "torch.mv(M[:1], v).tolist()", "(M @ v).tolist()", "torch.nn.functional.linear(M[:7], v[None], b[:1]).tolist()",
              "(M[:6] @ v[:, None]).tolist()"]),
        case("gemm-order-one-row-and-short-k",  # x @ w.t() of one row: w's rows through sgemv; from 4 rows
             # with k <= 4 (or k, n <= 16) the FMA kernel takes the m % 4 last rows too
             [r, "x = torch.randn(1, 40)", "W = torch.randn(21, 40)", "c = torch.randn(21)", "A = torch.randn(7, 16)",
              "B = torch.randn(16, 20)"],
             ["(x @ W.t()).tolist()", "torch.nn.functional.linear(x, W, c).tolist()",
              "(x[:, :9] @ W[:5, :9].contiguous().t()).tolist()",
              "(A[:5, :5] @ B[:5, :12]).tolist()", "(A @ B[:, :13]).tolist()", "(A[:6, :4] @ B[:4]).tolist()",
              "(A[:6] @ B[:, :17]).tolist()", "torch.addmm(c[:13], A[:, :9], B[:9, :13]).tolist()"]),
        case("gemm-order-addmm-alpha",  # alpha scales a (sequential), b (FMA, gemv of a transposed a), or the sum
             [r, "A = torch.randn(9, 30)", "B = torch.randn(30, 14)", "W = torch.randn(7, 30)", "c = torch.randn(14)"],
             ["torch.addmm(c, A, B, alpha=0.7, beta=1.3).tolist()", "torch.addmm(c[:6], A, B[:, :6], alpha=-2.5).tolist()",
              "torch.addmm(c[:7], A, W.t(), alpha=0.3, beta=0.5).tolist()", "torch.addmm(c[:1], A, B[:, :1].contiguous(), alpha=1.7).tolist()",
              "torch.addmm(c[:1], A.t().contiguous().t(), B[:, :1], alpha=1.7).tolist()",
              "torch.addmm(c[:7], A[:1], W.t(), alpha=-0.7, beta=0).tolist()", "torch.addmm(c, A, B, alpha=2, beta=0).tolist()"]),
        case("gemm-order-addmv",  # addmv: sgemv's order, alpha on the sum (on vec for a transposed mat), + beta * y
             [r, "M = torch.randn(11, 37)", "v = torch.randn(37)", "y = torch.randn(11)", "col = torch.randn(37, 1)"],
             ["torch.addmv(y, M, v).tolist()", "torch.addmv(y, M, v, alpha=0.7, beta=1.3).tolist()",
              "torch.addmv(y[:6], M[:6], v, alpha=-2.5, beta=0).tolist()",
              "torch.addmv(y, M.t().contiguous().t(), v, alpha=2.0, beta=0.5).tolist()",
              "torch.addmv(y[:1], col.t(), v, alpha=0.7).tolist()", "torch.addmv(y[:1], M[:1], v, alpha=0.7).tolist()"]),
        case("gemm-order-baddbmm-addbmm",  # baddbmm: own loop below 400 (self * beta + alpha * sum), batched sgemm
             # above (a matrix's C rows at their offset in the batch: peeled columns); addbmm: an addmm_ per batch
             [r, "a = torch.randn(3, 6, 5)", "b = torch.randn(3, 5, 7)", "c = torch.randn(3, 9, 40)",
              "d = torch.randn(3, 40, 7)", "s = torch.randn(3, 9, 7)"],
             ["torch.baddbmm(s[:, :6], a, b, alpha=0.7, beta=1.3).tolist()", "torch.baddbmm(s, c, d).tolist()",
              "torch.baddbmm(s, c, d, alpha=-2.5, beta=0.5).tolist()", "torch.baddbmm(s, c, d, alpha=2.0, beta=0).tolist()",
              "torch.bmm(c, d).tolist()", "torch.addbmm(s[0], c, d, alpha=0.7, beta=1.3).tolist()",
              "torch.addbmm(s[0], c, d).tolist()"]),
        case("gemm-order-float64-row-major",  # dgemm, b row-major, n 2-11: sequential, a C row off 16 bytes peels
             [r, "A = torch.randn(9, 45, dtype=torch.float64)", "B = torch.randn(45, 11, dtype=torch.float64)"],
             ["[(A @ B[:, :n]).tolist() for n in (2, 3, 5, 7, 11)]", "(A.t().contiguous().t() @ B[:, :9]).tolist()",
              "(A[:1] @ B[:, :7]).tolist()"]),
    ]


CASES = cases(GRAPH)
