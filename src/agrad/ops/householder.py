"""Householder reflectors as LAPACK stores them: torch.geqrf (GeqrfBackward0, which PyTorch cannot
differentiate), torch.linalg.householder_product / torch.orgqr (LinalgHouseholderProductBackward0)
and torch.ormqr (OrmqrBackward0).

geqrf and orgqr are ``_lapack``'s geqr2 and org2r (MKL's arithmetic, as linalg.qr's); ormqr applies
the reflectors H_i = I - tau_i v_i v_i^H one at a time in LAPACK's order.  Results are column-major.

The gradients are PyTorch's householder_product_backward, op for op (:func:`householder_grads`):
its values, and under ``create_graph=True`` its graph.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..tensor import _scalar_name
from ._lapack import column_major, geqr2, org2r
from ._op import FUNCTIONS, Op, export, with_out
from ._return_types import return_type

GeqrfResult = return_type("geqrf", ["a", "tau"])


def _kernel(t, name):
    if t.dtype not in (dtypes.float32, dtypes.float64):
        raise NotImplementedError(f'"{name}" not implemented for \'{_scalar_name(t.dtype)}\'')


def _flat(a):
    return a.reshape((int(np.prod(a.shape[:-2])),) + a.shape[-2:])


# ---------------------------------------------------------------------------
# geqrf
# ---------------------------------------------------------------------------

def _geqrf_fwd(ctx, a):
    packed, taus = geqr2(_flat(a))
    return column_major(packed.reshape(a.shape)), taus.reshape(a.shape[:-2] + taus.shape[-1:])


_geqrf = Op("GeqrfBackward0", _geqrf_fwd, outputs=None, multi_grad=True, jvp="unsupported")
_geqrf.jvp_name = "geqrf"


@_geqrf.derivative
def _(ctx, grads):
    raise NotImplementedError("the derivative for 'geqrf' is not implemented.")


@export("geqrf", method=True)
@with_out("geqrf")
def geqrf(input):
    if input.ndim < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    _kernel(input, "geqrf_cpu")
    return GeqrfResult(*_geqrf(input))


# ---------------------------------------------------------------------------
# householder_product (orgqr)
# ---------------------------------------------------------------------------

def _transform(m, k, v_full, t, K, in_place, left):
    """PyTorch's apply_simple_transformation with u = v: (I - t v v^H) K (``left``) or K (I - t v v^H);
    ``in_place`` (a first derivative, grad mode off): K's rows (columns) from k on rewritten, v's
    first k entries being zeros."""
    if in_place:
        v = v_full.narrow(-2, k, m - k)
        if left:
            u = v.mT.matmul(K.narrow(-2, k, m - k))
            K.narrow(-2, k, m - k).sub_((t.unsqueeze(-1) * v) * u)
        else:
            u = K.narrow(-1, k, m - k).matmul(t.unsqueeze(-1) * v)
            K.narrow(-1, k, m - k).sub_(u * v.mT)
        return K
    # (PyTorch's C++ evaluates a product's right operand first: the order its graph's nodes are made in,
    # which decides the order gradients meet in a double backward)
    if left:
        vK = v_full.mT.matmul(K)
        return K - (t.unsqueeze(-1) * v_full) * vK
    vT = v_full.mT
    return K - K.matmul(t.unsqueeze(-1) * v_full) * vT


def _update_grad(m, k, v_full, t, K):
    """(v_k's gradient (..., m, 1), tau_k's (..., 1)) from K (PyTorch's update_grad)."""
    v = v_full.narrow(-2, k, m - k)
    vHK = v.mT.matmul(K.narrow(-2, k, m - k))
    Kv = K.narrow(-1, k, m - k).matmul(v)
    t = t.unsqueeze(-1)
    Kv_part = (t * Kv).squeeze(-1)  # (the right operand first, as PyTorch's C++ evaluates it)
    v_grad = (-t * vHK).squeeze(-2) - Kv_part
    tau_grad = -(vHK.narrow(-1, k, m - k).matmul(v))
    return v_grad.unsqueeze(-1), tau_grad.squeeze(-1)


def householder_grads(grad, result, input_, tau, flip_order=False):
    """(input's gradient, tau's) as PyTorch's householder_product_backward computes them, op for op
    (so its values and, under create_graph, its graph): K = result grad^H, updated by one reflector
    from each side per column (H_{i+1}^{-1} K H_i, with H(tau)^{-1} = H(tau / (tau ||v||^2 - 1)));
    in place when no graph is recorded, out of place otherwise (whose 0 * inf differ).  None, None
    for an empty input or tau."""
    from ..autograd import graph
    if input_.numel() == 0 or tau.numel() == 0:
        return None, None
    m, k = input_.shape[-2], tau.shape[-1]
    inp = input_.tril(-1)
    inp.diagonal(0, -2, -1).fill_(1.0)
    cols = inp.narrow(-1, 0, k)
    sigma = tau / (tau * (cols * cols).sum(-2) - 1.0)
    K = result.matmul(grad.mT)
    in_place = not graph._state["enabled"]
    flip = (lambda i: k - i - 1) if flip_order else (lambda i: i)
    left = not flip_order
    zero = flip(0)
    s_zero = sigma.narrow(-1, zero, 1)  # (C++ arguments: the last first)
    K = _transform(m, zero, inp.narrow(-1, zero, 1), s_zero, K, in_place, left)
    zeros_like = FUNCTIONS["zeros_like"]
    input_grad, tau_grad = zeros_like(input_), zeros_like(tau)
    for step in range(k):
        i = flip(step)
        v_i, t_i = inp.narrow(-1, i, 1), tau.narrow(-1, i, 1)
        v_grad, t_grad = _update_grad(m, i, v_i, t_i, K)
        input_grad.select(-1, i).copy_(v_grad.squeeze(-1))
        tau_grad.select(-1, i).copy_(t_grad.squeeze(-1))
        if i != flip(k - 1):
            j = i - 1 if flip_order else i + 1
            K = _transform(m, j, inp.narrow(-1, j, 1), sigma.narrow(-1, j, 1), K, in_place, left)
            K = _transform(m, i, v_i, t_i, K, in_place, not left)
    input_grad.tril_(-1)
    return input_grad, tau_grad


def _householder_fwd(ctx, a, tau):
    q = org2r(_flat(a), tau.reshape((int(np.prod(tau.shape[:-1])), tau.shape[-1])) if a.ndim > 2 else tau[None])
    return column_major(q.reshape(a.shape))


_householder = Op("LinalgHouseholderProductBackward0", _householder_fwd, inputs=("input", "tau"),
                  saves=("input", "tau", "result"))


@_householder.derivative
def _(ctx, grad):
    g_V, g_tau = householder_grads(grad, ctx.result, ctx.input, ctx.tau)
    return (g_V if ctx.needs(0) else None), (g_tau if ctx.needs(1) else None)


def _check_tau(input, tau, who):
    if input.ndim - tau.ndim != 1:
        raise RuntimeError(f"{who}: Expected tau to have one dimension less than input, but got tau.ndim equal to "
                           f"{tau.ndim} and input.ndim is equal to {input.ndim}")
    if input.ndim > 2 and tuple(tau.shape[:-1]) != tuple(input.shape[:-2]):
        raise RuntimeError(f"{who}: Expected batch dimensions of tau to be equal to input.shape[:-2], but got "
                           f"{list(tau.shape[:-1])}")


@export("householder_product", linalg=True, torch=False)
@with_out("linalg_householder_product")
def linalg_householder_product(input, tau):
    who = "torch.linalg.householder_product"
    if input.ndim < 2:
        raise RuntimeError(f"{who}: input must have at least 2 dimensions.")
    if input.shape[-2] < input.shape[-1]:
        raise RuntimeError(f"{who}: input.shape[-2] must be greater than or equal to input.shape[-1]")
    if input.shape[-1] < tau.shape[-1]:
        raise RuntimeError(f"{who}: input.shape[-1] must be greater than or equal to tau.shape[-1]")
    _check_tau(input, tau, who)
    if tau.dtype is not input.dtype:
        raise RuntimeError(f"{who}: tau dtype {_scalar_name(tau.dtype)} does not match input dtype "
                           f"{_scalar_name(input.dtype)}")
    _kernel(input, "orgqr_cpu")
    return _householder(input, tau)


export("orgqr", method=True)(linalg_householder_product)


# ---------------------------------------------------------------------------
# ormqr
# ---------------------------------------------------------------------------

def _apply(a, tau, c, left, transpose):
    """Q C, Q^H C, C Q or C Q^H for Q = H_0 ... H_{k-1} from geqrf's (a, tau), one reflector at a time
    as MKL's larf: a reflector whose tau is 0 skipped; from the left w = C^T v, the rows past the first
    summed in order and the first row (v's implied 1) added last, and C -= v (tau w), the rows below the
    first only in the columns whose w is not zero (ger's zero skip); from the right w = C v summed over
    the columns in order from the first, and each column j with v_j != 0 less w (tau v_j) (ger's zero
    skip: an inf or a NaN of C stays where v is 0).  These orders give MKL's ormqr bit for bit on
    random float32/float64 problems of up to 11 rows (left) and 9 columns (right); past 11 rows MKL's
    vector kernels add otherwise."""
    k = tau.shape[-1]
    c = np.array(c, copy=True)
    forward = left == transpose  # Q^H C = H_{k-1} .. H_0 C and C Q = C H_0 .. H_{k-1}: the first reflector first
    with np.errstate(all="ignore"):
        for i in (range(k) if forward else range(k - 1, -1, -1)):
            v = np.concatenate([np.ones(a.shape[:-2] + (1,), a.dtype), a[..., i + 1:, i]], -1)
            t = tau[..., i, None, None]
            skip = t == 0
            if left:
                sub = c[..., i:, :]
                rows = sub.shape[-2]
                if rows > 1:  # (no +0.0 to start: -0.0 products sum to -0.0)
                    w = v[..., 1, None] * sub[..., 1, :]
                    for r in range(2, rows):
                        w = w + v[..., r, None] * sub[..., r, :]
                    w = w + sub[..., 0, :]
                else:
                    w = sub[..., 0, :].copy()
                upd = sub - v[..., :, None] * (t * w[..., None, :])
                # (the first row always takes its update; the rest only in the columns whose w is not
                # zero, as ger skips a zero y: an inf or a NaN below stays where the column's w is 0)
                keep = skip | ((w == 0)[..., None, :] & (np.arange(sub.shape[-2]) > 0)[:, None])
                sub[...] = np.where(keep, sub, upd)
            else:
                sub = c[..., :, i:]
                w = sub[..., :, 0].copy()
                for j in range(1, sub.shape[-1]):
                    w = w + sub[..., :, j] * v[..., j, None]
                keep = skip | (v[..., None, :] == 0)
                sub[...] = np.where(keep, sub, sub - w[..., :, None] * (t * v[..., None, :]))
    return c


_ormqr = Op("OrmqrBackward0", lambda ctx, a, tau, c, left, transpose: column_major(_apply(a, tau, c, left, transpose)),
            inputs=("self", "input2", "input3"), saves=("self", "input2", "input3", "result"))


@_ormqr.derivative
def _(ctx, grad):
    # ormqr_backward: other's gradient an ormqr with the transpose flipped; input's and tau's through
    # the full product Q, whose gradient is grad C^H (Q C), C grad^H (Q^H C), C^H grad (C Q), grad^H C (C Q^H)
    A, tau, C, left, transpose = ctx.self, ctx.input2, ctx.input3, ctx.left, ctx.transpose
    g_c = _ormqr(A, tau, grad, left=left, transpose=not transpose) if ctx.needs(2) else None
    g_a = g_tau = None
    if ctx.needs(0) or ctx.needs(1):
        result = ctx.result
        if left != transpose:  # Q C (C Q^H): householder_product's backward of (grad, result)
            g_a, g_tau = householder_grads(grad.mT if transpose else grad, result.mT if transpose else result, A, tau)
        else:  # C Q (Q^H C): of (result^H, grad^H), the reflectors from the last
            g_a, g_tau = householder_grads(result if transpose else result.mT, grad if transpose else grad.mT, A, tau,
                                           flip_order=True)
    return (g_a if ctx.needs(0) else None), (g_tau if ctx.needs(1) else None), g_c


@export("ormqr", method=True)
@with_out("ormqr")
def ormqr(input, input2, input3, left=True, transpose=False):
    from .cholesky_solvers import bool_args
    bool_args(left, transpose)
    who = "torch.ormqr"
    tau, other = input2, input3
    if input.ndim < 2:
        raise RuntimeError(f"{who}: input must have at least 2 dimensions.")
    if other.ndim < 2:
        raise RuntimeError(f"{who}: other must have at least 2 dimensions.")
    cond = -2 if left else -1
    if other.shape[cond] != input.shape[-2]:
        raise RuntimeError(f"{who}: other.shape[{cond}] must be equal to input.shape[-2]")
    if tau.ndim == 0 or min(other.shape[cond], input.shape[-1]) != tau.shape[-1]:
        raise RuntimeError(f"{who}: tau.shape[-1] must be equal to min(other.shape[{cond}], input.shape[-1])")
    if input.ndim - tau.ndim != 1:
        _check_tau(input, tau, who)
    if input.ndim != other.ndim:
        raise RuntimeError(f"{who}: Expected other to have the same number of dimensions as input, but got other.ndim "
                           f"equal to {other.ndim} and input.ndim is equal to {input.ndim}")
    _check_tau(input, tau, who)
    if input.ndim > 2 and tuple(other.shape[:-2]) != tuple(input.shape[:-2]):
        raise RuntimeError(f"{who}: Expected batch dimensions of other to be equal to input.shape[:-2], but got "
                           f"{list(other.shape[:-2])}")
    for t, name in ((tau, "tau"), (other, "other")):
        if t.dtype is not input.dtype:
            raise RuntimeError(f"{who}: Expected input and {name} to have the same dtype, but input has dtype"
                               f"{_scalar_name(input.dtype)} and {name} has dtype {_scalar_name(t.dtype)}")
    _kernel(input, "ormqr_cpu")
    return _ormqr(input, tau, other, left=bool(left), transpose=bool(transpose))
