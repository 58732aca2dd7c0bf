"""torch.backends.mha: whether nn.TransformerEncoder may take PyTorch's inference fast path
(agrad computes the regular path either way; with the fast path on, an eval-mode encoder given
a padding mask without gradients writes zeros at the padded positions, as PyTorch's nested
tensors do).  A script's setting lasts until it ends (agrad/settings.py)."""

from .. import settings as _settings


def get_fastpath_enabled():
    """Whether the fast path for TransformerEncoder and MultiheadAttention is enabled."""
    return _settings._STATE["mha_fastpath"]


def set_fastpath_enabled(value):
    """Turn the fast path on or off."""
    _settings._STATE["mha_fastpath"] = bool(value)
