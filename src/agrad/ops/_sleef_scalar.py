"""_sleef's float64 functions on Python floats, for arrays of a few elements.

Each numpy call costs about a microsecond whatever the array's size, and the exact kernels
(_sleef.sleef_exp and co.) take hundreds of them (every fused multiply-add is some 25); a Python
float step costs some 30 ns. For a handful of elements the same steps on each element's
Python float are cheaper: the same IEEE double operations in the same order (``fma_float`` is
_vec_math._fma64's steps, fix-up included; ``round`` rounds half to even as ``np.rint``), so the
same bits. Only elements in the functions' ordinary range take this path (finite, no special
value, no overflow, no underflow to zero on the way: ``tame_*`` say which); any other array
keeps the array code. tools/kernel_bits.py checks the two paths give the same bits.
"""

from __future__ import annotations

import math
import struct

import numpy as np

from ._vec_math import fma_float as _fma

_R_LN2 = 1.442695040888963407359924681001892137426645954152985934135449406931
_L2U = .69314718055966295651160180568695068359375
_L2L = .28235290563031577122588448175013436025525412068e-12
_LN2_DD = (0.693147180559945286226764, 2.319046813846299558417771e-17)

#: arrays up to this many elements (C-contiguous, every element in range) take the float steps:
#: an element costs some 65k instructions in exp (150k in tanh), the array code 1.1M (3.2M) at
#: 16 elements and hardly more at 32 (callgrind)
MAX_SIZE = 16

_pack_d, _unpack_q = struct.Struct("<d").pack, struct.Struct("<q").unpack


def _rint(u):
    """np.rint of a finite float (half to even, the zero's sign kept)."""
    return math.copysign(float(round(u)), u)


def _ldexp2(d, q):
    h = q >> 1
    return d * math.ldexp(1.0, h) * math.ldexp(1.0, q - h)  # (2**h exactly: q is within the normal range)


def _poly10(x, x2, x4, x8, c):
    def f(i):
        return _fma(x, c[i], c[i + 1])
    return _fma(x8, f(0), _fma(x4, _fma(x2, f(2), f(4)), _fma(x2, f(6), f(8))))


def _poly7(x, x2, x4, c):
    return _fma(x4, _fma(x2, c[0], _fma(x, c[1], c[2])), _fma(x2, _fma(x, c[3], c[4]), _fma(x, c[5], c[6])))


def _mul_dd_d(x, y):
    s = x[0] * y
    return s, _fma(x[1], y, _fma(x[0], y, -s))


def _mul_dd_dd(x, y):
    s = x[0] * y[0]
    return s, _fma(x[0], y[1], _fma(x[1], y[0], _fma(x[0], y[0], -s)))


def _squ(x):
    s = x[0] * x[0]
    return s, _fma(x[0] + x[0], x[1], _fma(x[0], x[0], -s))


def _div(n, d):
    t = 1.0 / d[0]
    s = n[0] * t
    u = _fma(t, n[0], -s)
    v = _fma(-d[1], t, _fma(-d[0], t, 1.0))
    return s, _fma(s, v, _fma(n[1], t, u))


def _rec(d):
    s = 1.0 / d[0]
    return s, s * _fma(-d[1], s, _fma(-d[0], s, 1.0))


def _add_d_d(x, y):
    s = x + y
    return s, (x - s) + y


def _add2_dd_d(x, y):
    s = x[0] + y
    v = s - x[0]
    return s, ((x[0] - (s - v)) + (y - v)) + x[1]


def _add_d_dd(x, y):
    s = x + y[0]
    return s, ((x - s) + y[0]) + y[1]


def _add_dd_dd(x, y):
    s = x[0] + y[0]
    return s, (((x[0] - s) + y[0]) + x[1]) + y[1]


def _add_dd_d(x, y):
    s = x[0] + y
    return s, ((x[0] - s) + y) + x[1]


def _add2_dd_dd(x, y):
    s = x[0] + y[0]
    v = s - x[0]
    t = (x[0] - (s - v)) + (y[0] - v)
    return s, t + (x[1] + y[1])


def exp(d, poly):
    """sleef_exp's steps (|d| <= 700)."""
    u = _rint(d * _R_LN2)
    q = int(u)
    s = _fma(u, -_L2U, d)
    s = _fma(u, -_L2L, s)
    s2 = s * s
    s4 = s2 * s2
    u = _poly10(s, s2, s4, s4 * s4, poly)
    u = _fma(u, s, 0.5)
    u = _fma(u, s, 1.0)
    u = _fma(u, s, 1.0)
    return _ldexp2(u, q)


def log1p(d, poly):
    """sleef_log1p's steps (-0.5 <= d <= 1e300, d != 0: d + 1 is normal, no special value)."""
    dp1 = d + 1.0
    e = ((_unpack_q(_pack_d(dp1 * (1.0 / 0.75)))[0] >> 52) & 0x7ff) - 0x3ff
    t = math.ldexp(1.0, -e)
    m = _fma(d, t, t - 1.0)
    s = _mul_dd_d(_LN2_DD, float(e))
    x = _div((m, 0.0), _add_d_d(2.0, m))
    x2 = x[0] * x[0]
    x4 = x2 * x2
    t = _poly7(x2, x4, x4 * x4, poly)
    s = _add_dd_dd(s, (x[0] * 2.0, x[1] * 2.0))
    s = _add_dd_d(s, (x2 * x[0]) * t)
    return s[0] + s[1]


def _expk2(d, poly):
    u = (d[0] + d[1]) * _R_LN2
    dq = _rint(u)
    q = int(dq)
    s = _add2_dd_d(d, dq * -_L2U)
    s = _add2_dd_d(s, dq * -_L2L)
    s2 = _squ(s)
    s4 = _squ(s2)
    u = _poly10(s[0], s2[0], s4[0], s4[0] * s4[0], poly)
    t = _add_d_dd(0.5, _mul_dd_d(s, 0.1666666666666666574e+0))
    t = _add_d_dd(1.0, _mul_dd_dd(t, s))
    t = _add_d_dd(1.0, _mul_dd_dd(t, s))
    t = _add_dd_dd(t, _mul_dd_d(s4, u))
    return _ldexp2(t[0], q), _ldexp2(t[1], q)


def tanh(x, poly):
    """sleef_tanh's steps (|x| <= 18.7)."""
    d = _expk2((abs(x), 0.0), poly)
    e = _rec(d)
    d = _div(_add2_dd_dd(d, (-e[0], -e[1])), _add2_dd_dd(d, e))
    return math.copysign(d[0] + d[1], x)


def expm1(a, poly):
    """sleef_expm1's steps (-36 <= a <= 700, a != 0)."""
    d = _add2_dd_d(_expk2((a, 0.0), poly), -1.0)
    return d[0] + d[1]


def each(fn, d, poly, low, high):
    """``fn(v, poly)`` of each element v of the float64 array ``d``, as a new array of d's
    shape: when d has at most MAX_SIZE elements, is C-contiguous and every element is in
    [low, high] and not zero; else None (the array code's turn)."""
    if d.size > MAX_SIZE or not d.flags.c_contiguous:
        return None
    values = d.reshape(-1).tolist()
    for v in values:
        if not low <= v <= high or v == 0.0:  # (NaN: not in range)
            return None
    return np.array([fn(v, poly) for v in values]).reshape(d.shape)
