"""Classification-loop kernels side by side in one run: agrad vs PyTorch eager vs plain numpy.

    python bench/bench_softmax.py                 # every case, wall time
    python bench/bench_softmax.py --cpu           # this process's CPU time (steadier on a loaded machine)
    python bench/bench_softmax.py softmax exp     # some ops
    AGRAD_SRC=/other/tree/src python bench/bench_softmax.py --cpu   # another tree (before / after)

Ops (float32 and float64, shapes (64, 10), (1000, 10), (10000, 10), (64, 1000), (512, 1024)):
- softmax, log_softmax: forward along the last dim.
- softmax_fb, log_softmax_fb: forward and backward (sum of the result times a fixed gradient).
- cross_entropy: F.cross_entropy(x, target) forward + backward (x requires grad).
- exp, sigmoid: the element-wise ops alone.

agrad computes PyTorch's AVX2 bits (Sleef's expf / exp emulated step by step, the vector
reductions' order), numpy its own (an ulp away in some elements); torch runs on one thread.
Each figure is the median of 7 alternating repetitions (agrad, torch, numpy, agrad, ...).
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.environ.get("AGRAD_SRC", os.path.join(os.path.dirname(__file__), "..", "src")))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_engine  # noqa: E402

SHAPES = ((64, 10), (1000, 10), (10000, 10), (64, 1000), (512, 1024))
OPS = ("softmax", "log_softmax", "softmax_fb", "log_softmax_fb", "cross_entropy", "exp", "sigmoid")


def _numpy(op, x, t):
    def softmax():
        e = np.exp(x - x.max(-1, keepdims=True))
        return e / e.sum(-1, keepdims=True)

    def log_softmax():
        s = x - x.max(-1, keepdims=True)
        return s - np.log(np.exp(s).sum(-1, keepdims=True))

    g = np.ones_like(x) * x.dtype.type(0.5)

    def softmax_fb():
        y = softmax()
        return y * (g - (g * y).sum(-1, keepdims=True))

    def log_softmax_fb():
        y = log_softmax()
        return g - np.exp(y) * g.sum(-1, keepdims=True)

    def cross_entropy():
        y = log_softmax()
        loss = -y[np.arange(len(t)), t].mean()
        gy = np.zeros_like(y)
        gy[np.arange(len(t)), t] = -1 / len(t)
        return loss, gy - np.exp(y) * gy.sum(-1, keepdims=True)

    fns = {"softmax": softmax, "log_softmax": log_softmax, "softmax_fb": softmax_fb,
           "log_softmax_fb": log_softmax_fb, "cross_entropy": cross_entropy,
           "exp": lambda: np.exp(x), "sigmoid": lambda: 1 / (1 + np.exp(-x))}
    return fns[op]


def _torchlike(T, op, x, t):
    F = T.nn.functional
    xt = T.tensor(x)
    tt = T.tensor(t)
    g = T.ones(x.shape, dtype=xt.dtype) * 0.5

    def fb(fn):
        def run():
            xg = xt.detach().requires_grad_(True)
            (fn(xg, -1) * g).sum().backward()
            return xg.grad
        return run

    def cross_entropy():
        xg = xt.detach().requires_grad_(True)
        F.cross_entropy(xg, tt).backward()
        return xg.grad

    fns = {"softmax": lambda: T.softmax(xt, -1), "log_softmax": lambda: T.log_softmax(xt, -1),
           "softmax_fb": fb(T.softmax), "log_softmax_fb": fb(T.log_softmax), "cross_entropy": cross_entropy,
           "exp": lambda: T.exp(xt), "sigmoid": lambda: T.sigmoid(xt)}
    return fns[op]


def main(argv):
    if "--cpu" in argv:
        argv = [a for a in argv if a != "--cpu"]
        bench_engine.CLOCK = time.process_time
    ops = argv or OPS
    engines = bench_engine.engines()
    engines.pop("hips", None)
    rng = np.random.default_rng(0)
    print(f"{'op':15s} {'dtype':7s} {'shape':12s} {'agrad us':>10s} {'torch us':>10s} {'numpy us':>10s} "
          f"{'x torch':>8s} {'x numpy':>8s}")
    for op in ops:
        for dtype in (np.float32, np.float64):
            for shape in SHAPES:
                x = (rng.standard_normal(shape) * 3).astype(dtype)
                t = rng.integers(0, shape[1], shape[0])
                fns = {name: _torchlike(T, op, x, t) for name, T in engines.items()}
                fns["numpy"] = _numpy(op, x, t)
                res = bench_engine.alternate(fns)
                a, tr, nu = (res.get(k) for k in ("agrad", "torch", "numpy"))
                tr_s = f"{tr * 1e6:10.1f}" if tr else f"{'-':>10s}"
                ratio = f"{a / tr:8.1f}" if tr else f"{'-':>8s}"
                print(f"{op:15s} {np.dtype(dtype).name:7s} {str(shape):12s} {a * 1e6:10.1f} {tr_s} {nu * 1e6:10.1f} "
                      f"{ratio} {a / nu:8.1f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
