"""Deep graphs: a chain of 10^6 ops, forward + backward + ``agrad graph`` (collapsed).

    python bench/bench_deep.py [--ops 1000000] [--no-cli]

1. In a fresh process: the chain ``y = tanh(sin(y) * w + 0.1)`` repeated
   (four ops a step) on a 3-element tensor, ``backward(retain_graph=True)``,
   then the graph view's layout and text (collapsed runs); wall and CPU time
   of each part and the peak resident memory (VmHWM) of the process.  The
   cyclic collector runs as under the command line (``agrad._collector``:
   full collections paced), or as CPython's default with ``--gc default``.
2. The same script through the command line, ``agrad graph`` and ``agrad
   eval`` (a fresh, contained process, as a user runs it): wall time, and
   the CPU time and peak memory of the processes (this one reaps the
   contained child that agrad leaves to tear its heap down).

Target (issue 12): within 30 s and 4 GB.  No recursion limit may be hit, and
the time must grow linearly (compare --ops 250000 with --ops 1000000).
"""

from __future__ import annotations

import argparse
import os
import resource
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
if {paced}:
    from agrad._collector import paced
    pacing = paced()  # kept: a dropped context manager is closed, and its exit ends the pacing
    pacing.__enter__()  # as the command line does (for the rest of the process)

def peak_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024

steps = {steps}
pt = time.process_time
t0, c0 = time.perf_counter(), pt()
x = t.tensor([0.5, 1.0, 1.5], requires_grad=True)
w = t.tensor(0.9, requires_grad=True)
y = x
for _ in range(steps):
    y = t.tanh(t.sin(y) * w + 0.1)
loss = y.sum()
t1, c1 = time.perf_counter(), pt()
loss.backward(retain_graph=True)
t2, c2 = time.perf_counter(), pt()
model = GraphModel(loss.grad_fn)
size = [0]
def count(line):
    size[0] += len(line) + 1
render_text(model, count)
t3, c3 = time.perf_counter(), pt()
print(f"{{t1 - t0:.2f}} {{t2 - t1:.2f}} {{t3 - t2:.2f}} {{c1 - c0:.2f}} {{c2 - c1:.2f}} {{c3 - c2:.2f}} "
      f"{{peak_mb():.0f}} {{len(model.nodes)}} {{size[0]}} {{time.process_time():.1f}}")
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ops", type=int, default=1_000_000)
    ap.add_argument("--no-cli", action="store_true")
    ap.add_argument("--gc", choices=["paced", "default"], default="paced",
                    help="the in-process run's cyclic collector: as the command line's, or CPython's")
    args = ap.parse_args()
    steps = args.ops // 4
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CHILD.format(src=str(SRC), steps=steps, paced=args.gc == "paced")],
                         capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if out.returncode != 0:
        print(out.stderr[-2000:])
        return 1
    fwd, bwd, graph, cfwd, cbwd, cgraph, peak, nodes, size, cpu = out.stdout.split()
    print(f"{args.ops:,}-op chain in-process (collector {args.gc}): forward {fwd} s wall / {cfwd} s CPU, "
          f"backward {bwd} / {cbwd} s, graph layout + text {graph} / {cgraph} s "
          f"({int(nodes):,} nodes, {int(size):,} characters); whole process {wall:.1f} s wall, "
          f"{cpu} s CPU, peak memory {peak} MB (target: 30 s, 4096 MB)")
    if not args.no_cli:
        for command in ("graph", "eval"):
            cli(command, steps, args.ops)
    return 0


def _subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants (Linux): the contained child
    that ``agrad`` leaves to tear its heap down is then waited for here, and its CPU time and
    peak memory are counted."""
    try:
        import ctypes
        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def cli(command: str, steps: int, ops: int) -> None:
    """``agrad graph`` (or ``eval``) of the chain script: wall time until agrad exits; CPU time
    and peak memory of the processes it ran."""
    with tempfile.TemporaryDirectory() as d:
        script = Path(d) / "deep.py"
        script.write_text(SCRIPT.format(steps=steps))
        env = {**os.environ, "PYTHONPATH": str(SRC)}
        reaper = _subreaper()
        t0 = time.perf_counter()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        extra = ["--format", "text"] if command == "graph" else []
        r = subprocess.run([sys.executable, "-m", "agrad", command, *extra, "--timeout", "600", str(script)],
                           env=env, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        peak = 0
        while reaper:  # the contained child, after agrad's exit
            try:
                _, _, ru = os.wait4(-1, 0)
            except ChildProcessError:
                break
            peak = max(peak, ru.ru_maxrss)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        status = "ok" if r.returncode == 0 else f"exit {r.returncode}: {r.stderr.strip()[-300:]}"
        counted = "agrad and its contained child" if reaper else "agrad only"
        print(f"agrad {command} of the {ops:,}-op chain script: {wall:.1f} s wall, {cpu:.1f} s CPU "
              f"({counted}), child's peak memory {peak / 1024:.0f} MB, {len(r.stdout.splitlines())} lines "
              f"({status}) (target: 30 s, 4096 MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
