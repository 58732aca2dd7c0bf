"""Training speed: 300 SGD steps of a 2-layer MLP (batch 64, 32 -> 64 -> 10,
CrossEntropyLoss), agrad against PyTorch in one process, and the seeds'
training template as a whole ``agrad eval`` process.

    python bench/bench_training.py [--runs 7] [--steps 300]

Reports the median of alternating runs (agrad, torch, agrad, torch, ...) and
the ratio; the targets (issue 9) are <= 1.5x PyTorch and <= 0.5 s for the CLI.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, os.environ.get("AGRAD_SRC", str(ROOT / "src")))  # AGRAD_SRC: measure another tree

TEMPLATE = ROOT / "examples" / "training_template.py"


def train(torch, steps, seed=0):
    nn = torch.nn
    torch.manual_seed(seed)
    net = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10))
    opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()
    x = torch.randn(64, 32)
    y = torch.randint(0, 10, (64,))
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(steps):
        opt.zero_grad()
        loss = loss_fn(net(x), y)
        loss.backward()
        opt.step()
    float(loss.detach())
    return time.perf_counter() - t0, time.process_time() - c0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--no-cli", action="store_true")
    args = ap.parse_args()
    import agrad
    try:
        import torch
        torch.set_num_threads(1)
    except ImportError:
        torch = None
    train(agrad, 5)
    if torch is not None:
        train(torch, 5)
    ours, theirs = [], []
    for _ in range(args.runs):
        ours.append(train(agrad, args.steps))
        if torch is not None:
            theirs.append(train(torch, args.steps))
    for k, what in ((0, "wall"), (1, "CPU")):
        a = statistics.median(r[k] for r in ours)
        line = f"MLP {args.steps} SGD steps ({what} time): agrad {a * 1000:.1f} ms"
        if theirs:
            t = statistics.median(r[k] for r in theirs)
            line += f", torch {t * 1000:.1f} ms, ratio {a / t:.2f}x (target <= 1.5x)"
        print(line + f"  [median of {args.runs} alternating runs]")
    if not args.no_cli and TEMPLATE.exists():
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        times = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "agrad", "eval", str(TEMPLATE), "--format",
                            "json"], env=env, capture_output=True, check=False)
            times.append(time.perf_counter() - t0)
        print(f"agrad eval {TEMPLATE.name}: {statistics.median(times) * 1000:.0f} ms "
              f"(target <= 500 ms)  [median of {args.runs}]")


if __name__ == "__main__":
    main()
