"""In-place ops on a tensor whose elements share memory without a stride of 0 (``x.unfold(0, 2, 1)``,
an ``as_strided`` view): c10's ``has_internal_overlap`` finds such a layout "too hard" to judge and lets
the op run, and PyTorch's loop then writes element after element in TensorIterator's order, each one
read from memory as the earlier writes left it (``r.add_(t)`` of overlapping windows adds into sums
already made).  agrad's ops compute a whole result first; here the op runs again before each element
is written, and only that element is taken from it, so every element sees the writes before it."""

from __future__ import annotations

import numpy as np

from ..tensor import Tensor

#: above this many elements the op is not replayed element by element (the whole result is written)
LIMIT = 4096


def hidden_overlap(a) -> bool:
    """Whether two elements of ``a`` share memory though no dim of more than one element has stride 0."""
    if type(a) is not np.ndarray or not 1 < a.size <= LIMIT or a.flags.c_contiguous or a.flags.f_contiguous:
        return False
    if any(s == 0 and n > 1 for s, n in zip(a.strides, a.shape)):
        return False  # (PyTorch's "Yes": refused before, by the op's overlap check)
    dims = sorted((abs(s), n) for s, n in zip(a.strides, a.shape) if n > 1)
    reach = 0
    for s, n in dims:  # (each stride past the reach of the smaller ones: no two elements meet)
        if s <= reach:
            break
        reach += s * (n - 1)
    else:
        return False
    offsets = np.zeros((), np.int64)
    for s, n in zip(a.strides, a.shape):
        offsets = np.add.outer(offsets, np.arange(n, dtype=np.int64) * s)
    return np.unique(offsets).size < a.size


def argument_overlap(self, args, kwargs):
    """Whether an elementwise (TensorIterator) op writing ``self`` reads an argument that shares memory with
    it in a layout c10's get_overlap_status finds "too hard" (not both dense: ``b[:].pow_(o)`` with ``o`` a
    strided view of ``b``), so no error, and PyTorch's loop reads each element of that argument as the writes
    before it left it: replayed by :func:`in_sequence` where the loop goes element by element -- its inner
    dim walked by basic_loop (an operand strided there) or shorter than two vectors (all of it the scalar
    tail of vectorized_loop) or by vectorized_loop's chunks of two vectors, each read before it is written (an
    operand of stride 0 there read once at the row's start).  None: not such a call; else the ``lead`` of
    :func:`in_sequence`."""
    data = self._data
    if type(data) is not np.ndarray or not 1 < data.size <= LIMIT:
        return None
    found = None
    for a in (*args, *kwargs.values()):
        if type(a) is Tensor and a is not self and (a._base is not None or self._base is not None):
            b = a._data
            if type(b) is np.ndarray and b.dtype == data.dtype and np.may_share_memory(data, b) \
                    and not (b.shape == data.shape and b.strides == data.strides
                             and b.__array_interface__["data"][0] == data.__array_interface__["data"][0]) \
                    and np.shares_memory(data, b):
                found = b
    if found is None:
        return None
    from ._layout import iteration_order

    operands = [data] + [a._data for a in (*args, *kwargs.values()) if type(a) is Tensor]
    if any(type(b) is not np.ndarray or b.dtype != data.dtype for b in operands):
        return None  # (a cast operand is copied first)
    order = iteration_order(data.shape, operands)
    if not order:
        return None
    inner = order[-1]
    size = data.itemsize

    def step(b):
        off = data.ndim - b.ndim
        return 0 if inner < off or b.shape[inner - off] == 1 else b.strides[inner - off]
    steps = [step(b) for b in operands]
    scalars = steps[1:].count(0)
    if any(st not in (0, size) for st in steps) or steps[0] != size or scalars > 1:
        return 0  # (basic_loop: element by element)
    chunk = 2 * (32 // size)  # (vectorized_loop: two AVX2 vectors at a time, then the tail element by element)
    lead = data.shape[inner] // chunk * chunk
    return -lead if scalars else lead  # (negative: a scalar operand, loaded once at the row's start)


#: samplers: they draw without reading ``self``, the k-th number for the k-th element of the loop
DRAWN = frozenset({"uniform_", "normal_", "random_", "exponential_", "cauchy_", "log_normal_", "geometric_",
                   "bernoulli_"})
#: composites that compute from ``self`` first and then ``copy_`` the result in (mvlgamma_)
COPIED = frozenset({"mvlgamma_"})
#: composites that read their argument through a new tensor first (ldexp_: self.mul_(pow(2.0, other))): an
#: argument sharing self's memory is read before any write, no loop replayed
FRESH_ARGUMENT = frozenset({"ldexp_"})


def tied_strides(a) -> bool:
    """Whether two dims of more than one element of ``a`` have one stride (elements shared: numpy's "K"
    order breaks the tie otherwise than TensorIterator's sort, which puts the smaller dim inside)."""
    strides = [s for s, n in zip(a.strides, a.shape) if n > 1]
    return len(set(strides)) < len(strides)


def in_sequence(self, fn, args, kwargs, name="", write=None, lead=0):
    """``self._write(fn(self, ...))`` as PyTorch's loop makes it over a ``self`` of shared elements
    (``write``: the op's own writer of the final values, else ``self._write``).  ``lead``: the elements of each
    innermost row that vectorized_loop computes in chunks of ``lead``'s chunk size before the scalar tail
    (:func:`argument_overlap`; negative: all of them from the row's start)."""
    from ._layout import iteration_order

    data = self._data
    arrays = [data] + [a._data for a in (*args, *kwargs.values()) if isinstance(a, Tensor)]
    order = iteration_order(data.shape, arrays)
    index = [0] * data.ndim
    once = fn(self, *args, **kwargs)._data if name in DRAWN or name in COPIED else None
    drawn = None
    if name in DRAWN:  # (a sampler's numbers in the order it drew them: like_layout's order undone)
        from ._layout import dense_order
        laid = dense_order(data)
        drawn = (once if laid is None else once.transpose(laid)).reshape(-1)
    chunk = 2 * (32 // data.itemsize)
    held = None
    for k, pos in enumerate(np.ndindex(*[data.shape[d] for d in order])):
        for d, i in zip(order, pos):
            index[d] = i
        at = tuple(index)
        if drawn is not None:
            data[at] = drawn[k]
        elif lead and pos[-1] < abs(lead):
            if pos[-1] == 0 or lead > 0 and pos[-1] % chunk == 0:
                held = fn(self, *args, **kwargs)._data  # (the chunk's -- or the row's -- operands read at once)
            data[at] = held[at]
        else:
            data[at] = (once if once is not None else fn(self, *args, **kwargs)._data)[at]
    final = Tensor._make(data.copy())
    return self._write(final) if write is None else write(final)
