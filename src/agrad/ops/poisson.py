"""torch.poisson: ATen's CPU sampler (``_s_poisson_cpu``), draw for draw.

The result is ``zeros(rates.shape)`` (C order) filled by a serial loop over the rates in that
order, each sample drawn with double uniforms (``random64()``'s low 53 bits times 2**-53):

- a rate of 0 gives 0 and draws nothing; a negative rate or NaN raises PyTorch's error when the
  loop reaches it (the elements before it have taken their draws);
- below 10, Knuth's product of uniforms: count the draws while the product stays above
  ``exp(-rate)`` (rate + 1 draws on average);
- from 10 on, Hoermann's transformed rejection (PTRS, 1993): pairs (U, V) until one is accepted,
  the second test with glibc's ``lgamma`` of k + 1.

The sample is an int64 (C's conversion of an infinite or too large floor, x86's, gives INT64_MIN:
an infinite rate samples -9223372036854775808) cast to the rates' dtype (float16 through float).
PoissonBackward0's gradient is zeros; its forward derivative too.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _generator
from ..tensor import Tensor
from ._lgamma_math import lgamma64
from ._op import Op, export
from ._sampling import _scalar

_INT64_MIN = -(1 << 63)
_MASK53 = (1 << 53) - 1
_INF = math.inf


class _Uniforms:
    """The generator's double uniforms, drawn ahead in blocks; :meth:`finish` leaves the generator
    where the draws taken end (as many ``random64()`` as the kernel made)."""

    def __init__(self, g, hint):
        self.g = g
        self.start = (g._key_pos(), g._fresh)
        self.block = []
        self.i = 0
        self.taken = 0
        self.hint = max(int(hint), 16)

    def __call__(self):
        if self.i == len(self.block):
            r = self.g._random64(self.hint)
            self.block = [float(int(v) & _MASK53) * 2.0 ** -53 for v in r.tolist()]
            self.i = 0
            self.hint = min(self.hint * 2, 1 << 20)
        u = self.block[self.i]
        self.i += 1
        self.taken += 1
        return u

    def finish(self):
        g = self.g
        (key, pos), fresh = self.start
        g._set_engine(key, pos)
        g._fresh = fresh
        if self.taken:
            g._random64(self.taken)


def _int64(x):
    """C's (int64_t) of a double on x86-64 (cvttsd2si): INT64_MIN for NaN, infinities and out of range."""
    if x != x or not -9.223372036854775808e18 <= x < 9.223372036854775808e18:
        return _INT64_MIN
    return int(x)


def _div(x, y):
    """IEEE division (Python's raises for a zero divisor)."""
    if y:
        return x / y
    return math.copysign(_INF, x) * math.copysign(1.0, y) if x else math.nan


def _log(x):
    return math.log(x) if x > 0 else (-_INF if x == 0 else math.nan)


def _lgamma(x):
    return float(lgamma64(np.array([x]))[0])


def _sample(lam, uniform):
    """sample_poisson(lambda, generator)."""
    if not lam >= 0:
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    if lam >= 10:
        slam = math.sqrt(lam)
        loglam = _log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha = 1.1239 + _div(1.1328, b - 3.4)
        vr = 0.9277 - _div(3.6224, b - 2)
        while True:
            U = uniform() - 0.5
            V = uniform()
            us = 0.5 - abs(U)
            # k = (int64_t)floor(...): the compiled kernel keeps the double for its tests (a NaN or a
            # floor past int64's range is no k < 0) and converts it only when it returns it
            f = (_div(2 * a, us) + b) * U + lam + 0.43
            k = math.floor(f) if f == f and f not in (_INF, -_INF) else f
            if us >= 0.07 and V <= vr:
                return _int64(k)
            if k < 0 or (us < 0.013 and V > us):
                continue
            if _log(V) + _log(invalpha) - _log(_div(a, us * us) + b) <= -lam + k * loglam - _lgamma(k + 1.0):
                return _int64(k)
    if lam == 0:
        return 0
    enlam = math.exp(-lam)
    x = 0
    prod = 1.0
    while True:
        prod *= uniform()
        if prod > enlam:
            x += 1
        else:
            return x


def _poisson_fwd(ctx, rates, g):
    out = np.zeros(rates.shape, rates.dtype)  # (ATen's at::zeros: C order)
    flat = np.ascontiguousarray(rates).reshape(-1).astype(np.float64).tolist()
    if not flat:
        return out
    hint = sum(r + 1.0 if r < 10 else 2.5 for r in flat if r == r and 0 < r < _INF)
    uniform = _Uniforms(g, min(hint * 1.05 + 16, 1 << 20) if hint == hint else 16)
    samples = []
    try:
        for lam in flat:
            samples.append(_sample(lam, uniform))
    finally:
        uniform.finish()
    s = np.array(samples, dtype=np.int64)
    # static_cast<scalar_t>(int64_t): to float or double by rounding; c10::Half through float
    vals = s.astype(np.float32).astype(np.float16) if rates.dtype == np.float16 else s.astype(rates.dtype)
    out.reshape(-1)[:] = vals
    return out


_poisson = Op("PoissonBackward0", _poisson_fwd, jvp="element_wise", contiguous=True)
# (derivatives.yaml's zeros_like(self), which autograd's codegen computes from self's sizes and options:
# at::zeros, contiguous whatever self's and grad's layouts)
_poisson.derivative(lambda ctx, grad: Tensor._make(np.zeros(grad.shape, grad._data.dtype)))


@export()
def poisson(input, generator=None):
    """Samples of Poisson distributions with the rates ``input`` (ATen's CPU sampler, see the module)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"poisson(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if generator is not None and not isinstance(generator, _generator.Generator):
        raise TypeError(f"poisson(): argument 'generator' must be torch.Generator, not {type(generator).__name__}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"poisson_cpu\" not implemented for '{_scalar(input.dtype)}'")
    g = _generator.get(generator)
    return _poisson.apply((input,), (input._data,), {"g": g})

