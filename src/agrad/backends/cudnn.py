"""torch.backends.cudnn: not available (the flags read as in a CPU-only PyTorch)."""

enabled = True
deterministic = False
benchmark = False


def is_available():
    return False


def version():
    return None
