"""Rounding (floor, ceil, round, trunc, frac, sgn's zero gradient) and nan_to_num: ops whose
gradient is zero or a mask, recorded all the same (PyTorch keeps a node for each).

Split from :mod:`unary` by concern; each op is one entry as there.
"""

from __future__ import annotations

import builtins

import numpy as np

from .. import _zero, dtypes
from ..autograd import graph
from ..tensor import Tensor
from ._op import Op, export, finish_out, inplace, method
from ._layout import c_order, resized_by_iterator
from ._outs import out_before_kernel, same_dtype_out
from .comparison import isfinite
from .pointwise import _not_implemented_for, _zeros_like
from .unary import _sign, unary

# ---------------------------------------------------------------------------
# rounding: zero gradient, but recorded (PyTorch keeps a node)
# ---------------------------------------------------------------------------

def _rounding(np_fn, fname, aliases=()):
    def kernel(a):
        if a.dtype.kind == "b":  # integers are copied before the dispatch; bool reaches the float kernel
            raise NotImplementedError(f'"{fname}_vml_cpu" not implemented for \'Bool\'')
        return a.copy(order="K") if a.dtype.kind in "iu" else np_fn(a)

    def derivative(ctx, grad):
        return _zeros_like(grad)

    derivative.__name__ = fname
    api = unary(kernel, saves=(), float_out=False, exports=(fname,) + aliases,  # (no_bool: out resized first)
                no_bool=(NotImplementedError, f'"{fname}_vml_cpu" not implemented for \'Bool\''))(derivative)
    for alias in aliases:
        method(alias)(api)
        method(alias + "_")(inplace(api, name=alias))
    return api


floor = _rounding(np.floor, "floor")
ceil = _rounding(np.ceil, "ceil")
trunc = _rounding(np.trunc, "trunc", ("fix",))

def _round0_fwd(ctx, a):
    if a.dtype.kind == "b":
        raise NotImplementedError('"round_vml_cpu" not implemented for \'Bool\'')
    return a.copy(order="K") if a.dtype.kind in "iu" else np.rint(a)


_round0 = Op("RoundBackward0", _round0_fwd, jvp="element_wise")
_round1 = Op("RoundBackward1", lambda ctx, a, decimals: _round_decimals(a, decimals), jvp="element_wise")
_round0.derivative(lambda ctx, grad: _zeros_like(grad))
_round1.derivative(lambda ctx, grad: _zeros_like(grad))


def _round_decimals(a, decimals):
    """round_decimals_kernel: in the dtype's opmath (float32 for float16/bfloat16), by 10 ** |decimals|
    computed in double and cast to it."""
    op = np.float32 if a.dtype.itemsize < 4 else a.dtype
    ten = np.asarray(10.0 ** builtins.abs(decimals), op)  # abs is an op here
    x = a.astype(op, copy=False)
    with np.errstate(all="ignore"):
        if decimals < 0:
            return (np.rint(x / ten) * ten).astype(a.dtype, copy=False)
        return (np.rint(x * ten) / ten).astype(a.dtype, copy=False)


@export(method=True)
def round(input, *, decimals=None, out=None):
    """Round half to even; with ``decimals``, to that many decimal places."""
    same_dtype_out("round", input, out)
    if out is not None and input.dtype is dtypes.bool_:  # (out resized before the kernel's refusal)
        out_before_kernel("round", input.dtype, input.shape, out)
    if decimals is None:
        return finish_out("round", _round0(input), out)
    if type(decimals) is not int:
        from ._pyargs import check

        if not check("int", decimals):  # (a bool, a float: the parser's message replaces this one)
            raise TypeError(f"round(): argument 'decimals' must be int, not {type(decimals).__name__}")
        decimals = int(decimals)
    if not input.dtype.is_floating_point:  # (decimals=0 runs round's own kernel, the vectorised one)
        _not_implemented_for("round" if decimals else "round_vml", input.dtype)
    return finish_out("round", _round1.apply((input,), (input._data,), {"decimals": int(decimals)}), out)


method("round_")(inplace(round))

_frac = Op("FracBackward0", lambda ctx, a: (a - np.trunc(a)).astype(a.dtype, copy=False), jvp="element_wise")
_frac.derivative(lambda ctx, grad: grad)


@export(method=True)
def frac(input, *, out=None):
    same_dtype_out("frac", input, out)
    if not input.dtype.is_floating_point:
        out_before_kernel("frac", input.dtype, input.shape, out)
        _not_implemented_for("frac", input.dtype)
    return finish_out("frac", _frac(input), out)


method("frac_")(inplace(frac))


@unary(_sign, saves=("self", "result"), float_out=False)  # (PyTorch's sgn_backward reads both)
def sgn(ctx, grad):  # sgn_backward: a ZeroTensor for a real input
    data = grad._data
    if data.dtype.kind == "c":
        return _zeros_like(grad)
    return Tensor._make(_zero.zeros(data.shape, data.dtype))


# ---------------------------------------------------------------------------
# nan_to_num
# ---------------------------------------------------------------------------

def _nan_to_num_fwd(ctx, a, nan, posinf, neginf):
    if a.dtype.kind != "f":
        return a.copy(order="K")
    info = np.finfo(a.dtype)
    if a.dtype == np.float16:  # (static_cast<c10::Half> of a double: through float32)
        with np.errstate(over="ignore"):
            nan, posinf, neginf = (None if v is None else float(np.float32(v)) for v in (nan, posinf, neginf))
    return np.nan_to_num(a, nan=nan, posinf=info.max if posinf is None else posinf,
                         neginf=info.min if neginf is None else neginf)


_nan_to_num = Op("NanToNumBackward0", _nan_to_num_fwd, saves=("self",), jvp="element_wise",
                 contiguous="like")  # (ATen's nan_to_num: empty_like(self), then the kernel into it)


@_nan_to_num.derivative
def _(ctx, grad):
    return grad * isfinite(ctx.self)


@export(method=True)
def nan_to_num(input, nan=0.0, posinf=None, neginf=None, *, out=None):
    if type(nan) is not float or posinf is not None or neginf is not None:
        nan, posinf, neginf = (_float_arg(v) for v in (nan, posinf, neginf))
    nan = 0.0 if nan is None else nan
    if out is not None and out.dtype is not input.dtype:
        from ..tensor import _scalar_name
        raise RuntimeError(f"nan_to_num: dtype of out: {_scalar_name(out.dtype)} should be same as input: "
                           f"{_scalar_name(input.dtype)}")
    result = _nan_to_num.apply((input,), (input._data,), {"nan": nan, "posinf": posinf, "neginf": neginf})
    if out is not None and tuple(out.shape) != tuple(result.shape):  # (an integral input: resize_output(out,
        # sizes), C-ordered, then copy_; a float one: TensorIterator's resize, the empty_like(self) of the call
        # without out not made: an empty out C-ordered too, as its fast set-up lays it out)
        result._data = c_order(result._data) if not input.dtype.is_floating_point \
            else resized_by_iterator(result._data, (input._data,))
    return finish_out("nan_to_num", result, out)


def _float_arg(value):
    """A ``float`` parameter's value (a number or a 0-d tensor without grad, as PyTorch's parser
    takes it); anything else fails, and the public function's wrapper gives the parser's message."""
    if value is None or type(value) is float:
        return value
    from ._pyargs import _is_float

    if not _is_float(value):
        raise TypeError(f"float expected, not {type(value).__name__}")
    return float(value.item() if isinstance(value, Tensor) else value)


_nan_to_num_ = inplace(nan_to_num)


@method("nan_to_num_")
def nan_to_num_(self, nan=0.0, posinf=None, neginf=None):
    if self.dtype.is_floating_point:
        return _nan_to_num_(self, nan, posinf, neginf)
    for value in (nan, posinf, neginf):
        _float_arg(value)
    from ..autograd import grad_mode
    if grad_mode._state["enabled"] and self._requires_grad:  # (inplace's checks, then its self.clone())
        return _nan_to_num_(self, nan, posinf, neginf)
    # PyTorch copies an integral tensor onto itself (result.copy_(self)): nothing written, an expanded one
    # too, and its version counter moves (a tensor saved for a backward is then "modified by an inplace
    # operation")
    self._vc[0] += 1
    for obs in graph.version_observers:
        obs(self)
    return self
