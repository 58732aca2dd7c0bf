"""Large elementwise kernels on several threads, split as ATen's ``at::parallel_for`` splits them.

PyTorch runs a pointwise kernel over more than ``GRAIN_SIZE`` (32,768) elements on
``get_num_threads()`` threads, each taking one contiguous range.  agrad's exact kernels that
are many numpy steps an element (float32 and float64 ``tanh`` and its derivative factor) do the
same: numpy lets go of the GIL inside each step, so the ranges run side by side.  Each range is
computed as on one thread, so a result's bits do not depend on the split.

The pool is made on first use (``concurrent.futures`` is not imported before), one worker fewer
than the threads: the calling thread takes the first range itself.
"""

from __future__ import annotations

from .. import settings

#: at::internal::GRAIN_SIZE: no split below it, and no range shorter
GRAIN_SIZE = 32768

_pool = None
_pool_size = 0


def split(n: int, align: int = 1) -> list[tuple[int, int]]:
    """``[0, n)`` cut into at most ``get_num_threads()`` ranges of at least GRAIN_SIZE elements,
    each starting at a multiple of ``align`` (a kernel's block)."""
    threads = min(settings.get_num_threads(), n // GRAIN_SIZE)
    if threads <= 1:
        return [(0, n)]
    step = -(-n // threads)
    step = -(-step // align) * align
    return [(lo, min(lo + step, n)) for lo in range(0, n, step)]


def run(fn, n: int, align: int = 1) -> list:
    """``fn(lo, hi)`` for each range of :func:`split`, the first on this thread and the others
    on the pool's; their results in order (an exception in one is raised here, after all end)."""
    parts = split(n, align)
    if len(parts) == 1:
        return [fn(0, n)]
    pool = _workers(len(parts) - 1)
    futures = [pool.submit(fn, lo, hi) for lo, hi in parts[1:]]
    try:
        first = fn(*parts[0])
    finally:
        errors = [f.exception() for f in futures]  # (waits for every range)
    for e in errors:
        if e is not None:
            raise e
    return [first, *(f.result() for f in futures)]


def _workers(count: int):
    global _pool, _pool_size
    if _pool is None or _pool_size < count:
        from concurrent.futures import ThreadPoolExecutor

        if _pool is not None:
            _pool.shutdown(wait=True)
        _pool = ThreadPoolExecutor(max_workers=count, thread_name_prefix="agrad-kernel")
        _pool_size = count
    return _pool
