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


def _probs(q, k, mask, scale, groups):
    s = np.matmul(q, np.swapaxes(_repeat_heads(k, groups), -1, -2)) * q.dtype.type(scale)
    if mask is not None:
        s = s + mask
    m = np.max(s, axis=-1, keepdims=True)
    masked = np.isneginf(m)
    e = np.exp(s - np.where(masked, 0, m))
    if masked.any():  # (a row masked everywhere: the CPU kernel's probabilities 0, its output and gradients 0)
        total = np.sum(e, axis=-1, keepdims=True)
        return np.where(masked, 0, e / np.where(masked, 1, total)).astype(e.dtype, copy=False)
    return e / np.sum(e, axis=-1, keepdims=True)


def _flash_fwd(ctx, q, k, v, mask, scale, groups):
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
