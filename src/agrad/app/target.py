"""Which tensor a command is about: the target rule of docs/cli.md ("The target").

1. ``--of NAME``;
2. the tensor the script last started a backward pass from -- ``.backward()``,
   ``autograd.backward`` or ``autograd.grad`` -- when a variable still holds it;
3. the last tensor assigned that is a scalar, requires grad and is not a leaf;
4. the closing bare expression when it is a tensor (``_``), else the last
   tensor assigned.

The engine knows nothing of this: :class:`BackwardRoots` is one of its
start observers (``engine.start_observers``, told of the node each backward
pass runs first, which is always one of its roots) and keeps it.
"""

from __future__ import annotations

import weakref

#: Why the target was chosen, for the note on standard error.
REASONS = {
    "of": "--of",
    "backward": "the script's last backward pass started from it",
    "scalar": "the last non-leaf scalar assigned that requires grad",
    "expression": "the script's closing expression",
    "last": "the last tensor assigned",
}


class BackwardRoots:
    """An engine start observer: the root node of the latest backward pass, held weakly."""

    def __init__(self):
        self._root = None

    def __call__(self, node):
        try:
            self._root = weakref.ref(node)
        except TypeError:
            self._root = lambda node=node: node

    @property
    def root(self):
        return self._root() if self._root is not None else None

    def __enter__(self):
        from ..autograd import engine
        engine.start_observers.append(self)
        return self

    def __exit__(self, *exc):
        from ..autograd import engine
        try:
            engine.start_observers.remove(self)
        except ValueError:
            pass
        return False


def _is_tensor(v) -> bool:
    from ..tensor import Tensor
    return isinstance(v, Tensor)


def _accumulator_of(v):
    from ..autograd.graph import accumulator_of
    return accumulator_of(v)


def _wants_backward(v) -> bool:
    """A scalar float tensor with a graph: what ``backward()`` can start from."""
    return (_is_tensor(v) and v._grad_fn is not None and v._requires_grad and v._data.size == 1
            and v.dtype.is_floating_point)


def choose(namespace: dict, result, roots: BackwardRoots | None):
    """(name, value, reason key) by the rule above, without ``--of``; (None, None, None) if none."""
    root = roots.root if roots is not None else None
    if root is not None:
        for name, v in reversed(list(namespace.items())):
            if _is_tensor(v) and (v._grad_fn is root or _accumulator_of(v) is root):
                return name, v, "backward"
    for a in reversed(result.assignments or []):
        name, v = (a.name, a.value) if hasattr(a, "name") else (a[0], a[1])
        if _wants_backward(v) and namespace.get(name) is v:
            return name, v, "scalar"
    if result.has_last_value and _is_tensor(result.last_value):
        return "_", result.last_value, "expression"
    name = result.last_tensor_name
    if name is not None and name in namespace:
        return name, namespace[name], "last"
    if result.has_last_value:
        return "_", result.last_value, "expression"
    return None, None, None


def candidates(namespace: dict, *, exclude=None, limit=5) -> list[str]:
    """Names worth suggesting for ``--of``: scalars with a graph, the latest first."""
    names = [k for k, v in reversed(list(namespace.items())) if k != exclude and _wants_backward(v)]
    if not names:
        names = [k for k, v in reversed(list(namespace.items()))
                 if k != exclude and _is_tensor(v) and v._grad_fn is not None]
    return names[:limit]


def suggest_of(namespace: dict, exclude=None) -> str:
    """``pass --of NAME (loss, l4)`` -- or the empty string when there is no candidate."""
    names = candidates(namespace, exclude=exclude)
    if not names:
        return ""
    return f"pass --of NAME ({', '.join(names)})"


def note(name: str, reason: str) -> str:
    return f"agrad: target {name}: {REASONS[reason]} (--of NAME picks another)"
