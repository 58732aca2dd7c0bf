"""The differential tester's rules touched by session 40's groupsb40: ``lapack-downstream`` for a gradient
(an inf in the incoming gradient meets LAPACK's last bits)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import difftest  # noqa: E402

_PINV = ["x4 = torch.tensor([[[-1.5, -0.75, -2.75, -1.75], [-1.5, 1.0, -1.5, 2.25]], [[-1.75, -3.0, 0.5, -1.0], "
         "[0.0, 1.25, 0.0, -2.75]]], dtype=torch.float32, requires_grad=True)",
         "r6 = torch.pinverse(x4)",
         "g14 = torch.tensor([[[-0.75, 1.25], [-2.25, -2.0], [1.75, -1.75], [0.75, 0.0]], [[float('inf'), -2.0], "
         "[-1.5, 1.25], [1.5, 0.0], [2.75, 1.0]]], dtype=torch.float64)",
         "r6.backward(gradient=g14)"]


@pytest.mark.torch
def test_lapack_downstream_explains_a_pinverse_gradient_with_an_inf():
    """float32 pinverse, an inf in the incoming gradient (run dt39d): MKL's pinv makes (A @ pinv(A))[1, 0]
    an exact 0 (inf * 0: the whole batch element NaN), agrad's 3e-8 (x.grad[1, 1, 3] -inf). PyTorch's
    replay with agrad's pinv gives agrad's gradient: lapack-downstream. A gradient off on its own, a NaN
    turned into an inf elsewhere, or the same program without a LAPACK op, is not covered."""
    torch = pytest.importorskip("torch")
    import agrad

    found = difftest.diff_program(_PINV)
    assert found is not None and found[0] == "documented:lapack-downstream:backward", found
    want, got = difftest.run_program(torch, _PINV), difftest.run_program(agrad, _PINV)
    assert difftest.compare_statement(want[3], got[3])[0] == "grad-value"
    w, g = want[3]["vars"]["x4"]["grad"]["data"], got[3]["vars"]["x4"]["grad"]["data"]
    assert np.isnan(w[1]).all() and g[1, 1, 3] == -np.inf

    def explained(lines, got_i):
        return difftest.difftest_lapack.explained_gradient(lines, 3, got, want[3], got_i, difftest.op_of,
                                                           difftest.CONDITIONED_OPS, difftest.compare_desc,
                                                           ("tensor", "seq"))
    assert explained(_PINV, got[3])
    for where, value in (((0, 0, 0), None), ((1, 0, 0), -np.inf)):
        own = copy.deepcopy(got[3])
        data = own["vars"]["x4"]["grad"]["data"]
        data[where] = data[where] * np.float32(1 + 1e-3) if value is None else value
        assert not explained(_PINV, own)
    assert not explained([_PINV[0], "r6 = x4.mT * 1.0", _PINV[2], _PINV[3]], got[3])


_GUMBEL = ["torch.manual_seed(121)",
           "x4 = torch.tensor([[[-0.75, 2.5, 0.5, 0.75], [0.5, -0.25, 3.0, -1.75], [-3.0, -2.0, 0.25, -0.75], "
           "[-0.25, -0.25, 1.5, 2.25]], [[2.25, 1.25, -1.75, -0.75], [1.25, -1.5, -2.5, 2.75], [-2.25, 0.0, -1.5, 0.0], "
           "[-2.25, 1.25, -1.5, -0.25]], [[-3.0, -1.75, 0.5, -0.5], [0.5, 1.25, -1.0, -2.5], [0.25, -2.5, 2.5, 0.0], "
           "[-2.75, -2.75, 2.5, -2.25]]], dtype=torch.float32, requires_grad=True)",
           "r8 = F.gumbel_softmax(x4, hard=True)",
           "gs13 = torch.autograd.grad(r8.sum(), [x4], create_graph=True, allow_unused=True)"]


@pytest.mark.torch
def test_vml_zero_gradient_covers_the_gradients_autograd_grad_returns():
    """The straight-through gradient of a hard float32 gumbel_softmax's sum, zero in exact arithmetic, as
    ``autograd.grad``'s returned tuple (a ``value`` difference of op ``grad``, run dt39c): its rounding noise
    (8.3e-9 in PyTorch, -1.7e-8 in agrad; MKL's float32 log of the exponential sample an ulp from agrad's
    correctly rounded one in 4 of 48) is vml-zero-gradient as it is for a leaf's ``.grad``. A gradient
    above the noise bound, or the same values with no VML op before, is not covered."""
    torch = pytest.importorskip("torch")
    import agrad

    found = difftest.diff_program(_GUMBEL)
    assert found is not None and found[0] == "documented:vml-zero-gradient:grad", found
    want, got = difftest.run_program(torch, _GUMBEL), difftest.run_program(agrad, _GUMBEL)
    assert difftest.compare_statement(want[3], got[3])[0] == "value"
    lapack = difftest.difftest_lapack
    ops = lapack.VML_OPS | lapack.VML_INSIDE_OPS

    def noise(lines, got_i):
        return lapack.zero_gradient_noise(lines, want, 3, want[3], got_i, difftest.op_of, ops,
                                          difftest._agrees_but_where)
    assert noise(_GUMBEL, got[3])
    own = copy.deepcopy(got[3])
    item = own["vars"]["gs13"]["items"][0]
    item["data"] = item["data"] + np.float32(1e-3)
    assert not noise(_GUMBEL, own)
    assert not noise([_GUMBEL[0], _GUMBEL[1], "r8 = F.softmax(x4, -1)", _GUMBEL[3]], got[3])


_FIT = ["a = torch.tensor([[-2.25, -2.25, 1.75, 0.0], [0.5, 0.75, 1.25, -3.0], [0.0, -2.25, -0.5, 2.75], "
        "[0.25, -2.75, 0.25, -2.25], [1.5, 2.75, 3.0, 0.75]])",
        "b = torch.tensor([[-2.4375], [-0.75], [0.9375], [0.6875], [-1.8125]])",
        "r = torch.linalg.lstsq(a, b, driver='gelsd')"]


@pytest.mark.torch
def test_lstsq_exact_fit_covers_residual_noise_only():
    """float32 gelsd of a 5 x 4 A (n < m < 1.6 n: MKL bidiagonalises A, gebrd's Q^T B) and B in its column
    space, an exact fit: the residual, zero in exact arithmetic, is 7.6e-14 in PyTorch and 4.6e-14 in agrad:
    lstsq-exact-fit. A residual above the noise, the same difference of a fit that is not exact, or a
    solution that differs too, is not covered."""
    torch = pytest.importorskip("torch")
    import agrad
    import difftest_lstsqfit
    import difftest_rules

    found = difftest.diff_program(_FIT)
    assert found is not None and found[0] == "documented:lstsq-exact-fit:lstsq", found
    want, got = difftest.run_program(torch, _FIT), difftest.run_program(agrad, _FIT)

    def covered(lines, want, got_i):
        return difftest_lstsqfit.residual_noise_only(lines, want, 2, want[2], got_i, difftest_rules._agree_once)
    assert covered(_FIT, want, got[2])
    big = copy.deepcopy(got[2])
    big["vars"]["r"]["items"][1]["data"] = np.array([1e-6], np.float32)
    assert not covered(_FIT, want, big)
    moved = copy.deepcopy(got[2])
    moved["vars"]["r"]["items"][0]["data"] = moved["vars"]["r"]["items"][0]["data"] * np.float32(1.01)
    assert not covered(_FIT, want, moved)
    loose = [_FIT[0], "b = torch.tensor([[-2.4375], [-0.75], [0.9375], [0.6875], [-1.5]])", _FIT[2]]
    want_l, got_l = difftest.run_program(torch, loose), difftest.run_program(agrad, loose)
    off = copy.deepcopy(got_l[2])
    off["vars"]["r"]["items"][1]["data"] = off["vars"]["r"]["items"][1]["data"] * np.float32(1 + 1e-4)
    assert difftest.compare_statement(want_l[2], off) is not None
    assert not covered(loose, want_l, off)


_SVD = ["x5 = ((torch.tensor([[2.25]], dtype=torch.float32) + 4 * torch.eye(1))).requires_grad_()",
        "x6, x7 = torch.linalg.lu_factor(x5)",
        "x12 = (torch.tensor([[[[0.75, 1.5, 0.25, 3.0, 3.0], [-2.25, 0.25, -2.25, -0.5, 1.75], [0.0, -2.5, 1.75, -2.25, "
        "0.0]], [[2.5, 2.25, float('-inf'), -2.0, 1.0], [-3.0, 0.0, -1.5, 0.0, 0.0], [2.75, -1.0, -1.75, 3.0, 0.25]], "
        "[[0.0, 3.0, 0.0, 2.75, -1.75], [1.0, 0.25, 0.75, 0.0, -3.0], [1.0, 0.75, -0.25, -2.0, 2.75]], [[2.0, -2.5, -1.5, "
        "-2.5, 2.75], [-0.5, float('nan'), 3.0, 2.25, 0.0], [-2.25, 0.0, 0.5, float('-inf'), 0.5]], [[-0.25, 0.0, -2.75, "
        "0.0, 3.0], [0.75, -0.25, -1.0, -1.0, 0.25], [-2.75, -0.75, float('-inf'), 1.75, -0.25]]]], "
        "dtype=torch.float32)).requires_grad_()",
        "r15 = x7 / x12",
        "r17 = torch.linalg.svd(r15)"]


@pytest.mark.torch
def test_svd_inf_nan_covers_gesdd_giving_up_on_an_earlier_batch_element():
    """linalg.svd of a batch whose element 0 holds an inf (1 / 0) and element 3 a NaN (run dt40b): MKL's gesdd
    gives up on element 0 (error code 2), agrad reports element 3's non-finite values: svd-inf-nan. Not when
    element 0 holds no inf, nor when agrad's error names an element before PyTorch's."""
    torch = pytest.importorskip("torch")
    import agrad
    import difftest_rules

    found = difftest.diff_program(_SVD)
    assert found is not None and found[0] == "documented:svd-inf-nan:svd", found
    want, got = difftest.run_program(torch, _SVD), difftest.run_program(agrad, _SVD)
    assert difftest.compare_statement(want[4], got[4])[0] == "error-text"

    def covered(want, got_i):
        return difftest_rules._gesdd_gave_up_first(_SVD, want, 4, want[4], got_i)
    assert covered(want, got[4])
    finite = copy.deepcopy(want)
    data = finite[3]["vars"]["r15"]["data"]
    data[0, 0] = np.where(np.isinf(data[0, 0]), 1.0, data[0, 0])
    assert not covered(finite, got[4])
    earlier = copy.deepcopy(got[4])
    earlier["error"] = (earlier["error"][0], earlier["error"][1].replace("(Batch element 3)", "(Batch element 0)"))
    assert not covered(want, earlier)
