"""In-place ops on a tensor whose elements share memory without a stride of 0 (agrad/ops/_overlap_loop.py)."""

from __future__ import annotations

import numpy as np

import agrad as torch
from agrad.ops._overlap_loop import LIMIT, hidden_overlap


def test_only_shared_elements_without_a_zero_stride_are_replayed():
    x = torch.arange(12.0)
    assert hidden_overlap(x.unfold(0, 3, 1)._data)
    assert hidden_overlap(x.as_strided((3, 3), (1, 1))._data)
    assert hidden_overlap(x.unfold(0, 2, 1).t()._data)
    m = x.reshape(3, 4)
    for a in (m, m.t(), m[:, ::2], m[:, 1:3], x.unfold(0, 2, 2), x[:1].expand(4), x.reshape(2, 6).t()[::2]):
        assert not hidden_overlap(a._data)
    assert not hidden_overlap(np.zeros((LIMIT + 1, 2))[:, :1].reshape(-1))


def test_each_element_reads_the_writes_before_it():
    x = torch.tensor([1.0, 2.0, 3.0, 4.0])
    x.unfold(0, 2, 1).add_(1.0)  # the shared elements 2.0 and 3.0 get 1 twice
    assert x.tolist() == [2.0, 4.0, 5.0, 5.0]
    y = torch.tensor([1.0, 2.0, 3.0, 4.0])
    y.unfold(0, 2, 1).t().mul_(2.0)  # a transposed view of it: the same memory, another walk
    assert y.tolist() == [2.0, 8.0, 12.0, 8.0]


def test_too_many_elements_write_the_whole_result():
    n = LIMIT + 2
    x = torch.zeros(n + 1)
    x.unfold(0, 2, 1).add_(1.0)  # (above the limit: every element from the old values, as before)
    assert x[1].item() == 1.0
