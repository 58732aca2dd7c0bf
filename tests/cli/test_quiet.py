"""Quiet paths and colour: --quiet, --no-table, piped stdin, NO_COLOR / FORCE_COLOR / --color."""

from __future__ import annotations

from .conftest import agrad

NON_SCALAR = "y = ones(3, requires_grad=True) * 2"
ESC = "\x1b["


def test_quiet_drops_notes_not_warnings_or_errors():
    r = agrad("eval", "-e", NON_SCALAR, "--format", "text")
    assert "no automatic backward" in r.stderr
    r = agrad("eval", "-e", NON_SCALAR, "--format", "text", "-q")
    assert r.stderr == "" and "MulBackward0" in r.stdout
    r = agrad("graph", "-e", NON_SCALAR, "--format", "text", "--quiet")
    assert r.stderr == ""
    r = agrad("eval", "-e", "x = ones(2)", "-e", "y = x.sum().item() + undefined", "-q")
    assert r.code == 1 and "NameError" in r.stderr
    r = agrad("eval", "-q", "-e", NON_SCALAR, "-e", "g = y.grad")  # PyTorch's non-leaf .grad warning
    assert "UserWarning: The .grad attribute of a Tensor that is not a leaf" in r.stderr


def test_no_table_keeps_the_script_output():
    r = agrad("eval", "-e", "print('hello')", "-e", NON_SCALAR, "--format", "text", "--no-table")
    assert r.stdout == "hello\n"
    r = agrad("eval", "-e", NON_SCALAR, "--format", "json", "--no-table")
    assert "y" in r.json()["variables"]  # JSON is unchanged


def test_piped_stdin_without_source():
    r = agrad("eval", "--format", "text", input="x = ones(2, requires_grad=True)\nloss = (x * 3).sum()\n")
    assert r.code == 0 and "SumBackward0" in r.stdout
    assert "ran loss.backward()" in r.stderr
    r = agrad("eval", "--format", "text", input="")
    assert r.code == 2 and "no script given (standard input is empty)" in r.stderr
    r = agrad("eval", "-e", "z = 1", "--format", "json", input="x = ones(2)\n")
    assert list(r.json()["variables"]) == ["z"]  # -e given: stdin is not read


def test_colour_switches():
    plain = agrad("eval", "-e", NON_SCALAR)  # piped: text, no colour
    assert ESC not in plain.stdout
    for env, args in (({"FORCE_COLOR": "1"}, ()), ({}, ("--color",))):
        r = agrad("eval", "-e", NON_SCALAR, *args, env=env)
        assert ESC in r.stdout, (env, args)
    r = agrad("eval", "-e", NON_SCALAR, "--format", "rich", "--no-color")
    assert ESC not in r.stdout and "MulBackward0" in r.stdout
    r = agrad("eval", "-e", NON_SCALAR, "--format", "rich", env={"NO_COLOR": "1", "FORCE_COLOR": "1"})
    assert ESC not in r.stdout  # NO_COLOR wins over FORCE_COLOR
    r = agrad("eval", "-e", NON_SCALAR, "--format", "rich", "--color", env={"NO_COLOR": "1"})
    assert ESC in r.stdout  # the command line wins over both
    r = agrad("eval", "-e", NON_SCALAR, "--format", "text", "--color")
    assert ESC not in r.stdout  # text never has colour codes


def test_shell_completion_scripts():
    import os
    import subprocess
    import sys
    from pathlib import Path
    src = Path(__file__).resolve().parents[2] / "src"
    for shell, marker in (("bash", "_agrad_completion()"), ("zsh", "#compdef agrad"),
                          ("fish", "complete --no-files --command agrad")):
        env = dict(os.environ, _AGRAD_COMPLETE=f"{shell}_source", PYTHONPATH=str(src))
        r = subprocess.run([sys.executable, "-m", "agrad"], env=env, capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 0 and marker in r.stdout, (shell, r.stdout[:200], r.stderr)
