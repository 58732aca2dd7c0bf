"""float64 tanh at numpy speed (ops/_tanh64.py): a large array's tanh and its backward factor
1 - y*y (fused) give the bits of the exact paths, the long double tanh and the fused multiply-add,
on random values of every size, the table's bucket edges and the special values."""
from fractions import Fraction

import numpy as np
import pytest

import agrad as torch
from agrad.ops import _tanh64, _vec_math

_I64 = np.int64


def long_double_tanh(x):
    return np.tanh(x.astype(np.longdouble)).astype(np.float64)


def _neighbours(values, k):
    bits = np.asarray(values, np.float64).view(_I64)
    return (bits[:, None] + np.arange(-k, k + 1)).reshape(-1).view(np.float64)


def _values(seed, n):
    rng = np.random.default_rng(seed)
    parts = [rng.standard_normal(n) * s for s in (0.01, 1.0, 3.0, 8.0)]
    parts.append(rng.uniform(-20, 20, n))
    parts.append(np.exp2(rng.uniform(-40, 5, n)))
    parts.append(rng.integers(0, 2 ** 63, n // 4, dtype=np.uint64).view(np.float64))  # every exponent, NaNs
    parts.append(np.array([0.0, np.inf, np.nan, 5e-324, 2.2250738585072014e-308, 1e-300, 22.0, 1e300]))
    # where the fast path's rules change: tanh's rounding to 1 near 19.0615, the table's ends,
    # the tiny and one rules, the two branches of glibc's tanhl at 1
    parts.append(_neighbours([19.0615474653985, 2.0 ** -12, 2.0 ** -28, 19.1, 19.5, 1.0, 0.5], 2000))
    x0 = _tanh64.bucket_x0()[::7]  # bucket edges: the rounding of |x| to x0 changes there
    parts.append(_neighbours(x0 * (1 + 2.0 ** -11), 1))
    parts.append(_neighbours(x0 * (1 - 2.0 ** -12), 1))
    x = np.concatenate(parts)
    return np.concatenate([x, -x])


@pytest.mark.parametrize("seed", [0, 1])
def test_float64_tanh_gives_the_long_double_bits(seed):
    x = _values(seed, 100_000)
    got = torch.tanh(torch.from_numpy(x)).numpy()
    want = long_double_tanh(x)
    assert np.array_equal(got.view(_I64), want.view(_I64))


def test_fast_path_leaves_few_elements_to_long_double():
    x = np.random.default_rng(2).standard_normal((512, 1024)) * 1.3
    left = []

    def exact(v):
        left.append(v.size)
        return long_double_tanh(v)

    got = _tanh64.tanh(x, exact)
    assert np.array_equal(got.view(_I64), long_double_tanh(x).view(_I64))
    assert 0 < sum(left) < 0.03 * x.size  # (about 1.5%: the margin for tanhl's own error)


def test_small_or_strided_arrays_take_the_long_double_path_and_keep_the_layout():
    a = np.random.default_rng(3).standard_normal((300, 200))
    r = torch.tanh(torch.from_numpy(a).t())
    assert r.stride() == (1, 200)
    assert np.array_equal(r.numpy().view(_I64), long_double_tanh(a.T).view(_I64))
    small = a[0, :100]
    assert np.array_equal(torch.tanh(torch.from_numpy(small)).numpy(), long_double_tanh(small))


def test_table_is_tanh_of_the_buckets():
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.prec = 200
    pair = np.load(_tanh64.TABLE)
    x0 = _tanh64.bucket_x0()
    assert pair.shape == (x0.size, 3)
    for i in list(range(0, x0.size, 97)) + [x0.size - 1]:
        t = mpmath.tanh(mpmath.mpf(float(x0[i])))
        assert pair[i, 0] == float(t)
        assert abs(mpmath.mpf(float(pair[i, 0])) + mpmath.mpf(float(pair[i, 1])) - t) <= abs(t) * mpmath.mpf(2) ** -100
        assert pair[i, 2] == float(1 - t * t)


def test_step_3_accepts_rem_within_the_margin_of_the_gap_on_its_side():
    # s + rem is the pair; s is certain where |rem| <= (1/2 - E) gap, gap the one between s and its
    # neighbour on rem's side (at a power of two, the gap below is half the gap above)
    rng = np.random.default_rng(7)
    e = _tanh64.MARGIN
    s = np.concatenate([np.exp2(np.arange(-13.0, 1.0)), rng.uniform(2.0 ** -13, 1.0, 200)])
    above = np.nextafter(s, np.inf) - s
    below = s - np.nextafter(s, 0.0)
    cases = []  # (s, rem, certain)
    for frac, want in (((0.5 - e) * (1 - 2.0 ** -30), True), ((0.5 - e) * (1 + 2.0 ** -30), False),
                       (0.5 - e / 2, False), (0.25, True), (0.0, True)):
        for sign in (1.0, -1.0):
            gap = above if sign > 0 else below
            cases += [(s, sign * frac * gap, want)]
    # a power of two, rem below it: a fraction of the gap above that is too much of the gap below
    powers = np.exp2(np.arange(-13.0, 0.0))
    cases += [(powers, -0.3 * (np.nextafter(powers, np.inf) - powers), False),
              (powers, 0.45 * (np.nextafter(powers, np.inf) - powers), True),
              (np.array([0.5, np.nan]), np.array([np.nan, 0.0]), False)]
    for ss, rem, want in cases:
        ok = np.empty(ss.size, bool)
        _tanh64._certain(ss.copy(), rem.copy(), ok)
        assert ok.tolist() == [want] * ss.size, (want, ss[ok != want][:3], rem[ok != want][:3])


def _fused(y):
    return _vec_math.fma(np.negative(y), y, 1.0)


def test_one_minus_square_is_the_fused_result():
    rng = np.random.default_rng(4)
    odd = np.arange(1, 4001, 2, dtype=np.float64)
    y = np.concatenate([
        long_double_tanh(_values(5, 30_000)[:200_000]),
        rng.uniform(-1, 1, 50_000),
        _neighbours([0.7071067811865476, 0.5, 1.0, 2.0 ** -27], 3000),
        odd * 2.0 ** -27,  # 1 - y*y exactly halfway between doubles: the steps leave it to fma
        np.array([1.0, -1.0, 0.0, -0.0, np.nan, 1.5, -2.0, np.inf, -np.inf, 5e-324])])
    got = _tanh64.one_minus_square(y, _fused)
    want = _fused(y)
    nan = np.isnan(y)
    assert np.array_equal(got[~nan].view(_I64), want[~nan].view(_I64))
    assert np.array_equal(got[nan].view(_I64), y[nan].view(_I64))  # (a NaN y: itself, as PyTorch's kernel)
    sample = np.concatenate([y[:: 97], odd * 2.0 ** -27])
    sample = sample[np.abs(sample) <= 1]
    got = _tanh64.one_minus_square(sample, _fused) if sample.size >= _tanh64.MIN_SIZE else _fused(sample)
    assert [float(1 - Fraction(v) ** 2) for v in sample.tolist()] == got.tolist()


def test_float64_tanh_backward_passes_a_nan_on_with_its_sign():
    # PyTorch: grad * (1 - y * y) with y a NaN is y's NaN (times a finite grad)
    x = np.zeros(10_000)
    x[:2] = [np.nan, -np.nan]
    a = torch.from_numpy(x).requires_grad_()
    torch.tanh(a).backward(torch.from_numpy(np.ones(10_000)))
    assert list(np.signbit(a.grad.numpy()[:2])) == [False, True]


def test_float64_tanh_backward_gives_the_fused_bits():
    rng = np.random.default_rng(6)
    x = rng.standard_normal((300, 100)) * 2
    g = rng.standard_normal((300, 100))
    kept = g.copy()
    a = torch.from_numpy(x).requires_grad_()
    y = torch.tanh(a)
    y.backward(torch.from_numpy(g))
    t = long_double_tanh(x)
    assert np.array_equal(a.grad.numpy().view(_I64), (kept * _fused(t)).view(_I64))
    assert np.array_equal(g, kept)  # (the product is written into the fresh factor, not the gradient)
    gt = rng.standard_normal((100, 300))  # a transposed gradient: the product after the factor
    a.grad = None
    torch.tanh(a).backward(torch.from_numpy(gt).t())
    assert np.array_equal(a.grad.numpy().view(_I64), (gt.T * _fused(t)).view(_I64))
