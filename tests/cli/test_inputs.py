"""--set / --param values: expressions and @files, and every way they go wrong (exit 2)."""

from __future__ import annotations

import numpy as np
import pytest

from .conftest import agrad


def var(run, name):
    obj = run.json()
    assert obj["ok"], obj["error"]
    return obj["variables"][name]


# -- values that work ------------------------------------------------------------------

def test_set_expression_kinds():
    r = agrad("eval", "--format", "json", "--set", "n=2", "--set", "f=0.5", "--set", "x=ones(2,2)",
              "--set", "s='hi'", "-e", "y = x * n")
    obj = r.json()
    assert obj["variables"]["n"] == {"kind": "int", "value": 2}
    assert obj["variables"]["f"] == {"kind": "float", "value": 0.5}
    assert obj["variables"]["s"] == {"kind": "str", "value": "hi"}
    assert obj["variables"]["x"]["value"] == [[1.0, 1.0], [1.0, 1.0]]
    assert obj["variables"]["x"]["requires_grad"] is False
    assert obj["variables"]["y"]["value"] == [[2.0, 2.0], [2.0, 2.0]]


def test_set_sees_earlier_set():
    r = agrad("eval", "--format", "json", "--set", "n=3", "--set", "x=ones(n)", "-e", "y = x")
    assert var(r, "x")["shape"] == [3]


def test_param_is_leaf_requiring_grad_of_default_dtype():
    r = agrad("eval", "--format", "json", "--param", "w=[1, 2]", "-e", "loss = (w * w).sum()")
    w = var(r, "w")
    assert w["dtype"] == "float32" and w["requires_grad"] and w["is_leaf"]
    assert w["grad"] == [2.0, 4.0]
    r = agrad("eval", "--format", "json", "--dtype", "float64", "--param", "w=2", "-e", "y = w * 1")
    assert var(r, "w")["dtype"] == "float64"


def test_npy(tmp_path):
    p = tmp_path / "x.npy"
    np.save(p, np.arange(6, dtype=np.int64).reshape(2, 3))
    r = agrad("eval", "--format", "json", "--set", f"x=@{p}", "-e", "y = x.sum()")
    x = var(r, "x")
    assert x["dtype"] == "float32"  # file data: the default float dtype
    assert x["value"] == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]


def test_npy_param(tmp_path):
    p = tmp_path / "w.npy"
    np.save(p, np.array([1.0, -2.0]))
    r = agrad("eval", "--format", "json", "--param", f"w=@{p}", "-e", "loss = (w ** 2).sum()")
    assert var(r, "w")["grad"] == [2.0, -4.0]


def test_npz_key(tmp_path):
    p = tmp_path / "d.npz"
    np.savez(p, a=np.ones(2), b=np.zeros(3))
    r = agrad("eval", "--format", "json", "--set", f"b=@{p}:b", "-e", "c = b + 1")
    assert var(r, "b")["value"] == [0.0, 0.0, 0.0]


def test_npz_single_array_needs_no_key(tmp_path):
    p = tmp_path / "one.npz"
    np.savez(p, only=np.array([5.0]))
    r = agrad("eval", "--format", "json", "--set", f"v=@{p}", "-e", "w = v")
    assert var(r, "v")["value"] == [5.0]


def test_csv(tmp_path):
    p = tmp_path / "m.csv"
    p.write_text("# a comment\n1, 2, 3\n4, 5, 6\n")
    r = agrad("eval", "--format", "json", "--set", f"m=@{p}", "-e", "s = m.sum()")
    assert var(r, "m")["value"] == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    q = tmp_path / "row.csv"
    q.write_text("1.5,2.5\n")
    r = agrad("eval", "--format", "json", "--set", f"r=@{q}", "-e", "s = r.sum()")
    assert var(r, "r")["value"] == [1.5, 2.5]


def test_example_npy_driven(in_repo):
    r = agrad("eval", "examples/linear_npy.py", "--set", "X=@examples/data/X.npy",
              "--set", "y=@examples/data/y.npy", "--format", "json")
    obj = r.json()
    assert obj["ok"] and obj["backward"] == {"auto": True, "of": "loss"}
    assert obj["variables"]["X"]["shape"] == [8, 3]
    assert len(obj["variables"]["w"]["grad"]) == 3


# -- every failure is a usage error (exit 2) with a clear message ----------------------

def _usage(r, *needles):
    assert r.code == 2, (r.stdout, r.stderr)
    assert r.stdout == ""
    assert "Traceback" not in r.stderr
    for n in needles:
        assert n in r.stderr, r.stderr
    return r


def test_missing_file(tmp_path):
    _usage(agrad("eval", "--set", f"x=@{tmp_path}/nope.npy", "-e", "y = x"), "no such file", "nope.npy")


def test_unreadable_file(tmp_path):
    d = tmp_path / "dir.npy"
    d.mkdir()
    _usage(agrad("eval", "--set", f"x=@{d}", "-e", "y = x"), "cannot read", "directory")
    bad = tmp_path / "bad.npy"
    bad.write_bytes(b"this is not numpy data")
    _usage(agrad("eval", "--set", f"x=@{bad}", "-e", "y = x"), "not a valid .npy file")
    bin_csv = tmp_path / "bin.csv"
    bin_csv.write_bytes(b"\xff\xfe\x00\x81")
    _usage(agrad("eval", "--set", f"x=@{bin_csv}", "-e", "y = x"), "bin.csv")


def test_bad_npz_key(tmp_path):
    p = tmp_path / "d.npz"
    np.savez(p, a=np.ones(2), b=np.zeros(3))
    _usage(agrad("eval", "--set", f"x=@{p}:zz", "-e", "y = x"), "no array 'zz'", "a, b")
    _usage(agrad("eval", "--set", f"x=@{p}", "-e", "y = x"), "2 arrays", ":KEY")


def test_malformed_values(tmp_path):
    _usage(agrad("eval", "--set", "x=1 +", "-e", "y = x"), "--set x=1 +", "SyntaxError")
    _usage(agrad("eval", "--set", "x=undefined_name", "-e", "y = x"), "NameError")
    _usage(agrad("eval", "--set", "novalue", "-e", "y = 1"), "NAME=VALUE")
    _usage(agrad("eval", "--set", "1x=2", "-e", "y = 1"), "not a valid variable name")
    _usage(agrad("eval", "--param", "w='text'", "-e", "y = 1"), "--param w='text'")
    p = tmp_path / "m.csv"
    p.write_text("1,2\n3,oops\n")
    _usage(agrad("eval", "--set", f"m=@{p}", "-e", "y = m"), "'oops' is not a number")
    q = tmp_path / "ragged.csv"
    q.write_text("1,2\n3\n")
    _usage(agrad("eval", "--set", f"m=@{q}", "-e", "y = m"), "different numbers of columns")
    _usage(agrad("eval", "--set", "m=@data.txt", "-e", "y = m"), "unsupported file type")


@pytest.mark.parametrize("fmt", ["json"])
def test_input_errors_in_json(tmp_path, fmt):
    r = agrad("eval", "--format", fmt, "--set", f"x=@{tmp_path}/missing.csv", "-e", "y = x")
    assert r.code == 2
    obj = r.json()
    assert obj["ok"] is False
    assert obj["error"]["type"] == "UsageError"
    assert "missing.csv" in obj["error"]["message"]


def test_unreadable_source(tmp_path):
    _usage(agrad("eval", tmp_path / "nope.py"), "nope.py", "no such file")
    _usage(agrad("eval", tmp_path), "directory")
    bad = tmp_path / "latin.py"
    bad.write_bytes(b"x = '\xe9'\n")
    _usage(agrad("eval", bad), "not UTF-8")


def test_no_script_is_usage_error():
    _usage(agrad("eval"), "no script given")
