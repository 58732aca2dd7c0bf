"""Layout rules below both the ops (result layouts, overlap checks, reduction orders) and the
engine (a leaf's gradient layout contract): c10's ``is_non_overlapping_and_dense`` for numpy
arrays, and the insertion sort by which TensorIterator (and ``dim_order``) order dimensions."""

from __future__ import annotations


def dense(a) -> bool:
    """The dims, sorted by stride, lay the elements out one after the other (dims of size 1
    aside): the elements fill a block of memory, in some order."""
    flags = a.flags
    if flags.c_contiguous or flags.f_contiguous:
        return True
    expected = a.itemsize
    for stride, size in sorted((st, n) for st, n in zip(a.strides, a.shape) if n != 1):
        if stride != expected:
            return False
        expected *= size
    return True


def zero_strided(a) -> bool:
    """``a`` has a dim of stride 0: numpy's 0, or the ZERO1 (a negative stride) of a dim of one element
    that PyTorch strides 0 (ops/_layout.py)."""
    return any(s <= 0 for s in a.strides)


def flipped(a) -> bool:
    """``a`` has a negative stride along a dim of more than one element (PyTorch has none: flip copies)."""
    return any(s < 0 and n > 1 for s, n in zip(a.strides, a.shape))


def insertion_sort(items: list, should_swap) -> list:
    """``items`` sorted in place as ATen sorts dimensions (TensorIterator's reorder_dimensions,
    Tensor.dim_order): each item moves towards the front while ``should_swap(earlier, item)``
    is 1 and stops at -1; 0 (the comparison cannot decide) passes over the earlier item
    without swapping, so an undecided pair keeps its order."""
    for i in range(1, len(items)):
        k = i
        for j in range(i - 1, -1, -1):
            c = should_swap(items[j], items[k])
            if c > 0:
                items[j], items[k] = items[k], items[j]
                k = j
            elif c < 0:
                break
    return items
