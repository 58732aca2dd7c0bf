"""agrad eval: the target, the automatic backward pass, output and the table."""

from __future__ import annotations

import re

from .conftest import SEED, agrad, golden

ONE_LINER = ["eval", "-e", "loss = mean((x*w1+w2)*(x*w1*w3))", "--set", "x=ones(2,2)",
             "--param", "w1=2", "--param", "w2=3", "--param", "w3=4"]


def rows(stdout):
    """The tensor table as {name: {column: cell}}."""
    lines = [ln for ln in stdout.splitlines() if ln.strip()]
    start = next((i for i, ln in enumerate(lines) if ln.startswith("name ")), None)
    if start is None:
        return block_rows(lines)
    header = lines[start]
    cols = ["name", "shape", "dtype", "value", "requires_grad", "is_leaf", "grad_fn", "grad"]
    starts = [m.start() for m in re.finditer(r"\S+", header)]
    assert [m.group() for m in re.finditer(r"\S+", header)] == cols
    out = {}
    for ln in lines[start + 1:]:
        if ln.startswith("_ = "):
            continue
        cells = [ln[s:e].strip() for s, e in zip(starts, starts[1:] + [None])]
        out[cells[0]] = dict(zip(cols, cells))
    return out


BLOCK_HEAD = re.compile(r"^(\S+)  (\[[\d, ]*\]) (\S+)(.*)$")


def block_rows(lines):
    """The block-per-tensor layout (too narrow for the table) as {name: {column: cell}}."""
    out, cur = {}, None
    for ln in lines:
        m = BLOCK_HEAD.match(ln)
        if m:
            cur = out[m.group(1)] = {"name": m.group(1), "shape": m.group(2), "dtype": m.group(3)}
            rest = m.group(4)
        elif cur is not None and ln.startswith("    "):
            rest = ln[4:]
            for key in ("value ", "grad  "):
                if rest.startswith(key):
                    cur[key.strip()] = rest[len(key):].strip()
                    rest = ""
        else:
            continue
        for k, v in re.findall(r"(requires_grad|is_leaf|grad_fn)=(\S+)", rest):
            cur[k] = v
    return out


def test_one_liner_grads():
    r = agrad(*ONE_LINER, "--format", "text")
    assert r.code == 0
    t = rows(r.stdout)
    assert (t["w1"]["grad"], t["w2"]["grad"], t["w3"]["grad"]) == ("28.", "8.", "10.")
    assert t["loss"]["grad_fn"] == "MeanBackward0"
    assert t["x"]["requires_grad"] == "False"
    assert r.stderr.strip() == ("agrad: ran loss.backward() (loss: the last non-leaf scalar assigned "
                                "that requires grad; --no-backward skips it)")
    assert "agrad:" not in r.stdout


def test_one_liner_json():
    r = agrad(*ONE_LINER, "--format", "json")
    assert r.code == 0
    obj = r.json()
    assert obj["backward"] == {"auto": True, "of": "loss"}
    grads = {k: obj["variables"][k]["grad"] for k in ("w1", "w2", "w3")}
    assert grads == {"w1": 28.0, "w2": 8.0, "w3": 10.0}
    assert list(obj["variables"]) == ["x", "w1", "w2", "w3", "loss"]


def test_seed_golden(in_repo):
    r = agrad("eval", "examples/backward_experiment.py", "--format", "text")
    assert r.code == 0
    golden("eval_backward_experiment.stdout", r.stdout)
    golden("eval_backward_experiment.stderr", r.stderr)


def test_seed_prints_what_pytorch_prints(in_repo):
    r = agrad("eval", str(SEED), "--format", "text")
    out = r.stdout.splitlines()
    assert out[:4] == ["True True True", "None None None", "None None None", "False False False False"]
    assert out[6] == "tensor(28.) tensor(8.) tensor(10.)"
    assert r.stderr.count("UserWarning: The .grad attribute of a Tensor that is not a leaf") == 2


# -- the automatic-backward rule (SPEC §3) --------------------------------------------

def test_auto_backward_without_backward():
    r = agrad("eval", "--format", "json", "-e", "w = tensor(2.0, requires_grad=True)",
              "-e", "loss = (w*w).sum()")
    obj = r.json()
    assert obj["ok"] is True
    assert obj["backward"] == {"auto": True, "of": "loss"}
    assert obj["variables"]["w"]["grad"] == 4.0
    assert "ran loss.backward()" in r.stderr


def test_no_auto_backward_when_script_runs_its_own():
    code = "w = tensor(2.0, requires_grad=True)\nloss = w * 3\nloss.backward()\n"
    r = agrad("eval", "-", "--format", "json", input=code)
    obj = r.json()
    assert obj["backward"] is None
    assert obj["variables"]["w"]["grad"] == 3.0  # once, not twice
    assert r.stderr == ""  # agrad ran no backward: nothing to say


def test_no_auto_backward_after_autograd_grad():
    code = ("w = tensor(2.0, requires_grad=True)\nloss = w * w\n"
            "(g,) = torch.autograd.grad(loss, w)\nz = g * 1\n")
    r = agrad("eval", "-", "--format", "json", input=code)
    obj = r.json()
    assert obj["ok"], obj["error"]
    assert obj["backward"] is None
    assert obj["variables"]["w"]["grad"] is None
    assert obj["variables"]["g"]["value"] == 4.0
    assert r.stderr == ""


def test_non_scalar_target_explains():
    r = agrad("eval", "--format", "json", "-e", "x = ones(3, requires_grad=True)", "-e", "y = x * 2")
    obj = r.json()
    assert obj["ok"] is True
    assert obj["backward"] is None
    assert obj["variables"]["x"]["grad"] is None
    assert "y has shape [3]" in r.stderr and "y.sum()" in r.stderr
    assert "--of" not in r.stderr  # no other scalar to suggest


def test_of_picks_the_target():
    code = "x = ones(3, requires_grad=True)\ns = (x * 2).sum()\ny = x * 5\n"
    r = agrad("eval", "-", "--of", "s", "--format", "json", input=code)
    obj = r.json()
    assert obj["backward"] == {"auto": True, "of": "s"}
    assert obj["variables"]["x"]["grad"] == [2.0, 2.0, 2.0]


def test_of_unknown_name_is_usage_error():
    r = agrad("eval", "-e", "x = ones(2)", "--of", "nope", "--format", "text")
    assert r.code == 2
    assert r.stdout == ""
    assert "--of nope" in r.stderr and "x" in r.stderr


def test_no_backward_flag():
    r = agrad(*ONE_LINER, "--no-backward", "--format", "json")
    obj = r.json()
    assert obj["backward"] is None
    assert obj["variables"]["w1"]["grad"] is None
    assert "--no-backward" in r.stderr


def test_target_not_requiring_grad():
    r = agrad("eval", "-e", "y = ones(2) * 3", "--format", "json")
    assert r.json()["backward"] is None
    assert "y does not require grad" in r.stderr


def test_trailing_expression_is_underscore_and_target():
    code = "a = tensor([1.0, 3.0], requires_grad=True)\n(a * a).sum()\n"
    r = agrad("eval", "-", "--format", "json", input=code)
    obj = r.json()
    assert obj["backward"] == {"auto": True, "of": "_"}
    assert obj["variables"]["_"]["grad_fn"] == "SumBackward0"
    assert obj["variables"]["a"]["grad"] == [2.0, 6.0]
    assert obj["stdout"] == ""  # the bare expression is not printed


def test_trailing_non_tensor_expression_shown():
    r = agrad("eval", "--format", "text", "-e", "a = ones(2)", "-e", "a.shape")
    assert r.code == 0
    assert r.stdout.splitlines()[-1] == "_ = torch.Size([2])"


def test_script_output_then_table():
    r = agrad("eval", "--format", "text", "-e", "a = tensor([1.0, 2.0])", "-e", "print(a)")
    lines = r.stdout.splitlines()
    assert lines[0] == "tensor([1., 2.])"
    assert lines[1] == ""
    assert lines[2].split() == ["name", "shape", "dtype", "value", "requires_grad", "is_leaf",
                                "grad_fn", "grad"]
    assert lines[3].split()[:4] == ["a", "[2]", "float32", "[1.,"]


def test_hook_output_during_automatic_backward():
    code = ("x = tensor(2.0, requires_grad=True)\ny = x * x\n"
            "h = y.register_hook(lambda g: print('y grad:', g))\nloss = y * 3\n")
    r = agrad("eval", "-", "--format", "json", input=code)
    obj = r.json()
    assert obj["stdout"] == "y grad: tensor(3.)\n"
    assert obj["variables"]["x"]["grad"] == 12.0


def test_large_values_abbreviated():
    r = agrad("eval", "--format", "text", "-e", "big = arange(100000.)")
    t = rows(r.stdout)
    assert len(t["big"]["value"]) < 60
    assert "..." in t["big"]["value"]


def test_dtype_and_seed():
    r1 = agrad("eval", "--format", "json", "--seed", "3", "--dtype", "float64", "-e", "r = rand(3)")
    r2 = agrad("eval", "--format", "json", "--seed", "3", "--dtype", "float64", "-e", "r = rand(3)")
    v1, v2 = r1.json()["variables"]["r"], r2.json()["variables"]["r"]
    assert v1["dtype"] == "float64"
    assert v1["value"] == v2["value"]
    # the default dtype is back to float32 after the run
    assert agrad("eval", "--format", "json", "-e", "r = rand(1)").json()["variables"]["r"]["dtype"] == "float32"


def test_max_elements_limit():
    r = agrad("eval", "--max-elements", "10", "--format", "json", "-e", "x = ones(100)")
    obj = r.json()
    assert r.code == 1
    assert obj["ok"] is False
    assert "--max-elements" in obj["error"]["message"]


def test_timeout():
    r = agrad("eval", "--timeout", "0.5", "--format", "json", "-e", "i = 0", "-e",
              "while True:\n    i = i + 1")
    assert r.code == 1
    obj = r.json()
    assert obj["error"]["type"] == "TimeoutError"


def test_sources_then_exprs_in_order(tmp_path):
    f = tmp_path / "first.py"
    f.write_text("a = tensor(1.0)\nprint('file')\n")
    r = agrad("eval", f, "-e", "print('expr', a)", "--format", "json")
    obj = r.json()
    assert obj["stdout"] == "file\nexpr tensor(1.)\n"


def test_rich_format_plain_console(monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    r = agrad(*ONE_LINER, "--format", "rich")
    assert r.code == 0
    assert "\x1b[" not in r.stdout  # not a terminal: rich writes no colour codes
    assert "MeanBackward0" in r.stdout and "28." in r.stdout


def test_text_format_has_no_escape_codes():
    r = agrad(*ONE_LINER, "--format", "text")
    assert "\x1b" not in r.stdout and "\x1b" not in r.stderr


def test_auto_is_text_when_piped():
    r = agrad(*ONE_LINER)
    assert r.stdout == agrad(*ONE_LINER, "--format", "text").stdout


# ------------------------------------------------------------------ the target rule

TRAIN = """\
x = ones(4, 3)
w1 = ones(3, 2, requires_grad=True)
w2 = ones(2, 1, requires_grad=True)
for step in range(3):
    out = (x @ w1).relu() @ w2
    loss = (out ** 2).mean()
    loss.backward()
    with no_grad():
        w1 -= 0.01 * w1.grad
        w2 -= 0.01 * w2.grad
        w1.grad.zero_()
        w2.grad.zero_()
    d = w2
"""


def test_target_is_the_last_backward_root():
    # the last tensor assigned is the parameter d; the script called loss.backward()
    for cmd in ("graph", "check"):
        r = agrad(cmd, "-", "--format", "text", input=TRAIN)
        assert r.code == 0, r.stderr
        assert "agrad: target loss: the script's last backward pass started from it" in r.stderr
    r = agrad("graph", "-", "--format", "json", input=TRAIN)
    assert r.json()["target"] == "loss" and r.json()["nodes"][0]["name"] == "MeanBackward0"


def test_target_is_the_root_of_autograd_grad():
    code = ("w = tensor(2.0, requires_grad=True)\nf = w ** 3\ng, = torch.autograd.grad(f, w, create_graph=True)\n"
            "h = w * 5\n")
    r = agrad("graph", "-", "--format", "json", input=code)
    assert r.json()["target"] == "f"


def test_target_is_the_last_non_leaf_scalar_without_backward():
    code = "a = ones(2, requires_grad=True)\nloss = (a * 2).sum()\ny = a * 3\nb = ones(2, requires_grad=True)\n"
    r = agrad("eval", "-", "--format", "json", input=code)
    assert r.json()["backward"] == {"auto": True, "of": "loss"}
    assert "loss: the last non-leaf scalar assigned that requires grad" in r.stderr
    r = agrad("graph", "-", "--format", "text", input=code)
    assert r.stdout.startswith("#0 SumBackward0")


def test_target_falls_back_to_the_last_tensor():
    r = agrad("graph", "-e", "a = ones(2, requires_grad=True)", "-e", "y = a * 3", "--format", "text")
    assert "agrad: target y: the last tensor assigned" in r.stderr
    r = agrad("graph", "-e", "a = ones(2, requires_grad=True)", "-e", "a * 3", "--format", "text")
    assert "agrad: target _: the script's closing expression" in r.stderr


def test_of_skips_the_note_and_leaf_messages_suggest_candidates():
    r = agrad("graph", "-", "--of", "loss", "--format", "text", input=TRAIN)
    assert "agrad: target" not in r.stderr
    r = agrad("check", "-", "--of", "w2", "--format", "text", input=TRAIN)
    assert r.code == 2
    assert "w2 is a leaf: there is no graph to check; pass --of NAME (loss)" in r.stderr
    r = agrad("graph", "-", "--of", "d", "--format", "text", input=TRAIN)
    assert r.code == 0 and r.stdout.startswith("#0 AccumulateGrad")
    r = agrad("eval", "-e", "y = ones(3, requires_grad=True) * 2", "-e", "s = y.sum()", "-e", "z = y * 2",
              "--of", "z", "--format", "text")
    assert "z has shape [3], and backward() needs a scalar; pass --of NAME (s), or reduce it (z.sum())" \
        in r.stderr
