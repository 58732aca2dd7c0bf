"""gcd and lcm of integer tensors (ATen's calc_gcd / calc_lcm, element by element; no gradient).

``gcd``: Euclid on |a| and |b| with C's truncating remainder, so the most negative value (whose
absolute value is itself) gives what PyTorch gives (gcd(INT64_MIN, 6) == -2).  ``lcm``:
``abs(a / gcd * b)``, computed (as in C++) in int for the narrow types and wrapped on overflow,
0 where the gcd is 0.  Both arguments must be tensors; floating and bool dtypes are refused.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..tensor import Tensor
from ._op import export, finish_out, inplace, method
from .comparison import _broadcasting, into_self
from .pointwise import _mismatch_message, operands
from .selection import _scalar


def _gcd(a, b):
    a, b = np.abs(a), np.abs(b)
    a, b = np.broadcast_arrays(a, b)
    a, b = a.copy(), b.copy()
    with np.errstate(all="ignore"):
        while True:
            live = a != 0
            if not live.any():
                return b
            c = a.copy()
            a = np.where(live, np.fmod(b, np.where(live, a, 1)), a)
            b = np.where(live, c, b)


def _lcm(a, b):
    g = _gcd(a, b)
    wide = a.dtype if a.dtype.itemsize == 8 else np.int64  # (C++ computes narrow types in int)
    with np.errstate(all="ignore"):
        q = np.where(g == 0, 0, a.astype(wide) // np.where(g == 0, 1, g).astype(wide))
        r = np.abs(q * b.astype(wide))
    return np.where(g == 0, 0, r).astype(a.dtype)


def _binary(name, kernel, position):
    def fn(input, other, *, out=None):
        if not isinstance(other, Tensor):
            raise TypeError(f"{name}(): argument 'other' (position {position}) must be Tensor, not "
                            + type(other).__name__)
        ts, arrs = operands(input, other, name)
        try:
            np.broadcast_shapes(np.shape(arrs[0]), np.shape(arrs[1]))
        except ValueError:
            raise RuntimeError(_mismatch_message(np.shape(arrs[0]), np.shape(arrs[1]))) from None
        if arrs[0].dtype.kind in "fb":
            from ._outs import out_before_kernel
            out_before_kernel(name, dtypes.from_numpy(arrs[0].dtype),
                              np.broadcast_shapes(np.shape(arrs[0]), np.shape(arrs[1])), out)
            raise NotImplementedError(f'"{name}_cpu" not implemented for \'{_scalar(dtypes.from_numpy(arrs[0].dtype))}\'')
        return finish_out(name, Tensor._make(np.asarray(_broadcasting(kernel, arrs))), out)

    fn.__name__ = name
    return fn


def _torch_fn(name, kernel):
    fn = _binary(name, kernel, 2)

    def torch_fn(input, other, *, out=None):
        if not isinstance(input, Tensor):
            raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
        return fn(input, other, out=out)

    torch_fn.__name__ = name
    return torch_fn


gcd = export("gcd")(_torch_fn("gcd", _gcd))
lcm = export("lcm")(_torch_fn("lcm", _lcm))
method("gcd")(_binary("gcd", _gcd, 1))
method("lcm")(_binary("lcm", _lcm, 1))


def _inplace(name, kernel):
    fn = _binary(name, kernel, 1)

    def fn_(self, other):
        if not isinstance(other, Tensor):
            return fn(self, other)  # (the TypeError)
        return into_self(fn, self, other)

    fn_.__name__ = name + "_"
    return inplace(fn_, partial=True)


gcd_ = export("gcd_", method=True)(_inplace("gcd", _gcd))
lcm_ = export("lcm_", method=True)(_inplace("lcm", _lcm))
