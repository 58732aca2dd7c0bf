"""agrad jacobian and agrad hessian: the matrix, its labels, the three formats, the errors and exit codes."""

from __future__ import annotations

import numpy as np
import pytest

from .conftest import agrad

LINEAR = ["-e", "y = tanh(W @ x + b)", "--set", "W=tensor([[1.,2.,3.,4.],[0.5,0.25,-1.,2.]])",
          "--param", "x=[0.1,0.2,0.3,0.4]", "--param", "b=[1.0,-1.0]"]
CUBIC = ["-e", "loss = (w ** 3).sum() + w[0] * w[1] * s", "--param", "w=[1.0,2.0]", "--param", "s=0.5"]


def test_jacobian_text():
    r = agrad("jacobian", "-e", "y = sin(x) * x", "--param", "x=[0.5,1.0,2.0]", "--format", "text")
    assert r.code == 0, r.stderr
    assert r.stdout == (
        "Jacobian of y [3] float32 with respect to x [3]: 3 x 3\n"
        "\n"
        "        x[0]    x[1]    x[2]\n"
        "y[0]  0.9182  0.0000  0.0000\n"
        "y[1]  0.0000  1.3818  0.0000\n"
        "y[2]  0.0000  0.0000  0.0770\n")
    assert r.stderr == "agrad: target y: the last tensor assigned (--of NAME picks another)\n"


def test_jacobian_wide_matrix_is_cut_into_column_blocks():
    r = agrad("jacobian", *LINEAR, "--format", "text", "--columns", "50")
    assert r.code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert all(len(ln) <= 50 for ln in lines)
    assert lines[:2] == ["Jacobian of y [2] float32 with respect to x [4], b", "    [2]: 2 x 6"]
    assert lines[3].split() == ["x[0]", "x[1]", "x[2]"]
    assert lines[7].split() == ["x[3]", "b[0]", "b[1]"]
    assert [ln.split()[0] for ln in lines if ln.startswith("y")] == ["y[0]", "y[1]", "y[0]", "y[1]"]


def test_jacobian_json_matches_torch_jacobian():
    r = agrad("jacobian", *LINEAR, "--format", "json")
    assert r.code == 0
    obj = r.json()
    assert obj["ok"] and obj["error"] is None and obj["kind"] == "jacobian"
    assert obj["target"] == {"name": "y", "shape": [2], "dtype": "float32"}
    assert obj["leaves"] == [{"name": "x", "shape": [4]}, {"name": "b", "shape": [2]}]
    assert obj["rows"] == ["y[0]", "y[1]"]
    assert obj["columns"] == ["x[0]", "x[1]", "x[2]", "x[3]", "b[0]", "b[1]"]
    W = np.array([[1., 2., 3., 4.], [0.5, 0.25, -1., 2.]])
    x, b = np.array([0.1, 0.2, 0.3, 0.4]), np.array([1.0, -1.0])
    d = 1 - np.tanh(W @ x + b) ** 2
    want = np.concatenate([d[:, None] * W, np.diag(d)], axis=1)
    np.testing.assert_allclose(np.array(obj["matrix"]), want, rtol=1e-3)  # float32: 1 - tanh² cancels
    blocks = {(bl["of"], bl["wrt"]): bl for bl in obj["blocks"]}
    assert blocks[("y", "x")]["shape"] == [2, 4] and blocks[("y", "b")]["shape"] == [2, 2]


def test_hessian_text_and_json():
    r = agrad("hessian", *CUBIC, "--format", "text")
    assert r.code == 0, r.stderr
    assert r.stdout == (
        "Hessian of loss [] float32 with respect to w [2], s []: 3 x 3\n"
        "\n"
        "         w[0]     w[1]        s\n"
        "w[0]   6.0000   0.5000   2.0000\n"
        "w[1]   0.5000  12.0000   1.0000\n"
        "s      2.0000   1.0000   0.0000\n")
    obj = agrad("hessian", *CUBIC, "--format", "json").json()
    assert obj["matrix"] == [[6.0, 0.5, 2.0], [0.5, 12.0, 1.0], [2.0, 1.0, 0.0]]
    assert obj["rows"] == obj["columns"] == ["w[0]", "w[1]", "s"]


def test_rich_has_labels():
    r = agrad("hessian", *CUBIC, "--format", "rich", "--no-color")
    assert r.code == 0
    assert "w[0]" in r.stdout and "12.0000" in r.stdout and "\x1b[" not in r.stdout


def test_matrix_equals_autograd_functional():
    import agrad as torch
    x = torch.tensor([0.3, -0.7, 1.1])
    H = torch.autograd.functional.hessian(lambda t: (t.sin() * t.exp()).sum(), x)
    obj = agrad("hessian", "-e", "loss = (sin(x) * exp(x)).sum()", "--param", "x=[0.3,-0.7,1.1]",
                "--format", "json").json()
    np.testing.assert_allclose(np.array(obj["matrix"]), H.numpy(), rtol=1e-5)


@pytest.mark.parametrize("cmd,args,message", [
    ("hessian", ["-e", "y = w * 2", "--param", "w=[1.0,2.0]"],
     "y has shape [2]: the Hessian needs a scalar target; reduce it (y.sum()) or pass --of NAME, or ask for its "
     "Jacobian (agrad jacobian)"),
    ("jacobian", ["-e", "y = ones(2) * 2"], "y does not require grad: it has no graph"),
    ("jacobian", ["-e", "w = ones(2, requires_grad=True)"], "w is a leaf: there is no graph to differentiate"),
    ("jacobian", ["-e", "n = 3"], "the script bound no tensor: nothing to differentiate"),
])
def test_usage_errors_exit_2(cmd, args, message):
    r = agrad(cmd, *args, "--format", "text")
    assert r.code == 2
    assert r.stderr.splitlines()[-1] == f"agrad: error: {message}"
    obj = agrad(cmd, *args, "--format", "json").json()
    assert obj["ok"] is False and obj["error"]["type"] == "UsageError" and obj["error"]["message"] == message


def test_script_error_exit_1_and_freed_graph():
    r = agrad("jacobian", "-e", "y = undefined_name", "--format", "json")
    assert r.code == 1 and r.json()["error"]["type"] == "NameError"
    r = agrad("jacobian", "-e", "y = sin(w)", "-e", "y.sum().backward()", "--param", "w=[1.0]", "--format", "text")
    assert r.code == 1
    assert "Trying to backward through the graph a second time" in r.stderr


def test_of_and_unused_leaves():
    r = agrad("jacobian", "-e", "y = a * 2", "-e", "z = (a * b).sum()", "--param", "a=[1.0,2.0]",
              "--param", "b=[3.0,4.0]", "--of", "y", "--format", "json")
    obj = r.json()
    assert [lf["name"] for lf in obj["leaves"]] == ["a"]
    assert obj["matrix"] == [[2.0, 0.0], [0.0, 2.0]]
    r = agrad("hessian", "-e", "loss = (a * b).sum()", "--param", "a=[1.0,2.0]", "--param", "b=[3.0,4.0]",
              "--format", "json")
    assert r.json()["matrix"] == [[0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0],
                                  [0.0, 1.0, 0.0, 0.0]]
