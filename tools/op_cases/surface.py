"""torch.* functions of issue 10 (session 30) that record nodes: fill, rsub, ..."""

from . import case, inp

FORMS = [
    case("torch_fill_number", "torch.fill(a, 2.5)", a=inp(2, 3), second=True, numeric=False),
    case("torch_fill_tensor_value", "torch.fill(a, v)", a=inp(2, 3), v=inp(), second=True, numeric=False),
    case("torch_rsub_tensor_alpha", "torch.rsub(a, b, alpha=-1.5)", a=inp(2, 3), b=inp(3), second=True),
    case("torch_rsub_number_alpha", "torch.rsub(a, 2.0, 3)", a=inp(2, 3, dtype="float64"), second=True),
]

CASES = FORMS
