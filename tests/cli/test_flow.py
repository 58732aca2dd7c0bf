"""``agrad graph --flow`` (issue 14): the norm of the gradient that reached each node,
vanishing (< 1e-7 of the root's) and exploding (> 1e4) flow flagged."""

from __future__ import annotations

import math

import pytest

from .conftest import agrad


def _flow(*args, input=None):
    r = agrad("graph", *args, "--flow", "--format", "json", input=input)
    assert r.code == 0, (r.stdout, r.stderr)
    return r.json()


def test_norms_are_the_gradients_that_arrived(in_repo):
    obj = _flow("examples/backward_experiment.py")
    flow = obj["flow"]
    assert flow["root_norm"] == 1.0
    norms = {n["id"]: n["norm"] for n in flow["nodes"]}
    leaf = {n["var"]: n["id"] for n in obj["nodes"] if n["leaf"]}
    ev = agrad("eval", "examples/backward_experiment.py", "--format", "json").json()["variables"]
    for name in ("w1", "w2", "w3"):  # scalar leaves: the norm is |grad|
        assert norms[leaf[name]] == pytest.approx(abs(ev[name]["grad"]))
    assert norms[1] == pytest.approx(math.sqrt(4 * 0.25 ** 2))
    assert flow["vanishing"] == flow["exploding"] == []


def test_vanishing_chain_is_flagged(in_repo):
    obj = _flow("examples/tanh_chain.py", "--set", "n=80", "--expand")
    flow = obj["flow"]
    by_id = {n["id"]: n for n in flow["nodes"]}
    assert flow["vanishing"] and all(by_id[i]["relative"] < 1e-7 for i in flow["vanishing"])
    ok = [n for n in flow["nodes"] if n["flag"] is None and n["norm"] is not None]
    assert all(n["relative"] >= 1e-7 for n in ok)
    assert by_id[0]["flag"] is None and by_id[0]["relative"] == 1.0


def test_exploding_and_nonfinite():
    code = ("x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
            "y = (x * 1e5).sum()\n")
    flow = _flow("-", input=code)["flow"]
    names = {n["id"]: n["name"] for n in flow["nodes"]}
    assert [names[i] for i in flow["exploding"]] == ["AccumulateGrad"]
    code = ("x = torch.tensor([0.0, 1.0], requires_grad=True)\n"
            "y = torch.sqrt(x).sum()\n")
    flow = _flow("-", input=code)["flow"]
    assert [n["name"] for n in flow["nodes"] if n["flag"] == "nonfinite"] == ["AccumulateGrad"]


def test_dead_relu_is_vanishing():
    code = ("x = torch.tensor([-1.0, -2.0], requires_grad=True)\n"
            "w = torch.tensor(3.0, requires_grad=True)\n"
            "y = torch.relu(x * w).sum()\n")
    flow = _flow("-", input=code)["flow"]
    flagged = {n["name"] for n in flow["nodes"] if n["flag"] == "vanishing"}
    assert flagged == {"MulBackward0", "AccumulateGrad"}


def test_text_follows_the_tree_and_fits(in_repo):
    r = agrad("graph", "examples/tanh_chain.py", "--set", "n=250", "--flow", "--format", "text", "-q")
    section = r.stdout.split("gradient flow: the norm of the gradient that reached each node\n")[1]
    lines = section.splitlines()
    assert lines[0] == "(root 1; vanishing < 1e-7 × root, exploding > 1e4)"
    assert any(ln.startswith("  ×249 #5–#1000  norm ") and "VANISHING from #" in ln for ln in lines)
    assert lines[-1].endswith("vanishing")
    for width in (40, 60):
        r = agrad("graph", "examples/tanh_chain.py", "--set", "n=250", "--flow", "--format", "text",
                  "-q", "--columns", width)
        assert all(len(ln) <= width for ln in r.stdout.splitlines())
    rich = agrad("graph", "examples/backward_experiment.py", "--flow", "--format", "rich", "-q",
                 "--no-color")
    assert "#5 AccumulateGrad  norm 28  ×28 of the root" in rich.stdout


def test_flow_without_a_graph_is_clear():
    r = agrad("graph", "-e", "y = torch.ones(2)", "--flow", "--format", "json")
    assert r.code == 0 and r.json()["flow"]["nodes"] == [] and r.json()["flow"]["root_norm"] is None
