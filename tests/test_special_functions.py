"""torch.special's Bessel/Airy functions, orthogonal polynomials, erfcx/log_ndtr and igamma/igammac
as a script sees them where the golden cases cannot show it (forward-mode AD) or where agrad
deliberately differs (docs/semantics.md)."""

from __future__ import annotations

import math

import pytest

import agrad as torch
import agrad.autograd.forward_ad as fwAD


def test_igamma_refuses_forward_mode_as_pytorch():
    x = torch.tensor([1.0, 1.5], dtype=torch.float64)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, torch.ones(2, dtype=torch.float64))
        for call in (lambda: torch.igamma(x, d), lambda: torch.special.gammaincc(d, x)):
            with pytest.raises(NotImplementedError, match="Trying to use forward AD with igamma"):
                call()


def test_erfcx_and_log_ndtr_tangents_are_their_derivatives():
    x = torch.tensor([-3.0, 0.5, 2.0], dtype=torch.float64)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, torch.ones(3, dtype=torch.float64))
        t_erfcx = fwAD.unpack_dual(torch.special.erfcx(d)).tangent.tolist()
        t_ndtr = fwAD.unpack_dual(torch.special.log_ndtr(d)).tangent.tolist()
        assert fwAD.unpack_dual(torch.special.bessel_j0(d)).tangent is None
    for v, te, tn in zip(x.tolist(), t_erfcx, t_ndtr):
        erfcx = math.exp(v * v) * math.erfc(v)
        assert te == pytest.approx(2 * v * erfcx - 2 / math.sqrt(math.pi), rel=1e-12)
        assert tn == pytest.approx(math.exp(-v * v / 2) / math.sqrt(2 * math.pi) / (0.5 * math.erfc(-v / math.sqrt(2))),
                                   rel=1e-12)


@pytest.mark.parametrize("name", ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "shifted_chebyshev_polynomial_w",
                                  "laguerre_polynomial_l", "legendre_polynomial_p"])
def test_nan_x_at_degree_two_and_up_is_nan(name):
    # (PyTorch returns an uninitialised register there: docs/semantics.md)
    out = getattr(torch.special, name)(torch.tensor([0.5, float("nan"), 0.25]), torch.tensor([3.0]))
    assert math.isnan(out.tolist()[1])
    assert not math.isnan(out.tolist()[0]) and not math.isnan(out.tolist()[2])
