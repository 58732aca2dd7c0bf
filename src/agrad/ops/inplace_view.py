"""In-place changes to a view, recorded as PyTorch records them.

``v = y[0]; v.mul_(3)`` changes ``y`` too.  PyTorch rewrites the base's history:
``y.grad_fn`` becomes a ``CopySlices`` node that wraps the in-place op (here
``MulBackward0``) and applies it to the viewed part of the base's gradient, and
the view — and every other view of ``y`` made before — is differentiated
through the base again (``AsStridedBackward0``).  Views here are numpy views,
so the part of the base a view covers is found from the arrays' memory
addresses (:func:`flat_index`).
"""

from __future__ import annotations

import sys

import numpy as np

from ..autograd import _dual, graph
from ..autograd.graph import Node
from ..tensor import Tensor, _has_internal_overlap
from ._layout import dense_order, in_order
from ._op import Op, inplace_self
from .views import _clone, _copy


def _addresses(arr, offset):
    """Byte offset of every element of ``arr`` from ``offset``."""
    addr = np.full(arr.shape, offset, dtype=np.int64)
    for k, (n, stride) in enumerate(zip(arr.shape, arr.strides)):
        shape = [1] * arr.ndim
        shape[k] = n
        addr = addr + (np.arange(n, dtype=np.int64) * stride).reshape(shape)
    return addr


def flat_index(view, base):
    """For each element of ``view``, its index in ``base.reshape(-1)`` (C order)."""
    b, v = base._data, view._data
    if v.size == 0:  # an empty view has no elements to place (its data pointer may lie anywhere)
        return np.zeros(v.shape, np.intp)
    start = v.__array_interface__["data"][0] - b.__array_interface__["data"][0]
    base_addr = _addresses(b, 0).reshape(-1)
    order = np.argsort(base_addr, kind="stable")
    sorted_addr = base_addr[order]
    view_addr = _addresses(v, start)
    pos = np.clip(np.searchsorted(sorted_addr, view_addr), 0, max(sorted_addr.size - 1, 0))
    if sorted_addr.size == 0 or not np.array_equal(sorted_addr[pos], view_addr):
        raise RuntimeError("internal error: a view's data does not lie in its base's")
    return order[pos]


# the three array moves, each differentiable (for create_graph) ---------------------

def gather(a, idx):
    """``a``'s elements at flat ``idx``; an index past them (as_strided's read outside the input, whose
    value the view takes from the storage) reads a zero."""
    flat = a.reshape(-1)
    if idx.size and idx.max() >= flat.size:
        flat = np.concatenate([flat, np.zeros(int(idx.max()) + 1 - flat.size, a.dtype)])
    return flat[idx]


_take = Op("AsStridedBackward0", lambda ctx, a, idx: gather(a, idx), jvp="linear")


@_take.derivative
def _(ctx, grad):
    if not ctx.needs(0):  # (a view regenerated after its base was detached: no edge, nothing to compute)
        return None
    idx = ctx.idx
    if not idx.size:  # (as_strided_backward of a view with no elements: new zeros of the input's, no history)
        return Tensor._make(np.zeros(tuple(ctx.input_shape), grad._data.dtype))
    storage = getattr(ctx, "storage", None)
    if storage is not None and not (graph._state["enabled"] and grad._requires_grad):
        return _in_storage(grad, storage)  # (a base whose elements overlap; left: its create_graph graph)
    read = None  # (a base of other strides, its own elements apart: read back at its storage positions)
    if storage is not None and np.unique(storage[1]).size == storage[1].size:
        idx, read = storage
    if graph._state["enabled"]:
        # create_graph: PyTorch's as_strided_backward walks the view's dims from the last: one of size 1
        # is squeezed away (SqueezeBackward1), one of stride 0 summed, keeping it (SumBackward1)
        for i in range(grad.ndim - 1, -1, -1):
            if grad.shape[i] == 1:
                grad, idx = grad.squeeze(i), idx.squeeze(i)
            elif (idx == np.take(idx, [0], axis=i)).all():
                grad, idx = grad.sum(i, keepdim=True), np.take(idx, [0], axis=i)
    if graph._state["enabled"] and np.unique(idx).size == idx.size:
        # without overlap (what is left): the gradient copied into zeros of the base (CopySlices), read
        # back through as_strided
        if read is not None:
            zeros = Tensor._make(np.zeros(int(max(idx.max(), read.max())) + 1, grad._data.dtype))
            return _take(_replace(zeros, grad, idx=idx), idx=read)
        shape = tuple(ctx.input_shape)
        n = int(np.prod(shape))
        past = int(idx.max()) + 1 - n if idx.size else 0  # (reads outside the input: dropped at the end)
        lo = min(0, int(idx.min())) if idx.size else 0  # (before it: a base moved by as_strided_ in place)
        if past <= 0 and not lo:
            zeros = Tensor._make(np.zeros(shape, grad._data.dtype))
            return _take(_replace(zeros, grad, idx=idx), idx=np.arange(n).reshape(shape))
        zeros = Tensor._make(np.zeros((n + max(past, 0) - lo,), grad._data.dtype))
        return _take(_replace(zeros, grad, idx=idx - lo), idx=np.arange(-lo, n - lo).reshape(shape))
    if graph._state["enabled"]:
        # create_graph, a view whose elements overlap: the gradient index_add_-ed into zeros of the
        # storage (IndexAddBackward0 over its reshape), read back through as_strided
        shape = tuple(ctx.input_shape)
        n = int(np.prod(shape))
        storage = Tensor._make(np.zeros(max(n, int(idx.max()) + 1), grad._data.dtype))
        storage.index_add_(0, Tensor._make(idx.reshape(-1).astype(np.int64)), grad.reshape(-1))
        return _take(storage, idx=np.arange(n).reshape(shape))
    return _scatter_add(grad, ctx.input_shape, idx)


_scatter = Op("AsStridedBackwardBackward0", lambda ctx, g, shape, idx: _scatter_np(g, shape, idx),
              internal=True, jvp="linear")
_scatter.derivative(lambda ctx, grad: _take(grad, idx=ctx.idx))


def _scatter_np(g, shape, idx):
    """as_strided_backward: the gradient copied into zeros of the base where the view's elements do not
    overlap (a -0.0 stays), added (index_add_) where they do."""
    n = int(np.prod(shape))
    flat = idx.reshape(-1)
    # (past n, or before 0 (a base moved past the view by as_strided_ in place): reads outside the input)
    lo = min(0, int(flat.min())) if flat.size else 0
    out = np.zeros(max(n, int(flat.max()) + 1 if flat.size else 0) - lo, g.dtype)
    flat = flat - lo
    if np.unique(flat).size == flat.size:
        out[flat] = g.reshape(-1)
    else:
        np.add.at(out, flat, g.reshape(-1))
    return out[-lo:n - lo].reshape(shape)


def take(a, idx):
    """``a.reshape(-1)[idx]``, differentiable (the view's part of a base)."""
    return _take(a, idx=idx)


def replace(a, r, idx):
    """A copy of ``a`` with the elements at flat ``idx`` replaced by ``r``, differentiable."""
    return _replace(a, r, idx=idx)


def _scatter_add(g, shape, idx):
    return _scatter(g, shape=tuple(shape), idx=idx)


def _replace_np(ctx, g, r, idx):
    out = np.array(g, copy=True, order="C")
    out.reshape(-1)[idx.reshape(-1)] = np.broadcast_to(r, idx.shape).reshape(-1)
    return out


# PyTorch writes the slice back with copy_ into a clone: its node is a CopySlices
_replace = Op("torch::autograd::CopySlices", _replace_np, inputs=("self", "src"), internal=True, jvp="linear")


@_replace.derivative
def _(ctx, grad):
    # PyTorch's CopySlices around copy_'s CopyBackwards: under create_graph its steps are recorded (the
    # gradient copied into a new tensor, as_strided, a clone for CopyBackwards, which passes it to src;
    # self's part the slice zeroed by copy_ again, a CopySlices over that same copy)
    if graph._state["enabled"]:
        grad = _copy(Tensor._make(np.empty_like(grad._data)), grad)
        g_src = _clone(_take(grad, idx=ctx.idx)) if ctx.needs(1) else None
    else:
        g_src = _take(grad, idx=ctx.idx) if ctx.needs(1) else None
    kept = _replace(grad, Tensor._make(np.zeros((), grad._data.dtype)), idx=ctx.idx) if ctx.needs(0) else None
    return kept, g_src


# the nodes ----------------------------------------------------------------------------

_OVERLAP = ("unsupported operation: more than one element of the written-to tensor refers to a single memory "
            "location. Please clone() the tensor before performing the operation.")


class CopySlices(Node):
    """The base's node after an in-place op on one of its views: runs that op's
    backward on the viewed part of the gradient, passes the rest through."""

    _name = "torch::autograd::CopySlices"

    def __init__(self, base_edge, base_meta, inner, idx):
        super().__init__()
        self.next_functions = (base_edge or (None, 0),) + tuple(inner.next_functions[1:])
        self._input_meta = [base_meta if base_edge else None] + list(inner._input_meta[1:])
        self._out_meta = [base_meta]
        self._inner = inner
        self._idx = idx
        self._order = None  # the base's layout (dense_order), which the base's gradient takes
        self._outside = None  # as_strided's error, for a view that set_ moved past its base's elements
        self._base_overlaps = False  # the base's elements share memory (as_strided_ with a stride 0)

    _released = False

    def apply(self, grads):
        g = grads[0]
        if g is None:
            return (None,) * len(self.next_functions)
        if self._released:  # PyTorch's CopySlices drops its op when released (ERR_BACKWARD_TWICE)
            raise RuntimeError(graph.FREED_MESSAGE)
        if self._base_overlaps:  # (the gradient copied into a tensor of the base's strides: copy_ refuses)
            raise RuntimeError(_OVERLAP)
        if self._outside is not None:  # (a view that set_ moved past its base: as_strided refuses it)
            raise RuntimeError(self._outside)
        inner = self._inner
        needed = graph.needed_now[0]
        own = inner.next_functions[0][0]
        if needed is not None and own is not None and own not in needed and self.next_functions[0][0] in needed:
            # (the op's self edge, its view's node of the time, is no part of autograd.grad's pass: it is
            # wanted when the base is, as PyTorch's op asks: igamma_'s not-implemented input raises)
            graph.needed_now[0] = needed | {own}
        try:
            if graph._state["enabled"]:  # create_graph: PyTorch's steps, each recorded (copy_ into a new
                # tensor, as_strided, a contiguous clone for the op's formula, copy_ back into the slice)
                g = _copy(Tensor._make(np.empty_like(g._data)), g)
                res = tuple(inner.apply([_clone(_take(g, idx=self._idx))]))
            else:
                res = tuple(inner.apply([_take(g, idx=self._idx)]))
        finally:
            graph.needed_now[0] = needed
        if self.next_functions[0][0] is not None and np.unique(self._idx).size != self._idx.size:
            # PyTorch copies the op's gradient into the base's gradient through the view's strides
            # (grad_slice.copy_): an expanded view's elements share memory, which copy_ refuses
            raise RuntimeError(_OVERLAP)
        g_view = res[0]
        if g_view is None:
            g_view = Tensor._make(np.zeros((), g._data.dtype))
        elif g_view._data.shape != self._idx.shape:
            g_view = g_view.sum_to_size(self._idx.shape)
        out = _replace(g, g_view, idx=self._idx)
        # (PyTorch's result: new_empty_strided with the base's sizes and strides, the gradient copied in)
        out._data = in_order(out._data, self._order)
        return (out,) + res[1:]

    @property
    def _saved(self):  # the op's saved tensors: freed with this node (engine), shown with it; never None,
        # so that the engine releases this node (which lets go of its op) after a pass
        saved = self._inner._saved
        return {} if saved is None else saved

    def release(self):
        self._released = True
        # PyTorch's CopySlices lets go of its op, whose saved tensors go with it unless something
        # else holds the op: under create_graph, a saved output whose view is gone has the op
        # itself as its history, and a later pass runs the op directly (it frees them then)
        if sys.getrefcount(self._inner) == 2:  # (this node's attribute and the call's argument)
            inner = self._inner
            inner.release()
            # (and its edges: the view's node of the time, which an earlier in-place op on the view saved
            # by a weak reference, dies with it unless something else keeps it: that op's error then names
            # its own node, as PyTorch's)
            inner.next_functions = ((None, 0),) + tuple(inner.next_functions[1:])

    def saved_tensors_info(self):
        return self._inner.saved_tensors_info()


def view_index(view, base):
    """:func:`flat_index`; for a view whose data ``set_`` moved to other memory (still a view of its
    base to autograd, as in PyTorch), the base's elements its geometry (storage offset, strides)
    addresses, as PyTorch's as_strided of the base reads them."""
    try:
        return flat_index(view, base)
    except RuntimeError:
        idx = np.full(view._data.shape, view.storage_offset() - base.storage_offset(), np.intp)
        for k, (n, step) in enumerate(zip(view._data.shape, view.stride())):
            shape = [1] * idx.ndim
            shape[k] = n
            idx = idx + (np.arange(n, dtype=np.intp) * step).reshape(shape)
        return idx


def _outside(view, base, idx):
    """CopySlices' as_strided of the base's gradient (a new tensor of the base's sizes and strides) with the
    view's geometry: its error where the geometry reaches past that storage (a view set_ moved), else None."""
    n = base._data.size
    if not idx.size or n and int(idx.max()) < n:
        return None
    item = base._data.itemsize
    have = 0 if not n else (1 + sum((k - 1) * abs(s) for k, s in zip(base.shape, base.stride()))) * item
    offset = view.storage_offset() - base.storage_offset()
    need = (offset + 1 + sum((k - 1) * s for k, s in zip(view.shape, view.stride()))) * item
    return (f"setStorage: sizes {list(view.shape)}, strides {list(view.stride())}, storage offset {offset}, and "
            f"itemsize {item} requiring a storage size of {need} are out of bounds for storage of size {have}")


def _copy_slices(base_edge, base, inner, view):
    idx = view_index(view, base)
    node = CopySlices(base_edge, (base._data.shape, base.dtype), inner, idx)
    node._outside = _outside(view, base, idx)
    node._base_overlaps = _has_internal_overlap(base._data)
    return node, idx


def rebase_view(view, inner):
    """An in-place op recorded as ``inner`` on ``view`` itself (set_, which gives the view other
    memory), then PyTorch's rebase_history: the base's history becomes a CopySlices wrapping
    ``inner``, and the view is differentiated through it (AsStridedBackward0)."""
    base = view._base
    _rebase(base, _copy_slices(graph.edge(base), base, inner, view)[0])
    regenerate_view(view)


def _rebase(base, node):
    """The base's history becomes ``node`` (a CopySlices), its retained gradient following."""
    node._order = dense_order(base._data)
    old_fn, old_nr = base._grad_fn, base._output_nr
    base._grad_fn = node
    base._output_nr = 0
    base._requires_grad = True
    if base._retains:
        graph.move_retains_grad(base, old_fn, old_nr)


def _storage_positions(view, base):
    """(the view's, the base's) storage positions of their elements where the base's own elements overlap
    (an as_strided_ of it with a 0 stride): as_strided_backward's way, in storage space, is then the only
    one; so is it where the base, laid out otherwise than C-contiguous (an as_strided_ in place), no longer
    holds every element of the view; else None (the view's elements as indices into the base's, :func:`view_index`)."""
    if not _has_internal_overlap(base._data) and not (not base.is_contiguous() and _outside_base(view, base)):
        return None

    def positions(t):
        pos = np.full(t._data.shape, t.storage_offset(), np.int64)
        for k, (n, step) in enumerate(zip(t._data.shape, t.stride())):
            pos = pos + (np.arange(n, dtype=np.int64) * step).reshape([n if j == k else 1 for j in range(pos.ndim)])
        return pos

    return positions(view), positions(base)


def _outside_base(view, base):
    try:
        flat_index(view, base)
    except RuntimeError:
        return True
    return False


def _in_storage(grad, storage):
    """as_strided_backward: the view's gradient put in storage space (added where its elements overlap),
    divided where the base's elements overlap by how many share each place, read at the base's places."""
    vpos, bpos = storage
    n = int(max(vpos.max(initial=-1), bpos.max(initial=-1))) + 1
    flat = np.zeros(n, grad._data.dtype)
    g = np.asarray(grad._data).reshape(-1)
    if np.unique(vpos).size == vpos.size:
        flat[vpos.reshape(-1)] = g
    else:
        np.add.at(flat, vpos.reshape(-1), g)
    count = np.bincount(bpos.reshape(-1), minlength=n)
    with np.errstate(all="ignore"):
        flat = flat / count.astype(flat.dtype)
    return Tensor._make(flat[bpos])


def regenerate_view(view):
    """Make ``view``'s gradient flow through its base's current history."""
    base = view._base
    node = _take.node()
    node._seq = next(graph._sequence)  # (OpNode has no __init__ of its own)
    node.idx = view_index(view, base)
    node.storage = _storage_positions(view, base)
    old_fn, old_nr = view._grad_fn, view._output_nr
    graph.record(node, (base,), (view,))
    if view._retains:
        graph.move_retains_grad(view, old_fn, old_nr)
    view._view_ver = view._vc[0]


def inplace_through_view(view, fn, args, kwargs):
    """``view.op_(*args)`` recorded on the base (see the module docstring)."""
    base = view._base
    src = inplace_self[0] = view._snapshot()
    try:
        result = fn(src, *args, **kwargs)  # records the op itself (``inner``)
    finally:
        inplace_self[0] = None
    inner = result._grad_fn
    base_edge = graph.edge(base)  # the base's history before the change
    before = base._data.copy() if graph.record_hooks else None
    view._write_data(result)  # through the numpy view: the base's data changes too
    if _dual._ACTIVE[0]:
        _dual.write_tangent(view, result)
    if inner is None:  # (the op records nothing, gcd_ of an integer view: the base keeps its history; the
        regenerate_view(view)  # view, whose version moved, takes a new node from it, as PyTorch's on access)
        return view
    node, idx = _copy_slices(base_edge, base, inner, view)
    _rebase(base, node)
    for hook in graph.record_hooks:  # call: ("view", base's edge and value before, inner node, index)
        hook(node, (base,), (base,), ("view", base_edge, before, inner, idx))
    regenerate_view(view)
    saved = getattr(inner, "_saved", None)
    if saved:  # the op saved its result (relu_, elu_, sigmoid_, ...): PyTorch saves the view itself,
        # after the rebase (a later in-place change to the view is caught)
        for slot in saved.values():
            t = slot.tensor
            if t is result or (slot.is_output and t is not None and t._vc is result._vc):
                slot.save_view(view)
                inner.__dict__[slot.name] = slot.tensor
    return view
