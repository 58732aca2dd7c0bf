"""conv2d forward + backward, agrad vs PyTorch on one thread (issue 11).

    python bench/bench_conv.py [RUNS]

Batch 32, 3 -> 16 channels, 32x32 images, 3x3 kernel, padding 1, float32:
``y = F.conv2d(x, w, b, padding=1); y.sum().backward()`` with x, w and b
requiring grad.  The two engines run alternately, RUNS times each (default
9); the result is the median time of each and their ratio (target <= 3x).
numpy is limited to one thread as well (OMP/OPENBLAS_NUM_THREADS=1, set
before numpy is imported), so the comparison is one core against one core.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

SHAPES = {"x": (32, 3, 32, 32), "w": (16, 3, 3, 3), "b": (16,)}


def step_fn(mod):
    F = mod.nn.functional
    rs = np.random.RandomState(0)
    leaves = {k: mod.tensor(rs.randn(*s).astype(np.float32), requires_grad=True) for k, s in SHAPES.items()}

    def step():
        for t in leaves.values():
            t.grad = None
        F.conv2d(leaves["x"], leaves["w"], leaves["b"], padding=1).sum().backward()

    return step


def timed(fn, number=5):
    start = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - start) / number


def main(runs=9):
    import agrad
    import torch
    torch.set_num_threads(1)
    steps = {"agrad": step_fn(agrad), "torch": step_fn(torch)}
    for fn in steps.values():  # warm up
        timed(fn, 2)
    times = {name: [] for name in steps}
    for _ in range(runs):
        for name, fn in steps.items():
            times[name].append(timed(fn))
    med = {name: statistics.median(ts) for name, ts in times.items()}
    for name, m in med.items():
        print(f"{name:6s} {m * 1e3:8.2f} ms   (median of {runs} alternating runs of 5 steps)")
    print(f"ratio  {med['agrad'] / med['torch']:8.2f}x  (target <= 3x)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 9)
