"""Small arrays' shortcuts keep the bits: sleef_expf's steps checked at once (_vec_math._expf_steps)
against its step-by-step fused multiply-adds, unary_lanes' answer for a C-contiguous array against
the general loop model, sigmoid's vector-only path against the lanes' merge."""

import numpy as np
import pytest

from agrad.ops import _vec_math as V, _vector_loop as L, unary as U

_I32 = np.int32


def _stepwise_expf(d):
    few = V._FEW
    V._FEW = -1  # (every size: the step-by-step path)
    try:
        return V.sleef_expf(d)
    finally:
        V._FEW = few


def _values(rng, n, kind):
    if kind == 0:
        return (rng.standard_normal(n) * 30).astype(np.float32)
    if kind == 1:  # every bit pattern: NaNs, infinities, subnormals
        return rng.integers(-2 ** 31, 2 ** 31, n, dtype=np.int64).astype(_I32).view(np.float32)
    if kind == 2:  # around the range's ends
        return rng.uniform(-110, 110, n).astype(np.float32)
    return (rng.standard_normal(n) * 1e-3).astype(np.float32)


@pytest.mark.parametrize("kind", range(4))
def test_expf_steps_checked_at_once_give_the_stepwise_bits(kind):
    rng = np.random.default_rng(kind)
    for n in (1, 7, 16, 17, 64, 300, 4096):
        x = _values(rng, n, kind)
        assert np.array_equal(V.sleef_expf(x).view(_I32), _stepwise_expf(x).view(_I32))
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 88.72283, -103.97, -104.0, 100.0, 100.00001], np.float32)
    assert np.array_equal(V.sleef_expf(x).view(_I32), _stepwise_expf(x).view(_I32))


def test_expf_steps_leave_a_halfway_sum_to_the_stepwise_path(monkeypatch):
    x = _values(np.random.default_rng(9), 64, 0)
    seen = []
    real = V._expf_steps

    def spy(d, q):
        r = real(d, q)
        seen.append(r is not None)
        return r

    monkeypatch.setattr(V, "_expf_steps", spy)
    monkeypatch.setattr(V, "_MID", np.array(0, np.int64))  # (every sum whose low 29 bits are 0 counts as halfway)
    got = V.sleef_expf(np.zeros(16, np.float32))  # (exp(0): sums that are whole floats)
    assert seen == [False] and np.array_equal(got, np.ones(16, np.float32))
    monkeypatch.undo()
    assert np.array_equal(V.sleef_expf(x).view(_I32), _stepwise_expf(x).view(_I32))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_unary_lanes_of_c_contiguous_arrays(dtype):
    block = L.BLOCK_BYTES // np.dtype(dtype).itemsize
    for shape in [(1,), (block - 1,), (block,), (block + 1,), (3 * block + 5,), (3, 5), (4, 4), (16, 3), (2, 3, 7),
                  (1000,), (32768,)]:
        a = np.zeros(shape, dtype)
        n = a.size
        lanes = L.unary_lanes(a)
        if n < block:
            assert lanes is False
        elif n % block == 0:
            assert lanes is True
        else:
            assert lanes.shape == shape and lanes.reshape(-1).tolist() == [i < n - n % block for i in range(n)]


@pytest.mark.parametrize("n", [16, 32, 40, 64, 5])
def test_sigmoid_float32_lanes(n):
    x = _values(np.random.default_rng(n), n, 0) / 10
    lanes = L.unary_lanes(x)
    vec = np.float32(1) / (np.float32(1) + _stepwise_expf(-x))
    one = np.float32(1)
    scalar = one / (one + np.exp(-x, dtype=np.float64).astype(np.float32))  # (libm's exp in double, rounded)
    want = vec if lanes is True else scalar if lanes is False else np.where(lanes, vec, scalar)
    assert np.array_equal(U._sigmoid(x).view(_I32), want.view(_I32))


def test_glibc_expf_plain_steps_leave_results_near_a_midpoint_to_the_fmas():
    # expf's plain double steps stand for its three fmas where the result is not within 8 units
    # (2**-53 of its power of two) of a float32 midpoint; these are (found by search)
    from agrad.ops import _glibc_float as G
    near = np.array([float.fromhex(h) for h in ("0x1.1265d0p-4", "0x1.e75bc4p-3", "-0x1.bc6008p+0",
                                                "0x1.1b318ep+1", "-0x1.aec4d6p+2", "0x1.2e4ed8p+4")], np.float32)
    x = np.concatenate([near, np.linspace(-80, 80, 200, dtype=np.float32)])
    forced = G.expf(np.append(x, np.float32(100.0)))[:-1]  # (an |x| of 87 or more: the fmas for all)
    assert np.array_equal(G.expf(x).view(np.uint32), forced.view(np.uint32))
    assert np.array_equal(G.expf(x[6:]).view(np.uint32), forced[6:].view(np.uint32))
    for v in near:
        xd = np.array([v], np.float64)
        z = G._EXPF_INVLN2N * xd
        kd = z + G._EXPF_SHIFT
        ki = kd.view(np.uint64)
        r = z - (kd - G._EXPF_SHIFT)
        s = (G._EXPF_TAB[(ki % np.uint64(G._EXPF_N)).astype(np.intp)] + (ki << np.uint64(47))).view(np.float64)
        assert G._expf_plain(r, s) is None


@pytest.mark.parametrize("kind", range(4))
@pytest.mark.parametrize("n", [1, 16, 64, 1000, 5000])
def test_sleef_log1pf_checked_once_and_without_absent_special_values(kind, n):
    # sleef_log1pf: its fmas' halfway checks made at once (V._Deferred) up to V._FEW elements, the
    # special values' steps only when present; against the step-by-step fmas with every special step
    rng = np.random.default_rng(n + kind)
    d = _values(rng, n, kind)
    if kind == 3:  # softplus's and logsigmoid's argument: exp(-|x|), in (0, 1]; and zeros of both signs
        d = np.exp(-np.abs(d * 1e4)).astype(np.float32)
        d[:n // 3] = np.where(np.arange(n // 3) % 2, np.float32(-0.0), np.float32(0.0))
    want = V._log1pf_steps(d, V._fma32) if kind != 3 else None
    got = V.sleef_log1pf(d)
    if want is None:  # (the zeros: the ordinary path with the -0.0 step)
        d2 = np.append(d, np.float32(np.nan))  # (a NaN: every special step)
        want = V._log1pf_steps(d2, V._fma32)[:-1]
    assert np.array_equal(got.view(_I32), want.view(_I32))
