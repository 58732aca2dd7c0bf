"""SVD-based linear algebra on matrices with an inf or a NaN.

LAPACK's gesdd (numpy's SVD) can loop forever on a matrix holding an inf, so agrad
never hands it one: a NaN raises PyTorch's LinAlgError, an inf without a NaN gives
what PyTorch 2.13's LAPACK gives (every singular value NaN, U and Vh the identity
with the first k rows/columns reversed).  The expected values below were printed by
PyTorch 2.13; the test marked ``torch`` compares with it live.
"""

from __future__ import annotations

import math
import threading

import numpy as np
import pytest

import agrad as torch

INF = math.inf


def _inf_matrix():
    return torch.tensor([[-INF, 0.25, 0.0], [0.25, -2.5, -1.0], [2.75, 1.25, -3.0]])


def _within(seconds, fn):
    """fn() in a thread: its result, or a failure (not a hung suite) when it takes longer."""
    box = {}

    def run():
        try:
            box["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - handed back to the test
            box["error"] = e

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), "did not finish: LAPACK was given a non-finite matrix"
    if "error" in box:
        raise box["error"]
    return box["value"]


ANTI3 = np.eye(3)[::-1]


@pytest.mark.parametrize("fn, check", [
    (lambda a: torch.linalg.svd(a), lambda r: (np.isnan(r.S.numpy()).all()
                                                and np.array_equal(r.U.numpy(), ANTI3)
                                                and np.array_equal(r.Vh.numpy(), ANTI3))),
    (lambda a: torch.svd(a), lambda r: np.isnan(r.S.numpy()).all() and np.array_equal(r.V.numpy(), ANTI3)),
    (lambda a: torch.linalg.svdvals(a), lambda s: np.isnan(s.numpy()).all()),
    (lambda a: torch.linalg.pinv(a), lambda p: np.array_equal(p.numpy(), np.zeros((3, 3)))),
    (lambda a: torch.linalg.matrix_rank(a), lambda r: r.item() == 0),
    (lambda a: torch.linalg.matrix_norm(a, 2), lambda n: math.isnan(n.item())),
    (lambda a: torch.linalg.cond(a), lambda c: math.isnan(c.item())),
    (lambda a: torch.linalg.cond(a, 1), lambda c: c.item() == INF),
    (lambda a: torch.linalg.cond(a, -1), lambda c: c.item() == 0.0),
], ids=["svd", "torch.svd", "svdvals", "pinv", "matrix_rank", "norm2", "cond", "cond1", "cond-1"])
def test_an_inf_gives_pytorchs_answer_without_hanging(fn, check):
    assert check(_within(30, lambda: fn(_inf_matrix())))


def test_rectangular_and_batched_inf():
    c = torch.arange(6.).reshape(2, 3)
    c[0, 0] = INF
    r = _within(30, lambda: torch.linalg.svd(c, full_matrices=True))
    assert np.array_equal(r.U.numpy(), [[0, 1], [1, 0]])
    assert np.array_equal(r.Vh.numpy(), [[0, 1, 0], [1, 0, 0], [0, 0, 1]])
    r = _within(30, lambda: torch.linalg.svd(c.t(), full_matrices=False))
    assert np.array_equal(r.U.numpy(), [[0, 1], [1, 0], [0, 0]])
    b = torch.arange(8.).reshape(2, 2, 2)
    b[0, 0, 0] = INF
    r = _within(30, lambda: torch.linalg.svd(b))
    assert np.isnan(r.S.numpy()[0]).all()
    np.testing.assert_allclose(r.S.numpy()[1], [11.2236, 0.1782], atol=1e-4)  # the finite one, as usual


def test_a_nan_is_pytorchs_error():
    b = torch.arange(8.).reshape(2, 2, 2)
    b[0, 0, 0] = math.nan
    with pytest.raises(torch.linalg.LinAlgError) as e:
        _within(30, lambda: torch.linalg.svd(b))
    assert str(e.value) == ("linalg.svd: (Batch element 0): The algorithm failed to converge because the input "
                            "matrix contained non-finite values.")
    with pytest.raises(torch.linalg.LinAlgError, match=r"^linalg.svd: The algorithm failed to converge"):
        _within(30, lambda: torch.linalg.pinv(torch.tensor([[math.nan, 1.0], [2.0, 3.0]])))


@pytest.mark.torch
def test_same_as_pytorch():
    real = pytest.importorskip("torch")
    script = [
        "a = T.tensor([[-inf, 0.25, 0.0], [0.25, -2.5, -1.0], [2.75, 1.25, -3.0]], requires_grad=True)",
        "out = [T.linalg.pinv(a), T.linalg.svd(a), T.svd(a), T.linalg.svdvals(a), T.linalg.matrix_rank(a),"
        " T.linalg.cond(a), T.linalg.cond(a, 1), T.linalg.cond(a, 'fro')]",
        "c = T.arange(6.).reshape(2, 3)",
        "c[0, 0] = inf",
        "out += [T.linalg.svd(c, full_matrices=True), T.linalg.svd(c.t(), full_matrices=True),"
        " T.linalg.svd(c.t(), full_matrices=False)]",
    ]
    got = {}
    for name, mod in (("torch", real), ("agrad", torch)):
        ns = {"T": mod, "inf": INF}
        exec("\n".join(script), ns)  # noqa: S102 - a fixed test program
        got[name] = repr(ns["out"])
    assert got["agrad"] == got["torch"]
