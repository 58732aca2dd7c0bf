"""``agrad check --nodes`` (issue 14): each node's backward checked alone in float64; the
first wrong one is named with the sub-expression that made it."""

from __future__ import annotations

import pytest

from .conftest import agrad


def test_names_the_custom_function_whose_backward_is_wrong(in_repo):
    r = agrad("check", "examples/bad_function.py", "--nodes", "--format", "json")
    assert r.code == 3
    obj = r.json()
    assert obj["ok"] is False
    bad = obj["first_wrong"]
    assert bad["node"] == "MyExpBackward" and bad["span"] == [19, 9, 23]
    assert bad["text"] == "MyExp.apply(x)" and bad["source"] == "examples/bad_function.py:19"
    by_name = {n["node"]: n for n in obj["nodes"]}
    assert by_name["SumBackward0"]["passed"] and by_name["MulBackward0"]["passed"]
    assert not by_name["MyExpBackward"]["passed"] and by_name["MyExpBackward"]["checked"] == 3
    graph = agrad("graph", "examples/bad_function.py", "--format", "json").json()
    assert {n["id"]: n["name"] for n in graph["nodes"]}[bad["id"]] == "MyExpBackward"


def test_text_report(in_repo):
    r = agrad("check", "examples/bad_function.py", "--nodes", "--format", "text", "-q")
    assert r.code == 3
    lines = r.stdout.splitlines()
    assert "each node alone, in float64: its backward against central differences" in lines
    assert any(ln.startswith("  #3 MyExpBackward  checked 3  max_abs_error ") and ln.endswith("MISMATCH")
               for ln in lines)
    assert lines[-1].startswith("first wrong node: #3 MyExpBackward  MyExp.apply(x)  ")
    for width in (40, 60):
        r = agrad("check", "examples/bad_function.py", "--nodes", "--format", "text", "-q",
                  "--columns", width)
        assert all(len(ln) <= width for ln in r.stdout.splitlines())


GOOD = """\
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x * x * g
x = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
w = torch.randn(3, 2, requires_grad=True)
h = torch.tanh(Cube.apply(x) @ w)
loss = (h * h).sum() + torch.logsumexp(h, 0).sum()
"""


def test_every_node_of_a_correct_graph_passes():
    r = agrad("check", "-", "--nodes", "--format", "json", "--seed", "0", input=GOOD)
    assert r.code == 0, r.stdout
    obj = r.json()
    assert obj["ok"] and obj["first_wrong"] is None
    names = [n["node"] for n in obj["nodes"]]
    assert names[0] == "AddBackward0" and "CubeBackward" in names and "TanhBackward0" in names
    assert all(n["passed"] and n["checked"] > 0 for n in obj["nodes"])


def test_wrong_only_for_one_input():
    code = GOOD.replace("return 3 * x * x * g", "return 3 * x * g")
    r = agrad("check", "-", "--nodes", "--format", "json", "--seed", "0", input=code)
    assert r.code == 3
    assert r.json()["first_wrong"]["node"] == "CubeBackward"
    assert r.json()["first_wrong"]["span"][0] == 12


@pytest.mark.parametrize("fmt", ("text", "rich"))
def test_without_the_flag_nothing_changes(in_repo, fmt):
    r = agrad("check", "examples/bad_function.py", "--format", fmt, "-q", "--no-color")
    assert "each node alone" not in r.stdout and r.code == 3
    obj = agrad("check", "examples/bad_function.py", "--format", "json").json()
    assert "nodes" not in obj
