"""What the inspector costs (issue 14), as ratios to a plain run.

    python bench/bench_inspect.py            # all
    python bench/bench_inspect.py anomaly    # some

- anomaly: ``agrad eval --anomaly`` against ``agrad eval`` (both run the
  script and the automatic backward), on a 2,000-step tanh chain and on the
  training template; the target is <= 2x.
- trace: ``agrad trace`` of a 10^4-node graph (a 2,500-step chain of four
  ops), JSON and text; seconds, the target is <= 2 s.

Each figure is the median of 7 alternating runs, in-process (no process
start-up), after one warm-up run.  The machine may be shared: ratios, not
absolute times, are the result.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

ROOT = os.path.join(os.path.dirname(__file__), "..")
REPEAT = 7


def _run(args):
    from click.testing import CliRunner
    from agrad.cli import cli
    r = CliRunner().invoke(cli, args, catch_exceptions=False)
    return r.exit_code


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the contained child runs the
    command): less sensitive than wall time to other jobs on a shared machine."""
    import resource
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


CPU: dict = {}  # name -> median CPU seconds of the last _alternating call


def _alternating(runs: dict) -> dict:
    """Median wall seconds of each named run, the runs taken in turn ``REPEAT`` times
    (medians of CPU seconds in :data:`CPU`)."""
    for fn in runs.values():
        fn()  # warm-up
    times = {k: [] for k in runs}
    cpu = {k: [] for k in runs}
    for _ in range(REPEAT):
        for k, fn in runs.items():
            c0, t0 = _cpu(), time.perf_counter()
            fn()
            times[k].append(time.perf_counter() - t0)
            cpu[k].append(_cpu() - c0)
    CPU.clear()
    CPU.update({k: statistics.median(v) for k, v in cpu.items()})
    return {k: statistics.median(v) for k, v in times.items()}


def bench_anomaly() -> None:
    chain = os.path.join(ROOT, "examples", "tanh_chain.py")
    train = os.path.join(ROOT, "examples", "training_template.py")
    for label, base in (("tanh chain, n=2000", [chain, "--set", "n=2000"]),
                        ("training template", [train])):
        common = ["eval", *base, "--no-table", "-q", "--format", "text"]
        m = _alternating({"plain": lambda: _run(common), "anomaly": lambda: _run(common + ["--anomaly"])})
        print(f"anomaly  {label:22s} plain {m['plain'] * 1e3:8.1f} ms  --anomaly {m['anomaly'] * 1e3:8.1f} ms"
              f"  ratio {m['anomaly'] / m['plain']:.2f}x  (CPU {CPU['plain']:.2f} s / {CPU['anomaly']:.2f} s:"
              f" {CPU['anomaly'] / CPU['plain']:.2f}x)")


def bench_trace() -> None:
    chain = os.path.join(ROOT, "examples", "tanh_chain.py")
    args = ["trace", chain, "--set", "n=2500", "-q", "--columns", "100"]
    m = _alternating({"json": lambda: _run(args + ["--format", "json"]),
                      "text": lambda: _run(args + ["--format", "text"]),
                      "eval": lambda: _run(["eval", chain, "--set", "n=2500", "-q", "--no-table"])})
    print(f"trace    10^4 nodes: json {m['json']:.2f} s  text {m['text']:.2f} s"
          f"  (plain eval of the script {m['eval']:.2f} s); CPU json {CPU['json']:.2f} s"
          f"  text {CPU['text']:.2f} s  eval {CPU['eval']:.2f} s")


BENCHES = {"anomaly": bench_anomaly, "trace": bench_trace}

if __name__ == "__main__":
    names = sys.argv[1:] or list(BENCHES)
    for n in names:
        BENCHES[n]()
