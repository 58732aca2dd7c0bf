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
    case("out-overlapping-an-input",  # (generator's out= of one of the inputs) ATen's assert_no_overlap(out, x):
         # index_select, gather, take_along_dim, take, masked_select, cross, nonzero, kron, cat and its
         # composites refuse an out that is one of their inputs; scatter/index_* refuse one that is the
         # src/source/index (out=self is their copy of self, allowed); elementwise ops and sort allow it
         ["x = torch.tensor([[1.5, -2., 4.], [3., 0.5, -1.], [2.5, 7., -3.]])",
          "y = torch.tensor([[0.5, 1., 2.], [-1., 0.25, 3.], [1., -2., 0.5]])",
          "i = torch.tensor([[2, 1, 0], [0, 1, 1], [1, 0, 2]])", "v = torch.tensor([1.5, -2., 4.])",
          "k = torch.tensor([2, 0, 1])", "errs = []",
          "for f in (lambda: torch.index_select(x, 0, k, out=x), lambda: torch.index_select(k, 0, k, out=k),\n"
          "          lambda: torch.gather(i, 1, i, out=i), lambda: torch.take_along_dim(x, i, 1, out=x),\n"
          "          lambda: torch.take(v, k, out=v), lambda: torch.masked_select(v, v > 0, out=v),\n"
          "          lambda: torch.cross(x, y, dim=0, out=x), lambda: torch.linalg.cross(x, y, out=y),\n"
          "          lambda: torch.scatter(x, 0, i, y, out=y), lambda: torch.scatter_add(x, 0, i, y, out=y),\n"
          "          lambda: torch.scatter_reduce(x, 0, i, y, 'sum', out=y), lambda: torch.index_add(x, 0, k, y, out=y),\n"
          "          lambda: torch.index_copy(x, 1, k, y, out=y), lambda: torch.index_reduce(x, 0, k, y, 'prod', out=y),\n"
          "          lambda: torch.nonzero(k, out=k), lambda: torch.kron(x[:1, :1], x, out=x),\n"
          "          lambda: torch.cat([v], out=v), lambda: torch.stack([v], out=v[None]), lambda: torch.hstack([v], out=v),\n"
          "          lambda: torch.vstack([x], out=x), lambda: torch.column_stack([v], out=v[:, None])):\n"
          "    try:\n        f()\n        errs.append(None)\n    except RuntimeError as e:\n        errs.append(str(e)[:40])",
          "r1 = torch.scatter(x, 0, i, y, out=x)", "r2 = torch.index_add(y, 0, k, x, out=y)",
          "r3 = torch.add(x, y, out=x)", "r4 = torch.sort(v, out=(v, k))", "r5 = torch.cumsum(y, 1, out=y)"],
         ["errs", "x", "y", "v", "k"]),
    case("out-frexp-dtypes",  # frexp_out: the mantissa out of the input's dtype, the exponent out int32
         ["x = torch.tensor([1.5, 2.])", "errs = []",
          "for o in ((torch.zeros(0, dtype=torch.float64), torch.zeros(0, dtype=torch.int32)),\n"
          "          (torch.zeros(0), torch.zeros(0, dtype=torch.int64))):\n"
          "    try:\n        torch.frexp(x, out=o)\n    except RuntimeError as e:\n        errs.append(str(e))",
          "r = torch.frexp(x.half(), out=(torch.zeros(0, dtype=torch.float16), torch.zeros(1, dtype=torch.int32)))"],
         ["errs", "r"]),
    case("out-tensordot-inner-copy",  # (raises-only-agrad:tensordot, run 40500000) tensordot_out (inner's too):
         # the result computed, out's dtype checked, resize_output, then out.copy_(result): recorded
         # (CopyBackwards; CopySlices through a view), no refusal of inputs that require grad
         ["x1 = torch.tensor([-1.75, -2.0], requires_grad=True)", "v2 = x1.expand(2, 2)",
          "o1 = torch.zeros(2, 2)", "r1 = torch.tensordot(v2, v2, 1, out=o1)",
          "b2 = torch.zeros(2, 4)", "r2 = torch.tensordot(v2, v2, 1, out=b2[..., 1::2])",
          "o3 = torch.zeros(3)", "r3 = torch.inner(v2, v2, out=o3)", "errs = []",
          "for f in (lambda: torch.inner(v2, v2, out=torch.zeros(2, 2, dtype=torch.float64)),\n"
          "          lambda: torch.inner(x1[0], v2, out=torch.zeros(2, 2))):\n"
          "    try:\n        f()\n    except RuntimeError as e:\n        errs.append(str(e))",
          "n = [t.grad_fn.name() for t in (o1, b2, o3)]"],
         ["o1", "b2", "o3", "n", "errs"]),
    case("out-nonzero-0d-frexp-layout-narrow",  # (shape:nonzero, stride:frexp, error-type:narrow; run 40500000)
         # nonzero of a 0-d input writes its (1, 0) / (0, 0) result into out=; frexp's out resized takes the
         # layout of the other out where that one keeps its shape (TensorIterator's order: outputs first);
         # narrow checks the length before it wraps the dim
         ["o1 = torch.zeros(0, dtype=torch.int64)", "r1 = torch.nonzero(torch.tensor(-1), out=o1)",
          "o2 = torch.zeros(3, dtype=torch.int64)", "r2 = torch.nonzero(torch.tensor(0), out=o2)",
          "x = torch.tensor([[-1.25, -2.5, -0.25], [-0.75, 1.0, 0.75], [-2.0, 1.0, 2.25]])",
          "m = torch.zeros(0)", "e = torch.zeros(3, 6, dtype=torch.int32).view(3, 6)[..., ::2].mT",
          "r3 = torch.frexp(x, out=(m, e))", "s = (m.stride(), e.stride())",
          "try:\n    x.narrow(2, 0, -1)\nexcept RuntimeError as ex:\n    err = str(ex)"],
         ["o1", "o2", "m", "e", "s", "err"]),
    case("out-autograd-refusal-order-and-names",  # (probe of 245 out= functions with a grad input) autograd's
         # refusal comes before the kernel's checks (a dim out of range, an index dtype, a shape) for the
         # structured ops, and names the op whose out= refuses (a composite's: inv -> linalg_inv_ex, ...)
         ["x = torch.tensor([[0.5, 0.75], [0.25, 0.6]], requires_grad=True)", "errs = []",
          "for f in (lambda: torch.cumsum(x, 5, out=torch.zeros(2, 2)), lambda: torch.sum(x, 7, out=torch.zeros(2)),\n"
          "          lambda: torch.take(x, x, out=torch.zeros(2, 2)), lambda: torch.mv(x, x, out=torch.zeros(2)),\n"
          "          lambda: torch.clamp(x, out=torch.zeros(2, 2)), lambda: torch.bmm(x, x, out=torch.zeros(2, 2)),\n"
          "          lambda: torch.logsumexp(x, 4, out=torch.zeros(2)), lambda: torch.linalg.inv(x, out=torch.zeros(2, 2)),\n"
          "          lambda: torch.linalg.det(x, out=torch.zeros(())), lambda: torch.diff(x, out=torch.zeros(2, 1)),\n"
          "          lambda: torch.square(x, out=torch.zeros(2, 2)), lambda: torch.msort(x, out=torch.zeros(2, 2)),\n"
          "          lambda: torch.linalg.svdvals(x, out=torch.zeros(2))):\n"
          "    try:\n        f()\n    except RuntimeError as e:\n        errs.append(str(e)[:40])"],
         ["errs"]),
    case("out-polynomial-ger-svd",  # (raises-only-agrad:chebyshev_polynomial_w, warning:ger, stride:svd; run
         # 40503000) the special polynomials have no derivative: their out= is written as it is, one that
         # requires grad too; ger's out= warns of its deprecation (every call; ger itself does not);
         # torch.svd(compute_uv=False, out=) resizes and zeroes its V out C-ordered
         ["x = torch.tensor([[0.5, -2.75], [0.25, 1.]], requires_grad=True)", "r = x * 1",
          "p = torch.special.chebyshev_polynomial_w(r, 3, out=r)", "g = (r.requires_grad, r.grad_fn.name())",
          "import warnings",
          "with warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter('always')\n"
          "    a = torch.tensor([1., 2.])\n    q = torch.ger(a, a)\n    q2 = torch.ger(a, a, out=torch.zeros(2, 2))\n"
          "    q3 = torch.ger(a, a, out=torch.zeros(2, 2))\n    n = [str(m.message)[:60] for m in w]",
          "y = torch.tensor([[[1.75, -2.5], [-2.5, 1.75]], [[-0.25, 3.0], [0.0, 1.5]]])",
          "o = (torch.zeros(0), torch.zeros(2, 2), torch.zeros(0))", "s = torch.svd(y, compute_uv=False, out=o)",
          "st = [t.stride() for t in o]"],
         ["p", "g", "n", "q2", "st", "o"]),
    case("out-norm-composites-copy",  # (probe of out= with a grad input) linalg.norm, linalg.matrix_norm (and
         # nuclear_norm through it) and chain_matmul of one matrix write out= by a recorded copy_ of the result
         # (CopyBackwards, no refusal); the norms' out must have the result's dtype
         ["x = torch.tensor([[0.5, 0.75], [0.25, 0.6]], requires_grad=True)",
          "o1 = torch.zeros(())", "r1 = torch.linalg.norm(x, out=o1)",
          "o2 = torch.zeros(2)", "r2 = torch.linalg.norm(x, dim=1, out=o2)",
          "o3 = torch.zeros(3)", "r3 = torch.linalg.matrix_norm(x, 2, out=o3)",
          "o4 = torch.zeros(())", "r4 = torch.nuclear_norm(x, out=o4)",
          "o5 = torch.zeros(2, 2)", "r5 = torch.chain_matmul(x, out=o5)",
          "n = [t.grad_fn.name() for t in (o1, o2, o3, o4, o5)]", "errs = []",
          "for f in (lambda: torch.linalg.norm(x[0], out=torch.zeros((), dtype=torch.int64)),\n"
          "          lambda: torch.linalg.matrix_norm(x, out=torch.zeros((), dtype=torch.float64))):\n"
          "    try:\n        f()\n    except RuntimeError as e:\n        errs.append(str(e))"],
         ["o1", "o2", "o3", "o4", "o5", "n", "errs"]),
    case("out-matrix-power-0-1-cast",  # (raises-only-agrad:matrix_power, run 40509000) linalg.matrix_power with
         # n 0 or 1 writes out= by copy_ (of the identity / the input): any dtype the result can be cast to
         ["x = torch.tensor([[1.5, 2.], [0.5, 1.]])", "r0 = torch.linalg.matrix_power(x, 0, out=torch.zeros(1, dtype=torch.float64))",
          "r1 = torch.linalg.matrix_power(x, 1, out=torch.zeros(2, 2, dtype=torch.float16))", "errs = []",
          "for n in (0, 1, 2):\n    try:\n        torch.linalg.matrix_power(x, n, out=torch.zeros(1, dtype=torch.int64))\n"
          "    except RuntimeError as e:\n        errs.append(str(e))"],
         ["r0", "r1", "errs"]),
]
