"""A saved input detached in place: PyTorch's check in ``SavedVariable::unpack``.

PyTorch keeps a saved input (not an output) as the tensor itself and reads its ``grad_fn``
when a formula unpacks it; ``detach_()`` clears that, so an input that had a history when it
was saved (``is_leaf_`` false) and has none now raises :data:`MESSAGE` (before the version
check).  Only a formula's unpack of a saved input raises it: a saved output is unpacked with its
node (``saved_for``), and so are a custom Function's ``ctx.saved_tensors`` and
``node._saved_<name>``; a tensor packed by saved-tensor hooks keeps the history it had.

A saved input's slot keeps the ``grad_fn`` its tensor had when saved (``_history``, None: a
leaf).  ``DETACHES`` counts the tensors with a history detached in place (:func:`mark`): until
one is, the backward pass never looks.
"""

from __future__ import annotations

#: how many tensors with a history were detached in place (0: the backward pass skips the check)
DETACHES = [0]

MESSAGE = ("Trying to use a saved tensor that has been detached in-place, i.e. with .detach_()."
           "This is not supported, please use out-of-place `.detach()` instead")


def mark(tensor) -> None:
    """``tensor.detach_()`` is about to clear its history: from now on, formulas check."""
    if tensor._grad_fn is not None:
        DETACHES[0] += 1


def detached(node, slot) -> bool:
    """Whether ``slot``, an input ``node``'s formula saved while it had a history, has none now
    (a saved output, a custom Function's, a packed one: never)."""
    return (getattr(slot, "_history", None) is not None and getattr(slot.tensor, "_grad_fn", 0) is None
            and not slot.is_output and not node._custom)


def check(node, slot) -> None:
    """Raise PyTorch's error if ``slot`` is a saved input detached in place (:func:`detached`)."""
    if DETACHES[0] and detached(node, slot):
        raise RuntimeError(MESSAGE)
