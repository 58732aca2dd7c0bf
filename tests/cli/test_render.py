"""The renderers on their own: records, one-line values, rich output, the graph layout."""

from __future__ import annotations

import io
import re

import numpy as np
from rich.console import Console

import agrad
from agrad.autograd.graph import accumulator_of
from agrad.render import evalview, graphmodel, graphview
from agrad.render.console import Output, resolve_format
from agrad.render.records import array_json, short_value, value_record

from .conftest import golden


def _seed():
    t = agrad
    input_data = t.ones([2, 2])
    w1 = t.tensor(2.0, requires_grad=True)
    w2 = t.tensor(3.0, requires_grad=True)
    w3 = t.tensor(4.0, requires_grad=True)
    l1 = input_data * w1
    l2 = l1 + w2
    l3 = l1 * w3
    l4 = l2 * l3
    loss = l4.mean()
    return dict(input_data=input_data, w1=w1, w2=w2, w3=w3, l1=l1, l2=l2, l3=l3, l4=l4, loss=loss)


def test_array_json_float32_shortest():
    assert array_json(np.array([0.1, 1 / 3], np.float32)) == [0.1, 0.33333334]
    assert array_json(np.array(0.1, np.float64)) == 0.1
    assert array_json(np.array([[np.nan, -np.inf]], np.float32)) == [["nan", "-inf"]]
    assert array_json(np.array([1, 2], np.int64)) == [1, 2]
    assert array_json(np.zeros((0, 2), np.float32)) == []


def test_value_record_cycles_and_objects():
    a = [1]
    a.append(a)
    rec = value_record(a)
    assert rec["kind"] == "list" and rec["items"][1]["kind"] == "object"
    assert value_record(object())["kind"] == "object"


def test_short_value():
    assert short_value(np.ones((2, 2), np.float32), "float32") == "[[1., 1.], [1., 1.]]"
    assert short_value(np.float32(2.0), "float32") == "2."
    assert short_value(np.arange(6).reshape(2, 3), "int64") == "[[0, 1, 2], [3, 4, 5]]"
    long = short_value(np.arange(1000.0), "float64")
    assert "..." in long and len(long) < 50
    assert short_value(np.zeros(0, np.float32), "float32") == "[]"


def test_eval_table_rich_golden():
    buf = io.StringIO()
    console = Console(file=buf, color_system=None, width=110, markup=False, highlight=False)
    out = Output("rich", out=buf, console=console)
    ns = _seed()
    ns["loss"].backward()
    evalview.render_rich(out, "printed [bold]text[/bold]\n", ns)
    text = buf.getvalue()
    assert "printed [bold]text[/bold]" in text  # user text is never markup
    assert "\x1b" not in text
    golden("eval_table_rich.txt", text)


def test_graph_tree_golden_and_rich():
    ns = _seed()
    names = {accumulator_of(ns[k]): k for k in ("w1", "w2", "w3")}
    model = graphmodel.GraphModel(ns["loss"].grad_fn, leaf_names=names.get)
    lines = []
    graphview.render_text(model, lines.append)
    golden("graph_seed_model.txt", "\n".join(lines) + "\n")
    assert len(model.nodes) == 8 and len(model.edges) == 8
    assert lines[-2].startswith("   ├─ ↑ #")


def test_collapse_repeated_runs():
    x = agrad.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(10):
        y = agrad.exp(agrad.sin(y))
    model = graphmodel.GraphModel(y.grad_fn)
    lines = []
    graphview.render_text(model, lines.append)
    assert lines[0] == "×10 [ExpBackward0 → SinBackward0]  #0–#19"
    assert lines[1].startswith("└─ #20 AccumulateGrad")
    model = graphmodel.GraphModel(y.grad_fn, collapse=False)
    assert len(model.lines) == 21


def test_two_repeats_not_collapsed():
    x = agrad.tensor(1.0, requires_grad=True)
    y = agrad.sin(agrad.sin(x))
    lines = []
    graphview.render_text(graphmodel.GraphModel(y.grad_fn), lines.append)
    assert lines[0].startswith("#0 SinBackward0") and lines[1].startswith("↳ #1 SinBackward0")


def test_resolve_format():
    assert resolve_format("auto", io.StringIO()) == "text"
    assert resolve_format("json", io.StringIO()) == "json"

    class Tty(io.StringIO):
        def isatty(self):
            return True

    assert resolve_format("auto", Tty()) in ("rich", "text")


def test_graph_rich_golden():
    from agrad.app.commands import _graph_rich

    ns = _seed()
    names = {accumulator_of(ns[k]): k for k in ("w1", "w2", "w3")}
    model = graphmodel.GraphModel(ns["loss"].grad_fn, leaf_names=names.get)
    buf = io.StringIO()
    console = Console(file=buf, color_system=None, width=60, markup=False, highlight=False)
    _graph_rich(Output("rich", out=buf, console=console), model, True, None)
    text = buf.getvalue()
    assert "\x1b" not in text
    golden("graph_seed_rich.txt", text)
    plain = []
    graphview.render_text(model, plain.append, saved=True)
    assert text == "\n".join(plain) + "\n"  # the same lines, unwrapped, in both renderers


def _shared_chain(n):
    """``y = y*y*0 + y`` n times: every step's input is shared by two nodes."""
    x = agrad.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(n):
        y = y * y * 0 + y
    return y


def _node_line_ids(lines):
    return [int(m.group(1)) for m in (re.match(r"^[│├└─↳ ]*#(\d+) ", ln) for ln in lines) if m]


def test_shared_nodes_render_linear_in_the_graph():
    sizes = {}
    for n in (500, 1000, 2000):
        model = graphmodel.GraphModel(_shared_chain(n).grad_fn)
        lines = []
        graphview.render_text(model, lines.append)
        sizes[n] = sum(len(ln) + 1 for ln in lines)
        # every node is drawn exactly once; every other mention is a reference
        assert sorted(_node_line_ids(lines)) == list(range(len(model.nodes)))
        assert len(model.nodes) == 3 * n + 1
        # lines: one per node, at most one per edge, two per block of inputs drawn below
        blocks = sum(1 for ln in lines if ln.startswith("↓ #"))
        assert len(lines) <= len(model.nodes) + len(model.edges) + 2 * blocks
        guides = max(len(ln) - len(ln.lstrip("│├└─↳ ")) for ln in lines)
        assert guides <= 3 * (graphmodel.MAX_DEPTH + 1)
    # twice the steps, twice the text (it was 4x: 25 MB at 1,000 steps, 136 MB at 3,000)
    assert 1.8 < sizes[2000] / sizes[1000] < 2.2
    assert 1.8 < sizes[1000] / sizes[500] < 2.2


def test_inputs_past_the_depth_limit_move_to_a_block_below():
    model = graphmodel.GraphModel(_shared_chain(3).grad_fn, max_depth=2)
    lines = []
    graphview.render_text(model, lines.append)
    deep = [ln for ln in lines if ln.endswith("  ↓")]
    assert deep, lines
    gid = int(re.search(r"#(\d+) ", deep[0]).group(1))
    head = lines.index(f"↓ #{gid} AddBackward0")
    assert lines[head - 1] == ""  # a blank line before each block
    assert lines[head + 1].startswith("├─ #")  # the node's inputs, one level down
    assert max(len(ln) - len(ln.lstrip("│├└─↳ ")) for ln in lines) <= 3 * 3
    assert graphmodel.depth_for_width(80) == 12 and graphmodel.depth_for_width(10) == 2
