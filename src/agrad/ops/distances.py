"""torch.cdist and torch.pdist: the p-norm distance between each pair of rows of two batches, or of
one matrix's rows (ATen's Distance.cpp, DistanceOpsKernel.cpp).

Which way it goes is PyTorch's rule: for ``p == 2`` with ``compute_mode`` "use_mm_for_euclid_dist",
or the default "use_mm_for_euclid_dist_if_necessary" when either input has more than 25 rows, the
matrix-product form ``_euclidean_dist`` (EuclideanDistBackward0; batched inputs expanded, made
contiguous and viewed as (B, r, c) first, the result viewed back: ViewBackward0); otherwise (and
for empty inputs) ``_cdist_forward`` (CdistBackward0), whose CPU kernel sums ``|a - b|^p`` over the
columns one at a time (p 0: a count of the differing columns, inf: their largest difference), and
whose backward sums each row's contributions over the other batch's rows in order.
"""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from .._zero import materialized
from ..autograd import grad_mode
from ..tensor import Tensor, _scalar_name
from ._argcheck import passed_on
from ._layout import empty_like
from ._op import Op, export
from . import _sleef_pow
from ._vec_math import GRAIN_SIZE, fma, reduce_all_sum
from .pointwise import _mismatch_message

_MODES = {"use_mm_for_euclid_dist_if_necessary": 0, "use_mm_for_euclid_dist": 1, "donot_use_mm_for_euclid_dist": 2}


def _pairs(a, b):
    """|a_i - b_j| for every row pair: shape (..., r1, r2, c), in the inputs' dtype."""
    return a[..., :, None, :] - b[..., None, :, :]


_POW = np.frompyfunc(math.pow, 2, 1)


def _libm_pow(x, y):
    """glibc's pow of each element (as a double) and a double ``y`` (math.pow is libm's; numpy's
    float64 power has loops of its own)."""
    x = np.asarray(x, np.float64)
    try:
        return np.asarray(_POW(x, y), np.float64)
    except (OverflowError, ValueError):  # (math.pow raises where pow gives inf or NaN)
        with np.errstate(all="ignore"):
            return np.power(x, y)


def _cdist_kernel(a, b, p):
    """The CPU kernel: per pair, the columns' terms summed one after another (max for inf)."""
    diff = np.abs(_pairs(a, b))
    t = diff.dtype.type
    with np.errstate(all="ignore"):
        if p == 0:
            terms = np.minimum(np.ceil(diff), t(1))
        elif p == 1 or math.isinf(p):
            terms = diff
        elif p == 2:
            terms = diff  # (agg + diff * diff, contracted to one fma by the compiler)
        else:  # (std::pow: glibc's pow; of floats its powf, through double and rounded once)
            terms = _libm_pow(diff, float(t(p))).astype(diff.dtype)
        agg = np.zeros(diff.shape[:-1], diff.dtype)
        for k in range(diff.shape[-1]):
            if math.isinf(p):  # std::max(agg, up): a NaN term leaves agg as it was
                up = terms[..., k]
                agg = np.where(agg < up, up, agg)
            elif p == 2:
                agg = fma(terms[..., k], terms[..., k], agg)
            else:
                agg = agg + terms[..., k]
        if p == 2:
            return np.sqrt(agg)
        if p in (0, 1) or math.isinf(p):
            return agg
        return _libm_pow(agg, 1.0 / p).astype(agg.dtype)  # (std::pow(agg, 1.0 / p): in double)


def _all_ones(dtype):
    return np.array(-1, np.int64 if dtype == np.float64 else np.int32).view(dtype)


def _backward_terms(diff, g, d, p):
    """The distance kernels' per-pair gradient terms (F::backward of Distance.cpp's kernels): of
    ``diff`` = a - b, the incoming gradient ``g`` and the distance ``d`` (broadcast against diff)."""
    t = diff.dtype.type
    with np.errstate(all="ignore"):
        # (its sign of a NaN is the all-ones NaN of vec::maximum / vec::minimum)
        sign = np.where(diff != diff, _all_ones(diff.dtype), (diff > 0).astype(diff.dtype) - (diff < 0).astype(diff.dtype))
        if p == 1:
            terms = g * sign
        elif p < 2:
            terms = np.where(d == 0, t(0), sign * np.power(np.abs(diff), t(p - 1)) * g / np.power(d, t(p - 1)))
            if p < 1:
                terms = np.where(diff == 0, t(0), terms)
        elif p == 2:
            terms = np.where(d == 0, t(0), g * diff / d)
        elif math.isinf(p):
            terms = g * sign * (t(1) - np.minimum(t(1), np.ceil(np.abs(np.abs(diff) - d))))
        else:
            terms = np.where(d == 0, t(0), diff * np.power(np.abs(diff), t(p - 2)) * g / np.power(d, t(p - 1)))
    # NaN bits: the vector code's sign() and Sleef's pow give the all-ones NaN, and a NaN operand
    # that comes first in the expression decides (general p: diff's own NaN)
    if p < 2 or math.isinf(p):
        terms = np.where(terms != terms, sign.dtype.type(0) + _all_ones(sign.dtype), terms)
    elif p != 2:
        terms = np.where((terms != terms) & (diff == diff), _all_ones(sign.dtype), terms)
    return terms


def _cdist_backward_kernel(grad, a, b, p, dist):
    """_cdist_backward's CPU kernel: the gradient of ``a`` (rows of ``b`` summed in order)."""
    terms = _backward_terms(_pairs(a, b), grad[..., None], dist[..., None], p)
    out = np.zeros(a.shape, a.dtype)
    if p == 0:
        return out
    for j in range(terms.shape[-2]):
        out = out + terms[..., j, :]
    return out


def _cdist_fwd(ctx, a, b, p):
    shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    r1, r2 = a.shape[-2], b.shape[-2]
    if r1 == 0 or r2 == 0 or math.prod(shape) == 0:
        return np.empty(shape + (r1, r2), a.dtype)
    if a.shape[-1] == 0:
        return np.zeros(shape + (r1, r2), a.dtype)
    if a.dtype == np.float16:
        raise NotImplementedError(f"\"cdist\" not implemented for '{_scalar_name(dtypes.from_numpy(a.dtype))}'")
    return np.ascontiguousarray(_cdist_kernel(np.broadcast_to(a, shape + a.shape[-2:]),
                                              np.broadcast_to(b, shape + b.shape[-2:]), p))


_cdist = Op("CdistBackward0", _cdist_fwd, inputs=("x1", "x2"), saves=("x1", "x2", "result"))


def _grad_of(grad, x, y, p, dist):
    """_cdist_backward(grad, x, y, p, dist): the gradient of ``x``, shaped as its expanded batch."""
    g, xa, ya, d = materialized(grad._data), x._data, y._data, dist._data  # (a ZeroTensor: plain zeros)
    shape = np.broadcast_shapes(xa.shape[:-2], ya.shape[:-2])
    if 0 in (xa.shape[-2], ya.shape[-2], xa.shape[-1]) or math.prod(shape) == 0:
        value = empty_like(xa)  # (at::zeros_like(x1): laid out like x1, an empty one's very strides)
        value[...] = 0
    else:
        value = _cdist_backward_kernel(g, np.broadcast_to(xa, shape + xa.shape[-2:]),
                                       np.broadcast_to(ya, shape + ya.shape[-2:]), p, d)
    return _cdist_backward.apply((grad, x, y, dist), (g, xa, ya, d), {"value": value})


# _cdist_backward has no derivative (derivatives.yaml's not_implemented): its node under create_graph
_cdist_backward = Op("CdistBackwardBackward0", lambda ctx, *arrays, value: value,
                     inputs=("grad", "x1", "x2", "cdist"), internal=True, jvp="unsupported")


@_cdist_backward.derivative
def _(ctx, grad):
    raise NotImplementedError("the derivative for '_cdist_backward' is not implemented.")


@_cdist.derivative
def _(ctx, grad):
    # x1: _cdist_backward(grad.contiguous(), x1, x2, p, result);
    # x2: _cdist_backward(grad.mT().contiguous(), x2, x1, p, result.mT().contiguous())
    g1 = _grad_of(grad.contiguous(), ctx.x1, ctx.x2, ctx.p, ctx.result) if ctx.needs(0) else None
    g2 = (_grad_of(grad.mT.contiguous(), ctx.x2, ctx.x1, ctx.p, ctx.result.mT.contiguous())
          if ctx.needs(1) else None)
    return g1, g2


def _euclidean_fwd(ctx, a, b):
    from .joining import cat
    from .linalg import matmul

    with grad_mode.no_grad():
        x1, x2 = Tensor._make(a), Tensor._make(b)
        n1 = x1.pow(2).sum(-1, True)
        n2 = x2.pow(2).sum(-1, True)
        left = cat([x1.mul(-2), n1, n1.new_ones(n1.shape)], -1)
        right = cat([x2, n2.new_ones(n2.shape), n2], -1)
        result = matmul(left, right.transpose(-2, -1))
        return result.clamp_min_(0).sqrt_()._data


_euclidean = Op("EuclideanDistBackward0", _euclidean_fwd, inputs=("x1", "x2"), saves=("x1", "x2", "result"))


@_euclidean.derivative
def _(ctx, grad):
    ratio = grad / ctx.result
    ratio.masked_fill_(ctx.result == 0, 0)
    # GCC evaluates the right operands first: the matmul, then the row sums, then the product
    g1 = g2 = None
    if ctx.needs(0):
        m = ratio.matmul(ctx.x2)
        g1 = ctx.x1 * ratio.sum(-1, True) - m
    if ctx.needs(1):
        m = ratio.mT.matmul(ctx.x1)
        g2 = ctx.x2 * ratio.sum(-2, False).unsqueeze(-1) - m
    return g1, g2


def _check(x1, x2, p):
    for t, name in ((x1, "X1"), (x2, "X2")):
        if not t.dtype.is_floating_point:
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: {_scalar_name(t.dtype)}")
    if not p >= 0:
        raise RuntimeError("cdist only supports non-negative p values")
    try:
        return np.broadcast_shapes(x1.shape[:-2], x2.shape[:-2])
    except ValueError:
        raise RuntimeError(_mismatch_message(tuple(x1.shape[:-2]), tuple(x2.shape[:-2]))) from None


def _euclidean_dist(x1, x2, batch):
    r1, r2 = x1.shape[-2], x2.shape[-2]
    out_shape = list(batch) + [r1, r2]
    product = math.prod(batch)
    if product != 1:
        x1 = x1.expand(list(batch) + list(x1.shape[-2:])).contiguous().view(product, r1, x1.shape[-1])
        x2 = x2.expand(list(batch) + list(x2.shape[-2:])).contiguous().view(product, r2, x2.shape[-1])
    return _euclidean.apply((x1, x2), (x1._data, x2._data), {}).view(out_shape)


@export()
def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """The p-norm distance between each row of ``x1`` and each row of ``x2`` (batched)."""
    for t, name, position in ((x1, "x1", 1), (x2, "x2", 2)):  # (_VF.cdist's parser)
        if not isinstance(t, Tensor):
            raise TypeError(f"cdist(): argument '{name}' (position {position}) must be Tensor, not {type(t).__name__}")
    if compute_mode not in _MODES or type(compute_mode) is not str:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    mode = _MODES[compute_mode]
    if type(p) is not float:  # (_VF.cdist(x1, x2, p, mode))
        passed_on("cdist", (("p", "float", 3, p),))
    if x1.ndim < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X1 got: {x1.ndim}D")
    if x2.ndim < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X2 got: {x2.ndim}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}")
    p = float(p)
    batch = _check(x1, x2, p)
    r1, r2 = x1.shape[-2], x2.shape[-2]
    euclid = x1.numel() and x2.numel() and p == 2 and (mode == 1 or (mode == 0 and (r1 > 25 or r2 > 25)))
    if x1.dtype is not x2.dtype and x1.numel() and x2.numel():
        _dtypes_refused(x1, x2, euclid)
    if euclid:
        return _euclidean_dist(x1, x2, batch)
    return _cdist.apply((x1, x2), (x1._data, x2._data), {"p": p})


def _dtypes_refused(x1, x2, euclid):
    """Operands of two dtypes (none empty): _euclidean_dist's matmul of ``cat([x1 * -2, norms, ones])`` and
    ``cat([x2, ones, norms]).mT`` refuses them as it would (mm's or bmm's check, by its path); the kernel
    dispatches on x1's dtype (no Half), then reads x2 as it."""
    if euclid:
        from .linalg import matmul
        c = x1.shape[-1] + 2
        matmul(Tensor._make(np.zeros(tuple(x1.shape[:-1]) + (c,), x1._data.dtype)),
               Tensor._make(np.zeros(tuple(x2.shape[:-1]) + (c,), x2._data.dtype)).mT)
    if x1.dtype is dtypes.float16:
        raise NotImplementedError("\"cdist\" not implemented for 'Half'")
    raise RuntimeError(f"expected scalar type {_scalar_name(x1.dtype)} but found {_scalar_name(x2.dtype)}")


# ---------------------------------------------------------------------------
# pdist
# ---------------------------------------------------------------------------

def _lane_sum(a):
    """vec::reduce_all(+) along the last axis (AVX2): reduce_all_sum's vectors, with double's
    lanes folded one after another (float's halves then neighbours)."""
    lanes = 32 // a.dtype.itemsize
    if a.dtype != np.float64 or a.shape[-1] < lanes:
        return reduce_all_sum(a)
    acc = a[..., :lanes].copy()
    full = a.shape[-1] - a.shape[-1] % lanes
    for start in range(lanes, full, lanes):
        acc = acc + a[..., start:start + lanes]
    if full < a.shape[-1]:
        acc[..., :a.shape[-1] - full] = acc[..., :a.shape[-1] - full] + a[..., full:]
    total = acc[..., 0]
    for k in range(1, lanes):
        total = total + acc[..., k]
    return total


def _pdist_kernel(x, p):
    """_pdist_forward's CPU kernel: per pair i < j (row-major order), vec::map2_reduce_all of the
    terms of |x_i - x_j| over the columns (AVX2 lanes, then folded), then the norm's finish."""
    n = x.shape[0]
    i, j = np.triu_indices(n, 1)
    diff = np.abs(x[i] - x[j])
    t = x.dtype.type
    with np.errstate(all="ignore"):
        if p == 0:
            return _lane_sum(np.minimum(np.ceil(diff), t(1)))
        if p == 1:
            return _lane_sum(diff)
        if p == 2:
            return np.sqrt(_lane_sum(diff * diff))
        if math.isinf(p):
            return _reduce_all_max(diff)
        if diff.size <= GRAIN_SIZE and x.dtype in (np.float32, np.float64):
            # F::map's Vec pow: Sleef's powf8_u10/powd4_u10 of every column (the tail's lanes too)
            terms = (_sleef_pow.sleef_powf if x.dtype == np.float32 else _sleef_pow.sleef_pow)(diff, np.array(p, x.dtype))
        else:  # (beyond GRAIN_SIZE: glibc's pow, Sleef's but in about 2% of terms)
            terms = _libm_pow(diff, float(t(p))).astype(x.dtype)
        agg = _lane_sum(terms)
        return _libm_pow(agg, 1.0 / float(t(p))).astype(x.dtype)  # (finish: std::pow(agg, 1.0 / p), p a scalar_t)


def _reduce_all_max(a):
    """vec::reduce_all(max) along the last axis: as reduce_all_sum, with vec::maximum (NaN wins)."""
    lanes = 32 // a.dtype.itemsize
    n = a.shape[-1]
    if n < lanes:
        acc = a[..., 0].copy()
        for k in range(1, n):
            acc = np.maximum(acc, a[..., k])
        return acc
    acc = a[..., :lanes].copy()
    full = n - n % lanes
    for start in range(lanes, full, lanes):
        acc = np.maximum(acc, a[..., start:start + lanes])
    if full < n:
        acc[..., :n - full] = np.maximum(acc[..., :n - full], a[..., full:])
    return np.max(acc, axis=-1)


def _pdist_fwd(ctx, x, p):
    n, m = x.shape
    if n <= 1:
        return np.empty((0,), x.dtype)
    if m == 0:
        return np.zeros((n * (n - 1) // 2,), x.dtype)
    return np.ascontiguousarray(_pdist_kernel(x, p))


_pdist = Op("PdistBackward0", _pdist_fwd, saves=("self", "result"))


def _pdist_backward_kernel(g, x, p, dist):
    """_pdist_backward's CPU kernel: down each column, row i gains the terms of its pairs with the
    later rows (in order) after losing those of the earlier rows' pairs with it."""
    n = x.shape[0]
    out = np.zeros(x.shape, x.dtype)
    if p == 0 or g.size == 0 or x.size == 0:
        return out
    k = 0
    for i in range(n - 1):
        diff = x[i] - x[i + 1:]
        terms = _backward_terms(diff, g[k:k + n - 1 - i, None], dist[k:k + n - 1 - i, None], p)
        row = out[i]
        for r in range(terms.shape[0]):
            row = row + terms[r]
            out[i + 1 + r] = out[i + 1 + r] - terms[r]
        out[i] = row
        k += n - 1 - i
    return out


_pdist_backward = Op("PdistBackwardBackward0", lambda ctx, *arrays, value: value,
                     inputs=("grad", "self", "pdist"), internal=True, jvp="unsupported")


@_pdist_backward.derivative
def _(ctx, grad):
    raise NotImplementedError("the derivative for '_pdist_backward' is not implemented.")


@_pdist.derivative
def _(ctx, grad):
    g, x, d = materialized(grad._data), ctx.self._data, ctx.result._data
    if x.dtype == np.float16:  # (the backward kernel's dispatch has no Half, whatever the sizes)
        raise NotImplementedError('"pdist_backward" not implemented for \'Half\'')
    value = _pdist_backward_kernel(g, x, ctx.p, d)
    return _pdist_backward.apply((grad, ctx.self, ctx.result), (g, x, d), {"value": value})


@export(functional=True)
def pdist(input, p=2):
    """The p-norm distance between each pair of rows of a matrix: the upper triangle, row by row."""
    if not isinstance(input, Tensor):
        raise TypeError(f"pdist(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if isinstance(p, bool) or not isinstance(p, (int, float)):
        raise TypeError(f"pdist(): argument 'p' (position 2) must be float, not {type(p).__name__}")
    if input.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.ndim}D")
    if not input.dtype.is_floating_point or input.dtype.is_complex:
        raise RuntimeError("pdist only supports floating-point dtypes")
    if not p >= 0:
        raise RuntimeError("pdist only supports non-negative p values")
    if input.dtype.name not in ("float32", "float64") and input.shape[0] > 1 and input.shape[1]:
        raise NotImplementedError(f"\"pdist\" not implemented for '{_scalar_name(input.dtype)}'")
    x = input.contiguous()
    return _pdist.apply((x,), (x._data,), {"p": float(p)})
