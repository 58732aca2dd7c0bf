"""``--backend numpy|dask|cupy``, ``--chunks``, ``--scheduler``, ``--trusted`` (issue 16).

numpy is the default and needs nothing from here.  Under ``dask`` only
``@file`` data (and what is computed from it) is lazy: the file opens as a
chunked dask array whose chunks are read with explicit reads at their
offsets (no memory map whose pages stay resident), ops reach it through
numpy's dispatch protocols, and a backward pass computes the parameters'
gradients (and the loss) in one ``dask.compute`` (``agrad._arrays``).

The options are checked in the parent process (:func:`check_options`);
the backend is switched on in the contained child (:func:`activate`):
only the threaded scheduler runs under the system-call filter, ``processes``
and a scheduler ADDRESS need ``--trusted``.
"""

from __future__ import annotations

import errno
import mmap
import os
import re
import threading
import time
import weakref

import numpy as np

BACKENDS = ("numpy", "dask", "cupy")
INSTALL = {"dask": "pip install 'agrad[dask]'", "cupy": "pip install 'agrad[cupy]'"}
#: What ``--chunks auto`` aims at: bytes per chunk, and the share of --max-memory
#: that the chunks in flight may take.
AUTO_CHUNK_BYTES = 64 << 20
SMALLEST_AUTO_CHUNK = 1 << 20
CONNECT_TIMEOUT = "5s"

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMG])(?:I?B)?\s*$", re.IGNORECASE)


class BackendError(Exception):
    """A bad backend option or an unusable backend: a usage error (exit 2)."""


class Config:
    """The backend options of one run."""

    def __init__(self, backend="numpy", chunks="auto", scheduler="threads", trusted=False,
                 max_memory=None, quiet=False):
        self.backend, self.chunks, self.scheduler = backend, chunks, scheduler
        self.trusted, self.max_memory, self.quiet = trusted, max_memory, quiet

    @property
    def lazy(self) -> bool:
        return self.backend == "dask"


# ------------------------------------------------------------------ options (parent)

def parse_chunks(text: str):
    """``auto``; ``N`` rows of the first axis; ``N,M,...`` sizes of the leading axes (-1:
    the whole axis; axes not named stay whole); or bytes per chunk (``64M``), the first
    axis cut to fit."""
    t = text.strip().lower()
    if t == "auto":
        return "auto"
    m = _SIZE.match(t)
    if m:
        n = int(float(m.group(1)) * 1024 ** ("kmg".index(m.group(2).lower()) + 1))
        if n <= 0:
            raise ValueError(f"{text!r}: a chunk must hold at least one byte")
        return ("bytes", n)
    parts = [p.strip() for p in t.split(",")]
    try:
        sizes = [int(p) for p in parts]
    except ValueError:
        raise ValueError(f"{text!r} is not a chunk size: use auto, a number of rows (100000), "
                         "sizes per axis (100000,-1) or bytes per chunk (64M)") from None
    for s in sizes:
        if s == 0 or s < -1:
            raise ValueError(f"{text!r}: chunk sizes are positive (or -1 for a whole axis)")
    return sizes[0] if len(sizes) == 1 else tuple(sizes)


def check_options(cfg: Config) -> None:
    """What the parent can tell before it forks: an unusable combination, a missing extra."""
    if cfg.backend == "numpy":
        if cfg.chunks != "auto" or cfg.scheduler != "threads":
            raise BackendError("--chunks and --scheduler apply to --backend dask only")
        return
    if cfg.backend == "cupy":
        if cfg.chunks != "auto" or cfg.scheduler != "threads":
            raise BackendError("--chunks and --scheduler apply to --backend dask only")
        _need("cupy", "cupy")
        if not cfg.trusted:
            raise BackendError("--backend cupy needs --trusted: the GPU driver opens its device "
                               "files for writing, which the contained run's system-call filter "
                               "refuses (--trusted turns the filter off; the resource limits stay)")
        return
    _need("dask", "dask.array")
    sched = cfg.scheduler
    if sched not in ("threads", "processes") and "://" not in sched and ":" not in sched:
        raise BackendError(f"--scheduler {sched!r}: expected threads, processes or the address "
                           "of a dask.distributed scheduler (tcp://HOST:PORT)")
    if sched != "threads" and not cfg.trusted:
        what = "processes" if sched == "processes" else "a dask.distributed scheduler"
        raise BackendError(
            f"--scheduler {sched}: {what} needs --trusted: the contained run may start threads "
            "but not processes or network connections (--trusted turns the system-call filter "
            "off and keeps the resource limits; see docs/cli.md)")
    if sched not in ("threads", "processes"):
        _need("dask", "distributed", "'agrad[dask]' (dask.distributed)")


def _need(backend, module, what=None):
    import importlib.util
    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise BackendError(f"--backend {backend} needs {module.split('.')[0]}, which is not "
                           f"installed: {INSTALL[backend]}")


def prepare(cfg: Config) -> None:
    """Imports done by the parent, so the contained child compiles nothing."""
    if cfg.backend == "cupy":
        import cupy  # noqa: F401
    if cfg.backend == "dask":
        import dask  # noqa: F401
        _import_dask_array()
        import dask.callbacks  # noqa: F401
        import dask.threaded  # noqa: F401
        if cfg.scheduler == "processes":
            import dask.multiprocessing  # noqa: F401
        elif cfg.scheduler != "threads":
            import distributed  # noqa: F401


def _import_dask_array():
    """``import dask.array`` without scipy, unless something imported scipy already.

    dask.array imports scipy only to register scipy.sparse chunks and scipy's FFTs, which
    agrad never uses.  scipy's import loads a second OpenBLAS, whose buffers (32 MiB per
    BLAS thread) and thread count against --max-memory in the contained child, and takes
    a second of start-up; dask takes scipy's absence in its stride.
    """
    import sys
    if "dask.array" in sys.modules or "scipy" in sys.modules:
        import dask.array  # noqa: F401
        return
    sys.modules["scipy"] = None  # a later ``import scipy`` raises ImportError
    try:
        import dask.array  # noqa: F401
    finally:
        del sys.modules["scipy"]


# ------------------------------------------------------------------ the run (child)

#: The run's configuration, its dask.distributed client, the BLAS threads to restore, and
#: the rows per chunk of the first axis of its @file data, by the axis' length (a broadcast
#: to such an axis, like the gradient of a mean, is cut the same way: :func:`_broadcast_to`).
_active = {"cfg": None, "client": None, "blas": None, "rows": {}, "left": None, "workers": None}


def active() -> Config | None:
    return _active["cfg"]


def activate(cfg: Config) -> None:
    """Switch the backend on for this run (in the contained child)."""
    _active["cfg"] = cfg
    if cfg.backend == "numpy":
        return
    from .. import _arrays
    if cfg.backend == "cupy":
        import cupy
        try:
            n = cupy.cuda.runtime.getDeviceCount()
        except Exception as exc:  # CUDA's own error type: no driver, no device
            raise BackendError(f"--backend cupy: no GPU is usable ({exc})") from None
        if n == 0:
            raise BackendError("--backend cupy: no GPU found")
        _arrays.register_device(cupy.ndarray, cupy.asnumpy)
        return
    import dask
    import dask.array as da
    if cfg.scheduler in ("threads", "processes"):
        _active["left"] = _memory_left(cfg.max_memory)
        dask.config.set(scheduler=cfg.scheduler)
        # dask runs a task per core: BLAS's own threads would compete with them for the cores
        # (and spin while they wait), as dask.distributed's workers are told by their nannies
        _active["blas"] = blas_threads(1)
    else:
        _active["client"] = client = _connect(cfg.scheduler)
        _active["workers"] = _workers_memory(client)
    _arrays.register_lazy(da.Array, _compute, _broadcast_to)


def deactivate() -> None:
    from .. import _arrays
    _arrays.unregister_all()
    client, blas = _active["client"], _active["blas"]
    _active["cfg"] = _active["client"] = _active["blas"] = None
    _active["rows"], _active["left"], _active["workers"] = {}, None, None
    _BUFFERS.clear()
    if blas is not None:
        blas_threads(blas)
    if client is not None:
        try:
            client.close()
        except Exception:
            pass


#: What each of dask's threads holds besides its data: its stack (8 MiB) and, once it calls
#: BLAS, the buffer OpenBLAS gives each calling thread (32 MiB).
PER_THREAD = 40 << 20


def _memory_left(limit):
    """What ``limit`` (--max-memory) leaves the run's data once it has started: less the
    private memory this process holds already (``VmData``, what ``RLIMIT_DATA`` counts: the
    interpreter, numpy, dask, BLAS's buffers), the script thread's stack, which counts
    whole, and PER_THREAD for each of dask's threads; None without a limit or off Linux."""
    if not limit:
        return None
    from dask.system import CPU_COUNT

    from ..lang import _STACK_SIZE
    try:
        with open("/proc/self/status") as f:
            held = next(int(line.split()[1]) << 10 for line in f if line.startswith("VmData:"))
    except (OSError, StopIteration, ValueError, IndexError):
        return None
    return max(0, limit - held - _STACK_SIZE - CPU_COUNT * PER_THREAD)


def _workers_memory(client):
    """The smallest memory limit of the cluster's workers (they read the chunks), or None."""
    try:
        workers = client.scheduler_info().get("workers", {}).values()
        limits = [w.get("memory_limit") or 0 for w in workers]
    except Exception:  # the scheduler's word on its workers is a hint only
        return None
    return min(limits) if limits and min(limits) > 0 else None


#: (set, get) the thread count of the BLAS numpy uses: OpenBLAS as numpy's wheels name it
#: (a prefix, a suffix for 64-bit integers), a plain OpenBLAS, MKL.
_BLAS_CALLS = (("scipy_openblas_set_num_threads64_", "scipy_openblas_get_num_threads64_"),
               ("scipy_openblas_set_num_threads", "scipy_openblas_get_num_threads"),
               ("openblas_set_num_threads64_", "openblas_get_num_threads64_"),
               ("openblas_set_num_threads", "openblas_get_num_threads"),
               ("MKL_Set_Num_Threads", "MKL_Get_Max_Threads"))


def blas_threads(n: int) -> int | None:
    """Give the BLAS library loaded in this process ``n`` threads; returns the count it had
    (None: no BLAS library known here is loaded, or this is not Linux)."""
    import ctypes
    try:
        with open("/proc/self/maps") as f:
            paths = {parts[5].strip() for parts in (line.split(None, 5) for line in f)
                     if len(parts) == 6}
    except OSError:
        return None
    for path in sorted(p for p in paths if "blas" in p.lower() or "mkl" in p.lower()):
        try:  # the library is loaded already (RTLD_NOLOAD: never load one)
            lib = ctypes.CDLL(path, mode=os.RTLD_NOLOAD | os.RTLD_LAZY)
        except OSError:
            continue
        for set_name, get_name in _BLAS_CALLS:
            setter, getter = getattr(lib, set_name, None), getattr(lib, get_name, None)
            if setter is None or getter is None:
                continue
            getter.restype = ctypes.c_int
            before = getter()
            setter(ctypes.c_int(n))
            return before
    return None


def _connect(address):
    import dask
    import distributed
    dask.config.set({"distributed.comm.timeouts.connect": CONNECT_TIMEOUT})
    try:
        return distributed.Client(address, timeout=CONNECT_TIMEOUT, set_as_default=True)
    except (OSError, TimeoutError, ValueError) as exc:
        detail = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise BackendError(f"--scheduler {address}: cannot reach the dask scheduler: {detail}") \
            from None


def _compute(arrays):
    """The values of lazy arrays, in one ``dask.compute`` (progress on a terminal's stderr)."""
    try:
        return _compute_now(arrays)
    except MemoryError as exc:  # the run's limit error (LimitError) says which limit
        detail = str(exc).strip()
        raise MemoryError(f"{detail + ' ' if detail else ''}(--backend dask: smaller --chunks "
                          "hold less memory at a time)") from None


def _compute_now(arrays):
    import dask
    client = _active["client"]
    if client is not None:
        return _compute_on_cluster(client, arrays)
    if _active["cfg"] is not None and _active["cfg"].scheduler == "processes":
        return _compute_in_processes(arrays)
    send = _progress_sender()
    if send is None:
        return dask.compute(*arrays)
    with _Progress(send):
        return dask.compute(*arrays)


#: Seconds a computation runs before its progress shows, and between two records.
PROGRESS_AFTER = 1.0
PROGRESS_EVERY = 0.1


def _progress_sender():
    """Where progress records go (the parent draws them as the loops' bar, with rich),
    or None: ``-q``, JSON, standard error not a terminal, not a contained run."""
    cfg = _active["cfg"]
    if cfg is None or cfg.quiet:
        return None
    from .contained import progress_sender
    return progress_sender()


def _record(done, total, elapsed):
    return {"text": "dask: computing", "count": done, "total": total,
            "fraction": min(done / total, 1.0) if total else None, "elapsed": elapsed}


def _Progress(send):  # noqa: N802 - a class made on first use (dask is imported lazily)
    from dask.callbacks import Callback

    class Progress(Callback):
        """Tasks done of the threaded scheduler's graph, sent after PROGRESS_AFTER seconds."""

        def _start_state(self, dsk, state):
            self._t0, self._last = time.monotonic(), float("-inf")
            self._total = sum(len(state[k]) for k in ("ready", "waiting", "running"))
            self._done = 0
            self._shown = False

        def _posttask(self, key, result, dsk, state, worker_id):
            self._done += 1
            now = time.monotonic()
            if now - self._t0 >= PROGRESS_AFTER and now - self._last >= PROGRESS_EVERY:
                self._last = now
                self._shown = True
                send(_record(self._done, self._total, now - self._t0))

        def _finish(self, dsk, state, errored):
            if self._shown:
                send({"end": True})

    return Progress()


# ------------------------------------------------------------------ a dask.distributed cluster

def _fused(arrays, workers):
    """``arrays`` (optimized) and their graph with the work of each chunk of @file data in one
    task (:func:`fuse_chunks`), and the keys to get; None for a dask without task objects
    (before 2025)."""
    import dask
    from dask.core import flatten
    try:
        from dask._task_spec import convert_legacy_graph
    except ImportError:
        return None
    arrays = dask.optimize(*arrays)
    graph = {}
    for a in arrays:
        graph.update(a.__dask_graph__())
    keys = [a.__dask_keys__() for a in arrays]
    return arrays, fuse_chunks(convert_legacy_graph(graph), set(flatten(keys)), workers), keys


def _finish(arrays, results):
    return [finish(r, *extra) for r, (finish, extra)
            in zip(results, (a.__dask_postcompute__() for a in arrays))]


def _compute_in_processes(arrays):
    """``dask.compute`` on dask's process pool, each chunk's work in one task: the pool
    sends every task's value back to this process, which would otherwise receive every
    chunk read (a chunk of X feeds both ``X @ w`` and the backward ``X.T @ g``, so dask
    does not fuse its read into either) and hold them against --max-memory."""
    import dask
    import dask.multiprocessing
    from dask.system import CPU_COUNT
    fused = _fused(arrays, CPU_COUNT)
    if fused is None:
        return dask.compute(*arrays)
    arrays, graph, keys = fused
    send = _progress_sender()
    if send is None:
        return _finish(arrays, dask.multiprocessing.get(graph, keys))
    with _Progress(send):
        return _finish(arrays, dask.multiprocessing.get(graph, keys))


def _compute_on_cluster(client, arrays):
    """``dask.compute`` on a cluster, with the work of each chunk of @file data in one task
    (:func:`fuse_chunks`), and progress from the scheduler."""
    from dask.core import flatten
    fused = _fused(arrays, max(1, len(client.scheduler_info().get("workers", ()))))
    if fused is None:  # a dask without task objects: its own graph
        return client.compute(list(arrays), sync=True)
    arrays, graph, keys = fused
    futures = client.get(graph, keys, sync=False)
    send = _progress_sender()
    if send is not None:
        _ClusterProgress(list(flatten(futures)), client, send)  # returns when they are done
    return _finish(arrays, client.gather(futures))


def _is_read(key, node, task_type) -> bool:
    """A task reading one chunk of @file data (:func:`lazy_npy` names them ``agrad-...``)."""
    return (isinstance(key, tuple) and str(key[0]).startswith("agrad-")
            and isinstance(node, task_type))


#: Chunks of @file data a fused task may take together (dask's reductions combine the
#: pieces of 4 chunks at a time: the first combine then runs inside the task) ...
CHUNKS_PER_TASK = 4
#: ... as long as every worker gets this many tasks.
TASKS_PER_WORKER = 4


def fuse_chunks(graph, outputs, workers=None):
    """``graph`` (key -> dask task) with the tasks that depend on one chunk of @file data
    fused into one task per chunk.

    Dask cannot fuse a chunk's read into its consumers when there are several (``X``'s
    chunk feeds ``X @ w`` and, in the backward pass, ``X.T @ g``): on a cluster every one
    of the ~12 tasks of a chunk then costs the scheduler and the workers a round trip, and
    intermediate pieces move between workers.  Here a task belongs to a chunk when the
    file chunks it depends on are that one chunk (of data with several chunks; the blocks
    of the same index in files cut alike, ``X``'s and ``y``'s rows ``i``, are one); a task
    depending on no chunk joins a chunk when everything depending on it is in that chunk
    (``y``'s piece, the seed gradient's piece).  Each chunk's tasks run as one task (in
    dask's order, each value dropped after its last use); what the rest of the graph or
    the caller needs from it is picked out of the chunk's values by ``getitem`` inside
    the task that uses it.  A chunk's tasks never depend on a task that depends on them,
    so the fused graph computes the same values.

    Given the cluster's number of ``workers``, consecutive chunks of the first axis are
    fused CHUNKS_PER_TASK at a time while every worker still gets TASKS_PER_WORKER tasks:
    a reduction's first combine of their pieces joins the task (it depends on its chunks
    only), so fewer tasks and pieces go through the scheduler and between workers, and a
    worker holds one chunk at a time still (the task's values are dropped after their
    last use).
    """
    import operator
    from collections import Counter

    from dask._task_spec import Task, TaskRef
    from dask.base import tokenize

    deps = {k: [d for d in node.dependencies if d in graph] for k, node in graph.items()}
    users = {k: [] for k in graph}
    for k, ds in deps.items():
        for d in ds:
            users[d].append(k)
    order = _toposort(deps, users)
    reads = {k for k in graph if _is_read(k, graph[k], Task)}
    per_array = Counter(k[0] for k in reads)
    together = 1
    if workers and reads:
        rows = 1 + max(_chunk_of(k)[0] for k in reads)
        while together < CHUNKS_PER_TASK and rows // (2 * together) >= TASKS_PER_WORKER * workers:
            together *= 2
    many = object()
    colour = {}
    for k in order:
        if k in reads and per_array[k[0]] > 1:
            index = _chunk_of(k)
            colour[k] = (index[0] // together,) + index[1:]
            continue
        cs = {colour[d] for d in deps[k]} - {None}
        colour[k] = None if not cs else (cs.pop() if len(cs) == 1 else many)
    for k in reversed(order):  # fold what feeds one chunk only (its users first)
        if colour[k] is None and k not in outputs and users[k]:
            cs = {colour[u] for u in users[k]}
            if len(cs) == 1 and None not in cs and many not in cs:
                colour[k] = cs.pop()
    groups = {}
    for k in order:
        if colour[k] is not None and colour[k] is not many:
            groups.setdefault(colour[k], []).append(k)
    fused, picks = dict(graph), {}
    for chunk, members in groups.items():
        if len(members) == 1:
            continue
        inside = set(members)
        ext = tuple(sorted({d for m in members for d in deps[m] if d not in inside}, key=str))
        out = [m for m in members if m in outputs or any(u not in inside for u in users[m])]
        for m in members:
            del fused[m]
        sub = {m: graph[m] for m in members}
        producer = any(graph[m].data_producer for m in members)
        if len(out) == 1:
            fused[out[0]] = Task(out[0], _run_chunk, sub, tuple(out), ext,
                                 *(TaskRef(d) for d in ext), _data_producer=producer)
            continue
        # named after what it computes: a key the scheduler still holds is the same task
        key = (f"agrad-chunk-{tokenize(chunk, out)}",) + chunk
        fused[key] = Task(key, _run_chunk, sub, tuple(out), ext, *(TaskRef(d) for d in ext),
                          _data_producer=producer)
        for i, m in enumerate(out):
            pick = Task(None, operator.getitem, TaskRef(key), i)
            if m in outputs:  # the caller asks for it by its key
                fused[m] = Task(m, operator.getitem, TaskRef(key), i)
            else:  # its users pick it out of the chunk's values themselves
                picks[m] = pick
    if picks:  # no task per value picked out of a chunk: it runs inside the task using it
        for k, node in fused.items():
            if not node.dependencies.isdisjoint(picks):
                fused[k] = node.substitute({d: picks[d] for d in node.dependencies if d in picks})
    return fused


def _chunk_of(key):
    """The chunk a read belongs to: its block's index, without the trailing zeros of axes in
    one block, so that the reads of rows ``i`` of ``X`` (block ``(i, 0)``) and of ``y``
    (block ``(i,)``) are one chunk."""
    index = tuple(key[1:])
    while len(index) > 1 and index[-1] == 0:
        index = index[:-1]
    return index


def _toposort(deps, users):
    left = {k: len(ds) for k, ds in deps.items()}
    ready = [k for k, n in left.items() if n == 0]
    order = []
    while ready:
        k = ready.pop()
        order.append(k)
        for u in users[k]:
            left[u] -= 1
            if left[u] == 0:
                ready.append(u)
    if len(order) != len(deps):
        raise ValueError("the dask graph has a cycle")
    return order


def _run_chunk(sub, out, inkeys, *values):
    """One fused chunk (on a worker): its tasks, given the values they need from outside."""
    from dask._task_spec import DataNode, execute_graph
    graph = dict(sub)
    for k, v in zip(inkeys, values):
        graph[k] = DataNode(None, v)
    cache = execute_graph(graph, keys=out)
    return cache[out[0]] if len(out) == 1 else tuple(cache[k] for k in out)


def _ClusterProgress(futures, client, send):  # noqa: N802 - distributed is imported lazily
    """The scheduler's count of the tasks behind ``futures``, sent as the threaded scheduler's
    progress is; returns when they are done (or one failed)."""
    from distributed.diagnostics.progressbar import TextProgressBar

    class ClusterProgress(TextProgressBar):
        _shown = False
        _last = float("-inf")

        def _draw_bar(self, remaining, all, **kwargs):  # noqa: A002 - distributed's name
            now = self.elapsed
            if now >= PROGRESS_AFTER and now - self._last >= PROGRESS_EVERY:
                self._last = now
                self._shown = True
                send(_record(all - remaining, all, now))

        def _draw_stop(self, **kwargs):
            if self._shown:
                send({"end": True})

    return ClusterProgress(futures, scheduler=client.scheduler.address, interval="100ms",
                           loop=client.loop)


# ------------------------------------------------------------------ @file data

class ReadBuffers:
    """The memory chunks are read into, reused: a new array of a chunk's size costs the
    kernel a page fault and a page of zeros per 4 KiB (a sixth of a run's CPU time), a
    reused one neither.  A read's array goes back to the pool when it is gone, and with it
    every view of it (their base is the array: numpy stops at an array whose memory belongs
    to another kind of object, here an anonymous memory map)."""

    SMALLEST = 1 << 20  #: smaller reads use numpy's allocator
    KEEP = 4  #: free buffers kept per size

    def __init__(self):
        self._free: dict = {}
        self._lock = threading.Lock()

    def array(self, count, dtype):
        nbytes = count * dtype.itemsize
        if nbytes < self.SMALLEST:
            return np.empty(count, dtype)
        with self._lock:
            free = self._free.get(nbytes)
            raw = free.pop() if free else None
        if raw is None:  # private: counted by --max-memory (RLIMIT_DATA), as numpy's memory
            try:
                raw = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
            except OSError as exc:
                if exc.errno != errno.ENOMEM:
                    raise
                raise MemoryError(f"Unable to allocate {nbytes / (1 << 20):.1f} MiB to read a "
                                  "chunk of @file data") from None
        out = np.frombuffer(raw, dtype, count)
        weakref.finalize(out, self._give_back, raw).atexit = False
        return out

    def _give_back(self, raw):
        # runs as the array goes, before it lets go of ``raw``'s buffer: an extra ``raw``
        # is not closed here (BufferError), it goes with its last reference
        with self._lock:
            free = self._free.setdefault(len(raw), [])
            if len(free) < self.KEEP:
                free.append(raw)

    def clear(self):
        with self._lock:
            for free in self._free.values():
                for raw in free:
                    try:
                        raw.close()
                    except BufferError:  # its last array is still letting go of it
                        pass
            self._free.clear()


_BUFFERS = ReadBuffers()


class NpyBlocks:
    """A ``.npy`` file as something ``dask.array.from_array`` can slice: each slice is
    read with ``os.pread`` at its offset from a descriptor opened for that read only,
    so nothing stays mapped and the object pickles (processes, a cluster)."""

    def __init__(self, path, offset, shape, dtype, fortran):
        self.path, self.offset = os.path.abspath(path), offset
        self.shape, self.dtype, self.fortran = tuple(shape), np.dtype(dtype), fortran
        self.ndim = len(self.shape)

    def __getitem__(self, index):
        index = index if isinstance(index, tuple) else (index,)
        index = index + (slice(None),) * (self.ndim - len(index))
        if self.ndim == 0:
            return self._read(0, 1).reshape(())
        # the file's slowest axis: the first (C order) or the last (Fortran order)
        lead = self.ndim - 1 if self.fortran else 0
        start, stop, step = index[lead].indices(self.shape[lead])
        stop = max(start, stop)
        inner = 1
        for i, n in enumerate(self.shape):
            if i != lead:
                inner *= n
        block = self._read(start * inner, (stop - start) * inner)
        if self.fortran:
            block = block.reshape((stop - start,) + tuple(reversed(self.shape[:-1]))).T
        else:
            block = block.reshape((stop - start,) + self.shape[1:])
        rest = list(index)
        rest[lead] = slice(None, None, step)
        return block[tuple(rest)]

    def _read(self, first, count):
        out = _BUFFERS.array(count, self.dtype)
        view = memoryview(out).cast("B")
        pos = self.offset + first * self.dtype.itemsize
        fd = os.open(self.path, os.O_RDONLY)
        try:
            while view:
                n = os.preadv(fd, [view], pos)
                if n <= 0:
                    raise OSError(f"{self.path}: the file ended early")
                view, pos = view[n:], pos + n
        finally:
            os.close(fd)
        return out


def auto_rows(shape, itemsize, cfg: Config) -> int:
    """Rows of the first axis per chunk for ``--chunks auto``: about 64 MiB, at most a
    sixteenth of --max-memory and a quarter of what it leaves the data once the run has
    started (:func:`_memory_left`: 8 MiB at 512M on 2 cores), at least 1 MiB; on a
    dask.distributed cluster, whose workers read the chunks, at most a sixteenth of the
    smallest worker's memory limit instead."""
    target = AUTO_CHUNK_BYTES
    if _active["workers"]:
        target = min(target, _active["workers"] // 16)
    elif cfg.max_memory:  # the chunks in flight, their temporaries and BLAS's buffers must fit
        target = min(target, cfg.max_memory // 16)
        if _active["left"] is not None:
            target = min(target, max(_active["left"] // 4, SMALLEST_AUTO_CHUNK))
    row = itemsize
    for n in shape[1:]:
        row *= n
    return max(1, target // max(row, 1))


def chunks_for(shape, itemsize, cfg: Config):
    c = cfg.chunks
    if not shape:
        return ()
    if c == "auto":
        rows = auto_rows(shape, itemsize, cfg)
    elif isinstance(c, tuple) and c[0] == "bytes":
        row = itemsize
        for n in shape[1:]:
            row *= n
        rows = max(1, c[1] // max(row, 1))
    elif isinstance(c, int):
        rows = c
    else:  # sizes of the leading axes; the others stay whole
        c = c[:len(shape)] + (-1,) * (len(shape) - len(c))
        return tuple(n if s == -1 else min(s, n) for s, n in zip(c, shape))
    if c == "auto" or isinstance(c, tuple):
        # a power of two: the chunk boundaries of files with as many rows nest (X's in y's),
        # so dask splits chunks to match instead of merging them
        rows = 1 << (rows.bit_length() - 1)
    if c == "auto":  # as the run's other files with as many rows (plan_rows): y's as X's
        rows = min(rows, _active["rows"].get(shape[0], rows))
    return (min(rows, shape[0]) if rows != -1 else shape[0],) + tuple(shape[1:])


def plan_rows(cfg: Config, shapes) -> None:
    """``--chunks auto`` for the run's @file data, given the ``(shape, itemsize)`` of each
    file before any opens: files with as many rows get the rows per chunk of the one with
    the widest rows, so their chunks line up (``y``'s with ``X``'s): an op on both then
    works chunk by chunk instead of cutting ``y``'s one chunk into ``X``'s."""
    if cfg.chunks != "auto":
        return
    rows = _active["rows"]
    for shape, itemsize in shapes:
        if shape:
            n = chunks_for(shape, itemsize, cfg)[0]
            rows[shape[0]] = min(rows.get(shape[0], n), n)


def _broadcast_to(a, shape):
    """``np.broadcast_to`` of a dask array (an expand, the gradient of a sum or a mean):
    a new or expanded axis as long as the first axis of the run's @file data is cut into
    the same rows per chunk (dask would make it one chunk, which every chunk of the data
    it meets would cut a piece of: on a cluster, a piece moved from the worker holding it)."""
    import dask.array as da
    rows = _active["rows"]
    lead = len(shape) - a.ndim
    chunks = []
    for i, n in enumerate(shape):
        j = i - lead
        if j >= 0 and a.shape[j] != 1:
            chunks.append(a.chunks[j])
        else:
            chunks.append(min(rows.get(n, n), n) if n else (0,))
    return da.broadcast_to(a, shape, chunks=tuple(chunks))


def lazy_npy(path, offset, shape, dtype, fortran, cfg: Config, name):
    """``path``'s array as a dask array of ``cfg``'s chunks, read chunk by chunk."""
    import dask.array as da
    from dask.base import tokenize
    blocks = NpyBlocks(path, offset, shape, dtype, fortran)
    chunks = chunks_for(shape, dtype.itemsize, cfg)
    if shape:  # what a broadcast to as many rows cuts its axis into (_broadcast_to)
        rows = _active["rows"]
        rows[shape[0]] = min(rows.get(shape[0], chunks[0]), chunks[0])
    key = tokenize(blocks.path, offset, shape, dtype.str, fortran, os.stat(path).st_mtime_ns, chunks)
    return da.from_array(blocks, chunks=chunks, lock=False, asarray=True, fancy=False,
                         name=f"agrad-{name}-{key}", meta=np.empty((0,) * len(shape), dtype))
