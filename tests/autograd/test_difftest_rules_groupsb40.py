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
