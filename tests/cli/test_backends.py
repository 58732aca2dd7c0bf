"""--backend dask (issue 16): lazy @file data gives numpy's losses and gradients.

Skipped without dask (pip install 'agrad[dask]').
"""

from __future__ import annotations

import json

import numpy as np
import pytest

try:
    import dask.array  # noqa: F401
except ImportError:  # pragma: no cover - the extra is not installed
    pytest.skip("dask is not installed (pip install 'agrad[dask]'): the dask backend is not tested",
                allow_module_level=True)

from agrad import _arrays
from agrad.app import backend
from agrad.app.inputs import file_tensor

from .conftest import agrad

LINEAR = "loss = ((X @ w - y)**2).mean()"
LOGISTIC = "loss = torch.nn.functional.binary_cross_entropy_with_logits(X @ w + b, t)"
MODULE = ("torch.manual_seed(0)\n"
          "net = torch.nn.Linear(7, 1, dtype=torch.float64)\n"
          "loss = torch.nn.functional.binary_cross_entropy_with_logits(net(X).squeeze(1), t)")
LOGISTIC_BY_HAND = ("p = torch.sigmoid(X @ w + b)\n"
                    "loss = -(t * torch.log(p) + (1 - t) * torch.log(1 - p)).mean()")


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    d = tmp_path_factory.mktemp("data")
    rng = np.random.default_rng(0)
    X = rng.standard_normal((3001, 7))
    w = rng.standard_normal(7)
    np.save(d / "X.npy", X)
    np.save(d / "y.npy", X @ w + 0.1 * rng.standard_normal(3001))
    np.save(d / "t.npy", (X @ w > 0).astype(np.float32))  # converted to float64 lazily
    np.save(d / "Xf.npy", np.asfortranarray(X))
    return d


def _run(data, script, *extra, chunks="500"):
    args = ["eval", "--format", "json", "--dtype", "float64", "-e", script,
            "--set", f"X=@{data / 'X.npy'}", "--set", f"y=@{data / 'y.npy'}",
            "--set", f"t=@{data / 't.npy'}", "--param", "w=[0.1]*7", "--param", "b=0.2", *extra]
    if "--backend" in extra:
        args += ["--chunks", chunks]
    r = agrad(*args)
    assert r.code == 0, r.stdout + r.stderr
    return r.json()["variables"]


def _same_grads(lazy, ref):
    if "net" in ref:
        for name, p in ref["net"]["parameters"].items():
            np.testing.assert_allclose(np.array(lazy["net"]["parameters"][name]["grad"]),
                                       np.array(p["grad"]), rtol=0, atol=1e-10)
    for name in ("w", "b"):
        if ref[name]["grad"] is None:  # b is not in the linear loss
            assert lazy[name]["grad"] is None
            continue
        np.testing.assert_allclose(np.array(lazy[name]["grad"]), np.array(ref[name]["grad"]),
                                   rtol=0, atol=1e-10)


def _value(v):
    return np.array(v["value"], dtype=np.float64)


@pytest.mark.parametrize("script", [LINEAR, LOGISTIC, LOGISTIC_BY_HAND, MODULE],
                         ids=["linear", "logistic", "logistic-by-hand", "nn.Linear"])
def test_losses_and_gradients_match_numpy(data, script):
    ref = _run(data, script)
    lazy = _run(data, script, "--backend", "dask")
    assert abs(_value(lazy["loss"]) - _value(ref["loss"])) <= 1e-10
    _same_grads(lazy, ref)
    # the data was never computed whole: it shows as lazy, with its chunks
    x = lazy["X"]
    assert x["value"] is None and x["lazy"] is True
    assert x["chunks"] == [[500] * 6 + [1], [7]]
    assert "lazy" not in ref["X"] and ref["X"]["value"] is not None


def test_table_shows_chunks_of_lazy_data(data):
    r = agrad("eval", "--dtype", "float64", "-e", LINEAR, "--columns", "160", "--backend", "dask",
              "--chunks", "1000", "--set", f"X=@{data / 'X.npy'}", "--set", f"y=@{data / 'y.npy'}",
              "--param", "w=[0.1]*7")
    assert r.code == 0, r.stderr
    line = next(ln for ln in r.stdout.splitlines() if ln.startswith("X "))
    assert "lazy, 4 chunks [1000, 7]" in line


def test_fortran_order_and_stacked_files(data, tmp_path):
    ref = _run(data, LINEAR)
    lazy = _run(data, LINEAR.replace("X @", "Xf @"), "--backend", "dask", "--set",
                f"Xf=@{data / 'Xf.npy'}", chunks="700,3")
    assert abs(_value(lazy["loss"]) - _value(ref["loss"])) <= 1e-10
    a = np.arange(12.0).reshape(3, 4)
    for i in range(3):
        np.save(tmp_path / f"part{i}.npy", a + 100 * i)
    for extra in ((), ("--backend", "dask")):
        r = agrad("eval", "--format", "json", "--dtype", "float64", "-e", "s = S.sum(1)\nn = len(s.tolist())",
                  "--set", f"S=@{tmp_path}/part*.npy", *extra)
        assert r.code == 0, r.stderr  # tolist() computed s (and s keeps its values)
        assert r.json()["variables"]["s"]["value"] == np.stack(
            [a + 100 * i for i in range(3)]).sum(1).tolist()


def test_chunk_limit_applies_to_chunks_not_the_whole(data):
    base = ["eval", "--format", "json", "--dtype", "float64", "-e", LINEAR, "--max-elements", "5000",
            "--set", f"X=@{data / 'X.npy'}", "--set", f"y=@{data / 'y.npy'}", "--param", "w=[0.1]*7"]
    assert agrad(*base).code == 2  # numpy: 21,007 elements are over the limit
    ok = agrad(*base, "--backend", "dask", "--chunks", "500")  # chunks of 3,500
    assert ok.code == 0 and ok.json()["ok"], ok.stdout
    big = agrad(*base, "--backend", "dask", "--chunks", "1000")  # chunks of 7,000
    assert big.code == 1
    assert "chunk of 7,000 elements exceeds the limit of 5,000" in big.json()["error"]["message"]


def test_numpy_backend_maps_npy_files(data):
    backend.activate(backend.Config())
    try:
        from agrad import dtypes
        old = dtypes.get_default_dtype()
        dtypes.set_default_dtype(dtypes.float64)
        try:
            t = file_tensor("--set", f"@{data / 'X.npy'}")
        finally:
            dtypes.set_default_dtype(old)
    finally:
        backend.deactivate()
    # copy-on-write: an in-place change stays in the run
    assert isinstance(t._data.base, np.memmap) and t._data.flags.writeable
    before = np.load(data / "X.npy")
    t.add_(1)
    np.testing.assert_array_equal(np.load(data / "X.npy"), before)
    np.testing.assert_array_equal(t._data, before + 1)


def test_numpy_backend_maps_files_larger_than_memory_read_only(data):
    """Under --max-memory a copy-on-write map of a larger file would count whole: read-only."""
    import subprocess
    import sys
    code = (
        "import resource, sys; import numpy as np\n"
        "from agrad import dtypes; from agrad.app.inputs import file_tensor\n"
        "dtypes.set_default_dtype(dtypes.float64)\n"
        "used = next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmData'))\n"
        "limit = used * 1024 + (64 << 20)\n"
        "resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))\n"
        "t = file_tensor('--set', '@' + sys.argv[1])\n"
        "assert isinstance(t._data.base, np.memmap) and not t._data.flags.writeable\n"
        "assert float(t.sum()) == 0\n"
        "print('mapped read-only')\n")
    big = data / "big.npy"
    np.save(big, np.zeros((1 << 17, 128)))  # 128 MiB, over the 64 MiB left
    try:
        r = subprocess.run([sys.executable, "-c", code, str(big)], capture_output=True, text=True)
    finally:
        big.unlink()
    assert r.returncode == 0, r.stderr
    assert "mapped read-only" in r.stdout


def test_reads_each_chunk_once(data, monkeypatch):
    """Forward and backward share the chunk reads: one dask.compute for loss and grads."""
    reads, computes = [], []
    orig = backend.NpyBlocks._read
    monkeypatch.setattr(backend.NpyBlocks, "_read",
                        lambda self, first, count: reads.append(count) or orig(self, first, count))
    backend.activate(backend.Config("dask", 1000))
    compute = _arrays._computer["fn"]
    _arrays._computer["fn"] = lambda arrays: computes.append(len(arrays)) or compute(arrays)
    try:
        import agrad as torch
        old = torch.get_default_dtype()
        torch.set_default_dtype(torch.float64)
        try:
            X = file_tensor("--set", f"@{data / 'X.npy'}")
            y = file_tensor("--set", f"@{data / 'y.npy'}")
            w = torch.zeros(7, requires_grad=True)
            loss = ((X @ w - y) ** 2).mean()
            assert _arrays.is_lazy(loss._data)
            loss.backward()
        finally:
            torch.set_default_dtype(old)
    finally:
        backend.deactivate()
    assert computes == [2]  # w.grad and loss together
    assert not _arrays.is_lazy(loss._data) and not _arrays.is_lazy(w.grad._data)
    assert sum(reads) == 3001 * 7 + 3001


def test_auto_chunks_line_up_files_with_as_many_rows(monkeypatch):
    """--chunks auto: y gets X's rows per chunk, and so does a broadcast over that many rows
    (the gradient of a mean), so the backward pass works chunk by chunk."""
    import dask.array as da
    cfg = backend.Config("dask", max_memory=512 << 20)  # chunks of 32 MiB at most
    monkeypatch.setattr(backend, "_memory_left", lambda limit: None)  # this process's memory
    backend.activate(cfg)
    try:
        backend.plan_rows(cfg, [((1 << 22,), 8), ((1 << 22, 128), 8)])
        assert backend.chunks_for((1 << 22,), 8, cfg) == (32768,)
        assert backend.chunks_for((1 << 22, 128), 8, cfg) == (32768, 128)
        assert backend.chunks_for((1000,), 8, cfg) == (1000,)  # another length: its own
        assert backend._broadcast_to(da.ones(()), (1 << 22,)).chunks == ((32768,) * 128,)
        assert backend._broadcast_to(da.ones((1,)), (1 << 22, 1)).chunks == ((32768,) * 128, (1,))
    finally:
        backend.deactivate()


def test_auto_chunks_fit_what_the_limit_leaves(monkeypatch):
    """A quarter of what --max-memory leaves the data once the run has started, 1 MiB at least."""
    cfg = backend.Config("dask", max_memory=512 << 20)
    for left, rows in ((64 << 20, 16384), (100 << 20, 16384), (0, 1024), (None, 32768)):
        monkeypatch.setattr(backend, "_memory_left", lambda limit: left)
        backend.activate(cfg)
        try:
            assert backend.chunks_for((1 << 22, 128), 8, cfg) == (rows, 128), left
        finally:
            backend.deactivate()
    # on a cluster the workers read the chunks: their memory limit, not the run's, counts
    monkeypatch.setattr(backend, "_memory_left", lambda limit: 0)
    monkeypatch.setattr(backend, "_connect", lambda address: None)
    monkeypatch.setattr(backend, "_workers_memory", lambda client: 1 << 30)
    backend.activate(backend.Config("dask", scheduler="tcp://127.0.0.1:1", max_memory=512 << 20))
    try:
        assert backend.chunks_for((1 << 22, 128), 8, backend.active()) == (65536, 128)
    finally:
        backend.deactivate()
    monkeypatch.undo()
    left = backend._memory_left(512 << 20)  # here: what this process holds already is less
    assert left is None or 0 <= left < (512 << 20) - (256 << 20)


def test_backward_pass_has_no_rechunk(data):
    """The seed gradient of the mean comes back in X's chunks: no task cuts one big piece."""
    import agrad as torch
    try:
        arrays, _ = _lazy_loss(data, backend.Config("dask", 500))
    finally:
        backend.deactivate()
        torch.set_default_dtype(torch.float32)
    names = {str(k[0] if isinstance(k, tuple) else k) for a in arrays for k in dict(a.__dask_graph__())}
    assert any(n.startswith("broadcast_to") for n in names)
    assert not any("rechunk" in n for n in names), sorted(names)


def test_read_buffers_are_reused_once_every_view_is_gone():
    buffers = backend.ReadBuffers()
    f64 = np.dtype(np.float64)
    a = buffers.array(1 << 18, f64)  # 2 MiB
    address = a.__array_interface__["data"][0]
    view = a[10:20].T  # a view of a view: its base is a still
    a[:] = 1.0
    del a
    b = buffers.array(1 << 18, f64)
    assert b.__array_interface__["data"][0] != address  # the view still uses that memory
    assert view.sum() == 10.0
    del view
    c = buffers.array(1 << 18, f64)
    assert c.__array_interface__["data"][0] == address
    buffers.clear()


def test_read_buffers_past_those_kept_go_quietly(monkeypatch):
    """A buffer given back while KEEP are free goes with its array (closing it there, while
    the array still holds its buffer, was a BufferError printed at every run)."""
    import sys
    raised = []
    monkeypatch.setattr(sys, "unraisablehook", raised.append)
    buffers = backend.ReadBuffers()
    arrays = [buffers.array(1 << 18, np.dtype(np.float64)) for _ in range(buffers.KEEP + 3)]
    del arrays
    assert raised == [] and len(buffers._free[2 << 20]) == buffers.KEEP
    buffers.clear()


def test_read_buffer_out_of_memory_is_a_memory_error(monkeypatch):
    import errno
    import mmap

    def refuse(*args, **kw):
        raise OSError(errno.ENOMEM, "Cannot allocate memory")
    monkeypatch.setattr(mmap, "mmap", refuse)
    with pytest.raises(MemoryError, match=r"Unable to allocate 2.0 MiB to read a chunk"):
        backend.ReadBuffers().array(1 << 18, np.dtype(np.float64))

    def out_of_memory(arrays):
        raise MemoryError("Unable to allocate 8 MiB")
    monkeypatch.setattr(backend, "_compute_now", out_of_memory)
    with pytest.raises(MemoryError, match=r"8 MiB \(--backend dask: smaller --chunks"):
        backend._compute([])


def test_smallest_memory_limit(tmp_path):
    """--max-memory 512M, the smallest: dask's auto chunks fit what start-up leaves (the
    interpreter, numpy, dask, the script thread's 256 MiB stack count against it), and a
    chunk too large for it is LimitError with a hint, not a bare MemoryError.  In processes
    of their own: a contained child inherits the private memory of the process it forks from."""
    import subprocess
    import sys
    rng = np.random.default_rng(1)
    X = rng.standard_normal((1 << 17, 128))  # 128 MiB
    y = rng.standard_normal(1 << 17)
    np.save(tmp_path / "X.npy", X)
    np.save(tmp_path / "y.npy", y)
    args = [sys.executable, "-m", "agrad", "eval", "--format", "json", "--dtype", "float64",
            "-e", LINEAR, "--set", f"X=@{tmp_path / 'X.npy'}", "--set", f"y=@{tmp_path / 'y.npy'}",
            "--param", "w=[0.01]*128", "--backend", "dask", "--max-memory", "512M"]
    r = subprocess.run(args, capture_output=True, text=True, env=_env(), timeout=300)
    assert r.returncode == 0, r.stdout[-1000:] + r.stderr
    v = json.loads(r.stdout)["variables"]
    assert v["X"]["chunks"][0][0] * 128 * 8 <= 16 << 20  # a quarter of what is left, at most
    res = X @ np.full(128, 0.01) - y
    assert abs(v["loss"]["value"] - (res @ res) / len(y)) <= 1e-10
    np.testing.assert_allclose(v["w"]["grad"], X.T @ res * (2 / len(y)), rtol=1e-10, atol=1e-12)
    r = subprocess.run(args + ["--chunks", str(1 << 17)], capture_output=True, text=True,
                       env=_env(), timeout=300)
    err = json.loads(r.stdout)["error"]
    assert r.returncode == 1 and err["type"] == "LimitError", r.stdout[-1000:] + r.stderr
    assert err["message"] == ("out of memory: Unable to allocate 128.0 MiB to read a chunk of @file "
                              "data (--backend dask: smaller --chunks hold less memory at a time); "
                              "the run is limited to 512 MiB of memory (--max-memory)")


@pytest.mark.parametrize("args, message", [
    (("--backend", "torch"), "'torch' is not one of 'numpy', 'dask', 'cupy'"),
    (("--backend", "dask", "--chunks", "0"), "chunk sizes are positive"),
    (("--backend", "dask", "--chunks", "rows"), "'rows' is not a chunk size"),
    (("--backend", "dask", "--scheduler", "processes"), "processes needs --trusted"),
    (("--backend", "dask", "--scheduler", "tcp://127.0.0.1:9"), "needs --trusted"),
    (("--backend", "dask", "--scheduler", "nowhere"), "expected threads, processes or the address"),
    (("--chunks", "100"), "apply to --backend dask only"),
])
def test_bad_options_are_usage_errors(data, args, message):
    args = [a.replace("{X}", str(data / "X.npy")) for a in args]
    for fmt in ("text", "json"):
        r = agrad("eval", "--format", fmt, "-e", "x = 1", *args)
        assert r.code == 2, (r.stdout, r.stderr)
        text = r.stderr if fmt == "text" else r.json()["error"]["message"]
        assert message in text
        assert "Traceback" not in r.stdout + r.stderr


def test_unreachable_scheduler(data):
    pytest.importorskip("distributed", reason="dask.distributed is not installed")
    import socket
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    r = agrad("eval", "-e", "x = 1", "--backend", "dask", "--trusted",
              "--scheduler", f"tcp://127.0.0.1:{port}")
    assert r.code == 2
    assert "cannot reach the dask scheduler" in r.stderr and "Traceback" not in r.stderr


def test_without_dask_the_message_says_how_to_install(monkeypatch):
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name.startswith("dask") else real(name, *a))
    with pytest.raises(backend.BackendError, match=r"pip install 'agrad\[dask\]'"):
        backend.check_options(backend.Config("dask"))


#: The cluster's process: a 2-process LocalCluster (forked workers start in a few seconds,
#: spawned ones import everything again), its address on stdout, stopped when stdin closes.
SERVE_CLUSTER = """
import sys, dask, distributed
dask.config.set({"distributed.worker.multiprocessing-method": "fork"})
with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                              dashboard_address=None, worker_dashboard_address=None) as c:
    print(c.scheduler_address, flush=True)
    sys.stdin.read()
"""
CLUSTER_START, CLUSTER_STOP = 120, 30  # seconds
#: A run on the cluster that takes longer has hung: --timeout ends it (exit 1, no hang).
CLUSTER_RUN = ("--timeout", "120")


@pytest.fixture(scope="module")
def cluster():
    """A 2-process LocalCluster, started once for this file's cluster tests and stopped.

    It runs in a process (and session) of its own: an agrad run forks from this one, and a
    fork inherits no thread but every lock a thread held (the cluster's event loop and
    nannies ran here, and a cluster run hung twice); a cluster that will not stop within
    CLUSTER_STOP seconds is killed with its workers."""
    import os
    import select
    import signal
    import subprocess
    import sys
    pytest.importorskip("distributed", reason="dask.distributed is not installed")
    p = subprocess.Popen([sys.executable, "-c", SERVE_CLUSTER], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                         env=_env(), start_new_session=True)
    try:
        ready, _, _ = select.select([p.stdout], [], [], CLUSTER_START)
        address = p.stdout.readline().strip() if ready else ""
        assert address, f"the LocalCluster did not start within {CLUSTER_START} s"
        yield address
    finally:
        p.stdin.close()
        try:
            p.wait(CLUSTER_STOP)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)  # its own session: the nannies and workers too
            p.wait()
        p.stdout.close()


def test_local_cluster_gives_the_same_results(data, cluster):
    ref = _run(data, LOGISTIC)
    lazy = _run(data, LOGISTIC, "--backend", "dask", "--trusted", "--scheduler", cluster,
                *CLUSTER_RUN)
    assert abs(_value(lazy["loss"]) - _value(ref["loss"])) <= 1e-10
    _same_grads(lazy, ref)


def test_process_pool_gives_the_same_results(data):
    ref = _run(data, LOGISTIC)
    lazy = _run(data, LOGISTIC, "--backend", "dask", "--trusted", "--scheduler", "processes",
                "--timeout", "120")
    assert abs(_value(lazy["loss"]) - _value(ref["loss"])) <= 1e-10
    _same_grads(lazy, ref)


def test_process_pool_gets_one_task_per_chunk(data, monkeypatch):
    """dask's process pool sends every task's value back to the run: a chunk's read must not
    be a task of its own there (at --max-memory 1G the run held every chunk read and ran out
    of memory), so the chunk's work is one task, as on a cluster."""
    pytest.importorskip("dask._task_spec", reason="a dask without task objects (before 2025)")
    import dask
    import dask.multiprocessing
    import agrad as torch
    graphs = []

    def get(graph, keys, **kw):  # dask's synchronous scheduler in this process
        graphs.append(graph)
        return dask.get(graph, keys)
    monkeypatch.setattr(dask.multiprocessing, "get", get)
    try:
        arrays, compute = _lazy_loss(data, backend.Config("dask", 500, "processes", trusted=True))
    finally:
        backend.deactivate()
        torch.set_default_dtype(torch.float32)
    ref = _run(data, LINEAR)
    assert abs(float(arrays[1].compute(scheduler="sync")) - _value(ref["loss"])) <= 1e-10
    [graph] = graphs
    names = [str(k[0]) for k in graph if isinstance(k, tuple)]
    assert not [n for n in names if n.startswith("agrad-") and not n.startswith("agrad-chunk-")]
    assert sum(n.startswith("agrad-chunk-") for n in names) == 7  # no read of its own


def _lazy_loss(data, cfg):
    """Activate ``cfg``; the linear loss over the lazy files and the lazy arrays a backward
    pass computes (w's gradient, the loss), without computing them."""
    import agrad as torch
    backend.activate(cfg)
    torch.set_default_dtype(torch.float64)
    X = file_tensor("--set", f"@{data / 'X.npy'}")
    y = file_tensor("--set", f"@{data / 'y.npy'}")
    w = torch.tensor([0.1] * 7, requires_grad=True)
    loss = ((X @ w - y) ** 2).mean()
    got = []
    compute = _arrays._computer["fn"]
    _arrays._computer["fn"] = lambda arrays: got.extend(arrays) or compute(arrays)
    loss.backward()
    return got, compute


@pytest.mark.parametrize("rows, workers, tasks", [
    (500, None, 7),  # 3001 rows in chunks of 500: a task per chunk
    (100, 1, 8),     # 31 chunks, 4 a task (a worker gets 4 tasks or more)
    (100, 3, 16),    # 31 chunks, 2 a task (4 a task would give 3 workers fewer than 4 each)
    (100, 8, 31),    # 31 chunks for 8 workers: a task per chunk
])
def test_cluster_graph_has_one_task_per_chunk(data, rows, workers, tasks):
    """fuse_chunks: a chunk's read, forward and backward tasks run as one task (the tasks
    of 2 or 4 chunks and their first combine, for a cluster of few workers), with the
    values of the plain graph (run here by the threaded scheduler)."""
    pytest.importorskip("dask._task_spec", reason="a dask without task objects (before 2025)")
    import dask
    from dask._task_spec import convert_legacy_graph
    from dask.core import flatten
    from dask.threaded import get
    import agrad as torch
    try:
        arrays, _ = _lazy_loss(data, backend.Config("dask", rows))
    finally:
        backend.deactivate()
        torch.set_default_dtype(torch.float32)
    arrays = dask.optimize(*arrays)
    graph = {}
    for a in arrays:
        graph.update(a.__dask_graph__())
    graph = convert_legacy_graph(graph)
    keys = [a.__dask_keys__() for a in arrays]
    fused = backend.fuse_chunks(graph, set(flatten(keys)), workers)
    chunks = [k for k in fused if isinstance(k, tuple) and k[0].startswith("agrad-chunk-")]
    assert len(chunks) == tasks
    assert len(fused) < len(graph) // 3
    for plain, one in zip(get(graph, keys), get(fused, keys)):
        np.testing.assert_array_equal(np.concatenate([np.ravel(v) for v in flatten([one])]),
                                      np.concatenate([np.ravel(v) for v in flatten([plain])]))


@pytest.mark.parametrize("where", ["threads", "cluster"])
def test_progress_records(data, where, request, monkeypatch):
    """The records the parent draws as its (rich) bar: counts up to the total, then the end."""
    scheduler = "threads" if where == "threads" else request.getfixturevalue("cluster")
    sent = []
    monkeypatch.setattr(backend, "_progress_sender", lambda: sent.append)
    monkeypatch.setattr(backend, "PROGRESS_AFTER", 0.0)
    monkeypatch.setattr(backend, "PROGRESS_EVERY", 0.0)
    import agrad as torch
    try:
        arrays, compute = _lazy_loss(data, backend.Config("dask", 500, scheduler, trusted=True))
        values = compute(arrays)  # a second time, by the backend's own compute
    finally:
        backend.deactivate()
        torch.set_default_dtype(torch.float32)
    ref = _run(data, LINEAR)
    assert abs(float(values[1]) - _value(ref["loss"])) <= 1e-10
    np.testing.assert_allclose(values[0], np.array(ref["w"]["grad"]), rtol=0, atol=1e-10)
    bars = [r for r in sent if not r.get("end")]
    assert bars and sent[-1] == {"end": True} and len(sent) - len(bars) == 2  # two computes
    assert all(r["text"] == "dask: computing" and 0 <= r["count"] <= r["total"] for r in bars)
    assert bars[-1]["count"] == bars[-1]["total"] and bars[-1]["fraction"] == 1.0


PATCHED = ("import sys; import agrad.app.backend as b; b.PROGRESS_AFTER = 0.0; "
           "from agrad.cli import main; sys.argv[0] = 'agrad'; main()")


def _env():
    import os
    from pathlib import Path
    return dict(os.environ, COLUMNS="100", PYTHONPATH=str(Path(__file__).resolve().parents[2] / "src"))


def _on_a_terminal(args):
    """agrad (progress shown at once) with standard error on a pseudo-terminal."""
    import os
    import pty
    import select
    import subprocess
    import sys
    master, slave = pty.openpty()
    env = _env()
    p = subprocess.Popen([sys.executable, "-c", PATCHED, *args], stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    err = b""
    while True:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            err += chunk
        elif p.poll() is not None:
            break
    os.close(master)
    return p.stdout.read(), err, p.wait(60)


@pytest.mark.parametrize("where", ["threads", "cluster"])
def test_progress_on_a_terminal_only(data, where, request):
    extra = ["--chunks", "500"]
    if where == "cluster":
        extra += ["--trusted", "--scheduler", request.getfixturevalue("cluster"), *CLUSTER_RUN]
    args = ["eval", "-e", LINEAR, "--dtype", "float64", "--no-table", "--backend", "dask",
            "--set", f"X=@{data / 'X.npy'}", "--set", f"y=@{data / 'y.npy'}",
            "--param", "w=[0.1]*7", *extra]
    out, err, code = _on_a_terminal(args)
    assert code == 0, err
    assert b"dask: computing" in err and "━".encode() in err
    assert err.rindex(b"\r\x1b[K") > err.rindex(b"dask: computing")  # and taken away
    if where == "threads":  # -q, JSON and pipes: one check (backend._progress_sender)
        out, err, code = _on_a_terminal(args + ["-q"])
        assert code == 0 and b"computing" not in err, err


def test_no_progress_for_json_or_quiet():
    from agrad.cli import _backend
    kw = {"backend": "dask", "chunks": "auto", "scheduler": "threads", "trusted": False}
    assert not _backend(dict(kw, quiet=False, fmt="auto")).quiet
    assert _backend(dict(kw, quiet=False, fmt="json")).quiet
    assert _backend(dict(kw, quiet=True, fmt="text")).quiet
    backend.activate(backend.Config("dask", quiet=True))
    try:
        assert backend._progress_sender() is None
    finally:
        backend.deactivate()
    backend.activate(backend.Config("dask"))
    try:  # not in a contained run with standard error on a terminal
        assert backend._progress_sender() is None
    finally:
        backend.deactivate()


def _gpu_reason():
    try:
        import cupy
    except ImportError:
        return "cupy is not installed (pip install 'agrad[cupy]')"
    try:
        if cupy.cuda.runtime.getDeviceCount() > 0:
            return None
    except Exception as exc:  # CUDA's own error types: no driver, no device
        return f"no usable GPU ({type(exc).__name__}: {exc})"
    return "no GPU found"


@pytest.mark.skipif(_gpu_reason() is not None, reason=f"--backend cupy: {_gpu_reason()}")
def test_cupy_gives_the_same_results(data):
    ref = _run(data, LOGISTIC)
    gpu = _run(data, LOGISTIC, "--backend", "cupy", "--trusted")
    assert abs(_value(gpu["loss"]) - _value(ref["loss"])) <= 1e-10
    _same_grads(gpu, ref)


def test_cupy_needs_trusted_and_the_package():
    r = agrad("eval", "-e", "x = 1", "--backend", "cupy")
    assert r.code == 2 and "Traceback" not in r.stderr
    assert "needs --trusted" in r.stderr or "pip install 'agrad[cupy]'" in r.stderr


def test_blas_runs_one_thread_under_dask_and_is_restored():
    before = backend.blas_threads(1)
    if before is None:
        pytest.skip("no BLAS library known to agrad is loaded (its thread count cannot be set)")
    backend.blas_threads(before)
    backend.activate(backend.Config("dask"))
    try:
        assert backend.blas_threads(1) == 1
    finally:
        backend.deactivate()
    assert backend.blas_threads(before) == before
