"""torch.backends.mha: whether nn.TransformerEncoder may take PyTorch's inference fast path
(agrad computes the regular path either way; with the fast path on, an eval-mode encoder given
a padding mask without gradients writes zeros at the padded positions, as PyTorch's nested
tensors do)."""

_fastpath_enabled = True


def get_fastpath_enabled():
    """Whether the fast path for TransformerEncoder and MultiheadAttention is enabled."""
    return _fastpath_enabled


def set_fastpath_enabled(value):
    """Turn the fast path on or off."""
    global _fastpath_enabled
    _fastpath_enabled = bool(value)
