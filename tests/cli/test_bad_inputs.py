"""Bad inputs to the process and the command line (issue 8, item 5).

Each gets one clear line (click's usage block for option errors), the
right exit status, and never a traceback.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from .conftest import agrad

REPO = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONPATH=str(REPO / "src"))
AGRAD = f"{sys.executable} -m agrad"


def _sh(cmd: str, **kw):
    return subprocess.run(["sh", "-c", cmd], capture_output=True, env=ENV, timeout=60, **kw)


def _one_error_line(stderr: str, text: str) -> None:
    assert "Traceback" not in stderr
    errors = [s for s in stderr.splitlines() if s.startswith("agrad: error:")]
    assert len(errors) == 1 and text in errors[0], stderr


# ------------------------------------------------------------------ the process

def test_stdout_closed():
    p = _sh(f"{AGRAD} eval -e 'x = torch.ones(2)' >&-")
    assert p.returncode == 1
    assert p.stderr.decode() == "agrad: error: standard output is closed: nothing could be shown\n"


def test_stdin_closed():
    p = _sh(f"{AGRAD} eval - <&-")
    assert p.returncode == 2
    assert p.stderr.decode() == "agrad: error: cannot read standard input: it is closed\n"


def test_stdin_closed_without_dash_is_fine():
    p = _sh(f"{AGRAD} eval -e 'x = 1' --format json <&-")
    assert p.returncode == 0 and json.loads(p.stdout)["ok"] is True


def test_head_0_exits_0():
    # (more output than a pipe holds: the write that finds head gone comes before the script's end, whatever the
    # timing; with one short line the end-of-run note could reach stderr first on a loaded machine)
    p = subprocess.run(["bash", "-c", f"{AGRAD} eval -e 'for i in range(100000):\n    print(i)' -e 'y = torch.ones(3)'"
                                      " | head -0;"
                                      " echo ${PIPESTATUS[0]}"],
                       capture_output=True, env=ENV, timeout=60)
    assert p.stdout.decode().strip() == "0"
    assert p.stderr.decode() == ""


def test_head_1_on_endless_output_ends_quietly():
    p = subprocess.run(["bash", "-c", f"{AGRAD} eval -e 'while True:\n    print(1)' | head -1;"
                                      " echo ${PIPESTATUS[0]}"],
                       capture_output=True, env=ENV, timeout=60)
    assert p.stdout.decode().split() == ["1", "0"]
    assert p.stderr.decode() == ""


# ------------------------------------------------------------------ options

@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0", "-inf"])
def test_bad_timeout(value):
    r = agrad("eval", "--timeout", value, "-e", "x = 1")
    assert r.code == 2
    _one_error_line(r.stderr, f"Invalid value for '--timeout': {float(value)!r} is not a positive "
                              "number of seconds")


def test_bad_timeout_json():
    r = agrad("eval", "--timeout", "nan", "-e", "x = 1", "--format", "json")
    assert r.code == 2
    assert r.json()["error"]["type"] == "UsageError"


def test_negative_seed_is_pytorchs():
    r = agrad("eval", "--seed", "-5", "--format", "json",
              "-e", "g = torch.manual_seed(-5).initial_seed()")
    assert r.code == 0, r.stderr
    assert r.json()["variables"]["g"]["value"] == 2**64 - 5


def test_seed_out_of_range():
    r = agrad("eval", "--seed", str(2**64), "-e", "x = 1")
    assert r.code == 2
    _one_error_line(r.stderr, f"--seed {2**64}: Overflow when unpacking long long")


# ------------------------------------------------------------------ text

def test_lone_surrogate_in_text_output():
    r = agrad("eval", "--format", "text", "-e", "print('a' + chr(0xD800) + 'b')")
    assert r.code == 0
    assert r.stdout == "a\\ud800b\n"


def test_lone_surrogate_in_json_is_kept():
    r = agrad("eval", "--format", "json", "-e", "print('a\\\\' + chr(0xD800))", "-e", "s = chr(0xDFFF)")
    assert r.code == 0
    obj = r.json()
    assert obj["stdout"] == "a\\" + chr(0xD800) + "\n"


def test_long_syntax_error_line_is_cut(tmp_path):
    src = tmp_path / "long.py"
    src.write_text("x = 1" + " + 1" * 75_000 + " )\n")
    r = agrad("eval", src)
    assert r.code == 2
    assert len(r.stderr) < 500
    lines = r.stderr.splitlines()
    assert "SyntaxError: unmatched ')'" in lines[0]
    assert lines[1].startswith("    …") and lines[2].strip() == "^"
    assert lines[2].index("^") == len(lines[1]) - 1  # the caret is under the ')'


@pytest.mark.parametrize("code, message", [
    ("a = [1]\nx = *a", "can't use starred expression here"),
    ("break", "'break' outside loop"),
])
def test_compile_time_syntax_errors_exit_2(code, message):
    r = agrad("eval", "-e", code)
    assert r.code == 2
    assert f"SyntaxError: {message}" in r.stderr
    r = agrad("eval", "-e", code, "--format", "json")
    assert r.code == 2 and r.json()["error"]["type"] == "SyntaxError"


# ------------------------------------------------------------------ SOURCE

def test_device_as_source():
    r = agrad("eval", "/dev/zero")
    assert r.code == 2
    _one_error_line(r.stderr, "cannot read '/dev/zero': it is a device, not a script")


def test_source_too_large(tmp_path):
    src = tmp_path / "big.py"
    src.write_bytes(b"#" * ((16 << 20) + 10))
    r = agrad("eval", src)
    assert r.code == 2
    _one_error_line(r.stderr, "more than 16 MiB, too large for a script")


def test_fifo_and_process_substitution_as_source():
    p = subprocess.run(["bash", "-c", f"{AGRAD} eval --format json <(echo 'x = torch.ones(1)')"],
                       capture_output=True, env=ENV, timeout=60)
    assert p.returncode == 0, p.stderr
    assert list(json.loads(p.stdout)["variables"]) == ["x"]


def test_dev_stdin_as_source():
    p = _sh(f"echo 'y = 2' | {AGRAD} eval --format json /dev/stdin")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["variables"]["y"]["value"] == 2


# ------------------------------------------------------------------ @file

def _npy_header(shape, descr="<f8") -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, {"descr": descr, "fortran_order": False,
                                               "shape": shape})
    return buf.getvalue()


def test_npz_bomb_is_refused_before_reading(tmp_path):
    bomb = tmp_path / "bomb.npz"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("a.npy", _npy_header((1_500_000_000,)) + b"\0" * (1 << 20))
    assert bomb.stat().st_size < 1 << 20
    r = agrad("eval", "--set", f"x=@{bomb}:a", "-e", "y = x")
    assert r.code == 2
    _one_error_line(r.stderr, "has 1,500,000,000 elements, over the limit of 100,000,000")
    r = agrad("eval", "--max-elements", "0", "--set", f"x=@{bomb}:a", "-e", "y = x")
    assert r.code == 2
    _one_error_line(r.stderr, "its header says 1,500,000,000 elements of float64 "
                              "(12,000,000,000 bytes) but only 1,048,576 bytes of data follow")


def test_npy_header_claiming_10_12_elements(tmp_path):
    f = tmp_path / "huge.npy"
    f.write_bytes(_npy_header((10**6, 10**6)) + b"\0" * 1000)
    r = agrad("eval", "--set", f"x=@{f}", "-e", "y = x")
    assert r.code == 2
    _one_error_line(r.stderr, "has 1,000,000,000,000 elements, over the limit")
    r = agrad("eval", "--max-elements", "0", "--set", f"x=@{f}", "-e", "y = x")
    assert r.code == 2
    _one_error_line(r.stderr, "but only 1,000 bytes of data follow")


def test_text_file_as_npy(tmp_path):
    f = tmp_path / "text.npy"
    f.write_text("x = 1\n")
    r = agrad("eval", "--set", f"x=@{f}", "-e", "y = x")
    assert r.code == 2
    _one_error_line(r.stderr, "is not a valid .npy file: it has no .npy header")
    assert "pickle" not in r.stderr


def test_object_npy_is_refused(tmp_path):
    f = tmp_path / "obj.npy"
    np.save(f, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    r = agrad("eval", "--set", f"x=@{f}", "-e", "y = x")
    assert r.code == 2
    _one_error_line(r.stderr, "holds Python objects (pickled data), not numbers")


def test_good_npy_and_npz_still_load(tmp_path):
    np.save(tmp_path / "a.npy", np.arange(6.0).reshape(2, 3))
    np.save(tmp_path / "f.npy", np.asfortranarray(np.arange(6.0).reshape(2, 3)))
    np.savez_compressed(tmp_path / "z.npz", w=np.ones((2, 2)))
    r = agrad("eval", "--format", "json", "--set", f"a=@{tmp_path / 'a.npy'}",
              "--set", f"f=@{tmp_path / 'f.npy'}", "--set", f"w=@{tmp_path / 'z.npz'}", "-e", "s = 1")
    assert r.code == 0, r.stderr
    v = r.json()["variables"]
    assert v["a"]["value"] == [[0, 1, 2], [3, 4, 5]] == v["f"]["value"]
    assert v["w"]["value"] == [[1, 1], [1, 1]]


def test_device_and_fifo_as_at_file(tmp_path):
    dev = tmp_path / "zero.npy"
    dev.symlink_to("/dev/zero")
    r = agrad("eval", "--set", f"x=@{dev}", "-e", "y = x")
    assert r.code == 2
    _one_error_line(r.stderr, "it is a device, not a data file")
    fifo = tmp_path / "pipe.npy"
    os.mkfifo(fifo)
    r = agrad("eval", "--set", f"x=@{fifo}", "-e", "y = x")  # returns at once: no open() of it
    assert r.code == 2
    _one_error_line(r.stderr, "it is a FIFO, not a data file")


@pytest.mark.parametrize("script, message", [
    ("x = torch.ones(2, 3)\nx.lerp_(1.0, 0.5)\n",
     "TypeError: lerp_() received an invalid combination of arguments - got (float, float), but expected one of:\n"
     " * (Tensor end, Tensor weight)\n"
     "      didn't match because some of the arguments have invalid types: (!float!, !float!)\n"
     " * (Tensor end, Number weight)\n"
     "      didn't match because some of the arguments have invalid types: (!float!, !float!)\n"),
    ("m = torch.eye(2)\nm.addmm_(m, 2)\n", "TypeError: addmm_(): argument 'mat2' (position 2) must be Tensor, not int"),
    ("y = torch.ones(2).softmax()\n", 'TypeError: softmax() missing 1 required positional arguments: "dim"'),
    ("y = torch.ones(2, 2).tril_(1.5)\n", "TypeError: tril_(): argument 'diagonal' (position 1) must be int, not float"),
])
def test_pytorch_parser_errors_from_the_cli(script, message):
    r = agrad("eval", "-e", script)
    assert r.code == 1 and "Traceback" not in r.stdout + r.stderr
    assert message in r.stderr, r.stderr
