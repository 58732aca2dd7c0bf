"""torch.backends: the parts tutorials query (mps, cudnn); agrad has neither."""

from . import cudnn, mps  # noqa: F401
