"""Exit status, error messages with carets, help, and the process-level behaviour."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from .conftest import REPO, agrad


def test_syntax_error_exit_2_with_caret():
    r = agrad("eval", "-", input="x = = 1\n")
    assert r.code == 2
    assert r.stdout == ""
    assert r.stderr.splitlines() == [
        "<stdin>:1:5: SyntaxError: invalid syntax: unexpected '='; expected an expression",
        "    x = = 1",
        "        ^",
    ]


def test_runtime_error_exit_1_with_source_line(in_repo):
    r = agrad("eval", "examples/inplace_error.py", "--format", "text")
    assert r.code == 1
    assert r.stdout == "0\n1\n"
    err = r.stderr.splitlines()
    assert err[0].startswith("examples/inplace_error.py:11:1: RuntimeError: one of the variables needed")
    assert err[1:] == ["    loss.backward()", "    ^^^^^^^^^^^^^^^"]
    assert "Traceback" not in r.stderr


def test_expr_sources_are_named():
    r = agrad("eval", "-e", "a = 1", "-e", "b = a +")
    assert r.code == 2
    assert r.stderr.startswith("<expr 2>:1:")


def test_blocked_import_exit_1():
    r = agrad("eval", "-e", "import os")
    assert r.code == 1
    assert "ImportError" in r.stderr and "os" in r.stderr


def test_unknown_option_usage_error():
    r = agrad("eval", "--frobnicate")
    assert r.code == 2
    assert r.stdout == ""
    assert "agrad: error: No such option '--frobnicate'" in r.stderr
    assert "Usage: agrad eval" in r.stderr


def test_bad_format_choice():
    r = agrad("graph", "--format", "png", "-e", "x = 1")
    assert r.code == 2 and "png" in r.stderr
    r = agrad("eval", "--format", "dot", "-e", "x = 1")
    assert r.code == 2  # dot and mermaid are for graph only


def test_unknown_command():
    r = agrad("frobnicate")
    assert r.code == 2 and "No such command" in r.stderr


def test_help_and_version():
    r = agrad("--help")
    assert r.code == 0 and "Examples:" in r.stdout and "eval" in r.stdout
    assert agrad("-h").stdout == r.stdout
    r = agrad("--version")
    assert r.code == 0 and r.stdout.strip().startswith("agrad ")
    for cmd in ("eval", "graph", "check"):
        h = agrad(cmd, "-h")
        assert h.code == 0
        for opt in ("--expr", "--set", "--param", "--of", "--format", "--dtype", "--seed",
                    "--max-elements", "--timeout"):
            assert opt in h.stdout, (cmd, opt)
    assert "--no-backward" in agrad("eval", "-h").stdout
    assert "--saved" in agrad("graph", "-h").stdout and "mermaid" in agrad("graph", "-h").stdout
    assert "--samples" in agrad("check", "-h").stdout


def test_shell_completion_script():
    r = agrad(env={"_AGRAD_COMPLETE": "bash_source"})
    assert r.code == 0
    assert "_agrad_completion" in r.stdout


def test_shell_completion_of_commands_and_options():
    r = agrad(env={"_AGRAD_COMPLETE": "bash_complete", "COMP_WORDS": "agrad gr", "COMP_CWORD": "1"})
    assert "graph" in r.stdout
    r = agrad(env={"_AGRAD_COMPLETE": "bash_complete", "COMP_WORDS": "agrad graph --format m",
                   "COMP_CWORD": "3"})
    assert "mermaid" in r.stdout


def test_debug_flag_accepted():
    r = agrad("eval", "--debug", "-e", "x = 1", "--format", "json")
    assert r.code == 0


# -- the real process -------------------------------------------------------------------

def _agrad_exe():
    exe = shutil.which("agrad")
    return [exe] if exe else [sys.executable, "-m", "agrad"]


def test_closed_pipe_is_quiet(tmp_path):
    p = subprocess.Popen(_agrad_exe() + ["eval", "-e", "for i in range(200000):\n    print(i)"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    first = p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read()
    p.wait(timeout=120)
    assert first == b"0\n"
    assert err == b"", err.decode()
    assert p.returncode == 0


@pytest.mark.skipif(os.name != "posix", reason="signals")
def test_ctrl_c_exit_130(tmp_path):
    p = subprocess.Popen(_agrad_exe() + ["eval", "-e", "i = 0", "-e", "while True:\n    i = i + 1"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # (see test_contained)
    # Ctrl-C once the script runs: the contained child exists (a loaded machine
    # may take more than 2 s to import; Ctrl-C during imports is Python's own)
    children = f"/proc/{p.pid}/task/{p.pid}/children"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and os.path.exists(children):
        with open(children) as f:
            if f.read().strip():
                break
        time.sleep(0.05)
    time.sleep(0.5)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130
    assert err.decode().strip().splitlines() == ["agrad: interrupted"]


def test_python_dash_m(tmp_path):
    r = subprocess.run([sys.executable, "-m", "agrad", "eval", "--format", "json", "-e",
                        "w = tensor(2.0, requires_grad=True)", "-e", "loss = (w*w).sum()"],
                       capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert r.returncode == 0
    assert '"ok": true' in r.stdout


def test_hook_checks_from_the_brief(tmp_path):
    r = subprocess.run(_agrad_exe() + ["eval", "-"], input="x = = 1\n", capture_output=True,
                       text=True, cwd=tmp_path, timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr + r.stdout
    r = subprocess.run(_agrad_exe() + ["eval", "--format", "json", "-e",
                                       "w = tensor(2.0, requires_grad=True)", "-e", "loss = (w*w).sum()"],
                       capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert '"ok": true' in r.stdout


def test_timeout_ends_a_long_numpy_call(tmp_path):
    # one long C-level call: the run still ends, exit 1, with a message
    code = "a = ones(3000, 3000)\nfor i in range(1000):\n    b = a @ a\n"
    t0 = time.monotonic()
    r = subprocess.run(_agrad_exe() + ["eval", "--timeout", "1", "-"], input=code, capture_output=True,
                       text=True, cwd=tmp_path, timeout=120)
    assert r.returncode == 1
    assert "TimeoutError" in r.stderr
    assert time.monotonic() - t0 < 30


def test_no_traceback_on_internal_error(monkeypatch):
    from agrad.app import commands

    def boom(req, kw):
        raise ValueError("boom")

    monkeypatch.setattr(commands, "run_eval", boom)
    r = agrad("eval", "-e", "x = 1")
    assert r.code == 1
    assert r.stderr.strip() == "agrad: internal error: ValueError: boom (run with --debug for a traceback)"
    r = agrad("eval", "-e", "x = 1", "--format", "json")
    assert r.json()["error"]["type"] == "InternalError"


def test_repo_not_needed_for_console_script(tmp_path):
    """The installed console script, from a folder outside the repository, script on stdin."""
    exe = shutil.which("agrad")
    if exe is None:
        pytest.skip("the agrad console script is not installed (pip install -e .)")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    assert REPO not in outside.parents
    script = ("import torch as t\nw1 = t.tensor(2.0, requires_grad=True)\n"
              "loss = (t.ones(2, 2) * w1).mean()\nprint(loss)\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run([exe, "eval", "-", "--format", "text"], input=script, capture_output=True,
                       text=True, cwd=outside, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "tensor(2., grad_fn=<MeanBackward0>)"
    assert "agrad: ran loss.backward()" in r.stderr
    assert any(ln.split()[:1] == ["w1"] and ln.split()[-1] == "1." for ln in r.stdout.splitlines())
