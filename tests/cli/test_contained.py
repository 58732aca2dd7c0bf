"""The contained child process (issue 8, "What to build" item 2).

The first group runs Python's real ``exec`` inside the contained child on
purpose -- as a script that escaped the language would -- and shows that it
can neither start a process, nor write a file, nor open a socket.  The hook
is the test's own command body handed to ``run_command``: scripts cannot
reach it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agrad.app import contained, seccomp
from agrad.app.session import Request

from .conftest import agrad

pytestmark = pytest.mark.skipif(not contained.available(), reason="containment needs Linux")

REPO = Path(__file__).resolve().parents[2]


def _exec_in_child(code: str, capsys, fmt="text"):
    """Run ``exec(code)`` in the contained child; returns (exit status, stdout, stderr)."""

    def body(req, kw):
        try:
            exec(code, {})
        except BaseException as exc:  # what the escaped code ran into
            print(f"raised {type(exc).__name__}: {exc}")
            return 5
        print("ran")
        return 0

    code_ = contained.run_command("eval", body, Request(exprs=("x = 1",)), {"fmt": fmt})
    captured = capsys.readouterr()
    return code_, captured.out, captured.err


def test_exec_cannot_start_a_process(capsys, tmp_path):
    marker = tmp_path / "ran"
    code, out, err = _exec_in_child(f"import os; os.system('touch {marker}')", capsys)
    assert code == 1
    assert out == ""
    assert err.strip() == ("agrad: SandboxError: the run was stopped: it tried a system call agrad "
                           "forbids (starting a program or a process, or ptrace)")
    assert not marker.exists()


@pytest.mark.parametrize("code", [
    "import subprocess; subprocess.run(['true'])",
    "import os; os.execv('/bin/true', ['true'])",
    "import os; os.fork()",
    "import os; os.posix_spawn('/bin/true', ['true'], {})",
])
def test_exec_cannot_run_a_program(capsys, code):
    status, out, err = _exec_in_child(code, capsys)
    assert status == 1 and out == ""
    assert "SandboxError" in err


@pytest.mark.parametrize("code", [
    "open({path!r}, 'w')",
    "open({path!r}, 'a')",
    "open({path!r}, 'x')",
    "import os; os.open({path!r}, os.O_WRONLY | os.O_CREAT)",
    "import pathlib; pathlib.Path({path!r}).write_text('x')",
    "import numpy; numpy.save({path!r}, numpy.ones(2))",
])
def test_exec_cannot_write_a_file(capsys, tmp_path, code):
    path = str(tmp_path / "written")
    status, out, err = _exec_in_child(code.format(path=path), capsys)
    assert status == 5, err
    assert out.startswith("raised PermissionError: [Errno 1] Operation not permitted")
    assert not os.path.exists(path)


@pytest.mark.parametrize("code", [
    "import os; os.unlink({path!r})",
    "import os; os.rename({path!r}, {path!r} + '.moved')",
    "import os; os.truncate({path!r}, 0)",
    "import os; os.symlink({path!r}, {path!r} + '.link')",
    "import os; os.mkdir({path!r} + '.dir')",
    "open({path!r}, 'r+')",
])
def test_exec_cannot_change_a_file(capsys, tmp_path, code):
    path = tmp_path / "kept.txt"
    path.write_text("kept")
    status, out, err = _exec_in_child(code.format(path=str(path)), capsys)
    assert status == 5, err
    assert out.startswith("raised PermissionError")
    assert path.read_text() == "kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.txt"]


def test_exec_can_still_read_files(capsys):
    status, out, err = _exec_in_child(f"print(len(open({str(REPO / 'README.md')!r}).read()) > 0)",
                                      capsys)
    assert (status, out, err) == (0, "True\nran\n", "")


@pytest.mark.parametrize("code", [
    "import socket; socket.socket()",
    "import socket; socket.create_connection(('127.0.0.1', 9))",
    "import socket; socket.socketpair()",
])
def test_exec_cannot_open_a_socket(capsys, code):
    status, out, err = _exec_in_child(code, capsys)
    assert status == 5, err
    assert out.startswith("raised PermissionError")


def test_exec_cannot_signal_another_process(capsys):
    victim = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        status, out, err = _exec_in_child(f"import os, signal; os.kill({victim.pid}, signal.SIGKILL)",
                                          capsys)
        assert status == 5, err
        assert out.startswith("raised PermissionError")
        assert victim.poll() is None
        status, out, err = _exec_in_child("import os, signal; os.kill(os.getppid(), signal.SIGTERM)",
                                          capsys)
        assert status == 5 and out.startswith("raised PermissionError")
    finally:
        victim.kill()
        victim.wait()


def test_exec_can_signal_itself(capsys):
    code = ("import os, signal\n"
            "signal.signal(signal.SIGUSR1, lambda *a: print('got it'))\n"
            "os.kill(os.getpid(), signal.SIGUSR1)\n"
            "signal.raise_signal(signal.SIGUSR1)")
    status, out, err = _exec_in_child(code, capsys)
    assert (status, out, err) == (0, "got it\ngot it\nran\n", "")


def test_exec_threads_and_blas_still_work(capsys):
    code = ("import threading, numpy\n"
            "a = numpy.ones((300, 300)); r = []\n"
            "t = threading.Thread(target=lambda: r.append(float((a @ a).sum()))); t.start(); t.join()\n"
            "print(r)")
    status, out, err = _exec_in_child(code, capsys)
    assert (status, out, err) == (0, "[27000000.0]\nran\n", "")


def test_exec_limits_are_set(capsys):
    code = ("import resource\n"
            "print([resource.getrlimit(r) for r in (resource.RLIMIT_CORE, resource.RLIMIT_FSIZE)])\n"
            "print(resource.getrlimit(resource.RLIMIT_DATA)[0] == 4 << 30)\n"
            "print(open('/proc/self/status').read().split('NoNewPrivs:')[1].split()[0])\n"
            "print(open('/proc/self/status').read().split('Seccomp:')[1].split()[0])\n"
            "import os; print(os.getpgid(0) == os.getpid())")
    status, out, err = _exec_in_child(code, capsys)
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == "[(0, 0), (0, 0)]"
    assert lines[1:5] == ["True", "1", "2", "True"]


def test_exec_never_writes_to_fds_1_and_2(capsys):
    code = "import os; os.write(1, b'on fd 1'); os.write(2, b'on fd 2'); print('framed')"
    status, out, err = _exec_in_child(code, capsys)
    assert (status, out, err) == (0, "framed\nran\n", "")


def test_seccomp_program_shape():
    for arch in seccomp.SYSCALLS:
        prog = seccomp.program(arch)
        assert prog[0] == (0x20, 0, 0, 4)  # load arch first
        assert prog[-1] == (0x06, 0, 0, seccomp.RET_ALLOW)
        for i, (code, jt, jf, _k) in enumerate(prog):
            if code & 0x07 == 0x05:  # a jump lands inside the program
                assert i + 1 + max(jt, jf) < len(prog)
    assert seccomp.SYSCALLS["x86_64"]["execve"] == 59
    assert seccomp.SYSCALLS["aarch64"]["execve"] == 221


# ------------------------------------------------------------------ files through the parent

def test_files_are_written_by_the_parent(capsys, tmp_path):
    path = tmp_path / "out.bin"

    def body(req, kw):
        contained.write_file(str(path), b"\x00data")
        return 0

    assert contained.run_command("eval", body, Request(exprs=("x = 1",)), {"fmt": "text"}) == 0
    assert path.read_bytes() == b"\x00data"


def test_a_file_the_parent_cannot_write_is_one_line(capsys, tmp_path):
    def body(req, kw):
        contained.write_file(str(tmp_path / "no" / "such" / "dir"), b"x")
        return 0

    assert contained.run_command("eval", body, Request(exprs=("x = 1",)), {"fmt": "text"}) == 1
    err = capsys.readouterr().err
    assert err.startswith("agrad: error: cannot write ") and err.count("\n") == 1


# ------------------------------------------------------------------ memory

# The memory tests run agrad in a process of its own: the contained child inherits its
# parent's private memory, which counts against its RLIMIT_DATA, and the test process's grows
# with the tests run before (tests/lang leaves it 878 MiB: run in-process after them, a child
# under 1G had too little left to start).

def test_memory_limit_is_agrads_limit_error():
    r = _agrad_process("eval", "--max-memory", "1G", "--max-elements", "0", "--format", "json",
                       "-e", "x = torch.ones(400_000_000, dtype=torch.float64)")
    assert r.returncode == 1
    err = json.loads(r.stdout)["error"]
    assert err["type"] == "LimitError"
    assert err["message"].endswith("the run is limited to 1 GiB of memory (--max-memory)")
    assert err["line"] == 1


def test_memory_limit_in_a_list():
    r = _agrad_process("eval", "--max-memory", "1G", "--max-elements", "0",
                       "-e", "x = [1.5] * 300_000_000")
    assert r.returncode == 1
    assert "LimitError: out of memory" in r.stderr and "1 GiB of memory (--max-memory)" in r.stderr


def test_memory_under_the_limit_runs():
    r = _agrad_process("eval", "--max-memory", "1G", "-e", "x = torch.ones(10_000_000).sum()")
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("value, message", [
    ("10M", "below the smallest memory limit, 512 MiB"),
    ("lots", "is not a size"),
    ("-1G", "is not a size"),
    ("nan", "is not a size"),
])
def test_bad_max_memory(value, message):
    r = agrad("eval", "--max-memory", value, "-e", "x = 1")
    assert r.code == 2
    assert message in r.stderr


def test_sizes():
    assert contained.parse_size("4G") == 4 << 30
    assert contained.parse_size("1.5GiB") == 3 << 29
    assert contained.parse_size("0") == 0
    assert contained.format_size(4 << 30) == "4 GiB"


# ------------------------------------------------------------------ the real process

def _agrad_process(*args, **kw):
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    return subprocess.run([sys.executable, "-m", "agrad", *args], capture_output=True, text=True,
                          env=env, timeout=60, **kw)


def test_streaming_order_print_warning_print_then_table():
    """Issue 13 item 2: output as it happens, in Python's order, the table after."""
    script = ("x = torch.ones(2, requires_grad=True)\n"
              "print('one')\n"
              "y = x * 2\n"
              "g = y.grad\n"
              "print('two')\n")
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    p = subprocess.run([sys.executable, "-m", "agrad", "eval", "-e", script, "--format", "text"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                       timeout=60)
    lines = p.stdout.splitlines()
    assert p.returncode == 0, p.stdout
    i_one, i_two = lines.index("one"), lines.index("two")
    warn = next(i for i, s in enumerate(lines) if "UserWarning" in s and ".grad" in s)
    table = next(i for i, s in enumerate(lines) if s.startswith("name "))
    assert i_one < warn < i_two < table


def test_streaming_output_arrives_before_the_run_ends():
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    p = subprocess.Popen([sys.executable, "-m", "agrad", "eval", "--format", "text", "-e",
                          "print('first')\nwhile True:\n    pass"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        assert p.stdout.readline() == b"first\n"  # while the script still runs
    finally:
        p.kill()
        p.wait()


def test_ctrl_c_kills_the_child_and_reports_json():
    import signal
    import time
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    # (a suite run from a background job inherits SIGINT ignored, as bash sets it for `cmd &`:
    # the child gets Ctrl-C's default back, as a terminal's foreground process has it)
    p = subprocess.Popen([sys.executable, "-m", "agrad", "eval", "--format", "json", "-e",
                          "print('hi')\nx = sum(iter(int, 1))"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(0.2)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # wait until the child is running the script
        children = Path(f"/proc/{p.pid}/task/{p.pid}/children")
        if children.exists() and children.read_text().strip():
            break
        time.sleep(0.05)
    time.sleep(0.5)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=10)
    assert p.returncode == 130
    obj = json.loads(out)
    assert obj["ok"] is False and obj["variables"] == {}
    assert obj["error"]["type"] == "KeyboardInterrupt"
    assert err.decode().strip() == "agrad: interrupted"


def test_output_redirected_to_files_works(tmp_path):
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    cmd = (f"{sys.executable} -m agrad eval -e 'print(1)' -e 'y = torch.ones(2).sum()' "
           f"> {out} 2> {err}")
    assert subprocess.run(cmd, shell=True, env=env, timeout=60).returncode == 0
    assert out.read_text().startswith("1\n\nname")
    assert all(line.startswith("agrad: ") for line in err.read_text().splitlines())


def test_without_fork_the_run_is_in_process_with_a_note(monkeypatch):
    monkeypatch.setattr(contained, "available", lambda: False)
    r = agrad("eval", "--format", "json", "-e", "print('a' + chr(0xD800))", "-e", "y = torch.ones(2)")
    assert r.code == 0
    assert r.stderr.startswith("agrad: note: no process containment on ")
    assert r.json()["stdout"] == "a\ud800\n"


def test_the_child_knows_the_parents_terminal(capsys):
    def body(req, kw):
        t = contained.terminal()
        print(contained.active(), t.stdout_tty, t.stderr_tty, os.environ.get("COLUMNS"))
        return 0

    term = contained.Terminal(stdout_tty=True, stderr_tty=False, columns=61)
    probe = contained.Terminal.probe
    try:
        contained.Terminal.probe = classmethod(lambda cls: term)
        env_cols = os.environ.pop("COLUMNS", None)
        assert contained.run_command("eval", body, Request(exprs=("x = 1",)), {"fmt": "text"}) == 0
    finally:
        contained.Terminal.probe = probe
        if env_cols is not None:
            os.environ["COLUMNS"] = env_cols
    assert capsys.readouterr().out == "True True False 61\n"


# ------------------------------------------------------------------ deaths

@pytest.mark.parametrize("sig, line", [
    ("SIGKILL", "agrad: MemoryError: the run was killed by the system (SIGKILL), most likely out of "
                "memory below agrad's limit of 4 GiB (--max-memory)"),
    ("SIGSEGV", "agrad: InternalError: internal error: the contained run crashed (SIGSEGV)"),
    ("SIGXCPU", "agrad: TimeoutError: the run was stopped by SIGXCPU (a CPU time limit)"),
])
def test_a_death_is_one_line(capsys, sig, line):
    code, out, err = _exec_in_child(f"import os, signal; os.kill(os.getpid(), signal.{sig})", capsys)
    assert code == 1 and out == ""
    assert err == line + "\n"


def test_a_death_in_json_is_the_commands_object(capsys):
    code, out, err = _exec_in_child("import os, signal; print('so far')\n"
                                    "os.kill(os.getpid(), signal.SIGSYS)", capsys, fmt="json")
    assert code == 1
    obj = json.loads(out)
    assert obj["ok"] is False and obj["variables"] == {}
    assert obj["error"]["type"] == "SandboxError"


def test_cpu_limit_follows_the_timeout(capsys):
    def body(req, kw):
        import resource
        print(resource.getrlimit(resource.RLIMIT_CPU))
        return 0

    req = Request(exprs=("x = 1",), timeout=2.0)
    assert contained.run_command("eval", body, req, {"fmt": "text"}) == 0
    soft = int((2.0 + contained.GRACE) * (os.cpu_count() or 1)) + 2
    assert capsys.readouterr().out == f"({soft}, {soft + 1})\n"
