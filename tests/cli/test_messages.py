"""Messages point only at what agrad has: no look-alike for a PyTorch name agrad lacks."""

from __future__ import annotations

import pytest

from agrad.lang.safety import suggest, torch_names

from .conftest import agrad


@pytest.mark.parametrize("code,expected", [
    ("x = torch.stft", "module 'torch' has no attribute 'stft' (PyTorch has torch.stft; agrad does "
                       "not implement it)"),
    ("x = torch.quantize_per_tensor", "(PyTorch has torch.quantize_per_tensor; agrad does not"),
    ("from torch import stft", "cannot import name 'stft' from 'torch' (PyTorch has torch.stft;"),
    ("x = ones(2).to_sparse()", "'Tensor' object has no attribute 'to_sparse' (PyTorch has "
                                "Tensor.to_sparse;"),
    ("x = stft(1)", "name 'stft' is not defined (PyTorch has torch.stft;"),
    ("x = torch.onez(2)", "module 'torch' has no attribute 'onez'. Did you mean 'ones'?"),
    ("x = ones(2).sumx()", "'Tensor' object has no attribute 'sumx'. Did you mean 'sum'?"),
    ("x = torch.nn.functional.relux", "Did you mean 'relu'?"),
])
def test_missing_names(code, expected):
    r = agrad("eval", "-e", code, "--format", "text")
    assert r.code == 1
    assert expected in r.stderr
    assert "cummax" not in r.stderr and "'stack'" not in r.stderr


def test_suggestions_are_names_pytorch_has():
    assert torch_names("torch") and "cuda" in torch_names("torch")
    # torch.cuda is PyTorch's: never "Did you mean 'cummax'?"
    assert suggest("cuda", {"cummax", "cumsum"}, "torch").startswith(" (PyTorch has torch.cuda")
    # agrad-only helper names are never offered for a torch module
    assert suggest("lenght", {"length", "len"}, "torch") == ""
    assert suggest("onez", {"ones", "zeros"}, "torch") == ". Did you mean 'ones'?"
    assert suggest("lenght", {"length"}) == ". Did you mean 'length'?"  # no module: any name


def test_inplace_hint_names_only_what_agrad_has(in_repo):
    r = agrad("eval", "examples/inplace_error.py", "--format", "text")
    assert r.code == 1
    assert "set_detect_anomaly" not in r.stderr
    assert "Hint: look for an in-place operation on this tensor" in r.stderr
    obj = agrad("eval", "examples/inplace_error.py", "--format", "json").json()
    assert "set_detect_anomaly" not in obj["error"]["message"]


def test_import_error_lists_only_importable_modules():
    r = agrad("eval", "-e", "import torchvision", "--format", "text")
    listed = r.stderr.split("agrad scripts can import ")[1].split("\n")[0]
    listed = listed.replace(" and the standard modules ", ", ").replace(" and ", ", ")
    modules = [m.strip() for m in listed.split(",")]
    assert "torch.optim" in modules
    for m in modules:
        assert agrad("eval", "-e", f"import {m}", "--format", "json").json()["ok"], m
