"""Window functions: hann, hamming, blackman, bartlett and kaiser windows, as ATen makes them.

Each is built from ``arange`` with agrad's own in-place ops, step by step as ATen's
TensorFactories.cpp does (``arange(N).mul_(2 pi / (N - 1)).cos_().mul_(-beta).add_(alpha)``
for hamming), so its values are PyTorch's bit for bit; a periodic window is the symmetric
window of ``N + 1`` points without its last.  kaiser_window is ATen's kernel on each point,
in float for float16 (opmath):
``i0(beta * sqrt(|1 - ((n - alpha) / alpha) ** 2|)) / i0(beta)``, ``alpha = (N - 1) / 2``
(``1 - x * x`` one fused multiply-add, as the compiler makes it).
A window is a new leaf (``requires_grad=`` as any factory).
"""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..autograd import grad_mode
from ._op import export, _C_TYPE
from . import _special_math as S
from .factories import _check_options, _dtype_or_default, _finish, arange, strided, tensor


def _checks(fname, window_length, dtype, layout):
    """ATen's window_function_checks (a sparse layout cannot be asked for in agrad)."""
    d = _dtype_or_default(dtype)
    if not d.is_floating_point:
        shown = "Strided" if layout is strided else "Strided (default)"
        raise RuntimeError(f"{fname} expects floating point dtypes, got: TensorOptions(dtype={_C_TYPE[d.name]}, "
                           f"device=cpu, layout={shown}, requires_grad=false (default), pinned_memory=false, "
                           "memory_format=(nullopt))")
    if window_length < 0:
        raise RuntimeError(f"{fname} requires non-negative window_length, got window_length={window_length}")
    return d


def _window(fname, window_length, periodic, options, body):
    """The window of ``body(n, d)`` (``n`` points, a tensor of dtype ``d``), or PyTorch's
    short answers for 0 and 1 points."""
    dtype, layout, device, pin_memory, requires_grad = options
    if type(window_length) is not int:  # (the parser's error: argcheck's wrapper gives its text)
        raise TypeError(f"{fname}(): argument 'window_length' must be int")
    _check_options(layout, pin_memory)
    d = _checks(fname, window_length, dtype, layout)
    if window_length <= 1:
        data = np.ones(window_length, d.numpy)
    else:
        n = window_length + 1 if periodic else window_length
        with grad_mode.no_grad():
            data = body(n, d)._data
        if periodic:
            data = np.ascontiguousarray(data[:-1])
    return _finish(data, requires_grad, device)


def _s(value, d):
    """A C++ Scalar in a float16 window's arithmetic: rounded to float16 first (ATen's in-place
    ops with a Scalar there; a float32 or float64 window's ops take it in their opmath type)."""
    return tensor(value, dtype=d) if d is dtypes.float16 else value


def _hamming(n, d, alpha, beta):
    return arange(n, dtype=d).mul_(_s(math.pi * 2.0 / (n - 1), d)).cos_().mul_(_s(-beta, d)).add_(_s(alpha, d))


def _in_order(fname, *given):
    """A parameter given without the one before it (by keyword): no overload of PyTorch's takes it (the
    parser's text replaces this one)."""
    for before, after in zip(given, given[1:]):
        if before is None and after is not None:
            raise TypeError(f"{fname}() received an invalid combination of arguments")


@export()
def hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                requires_grad=False):
    return _window("hann_window", window_length, periodic, (dtype, layout, device, pin_memory, requires_grad),
                   lambda n, d: _hamming(n, d, 0.5, 0.5))


@export()
def hamming_window(window_length, periodic=None, alpha=None, beta=None, *, dtype=None, layout=None, device=None,
                   pin_memory=False, requires_grad=False):
    # (PyTorch's overloads take alpha only after periodic, beta only after alpha: by keyword too)
    _in_order("hamming_window", periodic, alpha, beta)
    periodic = True if periodic is None else periodic
    alpha, beta = 0.54 if alpha is None else alpha, 0.46 if beta is None else beta
    return _window("hamming_window", window_length, periodic, (dtype, layout, device, pin_memory, requires_grad),
                   lambda n, d: _hamming(n, d, alpha, beta))


def _blackman(n, d):
    window = arange(n, dtype=d).mul_(_s(math.pi / (n - 1), d))
    return window.mul(_s(4, d)).cos_().mul_(_s(0.08, d)) - window.mul(_s(2, d)).cos_().mul_(_s(0.5, d)) + _s(0.42, d)


@export()
def blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                    requires_grad=False):
    return _window("blackman_window", window_length, periodic, (dtype, layout, device, pin_memory, requires_grad),
                   _blackman)


def _bartlett(n, d):
    window = arange(n, dtype=d).mul_(_s(2.0 / (n - 1), d))
    first_half = ((n - 1) >> 1) + 1
    window.narrow(0, first_half, n - first_half).mul_(_s(-1, d)).add_(_s(2, d))
    return window


@export()
def bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                    requires_grad=False):
    return _window("bartlett_window", window_length, periodic, (dtype, layout, device, pin_memory, requires_grad),
                   _bartlett)


def _kaiser(beta):
    def body(n, d):
        points = arange(n, dtype=d)._data
        opmath = np.float64 if d is dtypes.float64 else np.float32
        t = opmath  # (numbers in the kernel's opmath type)
        alpha, b = t((n - 1) / 2.0), t(beta)
        x = (points.astype(opmath) - alpha) / alpha
        with np.errstate(all="ignore"):  # (1 - x ** 2 fused into one fma by the compiler)
            values = S.i0(b * np.sqrt(np.abs(S.fma(-x, x, t(1))))) / S.i0(np.asarray(b))
        return _Data(values.astype(d.numpy))
    return body


class _Data:  # (what _window reads of a body's result)
    __slots__ = ("_data",)

    def __init__(self, data):
        self._data = data


@export()
def kaiser_window(window_length, periodic=None, beta=None, *, dtype=None, layout=None, device=None,
                  pin_memory=False, requires_grad=False):
    _in_order("kaiser_window", periodic, beta)
    periodic, beta = True if periodic is None else periodic, 12.0 if beta is None else beta
    return _window("kaiser_window", window_length, periodic, (dtype, layout, device, pin_memory, requires_grad),
                   _kaiser(beta))
