"""Version timelines (issue 14): which statement made each version of a tensor modified in
place, which saved tensors expect which version, and in-place errors that name the statement."""

from __future__ import annotations

import pytest

from .conftest import agrad

CODE = ("a = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "b = a * 1\n"
        "c = b.sin()\n"
        "b.add_(1)\n"
        "b[0] = 5\n"
        "d = (c * b).sum()\n")


def test_error_names_the_statement_that_broke_it(in_repo):
    r = agrad("eval", "examples/inplace_error.py", "--format", "text")
    assert r.code == 1
    assert ("agrad: the tensor saved as other of MulBackward0 was modified in place by "
            "b[0] = 1000.0 at examples/inplace_error.py:9:1, which made version 1.") in r.stderr
    err = agrad("eval", "examples/inplace_error.py", "--format", "json").json()["error"]
    assert err["message"].startswith("one of the variables needed for gradient computation has been "
                                     "modified by an inplace operation")  # PyTorch's message first
    assert "b[0] = 1000.0 at examples/inplace_error.py:9:1" in err["message"]


def test_error_names_the_first_of_several_bumps():
    r = agrad("eval", "-", "--format", "json", input=CODE + "c.sum().backward()\n")
    msg = r.json()["error"]["message"]
    assert "is at version 2; expected version 0" in msg
    assert msg.endswith("agrad: the tensor saved as self of SinBackward0 was modified in place by "
                        "b.add_(1) at <stdin>:4:1, which made version 1 (now at version 2).")


def test_error_of_the_automatic_backward_names_it_too():
    code = CODE.replace("d = (c * b).sum()", "loss = c.sum()")
    r = agrad("eval", "-", "--format", "json", input=code)
    assert r.code == 1
    assert "b.add_(1) at <stdin>:4:1" in r.json()["error"]["message"]


def test_scripts_see_pytorchs_exception_only():
    code = CODE + ("try:\n    c.sum().backward()\nexcept RuntimeError as e:\n"
                   "    print(str(e).endswith('check_nan=False).'))\n    print(e.agrad_stale)\n")
    r = agrad("eval", "-", "--format", "json", input=code)
    obj = r.json()
    assert obj["stdout"] == "True\n"  # the script's exception is PyTorch's, untouched
    assert obj["error"]["type"] == "AttributeError"  # the tool's note is not reachable


def test_graph_versions_json():
    obj = agrad("graph", "-", "--versions", "--format", "json", input=CODE).json()
    (rec,) = obj["versions"]
    assert (rec["tensor"], rec["shape"], rec["dtype"], rec["version"]) == ("b", [2], "float32", 2)
    assert [(h["version"], h["line"], h["column"], h["text"]) for h in rec["history"]] == [
        (1, 4, 1, "b.add_(1)"), (2, 5, 1, "b[0] = 5")]
    ids = {n["id"]: n["name"] for n in obj["nodes"]}
    saved = {(s["node"], s["slot"]): s for s in rec["saved"]}
    sin = saved[("SinBackward0", "self")]
    assert (sin["expected"], sin["stale"]) == (0, True) and ids[sin["id"]] == "SinBackward0"
    mul = saved[("MulBackward0", "other")]
    assert (mul["expected"], mul["stale"]) == (2, False)


def test_graph_versions_text_and_width():
    r = agrad("graph", "-", "--versions", "--format", "text", input=CODE)
    assert r.code == 0
    section = r.stdout.split("versions: tensors modified in place\n")[1].splitlines()
    assert section[0] == "b  [2] float32  version 2"
    assert section[1] == "    version 1  b.add_(1)  <stdin>:4:1"
    assert section[2] == "    version 2  b[0] = 5  <stdin>:5:1"
    assert any("SinBackward0: expects version 0  stale" in ln for ln in section)
    for width in (30, 60):
        r = agrad("graph", "-", "--versions", "--format", "text", "--columns", width, input=CODE)
        assert all(len(ln) <= width for ln in r.stdout.splitlines())
    plain = agrad("graph", "-", "--format", "text", input=CODE)
    assert "versions:" not in plain.stdout


def test_optimizer_steps_collapse_into_one_line():
    code = ("w = torch.ones(2, requires_grad=True)\n"
            "opt = torch.optim.SGD([w], lr=0.1)\n"
            "for i in range(5):\n"
            "    opt.zero_grad()\n"
            "    loss = (w * w).sum()\n"
            "    loss.backward()\n"
            "    opt.step()\n")
    r = agrad("graph", "-", "--versions", "--format", "text", input=code)
    section = r.stdout.split("versions: tensors modified in place\n")[1].splitlines()
    assert section[0].startswith("w  [2] float32  version 5")
    assert section[1].startswith("    versions 1–5  opt.step()  <stdin>:7:5")


def test_no_in_place_change_is_a_note():
    r = agrad("graph", "-e", "x = torch.ones(2, requires_grad=True)", "-e", "y = (x * 2).sum()",
              "--versions", "--format", "text")
    assert r.code == 0 and "no tensor was modified in place" in r.stderr
    obj = agrad("graph", "-e", "x = torch.ones(2, requires_grad=True)", "-e", "y = (x * 2).sum()",
                "--versions", "--format", "json").json()
    assert obj["versions"] == []


def test_trace_has_a_versions_section():
    code = CODE.replace("b[0] = 5\n", "")
    obj = agrad("trace", "-", "--format", "json", input=code + "d.backward()\n").json()
    assert obj["error"]["type"] == "RuntimeError"
    (rec,) = obj["versions"]
    assert [h["text"] for h in rec["history"]] == ["b.add_(1)"]
    sin = [s for s in obj["steps"] if s["node"] == "SinBackward0"][0]
    assert sin["saved"][0]["version"] == 0 and sin["saved"][0]["version_now"] == 1
    r = agrad("trace", "-", "--format", "text", input=code + "d.backward()\n")
    assert "raised: a saved tensor was modified in place" in r.stdout
    assert "versions: tensors modified in place" in r.stdout


@pytest.mark.parametrize("fmt", ("rich", "text"))
def test_rich_and_text_agree(fmt):
    r = agrad("graph", "-", "--versions", "--format", fmt, "--no-color", input=CODE)
    assert "version 1  b.add_(1)  <stdin>:4:1" in r.stdout


def test_graph_versions_after_the_error(in_repo):
    r = agrad("graph", "examples/inplace_error.py", "--versions", "--format", "text", "-q")
    assert r.code == 1
    assert r.stdout.splitlines()[1:5] == [
        "versions: tensors modified in place",
        "b  [2] float32  version 1",
        "    version 1  b[0] = 1000.0  examples/inplace_error.py:9:1",
        "    saved as self of MulBackward0: expects version 0  stale",
    ]
    obj = agrad("graph", "examples/inplace_error.py", "--versions", "--format", "json").json()
    assert obj["error"]["type"] == "RuntimeError"
    assert obj["versions"][0]["saved"][0]["id"] is None
