"""``addbmm_`` into a ``self`` of another shape than the product's: PyTorch's addbmm_ is addbmm_out
with ``self`` as the result, whose ``resize_as_`` gives ``self`` the product's shape (contiguous, from
its storage offset; the storage grows if it must), where the structured addmm_/baddbmm_ refuse
("Bad in-place call").

Then, unless beta is 0, ``copy_`` writes ``self`` as it was, expanded to the product's shape, into
the resized ``self``: both over the same storage, element after element, so a read of an element
already written takes its new value (``(2, 1) -> (2, 2)`` repeats the first row).  Its overlap check
refuses a one-element ``self`` whose expanded strides are not the resized one's (a 0-d ``self``: c10's
get_overlap_status says Partial), after the resize.  The products are added as addbmm adds them; the
node is AddbmmBackward0 on ``self`` as it was (its gradient summed to that shape by the engine).
"""

from __future__ import annotations

import numpy as np

from ..autograd import graph
from ..tensor import Tensor
from .._dense import dense
from ._op import inplace_self
from .storage import storage_of

_OVERLAP = ("unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
            "single memory location. Please clone() the tensor before performing the operation.")


def _positions(a, offset):
    """The storage index of each element of the numpy view ``a`` whose first element is at ``offset``."""
    pos = np.full(a.shape, offset, dtype=np.int64)
    for k, (n, stride) in enumerate(zip(a.shape, a.strides)):
        shape = [1] * a.ndim
        shape[k] = n
        pos = pos + (np.arange(n, dtype=np.int64) * (stride // a.itemsize)).reshape(shape)
    return pos


def _expand_strides(shape, strides, target):
    """c10's inferExpandGeometry strides (elements) of a tensor of ``shape``/``strides`` expanded to ``target``."""
    if not shape:
        return (0,) * len(target)
    out = [0] * len(target)
    for i in range(len(target) - 1, -1, -1):
        d = len(shape) - len(target) + i
        size = shape[d] if d >= 0 else 1
        stride = strides[d] if d >= 0 else target[i + 1] * out[i + 1] if i + 1 < len(target) else 1
        out[i] = 0 if size != target[i] else stride
    return tuple(out)


def _torch_strides(a):
    """``a``'s strides in elements, a dim of size 1 that numpy gave stride 0 as PyTorch's would be."""
    from ._layout import torch_strides
    return tuple(s // a.itemsize for s in torch_strides(a))


def addbmm_resized(self, batch1, batch2, beta, alpha, plain):
    """``self.addbmm_(batch1, batch2)`` for a ``self`` the product's shape ``(n, p)`` is not (its
    checks passed: ``plain`` is the op's form for a ``self`` that keeps its shape)."""
    from .linalg import _addbmm, addbmm

    recorded = graph.is_recording((self, batch1, batch2))
    self._check_inplace(recorded)  # autograd's checks first
    addbmm(self.detach(), batch1.detach(), batch2.detach(), beta=beta, alpha=alpha)  # the op's own errors
    n, p = batch1._data.shape[1], batch2._data.shape[2]
    old = self._data
    if type(old) is not np.ndarray:
        return plain(self, batch1, batch2, beta=beta, alpha=alpha)
    flat, offset = storage_of(self)
    count = n * p
    if offset + count > flat.size:  # (PyTorch grows the storage itself: inplace_shapes.py's resize_ says how)
        grown = np.zeros(offset + count, flat.dtype)
        grown[:flat.size] = flat
        flat = grown
    src = np.broadcast_to(_positions(old, offset), (n, p)).ravel() if old.size else None
    resized = flat[offset:offset + count].reshape(n, p)
    seed = np.zeros((n, p), old.dtype)
    if beta != 0 and old.shape != (n, p) and count:
        if old.size == count and (count == 1 or dense(old)) and \
                _expand_strides(old.shape, _torch_strides(old), (n, p)) != (max(p, 1), 1):
            self._data = resized  # (resized before the copy refuses)
            raise RuntimeError(_OVERLAP)
        dst = np.arange(offset, offset + count)
        if np.any((src >= offset) & (src < dst)):  # a read after the write of that element: one by one
            for j in range(count):
                flat[dst[j]] = flat[src[j]]
        else:
            flat[dst] = flat[src]
        seed = resized.copy()
    attrs = {"beta": beta, "alpha": alpha}
    arrays = (seed, batch1._data, batch2._data)
    if not recorded:
        self._data = resized
        self._write_data(Tensor._make(_addbmm.forward(None, *arrays, **attrs)))
        return self
    if self._base is not None:
        from .inplace_view import inplace_through_view

        self._data = resized
        return inplace_through_view(self, lambda src: _addbmm.apply((src, batch1, batch2), arrays, attrs), (), {})
    src_t = inplace_self[0] = self._snapshot()  # (the node's self: its shape as it was)
    try:
        result = _addbmm.apply((src_t, batch1, batch2), arrays, attrs)
    finally:
        inplace_self[0] = None
    self._data = resized
    return self._write(result)
