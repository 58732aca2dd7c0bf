"""The cost of running every CLI command in a contained child process.

    python bench/bench_contain.py            # figures
    python bench/bench_contain.py --check    # also exit 1 when the target is missed

Whole-process wall time of ``agrad eval --format json SCRIPT`` as shipped
(fork, rlimits, seccomp filter, framed output through the parent) against
the same command with the child skipped (``run_command`` replaced by a
direct call of the command body; everything else identical).  Both run as
fresh processes, alternating, so machine load hits both alike; the figure
is the difference of the medians.  Target: at most 15 ms added.

Also: a print-heavy script (20,000 lines streamed, one frame per line), to
show what streaming costs per line.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SEED = REPO / "examples" / "backward_experiment.py"
PRINTS = "for i in range(20000):\n    print(i)\n"

UNCONTAINED = ("import sys, agrad.app.contained as c\n"
               "c.run_command = lambda command, run, req, kw: run(req, kw)\n"
               "from agrad.cli import main\n"
               "main(sys.argv[1:])\n")
CONTAINED = "import sys\nfrom agrad.cli import main\nmain(sys.argv[1:])\n"


def _subreaper() -> bool:
    """Become the reaper of orphans: the agrad process ends without waiting for its
    child, which then comes to us (so that its CPU time is counted)."""
    try:
        import ctypes
        return ctypes.CDLL(None).prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def run(cmd, env) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its children)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    cpu = ru.ru_utime + ru.ru_stime
    while True:  # the contained child, orphaned to us
        try:
            pid, _, ru = os.wait4(-1, 0)
        except ChildProcessError:
            break
        cpu += ru.ru_utime + ru.ru_stime
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, cmd))} failed ({p.returncode}): {err.decode()[-500:]}")
    return dt, cpu


def compare(args_, runs, env):
    contained = [sys.executable, "-c", CONTAINED, *args_]
    direct = [sys.executable, "-c", UNCONTAINED, *args_]
    run(contained, env), run(direct, env)  # warm-up: parser cache, .pyc files
    a, b = [], []
    for _ in range(runs):
        a.append(run(contained, env))
        b.append(run(direct, env))
    med = statistics.median
    return (med(x[0] for x in a), med(x[1] for x in a)), (med(x[0] for x in b), med(x[1] for x in b))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--check", action="store_true", help="exit 1 if the target is missed")
    args = ap.parse_args()
    env = dict(os.environ, PYTHONPATH=str(REPO / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with tempfile.TemporaryDirectory() as d:
        prints = Path(d) / "prints.py"
        prints.write_text(PRINTS)
        reaper = _subreaper()
        print(f"medians of {args.runs} alternating runs; load average "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
              + ("" if reaper else "; CPU time without the child (no subreaper)"))
        (cw, cc), (uw, uc) = compare(["eval", "--format", "json", str(SEED)], args.runs, env)
        added = (cw - uw) * 1000
        print(f"agrad eval --format json (seed experiment): wall contained {cw * 1000:.1f} ms, "
              f"in-process {uw * 1000:.1f} ms, added {added:+.1f} ms (target <= 15 ms); "
              f"CPU {cc * 1000:.1f} vs {uc * 1000:.1f} ms, added {(cc - uc) * 1000:+.1f} ms")
        (pw, pc), (qw, qc) = compare(["eval", "--format", "text", str(prints)], args.runs, env)
        print(f"agrad eval printing 20,000 lines (streamed): wall {pw * 1000:.1f} vs "
              f"{qw * 1000:.1f} ms, added {(pw - qw) * 1000:+.1f} ms "
              f"({(pw - qw) / 20000 * 1e6:+.1f} us a line); CPU added {(pc - qc) * 1000:+.1f} ms")
    return 1 if args.check and added > 15 else 0


if __name__ == "__main__":
    sys.exit(main())
