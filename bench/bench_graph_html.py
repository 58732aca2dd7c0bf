"""Speed and size of ``agrad graph --format html`` (issue 14, item 5).

    python bench/bench_graph_html.py               # figures
    python bench/bench_graph_html.py --check       # also exit 1 when a target is missed
    python bench/bench_graph_html.py --no-browser  # without the Chromium part

1. A 100,001-node chain (``y = sin(y)`` 100,000 times, then ``backward()``),
   in-process: the graph walk (``GraphModel``) plus the HTML page, with every
   node's gradient and saved tensors, as ``agrad graph -o g.html`` makes it.
   Targets: written in <= 2 s, under 5 MB.  Also the whole ``agrad graph -o``
   process (the script's run included), once, for reference.
2. In headless Chromium (``tools/chromium.py``): a 10,003-node graph (a
   2,500-step loop of ``tanh(sin(y) * w + 0.1)``, one collapsed run of
   9,996 nodes) -- first paint (navigation start to the frame after the
   first drawing) and expanding the run with a real click (click to the
   frame after it is drawn); the same graph with ``--expand`` (10,003 boxes
   laid out at once); and the 100,001-node chain's page, first paint and
   expanding its 100,000-node run.  Targets at 10^4 nodes: first paint
   <= 3 s, expand <= 0.5 s.

Medians of ``--runs`` (default 7) runs; the machine's load is printed.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "tools"))

CHAIN = "x = tensor(1.0, requires_grad=True)\ny = x\nfor i in range(100000):\n    y = sin(y)\ny.backward()\n"
LOOP = ("x = tensor([1.0, 2.0], requires_grad=True)\nw = tensor(0.5, requires_grad=True)\n"
        "y = x\nfor i in range(2500):\n    y = tanh(sin(y) * w + 0.1)\nloss = y.sum()\n")


def med(xs) -> str:
    return f"median {statistics.median(xs):.3f} (min {min(xs):.3f}, max {max(xs):.3f}, {len(xs)} runs)"


def session_of(path: Path):
    from agrad.app.session import Request, leaf_names, origin_fn, run_session
    s = run_session(Request(files=(str(path),)), observe_grads=True)
    assert s.error is None, s.error
    return s, origin_fn(s), leaf_names(s).get


def write_page(s, origins, names) -> tuple[float, float, int]:
    """(wall s, CPU s, bytes) of the graph walk and the page, as ``agrad graph -o`` makes them."""
    from agrad.render import htmlview
    from agrad.render.graphmodel import GraphModel
    gc.collect()
    t0, c0 = time.perf_counter(), time.process_time()
    model = GraphModel(s.target._grad_fn, origins=origins, leaf_names=names)
    parts = []
    htmlview.render_html(model, s.target_name, parts.append, grads=s.grads)
    data = "".join(parts).encode("utf-8")
    return time.perf_counter() - t0, time.process_time() - c0, len(data)


def calibration() -> str:
    """A fixed amount of pure-Python work (about 0.15 s on a quiet machine): how loaded this one is."""
    t0, c0 = time.perf_counter(), time.process_time()
    sum(range(10 ** 7))
    return f"sum(range(10**7)): {time.perf_counter() - t0:.3f} s wall, {time.process_time() - c0:.3f} s CPU"


def agrad_cmd():
    import shutil
    exe = shutil.which("agrad")
    return [exe] if exe else [sys.executable, "-m", "agrad"]


def browser_part(d: Path, runs: int, ok: bool) -> bool:
    import chromium
    if chromium.Browser.find() is None:
        print("no Chromium installed: browser figures skipped (apt-get install chromium)")
        return ok
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    pages = {}
    for name, script, extra in (("loop", LOOP, []), ("loop_expanded", LOOP, ["--expand"]),
                                ("chain", CHAIN, [])):
        src = d / f"{name}.py"
        src.write_text(script)
        out = d / f"{name}.html"
        subprocess.run(agrad_cmd() + ["graph", str(src), "-q", "-o", str(out), *extra], check=True, env=env)
        pages[name] = out
    with chromium.Browser() as b:
        warm = b.open(pages["loop"].as_uri())  # the file:// renderer process, started once
        warm.wait_for("document.documentElement.dataset.firstPaintMs")
        for name, expand in (("loop", True), ("loop_expanded", False), ("chain", True)):
            paint, grow = [], []
            for _ in range(runs):
                page = b.open(pages[name].as_uri())
                paint.append(float(page.wait_for("document.documentElement.dataset.firstPaintMs")) / 1000)
                if expand:
                    page.click_selector(".n.grp")
                    page.wait_for("agradPage.timings.expand.length > 0")
                    grow.append(page.eval("agradPage.timings.expand[0]") / 1000)
            size = pages[name].stat().st_size
            print(f"{name}: {size / 1e6:.3f} MB page; first paint {med(paint)} s"
                  + (f"; expand the run {med(grow)} s" if grow else ""))
            if name == "loop":
                ok = ok and statistics.median(paint) <= 3 and statistics.median(grow) <= 0.5
        assert not b.errors(), b.errors()
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    ap.add_argument("--no-browser", action="store_true")
    args = ap.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        chain = d / "chain.py"
        chain.write_text(CHAIN)
        s, origins, names = session_of(chain)
        times, cpu, size = [], [], 0
        for _ in range(args.runs):
            dt, dc, size = write_page(s, origins, names)
            times.append(dt)
            cpu.append(dc)
        print(f"100,001-node chain: HTML page {size / 1e6:.2f} MB (target < 5 MB), graph walk + page "
              f"{med(times)} s (target <= 2 s), in-process; CPU time {med(cpu)} s")
        ok = ok and size < 5e6 and statistics.median(times) <= 2
        del s
        t0 = time.perf_counter()
        env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
        subprocess.run(agrad_cmd() + ["graph", str(chain), "-q", "-o", str(d / "c.html")], check=True, env=env)
        print(f"agrad graph -o c.html of it, whole process (the script's 100,000 ops and backward "
              f"included): {time.perf_counter() - t0:.2f} s, once")
        if not args.no_browser:
            ok = browser_part(d, args.runs, ok)
    if hasattr(os, "getloadavg"):
        print(f"load average: {os.getloadavg()[0]:.2f} (a shared machine slows every figure); "
              + calibration())
    return 0 if (ok or not args.check) else 1


if __name__ == "__main__":
    raise SystemExit(main())
