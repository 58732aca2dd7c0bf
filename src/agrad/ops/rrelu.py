"""rrelu: leaky relu whose negative slope is drawn from U(lower, upper) per element in training
(PyTorch's random stream: one draw per element <= 0, in order) and is their mean otherwise.

As ATen's rrelu_with_noise: the slopes are the op's noise, saved for the backward
(``RreluWithNoiseBackward0``, ``RreluWithNoiseBackward1`` in place), whose own derivative is
the op ``RreluWithNoiseBackwardBackward0``.  prelu is in ``prelu``.
"""

from __future__ import annotations

import math
import sys

import numpy as np

from .. import dtypes
from ._layout import c_order
from ._argcheck import passed_on
from ._op import Op, export, inplace as _inplace
from .activations import _backward_op, check_in_place_slope
from .nn import check_floating

def _rrelu_fwd(ctx, a, noise, eval_slope=None):
    # (rrelu_with_noise_cpu allocates its output contiguous, whatever the input's layout)
    return c_order(np.where(a > 0, a, a * noise).astype(a.dtype, copy=False))


# noise: the slope of each element (1 where the input is positive)
_rrelu_op = Op("RreluWithNoiseBackward0", _rrelu_fwd, saves=("self",))
_rrelu_ = Op("RreluWithNoiseBackward1", _rrelu_fwd, saves=("result",), jvp="unsupported")
_rrelu_.jvp_name = "rrelu_with_noise_"


def _rrelu_backward_layout(out, g, x, noise, training):
    """ATen's rrelu_with_noise_backward: noise * grad when training (noise contiguous: C order), else
    leaky_relu_backward(grad, self), whose TensorIterator takes self first."""
    from ._layout import iterator_layout
    return c_order(out) if training else iterator_layout(out, (x, g))


# rrelu_with_noise_backward is an op of its own (RreluWithNoiseBackwardBackward0, edges to grad_output and
# self; zeros for self): grad * noise (the slope, or 1 where the input is positive)
_rrelu_backward = _backward_op("RreluWithNoiseBackwardBackward0", lambda g, x, noise, training: g * noise,
                               ("noise", "training"), layout=_rrelu_backward_layout)


@_rrelu_op.derivative
def _(ctx, grad):
    return _rrelu_backward(grad, ctx.self, noise=ctx.noise, training=ctx.eval_slope is None)


@_rrelu_.derivative
def _(ctx, grad):
    if ctx.eval_slope is not None:  # (not training: leaky_relu_backward of the result, which checks the slope)
        check_in_place_slope(ctx.eval_slope)
    return _rrelu_backward(grad, ctx.result, noise=ctx.noise, training=ctx.eval_slope is None)


def _check_training_dtype(input):
    check_floating(input, "rrelu_with_noise_out_cpu")
    if input.dtype is dtypes.float16:
        raise NotImplementedError("\"rrelu_with_noise_out_cpu\" not implemented for 'Half'")


def _rrelu_call(op, input, lower, upper, training, generator=None):
    # ATen's rrelu_with_noise: the kernel's dtypes (rrelu's own when training, leaky_relu's
    # otherwise, which has float16); training draws a slope for every element <= 0 (not NaN)
    if training:
        _check_training_dtype(input)
    else:
        check_floating(input, "leaky_relu_cpu")
    a = input._data
    if training:
        # ATen: one uniform_real_distribution<double>(lower, upper) draw per element <= 0, in order, the
        # distribution made (and its bounds checked) for each: no such element, no check
        from . import random as _random
        from .. import _generator
        if a.dtype == np.float32:  # (Scalar::to<float> of the bounds, before the loop: checked)
            for v in (lower, upper):
                if math.isfinite(v) and abs(v) > float(np.finfo(np.float32).max):
                    raise RuntimeError("value cannot be converted to type float without overflow")
        r = np.ones(a.shape, a.dtype)
        neg = a <= 0
        # the bounds are first rounded to the input's opmath type (float for float32)
        lo, hi = (float(a.dtype.type(v)) for v in (lower, upper))
        if neg.any() and not hi - lo <= sys.float_info.max:  # uniform_real_distribution's own check
            raise RuntimeError("Expected to - from <= std::numeric_limits<T>::max() to be true, but got false.  "
                               "(Could this error message be improved?  If so, please report an enhancement "
                               "request to PyTorch.)")
        r[neg] = _random.uniform_values(generator or _generator.default_generator(), int(neg.sum()), dtypes.float64,
                                        lo, hi, top_to_low=False).astype(a.dtype)
        noise = r  # (1 where the input is positive or NaN)
    else:  # leaky_relu with the mean slope; its backward takes the slope where the input is not > 0
        # (float16: leaky_relu's kernels work in float with the slope as a float, rounding once)
        t = np.float32 if a.dtype == np.float16 else a.dtype.type
        noise = np.where(a > 0, t(1), t((lower + upper) / 2))
    return op(input, noise=noise, eval_slope=None if training else (lower + upper) / 2)


def _check_finite(lower, upper):
    for name, v in (("lower", lower), ("upper", upper)):
        if not math.isfinite(v):
            raise RuntimeError(f"rrelu: {name} bound must be finite, got {_c_double(v)}")


def _c_double(v):
    """A double as C++'s stream prints the non-finite ones."""
    return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")


def _rrelu(input, lower, upper, training, inplace, generator=None):
    # ATen's rrelu checks the bounds are finite, then ordered; rrelu_ only that they are ordered (NaN is
    # not), before the in-place write is checked; the kernel then checks they are finite
    lower, upper = float(lower), float(upper)
    if not inplace:
        _check_finite(lower, upper)
    if not lower <= upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    if inplace:  # (the training kernel's dtype: after autograd's checks, before the in-place write's overlap error)
        first = (lambda x, *args, **kwargs: _check_training_dtype(x)) if training else None
        return _inplace(lambda x: _rrelu_call(_rrelu_, x, lower, upper, training, generator), "error",
                        first=first)(input)
    return _rrelu_call(_rrelu_op, input, lower, upper, training, generator)


@export(functional=True, torch=False)
def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """Leaky relu with a slope drawn from U(lower, upper) per element (their mean when not training)."""
    passed_on("rrelu_" if inplace else "rrelu", (("lower", "Number", 2, lower), ("upper", "Number", 3, upper),
                                                 ("training", "bool", 4, training)))  # (torch.rrelu's call)
    return _rrelu(input, lower, upper, training, inplace)


def _torch_rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    """torch.rrelu: the C++ op, which has no ``inplace`` (F.rrelu's)."""
    return _rrelu(input, lower, upper, training, False, generator)


_torch_rrelu.__name__ = _torch_rrelu.__qualname__ = "rrelu"
export("rrelu")(_torch_rrelu)


@export("rrelu_", functional=True)
def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return _rrelu(input, lower, upper, training, True)
