"""agrad diff from the command line: text, rich, LaTeX and JSON; widths; errors."""

from __future__ import annotations

import json

import pytest

from .conftest import agrad

LONG = "y = exp(x*w)*sin(x*w)*tanh(w) + log(x)"


def test_the_example():
    r = agrad("diff", "-e", "y = sin(x)**2", "--param", "x=1.0", "--format", "text")
    assert r.code == 0, r.stderr
    assert r.stdout == "dy/dx = 2*sin(x)*cos(x)\n      = 0.9093\n"
    assert "agrad: target y" in r.stderr


def test_several_leaves_share_named_subexpressions():
    r = agrad("diff", "-e", "y = exp(x*w)", "--param", "x=1.0", "--param", "w=2.0", "--format", "text", "-q")
    assert r.code == 0, r.stderr
    assert r.stdout.splitlines() == ["t1 = exp(w*x)", "dy/dx = w*t1", "      = 14.7781",
                                     "dy/dw = x*t1", "      = 7.3891"]
    assert r.stderr == ""


def test_wrt_and_order_two():
    r = agrad("diff", "-e", LONG, "--param", "x=1.0", "--param", "w=2.0", "--wrt", "w", "--order", "2",
              "--format", "json")
    obj = r.json()
    assert r.code == 0 and obj["ok"] and obj["order"] == 2
    assert [d["name"] for d in obj["derivatives"]] == ["d2y/dw2"]
    r = agrad("diff", "-e", "y = tanh(x)", "--param", "x=0.5", "--order", "2", "--format", "text", "-q")
    assert r.stdout.splitlines()[0] == "d2y/dx2 = -2*tanh(x)*(1 - tanh(x)**2)"
    r = agrad("diff", "-e", "y = x*x*w", "--param", "x=1.0", "--param", "w=3.0", "--order", "2",
              "--format", "text", "-q")
    assert r.stdout.splitlines()[::2] == ["d2y/dx2 = 2*w", "d2y/dxdw = 2*x", "d2y/dw2 = 0"]


def test_json_record():
    r = agrad("diff", "-e", "y = sin(x)**2", "--param", "x=1.0", "--format", "json")
    obj = r.json()
    assert set(obj) == {"ok", "target", "order", "summed", "constants", "definitions", "derivatives", "error"}
    (d,) = obj["derivatives"]
    assert d["expr"] == "2*sin(x)*cos(x)" and d["symbolic"] and d["reason"] is None
    assert d["latex"] == r"2 \sin\left(x\right) \cos\left(x\right)"
    assert d["tree"]["op"] == "mul" and d["tree"]["args"][0] == {"op": "num", "shape": [], "value": 2.0}
    assert d["tree"]["args"][1]["name"] == "sin"
    assert abs(d["value"] - 0.9092974) < 1e-6 and d["shape"] == [] and d["dtype"] == "float32"


def test_latex():
    r = agrad("diff", "-e", "y = x**3/w", "--param", "x=1.0", "--param", "w=2.0", "--format", "latex", "-q")
    assert r.code == 0
    assert r.stdout.splitlines() == [
        r"\frac{\partial y}{\partial x} &= \frac{3 {x}^{2}}{w} \\",
        "% dy/dx = 1.5000",
        r"\frac{\partial y}{\partial w} &= -\frac{{x}^{3}}{{w}^{2}}",
        "% dy/dw = -0.2500"]


@pytest.mark.parametrize("width", [20, 33, 50, 80, 140])
def test_every_width(width):
    obj = agrad("diff", "-e", LONG, "--param", "x=1.0", "--param", "w=2.0", "--order", "2",
                "--format", "json").json()
    want = "".join(f"{d['name']}={d['expr']}" for d in obj["definitions"])
    want += "".join(f"{d['name']}={d['expr']}" for d in obj["derivatives"])
    for fmt in ("text", "rich"):
        r = agrad("diff", "-e", LONG, "--param", "x=1.0", "--param", "w=2.0", "--order", "2", "--format", fmt,
                  "--columns", str(width), "-q", "--no-color")
        assert r.code == 0
        lines = r.stdout.splitlines()
        assert lines and all(len(ln) <= width for ln in lines), (width, fmt, lines)
        # unwrapped (value lines left out), the text is the same expressions
        text = "".join(ln for ln in lines if not ln.lstrip().startswith("= "))
        assert text.replace(" ", "") == want.replace(" ", "")


def test_no_symbolic_form_names_the_op_and_keeps_the_value():
    args = ("diff", "-e", "y = (x*w).norm()", "--param", "x=[3.0, 4.0]", "--param", "w=1.0")
    r = agrad(*args, "--format", "text", "-q")
    assert r.code == 0
    assert "dy/dx: no symbolic form: LinalgVectorNormBackward0 has no symbolic form" in r.stdout
    assert "= [0.6000, 0.8000]" in r.stdout
    d = agrad(*args, "--format", "json").json()["derivatives"][0]
    assert d["symbolic"] is False and d["expr"] is None and "LinalgVectorNormBackward0" in d["reason"]
    assert d["value"] == [0.6, 0.8]


def test_masks_read_as_comparisons():
    r = agrad("diff", "-e", "y = F.hardtanh(x).sum()", "--param", "x=[0.5, 2.0]", "--format", "text", "-q")
    assert r.stdout == "dy/dx = (x > -1) & (x < 1)\n      = [1., 0.]\n"
    r = agrad("diff", "-e", "y = F.leaky_relu(x).sum()", "--param", "x=[0.5, -2.0]", "--format", "text", "-q")
    assert r.stdout.splitlines()[0] == "dy/dx = where(x > 0, 1, 0.01)"
    r = agrad("diff", "-e", "y = x**w", "--param", "x=2.0", "--param", "w=3.0", "--format", "text", "-q")
    assert r.stdout.splitlines()[::2] == ["dy/dx = w*x**(w - 1)", "dy/dw = x**w*log(x)"]


CUBE = """
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
x = torch.tensor(2.0, requires_grad=True)
y = Cube.apply(x).sin()
"""


def test_custom_function_has_no_symbolic_form():
    r = agrad("diff", "-", "--format", "text", "-q", input=CUBE)
    assert r.code == 0, r.stderr
    assert "no symbolic form: CubeBackward is a custom Function" in r.stdout


def test_a_script_that_ran_backward_is_replayed(in_repo):
    r = agrad("diff", "examples/backward_experiment.py", "--format", "text")
    assert r.code == 0, r.stderr
    assert "replayed from its leaves, in float64" in r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "t1 = input_data*w1 + w2"
    assert "dloss/dw2 = sum(input_data*w1*w3)/4" in lines
    assert lines[lines.index("dloss/dw2 = sum(input_data*w1*w3)/4") + 1].strip() == "= 8."


def test_constants_by_name_and_broadcast_sums():
    r = agrad("diff", "-e", "y = (W @ x).sum()", "--param", "x=[1.0,2.0,3.0]", "--set", "W=ones(2,3)*2",
              "--format", "text", "-q")
    assert r.stdout.splitlines()[0] == "dy/dx = sum(W, 0)"
    r = agrad("diff", "-e", "y = (x*tensor([1., 2., 3.])).sum()", "--param", "x=[1.0,2.0,3.0]",
              "--format", "text", "-q")
    assert r.stdout.splitlines()[:2] == ["c1 = tensor([1., 2., 3.])", "dy/dx = c1"]
    r = agrad("diff", "-e", "y = (x + W).sum()", "--param", "x=1.0", "--set", "W=randn(2,3)",
              "--format", "text", "-q")
    assert r.stdout.splitlines()[0] == "dy/dx = 6"


def test_non_scalar_target_is_summed():
    r = agrad("diff", "-e", "y = x*x", "--param", "x=[1.0, 2.0]", "--format", "text")
    assert r.code == 0
    assert "y has shape [2]: these are the derivatives of sum(y)" in r.stderr
    assert r.stdout.splitlines()[0] == "dy/dx = 2*x"


@pytest.mark.parametrize("args,code,kind", [
    (["-e", "y = 2*x", "--param", "x=1.0", "--wrt", "z"], 2, "UsageError"),
    (["-e", "y = x", "--param", "x=1.0"], 2, "UsageError"),
    (["-e", "y = x +", "--param", "x=1.0"], 2, "SyntaxError"),
    (["-e", "y = x.foo()", "--param", "x=1.0"], 1, "AttributeError"),
    (["-e", "y = 2*x", "--param", "x=1.0", "--order", "3"], 2, "UsageError"),
])
def test_errors_in_the_envelope(args, code, kind):
    r = agrad("diff", *args, "--format", "json")
    assert r.code == code
    obj = json.loads(r.stdout)
    assert obj["ok"] is False and obj["error"]["type"] == kind
    assert set(obj) == {"ok", "target", "order", "summed", "constants", "definitions", "derivatives", "error"}
    r = agrad("diff", *args, "--format", "text")
    assert r.code == code and r.stdout == "" and "Traceback" not in r.stderr


def test_a_deep_chain_is_too_large_but_keeps_its_values(in_repo):
    r = agrad("diff", "examples/tanh_chain.py", "--set", "n=400", "--format", "json")
    obj = r.json()
    assert r.code == 0 and obj["ok"]
    for d in obj["derivatives"]:
        assert d["symbolic"] is False and d["reason"].startswith("the expression is too large to print")
        assert d["value"] is not None
    r = agrad("diff", "examples/tanh_chain.py", "--set", "n=3", "--format", "text", "-q")
    assert r.code == 0 and r.stdout.startswith("t1 = tanh(w*sin(x) + 0.1)\n")


LINEAR = """
import torch
net = torch.nn.Linear(2, 1)
x = torch.tensor([[1.0, 2.0], [3.0, 1.0]])
loss = (torch.tanh(net(x))**2).mean()
"""


def test_a_module_s_parameters_by_their_path():
    r = agrad("diff", "-", "--seed", "0", "--format", "text", "-q", input=LINEAR)
    assert r.code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[:3] == ["t1 = tanh(net.bias + x @ transpose(net.weight, 0, 1))", "t2 = t1*(1 - t1**2)",
                         "dloss/dnet.weight = transpose(t2, 0, 1) @ x"]
    assert "dloss/dnet.bias = sum(t2, 0)" in lines
