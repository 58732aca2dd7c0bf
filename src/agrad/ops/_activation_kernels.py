"""The array kernels of PyTorch's CPU activation loops where their steps decide the last bit:
which elements the vector code runs (_vector_loop's lanes) and its Sleef functions there, the
scalar loop's libm functions elsewhere, and the compiler's fused multiply-adds (the AVX2 build
contracts ``a * b + c`` in both codes). The ops themselves live in activations.py."""

from __future__ import annotations

import numpy as np

from . import _vec_math, _vec_math64
from ._vector_loop import loop_lanes, unary_lanes


def _vector_blocks(a, vec, scalar, loop=None):
    """cpu_kernel_vec over a float32 or float64 array: the elements its vector code runs on
    (blocks of two AVX2 vectors of each row of the loop over ``loop``, the op's input, by default
    ``a``: _vector_loop.unary_lanes) through ``vec``, the others through the scalar code ``scalar``."""
    return _by_lanes(unary_lanes(a if loop is None else loop), vec, scalar, (a,), a.dtype)


def _by_lanes(lanes, vec, scalar, arrays, dtype):
    """``vec(*arrays)`` where ``lanes`` (True, False, None or a bool array of the result's shape)
    says the vector code runs, ``scalar(*arrays)`` elsewhere."""
    with np.errstate(all="ignore"):
        if lanes is None or lanes is False:
            return np.asarray(scalar(*arrays), dtype)
        out = np.array(vec(*arrays), dtype)
        if lanes is not True:
            rest = ~lanes
            if rest.any():
                out[rest] = scalar(*(np.broadcast_to(a, out.shape)[rest] for a in arrays))
    return out


def _silu_np(a):
    """x / (1 + exp(-x)): Sleef's exp (expf8_u10, expd4_u10) in the vector blocks, libm's in the tail."""
    if a.dtype == np.float64:
        return _vector_blocks(a, lambda x: x / (1 + _vec_math64.sleef_exp(-x)),
                              lambda x: x / (1 + _vec_math64.libm("exp", -x)))
    one = np.float32(1)
    return _vector_blocks(a, lambda x: x / (one + _vec_math.sleef_expf(-x)),
                          lambda x: x / (one + _vec_math.libm_float(np.exp, -x)))


def _silu_backward_np(g, x):
    """silu_backward's kernel: s = 1 / (1 + exp(-x)), dy * s * (1 + x * (1 - s)) with the
    compiler's fused multiply-add for 1 + x * (1 - s); exp as in _silu_np."""
    if x.dtype == np.float64:
        vexp, sexp, one = _vec_math64.sleef_exp, lambda v: _vec_math64.libm("exp", v), 1.0
    else:
        vexp, sexp, one = _vec_math.sleef_expf, lambda v: _vec_math.libm_float(np.exp, v), np.float32(1)

    def steps(exp):
        def kernel(dy, v):
            s = one / (one + exp(-v))
            return dy * s * _vec_math.fma(v, one - s, one)
        return kernel

    return _by_lanes(loop_lanes((g, x)), steps(vexp), steps(sexp),
                     (g, x), x.dtype)


def _mish_np(a):
    """x * tanh(log1p(exp(x))), the kernel's steps; float64: Sleef's exp, log1p and tanh in the
    vector blocks, glibc's in the tail."""
    if a.dtype != np.float64:
        return a * np.tanh(np.logaddexp(0, a))
    return _vector_blocks(a, lambda x: x * _tanh_softplus(x, _vec_math64),
                          lambda x: x * _tanh_softplus(x, None))


def _tanh_softplus(x, sleef):
    """tanh(log1p(exp(x))) with Sleef's double functions, or glibc's where ``sleef`` is None."""
    if sleef is not None:
        return sleef.sleef_tanh(sleef.sleef_log1p(sleef.sleef_exp(x)))
    f = _vec_math64.libm
    return f("tanh", f("log1p", f("exp", x)))


def _mish_backward_np(g, x):
    """mish_backward's kernel: s = 1 / (1 + exp(-x)), t = tanh(log1p(exp(x))),
    dy * (t + x * s * (1 - t * t)), the compiler fusing both multiply-adds (float64)."""
    def steps(sleef):
        def kernel(dy, v):
            exp = _vec_math64.sleef_exp if sleef is not None else (lambda u: _vec_math64.libm("exp", u))
            s = 1.0 / (1.0 + exp(-v))
            t = _tanh_softplus(v, sleef)
            return dy * _vec_math.fma(v * s, _vec_math.fma(-t, t, 1.0), t)
        return kernel

    return _by_lanes(loop_lanes((g, x)), steps(_vec_math64),
                     steps(None), (g, x), x.dtype)
