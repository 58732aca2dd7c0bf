"""c10's ``is_non_overlapping_and_dense`` for numpy arrays: below both the ops (result
layouts, overlap checks) and the engine (a leaf's gradient layout contract)."""

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
