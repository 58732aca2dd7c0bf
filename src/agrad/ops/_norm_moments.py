"""The row statistics of ATen's CPU normalisation kernels, step by step: RowwiseMoments (group_norm,
layer_norm's mean and rstd) and the vectorised map_reduce_all sums, with the AVX2 lane layout and the
fused multiply-adds of PyTorch's compiled kernels."""

from __future__ import annotations

import numpy as np

from . import _vec_math


def _lanes(dtype):
    """Elements in one AVX2 register, the vector width of PyTorch's CPU kernels."""
    return 32 // dtype.itemsize


def _fma(a, b, c):
    """a * b + c rounded once, as the fused multiply-add PyTorch's compiled kernels use."""
    with np.errstate(all="ignore"):
        return _vec_math.fma(a, b, c)


def _row_sum(head, last=None):
    """Sum of each row of ``head * last`` (or of ``head``) as PyTorch's vectorised
    map_reduce_all: in order for a row shorter than a register, else lane by lane (the
    partial last vector's products fused into the sums), then the lanes: float's by halves
    (its AVX2 shuffles), double's one after another (the generic vec_reduce_all)."""
    v = head if last is None else head * last
    rows, n = v.shape
    width = _lanes(v.dtype)
    if n < width:
        s = v[:, 0].copy() if n else np.zeros(rows, v.dtype)
        for k in range(1, n):
            s = s + v[:, k]
        return s
    full = n // width * width
    acc = v[:, :width].copy()
    for d in range(width, full, width):
        acc = acc + v[:, d:d + width]
    if n > full:
        acc[:, :n - full] = (acc[:, :n - full] + v[:, full:] if last is None else
                             _fma(head[:, full:], last[..., full:], acc[:, :n - full]))
    if v.dtype != np.float32:
        s = acc[:, 0]
        for k in range(1, width):
            s = s + acc[:, k]
        return s
    while acc.shape[1] > 1:
        h = acc.shape[1] // 2
        acc = acc[:, :h] + acc[:, h:]
    return acc[:, 0]


_CHUNK = 16  # vectors per Welford chunk in ATen's RowwiseMoments (kChunkSize)


def _add_moments(add, into, fused):
    """ATen's AddMoments: the moments ``add`` (count, mean, m2) merged into ``into``; counts
    are the same for every row. ``fused``: the scalar form (its m1 and m2 steps compiled to
    fused multiply-adds), else the vector form (AddMomentsVec: m1 + c * delta rounded twice,
    m2 as fmadd(delta * m0, c * delta, m2 + m2_add))."""
    k, a1, a2 = add
    m0, m1, m2 = into
    T = m1.dtype.type
    n = m0 + k
    c = T(0) if n == 0 else T(k) / T(n)
    delta = a1 - m1
    if fused:
        return n, _fma(c, delta, m1), m2 + _fma(delta * delta * c, T(m0), a2)
    step = c * delta
    return n, m1 + step, _fma(delta * T(m0), step, m2 + a2)


def _rowwise_moments(x):
    """Each row's mean and biased variance as ATen's RowwiseMoments computes them (float32 and
    float64): Welford over register-wide lanes in chunks of 16 vectors (all chunks at once here),
    the chunks merged through a binary cascade, then the tail elements one by one and the lanes
    merged into them."""
    T = x.dtype.type
    rows, N = x.shape
    L = _lanes(x.dtype)
    n = N // L  # vectors per row
    m = -(-n // _CHUNK)  # chunks
    zero = (0, np.zeros((rows, L), x.dtype), np.zeros((rows, L), x.dtype))
    if m:
        v = np.zeros((rows, m * _CHUNK * L), x.dtype)
        v[:, :n * L] = x[:, :n * L]
        v = v.reshape(rows, m, _CHUNK, L)
        c1 = np.zeros((rows, m, L), x.dtype)
        c2 = np.zeros((rows, m, L), x.dtype)
        last = n - (m - 1) * _CHUNK  # vectors in the last chunk
        for j in range(min(_CHUNK, n)):
            xv = v[:, :, j]
            d = xv - c1
            u1 = _fma(d, T(1) / T(j + 1), c1)
            u2 = _fma(d, xv - u1, c2)
            if j >= last:  # (the last chunk has stopped)
                u1[:, -1], u2[:, -1] = c1[:, -1], c2[:, -1]
            c1, c2 = u1, u2
    depth = max(1, int(m - 1).bit_length())  # CeilLog2(m), at least 1
    stack = [zero] * depth
    for i in range(m):
        stack[0] = _add_moments((min(_CHUNK, n - i * _CHUNK), c1[:, i], c2[:, i]), stack[0], False)
        mask, j = i + 1, 1
        while j < depth and not mask & 1:
            stack[j] = _add_moments(stack[j - 1], stack[j], False)
            stack[j - 1] = zero
            mask >>= 1
            j += 1
    for j in range(1, depth):
        stack[0] = _add_moments(stack[j], stack[0], False)
    _, lanes1, lanes2 = stack[0]
    acc = (0, np.zeros(rows, x.dtype), np.zeros(rows, x.dtype))
    for k in range(n * L, N):
        xk = x[:, k]
        d = xk - acc[1]
        m1 = acc[1] + d / T(acc[0] + 1)
        acc = (acc[0] + 1, m1, acc[2] + d * (xk - m1))
    for i in range(L):
        acc = _add_moments((n, lanes1[:, i], lanes2[:, i]), acc, True)
    return acc[1], acc[2] / T(N)


def _ln_moments(x, eps, native=True):
    """Each row's mean and 1/sqrt(var + eps). ``native`` (float32, float64 input): ATen's
    RowwiseMoments bit for bit; else (half computed in float) Welford steps for rows shorter
    than a register, float64 two-pass moments otherwise."""
    T = x.dtype.type
    rows, n = x.shape
    with np.errstate(all="ignore"):
        if native:
            m1, var = _rowwise_moments(x)
        elif n < _lanes(x.dtype):
            m1 = np.zeros(rows, T)
            m2 = np.zeros(rows, T)
            for k in range(n):
                d = x[:, k] - m1
                m1 = m1 + d / T(k + 1)
                m2 = m2 + d * (x[:, k] - m1)
            d = T(0) - m1  # the merge with the (empty) vector lanes: inf becomes nan, as there
            m1 = m1 + T(0) * d
            m2 = m2 + (T(0) + d * d * T(0) * T(n))
            var = m2 / T(n)
        else:
            xd = x.astype(np.float64)
            mean = xd.mean(axis=1)
            m1 = mean.astype(T)
            var = ((xd - mean[:, None]) ** 2).mean(axis=1).astype(T)
        rstd = T(1) / np.sqrt(np.maximum(var, T(0)) + T(eps))
    return m1, rstd


def _as_rows(a, k):
    shape = a.shape
    n = int(np.prod(shape[len(shape) - k:], dtype=np.int64))
    return a.reshape(int(np.prod(shape[:len(shape) - k], dtype=np.int64)), n)  # (no -1: rows of length 0)
