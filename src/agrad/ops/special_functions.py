"""torch.special's Airy, Bessel and orthogonal-polynomial functions: airy_ai, bessel_j0/j1/y0/y1,
modified_bessel_i0/i1/k0/k1, scaled_modified_bessel_k0/k1, spherical_bessel_j0 (of one tensor),
and the Chebyshev (T, U, V, W and shifted), Hermite (H, He), Laguerre and Legendre polynomials
of x at degree n (a tensor or a number each, not both numbers).

derivatives.yaml marks them all non-differentiable: their results never require grad and have
no node.  Integer and bool inputs compute in the default float dtype; float16 and bfloat16 are
refused as the CPU kernels' dispatch refuses them.  The kernels are ATen's Math.h steps
(agrad/ops/_bessel_math.py, _polynomial_math.py).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..tensor import Tensor
from . import _bessel_math as B
from . import _polynomial_math as P
from ._layout import iterator_layout, promote
from ._op import export, finish_out
from .pointwise import _float_array, _not_implemented_for, broadcast_error, check_operand
from .special import _laid_out

_KERNEL_TYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _unary(name, kernel, input, out):
    """``kernel`` of input's data (ints and bools in the default float), as a tensor without history."""
    a = _float_array(input)
    if a.dtype not in _KERNEL_TYPES:
        _not_implemented_for(name, input.dtype)
    return finish_out(f"special_{name}", Tensor._make(_laid_out(kernel)(a)), out)


# ---------------------------------------------------------------------------
# Airy and Bessel functions of one tensor
# ---------------------------------------------------------------------------

@export(torch=False, special=True)
def airy_ai(x, *, out=None):
    """The Airy function Ai(x)."""
    return _unary("airy_ai", B.airy_ai, x, out)


@export(torch=False, special=True)
def bessel_j0(input, *, out=None):
    """The Bessel function of the first kind of order 0."""
    return _unary("bessel_j0", B.bessel_j0, input, out)


@export(torch=False, special=True)
def bessel_j1(input, *, out=None):
    """The Bessel function of the first kind of order 1."""
    return _unary("bessel_j1", B.bessel_j1, input, out)


@export(torch=False, special=True)
def bessel_y0(input, *, out=None):
    """The Bessel function of the second kind of order 0."""
    return _unary("bessel_y0", B.bessel_y0, input, out)


@export(torch=False, special=True)
def bessel_y1(input, *, out=None):
    """The Bessel function of the second kind of order 1."""
    return _unary("bessel_y1", B.bessel_y1, input, out)


@export(torch=False, special=True)
def modified_bessel_i0(input, *, out=None):
    """The modified Bessel function of the first kind of order 0."""
    return _unary("modified_bessel_i0", B.modified_bessel_i0, input, out)


@export(torch=False, special=True)
def modified_bessel_i1(input, *, out=None):
    """The modified Bessel function of the first kind of order 1."""
    return _unary("modified_bessel_i1", B.modified_bessel_i1, input, out)


@export(torch=False, special=True)
def modified_bessel_k0(input, *, out=None):
    """The modified Bessel function of the second kind of order 0."""
    return _unary("modified_bessel_k0", B.modified_bessel_k0, input, out)


@export(torch=False, special=True)
def modified_bessel_k1(input, *, out=None):
    """The modified Bessel function of the second kind of order 1."""
    return _unary("modified_bessel_k1", B.modified_bessel_k1, input, out)


@export(torch=False, special=True)
def scaled_modified_bessel_k0(x, *, out=None):
    """exp(x) K0(x)."""
    return _unary("scaled_modified_bessel_k0", B.scaled_modified_bessel_k0, x, out)


@export(torch=False, special=True)
def scaled_modified_bessel_k1(x, *, out=None):
    """exp(x) K1(x)."""
    return _unary("scaled_modified_bessel_k1", B.scaled_modified_bessel_k1, x, out)


@export(torch=False, special=True)
def spherical_bessel_j0(x, *, out=None):
    """The spherical Bessel function of the first kind of order 0, sin(x) / x."""
    return _unary("spherical_bessel_j0", B.spherical_bessel_j0, x, out)


# ---------------------------------------------------------------------------
# Orthogonal polynomials of (x, n): (tensor, tensor), (number, tensor), (tensor, number)
# ---------------------------------------------------------------------------

def _polynomial(name, kernel, x, n, out):
    fname = f"special_{name}"
    check_operand(x, fname)
    check_operand(n, fname)
    if not isinstance(x, Tensor) and not isinstance(n, Tensor):
        raise TypeError(f"{fname}(): expected a Tensor")
    d = dtypes.result_type(x, n)
    if not d.is_floating_point:
        d = dtypes.get_default_dtype()
    arrays = [promote(v._data, d.numpy) if isinstance(v, Tensor) else np.asarray(v, d.numpy) for v in (x, n)]
    try:
        shape = np.broadcast_shapes(arrays[0].shape, arrays[1].shape)
    except ValueError:
        raise broadcast_error(arrays) from None
    if d.numpy not in _KERNEL_TYPES:
        _not_implemented_for(name, d)
    res = kernel(*arrays).reshape(shape)
    if res.ndim > 1:  # (a number is a wrapped 0-d operand of TensorIterator's: it decides nothing, but with
        # operands of two shapes its fast set-up is not taken)
        res = iterator_layout(res, [a if isinstance(v, Tensor) else 0 for v, a in zip((x, n), arrays)])
    return finish_out(fname, Tensor._make(res), out)


@export(torch=False, special=True)
def chebyshev_polynomial_t(x, n, *, out=None):
    """The Chebyshev polynomial of the first kind T_n(x)."""
    return _polynomial("chebyshev_polynomial_t", P.chebyshev_t, x, n, out)


@export(torch=False, special=True)
def chebyshev_polynomial_u(x, n, *, out=None):
    """The Chebyshev polynomial of the second kind U_n(x)."""
    return _polynomial("chebyshev_polynomial_u", P.chebyshev_u, x, n, out)


@export(torch=False, special=True)
def chebyshev_polynomial_v(x, n, *, out=None):
    """The Chebyshev polynomial of the third kind V_n(x)."""
    return _polynomial("chebyshev_polynomial_v", P.chebyshev_v, x, n, out)


@export(torch=False, special=True)
def chebyshev_polynomial_w(x, n, *, out=None):
    """The Chebyshev polynomial of the fourth kind W_n(x)."""
    return _polynomial("chebyshev_polynomial_w", P.chebyshev_w, x, n, out)


@export(torch=False, special=True)
def shifted_chebyshev_polynomial_t(x, n, *, out=None):
    """T_n(2x - 1)."""
    return _polynomial("shifted_chebyshev_polynomial_t", P.shifted_chebyshev_t, x, n, out)


@export(torch=False, special=True)
def shifted_chebyshev_polynomial_u(x, n, *, out=None):
    """U_n(2x - 1)."""
    return _polynomial("shifted_chebyshev_polynomial_u", P.shifted_chebyshev_u, x, n, out)


@export(torch=False, special=True)
def shifted_chebyshev_polynomial_v(x, n, *, out=None):
    """V_n(2x - 1)."""
    return _polynomial("shifted_chebyshev_polynomial_v", P.shifted_chebyshev_v, x, n, out)


@export(torch=False, special=True)
def shifted_chebyshev_polynomial_w(x, n, *, out=None):
    """W_n(2x - 1)."""
    return _polynomial("shifted_chebyshev_polynomial_w", P.shifted_chebyshev_w, x, n, out)


@export(torch=False, special=True)
def hermite_polynomial_h(x, n, *, out=None):
    """The physicists' Hermite polynomial H_n(x)."""
    return _polynomial("hermite_polynomial_h", P.hermite_h, x, n, out)


@export(torch=False, special=True)
def hermite_polynomial_he(x, n, *, out=None):
    """The probabilists' Hermite polynomial He_n(x)."""
    return _polynomial("hermite_polynomial_he", P.hermite_he, x, n, out)


@export(torch=False, special=True)
def laguerre_polynomial_l(x, n, *, out=None):
    """The Laguerre polynomial L_n(x)."""
    return _polynomial("laguerre_polynomial_l", P.laguerre_l, x, n, out)


@export(torch=False, special=True)
def legendre_polynomial_p(x, n, *, out=None):
    """The Legendre polynomial P_n(x)."""
    return _polynomial("legendre_polynomial_p", P.legendre_p, x, n, out)
