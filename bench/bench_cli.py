"""Whole-process speed of the agrad command line.

    python bench/bench_cli.py            # figures
    python bench/bench_cli.py --check    # also exit 1 when a target is missed

1. ``agrad eval --format json examples/backward_experiment.py`` against
   ``python -c "import torch"`` and against the import of agrad's own
   dependencies (``import numpy, lark, click, rich``), all as fresh
   processes, medians over the same number of alternating runs (so machine
   load hits them alike).  Targets: at most 0.25 s, at most 0.15x the torch
   import, and (issue 12) at most 1.1x the dependencies' import.
2. ``agrad graph`` of a 10,000-node graph (a 2,500-step loop of
   tanh(sin(y) * w + 0.1)), whole process, and the graph part alone
   (layout and text rendering, in-process).  Target: under 2 s.
3. ``agrad graph`` where every node is shared (``y = y*y*0 + y`` repeated):
   text size and time of the graph part for 3,000 and 100,000 steps.  The
   text grows with nodes + edges (it was 136 MB at 3,000 steps before the
   tree got its depth limit).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SEED = REPO / "examples" / "backward_experiment.py"
GRAPH_10K = ("x = tensor([1.0, 2.0], requires_grad=True)\nw = tensor(0.5, requires_grad=True)\n"
             "y = x\nfor i in range(2500):\n    y = tanh(sin(y) * w + 0.1)\nloss = y.sum()\n")


def agrad_cmd():
    exe = shutil.which("agrad")
    return [exe] if exe else [sys.executable, "-m", "agrad"]


def wall(cmd, **kw) -> float:
    t0 = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kw)
    dt = time.perf_counter() - t0
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, cmd))} failed ({r.returncode}): {r.stderr.decode()[-500:]}")
    return dt


def have_torch() -> bool:
    return subprocess.run([sys.executable, "-c", "import torch"], capture_output=True).returncode == 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    args = ap.parse_args()
    agrad = agrad_cmd()
    eval_cmd = agrad + ["eval", "--format", "json", str(SEED)]
    torch_cmd = [sys.executable, "-c", "import torch"]
    deps_cmd = [sys.executable, "-c", "import numpy, lark, click, rich"]
    torch_ok = have_torch()

    # Warm-up: the parser cache, the file cache, and fresh .pyc files (an installed
    # package has them; an editable checkout under PYTHONDONTWRITEBYTECODE=1 would
    # otherwise recompile every module it imports on every run).
    warm_env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    wall(eval_cmd, env=warm_env)
    wall(agrad + ["graph", "--format", "text", "-e", "x = ones(1, requires_grad=True)", "-e", "y = x * 2"],
         env=warm_env)
    if torch_ok:
        wall(torch_cmd)
    ev, tc, dp = [], [], []
    for _ in range(args.runs):
        ev.append(wall(eval_cmd))
        dp.append(wall(deps_cmd))
        if torch_ok:
            tc.append(wall(torch_cmd))
    ev_med = statistics.median(ev)
    print(f"agrad eval --format json (seed experiment): median {ev_med:.3f} s "
          f"(min {min(ev):.3f}, max {max(ev):.3f}, {args.runs} alternating runs)")
    dp_med = statistics.median(dp)
    print(f'python -c "import numpy, lark, click, rich": median {dp_med:.3f} s; '
          f"ratio {ev_med / dp_med:.2f}x its dependencies' import (target <= 1.1x, issue 12)")
    ok = ev_med <= 0.25
    if torch_ok:
        tc_med = statistics.median(tc)
        ratio = ev_med / tc_med
        print(f'python -c "import torch":                  median {tc_med:.3f} s '
              f"(min {min(tc):.3f}, max {max(tc):.3f})")
        print(f"ratio: {ratio:.3f}x the torch import (target <= 0.15x)")
        ok = ok and ratio <= 0.15
    else:
        print("torch is not installed: no comparison")

    with tempfile.TemporaryDirectory() as d:
        script = Path(d) / "graph10k.py"
        script.write_text(GRAPH_10K)
        g = [wall(agrad + ["graph", "--format", "text", str(script)]) for _ in range(3)]
        g_med = statistics.median(g)
        print(f"agrad graph, 10,003-node graph, whole process: median {g_med:.3f} s (target < 2 s)")
        ok = ok and g_med < 2.0

    sys.path.insert(0, str(REPO / "src"))
    import agrad as t
    from agrad.render.graphmodel import GraphModel
    from agrad.render.graphview import render_text
    x = t.tensor([1.0, 2.0], requires_grad=True)
    w = t.tensor(0.5, requires_grad=True)
    y = x
    for _ in range(2500):
        y = t.tanh(t.sin(y) * w + 0.1)
    y = y.sum()
    t0 = time.perf_counter()
    model = GraphModel(y.grad_fn)
    lines = []
    render_text(model, lines.append)
    dt = time.perf_counter() - t0
    print(f"graph layout + text of {len(model.nodes):,} nodes, in-process: {dt * 1000:.1f} ms")
    y = x
    for _ in range(25000):
        y = t.tanh(t.sin(y) * w + 0.1)
    y = y.sum()
    t0 = time.perf_counter()
    model = GraphModel(y.grad_fn)
    render_text(model, [].append)
    print(f"graph layout + text of {len(model.nodes):,} nodes, in-process: "
          f"{(time.perf_counter() - t0) * 1000:.1f} ms")
    for steps in (3000, 100_000):
        y = x
        for _ in range(steps):
            y = y * y * 0 + y
        t0 = time.perf_counter()
        model = GraphModel(y.grad_fn)
        size = [0]

        def count(line, size=size):
            size[0] += len(line.encode()) + 1

        render_text(model, count)
        print(f"shared-node graph, {steps:,} steps ({len(model.nodes):,} nodes, {len(model.edges):,} edges): "
              f"{size[0] / 1e6:.2f} MB of text in {(time.perf_counter() - t0) * 1000:.0f} ms, in-process")
        del y, model
    print(f"load average: {os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "")
    return 0 if (ok or not args.check) else 1


if __name__ == "__main__":
    raise SystemExit(main())
