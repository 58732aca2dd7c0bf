"""The cost of agrad's exact numeric kernels on small and mid-sized tensors, against PyTorch and numpy.

    python bench/bench_kernels.py                      # every kernel, float32 and float64, 4 sizes
    python bench/bench_kernels.py mish atan2           # some kernels
    python bench/bench_kernels.py --sizes 1,16 --dtypes float64
    python bench/bench_kernels.py --save after.json    # keep the figures ...
    python bench/bench_kernels.py --before before.json # ... and show them beside a later run
    AGRAD_SRC=/other/tree/src python bench/bench_kernels.py   # measure another tree

Up to GRAIN_SIZE (32,768) elements agrad takes PyTorch's own steps for these functions (Sleef's
vector code, glibc's scalar functions, x87 long double where MKL rounds correctly: ops/_sleef.py,
_vec_math.py, _glibc_float.py, _activation_kernels.py, _erf_math.py, _tanh64.py), which is what
makes their last bits PyTorch's and what this bench prices.  Each row is one call through the
user's API (``torch.exp(x)``, ``F.mish(x)``; for the activations forward and backward:
``F.mish(x).backward(g)``), agrad, torch (one thread) and the plain numpy expression (for the
activations its forward and backward formulas), timed alternately (agrad, torch, numpy, agrad,
...) and the median of ``--repeat`` (>= 7) repetitions reported, each repetition a loop long
enough to last some milliseconds.  Columns: microseconds per call, and agrad's time over torch's
and over numpy's.  The clock is this process's CPU time (``--wall``: wall time): on a shared
machine it does not count the time other processes hold the core, but caches shared with them
still move it by 10-30 %; compare ratios and runs made together.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.environ.get("AGRAD_SRC", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")))
os.environ.setdefault("ATEN_CPU_CAPABILITY", "avx2")

import agrad  # noqa: E402  (before numpy, which it asks for its AVX2 kernels, and before torch)
import agrad.nn.functional as AF  # noqa: E402
import numpy as np  # noqa: E402

SIZES = (1, 16, 1024, 32768)
DTYPES = ("float32", "float64")


def _np_unary(name):
    return {"exp": np.exp, "log": np.log, "log1p": np.log1p, "expm1": np.expm1, "tanh": np.tanh,
            "sin": np.sin, "cos": np.cos, "exp2": np.exp2, "sigmoid": lambda x: 1 / (1 + np.exp(-x))}[name]


def _np_erf(x):
    # numpy has no erf: Abramowitz and Stegun's 7.1.26 in numpy steps, the cost of a plain formula
    t = 1.0 / (1.0 + 0.3275911 * np.abs(x))
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * np.exp(-x * x)
    return np.copysign(y, x)


def _np_act(name):
    """numpy forward and backward of the activation ``name``: (fwd(x), bwd(g, x))."""
    def sig(x):
        return 1 / (1 + np.exp(-x))

    if name == "silu":
        return (lambda x: x * sig(x),
                lambda g, x: g * sig(x) * (1 + x * (1 - sig(x))))
    if name == "mish":
        def mish_b(g, x):
            t = np.tanh(np.log1p(np.exp(x)))
            return g * (t + x * sig(x) * (1 - t * t))
        return (lambda x: x * np.tanh(np.log1p(np.exp(x))), mish_b)
    if name == "gelu":
        return (lambda x: 0.5 * x * (1 + _np_erf(x / math.sqrt(2))),
                lambda g, x: g * (0.5 * (1 + _np_erf(x / math.sqrt(2))) + x * np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)))
    if name == "elu":
        return (lambda x: np.where(x > 0, x, np.expm1(x)),
                lambda g, x: np.where(x > 0, g, g * np.exp(x)))
    if name == "softplus":
        return (lambda x: np.where(x > 20, x, np.log1p(np.exp(x))),
                lambda g, x: np.where(x > 20, g, g * sig(x)))
    raise KeyError(name)


UNARY = ("exp", "log", "log1p", "expm1", "tanh", "erf", "sin", "cos", "exp2", "sigmoid")
BINARY = ("atan2", "pow")
ACTIVATIONS = ("silu", "mish", "gelu", "elu", "softplus")
KERNELS = UNARY + BINARY + ACTIVATIONS


def _data(name, size, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(size) * 3
    if name == "log":
        x = np.abs(x) + 1e-3
    if name == "log1p":
        x = np.abs(x) - 0.5
    if name == "pow":
        x = np.abs(x)
    return x.astype(dtype)


def cases(kernel, size, dtype):
    """(agrad call, torch call, numpy call) for one row: functions of no arguments."""
    import torch
    import torch.nn.functional as TF

    x = _data(kernel, size, dtype)
    if kernel in UNARY or kernel in BINARY:
        xa, xt = agrad.tensor(x), torch.tensor(x)
        if kernel == "pow":  # (a tensor to a number: Sleef's pow where the vector code runs)
            return (lambda: agrad.pow(xa, 2.7), lambda: torch.pow(xt, 2.7), lambda: np.power(x, 2.7))
        if kernel in BINARY:
            y = _data("atan2-y", size, dtype, seed=1)
            ya, yt = agrad.tensor(y), torch.tensor(y)
            return (lambda: agrad.atan2(ya, xa), lambda: torch.atan2(yt, xt), lambda: np.arctan2(y, x))
        fa, ft = getattr(agrad, kernel), getattr(torch, kernel)
        fn = _np_erf if kernel == "erf" else _np_unary(kernel)
        return (lambda: fa(xa), lambda: ft(xt), lambda: fn(x))
    g = np.ones_like(x)
    xa, xt = agrad.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    ga, gt = agrad.tensor(g), torch.tensor(g)
    fa, ft = getattr(AF, kernel), getattr(TF, kernel)
    nf, nb = _np_act(kernel)

    def run_agrad():
        fa(xa).backward(ga)
        xa.grad = None

    def run_torch():
        ft(xt).backward(gt)
        xt.grad = None

    def run_numpy():
        nf(x)
        nb(g, x)

    return run_agrad, run_torch, run_numpy


#: the clock: this process's CPU time, or (--wall) wall time
CLOCK = time.process_time


def alternate(fns, repeat, target):
    """Median seconds per call of each of ``fns`` (a list), timed alternately."""
    clock = CLOCK
    numbers = []
    for fn in fns:
        number, t = 1, 0.0
        while True:
            start = clock()
            for _ in range(number):
                fn()
            t = clock() - start
            if t >= target / 4 or number >= 1 << 16:
                break
            number *= 2
        numbers.append(max(1, int(number * target / max(t, 1e-9))))
    times = [[] for _ in fns]
    with np.errstate(all="ignore"):
        for _ in range(repeat):
            for i, fn in enumerate(fns):
                gc.collect()
                n = numbers[i]
                start = clock()
                for _ in range(n):
                    fn()
                times[i].append((clock() - start) / n)
    return [statistics.median(t) for t in times]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("kernels", nargs="*", help=f"some of {', '.join(KERNELS)}")
    p.add_argument("--sizes", default=",".join(map(str, SIZES)))
    p.add_argument("--dtypes", default=",".join(DTYPES))
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--target", type=float, default=0.004, help="seconds each repetition of a call lasts")
    p.add_argument("--wall", action="store_true", help="wall time instead of CPU time")
    p.add_argument("--save", help="write the figures (JSON) here")
    p.add_argument("--before", help="figures saved by an earlier run: shown beside this one's")
    args = p.parse_args(argv)
    if args.repeat < 7:
        p.error("--repeat: at least 7")
    global CLOCK
    if args.wall:
        CLOCK = time.perf_counter
    import torch

    torch.set_num_threads(1)
    kernels = args.kernels or KERNELS
    for k in kernels:
        if k not in KERNELS:
            p.error(f"unknown kernel {k!r}")
    before = json.load(open(args.before)) if args.before else {}
    sizes = [int(s) for s in args.sizes.split(",")]
    dtypes = args.dtypes.split(",")
    saved = {}
    head = f"{'kernel':<14}{'dtype':<8}{'n':>6}  {'agrad us':>10}{'torch us':>10}{'numpy us':>10}{'/torch':>9}{'/numpy':>8}"
    if before:
        head += f"{'before us':>11}{'speed-up':>9}"
    print(head)
    for kernel in kernels:
        for dtype in dtypes:
            for size in sizes:
                fns = cases(kernel, size, dtype)
                for fn in fns:  # (warm-up: first calls build tables, import modules)
                    fn()
                a, t, n = alternate(fns, args.repeat, args.target)
                label = kernel + (" f+b" if kernel in ACTIVATIONS else "")
                key = f"{kernel}/{dtype}/{size}"
                saved[key] = {"agrad": a, "torch": t, "numpy": n}
                line = (f"{label:<14}{dtype:<8}{size:>6}  {a * 1e6:>10.1f}{t * 1e6:>10.1f}{n * 1e6:>10.1f}"
                        f"{a / t:>9.1f}{a / n:>8.1f}")
                if key in before:
                    b = before[key]["agrad"]
                    line += f"{b * 1e6:>11.1f}{b / a:>8.1f}x"
                print(line, flush=True)
    if args.save:
        with open(args.save, "w") as f:
            json.dump(saved, f, indent=1)


if __name__ == "__main__":
    main()
