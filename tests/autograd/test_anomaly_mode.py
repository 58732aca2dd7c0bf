"""torch.autograd.detect_anomaly / set_detect_anomaly with PyTorch's behaviour and messages
(checked live in PyTorch 2.13: the NaN error names the node and the output index, with
"th" after any index; the mode is restored on exit; inf is not an anomaly)."""

from __future__ import annotations

import pytest

import agrad
from agrad.lang import Source, run

NAN_SQRT = ("a = torch.tensor([0.0, 1.0], requires_grad=True)\n"
            "c = a.sqrt() * 0\n")


def _run(text):
    agrad.set_anomaly_enabled(False)
    try:
        return run(Source("t.py", "import torch\n" + text), timeout=20)
    finally:
        agrad.set_anomaly_enabled(False)


def test_nan_in_a_backward_formula_raises_pytorchs_error():
    res = _run(NAN_SQRT + "with torch.autograd.detect_anomaly():\n    c.sum().backward()\n")
    assert res.error is not None
    assert res.error.type_name == "RuntimeError"
    assert res.error.message == "Function 'SqrtBackward0' returned nan values in its 0th output."
    assert res.error.line == 5
    assert any("Anomaly Detection has been enabled. This mode will increase the runtime and "
               "should only be enabled for debugging." in str(w) for w in res.warnings)


def test_without_the_mode_nan_flows_and_inf_never_raises():
    res = _run(NAN_SQRT + "c.sum().backward()\nprint(a.grad)\n"
               "b = torch.tensor([0.0], requires_grad=True)\n"
               "with torch.autograd.detect_anomaly():\n    b.sqrt().sum().backward()\nprint(b.grad)\n")
    assert res.error is None, res.error.render()
    assert res.stdout == "tensor([nan, 0.])\ntensor([inf])\n"


def test_index_of_the_output_and_custom_functions():
    text = ("class F(torch.autograd.Function):\n"
            "    @staticmethod\n"
            "    def forward(ctx, x, y):\n        return x * y\n"
            "    @staticmethod\n"
            "    def backward(ctx, g):\n        return g, g * float('nan')\n"
            "a = torch.tensor([1.0], requires_grad=True)\n"
            "torch.autograd.set_detect_anomaly(True)\n"
            "F.apply(a, a.clone()).sum().backward()\n")
    res = _run(text)
    assert res.error.message == "Function 'FBackward' returned nan values in its 1th output."


def test_set_detect_anomaly_and_check_nan_false():
    text = (NAN_SQRT + "print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())\n"
            "torch.autograd.set_detect_anomaly(True)\n"
            "print(torch.is_anomaly_enabled())\n"
            "with torch.autograd.set_detect_anomaly(False):\n    print(torch.is_anomaly_enabled())\n"
            "print(torch.is_anomaly_enabled())\n"
            "with torch.autograd.detect_anomaly(check_nan=False):\n"
            "    print(torch.is_anomaly_check_nan_enabled())\n    c.sum().backward()\n"
            "print(torch.is_anomaly_check_nan_enabled(), a.grad)\n")
    res = _run(text)
    assert res.error is None, res.error.render()
    assert res.stdout == "False True\nTrue\nFalse\nTrue\nFalse\nTrue tensor([nan, 0.])\n"


def test_decorator():
    text = (NAN_SQRT + "@torch.autograd.detect_anomaly()\ndef f():\n    c.sum().backward()\n"
            "try:\n    f()\nexcept RuntimeError as e:\n    print(e)\nprint(torch.is_anomaly_enabled())\n")
    res = _run(text)
    assert res.error is None, res.error.render()
    assert res.stdout == ("Function 'SqrtBackward0' returned nan values in its 0th output.\nFalse\n")


@pytest.mark.parametrize("attack", [
    "torch.autograd.detect_anomaly().__class__.__init__.__globals__",
    "torch.autograd.detect_anomaly().prev.__class__.__mro__",
    "torch.autograd.set_detect_anomaly(True).__exit__.__globals__",
    "torch.autograd.detect_anomaly.__call__.__globals__",
    "torch.is_anomaly_enabled.__globals__",
    "torch.autograd.anomaly_mode",
])
def test_anomaly_names_do_not_open_an_escape(attack, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = _run(attack + "\n")
    assert res.error is not None, f"not blocked: {attack!r}"
    assert res.error.type_name == "AttributeError", res.error.render()
    assert "Traceback" not in res.error.render()
