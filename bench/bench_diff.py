"""Whole-process speed of ``agrad diff`` (issue 15: within 0.3 s).

    python bench/bench_diff.py            # figures
    python bench/bench_diff.py --check    # also exit 1 when the target is missed

Fresh processes, medians over the same number of alternating runs (so machine
load hits all alike):

1. ``agrad diff`` of the seed expression, ``loss = mean((x*w1+w2)*(x*w1*w3))``
   with ``x = ones(2,2)`` and leaves ``w1, w2, w3`` (README's tour);
   target: median at most 0.3 s.
2. ``agrad diff examples/backward_experiment.py`` (the script runs its own
   backward pass, so agrad replays the graph in float64 first).
3. ``agrad eval`` of the same seed expression, for scale: what ``diff`` adds
   is the difference.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_cli import REPO, SEED, agrad_cmd  # noqa: E402


def wall(cmd, **kw):
    """(wall seconds, CPU seconds of the process and its children)."""
    import resource
    import subprocess
    import time
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kw)
    dt = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, cmd))} failed ({r.returncode}): {r.stderr.decode()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return dt, cpu

SEED_ARGS = ["-e", "loss = mean((x*w1+w2)*(x*w1*w3))", "--set", "x=ones(2,2)",
             "--param", "w1=2", "--param", "w2=3", "--param", "w3=4"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--check", action="store_true", help="exit 1 if the target is missed")
    args = ap.parse_args()
    agrad = agrad_cmd()
    cmds = {
        "agrad diff (seed expression)": agrad + ["diff", "--format", "text", "-q"] + SEED_ARGS,
        "agrad diff examples/backward_experiment.py": agrad + ["diff", "--format", "text", "-q", str(SEED)],
        "agrad eval (seed expression)": agrad + ["eval", "--format", "text", "-q"] + SEED_ARGS,
    }
    warm_env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for cmd in cmds.values():
        wall(cmd, env=warm_env, cwd=REPO)
    times = {k: [] for k in cmds}
    for _ in range(args.runs):
        for k, cmd in cmds.items():
            times[k].append(wall(cmd, cwd=REPO))
    for k, ts in times.items():
        w = [t[0] for t in ts]
        c = [t[1] for t in ts]
        print(f"{k:45s} wall median {statistics.median(w):.3f} s (min {min(w):.3f}, max {max(w):.3f}); "
              f"CPU median {statistics.median(c):.3f} s ({args.runs} runs)")
    med = statistics.median(t[0] for t in times["agrad diff (seed expression)"])
    cpu = statistics.median(t[1] for t in times["agrad diff (seed expression)"])
    extra = cpu - statistics.median(t[1] for t in times["agrad eval (seed expression)"])
    print(f"diff over eval: {extra * 1000:+.0f} ms of CPU; target: diff of the seed expression <= 0.3 s: "
          f"wall {'met' if med <= 0.3 else 'MISSED'}, CPU {'met' if cpu <= 0.3 else 'MISSED'}")
    if hasattr(os, "getloadavg"):
        print(f"load average: {os.getloadavg()[0]:.2f}")
    return 1 if args.check and med > 0.3 else 0


if __name__ == "__main__":
    sys.exit(main())
