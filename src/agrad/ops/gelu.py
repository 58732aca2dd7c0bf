"""gelu: its exact (erf) and tanh forms, and gelu_backward as an op of its own.

PyTorch records ``GeluBackward0`` for gelu and ``GeluBackwardBackward0`` for its
derivative; the derivative's forward needs erf, which has no agrad op, so it is
an op here too, and its own derivative is written with agrad ops.  The forward
follows the CPU kernel's steps in the input's type.
"""

from __future__ import annotations

import math

import numpy as np

from .._zero import materialized
from ._op import Op, export
from .activations import _opmath, _scalar
from .nn import check_floating
from . import _glibc_float, _sleef
from ._erf_math import calerf as _calerf, vec_erff as _vec_erff
from ._vec_math import _fma32, sleef_expf
from ._activation_kernels import _SLEEF, _kernel
from ._vector_loop import binary_lanes, by_lanes, unary_lanes, unexpanded

# ---------------------------------------------------------------------------
# gelu
# ---------------------------------------------------------------------------

_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_KAPPA = 0.044715
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
def _phi(a):
    """The standard normal CDF, in double precision (vectorised erf from pointwise_extra)."""
    return 0.5 * (1.0 + _calerf(np.asarray(a, np.float64) / math.sqrt(2.0), False))


_BETA = math.sqrt(2) * (2 / math.sqrt(math.pi)) * 0.5  # the kernel's M_SQRT2 * M_2_SQRTPI * 0.5


def _tanh(a):
    """tanh as std::tanh gives it: float32 through double, rounded once (numpy's own float32
    tanh is off by an ulp at times)."""
    return np.tanh(a.astype(np.float64)).astype(a.dtype) if a.dtype == np.float32 else np.tanh(a)


def _gelu_tanh_kernel(m):
    """GeluKernelImpl (tanh) on float32/float64, both codes: ``inner = kBeta * (x + kKappa *
    x_cube)`` with the multiply-add fused, libm's or Sleef's tanh (``m``, _activation_kernels)."""
    def f(x):
        d = x.dtype.type
        inner = d(_BETA) * m.fma(d(_KAPPA), x * x * x, x)
        return d(0.5) * x * (d(1) + m.tanh(inner))
    return f


def _gelu_tanh_backward_kernel(m):
    """GeluBackwardKernelImpl (tanh) on float32/float64, both codes, the compiler's multiply-adds
    fused: ``dy * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * kBeta * (1 + 3 * kKappa * x_sq))``."""
    def f(dy, x):
        d = x.dtype.type
        x_sq = x * x
        t = m.tanh(d(_BETA) * m.fma(d(_KAPPA), x_sq * x, x))
        left_derivative = d(0.5) * (d(1) + t)
        tanh_derivative = m.fma(-t, t, d(1))
        inner_derivative = d(_BETA) * m.fma(d(3) * d(_KAPPA), x_sq, d(1))
        return dy * (left_derivative + d(0.5) * x * tanh_derivative * inner_derivative)
    return f


def _gelu_np(a, approximate):
    if approximate == "tanh" and a.dtype in (np.float32, np.float64):
        return _kernel(_gelu_tanh_kernel, (a,), a.dtype, lambda: unary_lanes(a))
    if approximate == "tanh":  # the kernel's steps: x_cube = x * x * x; inner = kBeta * (x + kKappa * x_cube)
        cube = a * a * a
        inner = _scalar(a, _BETA) * (a + _scalar(a, _KAPPA) * cube)
        return _scalar(a, 0.5) * a * (1 + _tanh(inner))
    # the kernel's steps in the input's type: 0.5 * x * (1 + erf(x * M_SQRT1_2))
    if a.dtype == np.float64:  # (the scalar loop's erf glibc's, the vector code's taken as correctly rounded)
        return by_lanes(unary_lanes(a), lambda x: 0.5 * x * (1 + _calerf(x * math.sqrt(0.5), False)),
                        lambda x: 0.5 * x * (1 + np.asarray(_LIBM_ERF(x), np.float64)), (a,), a.dtype)
    e = _calerf((a * _scalar(a, math.sqrt(0.5))).astype(np.float64), False).astype(a.dtype, copy=False)
    return _scalar(a, 0.5) * a * (1 + e)


def _gelu_half(a):
    """GeluKernelImpl (exact erf) on float16: in float, ``x * 0.5 * (1 + erf(x * M_SQRT1_2))``, its
    vector code (blocks of 16 halves) with Vectorized<float>::erf, its scalar loop glibc's erff."""
    x = a.astype(np.float32)
    f32 = np.float32

    def steps(erf):
        return lambda v: v * f32(0.5) * (f32(1) + erf(v * _ALPHA32))

    return by_lanes(unary_lanes(a), steps(_vec_erff), steps(_glibc_float.erff), (x,), np.float32).astype(a.dtype)


def _gelu_fwd(ctx, a, approximate):
    # (PyTorch hands a contiguous float32 tensor of 2 or more elements to oneDNN: its AVX2 kernel, which
    # tools/torch_reference.py pins, gives inf at +inf as this one does; its AVX-512 one NaN)
    if a.dtype == np.float16 and approximate != "tanh":
        return _gelu_half(a)
    if a.dtype == np.float16:  # (the float32 steps, the float16 loop's vector blocks, rounded once)
        return _kernel(_gelu_tanh_kernel, (a.astype(np.float32),), np.dtype(np.float32), lambda: unary_lanes(a)).astype(a.dtype)
    out = np.asarray(_gelu_np(_opmath(a), approximate)).astype(a.dtype, copy=False)
    if approximate != "tanh" and a.dtype == np.float32 and a.size >= 2 and a.flags.c_contiguous:
        out = out + np.float32(0)  # (oneDNN's zeros are +0.0: of -0.0, and far below zero where agrad's is -0.0)
    return out


_gelu = Op("GeluBackward0", _gelu_fwd, saves=("self",), jvp="element_wise")


def _gelu_backward_np(ctx, g, x, approximate):
    g = materialized(g)  # (a ZeroTensor gradient: plain zeros to the kernel)
    if approximate == "tanh" and x.dtype in (np.float32, np.float64) and g.dtype == x.dtype:
        return _kernel(_gelu_tanh_backward_kernel, (g, x), x.dtype,
                       lambda: binary_lanes(np.broadcast_shapes(g.shape, x.shape), (unexpanded(g), unexpanded(x))))
    if approximate == "tanh" and x.dtype == np.float16 and g.dtype == x.dtype:  # (in float, rounded once)
        return _kernel(_gelu_tanh_backward_kernel, (g.astype(np.float32), x.astype(np.float32)), np.dtype(np.float32),
                       lambda: binary_lanes(np.broadcast_shapes(g.shape, x.shape), (unexpanded(g), unexpanded(x))),
                       ).astype(np.float16)
    if approximate == "tanh":
        inner = _scalar(x, _BETA) * (x + _scalar(x, _KAPPA) * (x * x * x))
        t = _tanh(inner)
        left = _scalar(x, 0.5) * x
        d = _scalar(x, 0.5) * (1 + t) + left * (1 - t * t) * _scalar(x, _SQRT_2_OVER_PI) * (
            1 + _scalar(x, 3 * _KAPPA) * x * x)
        return (g * d).astype(x.dtype, copy=False)
    if x.dtype == np.float32 and g.dtype == np.float32:
        return _gelu_backward32(g, x)
    if x.dtype == np.float16 and g.dtype == np.float16:  # (the same steps in float, rounded once)
        return _gelu_backward32(g.astype(np.float32), x.astype(np.float32), (g, x)).astype(np.float16)
    if x.dtype == np.float64 and g.dtype == np.float64:
        lanes = binary_lanes(np.broadcast_shapes(g.shape, x.shape), (unexpanded(g), unexpanded(x)))
        return by_lanes(lanes, _gelu_backward_kernel(_SLEEF[x.dtype]), _gelu_backward_kernel(None), (g, x), x.dtype)
    xd = x.astype(np.float64)
    d = _phi(x) + xd * np.exp(-0.5 * xd * xd) * _INV_SQRT_2PI
    return (g * d).astype(x.dtype)


def _gelu_backward_kernel(m):
    """GeluBackwardKernelImpl (exact erf) on float64: ``dy * (cdf + x * pdf)``, cdf = 0.5 * (1 +
    erf(x * M_SQRT1_2)), pdf = kBeta * exp(x * x * -0.5). The scalar loop (``m`` None) takes glibc's
    erf and exp; the vector code (``m``: Sleef's functions) Sleef's exp and fuses ``cdf + x * pdf``
    (its erf, Sleef's erfd4_u10, is taken as the correctly rounded one: an ulp apart in about 0.2%
    of the vector code's elements)."""
    def f(dy, x):
        if m is None:
            cdf = 0.5 * (1 + np.asarray(_LIBM_ERF(x), np.float64))
            return dy * (cdf + x * (_BETA64 * _sleef.libm("exp", x * x * -0.5)))
        cdf = 0.5 * (1 + _calerf(x * math.sqrt(0.5), False))
        return dy * m.fma(x, _BETA64 * m.exp(x * x * -0.5), cdf)
    return f


_LIBM_ERF = np.frompyfunc(lambda v: math.erf(v * math.sqrt(0.5)), 1, 1)  # (std::erf(x * M_SQRT1_2))
_BETA64 = 2 / math.sqrt(math.pi) * math.sqrt(0.5) * 0.5  # M_2_SQRTPI * M_SQRT1_2 * 0.5


_ALPHA32 = np.float32(math.sqrt(0.5))  # M_SQRT1_2
_BETA32 = np.float32(2 / math.sqrt(math.pi) * math.sqrt(0.5) * 0.5)  # M_2_SQRTPI * M_SQRT1_2 * 0.5


def _gelu_backward32(dy, x, loop=None):
    """GeluBackwardKernelImpl (exact erf) on float32, step by step in float32: ``dy * (cdf + x *
    pdf)``, cdf = 0.5 * (1 + erf(x * M_SQRT1_2)), pdf = kBeta * exp(x * x * -0.5). Its scalar
    loop takes glibc's erff and expf, its vector code Vectorized<float>::erf and Sleef's expf,
    and fuses ``cdf + x * pdf`` (_vector_loop.binary_lanes says which element runs which).
    PyTorch gives a contiguous tensor of 2 or more elements to oneDNN instead (docs/semantics.md).
    ``loop``: the float16 (grad, input) they were widened from (its loop's vector blocks)."""
    f32 = np.float32
    dy = np.asarray(dy, f32)
    with np.errstate(all="ignore"):
        u = x * _ALPHA32
        sq = x * x * f32(-0.5)
        lg, lx = (dy, x) if loop is None else loop
        lanes = binary_lanes(lx.shape, (unexpanded(np.broadcast_to(lg, lx.shape)), unexpanded(lx)))
        cdf = f32(0.5) * (f32(1) + _glibc_float.erff(u))
        pdf = _BETA32 * _glibc_float.expf(sq)
        out = np.asarray(dy * (cdf + x * pdf), f32)
        if lanes is not None:  # (the vector code's cdf + x * pdf is one fused multiply-add)
            cdf = f32(0.5) * (f32(1) + _vec_erff(u))
            pdf = _BETA32 * sleef_expf(sq)
            out = np.where(lanes, dy * _fma32(x, pdf, cdf), out).astype(f32, copy=False)
        return out


# gelu_backward is itself an op (PyTorch's GeluBackwardBackward0): its forward needs erf,
# which has no agrad op, and its own derivative is written with agrad ops.
_gelu_backward = Op("GeluBackwardBackward0", _gelu_backward_np, inputs=("grad_output", "self"),
                    saves=("grad_output", "self"), internal=True, jvp="element_wise", iterated=True)


@_gelu.derivative
def _(ctx, grad):
    return _gelu_backward(grad, ctx.self, approximate=ctx.approximate)


@_gelu_backward.derivative
def _(ctx, grad):
    x, go = ctx.self, ctx.grad_output
    meta = ctx._input_meta
    g_go = _gelu_backward(grad, x, approximate=ctx.approximate) if meta[0] is not None else None
    g_x = None
    if meta[1] is not None:
        # FunctionsManual's gelu_double_backward, its ops in its order (C++'s ``1 - t``, ``1 / t``)
        if ctx.approximate == "tanh":
            b, k = _BETA, _KAPPA
            inner = (x + x.pow(3) * k) * b
            tanh_inner = inner.tanh()
            sech_inner = 1 / inner.cosh()
            f = x * 0.5
            g = 1 - tanh_inner * tanh_inner
            h = (x * (3 * k) * x + 1) * b
            f_prime_gh = g * 0.5 * h
            g_prime = sech_inner * 2 * (-sech_inner * tanh_inner) * h
            g_prime_fh = f * h * g_prime
            h_prime = x * (6 * k) * b
            h_prime_fg = f * g * h_prime
            second = f_prime_gh * 2 + g_prime_fh + h_prime_fg
        else:
            input_sq = x * x
            pdf = (input_sq * -0.5).exp() * (2 / math.sqrt(math.pi) * math.sqrt(0.5) * 0.5)
            second = pdf * 2 - input_sq * pdf
        g_x = grad * go * second
    return g_go, g_x


@export(functional=True, torch=False)
def gelu(input, *, approximate="none", out=None):
    if out is not None:  # (checked and resized before the approximate's check)
        from ._outs import unary_into

        def oneDNN(out):  # (a contiguous float32 input: oneDNN's gelu writes a dense copy of an out that is not)
            return gelu(input, approximate=approximate)
        dense = out.is_contiguous() if tuple(out.shape) == tuple(input.shape) else True
        onednn = approximate == "none" and input.dtype.name == "float32" and input.is_contiguous() and not dense
        return unary_into("gelu", input, out, oneDNN if onednn else (lambda: gelu(input, approximate=approximate)),
                          written=not onednn)
    if approximate not in ("none", "tanh"):
        raise RuntimeError(f"approximate argument must be either none or tanh.")
    check_floating(input, "GeluKernelImpl")
    return _gelu(input, approximate=approximate)
