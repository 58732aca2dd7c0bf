"""Whole-process start-up of the ``agrad`` command: the three targets in one run.

    python bench/bench_startup.py                 # this tree
    python bench/bench_startup.py --compare DIR   # also another tree's src/ (alternating)

Fresh processes, alternating (every command once per round, so machine load
hits all alike), medians over ``--runs`` rounds (default 9).  Wall time, and
CPU time: user + system of the process and its children; this process is
their subreaper, so the contained child (which ``agrad`` does not wait for)
is counted too.

1. ``agrad eval --format json examples/backward_experiment.py`` against
   ``python -c "import numpy, lark, click, rich"`` (its dependencies' import):
   issue 12 asks for at most 1.1x (wall; the CPU ratio is printed too: on a
   shared machine it is the steadier figure).
2. ``agrad eval --format json examples/training_template.py``: issue 9 asks
   for at most 0.5 s of CPU for the whole process.
3. ``agrad diff`` of the seed expression (README's tour): issue 15 asks for
   at most 0.3 s (wall).

``python -c pass`` is measured too, for scale.  The .pyc files are written by
a warm-up run first (the contained child cannot write them).
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
SEED = ROOT / "examples" / "backward_experiment.py"
TEMPLATE = ROOT / "examples" / "training_template.py"
DIFF = ["diff", "--format", "text", "-q", "-e", "loss = mean((x*w1+w2)*(x*w1*w3))", "--set", "x=ones(2,2)",
        "--param", "w1=2", "--param", "w2=3", "--param", "w3=4"]


def _subreaper() -> bool:
    """Become the reaper of orphans: ``agrad`` ends without waiting for its contained
    child, which then comes to us, so that its CPU time is counted too."""
    try:
        import ctypes
        return ctypes.CDLL(None).prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def run(cmd, env):
    """(wall seconds, CPU seconds of the process and its children, the orphaned contained
    child included when this process is their reaper)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    cpu = ru.ru_utime + ru.ru_stime
    while True:  # the contained child, orphaned to us
        try:
            _, _, ru = os.wait4(-1, 0)
        except ChildProcessError:
            break
        cpu += ru.ru_utime + ru.ru_stime
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"{' '.join(map(str, cmd))} failed ({code}): {err.decode()[-500:]}")
    return wall, cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--compare", metavar="SRC", help="another tree's src/ folder, measured alternately")
    args = ap.parse_args()
    reaper = _subreaper()
    py = sys.executable
    base_env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    trees = {"this tree": str(ROOT / "src")}
    if args.compare:
        trees["compared"] = str(Path(args.compare).resolve())
    cmds = {("python -c pass", None): [py, "-c", "pass"],
            ("deps import", None): [py, "-c", "import numpy, lark, click, rich"]}
    for label in trees:
        cmds[("eval seed (json)", label)] = [py, "-m", "agrad", "eval", "--format", "json", str(SEED)]
        cmds[("eval template (json)", label)] = [py, "-m", "agrad", "eval", "--format", "json", str(TEMPLATE)]
        cmds[("diff seed expression", label)] = [py, "-m", "agrad"] + DIFF
    envs = {label: {**base_env, "PYTHONPATH": src} for label, src in trees.items()}
    envs[None] = base_env
    for (what, label), cmd in cmds.items():   # warm-up: .pyc files, the parser cache
        run(cmd, envs[label])
    times = {k: [] for k in cmds}
    for _ in range(args.runs):
        for key, cmd in cmds.items():
            times[key].append(run(cmd, envs[key[1]]))
    med = {k: (statistics.median(t[0] for t in v), statistics.median(t[1] for t in v)) for k, v in times.items()}
    for (what, label), (wall, cpu) in med.items():
        name = what if label is None else f"{what} [{label}]"
        print(f"{name:42s} wall {wall * 1000:6.0f} ms   CPU {cpu * 1000:6.0f} ms")
    deps, deps_cpu = med[("deps import", None)]
    for label in trees:
        seed, template, diff = (med[(w, label)] for w in ("eval seed (json)", "eval template (json)",
                                                           "diff seed expression"))
        print(f"[{label}] eval seed / deps import: {seed[0] / deps:.2f}x wall, {seed[1] / deps_cpu:.2f}x CPU "
              f"(target <= 1.1x, issue 12); "
              f"template CPU {template[1]:.3f} s (target <= 0.5 s, issue 9); "
              f"diff wall {diff[0]:.3f} s (target <= 0.3 s, issue 15)")
    print(f"medians of {args.runs} alternating rounds"
          + ("" if reaper else "; the contained child's CPU is not counted (no subreaper)")
          + (f"; load average {os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
