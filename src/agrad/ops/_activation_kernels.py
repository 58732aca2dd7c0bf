"""The array kernels of PyTorch's CPU activation loops where their steps decide the last bit:
which elements the vector code runs (_vector_loop's lanes) and its Sleef functions there, the
scalar loop's libm functions elsewhere, and the compiler's fused multiply-adds (the AVX2 build
contracts ``a * b + c`` in both codes). The ops themselves live in activations.py."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import _glibc_float, _sleef, _vec_math
from ._vector_loop import by_lanes, loop_lanes, unary_lanes


def _vector_blocks(a, vec, scalar, loop=None):
    """cpu_kernel_vec over a float32 or float64 array: the elements its vector code runs on
    (blocks of two AVX2 vectors of each row of the loop over ``loop``, the op's input, by default
    ``a``: _vector_loop.unary_lanes) through ``vec``, the others through the scalar code ``scalar``."""
    return by_lanes(unary_lanes(a if loop is None else loop), vec, scalar, (a,), a.dtype)


class _Maths(NamedTuple):
    """The functions one code of a kernel calls, and its multiply-add."""
    exp: object
    log1p: object
    tanh: object
    fma: object


def _libm64(name):
    return lambda v: _sleef.libm(name, v)


_SLEEF = {np.dtype(np.float64): _Maths(_sleef.sleef_exp, _sleef.sleef_log1p, _sleef.sleef_tanh,
                                       _vec_math.fma),
          np.dtype(np.float32): _Maths(_vec_math.sleef_expf, _vec_math.sleef_log1pf, _sleef.sleef_tanhf,
                                       _vec_math.fma)}
#: the scalar loop's: glibc's functions
_LIBM = {np.dtype(np.float64): _Maths(_libm64("exp"), _libm64("log1p"), _libm64("tanh"), _vec_math.fma),
         np.dtype(np.float32): _Maths(_glibc_float.expf, _glibc_float.log1pf, _glibc_float.tanhf, _vec_math.fma)}
#: over GRAIN_SIZE elements (where at::parallel_for splits the loop between threads): numpy's
#: functions and plain arithmetic, each step within an ulp or two of the kernels' (emulating them
#: costs hundreds of numpy passes an element)
_QUICK = _Maths(np.exp, np.log1p, np.tanh, lambda a, b, c: a * b + c)


def _kernel(kernel, arrays, dtype, lanes):
    """``kernel(maths)`` (a function of ``arrays``) as cpu_kernel_vec runs it: Sleef's functions
    where ``lanes`` (a callable giving them) says the vector code runs, libm's elsewhere; numpy's
    over GRAIN_SIZE elements."""
    if max(a.size for a in arrays) > _vec_math.GRAIN_SIZE:
        with np.errstate(all="ignore"):
            return np.asarray(kernel(_QUICK)(*arrays), dtype)
    return by_lanes(lanes(), kernel(_SLEEF[dtype]), kernel(_LIBM[dtype]), arrays, dtype)


def _silu_np(a, loop=None):
    """x / (1 + exp(-x)): Sleef's exp (expf8_u10, expd4_u10) in the vector blocks, libm's in the tail.
    ``loop``: the float16 input a float32 ``a`` was widened from (its blocks: 16 halves)."""
    if a.dtype == np.float64:
        return _kernel(lambda m: lambda x: x / (1.0 + m.exp(-x)), (a,), a.dtype, lambda: unary_lanes(a))
    one = np.float32(1)
    return _vector_blocks(a, lambda x: x / (one + _vec_math.sleef_expf(-x)),
                          lambda x: x / (one + _glibc_float.expf(-x)), loop)


def _silu_backward_np(g, x, loop=None):
    """silu_backward's kernel: s = 1 / (1 + exp(-x)), dy * s * (1 + x * (1 - s)), the compiler
    fusing 1 + x * (1 - s); exp as in _silu_np (``loop``: as _silu_np's, the float16 pair)."""
    one = x.dtype.type(1)

    def kernel(m):
        def steps(dy, v):
            s = one / (one + m.exp(-v))
            # (s * dy: where both are NaN, the compiled kernel's product keeps s's, as x86's
            # multiply keeps its first operand's)
            return s * dy * m.fma(v, one - s, one)
        return steps

    return _kernel(kernel, (g, x), x.dtype, lambda: loop_lanes((g, x) if loop is None else loop))


def _tanh_softplus(m, x):
    return m.tanh(m.log1p(m.exp(x)))


def _mish_np(a, loop=None):
    """x * tanh(log1p(exp(x))), the kernel's steps: Sleef's exp, log1p and tanh in the vector
    blocks, libm's in the tail (``loop``: as _silu_np's)."""
    return _kernel(lambda m: lambda x: x * _tanh_softplus(m, x), (a,), a.dtype,
                   lambda: unary_lanes(a if loop is None else loop))


def _mish_backward_np(g, x, loop=None):
    """mish_backward's kernel: s = 1 / (1 + exp(-x)), t = tanh(log1p(exp(x))),
    dy * (t + x * s * (1 - t * t)), the compiler fusing both multiply-adds."""
    one = x.dtype.type(1)

    def kernel(m):
        def steps(dy, v):
            if m is _QUICK:
                e_neg, e_pos = m.exp(-v), m.exp(v)
            else:  # (exp(-x) and exp(x) in one call of the exact kernel: its cost is per call)
                e_neg, e_pos = m.exp(np.stack((-v, v)))
            s = one / (one + e_neg)
            t = m.tanh(m.log1p(e_pos))
            return m.fma(v * s, m.fma(-t, t, one), t) * dy  # (the NaN of the two: the fma's)
        return steps

    return _kernel(kernel, (g, x), x.dtype, lambda: loop_lanes((g, x) if loop is None else loop))


_EXPM1 = {np.dtype(np.float64): (_sleef.sleef_expm1, lambda v: _sleef.libm("expm1", v)),
          np.dtype(np.float32): (_sleef.sleef_expm1f, _glibc_float.expm1f)}


def _elu_np(a, alpha, scale, input_scale):
    """elu_kernel (elu, selu, celu): expm1(x * input_scale) * alpha * scale where x < 0 (a zero
    keeps its sign), else x * scale; float32/float64 with Sleef's expm1 in the vector blocks,
    glibc's in the scalar loop."""
    t = a.dtype.type
    neg_c, pos_c, in_c = t(alpha) * t(scale), t(scale), t(input_scale)  # (negcoef: a product in the dtype)

    def steps(expm1):
        return lambda x: np.where(x < 0, expm1(x * in_c) * neg_c, x * pos_c)

    if a.size > _vec_math.GRAIN_SIZE:
        with np.errstate(all="ignore"):
            return steps(np.expm1)(a)
    vec, lib = _EXPM1[a.dtype]
    return _vector_blocks(a, steps(vec), steps(lib))


_EXP = {np.dtype(np.float64): (_sleef.sleef_exp, lambda v: _sleef.libm("exp", v)),
        np.dtype(np.float32): (_vec_math.sleef_expf, _glibc_float.expf)}


def _elu_backward_np(g, x, alpha, scale, input_scale):
    """elu_backward's kernel at the input (is_result false) on float32/float64 arrays of one
    dtype: g * input_scale * alpha * scale * exp(x * input_scale) (in that order) where x <= 0,
    else g * scale; Sleef's exp in the vector blocks, glibc's in the scalar loop (whose NaN x
    takes g * scale)."""
    t = x.dtype.type
    neg_c, pos_c, in_c = t(alpha) * t(scale), t(scale), t(input_scale)

    def steps(exp, vector):
        def kernel(dy, v):
            neg = dy * in_c * neg_c * exp(v * in_c)
            # (a NaN x: the vector code's blend takes the exp side, the scalar loop's test g * scale)
            return np.where(v > 0, dy * pos_c, neg) if vector else np.where(v <= 0, neg, dy * pos_c)
        return kernel

    if x.size > _vec_math.GRAIN_SIZE:
        with np.errstate(all="ignore"):
            return steps(np.exp, True)(g, x)
    vec, lib = _EXP[x.dtype]
    return by_lanes(loop_lanes((g, x)), steps(vec, True), steps(lib, False), (g, x), x.dtype)


def _softplus64(a, bx, beta, threshold):
    """softplus_kernel of float64: x where beta x > threshold, else log1p(exp(beta x)) / beta with
    Sleef's exp and log1p in the vector blocks, glibc's in the scalar loop."""
    t = a.dtype.type
    if a.size > _vec_math.GRAIN_SIZE:
        with np.errstate(all="ignore"):
            soft = np.log1p(np.exp(bx))
    else:
        soft = _vector_blocks(bx, lambda v: _sleef.sleef_log1p(_sleef.sleef_exp(v)),
                              lambda v: _sleef.libm("log1p", _sleef.libm("exp", v)), a)
    with np.errstate(all="ignore"):
        return np.where(bx > t(threshold), a, soft / t(beta))


def _softplus_backward_np(g, x, beta, threshold):
    """softplus_backward's kernel on float32/float64 arrays of one dtype: z = exp(beta x),
    g where beta x > threshold, else g * z / (z + 1) (in that order); Sleef's exp in the vector
    blocks, glibc's in the scalar loop."""
    t = x.dtype.type
    b, th = t(beta), t(threshold)

    def steps(exp):
        def kernel(dy, v):
            bx = v * b
            z = exp(bx)
            return np.where(bx > th, dy, dy * z / (z + t(1)))
        return kernel

    if x.size > _vec_math.GRAIN_SIZE:
        with np.errstate(all="ignore"):
            return steps(np.exp)(g, x)
    vec, lib = _EXP[x.dtype]
    return by_lanes(loop_lanes((g, x)), steps(vec), steps(lib), (g, x), x.dtype)


def hardtanh_backward(g, x, min_val, max_val):
    """hardtanh_backward's CPU kernel: the gradient where min_val < x < max_val, else 0."""
    out = np.where((x > min_val) & (x < max_val), g, 0)
    if min_val == min_val and max_val == max_val:
        return out
    # a NaN bound: the vector code's comparisons fail (0), the scalar loop's ``x <= min || x >= max``
    # too, so the elements past the last whole block (_scalar_tail's) pass the gradient
    n = out.size
    cut = n - n % (64 // out.dtype.itemsize)
    if cut < n:
        scalar = np.broadcast_to(np.where((x <= min_val) | (x >= max_val), 0, g), out.shape)
        out = np.array(out, order="C")
        out.reshape(-1)[cut:] = scalar.reshape(-1)[cut:]
    return out
