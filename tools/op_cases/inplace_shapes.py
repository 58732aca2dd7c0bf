"""In-place view ops (squeeze_, unsqueeze_, t_, as_strided_: ops/inplace_shapes.py) on a tensor
with a history, their node replacing its grad_fn; the in-place logical ops and aliases that
keep it (ops/comparison.py, ops/operators.py)."""

from . import case, inp

CASES = [
    case("squeeze_inplace_all", code="y = a * 1.0\nout = y.squeeze_()", a=inp(2, 1, 3), second=True),
    case("squeeze_inplace_dim", code="y = a * 2.0\nout = y.squeeze_(1)", a=inp(2, 1, 3)),
    case("squeeze_inplace_dims", code="y = a * 2.0\nout = y.squeeze_((0, 2))", a=inp(1, 3, 1), second=True),
    case("unsqueeze_inplace", code="y = a * 2.0\nout = y.unsqueeze_(-1)", a=inp(2, 3), second=True),
    case("t_inplace", code="y = a * 2.0\nout = y.t_()", a=inp(2, 3), second=True),
    case("t_inplace_then_ops", code="y = a.sin()\ny.t_()\nout = y * b", a=inp(2, 3), b=inp(3, 2)),
    case("as_strided_inplace", code="y = a * 2.0\nout = y.as_strided_((2, 2), (1, 3), 1)", a=inp(2, 3),
         second=True),
    case("view_ops_inplace_chain", code="y = a * 1.5\ny.squeeze_(1).unsqueeze_(0).t_()\nout = y.exp()",
         a=inp(3, 1)),
    case("absolute_inplace", code="y = a * 1.0\nout = y.absolute_()", a=inp(2, 3)),
    case("greater_inplace", code="y = a * 1.0\nout = y.greater_(b)", a=inp(2, 3), b=inp(3), numeric=False),
    case("as_strided_scatter_offset", "torch.as_strided_scatter(a, b, (2,), (2,), 1)", a=inp(6), b=inp(2),
         numeric=False),  # (PyTorch 2.13 gives self the slice of the gradient, not its complement)
    case("as_strided_scatter_method_2d", "a.as_strided_scatter(b, (2, 2), (3, 1))", a=inp(2, 3),
         b=inp(2, 2, dtype="float64"), numeric=False),
    case("logical_and_inplace_keeps_history", code="y = a * 3.0\ny.logical_and_(b)\nout = y",
         a=inp(2, 3), b=inp(2, 3), numeric=False),
]
