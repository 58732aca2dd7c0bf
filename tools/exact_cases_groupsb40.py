"""Regression cases of helper "groupsb40" (session 40).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    case("lstsq-residuals-of-an-exact-fit",  # (numeric:lstsq, run 39500000) B = A: the residuals are LAPACK's
         # noise, rows n.. of Q^T B (ormqr of geqrf's reflectors) squared and summed, not |A X - B|^2
         ["a = torch.tensor([[[-2.5], [-2.75]], [[1.25], [-1.75]]])",
          "r1 = torch.linalg.lstsq(a, a, rcond=0.001, driver='gelsd')",
          "b = torch.tensor([[1.5, -0.75], [2.25, 0.5], [-1.25, 2.75]])",
          "c = b @ torch.tensor([[0.5, -1.0], [1.75, 0.25]])",
          "r2 = torch.linalg.lstsq(b, c, driver='gels')", "r3 = torch.linalg.lstsq(b, c, driver='gelss')",
          "r4 = torch.linalg.lstsq(b.double(), c.double() + 0.125, driver='gelsd')"],
         ["r1.residuals.tolist()", "r2.residuals.tolist()", "r3.residuals.tolist()", "r4.residuals.tolist()"]),
]

CASES += [
    case("ormqr-larf-order",  # MKL's larf: from the left w = C^T v over the rows past the first in order, the
         # first row added last; from the right w = C v over the columns from the first (1,316 of 3,000 differed)
         ["a = torch.tensor([[-1.5, -0.75], [0.5, -0.5], [-2.25, -2.75], [-3.0, -2.75], [1.25, 0.5]])",
          "b = torch.tensor([[0.375, 1.25], [-0.875, -2.0], [-1.0625, 0.5], [-0.5, 2.75], [1.5, -0.25]])",
          "p, t = torch.geqrf(a)",
          "r = [torch.ormqr(p, t, b if left else b.mT, left=left, transpose=tr) for left in (True, False) "
          "for tr in (True, False)]",
          "f = torch.linalg.lstsq(a, a @ torch.tensor([[0.25], [0.75]]), driver='gelsd')",
          "rd = torch.ormqr(p.double(), t.double(), b.double().mT, left=False, transpose=True)"],
         ["[x.tolist() for x in r]", "f.residuals.tolist()", "rd.tolist()"]),
]

CASES += [
    case("geqrf-float64-mkl-order",  # MKL's dgeqrf: larfg's nrm2 the scaled one, larf's dot in two lanes (even and
         # odd rows, each from +0.0, added, an odd last row after): 346 of 600 random float64 geqrf differed, now 14
         ["a = torch.tensor([[0.3, -1.7, 2.2], [1.1, 0.4, -0.9], [-2.3, 0.8, 1.3], [0.6, -0.2, 0.5], [1.9, 1.4, -0.7]], "
          "dtype=torch.float64)",
          "p, t = torch.geqrf(a)", "z = torch.tensor([[0.0, -0.0], [-0.0, 1.5], [0.0, -0.0]], dtype=torch.float64)",
          "pz, tz = torch.geqrf(z)"],
         ["p.tolist()", "t.tolist()", "pz", "tz"]),
]

CASES += [
    case("orgqr-float64-larf-order",  # dorg2r's larf as ormqr's: the rows past the first in order, the first last
         ["a = torch.tensor([[-3.0, -2.5], [-1.0, -0.5], [0.75, -0.25], [-1.5, -2.25]], dtype=torch.float64)",
          "p, t = torch.geqrf(a)", "h = torch.linalg.householder_product(p, t)", "q, r = torch.linalg.qr(a)"],
         ["h.tolist()", "q.tolist()"]),
]
