"""Regression cases of issue 10's backward groups fixed by helper "autograd" (session 29; tools/exact_cases.py
adds them): logit_backward's kernel, gelu_backward's float32 steps, vector_norm's double backward graph,
saved tensors freed after a backward, matrix_exp's backward.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``;
``graph`` is exact_cases.GRAPH, the statement that defines ``graph(fn)``.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    return [
        case("logit-backward-kernel",  # dt20k-28b grad-value:backward (eps < 0: NaN outside [0, 1])
             ["v = [0.75, -0.25, 2.0, -2.5, -3.0, 4.0, 0.0, -0.0, 1.0, float('nan'), float('inf'), float('-inf'),"
              " 0.5, 1e-9, 0.999, 0.25]",
              "x = torch.tensor(v, requires_grad=True)", "g = torch.tensor([(i * 7) % 5 - 2.0 for i in range(16)])",
              "xd = torch.tensor(v, dtype=torch.float64, requires_grad=True)", "gd = g.double()",
              "x3 = torch.tensor(v[:12], requires_grad=True)", "g3 = g[:12]",
              "xh = torch.tensor(v * 3, dtype=torch.float16, requires_grad=True)", "gh = torch.cat([g, g, g]).half()",
              "def lg(x, g, eps, cg=False):\n    return torch.autograd.grad(torch.logit(x, eps=eps), x, g, create_graph=cg)[0]"],
             [*(f"lg({x}, {g}, {eps})" for x, g in (("x", "g"), ("xd", "gd"), ("x3", "g3"))
                for eps in (None, -2.0, -1e-9, 0.0, 0.1)),
              "lg(x, g[:1].expand(16), None)", "lg(x3, g3[:1].expand(12), 0.0)",
              "lg(xh, gh, -0.5)", "lg(xh, gh, 0.0)", "lg(x3, g3, -2.0, True)", "lg(x3, g3, 0.1, True)",
              "torch.logit(x, eps=-1e-9)", "torch.logit(xh, eps=-1e-9)", "torch.logit(x3, eps=-2.0)",
              "torch.signbit(lg(x, g, 0.0))", "torch.signbit(lg(x3, g3, None))"]),
        case("second-backward-through-saved-self",  # dt20k-28b raises-only-torch:backward (AngleBackward0 saves self)
             ["x = torch.tensor([[[1.75, 0.75]], [[-1.25, -0.75]], [[1.25, float('nan')]]], requires_grad=True)",
              "r = torch.angle(x)", "g = torch.ones(3, 1, 2)", "r.backward(gradient=g)", "r.sum().backward()",
              "y = torch.tensor([[1.0, 2.0], [3.0, -4.0]], requires_grad=True)", "t = y.t()",
              "ga, = torch.autograd.grad(t.angle(), t, torch.ones(2, 2))",
              "s, l = torch.linalg.slogdet(y)", "gs = torch.autograd.grad(s.sum(), y, allow_unused=True)",
              "torch.autograd.grad(s.sum(), y, allow_unused=True)"],
             ["x.grad", "r.grad_fn._saved_self", "ga", "ga.stride()", "gs"]),
    ]
