"""Regression cases of session 38's groupsc38 work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
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
    case("linspace-fma-exact-zero-sign",  # (gc38 repr:histogram) the second half's end - step * k, fused, is
         # -0.0 at k = 0 for a -0.0 end (an exact zero's IEEE sign; was +0.0), so histogram's last edge too
         ["x = torch.tensor([-0.0, -1.5], dtype=torch.float64, requires_grad=True)",
          "h = torch.histogram(x.expand(2, 2), 1)",
          "h3 = torch.histogram(x.float(), 3)",
          "y = torch.tensor([[-0.0], [-2.0]])"],
         ["h", "h3.bin_edges", "torch.histc(y, 4, min=-2.0, max=-0.0)",
          "torch.linspace(-1.5, -0.0, 2, dtype=torch.float64)", "torch.linspace(3.0, -0.0, 5)",
          "torch.linspace(-0.0, -0.0, 3)", "torch.linspace(0.0, -0.0, 4, dtype=torch.float64)",
          "torch.linspace(-2.0, -0.0, 9, dtype=torch.float16)",
          "torch.logspace(-1.0, -0.0, 3, dtype=torch.float64)",
          "torch.arange(-1.5, 0.25, 0.5, dtype=torch.float64)"]),
    case("sdot-float32-alignment",  # MKL's sdot by the vectors' 16-byte offsets: y's first products before its
         # boundary summed first; x on the same offset: lanes after; on another: one vector, lane 0 sequential
         ["g = torch.Generator().manual_seed(383)",
          "u, v = torch.randn(2, 37, generator=g).unbind(0)",
          "a = torch.randn(90, generator=g)",
          "m = torch.randn(5, 7, generator=g)"],
         ["[torch.vdot(u[:n], v[:n]).item() for n in (2, 5, 8, 13, 32, 37)]",
          "[[torch.dot(a[i:i + n], a[40 + j:40 + j + n]).item() for i in range(4) for j in range(4)]"
          " for n in (3, 6, 11, 29, 45)]",
          "[(m[i] @ m[j]).item() for i in range(5) for j in range(5)]",
          "torch.inner(a[1:50], a[41:90]).item()"]),
]
