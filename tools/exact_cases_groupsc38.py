"""Regression cases of session 38's groupsc38 work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    del graph
    return [
        case("vdot-real-is-dot",  # (gc38 numeric:vdot) a real vdot is ATen's at::dot: MKL's sdot order, not numpy's
             ["w = torch.kaiser_window(4, False)",
              "b = torch.tensor([2.75, -1.5, 1.5, -0.25])",
              "g = torch.Generator().manual_seed(381)",
              "u, v = torch.randn(2, 40, generator=g).unbind(0)",
              "x = torch.ones(3, requires_grad=True)",
              "r = torch.vdot(x, torch.tensor([1.0, 2.0, 3.0]))"],
             ["torch.vdot(w, b).item()", "torch.dot(w, b).item()",
              "[torch.vdot(u[:n], v[:n]).item() for n in (5, 8, 13, 32, 37)]", "r", "r.grad_fn.name()"]),
        case("dot-float64-mkl-ddot-order",  # MKL's ddot: 2-lane blocks over 4 accumulators, the last n // 2 % 4
             # blocks into the first; a second vector off a 16-byte boundary peels its first product; strided: 2 lanes
             ["g = torch.Generator().manual_seed(382)",
              "a = torch.randn(80, generator=g, dtype=torch.float64) * torch.randn(80, generator=g, dtype=torch.float64).exp()",
              "b = torch.randn(80, generator=g, dtype=torch.float64)"],
             ["[torch.dot(a[:n], b[:n]).item() for n in range(2, 40)]",
              "[torch.dot(a[:n], b[1:n + 1]).item() for n in range(2, 30)]",
              "[torch.vdot(a[1:n + 1], b[:n]).item() for n in range(2, 30)]",
              "[torch.dot(a[::2][:n], b[:n]).item() for n in range(2, 30)]",
              "[torch.dot(a[:n], b[:1].expand(n)).item() for n in (2, 3, 9, 17)]",
              "[(a[:n] @ b[:n]).item() for n in (7, 21, 39)]",
              "torch.inner(a[:23], b[2:25]).item()"]),
    ]
