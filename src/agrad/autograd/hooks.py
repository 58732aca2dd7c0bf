"""The hook handles of tensors, nodes and modules (PyTorch's ``torch.utils.hooks.RemovableHandle``),
and the weakly referable dict the hooks live in."""

from __future__ import annotations

import itertools
import weakref

#: PyTorch's assert when a tensor that retains grad has no retain_grad hook on its old node (graph.move_retains_grad)
STRANDED_RETAIN = ('out != nullptr INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/torch/csrc/autograd/'
                   'variable.cpp":207, please report a bug to PyTorch. ')


class RemovableHandle:
    """What ``register_hook`` returns; ``remove()`` takes the hook away."""

    _ids = itertools.count()

    def __init__(self, hooks: dict):
        self.id = next(RemovableHandle._ids)
        self._hooks = weakref.ref(hooks) if hooks is not None else None

    def remove(self) -> None:
        hooks = self._hooks() if self._hooks is not None else None
        if hooks is not None:
            hooks.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()

    def __repr__(self):
        return f"<torch.utils.hooks.RemovableHandle object at {id(self):#x}>"

    def __deepcopy__(self, memo):
        """A handle on the copy of its hooks dict when that was copied first (a module's
        deep copy), else on the same dict (as PyTorch's state-based copy)."""
        hooks = self._hooks() if self._hooks is not None else None
        new = object.__new__(RemovableHandle)
        new.id = self.id
        target = memo.get(id(hooks), hooks) if hooks is not None else None
        new._hooks = weakref.ref(target) if target is not None else None
        return new


class _HookDict(dict):
    """A dict that a weak reference can point at (plain dicts cannot)."""

    __slots__ = ("__weakref__",)


class NodeHook:
    """A record hook that reads only the node (``fn(node)``: the graph view's origins).  Called as
    any hook is, it calls ``fn``; the short ways of ``ops/_shortcuts.py``, which tell every node the
    program records, call ``fn`` directly, without the tuples of inputs, outputs and call that the
    other hooks are given (three objects fewer for the collector per node of a deep graph)."""

    __slots__ = ("fn",)

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, node, inputs, outputs, call):
        self.fn(node)
