"""agrad check: float64 replay, central differences, exit 3 and the custom Function named."""

from __future__ import annotations

from .conftest import agrad

GOOD_FUNCTION = """
import torch
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3 * x ** 2

x = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
loss = Cube.apply(x).sin().sum()
"""

BAD_FUNCTION = GOOD_FUNCTION.replace("g * 3 * x ** 2", "g * 2 * x ** 2")


def test_seed_passes(in_repo):
    r = agrad("check", "examples/backward_experiment.py", "--format", "text", "--columns", "120")
    assert r.code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("gradient check of loss in float64")
    assert [ln.split()[0] for ln in lines[2:5]] == ["w1", "w2", "w3"]
    assert all(ln.split()[-1] == "ok" for ln in lines[2:5])
    assert lines[-1] == "ok: 3 leaves pass"
    # at 80 columns the table is too wide: one block per leaf, every line within the width
    r = agrad("check", "examples/backward_experiment.py", "--format", "text")
    lines = r.stdout.splitlines()
    assert all(len(ln) <= 80 for ln in lines)
    assert [ln for ln in lines if ln.startswith("w")] == ["w1  []  ok", "w2  []  ok", "w3  []  ok"]
    assert "    checked=1  max_abs_error=" in r.stdout


def test_non_scalar_target_explains_its_projection():
    r = agrad("check", "-e", "x = tensor([1., 2., 3.], requires_grad=True)", "-e", "y = x ** 2",
              "--format", "text", "--columns", "200")
    assert r.code == 0
    assert r.stdout.splitlines()[1] == (
        "y has shape [3]: checked the gradients of (y * v).sum() for a fixed random v "
        "(standard normal, seed 0), one vector-Jacobian product")


def test_seed_json(in_repo):
    r = agrad("check", "examples/backward_experiment.py", "--format", "json")
    obj = r.json()
    assert obj["ok"] is True and obj["error"] is None and obj["target"] == "loss"
    assert [leaf["name"] for leaf in obj["leaves"]] == ["w1", "w2", "w3"]
    for leaf in obj["leaves"]:
        assert set(leaf) >= {"name", "shape", "max_abs_error", "max_rel_error", "worst_index",
                             "checked", "passed"}
        assert leaf["passed"] is True and leaf["checked"] == 1 and leaf["shape"] == []
        assert leaf["max_abs_error"] < 1e-6


def test_correct_custom_function_passes():
    r = agrad("check", "-", "--format", "json", input=GOOD_FUNCTION)
    obj = r.json()
    assert r.code == 0, obj
    assert obj["leaves"][0]["name"] == "x" and obj["leaves"][0]["passed"]


def test_wrong_custom_function_exit_3_and_named():
    r = agrad("check", "-", "--format", "text", input=BAD_FUNCTION)
    assert r.code == 3
    assert "MISMATCH" in r.stdout
    assert "custom Function CubeBackward (<stdin>:14)" in r.stdout
    r = agrad("check", "-", "--format", "json", input=BAD_FUNCTION)
    assert r.code == 3
    obj = r.json()
    assert obj["ok"] is False
    leaf = obj["leaves"][0]
    assert leaf["passed"] is False and leaf["node"] == "CubeBackward"
    assert leaf["max_rel_error"] > 0.1
    assert obj["error"]["type"] == "GradcheckError" and "CubeBackward" in obj["error"]["message"]


def test_example_bad_function(in_repo):
    r = agrad("check", "examples/bad_function.py", "--format", "text")
    assert r.code == 3
    assert "MyExpBackward" in r.stdout


def test_seed_custom_function(in_repo):
    r = agrad("check", "examples/custom_function.py", "--format", "json")
    assert r.code == 0
    assert [leaf["name"] for leaf in r.json()["leaves"]] == ["input_data", "w"]


def test_sampling_large_leaves():
    code = "w = randn(20, 30, requires_grad=True)\nloss = (tanh(w) ** 2).mean()\n"
    r = agrad("check", "-", "--seed", "1", "--samples", "10", "--format", "json", input=code)
    leaf = r.json()["leaves"][0]
    assert leaf["checked"] == 10 and leaf["passed"] and len(leaf["worst_index"]) == 2
    r = agrad("check", "-", "--seed", "1", "--samples", "0", "--format", "json", input=code)
    assert r.json()["leaves"][0]["checked"] == 600


def test_tolerances_are_used():
    code = "x = tensor([1.0, 2.0], requires_grad=True)\nloss = (x ** 3).sum()\n"
    r = agrad("check", "-", "--eps", "0.1", "--rtol", "0", "--atol", "1e-12", "--format", "json",
              input=code)
    assert r.code == 3  # a coarse step: central differences are off by eps^2
    r = agrad("check", "-", "--eps", "0.1", "--rtol", "0.01", "--format", "json", input=code)
    assert r.code == 0


def test_non_scalar_target():
    code = "x = tensor([1.0, 2.0], requires_grad=True)\ny = x * x\n"
    r = agrad("check", "-", "--format", "json", input=code)
    assert r.code == 0 and r.json()["leaves"][0]["passed"]


def test_nothing_to_check_is_usage_error():
    r = agrad("check", "-e", "y = ones(2)", "--format", "text")
    assert r.code == 2
    assert "does not require grad" in r.stderr


def test_rich_check(monkeypatch):
    monkeypatch.setenv("COLUMNS", "160")
    r = agrad("check", "-", "--format", "rich", input=BAD_FUNCTION)
    assert r.code == 3 and "CubeBackward" in r.stdout and "\x1b[" not in r.stdout


def test_replays_numbers_in_place_of_tensors_and_in_place_writes(in_repo):
    r = agrad("check", "examples/tanh_chain.py", "--set", "n=5", "--format", "json")
    assert r.code == 0 and [leaf["name"] for leaf in r.json()["leaves"]] == ["x", "w"]
    r = agrad("check", "examples/inplace_version.py", "--format", "json")
    assert r.code == 0 and r.json()["leaves"][0]["name"] == "a"
    r = agrad("check", "examples/sin_graph.py", "--format", "text")
    assert r.code == 0 and r.stdout.splitlines()[-1] == "ok: 1 leaf passes"


def test_check_replays_inplace_changes_through_views():
    code = ("x = tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
            "y = x.exp()\n"
            "y[1:].mul_(x[:2].sin())\n"
            "z = y * 1\n"
            "z[0].add_(x[2])\n"
            "loss = (z * y).sum()\n")
    r = agrad("check", "-", "--format", "json", input=code)
    assert r.code == 0, r.stderr
    import json
    out = json.loads(r.stdout)
    assert out["ok"] is True and out["leaves"][0]["passed"] is True
