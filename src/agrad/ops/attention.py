"""Attention: F.scaled_dot_product_attention, on the two CPU paths PyTorch takes.

- The flash path (4-D inputs, one head size for query, key and value, no
  dropout): one ``ScaledDotProductFlashAttentionForCpuBackward0`` node.  Its
  backward is a node of its own that PyTorch cannot differentiate again, so a
  second derivative raises PyTorch's error here too.
- The math path (any other shape, dropout): ATen's composite
  ``_scaled_dot_product_attention_math`` -- both factors scaled by
  sqrt(scale) (``MulBackward1``), ``matmul``, the mask added in place,
  ``_safe_softmax`` (``SafeSoftmaxBackward0``: a row masked everywhere gives
  zeros, not NaN), dropout, ``matmul``.
"""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..tensor import Tensor
from ._op import Op, export
from .nn import const, mul_scalar
from .softmax import _softmax_backward, _softmax_fwd

# ---------------------------------------------------------------------------
# _safe_softmax
# ---------------------------------------------------------------------------


def _safe_softmax_fwd(ctx, a, dim):
    """ATen's _safe_softmax: softmax (its kernels), zeros where a row is -inf everywhere."""
    out = _softmax_fwd(ctx, a, dim)
    masked = np.all(np.isneginf(a), axis=dim, keepdims=True)
    return np.where(masked, out.dtype.type(0), out) if masked.any() else out


_safe_softmax = Op("SafeSoftmaxBackward0", _safe_softmax_fwd, saves=("result",))


@_safe_softmax.derivative
def _(ctx, grad):
    # (derivatives.yaml: _softmax_backward_data(grad, result, dim), SoftmaxBackwardDataBackward0 under
    # create_graph)
    return _softmax_backward(grad, ctx.result, dim=ctx.dim)


# ---------------------------------------------------------------------------
# the flash path
# ---------------------------------------------------------------------------

def _mask_np(mask, is_causal, L, S, dtype):
    """The additive mask (or None): a bool mask becomes 0 / -inf; causal adds tril(ones(L, S)) (on the
    flash path both apply, as in PyTorch's CPU kernel; the math path refuses both)."""
    out = None
    if mask is not None:
        out = np.where(mask, 0, -np.inf).astype(dtype) if mask.dtype == np.bool_ else mask.astype(dtype, copy=False)
    if is_causal:
        causal = np.where(np.tril(np.ones((L, S), bool)), 0, -np.inf).astype(dtype)
        out = causal if out is None else out + causal
    return out


def _repeat_heads(a, groups):
    return a if groups == 1 else np.repeat(a, groups, axis=-3)


_KV_SPLIT = 512  # the kernel's kvSplitSize


def _zero_rows(s, lanes, masked):
    """The rows the flash kernel gives zeros: each block of keys' maximum is -inf.  Without a mask
    its maximum is fused with the scaling: the block's whole vectors by vector max (a NaN is kept),
    the elements after them by std::max (a NaN is passed over), so a row of -inf scores with a NaN
    among the last ones is a zero row; with a mask, vector max throughout."""
    zero = np.ones(s.shape[:-1], bool)
    with np.errstate(invalid="ignore"):
        for n in range(0, s.shape[-1], _KV_SPLIT):
            blk = s[..., n:n + _KV_SPLIT]
            if masked:
                zero &= np.isneginf(np.max(blk, -1))
                continue
            whole = blk.shape[-1] // lanes * lanes
            tail = np.isneginf(blk[..., whole:]) | np.isnan(blk[..., whole:])
            zero &= np.all(tail, -1)
            if whole:
                zero &= np.isneginf(np.max(blk[..., :whole], -1))
    return zero[..., None]


def _scores(q, k, mask, scale):
    s = np.matmul(q, np.swapaxes(k, -1, -2)) * q.dtype.type(scale)
    return s if mask is None else s + mask


def _probs(q, k, mask, scale, groups):
    s = _scores(q, _repeat_heads(k, groups), mask, scale)
    m = np.max(s, axis=-1, keepdims=True)
    masked = _zero_rows(s, 32 // max(s.dtype.itemsize, 4), mask is not None)
    m = np.where(masked, -np.inf, m)
    e = np.exp(s - np.where(masked, 0, m))
    if masked.any():  # (a row masked everywhere: the CPU kernel's probabilities 0, its output and gradients 0)
        total = np.sum(e, axis=-1, keepdims=True)
        return np.where(masked, 0, e / np.where(masked, 1, total)).astype(e.dtype, copy=False)
    return e / np.sum(e, axis=-1, keepdims=True)


def _bits32(bits):
    return np.array(bits, np.uint32).view(np.float32)[()]


_U20 = (_bits32(0x3fb8aa3b), _bits32(0x3f317218), _bits32(0xc2aeac50), _bits32(0x42b17218),  # log2 e, ln 2, bounds
        [np.float32(c) for c in (0.999999701, 0.499991506, 0.166676521, 0.0418978221, 0.00828929059)])


def exp_u20(x):
    """Vectorized<float>::exp_u20 (AVX2): x clamped to float's exp range (NaN: the top), 2^n with
    n = floor(x log2 e + 1/2), a degree-5 polynomial of x - n ln 2 by fused multiply-adds, times
    2^(n-1) then 2 (0 below the range)."""
    from ._vec_math import fma
    log2e, ln2, low, high, (c1, c2, c3, c4, c5) = _U20
    one = np.float32(1)
    x = np.asarray(x, np.float32)
    src = np.where(np.isnan(x) | (x > high), high, x)  # (_mm256_min_ps gives its second operand for a NaN)
    src = np.where(src < low, low, src).astype(np.float32)
    fx = np.floor(fma(src, log2e, np.float32(0.5))).astype(np.float32)
    p = fma(-fx, ln2, src)
    r = fma(p, fma(p, fma(p, fma(p, fma(p, c5, c4), c3), c2), c1), one)
    power = ((np.rint(fx - one).astype(np.int32) + 127) << 23).view(np.float32)
    return (r * np.where(x < low, np.float32(0), power)) * np.float32(2)


def _lane_sum(acc):
    """vec_reduce_all's sum of the 8 float lanes (AVX2: halves, then pairs, then neighbours)."""
    v = acc[:, :4] + acc[:, 4:]
    v = v + v[:, [2, 3, 0, 1]]
    return v[:, 0] + v[:, 1]


def _flash_rows(q, k, v, mask, scale):
    """The flash kernel's forward for one block of keys (float32 up to 512 keys; float64 fewer than a
    vector's 4): per batch, head and block of queries (qSplitSize rows), the scores' gemm (MKL's
    order, key transposed) times the scale (plus the mask: fused in the scalar loop past the last
    whole vector), exp(s - max) (exp_u20 over whole vectors, glibc's exp past them), the sum (the
    vectors' lanes, folded, then the rest in order), the values' gemm of the unnormalised weights
    (float64: added in order), times 1 / sum."""
    from ._gemm_order import mkl_product
    from . import _vec_math
    from ._glibc_float import expf
    from ._lgamma_math import each
    kind = q.dtype.type
    f32 = q.dtype == np.float32
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    qb, kb, vb = (np.broadcast_to(a, lead + a.shape[-2:]) for a in (q, k, v))
    L, S, E = q.shape[-2], k.shape[-2], v.shape[-1]
    lanes = 8 if f32 else 4
    whole = S // lanes * lanes
    split = 256 if L >= 768 else 64 if L >= 192 else 32
    mb = None if mask is None else np.broadcast_to(mask, lead + (L, S))
    out = np.empty(lead + (L, E), q.dtype)
    exp = expf if f32 else each(math.exp, np.exp)
    for idx in np.ndindex(*lead):
        for r0 in range(0, L, split):
            a, b = qb[idx][r0:r0 + split], kb[idx].T
            rows = a.shape[0]
            s = mkl_product(a, b) if f32 else _in_order(a, b)
            s = a @ b if s is None else s
            if mb is None:
                s = s * kind(scale)
            else:  # (a * scale + mask in one fused multiply-add, the compiler's contraction)
                s = _vec_math.fma(s, np.full(s.shape, scale, q.dtype), mb[idx][r0:r0 + split])
            zero = _zero_rows(s, lanes, mask is not None)
            with np.errstate(invalid="ignore", over="ignore"):
                d = np.ascontiguousarray(s - np.where(zero, kind(0), np.max(s, -1, keepdims=True)))
                e = np.concatenate([exp_u20(d[:, :whole]).astype(q.dtype, copy=False),
                                    exp(d[:, whole:]).astype(q.dtype, copy=False)], 1) if whole else \
                    exp(d).astype(q.dtype, copy=False)
                e = np.where(zero, kind(0), e)
            total = np.zeros(rows, q.dtype)
            if whole:
                acc = np.zeros((rows, lanes), q.dtype)
                for j in range(0, whole, lanes):
                    acc = acc + e[:, j:j + lanes]
                total = _lane_sum(acc)
            for j in range(whole, S):
                total = total + e[:, j]
            vv = np.ascontiguousarray(vb[idx])
            if f32:
                dv = mkl_product(e, vv)
                dv = e @ vv if dv is None else dv
            else:
                dv = _in_order(e, vv)
            with np.errstate(divide="ignore", invalid="ignore"):
                out[idx][r0:r0 + split] = np.where(zero, kind(0), dv * (kind(1) / total)[:, None])
    return out


def _in_order(a, b):
    """a @ b with each sum's products added one after the other from zero (float64's small gemms)."""
    out = np.zeros((a.shape[0], b.shape[1]), a.dtype)
    for j in range(a.shape[1]):
        out = out + a[:, j:j + 1] * b[j:j + 1, :]
    return out


def _flash_fwd(ctx, q, k, v, mask, scale, groups):
    S = k.shape[-2]
    if (q.dtype.char in "fd" and 1 < S < 32 // q.dtype.itemsize or q.dtype == np.float32 and 8 <= S <= _KV_SPLIT
            and 2 <= q.shape[-1] <= 4) and q.size * S <= 1 << 16:  # (where the steps are known to be PyTorch's)
        return _flash_rows(q, _repeat_heads(k, groups), _repeat_heads(v, groups), mask, scale)
    p = _probs(q, k, mask, scale, groups)
    v = _repeat_heads(v, groups)
    out = np.matmul(p, v)
    L, S, E = p.shape[-2], p.shape[-1], v.shape[-1]
    if S == 1 and E > 1 and out.dtype.char in "fd":
        # one key: the kernel's gemm of each block of queries (qSplitSize rows) is a one-term product,
        # which BLAS writes as the plain product when the block has 2 or more rows (a -0.0 stays; see
        # linalg._gemm); a block of one row sums from +0.0
        split = 256 if L >= 768 else 64 if L >= 192 else 32
        plain = np.ones(L, bool)
        if L % split == 1:
            plain[-1] = False
        out = np.where(plain[:, None], p * v, out)
    return out.astype(q.dtype, copy=False)


def _flash_backward_fwd(ctx, g, q, k, v, mask, scale, groups):
    p = _probs(q, k, mask, scale, groups)
    kr, vr = _repeat_heads(k, groups), _repeat_heads(v, groups)
    dv = np.matmul(np.swapaxes(p, -1, -2), g)
    dp = np.matmul(g, np.swapaxes(vr, -1, -2))
    ds = p * (dp - np.sum(dp * p, axis=-1, keepdims=True)) * q.dtype.type(scale)
    dq = np.matmul(ds, kr)
    dk = np.matmul(np.swapaxes(ds, -1, -2), q)
    if groups > 1:
        shape = dk.shape[:-3] + (dk.shape[-3] // groups, groups) + dk.shape[-2:]
        dk, dv = dk.reshape(shape).sum(-3), dv.reshape(shape[:-1] + dv.shape[-1:]).sum(-3)
    return tuple(a.astype(q.dtype, copy=False) for a in (dq, dk, dv))


_flash = Op("ScaledDotProductFlashAttentionForCpuBackward0", _flash_fwd, inputs=("query", "key", "value"),
            saves=("query", "key", "value", "result"), jvp="unsupported")
_flash.jvp_name = "_scaled_dot_product_flash_attention_for_cpu"
# the backward of the flash kernel has no derivative in PyTorch: a NotImplemented node whose edges are
# those of its tensor arguments that require grad (grad_out, query, key, value, out)
_flash_backward = Op("torch::autograd::NotImplemented",
                     lambda ctx, *arrays, g, q, k, v, mask, scale, groups: _flash_backward_fwd(
                         ctx, g, q, k, v, mask, scale, groups), inputs=(), outputs=3, internal=True,
                     jvp="unsupported")
_flash_backward.jvp_name = "aten::_scaled_dot_product_flash_attention_for_cpu_backward"


@_flash.derivative
def _(ctx, grad):
    q, k, v = ctx.query, ctx.key, ctx.value
    needing = tuple(t for t in (grad, q, k, v, ctx.result) if t._requires_grad)
    dq, dk, dv = _flash_backward.apply(needing, tuple(t._data for t in needing),
                                       {"g": grad._data, "q": q._data, "k": k._data, "v": v._data,
                                        "mask": ctx.mask, "scale": ctx.scale, "groups": ctx.groups})
    return (dq if ctx.needs(0) else None, dk if ctx.needs(1) else None, dv if ctx.needs(2) else None)


@_flash_backward.derivative
def _(ctx, grad):
    raise RuntimeError("derivative for aten::_scaled_dot_product_flash_attention_for_cpu_backward is not implemented")


# ---------------------------------------------------------------------------
# the public function
# ---------------------------------------------------------------------------

def _check(query, key, value, attn_mask, is_causal, enable_gqa):
    if not (query.dtype is key.dtype is value.dtype):
        raise RuntimeError(
            f"Expected query, key, and value to have the same dtype, but got query.dtype: {_name(query)} key.dtype: "
            f"{_name(key)} and value.dtype: {_name(value)} instead.")
    if attn_mask is not None and attn_mask.dtype is not dtypes.bool_ and attn_mask.dtype is not query.dtype:
        raise RuntimeError(
            f"Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: "
            f"{_name(attn_mask)} and  query.dtype: {_name(query)} instead.")
    if query.ndim < 2 or key.ndim < 2 or value.ndim < 2:
        raise RuntimeError("scaled_dot_product_attention expects query, key and value to be at least 2-D")


def _name(t):
    return {"float32": "float", "float64": "double"}.get(t.dtype.name, t.dtype.name)


@export(functional=True, torch=False)
def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    """softmax(query @ key^T * scale + mask) @ value, on PyTorch's flash or math path."""
    _check(query, key, value, attn_mask, is_causal, enable_gqa)
    if scale is None:
        scale = 1.0 / math.sqrt(query.shape[-1])
    L, S = query.shape[-2], key.shape[-2]
    groups = 1
    if enable_gqa and query.ndim >= 3 and key.shape[-3] != query.shape[-3]:
        if query.shape[-3] % key.shape[-3]:
            raise RuntimeError("Number of heads in key and value must divide the number of heads in query")
        groups = query.shape[-3] // key.shape[-3]
    flash = (query.ndim == key.ndim == value.ndim == 4 and dropout_p == 0.0
             and query.shape[-1] == key.shape[-1] == value.shape[-1]
             and query.dtype.is_floating_point and L > 0 and S > 0
             and not (attn_mask is not None and attn_mask.requires_grad))  # (a mask's gradient: math only)
    if flash:
        mask = _mask_np(None if attn_mask is None else attn_mask._data, is_causal, L, S, query._data.dtype)
        return _flash(query, key, value, mask=mask, scale=float(scale), groups=groups)
    return _math(query, key, value, attn_mask, dropout_p, is_causal, scale, groups)


def _math(query, key, value, attn_mask, dropout_p, is_causal, scale, groups):
    from .linalg import matmul
    from .dropout import _dropout

    if attn_mask is not None and is_causal:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
    factor = math.sqrt(abs(scale))
    q = mul_scalar(query, -factor if scale < 0 else factor)
    if groups > 1:
        key = key.repeat_interleave(groups, -3)
        value = value.repeat_interleave(groups, -3)
    attn = matmul(q, mul_scalar(key.transpose(-2, -1), factor))
    L, S = query.shape[-2], key.shape[-2]
    mask = _mask_np(None if attn_mask is None else attn_mask._data, is_causal, L, S, query._data.dtype)
    if mask is not None:
        attn = attn.add_(const(mask)) if attn_mask is None or not attn_mask._requires_grad else attn.add_(attn_mask)
    attn = _safe_softmax(attn, dim=attn.ndim - 1)
    if dropout_p > 0.0:
        attn = _dropout(attn, dropout_p, True, False)
    return matmul(attn, value)
