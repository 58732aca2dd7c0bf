"""torch.cuda as a CPU-only PyTorch build has it: nothing is available; the calls that
need a GPU raise PyTorch's ``AssertionError: Torch not compiled with CUDA enabled``."""

from __future__ import annotations

from .devices import NO_CUDA


def is_available():
    return False


def device_count():
    return 0


def is_initialized():
    return False


def manual_seed(seed):
    """No GPU to seed: a no-op, as in PyTorch without CUDA."""


def manual_seed_all(seed):
    """No GPU to seed: a no-op, as in PyTorch without CUDA."""


def empty_cache():
    """Nothing cached: a no-op, as in PyTorch without CUDA."""


def _no_cuda(*args, **kwargs):
    raise AssertionError(NO_CUDA)


def current_device():
    _no_cuda()


def synchronize(device=None):
    _no_cuda()


def get_device_name(device=None):
    _no_cuda()


def set_device(device):
    _no_cuda()
