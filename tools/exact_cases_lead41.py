"""Golden cases of the lead's fixes in session 41 (each names the differential run's group)."""
from __future__ import annotations

from exact_case_form import case, outcomes

CASES = [
    case("dilated-conv-one-term-zero-sign",  # (dt41a repr:conv1d) a dilated float64 convolution runs
         # slow_conv_dilated, which adds the gemm to a zeroed output: a one-term sum of -0.0 is +0.0 (an undilated
         # one keeps the product's -0.0; with a bias the sum starts at it)
         ["x = torch.tensor([[[-2.5, 0.0, 1.0], [1.0, -0.25, 0.0]]], dtype=torch.float64)",
          "w = torch.tensor([[[0.0]], [[-0.75]], [[-0.75]], [[-1.25]]], dtype=torch.float64)",
          "b = torch.full((4,), -0.0, dtype=torch.float64)",
          "r1 = torch.conv1d(x, w, dilation=2, groups=2)", "r2 = torch.conv1d(x, w, groups=2)",
          "r3 = torch.conv1d(x, w, b, dilation=2, groups=2)",
          "r4 = torch.conv2d(x[None], w[None].transpose(0, 1).reshape(4, 2, 1, 1)[:, :1], dilation=(2, 1), groups=2)"],
         ["r1", "r2", "r3", "r4"]),
]
