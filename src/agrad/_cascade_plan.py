"""_cascade's additions made once per shape and layout, then replayed in a few numpy calls.

_cascade follows ATen's cascade_sum with some thirty numpy calls on small arrays (the runs, the
four accumulators, the leftover elements, the lanes, the outputs' order), which costs 50-200 µs
whatever the size.  Every one of its additions is a step of a *chain*: a list of operands (input
elements or other chains' results) added one after the other from zero.  So this module runs the
same paths once on symbols (an index twin of the input: same dims and strides pattern, the
elements' C-order positions as values; numpy's object arrays add them with the same reduce /
cumsum / concatenate calls, in the same order), records the chains, and then evaluates them a
level at a time (a chain's level is one more than its operands'): the operands gathered into a
matrix (one column per chain, the rows in order, a leading row of zeros, shorter chains padded
with zeros) and added down its rows by ``np.add.reduce(axis=0)``, which adds row after row in
order.  The bits are _cascade's:

- a chain from zero is never -0 (a sum of numbers is -0 only if both are), so adding a padding
  zero leaves it as it is (``s + 0 == s``, NaN's payload too), and an operand that is itself a
  one-element chain (``0 + x``: x, or +0 for -0) can be x: ``s + -0 == s + 0``;
- a sum _cascade starts from its first element rather than from zero (np.add.reduce, cumsum)
  differs from the chain's only in the sign of a zero result, and every such sum is added from
  zero afterwards (each output is), where that sign does not count.

tools/cascade_bits.py checks the bits against the step-by-step implementation.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

#: the lanes of the dtype being planned (read by _cascade._lanes on symbols)
LANES = [8]
#: plans kept, least recently used dropped beyond this many index cells (8 bytes each) in all
_CACHE_CELLS = 1 << 22
_cache: OrderedDict = OrderedDict()
_cells = [0]
#: calls seen of keys without a plan yet: a plan costs some 2-3 µs an element to make and saves
#: some 50-200 µs a call, so it is made once a key has been seen size // 32 times
_seen: OrderedDict = OrderedDict()
_PLAN_AFTER = 32


class _Leaf:
    """An input element (its C-order position)."""

    __slots__ = ("i",)

    def __init__(self, i):
        self.i = i

    def __add__(self, other):
        if type(other) is int:  # (0: numpy's zeros of object arrays)
            return _Chain(None, self)
        return _Chain(_Chain(None, self), _operand(other))

    def __radd__(self, other):  # 0 + x
        return _Chain(None, self)


class _Chain:
    """A chain's last step: ``prev`` (a chain, None: zero) + ``op`` (a leaf or a chain)."""

    __slots__ = ("prev", "op")

    def __init__(self, prev, op):
        self.prev = prev
        self.op = op

    def __add__(self, other):
        if type(other) is int:
            return self
        return _Chain(self, _operand(other))

    def __radd__(self, other):
        return self


def _operand(x):
    if type(x) is _Chain and x.prev is None:  # (0 + leaf: the leaf, see above)
        return x.op
    return x


_LEAVES = np.empty(0, object)


def symbols(twin):
    """The index twin's elements as symbols (an object array of the same shape)."""
    global _LEAVES
    n = int(twin.max()) + 1 if twin.size else 0
    if n > len(_LEAVES):
        leaves = np.empty(max(n, 2 * len(_LEAVES)), object)
        leaves[:] = [_Leaf(i) for i in range(len(leaves))]
        _LEAVES = leaves
    return _LEAVES[twin]


def _twin(a):
    """An int64 array with ``a``'s dims and strides (times 8 / itemsize), holding each element's
    C-order position."""
    step = 8 // a.itemsize
    strides = [s * step for s in a.strides]
    extent = 1 + sum((n - 1) * abs(s) for n, s in zip(a.shape, strides)) // 8
    start = sum((n - 1) * -s for n, s in zip(a.shape, strides) if s < 0) // 8
    base = np.zeros(extent, np.int64)
    twin = np.lib.stride_tricks.as_strided(base[start:], a.shape, strides)
    twin[...] = np.arange(a.size).reshape(a.shape)
    return twin


class _Plan:
    __slots__ = ("n", "total", "groups", "out", "shape", "cells")


def _build(a, axes, keepdims):
    from ._cascade import _paths

    LANES[0] = 32 // a.itemsize
    res = _paths(_twin(a), axes, keepdims)
    if res is None:
        return None
    res = np.asarray(res, object)
    n = a.size
    slot = {}  # id(chain) -> slot
    levels = []  # chains by level: (chain, operand slots)
    level_of = {}

    def flatten(c):
        ops = []
        while c is not None:
            ops.append(c.op)
            c = c.prev
        ops.reverse()
        return ops

    def visit(root):
        # iterative post-order over chains used as operands
        stack = [(root, False)]
        while stack:
            c, done = stack.pop()
            if id(c) in level_of:
                continue
            ops = flatten(c)
            if not done:
                stack.append((c, True))
                for o in ops:
                    if type(o) is _Chain and id(o) not in level_of:
                        stack.append((o, False))
                continue
            lv = 1 + max((level_of[id(o)] for o in ops if type(o) is _Chain), default=0)
            level_of[id(c)] = lv
            while len(levels) < lv:
                levels.append([])
            levels[lv - 1].append((c, ops))

    keep = []  # (the chains stay alive while their ids are keys)
    for c in res.reshape(-1):
        if type(c) is _Chain:
            keep.append(c)
            visit(c)
    zero = n
    nxt = n + 1
    groups = []
    for chains in levels:
        for bucket in _buckets(chains):
            k = len(bucket)
            width = max(k, 2)  # (one column: numpy would add a lone row pairwise)
            rows = 1 + max(len(ops) for _, ops in bucket)
            idx = np.full((rows, width), zero, np.int64)
            for j, (c, ops) in enumerate(bucket):
                slot[id(c)] = nxt + j
                idx[1:1 + len(ops), j] = [o.i if type(o) is _Leaf else slot[id(o)] for o in ops]
            groups.append((nxt, nxt + width, idx))
            nxt += width
    out = np.empty(res.size, np.int64)
    for j, c in enumerate(res.reshape(-1)):
        out[j] = slot[id(c)] if type(c) is _Chain else c.i if type(c) is _Leaf else zero
    plan = _Plan()
    plan.n, plan.total, plan.groups, plan.out, plan.shape = n, nxt, groups, out, res.shape
    plan.cells = out.size + sum(idx.size for _, _, idx in groups)
    return plan


def _buckets(chains):
    """A level's chains in groups of similar lengths (padding costs copies, a group a call)."""
    chains = sorted(chains, key=lambda t: len(t[1]))
    out, cur, cur_cells = [], [], 0
    for t in chains:
        size = len(t[1]) + 1
        if cur and size * (len(cur) + 1) > 2 * (cur_cells + size) + 512:
            out.append(cur)
            cur, cur_cells = [], 0
        cur.append(t)
        cur_cells += size
    if cur:
        out.append(cur)
    return out


def planned(a, axes, keepdims, paths):
    """_cascade's sum of ``a`` (float32/float64, under GRAIN_SIZE elements) over ``axes`` by its
    plan (made once this shape, strides, dtype and axes have been seen ``size // 32`` times; till
    then ``paths``, _cascade's steps), or None where the paths return None."""
    key = (a.shape, a.strides, a.dtype.char, tuple(axes), keepdims)
    plan = _cache.get(key, False)
    if plan is False:
        count = _seen.pop(key, 0) + 1
        if count <= a.size // _PLAN_AFTER:
            _seen[key] = count
            if len(_seen) > 1024:
                _seen.popitem(last=False)
            return paths(a, axes, keepdims)
        plan = _build(a, axes, keepdims)
        _cache[key] = plan
        _cells[0] += 1 if plan is None else plan.cells
        while _cells[0] > _CACHE_CELLS and len(_cache) > 1:
            old = _cache.popitem(last=False)[1]
            _cells[0] -= 1 if old is None else old.cells
    else:
        _cache.move_to_end(key)
    if plan is None:
        return None
    buf = np.empty(plan.total, a.dtype)
    buf[:plan.n].reshape(a.shape)[...] = a
    buf[plan.n] = 0
    for start, stop, idx in plan.groups:
        np.add.reduce(buf[idx], axis=0, out=buf[start:stop])
    return buf[plan.out].reshape(plan.shape)
