"""The differential tester's rules of session 33: ``vml-downstream`` through an in-place op's aliases,
and ``unpool-shared-places`` (tools/difftest_unpool.py)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import difftest  # noqa: E402


@pytest.mark.torch
def test_an_inplace_value_after_an_inplace_vml_atan_is_documented_when_agrads_atan_explains_it():
    """float32 atan is MKL VML's in PyTorch, an ulp from the correctly rounded value at -1.5
    (dt20k-32 numeric:polygamma_): trigamma near its pole magnifies it; the in-place polygamma_
    changes the tensor and its aliases, each of them what PyTorch gives from agrad's atan."""
    torch = pytest.importorskip("torch")
    import agrad

    lines = ["x8 = torch.tensor([[-1.5]], dtype=torch.float32)", "v9 = x8.transpose(0, -1)",
             "r12 = torch.arctan_(v9)", "r17 = r12.polygamma_(1)"]
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    aspect, _ = difftest.compare_statement(want[3], got[3])
    assert aspect in ("value", "numeric")

    def documented(lines, got_3):
        return difftest.difftest_lapack.explained(lines, 3, got[:3] + [got_3], want[3], got_3, difftest.op_of,
                                                  difftest.difftest_lapack.VML_OPS, difftest.compare_desc,
                                                  difftest._agree_once)
    assert documented(lines, got[3])
    own = copy.deepcopy(got[3])
    own["vars"]["x8"]["data"] = own["vars"]["x8"]["data"] * np.float32(1 + 1e-4)
    assert not documented(lines, own)  # an alias off on its own
    assert not documented(lines[:2] + ["r12 = torch.exp2_(v9)", lines[3]], got[3])  # not VML's


@pytest.mark.torch
def test_unpool_values_differ_only_where_indices_share_a_place():
    """max_unpool with repeated in-range indices: which value stays in a shared place is the threads'
    timing in PyTorch (dt20k-32 value:max_unpool2d, 0.25 in one run, 0.5 in the next); a difference
    elsewhere, or with unique indices, is not covered."""
    torch = pytest.importorskip("torch")

    lines = ["x2 = torch.tensor([[[-2.25], [0.5], [2.25]], [[1.0], [1.0], [0.25]]], requires_grad=True)",
             "v3 = x2.transpose(0, -1)",
             "r5 = F.max_unpool2d(v3, torch.tensor([[[0, -1], [1, -1], [4, -2]]]).clamp(0, 0), 3)"]
    want = difftest.run_program(torch, lines)
    got = copy.deepcopy(want)
    data = got[2]["vars"]["r5"]["data"].copy()
    data[0, 0, 0] = -2.25 if data[0, 0, 0] != -2.25 else 1.0
    got[2]["vars"]["r5"]["data"] = data
    aspect, _ = difftest.compare_statement(want[2], got[2])
    assert aspect == "value"
    assert difftest.documented(aspect, lines[2], want[2], got[2], (lines, want, 2)) == "unpool-shared-places"
    elsewhere = copy.deepcopy(got[2])
    elsewhere["vars"]["r5"]["data"][0, 1, 1] = 3.0
    assert difftest.documented(aspect, lines[2], want[2], elsewhere, (lines, want, 2)) is None
    unique = lines[:2] + ["r5 = F.max_unpool2d(v3, torch.tensor([[[0, 1], [2, 3], [4, 5]]]), 3)"]
    want_u = difftest.run_program(torch, unique)
    got_u = copy.deepcopy(want_u)
    got_u[2]["vars"]["r5"]["data"] = got_u[2]["vars"]["r5"]["data"] + 1
    assert difftest.documented("value", unique[2], want_u[2], got_u[2], (unique, want_u, 2)) is None


@pytest.mark.torch
def test_signbit_differs_only_at_nan_operands_is_documented():
    """Which operand's NaN a two-NaN op passes on is PyTorch's compiled kernel's (dt20k-32 value:signbit
    after binary_cross_entropy_with_logits of a NaN): a signbit/copysign differing only where the operand
    whose sign it reads is NaN is nan-sign; a difference elsewhere is not."""
    torch = pytest.importorskip("torch")

    lines = ["x = torch.tensor([float('nan'), -1.5, 0.0, -float('nan')])", "r = torch.signbit(x)"]
    want = difftest.run_program(torch, lines)
    got = copy.deepcopy(want)
    got[1]["vars"]["r"]["data"] = np.array([True, True, False, False])
    aspect, _ = difftest.compare_statement(want[1], got[1])
    assert aspect == "value"
    assert difftest.documented(aspect, lines[1], want[1], got[1], (lines, want, 1)) == "nan-sign"
    method = [lines[0], "r = x.signbit()"]
    assert difftest.documented(aspect, method[1], want[1], got[1], (method, want, 1)) == "nan-sign"
    wrong = copy.deepcopy(got[1])
    wrong["vars"]["r"]["data"] = np.array([True, False, False, False])
    assert difftest.documented(aspect, lines[1], want[1], wrong, (lines, want, 1)) is None
    cs = ["x = torch.tensor([float('nan'), -1.5, 0.0, -float('nan')])", "r = torch.copysign(torch.ones(4), x)"]
    want_c = difftest.run_program(torch, cs)
    got_c = copy.deepcopy(want_c)
    got_c[1]["vars"]["r"]["data"] = np.array([-1.0, -1.0, 1.0, 1.0], np.float32)
    assert difftest.documented("value", cs[1], want_c[1], got_c[1], (cs, want_c, 1)) == "nan-sign"
    got_c[1]["vars"]["r"]["data"] = np.array([1.0, 1.0, 1.0, -1.0], np.float32)
    assert difftest.documented("value", cs[1], want_c[1], got_c[1], (cs, want_c, 1)) is None


@pytest.mark.torch
def test_a_layout_read_of_an_empty_tensor_agrees():
    """An empty tensor carries PyTorch's strides (dt20k-33 raises-only-agrad:dim_order was the rule
    empty-layout, now removed): expand's 0 on an empty tensor reads as PyTorch's, and the tester
    compares the strides of empty tensors (a contiguous stand-in for them would differ)."""
    torch = pytest.importorskip("torch")
    import agrad

    lines = ["x2 = torch.zeros(0, dtype=torch.int64)", "v3 = x2.expand(2, 0)", "r8 = v3.dim_order(ambiguity_check=True)",
             "w = torch.zeros(0, 3).t()[::2]"]
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    assert [difftest.compare_statement(w, g) for w, g in zip(want, got)] == [None] * 4
    assert want[3]["vars"]["w"]["stride"] == [2, 3]
    got[3]["vars"]["w"]["stride"] = [1, 2]
    assert difftest.compare_statement(want[3], got[3])[0] == "stride"


@pytest.mark.torch
def test_lstsq_differing_only_in_zero_signs_is_documented():
    """MKL's gelsy orders its steps its own way (dt20k-31 repr:lstsq): a solution whose zeros' signs
    alone differ is lstsq-zero-signs; a value differing past the tolerance is not."""
    torch = pytest.importorskip("torch")

    lines = ["a = torch.tensor([[-1.0, -2.0, -1.5]], dtype=torch.float64)",
             "r = torch.linalg.lstsq(a, torch.tensor([[-1.5, -2.25, -0.0]], dtype=torch.float64), 0.5)"]
    want = difftest.run_program(torch, lines)
    got = copy.deepcopy(want)
    sol = got[1]["vars"]["r"]["items"][0]
    sol["data"] = np.where(sol["data"] == 0, np.copysign(0.0, -np.copysign(1.0, sol["data"])), sol["data"])
    sol["repr"] = sol["repr"] + " "
    got[1]["vars"]["r"]["repr"] = got[1]["vars"]["r"]["repr"] + " "
    aspect, _ = difftest.compare_statement(want[1], got[1])
    assert aspect in ("repr", "value")
    assert difftest.documented(aspect, lines[1], want[1], got[1], (lines, want, 1)) == "lstsq-zero-signs"
    off = copy.deepcopy(got[1])
    off["vars"]["r"]["items"][0]["data"] = off["vars"]["r"]["items"][0]["data"] + 0.5
    assert difftest.documented("value", lines[1], want[1], off, (lines, want, 1)) is None


@pytest.mark.torch
def test_a_zero_sign_of_a_gelu_given_to_onednn_agrees_and_the_rule_stays_narrow():
    """oneDNN's float32 gelu gives 0. far below zero (dt20k-33 repr:gelu); agrad gives the same since
    session 35 (d4428c4), so the program agrees. The rule gelu-onednn still names a result within
    oneDNN's erf of a call PyTorch hands to oneDNN, and not a one-element gelu (PyTorch's own kernel)."""
    torch = pytest.importorskip("torch")
    import agrad

    lines = ["x3 = torch.tensor([1.25, 2.75, -2.5], dtype=torch.float32)", "r4 = x3.sinh()", "r6 = F.gelu(r4)"]
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    assert difftest.compare_statement(want[2], got[2]) is None
    assert str(want[2]["vars"]["r6"]["data"][2]) == "0.0" and not np.signbit(got[2]["vars"]["r6"]["data"][2])
    flipped = copy.deepcopy(got[2])
    flipped["vars"]["r6"]["data"][2] = -0.0  # PyTorch's own kernel's zero: what agrad gave before
    flipped["vars"]["r6"]["repr"] = "tensor([1.5145, 7.7894, -0.0000])"
    aspect, _ = difftest.compare_statement(want[2], flipped)
    assert aspect == "repr"
    assert difftest.documented(aspect, lines[2], want[2], flipped, (lines, want, 2)) == "gelu-onednn"
    single = ["x3 = torch.tensor([-2.5], dtype=torch.float32)", "r4 = x3.sinh()", "r6 = F.gelu(r4)"]
    assert difftest.documented(aspect, single[2], want[2], flipped, (single, want, 2)) is None


def test_unpool_bad_index_named_differently_is_documented():
    """Several out-of-range indices: which one "Found an invalid max index" names is PyTorch's threads'
    race (275 of 300 runs the first half's, 25 the second's); the size must agree, and other texts count."""
    def obs(text):
        return {"error": ("RuntimeError", text), "warnings": [], "vars": {}}
    stmt = "r3 = F.max_unpool3d(v1, v2, 2)"
    want = obs("Found an invalid max index: 100 (output volumes are of size 4x4x4)")
    got = obs("Found an invalid max index: -1 (output volumes are of size 4x4x4)")
    assert difftest.documented("error-text", stmt, want, got) == "unpool-bad-index"
    other_size = obs("Found an invalid max index: -1 (output volumes are of size 4x5x4)")
    assert difftest.documented("error-text", stmt, want, other_size) is None
    assert difftest.documented("error-text", "r3 = F.max_pool3d(v1, 2)", want, got) is None
    assert difftest.documented("error-text", stmt, want, obs("something else")) is None
