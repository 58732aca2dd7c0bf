"""Forward formulas' arithmetic with PyTorch's zero tensors: a missing tangent is a ZeroTensor, whose
products are zero tensors (recorded, MulBackward0, where the other factor requires grad) and whose sums
and differences give the other operand's values exactly (recorded as AddBackward0 / SubBackward0 where
an operand requires grad).  A value here is a tensor, or :class:`Zero` (a zero tensor, perhaps on the
graph); the formulas of div, maximum, minimum and atan2 are written with them."""

from __future__ import annotations

import numpy as np


class Zero:
    """A zero tensor: ``t`` its stand-in on the graph (zeros), or None when it is off the graph."""

    def __init__(self, t=None):
        self.t = t


def _ops():
    from ..ops.pointwise import _add, _mul, _sub
    from ..tensor import Tensor
    return _add, _mul, _sub, Tensor


def mul(a, b):
    """a * b; a Zero factor gives a Zero (its node where the other factor requires grad)."""
    _add, _mul, _sub, Tensor = _ops()
    if isinstance(a, Zero) or isinstance(b, Zero):
        other = b if isinstance(a, Zero) else a
        if isinstance(other, Zero) or not other._requires_grad:
            return Zero()
        z = np.zeros(other._data.shape, other._data.dtype)
        zt = Tensor._make(z)
        pair = (zt, other) if isinstance(a, Zero) else (other, zt)
        return Zero(_mul.apply(pair, (z, z), {}))
    return a * b


def _stand_in(x, like):
    _, _, _, Tensor = _ops()
    return x.t if x.t is not None else Tensor._make(np.zeros((), like._data.dtype))


def add(a, b):
    """a + b with Zero operands (the other's values; AddBackward0 where an operand requires grad)."""
    _add, _mul, _sub, Tensor = _ops()
    if isinstance(a, Zero) and isinstance(b, Zero):
        return a if b.t is None else b if a.t is None else Zero(a.t + b.t)
    if isinstance(a, Zero):
        za = _stand_in(a, b)
        return _add.apply((za, b), (np.full_like(za._data, -0.0), b._data), {})
    if isinstance(b, Zero):
        zb = _stand_in(b, a)
        return _add.apply((a, zb), (a._data, np.full_like(zb._data, -0.0)), {})
    return a + b


def sub(a, b):
    """a - b with Zero operands (a's values, or -b's; SubBackward0 where an operand requires grad)."""
    _add, _mul, _sub, Tensor = _ops()
    if isinstance(a, Zero) and isinstance(b, Zero):
        return a if b.t is None else Zero(-b.t) if a.t is None else Zero(a.t - b.t)
    if isinstance(a, Zero):
        za = _stand_in(a, b)
        return _sub.apply((za, b), (np.full_like(za._data, -0.0), b._data), {})
    if isinstance(b, Zero):
        zb = _stand_in(b, a)
        return _sub.apply((a, zb), (a._data, np.zeros_like(zb._data)), {})
    return a - b


def tangent(x):
    """A formula's tangent argument: Zero for a missing one."""
    return Zero() if x is None else x


def done(x, like):
    """The formula's result as a tensor (a Zero's values are zeros)."""
    _, _, _, Tensor = _ops()
    if isinstance(x, Zero):
        return x.t if x.t is not None else Tensor._make(np.zeros(like._data.shape, like._data.dtype))
    return x
