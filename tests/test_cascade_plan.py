"""_cascade_plan's replayed additions against _cascade's steps: the same bits (NaNs: the same NaN).

tools/cascade_bits.py keeps the bits over millions of elements against a saved run; this test
takes its random cases (all layouts, specials, subnormals) and compares the two ways directly."""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tools"))

import cascade_bits  # noqa: E402

from agrad import _cascade, _cascade_plan  # noqa: E402


def _same(r, o):
    if r is None or o is None:
        return r is None and o is None
    both = np.isnan(r) & np.isnan(o)
    return (r.dtype == o.dtype and r.shape == o.shape
            and np.array_equal(np.where(both, 0, r), np.where(both, 0, o))
            and bool((np.signbit(np.where(both, 0, r)) == np.signbit(np.where(both, 0, o))).all())
            and bool((np.isnan(r) == np.isnan(o)).all()))


@pytest.mark.parametrize("seed", [1, 2])
def test_plan_is_the_steps(monkeypatch, seed):
    monkeypatch.setattr(_cascade_plan, "_PLAN_AFTER", 1 << 40)  # (a plan on the first call)
    checked = 0
    for k, x, axes, keep, nan, _ in cascade_bits.cases(seed, 400):
        if nan or x.dtype == np.float16 or not 4 < x.size < _cascade.GRAIN_SIZE:
            continue
        with np.errstate(all="ignore"):
            planned = _cascade.cascade_sum(x, axes, keep)
            steps = _cascade._paths(x, axes, keep)
        assert _same(planned, steps), (k, x.shape, x.strides, axes, keep)
        checked += planned is not None
    assert checked > 200


def test_plan_made_after_repeats():
    x = np.arange(4096, dtype=np.float32).reshape(64, 64) / 7
    _cascade_plan._cache.clear()
    _cascade_plan._seen.clear()
    for _ in range(4096 // 32):
        _cascade.cascade_sum(x, (0,), False)
    assert not _cascade_plan._cache
    r = _cascade.cascade_sum(x, (0,), False)
    assert len(_cascade_plan._cache) == 1
    assert r.tobytes() == _cascade._paths(x, (0,), False).tobytes()
