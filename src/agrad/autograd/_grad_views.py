"""``torch.autograd.grad``'s results as PyTorch hands them out: views where the last step made one.

PyTorch's engine returns the very tensor a backward formula made (without create_graph, in no_grad
mode): where that formula makes a view (``grad.expand(sizes)`` of a sum's node, ``grad.reshape`` of a
view's, ``grad.t()``/``transpose``/``permute``, ``squeeze``/``unsqueeze``, a sum_to that drops leading
dims: ``sum(dims, keepdim=True).view(shape)`` of expand's node or of the engine's reduction of a
broadcast binary op's gradient), the result is a view made in no_grad mode, whose base is the root of
its chain of views (the caller's ``grad_outputs`` itself, or the implicit ones).  An in-place op on it
with an operand that requires grad is then refused ("A view was created in no_grad mode ...").  agrad
runs most formulas on numpy arrays: the result is marked a view of that kind after the pass, by the one
node that fed it.
"""

from __future__ import annotations

import numpy as np

from . import _dual, grad_mode

# nodes whose formula's result is always a view of the gradient it was given
_VIEWS = frozenset({"TBackward0", "TransposeBackward0", "TransposeBackward1", "PermuteBackward0",
                    "UnsqueezeBackward0", "UnsqueezeBackward1", "ViewBackward0", "UnsafeViewBackward0",
                    "ReshapeAliasBackward0", "SumBackward0", "SumBackward1", "AsStridedBackward0"})
# a view only where the shape changes (unsqueeze_to / sum_to of leading dims)
_SQUEEZES = frozenset({"SqueezeBackward0", "SqueezeBackward1", "SqueezeBackward2", "SqueezeBackward3",
                       "SqueezeBackward4"})
# broadcasting binary ops whose gradient the engine sums down to the input (validate_outputs' sum_to): a
# view where that drops leading dims
_BROADCASTS = frozenset({"AddBackward0", "SubBackward0", "MulBackward0", "DivBackward0", "RsubBackward0",
                         "ExpandBackward0"})
_RESHAPES = frozenset({"ViewBackward0", "UnsafeViewBackward0", "ReshapeAliasBackward0"})
# formulas that hand the gradient they were given on as it is (add's and sub's self, add's other with
# alpha 1): a view stays one
_SAME = frozenset({"AliasBackward0", "CloneBackward0", "AddBackward0", "SubBackward0"})


def _detached(g):
    """``g`` without history; inside a dual level it keeps its tangent (a gradient taken of a dual
    tensor has one in PyTorch with or without create_graph; detach() alone would drop it)."""
    d = g.detach()
    if _dual._LEVEL[0] is not None:
        t = _dual.tangent_of(g)
        if t is not None:
            _dual.set_tangent(d, t.detach())
    return d


def _feeder(nodes, target):
    """The one (node, input index) whose edge leads to ``target`` (a (node, index) edge), else None
    (``nodes``: {(id(node), index): [(node, input index), ...]}, :func:`_feeders`)."""
    found = nodes.get((id(target[0]), target[1]))
    return found[0] if found is not None and len(found) == 1 else None


def _feeders(nodes):
    out = {}
    for node in nodes:
        for k, (n, i) in enumerate(node.next_functions):
            if n is not None:
                out.setdefault((id(n), i), []).append((node, k))
    return out


def _ancestors(a):
    """The arrays ``a`` is a numpy view of, nearest first (ops._layout.view_ancestors)."""
    from ..ops._layout import view_ancestors
    return view_ancestors(a)


def _kind(node, k):
    """How ``node``'s formula makes the gradient of its input ``k``: ("view", lead) a view of the gradient
    it was given (lead > 0: of a fresh keepdim sum dropping that many leading dims, expand's or the
    engine's sum_to of a broadcast op), ("same",) that gradient itself, ("new",) a new tensor."""
    meta = node._input_meta[k] if k < len(node._input_meta) else None
    name = node.name()
    if name in _VIEWS:
        return ("view", 0)
    if meta is None:
        return ("new",)
    same = tuple(node._out_meta[0][0]) == tuple(meta[0])
    if name in _SQUEEZES or name == "ExpandBackward0" and same:
        return ("view", 0) if not same else ("same",)
    if name in _BROADCASTS and len(node._out_meta[0][0]) > len(meta[0]):
        return ("view", len(node._out_meta[0][0]) - len(meta[0]))
    if name in _SAME and same and (k == 0 or name == "AddBackward0" and getattr(node, "_saved_alpha", 1) == 1):
        return ("same",)
    return ("new",)


def _base_of(nodes, roots, grad_outputs, node, k):
    """None when PyTorch's gradient of ``node``'s input ``k`` is no view, else (its base tensor, or None
    when it is none of agrad's tensors; the base's shape)."""
    viewed = False
    reshaped = None  # (the topmost reshape passed: where a gradient that does not view copies)
    while True:
        kind = _kind(node, k)
        if kind[0] == "new":  # (the base: what this node made for its input)
            return (None, tuple(node._input_meta[k][0]), None) if viewed and k < len(node._input_meta) else None
        if kind[0] == "view":
            if kind[1]:
                return None, (1,) * kind[1] + tuple(node._input_meta[k][0]), None
            if node.name() == "AsStridedBackward0" and k < len(node._input_meta):  # (a fresh storage's worth)
                return None, (int(np.prod(node._input_meta[k][0])),), None
            viewed = True
            if node.name() in _RESHAPES:
                reshaped = tuple(node._input_meta[k][0])
        for (n, i), t in zip(roots, grad_outputs):
            if n is node and i == 0:
                return (t, tuple(t.shape), reshaped) if viewed else None
        up = _feeder(nodes, (node, 0)) if len(node._out_meta) == 1 else None
        if up is None:
            return (None, tuple(node._out_meta[0][0]), reshaped) if viewed else None
        node, k = up


def as_views(result, capture, nodes, roots, grad_outputs):
    """``result`` (the captured gradients, detached) with PyTorch's no_grad-mode views marked."""
    from ..tensor import Tensor
    out = list(result)
    nodes = _feeders(nodes)
    for i, g in enumerate(result):
        if g is None or type(g._data) is not np.ndarray or g._base is not None or g._data.base is None:
            continue
        fed = _feeder(nodes, capture[i])
        if fed is None:
            continue
        found = _base_of(nodes, roots, grad_outputs, *fed)
        if found is None:
            continue
        base, shape, reshaped = found
        if base is not None and reshaped is not None and not np.shares_memory(g._data, base._data):
            base, shape = None, reshaped  # (a reshape of a gradient it cannot view copied it: PyTorch's too)
        if base is None:
            found = next((a for a in _ancestors(g._data) if a.shape == shape), None)
            if found is None and int(np.prod(shape)) == g._data.size:
                found = g._data.reshape(shape)
            if found is None:
                continue
            base = Tensor._make(found)
        view = Tensor._make(g._data if g._data.base is not None else g._data.view())
        was = grad_mode._state["enabled"]
        grad_mode._state["enabled"] = False  # (made in no_grad mode, as the engine runs the formulas)
        try:
            view._make_view_of(base)
        finally:
            grad_mode._state["enabled"] = was
        out[i] = view
    return out
