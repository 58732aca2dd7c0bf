"""torch.nn for agrad: ``nn.functional``. Module, Parameter and layers come later."""

from . import functional  # noqa: F401
