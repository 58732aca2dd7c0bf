"""Pooling that torch.nn.functional writes over other ops (lp_pool1d/2d/3d) and adaptive max pooling.

``lp_pool`` is F's Python composite: ``avg_pool(x ** p)`` scaled back to a
sum by the window's size, ``(sign(s) * relu(|s|)) ** (1 / p)``; p = +-inf is
a max pooling of ``|x|`` (of ``-|x|``, negated).
"""

from __future__ import annotations

from ._op import FUNCTIONAL, FUNCTIONS, export


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
