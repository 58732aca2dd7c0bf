"""Inference tensors: what PyTorch makes of a tensor created in inference mode.

A tensor made while ``torch.inference_mode()`` is on (by any op or factory) is an
*inference tensor*, except a view of a normal tensor; a view of an inference tensor is
one too.  PyTorch keeps no autograd state and no version counter for them, and so
refuses, outside inference mode: an in-place change (after the kernel wrote it: the data
has changed when the error is raised), reading ``_version``, ``requires_grad=True``, and
saving one for backward (an op recorded on other tensors that needs its value).

In agrad the mark is the tensor's version counter (``Tensor._vc``): an inference tensor's
is a :class:`Version`, which refuses a bump outside inference mode and counts nothing
inside; views share it, so a view of an inference tensor is one too.  ``detach()`` and
``.data`` of one give a :class:`TrackedVersion` (PyTorch's shallow copy: still an
inference tensor, with a version counter of its own).
"""

from __future__ import annotations

from numpy import ndarray as _ndarray

from .grad_mode import _state

#: set once an inference tensor was made: the ops' checks cost nothing in a program without any
SEEN = [False]

INPLACE = ("Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a "
           "normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.")
NO_VERSION = "Inference tensors do not track version counter."
SAVED = ("Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in "
         "computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use "
         "it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.")
REQUIRES_GRAD = "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."


class Version(list):
    """The version counter of an inference tensor (PyTorch's is disabled): ``vc[0] += 1`` (every
    in-place write's bump, after the write) raises PyTorch's error outside inference mode and
    counts nothing inside."""

    __slots__ = ()

    def __setitem__(self, i, value):
        if not _state["inference"]:
            raise RuntimeError(INPLACE)


class TrackedVersion(list):
    """The version counter of ``detach()`` or ``.data`` of an inference tensor: an inference tensor
    whose counter counts (PyTorch's shallow copy takes a new version counter)."""

    __slots__ = ()


_KINDS = (Version, TrackedVersion)


def new_version():
    """A new tensor's version counter: an inference tensor's in inference mode."""
    return Version((0,)) if _state["inference"] else [0]


def is_inference(t) -> bool:
    return type(t._vc) in _KINDS


def version(t) -> int:
    """``t._version``: PyTorch's error for an inference tensor's disabled counter."""
    vc = t._vc
    if type(vc) is Version:
        raise RuntimeError(NO_VERSION)
    return vc[0]


def check_requires_grad(t, value) -> None:
    """``requires_grad=True`` on an inference tensor outside inference mode: PyTorch's error."""
    if value and type(t._vc) in _KINDS and not _state["inference"]:
        raise RuntimeError(REQUIRES_GRAD)


def detached_version(t):
    """The version counter of ``t.detach()`` / ``t.data``: its own for an inference tensor."""
    return TrackedVersion((0,)) if type(t._vc) in _KINDS else t._vc


def records(op, tensors, attrs) -> bool:
    """Whether ``op`` (an ops ``Op``) on ``tensors``, some of which require grad, is recorded, when
    inference tensors exist.  PyTorch's autograd kernel runs only when some argument is a normal
    tensor (a Python number in a tensor's place is one: it is wrapped; an array among the attributes
    may have been one, an index), and then refuses to save an inference tensor for backward (before
    the kernel runs)."""
    normal = False
    for t in tensors:
        if t is None or type(t._vc) not in _KINDS:
            normal = True
            break
    if not normal and not any(type(v) is _ndarray for v in attrs.values()):
        return False
    for name, i, users in op._save_plan:
        if i < 0 or (t := tensors[i]) is None or type(t._vc) not in _KINDS:
            continue
        if users is None or any(tensors[u] is not None and tensors[u]._requires_grad for u in users):
            raise RuntimeError(SAVED)
    return True


def check_kept(t, inputs) -> None:
    """An op recorded on ``inputs`` keeps the tensor ``t`` as an array attribute (where's condition,
    masked_fill's mask) where PyTorch saves the tensor: its error for an inference tensor."""
    if SEEN[0] and type(t._vc) in _KINDS and _state["enabled"] and any(
            i is not None and i._requires_grad for i in inputs):
        raise RuntimeError(SAVED)


def check_saved(t) -> None:
    """Saving ``t`` for backward (a custom Function's save_for_backward, an index an op keeps)."""
    if type(t._vc) in _KINDS:
        raise RuntimeError(SAVED)
