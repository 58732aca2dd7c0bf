"""The API the CLI uses: run() and RunResult, eval_expression, timeouts,
warnings, the target rule, the parser cache."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import agrad
from agrad.lang import (ScriptError, ScriptSyntaxError, Source, eval_expression, parse_value,
                        run)

SRC = str(Path(__file__).resolve().parents[2] / "src")


def test_namespace_in_order_without_modules_functions_classes(run_ok):
    res = run_ok("import torch\nimport math as m\nb = 1\na = torch.ones(2)\n"
                 "def f():\n    pass\ng = lambda: 0\nh = torch.sin\nb = 3\n"
                 "class F(torch.autograd.Function):\n    pass\n", bindings={"z": 0})
    assert list(res.namespace) == ["z", "b", "a"]
    assert res.namespace["b"] == 3


def test_stdout_warnings_and_backward_flag(run_ok):
    res = run_ok("import torch\nw = torch.tensor(2.0, requires_grad=True)\ny = w * 3\n"
                 "print(y.grad)\nprint(y.grad)\nfor i in range(3):\n    y.grad\n")
    assert res.stdout == "None\nNone\n"
    assert [w.line for w in res.warnings] == [4, 5, 7]
    w = res.warnings[0]
    assert w.category == "UserWarning" and w.message.startswith("The .grad attribute of a Tensor")
    assert w.render().startswith("<script>:4: UserWarning: The .grad attribute")
    assert not res.backward_ran
    assert run_ok("import torch\nw = torch.ones(2, requires_grad=True)\n"
                  "(w * 2).sum().backward()\n").backward_ran
    assert run_ok("import torch\nw = torch.ones(2, requires_grad=True)\n"
                  "g = torch.autograd.grad((w * 2).sum(), w)\n").backward_ran


def test_target_rule(run_ok):
    res = run_ok("import torch\nloss = torch.ones(2).sum()\nn = 3\n")
    assert res.last_tensor_name == "loss" and res.target_name == "loss"
    res = run_ok("import torch\nx = torch.ones(2)\nx.sum()\n")
    assert res.target_name == "_" and float(res.last_value) == 2.0
    res = run_ok("import torch\nif True:\n    a, b = torch.ones(1), torch.zeros(1)\n")
    assert res.target_name == "b"
    assert [(a.name, a.line, a.text) for a in res.assignments] == [
        ("a", 3, "a, b = torch.ones(1), torch.zeros(1)"),
        ("b", 3, "a, b = torch.ones(1), torch.zeros(1)")]


def test_bindings_and_several_sources_share_one_namespace(run_ok):
    res = run([Source("model.py", "y = x * 2\n"), Source("<expr 1>", "z = y + 1")],
              bindings={"x": 5})
    assert res.error is None and res.namespace == {"x": 5, "y": 10, "z": 11}


def test_free_variables_bound_on_the_command_line(run_ok):
    w1 = agrad.tensor(2.0, requires_grad=True)
    res = run_ok("loss = mean((x*w1 + 1) * (x*w1))", bindings={"x": agrad.ones(2, 2), "w1": w1})
    assert res.target_name == "loss" and res.namespace["loss"].item() == 6.0


def test_state_before_an_error_is_kept():
    res = run("a = 1\nprint('hi')\nb = 1 / 0\nc = 3\n")
    assert res.error.type_name == "ZeroDivisionError"
    assert res.namespace == {"a": 1} and res.stdout == "hi\n"


def test_syntax_errors_come_back_in_the_result():
    res = run([Source("a.py", "x = 1\n"), Source("b.py", "y = (\n")])
    assert isinstance(res.error, ScriptSyntaxError) and res.error.source == "b.py"
    assert res.namespace == {}       # nothing ran


def test_eval_expression_binds_as_is():
    assert eval_expression("2") == 2 and type(eval_expression("2")) is int
    assert eval_expression("x * 3", {"x": 2}) == 6
    t = parse_value("ones(2, 2)", source_name="--set t")
    assert isinstance(t, agrad.Tensor) and tuple(t.shape) == (2, 2)


def test_timeout_on_an_endless_loop():
    t0 = time.monotonic()
    res = run(Source("loop.py", "x = 0\nwhile True:\n    x += 1\n"), timeout=0.5)
    assert time.monotonic() - t0 < 3
    assert res.timed_out and res.error.type_name == "TimeoutError"
    assert "0.5 s" in res.error.message and res.error.source == "loop.py"
    assert not res.worker_alive          # the loop noticed and stopped
    assert res.namespace["x"] > 0


def test_watchdog_ends_one_long_numpy_call():
    """A single long matmul cannot be interrupted from Python: run() returns
    after the timeout anyway and the process can exit (as the CLI will).  A
    loaded machine may not reach the matmul before the timeout (the worker
    then stops at its next statement, or is inside torch.ones): the script marks the point
    just before the matmul, and the test retries with a longer timeout until
    the timeout finds the worker inside it."""
    code = textwrap.dedent("""
        import os, sys, time
        from agrad.lang import run, Source
        t0 = time.monotonic()
        res = run(Source("mm.py", "import torch\\na = torch.ones(6000, 6000)\\nready = 1\\n"
                                  "b = a @ a @ a @ a @ a @ a @ a @ a\\n"), timeout=TIMEOUT)
        print(round(time.monotonic() - t0, 1), res.timed_out, res.worker_alive,
              res.error.type_name, "ready" in res.namespace, flush=True)
        os._exit(1 if res.timed_out else 0)
    """)
    for timeout in (1.5, 3.0, 6.0, 12.0):
        t0 = time.monotonic()
        p = subprocess.run([sys.executable, "-c", code.replace("TIMEOUT", str(timeout))],
                           capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": SRC}, timeout=120)
        elapsed = time.monotonic() - t0
        assert p.returncode == 1, p.stderr
        took, timed_out, alive, type_name, ready = p.stdout.split()
        assert timed_out == "True" and type_name == "TimeoutError"
        assert float(took) < timeout + 1.5
        assert elapsed < timeout + 30 and "Traceback" not in p.stderr
        if ready == "True":
            assert alive == "True"      # inside the matmul: run() returned anyway
            return
        # not there yet: stopped at a statement, or inside torch.ones (itself one numpy call)
    raise AssertionError("the worker never reached the matmul within 12 s")


def test_parser_cache_is_used_and_unwritable_dir_falls_back(tmp_path):
    code = ("from agrad.lang import parser, run\nr = run('x = 1')\n"
            "print(r.error is None, parser.parser_origin)")
    env = {**os.environ, "PYTHONPATH": SRC, "AGRAD_CACHE_DIR": str(tmp_path / "c")}
    outs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=env, timeout=60).stdout.strip() for _ in range(2)]
    assert outs == ["True built", "True fast cache"]
    files = sorted((tmp_path / "c").iterdir())
    assert [f.name.split("-")[0] for f in files] == ["fast", "grammar"]
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    env["AGRAD_CACHE_DIR"] = str(ro / "sub")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=60).stdout.strip()
    assert out.startswith("True built (no cache") or os.geteuid() == 0
    # corrupt cache files are rebuilt, not fatal
    for f in files:
        f.write_bytes(b"garbage")
    env["AGRAD_CACHE_DIR"] = str(tmp_path / "c")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=60).stdout.strip()
    assert out.startswith("True")


def test_import_is_lean():
    code = ("import sys, agrad.lang\n"
            "print('lark' in sys.modules, 'rich' in sys.modules, 'click' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": SRC}, timeout=60).stdout
    assert out.split() == ["False", "False", "False"]


def test_script_error_render_and_dict():
    res = run(Source("m.py", "import torch\nx = torch.ones(2, 3)\ny = x @ x\n"))
    err = res.error
    assert isinstance(err, ScriptError) and err.type_name == "RuntimeError"
    d = err.to_dict()
    assert d["source"] == "m.py" and d["line"] == 3 and d["column"] == 5
    assert err.render().splitlines()[1:] == ["    y = x @ x", "        ^^^^^"]
