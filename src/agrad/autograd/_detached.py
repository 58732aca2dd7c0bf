"""Tensors ``detach_()`` took out of a graph, for PyTorch's SavedVariable::unpack check: a node that
saved such a tensor as an input while it had history refuses it in backward ("Trying to use a
saved tensor that has been detached in-place ..."); a saved output does not.  The engine looks
here only once some tensor with history was detached in place (:data:`DETACHED` not empty)."""

from __future__ import annotations

import weakref

#: id(tensor) -> (weakref to it, the grad_fn it had when detach_ took it out)
DETACHED: dict = {}


def note_detached(t):
    """``t.detach_()`` of a tensor with history: remembered while ``t`` lives."""
    key = id(t)
    DETACHED[key] = (weakref.ref(t, lambda _, key=key: DETACHED.pop(key, None)), t._grad_fn)


def check_not_detached(t, node):
    """``t``, or PyTorch's error when ``node`` saved ``t`` as an input while ``t`` had the history
    detach_ took (``node`` has an edge to it)."""
    entry = DETACHED.get(id(t))
    if entry is not None and entry[0]() is t and any(f is entry[1] for f, _ in node.next_functions):
        raise RuntimeError("Trying to use a saved tensor that has been detached in-place, i.e. with .detach_()."
                           "This is not supported, please use out-of-place `.detach()` instead")
    return t
