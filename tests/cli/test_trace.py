"""``agrad trace`` (issue 14): the backward pass step by step, in the engine's order."""

from __future__ import annotations

import json
import sys

import pytest

from .conftest import REPO, SEED, agrad

sys.path.insert(0, str(REPO / "tools"))
import gen_trace_golden  # noqa: E402

ORDERS = json.loads((REPO / "tests" / "golden" / "trace_order.json").read_text())["orders"]


def _trace(*args, input=None, code=0):
    r = agrad("trace", *args, "--format", "json", "--expand", input=input)
    assert r.code == code, (r.stdout, r.stderr)
    return r.json()


@pytest.mark.parametrize("script", sorted(ORDERS))
def test_order_equals_pytorchs_golden(script):
    r = agrad("trace", REPO / "tests" / "golden" / "seeds" / script, "--format", "json", "--expand")
    obj = r.json()
    assert [s["node"] for s in obj["steps"]] == ORDERS[script]
    assert obj["total_steps"] == len(ORDERS[script])


@pytest.mark.torch
@pytest.mark.parametrize("script", sorted(ORDERS)[:6])
def test_order_equals_pytorchs_live(script):
    pytest.importorskip("torch")
    path = REPO / "tests" / "golden" / "seeds" / script
    order = gen_trace_golden.torch_order(path)
    obj = agrad("trace", path, "--format", "json", "--expand").json()
    assert [s["node"] for s in obj["steps"]] == order


def test_gradients_equal_the_final_grads(in_repo):
    trace = _trace("examples/backward_experiment.py")
    ev = agrad("eval", "examples/backward_experiment.py", "--format", "json").json()
    acc = {s["id"]: s for s in trace["steps"] if s["node"] == "AccumulateGrad"}
    assert len(acc) == 3
    graph = agrad("graph", "examples/backward_experiment.py", "--format", "json").json()
    leaf_of = {n["id"]: n["leaf"] for n in graph["nodes"] if n["leaf"]}
    for gid, step in acc.items():
        grad = ev["variables"][leaf_of[gid]]["grad"]
        assert step["accumulated"]["values"] == [grad]
        assert step["grads_in"][0]["grad"]["values"] == [grad]  # one pass, .grad was None before
    # each edge's gradient is what arrives at the next node (one contributor each here)
    by_id = {s["id"]: s for s in trace["steps"]}
    first = trace["steps"][0]
    (edge,) = first["grads_out"]
    assert edge["to"] == 1 and by_id[1]["grads_in"][0]["grad"] == edge["grad"]


def test_ids_are_the_graph_views(in_repo):
    trace = _trace("examples/backward_experiment.py")
    graph = agrad("graph", "examples/backward_experiment.py", "--format", "json").json()
    names = {n["id"]: n["name"] for n in graph["nodes"]}
    for s in trace["steps"]:
        assert names[s["id"]] == s["node"]
        for e in s["grads_out"] or ():
            assert names[e["to"]] == e["to_node"]


HOOKS = """\
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
def double(g):
    return g * 2
def look(g):
    print("seen")
y.register_hook(double)
y.register_hook(look)
z = y.sin()
z.retain_grad()
def post(gi, go):
    return None
z.grad_fn.register_hook(post)
loss = z.sum()
loss.backward()
"""


def test_hooks_fired_and_what_they_returned():
    obj = _trace("-", input=HOOKS)
    steps = {s["node"]: s for s in obj["steps"]}
    mul = steps["MulBackward0"]
    assert [(h["kind"], h["hook"], h["output"]) for h in mul["hooks"]] == [
        ("tensor", "double", 0), ("tensor", "look", 0)]
    doubled, kept = mul["hooks"][0]["returned"], mul["hooks"][1]["returned"]
    assert kept is None and doubled["shape"] == [2]
    # what arrives is after the hooks: the doubled gradient
    assert mul["grads_in"][0]["grad"]["values"] == doubled["values"]
    sin = steps["SinBackward0"]
    assert [(h["kind"], h["hook"], h["returned"]) for h in sin["hooks"]] == [("post", "post", None)]
    assert sin["retained"] and sin["retained"][0]["grad"]["values"] == [1.0, 1.0]
    assert [s["saved"] for s in obj["steps"] if s["node"] == "SinBackward0"][0][0]["name"] == "self"
    x_grad = agrad("eval", "-", "--format", "json", input=HOOKS).json()["variables"]["x"]["grad"]
    assert steps["AccumulateGrad"]["accumulated"]["values"] == x_grad


def test_saved_tensors_with_versions():
    code = ("a = torch.tensor([1.0, 2.0], requires_grad=True)\n"
            "b = a * 1\n"
            "c = b.exp()\n"
            "b.add_(1)\n"
            "c.sum().backward()\n")
    obj = _trace("-", input=code)  # exp saves its result, not b
    assert obj["steps"][0]["id"] == 0  # ids from the node where the pass started
    exp = [s for s in obj["steps"] if s["node"] == "ExpBackward0"][0]
    (saved,) = exp["saved"]
    assert (saved["name"], saved["version"], saved["version_now"]) == ("result", 0, 0)
    code2 = code.replace("c = b.exp()", "c = b.sin()")
    obj = _trace("-", input=code2, code=1)
    sin = [s for s in obj["steps"] if s["node"] == "SinBackward0"][0]
    assert (sin["saved"][0]["version"], sin["saved"][0]["version_now"]) == (0, 1)
    assert sin["grads_out"] is None and sin["ran"] is False


def test_limit_node_and_collapse(in_repo):
    args = ("examples/tanh_chain.py", "--set", "n=50")
    full = _trace(*args)
    assert full["total_steps"] == 203 and len(full["steps"]) == 203 and full["runs"] == []
    short = agrad("trace", *args, "--format", "json").json()  # collapsed like the text
    (run,) = short["runs"]
    assert run["count"] >= 3 and run["size"] == run["count"] * len(run["names"])
    assert len(short["steps"]) + run["size"] == 203
    assert run["first_step"] == 2 and run["last_step"] == run["first_step"] + run["size"] - 1
    assert [s["step"] for s in short["steps"]][:2] == [1, run["last_step"] + 1]
    lim = _trace(*args, "--limit", 5)  # --expand
    assert [s["step"] for s in lim["steps"]] == [1, 2, 3, 4, 5]
    one = _trace(*args, "--node", 3)
    assert [s["id"] for s in one["steps"]] == [3]
    text = agrad("trace", *args, "--format", "text", "-q").stdout
    assert "×" in text and len(text.splitlines()) < 40
    expanded = agrad("trace", *args, "--format", "text", "-q", "--expand").stdout
    assert "×" not in expanded and len(expanded.splitlines()) > 600
    limited = agrad("trace", *args, "--format", "text", "-q", "--limit", 2).stdout
    assert limited.splitlines()[-1] == "… 201 more steps (--limit)"


def test_bad_input_is_a_clear_error(in_repo):
    r = agrad("trace", "examples/tanh_chain.py", "--set", "n=3", "--node", 9999)
    assert r.code == 2 and "--node 9999: the graph has nodes #0–#" in r.stderr
    r = agrad("trace", "-e", "y = torch.ones(2)", "--format", "json")
    assert r.code == 2 and "nothing to trace" in r.json()["error"]["message"]
    r = agrad("trace", "-e", "y = ", "--format", "json")
    assert r.code == 2 and r.json()["error"]["type"] == "SyntaxError"
    r = agrad("trace", "--limit", "-1", "-e", "y = 1")
    assert r.code == 2 and "Traceback" not in r.stderr


@pytest.mark.parametrize("width", (40, 60, 80, 120))
@pytest.mark.parametrize("fmt", ("text", "rich"))
def test_output_fits_the_width(in_repo, width, fmt):
    r = agrad("trace", SEED, "--format", fmt, "--columns", width, "-q", "--no-color")
    assert r.code == 0
    for line in r.stdout.splitlines():
        assert len(line) <= width, line
    assert "AccumulateGrad" in r.stdout


def test_last_pass_of_a_loop_and_autograd_grad():
    code = ("w = torch.tensor(1.0, requires_grad=True)\n"
            "for i in range(3):\n"
            "    loss = (w * w).sum()\n"
            "    loss.backward()\n"
            "g, = torch.autograd.grad((w * 2).sum(), w)\n")
    obj = _trace("-", input=code)
    assert obj["passes"] == 4
    names = [s["node"] for s in obj["steps"]]
    # autograd.grad runs what it needs and captures the leaf's gradient: no AccumulateGrad step
    assert names == ["SumBackward0", "MulBackward0"]
    assert obj["steps"][-1]["grads_out"][0]["grad"]["values"] == [2.0]
