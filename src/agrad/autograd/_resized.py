"""The shapes PyTorch's engine checks gradients against: each node's recorded output metadata.

PyTorch's engine validates every gradient a node returns against the metadata the node it flows to
recorded for that output when it was made (``validate_outputs`` with ``input_metadata``), not the
shape the tensor has when it is used.  The two differ only once a tensor with a history is resized
in place (``out=``'s resize, ``.data =``, ``set_``): agrad's engine fits each gradient to the
consumer's recorded input, which is the same shape otherwise, and checks against the producer's
only for the nodes whose output was resized (:data:`NODES`): a gradient of the new shape is summed
down to the recorded one where that shape expands to it, else refused with PyTorch's words, before
the producer runs (and before it reads its saved tensors' versions).
"""

from __future__ import annotations

import weakref

#: nodes one of whose outputs was resized since it was recorded
NODES = weakref.WeakSet()


def note(t) -> None:
    """``t`` was resized in place: its node (if any) now records another shape for it."""
    fn = t._grad_fn
    if fn is not None:
        meta = fn._out_meta
        nr = t._output_nr
        if nr < len(meta) and meta[nr] is not None and tuple(meta[nr][0]) != t._data.shape:
            NODES.add(fn)


def _expandable(shape, to) -> bool:
    """c10's is_expandable_to(shape, to)."""
    if len(shape) > len(to):
        return False
    return all(n == m or n == 1 for n, m in zip(reversed(shape), reversed(to)))


def _check(g, meta, what):
    shape = getattr(g, "shape", None)
    if shape is not None and tuple(shape) != tuple(meta[0]) and not _expandable(tuple(meta[0]), tuple(shape)):
        raise RuntimeError(f"{what}invalid gradient at index {{}} - got {list(shape)} but expected shape compatible "
                           f"with {list(meta[0])}")


def metas(node, in_grads, nexts):
    """The metadata each of ``node``'s gradients is fitted to: the consumer's recorded input where the
    producer's output was not resized, else the producer's record (each checked first, in order)."""
    out = list(node._input_meta)
    for k, (g, (nxt, idx)) in enumerate(zip(in_grads, nexts)):
        if g is not None and nxt is not None and nxt in NODES:
            meta = nxt._out_meta[idx]
            try:
                _check(g, meta, f"Function {node.name()} returned an ")
            except RuntimeError as e:
                raise RuntimeError(str(e).replace("{}", str(k), 1)) from None
            out[k] = meta
    return out


def roots(roots, grad_roots):
    """The engine's check of the root gradients against their nodes' records (GraphRoot's outputs):
    summed down where the recorded shape expands to the gradient's."""
    out = list(grad_roots)
    for k, ((node, idx), g) in enumerate(zip(roots, grad_roots)):
        if node in NODES:
            meta = node._out_meta[idx]
            try:
                _check(g, meta, "")
            except RuntimeError as e:
                raise RuntimeError(str(e).replace("{}", str(k), 1)) from None
            if tuple(g.shape) != tuple(meta[0]):
                out[k] = g.sum_to_size(meta[0])
    return out


def metas_of(node, in_grads, nexts):
    """:func:`metas` once a node's output was resized, else the consumer's records as they are."""
    return metas(node, in_grads, nexts) if NODES else node._input_meta
