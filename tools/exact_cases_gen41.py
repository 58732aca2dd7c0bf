"""Regression cases of helper "gen41" (session 41): what the generator's new out= draws found.

Same form as tools/exact_cases.py: ``case(id, [statements], [expressions shown])``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    case("out-lu-tuple-resized-and-copied",  # (raises-only-agrad:lu) torch.lu(A, out=(LU, piv)): torch.functional's
         # _lu_impl resize_as_'s and copy_'s each out (any dtype copy_ takes, CopyBackwards for a grad input)
         # and returns the out sequence itself; a wrong count is its TypeError
         ["x = torch.tensor([[1.5, -2.], [3., 0.5]], requires_grad=True)",
          "o = (torch.zeros(0), torch.zeros(1, dtype=torch.int32))", "r = torch.lu(x, out=o)", "same = r is o",
          "o2 = [torch.zeros(0, dtype=torch.float64), torch.zeros(3, dtype=torch.int64), torch.zeros(1)]",
          "r2 = torch.lu(x.detach(), get_infos=True, out=o2)",
          "try:\n    torch.lu(x, out=o2)\nexcept TypeError as e:\n    err = str(e)"],
         ["same", "o[0]", "o[1]", "o2", "err"]),
    case("out-not-implemented-fallback",  # (raises-only-agrad:floor_divide) floor_divide, heaviside and the ldl
         # functions have no derivative: their out= under grad mode refuses only an out that requires grad
         # (under the aten:: name) and leaves a NotImplemented node on the out
         ["x = torch.tensor([[-0.75, 2.], [0.5, 3.]], requires_grad=True)",
          "o1 = torch.zeros(2, 2)", "r1 = torch.floor_divide(x, torch.tensor(1.5), out=o1)",
          "o2 = torch.zeros(1)", "r2 = torch.heaviside(x, x, out=o2)",
          "o3 = (torch.zeros(0), torch.zeros(0, dtype=torch.int32))", "r3 = torch.linalg.ldl_factor(x, out=o3)",
          "o4 = torch.zeros(0)", "r4 = torch.linalg.ldl_solve(*torch.linalg.ldl_factor(x), x, out=o4)",
          "n = [type(t.grad_fn).__name__ for t in (o1, o2, r3.LD, o4)]",
          "e = [t.is_leaf for t in (o1, o2, r3.LD, r3.pivots, o4)]",
          "try:\n    torch.floor_divide(x, x, out=torch.zeros(2, 2).requires_grad_())\nexcept RuntimeError as ex:\n"
          "    err = str(ex)"],
         ["o1", "o2", "o3", "o4", "n", "e", "err"]),
    case("out-dtype-max-min-isin-multinomial",  # (raises-only-agrad:max, raises-only-torch:isin/multinomial)
         # max/min of all elements cast into an out of any dtype canCast allows (else max_unary_out's
         # TORCH_CHECK text); isin's out must be bool; multinomial's must be Long (checked before the count)
         ["x = torch.tensor([[1.5, -2.], [3., 0.5]])", "i = torch.tensor([[1, 2], [3, 4]])",
          "r1 = torch.max(x, out=torch.zeros((), dtype=torch.float64))",
          "r2 = torch.min(i, out=torch.zeros(3, dtype=torch.float16))",
          "errs = []",
          "for f in (lambda: torch.max(x, out=torch.zeros((), dtype=torch.int64)),\n"
          "          lambda: torch.isin(i, 3, out=torch.zeros(2, 2)),\n"
          "          lambda: torch.isin(i, i, out=torch.zeros(2, 2, dtype=torch.int32)),\n"
          "          lambda: torch.multinomial(x.abs(), 3, out=torch.zeros(2, dtype=torch.int32))):\n"
          "    try:\n        f()\n    except RuntimeError as e:\n        errs.append(str(e))"],
         ["r1", "r2", "errs"]),
    case("out-eigh-autograd-name",  # (error-text:eigh) linalg.eigh/eigvalsh's out= refusal names _linalg_eigh
         ["x = torch.tensor([[2., 1.], [1., 3.]], requires_grad=True)", "errs = []",
          "for f in (lambda: torch.linalg.eigh(x, out=(torch.zeros(0), torch.zeros(0))),\n"
          "          lambda: torch.linalg.eigvalsh(x, out=torch.zeros(0))):\n"
          "    try:\n        f()\n    except RuntimeError as e:\n        errs.append(str(e))"],
         ["errs"]),
]
