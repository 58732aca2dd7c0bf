"""The bits of the NaNs (and the sign of tied zeros) that maximum / minimum / clamp_min / clamp_max / clamp with
tensor bounds / fmax / fmin give (agrad/ops/_vector_loop.py: vector_nans, tie_by_loop, fmax_nans), against a live
PyTorch: AVX2's max/min code ORs its NaN mask in (every bit set) where the scalar loop gives quiet_NaN() (clamp
with both bounds: its own NaN operand), elements split between the two as TensorIterator's loop splits them.
Random shapes, broadcasts, layouts, dtypes and NaN payloads (values from torch.tensor only)."""

from __future__ import annotations

import random

import pytest

import agrad

NANS = {"float32": [0x7fc00000, -0x400000, 0x7fc00001, 0x7f800001, -0x7ffffe, -1],
        "float64": [0x7ff8000000000000, -0x8000000000000, 0x7ff8000000000001, 0x7ff0000000000001, -1],
        "float16": [0x7e00, -0x200, 0x7e01, -1]}
INTS = {"float32": "int32", "float64": "int64", "float16": "int16"}
OPS = ["maximum", "minimum", "clamp_min", "clamp_max", "clamp", "clamp_lo", "clamp_hi", "fmax", "fmin", "clamp_min_",
       "clamp_", "max"]


def _trace(mod, seed, n, sizes=(1, 2, 3, 5, 7, 8, 9, 16, 17, 31, 33), shapes=None):
    rng = random.Random(seed)
    out = []

    def make(dt, shape, p_nan):
        numel = 1
        for s in shape:
            numel *= s
        t = mod.tensor([rng.choice([0.0, -0.0, 1.5, -2.0, 3.0, 0.5, -1.0]) for _ in range(numel)],
                       dtype=getattr(mod, dt)).reshape(shape)
        if numel and rng.random() < p_nan:
            bits = t.view(getattr(mod, INTS[dt])).reshape(-1)
            for _ in range(rng.randint(1, max(1, numel // 3))):
                bits[rng.randrange(numel)] = rng.choice(NANS[dt])
        return t

    def layout(t):
        k = rng.choice(["c", "c", "t", "step", "slice"])
        if k == "t" and t.ndim >= 2:
            return t.transpose(0, 1).contiguous().transpose(0, 1)
        if k == "step" and t.ndim:
            return mod.stack([t, t], dim=-1)[..., 0]
        if k == "slice" and t.ndim:
            return mod.cat([t, t], dim=-1)[..., :t.shape[-1]]
        return t

    for _ in range(n):
        dt = rng.choice(["float32", "float32", "float64", "float16"])
        shape = list(rng.choice(shapes)) if shapes else [rng.choice(sizes) for _ in range(rng.randint(0, 3))]
        r = rng.random()
        other = [1] * len(shape) if r < 0.15 else shape[1:] if r < 0.3 else [] if r < 0.4 else list(shape)
        a = layout(make(dt, shape, 0.6))
        b = layout(make(dt if dt == "float16" or rng.random() < 0.9 else "float32", other, 0.6))  # (float16 to float32: its own bits)
        c = layout(make(dt, other, 0.3))
        op = rng.choice(OPS)
        calls = {"maximum": lambda: mod.maximum(a, b), "minimum": lambda: mod.minimum(b, a),
                 "clamp_min": lambda: mod.clamp_min(a, b), "clamp_max": lambda: mod.clamp_max(a, b),
                 "clamp": lambda: mod.clamp(a, b, c), "clamp_lo": lambda: mod.clamp(a, min=b),
                 "clamp_hi": lambda: mod.clamp(a, max=b), "fmax": lambda: mod.fmax(a, b), "fmin": lambda: mod.fmin(b, a),
                 "clamp_min_": lambda: a.clone().clamp_min_(b), "clamp_": lambda: a.clone().clamp_(b, c),
                 "max": lambda: mod.max(a, b)}
        try:
            res = calls[op]()
            out.append((op, dt, shape, other, res.contiguous().view(getattr(mod, INTS[str(res.dtype)[6:]])).tolist()))
        except RuntimeError as e:
            out.append((op, dt, shape, other, str(e)))
    return out


@pytest.mark.torch
@pytest.mark.parametrize("seed", range(4))
def test_extremum_nan_bits_live(seed):
    torch = pytest.importorskip("torch")
    assert _trace(agrad, seed, 120) == _trace(torch, seed, 120)


@pytest.mark.torch
def test_extremum_nan_bits_parallel_ranges_live():
    torch = pytest.importorskip("torch")  # (over 32,768 elements at::parallel_for's ranges cut the rows)
    big = {"shapes": [(33000,), (40000,), (70001,), (3, 11000), (5, 16411), (16411, 3)]}
    assert _trace(agrad, 7, 6, **big) == _trace(torch, 7, 6, **big)


def test_vector_lanes_nan_is_all_ones_and_tail_canonical():
    x = agrad.arange(20.)
    x[0] = x[19] = float("nan")
    bits = agrad.maximum(x, agrad.zeros(20)).view(agrad.int32)
    assert int(bits[0]) == -1 and int(bits[19]) == 0x7fc00000
    y = agrad.tensor([float("nan")] * 20).view(agrad.int32)
    y[-1] = -0x400000  # (a negative NaN: the scalar loop of clamp with both bounds keeps it)
    r = agrad.clamp(y.view(agrad.float32), agrad.zeros(20), agrad.ones(20)).view(agrad.int32)
    assert int(r[0]) == -1 and int(r[19]) == -0x400000
