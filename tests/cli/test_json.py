"""--format json: SPEC §3's contract, field by field, for every kind of outcome."""

from __future__ import annotations

import json

import pytest

from .conftest import agrad

EVAL_KEYS = ["ok", "stdout", "warnings", "backward", "variables", "error"]
ERROR_KEYS = {"type", "message", "source", "line", "column"}
TENSOR_KEYS = ["kind", "shape", "dtype", "value", "requires_grad", "is_leaf", "grad_fn", "grad",
               "version"]


def one_object(stdout: str) -> dict:
    """Exactly one JSON object, and nothing else, on standard output."""
    obj, end = json.JSONDecoder().raw_decode(stdout)
    assert stdout[end:].strip() == ""
    assert isinstance(obj, dict)
    return obj


def test_success_fields():
    code = ("w1 = tensor(2.0, requires_grad=True)\n"
            "n = 3\nf = 0.5\nflag = True\ns = 'hi'\nnothing = None\n"
            "pair = (w1, 1)\nitems = [1, 2.5]\nd = {'a': 1}\nsize = w1.shape\ndt = w1.dtype\n"
            "h = w1.register_hook(lambda g: None)\n"
            "def fn(x):\n    return x\n"
            "import math\n"
            "ints = tensor([1, 2])\nmask = tensor([True, False])\n"
            "bad = tensor([float('nan'), float('inf'), -float('inf')])\n"
            "print(w1)\n"
            "loss = w1 * 14\n")
    r = agrad("eval", "-", "--format", "json", input=code)
    assert r.code == 0
    obj = one_object(r.stdout)
    assert list(obj) == EVAL_KEYS
    assert obj["ok"] is True
    assert obj["stdout"] == "tensor(2., requires_grad=True)\n"
    assert obj["warnings"] == []
    assert obj["backward"] == {"auto": True, "of": "loss"}
    assert obj["error"] is None
    v = obj["variables"]
    assert list(v) == ["w1", "n", "f", "flag", "s", "nothing", "pair", "items", "d", "size", "dt",
                       "h", "ints", "mask", "bad", "loss"]  # no functions, no modules
    assert v["w1"] == {"kind": "tensor", "shape": [], "dtype": "float32", "value": 2.0,
                       "requires_grad": True, "is_leaf": True, "grad_fn": None, "grad": 14.0,
                       "version": 0}
    assert list(v["loss"]) == TENSOR_KEYS
    assert v["loss"]["grad_fn"] == "MulBackward0" and v["loss"]["grad"] is None
    assert v["n"] == {"kind": "int", "value": 3}
    assert v["f"] == {"kind": "float", "value": 0.5}
    assert v["flag"] == {"kind": "bool", "value": True}
    assert v["s"] == {"kind": "str", "value": "hi"}
    assert v["nothing"] == {"kind": "none"}
    assert v["pair"]["kind"] == "tuple"
    assert v["pair"]["items"][0]["kind"] == "tensor" and v["pair"]["items"][1] == {"kind": "int", "value": 1}
    assert v["items"] == {"kind": "list", "items": [{"kind": "int", "value": 1},
                                                    {"kind": "float", "value": 2.5}]}
    assert v["d"] == {"kind": "dict", "items": {"a": {"kind": "int", "value": 1}}}
    assert v["size"] == {"kind": "size", "value": []}
    assert v["dt"] == {"kind": "dtype", "value": "float32"}
    assert v["h"]["kind"] == "object" and "RemovableHandle" in v["h"]["repr"]
    assert v["ints"]["value"] == [1, 2] and v["ints"]["dtype"] == "int64"
    assert v["mask"]["value"] == [True, False]
    assert v["bad"]["value"] == ["nan", "inf", "-inf"]


def test_runtime_error_fields(in_repo):
    r = agrad("eval", "examples/inplace_error.py", "--format", "json")
    assert r.code == 1
    obj = one_object(r.stdout)
    assert list(obj) == EVAL_KEYS
    assert obj["ok"] is False
    assert obj["stdout"] == "0\n1\n"  # what the script printed before it failed
    assert obj["backward"] is None
    assert list(obj["variables"]) == ["a", "b", "loss"]
    assert obj["variables"]["b"]["version"] == 1
    err = obj["error"]
    assert set(err) == ERROR_KEYS
    assert err["type"] == "RuntimeError"
    assert err["message"].startswith("one of the variables needed for gradient computation has been "
                                     "modified by an inplace operation")
    assert err["source"] == "examples/inplace_error.py"
    assert err["line"] == 11 and err["column"] == 1
    assert r.stderr == ""  # nothing else: the JSON says it all


def test_syntax_error_fields():
    r = agrad("eval", "-", "--format", "json", input="x = 1\ny = = 2\n")
    assert r.code == 2
    obj = one_object(r.stdout)
    assert list(obj) == EVAL_KEYS
    assert obj["ok"] is False and obj["variables"] == {} and obj["stdout"] == ""
    err = obj["error"]
    assert set(err) == ERROR_KEYS
    assert err["type"] == "SyntaxError"
    assert (err["source"], err["line"], err["column"]) == ("<stdin>", 2, 5)


def test_usage_error_fields():
    r = agrad("eval", "--format", "json", "--bogus")
    assert r.code == 2
    obj = one_object(r.stdout)
    assert list(obj) == EVAL_KEYS
    assert obj["ok"] is False
    err = obj["error"]
    assert set(err) == ERROR_KEYS
    assert err["type"] == "UsageError" and "--bogus" in err["message"]
    assert err["source"] is None and err["line"] is None and err["column"] is None


def test_usage_error_bad_option_value():
    r = agrad("eval", "--format=json", "--seed", "notanint", "-e", "x = 1")
    assert r.code == 2
    assert one_object(r.stdout)["error"]["type"] == "UsageError"


def test_unknown_of_in_json():
    r = agrad("eval", "--format", "json", "-e", "x = ones(2)", "--of", "zz")
    assert r.code == 2
    err = one_object(r.stdout)["error"]
    assert err["type"] == "UsageError" and "zz" in err["message"]


def test_warnings_in_json(in_repo):
    r = agrad("eval", "examples/backward_experiment.py", "--format", "json")
    obj = one_object(r.stdout)
    assert len(obj["warnings"]) == 2
    first = obj["warnings"][0]
    assert set(first) == {"type", "message", "source", "line"}
    assert (first["type"], first["source"], first["line"]) == ("UserWarning", "examples/backward_experiment.py", 24)
    assert first["message"].startswith("The .grad attribute of a Tensor that is not a leaf Tensor")
    assert obj["variables"]["l1"]["grad"] is None


def test_graph_json_shape(in_repo):
    r = agrad("graph", "examples/backward_experiment.py", "--saved", "--grads", "--format", "json")
    obj = one_object(r.stdout)
    assert obj["ok"] is True and obj["target"] == "loss" and obj["root"] == 0 and obj["error"] is None
    nodes = obj["nodes"]
    assert [n["id"] for n in nodes] == list(range(8))
    root = nodes[0]
    assert root["name"] == "MeanBackward0" and root["shape"] == [] and root["dtype"] == "float32"
    assert root["var"] == "loss" and root["source"] == "examples/backward_experiment.py:16"
    assert root["leaf"] is None and root["saved"] == []
    assert root["grad"] == {"shape": [], "norm": 1.0, "min": 1.0, "max": 1.0, "nonfinite": False}
    mul = nodes[1]
    assert mul["saved"] == [
        {"name": "self", "shape": [2, 2], "dtype": "float32", "version": 0, "freed": True},
        {"name": "other", "shape": [2, 2], "dtype": "float32", "version": 0, "freed": True}]
    leaves = {n["leaf"]: n for n in nodes if n["name"] == "AccumulateGrad"}
    assert set(leaves) == {"w1", "w2", "w3"}
    assert leaves["w1"]["var"] == "w1" and leaves["w1"]["source"] == "examples/backward_experiment.py:9"
    assert leaves["w1"]["grad"]["max"] == 28.0
    for e in obj["edges"]:
        assert set(e) == {"from", "to", "input"}
    assert {"from": 0, "to": 1, "input": 0} in obj["edges"]
    r = agrad("graph", "examples/backward_experiment.py", "--format", "json")
    assert "saved" not in one_object(r.stdout)["nodes"][0]
    assert "grad" not in one_object(r.stdout)["nodes"][0]


@pytest.mark.parametrize("command,keys", [
    ("eval", EVAL_KEYS),
    ("graph", ["ok", "target", "root", "nodes", "edges", "groups", "error"]),
    ("check", ["ok", "target", "leaves", "error"]),
])
def test_errors_in_every_command(command, keys):
    for args, code, kind in [
        (["-e", "x = = 1"], 2, "SyntaxError"),
        (["-e", "x = undefined"], 1, "NameError"),
        (["--nope"], 2, "UsageError"),
        (["-e", "import os"], 1, "ImportError"),
    ]:
        r = agrad(command, "--format", "json", *args)
        assert r.code == code, (command, args, r.stdout, r.stderr)
        obj = one_object(r.stdout)
        assert list(obj) == keys
        assert obj["ok"] is False and obj["error"]["type"] == kind


def test_json_is_strict():
    r = agrad("eval", "--format", "json", "-e", "x = tensor(float('nan'))", "-e", "y = 1e308 * 10")
    obj = json.loads(r.stdout, parse_constant=lambda c: pytest.fail(f"non-standard {c}"))
    assert obj["variables"]["x"]["value"] == "nan"
    assert obj["variables"]["y"] == {"kind": "float", "value": "inf"}


def test_no_numpy_floating_point_warnings():
    # numpy's error state is per thread: the script's thread must not print "divide by zero"
    r = agrad("eval", "--format", "json", "-e", "y = torch.tensor([0., 1.]).log()\nz = torch.zeros(2) / 0")
    obj = one_object(r.stdout)
    assert obj["ok"] is True and obj["warnings"] == []
    assert obj["variables"]["y"]["value"] == ["-inf", 0.0]


SCALAR_WARNING = ("Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
                  "Consider using tensor.detach() first.")


@pytest.mark.parametrize("line, warns", [
    ("float(y)", True), ("complex(y)", True), ("math.sqrt(y)", True), ("'%f' % y", True),
    ("torch.tensor([y, 1.0])", True), ("torch.as_tensor([[y]])", True),
    ("int(y)", False), ("bool(y)", False), ("y.item()", False), ("y.tolist()", False),
    ("f'{y:.2f}'", False), ("float(y.detach())", False), ("torch.tensor([y.detach()])", False),
])
def test_scalar_conversion_of_a_tensor_that_requires_grad_warns_as_pytorch(line, warns):
    # PyTorch 2.13 (python_variable_methods.cpp): __float__ and __complex__ warn, once per process;
    # int(), bool(), item() do not
    code = f"import math\ny = tensor(2.0, requires_grad=True)\nv = {line}\nw = {line}\n"
    obj = agrad("eval", "-", "--format", "json", input=code).json()
    assert obj["ok"] is True
    assert obj["warnings"] == ([{"type": "UserWarning", "message": SCALAR_WARNING, "source": "<stdin>", "line": 3}]
                               if warns else [])


def test_scalar_conversion_warning_text(tmp_path):
    script = tmp_path / "s.py"
    script.write_text("import torch\ny = torch.ones((), requires_grad=True)\nprint(float(y * 2))\n")
    r = agrad("eval", "-q", "--no-table", script)
    assert r.code == 0 and r.stdout == "2.0\n"
    assert r.stderr == f"{script}:3: UserWarning: {SCALAR_WARNING}\n  print(float(y * 2))\n"  # (two spaces, as Python)


@pytest.mark.parametrize("data, dtype, error", [
    ("[torch.ones(2)]", "None", "ValueError: only one element tensors can be converted to Python scalars"),
    ("[torch.tensor(2.)]", "torch.int64", "TypeError: only integer tensors of a single element can be converted to an index"),
    ("[[torch.ones(1)]]", "torch.bool", "TypeError: only integer tensors of a single element can be converted to an index"),
])
def test_tensors_in_a_list_are_python_scalars(data, dtype, error):
    obj = agrad("eval", "-", "--format", "json", input=f"import torch\nt = torch.tensor({data}, dtype={dtype})\n").json()
    assert f'{obj["error"]["type"]}: {obj["error"]["message"]}' == error
