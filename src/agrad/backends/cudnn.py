"""torch.backends.cudnn: not available (the flags read as in a CPU-only PyTorch, and ``flags``
sets them for a with block as PyTorch's does)."""

import sys

enabled = True
deterministic = False
benchmark = False
benchmark_limit = 10
allow_tf32 = True


def is_available():
    return False


def version():
    return None


def _set_flags(values):
    mod = sys.modules[__name__]
    old = {name: getattr(mod, name) for name in values}
    for name, value in values.items():
        if value is not None:
            setattr(mod, name, value)
    return old


class flags:
    """``with torch.backends.cudnn.flags(enabled=False, ...)``: the flags set for the block (the
    defaults are PyTorch's: cuDNN off inside), the previous values back after it."""

    def __init__(self, enabled=False, benchmark=False, benchmark_limit=10, deterministic=False,
                 allow_tf32=True, fp32_precision="none", depthwise_kernel="auto"):
        # (without CUDA PyTorch neither reads nor sets the benchmark limit)
        self._values = {"enabled": enabled, "benchmark": benchmark, "deterministic": deterministic,
                        "allow_tf32": allow_tf32}
        self._old = None

    def __enter__(self):
        self._old = _set_flags(self._values)

    def __exit__(self, *exc):
        _set_flags(self._old)
        return False
