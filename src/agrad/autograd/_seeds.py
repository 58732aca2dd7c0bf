"""The outputs and seed gradients of backward and autograd.grad: torch.autograd's _make_grads checks
(each seed's shape, an implicit seed's scalar output), then the engine's (each output requires grad)."""

from __future__ import annotations

import numpy as np


def prepare(tensors, grads):
    """Normalise outputs and their seed gradients; PyTorch's errors for bad ones."""
    from .engine import _is_tensor, _make
    from ..tensor import Tensor
    if grads is None and type(tensors) is Tensor and tensors._requires_grad:
        # (loss.backward(): a seed of ones for the one output)
        data = tensors._data
        if type(data) is np.ndarray and data.size == 1 and data.dtype.kind == "f":
            return (tensors,), (_make(np.array(1, data.dtype) if data.ndim == 0 else np.ones_like(data)),)
    tensors = (tensors,) if _is_tensor(tensors) else tuple(tensors)
    if grads is None:
        grads = (None,) * len(tensors)
    elif _is_tensor(grads):
        grads = (grads,)
    else:
        grads = tuple(grads)
    if len(grads) != len(tensors):
        raise RuntimeError(f"got {len(tensors)} tensors and {len(grads)} gradients")
    seeds = []
    for i, (t, g) in enumerate(zip(tensors, grads)):  # (torch.autograd's _make_grads, before the engine's checks)
        if g is None:
            if t.requires_grad:
                if t.numel() != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if not t.dtype.is_floating_point:
                    raise RuntimeError(
                        f"grad can be implicitly created only for real scalar outputs but got {t.dtype}")
                # ones of the output's shape and dtype (a lazy seed: what formulas expand from it stays chunked)
                g = _make(np.ones_like(t._data))
        else:
            if not _is_tensor(g):
                from ..ops import factories
                g = factories.tensor(g, dtype=t.dtype)
            if g.shape != t.shape:
                raise RuntimeError(
                    f"Mismatch in shape: grad_output[{_index(grads, g, i)}] has a shape of torch.Size({list(g.shape)}) "
                    f"and output[{_index(tensors, t, i)}] has a shape of torch.Size({list(t.shape)})."
                )
            if g.dtype is not t.dtype:  # the engine casts each incoming gradient to its tensor's dtype
                g = g.to(t.dtype)
        seeds.append(g)
    for i, t in enumerate(tensors):
        if not t.requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
    return tensors, seeds


def _index(items, x, i):
    """``list.index`` as _make_grads calls it for its message: each earlier item compared with ``==`` (a
    tensor's elementwise eq and bool, whose errors are PyTorch's there), an item itself found at once."""
    try:
        return list(items).index(x)
    except ValueError:  # (a seed made here from a non-tensor)
        return i
