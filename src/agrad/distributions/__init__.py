"""torch.distributions: Normal, Categorical, Bernoulli and Uniform, and kl_divergence (docs/distributions.md).

PyTorch's distributions are Python over tensor ops; these perform the same ops in the same order, so values,
random draws, graphs (grad_fn names) and dtypes are PyTorch's, with PyTorch's argument validation (on by
default) and its ValueError texts.  PyTorch's other distributions and the transforms are not built.
"""

from __future__ import annotations

from . import constraints, kl
from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .kl import kl_divergence, register_kl
from .normal import Normal
from .uniform import Uniform

__all__ = ["Bernoulli", "Categorical", "Distribution", "ExponentialFamily", "Normal", "Uniform",
           "kl_divergence", "register_kl"]
