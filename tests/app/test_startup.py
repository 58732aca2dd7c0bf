"""Start-up: what a command's contained child imports.

The child cannot write ``__pycache__``: a module it is the first to import is
compiled from source on every run (when no .pyc was written before).  So the
parent imports what the run will need before it forks (app/contained.py,
``prepare``), and nothing else: every module there is start-up time.  Here the
command body runs in this process, as the child would run it, after ``prepare``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SEED = str(ROOT / "examples" / "backward_experiment.py")
SEED_EXPR = ["-e", "loss = mean((x*w1+w2)*(x*w1*w3))", "--set", "x=ones(2,2)",
             "--param", "w1=2", "--param", "w2=3", "--param", "w3=4"]

RUN = r"""
import json, sys
from agrad import cli
from agrad.app import contained

def in_process(command, run, req, kw):  # the child's part, after the parent's prepare()
    contained.prepare(command, kw)
    before = set(sys.modules)
    code = run(req, kw)
    new = sorted(m for m in set(sys.modules) - before if m.startswith("agrad"))
    sys.stderr.write("NEW " + json.dumps(new) + "\n")
    return code

contained.available = lambda: False
contained._in_process = in_process
cli.cli.main(args=json.loads(sys.argv[1]), prog_name="agrad", standalone_mode=False)
"""


def child_imports(args) -> list:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    r = subprocess.run([sys.executable, "-c", RUN, json.dumps(args)], capture_output=True, text=True,
                       env=env, cwd=ROOT, timeout=120)
    lines = [ln for ln in r.stderr.splitlines() if ln.startswith("NEW ")]
    assert len(lines) == 1, r.stdout[-2000:] + r.stderr[-2000:]
    return json.loads(lines[0][4:])


@pytest.mark.parametrize("args", [
    ["eval", "--format", "json", SEED],
    ["eval", "--format", "text", SEED],
    ["eval", "--format", "text", "--anomaly", SEED],
    ["graph", "--format", "text", SEED],
    ["graph", "--format", "json", "--flow", "--versions", SEED],
    ["graph", "--format", "dot", SEED],
    ["check", "--format", "text", SEED],
    ["check", "--format", "json", "--nodes", SEED],
    ["trace", "--format", "text", SEED],
    ["diff", "--format", "text", "-q", *SEED_EXPR],
    ["jacobian", "--format", "text", "-e", "y = sin(x) * x", "--param", "x=[0.5,1.0,2.0]"],
    ["hessian", "--format", "text", "-e", "loss = (w ** 3).sum() + w[0] * w[1]", "--param", "w=[1.0,2.0]"],
], ids=lambda a: " ".join(a[:2] + [x for x in a[2:] if x.startswith("--") and x != "--format"]))
def test_the_child_imports_no_module_of_agrad(args):
    """Everything of agrad the run needs was imported by the parent (so its .pyc is written)."""
    assert child_imports(args) == []


def test_a_plain_eval_imports_no_module_it_does_not_use():
    """The seed run: no anomaly or inspector views, no backend, no guarded arrays, no
    Python dataclasses, no hashlib (OpenSSL), no string (str.format's formatter)."""
    code = r"""
import sys
from agrad import cli
from agrad.app import contained
contained.available = lambda: False
cli.cli.main(args=["eval", "--format", "json", sys.argv[1]], prog_name="agrad", standalone_mode=False)
sys.stderr.write("MODULES " + " ".join(sorted(sys.modules)) + "\n")
"""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    r = subprocess.run([sys.executable, "-c", code, SEED], capture_output=True, text=True, env=env,
                       cwd=ROOT, timeout=120)
    line = next(ln for ln in r.stderr.splitlines() if ln.startswith("MODULES "))
    loaded = set(line.split()[1:])
    unused = {"agrad.app.anomaly", "agrad.app.inspector", "agrad.app.backend", "agrad.lang.guarded",
              "agrad.lang.dataclasses_module", "dataclasses", "hashlib", "string", "lark", "rich"}
    assert loaded & unused == set()


def _fresh_tree(tmp_path) -> Path:
    """agrad's sources (and grammar) without any .pyc: a checkout before its first run."""
    import shutil
    shutil.copytree(ROOT / "src" / "agrad", tmp_path / "src" / "agrad",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "grammars", tmp_path / "grammars")
    return tmp_path / "src"


def test_the_parent_writes_the_bytecode_the_child_compiled(tmp_path):
    """A module only the child imports (torch.nn's layers here) is compiled by the child,
    which may not write its .pyc: the parent writes it after the run, once."""
    src = _fresh_tree(tmp_path)
    script = tmp_path / "net.py"
    script.write_text("import torch\ntorch.manual_seed(0)\nm = torch.nn.Linear(2, 1)\n"
                      "loss = m(torch.ones(3, 2)).sum()\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(src), AGRAD_CACHE_DIR=str(tmp_path / "cache"))
    args = [sys.executable, "-m", "agrad", "eval", "--format", "json", str(script)]
    pyc = src / "agrad" / "nn" / "modules" / "__pycache__" / f"linear.{sys.implementation.cache_tag}.pyc"
    first = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300)
    assert first.returncode == 0, first.stderr
    assert pyc.is_file()
    written = {p: p.stat().st_mtime_ns for p in src.rglob("*.pyc")}
    second = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300)
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout)["variables"] == json.loads(first.stdout)["variables"]
    assert {p: p.stat().st_mtime_ns for p in src.rglob("*.pyc")} == written  # nothing compiled again


def test_the_parent_compiles_only_agrad_s_own_sources(tmp_path, monkeypatch):
    """Whatever the child sends: files outside agrad's package (directly, through ``..``,
    or not Python sources) are not compiled, nothing is written."""
    from agrad.app import contained
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    outside = tmp_path / "elsewhere.py"
    outside.write_text("x = 1\n")
    agrad_dir = Path(contained._AGRAD_DIR)
    sneaky = agrad_dir / ".." / ".." / os.path.relpath(outside, agrad_dir.parent.parent)
    contained.write_bytecode(b"\0".join(os.fsencode(str(p)) for p in
                                        (outside, sneaky, tmp_path, agrad_dir / "README.md", "")))
    assert not (tmp_path / "__pycache__").exists()
