"""NaN bits of conversions to and from float16 (agrad/ops/_vector_loop.py cast_nans, through _layout.cast: to(),
.float()/.half(), type promotion, copy_, setitem) against a live PyTorch: float16 to float32 of a dense tensor in
blocks of 8 (NaNs made quiet) and 0x7fffffff after the last whole block; not dense: quiet throughout; float16 to
float64 quiet; float32/float64 to float16 the quiet bit set (numpy keeps a signaling NaN signaling); cat's inputs alike."""

from __future__ import annotations

import random

import pytest

import agrad

NANS = {"float32": [0x7fc00000, -0x400000, 0x7fc00001, 0x7f800001, -0x7ffffe, -1, 0x7f802000],
        "float64": [0x7ff8000000000000, -0x8000000000000, 0x7ff8000000000001, 0x7ff0000000000001, -1],
        "float16": [0x7e00, -0x200, 0x7e01, -1, 0x7c01, -0x3ff]}
INTS = {"float32": "int32", "float64": "int64", "float16": "int16"}


def _trace(mod, seed, n):
    rng = random.Random(seed)
    out = []

    def make(dt, shape):
        numel = 1
        for s in shape:
            numel *= s
        t = mod.tensor([rng.choice([0.0, -0.0, 1.5, 1e-3]) for _ in range(numel)], dtype=getattr(mod, dt)).reshape(shape)
        if numel:
            bits = t.view(getattr(mod, INTS[dt])).reshape(-1)
            for _ in range(rng.randint(1, max(1, numel // 2))):
                bits[rng.randrange(numel)] = rng.choice(NANS[dt])
        return t

    def layout(t):
        k = rng.choice(["c", "c", "t", "step", "slice", "expand"])
        if k == "t" and t.ndim >= 2:
            return t.transpose(0, 1).contiguous().transpose(0, 1)
        if k == "step" and t.ndim:
            return mod.stack([t, t], dim=-1)[..., 0]
        if k == "slice" and t.ndim:
            return mod.cat([t, t], dim=-1)[..., :t.shape[-1]]
        if k == "expand" and t.ndim:
            return t[..., :1].expand(t.shape)
        return t

    for _ in range(n):
        d1, d2 = rng.choice(list(NANS)), rng.choice(list(NANS))
        shape = [rng.choice([1, 2, 3, 5, 7, 8, 9, 16, 17, 33]) for _ in range(rng.randint(0, 3))]
        a = layout(make(d1, shape))
        b = make(d2, shape)
        op = rng.choice(["to", "type_as", "copy_", "setitem", "mul", "cat"])
        if op == "to":
            r = a.to(getattr(mod, d2))
        elif op == "type_as":
            r = a.type_as(b)
        elif op == "copy_":
            r = b.copy_(a)
        elif op == "setitem":
            r = b
            r[...] = a
        elif op == "cat":  # (cat's copy of each input into the result: a dense input converts alike)
            r = mod.cat([b.reshape(-1), a.contiguous().reshape(-1)])
        else:  # (type promotion: the operand converted first)
            r = a * mod.ones(shape, dtype=getattr(mod, d2))
        out.append((op, d1, d2, shape, r.contiguous().view(getattr(mod, INTS[str(r.dtype)[6:]])).tolist()))
    return out


@pytest.mark.torch
@pytest.mark.parametrize("seed", range(3))
def test_cast_nan_bits_live(seed):
    torch = pytest.importorskip("torch")
    assert _trace(agrad, seed, 120) == _trace(torch, seed, 120)


def test_half_to_float_tail_is_all_but_sign():
    x = agrad.tensor([-1] * 11, dtype=agrad.int16).view(agrad.float16)
    bits = x.float().view(agrad.int32).tolist()
    assert bits[:8] == [-8192] * 8 and bits[8:] == [0x7FFFFFFF] * 3  # (0xffffe000: quiet, in the blocks of 8)
    assert x[::2].float().view(agrad.int32).tolist() == [-8192] * 6  # (not dense: quiet throughout)
    s = agrad.tensor([0x7F800001], dtype=agrad.int32).view(agrad.float32)
    assert s.half().view(agrad.int16).item() == 0x7E00
