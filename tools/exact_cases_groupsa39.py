"""Regression cases of session 39's groupsa39 work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    del graph
    return CASES


CASES = [
    # (dt38d numpy:@) dot, vdot and linalg.cross have ZeroTensor kernels of their own: sgn's zero gradient
    # @ a vector (dot), vdot, inner, a full tensordot and cross are ZeroTensors (their .numpy() raises);
    # mm, mv, bmm and sum materialise it
    case("zero-tensor-dot-vdot-cross-kernels", [
        "x = torch.tensor([0.0, 3.0], requires_grad=True)",
        "z = torch.autograd.grad(x.sgn().sum(), [x], create_graph=True)[0]",
        "w = torch.ones(2, 2, requires_grad=True)",
        "Z = torch.autograd.grad(w.sgn().sum(), [w])[0]",
        "c = torch.ones(3, requires_grad=True)",
        "C = torch.autograd.grad(c.sgn().sum(), [c])[0]",
        "t = torch.tensor([2.75, -2.0])",
        "def zt(f):\n    r = f()\n    return (r._is_zerotensor(), tuple(r.shape), r.numpy(force=True).tolist())",
        "out = [zt(f) for f in (lambda: z @ t, lambda: t @ z, lambda: torch.dot(z, t), lambda: torch.vdot(t, z),"
        " lambda: torch.inner(z, t), lambda: torch.tensordot(z, t, 1), lambda: z @ z, lambda: torch.linalg.vecdot(z, t),"
        " lambda: torch.linalg.cross(C, torch.tensor([1.0, 2.0, 3.0])), lambda: torch.cross(torch.ones(2, 3), C[None], dim=1),"
        " lambda: Z @ t, lambda: Z @ torch.ones(2, 2), lambda: z.sum())]",
        "try:\n    (z @ t).numpy()\nexcept RuntimeError as e:\n    err = str(e)",
    ], ["out", "err"]),
]
