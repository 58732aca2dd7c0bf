"""agrad graph: the tree, references, chains, collapsed runs, --saved, --grads, exporters."""

from __future__ import annotations

import re
import time

from .conftest import agrad, golden

SEED = "examples/backward_experiment.py"


def test_seed_tree_golden(in_repo):
    r = agrad("graph", SEED, "--format", "text", "--columns", "120")
    assert r.code == 0
    golden("graph_backward_experiment.txt", r.stdout)
    lines = r.stdout.splitlines()
    assert lines[0] == "#0 MeanBackward0  [] float32  loss = l4.mean()  examples/backward_experiment.py:16:8"
    assert "l2 = l1 + w2  examples/backward_experiment.py:13" in r.stdout
    # l1's node is shared by l2 and l3: drawn once, then referenced
    assert len(re.findall(r"^\W*#\d+ MulBackward0 .*l1 = input_data \* w1", r.stdout, re.M)) == 1
    assert re.search(r"↑ #(\d+) MulBackward0", r.stdout)
    leaves = re.findall(r"AccumulateGrad  \[\] float32  (w\d)", r.stdout)
    assert sorted(leaves) == ["w1", "w2", "w3"]


def test_seed_saved_and_grads_golden(in_repo):
    r = agrad("graph", SEED, "--saved", "--grads", "--format", "text")
    assert r.code == 0
    golden("graph_backward_experiment_saved_grads.txt", r.stdout)
    # the script's own backward pass freed the saved tensors; its gradients were recorded
    assert "saved self  [2, 2] float32  version 0  freed" in r.stdout
    assert "grad []  norm=28  min=28  max=28" in r.stdout
    assert "own backward" not in r.stdout


def test_grads_runs_a_backward_when_none_ran():
    code = "w = tensor(3.0, requires_grad=True)\nloss = w * w\n"
    r = agrad("graph", "-", "--grads", "--saved", "--format", "json", input=code)
    obj = r.json()
    root = obj["nodes"][0]
    assert root["grad"] == {"shape": [], "norm": 1.0, "min": 1.0, "max": 1.0, "nonfinite": False}
    leaf = [n for n in obj["nodes"] if n["name"] == "AccumulateGrad"][0]
    assert leaf["grad"]["max"] == 6.0
    # the automatic pass keeps the graph: the saved tensors are not freed
    assert all(not s["freed"] for s in root["saved"])
    assert "ran loss.backward()" in r.stderr


def test_grads_flags_nonfinite():
    code = "x = tensor([0.0, 1.0], requires_grad=True)\nloss = sqrt(x).sum()\n"
    r = agrad("graph", "-", "--grads", "--format", "json", input=code)
    leaf = [n for n in r.json()["nodes"] if n["leaf"] == "x"][0]
    assert leaf["grad"]["nonfinite"] is True
    assert leaf["grad"]["max"] == "inf"


def test_chain_at_one_depth_and_collapsed():
    code = ("x = tensor([0.5, 1.0], requires_grad=True)\nw = tensor(0.9, requires_grad=True)\n"
            "y = x\nfor i in range(250):\n    y = tanh(sin(y) * w + 0.1)\nloss = y.sum()\n")
    r = agrad("graph", "-", "--format", "text", input=code)
    assert r.code == 0
    lines = r.stdout.splitlines()
    assert len(lines) < 15
    run = [ln.removeprefix("↳ ") for ln in lines if ln.lstrip("↳ ").startswith("×")]
    assert run and run[0].startswith("×249 [SinBackward0 → TanhBackward0 → AddBackward0 → MulBackward0]")
    assert max(len(ln) - len(ln.lstrip("│├└─↳ ")) for ln in lines) <= 6  # no drift to the right


def test_single_input_chain_continues_at_same_depth():
    code = "x = tensor(1.0, requires_grad=True)\ny = exp(sin(x))\n"
    r = agrad("graph", "-", "--format", "text", input=code)
    lines = r.stdout.splitlines()
    assert lines[0].startswith("#0 ExpBackward0")
    assert lines[1].startswith("↳ #1 SinBackward0")  # the input of the line above, same depth
    assert lines[2].startswith("└─ #2 AccumulateGrad")


def test_hundred_thousand_node_chain():
    code = "x = tensor(1.0, requires_grad=True)\ny = x\nfor i in range(100000):\n    y = sin(y)\n"
    t0 = time.perf_counter()
    r = agrad("graph", "-", "--format", "text", input=code)
    elapsed = time.perf_counter() - t0
    assert r.code == 0
    assert r.stdout.splitlines()[0] == "×100000 [SinBackward0]  #0–#99999"
    assert "AccumulateGrad" in r.stdout.splitlines()[1]
    assert elapsed < 120


def test_ten_thousand_node_graph_json_is_complete():
    code = ("x = tensor([1.0, 2.0], requires_grad=True)\nw = tensor(0.5, requires_grad=True)\n"
            "y = x\nfor i in range(2500):\n    y = tanh(sin(y) * w + 0.1)\nloss = y.sum()\n")
    r = agrad("graph", "-", "--format", "json", "--expand", input=code)
    obj = r.json()
    assert len(obj["nodes"]) == 10003
    assert [n["id"] for n in obj["nodes"]] == list(range(10003))
    # sum -> tanh, then per step: tanh -> add -> mul -> (sin, w), sin -> the step before
    assert len(obj["edges"]) == 1 + 5 * 2500


def test_target_without_graph():
    r = agrad("graph", "-e", "y = ones(2) * 2", "--format", "json")
    obj = r.json()
    assert r.code == 0
    assert obj["root"] is None and obj["nodes"] == [] and obj["edges"] == []
    assert "does not require grad" in r.stderr


def test_leaf_target():
    r = agrad("graph", "-e", "w = ones(2, requires_grad=True)", "--format", "text")
    assert r.stdout.startswith("#0 AccumulateGrad  [2] float32  w")


def test_graph_of_non_tensor_is_usage_error():
    r = agrad("graph", "-e", "n = 3", "--of", "n", "--format", "text")
    assert r.code == 2
    assert "n is an int, not a tensor" in r.stderr


def test_dot(in_repo):
    r = agrad("graph", SEED, "--format", "dot")
    assert r.code == 0
    out = r.stdout
    assert out.startswith("digraph agrad {") and out.rstrip().endswith("}")
    assert 'n0 [label="#0 MeanBackward0\\n[] float32\\nloss = l4.mean()\\nexamples/backward_experiment.py:16:8"];' in out
    assert "n0 -> n1;" in out
    assert out.count(" -> ") == 8


def test_mermaid(in_repo):
    r = agrad("graph", SEED, "--format", "mermaid")
    assert r.code == 0
    lines = r.stdout.splitlines()
    assert lines[0] == "flowchart TD"
    assert lines[1].startswith('  n0["#35;0 MeanBackward0<br/>')
    assert "  n0 --> n1" in lines
    assert sum(1 for ln in lines if "-->" in ln) == 8


def test_mermaid_and_dot_escape_user_text():
    code = 'x = tensor(1.0, requires_grad=True)\ny = x * len(\'"quoted" <b>[x]</b> |pipe|\')\n'
    r = agrad("graph", "-", "--format", "mermaid", input=code)
    body = r.stdout
    assert '"quoted"' not in body and "<b>" not in body and "|pipe|" not in body
    r = agrad("graph", "-", "--format", "dot", input=code)
    assert '\\"quoted\\"' in r.stdout


def test_rich_graph_no_markup_interpretation(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    code = "x = tensor(1.0, requires_grad=True)\ny = x * len('[bold]not markup[/bold]')\n"
    r = agrad("graph", "-", "--format", "rich", input=code)
    assert r.code == 0
    assert "[bold]not markup[/bold]" in r.stdout
    assert "\x1b[" not in r.stdout


def test_refs_for_repeated_inputs():
    code = "a = tensor([1.0, 3.0], requires_grad=True)\nb = a + 2\nb[0] = 100\nloss = (b * b).mean()\n"
    r = agrad("graph", "-", "--saved", "--format", "text", input=code)
    assert "CopySlices  [2] float32  b[0] = 100  <stdin>:3" in r.stdout
    assert "└─ ↑ #2 CopySlices" in r.stdout
    assert "saved self  [2] float32  version 1" in r.stdout


def test_leaf_names_inside_containers():
    code = ("ws = [tensor(1.0, requires_grad=True), tensor(2.0, requires_grad=True)]\n"
            "loss = ws[0] * ws[1]\n")
    r = agrad("graph", "-", "--format", "json", input=code)
    leaves = sorted(n["leaf"] for n in r.json()["nodes"] if n["leaf"])
    assert leaves == ["ws[0]", "ws[1]"]


# ------------------------------------------------------------------ exports at scale

LOOP200 = ("x = tensor([0.5, 1.0], requires_grad=True)\nw = tensor(0.9, requires_grad=True)\n"
           "y = x\nfor i in range(200):\n    y = tanh(sin(y) * w + 0.1)\nloss = y.sum()\n")
SHARED = "x = tensor(1.0, requires_grad=True)\ny = x\nfor i in range(3000):\n    y = y*y*0 + y\n"


def _mermaid_ok(text):
    lines = text.splitlines()
    edges = [ln for ln in lines if "-->" in ln or "-.->" in ln]
    assert len(edges) < 500 and len(text) < 50_000
    declared = {ln.split("[", 1)[0].split("(", 1)[0].strip() for ln in lines[1:]
                if "-->" not in ln and "-.->" not in ln and not ln.strip().startswith("%%")}
    for ln in edges:  # every edge joins two declared nodes
        a, b = ln.split(" -")[0].strip(), ln.rsplit(" ", 1)[1]
        assert a in declared and b in declared, ln
    return lines


def test_json_collapses_runs_into_groups():
    obj = agrad("graph", "-", "--format", "json", input=LOOP200).json()
    assert obj["groups"] == [{"id": "g0", "count": 199, "names": ["SinBackward0", "TanhBackward0",
                                                                  "AddBackward0", "MulBackward0"],
                              "first": 5, "last": 800, "size": 796}]
    assert len(obj["nodes"]) == 7  # 803 nodes less the 796 of the group
    assert {"from": 3, "to": "g0", "input": 0} in obj["edges"]
    assert {"from": "g0", "to": 801, "input": None} in obj["edges"]
    ids = {n["id"] for n in obj["nodes"]} | {g["id"] for g in obj["groups"]}
    assert all(e["from"] in ids and e["to"] in ids for e in obj["edges"])
    full = agrad("graph", "-", "--format", "json", "--expand", input=LOOP200).json()
    assert len(full["nodes"]) == 803 and full["groups"] == []


def test_dot_and_mermaid_collapse_runs():
    dot = agrad("graph", "-", "--format", "dot", input=LOOP200).stdout
    assert 'g0 [label="×199 [SinBackward0 → TanhBackward0 → AddBackward0 → MulBackward0]\\n#5–#800, 796 nodes"' in dot
    assert dot.count(" -> ") == 8 and "n3 -> g0 [label=\"0\"];" in dot
    mer = agrad("graph", "-", "--format", "mermaid", input=LOOP200).stdout
    lines = _mermaid_ok(mer)
    assert any(ln.startswith("  g0[[\"×199 #91;SinBackward0") for ln in lines)
    assert "%%" not in mer  # fits: nothing folded
    text = agrad("graph", "-", "--format", "text", "--expand", input=LOOP200).stdout
    lines = text.splitlines()
    assert not any(ln.lstrip("↳ ").startswith("×") for ln in lines)
    assert len(lines) == 803 + 199  # every node, and w referenced by 199 of the 200 steps


def test_mermaid_folds_the_deepest_nodes_past_its_limits():
    for code, args in ((SHARED, ()), (LOOP200, ("--expand",))):
        r = agrad("graph", "-", "--format", "mermaid", *args, input=code)
        lines = _mermaid_ok(r.stdout)
        assert lines[1].startswith("  %% agrad: ") and "folded" in lines[1]
        hidden = int(lines[1].split()[2])
        folded = sum(int(ln.split('"⋯ ')[1].split()[0]) for ln in lines if '"⋯ ' in ln)
        assert folded == hidden > 0
