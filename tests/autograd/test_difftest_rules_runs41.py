"""The differential tester's rules touched by session 41's runs41 (its own difftest runs)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import difftest  # noqa: E402
import difftest_rules  # noqa: E402


@pytest.mark.torch
def test_pinv_singular_reads_a_receiver_indexed_with_an_ellipsis():
    """v2[...].pinverse() of the rank-1 float32 x1.expand(2, 3) (run 40609000, seed 40609827): MKL leaves a
    noise singular value above rcond=1e-15 (8e6 in the result), agrad none (-0.05): pinv-singular, the
    matrix read through the Ellipsis; a regular matrix read the same way, or an agrad result off where the
    matrix is not singular, is not covered."""
    torch = pytest.importorskip("torch")
    import agrad

    lines = ["x1 = torch.tensor([-0.25, -0.25, -1.5], dtype=torch.float32, requires_grad=True)",
             "v2 = x1.expand(2, 3)", "r5 = v2[...].pinverse()"]
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    aspect, _ = difftest.compare_statement(want[2], got[2])
    assert aspect == "value"
    assert difftest.documented(aspect, lines[2], want[2], got[2], (lines, want, 2)) == "pinv-singular"
    regular = ["x1 = torch.tensor([[1.0, 2.0, 0.5], [3.0, -1.0, 2.0]])", "v2 = x1 * 1", lines[2]]
    want_r, got_r = difftest.run_program(torch, regular), difftest.run_program(agrad, regular)
    assert difftest.compare_statement(want_r[2], got_r[2]) is None
    off = copy.deepcopy(got_r[2])
    off["vars"]["r5"]["data"] = off["vars"]["r5"]["data"] * np.float32(1 + 1e-3)
    aspect_r = difftest.compare_statement(want_r[2], off)[0]
    assert aspect_r in ("value", "numeric")
    assert difftest.documented(aspect_r, regular[2], want_r[2], off, (regular, want_r, 2)) is None
    assert difftest_rules._basic_index("[...]") == [(Ellipsis,)]
    assert difftest_rules._basic_index("[..., ::2][0]") == [(Ellipsis, slice(None, None, 2)), (0,)]
    assert difftest_rules._basic_index("[1.5]") is None
