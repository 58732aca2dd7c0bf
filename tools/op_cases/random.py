"""Random sampling ops on tensors that require grad: PyTorch records them
(NormalBackward0, UniformBackward0, RandomBackward0-2, ExponentialBackward0,
BernoulliBackward0-2, NormalBackward1-3, PoissonBackward0) with zero gradients.  Each case
seeds PyTorch's generator first, so the values are exact too."""

from . import case, inp

_S = "torch.manual_seed(7)\n"

CASES = [
    case("normal_", code=_S + "out = (a * 1.0).normal_(0.5, 2.0)", a=inp(3, 4), numeric=False),
    case("normal__big", code=_S + "out = (a * 1.0).normal_()", a=inp(5, 7), numeric=False),
    case("uniform_", code=_S + "out = (a * 1.0).uniform_(-1.0, 3.0)", a=inp(3, 4), numeric=False),
    case("random__full", code=_S + "out = (a * 1.0).random_()", a=inp(2, 3), numeric=False),
    case("random__to", code=_S + "out = (a * 1.0).random_(10)", a=inp(2, 3), numeric=False),
    case("random__from_to", code=_S + "out = (a * 1.0).random_(-5, 5)", a=inp(2, 3), numeric=False),
    case("exponential_", code=_S + "out = (a * 1.0).exponential_(2.0)", a=inp(3, 4), numeric=False),
    case("cauchy_", code=_S + "out = (a * 1.0).cauchy_(0.5, 2.0)", a=inp(3, 4), numeric=False),
    case("log_normal_", code=_S + "out = (a * 1.0).log_normal_(0.1, 0.5)", a=inp(3, 4), numeric=False),
    case("geometric_", code=_S + "out = (a * 1.0).geometric_(0.3)", a=inp(3, 4), numeric=False),
    case("bernoulli__float", code=_S + "out = (a * 1.0).bernoulli_(0.3)", a=inp(3, 4), numeric=False),
    case("bernoulli__tensor", code=_S + "out = (a * 1.0).bernoulli_(p)", a=inp(3, 4),
         p=inp(3, 4, kind="rand"), numeric=False),
    case("bernoulli", code=_S + "out = torch.bernoulli(p)", p=inp(3, 4, kind="rand"), numeric=False),
    case("normal_tensor_float", code=_S + "out = torch.normal(a, 0.5)", a=inp(3, 4), numeric=False),
    case("normal_float_tensor", code=_S + "out = torch.normal(1.0, s)", s=inp(3, 4, kind="positive"),
         numeric=False),
    case("normal_tensor_tensor", code=_S + "out = torch.normal(a, s)", a=inp(4, 5),
         s=inp(4, 5, kind="positive"), numeric=False),
    case("poisson", code=_S + "out = torch.poisson(s * 6)", s=inp(3, 4, kind="positive"), numeric=False),
]
