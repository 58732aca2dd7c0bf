"""Time-outs that hold (issue 8, "Why" item 2).

Each case once ran 35 minutes past ``--timeout 3``, or ended at timeout + 5 s
with nothing printed.  Now the parent process kills the contained child at
the deadline: each ends within the time-out plus 2 s, with the JSON object
(or one line on standard error) and exit status 1.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agrad.app import contained

from .conftest import agrad

pytestmark = pytest.mark.skipif(not contained.available(), reason="containment needs Linux")

REPO = Path(__file__).resolve().parents[2]
TIMEOUT = 1.0

HOOK_LOOP = """\
def h(g):
    while True:
        pass
x = torch.ones(2, requires_grad=True)
x.register_hook(h)
y = (x * 2).sum()
"""

REPR_LOOP = """\
class R(torch.autograd.Function):
    def __repr__(self):
        while True:
            pass
x = torch.ones(2)
R()
"""

DEL_LOOP = """\
class A(torch.autograd.Function):
    def __del__(self):
        while True:
            pass
a = A()
"""

CHECK_REPLAY_LOOP = """\
calls = [0]
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        calls[0] += 1
        if calls[0] > 1:
            while True:
                pass
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.ones(2, requires_grad=True)
y = F.apply(x).sum()
"""

CASES = {
    "hook loop in the automatic backward": ("eval", HOOK_LOOP),
    "looping __repr__ in the table": ("eval", REPR_LOOP),
    "__del__ loop": ("eval", DEL_LOOP),
    "check replays a looping forward": ("check", CHECK_REPLAY_LOOP),
    "sum(iter(int, 1))": ("eval", "print('before')\nx = sum(iter(int, 1))"),
    "''.join(iter(str, 'x'))": ("eval", "x = ''.join(iter(str, 'x'))"),
    "math.fsum": ("eval", "import math\nx = math.fsum(iter(float, 1))"),
    "huge integer //": ("eval", "a = 10 ** (10 ** 7)\nb = a // (a // 12345 + 1)"),
    "pow with a huge modulus": ("eval", "x = pow(3, 10**30, 10**(10**6) + 7)"),
    "round(1, -10**9)": ("eval", "x = round(1, -10**9)"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_timeout_holds_json(name):
    command, script = CASES[name]
    t0 = time.monotonic()
    r = agrad(command, "--timeout", TIMEOUT, "--format", "json", "-e", script)
    elapsed = time.monotonic() - t0
    assert elapsed < TIMEOUT + 2, f"{name}: {elapsed:.1f} s"
    obj = r.json()  # exactly one JSON object
    if name == "__del__ loop":
        # script classes may not define __del__ (issue 8 item 1): refused at the class
        assert r.code == 1 and obj["error"]["type"] == "TypeError", obj["error"]
        assert "cannot define '__del__'" in obj["error"]["message"]
        return
    assert r.code == 1
    assert obj["ok"] is False
    assert obj["error"]["type"] == "TimeoutError", obj["error"]
    if name == "sum(iter(int, 1))":
        assert obj["stdout"] == "before\n"


@pytest.mark.parametrize("name", ["hook loop in the automatic backward", "sum(iter(int, 1))",
                                  "looping __repr__ in the table"])
def test_timeout_holds_text(name):
    command, script = CASES[name]
    t0 = time.monotonic()
    r = agrad(command, "--timeout", TIMEOUT, "--format", "text", "-e", script)
    assert time.monotonic() - t0 < TIMEOUT + 2
    assert r.code == 1
    assert r.stderr.splitlines()[-1] == ("agrad: TimeoutError: the run did not finish within 1 s "
                                         "(--timeout); agrad stopped it")
    assert "Traceback" not in r.stderr


def test_timeout_counts_from_the_start_of_the_process():
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    # what start-up alone costs on this machine now (a loaded machine can take
    # seconds to import); an idle one imports in ~0.3 s and the bound is 3 s
    t0 = time.monotonic()
    subprocess.run([sys.executable, "-c", "import agrad.cli"], env=env, timeout=60, check=True)
    startup = time.monotonic() - t0
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "agrad", "eval", "--timeout", "1", "--format", "json",
                        "-e", "print('hi')\nx = sum(iter(int, 1))"],
                       capture_output=True, text=True, env=env, timeout=60)
    assert time.monotonic() - t0 < 1 + 2 + max(0.0, startup - 0.5)
    assert p.returncode == 1
    assert json.loads(p.stdout)["error"]["type"] == "TimeoutError"


def test_the_childs_own_timeout_keeps_the_line():
    r = agrad("eval", "--timeout", "1", "-e", "i = 0\nwhile True:\n    i += 1")
    assert r.code == 1
    first = r.stderr.splitlines()[0]
    assert first.startswith(("<expr 1>:2:", "<expr 1>:3:"))  # the line that was running
    assert "TimeoutError: the script did not finish within 1 s (--timeout)" in first
