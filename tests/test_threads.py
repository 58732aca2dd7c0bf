"""Large exact kernels on several threads (ops/_threads.py): the ranges cover the array as ATen's
parallel_for cuts it, the bits do not depend on the number of threads, and an error in a range
reaches the caller."""

import numpy as np
import pytest

import agrad as torch
from agrad.ops import _threads


@pytest.fixture
def threads():
    before = torch.get_num_threads()
    yield torch.set_num_threads
    torch.set_num_threads(before)


@pytest.mark.parametrize("n, count, align", [(10, 4, 1), (32768 * 2, 2, 1), (100_003, 3, 16384),
                                             (1_000_000, 7, 65536), (65_535, 8, 1)])
def test_ranges_cover_the_array_in_aligned_pieces(threads, n, count, align):
    threads(count)
    parts = _threads.split(n, align)
    assert parts[0][0] == 0 and parts[-1][1] == n
    assert all(a[1] == b[0] for a, b in zip(parts, parts[1:]))
    assert all(lo % align == 0 and hi > lo for lo, hi in parts)
    assert len(parts) <= max(1, min(count, n // _threads.GRAIN_SIZE))


def _inputs(dtype):
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.standard_normal(150_000) * 3, [np.nan, -np.inf, np.inf, 0.0, -0.0, 1e-30, 25.0]])
    return torch.tensor(x.astype(dtype), requires_grad=True)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_tanh_and_its_gradient_do_not_depend_on_the_thread_count(threads, dtype):
    results = []
    for count in (1, 2, 5):
        threads(count)
        x = _inputs(dtype)
        y = torch.tanh(x)
        y.backward(torch.cos(x.detach()))
        results.append((y.detach().numpy().view(np.uint8), x.grad.numpy().view(np.uint8)))
    for y, g in results[1:]:
        assert np.array_equal(y, results[0][0]) and np.array_equal(g, results[0][1])


def test_an_error_in_any_range_reaches_the_caller(threads):
    threads(4)
    seen = []

    def fn(lo, hi):
        seen.append(lo)
        if lo == 0 or lo >= 3 * 32768:
            raise ValueError(f"range at {lo}")
        return hi - lo

    with pytest.raises(ValueError, match="range at"):
        _threads.run(fn, 4 * 32768)
    assert sorted(seen) == [0, 32768, 65536, 98304]  # every range ran before the error came out
    assert _threads.run(lambda lo, hi: hi - lo, 4 * 32768) == [32768] * 4
