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


#: samplers: they draw without reading ``self``, the k-th number for the k-th element of the loop
DRAWN = frozenset({"uniform_", "normal_", "random_", "exponential_", "cauchy_", "log_normal_", "geometric_",
                   "bernoulli_"})
#: composites that compute from ``self`` first and then ``copy_`` the result in (mvlgamma_)
COPIED = frozenset({"mvlgamma_"})


def tied_strides(a) -> bool:
    """Whether two dims of more than one element of ``a`` have one stride (elements shared: numpy's "K"
    order breaks the tie otherwise than TensorIterator's sort, which puts the smaller dim inside)."""
    strides = [s for s, n in zip(a.strides, a.shape) if n > 1]
    return len(set(strides)) < len(strides)


def in_sequence(self, fn, args, kwargs, name="", write=None):
    """``self._write(fn(self, ...))`` as PyTorch's loop makes it over a ``self`` of shared elements
    (``write``: the op's own writer of the final values, else ``self._write``)."""
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
    for k, pos in enumerate(np.ndindex(*[data.shape[d] for d in order])):
        for d, i in zip(order, pos):
            index[d] = i
        at = tuple(index)
        if drawn is not None:
            data[at] = drawn[k]
        else:
            data[at] = (once if once is not None else fn(self, *args, **kwargs)._data)[at]
    final = Tensor._make(data.copy())
    return self._write(final) if write is None else write(final)
