"""Every CLI run in a contained child process (issue 8, "the second wall").

The parent (the ``agrad`` process) does the imports, loads (or writes) the
parser cache, reads standard input when the script comes from it, then
forks.  The child parses, runs and renders; the parent only supervises::

    parent                                    child
    ------                                    -----
    imports, parser cache, stdin              own process group, dies with the parent
    fork ------------------------------------> fds 0-2 on /dev/null, other fds closed
                                              rlimits: data, CPU, core 0, fsize 0, nofile
                                              no_new_privs + seccomp filter (seccomp.py)
    poll() the pipe                           parse, run, render: every byte of output
      frames -> stdout / stderr, in order  <-- goes as a frame on one pipe
      deadline (--timeout + 0.75 s), Ctrl-C: exit-status frame, os._exit
        kill the group, report
    waitpid: a death by signal -> one line

The child never writes to file descriptors 1 and 2, so ``> out.txt`` and
``2> err.txt`` work although it may not open a file for writing; files the
user asks for go through :func:`write_file` and are written by the parent.

Elsewhere than Linux (no seccomp, no ``RLIMIT_DATA`` semantics) the run
stays in-process, with a note.  The Python API (``agrad.lang.run``) always
runs in-process.
"""

from __future__ import annotations

import os
import re
import struct
import sys
import time

GRACE = 0.75  # the child's own --timeout error comes first; the parent kills this much later
DEFAULT_MAX_MEMORY = 4 << 30
MIN_MAX_MEMORY = 512 << 20  # the interpreter, numpy and the script thread's stack
MAX_STDIN = 16 << 20  # what the parent reads of standard input for the child
_HEADER = struct.Struct(">cI")
_STDIN_PATHS = ("/dev/stdin", "/dev/fd/0", "/proc/self/fd/0")
_FD_PATH = re.compile(r"^/(?:dev/fd|proc/self/fd)/(\d+)$")

# frame kinds
OUT, ERR = b"o", b"e"           # to standard output / standard error
SCRIPT_SHOWN = b"s"             # the script's output, shown on standard output (and kept)
SCRIPT_KEPT = b"p"              # the script's output, kept for a JSON error object only
FILE, EXIT = b"f", b"x"         # a file to write; the exit status
PROGRESS = b"g"                 # a loop's progress (JSON), drawn by the parent on a terminal
BYTECODE = b"c"                 # agrad's sources the child compiled: the parent writes their .pyc

_AGRAD_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_MAX_BYTECODE = 1024            # sources per run

EXIT_SCRIPT, EXIT_INTERRUPT = 1, 130


class Terminal:
    """What the parent's streams are: the child cannot look (its fds are /dev/null)."""

    def __init__(self, stdout_tty=False, stderr_tty=False, columns=None,
                 stdout_encoding="utf-8", stderr_encoding="utf-8"):
        self.stdout_tty, self.stderr_tty, self.columns = stdout_tty, stderr_tty, columns
        self.stdout_encoding, self.stderr_encoding = stdout_encoding, stderr_encoding

    @classmethod
    def probe(cls) -> "Terminal":
        def tty(s):
            try:
                return bool(s is not None and s.isatty())
            except (AttributeError, ValueError, OSError):
                return False

        def enc(s):
            return getattr(s, "encoding", None) or "utf-8"

        out, err = sys.stdout, sys.stderr
        columns = None
        for s in (out, err):  # the width views fit: the terminal's, stdout's first (render/console.py)
            if columns is None and tty(s):
                try:
                    columns = os.get_terminal_size(s.fileno()).columns or None
                except (OSError, ValueError, AttributeError):
                    columns = None
        return cls(tty(out), tty(err), columns, enc(out), enc(err))


_child = {"channel": None, "terminal": None, "limits": None}
_started = {"at": None}  # when the agrad process started (set by the console entry point)


def process_started() -> None:
    """Called by ``agrad``'s entry point: --timeout counts from the start of the process."""
    from .supervisor import process_age
    _started["at"] = time.monotonic() - process_age()


def active() -> bool:
    """True in a contained child (the parent enforces time-outs; no file may be opened for writing)."""
    return _child["channel"] is not None


def terminal() -> Terminal:
    """The user's terminal: the parent's streams, also when asked from the child."""
    return _child["terminal"] or Terminal.probe()


def available() -> bool:
    return sys.platform.startswith("linux") and hasattr(os, "fork")


# ------------------------------------------------------------------ sizes

def parse_size(text: str) -> int:
    """``4G``, ``512M``, ``1.5GB``, ``100000000`` -> bytes (powers of 1024); ``0``: no limit."""
    t = text.strip().upper().removesuffix("B").removesuffix("I")
    scale = 1
    if t[-1:] in ("K", "M", "G", "T"):
        scale = 1024 ** ("KMGT".index(t[-1]) + 1)
        t = t[:-1]
    try:
        value = float(t)
    except ValueError:
        raise ValueError(f"{text!r} is not a size (examples: 4G, 512M, 0 for no limit)") from None
    if value != value or value in (float("inf"), float("-inf")) or value < 0:
        raise ValueError(f"{text!r} is not a size (examples: 4G, 512M, 0 for no limit)")
    n = int(value * scale)
    if 0 < n < MIN_MAX_MEMORY:
        raise ValueError(f"{text} is below the smallest memory limit, {format_size(MIN_MAX_MEMORY)}")
    return n


def format_size(n: int) -> str:
    for unit, size in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            v = n / size
            return f"{v:.0f} {unit}" if v == int(v) else f"{v:.1f} {unit}"
    return f"{n} bytes"


# ------------------------------------------------------------------ the child's side

class _Channel:
    """Frames to the parent, buffered per kind; a change of kind sends what was buffered."""

    def __init__(self, fd: int):
        self.fd = fd
        self.kind = None
        self.buf = bytearray()

    def send(self, kind: bytes, data: bytes, flush: bool = False) -> None:
        if kind != self.kind and self.buf:
            self.flush()
        self.kind = kind
        self.buf += data
        if flush or len(self.buf) >= 1 << 16:
            self.flush()

    def flush(self) -> None:
        if not self.buf:
            return
        self._write(_HEADER.pack(self.kind, len(self.buf)) + bytes(self.buf))
        self.buf.clear()

    def message(self, kind: bytes, data: bytes) -> None:
        self.flush()
        self._write(_HEADER.pack(kind, len(data)) + data)

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            n = os.write(self.fd, view)
            view = view[n:]


class _FrameStream:
    """``sys.stdout``/``sys.stderr`` of the child: text in, frames out."""

    def __init__(self, channel: _Channel, kind: bytes, tty: bool, encoding: str):
        self._channel, self._kind, self._tty = channel, kind, tty
        self.encoding, self.errors = encoding, "backslashreplace"

    def write(self, text: str) -> int:
        if text:
            self._channel.send(self._kind, text.encode(self.encoding, "backslashreplace"))
        return len(text)

    def writelines(self, lines) -> None:
        for s in lines:
            self.write(s)

    def flush(self) -> None:
        self._channel.flush()

    def isatty(self) -> bool:
        return self._tty

    def fileno(self) -> int:
        import io
        raise io.UnsupportedOperation("the contained child has no standard output file")

    def writable(self) -> bool:
        return True

    def readable(self) -> bool:
        return False

    @property
    def closed(self) -> bool:
        return False


def script_output(out, text: str, shown: bool) -> None:
    """Where the script's ``print`` goes as it happens (issue 13: streaming).

    ``shown``: on standard output now (eval in text/rich); otherwise only kept
    for the JSON object of a run the parent has to stop."""
    ch = _child["channel"]
    if ch is not None:
        data = text.encode(_child["terminal"].stdout_encoding, "backslashreplace")
        ch.send(SCRIPT_SHOWN if shown else SCRIPT_KEPT, data, flush="\n" in text)
    elif shown:
        out.raw(text)
        if "\n" in text:
            out.flush()


def progress_sender():
    """A function sending a loop's progress to the parent (which draws the bar), or None
    when no bar can show: not in a contained child, or standard error not a terminal."""
    ch = _child["channel"]
    term = _child["terminal"]
    if ch is None or term is None or not term.stderr_tty or os.environ.get("TERM") == "dumb":
        return None
    import json

    def send(record: dict) -> None:
        ch.message(PROGRESS, json.dumps(record).encode())

    return send


def write_file(path: str, data: bytes) -> None:
    """A file the user asked for (``-o``): the parent writes it (the child may not)."""
    ch = _child["channel"]
    if ch is None:
        with open(path, "wb") as f:
            f.write(data)
        return
    p = os.fsencode(path)
    ch.message(FILE, struct.pack(">I", len(p)) + p + data)


def _child_main(w: int, parent: int, run, limits) -> None:
    """In the forked child: contain, then run; never returns."""
    code = 70
    try:
        os.setpgid(0, 0)
    except OSError:
        pass
    try:
        import signal
        _set_pdeathsig(signal.SIGKILL)
        if os.getppid() != parent:
            os._exit(code)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
        devnull = os.open(os.devnull, os.O_RDWR)
        keep = sorted(limits["keep_fds"])
        chan = 3
        while chan in keep:
            chan += 1
        if w != chan:
            os.dup2(w, chan)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        low = 3
        for fd in sorted(set(keep) | {chan}) + [_max_fd()]:
            if fd >= low:
                os.closerange(low, fd)
                low = fd + 1
        channel = _Channel(chan)
        term = limits["terminal"]
        _child["terminal"] = term
        sys.stdout = _FrameStream(channel, OUT, term.stdout_tty, term.stdout_encoding)
        sys.stderr = _FrameStream(channel, ERR, term.stderr_tty, term.stderr_encoding)
        sys.stdin = limits["stdin"]
        if term.columns:  # the terminal's width comes before $COLUMNS
            os.environ["COLUMNS"] = str(term.columns)
        _set_limits(limits)
        filtered = (True, "") if limits.get("trusted") else _install_filter()
        _child["channel"] = channel
        _child["limits"] = limits
        if not filtered[0]:
            sys.stderr.write(f"agrad: note: {filtered[1]}: the run is contained by resource "
                             "limits only\n")
        from .. import _limits
        _limits.set_max_memory(limits["max_memory"] or None)
        compiled = _note_bytecode()
        code = run()
        if not isinstance(code, int):
            code = 0
        channel.flush()
        if compiled:
            channel.message(BYTECODE, b"\0".join(map(os.fsencode, compiled)))
        channel.message(EXIT, str(code).encode())
    except BrokenPipeError:   # the parent is gone
        code = EXIT_SCRIPT
    except BaseException as exc:  # a bug in agrad: one line for the parent to show
        try:
            ch = _child["channel"] or _Channel(w)
            ch.message(ERR, f"agrad: internal error in the contained run: {type(exc).__name__}: "
                            f"{exc}\n".encode("utf-8", "backslashreplace"))
            ch.message(EXIT, b"1")
        except BaseException:
            pass
        code = EXIT_SCRIPT
    os._exit(code)


def _note_bytecode() -> list:
    """In the child: the import system's ``.pyc`` writes (it compiled a module from source)
    are noted instead of tried, as the child may write no file; the parent writes those of
    agrad's own modules after the run (:func:`write_bytecode`), so that the next run loads
    them instead of compiling them again."""
    from importlib.machinery import SourceFileLoader
    compiled = []
    prefix = _AGRAD_DIR + os.sep

    def set_data(self, path, data, *, _mode=0o666):
        source = getattr(self, "path", "")
        if len(compiled) < _MAX_BYTECODE and isinstance(source, str) and source.startswith(prefix):
            compiled.append(source)

    SourceFileLoader.set_data = set_data
    return compiled


def write_bytecode(data: bytes) -> None:
    """In the parent, after a run: the ``.pyc`` files of agrad's modules the child compiled,
    written as an import would have written them.  Only real ``.py`` files inside agrad's
    own package are compiled (whatever the child sent); nothing is run."""
    if sys.dont_write_bytecode:
        return
    from importlib.machinery import SourceFileLoader
    root = os.path.realpath(_AGRAD_DIR)
    for raw in data.split(b"\0")[:_MAX_BYTECODE]:
        path = os.path.realpath(os.fsdecode(raw))
        if not (path.endswith(".py") and path.startswith(root + os.sep) and os.path.isfile(path)):
            continue
        try:
            SourceFileLoader(path, path).get_code(path)  # reads a valid .pyc, else compiles and writes it
        except (ImportError, SyntaxError, ValueError, OSError):
            pass


def _max_fd() -> int:
    try:
        return os.sysconf("SC_OPEN_MAX")
    except (ValueError, OSError):
        return 1 << 16


def _set_pdeathsig(sig) -> None:
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, int(sig), 0, 0, 0)  # PR_SET_PDEATHSIG


def _set_limits(limits) -> None:
    import resource

    def cap(which, value):
        try:
            soft, hard = resource.getrlimit(which)
            if hard != resource.RLIM_INFINITY:
                value = min(value, hard)
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            pass

    if limits["max_memory"]:
        cap(resource.RLIMIT_DATA, limits["max_memory"])
    if limits["cpu_seconds"]:
        soft = limits["cpu_seconds"]
        try:
            _, hard = resource.getrlimit(resource.RLIMIT_CPU)
            top = hard if hard != resource.RLIM_INFINITY else soft + 1
            resource.setrlimit(resource.RLIMIT_CPU, (min(soft, top), min(soft + 1, top)))
        except (ValueError, OSError):
            pass
    cap(resource.RLIMIT_CORE, 0)
    if not limits.get("trusted"):
        # --trusted keeps the memory, CPU and core limits; worker processes and a
        # dask scheduler need descriptors (pipes, sockets) and shared-memory files
        cap(resource.RLIMIT_FSIZE, 0)
        cap(resource.RLIMIT_NOFILE, 32)


def _install_filter():
    from . import seccomp
    if seccomp.machine() is None:
        return False, f"no system-call filter for {os.uname().machine}"
    try:
        seccomp.install()
    except OSError as exc:
        return False, f"the system-call filter could not be installed ({exc})"
    return True, ""


# ------------------------------------------------------------------ the parent's side

def _stdin_for_child(files, exprs):
    """Standard input, read by the parent when the script comes from it (capped)."""
    import io
    stream = sys.stdin
    if stream is None:
        return None
    try:
        tty = stream.isatty()
    except (ValueError, OSError, AttributeError):
        tty = False
    if "-" not in files and (files or exprs or tty):
        return _ReplayStdin(io.BytesIO(b""), tty)
    try:
        raw = getattr(stream, "buffer", None)
        data = raw.read(MAX_STDIN + 1) if raw is not None else \
            stream.read(MAX_STDIN + 1).encode("utf-8", "surrogateescape")
    except (OSError, ValueError):
        return None
    return _ReplayStdin(io.BytesIO(data or b""), tty, getattr(stream, "encoding", None) or "utf-8")


def _replay_base():
    import io

    class _ReplayStdin(io.TextIOWrapper):
        def __init__(self, buffer, tty, encoding="utf-8"):
            super().__init__(buffer, encoding=encoding, errors="strict")
            self._tty = tty

        def isatty(self):
            return self._tty

    return _ReplayStdin


def _ReplayStdin(buffer, tty, encoding="utf-8"):  # noqa: N802 - a class made on first use
    global _ReplayStdin
    cls = _replay_base()
    _ReplayStdin = cls
    return cls(buffer, tty, encoding)


#: what each command's child imports beyond every run's modules (relative to this package)
_VIEWS = {"eval": ("..render.evalview",), "graph": ("..render.graphview", "..render.graphexport"),
          "check": ("..render.checkview", ".check"), "diff": ("..render.diffview", ".diff", ".check"),
          "jacobian": ("..render.matrixview", "..render.evalview", ".derivatives", "..autograd.batched"),
          "hessian": ("..render.matrixview", "..render.evalview", ".derivatives", "..autograd.batched"),
          "trace": ("..render.traceview", ".trace", ".inspector")}


def _child_modules(command, kw) -> tuple:
    """The modules the child will import for ``command`` with options ``kw``."""
    names = _VIEWS.get(command, ())
    if kw.get("anomaly"):
        names += (".anomaly", ".inspector")
    if kw.get("flow"):
        names += (".inspector", "..render.flowview", "..render.traceview")
    if kw.get("versions"):
        names += (".inspector", "..render.traceview", "..render.versionview")
    if kw.get("nodes"):  # check --nodes
        names += (".inspector", ".nodecheck", "..render.graphmodel", "..render.graphview",
                  "..render.traceview")
    return names


def prepare(command: str | None = None, kw=None) -> None:
    """What the child must not do itself: load (or write) the parser cache, and
    import what it will run -- a module first imported in the child would be
    compiled again on every run (the child cannot write ``__pycache__``).  Only
    that: every module imported here is start-up time of every run."""
    import ctypes  # noqa: F401  (seccomp and PR_SET_PDEATHSIG)
    import importlib
    import resource  # noqa: F401

    from . import commands, seccomp, session, target, versions  # noqa: F401  (every run's)
    from ..lang import builder, checks, interpreter, parser  # noqa: F401
    try:
        parser._fast_parser()
    except Exception:  # the child then builds it without a cache: slower, still right
        pass
    for name in _child_modules(command, kw or {}):
        importlib.import_module(name, __package__)
    from ..ops import _families
    for family in _FAMILIES.get(command, ()):
        _families.load(family)
    _prefetch_families(kw or {})


#: the op families (agrad/ops/_families.py) a command's own code uses beyond the eager ones
_FAMILIES = {"jacobian": ("joining",), "hessian": ("joining",)}


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_COMMENT = re.compile(r"#[^\n]*")


def _prefetch_families(kw) -> None:
    """The op families whose names the script's text uses (``sort``, ``F.gelu``, ``x.real``, ...),
    loaded here: the child would import them itself (agrad/ops/_families.py), compiling them
    from source on every run until the parent wrote their bytecode.  Only a guess from the
    words of the text: a family it misses still loads in the child, one it adds costs time."""
    texts = [*(kw.get("exprs") or ()), *(kw.get("sets") or ()), *(kw.get("params") or ())]
    for path in kw.get("sources") or ():
        if path == "-" or path in _STDIN_PATHS or _FD_PATH.match(path):
            continue  # (standard input, a pipe: read once, by the run)
        try:
            import stat
            if not stat.S_ISREG(os.stat(path).st_mode):
                continue  # (a FIFO would give its data to this read, not to the run's)
            with open(path, "rb") as f:
                texts.append(f.read(1 << 20).decode("utf-8", "replace"))
        except (OSError, ValueError):
            continue
    if not texts:
        return
    from ..ops import _families
    words = set(_WORD.findall(_COMMENT.sub("", "\n".join(map(str, texts)))))
    for kind in ("FUNCTIONS", "METHODS", "FUNCTIONAL", "LINALG", "SPECIAL", "TENSOR", "CLASSES"):
        owners = _families.owners(kind)
        for family in {owners[w] for w in words & owners.keys()}:
            _families.load(family)


def run_command(command: str, run, req, kw) -> int:
    """Run ``run(req, kw)`` (a command body) in a contained child; return the exit status."""
    if sys.stdout is None:
        _err("agrad: error: standard output is closed: nothing could be shown")
        return EXIT_SCRIPT
    as_json = kw.get("fmt") == "json"
    if not available():
        return _in_process(command, run, req, kw)
    prepare(command, kw)
    cfg = getattr(req, "backend", None)
    if cfg is not None:
        from . import backend
        backend.prepare(cfg)
    # the child keeps no file descriptor but these (``<(...)`` process substitution)
    req.files = tuple("-" if f in _STDIN_PATHS else f for f in req.files)
    keep = set()
    for f in req.files:
        m = _FD_PATH.match(f)
        if m and int(m.group(1)) > 2:
            keep.add(int(m.group(1)))
    timeout = req.timeout
    max_memory = kw.get("max_memory")
    limits = {
        "terminal": Terminal.probe(),
        "stdin": _stdin_for_child(req.files, req.exprs),
        "max_memory": DEFAULT_MAX_MEMORY if max_memory is None else max_memory,
        "cpu_seconds": (int((timeout + GRACE) * (os.cpu_count() or 1)) + 2) if timeout else None,
        "keep_fds": keep,
        "trusted": bool(cfg is not None and cfg.trusted),
    }
    _flush_std()
    r, w = os.pipe()
    r, w = _above_std(r), _above_std(w)
    pid = os.fork()
    if pid == 0:
        os.close(r)
        _child_main(w, os.getppid(), lambda: _body(command, run, req, kw, as_json), limits)
    os.close(w)
    try:
        os.setpgid(pid, pid)
    except OSError:
        pass
    from .supervisor import Supervisor
    sup = Supervisor(pid, r, command, as_json, timeout, limits)
    try:
        code = sup.run()
    finally:
        os.close(r)
    if sup.bytecode:  # (the output is out: only the first run of a module waits for this)
        write_bytecode(sup.bytecode)
    return code


def _body(command, run, req, kw, as_json) -> int:
    """The command in the child; a bug in agrad is one line (a traceback with --debug)."""
    try:
        return run(req, kw)
    except Exception as exc:
        if kw.get("debug"):
            import traceback
            traceback.print_exc()
        from .commands import report_internal_error
        return report_internal_error(exc, command, as_json)


def _above_std(fd: int) -> int:
    """Keep the pipe off fds 0-2 (they may be closed in the parent)."""
    if fd > 2:
        return fd
    import fcntl
    new = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
    os.close(fd)
    return new


def _in_process(command, run, req, kw) -> int:
    _err(f"agrad: note: no process containment on {sys.platform}: the run is not isolated "
         "(see docs/language.md, Security model)")
    for s in (sys.stdout, sys.stderr):
        try:
            s.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError):
            pass
    return run(req, kw)


def _err(text: str) -> None:
    if sys.stderr is not None:
        try:
            sys.stderr.write(text + "\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass


def _flush_std() -> None:
    for s in (sys.stdout, sys.stderr):
        try:
            if s is not None:
                s.flush()
        except (OSError, ValueError):
            pass
