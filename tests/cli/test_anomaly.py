"""``agrad eval --anomaly`` / ``agrad graph --anomaly`` (issue 14): the first non-finite
value forward and backward, each blamed on its statement and sub-expression."""

from __future__ import annotations

import pytest

from .conftest import agrad


def _anomaly(code, *args, command="eval", code_expected=1):
    extra = ("--no-table",) if command == "eval" else ()
    r = agrad(command, "-", "--anomaly", "--format", "json", *extra, *args, input=code)
    assert r.code == code_expected, (r.stdout, r.stderr)
    obj = r.json()
    return obj["anomaly"], obj


def _span_text(code, rec):
    line = code.splitlines()[rec["line"] - 1]
    return line[rec["column"] - 1:rec["end_column"] - 1]


def test_log_of_a_negative():
    code = ("x = torch.tensor([-1.0, 2.0], requires_grad=True)\n"
            "w = torch.tensor(3.0, requires_grad=True)\n"
            "y = torch.log(x) * w\n"
            "loss = y.sum()\n")
    a, obj = _anomaly(code)
    f = a["forward"]
    assert (f["source"], f["line"], f["op"]) == ("<stdin>", 3, "log")
    assert _span_text(code, f) == "torch.log(x)"
    assert f["inputs"] == [{"name": "self", "shape": [2], "values": [-1.0]}]
    # MulBackward0's gradient for w is grad * log(x): NaN from a finite gradient
    b = a["backward"]
    assert (b["node"], b["line"]) == ("MulBackward0", 3)
    assert _span_text(code, b) == "torch.log(x) * w"
    assert [p["node"] for p in a["path"]] == ["MulBackward0", "LogBackward0"]
    assert obj["ok"] is False and obj["error"]["type"] == "AnomalyDetected"
    assert obj["variables"]["y"]["value"][0] == "nan"  # the script ran as without --anomaly


def test_sqrt_at_zero_then_backward():
    code = ("x = torch.tensor([0.0, 4.0], requires_grad=True)\n"
            "s = torch.sqrt(x)\n"
            "loss = s.sum()\n"
            "loss.backward()\n")
    a, _ = _anomaly(code)
    assert a["forward"] is None  # sqrt(0) = 0: the forward pass stays finite
    b = a["backward"]
    assert (b["node"], b["source"], b["line"]) == ("SqrtBackward0", "<stdin>", 2)
    assert _span_text(code, b) == "torch.sqrt(x)"
    assert a["path"] == []


def test_zero_over_zero_in_a_backward_formula():
    # where() sends a zero gradient to sqrt at 0: SqrtBackward0 computes 0 / (2 * 0)
    code = ("x = torch.tensor([0.0, 1.0], requires_grad=True)\n"
            "y = torch.where(x > 0, torch.sqrt(x), torch.zeros(2))\n"
            "loss = y.sum()\n")
    a, _ = _anomaly(code)
    assert a["forward"] is None
    b = a["backward"]
    assert (b["node"], b["line"]) == ("SqrtBackward0", 2)
    assert _span_text(code, b) == "torch.sqrt(x)"


def test_overflow_in_exp():
    code = ("x = torch.tensor([1.0, 100.0], requires_grad=True)\n"
            "e = x.exp()\n"
            "loss = (e / e.sum()).sum()\n")
    a, _ = _anomaly(code)
    f = a["forward"]
    assert (f["op"], f["line"]) == ("exp", 2) and _span_text(code, f) == "x.exp()"
    assert f["inputs"][0]["values"] == [100.0]


CUSTOM = """\
class MyLog(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.log()

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * (x - 3).sqrt()

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = MyLog.apply(x) * 3
loss = y.sum()
"""


def test_nan_born_inside_a_custom_function_backward():
    a, _ = _anomaly(CUSTOM)
    assert a["forward"] is None
    b = a["backward"]
    assert (b["node"], b["line"]) == ("MyLogBackward", 13)
    assert _span_text(CUSTOM, b) == "MyLog.apply(x)"


def test_nan_born_inside_a_custom_function_forward():
    code = CUSTOM.replace("[1.0, 2.0]", "[-1.0, 2.0]")
    a, obj = _anomaly(code)
    f = a["forward"]
    # the line inside the Function's forward, not the line that called apply
    assert (f["op"], f["line"]) == ("log", 5) and _span_text(code, f) == "x.log()"
    assert f["inputs"] == [{"name": "self", "shape": [2], "values": [-1.0]}]
    # the op ran without a graph: the Function's node, made by the apply call, stands for it
    b = a["backward"]
    assert (b["node"], b["line"]) == ("MyLogBackward", 13)
    assert [(p["node"], p["line"]) for p in a["path"]] == [("MyLogBackward", 13)]
    assert _span_text(code, a["path"][0]) == "MyLog.apply(x)"
    assert obj["error"]["type"] == "AnomalyDetected" and obj["error"]["line"] == 5
    r = agrad("eval", "-", "--anomaly", "--no-table", "-q", input=code)
    assert r.code == 1
    assert r.stderr.splitlines()[:3] == [
        "agrad: anomaly: first non-finite value: log at <stdin>:5:16",
        "    return x.log()",
        "           ^^^^^^^",
    ]
    assert "    path: MyLogBackward (line 13)" in r.stderr.splitlines()


def test_path_through_a_custom_function_to_its_forward_nan():
    # the NaN of the Function's forward reaches w's gradient through MulBackward0
    code = CUSTOM.replace("[1.0, 2.0]", "[-1.0, 2.0]").replace("(x - 3).sqrt()", "x").replace(
        "MyLog.apply(x) * 3", "MyLog.apply(x) * w").replace(
        "x = torch.tensor", "w = torch.tensor(2.0, requires_grad=True)\nx = torch.tensor")
    a, _ = _anomaly(code)
    assert (a["forward"]["op"], a["forward"]["line"]) == ("log", 5)
    assert (a["backward"]["node"], a["backward"]["line"]) == ("MulBackward0", 14)
    assert [(p["node"], p["line"]) for p in a["path"]] == [("MulBackward0", 14), ("MyLogBackward", 14)]


def test_function_given_a_nan_is_not_where_it_was_born():
    # the NaN is born before apply (log outside any graph); the Function only passes it on
    code = ("class Twice(torch.autograd.Function):\n"
            "    @staticmethod\n"
            "    def forward(ctx, x):\n"
            "        return x * 2\n"
            "    @staticmethod\n"
            "    def backward(ctx, g):\n"
            "        return g * 2\n"
            "a = torch.tensor([-1.0]).log()\n"
            "w = torch.tensor([1.0], requires_grad=True)\n"
            "y = Twice.apply(w + a)\n"
            "loss = y.sum()\n")
    a, _ = _anomaly(code, code_expected=1)
    assert (a["forward"]["op"], a["forward"]["line"]) == ("log", 8)
    assert a["path"] == []  # log made no node; Twice did not make the NaN


def test_nan_that_enters_through_set():
    code = "w = torch.tensor(2.0, requires_grad=True)\nloss = (x * w).sum()\n"
    a, obj = _anomaly(code, "--set", "x=tensor([1.0, float('nan')])")
    f = a["forward"]
    assert f["source"] == "--set x" and f["line"] is None and f["column"] is None
    assert f["op"] == "mul"
    assert obj["error"]["source"] == "--set x"
    b = a["backward"]
    assert (b["node"], b["line"]) == ("MulBackward0", 2)  # w's gradient sums x


@pytest.mark.parametrize("option", ("--set", "--param"))
def test_nan_gradient_that_enters_through_set(option):
    # the first node is handed the non-finite gradient: no formula made it
    code = ("w = torch.tensor([1.0, 2.0], requires_grad=True)\n"
            "y = torch.exp(w * 3)\n"
            "y.backward(x)\n")
    value = "tensor([1.0, float('nan')])" if option == "--set" else "[1.0, float('nan')]"
    a, obj = _anomaly(code, option, f"x={value}")
    assert a["forward"] is None  # x only seeds the backward pass
    assert a["backward"] == {"node": "ExpBackward0", "source": f"{option} x", "line": None,
                             "column": None, "end_column": None}
    assert a["path"] == []
    assert obj["error"]["source"] == f"{option} x" and obj["error"]["line"] is None
    assert f"entered through {option} x" in obj["error"]["message"]
    r = agrad("eval", "-", "--anomaly", "--no-table", "-q", option, f"x={value}", input=code)
    assert r.code == 1
    assert r.stderr.splitlines() == [  # 80 columns: the head on two lines
        "agrad: anomaly: every forward value stayed finite",
        f"agrad: anomaly: non-finite gradient entered through {option} x:",
        "    first received by ExpBackward0",
    ]
    wide = agrad("eval", "-", "--anomaly", "--no-table", "-q", "--columns", "120", option, f"x={value}",
                 input=code)
    assert wide.stderr.splitlines()[1] == (
        f"agrad: anomaly: non-finite gradient entered through {option} x: first received by ExpBackward0")


def test_nan_gradient_from_set_through_autograd_grad_then_born_later():
    # a view of the --set data as grad_outputs; the next NaN made from finite gradients
    # elsewhere is not the first: the record stays the entry
    code = ("w = torch.tensor([1.0, 2.0], requires_grad=True)\n"
            "y = (w * 2).sqrt()\n"
            "g, = torch.autograd.grad(y, w, grad_outputs=x[0])\n")
    a, _ = _anomaly(code, "--set", "x=tensor([[float('inf'), 1.0]])")
    assert a["backward"]["node"] == "SqrtBackward0" and a["backward"]["source"] == "--set x"


def test_nan_gradient_from_a_script_tensor_is_blamed_on_its_first_node():
    # not --set data: the forward record names where the seed was made, the backward one
    # the first node that had it
    code = ("w = torch.tensor([1.0, 2.0], requires_grad=True)\n"
            "y = w * 3\n"
            "y.backward(torch.tensor([1.0, float('nan')]))\n")
    a, _ = _anomaly(code)
    assert (a["forward"]["op"], a["forward"]["line"]) == ("tensor", 3)
    assert (a["backward"]["node"], a["backward"]["source"], a["backward"]["line"]) == (
        "MulBackward0", "<stdin>", 2)


def test_nan_that_enters_through_param():
    a, _ = _anomaly("loss = (w * 2).sum()\n", "--param", "w=[1.0, float('inf')]")
    assert a["forward"]["source"] == "--param w"


def test_a_new_tensor_made_non_finite():
    code = "a = torch.ones(2)\nb = torch.tensor([1.0, float('nan')])\nc = a + b\n"
    a, _ = _anomaly(code)
    assert (a["forward"]["op"], a["forward"]["line"]) == ("tensor", 2)


def test_finite_run_exit_0_and_null_records():
    code = "x = torch.tensor([1.0, 2.0], requires_grad=True)\nloss = (x * x).sum()\n"
    a, obj = _anomaly(code, code_expected=0)
    assert a == {"forward": None, "backward": None, "path": []}
    assert obj["ok"] is True and obj["error"] is None


def test_record_after_a_script_error():
    code = "x = torch.tensor([-1.0])\ny = x.log()\nraise ValueError('stop')\n"
    a, obj = _anomaly(code)
    assert obj["error"]["type"] == "ValueError"
    assert (a["forward"]["op"], a["forward"]["line"]) == ("log", 2)
    a, obj = _anomaly("y = 1 / 0\n")
    assert obj["error"]["type"] == "ZeroDivisionError"
    assert a == {"forward": None, "backward": None, "path": []}
    r = agrad("graph", "-", "--anomaly", "--format", "json", input="y = torch.tensor([-1.]).log()\nz = q\n")
    assert r.code == 1 and r.json()["error"]["type"] == "NameError"
    assert r.json()["anomaly"]["forward"]["op"] == "log"


def test_usage_error_has_an_empty_record():
    r = agrad("eval", "-e", "y = 1", "--anomaly", "--format", "json", "--of", "nope")
    assert r.code == 2
    assert r.json()["anomaly"] is None and r.json()["ok"] is False


def test_the_script_runs_as_without_the_flag():
    code = ("x = torch.tensor([-1.0, 0.0], requires_grad=True)\n"
            "with torch.autograd.set_detect_anomaly(True):\n"
            "    y = (x.sqrt() * 2).sum()\n"
            "    y.backward()\n"
            "print(x.grad)\n")
    plain = agrad("eval", "-", "--format", "json", input=code).json()
    a, watched = _anomaly(code)
    for key in ("stdout", "variables", "warnings"):
        assert plain[key] == watched[key]
    assert plain["error"]["message"] == watched["error"]["message"]  # PyTorch's returned-nan error
    assert "returned nan values" in watched["error"]["message"]
    assert a["forward"]["op"] == "sqrt"
    assert a["backward"]["node"] == "SqrtBackward0"


def test_graph_anomaly_runs_backward_and_reports():
    code = ("x = torch.tensor([0.0, 1.0], requires_grad=True)\n"
            "loss = torch.sqrt(x).sum()\n")
    a, obj = _anomaly(code, command="graph")
    assert a["backward"]["node"] == "SqrtBackward0"
    assert obj["nodes"] and obj["root"] is not None


@pytest.mark.parametrize("width", (20, 40, 80))
def test_text_report_fits_the_width(width):
    code = ("x = torch.tensor([-1.0, 2.0], requires_grad=True)\n"
            "a_long_variable_name_here = torch.log(x) * torch.ones(2, requires_grad=True)\n"
            "loss = a_long_variable_name_here.sum()\n")
    r = agrad("eval", "-", "--anomaly", "--no-table", "-q", "--columns", width, input=code)
    assert r.code == 1
    lines = r.stderr.splitlines()
    assert any("log" in ln for ln in lines) and any("MulBackward0" in ln for ln in lines)
    for ln in lines:
        assert len(ln) <= width, ln


def test_text_report_names_statement_and_carets():
    code = "x = torch.tensor([-1.0, 2.0])\ny = torch.log(x)\n"
    r = agrad("eval", "-", "--anomaly", "--no-table", "-q", input=code)
    assert r.code == 1
    assert r.stderr.splitlines()[:4] == [
        "agrad: anomaly: first non-finite value: log at <stdin>:2:5",
        "    y = torch.log(x)",
        "        ^^^^^^^^^^^^",
        "    self [2]: -1",
    ]
    ok = agrad("eval", "-e", "y = 1 + 1", "--anomaly", "--no-table", "-q")
    assert ok.code == 0 and "stayed finite" in ok.stderr
