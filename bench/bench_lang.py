#!/usr/bin/env python
"""Benchmarks of the script language (issue 4).

1. Start-up: whole-process wall time of ``python -m agrad.lang`` running the
   seed's backward experiment (tests/golden/seeds/000_backward_experiment.py)
   against ``python -c "import torch"``, measured in the same run (median of
   N runs each, after one warm-up run that fills the parser cache).
   Target: agrad <= 0.12 x torch.
2. Parse throughput: a generated 10,000-line script parsed into AST nodes
   with positions (lark LALR + the AST builder), lines per second.
   Target: > 3,000 lines/s.

Usage: python bench/bench_lang.py [--runs N]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
SCRIPT = ROOT / "tests" / "golden" / "seeds" / "000_backward_experiment.py"


def wall(cmd, env) -> float:
    t0 = time.perf_counter()
    p = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        raise SystemExit(f"failed: {cmd}")
    return dt


def startup(runs: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    agrad_cmd = [sys.executable, "-m", "agrad.lang", str(SCRIPT)]
    torch_cmd = [sys.executable, "-c", "import torch"]
    # warm-up: fills the parser cache, and writes .pyc files as an installed package
    # has them (under PYTHONDONTWRITEBYTECODE=1 an edited checkout recompiles each run)
    wall(agrad_cmd, {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"})
    a, t = [], []
    for _ in range(runs):
        a.append(wall(agrad_cmd, env))
        t.append(wall(torch_cmd, env))
    ma, mt = statistics.median(a), statistics.median(t)
    return {"agrad_s": ma, "torch_import_s": mt, "ratio": ma / mt}


def make_script(lines: int) -> str:
    block = [
        "w{i} = tensor([1.0, 2.0, 3.0], requires_grad=True)",
        "l{i} = (w{i} * 2 + 1).sum() / 3 - mean(w{i} ** 2)",
        "if l{i} > 0 and not w{i}.is_leaf:",
        "    print(f'{{l{i}.item():.3f}}', w{i}[0:2], w{i}.grad)",
        "def f{i}(a, b=2, *args, **kw):",
        "    return [x * b for x in a if x is not None]",
        "d{i} = {{'k': (1, 2, 3), 'v': [i for i in range(3)]}}",
        "h{i} = w{i}.register_hook(lambda g: g * 0.5)  # a comment",
        "x{i}, y{i} = y{i} if False else 1, 2",
        "z{i} = w{i}.detach().clone()[..., None].shape",
    ]
    out = []
    i = 0
    while len(out) < lines:
        out.extend(s.format(i=i) for s in block)
        i += 1
    return "\n".join(out[:lines]) + "\n"


def throughput(lines: int = 10_000, repeats: int = 3) -> dict:
    sys.path.insert(0, str(SRC))
    from agrad.lang import Source
    from agrad.lang.parser import _PausedGC, get_parser, parse_script, parse_tree
    text = make_script(lines)
    get_parser()
    best_total = best_lark = float("inf")
    for _ in range(repeats):
        src = Source("big.py", text)
        t0 = time.perf_counter()
        parse_script(src)  # what the interpreter calls: lark + the AST builder
        t1 = time.perf_counter()
        with _PausedGC():
            parse_tree(text, "script", src)
        t2 = time.perf_counter()
        best_total = min(best_total, t1 - t0)
        best_lark = min(best_lark, t2 - t1)
    return {"lines": lines, "seconds": best_total, "lines_per_s": lines / best_total,
            "lark_only_lines_per_s": lines / best_lark}


def main() -> int:
    runs = 5
    if "--runs" in sys.argv:
        runs = int(sys.argv[sys.argv.index("--runs") + 1])
    s = startup(runs)
    print(f"start-up: agrad script {s['agrad_s'] * 1000:.0f} ms, python -c 'import torch' "
          f"{s['torch_import_s'] * 1000:.0f} ms, ratio {s['ratio']:.3f} (target <= 0.12)")
    t = throughput()
    print(f"parse: {t['lines']} lines in {t['seconds'] * 1000:.0f} ms = "
          f"{t['lines_per_s']:,.0f} lines/s with positions and AST "
          f"(lark alone {t['lark_only_lines_per_s']:,.0f} lines/s; target > 3,000)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
