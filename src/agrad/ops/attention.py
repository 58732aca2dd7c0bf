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
    """The additive mask (or None) of the math path: a bool mask becomes 0 / -inf; causal adds
    tril(ones(L, S)) (the math path refuses both; the flash path takes is_causal apart: _causal_fill)."""
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


def _causal_fill(s, r0=0):
    """is_causal on the flash path: the CPU kernel writes -inf over the unscaled scores past each query's
    own position (query r0 + i keeps keys 0..r0 + i), before the scale and the mask, so a NaN or an
    inf product there is gone, and a scale <= 0 turns the -inf into +inf or NaN."""
    rows, S = s.shape[-2:]
    past = np.arange(S)[None, :] > (r0 + np.arange(rows))[:, None]
    return np.where(past, s.dtype.type(-np.inf), s)


def _scores(q, k, mask, scale, causal=False):
    s = np.matmul(q, np.swapaxes(k, -1, -2))
    if causal:
        s = _causal_fill(s)
    with np.errstate(invalid="ignore"):
        s = s * q.dtype.type(scale)
        return s if mask is None else s + mask


def _probs(q, k, mask, scale, groups, causal=False, lse=None):
    """The weights (numpy's steps); ``lse`` (given) receives each row's max + log(sum) as the kernel's."""
    s = _scores(q, _repeat_heads(k, groups), mask, scale, causal)
    m = np.max(s, axis=-1, keepdims=True)
    masked = _zero_rows(s, 32 // max(s.dtype.itemsize, 4), mask is not None)
    with np.errstate(invalid="ignore", over="ignore"):
        e = np.where(masked, 0, np.exp(s - np.where(masked, 0, m)))
        total = np.sum(e, axis=-1, keepdims=True)
        if lse is not None:
            lse[...] = np.where(masked, 0, m + np.log(np.where(masked, 1, total)))[..., 0]
        # (a row masked everywhere: the CPU kernel's weights 0, so its output 0 but where a value is NaN or inf)
        return (e / np.where(masked, 1, total)).astype(e.dtype, copy=False)


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


def _flash_rows(q, k, v, mask, scale, causal=False, lse=None):
    """The flash kernel's forward for one block of keys (float32 up to 512 keys; float64 fewer than a
    vector's 4): per batch, head and block of queries (qSplitSize rows), the scores' gemm (MKL's
    order, key transposed) times the scale (plus the mask: fused in the scalar loop past the last
    whole vector), exp(s - max) (exp_u20 over whole vectors, glibc's exp past them), the sum (the
    vectors' lanes, folded, then the rest in order), the values' gemm of the unnormalised weights
    (float64: added in order), times 1 / sum.  A row whose maximum is -inf has zero weights (their
    gemm still multiplies: a NaN or an inf value gives NaN) and a sum of 1; ``lse`` (given) receives
    each row's max + log(sum) (0 for such a row), which the backward kernel starts from."""
    from ._gemm_order import mkl_product
    from . import _vec_math
    from ._glibc_float import expf
    from ._lgamma_math import each
    from ._sleef import sleef_exp
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
            if causal:
                s = _causal_fill(s, r0)
            if mb is None:
                s = s * kind(scale)
            else:  # (a * scale + mask in one fused multiply-add, the compiler's contraction)
                s = _vec_math.fma(s, np.full(s.shape, scale, q.dtype), mb[idx][r0:r0 + split])
            zero = _zero_rows(s, lanes, mask is not None)
            with np.errstate(invalid="ignore", over="ignore"):
                d = np.ascontiguousarray(s - np.where(zero, kind(0), np.max(s, -1, keepdims=True)))
                e = np.concatenate([(exp_u20 if f32 else sleef_exp)(d[:, :whole]).astype(q.dtype, copy=False),
                                    exp(d[:, whole:]).astype(q.dtype, copy=False)], 1) if whole else \
                    exp(d).astype(q.dtype, copy=False)
                e = np.where(zero, kind(0), e)
            total = np.zeros(rows, q.dtype)
            if whole:
                acc = np.zeros((rows, lanes), q.dtype)
                for j in range(0, whole, lanes):
                    acc = acc + e[:, j:j + lanes]
                total = _lane_sum(acc) if f32 else ((acc[:, 0] + acc[:, 1]) + acc[:, 2]) + acc[:, 3]
            for j in range(whole, S):
                total = total + e[:, j]
            vv = np.ascontiguousarray(vb[idx])
            if S == 1 and E > 1 and rows > 1:  # (a one-term product: BLAS writes the plain product, -0.0 kept)
                dv = e * vv
            elif f32:
                dv = mkl_product(e, vv)
                dv = e @ vv if dv is None else dv
            else:
                dv = _in_order(e, vv)
            if S > 1:  # (the kernel's sums start from +0.0: a row of -0.0 products, e.g. a zero row's, is +0.0)
                dv = dv + kind(0)
            total = np.where(total == 0, kind(1), total)
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                out[idx][r0:r0 + split] = dv * (kind(1) / total)[:, None]
                if lse is not None:
                    lse[idx][r0:r0 + split] = _lse(np.where(zero[:, 0], kind(0), np.max(s, -1)), total)
    return out


def _lse(top, total):
    """The kernel's logsumexp of a row: its max (0 for -inf) + log(sum) (std::log: glibc's)."""
    from ._glibc_float import logf
    from ._sleef import libm
    with np.errstate(invalid="ignore", over="ignore"):
        return top + (logf(total) if total.dtype == np.float32 else libm("log", total).astype(total.dtype))


def _in_order(a, b):
    """a @ b with each sum's products added one after the other from zero (float64's small gemms)."""
    out = np.zeros((a.shape[0], b.shape[1]), a.dtype)
    for j in range(a.shape[1]):
        out = out + a[:, j:j + 1] * b[j:j + 1, :]
    return out


def _known_steps(q, S):
    """Where the flash kernel's steps are known to be PyTorch's (_flash_rows, _flash_grads)."""
    return q.dtype.char in "fd" and S <= _KV_SPLIT and q.size * S <= 1 << 16


def _flash_fwd(ctx, q, k, v, mask, scale, groups, causal=False):
    S = k.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], _repeat_heads(k, groups).shape[:-2], _repeat_heads(v, groups).shape[:-2])
    ctx.lse = np.zeros(lead + q.shape[-2:-1], q.dtype)
    if _known_steps(q, S):
        return _like_query(q, _flash_rows(q, _repeat_heads(k, groups), _repeat_heads(v, groups), mask, scale, causal,
                                          ctx.lse))
    p = _probs(q, k, mask, scale, groups, causal, ctx.lse)
    v = _repeat_heads(v, groups)
    out = np.matmul(p, v)
    return _like_query(q, _flash_values(p, v, out).astype(q.dtype, copy=False))


def _like_query(q, out):
    """The kernel's output is empty_like(query) (transposed to B, L, H, E for the kernel and back):
    laid out like the query."""
    from ._layout import empty_like
    fresh = empty_like(q, out.dtype)
    fresh[...] = out
    return fresh


def _flash_values(p, v, out):
    """numpy's p @ v as the kernel's: one key's plain products."""
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
    return out


def _gemm(a, b, c=None, alpha=None):
    """a @ b (times alpha, plus c) in the kernel's BLAS order where it is known: MKL's sgemm
    (_gemm_order); dgemm's products added in order (alpha: a scaled first where b is row-major, else
    the sum scaled), then c; else numpy's."""
    if a.dtype == np.float32:
        from ._gemm_order import mkl_product
        r = mkl_product(a, b, c, alpha=alpha)
        if r is not None:
            return r
        r = a @ b
    else:
        from ._gemm_order import _transposed
        if alpha is not None and not _transposed(b):  # (b row-major: alpha scales a first)
            a, alpha = a * a.dtype.type(alpha), None
        r = _in_order(a, b)
    with np.errstate(invalid="ignore", over="ignore"):
        r = r if alpha is None else r * a.dtype.type(alpha)
        return r if c is None else r + c


def _flash_grads(g, q, k, v, out, lse, mask, scale, causal):
    """cpu_flash_attention_backward: per batch, head and block of queries (qSplitSize rows), dsum = the
    rows of g * out summed (map2_reduce_all); for the block of keys the weights again, exp(scale *
    q k^T (+ mask) - lse) (Sleef's vector exp; causal: 0 past each query's position), grad_v += w^T g,
    grad_w = w * (g v^T - dsum), grad_q += scale * grad_w k, grad_k += scale * grad_w^T q."""
    from ._batch_norm_backward import _reduce
    from ._sleef import sleef_exp
    from ._vec_math import sleef_expf
    kind = q.dtype.type
    lead = lse.shape[:-1]
    qb, kb, vb, gb, ob = (np.broadcast_to(a, lead + a.shape[-2:]) for a in (q, k, v, g, out))
    L, S = q.shape[-2], k.shape[-2]
    if not _known_steps(q, S):  # (numpy's steps, all blocks at once)
        with np.errstate(invalid="ignore", over="ignore"):
            w = np.matmul(qb, np.swapaxes(kb, -1, -2)) * kind(scale)
            w = np.exp((w if mask is None else w + mask) - lse[..., None])
            if causal:
                w = np.where(_causal_fill(w) == -np.inf, kind(0), w)
            dw = w * (np.matmul(gb, np.swapaxes(vb, -1, -2)) - np.sum(gb * ob, -1, keepdims=True))
            return (np.matmul(dw, kb) * kind(scale), np.matmul(np.swapaxes(dw, -1, -2), qb) * kind(scale),
                    np.matmul(np.swapaxes(w, -1, -2), gb))
    exp = sleef_expf if q.dtype == np.float32 else sleef_exp
    split = 256 if L >= 768 else 64 if L >= 192 else 32
    mb = None if mask is None else np.broadcast_to(mask, lead + (L, S))
    dq, dk, dv = np.zeros(qb.shape, q.dtype), np.zeros(kb.shape, q.dtype), np.zeros(vb.shape, q.dtype)
    for idx in np.ndindex(*lead):
        kk, vv = np.ascontiguousarray(kb[idx]), np.ascontiguousarray(vb[idx])
        for r0 in range(0, L, split):
            rows = slice(r0, r0 + split)
            qq, gg = np.ascontiguousarray(qb[idx][rows]), np.ascontiguousarray(gb[idx][rows])
            with np.errstate(invalid="ignore", over="ignore"):
                dsum = _reduce(gg, np.ascontiguousarray(ob[idx][rows]))
                w = _gemm(qq, kk.T, alpha=scale)
                if mb is not None:
                    w = w + mb[idx][rows]
                w = exp(np.ascontiguousarray(w - lse[idx][rows][:, None])).astype(q.dtype, copy=False)
                if causal:
                    w = np.where(_causal_fill(w, r0) == -np.inf, kind(0), w)
                dv[idx] = _gemm(w.T, gg, dv[idx])
                dw = w * (_gemm(gg, vv.T) - dsum[:, None])
                dq[idx][rows] = _gemm(dw, kk, dq[idx][rows], alpha=scale)
                dk[idx] = _gemm(dw.T, qq, dk[idx], alpha=scale)
    return dq, dk, dv


def _flash_backward_fwd(ctx, g, q, k, v, out, lse, mask, scale, groups, causal=False):
    kr, vr = _repeat_heads(k, groups), _repeat_heads(v, groups)
    dq, dk, dv = _flash_grads(g, q, kr, vr, out, lse, mask, scale, causal)
    if groups > 1:
        shape = dk.shape[:-3] + (dk.shape[-3] // groups, groups) + dk.shape[-2:]
        dk, dv = dk.reshape(shape).sum(-3), dv.reshape(shape[:-1] + dv.shape[-1:]).sum(-3)
    return tuple(_heads_inner(a.astype(q.dtype, copy=False)) for a in (dq, dk, dv))


def _heads_inner(a):
    """The backward kernel's gradients are zeros of (B, L, H, E) transposed to (B, H, L, E): their
    heads' dim is laid out inside the sequence's."""
    out = np.empty((a.shape[0], a.shape[2], a.shape[1], a.shape[3]), a.dtype).transpose(0, 2, 1, 3)
    out[...] = a
    return out


_flash = Op("ScaledDotProductFlashAttentionForCpuBackward0", _flash_fwd, inputs=("query", "key", "value"),
            saves=("query", "key", "value", "result"), jvp="unsupported")
_flash.jvp_name = "_scaled_dot_product_flash_attention_for_cpu"
# the backward of the flash kernel has no derivative in PyTorch: a NotImplemented node whose edges are
# those of its tensor arguments that require grad (grad_out, query, key, value, out)
_flash_backward = Op("torch::autograd::NotImplemented",
                     lambda ctx, *arrays, g, q, k, v, out, lse, mask, scale, groups, causal: _flash_backward_fwd(
                         ctx, g, q, k, v, out, lse, mask, scale, groups, causal), inputs=(), outputs=3, internal=True,
                     jvp="unsupported", multi_grad=True)  # (a gradient of any of dq, dk, dv reaches the error)
_flash_backward.jvp_name = "aten::_scaled_dot_product_flash_attention_for_cpu_backward"


@_flash.derivative
def _(ctx, grad):
    q, k, v = ctx.query, ctx.key, ctx.value
    needing = tuple(t for t in (grad, q, k, v, ctx.result) if t._requires_grad)
    dq, dk, dv = _flash_backward.apply(needing, tuple(t._data for t in needing),
                                       {"g": grad._data, "q": q._data, "k": k._data, "v": v._data,
                                        "out": ctx.result._data, "lse": ctx.lse,
                                        "mask": ctx.mask, "scale": ctx.scale, "groups": ctx.groups,
                                        "causal": ctx.causal})
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
def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, *, scale=None,
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
    if _flash_path(query, key, value, attn_mask, dropout_p, enable_gqa):
        mask = _mask_np(None if attn_mask is None else attn_mask._data, False, L, S, query._data.dtype)
        out = _flash(query, key, value, mask=mask, scale=float(scale), groups=groups, causal=bool(is_causal))
        if out._grad_fn is not None and type(out._grad_fn) is _flash.node:
            # the node saves the mask it is given: a float mask is the caller's tensor (a change in place
            # before the backward is PyTorch's version error), a bool one its 0 / -inf conversion
            from ..autograd.graph import save_extra
            saved = attn_mask if attn_mask is None or attn_mask.dtype is not dtypes.bool_ else Tensor._make(mask)
            save_extra(out._grad_fn, "attn_mask", saved, after="value")
        return out
    return _math(query, key, value, attn_mask, dropout_p, is_causal, scale, groups)


def _flash_path(query, key, value, attn_mask, dropout_p, enable_gqa):
    """ATen's use_flash_attention_cpp (sdp_utils_cpp): no dropout; 4-D inputs of one batch size and
    one number of heads (enable_gqa: key's and value's the same, dividing query's); a mask that needs
    no gradient, of 2 or 4 dims broadcasting to (batch, heads, L, S); one head size; nonzero sequence
    lengths; each input's last dim of stride 1; floating point.  Else the math path."""
    if not (dropout_p <= 0.0 and query.ndim == key.ndim == value.ndim == 4):
        return False
    (B, H, L, E), (Bk, Hk, S, _), (Bv, Hv) = query.shape, key.shape, value.shape[:2]
    if not B == Bk == Bv or not (Hk == Hv and H % Hk == 0 if enable_gqa else H == Hk == Hv):
        return False
    if attn_mask is not None and (attn_mask.requires_grad or attn_mask.shape[-2] not in (L, 1)
                                  or attn_mask.shape[-1] not in (S, 1) or attn_mask.ndim not in (2, 4)
                                  or attn_mask.ndim == 4 and (attn_mask.shape[0] not in (1, B)
                                                              or attn_mask.shape[1] not in (1, H))):
        return False
    return (E == key.shape[-1] == value.shape[-1] and L > 0 and S > 0
            and query.stride(-1) == key.stride(-1) == value.stride(-1) == 1 and query.dtype.is_floating_point)


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
