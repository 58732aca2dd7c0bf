"""The memory layout of elementwise results: laid out as PyTorch's TensorIterator lays them out
(the first input whose strides decide), which shows in is_contiguous(), view() and whether
ravel/reshape share memory.  Fixed cases against PyTorch are in tests/golden/exact.json
("elementwise-result-layout"); here, random layouts against a live PyTorch."""

from __future__ import annotations

import random

import numpy as np
import pytest

import agrad


def _laid_out(lib, shape, perm):
    """A tensor of ``shape`` whose memory holds its dims in the order ``perm`` (slowest first)."""
    n = int(np.prod(shape))
    inverse = [int(i) for i in np.argsort(perm)]
    return lib.arange(n, dtype=lib.float64).reshape([shape[p] for p in perm]).permute(*inverse)


def _operand_layouts(rng, shape):
    own = shape[rng.choice([0, 0, 0, 1]):]
    own = [1 if rng.random() < 0.2 else n for n in own]
    perm = list(range(len(own)))
    rng.shuffle(perm)
    return own, perm


def _order(t):
    """A PyTorch tensor's dims of more than one element, fastest in memory first."""
    dims = [d for d in range(t.ndim) if t.shape[d] != 1]
    return sorted(dims, key=lambda d: t.stride(d))


def test_transposed_first_operand_decides():
    a = agrad.arange(6.0).reshape(2, 3)
    b = agrad.arange(6.0).reshape(3, 2).t()
    assert not (b + a).is_contiguous()
    assert (a + b).is_contiguous()
    assert not agrad.where(b > 2, a, a).is_contiguous()  # where's condition comes first
    assert (b + a).t().is_contiguous()


@pytest.mark.torch
def test_random_layouts_as_pytorch():
    torch = pytest.importorskip("torch")
    rng = random.Random(5)
    compared = 0
    for _ in range(400):
        shape = [rng.choice([1, 2, 3, 4]) for _ in range(rng.randint(2, 4))]
        layouts = [_operand_layouts(rng, shape) for _ in range(rng.choice([2, 3]))]
        try:
            np.broadcast_shapes(*[tuple(s) for s, _ in layouts])
        except ValueError:
            continue
        ours = [_laid_out(agrad, s, p) for s, p in layouts]
        theirs = [_laid_out(torch, s, p) for s, p in layouts]
        if len(layouts) == 2:
            got, want = ours[0] * ours[1], theirs[0] * theirs[1]
        else:
            got, want = agrad.addcmul(*ours), torch.addcmul(*theirs)
        want_order = _order(want)
        assert got.is_contiguous() == want.is_contiguous(), layouts
        assert np.array_equal(np.asarray(got.tolist()), want.numpy()), layouts
        # PyTorch's memory order: the result permuted slowest-first is contiguous in agrad too
        ones = [d for d in range(want.ndim) if want.shape[d] == 1]
        assert got.permute(*(ones + want_order[::-1])).is_contiguous(), layouts
        compared += 1
    assert compared > 200
