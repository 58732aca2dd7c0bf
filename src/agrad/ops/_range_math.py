"""The arithmetic of PyTorch's range factories, bit for bit, on numpy arrays.

Facts from ATen (``native/RangeFactories.cpp`` and its CPU kernel
``native/cpu/RangeFactoriesKernel.cpp``), checked against torch 2.13:

* ``arange``: values ``start + step * i`` in the accumulate type (double for
  float32/float64, float for float16, int64 for integer dtypes), the
  multiply-add fused (the kernel is compiled for AVX2).  Contiguous output
  is filled two vectors at a time (8 float32 / 4 float64 / 16 float16 lanes
  each): a vector's lanes are ``base + k * step`` from ``base = start + step
  * i0`` rounded to the dtype; the last ``n % (2 * lanes)`` elements take
  the scalar formula.
* ``linspace``: ``step = (end - start) / (steps - 1)`` in the dtype (double
  for integer dtypes); the first ``steps // 2`` values are ``start + step *
  i``, the rest ``end - step * (steps - i - 1)``, fused, scalar.
* ``logspace``: ``pow(base, start + step * i)`` in double (the halves as
  linspace; not fused: the file is compiled for baseline x86-64).
* ``range``: ``start + i * step`` in the accumulate type, not fused.

Outputs of more than 32,768 elements are split between threads in PyTorch,
which moves the vector/scalar boundary; these functions compute as PyTorch
does on one thread.
"""

from __future__ import annotations

import numpy as np

from ._rng_math import fma32, fma64

_LANES = {"float32": 8, "float64": 4, "float16": 16}


def _vector_fill(n, lanes, base_of, lane_of, scalar_of):
    """ATen's vectorized_loop over a nullary op: blocks of two vectors, then scalars."""
    m = n - n % (2 * lanes)
    i = np.arange(n)
    parts = []
    if m:
        parts.append(lane_of(base_of(i[:m] // lanes * lanes), i[:m] % lanes))
    parts.append(scalar_of(i[m:]))
    return np.concatenate(parts) if len(parts) > 1 else parts[0]


def arange_values(start, step, n, dtype):
    """n values of ``arange`` (start and step already in the accumulate type)."""
    name = dtype.name
    if name in ("float32", "float64"):
        npd = dtype.numpy
        f64 = np.float64
        start, step = float(start), float(step)
        return _vector_fill(
            n, _LANES[name],
            lambda i0: fma64(step, i0.astype(f64), start).astype(npd).astype(f64),
            lambda base, k: fma64(k.astype(f64), step, base).astype(npd),
            lambda i: fma64(step, i.astype(f64), start).astype(npd))
    if name == "float16":
        f32 = np.float32
        s, st = f32(start), f32(step)
        return _vector_fill(
            n, 16,
            lambda i0: fma32(st, i0.astype(f32), s).astype(np.float16).astype(f32),
            lambda base, k: fma32(k.astype(f32), st, base).astype(np.float16),
            lambda i: fma32(st, i.astype(f32), s).astype(np.float16))
    vals = int(start) + int(step) * np.arange(n, dtype=np.int64)
    return vals.astype(dtype.numpy)


def linspace_values(start, end, steps, dtype):
    """``steps`` (>= 2) values of ``linspace``; start and end already cast to ``dtype``."""
    idx = np.arange(steps)
    half = steps // 2
    low = idx[:half]
    high = steps - idx[half:] - 1
    name = dtype.name
    if name in ("float32", "float64"):
        npd = dtype.numpy
        fma = fma32 if name == "float32" else fma64
        s, e = np.array(start, npd), np.array(end, npd)
        step = ((e - s) / np.array(steps - 1, npd)).astype(npd)
        a = fma(np.broadcast_to(step, low.shape), low.astype(npd), np.broadcast_to(s, low.shape))
        b = fma(np.broadcast_to(-step, high.shape), high.astype(npd), np.broadcast_to(e, high.shape))
        return np.concatenate([a, b]).astype(npd, copy=False)
    if name == "float16":
        h = np.float16
        s, e = h(np.float32(start)), h(np.float32(end))  # (c10::Half of a float: a double rounds twice)
        step = h(h(e - s) / h(steps - 1))
        return np.concatenate([s + step * low.astype(h), e - step * high.astype(h)]).astype(h)
    s, e = float(int(start)), float(int(end))
    step = (e - s) / (steps - 1)
    vals = np.concatenate([fma64(step, low.astype(np.float64), s),
                           fma64(-step, high.astype(np.float64), e)])
    return np.trunc(vals).astype(dtype.numpy)


def logspace_values(start, end, steps, base, dtype):
    """``steps`` (>= 2) values of ``logspace``; start and end already cast to ``dtype``."""
    idx = np.arange(steps)
    half = steps // 2
    if dtype.is_floating_point:
        npd = dtype.numpy
        s, e = np.array(start, npd), np.array(end, npd)
        step = float((e - s).astype(npd)) / (steps - 1)
        b = float(base)
    else:
        s, e = int(start), int(end)
        step = float(e - s) / (steps - 1)
        b = float(np.float32(base))   # ATen keeps an integer logspace's base in float
    exps = np.concatenate([float(s) + step * idx[:half], float(e) - step * (steps - idx[half:] - 1)])
    return np.power(b, exps).astype(dtype.numpy)


def range_values(start, step, n, dtype):
    """n values of the deprecated ``torch.range`` (start and step in the accumulate type)."""
    if dtype.is_floating_point:
        acc = np.float32 if dtype.name == "float16" else np.float64
        vals = acc(start) + np.arange(n).astype(acc) * acc(step)
        return vals.astype(dtype.numpy)
    return (int(start) + int(step) * np.arange(n, dtype=np.int64)).astype(dtype.numpy)
