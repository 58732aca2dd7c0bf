"""Session 31's nn ops: the CTC loss (ATen's gradient is the one of the logits before log_softmax, not
the derivative in log_probs: numeric False) and fractional max pooling (seeded samples), grid_sample's bicubic mode, conv_tbc."""

from . import case, inp, val

_LP = "F.log_softmax(a, 2)"
_CTC = dict(a=inp(6, 2, 5), t=val([[1, 2, 2], [3, 1, 0]]))

CASES = [
    case("ctc_none", f"F.ctc_loss({_LP}, t, (6, 5), (3, 2), reduction='none')", numeric=False, **_CTC),
    case("ctc_mean", f"F.ctc_loss({_LP}, t, (6, 5), (3, 2))", numeric=False, **_CTC),
    case("ctc_sum_float64", f"F.ctc_loss({_LP}, t, (6, 6), (3, 2), reduction='sum')", numeric=False,
         a=inp(6, 2, 5, dtype="float64"), t=val([[1, 2, 2], [3, 1, 0]])),
    case("ctc_zero_infinity", f"F.ctc_loss({_LP}, t, (3, 6), (3, 2), zero_infinity=True)", numeric=False,
         a=inp(6, 2, 5), t=val([[1, 1, 1], [3, 3, 0]])),
    case("ctc_blank_last", f"F.ctc_loss({_LP}, t, (6, 4), (3, 2), blank=4, reduction='sum')", numeric=False,
         a=inp(6, 2, 5), t=val([[0, 2, 2], [3, 1, 0]])),
    case("grid_sample_bicubic", "F.grid_sample(a, g, mode='bicubic', align_corners=False)", a=inp(1, 2, 4, 5),
         g=inp(1, 3, 4, 2, kind="unit")),
    case("grid_sample_bicubic_border_float64", "F.grid_sample(a, g, mode='bicubic', padding_mode='border', align_corners=True)",
         a=inp(2, 1, 5, 3, dtype="float64"), g=inp(2, 2, 3, 2, kind="unit", dtype="float64")),
    case("conv_tbc", "torch.conv_tbc(a, w, b, 1)", a=inp(5, 2, 3), w=inp(3, 3, 4), b=inp(4)),
    case("conv_tbc_float64", "F.conv_tbc(a, w, b)", a=inp(4, 3, 2, dtype="float64"), w=inp(2, 2, 3, dtype="float64"),
         b=inp(3, dtype="float64")),
    case("fractional_max_pool2d", code="torch.manual_seed(0)\nout = F.fractional_max_pool2d(a, 2, output_size=(3, 4))",
         a=inp(2, 3, 6, 7)),
    case("fractional_max_pool2d_ratio", code="torch.manual_seed(1)\nout = F.fractional_max_pool2d(a, (2, 3), output_ratio=(0.5, 0.5))",
         second=True, a=inp(1, 2, 8, 8, dtype="float64")),
    case("fractional_max_pool3d", code="torch.manual_seed(2)\nout = F.fractional_max_pool3d(a, 2, output_size=(2, 3, 2))",
         second=True, a=inp(1, 2, 5, 6, 5)),
]
