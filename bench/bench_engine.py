"""Engine benchmarks, side by side in one run: agrad vs PyTorch eager vs HIPS autograd.

    python bench/bench_engine.py            # all benchmarks
    python bench/bench_engine.py chain seed # some of them
    python bench/bench_engine.py --cpu chain  # CPU time instead of wall time

Benchmarks (issue 2):
- chain:  a 1,000-op chain of small elementwise ops (sin, *c, +c, tanh) on a
          1-element tensor, forward + backward; microseconds per op.
- seed:   loss = mean((x*w1+w2)*(x*w1*w3)), x = ones(2,2), forward + backward.
- large:  loss = mean(tanh(X @ W1 + b1) @ W2) with X 512x1024, W1 1024x1024,
          against a hand-written numpy forward + backward (float32 and float64).
          agrad's float64 tanh is the correctly rounded one PyTorch's MKL gives (the
          long double path's bits, ops/_tanh64.py: some 4-5 ms here) and its backward's
          1 - t*t fused; numpy's tanh is an ulp away in a fifth of the values.
- memory: a 20-op elementwise chain on 4M float32 elements, forward + backward;
          peak memory above the idle process, each engine in its own process.

Ratios, not absolute times, are the result: these machines are shared and noisy.
torch and autograd are optional (pip install torch==2.13.0 autograd).
"""

from __future__ import annotations

import gc
import os
import statistics
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.environ.get("AGRAD_SRC", os.path.join(os.path.dirname(__file__), "..", "src")))  # AGRAD_SRC: another tree


#: the clock: wall time, or with --cpu this process's CPU time (steadier on a loaded machine)
CLOCK = time.perf_counter


def alternate(fns, repeat=7):
    """Median seconds per call of each of ``fns`` (name -> callable), timed alternately
    (a, b, a, b, ...) so that machine load hits each alike."""
    clock = CLOCK
    numbers = {}
    for name, fn in fns.items():
        number, t = 1, 0.0
        while t < 0.05:
            number *= 2
            start = clock()
            for _ in range(number):
                fn()
            t = clock() - start
        numbers[name] = number
    times = {name: [] for name in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            gc.collect()
            number = numbers[name]
            start = clock()
            for _ in range(number):
                fn()
            times[name].append((clock() - start) / number)
    return {name: statistics.median(ts) for name, ts in times.items()}


def engines():
    import agrad
    out = {"agrad": agrad}
    try:
        import torch
        torch.set_num_threads(1)
        out["torch"] = torch
    except ImportError:
        pass
    try:
        import autograd  # noqa: F401
        out["hips"] = None
    except ImportError:
        pass
    return out


# --- chain ------------------------------------------------------------------------

def chain_torchlike(T, n=250, dtype=None):
    dtype = dtype and getattr(T, dtype)

    def run():
        x = T.tensor([0.3], requires_grad=True, dtype=dtype)
        y = x
        for _ in range(n):
            y = T.tanh(T.sin(y) * 0.9 + 0.1)
        y.sum().backward()
    return run


def chain_hips(n=250):
    import autograd.numpy as anp
    from autograd import grad

    def f(x):
        y = x
        for _ in range(n):
            y = anp.tanh(anp.sin(y) * 0.9 + 0.1)
        return anp.sum(y)

    g = grad(f)
    x = np.array([0.3])
    return lambda: g(x)


def bench_chain():
    fns = {}
    for name, mod in engines().items():
        if name == "hips":
            fns["hips float64"] = chain_hips()
        else:
            for dt in ("float32", "float64"):
                fns[f"{name} {dt}"] = chain_torchlike(mod, dtype=dt)
    res = {k: v / 1000 * 1e6 for k, v in alternate(fns).items()}
    return "per-op overhead (us/op, fwd+bwd, 1,000-op chain; target agrad <= torch)", res


# --- seed ---------------------------------------------------------------------------

def seed_torchlike(T):
    x = T.ones(2, 2)

    def run():
        w1 = T.tensor(2.0, requires_grad=True)
        w2 = T.tensor(3.0, requires_grad=True)
        w3 = T.tensor(4.0, requires_grad=True)
        loss = T.mean((x * w1 + w2) * (x * w1 * w3))
        loss.backward()
    return run


def seed_hips():
    import autograd.numpy as anp
    from autograd import grad
    x = np.ones((2, 2))
    g = grad(lambda w: anp.mean((x * w[0] + w[1]) * (x * w[0] * w[2])))
    w = np.array([2.0, 3.0, 4.0])
    return lambda: g(w)


def bench_seed():
    fns = {name: seed_hips() if name == "hips" else seed_torchlike(mod) for name, mod in engines().items()}
    res = {k: v * 1e6 for k, v in alternate(fns).items()}
    return "seed expression (us per fwd+bwd; target agrad <= torch)", res


# --- large ----------------------------------------------------------------------------

def large_data(dtype):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((512, 1024)).astype(dtype)
    W1 = (rng.standard_normal((1024, 1024)) * 0.03).astype(dtype)
    b1 = rng.standard_normal(1024).astype(dtype)
    W2 = (rng.standard_normal((1024, 10)) * 0.03).astype(dtype)
    return X, W1, b1, W2


def large_numpy(X, W1, b1, W2):
    def run():
        h = X @ W1 + b1
        t = np.tanh(h)
        o = t @ W2
        loss = o.mean()
        g_o = np.full_like(o, 1.0 / o.size)
        g_W2 = t.T @ g_o
        g_t = g_o @ W2.T
        g_h = g_t * (1 - t * t)
        g_b1 = g_h.sum(0)
        g_W1 = X.T @ g_h
        return loss, g_W1, g_b1, g_W2
    return run


def large_torchlike(T, X, W1, b1, W2):
    Xt = T.from_numpy(X)
    def run():
        w1 = T.from_numpy(W1).requires_grad_()
        bb = T.from_numpy(b1).requires_grad_()
        w2 = T.from_numpy(W2).requires_grad_()
        loss = T.mean(T.tanh(Xt @ w1 + bb) @ w2)
        loss.backward()
    return run


def bench_large():
    import agrad
    rows = {}
    for dtype in (np.float32, np.float64):
        data = large_data(dtype)
        name = np.dtype(dtype).name
        res = alternate({f"numpy {name}": large_numpy(*data), f"agrad {name}": large_torchlike(agrad, *data)})
        rows.update({k: v * 1e3 for k, v in res.items()})
    return "large arrays (ms per fwd+bwd; target agrad <= 1.05x numpy)", rows


# --- memory ---------------------------------------------------------------------------

MEMORY_CHILD = r"""
import sys, numpy as np
sys.path.insert(0, {src!r})
which = sys.argv[1]
x0 = np.random.default_rng(0).standard_normal(4_000_000).astype(np.float32)
def peak():
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the parent across
    # fork + exec, so a child of a big parent would see no growth
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
# every child imports agrad, so that the allocator starts from the same heap in each:
# VmHWM after an import includes its transient peak, which differs from library to library
import agrad as T
if which == "torch":
    import torch as T
elif which == "hips":
    import autograd.numpy as anp
    from autograd import grad
base = peak()
if which == "numpy":
    # hand-written: keep only what backward needs (exp's output, which sin reads too)
    kept, y = [], x0
    for i in range(5):
        e = np.exp(y * 0.1)
        kept.append(e)
        y = np.sin(e) * 1.5 + 0.5
    total = y.sum()
    g = np.ones_like(y)
    for e in reversed(kept):
        g = g * 1.5 * np.cos(e) * e * 0.1
elif which == "hips":
    def f(x):
        for i in range(5):
            x = anp.sin(anp.exp(x * 0.1)) * 1.5 + 0.5
        return anp.sum(x)
    grad(f)(x0)
else:
    x = T.from_numpy(x0).requires_grad_()
    y = x
    for i in range(5):
        y = T.sin(T.exp(y * 0.1)) * 1.5 + 0.5
    y.sum().backward()
print(peak() - base)
"""


def bench_memory():
    src = os.environ.get("AGRAD_SRC", os.path.join(os.path.dirname(__file__), "..", "src"))
    res = {}
    for which in ["numpy"] + list(engines()):
        out = subprocess.run([sys.executable, "-c", MEMORY_CHILD.format(src=src), which],
                             capture_output=True, text=True)
        if out.returncode == 0:
            res[which] = int(out.stdout.strip()) / 1024
    return "memory: 20-op chain on 4M float32 (MiB peak above idle; target agrad <= 1.0x numpy)", res


BENCHES = {"chain": bench_chain, "seed": bench_seed, "large": bench_large, "memory": bench_memory}


def main(argv):
    global CLOCK
    if "--cpu" in argv:
        argv = [a for a in argv if a != "--cpu"]
        CLOCK = time.process_time
    for name in argv or BENCHES:
        title, res = BENCHES[name]()
        print(f"\n{title}")
        for k, v in res.items():
            if name == "large":
                ref, label = res["numpy " + k.split()[1]], "numpy"
            elif name == "memory":
                ref, label = res.get("numpy"), "numpy"
            elif name == "chain":
                ref, label = res.get("torch " + k.split()[-1]), "torch"
            else:
                ref, label = res.get("torch"), "torch"
            ratio = f"  ({v / ref:.2f}x {label})" if ref else ""
            print(f"  {k:16s} {v:10.2f}{ratio}")


if __name__ == "__main__":
    main(sys.argv[1:])
