"""Pooling that torch.nn.functional writes over other ops (lp_pool1d/2d/3d), and adaptive max pooling
(adaptive_max_pool1d/2d/3d, with indices: AdaptiveMaxPool2DBackward0/3DBackward0).

``lp_pool`` is F's Python composite: ``avg_pool(x ** p)`` scaled back to a
sum by the window's size, ``(sign(s) * relu(|s|)) ** (1 / p)``; p = +-inf is
a max pooling of ``|x|`` (of ``-|x|``, negated).
"""

from __future__ import annotations

import numpy as np

from ._layout import in_input_format, suggested_format
from ._op import FUNCTIONAL, FUNCTIONS, export
from .nn import _scalar_name
from .pooling import _kernel_name, _max_pool_op, _scatter_fwd


def _ntuple(value, n):
    if isinstance(value, (list, tuple)):
        return tuple(value)
    return (value,) * n


def _lp_pool(n, input, norm_type, kernel_size, stride, ceil_mode):
    names = {1: ("avg_pool1d", "max_pool1d"), 2: ("avg_pool2d", "max_pool2d"), 3: ("avg_pool3d", "max_pool3d")}[n]
    avg, mx = FUNCTIONAL[names[0]], FUNCTIONAL[names[1]]
    if n == 1:
        count = kernel_size
    else:
        ks = _ntuple(kernel_size, n)
        if len(ks) != n:
            raise ValueError(f"too many values to unpack (expected {n})" if len(ks) > n
                             else f"not enough values to unpack (expected {n}, got {len(ks)})")
        count = 1
        for kk in ks:
            count *= kk
    if isinstance(norm_type, (int, float)):
        if norm_type == float("inf"):
            return mx(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -float("inf"):
            return -mx(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = avg(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (FUNCTIONS["sign"](out) * FUNCTIONAL["relu"](FUNCTIONS["abs"](out))).mul(count).pow(1.0 / norm_type)


@export(functional=True, torch=False)
def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """Power-average pooling over one dim: (sum over the window of x ** p) ** (1 / p)."""
    return _lp_pool(1, input, norm_type, kernel_size, stride, ceil_mode)


@export(functional=True, torch=False)
def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """Power-average pooling over two dims."""
    return _lp_pool(2, input, norm_type, kernel_size, stride, ceil_mode)


@export(functional=True, torch=False)
def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """Power-average pooling over three dims."""
    return _lp_pool(3, input, norm_type, kernel_size, stride, ceil_mode)


# ---------------------------------------------------------------------------
# adaptive max pooling: AdaptiveMaxPool2DBackward0 / AdaptiveMaxPool3DBackward0 (1-D: the 2-D op
# between unsqueeze and squeeze, as ATen's adaptive_max_pool1d)
# ---------------------------------------------------------------------------

def _adaptive_bounds(n_in, n_out):
    """ATen's start_index/end_index: floor(o * n / m) to ceil((o + 1) * n / m)."""
    return [((o * n_in) // n_out, -((-(o + 1) * n_in) // n_out)) for o in range(n_out)]


def _adaptive_max_fwd(ctx, x, output_size):
    """Each window's max and its flat index over the spatial dims, as the CPU kernel scans it:
    a greater value or a NaN takes the place (the last NaN wins; all -inf: the first element)."""
    sp = len(output_size)
    lead, size = x.shape[:x.ndim - sp], x.shape[x.ndim - sp:]
    rows = int(np.prod(lead, dtype=np.int64))
    values = np.empty((rows,) + tuple(output_size), x.dtype)
    indices = np.empty((rows,) + tuple(output_size), np.int64)
    flat_x = x.reshape((rows,) + tuple(size))
    bounds = [_adaptive_bounds(n, m) for n, m in zip(size, output_size)]
    for pos in np.ndindex(*output_size):
        spans = [bounds[i][p] for i, p in enumerate(pos)]
        win = flat_x[(slice(None),) + tuple(slice(a, b) for a, b in spans)]
        shape = win.shape[1:]
        win = win.reshape(rows, -1) if win.size else win.reshape(rows, int(np.prod(shape)))
        nan = np.isnan(win) if x.dtype.kind == "f" else np.zeros(win.shape, bool)
        last_nan = win.shape[1] - 1 - np.argmax(nan[:, ::-1], axis=1)
        arg = np.where(nan.any(axis=1), last_nan, np.argmax(win, axis=1))
        local = np.unravel_index(arg, shape)
        flat = np.zeros(rows, np.int64)
        for i, (a, _) in enumerate(spans):
            flat = flat * size[i] + (local[i] + a)
        values[(slice(None),) + pos] = win[np.arange(rows), arg]
        indices[(slice(None),) + pos] = flat
    ctx.indices = indices.reshape(lead + tuple(output_size))
    return values.reshape(lead + tuple(output_size)), ctx.indices


# (the gradient is laid out as the input: channels-last when it is)
_scatter_into_input_format = in_input_format(_scatter_fwd, formats=lambda arrays: suggested_format(arrays[1]))


# (self's zeros C-ordered whatever the gradient's layout, as PyTorch gives them; adaptive_max_pool3d's values,
# indices and gradient C-ordered whatever the input's layout)
_ADAPTIVE_MAX = {2: _max_pool_op(2, "AdaptiveMaxPool{n}D", _adaptive_max_fwd, _scatter_into_input_format, True),
                 3: _max_pool_op(3, "AdaptiveMaxPool{n}D", _adaptive_max_fwd, _scatter_fwd, True, input_format=False)}


def _adaptive_max(sp, input, output_size, kernel_name):
    fname = f"adaptive_max_pool{sp}d"
    if input.ndim not in (sp + 1, sp + 2):
        raise RuntimeError(f"{fname}(): Expected {sp + 1}D or {sp + 2}D tensor, but got: {list(input.shape)}")
    for i in range(1, input.ndim):
        if input.shape[i] == 0:
            raise RuntimeError(f"{fname}(): Expected input to have non-zero size for non-batch dimensions, but "
                               f"input has sizes {list(input.shape)} with dimension {i} being empty")
    size = tuple(int(v) for v in output_size)
    if len(size) != sp:
        raise RuntimeError(f"{fname}(): internal error: output_size.size() must be {sp}")
    if any(v < 0 for v in size):
        shape = list(input.shape[:input.ndim - sp]) + list(size)
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(size)}: {shape}")
    if not input.dtype.is_floating_point:
        if sp == 2:
            kernel_name = _kernel_name(kernel_name, input)
        raise NotImplementedError(f'"{kernel_name}" not implemented for \'{_scalar_name(input.dtype)}\'')
    return _ADAPTIVE_MAX[sp](input, output_size=size)


def _with_default(output_size, shape, aten=None, input=None):
    """F's _list_with_default: None entries take the input's size; ``aten``: the torch._C._nn function the
    result goes to, whose parser takes it as an int list (a bool, a str or a float tensor refused)."""
    if isinstance(output_size, int):
        size = output_size
    else:
        if len(shape) <= len(output_size):
            raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
        size = [v if v is not None else d for v, d in zip(output_size, shape[len(shape) - len(output_size):])]
    if aten is not None and not (type(size) is int or type(size) is list and all(type(v) is int for v in size)):
        from ._pyargs import signature_error
        message = signature_error(aten, "(Tensor input, tuple of ints output_size)", (input, size), {})
        if message is not None:
            raise TypeError(message)
    return size


def _adaptive_max1d(input, output_size):
    from .pooling import parse_as_aten

    parse_as_aten("adaptive_max_pool1d", (input, output_size))
    if input.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional tensor for argument #1 "
                           f"'self' (while checking arguments for adaptive_max_pool1d)")
    size = tuple(output_size) if isinstance(output_size, (list, tuple)) else (output_size,)
    if len(size) != 1:
        raise RuntimeError(f"adaptive_max_pool1d() argument 'output_size' should contain one int (got {len(size)})")
    for i in range(1, input.ndim):
        if input.shape[i] == 0:
            raise RuntimeError(f"adaptive_max_pool1d(): Expected input to have non-zero size for non-batch dimensions, "
                               f"but input has sizes {list(input.shape)} with dimension {i} being empty")
    values, indices = _adaptive_max(2, input.unsqueeze(-2), (1, size[0]), "adaptive_max_pool2d")
    return values.squeeze(-2), indices.squeeze(-2)


def _ntuple_size(output_size, sp):
    if isinstance(output_size, int):
        return (output_size,) * sp
    return tuple(int(v.item()) if type(v).__name__ == "Tensor" else v for v in output_size)


@export(functional=True, torch=False)
def adaptive_max_pool1d(input, output_size, return_indices=False):
    """Max over ``output_size`` windows of the last dim that cover it (AdaptiveMaxPool2DBackward0)."""
    values, indices = _adaptive_max1d(input, output_size)
    return (values, indices) if return_indices else values


@export(functional=True, torch=False)
def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    return _adaptive_max1d(input, output_size)


@export("adaptive_max_pool1d")
def torch_adaptive_max_pool1d(input, output_size):
    return _adaptive_max1d(input, output_size)


@export(functional=True, torch=False)
def adaptive_max_pool2d(input, output_size, return_indices=False):
    """Max over the windows that cover the last two dims (AdaptiveMaxPool2DBackward0)."""
    out = adaptive_max_pool2d_with_indices(input, output_size)
    return out if return_indices else out[0]


@export(functional=True, torch=False)
def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    size = _ntuple_size(_with_default(output_size, tuple(input.shape), "adaptive_max_pool2d", input), 2)
    return _adaptive_max(2, input, size, "adaptive_max_pool2d")


@export(functional=True, torch=False)
def adaptive_max_pool3d(input, output_size, return_indices=False):
    """Max over the windows that cover the last three dims (AdaptiveMaxPool3DBackward0)."""
    out = adaptive_max_pool3d_with_indices(input, output_size)
    return out if return_indices else out[0]


@export(functional=True, torch=False)
def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    size = _ntuple_size(_with_default(output_size, tuple(input.shape), "adaptive_max_pool3d", input), 3)
    return _adaptive_max(3, input, size, "adaptive_max_pool3d_cpu")
