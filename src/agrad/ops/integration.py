"""trapezoid / trapz / cumulative_trapezoid: ATen's composites (Integration.cpp) of slices,
arithmetic, sum or cumsum, so their graphs are PyTorch's (SliceBackward0, AddBackward0,
MulBackward0, SumBackward1 / CumsumBackward0, DivBackward0, ...).

- spacing ``x`` (a tensor): ``dx = x[1:] - x[:-1]`` along ``dim`` (a 1-D ``x`` viewed along
  ``dim``, a shorter one padded with leading 1s), then ``((left + right) * dx).sum(dim) / 2``
  (``.cumsum(dim) / 2``);
- constant spacing ``dx`` (a number, 1 by default): ``(y.sum(dim) - (y[0] + y[-1]) * 0.5) * dx``,
  ``(dx / 2 * (left + right)).cumsum(dim)``.
"""

from __future__ import annotations


from .. import dtypes
from ..tensor import Tensor, _wrap_dim, _wrap_dim_no_scalar
from ._op import export
from .nn import div_scalar, mul_scalar


def _slice(t, dim, start, stop):
    if t.ndim == 0:  # (ATen's slice checks this before it wraps the dim)
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    index = (slice(None),) * dim + (slice(start, stop),)
    return t[index]


def _spacing(name, y, x, dim):
    if y.dtype is dtypes.bool_ or x.dtype is dtypes.bool_:
        raise RuntimeError(f"{name}: received a bool input for `x` or `y`, but bool is not supported")
    if x.ndim == 1:
        if y.ndim == 0:  # (y.size(dim) of a 0-d y)
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        if x.shape[0] != y.shape[dim]:
            raise RuntimeError(f"{name}: There must be one `x` value for each sample point")
        sizes = [1] * y.ndim
        sizes[dim] = x.shape[0]
        x = x.view(sizes)
    elif x.ndim < y.ndim:
        x = x.view([1] * (y.ndim - x.ndim) + list(x.shape))
    left = _slice(x, dim, 0, -1)  # (ATen makes x_left first: its node is the older one)
    return _slice(x, dim, 1, None) - left


def _check_dx(name, y, dx):
    if y.dtype is dtypes.bool_:
        raise RuntimeError(f"{name}: received a bool input for `y`, but bool is not supported")
    if isinstance(dx, (bool, complex)) or (isinstance(dx, Tensor) and (dx.dtype is dtypes.bool_)):
        raise RuntimeError(f"{name}: Currently, we only support dx as a real number.")
    return float(dx)


def _overloads(name):
    if name == "trapz":  # (its overloads are listed dx first, the Scalar a double)
        return " * (Tensor y, *, float dx = 1, int dim = -1)\n * (Tensor y, Tensor x, *, int dim = -1)\n"
    return " * (Tensor y, Tensor x, *, int dim = -1)\n * (Tensor y, *, Number dx = 1, int dim = -1)\n"


def _both(name, dx):
    raise TypeError(f"{name}() received an invalid combination of arguments - got (Tensor, Tensor, "
                    f"dx={type(dx).__name__}), but expected one of:\n" + _overloads(name))


def _positional_number(name, x):
    raise TypeError(f"{name}() received an invalid combination of arguments - got (Tensor, {type(x).__name__}), "
                    "but expected one of:\n" + _overloads(name))


@export("trapezoid")
def trapezoid(y, x=None, *, dx=None, dim=-1):
    """The integral of ``y`` along ``dim`` by the trapezoid rule (samples ``x``, or spacing ``dx``)."""
    return _trapezoid(y, x, dx, dim, "trapezoid")


def _trapezoid(y, x, dx, dim, name):
    if x is not None and dx is not None:
        _both(name, dx)
    if x is not None and not isinstance(x, Tensor):
        _positional_number(name, x)
    if x is not None:
        d = _wrap_dim_no_scalar(_wrap_dim(dim, y.ndim), y.ndim)
        if y.shape[d] == 0:
            return _zeros_except(y, d)
        dxs = _spacing("trapezoid", y, x, d)
        return div_scalar(((_slice(y, d, 0, -1) + _slice(y, d, 1, None)) * dxs).sum(d), 2.)
    d = _wrap_dim_no_scalar(dim, y.ndim)
    if y.shape[d] == 0:
        return _zeros_except(y, d)
    step = _check_dx("trapezoid", y, 1 if dx is None else dx)
    # (GCC evaluates ``y.sum(dim) - (...)``'s right operand first: the ends' nodes come before the sum's,
    # which a backward then runs first, its gradient the first one summed into y's)
    ends = mul_scalar(y.select(d, 0) + y.select(d, -1), 0.5)
    return mul_scalar(y.sum(d) - ends, step)


def _zeros_except(y, dim):
    from .factories import zeros
    shape = list(y.shape)
    del shape[dim]
    return zeros(shape, dtype=y.dtype)


@export("trapz")
def trapz(y, x=None, *, dx=None, dim=-1):
    """trapezoid's older name."""
    return _trapezoid(y, x, dx, dim, "trapz")


@export("cumulative_trapezoid")
def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """The running integrals of ``y`` along ``dim`` by the trapezoid rule."""
    if x is not None and dx is not None:
        _both("cumulative_trapezoid", dx)
    if x is not None and not isinstance(x, Tensor):
        _positional_number("cumulative_trapezoid", x)
    if x is not None:
        d = _wrap_dim(dim, y.ndim)
        dxs = _spacing("cumulative_trapezoid", y, x, d)
        return div_scalar(((_slice(y, d, 0, -1) + _slice(y, d, 1, None)) * dxs).cumsum(d), 2.)
    step = _check_dx("cumulative_trapezoid", y, 1 if dx is None else dx)
    d = _wrap_dim(dim, y.ndim) if y.ndim else 0  # (a 0-d y: the slice's own error, whatever dim)
    return mul_scalar(_slice(y, d, 0, -1) + _slice(y, d, 1, None), step / 2.).cumsum(d)


