"""glibc's allocator told to keep mid-sized blocks in its heap (``mallopt``), for numpy's temporaries.

agrad's exact kernels (Sleef's steps, the double-double sums and fused multiply-adds) make some
hundred numpy temporaries a call.  glibc serves a block of over 128 KiB (16,384 doubles; a float64
kernel's rows of five 4,096-element polynomial terms are 160 KiB) with its own ``mmap`` and
gives it back on ``free``, or trims its heap's top when more than 128 KiB is free there; either
way the next temporary of that size faults its pages in afresh (a fault and a zeroed page each 4
KiB), which cost more than the arithmetic: float64 pow, exp and exp2 of 4,096 elements ran 2-2.5x
slower for it, 32,768 elements 2x.  From ``import agrad``, blocks under 4 MiB come from the heap
(numpy maps 4 MiB and more itself, with huge pages) and the heap's top is trimmed beyond 32 MiB
free.  ``AGRAD_MALLOPT=0`` leaves the allocator as it is; other C libraries are left alone.
"""

from __future__ import annotations

import os
import sys

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 4 << 20
TRIM_THRESHOLD = 32 << 20


def keep_temporaries() -> bool:
    """Set glibc's thresholds (see above); whether they were set."""
    if not sys.platform.startswith("linux") or os.environ.get("AGRAD_MALLOPT") == "0":
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
        libc.gnu_get_libc_version  # (glibc: other C libraries' mallopt may mean other things)
    except (ImportError, OSError, AttributeError):
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
