"""torch.backends: the parts tutorials query (mps, cudnn: agrad has neither; mha's fast-path
switch)."""

from . import cudnn, mha, mps  # noqa: F401
