"""Deep graphs: a chain of 10^6 ops, forward + backward + ``agrad graph`` (collapsed).

    python bench/bench_deep.py [--ops 1000000] [--no-cli]

1. In a fresh process: the chain ``y = tanh(sin(y) * w + 0.1)`` repeated
   (four ops a step) on a 3-element tensor, ``backward(retain_graph=True)``,
   then the graph view's layout and text (collapsed runs); wall time of each
   part and the peak resident memory (VmHWM) of the process.
2. The same script through the command line, ``agrad graph`` (a fresh,
   contained process, as a user runs it): wall time.

Target (issue 12): within 30 s and 4 GB.  No recursion limit may be hit, and
the time must grow linearly (compare --ops 250000 with --ops 1000000).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"

SCRIPT = ("x = tensor([0.5, 1.0, 1.5], requires_grad=True)\nw = tensor(0.9, requires_grad=True)\n"
          "y = x\nfor i in range({steps}):\n    y = tanh(sin(y) * w + 0.1)\nloss = y.sum()\n"
          "loss.backward(retain_graph=True)\n")

CHILD = r"""
import sys, time
sys.path.insert(0, {src!r})
import agrad as t
from agrad.render.graphmodel import GraphModel
from agrad.render.graphview import render_text

def peak_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024

steps = {steps}
t0 = time.perf_counter()
x = t.tensor([0.5, 1.0, 1.5], requires_grad=True)
w = t.tensor(0.9, requires_grad=True)
y = x
for _ in range(steps):
    y = t.tanh(t.sin(y) * w + 0.1)
loss = y.sum()
t1 = time.perf_counter()
loss.backward(retain_graph=True)
t2 = time.perf_counter()
model = GraphModel(loss.grad_fn)
size = [0]
def count(line):
    size[0] += len(line) + 1
render_text(model, count)
t3 = time.perf_counter()
print(f"{{t1 - t0:.2f}} {{t2 - t1:.2f}} {{t3 - t2:.2f}} {{peak_mb():.0f}} {{len(model.nodes)}} {{size[0]}} "
      f"{{time.process_time():.1f}}")
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ops", type=int, default=1_000_000)
    ap.add_argument("--no-cli", action="store_true")
    args = ap.parse_args()
    steps = args.ops // 4
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CHILD.format(src=str(SRC), steps=steps)],
                         capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if out.returncode != 0:
        print(out.stderr[-2000:])
        return 1
    fwd, bwd, graph, peak, nodes, size, cpu = out.stdout.split()
    print(f"{args.ops:,}-op chain in-process: forward {fwd} s, backward {bwd} s, graph layout + text {graph} s "
          f"({int(nodes):,} nodes, {int(size):,} characters); whole process {wall:.1f} s wall, "
          f"{cpu} s CPU, peak memory {peak} MB (target: 30 s, 4096 MB)")
    if not args.no_cli:
        with tempfile.TemporaryDirectory() as d:
            script = Path(d) / "deep.py"
            script.write_text(SCRIPT.format(steps=steps))
            env = {**os.environ, "PYTHONPATH": str(SRC)}
            t0 = time.perf_counter()
            before = os.times()
            r = subprocess.run([sys.executable, "-m", "agrad", "graph", "--format", "text", "--timeout", "600",
                                str(script)], env=env, capture_output=True, text=True)
            wall = time.perf_counter() - t0
            after = os.times()
            cpu = (after.children_user + after.children_system) - (before.children_user + before.children_system)
            status = "ok" if r.returncode == 0 else f"exit {r.returncode}: {r.stderr.strip()[-300:]}"
            print(f"agrad graph of the {args.ops:,}-op chain script (forward, backward, graph): "
                  f"{wall:.1f} s wall, {cpu:.1f} s CPU (the parent's; the contained child's when it is "
                  f"reaped by it), {len(r.stdout.splitlines())} lines ({status}) (target: 30 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
