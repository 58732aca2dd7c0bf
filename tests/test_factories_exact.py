"""arange/linspace/logspace/range bit for bit with a live PyTorch (the stored
goldens are in tests/golden/random.json, checked by tests/test_random.py)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import agrad


@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


def _same(a, t):
    x = np.ascontiguousarray(a._data)
    y = t.contiguous().numpy()
    return x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()


DTYPES = ["float32", "float64", "float16", "int64", "int32"]


@pytest.mark.torch
@pytest.mark.parametrize("seed", range(4))
def test_live_arange_linspace(torch, seed):
    rng = np.random.default_rng(seed)
    for trial in range(100):
        dt = DTYPES[trial % len(DTYPES)]
        if dt.startswith("int"):
            s = int(rng.integers(-100, 100))
            st = int(rng.integers(1, 7)) * (1 if rng.random() < .8 else -1)
            e = s + st * int(rng.integers(0, 200))
        else:
            s = float(rng.normal() * 10)
            st = float(rng.random() * 0.5 + 0.001) * (1 if rng.random() < .8 else -1)
            e = s + st * float(rng.integers(1, 300) + rng.random())
        td, ad = getattr(torch, dt), getattr(agrad, dt)
        assert _same(agrad.arange(s, e, st, dtype=ad), torch.arange(s, e, st, dtype=td)), (dt, s, e, st)
        steps = int(rng.integers(0, 300))
        assert _same(agrad.linspace(s, e, steps, dtype=ad), torch.linspace(s, e, steps, dtype=td)), \
            (dt, s, e, steps)


@pytest.mark.torch
@pytest.mark.parametrize("seed", range(3))
def test_live_logspace_range(torch, seed):
    rng = np.random.default_rng(10 + seed)
    for trial in range(60):
        dt = ["float32", "float64", "int64", "int32"][trial % 4]
        td, ad = getattr(torch, dt), getattr(agrad, dt)
        s = float(rng.normal() * 3)
        e = s + float(rng.normal() * 3)
        steps = int(rng.integers(0, 60))
        base = [10.0, 2.0, 2.718281828, 3.3][trial % 4]
        assert _same(agrad.logspace(s, e, steps, base, dtype=ad), torch.logspace(s, e, steps, base, dtype=td))
        if dt.startswith("float"):
            st = float(rng.random() * 0.5 + 0.01)
            e2 = s + st * float(rng.integers(0, 100) + rng.random())
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                assert _same(agrad.range(s, e2, st, dtype=ad), torch.range(s, e2, st, dtype=td))


def test_range_warns_as_pytorch():
    with pytest.warns(UserWarning, match="torch.range is deprecated"):
        agrad.range(0, 3)


def test_arange_tricky_step_gives_pytorch_zero():
    # PyTorch's arange(-8, 8, 0.1) has 4.4409e-16 where 0 would be: relu's gradient there is 1
    x = agrad.arange(-8.0, 8.0, 0.1)
    assert x.shape == (160,)
    assert float(x[80]) == np.float32(4.440892098500626e-16)
