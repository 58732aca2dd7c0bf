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
