"""The cost of agrad's ordered sums (PyTorch's cascade_sum order, _cascade.py) through the user's API.

    python bench/bench_sums.py                              # this tree
    AGRAD_SRC=/other/tree/src python bench/bench_sums.py    # another tree (before / after)
    python bench/bench_sums.py --save after.json --before before.json

Each row is ``x.sum(dim)`` of a float32/float64 tensor, agrad and numpy's ``a.sum(axis)``, timed
alternately, the median of ``--repeat`` (>= 7) repetitions of the process's CPU time (the machine
is shared: CPU time does not count the time others hold the core); microseconds per call.  The
shapes repeat call after call, as in a training loop (agrad's plans are made once per shape).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.environ.get("AGRAD_SRC", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")))

import agrad  # noqa: E402
import numpy as np  # noqa: E402

from bench_kernels import alternate  # noqa: E402

CASES = [((4, 5, 6), (1,)), ((8, 16, 32), (1,)), ((3, 40, 7), (1,)), ((64, 64), (0,)), ((64, 64), (1,)),
         ((16, 16, 16), (0, 2)), ((1000,), None), ((100, 200), (1,)), ((8000, 4), (0,)), ((30000,), None),
         ((128, 250), (0,))]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--target", type=float, default=0.004)
    p.add_argument("--save")
    p.add_argument("--before")
    args = p.parse_args(argv)
    if args.repeat < 7:
        p.error("--repeat: at least 7")
    before = json.load(open(args.before)) if args.before else {}
    rng = np.random.default_rng(0)
    saved = {}
    print(f"{'shape':<16}{'dims':<8}{'dtype':<9}{'agrad us':>10}{'numpy us':>10}{'/numpy':>8}"
          + (f"{'before us':>11}{'speed-up':>9}" if before else ""))
    for shape, dims in CASES:
        for dtype in ("float32", "float64"):
            x = rng.standard_normal(shape).astype(dtype)
            t = agrad.tensor(x)
            fa = (lambda: t.sum()) if dims is None else (lambda: t.sum(dims))
            fn = (lambda: x.sum()) if dims is None else (lambda: x.sum(dims))
            for _ in range(3000 if x.size < 32768 else 1):  # (warm: agrad makes a shape's plan after some calls)
                fa()
            a, n = alternate([fa, fn], args.repeat, args.target)
            key = f"{shape}/{dims}/{dtype}"
            saved[key] = {"agrad": a, "numpy": n}
            line = f"{str(shape):<16}{str(dims):<8}{dtype:<9}{a * 1e6:>10.1f}{n * 1e6:>10.1f}{a / n:>8.1f}"
            if key in before:
                line += f"{before[key]['agrad'] * 1e6:>11.1f}{before[key]['agrad'] / a:>8.1f}x"
            print(line, flush=True)
    if args.save:
        with open(args.save, "w") as f:
            json.dump(saved, f, indent=1)


if __name__ == "__main__":
    main()
