"""torch.autograd.forward_ad: dual tensors and forward-mode AD (Jacobian-vector products).

``with dual_level(): y = f(make_dual(x, v)); unpack_dual(y).tangent`` is ``J_f(x) @ v``.
How tangents move through ops is in ``agrad.autograd._dual``.
"""

from __future__ import annotations

from typing import NamedTuple

from . import _dual
from ._dual import _LEVEL

__all__ = ["UnpackedDualTensor", "dual_level", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual"]


# the API ------------------------------------------------------------------------

def enter_dual_level():
    """Enter a forward-AD level (only one at a time, as in PyTorch); returns its number."""
    if _LEVEL[0] is not None:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _LEVEL[0] = 0
    _dual._ACTIVE[0] = True
    return 0


def exit_dual_level(*, level=None):
    """Leave the level: every tangent made in it is dropped."""
    current = -1 if _LEVEL[0] is None else _LEVEL[0]
    if level is None:
        level = current
    if level != current:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that was created. "
                           "This is not supported.")
    if level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    _dual.drop_all()


class dual_level:
    """Context manager (and decorator) around enter_dual_level / exit_dual_level."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()
        return False

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with dual_level():
                return fn(*args, **kwargs)

        return wrapper

    def __repr__(self):
        return f"<torch.autograd.forward_ad.dual_level object at {id(self):#x}>"


class UnpackedDualTensor(NamedTuple):
    """What unpack_dual returns: the primal and its tangent (None when it has none)."""

    primal: object
    tangent: object




def make_dual(tensor, tangent, *, level=None):
    """A new tensor aliased to ``tensor`` (a view; backward-differentiable) that carries ``tangent``."""
    tangent = _checked_tangent(tensor, tangent, level)
    from ..ops.views import _view, _view_op

    with _dual._paused():
        dual = _view(_view_op, tensor, tensor._data, {"shape": tensor._data.shape})
    _dual.set_tangent(dual, tangent)
    return dual


def _checked_tangent(tensor, tangent, level=None):
    """make_dual's checks, in PyTorch's order; the tangent to store (copied to ``tensor``'s layout)."""
    if level is None:
        level = -1 if _LEVEL[0] is None else _LEVEL[0]
    if level < 0:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, make sure to "
                           "enter_dual_level() first.")
    for what, t in (("primal", tensor), ("tangent", tangent)):
        if not hasattr(t, "is_floating_point") or not hasattr(t, "_data"):
            raise AttributeError(f"'{type(t).__name__}' object has no attribute 'is_floating_point'")
        if not t.is_floating_point():
            raise ValueError(f"Expected {what} to be floating point or complex, but got: {t.dtype}")
    if level != _LEVEL[0]:
        raise RuntimeError("Invalid level given to _make_dual")
    if tangent._data.shape != tensor._data.shape:
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the original Tensor, this is "
            f"not supported. Tensor is of size {list(tensor._data.shape)} while the given forward gradient is of "
            f"size {list(tangent._data.shape)}.")
    if _dual.tangent_of(tensor) is not None:
        raise RuntimeError(f"Making a dual Tensor based on a Tensor that already has a forward gradient at the "
                           f"same level {level} is not supported.")
    if tangent._data.strides != tensor._data.strides and tangent._data.dtype == tensor._data.dtype:
        tangent = tangent.contiguous() if tensor._data.flags.c_contiguous else tangent.clone()  # copied, as PyTorch
    return tangent


def unpack_dual(tensor, *, level=None):
    """(primal, tangent): the primal a view of ``tensor`` without tangent; the tangent as it is stored."""
    if level is None:
        level = -1 if _LEVEL[0] is None else _LEVEL[0]
    if level < 0:
        return UnpackedDualTensor(tensor, None)
    if not hasattr(tensor, "_data"):
        raise TypeError(f"_unpack_dual(): argument 'dual' (position 1) must be Tensor, not {type(tensor).__name__}")
    if level != _LEVEL[0]:
        raise RuntimeError("Invalid level given to _fw_primal")
    tangent = _dual.tangent_of(tensor)
    if tangent is None:
        return UnpackedDualTensor(tensor, None)
    from ..ops.views import _fw_primal

    with _dual._paused():
        primal = _fw_primal(tensor)
    _dual.set_tangent(primal, None)  # a view of a dual tensor that has no tangent of its own
    return UnpackedDualTensor(primal, tangent)


