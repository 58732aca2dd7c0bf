"""Regression cases of the differences the differential tester found once its generator drew the whole
op table (helper "coverage", session 31; tools/exact_cases.py adds them).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    return [
        case("torch-max-pool-has-no-return-indices",  # ATen's torch.max_poolNd: F's wrappers add return_indices
             ["x = torch.arange(16.).reshape(1, 4, 4).requires_grad_()"],
             ["torch.max_pool2d(x, 2, return_indices=True)", "torch.max_pool2d(x, 2, 2, 0, 1, False, True)",
              "torch.max_pool1d(x, 2)", "torch.max_pool1d_with_indices(x, 2)",
              "torch.max_pool1d_with_indices(x, 2, return_indices=True)", "torch.max_pool3d(x[None], 1, ceil_mode=True)",
              "torch.max_pool3d(x[None], 2, return_indices=True)", "torch.max_pool2d(x, 3, stride=[])",
              "torch.max_pool2d(input=x, kernel_size=2)", "torch.max_pool1d(x, 2, 1, 1, 2, True)",
              "F.max_pool2d(x, 2, return_indices=True)"]),
    ]
