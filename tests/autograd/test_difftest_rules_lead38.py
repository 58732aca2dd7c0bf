"""The differential tester's rule of session 38's lead: ``vml-storage-bytes`` (tools/difftest_storage.py),
an untyped storage's raw bytes rewritten by an MKL VML op in place."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import difftest  # noqa: E402

_X = ("x2 = torch.tensor([[0.75, -2.0, 2.75], [float('inf'), 1.75, -1.75], [1.0, -0.98, 0.25]], "
      "dtype=torch.float32)")


def _bytes_changed(desc, at, new):
    lines = desc["repr"].splitlines()
    lines[at] = f" {new}"
    out = copy.deepcopy(desc)
    out["repr"] = "\n".join(lines)
    return out


@pytest.mark.torch
def test_storage_bytes_of_an_atan_in_place_are_documented_only_within_a_few_ulps():
    """atan_(2.75) is 1.2220254 in VML, 1.2220253 correctly rounded: the storage taken before it prints
    that last bit as a byte (session 38's run, repr:arctan_); a byte off by more, or in the exponent, is not
    covered, nor is the same difference after an op that is not VML's."""
    torch = pytest.importorskip("torch")
    import agrad

    lines = [_X, "v3 = x2[1:]", "r4 = x2.untyped_storage()", "r6 = torch.arctan_(x2)"]
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    found = difftest.compare_statement(want[3], got[3])
    assert found is not None and found[0] == "repr"
    program = (lines, want, 3)
    assert difftest.documented("repr", lines[3], want[3], got[3], program) == "vml-storage-bytes"
    # the first float's top byte (its exponent) changed: far more than an ulp
    far = copy.deepcopy(got[3])
    far["vars"]["r4"] = _bytes_changed(far["vars"]["r4"], 3, 65)
    assert difftest.documented("repr", lines[3], want[3], far, program) is None
    # the same bytes after an op PyTorch does not hand to VML: not this rule's
    other = lines[:3] + ["r6 = torch.sinh_(x2)"]
    assert difftest.documented("repr", other[3], want[3], got[3], (other, want, 3)) is None


@pytest.mark.torch
def test_a_read_of_a_resized_tensors_uninitialised_element_is_documented_only_when_the_replay_explains_it():
    """resize_ grows a tensor with uninitialised memory in PyTorch (zeros in agrad); a later select_copy of
    that element read 4.59e-41 in session 38's run (numeric:select_copy). Covered by resize-uninitialised
    when PyTorch's replay with agrad's resized values gives agrad's result; a value the replay does not
    give stays a difference."""
    torch = pytest.importorskip("torch")
    import agrad
    import difftest_lapack
    import difftest_uninit
    from difftest_compare import compare_desc

    lines = ["x1 = torch.tensor([-0.25], dtype=torch.float32)", "v2 = x1.expand(2, 1)", "r4 = v2[:1].resize_(2)",
             "r7 = torch.select_copy(r4, -1, torch.tensor([2], dtype=torch.int64).clamp(0, 1))"]
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    # (PyTorch's uninitialised element may happen to hold 0: make it the garbage the run saw)
    want[3]["vars"]["r7"]["data"] = np.full_like(want[3]["vars"]["r7"]["data"], 4.5896728602030734e-41)
    args = (difftest.op_of, difftest_uninit.RESIZE_OPS, compare_desc, difftest._agree_once)
    assert difftest_lapack.explained(lines, 3, got, want[3], got[3], *args)
    wrong = copy.deepcopy(got[3])
    wrong["vars"]["r7"]["data"] = np.full_like(wrong["vars"]["r7"]["data"], 5.0)
    assert not difftest_lapack.explained(lines, 3, got, want[3], wrong, *args)


@pytest.mark.torch
def test_storage_bytes_after_a_vml_op_are_vml_downstream_when_the_replay_gives_them():
    """float64 acos_ (VML's vdAcos in PyTorch, an ulp from agrad's correctly rounded value), then the
    tensor's untyped_storage(): its printed bytes differ (session 38's run dt38c, repr:untyped_storage);
    PyTorch's replay with agrad's acos_ result in place prints agrad's bytes."""
    torch = pytest.importorskip("torch")

    lines = ["x1 = torch.tensor([[-2.0, -0.25, 0.75, -2.75]], dtype=torch.float64, requires_grad=True)",
             "r3 = x1 * 1", "r4 = r3.acos_()", "r5 = r4.untyped_storage()"]
    found = difftest.diff_program(lines)
    assert found is not None and found[0] == "documented:vml-downstream:untyped_storage", found
