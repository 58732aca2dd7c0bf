"""PyTorch's ZeroTensor: the gradient some formulas return (``sgn``'s of a real input,
``_efficientzerotensor`` in derivatives.yaml): zeros that are known to be zeros.

A tensor is one when its data is a :class:`ZeroArray`, a numpy array of zeros marked by
its type (no flag on every tensor, nothing in the path of other arrays).  What PyTorch's
ZeroTensor does, checked under torch 2.13:

* ``.numpy()`` raises "Cannot convert a ZeroTensor to numpy. Set force=True if you need the
  zero array."; ``.tolist()`` raises; an in-place op on one raises "ZeroTensors are
  immutable...";
* views of one are ZeroTensors (as_strided and unfold too), and so are ``z * t``, ``t * z``, ``z / t``,
  ``z + z`` and dot, vdot and linalg.cross with a ZeroTensor on either side (their kernels: ``any_zero``);
  ``t / z`` is inf everywhere (whatever t: -2, 0, NaN) and ``z / z`` NaN (div.Tensor's kernel); these are
  the functional ops' kernels: mul_, div_, out=, addcmul/addcdiv, a rounding mode and ``//`` materialise
  (``_materialised``): -0.0, NaN and IEEE quotients;
  ``z + t`` is ``t``'s values (a ``-0.0`` stays), ``t + z`` adds a zero (``-0.0`` becomes
  ``+0.0``: the engine's ``old.add_(z)`` when a ZeroTensor arrives second);
* every other op sees plain zeros (PyTorch's fallback materialises it).

numpy's own dispatch (``__array_ufunc__``, ``__array_function__``) gives these rules to
array formulas and tensor ops alike.
"""

from __future__ import annotations

import numpy as np

IMMUTABLE = ("ZeroTensors are immutable. Please use the materialized zero tensor obtained using .clone() if you "
             "want a mutable tensor.")
NUMPY = " Cannot convert a ZeroTensor to numpy. Set force=True if you need the zero array."
TOLIST = "tolist() shouldn't be called on a tensor with unallocated storage"


def zeros(shape, dtype) -> "ZeroArray":
    """A ZeroTensor's data: zeros of ``shape`` and ``dtype`` that own their memory."""
    out = np.ndarray.__new__(ZeroArray, shape, dtype)
    np.ndarray.fill(out, 0)
    return out


def any_zero(*arrays) -> bool:
    """Whether one of ``arrays`` is a ZeroTensor's: an op with a ZeroTensor kernel of its own (dot,
    vdot, linalg_cross) then returns a ZeroTensor, after its checks."""
    return any(type(a) is ZeroArray for a in arrays)


def view_of(src, view):
    """``view`` (a strided view numpy made of ``src``'s data: as_strided, unfold) a ZeroTensor's data
    when ``src`` is (their ZeroTensor kernels keep it one)."""
    return view.view(ZeroArray) if type(src) is ZeroArray and type(view) is not ZeroArray else view


def _plain(x):
    return x.view(np.ndarray) if type(x) is ZeroArray else x


#: What a kernel of PyTorch's own (gelu_backward, elu_backward, ... any op without a ZeroTensor
#: kernel: all but add, sub, mul, div, dot, vdot, linalg_cross and the views) receives for a ZeroTensor:
#: plain zeros (the ZeroTensor fallback materialises it), so its result is no ZeroTensor and
#: keeps the kernel's -0.0 and NaN (0 * inf). The kernel ops in agrad call it on their inputs.
materialized = _plain


def _zero_like(result):
    return zeros(np.shape(result), np.result_type(result))


class ZeroArray(np.ndarray):
    """The data of a ZeroTensor (see the module's docstring)."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        out = kwargs.get("out")
        if out and any(type(o) is ZeroArray for o in out):
            raise RuntimeError(IMMUTABLE)
        plain = [_plain(x) for x in inputs]
        result = getattr(ufunc, method)(*plain, **kwargs)
        if method != "__call__" or out or len(inputs) != 2:
            return result
        a, b = (type(x) is ZeroArray for x in inputs)
        if ufunc is np.true_divide and b:  # (div.Tensor's kernel: x / z inf whatever x, z / z NaN)
            return np.full(np.shape(result), np.nan if a else np.inf, np.result_type(result))
        if ufunc is np.multiply or (a and ufunc is np.true_divide) or (a and b and ufunc in (np.add, np.subtract)):
            return _zero_like(result)
        if a and ufunc is np.add or b and ufunc in (np.add, np.subtract):  # z + t, t + z, t - z: t, as it is
            return np.broadcast_to(plain[1] if a else plain[0], np.shape(result)).astype(result.dtype)
        if a and ufunc is np.subtract:  # z - t: -t (a -0.0 for a 0)
            return np.negative(np.broadcast_to(plain[1], np.shape(result))).astype(result.dtype)
        return result

    def __array_function__(self, func, types, args, kwargs):
        if func is np.copyto and type(args[0] if args else kwargs.get("dst")) is ZeroArray:
            raise RuntimeError(IMMUTABLE)
        result = func(*_unwrap(args), **_unwrap(kwargs))
        if func in _VIEWS and isinstance(result, np.ndarray):
            return result.view(ZeroArray)
        return result

    def __setitem__(self, key, value):
        raise RuntimeError(IMMUTABLE)

    def fill(self, value):
        raise RuntimeError(IMMUTABLE)

    def copy(self, order="C"):  # clone() materialises
        return self.view(np.ndarray).copy(order)

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        if np.dtype(dtype) == self.dtype and not copy:
            return self
        return self.view(np.ndarray).astype(dtype, order, casting, False, copy)

    def __getitem__(self, key):
        result = np.ndarray.__getitem__(self, key)
        if type(result) is ZeroArray and not np.may_share_memory(result, self):
            return result.view(np.ndarray)  # an advanced index copies: a plain array
        return result

    def flatten(self, order="C"):
        return self.view(np.ndarray).flatten(order)


def _unwrap(x):
    if type(x) is ZeroArray:
        return x.view(np.ndarray)
    if type(x) in (tuple, list):
        return type(x)(_unwrap(v) for v in x)
    if type(x) is dict:
        return {k: _unwrap(v) for k, v in x.items()}
    return x


_VIEWS = {np.reshape, np.transpose, np.swapaxes, np.moveaxis, np.squeeze, np.expand_dims, np.broadcast_to,
          np.diagonal, np.ravel, np.atleast_1d, np.atleast_2d, np.ascontiguousarray}
