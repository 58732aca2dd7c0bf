"""torch.linalg.lstsq as PyTorch 2.13's CPU drivers give it.

PyTorch hands LAPACK's gelsy (its default driver) a column-pivot array it never initialises;
its garbage is nearly always nonzero, so gelsy keeps A's column order, and a matrix whose
leading columns are dependent gets a smaller rank than it has (agrad follows that, the most
frequent answer: docs/semantics.md, "lstsq"). MKL rejects a NaN argument, which PyTorch reports
as an internal assert. The expected values were printed by PyTorch 2.13.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import agrad as torch

NAN, INF = math.nan, math.inf


def _lstsq(a, b, **kw):
    return torch.linalg.lstsq(torch.tensor(a, dtype=torch.float64), torch.tensor(b, dtype=torch.float64), **kw)


def test_gelsy_keeps_the_column_order():
    r = _lstsq([[1.0, 1.0, 0.0], [1.0, 1.0, 1.0]], [[1.0], [2.0]])
    assert int(r.rank) == 1
    np.testing.assert_allclose(np.array(r.solution.tolist()), [[2 / 3], [2 / 3], [1 / 3]], rtol=1e-12)
    r = _lstsq([[0.0, 2.5], [0.0, 0.5], [0.0, 1.0]], [[1.0], [2.0], [1.0]])
    assert int(r.rank) == 0 and r.solution.tolist() == [[0.0], [0.0]]
    # the SVD drivers see the true rank
    r = _lstsq([[1.0, 1.0, 0.0], [1.0, 1.0, 1.0]], [[1.0], [2.0]], driver="gelsd")
    assert int(r.rank) == 2
    np.testing.assert_allclose(np.array(r.solution.tolist()), [[0.5], [0.5], [1.0]], rtol=1e-12)


def test_full_rank_is_the_least_squares_solution():
    r = _lstsq([[1.0, 0.001], [1.0, 0.002], [1.0, 3.0]], [[1.0], [2.0], [1.0]])
    assert int(r.rank) == 2
    np.testing.assert_allclose(np.array(r.solution.tolist()), [[1.5002], [-0.1667]], atol=1e-4)


def test_an_inf_in_b():
    r = _lstsq([[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [INF, 3.0]])
    assert np.isnan(np.array(r.solution.tolist())).all() and int(r.rank) == 2
    r = _lstsq([[0.0, 0.0], [0.0, 0.0]], [[1.0], [INF]])  # A all zero: solved as 0 first
    assert r.solution.tolist() == [[0.0], [0.0]] and int(r.rank) == 0


def test_an_inf_in_a():
    r = _lstsq([[0.5], [-1.0], [-0.25], [-INF]], [[-1.25], [-1.5], [-2.25], [1.25]])
    assert np.isnan(r.solution.tolist()[0][0]) and int(r.rank) == 1
    r = _lstsq([[1.0, 2.0, 3.0], [3.0, INF, 5.0]], [[1.0], [2.0]])  # no inf in the first column
    assert r.solution.tolist() == [[0.0], [0.0], [0.0]] and int(r.rank) == 0
    r = _lstsq([[-INF, 0.0, 0.0]], [[-2.75, -1.75, 2.25, 1.25]])
    x = np.array(r.solution.tolist())
    assert np.isnan(x[0]).all() and (x[1:] == 0).all() and int(r.rank) == 1


_ASSERT = ('false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp":1613, '
           "please report a bug to PyTorch. torch.linalg.lstsq: {}Argument {} has illegal value. Most certainly there "
           "is a bug in the implementation calling the backend library.")


@pytest.mark.parametrize("a, b, driver, where, arg", [
    ([[1.0, NAN], [3.0, 4.0]], [[1.0], [2.0]], None, "", 4),
    ([[1.0, 2.0], [3.0, 4.0]], [[1.0], [NAN]], None, "", 6),
    ([[1.0, NAN], [3.0, 4.0]], [[1.0], [NAN]], "gelsd", "", 4),
    ([[1.0, 2.0], [3.0, 4.0]], [[1.0], [NAN]], "gels", "", 7),
    ([[[1.0, 2.0]], [[3.0, 4.0]]], [[[1.0]], [[NAN]]], None, "(Batch element 1): ", 6),
    ([[[1.0, 2.0]]], [[[NAN]]], None, "", 6),
])
def test_a_nan_is_mkls_argument_error(a, b, driver, where, arg):
    with pytest.raises(RuntimeError) as e:
        _lstsq(a, b, driver=driver)
    assert str(e.value) == _ASSERT.format(where, arg)


def test_a_nan_beside_a_zero_a_is_not_looked_at():
    r = _lstsq([[0.0, 0.0], [0.0, 0.0]], [[1.0], [NAN]])
    assert r.solution.tolist() == [[0.0], [0.0]]
