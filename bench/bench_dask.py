"""Data larger than memory (issue 16): agrad --backend dask against a chunked numpy loop.

    python bench/bench_dask.py                       # 4 GiB file, --max-memory 1G, 7 runs
    python bench/bench_dask.py --max-memory 512M --repeat 3 --dir /tmp
    python bench/bench_dask.py --runs numpy-1,cluster --workers 1 --worker-threads 2   # a layout

Computes ``loss = ((X @ w - y)**2).mean()`` and its gradient with respect to
``w`` over an ``X`` stored as a ``.npy`` file four times larger than the
memory the agrad run may use (``--max-memory``):

* numpy:   a hand-written loop over the same file, chunk by chunk (explicit
           reads into one buffer, ``X_c @ w``, ``X_c.T @ r``), one thread, run twice:
           with the threads numpy's BLAS starts with (one per core) and with one
           BLAS thread (as agrad's dask runs use: dask runs a task per core); the
           faster of the two is the reference;
* threads: ``agrad eval --backend dask`` (the threaded scheduler, inside the
           sandbox);
* cluster: ``agrad eval --backend dask --trusted --scheduler ADDRESS`` on a
           ``dask.distributed.LocalCluster`` of 2 worker processes of 1 thread
           (dask's default on 2 cores), started once before the runs in a
           process of its own (its start-up is not in any figure), with the
           workers' statistical profiler off and the scheduler's and
           workers' diagnostics ticking less often (``LEAN``): on an idle
           cluster they cost 5% of a core per process, more while tasks run.

Throughput is the file's size over the time of the computation; for agrad
that is the run's wall time minus the median wall time of the same command
on an empty script (start-up, imports, the scheduler connection), and the
end-to-end figure is shown too.  Runs alternate (numpy, threads, cluster);
the medians are reported.  The peak RSS (VmHWM) of every process the runs
start -- agrad's parent and contained child, the cluster's scheduler,
nannies and workers -- must stay below a quarter of the file's size.
The machines these run on are shared: ratios, not absolute times.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time

import numpy as np

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
COLS = 128
SCRIPT = "loss = ((X @ w - y)**2).mean()"
#: The cluster's configuration: diagnostics that cost CPU and that a batch job does not read.
LEAN = {"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "1s",
        "distributed.admin.system-monitor.interval": "2s"}


def parse_size(text):
    sys.path.insert(0, SRC)
    from agrad.app.contained import parse_size as parse
    return parse(text)


def blas_threads(n):
    sys.path.insert(0, SRC)
    from agrad.app.backend import blas_threads as set_threads
    return set_threads(n)


# ------------------------------------------------------------------ data

def make_data(directory, file_bytes):
    """X (rows x 128 float64) of ``file_bytes``, y; written in pieces, reused when present."""
    rows = file_bytes // (COLS * 8)
    xp, yp = os.path.join(directory, "bench_dask_X.npy"), os.path.join(directory, "bench_dask_y.npy")
    if os.path.exists(xp) and np.load(xp, mmap_mode="r").shape == (rows, COLS):
        return xp, yp, rows
    X = np.lib.format.open_memmap(xp, mode="w+", dtype=np.float64, shape=(rows, COLS))
    rng = np.random.default_rng(0)
    w = rng.standard_normal(COLS)
    y = np.empty(rows)
    step = 1 << 16
    for i in range(0, rows, step):
        block = rng.standard_normal((min(step, rows - i), COLS))
        X[i:i + len(block)] = block
        y[i:i + len(block)] = block @ w + 0.1 * rng.standard_normal(len(block))
    X.flush()
    del X
    np.save(yp, y)
    return xp, yp, rows


def numpy_loop(xp, yp, rows, chunk_rows=1 << 16):
    """The hand-written baseline: explicit reads of row blocks, forward and gradient."""
    with open(xp, "rb") as f:
        version = np.lib.format.read_magic(f)
        read = np.lib.format.read_array_header_1_0 if version == (1, 0) else \
            np.lib.format.read_array_header_2_0
        read(f)
        offset = f.tell()
    y = np.load(yp, mmap_mode="r")
    w = np.zeros(COLS)
    buf = np.empty((chunk_rows, COLS))
    loss, grad = 0.0, np.zeros(COLS)
    fd = os.open(xp, os.O_RDONLY)
    try:
        for start in range(0, rows, chunk_rows):
            n = min(chunk_rows, rows - start)
            view = memoryview(buf[:n]).cast("B")
            pos = offset + start * COLS * 8
            while view:
                k = os.preadv(fd, [view], pos)
                view, pos = view[k:], pos + k
            xc = buf[:n]
            r = xc @ w - y[start:start + n]
            loss += float(r @ r)
            grad += xc.T @ r
    finally:
        os.close(fd)
    return loss / rows, grad * (2.0 / rows)


# ------------------------------------------------------------------ peak RSS of every process

class Peaks:
    """VmHWM of every descendant of this process, polled every 20 ms (once it has exec'd: a
    child forked or vforked by ``subprocess`` shows this process's peak until then)."""

    def __init__(self):
        self.peak = {}  # pid -> (kB, name)
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)

    def __enter__(self):
        self._t.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._t.join()

    def _children(self, pid):
        out = []
        try:
            for tid in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{tid}/children") as f:
                    out += [int(c) for c in f.read().split()]
        except OSError:
            pass
        return out

    def _run(self):
        me = os.getpid()
        with open(f"/proc/{me}/cmdline", "rb") as f:
            own = f.read()
        while not self._stop.is_set():
            stack = self._children(me)
            while stack:
                pid = stack.pop()
                stack += self._children(pid)
                try:
                    with open(f"/proc/{pid}/cmdline", "rb") as f:
                        if f.read() == own:  # forked, not yet exec'd: this process's figures
                            continue
                    with open(f"/proc/{pid}/status") as f:
                        fields = dict(line.split(":", 1) for line in f if ":" in line)
                    kb = int(fields["VmHWM"].split()[0])
                    name = fields["Name"].strip()
                except (OSError, KeyError, ValueError):
                    continue
                if kb > self.peak.get(pid, (0, ""))[0]:
                    self.peak[pid] = (kb, name)
            time.sleep(0.02)


# ------------------------------------------------------------------ runs

def agrad_cmd(xp, yp, max_memory, extra, script=SCRIPT):
    return [sys.executable, "-m", "agrad", "eval", "-q", "--format", "json", "--dtype", "float64",
            "-e", script, "--set", f"X=@{xp}", "--set", f"y=@{yp}", "--param", f"w=zeros({COLS})",
            "--backend", "dask", "--max-memory", max_memory, *extra]


def run_agrad(cmd):
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    start = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    took = time.perf_counter() - start
    if r.returncode != 0:
        raise SystemExit(f"agrad failed ({r.returncode}): {r.stdout[-2000:]} {r.stderr[-2000:]}")
    return took, r.stdout


def serve_cluster(limit, workers, threads, nanny, config):
    """The cluster's process: starts it, prints its address, stops when stdin closes."""
    import json

    import dask
    import distributed
    dask.config.set(LEAN)
    dask.config.set(json.loads(config))
    kw = {} if nanny else {"worker_class": distributed.Worker}
    if workers == 0:  # one worker of ``threads`` threads in the scheduler's process
        workers, kw = 1, {"processes": False, "protocol": "tcp"}
    else:
        kw["processes"] = True
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=threads,
                                  memory_limit=limit, dashboard_address=None, **kw) as cluster:
        print(cluster.scheduler_address, flush=True)
        sys.stdin.read()


def start_cluster(limit, workers, threads, nanny, config):
    import json
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--serve-cluster", str(limit),
                          str(workers), str(threads), str(int(nanny)), json.dumps(config)],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    address = p.stdout.readline().strip()
    if not address:
        raise SystemExit("the LocalCluster did not start")
    return p, address


def main():
    if sys.argv[1:2] == ["--serve-cluster"]:
        return serve_cluster(*(int(a) for a in sys.argv[2:6]), sys.argv[6])
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--max-memory", default="1G")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--dir", default=os.environ.get("TMPDIR", "/tmp"))
    ap.add_argument("--no-cluster", action="store_true")
    ap.add_argument("--workers", type=int, default=2,
                    help="the cluster's worker processes (0: one worker in the scheduler's process)")
    ap.add_argument("--worker-threads", type=int, default=1, help="threads per worker")
    ap.add_argument("--no-nanny", action="store_true", help="workers without a nanny process")
    ap.add_argument("--config", action="append", default=[], metavar="KEY=VALUE",
                    help="a dask config value for the cluster (VALUE as YAML), besides LEAN's")
    ap.add_argument("--runs", default="numpy,numpy-1,threads,cluster",
                    help="which runs, in this order (at least one numpy loop)")
    args = ap.parse_args()
    limit = parse_size(args.max_memory)
    xp, yp, rows = make_data(args.dir, 4 * limit)
    size = os.path.getsize(xp)
    print(f"X: {rows:,} x {COLS} float64, {size / 2**30:.2f} GiB = 4 x --max-memory "
          f"{args.max_memory}; y: {rows:,} float64")

    import json
    ref_loss, ref_grad = numpy_loop(xp, yp, rows)
    cluster = None
    kinds = [k for k in args.runs.split(",") if not (args.no_cluster and k == "cluster")]
    loops = [k for k in ("numpy", "numpy-1") if k in kinds]
    if not loops or not set(kinds) <= {"numpy", "numpy-1", "threads", "cluster"}:
        ap.error("--runs: numpy, numpy-1, threads, cluster, with at least one numpy loop")
    times = {k: [] for k in kinds}
    empty = {k: [] for k in kinds if k not in loops}
    extra = {"threads": []}
    with Peaks() as peaks:
        if "cluster" in kinds:
            import yaml
            config = {k: yaml.safe_load(v) for k, v in (c.split("=", 1) for c in args.config)}
            cluster, address = start_cluster(limit, args.workers, args.worker_threads,
                                             not args.no_nanny, config)
            extra["cluster"] = ["--trusted", "--scheduler", address]
        try:
            for _ in range(args.repeat):
                for k in kinds:
                    if k in loops:
                        before = blas_threads(1) if k == "numpy-1" else None
                        t0 = time.perf_counter()
                        numpy_loop(xp, yp, rows)
                        times[k].append(time.perf_counter() - t0)
                        if before is not None:
                            blas_threads(before)
                        continue
                    took, out = run_agrad(agrad_cmd(xp, yp, args.max_memory, extra[k]))
                    times[k].append(took)
                    v = json.loads(out)["variables"]
                    assert abs(v["loss"]["value"] - ref_loss) <= 1e-9 * max(1.0, abs(ref_loss)), k
                    assert np.allclose(v["w"]["grad"], ref_grad, rtol=1e-9, atol=1e-12), k
                    assert v["X"]["lazy"] is True
                    empty[k].append(run_agrad(agrad_cmd(xp, yp, args.max_memory, extra[k],
                                                        "x = 1"))[0])
        finally:
            if cluster is not None:
                cluster.stdin.close()
                cluster.wait(60)
    gb = size / 1e9
    print(f"\nmedians of {args.repeat} alternating runs (shared machine, load average "
          f"{os.getloadavg()[0]:.1f} at the end):")
    for k, what in (("numpy", "BLAS threads: numpy's"), ("numpy-1", "BLAS threads: 1")):
        if k not in loops:
            continue
        t = statistics.median(times[k])
        print(f"  numpy chunked loop     {t:7.2f} s  {gb / t:6.2f} GB/s  ({what})")
    base = min(statistics.median(times[k]) for k in loops)
    print(f"  (the reference: the faster loop, {base:.2f} s)")
    for k in (k for k in kinds if k not in loops):
        total, idle = statistics.median(times[k]), statistics.median(empty[k])
        compute = max(total - idle, 1e-9)
        if k == "cluster":
            k = f"cluster {args.workers}x{args.worker_threads}{' no nanny' if args.no_nanny else ''}"
        print(f"  agrad dask {k:<10}  {compute:7.2f} s  {gb / compute:6.2f} GB/s  "
              f"({base / compute:.2f}x numpy; end to end {total:.2f} s, {gb / total:.2f} GB/s, "
              f"{base / total:.2f}x; start-up {idle:.2f} s)")
    quarter = size / 4 / 1024
    print(f"\npeak RSS of every process (a quarter of the file: {quarter / 1024:.0f} MiB):")
    worst = 0
    for pid, (kb, name) in sorted(peaks.peak.items(), key=lambda p: -p[1][0]):
        worst = max(worst, kb)
        print(f"  {pid:>7} {name:<16} {kb / 1024:8.1f} MiB")
    print(f"largest: {worst / 1024:.1f} MiB = {worst / quarter / 4:.3f} of the file "
          f"({'below' if worst < quarter else 'NOT below'} a quarter)")


if __name__ == "__main__":
    main()
