"""Per-op overhead in machine instructions (callgrind), agrad vs PyTorch: steady on a shared machine.

    python bench/bench_instructions.py                    # chain32 chain64 seed, agrad and torch
    python bench/bench_instructions.py chain64            # some workloads
    python bench/bench_instructions.py --only agrad seed  # one engine (torch's figures do not change)
    AGRAD_SRC=/other/tree/src python bench/bench_instructions.py   # measure another tree

Wall-clock ratios (bench/bench_engine.py) move by 20-50 % when other processes share
the cores; instruction counts move by well under 1 %.  Each engine runs in its own
child process under ``valgrind --tool=callgrind --instr-atstart=no`` (so that neither
library's import or allocator state touches the other's).  The child imports, runs a
warm-up, turns instrumentation on, then measures two sizes of the same workload, each
between callgrind's ZERO_STATS and DUMP_STATS (client requests from a three-line C
helper built with gcc into a temporary directory):

- chain32 / chain64: the chain of bench_engine.py (``tanh(sin(y) * 0.9 + 0.1)``, four
  ops an iteration, on a 1-element float32 / float64 tensor that requires grad, then
  ``y.sum().backward()``), 200 ops then 1,200, after a warm-up chain of 200 ops.
  Figure: (instructions of the 1,200 run - those of the 200 run) / 1,000 =
  instructions per op, forward + backward, the fixed cost of each run (leaf creation,
  sum, backward call) cancelled out.
- seed: ``mean((x*w1+w2)*(x*w1*w3))`` with x = ones(2,2) and three scalar leaves,
  forward + backward, the whole of bench_engine.py's seed run: 5 runs then 25, after
  one warm-up run.  Figure: instructions per run.

The ratio column is agrad / torch; at or below 1.00 is issue 12's target.  Counts
include everything the process executes (the interpreter, numpy, PyTorch's C++), as
one core would; no timing is involved, so the figures repeat to within a few
instructions per op from run to run.  Environment pinned as in the tests:
ATEN_CPU_CAPABILITY=avx2, PYTHONHASHSEED=0, one thread.  Needs valgrind and gcc.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile

SRC = os.environ.get("AGRAD_SRC", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
VALGRIND = "/usr/bin/valgrind"

#: workload -> (warm-up size, small size, large size, unit)
WORKLOADS = {
    "chain32": (200, 200, 1200, "instructions/op, fwd+bwd"),
    "chain64": (200, 200, 1200, "instructions/op, fwd+bwd"),
    "seed": (1, 5, 25, "instructions/run, fwd+bwd"),
}

CHILD = r"""
import sys
sys.path.insert(0, {src!r})
engine, workload, warm = sys.argv[1], sys.argv[2], int(sys.argv[3].split(",")[0])
sizes = [int(n) for n in sys.argv[3].split(",")[1:]]
if engine == "agrad":
    import agrad as T
else:
    import torch as T
    T.set_num_threads(1)

def chain(n_ops, dtype):
    x = T.tensor([0.3], requires_grad=True, dtype=dtype)
    y = x
    for _ in range(n_ops // 4):
        y = T.tanh(T.sin(y) * 0.9 + 0.1)
    y.sum().backward()

def seed(runs):
    x = T.ones(2, 2)
    for _ in range(runs):
        w1 = T.tensor(2.0, requires_grad=True)
        w2 = T.tensor(3.0, requires_grad=True)
        w3 = T.tensor(4.0, requires_grad=True)
        loss = T.mean((x * w1 + w2) * (x * w1 * w3))
        loss.backward()

import ctypes
cg = ctypes.CDLL(sys.argv[4])
run = seed if workload == "seed" else chain
args = () if workload == "seed" else (T.float32 if workload == "chain32" else T.float64,)
run(warm, *args)
cg.agrad_bench_start()
for size in sizes:
    cg.agrad_bench_zero()
    run(size, *args)
    cg.agrad_bench_dump()
"""

HELPER = r"""
#include <valgrind/callgrind.h>
void agrad_bench_start(void) { CALLGRIND_START_INSTRUMENTATION; }
void agrad_bench_zero(void) { CALLGRIND_ZERO_STATS; }
void agrad_bench_dump(void) { CALLGRIND_DUMP_STATS; }
"""


def build_helper(tmp):
    """The shared library of callgrind's client requests (gcc, valgrind's headers)."""
    c, so = os.path.join(tmp, "cg.c"), os.path.join(tmp, "cg.so")
    with open(c, "w") as f:
        f.write(HELPER)
    subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-o", so, c], check=True)
    return so


def per_unit(engine, workload, helper):
    """Instructions per op (per run for seed): the difference of the two measured parts."""
    warm, small, large, _ = WORKLOADS[workload]
    env = dict(os.environ, ATEN_CPU_CAPABILITY="avx2", PYTHONHASHSEED="0",
               OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        proc = subprocess.run(
            [VALGRIND, "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
             sys.executable, "-c", CHILD.format(src=SRC), engine, workload, f"{warm},{small},{large}", helper],
            env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"{engine} {workload} failed:\n{proc.stderr[-2000:]}")
        counts = []
        for dump in sorted(f for f in os.listdir(tmp) if f.startswith("cg.out."))[:2]:
            with open(os.path.join(tmp, dump)) as f:
                counts.append(int(re.search(r"^(?:summary|totals):\s*(\d+)", f.read(), re.M).group(1)))
    return (counts[1] - counts[0]) / (large - small)


def main(argv):
    engines = ["agrad", "torch"]
    if "--only" in argv:
        i = argv.index("--only")
        engines = [argv[i + 1]]
        argv = argv[:i] + argv[i + 2:]
    with tempfile.TemporaryDirectory() as tmp:
        helper = build_helper(tmp)
        for workload in argv or WORKLOADS:
            report(workload, {engine: per_unit(engine, workload, helper) for engine in engines})


def report(workload, res):
    ratio = f"  ({res['agrad'] / res['torch']:.3f}x torch)" if len(res) == 2 else ""
    figures = "  ".join(f"{engine} {v / 1000:8.1f}k" for engine, v in res.items())
    print(f"{workload:8s} {figures}{ratio}   [{WORKLOADS[workload][3]}]", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
