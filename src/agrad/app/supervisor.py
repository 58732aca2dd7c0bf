"""The parent's side of a contained run: forward, enforce, report.

:class:`Supervisor` reads the child's frames (:mod:`.contained`) as they
arrive and writes each to standard output or standard error, in order,
flushing each batch (so output streams); it kills the child's process group
at the deadline (``--timeout`` + 0.75 s from the start of the ``agrad``
process) or on Ctrl-C, and turns a death by signal into one line (or the
command's JSON object).
"""

from __future__ import annotations

import os
import struct
import sys
import time

from .contained import (BYTECODE, ERR, EXIT, EXIT_INTERRUPT, EXIT_SCRIPT, FILE, GRACE, OUT, PROGRESS,
                        SCRIPT_KEPT, SCRIPT_SHOWN, _HEADER, _err, _started, format_size)


class Supervisor:
    """The parent: forwards frames as they arrive, enforces the deadline, reports a death."""

    def __init__(self, pid, fd, command, as_json, timeout, limits):
        self.pid, self.fd, self.command, self.as_json = pid, fd, command, as_json
        self.timeout, self.limits = timeout, limits
        # from the start of the process: a slow start-up does not stretch --timeout
        start = _started["at"] if _started["at"] is not None else time.monotonic()
        self.deadline = None if not timeout else start + timeout + GRACE
        self.buf = bytearray()
        self.script_out = []     # the script's output (for the JSON object of a stopped run)
        self.code = None         # from the exit frame
        self.stdout_gone = False
        self.wrote_stdout = False
        self.file_error = False
        self.progress = None     # render.progress.ProgressLine, made at the first record
        self.line_open = False   # the last output did not end a line: no bar below it yet
        self.bytecode = b""      # agrad's sources the child compiled (contained.write_bytecode)

    def run(self) -> int:
        poller = None
        if self.deadline is not None:  # without one, a blocking read waits alike
            import select
            poller = select.poll()
            poller.register(self.fd, select.POLLIN | select.POLLHUP | select.POLLERR)
        try:
            while True:
                if poller is not None:
                    wait = self.deadline - time.monotonic()
                    if wait <= 0:
                        return self._stop("TimeoutError", self._timeout_message())
                    if not poller.poll(max(1, int(wait * 1000) + 1)):
                        continue
                chunk = os.read(self.fd, 1 << 16)
                if not chunk:
                    break
                self.buf += chunk
                self._dispatch()
                if self.stdout_gone:
                    self._kill()
                    return 0
                if self.code is not None:
                    break
        except KeyboardInterrupt:
            return self._stop("KeyboardInterrupt", "interrupted", EXIT_INTERRUPT)
        return self._finish()

    # frames ----------------------------------------------------------------
    def _dispatch(self) -> None:
        """Complete frames in the buffer, in order; consecutive output for one stream
        is written (and flushed) once."""
        buf, pos, n = self.buf, 0, len(self.buf)
        run_stream, run = None, []
        while n - pos >= _HEADER.size:
            kind, length = _HEADER.unpack_from(buf, pos)
            if n - pos - _HEADER.size < length:
                break
            data = bytes(buf[pos + _HEADER.size:pos + _HEADER.size + length])
            pos += _HEADER.size + length
            stream = sys.stdout if kind in (OUT, SCRIPT_SHOWN) else (sys.stderr if kind == ERR
                                                                      else None)
            if run and stream is not run_stream:
                self._write(run_stream, b"".join(run))
                run = []
            if kind in (SCRIPT_SHOWN, SCRIPT_KEPT):
                self.script_out.append(data)
            if stream is not None:
                run_stream = stream
                run.append(data)
            elif kind == FILE:
                self._write_file(data)
            elif kind == EXIT:
                self.code = int(data)
                self._end_progress()
            elif kind == PROGRESS:
                self._progress(data)
            elif kind == BYTECODE:
                self.bytecode = data
        if run:
            self._write(run_stream, b"".join(run))
        del buf[:pos]
        if self.progress is not None and self.progress.record is not None \
                and not self.progress.shown and not self.line_open:
            self.progress.draw()

    def _progress(self, data: bytes) -> None:
        """A loop's progress: drawn on standard error when it is a terminal."""
        import json
        try:
            record = json.loads(data)
        except ValueError:
            return
        if self.progress is None:
            if record.get("end") or not _isatty(sys.stderr):
                return
            from ..render.progress import ProgressLine
            term = self.limits["terminal"]
            self.progress = ProgressLine(sys.stderr, term.columns or 80)
        if not self.line_open or record.get("end"):
            self.progress.update(record)
        else:
            self.progress.record = record   # drawn once the open line is ended

    def _end_progress(self) -> None:
        if self.progress is not None:
            self.progress.record = None
            self.progress.clear()

    def _write(self, stream, data: bytes) -> None:
        if stream is None or (stream is sys.stdout and self.stdout_gone):
            return
        if self.progress is not None:
            self.progress.clear()
        if data:
            self.line_open = not data.endswith(b"\n")
        try:
            raw = getattr(stream, "buffer", None)
            if raw is not None:
                stream.flush()
                raw.write(data)
                raw.flush()
            else:
                enc = (self.limits["terminal"].stdout_encoding if stream is sys.stdout
                       else self.limits["terminal"].stderr_encoding)
                stream.write(data.decode(enc, "replace"))
                stream.flush()
            if stream is sys.stdout:
                self.wrote_stdout = True
        except BrokenPipeError:
            if stream is sys.stdout:
                self.stdout_gone = True
                quiet_stdout()
        except (OSError, ValueError):
            pass

    def _write_file(self, data: bytes) -> None:
        (n,) = struct.unpack_from(">I", data)
        path = os.fsdecode(data[4:4 + n])
        try:
            with open(path, "wb") as f:
                f.write(data[4 + n:])
        except OSError as exc:
            self.file_error = True
            _err(f"agrad: error: cannot write {path!r}: {exc.strerror or exc}")

    # endings ---------------------------------------------------------------
    def _kill(self) -> int:
        import signal
        for kill in (os.killpg, os.kill):
            try:
                kill(self.pid, signal.SIGKILL)
                break
            except OSError:
                continue
        return self._reap()

    def _reap(self) -> int:
        while True:
            try:
                _, status = os.waitpid(self.pid, 0)
                return status
            except ChildProcessError:
                return 0
            except InterruptedError:
                continue
            except KeyboardInterrupt:
                continue

    def _finish(self) -> int:
        self._end_progress()
        if self.code is not None:
            # the run is over: a __del__ or thread still busy in the child must not hold us.
            # The agrad process itself ends now: its child is reaped by init (and killed by
            # PR_SET_PDEATHSIG if still busy) -- no need to wait for it to tear down.
            if _started["at"] is None:
                self._wait_briefly()
            return self._with_file_errors(self.code)
        status = self._reap()
        if os.WIFSIGNALED(status):
            kind, message = self._death(os.WTERMSIG(status))
            return self._report(kind, message, EXIT_SCRIPT)
        code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else EXIT_SCRIPT
        return self._report("InternalError", f"internal error: the contained run ended with "
                                             f"status {code} and no result", EXIT_SCRIPT)

    def _wait_briefly(self):
        end = time.monotonic() + 0.5
        while time.monotonic() < end:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                return 0
            if pid:
                return status
            time.sleep(0.002)
        return self._kill()

    def _with_file_errors(self, code: int) -> int:
        return EXIT_SCRIPT if self.file_error and code == 0 else code

    def _stop(self, kind, message, code=EXIT_SCRIPT) -> int:
        self._kill()
        self._drain()
        self._end_progress()
        return self._report(kind, message, code)

    def _drain(self) -> None:
        """Complete frames already in the pipe (the child is dead: nothing more comes)."""
        try:
            os.set_blocking(self.fd, False)
            while True:
                chunk = os.read(self.fd, 1 << 16)
                if not chunk:
                    break
                self.buf += chunk
        except (BlockingIOError, OSError):
            pass
        try:
            self._dispatch()
        except KeyboardInterrupt:
            pass

    def _timeout_message(self) -> str:
        return (f"the run did not finish within {self.timeout:g} s (--timeout); "
                "agrad stopped it")

    def _death(self, sig: int):
        import signal
        limits = self.limits
        if sig == signal.SIGSYS:
            return ("SandboxError", "the run was stopped: it tried a system call agrad forbids "
                                    "(starting a program or a process, or ptrace)")
        if sig == signal.SIGXCPU or (sig == signal.SIGKILL and limits["cpu_seconds"]
                                     and self._cpu_used() >= limits["cpu_seconds"]):
            if not limits["cpu_seconds"]:
                return ("TimeoutError", "the run was stopped by SIGXCPU (a CPU time limit)")
            return ("TimeoutError", f"the run used its CPU time limit of {limits['cpu_seconds']} s "
                                    "(from --timeout) and was stopped")
        if sig == signal.SIGKILL:
            mem = limits["max_memory"]
            return ("MemoryError", "the run was killed by the system (SIGKILL), most likely out "
                                   "of memory" + (f" below agrad's limit of {format_size(mem)} "
                                                  "(--max-memory)" if mem else ""))
        if sig == signal.SIGXFSZ:
            return ("SandboxError", "the run was stopped: it tried to write a file")
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = f"signal {sig}"
        return ("InternalError", f"internal error: the contained run crashed ({name})")

    def _cpu_used(self) -> float:
        import resource
        ru = resource.getrusage(resource.RUSAGE_CHILDREN)
        return ru.ru_utime + ru.ru_stime

    def _report(self, kind: str, message: str, code: int) -> int:
        if self.as_json and not self.wrote_stdout and not self.stdout_gone:
            from .commands import _empty_json
            obj = _empty_json(self.command, {"type": kind, "message": message, "source": None,
                                             "line": None, "column": None})
            if "stdout" in obj:
                obj["stdout"] = b"".join(self.script_out).decode(
                    self.limits["terminal"].stdout_encoding, "replace")
            import json
            self._write(sys.stdout, (json.dumps(obj, ensure_ascii=False) + "\n").encode(
                self.limits["terminal"].stdout_encoding, "backslashreplace"))
        if kind == "KeyboardInterrupt":
            _err("agrad: interrupted")
        else:
            _err(f"agrad: {kind}: {message}")
        return code


def _isatty(stream) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def process_age() -> float:
    """Seconds since this process started (Linux /proc; 0 when unknown)."""
    try:
        with open("/proc/self/stat", "rb") as f:
            stat = f.read()
        with open("/proc/uptime", "rb") as f:
            uptime = float(f.read().split()[0])
        start_ticks = int(stat[stat.rindex(b")") + 2:].split()[19])
        age = uptime - start_ticks / os.sysconf("SC_CLK_TCK")
        return min(max(age, 0.0), 60.0)
    except (OSError, ValueError, IndexError):
        return 0.0


def quiet_stdout() -> None:
    """Standard output was closed (``agrad ... | head``): end without a word."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
