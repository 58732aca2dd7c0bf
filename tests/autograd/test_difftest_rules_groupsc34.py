"""The differential tester's rule of session 34's "groupsc": ``vml-sqrt-inside`` (tools/difftest_vmlsqrt.py),
cosine_embedding_loss's root from MKL VML in PyTorch."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import difftest  # noqa: E402
import difftest_vmlsqrt  # noqa: E402


@pytest.mark.torch
def test_cosine_embedding_loss_off_by_vml_sqrt_is_documented_only_when_the_rounded_root_explains_it():
    """sqrt(3.625 * 11.5625) is 6.4741068 in VML (6.4741073 correctly rounded): 1 - cos shows it
    (session 34's run, numeric:cosine_embedding_loss); an agrad value off on its own is not covered."""
    torch = pytest.importorskip("torch")
    import agrad

    lines = ["x9 = (torch.tensor([[-1.75, -0.75]], dtype=torch.float32)).requires_grad_()",
             "x10 = (torch.tensor([[-2.75, -2.0]], dtype=torch.float32)).requires_grad_()",
             "x11 = (torch.tensor([2.25], dtype=torch.float32).sign() + 0.5).sign()",
             "r12 = F.cosine_embedding_loss(x9, x10, x11)"]
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    aspect, _ = difftest.compare_statement(want[3], got[3])
    assert aspect == "numeric"
    program = (lines, want, 3)
    assert difftest.documented(aspect, lines[3], want[3], got[3], program) == "vml-sqrt-inside"
    own = copy.deepcopy(got[3])
    own["vars"]["r12"]["data"] = own["vars"]["r12"]["data"] * np.float32(1 + 1e-5)
    assert difftest.documented(*difftest.compare_statement(want[3], own)[:1], lines[3], want[3], own, program) is None
    other = lines[:3] + ["r12 = F.cosine_embedding_loss(x9, x10 + 0.5, x11)"]  # (its replay gives another loss)
    assert difftest.documented(aspect, other[3], want[3], got[3], (other, want, 3)) is None


@pytest.mark.torch
def test_the_rules_composite_with_a_rounded_root_is_agrads_loss():
    """The rule's replay writes out ATen's composite: with the correctly rounded root it gives agrad's
    values bit for bit (float32 and float64, every reduction, both targets, a margin)."""
    torch = pytest.importorskip("torch")
    import agrad

    rng = np.random.default_rng(5)
    for dtype in ("float32", "float64"):
        for reduction, name in ((0, "none"), (1, "mean"), (2, "sum")):
            a, b = rng.uniform(-3, 3, (6, 4)).astype(dtype), rng.uniform(-3, 3, (6, 4)).astype(dtype)
            y = np.array([1, -1, 1, -1, 1, 1], dtype)
            mine = difftest_vmlsqrt._rounded_root_loss(torch.from_numpy(a), torch.from_numpy(b), torch.from_numpy(y),
                                                       0.25, reduction)
            theirs = agrad.nn.functional.cosine_embedding_loss(agrad.tensor(a), agrad.tensor(b), agrad.tensor(y),
                                                                margin=0.25, reduction=name)
            assert np.array_equal(mine.numpy(), np.asarray(theirs.tolist(), dtype)), (dtype, name)


@pytest.mark.torch
def test_grouped_conv_padding_free_in_onednn_agrees_in_every_layout():
    """A float32 depthwise/grouped convolution that oneDNN runs with a direct kernel never reads the padding:
    an inf weight gives inf there, not NaN. agrad names oneDNN's kernel for plain layouts (_conv_groups) and
    channels-last ones (forward_direct_channels_last: brg_conv_fwd, brdgmm_dw, jit_dw, jit:avx2, gemm), so
    neither differs any more (the channels-last one was the documented rule onednn-grouped-padding)."""
    torch = pytest.importorskip("torch")
    import agrad

    plain = ["x = torch.ones(3, 16, 4, 4)", "w = torch.ones(16, 1, 3, 3)", "w[0, 0, 0, 0] = float('inf')",
             "r = F.conv2d(x, w, padding=2, dilation=(1, 2), groups=16)"]
    for first in (plain[0], plain[0] + ".contiguous(memory_format=torch.channels_last)",
                  "x = torch.ones(3, 4, 4, 4, 4).contiguous(memory_format=torch.channels_last_3d)"):
        lines = [first] + plain[1:]
        if "3d" in first:
            lines[1:] = ["w = torch.ones(8, 2, 2, 2, 2)", "w[0, 0, 0, 0, 0] = float('inf')",
                         "r = F.conv3d(x, w, padding=1, groups=2)"]
        want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
        assert difftest.compare_statement(want[3], got[3]) is None, first
        assert np.isinf(want[3]["vars"]["r"]["data"]).any() and not np.isnan(want[3]["vars"]["r"]["data"]).all()


@pytest.mark.torch
def test_lstsq_of_an_infinite_a_under_the_other_drivers_is_documented_only_there():
    """gels/gelsd/gelss of an A with an inf: MKL's NaN arithmetic on A scaled by 0 decides between a zero
    solution, NaNs and a rank error (gelss of an inf at (1, 1): NaN in PyTorch, zeros in agrad); a finite
    A, or the default driver, is not covered by this rule."""
    torch = pytest.importorskip("torch")
    import agrad

    lines = ["A = torch.tensor([[2.0, 2.5], [-0.5, -float('inf')], [-1.0, 0.0]])",
             "B = torch.tensor([[0.0, -1.5], [2.25, 0.25], [1.0, 1.0]])",
             "r = torch.linalg.lstsq(A, B, driver='gelss')"]
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    aspect, _ = difftest.compare_statement(want[2], got[2])
    assert aspect == "value"
    assert difftest.documented(aspect, lines[2], want[2], got[2], (lines, want, 2)) == "lstsq-inf-a"
    finite = ["A = torch.tensor([[2.0, 2.5], [-0.5, -2.0], [-1.0, 0.0]])"] + lines[1:]
    want_f = difftest.run_program(torch, finite)
    assert difftest.documented(aspect, lines[2], want[2], got[2], (finite, want_f, 2)) is None
    default = lines[:2] + ["r = torch.linalg.lstsq(A, B)"]
    assert difftest.documented(aspect, default[2], want[2], got[2], (default, want, 2)) != "lstsq-inf-a"


@pytest.mark.torch
def test_triangular_solve_zero_signs_alone_are_documented():
    """MKL's trsm keeps -0. where agrad's substitution gives 0. (session 34's run, repr:triangular_solve):
    documented when only zero signs differ, not when a value does."""
    torch = pytest.importorskip("torch")
    import agrad

    lines = ["b = torch.diagflat(torch.full((3,), -0.0))",
             "A = torch.tensor([[1.25, 0.0, 0.0], [-1.5, 2.0, 0.0], [-1.5, 2.25, -0.5]])",
             "r = b.triangular_solve(A, upper=False)"]
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    aspect, _ = difftest.compare_statement(want[2], got[2])
    assert aspect == "repr"
    assert difftest.documented(aspect, lines[2], want[2], got[2], (lines, want, 2)) == "trsm-zero-signs"
    own = copy.deepcopy(got[2])
    own["vars"]["r"]["items"][0]["data"][0, 1] = 1.0
    assert difftest.documented(*difftest.compare_statement(want[2], own)[:1], lines[2], want[2], own,
                               (lines, want, 2)) is None


_LU_NAN_3x17 = ("A = torch.tensor([[0.5, 0.0, float('nan'), -0.0, float('nan'), 0.0, 0.0, 1.0, 0.0, -0.0, 0.0, 0.5, 0.0, "
                "1.0, 0.0, 0.0, -2.0], [-0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, -2.0, 1.0, 0.0, 0.0, -2.0, 0.0, 0.0, 0.0, "
                "0.0, 0.0], [-0.0, float('nan'), -0.0, 0.0, 0.0, 0.0, -0.0, 0.0, 0.5, 0.0, float('nan'), 0.0, -0.0, "
                "-0.0, 0.0, 0.0, 0.0]])")


@pytest.mark.torch
def test_lu_zero_signs_of_a_matrix_of_17_columns_are_documented():
    """MKL's getrf factors a matrix of 17 or more rows or columns with its blocked kernel, whose order of
    updates leaves other signs on zeros (errs43, dt42e value:lu once its NaN pivots were followed):
    documented when only zero signs differ there, not when a value differs, nor for a smaller matrix."""
    torch = pytest.importorskip("torch")
    import agrad

    lines = [_LU_NAN_3x17, "r = torch.linalg.lu_factor(A)"]
    want, got = difftest.run_program(torch, lines), difftest.run_program(agrad, lines)
    aspect, _ = difftest.compare_statement(want[1], got[1])
    assert aspect == "repr"
    assert difftest.documented(aspect, lines[1], want[1], got[1], (lines, want, 1)) == "getrf-zero-signs"
    own = copy.deepcopy(got[1])
    own["vars"]["r"]["items"][0]["data"][0, 0] = 2.0
    assert difftest.documented(*difftest.compare_statement(want[1], own)[:1], lines[1], want[1], own,
                               (lines, want, 1)) is None
    small = ["A = torch.eye(3, 16)", "r = torch.linalg.lu_factor(A)"]
    want_s = difftest.run_program(torch, small)
    got_s = copy.deepcopy(want_s)
    got_s[1]["vars"]["r"]["items"][0]["data"][0, 1] = -0.0
    got_s[1]["vars"]["r"]["items"][0]["repr"] = "x"
    aspect_s = difftest.compare_statement(want_s[1], got_s[1])[0]
    assert difftest.documented(aspect_s, small[1], want_s[1], got_s[1], (small, want_s, 1)) is None



def test_svd_strip_takes_no_outs_of_an_integral_dtype():
    """An svd into out= tensors of which S is int64 (the call raised, the outs stayed as they were: run
    42115000's seed 42115933) is no svd triple to strip: None, where numpy's finfo raised in the tester."""
    import difftest_rules

    def t(a):
        return {"kind": "tensor", "data": np.asarray(a)}

    items = [t(np.zeros((1, 3, 1), np.float32)), t(np.array([[-2]], np.int64)), t(np.zeros((1, 1, 1), np.float32))]
    w = {"kind": "seq", "type": "torch.return_types.linalg_svd_out", "items": items, "repr": ""}
    assert difftest_rules._svd_strip(w, w) is None
    floats = dict(w, items=[items[0], t(np.array([[1.0]], np.float32)), items[2]])
    assert difftest_rules._svd_strip(floats, floats) is not None
