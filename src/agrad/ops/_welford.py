"""The orders of ATen's CPU variance kernels, so that var, std, var_mean and std_mean give
PyTorch's bits.

- ``std_var_stub`` (var/std with dims, every var_mean/std_mean): ``binary_kernel_reduce``
  with ``WelfordOps`` in double, each output element's slice read one element after the
  other in TensorIterator's order (reduced dims first, fastest first: ``_cascade._layout``):
  ``delta = x - mean; mean += delta / n; m2 += delta * (x - mean)`` (no fused multiply-add).
- ``std_var_all_cpu`` (float/double var or std with one output element): the mean is
  ``self.mean()`` (the sum's order, in the input's dtype) taken to double; the squared
  differences are added in double one after the other within each of serial_for_each's 2-d
  blocks, the block sums one after the other into the total.

Both run on one thread under GRAIN_SIZE elements (and ``std_var_stub`` on any size when
there are several output elements: the threads split the outputs, not a slice). Over it,
``std_var_stub``'s one slice is split into ``get_num_threads()`` runs merged with
WelfordOps::combine (``_threaded``); ``std_var_all_cpu``'s returns None (its mean is a
threaded sum).
"""

from __future__ import annotations

import numpy as np

from .._dense import flipped
from .._cascade import GRAIN_SIZE, _layout, cascade_sum


_FEW_ROWS = 16
_LONG = 1 << 18


def _slices(a, axes):
    """``a``'s elements as (outputs, slice) in TensorIterator's order: the rows in the
    output's row-major order, each row's elements in the order the kernel reads them."""
    if flipped(a):  # (PyTorch has no negative strides: flip copies)
        a = np.ascontiguousarray(a)
    if a.size == 1:
        return a.reshape(1, 1)
    dims = _layout(a, axes)
    red = [d for d in dims if d[2] == 0]
    kept = sorted((d for d in dims if d[2] != 0), key=lambda d: -d[2])  # the output's row-major order
    vd = kept + red[::-1]
    view = np.lib.stride_tricks.as_strided(a, [d[0] for d in vd], [d[1] for d in vd], writeable=False)
    nk = 1
    for d in kept:
        nk *= d[0]
    return view.reshape(nk, -1)


def welford(a, axes):
    """(mean, m2, n) of each output element (float64 arrays in the output's row-major order,
    n an int) as WelfordOps reads them, or None where PyTorch's threads split a slice."""
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    if a.size == 0:
        return None
    x = _slices(a, axes)
    if x.shape[0] == 1 and a.size >= GRAIN_SIZE:
        return _threaded(x[0], n)
    if x.shape[0] <= _FEW_ROWS:  # Python floats (IEEE doubles), a row at a time: quicker than short arrays
        means, m2s = [], []
        for row in x.astype(np.float64).tolist():
            mean = m2 = 0.0
            for k, v in enumerate(row, 1):
                delta = v - mean
                mean = mean + delta / k
                m2 = m2 + delta * (v - mean)
            means.append(mean)
            m2s.append(m2)
        return np.array(means), np.array(m2s), n
    if x.shape[1] > _LONG:  # (a step over every row per element: numpy's two passes instead)
        return None
    x = x.astype(np.float64)
    mean = np.zeros(x.shape[0])
    m2 = np.zeros(x.shape[0])
    for k in range(x.shape[1]):
        v = x[:, k]
        delta = v - mean
        mean = mean + delta / float(k + 1)
        m2 = m2 + delta * (v - mean)
    return mean, m2, n


def _serial(values):
    """WelfordOps::reduce over a list of floats from an empty accumulator: (mean, m2, count)."""
    mean = m2 = 0.0
    for k, v in enumerate(values, 1):
        delta = v - mean
        mean = mean + delta / k
        m2 = m2 + delta * (v - mean)
    return mean, m2, len(values)


def _threaded(row, n):
    """One output element of GRAIN_SIZE elements or more: binary_kernel_reduce gives each of
    ``get_num_threads()`` threads one run of ceil(n / threads) elements (parallel_for's chunks),
    then merges the threads' accumulators in order with WelfordOps::combine."""
    from ..settings import get_num_threads

    if row.size > _THREADED_MAX:
        return None
    values = row.astype(np.float64).tolist()
    threads = min(get_num_threads(), -(-len(values) // GRAIN_SIZE))
    chunk = -(-len(values) // threads)
    total = None
    for t in range(0, len(values), chunk):
        part = _serial(values[t:t + chunk])
        if total is None:
            total = part
            continue
        a_mean, a_m2, a_n = total
        b_mean, b_m2, b_n = part
        delta = b_mean - a_mean
        count = float(a_n + b_n)
        ratio = b_n / count
        total = (a_mean + delta * ratio, a_m2 + b_m2 + delta * delta * a_n * ratio, a_n + b_n)
    return np.array([total[0]]), np.array([total[1]]), n


_THREADED_MAX = 1 << 20


def all_moments(a):
    """(mean, m2) of std_var_all_cpu for a float32/float64 ``a`` (float64 scalars), or None
    where PyTorch's threads split the sum."""
    if a.size == 0 or a.dtype not in (np.float32, np.float64):
        return None
    axes = tuple(range(a.ndim))
    if a.size >= GRAIN_SIZE:
        return _threaded_all(a, axes)
    total = cascade_sum(a, axes, False) if a.ndim else None
    if total is None:
        total = np.add.reduce(a, axis=None)
    mean = np.float64(a.dtype.type(total) / a.dtype.type(a.size))
    if flipped(a):
        a = np.ascontiguousarray(a)
    dims = _layout(a, axes) if a.size > 1 else []
    if not dims:
        dims = [[1, 0, 0]]
    d0 = dims[0]
    d1 = dims[1] if len(dims) > 1 else [1, 0, 0]
    vd = dims[2:][::-1] + [d1, d0]
    view = np.lib.stride_tricks.as_strided(a, [d[0] for d in vd], [d[1] for d in vd], writeable=False)
    dev = view.reshape(-1, d1[0] * d0[0]).astype(np.float64) - mean
    blocks = np.cumsum(dev * dev, axis=1)[:, -1]  # each 2-d block from 0.0, in order
    total = 0.0
    for s in blocks.tolist():
        total = total + s
    return mean, np.float64(total)


def _threaded_all(a, axes):
    """std_var_all_cpu over GRAIN_SIZE elements whose iterator is one run of memory (a dense
    tensor in some order of its dims): ``get_num_threads()`` threads, each given ceil(n / threads)
    elements (parallel_for's chunks). The mean's sum is two_pass_reduction's (each thread's
    cascade sum into its own zero, then the threads' sums summed); the squared differences are
    parallel_reduce's (each thread's sum from 0.0 in order, the threads' in order)."""
    from .._cascade import _rows
    from ..settings import get_num_threads

    if flipped(a) or a.size > _THREADED_MAX * 4:
        return None
    dims = _layout(a, axes)
    if len(dims) != 1:
        return None
    n = a.size
    flat = np.lib.stride_tricks.as_strided(a, [n], [dims[0][1]], writeable=False)
    slots = get_num_threads()
    chunk = -(-n // min(slots, -(-n // GRAIN_SIZE)))
    starts = range(0, n, chunk)
    buffer = np.zeros((1, slots), a.dtype)
    for t, b in enumerate(starts):
        buffer[0, t] = _rows(flat[b:b + chunk].reshape(1, -1))[0]
    total = a.dtype.type(0) + _rows(buffer)[0]  # (the final reduce into the zero-filled output)
    mean = np.float64(total / a.dtype.type(n))
    squares = 0.0
    for b in starts:
        dev = flat[b:b + chunk].astype(np.float64) - mean
        squares = squares + (0.0 + float(np.cumsum(dev * dev)[-1]))
    return mean, np.float64(squares)
