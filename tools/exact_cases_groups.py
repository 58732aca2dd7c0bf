"""Regression cases of the last undocumented groups of run dt20k-29b and of the out= gaps
(helper "groups").

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    return [
        case("histogram-range-nan-is-the-first-met",  # (dt20k-29b error-text:histogram) aminmax over dim 0 is
             # one scalar loop per column: it stops at the first NaN and returns it, sign and all
             ["n = float('nan')", "x = torch.tensor([-1.75, 0.25, -2.0, 1.5], dtype=torch.float64)",
              "def err(f):\n    try:\n        return f()\n    except RuntimeError as e:\n        return str(e)"],
             ["err(lambda: torch.arccos(x).histogram(3))", "err(lambda: torch.tensor([-n, 1.0, n]).histogram(2))",
              "err(lambda: torch.tensor([1.0, n, -n]).histogram(2))",
              "[v.signbit() for v in torch.tensor([[1.0, -n], [n, 2.0], [-n, n]]).aminmax(dim=0)]",
              "[v.signbit() for v in torch.tensor([[1.0, -n, n], [n, -n, 2.0]]).aminmax(dim=1)]"]),
        case("histc-range-around-one-value",  # (dt20k-29b error-text:histc) one below and one above the value;
             # for float and double an end that rounds back onto it is the next representable number
             ["def err(f):\n    try:\n        return f()\n    except RuntimeError as e:\n        return str(e)",
              "i = float('inf')"],
             ["err(lambda: torch.tensor(-i).histc())", "err(lambda: torch.tensor([i, i]).histc(3))",
              "err(lambda: torch.tensor(-i, dtype=torch.float64).histc(2))",
              "err(lambda: torch.tensor([-i, -i], dtype=torch.float16).histc(2))",
              "[torch.tensor([v, v]).histc(b) for v in (2.0 ** 24, -2.0 ** 24, 2.0 ** 25, 1e20, 4.0) for b in (2, 3)]",
              "[torch.tensor([v, v], dtype=torch.float64).histc(4) for v in (1e20, 2.0 ** 53, -3e300)]",
              "[torch.tensor([v, v], dtype=torch.float16).histc(3) for v in (2048.0, -2048.0, 4096.0)]",
              "err(lambda: torch.tensor([1e4, 1e4], dtype=torch.float16).histc(3, min=1e20, max=1e20))",
              "torch.tensor([], dtype=torch.float32).histc(3, min=1e20, max=1e20)"]),
        case("mvlgamma-polygamma-int-tensor-argument",  # (dt20k-29b error-type:mvlgamma_) the parser reads a 0-d
             # integer tensor as the int p (n); mvlgamma_out's own checks: bool input, p, then its cast text
             ["def err(f):\n    try:\n        return f()\n    except (RuntimeError, TypeError) as e:\n        return str(e)",
              "T = torch.tensor", "x = T([2.5, 3.0], requires_grad=True)"],
             ["err(lambda: T(0).swapdims_(-1, 0).mvlgamma_(T(3)))", "x.mvlgamma(T(2))", "torch.special.multigammaln(x, T(2))",
              "torch.autograd.grad(x.mvlgamma(p=T(3)).sum(), x)", "err(lambda: x.mvlgamma(T(2.)))", "err(lambda: x.mvlgamma(T([2])))",
              "err(lambda: x.mvlgamma(T(True)))", "err(lambda: torch.mvlgamma(T([True]), 0))", "err(lambda: T([True]).mvlgamma_(2))",
              "err(lambda: T([2]).mvlgamma_(0))", "err(lambda: T([2], dtype=torch.int32).mvlgamma_(2))",
              "err(lambda: torch.mvlgamma(T([2.5]), 2, out=torch.zeros(1, dtype=torch.int64)))",
              "err(lambda: torch.mvlgamma(T([2]), 2, out=torch.zeros(1, dtype=torch.int64)))",
              "torch.mvlgamma(T([2], dtype=torch.int32), 2, out=torch.zeros(1, dtype=torch.float16))",
              "err(lambda: torch.zeros(2, dtype=torch.int64).expand(2, 2).mvlgamma_(2))",
              "torch.polygamma(T(2), T([1.5]))", "T([1.5, 2.0]).polygamma_(T(1))", "torch.special.polygamma(T(1), x)",
              "err(lambda: torch.polygamma(T(2.), T([1.5])))"]),
    ]
