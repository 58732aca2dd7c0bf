"""Functions of matrices: matrix_exp (its own node, with PyTorch's backward through the
exponential of a block matrix), and ATen's composites matrix_power and multi_dot.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ..tensor import Tensor
from . import _vec_math
from ._gemm_order import bmm_product
from ._layout import c_order, iterator_layout
from ._op import FUNCTIONS, LINALG, Op, export, finish_out, with_out, write_outs
from .decompositions import _floating, _square
from .nn import const

# ---------------------------------------------------------------------------
# matrix_exp
# ---------------------------------------------------------------------------

#: the largest 1-norm for which each Taylor polynomial (degrees 1, 2, 4, 8, 12, 18) is used,
#: per dtype (float32 also for float16's upcast computations)
def _matrix_power_dtype(i, result, out):
    from ..tensor import _can_cast, _scalar_name

    if not _can_cast(result.dtype, out.dtype):
        return RuntimeError(f"matrix_power: Expected result to be safely castable from {_scalar_name(result.dtype)} "
                            f"dtype, but got result with dtype {_scalar_name(out.dtype)}")
    return None  # (then the "Expected out tensor to have dtype" of the matrix product)


def _multi_dot_dtype(i, result, out):
    from ._op import _C_TYPE

    return RuntimeError(f"multi_dot(): expected out tensor to have dtype {_C_TYPE[result.dtype.name]} "
                        f"but got {_C_TYPE[out.dtype.name]}")


_THETAS = {
    np.dtype(np.float32): (1.192092800768788e-07, 5.978858893805233e-04, 5.116619363445086e-02,
                           5.800524627688768e-01, 1.461661507209034e+00, 3.010066362817634e+00),
    np.dtype(np.float64): (2.220446049250313e-16, 2.580956802971767e-08, 3.397168839976962e-04,
                           4.991228871115323e-02, 2.996158913811580e-01, 1.090863719290036e+00),
}
# the coefficients of the degree-12 and degree-18 polynomials (Bader, Blanes, Casas 2019), one
# row per linear combination of the powers I, A, A^2, A^3 (and A^6)
_B12 = ((9.0198e-16, 0.46932117595418237389, -0.20099424927047284052, -0.04623946134063071740),
        (5.31597895759871264183, 1.19926790417132231573, 0.01179296240992997031, 0.01108844528519167989),
        (0.18188869982170434744, 0.05502798439925399070, 0.09351590770535414968, 0.00610700528898058230),
        (-2.0861320e-13, -0.13181061013830184015, -0.02027855540589259079, -0.00675951846863086359))
_B18 = ((0., -1.00365581030144618291e-01, -8.02924648241156932449e-03, -8.92138498045729985177e-04, 0.),
        (0., 3.97849749499645077844e-01, 1.36783778460411720168e+00, 4.98289622525382669416e-01,
         -6.37898194594723280150e-04),
        (-1.09676396052962061844e+01, 1.68015813878906206114e+00, 5.71779846478865511061e-02,
         -6.98210122488052056106e-03, 3.34975017086070470649e-05),
        (-9.04316832390810593223e-02, -6.76404519071381882256e-02, 6.75961301770459654925e-02,
         2.95552570429315521194e-02, -1.39180257516060693404e-05),
        (0., 0., -9.23364619367118555360e-02, -1.69364939002081722752e-02, -1.40086798182036094347e-05))


def _combination(mats, coeffs):
    """sum_j coeffs[j] * mats[j], added from zero in order as ATen's _compute_linear_combination."""
    dt = mats[0].dtype.type
    out = np.zeros_like(mats[0])
    for m, c in zip(mats, coeffs):
        out = out + m * dt(c)
    return out


def _mm(x, y, slot=0):
    """x @ y of two batches of matrices as ATen's _matmul_impl makes it into ``As.select(0, slot)`` of mexp's
    buffer (bmm_out: its own loop below 400 multiply-adds a matrix, else MKL's gemm per matrix, whose
    order of additions can depend on where the rows of the result fall; numpy's BLAS where not known)."""
    x, y = np.ascontiguousarray(x), np.ascontiguousarray(y)
    if x.dtype.char in "fd" and y.dtype == x.dtype and x.shape[-1] > 1:
        r = bmm_product(x, y, slot * x.shape[0] * x.shape[1] * y.shape[2])
        if r is not None:
            return r + x.dtype.type(0)
    return x @ y


def _powers(a, k):
    """The first k of I, A, A^2, A^3, A^6 (ATen's _fill_matrix_powers, each in its slot of the buffer)."""
    out = [np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape).copy(), a]
    if k > 2:
        out.append(_mm(a, a, 2))
    if k > 3:
        out.append(_mm(a, out[2], 3))
    if k > 4:
        out.append(_mm(out[3], out[3], 4))
    return out[:k]


def _taylor1(a):
    eye, a1 = _powers(a, 2)
    return eye + a1


def _taylor2(a):
    eye, a1, a2 = _powers(a, 3)
    return eye + a1 + a2 / a.dtype.type(2)


def _taylor4(a):
    eye, a1, a2 = _powers(a, 3)
    tail = _mm(a2, _combination([eye, a1, a2], (1 / 2.0, 1 / 6.0, 1 / 24.0)), 3)
    return _combination([eye, a1, a2, tail], (1.0, 1.0, 0.0, 1.0))


def _taylor8(a):
    # ATen's constexpr scalar_t constants: sqrt_177 and x3 rounded to the dtype, each expression of them
    # evaluated in double (its literals are doubles), then rounded to the dtype
    f = a.dtype.type
    sqrt_177 = float(f(0.1330413469565007072504e+2))
    x3 = float(f(2. / 3.))
    x1, x2 = f(x3 * ((1. + sqrt_177) / 88.)), f(x3 * ((1. + sqrt_177) / 352.))
    x4 = f((-271. + 29. * sqrt_177) / (315. * x3))
    x5 = f((-11. + 11. * sqrt_177) / (1260. * x3))
    x6 = f((-99. + 11. * sqrt_177) / (5040. * x3))
    x7 = f((89. - sqrt_177) / (5040. * x3))
    y2 = f((857. - 58. * sqrt_177) / 630.)
    x3 = f(x3)
    eye, a1, a2 = _powers(a, 3)
    a4 = _mm(a2, _combination([a1, a2], (x1, x2)), 3)
    a8 = _mm(_combination([a2, a4], (x3, 1.0)), _combination([eye, a1, a2, a4], (x4, x5, x6, x7)), 4)
    return _combination([eye, a1, a2, a4, a8], (1.0, 1.0, y2, 0.0, 1.0))


def _taylor12(a):
    b = [_combination(_powers(a, 4), row) for row in _B12]
    b[2] = b[2] + _mm(b[3], b[3])
    return b[0] + _mm(b[1] + b[2], b[2])


def _taylor18(a):
    b = [_combination(_powers(a, 5), row) for row in _B18]
    b[3] = b[3] + _mm(b[0], b[4])
    return b[1] + _mm(b[2] + b[3], b[3])


def _expm_np(a):
    """exp(A) as ATen's mexp computes it (Bader, Blanes, Casas 2019): by the 1-norm of a single
    matrix, a Taylor polynomial of degree 1, 2, 4, 8 or 12 evaluated with ATen's products and
    linear combinations in ATen's order, or beyond degree 12's bound (and for every matrix of a
    batch of several, as PyTorch's CPU kernel does) the degree-18 one of A / 2^s
    (s = ceil(log2(norm / theta_18)), at least 0) squared s times; a 1 x 1 matrix is exp."""
    n = a.shape[-1]
    if n == 0:
        return a.copy()
    if n == 1:
        return _vec_math.via_double(np.exp)(a)
    dt = a.dtype
    flat = a.reshape((-1, n, n))
    thetas = _THETAS[np.dtype(np.float64) if dt == np.float64 else np.dtype(np.float32)]
    norm = np.abs(flat).sum(-2).max(-1)
    out = np.empty_like(flat)
    low = -1.0
    with np.errstate(all="ignore"):
        if len(flat) == 1:  # (a batch of several takes the degree-18 one for every matrix)
            for taylor, high in zip((_taylor1, _taylor2, _taylor4, _taylor8, _taylor12), thetas[:5]):
                pick = (low < norm) & (norm <= high)
                if pick.any():
                    out[pick] = taylor(flat[pick])
                low = high
        pick = (norm >= thetas[4]) | np.isnan(norm) | (len(flat) > 1)  # (a NaN norm: all NaN)
        if pick.any():
            s = np.maximum(0, np.ceil(np.log2(norm[pick] / dt.type(thetas[5])))).astype(np.int64)
            scaled = _taylor18(flat[pick] / (2.0 ** s).astype(dt)[:, None, None])
            # (the squarings as ATen's: the matrices sorted by s, stably, the batch of those not done yet
            # squared at once (matmul_out into a new tensor), each step dropping the ones done)
            order = np.argsort(s, kind="stable")
            acc, done = scaled[order], 0
            for step in range(int(s.max()) if len(s) else 0):
                while done < len(order) and s[order[done]] <= step:
                    done += 1
                acc[done:] = _mm(acc[done:], acc[done:])
            scaled[order] = acc
            out[pick] = scaled
    return out.reshape(a.shape)


def _expm_laid_out(a):
    """ATen's layouts: exp's (TensorIterator's) for a 1 x 1 matrix, C order from mexp otherwise."""
    out = _expm_np(a)
    return iterator_layout(out, (a,)) if a.shape[-1] == 1 else c_order(out)


_matrix_exp = Op("LinalgMatrixExpBackward0", lambda ctx, a: _expm_laid_out(a), saves=("self",))


@_matrix_exp.derivative
def _(ctx, grad):
    # linalg_matrix_exp_differential(self, grad, adjoint=True): the exponential of the block
    # matrix [[A^H, grad], [0, A^H]], written into zeros by copy_ as PyTorch does (CopySlices)
    A = ctx.self.mT
    n = A.shape[-1]
    meta = const(np.zeros(tuple(A.shape[:-2]) + (2 * n, 2 * n), grad._data.dtype))
    meta[..., :n, :n] = A
    meta[..., n:, n:] = A
    meta[..., :n, n:] = grad
    return _matrix_exp(meta).narrow(-2, 0, n).narrow(-1, n, n)


@export("matrix_exp", method=True)
def matrix_exp(input):
    """The matrix exponential (LinalgMatrixExpBackward0)."""
    _square(input, "linalg.matrix_exp")
    _floating(input, "linalg.matrix_exp")
    if input.ndim > 2 and input.shape[-1] > 1:
        input.view(-1, input.shape[-2], input.shape[-1])  # (mexp's view of the batch: its error for one it cannot view)
    return _matrix_exp(input)


export("matrix_exp", linalg=True, torch=False)(matrix_exp)


# ---------------------------------------------------------------------------
# matrix_power, multi_dot (ATen's composites)
# ---------------------------------------------------------------------------

def _matmul(a, b):
    return FUNCTIONS["matmul"](a, b)


def _contiguous_clone(a):
    """a.clone(memory_format=torch.contiguous_format) (CloneBackward0 either way; an empty tensor is
    contiguous whatever its strides, its clone C-ordered)."""
    if not a._data.size:
        from .memory_format import contiguous_format
        return a.clone(memory_format=contiguous_format)
    return a.clone() if a.is_contiguous() else a.contiguous()


@export("matrix_power", method=True)
def matrix_power(input, n, *, out=None):
    """A^n by repeated squaring, as ATen builds it (n = 0: a copy of the identity; n < 0: of the inverse);
    an ``out`` of another shape is resized contiguous (resize_output), whatever the result's layout."""
    result = _matrix_power(input, n)
    if out is None:
        return result
    from ._out_alias import power_into
    result = power_into(input, n, result, out)
    if tuple(out.shape) != tuple(result.shape):
        result = result.contiguous()
        if not result._data.size and not result._requires_grad:  # (resize_output's C strides: an empty
            result = Tensor._make(c_order(result._data))  # tensor's contiguous() is itself)
    if result._requires_grad:  # (recorded: which op writes out decides)
        return _matrix_power_recorded_out(input, n, result, out)
    if n in (0, 1) and result.dtype is not out.dtype:  # (out.copy_(a) / of the identity: any castable dtype)
        error = _matrix_power_dtype(0, result, out)
        if error is not None:
            raise error
        return finish_out("matrix_power", result, out)
    return write_outs("matrix_power", result, out, _matrix_power_dtype)


def _matrix_power_recorded_out(input, n, result, out):
    """linalg_matrix_power_impl into ``out`` of an input that requires grad: out's dtype checked and out resized
    (contiguous) first, then the op that writes it: copy_ of the identity (n = 0), of the input (n = 1), of the
    last power of a power of two (a CopyBackwards on out), or linalg_inv_out / matmul_out (their autograd
    refusal of out=)."""
    error = _matrix_power_dtype(0, result, out)
    if error is not None:
        raise error
    if tuple(out.shape) != tuple(input.shape):
        from ._outs import _resize_out, warn_resized
        if out._data.size:
            warn_resized(out.shape, input.shape)
        _resize_out(out, np.empty(input._data.shape, out._data.dtype))
    m = abs(n)
    if n == -1 or m in (2, 3) or (m > 3 and m & (m - 1)):
        raise RuntimeError(f"{'linalg_inv_ex' if n == -1 else 'matmul'}(): functions with out=... arguments don't "
                           "support automatic differentiation, but one of the arguments requires grad.")
    if n == 0:
        return out.copy_(Tensor._make(np.broadcast_to(np.eye(input.shape[-1], dtype=input._data.dtype), input.shape)))
    return out.copy_(input if n == 1 else result)


def _matrix_power(input, n):
    _square(input, "linalg.matrix_power")
    if not isinstance(n, numbers.Integral):
        raise TypeError(f"matrix_power(): argument 'n' (position 2) must be int, not {type(n).__name__}")
    if n == 0:  # (ATen clones with MemoryFormat::Contiguous for n of 0 and 1)
        out = _contiguous_clone(input)
        eye = np.broadcast_to(np.eye(input.shape[-1], dtype=input._data.dtype), input.shape)
        return out.copy_(Tensor._make(np.ascontiguousarray(eye)))
    if n == 1:
        return _contiguous_clone(input)
    if n == -1:
        return LINALG["inv"](input)
    a = LINALG["inv"](input) if n < 0 else input
    n = abs(n)
    if n == 2:
        return _matmul(a, a)
    if n == 3:
        return _matmul(_matmul(a, a), a)
    z = result = None
    while n > 0:
        bit, n = n % 2, n // 2
        z = a if z is None else _matmul(z, z)
        if bit:
            result = z if result is None else _matmul(result, z)
    return result


export("matrix_power", linalg=True, torch=False)(matrix_power)


def _chain_order(shapes):
    p = [s[0] for s in shapes] + [shapes[-1][1]]
    n = len(shapes)
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = math.inf
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if q < cost[i][j]:
                    cost[i][j], split[i][j] = q, k
    return split


@with_out("linalg_multi_dot", _multi_dot_dtype)
def multi_dot(tensors, *, out=None):
    """The product of a chain of matrices, in the cheapest order (ATen's matrix-chain order)."""
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    mats = list(tensors)
    out_shape = []
    first, last = tensors[0], tensors[-1]
    if first.ndim == 1:
        mats[0] = first.unsqueeze(0)
    elif first.ndim == 2:
        out_shape.append(first.shape[0])
    else:
        raise RuntimeError(f"multi_dot(): the first tensor must be 1D or 2D but got {first.ndim}D")
    if last.ndim == 1:
        mats[-1] = last.unsqueeze(-1)
    elif last.ndim == 2:
        out_shape.append(last.shape[1])
    else:
        raise RuntimeError(f"multi_dot(): the last tensor must be 1D or 2D but got {last.ndim}D")
    for i in range(1, n - 1):
        if tensors[i].ndim != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {tensors[i].ndim}D")
    for i in range(1, n):
        if mats[i].dtype is not mats[0].dtype:
            from .pointwise import _C_NAMES  # (the C++ names of the dtypes)
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but tensor 0 is "
                               f"{_C_NAMES[mats[0].dtype.name]} and tensor {i} {_C_NAMES[mats[i].dtype.name]}")
        if mats[i - 1].shape[-1] != mats[i].shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i - 1} and {i} with shapes {list(tensors[i - 1].shape)} and "
                               f"{list(tensors[i].shape)} cannot be multiplied")
    if out is not None and out.dtype is mats[0].dtype and tuple(out.shape) != tuple(out_shape):
        # multi_dot_impl resizes out to the result's shape (resize_output, its warning) before its mm_out,
        # whose autograd refusal comes after
        from ._outs import _resize_out, warn_resized
        if out._data.size:
            warn_resized(out.shape, tuple(out_shape))
        _resize_out(out, np.empty(tuple(out_shape), out._data.dtype))
    mm = FUNCTIONS["mm"]
    from ._out_alias import product_into  # (the last mm_out into out: an operand that is out reads zeros)
    if n == 2:
        result = product_into("mm", tuple(mats), mm(mats[0], mats[1]), out)
    elif n == 3:
        a, b, c, d = mats[0].shape[0], mats[1].shape[0], mats[2].shape[0], mats[2].shape[1]
        if a * c * (b + d) <= b * d * (a + c):  # a tie multiplies (AB)C, as ATen does
            pair = (mm(mats[0], mats[1]), mats[2])
        else:
            pair = (mats[0], mm(mats[1], mats[2]))
        result = product_into("mm", pair, mm(*pair), out)
    else:
        split = _chain_order([m.shape for m in mats])

        def chain(i, j):
            return mats[i] if i == j else mm(chain(i, split[i][j]), chain(split[i][j] + 1, j))

        result = chain(0, n - 1)
    return result.view(tuple(out_shape))


multi_dot.__wrapped__.sees_out = True
export("multi_dot", linalg=True, torch=False)(multi_dot)


# ---------------------------------------------------------------------------


_CHAIN_MATMUL = ("torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
                 "torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than "
                 "multiple parameters.")


@export()
def chain_matmul(*matrices, out=None):
    """The product of matrices (deprecated: torch.linalg.multi_dot; ATen's chain_matmul)."""
    from .._warn_once import warn_once

    from .combinatorics import _tensors

    _tensors(matrices)  # (the parser's TensorList check, before the warning)
    warn_once(_CHAIN_MATMUL, UserWarning)
    for t in matrices:
        if t.ndim != 2:
            raise RuntimeError(f"Tensor dimension is {t.ndim}, expected 2 instead.")
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    if len(matrices) == 1:
        if out is None:
            return matrices[0].clone()
        from ._outs import copied_out
        return copied_out(matrices[0], out)  # (chain_matmul_out: resize_output, then copy_)
    return finish_out("chain_matmul", multi_dot(list(matrices)), out)
