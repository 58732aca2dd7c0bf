"""A float's parts: ``frexp`` (mantissa and exponent, C's frexp: FrexpBackward0) and ``angle``
of a real tensor (0, or pi below zero, NaN kept: AngleBackward0, whose gradient is zeros for
real inputs)."""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..tensor import Tensor
from ._layout import cast, iterator_layout
from ._op import Op, export
from ._return_types import return_type

FrexpResult = return_type("frexp", ("mantissa", "exponent"))
FrexpOutResult = return_type("frexp_out", ("mantissa", "exponent"))


def _frexp_fwd(ctx, a):
    mantissa, exponent = np.frexp(a)
    if mantissa.ndim > 1 and 0 in a.strides:  # (TensorIterator's layout: numpy's put a stride-0 dim innermost)
        mantissa, exponent = iterator_layout(mantissa, (a,)), iterator_layout(exponent, (a,))
    ctx.exponent = exponent.astype(np.int32)
    return mantissa, ctx.exponent


_frexp = Op("FrexpBackward0", _frexp_fwd, outputs=1, keeps={"exponent": None})


@_frexp.derivative
def _(ctx, grads):
    # derivatives.yaml: grad / exponent.exp2()
    return grads / Tensor._make(ctx.exponent).exp2()


@export(method=True)
def frexp(input, *, out=None):
    if not input.dtype.is_floating_point:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    mantissa, exponent = _frexp.apply((input,), (input._data,), {})
    if out is not None:
        from ._op import finish_out
        mantissa = finish_out("frexp", mantissa, out[0])
        exponent = finish_out("frexp", exponent, out[1])
        return FrexpOutResult(mantissa, exponent)
    return FrexpResult(mantissa, exponent)


def _angle_fwd(ctx, a):
    out = np.where(a < 0, a.dtype.type(math.pi), a.dtype.type(0))
    return np.where(np.isnan(a), a, out).astype(a.dtype, copy=False)


# (TensorIterator: laid out like its input.) PyTorch saves self (angle_backward's complex formula
# needs it), so a second backward through the node fails; a real input's gradient is
# zeros_like(self) in self's layout
_angle = Op("AngleBackward0", _angle_fwd, saves=("self",), iterated=True)
_angle.derivative(lambda ctx, grad: Tensor._make(np.zeros_like(ctx.self._data)))


@export(method=True)
def angle(input, *, out=None):
    a = input._data
    if not input.dtype.is_floating_point:  # integers and bools give the default float dtype
        a = cast(a, dtypes.get_default_dtype().numpy)  # (laid out like the input, as TensorIterator's cast)
    if out is not None:
        from ._op import finish_out
        return finish_out("angle", _angle.apply((input,), (a,), {}), out)
    return _angle.apply((input,), (a,), {})
