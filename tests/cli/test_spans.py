"""Sub-expression origins: a node made by part of a line points to that part."""

from .conftest import agrad

CUSTOM = """\
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        y = x * x
        return y
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
def f(a):
    return a.exp() * 2
x = torch.tensor([1.0, 2.0], requires_grad=True)
for i in range(2):
    x2 = x[i:]
x3 = x2 * 1
x3 += 1
z = (Sq.apply(x) + f(x)).sum()
"""


def _nodes(code, *args):
    r = agrad("graph", "-", "--format", "json", *args, input=code)
    assert r.code == 0, r.stderr
    return {n["name"]: n for n in r.json()["nodes"]}


def test_one_line_expression_spans():
    code = ("x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
            "w1 = torch.ones(2, requires_grad=True)\n"
            "y = ((x*w1).relu() + x.exp()).sum()\n")
    nodes = _nodes(code)
    line = code.splitlines()[2]
    spans = {name: n["span"] for name, n in nodes.items()}
    assert spans["MulBackward0"] == [3, 7, 11]
    for name, text in [("MulBackward0", "x*w1"), ("ReluBackward0", "(x*w1).relu()"),
                       ("ExpBackward0", "x.exp()"), ("AddBackward0", "(x*w1).relu() + x.exp()"),
                       ("SumBackward0", "((x*w1).relu() + x.exp()).sum()")]:
        _, c0, c1 = spans[name]
        assert line[c0 - 1:c1 - 1] == text
    assert spans["AccumulateGrad"] is None
    assert nodes["SumBackward0"]["source"] == "<stdin>:3"
    r = agrad("graph", "-", "--format", "text", input=code)
    assert "↳ #3 MulBackward0  [2] float32  x*w1  <stdin>:3:7" in r.stdout
    assert "#6 ExpBackward0  [2] float32  x.exp()  <stdin>:3:22" in r.stdout


def test_spans_in_functions_custom_functions_loops_and_statements():
    lines = CUSTOM.splitlines()
    nodes = _nodes(CUSTOM)
    # the custom Function's node is made by the call, not by the last op of forward
    assert nodes["SqBackward"]["span"] == [18, 6, 17]
    # inside a function: the line in the function
    assert nodes["MulBackward0"]["span"] == [12, 12, 23]
    assert nodes["ExpBackward0"]["span"] == [12, 12, 19]
    assert lines[11][11:18] == "a.exp()"
    # an in-place statement: the whole statement
    nodes = _nodes(CUSTOM, "--of", "x3")
    assert nodes["AddBackward0"]["span"] == [17, 1, 8]
    assert nodes["SliceBackward0"]["span"] == [15, 10, 15]
    assert lines[14][9:14] == "x[i:]"


def test_span_of_a_node_made_after_a_call_returns():
    # the op after a script-function call is blamed on its own expression,
    # not on the last expression inside the function
    code = ("def g(t):\n    return t * 3\n"
            "x = torch.tensor(1.0, requires_grad=True)\n"
            "y = g(x) - x\n")
    nodes = _nodes(code)
    assert nodes["SubBackward0"]["span"] == [4, 5, 13]
    assert nodes["MulBackward0"]["span"] == [2, 12, 17]
