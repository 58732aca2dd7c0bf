"""float32 tanh at numpy speed (ops/_tanh32.py): a large array's tanh gives the double path's bits
(glibc's double tanh rounded to float32) on samples of every float32 (tools/tanh32_exhaustive.py
checks all of them), the table's bucket edges and the special values; tanh_backward's blocks give
the unblocked kernel's bits; a BLAS product's zeros are +0.0 without the pass that adds it."""

import numpy as np
import pytest

import agrad as torch
from agrad.ops import _tanh32, _tanh64
from agrad.ops.linalg import _gemm

_F32 = np.float32
_U32 = np.uint32


def double_path(x):
    return np.tanh(x, dtype=np.float64).astype(_F32)


@pytest.fixture(autouse=True)
def _steps_not_direct(monkeypatch):
    """The table's steps under test, whichever way _direct_faster picks on this machine
    (test_direct_path_gives_the_double_path_bits takes the other)."""
    monkeypatch.setattr(_tanh32, "_direct_choice", False)


def _same(a, b):
    return np.array_equal(np.asarray(a).view(_U32), np.asarray(b).view(_U32))


@pytest.mark.parametrize("start", [0, 0x3A000000, 0x3F000000, 0x41000000, 0x80000000 + 0x3F400000, 0x7F7F0000])
def test_runs_of_consecutive_floats_give_the_double_path_bits(start):
    x = (np.arange(1 << 20, dtype=np.int64) + start).astype(_U32).view(_F32)
    assert _same(_tanh32.tanh(x, double_path), double_path(x))


def test_random_bit_patterns_and_specials():
    rng = np.random.default_rng(0)
    x = rng.integers(0, 1 << 32, 1 << 20, dtype=np.uint64).astype(_U32).view(_F32).copy()
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 2.0 ** -12, 19.5, 9.01, 1e-45, 3e38], _F32)
    x[:specials.size] = specials
    x[-specials.size:] = np.nextafter(specials, _F32(1))
    nan_payload = np.array([0x7FC01234, 0xFFA00001], _U32).view(_F32)
    x[100:102] = nan_payload
    assert _same(torch.tanh(torch.from_numpy(x)).numpy(), double_path(x))


def test_bucket_edges():
    x0 = _tanh64.bucket_x0()
    x0 = x0[(x0 >= 2.0 ** -12) & (x0 <= 19.5)].astype(_F32)
    mid = (x0.view(np.int32) + (1 << 12)).view(_F32)  # where the rounding to 10 bits turns
    around = np.concatenate([x0, mid] + [np.nextafter(v, _F32(d)) for v in (x0, mid) for d in (0, 30)])
    x = np.concatenate([around, -around])
    assert _same(_tanh32.tanh(x, double_path), double_path(x))


def test_few_elements_take_the_double_path_and_small_or_strided_arrays_all():
    x = (np.random.default_rng(1).standard_normal((512, 1024)) * 1.3).astype(_F32)
    left = []

    def counted(v):
        left.append(v.size)
        return double_path(v)

    assert _same(_tanh32.tanh(x, counted), double_path(x))
    assert 0 < sum(left) < 0.01 * x.size
    left.clear()
    t = torch.tanh(torch.from_numpy(x).t())
    assert t.stride() == (1, 1024) and _same(t.numpy(), double_path(x.T))
    assert _same(_tanh32.tanh(x[0, :100], counted), double_path(x[0, :100])) and left == [100]


def test_direct_path_gives_the_double_path_bits(monkeypatch):
    rng = np.random.default_rng(4)
    x = rng.integers(0, 1 << 32, 300_001, dtype=np.uint64).astype(_U32).view(_F32).copy()
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 2.0 ** -12, 9.01, 1e-45, 3e38], _F32)
    x[:specials.size] = specials
    x[100:102] = np.array([0x7FC01234, 0xFFA00001], _U32).view(_F32)  # NaN payloads
    x[200:300] = (rng.standard_normal(100) * 2).astype(_F32)
    monkeypatch.setattr(_tanh32, "_DIRECT_BLOCK", 65536)  # (a last block shorter than the others)
    assert _same(_tanh32._direct(x), double_path(x))
    monkeypatch.setattr(_tanh32, "_direct_choice", True)
    left = []
    y = _tanh32.tanh(x.reshape(1, -1), lambda v: left.append(v) or double_path(v))
    assert y.shape == (1, x.size) and _same(y[0], double_path(x))
    assert not left  # (all of it the blocked double path)
    assert _same(torch.tanh(torch.from_numpy(x[:5000])).numpy(), double_path(x[:5000]))
    assert isinstance(_tanh32._direct_faster(), bool)


@pytest.mark.parametrize("shape", [(512, 1024), (3000,), (7, 5)])
def test_backward_blocks_give_the_kernel_bits(shape):
    rng = np.random.default_rng(2)
    y = np.tanh(rng.standard_normal(shape) * 2).astype(_F32)
    y.reshape(-1)[:3] = [1.0, -1.0, np.nan]
    g = rng.standard_normal(shape).astype(_F32)
    want = np.multiply(g, np.subtract(1.0, np.multiply(y, y, dtype=np.float64)).astype(_F32))
    assert _same(_tanh32.tanh_backward(g, y), want)
    x = torch.tensor(rng.standard_normal(shape).astype(_F32), requires_grad=True)
    out = torch.tanh(x)
    out.backward(torch.from_numpy(g))
    yy = out.detach().numpy()
    assert _same(x.grad.numpy(), np.multiply(g, np.subtract(1.0, np.multiply(yy, yy, dtype=np.float64)).astype(_F32)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_blas_products_of_zeros_are_plus_zero(dtype):
    rng = np.random.default_rng(3)
    for n, k, m in [(2, 2, 2), (1, 5, 7), (7, 5, 1), (1, 1, 5), (64, 3, 64), (300, 200, 100)]:
        a = np.where(rng.random((n, k)) < 0.5, -0.0, 0.0).astype(dtype)
        b = -rng.random((k, m)).astype(dtype)
        for aa in (a, np.asfortranarray(a)):
            for bb in (b, np.asfortranarray(b)):
                r = _gemm(aa, bb)
                assert not np.signbit(r).any(), (n, k, m)
        assert not np.signbit(_gemm(a, a.T)).any()


def test_large_values_whose_remainder_is_one_and_the_largest_floats():
    # above the table s is fl(1 + h) / fl(1 + h): 0 / 0 where h = -1 (x0 above |x| by one, from
    # |x| = 2048 on), and x0 rounds to inf near the largest float; both go to the double path
    x0 = np.array([2048.0, 12296.0, 1e6, 3.0e38], _F32)
    x = np.concatenate([x0 - 1, x0 + 1, np.nextafter(x0, _F32(np.inf)), [np.finfo(_F32).max] * 2])
    x = np.concatenate([x, -x])
    ordinary = (np.random.default_rng(3).standard_normal(4096) * 2).astype(_F32)
    a = np.concatenate([ordinary, x])
    assert _same(_tanh32.tanh(a, double_path), double_path(a))
    assert _same(_tanh32.tanh(a[::-1].copy(), double_path), double_path(a[::-1]))
