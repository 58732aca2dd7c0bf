"""gumbel_softmax: torch.nn.functional's composite over the random stream.

Gumbel noise is ``-log(Exp(1))`` drawn with ``exponential_`` into a fresh
contiguous tensor (PyTorch's CPU stream, as agrad's), then
``softmax((logits + g) / tau)``; ``hard`` is the straight-through one-hot
``y_hard - y_soft.detach() + y_soft``.
"""

from __future__ import annotations


from ._op import FUNCTIONS, export
from .._warn_once import warn as _warn


@export(functional=True, torch=False)
def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """Samples of the Gumbel-softmax distribution over ``dim`` (one-hot with ``hard``)."""
    if eps != 1e-10:
        _warn("`eps` parameter is deprecated and has no effect.")
    empty, zeros = FUNCTIONS["empty"], FUNCTIONS["zeros"]
    gumbels = -empty(tuple(logits.shape), dtype=logits.dtype).exponential_().log()
    gumbels = (logits + gumbels) / tau
    y_soft = gumbels.softmax(dim)
    if hard:
        index = y_soft.max(dim, keepdim=True)[1]
        y_hard = zeros(tuple(logits.shape), dtype=logits.dtype).scatter_(dim, index, 1.0)
        return y_hard - y_soft.detach() + y_soft
    return y_soft
