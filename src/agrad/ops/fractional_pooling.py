"""Fractional max pooling: F.fractional_max_pool2d/3d (with indices), ATen's fractional_max_pool2d/3d.

Each plane (one per batch element and channel) draws one sample u in [0, 1) per pooled dim (F's
``torch.rand(N, C, 2 or 3, dtype=input.dtype)`` when no ``_random_samples`` is given: agrad's
PyTorch-exact stream, so a seeded run pools the same windows).  The window starts along a dim of
input size n, output size o and kernel k are ATen's ``generate_intervals`` in the input's dtype:
alpha = (n - k) / (o - 1), start[i] = int((i + u) * alpha) - int(u * alpha) for i < o - 1, and
n - k for the last.  Each window's maximum is taken as the kernel's loop does (the first largest,
a NaN whenever one is met: the last NaN).  The backward (FractionalMaxPool2DBackward0 /
FractionalMaxPool3DBackward0) adds each gradient at its arg-max, one after another in the
output's order (np.add.at in the dtype: the kernel's sequence of adds); its own derivative
gathers the gradient back (FractionalMaxPool2DBackwardBackward0).
"""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..tensor import Tensor, _scalar_name
from ._op import FUNCTIONS, Op, export
from .factories import zeros_like
from .nn import const

_FLOATS = ("float32", "float64", "float16", "bfloat16")


def _intervals(samples, n_in, n_out, k, dtype):
    """ATen's generate_intervals for every plane: (planes, n_out) window starts. ``samples``:
    (planes,) in the input's dtype; arithmetic in that dtype (a half's every step rounded)."""
    planes = samples.shape[0]
    seq = np.empty((planes, n_out), np.int64)
    if n_out > 1:
        t = samples.dtype.type
        alpha = np.asarray(t(n_in - k) / t(n_out - 1), samples.dtype)
        i = np.arange(n_out - 1).astype(samples.dtype)
        u = samples[:, None]
        seq[:, :-1] = _trunc((i[None, :] + u) * alpha) - _trunc(u * alpha)
    if n_out:
        seq[:, -1] = n_in - k
    return seq


def _trunc(a):
    """static_cast<int>: toward zero."""
    return np.trunc(a.astype(np.float64)).astype(np.int64)


def _fractional_fwd(ctx, x, samples, kernel, output_size):
    """(values, indices): the maximum of each fractional window, indices flat over the pooled dims."""
    sp = len(kernel)
    batched = x.ndim == sp + 2
    xb = x if batched else x[None]
    N, C = xb.shape[:2]
    size = xb.shape[2:]
    planes = xb.reshape((N * C,) + size)
    smp = samples[:N].reshape(N * C, sp)
    # (the 2-D kernel's first sample is the width's, the second the height's; the 3-D one's time, height, width)
    which = (1, 0) if sp == 2 else (0, 1, 2)
    starts = [_intervals(np.ascontiguousarray(smp[:, which[d]]), size[d], output_size[d], kernel[d], samples.dtype)
              for d in range(sp)]
    # the window of each output position: (planes, *out, *kernel) positions along each dim
    P = N * C
    idx = []
    for d in range(sp):
        s = starts[d][:, :, None] + np.arange(kernel[d])[None, None, :]  # (P, o_d, k_d)
        shape = [P] + [1] * sp + [1] * sp
        shape[1 + d], shape[1 + sp + d] = output_size[d], kernel[d]
        idx.append(s.reshape(shape))
    flat = idx[0]
    for d in range(1, sp):
        flat = flat * size[d] + idx[d]
    flat = np.broadcast_to(flat, (P,) + tuple(output_size) + tuple(kernel)).reshape(
        (P,) + tuple(output_size) + (math.prod(kernel),))
    n_window = flat.shape[-1]
    lead = (P,) + tuple(output_size)
    if n_window == 0 or P == 0 or math.prod(output_size) == 0:
        values = np.full(lead, -np.inf, x.dtype)
        indices = np.zeros(lead, np.int64)
    else:
        win = _gather(planes.reshape(P, -1), flat)
        arg = np.argmax(win, axis=-1)[..., None]
        nan = np.isnan(win)
        if nan.any():  # (val > max || isnan(val): the last NaN met)
            last = n_window - 1 - np.argmax(nan[..., ::-1], axis=-1)[..., None]
            arg = np.where(nan.any(-1, keepdims=True), last, arg)
        values = np.take_along_axis(win, arg, -1)[..., 0]
        indices = np.take_along_axis(flat, arg, -1)[..., 0]
    out_shape = ((N, C) if batched else (C,)) + tuple(output_size)
    ctx.indices = indices.reshape(out_shape)
    return np.ascontiguousarray(values.reshape(out_shape)), ctx.indices


def _gather(planes, flat):
    """planes (P, n) at flat (P, *out, w): the window values."""
    P = planes.shape[0]
    return np.take_along_axis(planes, flat.reshape(P, -1), axis=1).reshape(flat.shape)


def _scatter_fwd(ctx, g, x, indices, size):
    """Each gradient added at its input position, in order, in the gradient's dtype."""
    n = math.prod(size)
    sp = len(size)
    lead = g.shape[:g.ndim - sp]
    rows = math.prod(lead)
    out = np.zeros(rows * n, g.dtype)
    flat = (indices.reshape(rows, -1) + np.arange(rows)[:, None] * n).ravel()
    np.add.at(out, flat, np.ascontiguousarray(g).reshape(-1))
    return out.reshape(lead + tuple(size))


def _fractional_op(n):
    # (random_samples is not differentiable: an attribute, no edge, as PyTorch's node has none)
    op = Op(f"FractionalMaxPool{n}DBackward0", _fractional_fwd, outputs=1, saves=("self", "result1"),
            output_names=("result0", "result1"))
    back = Op(f"FractionalMaxPool{n}DBackwardBackward0", _scatter_fwd, inputs=("grad_output", "self"),
              internal=True, jvp="linear", keeps={"indices": "indices"})

    @op.derivative
    def _(ctx, grad):
        return back(grad, ctx.self, indices=ctx.result1._data, size=tuple(ctx.input_shape[-n:]))

    @back.derivative
    def _(ctx, grad):
        flat = grad.reshape(*grad.shape[:grad.ndim - n], -1)
        idx = const(ctx.indices.reshape(*ctx.indices.shape[:ctx.indices.ndim - n], -1))
        gg = flat.gather(-1, idx).reshape(ctx._input_meta[0][0]) if ctx.needs(0) else None
        return gg, (zeros_like(grad) if ctx.needs(1) else None)

    return op


_OPS = {2: _fractional_op(2), 3: _fractional_op(3)}


def _ints(v, n):
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return (int(v),) * n
    return tuple(int(x) for x in v)


def _check(n, input, kernel, output_size, samples):
    """ATen's checks of fractional_max_pool2d/3d, in its order."""
    name = f"fractional_max_pool{n}d"
    fn = name + ("()" if n == 2 else "_out()")
    three = "tuple of Ints" if n == 2 else "tuple of three Ints"
    if len(kernel) != n:
        raise RuntimeError(f"{name}: kernel_size must either be a single Int or {three}")
    if len(output_size) != n:
        raise RuntimeError(f"{name}: output_size must either be a single Int or {three}")
    if input.ndim not in (n + 1, n + 2):
        raise RuntimeError(f"{fn}: Expected {n + 1}D or {n + 2}D tensor, but got: {list(input.shape)}")
    first = 1 if input.ndim == n + 2 else 0
    for i in range(first, input.ndim):
        if input.shape[i] == 0:
            raise RuntimeError(f"{fn}: Expected input to have non-zero size for non-batch dimensions, but got"
                               f"{list(input.shape)} with dimension {i} being empty.")
    size = input.shape[-n:]
    names = ("height", "width") if n == 2 else ("time", "height", "width")
    order = (0, 1) if n == 2 else (0, 2, 1)  # (the 3-D kernel checks time, width, height)
    for d in order:
        ok = output_size[d] + kernel[d] - 1 <= size[d] if n == 2 else output_size[d] + kernel[d] - 1 < size[d]
        if not ok:
            raise RuntimeError(f"{fn}: pool {names[d]} {kernel[d]} too large relative to input {names[d]} {size[d]}")
    if any(k <= 0 for k in kernel):  # (ATen pools nothing there: -inf, and indices past the input)
        raise RuntimeError(f"{name}: agrad refuses kernel_size {list(kernel)}: PyTorch's kernel reads outside the "
                           "input for a kernel size below 1")
    if samples.dtype is not input.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    if samples.ndim != 3:
        raise RuntimeError(f"Expect _random_samples to have 3 dimensions, got {samples.ndim}")
    batch = input.shape[0] if input.ndim == n + 2 else 1
    if samples.shape[0] < batch:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    if samples.shape[1] != input.shape[first]:
        raise RuntimeError("Expect _random_samples.size(1) equals to input channel size.")
    if samples.shape[2] != n:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {n}; got {samples.shape[2]}.")
    if input.dtype.name not in _FLOATS:
        raise NotImplementedError(f'"{name}_out_frame" not implemented for \'{_scalar_name(input.dtype)}\'')


def _fractional(n, input, kernel_size, output_size, output_ratio, _random_samples):
    if not isinstance(input, Tensor):
        raise AttributeError(f"'{type(input).__name__}' object has no attribute 'dim'")
    if output_size is None and output_ratio is None:
        raise ValueError(f"fractional_max_pool{n}d requires specifying either an output_size or an output_ratio")
    if output_size is None:
        if n == 2 and len(output_ratio) > 2:  # (F's len() of the ratio: a float fails there)
            raise ValueError("fractional_max_pool2d requires output_ratio to either be a single Int or tuple of Ints.")
        ratio = tuple(output_ratio) if isinstance(output_ratio, (list, tuple)) else (output_ratio,) * n
        output_size = [int(input.size(-n + d) * ratio[d]) for d in range(n)]
    if _random_samples is None:
        batch = 1 if input.dim() == n + 1 else input.size(0)
        _random_samples = FUNCTIONS["rand"](batch, input.size(-n - 1), n, dtype=input.dtype)
    kernel, out = _ints(kernel_size, n), _ints(output_size, n)
    _check(n, input, kernel, out, _random_samples)
    return _OPS[n](input, samples=_random_samples._data, kernel=kernel, output_size=out)


@export(functional=True, torch=False)
def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                                       _random_samples=None):
    """(values, indices) of fractional max pooling over the last two dims."""
    return _fractional(2, input, kernel_size, output_size, output_ratio, _random_samples)


@export(functional=True, torch=False)
def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                                       _random_samples=None):
    """(values, indices) of fractional max pooling over the last three dims."""
    return _fractional(3, input, kernel_size, output_size, output_ratio, _random_samples)


@export(functional=True, torch=False)
def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """Max pooling over pseudo-random windows of the last two dims (Graham's fractional max pooling)."""
    values, indices = _fractional(2, input, kernel_size, output_size, output_ratio, _random_samples)
    return (values, indices) if return_indices else values


@export(functional=True, torch=False)
def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """Max pooling over pseudo-random windows of the last three dims."""
    values, indices = _fractional(3, input, kernel_size, output_size, output_ratio, _random_samples)
    return (values, indices) if return_indices else values
