"""torch.distributions.ExponentialFamily."""

from __future__ import annotations

from .distribution import Distribution, _torch

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    """Distributions of the exponential family; the entropy through the Bregman divergence of the log
    normalizer (the built ones, Normal and Bernoulli, have their own closed forms)."""

    @property
    def _natural_params(self):
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError

    def entropy(self):
        torch = _torch()
        result = -self._mean_carrier_measure
        nparams = [p.detach().requires_grad_() for p in self._natural_params]
        lg_normal = self._log_normalizer(*nparams)
        gradients = torch.autograd.grad(lg_normal.sum(), nparams, create_graph=True)
        result += lg_normal
        for np, g in zip(nparams, gradients):
            result -= (np * g).reshape(self._batch_shape + (-1,)).sum(-1)
        return result
