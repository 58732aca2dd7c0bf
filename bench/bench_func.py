"""Jacobians and Hessians: agrad vs PyTorch, alternating runs.

    python bench/bench_func.py [--runs N]

- jacobian:   torch.autograd.functional.jacobian(f, x, vectorize=True) of
              f(x) = tanh(W @ x + b), 100 -> 100 (issue 15: within 2x torch);
- jacrev:     torch.func.jacrev(f)(x), the same function;
- hessian:    torch.autograd.functional.hessian(g, x, vectorize=True) of
              g(x) = (sin(x) * (W @ x)).sum(), 100 inputs;
- vmap_mlp:   torch.func.vmap(mlp)(X) of a small MLP (32 -> 64 tanh -> 10,
              log_softmax) over 1,000 samples: one call on batched tensors;
- loop_mlp:   the same as a Python loop over the samples and a stack (what
              vmap cost when it called the function once per element);
- vmap_grad:  per-sample gradients, vmap(grad(loss), in_dims=(None, 0, 0))
              of the MLP's NLL loss w.r.t. its weights, 1,000 samples.

Each run times one call of each engine in turn (agrad, torch, agrad, ...),
after a warm-up call; the figure is the median of ``--runs`` runs (>= 7) and
the ratio agrad / torch of the medians.  Both compute on one thread: torch
through ``set_num_threads(1)``, numpy's BLAS through OMP/OPENBLAS/MKL_NUM_THREADS=1
set before numpy loads (a multi-threaded OpenBLAS on a busy two-core machine
takes milliseconds for a 100x100 product).  The machine is shared: ratios, not
absolute times, are the result.  torch is optional (pip install torch==2.13.0).
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

N = 100
SAMPLES = 1000


def cases(mod):
    rng = np.random.default_rng(0)
    W = mod.tensor(rng.standard_normal((N, N)).astype(np.float32) / 10)
    b = mod.tensor(rng.standard_normal(N).astype(np.float32))
    x = mod.tensor(rng.standard_normal(N).astype(np.float32))
    fn = mod.autograd.functional

    def f(t):
        return mod.tanh(W @ t + b)

    def g(t):
        return (mod.sin(t) * (W @ t)).sum()

    W1 = mod.tensor(rng.standard_normal((64, 32)).astype(np.float32) / 6)
    b1 = mod.tensor(rng.standard_normal(64).astype(np.float32) / 6)
    W2 = mod.tensor(rng.standard_normal((10, 64)).astype(np.float32) / 8)
    X = mod.tensor(rng.standard_normal((SAMPLES, 32)).astype(np.float32))
    T = mod.tensor(rng.integers(0, 10, SAMPLES))
    F = mod.nn.functional

    def mlp(a, w1=W1):
        return (W2 @ mod.tanh(F.linear(a, w1, b1))).log_softmax(-1)

    def loss(w1, a, t):
        return F.nll_loss(mlp(a, w1).unsqueeze(0), t.unsqueeze(0))

    return {
        "vmap_mlp": lambda: mod.func.vmap(mlp)(X),
        "loop_mlp": lambda: mod.stack([mlp(X[i]) for i in range(SAMPLES)]),
        "vmap_grad": lambda: mod.func.vmap(mod.func.grad(loss), in_dims=(None, 0, 0))(W1, X, T),
        "jacobian": lambda: fn.jacobian(f, x, vectorize=True),
        "jacrev": lambda: mod.func.jacrev(f)(x),
        "hessian": lambda: fn.hessian(g, x, vectorize=True),
    }


def once(call) -> float:
    gc.collect()
    t = time.perf_counter()
    call()
    return time.perf_counter() - t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args(argv)
    runs = max(7, args.runs)
    import agrad
    import agrad.func  # noqa: F401
    engines = {"agrad": agrad}
    try:
        import torch
        import torch.func  # noqa: F401
        torch.set_num_threads(1)
        engines["torch"] = torch
    except ImportError:
        print("torch is not installed: agrad's times only")
    table = {name: cases(mod) for name, mod in engines.items()}
    print(f"median of {runs} alternating runs, seconds per call (shared machine: compare ratios)")
    for case in table["agrad"]:
        for name in engines:
            table[name][case]()  # warm-up
        times = {name: [] for name in engines}
        for _ in range(runs):
            for name in engines:
                times[name].append(once(table[name][case]))
        med = {name: statistics.median(ts) for name, ts in times.items()}
        line = f"{case:9s} " + "  ".join(f"{name} {med[name] * 1e3:8.2f} ms" for name in engines)
        if "torch" in med:
            line += f"   agrad/torch {med['agrad'] / med['torch']:.2f}x"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
