"""The arithmetic of PyTorch's CPU samplers, bit for bit, on numpy arrays.

Facts from ATen (``aten/src/ATen/core/TransformationHelper.h``,
``DistributionsHelper.h``, ``native/cpu/DistributionTemplates.h``,
``native/cpu/avx_mathfun.h``) and from the machine code of torch 2.13's AVX2
kernels (``objdump`` of ``NormalFill16<float, true>``): GCC contracts several
multiply-adds of the Cephes-style ``log256_ps``/``sincos256_ps`` into fused
multiply-adds, so the float32 Box-Muller below uses :func:`fma32` exactly
where the compiled code has ``vfmadd``/``vfmsub``.
"""

from __future__ import annotations

import math

import numpy as np

f32 = np.float32
_INF32 = f32(np.inf)


# ------------------------------------------------------------------ fused multiply-add

def _two_sum(a, b):
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def fma32(a, b, c):
    """fma(a, b, c) rounded once to float32.

    a*b is exact in float64, so a*b + c rounded to float64 and then to float32
    is right unless the float64 sum landed exactly on a float32 tie (or in
    float32's subnormal range); those few elements are redone exactly."""
    s = np.multiply(a, b, dtype=np.float64)
    s += c
    r = s.astype(np.float32)
    bits = s.view(np.uint64)
    suspect = (bits & np.uint64(0x1FFFFFFF)) == np.uint64(0x10000000)
    suspect |= ((bits >> np.uint64(52)) & np.uint64(0x7FF)) < np.uint64(1023 - 125)
    if suspect.any():
        idx = np.nonzero(suspect)
        a, b, c = (np.broadcast_to(np.asarray(v, np.float32), s.shape)[idx] for v in (a, b, c))
        r[idx] = _fma32_exact(a, b, c)
    return r


def _fma32_exact(a, b, c):
    p = a.astype(np.float64) * b.astype(np.float64)
    s, t = _two_sum(p, c.astype(np.float64))
    r = s.astype(np.float32)
    d = s - r
    n = np.nextafter(r, np.where(d > 0, _INF32, -_INF32))
    tie = (d != 0) & (2 * np.abs(d) == np.abs(n.astype(np.float64) - r))
    # float32 subnormals: the float64 sum is exact there, so one rounding is right
    return np.where(tie & (t * d > 0), n, r)


def _split(x):
    t = 134217729.0 * x   # 2**27 + 1: Veltkamp's split
    hi = t - (t - x)
    return hi, x - hi


def fma64(a, b, c):
    """fma(a, b, c) for float64, rounded once (Dekker's product and two-sums give
    the exact value as s + u + w; only a tie of s + u needs w)."""
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    c = np.asarray(c, np.float64)
    shape = np.broadcast_shapes(a.shape, b.shape, c.shape)
    n = int(np.prod(shape))
    if n > 1 << 16:
        a, b, c = (np.broadcast_to(v, shape).reshape(-1) for v in (a, b, c))
        step = 1 << 15
        return np.concatenate([_fma64(a[i:i + step], b[i:i + step], c[i:i + step])
                               for i in range(0, n, step)]).reshape(shape)
    return _fma64(a, b, c)


def _fma64(a, b, c):
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s, t = _two_sum(p, np.asarray(c, np.float64))
    u, w = _two_sum(t, e)
    r, q = _two_sum(s, u)
    tie = (w != 0) & (q != 0)
    if tie.any():
        idx = np.nonzero(tie)
        r_, q_, w_ = r[idx], q[idx], w[idx]
        n = np.nextafter(r_, np.where(q_ > 0, np.inf, -np.inf))
        fix = (2 * np.abs(q_) == np.abs(n - r_)) & (w_ * q_ > 0)
        r[idx] = np.where(fix, n, r_)
    zero = (r == 0) & (e == 0)
    if zero.any():  # (an exact zero: -0.0 only for -0.0 + -0.0, as the sum of the exact product and c signs it)
        r = np.where(zero, p + c, r)
    lost = ~np.isfinite(r) & np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
    if lost.any():  # (Dekker's split overflows past 2**996: those few exactly, in rationals)
        r = np.array(r, np.float64)
        for i in zip(*np.nonzero(lost)):
            r[i] = _fma_exact(*(float(np.broadcast_to(v, r.shape)[i]) for v in (a, b, c)))
    return r


def _fma_exact(a, b, c):
    from fractions import Fraction
    v = Fraction(a) * Fraction(b) + Fraction(c)
    try:
        return float(v)  # (int / int: rounded once, to nearest even)
    except OverflowError:
        return math.copysign(math.inf, v)


# ------------------------------------------------------------------ uniform

def unit_float32(r32):
    """uniform_real<float>: the low 24 bits of random() times 2**-24."""
    return (r32 & np.uint64(0xFFFFFF)).astype(np.float32) * f32(2.0 ** -24)


def unit_float64(r64):
    """uniform_real<double>: the low 53 bits of random64() times 2**-53."""
    return (r64 & np.uint64((1 << 53) - 1)).astype(np.float64) * 2.0 ** -53


def unit_half(r32):
    """uniform_real<Half>: the low 11 bits of random() times 2**-11 (in float)."""
    return (r32 & np.uint64(0x7FF)).astype(np.float32) * f32(2.0 ** -11)


# ------------------------------------------------------------------ AVX2 Box-Muller

_LOG_P = [f32(v) for v in (7.0376836292E-2, -1.1514610310E-1, 1.1676998740E-1, -1.2420140846E-1,
                           1.4249322787E-1, -1.6668057665E-1, 2.0000714765E-1, -2.4999993993E-1,
                           3.3333331174E-1)]


def log256_ps(x):
    """avx_mathfun's log256_ps as compiled in torch 2.13 (NaN for x <= 0)."""
    invalid = x <= 0
    x = np.maximum(x, f32(1.17549435e-38))
    bits = x.view(np.int32)
    e = ((bits >> 23) - 0x7F).astype(np.float32) + f32(1)
    x = ((bits & ~0x7F800000) | 0x3F000000).view(np.float32)
    mask = x < f32(0.707106781186547524)
    tmp = np.where(mask, x, f32(0))
    x = x - f32(1)
    e = e - mask.astype(np.float32)
    x = x + tmp
    z = x * x
    y = np.full_like(x, _LOG_P[0])
    for p in _LOG_P[1:]:
        y = fma32(y, x, p)
    y = y * x
    y = fma32(y, z, e * f32(-2.12194440e-4))
    y = y - z * f32(0.5)
    x = x + y
    x = fma32(e, f32(0.693359375), x)
    if invalid.any():
        x = np.where(invalid, f32(np.nan), x)
    return x


def sincos256_ps(x):
    """avx_mathfun's sincos256_ps as compiled in torch 2.13."""
    sign_sin = np.signbit(x)
    x = np.abs(x)
    j = (x * f32(1.27323954473516)).astype(np.int32)
    j = (j + 1) & ~1
    y = j.astype(np.float32)
    sign_sin ^= (j & 4) != 0
    poly = (j & 2) == 0
    cos_neg = (~(j - 2) & 4) != 0
    x = fma32(y, f32(-0.78515625), x)
    x = fma32(y, f32(-2.4187564849853515625e-4), x)
    x = fma32(y, f32(-3.77489497744594108e-8), x)
    z = x * x
    yc = fma32(np.full_like(x, f32(2.443315711809948E-005)), z, f32(-1.388731625493765E-003))
    yc = fma32(yc, z, f32(4.166664568298827E-002))
    yc = fma32(yc * z, z, -(z * f32(0.5))) + f32(1)
    ys = fma32(np.full_like(x, f32(-1.9515295891E-4)), z, f32(8.3321608736E-3))
    ys = fma32(ys, z, f32(-1.6666654611E-1))
    ys = fma32(ys * z, x, x)
    s = np.where(poly, ys, yc)
    c = np.where(poly, yc, ys)
    return np.where(sign_sin, -s, s), np.where(cos_neg, -c, c)


_TWO_PI_F = f32(2.0 * math.pi)


_CHUNK_ROWS = 2048   # rows of 16 per numpy pass: temporaries stay small and cached


def box_muller16_float32(blocks, mean, std):
    """normal_fill_16_AVX2 on rows of 16 uniforms (float32): first 8 give the radius,
    last 8 the angle; cos to the first half, sin to the second."""
    if len(blocks) > _CHUNK_ROWS:
        return np.concatenate([_box_muller16_float32(blocks[i:i + _CHUNK_ROWS], mean, std)
                               for i in range(0, len(blocks), _CHUNK_ROWS)])
    return _box_muller16_float32(blocks, mean, std)


def _box_muller16_float32(blocks, mean, std):
    u1 = f32(1) - blocks[:, :8]
    radius = np.sqrt(f32(-2) * log256_ps(u1))
    s, c = sincos256_ps(_TWO_PI_F * blocks[:, 8:])
    n = np.concatenate([radius * c, radius * s], axis=1)
    if std == 1 and mean == 0:
        return n
    return fma32(n, f32(std), f32(mean))


def box_muller16_float64(blocks, mean, std):
    """normal_fill_16<double> (libm log/cos/sin; the final multiply-add fused)."""
    if len(blocks) > _CHUNK_ROWS:
        return np.concatenate([_box_muller16_float64(blocks[i:i + _CHUNK_ROWS], mean, std)
                               for i in range(0, len(blocks), _CHUNK_ROWS)])
    return _box_muller16_float64(blocks, mean, std)


def _box_muller16_float64(blocks, mean, std):
    u1 = 1.0 - blocks[:, :8]
    radius = np.sqrt(-2.0 * np.log(u1))
    theta = (2.0 * math.pi) * blocks[:, 8:]
    n = np.concatenate([radius * np.cos(theta), radius * np.sin(theta)], axis=1)
    if std == 1 and mean == 0:
        return n
    return fma64(n, float(std), float(mean))
