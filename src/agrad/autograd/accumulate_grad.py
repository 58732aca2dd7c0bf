"""AccumulateGrad: how an arriving gradient becomes (or is added into) a leaf's ``.grad``.

PyTorch's AccumulateGrad::accumulateGrad: the first gradient is taken as it is ("stolen")
when nothing else holds it and its layout obeys the gradient layout contract, else
copied as clone_obey_contract lays it out; later ones are added in place (out of place
under create_graph).  The engine (engine.py) calls these for every leaf a pass reaches.
"""

from __future__ import annotations

import numpy as np

from .._arrays import LAZY
from .._zero import ZeroArray
from .._dense import dense as _dense, zero_strided

#: Lazy gradients of (numpy) leaves made by the running pass; computed together at its end.
_lazy_grads: list = []


def _make(array):
    """Tensor._make (bound on first use: this module is imported before the tensor class)."""
    global _make
    from ..tensor import Tensor
    _make = Tensor._make
    return _make(array)


def _held(pending, data):
    """Whether a gradient waiting in another node's buffer (``pending``) is the array ``data`` (add's
    formula hands one gradient to both inputs): PyTorch's AccumulateGrad then sees a use count of 2
    and copies it; the last of the leaves it goes to takes it."""
    for buf in pending.values():
        for v in buf.values():
            if v is data or getattr(v, "_data", None) is data:
                return True
    return False


def _accumulate(node, grad, create_graph, seeds=(), pending=None):
    var = node.variable
    if var is None:
        return
    data = grad._data
    if data.shape != var._data.shape and type(data) is np.ndarray and type(var._data) is np.ndarray:
        return _into_resized(var, data, create_graph)
    if pending and var._grad is None and not create_graph and id(data) not in seeds and _held(pending, data):
        seeds[id(data)] = True  # (copied, as a gradient the caller holds; the last taker takes it)
        try:
            var._grad = _new_grad(None, grad, create_graph, seeds, var._data)
        finally:
            del seeds[id(data)]
    else:
        var._grad = _new_grad(var._grad, grad, create_graph, seeds, var._data)
    if type(var._grad._data) in LAZY and type(var._data) not in LAZY:
        _lazy_grads.append(var._grad)  # a parameter's gradient: computed when the pass ends


def _into_resized(var, data, create_graph):
    """A leaf resized in place since it was used (``x.data = ...``, ``out=``): PyTorch's AccumulateGrad copies
    its first gradient into the leaf's new layout (clone_obey_contract: copy_'s broadcast, or its size error;
    a leaf that is not dense: a contiguous clone of the gradient, of its own shape), adds a later one into
    the ``.grad`` (``variable_grad += new_grad``, out of place under create_graph)."""
    from ..ops._layout import empty_like
    from . import grad_mode
    g = _make(data)
    was = grad_mode._state["enabled"]
    grad_mode._state["enabled"] = bool(create_graph)
    try:
        if var._grad is None:
            if not _dense(var._data):
                var._grad = _make(np.ascontiguousarray(data).copy())
            else:
                var._grad = _make(empty_like(var._data)).copy_(g)
        elif create_graph:
            var._grad = var._grad + g
        else:
            var._grad.add_(g)
    finally:
        grad_mode._state["enabled"] = was


def _accumulate_array(node, data, seeds, pending=None):
    """:func:`_accumulate` in a pass that records nothing, where the gradient arrives as an
    array: the first ``.grad`` takes it when :func:`_takes` says PyTorch would, else a copy;
    later ones are added in place."""
    var = node.variable
    if var is None:
        return
    if data.shape != var._data.shape and type(data) is np.ndarray and type(var._data) is np.ndarray:
        return _into_resized(var, data, False)
    old = var._grad
    if old is not None:
        old._add_inplace_raw(data)
    elif id(data) in seeds or (pending and _held(pending, data)) or not _stealable(data, var._data, seeds):
        var._grad = _make(_copy_for(data, var._data))
    else:
        seeds[id(data)] = False
        var._grad = _make(data)


#: numpy's scalars (what a reduction of every element gives): a leaf takes one as its first ``.grad``
_NP_SCALARS = frozenset({np.float16, np.float32, np.float64, np.complex64, np.complex128})

#: arrays with strides a leaf may take as they are (a ZeroTensor taken stays one; a copy is plain zeros)
_STRIDED = (np.ndarray, ZeroArray)


def _stealable(data, like, seeds):
    """Whether a leaf whose data is ``like`` takes the arriving gradient ``data`` (not one the
    caller holds) as its first ``.grad``: a view as :func:`_takes` says, another array when
    its layout obeys PyTorch's contract (else the leaf gets a copy laid out as the contract
    says, :func:`_copy_for`: PyTorch's clone_obey_contract)."""
    if data.base is not None:
        return _takes(data, like, seeds)
    if type(data) is not np.ndarray or type(like) is not np.ndarray:  # lazy data, a ZeroTensor: as it is
        return True
    if data.flags.c_contiguous and like.flags.c_contiguous and not zero_strided(data):
        return True  # (the common case, answered without the loop)
    return _obeys_layout(data, like)


def _takes(data, like, seeds):
    """Whether PyTorch's AccumulateGrad "steals" the view ``data`` (a numpy array with a base)
    as the first gradient of a leaf whose data is ``like`` (recorded in ``seeds`` if so).

    PyTorch steals a gradient that no one else holds (a view is a new tensor, so a view of
    the caller's ``gradient=`` is stolen and a later accumulation writes into it) when its
    strides obey the layout contract (``obeys_layout_contract``); agrad also keeps a view of
    an array another leaf took from being taken (PyTorch would have copied one of them).
    """
    base = data.base
    if type(data) not in _STRIDED or seeds.get(id(base)) is False or not _obeys_layout(data, like):
        return False
    seeds[id(data)] = False
    seeds.setdefault(id(base), True)  # other views of it may be taken too (PyTorch: each is its own tensor)
    return True


def _obeys_layout(grad, like):
    """PyTorch's ``obeys_layout_contract(grad, variable)`` on arrays of one shape and dtype: the
    variable's strides wherever a size is not 1 (and no 0 stride) if the variable is dense,
    else row-major contiguous."""
    if type(like) is not np.ndarray or not _dense(like):
        return grad.flags.c_contiguous
    from ..ops._layout import torch_strides  # (a dim of one element: PyTorch's stride, ZERO1 read as 0)
    for n, gs, vs, ts in zip(grad.shape, grad.strides, like.strides, torch_strides(grad)):
        if gs != vs if n != 1 else ts == 0:
            return False
    return True


def _copy_for(data, like):
    """A copy of ``data`` laid out as PyTorch's ``clone_obey_contract`` lays it out: with the
    strides of a dense leaf's data ``like``, else row-major."""
    if type(like) is np.ndarray and not like.flags.c_contiguous and type(data) is np.ndarray and _dense(like):
        out = np.empty_like(like)
        np.copyto(out, data)
        return out
    return data.copy()


def _new_grad(old, grad, create_graph, seeds=None, like=None):
    """PyTorch's AccumulateGrad: the leaf's next ``.grad`` given the arriving ``grad``.

    The first gradient is taken when nothing else holds it (see :func:`_takes` for views),
    else copied (a seed passed by the caller stays the caller's); under ``create_graph`` the
    copy is ``copy_`` into a fresh tensor, so the ``.grad`` shows ``CopyBackwards``.
    Later gradients are added (out of place under ``create_graph``).
    """
    # an array a leaf took already is not taken again (add's formula hands the same
    # gradient to both of its inputs)
    data = grad._data
    if seeds is None:
        seeds = {}
    if not create_graph:
        grad = grad.detach()
    if old is None:
        if create_graph:  # a copy_ into a tensor laid out as the contract says (CopyBackwards)
            from ..ops import factories
            if type(like) is np.ndarray and _dense(like):
                return factories.empty_like(_make(like)).copy_(grad)
            return factories.empty(grad.shape, dtype=grad.dtype).copy_(grad)
        if id(data) in seeds or (type(data) in _STRIDED and not _stealable(data, like, seeds)):
            from ..tensor import Tensor
            return Tensor._make(_copy_for(data, like))
        seeds[id(data)] = False
        return grad
    if create_graph:
        return old + grad
    old._add_inplace_raw(grad._data)
    return old


# post-accumulate-grad hooks ---------------------------------------------------------------------

def register_post_accumulate_grad_hook(tensor, hook):
    """``tensor.register_post_accumulate_grad_hook(hook)``: ``hook(tensor)`` runs after each
    accumulation into the leaf's ``.grad`` by ``backward`` (``autograd.grad`` accumulates
    nothing, so runs none), after the leaf's tensor hooks, as PyTorch's (torch/_tensor.py)."""
    from .graph import _HookDict, RemovableHandle, leaf_node
    from . import engine

    if not tensor.requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    if tensor.grad_fn is not None:
        raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
    node = leaf_node(tensor)
    hooks = node.__dict__.get("_post_hooks")
    if hooks is None:
        hooks = node._post_hooks = _HookDict()
    handle = RemovableHandle(hooks)
    hooks[handle.id] = hook
    if _run_post_hooks not in engine.accumulate_observers:
        engine.accumulate_observers.append(_run_post_hooks)
    return handle


def _run_post_hooks(node, grad):
    hooks = node.__dict__.get("_post_hooks")
    if hooks:
        for hook in tuple(hooks.values()):
            hook(node.variable)


def run_post_hooks_of(tensor):
    """The post-accumulate-grad hooks of a leaf ``backward(inputs=...)`` accumulated into."""
    from .graph import accumulator_of
    node = accumulator_of(tensor)
    if node is not None:
        _run_post_hooks(node, None)
