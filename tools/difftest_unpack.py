"""The differential tester's rule ``uint8-unpack-outside`` (tools/difftest.py, docs/semantics.md): PyTorch's
AVX2 uint8 resize (``unpack_rgb``) reads row ``h`` of a one-column image at ``h * stride(3)``, past the
input's storage for a transposed one-row image of its own buffer."""

from __future__ import annotations

import difftest_watch

#: the functional spellings that reach F.interpolate
INTERPOLATE_OPS = {"interpolate", "upsample", "upsample_bilinear"}


def _reads_outside(x, mode) -> bool:
    import torch

    if not isinstance(x, torch.Tensor) or x.dtype != torch.uint8 or x.dim() != 4 or mode not in (
            "bilinear", "bicubic"):
        return False
    n, c, h, w = x.shape
    if not 0 < c <= 4 or w != 1 or h < 2 or n == 0 or x.stride(3) == x.stride(2):
        return False
    cl = x.is_contiguous(memory_format=torch.channels_last)
    if not (x.is_contiguous() or cl) or (c in (3, 4) and cl):
        return False  # (made channels-last first, or read where it lies)
    last = x.storage_offset() + (n - 1) * x.stride(0) + (c - 1) * x.stride(1) + (h - 1) * x.stride(3)
    return last >= x.untyped_storage().nbytes()


def unpacks_outside(lines: list[str], i: int) -> bool:
    """True when statement ``i``, run again under PyTorch after the ones before it, resizes a uint8
    (N, C <= 4, H > 1, 1) image in bilinear or bicubic mode whose rows, read at ``h * stride(3)``, reach
    past its storage."""
    import torch

    seen = []
    fn = torch.nn.functional.interpolate

    def watch(*args, **kwargs):
        x = args[0] if args else kwargs.get("input")
        mode = args[3] if len(args) > 3 else kwargs.get("mode", "nearest")
        seen.append(_reads_outside(x, mode))
        return fn(*args, **kwargs)

    difftest_watch.replay(lines, i, [(torch.nn.functional, "interpolate", watch)])
    return any(seen)
