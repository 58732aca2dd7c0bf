"""Shrinkage and thresholds: softshrink, hardshrink, threshold (their own backward ops, as
PyTorch's ``softshrink_backward``/``hardshrink_backward``/``threshold_backward``).

Split from :mod:`activations` by concern; the helpers are that module's.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..tensor import Tensor, _scalar_name
from ._argcheck import passed_on
from ._op import Op, export
from ._vector_loop import loop_lanes, unary_lanes
from .activations import _backward_op, _elementwise, _in_place, _opmath, _scalar, _scalar_tail
from .nn import check_floating
from .unary import _threshold_backward

# ---------------------------------------------------------------------------
# softshrink, hardshrink, threshold
# ---------------------------------------------------------------------------

def _softshrink_np(a, lambd, into=None):
    x = _opmath(a)
    lam = _scalar(x, lambd)
    # zero inside [-lambd, lambd]; a NaN input stays NaN, as PyTorch's kernel gives
    # inside the band PyTorch's vector code gives +0.0, its scalar loop (the last n % block elements
    # of each row of the input's dtype, 32 for float16: _vector_loop.unary_lanes) x * 0: -0.0 for a
    # negative input
    out = np.where((x >= -lam) & (x <= lam), x * 0, np.where(x > lam, x - lam, x + lam)).astype(a.dtype, copy=False)
    # (into an existing ``out=``: TensorIterator's loop over it and the input, whose strides decide the rows)
    lanes = unary_lanes(a) if into is None else loop_lanes([into, a])
    if lanes is not False:  # (a result outside the band is never -0.0)
        np.add(out, out.dtype.type(0), out=out, where=lanes)  # (out: a fresh array)
    return out


_softshrink = Op("SoftshrinkBackward0", lambda ctx, a, lambd, into=None: _softshrink_np(a, lambd, into), saves=("self",),
                 jvp="element_wise")
def _hardshrink_np(ctx, a, lambd):
    # (the kernel compares in the input's type, lambd rounded to it: float16 too, no float opmath)
    lambd = _scalar(a, lambd)
    return np.where((a >= -lambd) & (a <= lambd), 0, a).astype(a.dtype, copy=False)


_hardshrink = Op("HardshrinkBackward0", _hardshrink_np, saves=("self",), jvp="element_wise")


def _shrink_backward_np(g, x, lambd):
    out = np.where((x > lambd) | (x < -lambd), g, 0)
    if lambd != lambd:  # hardshrink's NaN lambd: the vector code's tests fail (0), so does the scalar
        # loop's x >= -lambd && x <= lambd (the gradient): the elements after the last full block
        out = _scalar_tail(np.asarray(out, g.dtype), g, np.float32("nan"), lambda g: g, (g, x))
    return out


_softshrink_backward = _backward_op("SoftshrinkBackwardBackward0", _shrink_backward_np, ("lambd",),
                                    nan_tail=lambda g, **kw: g)
_hardshrink_backward = _backward_op("HardshrinkBackwardBackward0", _shrink_backward_np, ("lambd",),
                                    nan_tail=lambda g, **kw: g)
_softshrink.derivative(lambda ctx, grad: _softshrink_backward(grad, ctx.self, lambd=ctx.lambd))
_hardshrink.derivative(lambda ctx, grad: _hardshrink_backward(grad, ctx.self, lambd=ctx.lambd))


@export(functional=True, torch=False)
def softshrink(input, lambd=0.5, *, out=None):
    check_floating(input, "softshrink_check")
    limit = float(np.finfo(input._data.dtype).max)
    if not 0 <= lambd <= limit:  # (NaN and inf too)
        raise RuntimeError(f"lambda must be in range [0, {limit:g}] for input dtype {_scalar_name(input.dtype)}, "
                           f"but found {lambd:g}")
    if out is not None:
        from ._outs import unary_into
        return unary_into("softshrink", input, out, lambda: _softshrink(input, lambd=lambd, into=out._data))
    return _softshrink(input, lambd=lambd)


@export(method=True, functional=True)
def hardshrink(input, lambd=0.5, *, out=None):
    if out is not None:
        from ._outs import unary_into
        return unary_into("hardshrink", input, out, lambda: hardshrink(input, lambd))
    check_floating(input, "hardshrink_cpu")
    return _hardshrink(input, lambd=lambd)


def _threshold_np(a, threshold, value):
    # PyTorch's kernel: x <= threshold ? value : x (a NaN input stays NaN)
    return np.where(a <= threshold, _scalar(a, value) if a.dtype.kind == "f" else value, a)


_threshold = _elementwise("ThresholdBackward0", _threshold_np)
_threshold_ = _elementwise("ThresholdBackward1", _threshold_np)


def _threshold_derivative(ctx, grad):
    return _threshold_backward(grad, ctx.self, threshold=ctx.threshold)


_threshold.derivative(_threshold_derivative)
_threshold_.derivative(_threshold_derivative)


def _threshold_scalars(input, threshold, value):
    """The kernel's Scalar::to<scalar_t>() of both numbers (uint8: -1 is 255, 0.5 is 0)."""
    d = input._data.dtype
    return dtypes.kernel_scalar(threshold, d), dtypes.kernel_scalar(value, d)


def _threshold_call(input, threshold, value, inplace):
    if isinstance(input, Tensor) and input.dtype.name == "bool":
        raise NotImplementedError('"threshold_cpu" not implemented for \'Bool\'')
    if inplace:
        # (threshold_ writes through ATen's threshold_out: no internal-overlap check, an expanded input is taken)
        def write(x):
            t, v = _threshold_scalars(x, threshold, value)
            return _threshold_(x, threshold=t, value=v)

        return _in_place(write, input, overlap="allow")
    threshold, value = _threshold_scalars(input, threshold, value)
    return _threshold(input, threshold=threshold, value=value)


@export(functional=True, torch=False)
def threshold(input, threshold, value, inplace=False):
    """``input`` where it is greater than ``threshold``, else ``value``."""
    passed_on("threshold_" if inplace else "threshold", (("threshold", "Number", 2, threshold),
                                                         ("value", "Number", 3, value)))  # (_VF.threshold's call)
    return _threshold_call(input, threshold, value, inplace)


threshold.__qualname__ = "_threshold"  # (F.threshold is torch's _threshold: Python's own argument errors)


def _torch_threshold(input, threshold, value, *, out=None):
    """torch.threshold: the C++ op, which has no ``inplace`` (F.threshold's) but an ``out=``."""
    from ._op import finish_out
    return finish_out("threshold", _threshold_call(input, threshold, value, False), out)


_torch_threshold.__name__ = _torch_threshold.__qualname__ = "threshold"
export("threshold")(_torch_threshold)


@export("threshold_", functional=True)
def threshold_(input, threshold, value):
    return _threshold_call(input, threshold, value, True)
