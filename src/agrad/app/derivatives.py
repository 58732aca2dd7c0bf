"""``agrad jacobian`` and ``agrad hessian``: the matrix of the target's derivatives.

The target is chosen by the rule of every command (:mod:`.target`); the
leaves are the tensors that require grad and are reachable from it, named as
``graph`` names them (``w``, ``pair[0]``, ``net.fc.weight``) and ordered as
the script bound them.  Both matrices come from the script's own graph:

* Jacobian: ``d target[i] / d leaf[j]``, one batched backward pass
  (``autograd.grad(..., is_grads_batched=True)``) over the rows of the identity;
* Hessian (a scalar target): the Jacobian of the gradient, taken with
  ``create_graph=True`` and differentiated again the same way.

Rows and columns are flattened in C order and labelled ``y[0, 1]``, ``w[2]``
(a one-element tensor: just its name).
"""

from __future__ import annotations

import numpy as np

from ..autograd import engine
from ..tensor import Tensor


class DerivativeError(Exception):
    """The target cannot be differentiated this way (a usage error, with what to do instead)."""


class Matrix:
    """A derivative matrix with the names of its rows and columns."""

    def __init__(self, kind, target, target_shape, dtype, leaves, rows, columns, values, blocks):
        self.kind = kind                  # "jacobian" | "hessian"
        self.target = target              # the target's name
        self.target_shape = target_shape
        self.dtype = dtype                # the dtype's name ("float32")
        self.leaves = leaves              # [(name, shape)]
        self.rows = rows                  # row labels
        self.columns = columns            # column labels
        self.values = values              # array [len(rows), len(columns)] of the target's dtype
        self.blocks = blocks              # {(row leaf or target, column leaf): array of the block's own shape}


def labels(name: str, shape) -> list[str]:
    """``name[i, j]`` for every element in C order (``name`` alone for a one-element tensor)."""
    shape = tuple(shape)
    n = int(np.prod(shape)) if shape else 1
    if n == 1 and all(s == 1 for s in shape):
        return [name]
    return [f"{name}[{', '.join(map(str, idx))}]" for idx in np.ndindex(*shape)]


def reachable_leaves(t: Tensor, leaf_names: dict):
    """(name, leaf tensor) for each leaf that requires grad and that ``t``'s graph reaches, in binding order."""
    found = set()
    stack = [t._grad_fn]
    seen = set()
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        if type(node).__name__ == "AccumulateGrad":
            found.add(node)
        stack.extend(n for n, _ in node.next_functions)
    out = []
    for node, name in leaf_names.items():
        if node in found and node.variable is not None:
            out.append((name, node.variable))
            found.discard(node)
    for k, node in enumerate(sorted(found, key=lambda n: n._seq)):
        if node.variable is not None:
            out.append((f"<leaf {k}>", node.variable))
    return out


def _check_target(name, t, suggest) -> None:
    if not isinstance(t, Tensor):
        raise DerivativeError(f"the target {name} is not a tensor: nothing to differentiate{suggest}")
    if not t.dtype.is_floating_point:
        raise DerivativeError(f"{name} is {t.dtype.name}: only float targets can be differentiated")
    if not t.requires_grad:
        raise DerivativeError(f"{name} does not require grad: it has no graph{suggest}")
    if t._grad_fn is None:
        raise DerivativeError(f"{name} is a leaf: there is no graph to differentiate{suggest}")


def _identity(n, like: Tensor):
    from .._limits import check_shape
    check_shape((n, n))   # before allocating (--max-elements)
    return Tensor._make(np.eye(n, dtype=like._data.dtype))


def _batched(outputs_flat: Tensor, leaves, *, create_graph=False):
    """d outputs_flat[i] / d leaf for every leaf: arrays [n, *leaf.shape] (zeros where unused)."""
    n = outputs_flat.numel()
    grads = engine.grad(outputs_flat, [t for _, t in leaves], _identity(n, outputs_flat), retain_graph=True,
                        create_graph=create_graph, allow_unused=True, is_grads_batched=True)
    dtype = outputs_flat._data.dtype
    out = []
    for g, (_, leaf) in zip(grads, leaves):
        if g is None:
            out.append(np.zeros((n,) + tuple(leaf.shape), dtype=dtype))
        else:
            out.append(g._data.astype(dtype, copy=False))
    return out


def jacobian(name: str, t: Tensor, leaf_names: dict, suggest: str = "") -> Matrix:
    _check_target(name, t, suggest)
    leaves = reachable_leaves(t, leaf_names)
    if not leaves:
        raise DerivativeError(f"{name} depends on no leaf that requires grad")
    flat = t.reshape(-1)
    per_leaf = _batched(flat, leaves)
    n = flat.numel()
    values = np.concatenate([g.reshape(n, -1) for g in per_leaf], axis=1)
    rows = labels(name, t.shape)
    columns = [c for lname, leaf in leaves for c in labels(lname, leaf.shape)]
    blocks = {(name, lname): g.reshape(tuple(t.shape) + tuple(leaf.shape))
              for g, (lname, leaf) in zip(per_leaf, leaves)}
    return Matrix("jacobian", name, tuple(t.shape), t.dtype.name, [(ln, tuple(lf.shape)) for ln, lf in leaves],
                  rows, columns, values, blocks)


def hessian(name: str, t: Tensor, leaf_names: dict, suggest: str = "") -> Matrix:
    _check_target(name, t, suggest)
    if t.numel() != 1:
        raise DerivativeError(f"{name} has shape {list(t.shape)}: the Hessian needs a scalar target; reduce it "
                              f"({name}.sum()) or pass --of NAME, or ask for its Jacobian (agrad jacobian)")
    leaves = reachable_leaves(t, leaf_names)
    if not leaves:
        raise DerivativeError(f"{name} depends on no leaf that requires grad")
    from ..autograd import grad_mode
    with grad_mode.enable_grad():
        grads = engine.grad(t.reshape(()), [lf for _, lf in leaves], retain_graph=True, create_graph=True,
                            allow_unused=True)
        flat = [g.reshape(-1) if g is not None else None for g in grads]
        sizes = [lf.numel() for _, lf in leaves]
        total = sum(sizes)
        from .._limits import check_shape
        check_shape((total, total))
        values = np.zeros((total, total), dtype=t._data.dtype)
        blocks = {}
        start = 0
        for (rname, rleaf), g, size in zip(leaves, flat, sizes):
            if g is not None and g.requires_grad:
                per_leaf = _batched(g, leaves)
            else:   # the gradient does not depend on the leaves (a linear target): zeros
                per_leaf = [np.zeros((size,) + tuple(lf.shape), dtype=t._data.dtype) for _, lf in leaves]
            values[start:start + size] = np.concatenate([p.reshape(size, -1) for p in per_leaf], axis=1)
            for p, (cname, cleaf) in zip(per_leaf, leaves):
                blocks[(rname, cname)] = p.reshape(tuple(rleaf.shape) + tuple(cleaf.shape))
            start += size
    columns = [c for lname, leaf in leaves for c in labels(lname, leaf.shape)]
    return Matrix("hessian", name, tuple(t.shape), t.dtype.name, [(ln, tuple(lf.shape)) for ln, lf in leaves],
                  list(columns), columns, values, blocks)
