"""Householder reflectors as LAPACK stores them: torch.geqrf (GeqrfBackward0, which PyTorch cannot
differentiate), torch.linalg.householder_product / torch.orgqr (LinalgHouseholderProductBackward0)
and torch.ormqr (OrmqrBackward0).

geqrf and orgqr are ``_lapack``'s geqr2 and org2r (MKL's arithmetic, as linalg.qr's); ormqr applies
the reflectors H_i = I - tau_i v_i v_i^H one at a time in LAPACK's order.  Results are column-major.

The gradients are the derivative of Q = H_0 ... H_{k-1} written with agrad ops: for the gradient M
of the full m x m product reaching H_i (H_0..H_{i-1} on its left, the rest on its right),
tau_i's gradient is -v_i^H M v_i and v_i's is -tau_i (M + M^H) v_i below the diagonal.  The values
are PyTorch's (its householder_product_backward); its double-backward graph differs (see
docs/semantics.md).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..tensor import _scalar_name
from ._lapack import column_major, geqr2, org2r
from ._op import FUNCTIONS, Op, export, with_out
from ._return_types import return_type
from .nn import const

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

def _reflectors(V, tau):
    """The reflectors' vectors v_i (unit at i, zeros above, V's column below) as the columns of a
    tensor (..., m, k), built with agrad ops from V (..., m, n)."""
    m, k = V.shape[-2], tau.shape[-1]
    eye = const(np.eye(m, k, dtype=V._data.dtype))
    return V.narrow(-1, 0, k).tril(-1) + eye


def householder_grads(gQ, V, tau):
    """(V's gradient, tau's) from gQ, the gradient of the full m x m product Q = H_0 ... H_{k-1}."""
    m, k = V.shape[-2], tau.shape[-1]
    vs = _reflectors(V, tau)
    eye = const(np.eye(m, dtype=V._data.dtype))
    hs = []
    for i in range(k):
        v = vs.narrow(-1, i, 1)
        hs.append(eye - tau.narrow(-1, i, 1).unsqueeze(-1) * v.matmul(v.mT))
    left = [eye]  # H_0 ... H_{i-1}
    for h in hs[:-1]:
        left.append(left[-1].matmul(h))
    right = [eye]  # H_{i+1} ... H_{k-1}, from the last
    for h in reversed(hs[1:]):
        right.append(h.matmul(right[-1]))
    right.reverse()
    g_v, g_tau = [], []
    for i in range(k):
        M = left[i].mT.matmul(gQ).matmul(right[i].mT)
        v = vs.narrow(-1, i, 1)
        t = tau.narrow(-1, i, 1).unsqueeze(-1)
        g_tau.append(-(v.mT.matmul(M).matmul(v)).squeeze(-1))
        g_v.append(-(t * (M + M.mT).matmul(v)))
    cat = FUNCTIONS["cat"]
    g_tau = cat(g_tau, -1) if k else const(np.zeros(tau.shape, tau._data.dtype))
    n = V.shape[-1]
    cols = g_v + [const(np.zeros(V.shape[:-1] + (n - k,), V._data.dtype))] if n > k else g_v
    g_V = cat(cols, -1).tril(-1) if cols else const(np.zeros(V.shape, V._data.dtype))
    return g_V, g_tau


def _householder_fwd(ctx, a, tau):
    q = org2r(_flat(a), tau.reshape((-1, tau.shape[-1])) if a.ndim > 2 else tau[None])
    return column_major(q.reshape(a.shape))


_householder = Op("LinalgHouseholderProductBackward0", _householder_fwd, inputs=("input", "tau"),
                  saves=("input", "tau", "result"))


@_householder.derivative
def _(ctx, grad):
    V, tau = ctx.input, ctx.tau
    m, n = V.shape[-2:]
    gQ = grad if m == n else FUNCTIONS["cat"]([grad, const(np.zeros(grad.shape[:-1] + (m - n,), grad._data.dtype))], -1)
    g_V, g_tau = householder_grads(gQ, V, tau)
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
    """Q C, Q^H C, C Q or C Q^H for Q = H_0 ... H_{k-1} from geqrf's (a, tau), one reflector at a time."""
    k = tau.shape[-1]
    c = np.array(c, copy=True)
    forward = left == transpose  # Q^H C = H_{k-1} .. H_0 C and C Q = C H_0 .. H_{k-1}: the first reflector first
    with np.errstate(all="ignore"):
        for i in (range(k) if forward else range(k - 1, -1, -1)):
            v = np.concatenate([np.ones(a.shape[:-2] + (1,), a.dtype), a[..., i + 1:, i]], -1)
            t = tau[..., i, None, None]
            if left:
                sub = c[..., i:, :]
                sub -= t * v[..., :, None] * np.einsum("...r,...rc->...c", v, sub)[..., None, :]
            else:
                sub = c[..., :, i:]
                sub -= t * np.einsum("...cr,...r->...c", sub, v)[..., :, None] * v[..., None, :]
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
        if left:
            gQ = C.matmul(grad.mT) if transpose else grad.matmul(C.mT)
        else:
            gQ = grad.mT.matmul(C) if transpose else C.mT.matmul(grad)
        g_a, g_tau = householder_grads(gQ, A, tau)
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
