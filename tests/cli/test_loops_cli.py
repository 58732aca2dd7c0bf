"""The command line around training loops: the progress bar on a terminal's standard
error (drawn by the parent from the contained child's frames) and ``eval --plot``."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from agrad.app.loops import LoopWatch, _records
from agrad.lang import Source, run
from agrad.lang import ast as A
from agrad.lang.parser import parse_script

from .conftest import agrad

REPO = Path(__file__).resolve().parents[2]

TRAIN = textwrap.dedent("""
    import torch
    torch.manual_seed(0)
    w = torch.zeros(3, requires_grad=True)
    x = torch.linspace(-1, 1, 30).reshape(10, 3)
    y = x @ torch.tensor([1.0, -2.0, 0.5])
    opt = torch.optim.SGD([w], lr=0.1)
    for epoch in range(3):
        running = 0.0
        for i in range(4):
            opt.zero_grad()
            loss = ((x @ w - y) ** 2).mean()
            loss.backward()
            opt.step()
            running += loss.item()
        epoch_loss = running / 4
""")

SLOW = "import time\nfor epoch in range(4):\n    time.sleep(0.45)\n    print('epoch', epoch)\n"


# ------------------------------------------------------------------ --plot

def test_plot_draws_a_chart_after_the_table():
    r = agrad("eval", "-", "--plot", "loss", "--format", "text", input=TRAIN)
    assert r.code == 0, r.stderr
    lines = r.stdout.splitlines()
    head = next(i for i, s in enumerate(lines) if s.startswith("loss: 12 values"))
    assert lines[head] == "loss: 12 values, recorded at <stdin>:10"
    assert "┤" in lines[head + 1] and lines[head + 11].strip().startswith("└")
    assert lines[head + 12].split() == ["1", "12"]
    assert all(len(s) <= 80 for s in lines)


def test_plot_records_at_the_innermost_assigning_loop():
    r = agrad("eval", "-", "--plot", "running", "--plot", "epoch_loss", "--format", "json",
              input=TRAIN)
    assert r.code == 0, r.stderr
    plots = json.loads(r.stdout)["plots"]
    assert len(plots["running"]) == 12 and len(plots["epoch_loss"]) == 3
    assert plots["epoch_loss"][0] == pytest.approx(plots["running"][3] / 4)


def test_plot_json_values_match_the_losses():
    code = TRAIN + "print(loss.item())\n"
    r = agrad("eval", "-", "--plot", "loss", "--format", "json", input=code)
    obj = json.loads(r.stdout)
    assert obj["ok"] and obj["error"] is None
    assert obj["plots"]["loss"][-1] == pytest.approx(float(obj["stdout"]))


def test_plot_out_writes_an_svg(tmp_path):
    out = tmp_path / "loss.svg"
    r = agrad("eval", "-", "--plot", "loss", "--plot-out", out, "--no-table", input=TRAIN)
    assert r.code == 0, r.stderr
    svg = out.read_text()
    assert svg.startswith("<svg xmlns=\"http://www.w3.org/2000/svg\"")
    assert "<polyline" in svg and "loss: 12 values" in svg and svg.rstrip().endswith("</svg>")


def test_plot_out_in_json_mode(tmp_path):
    out = tmp_path / "p.svg"
    r = agrad("eval", "-", "--plot", "loss", "--plot-out", out, "--format", "json", input=TRAIN)
    assert r.code == 0 and out.exists()


@pytest.mark.parametrize("args,code,fragment", [
    (["--plot", "nope"], 2, "--plot nope: no loop of the script assigns nope"),
    (["--plot", "v"], 2, "--plot v: v is a tensor of shape [3] at the end of iteration 1 of the "
                         "loop at <stdin>:17; --plot needs a number or a one-element tensor"),
    (["--plot", "s"], 2, "--plot s: s is a str at the end of iteration 1 of the loop at "
                         "<stdin>:17; --plot needs a number or a one-element tensor"),
    (["--plot-out", "x.svg"], 2, "--plot-out needs --plot NAME"),
    (["--plot", "loss", "--plot-out", "/nonexistent-dir/x.svg"], 2, "no such directory"),
    (["--plot", "loss", "--plot-out", "/"], 2, "is a directory"),
])
def test_plot_bad_input(args, code, fragment):
    script = TRAIN + "for i in range(2):\n    v = torch.ones(3) * i\n    s = 'text'\n"
    r = agrad("eval", "-", *args, input=script)
    assert r.code == code, (r.stdout, r.stderr)
    assert fragment in r.stderr
    assert "Traceback" not in r.stderr


def test_plot_bad_name_in_json():
    r = agrad("eval", "-", "--plot", "nope", "--format", "json", input=TRAIN)
    assert r.code == 2
    obj = json.loads(r.stdout)
    assert obj["ok"] is False and obj["error"]["type"] == "UsageError"
    assert obj["plots"] == {"nope": []}


def test_unwritable_plot_out(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root can write anywhere")
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    r = agrad("eval", "-", "--plot", "loss", "--plot-out", folder / "x.svg", input=TRAIN)
    assert r.code == 2 and "is not writable" in r.stderr


def test_plot_of_a_script_that_fails_shows_the_error_only():
    r = agrad("eval", "-", "--plot", "loss", input=TRAIN + "raise ValueError('boom')\n")
    assert r.code == 1 and "ValueError: boom" in r.stderr and "loss: 12" not in r.stdout


# ------------------------------------------------------------------ which loops record

def _loops(text):
    m = parse_script(Source("t.py", text))
    return [n for n in A.walk(m) if isinstance(n, (A.For, A.While))]


def test_records_rule():
    outer, inner = sorted(_loops(TRAIN), key=lambda n: n.line)
    assert _records(inner, "loss") and not _records(outer, "loss")
    assert _records(inner, "running") and not _records(outer, "running")
    assert _records(outer, "epoch_loss") and not _records(inner, "epoch_loss")
    assert _records(outer, "epoch") and not _records(outer, "nothing")
    fn = _loops("def f():\n    for i in range(2):\n        def g():\n            z = 1\n")
    assert not _records(fn[0], "z") and _records(fn[0], "i")


def test_loop_watch_in_functions_and_while():
    watch = LoopWatch(("v",))
    res = run(Source("t.py", "def f():\n    k = 0\n    while k < 3:\n        k += 1\n"
                              "        v = k * 2\nf()\n"), loop_watch=watch)
    assert res.error is None
    assert watch.series["v"].values == [2.0, 4.0, 6.0]


# ------------------------------------------------------------------ the progress bar

def _on_a_terminal(args, stdin_text, timeout=60):
    """Run agrad with standard error on a pseudo-terminal; (stdout, stderr bytes, code)."""
    master, slave = pty.openpty()
    env = dict(os.environ, COLUMNS="100", PYTHONPATH=str(REPO / "src"))
    env.pop("NO_COLOR", None)
    p = subprocess.Popen([sys.executable, "-m", "agrad", *args], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    p.stdin.write(stdin_text.encode())
    p.stdin.close()
    err = b""
    while True:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            err += chunk
        elif p.poll() is not None:
            break
    os.close(master)
    out = p.stdout.read()
    return out, err, p.wait(timeout)


def test_progress_bar_on_a_terminal():
    out, err, code = _on_a_terminal(["eval", "-", "--no-table"], SLOW)
    assert code == 0
    assert out == b"epoch 0\nepoch 1\nepoch 2\nepoch 3\n"
    assert b"for epoch in range(4):" in err and "━".encode() in err
    assert b"/4" in err
    assert err.endswith(b"\r\x1b[K")   # the bar is taken away at the end


def test_no_progress_bar_when_quiet_or_json():
    for extra in (["-q"], ["--format", "json"]):
        out, err, code = _on_a_terminal(["eval", "-", "--no-table", *extra], SLOW)
        assert code == 0 and b"range(4)" not in err, (extra, err)


def test_no_progress_bar_in_a_pipe():
    r = subprocess.run([sys.executable, "-m", "agrad", "eval", "-", "--no-table"], input=SLOW,
                       capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, PYTHONPATH=str(REPO / "src")))
    assert r.returncode == 0 and r.stderr == "" and r.stdout.count("epoch") == 4


def test_no_progress_bar_for_a_short_loop():
    out, err, code = _on_a_terminal(["eval", "-e", "s = 0\nfor i in range(100):\n    s += i\n"
                                     "print(s)", "--no-table"], "")
    assert code == 0 and out == b"4950\n" and b"range(100)" not in err


def test_progress_totals_through_enumerate_and_zip(monkeypatch):
    import agrad.app.loops as loops
    monkeypatch.setattr(loops, "PROGRESS_AFTER", 0.0)
    monkeypatch.setattr(loops, "PROGRESS_EVERY", 0.0)
    sent = []
    watch = LoopWatch((), sent.append)
    res = run(Source("t.py", "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\n"
                             "dl = DataLoader(TensorDataset(torch.ones(10, 2)), batch_size=3)\n"
                             "for i, (x,) in enumerate(dl):\n    pass\n"
                             "for a, b in zip(dl, range(2)):\n    pass\n"
                             "for v in (k for k in range(3)):\n    pass\n"), loop_watch=watch)
    assert res.error is None, res.error.render()
    totals = [r["total"] for r in sent if not r.get("end")]
    assert totals == [4] * 4 + [2] * 2 + [None] * 3
    assert sent[3]["fraction"] == 1.0 and sent[-1] == {"end": True}


def test_dataloader_iterator_has_a_length_but_no_way_out():
    res = run(Source("t.py", "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\n"
                             "it = iter(DataLoader(TensorDataset(torch.ones(5, 1)), batch_size=2))\n"
                             "next(it)\nprint(len(it))\nit._loader"))
    assert res.stdout == "3\n"
    assert res.error is not None and "'_loader'" in res.error.message
