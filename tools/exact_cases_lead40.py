"""Regression cases of session 40's lead work (issue 10), compared with PyTorch 2.13."""

from __future__ import annotations

from exact_case_form import case, outcomes

CASES = [
    case("map2-legacy-type-names",  # (dt40a error-text:map2_) map2_'s dtype check names a bool self CPUBoolType, as map_'s
         ["b = torch.zeros(2, dtype=torch.bool)", "i = torch.zeros(2, dtype=torch.int64)",
          "f = torch.zeros(2)"] +
         outcomes(["b.map2_(i, b, lambda p, q, r: p)", "b.map2_(b, f, lambda p, q, r: p)",
                   "i.map2_(i, b, lambda p, q, r: p)", "f.map2_(b, f, lambda p, q, r: p)"]),
         ["out"]),
    case("adaptive-pool1d-checks",  # (dt40a error-text:adaptive_max_pool1d) ATen's own 1-d checks: dims, then
         # output_size's length, then (max) the empty non-batch dims, before the 2-d op they call
         outcomes([f"{f}(torch.ones({shape}), {size})"
                   for f in ("torch.adaptive_max_pool1d", "F.adaptive_avg_pool1d")
                   for shape, size in (("4, 0, 2", "1"), ("4, 0, 2", "(1, 2)"), ("4, 3, 2", "()"), ("2, 2, 2, 2", "1"),
                                       ("2", "1"), ("3, 0", "-1"), ("3, 2", "1.5"), ("3, 2", "True"),
                                       ("0, 3", "2"))]),
         ["out"]),
]
CASES += [
    case("python-level-args-passed-on",  # Python-level functions pass their arguments on to ATen, whose parser
         # takes a 0-d tensor that does not require grad (and numpy's bool) for a Number and refuses anything
         # but a bool for a bool: torch.norm / Tensor.norm / linalg.vector_norm with a tensor p, F.dropout's
         # train, torch.unique's flags (_unique2, unique_dim), torch.lu's pivot (_lu_with_info), F.elu's alpha
         ["x = torch.tensor([[-1.0, 2.0], [0.5, -0.25]])", "import numpy as np"] +
         outcomes([f"{call.format(v=v)}" for call in (
             "torch.norm(x, p={v})", "x.norm({v}, 0)", "torch.linalg.vector_norm(x, {v})",
             "torch.linalg.vector_norm(x, ord={v})", "torch.linalg.norm(x, {v})", "F.dropout(x, 0.0, {v})",
             "F.dropout2d(x[None], 0.0, {v})", "F.alpha_dropout(x, 0.0, {v})", "torch.unique(x, sorted={v})",
             "torch.unique(x, return_counts={v}, dim=0)", "torch.lu(x, pivot={v})", "F.elu(x, alpha={v})",
             "F.celu(x, {v})")
             for v in ("torch.tensor(2.0)", "torch.tensor([2.0])", "torch.tensor(2.0, requires_grad=True)",
                       "torch.tensor(True)", "1", "np.bool_(True)", "'a'")]),
         ["out"]),
]
CASES += [
    case("not-implemented-integer-result-records-nothing",  # (dt40b raises-only-agrad://) an integer tensor that
         # requires grad (a masked write of a float that does: IndexPutBackward0 on an int64 tensor): ops whose
         # derivative is not implemented (floor_divide, in place too, heaviside, detach_copy) record nothing for
         # an integer result, where a differentiable op refuses its dtype
         ["x4 = torch.tensor(0.25, requires_grad=True)", "w = torch.tensor([[0, 0], [4, -4]])", "w[w > 0] = x4",
          "v = torch.tensor([[0, 0], [4, -4]]).t()", "v[v > 0] = x4", "r = v // torch.tensor([[4, -4], [-1, -2]])",
          "y = torch.tensor([[0, 0], [4, -4]])", "y[y > 0] = x4", "y //= 2"] +
         outcomes(["w // 2", "torch.floor_divide(w, 2).requires_grad", "torch.heaviside(w, w).grad_fn",
                   "torch.detach_copy(w).requires_grad", "w % 3", "(w * 2).grad_fn"]),
         ["r", "r.requires_grad", "y", "y.grad_fn.name()", "y._version", "out"]),
]
CASES += [
    case("sdpa-scale-keyword-only",  # (dt40d raises-only-torch:scaled_dot_product_attention) scale and enable_gqa
         # are keyword-only: a seventh positional argument is the parser's TypeError
         ["q = torch.ones(1, 2, 3)"] +
         outcomes(["F.scaled_dot_product_attention(q, q, q, None, 0.0, False, 0.5)",
                   "F.scaled_dot_product_attention(q, q, q, None, 0.0, False, 0.5, True)",
                   "F.scaled_dot_product_attention(q, q, q, None, 0.0, False, scale=0.5).shape"]),
         ["out"]),
]
CASES += [
    case("logical-inplace-partial-overlap-first",  # (dt40c error-text:logical_and_) TensorIterator's partial-overlap
         # check of an in-place logical op comes before the broadcast shape check, as for add_
         ["x1 = torch.tensor([[[-2.75, 2.75, 1.0, 0.0]]], requires_grad=True)", "v2 = x1.transpose(0, -1)",
          "y = torch.tensor([[1.0, 0.0], [0.0, 2.0]])"] +
         outcomes(["v2.logical_and_(x1)", "v2.logical_or_(x1)", "y.t().logical_xor_(y)", "y[0].logical_and_(y[1])"]),
         ["out", "y"]),
]
CASES += [
    case("own-checks-before-output-overlap",  # (dt40e error-text:celu_, error-text:addmv_, error-type:histogramdd)
         # celu_'s 1 / alpha and addmv's dims come before the written tensor's internal-overlap error; the
         # Python-level histogramdd's [bins] * input.size(-1) of a 0-d input is an IndexError
         ["x2 = torch.tensor([False, False])", "v3 = x2.expand(2, 2)", "i = torch.tensor([1]).expand(2, 1)"] +
         outcomes(["torch.celu_(i, alpha=-0.0)", "torch.celu_(i, alpha=1.0)", "F.celu(i.float(), alpha=0.0)",
                   "v3[...].addmv_(x2, v3, alpha=0.5)", "v3.addmv_(v3, x2)",
                   "torch.histogramdd(torch.tensor(0, dtype=torch.uint8), 1, (1.0, 1.0))",
                   "torch.histogramdd(torch.tensor(0.), [1])",
                   "torch.histogramdd(torch.tensor([0.5]), (torch.tensor([0., 1.]),))"]),
         ["out"]),
]
