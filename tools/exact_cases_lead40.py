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
