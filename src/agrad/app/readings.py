"""How each op of the table *reads* as an expression (``agrad diff``).

:data:`RULES` maps a node name to a function of the node's arguments (already
expressions: constants turned into numbers or names), its recorded call
``(op, constants, attrs)`` and its output shape; :data:`_RULES_TR` the rules
that also need the translator (masks and constants from attributes).  Unary
torch functions need no entry: they read as their own function
(:func:`_unary_functions`, from the op table).  Nothing here says how an op
differentiates: that is the op table's backward formula, which
``create_graph=True`` records.

PyTorch's fused ``<activation>_backward`` nodes are ops whose forward is a
kernel; their rule spells what the kernel computes.
"""

from __future__ import annotations

import numpy as np

from . import symbolic as sx


class NoSymbolicForm(Exception):
    """The derivative cannot be written as an expression; the message names the op."""


def _attr(info, name, default=None):
    return info[2].get(name, default)


def _scalar(v):
    return sx.num(float(np.asarray(v)))


def _alpha(info):
    a = _attr(info, "alpha", 1)
    return sx.num(float(a))


def _other(info):
    return _scalar(_attr(info, "other"))


def _pow_scalar(a, info, shape):
    return sx.power(a[0], _scalar(_attr(info, "exponent")))


def _pow_base(a, info, shape):
    return sx.power(_scalar(_attr(info, "base")), a[0])


def _matmul(a, info, shape):
    return sx.matmul(a[0], a[1], shape)


def _sum(a, info, shape, name="sum"):
    axes = _attr(info, "axes")
    if axes is None or len(axes) == len(a[0].shape) and not _attr(info, "keepdim"):
        return sx.reduce_sum(a[0], None, False, shape, name)
    return sx.reduce_sum(a[0], axes, bool(_attr(info, "keepdim")), shape, name)


def _mean(a, info, shape):
    return _sum(a, info, shape, "mean")


def _transpose(a, info, shape):
    n = len(a[0].shape)
    d0, d1 = (_attr(info, "dim0", 0), _attr(info, "dim1", 1)) if n else (0, 0)
    if n < 2 or d0 == d1:
        return sx.reshape(a[0], shape)
    dims = list(range(n))
    dims[d0], dims[d1] = dims[d1], dims[d0]
    return sx.permute(a[0], dims, shape, name="transpose", extras=(d0, d1))


def _tanh_backward(a, info, shape):  # TanhBackwardBackward0(grad_output, output)
    g, y = a
    return sx.mul(g, sx.sub(sx.num(1.0), sx.power(y, sx.num(2.0))))


def _sigmoid_backward(a, info, shape):
    g, y = a
    return sx.mul(g, y, sx.sub(sx.num(1.0), y))


def _threshold_backward(a, info, shape):
    g, x = a
    return sx.where(sx.compare(">", x, _scalar(_attr(info, "threshold"))), g, sx.num(0.0), shape)


_COMPARE = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


def _where(a, info, shape, tr):
    return _select_where(_attr(info, "condition"), a[0], a[1], shape, tr)


def _masked_fill(a, info, shape, tr):  # a where the mask holds, else the input
    value = sx.num(float(np.asarray(_attr(info, "fill")))) if len(a) == 1 else a[1]
    return _select_where(_attr(info, "mask"), value, a[0], shape, tr)


def _select_where(cond, then, other, shape, tr):
    """``where(cond, then, other)`` with ``cond`` a mask array (an attribute of the node)."""
    mask = tr.capture.masks.get(id(cond))
    if mask is not None and mask[2]._data is cond:
        if _equality_guard(mask, tr.capture.masks) and not np.asarray(cond).any():
            # a special value the formula guards (pow's "0 where base == 0", maximum's ties):
            # an equality holds nowhere near these inputs, so it reads as the other branch
            return sx.bcast(other, shape)
        return sx.where(tr.mask_expr(mask), then, other, shape)
    if id(cond) not in tr.capture.script_consts:
        raise NoSymbolicForm(tr._formula_blame(tr.node, "a mask"))
    return sx.where(tr.constant(cond, None, bool_ok=True), then, other, shape)


def _equality_guard(entry, masks) -> bool:
    """Whether a mask is an equality (``a == b``), alone or and-ed with other conditions."""
    name, operands, _ = entry
    if name == "eq":
        return True
    if name == "logical_and":
        return any(_equality_guard(masks[id(o)], masks) for o in operands if id(o) in masks)
    return False


def _select(a, info, shape):
    return sx.index(a[0], sx.index_text(_attr(info, "index")), shape)


def _softmax(name):
    return lambda a, i, s: sx.call(name, (a[0],), s, extras=(_attr(i, "dim"),)) if a[0].shape else sx.num(
        1.0 if name == "softmax" else 0.0, s)


def _kept(shape, dim):
    kept = list(shape)
    kept[dim] = 1
    return tuple(kept)


def _softmax_bw(a, info, shape):  # SoftmaxBackwardDataBackward0(grad_output, output)
    g, y = a
    if not shape:
        return sx.mul(y, sx.sub(g, sx.mul(g, y)))
    d = _attr(info, "dim")
    return sx.mul(y, sx.sub(g, sx.reduce_sum(sx.mul(g, y), (d,), True, _kept(shape, d))))


def _log_softmax_bw(a, info, shape):  # LogSoftmaxBackwardDataBackward0(grad_output, output)
    g, y = a
    e = sx.call("exp", (y,), shape, pointwise=True)
    if not shape:
        return sx.sub(g, sx.mul(e, g))
    d = _attr(info, "dim")
    return sx.sub(g, sx.mul(e, sx.reduce_sum(g, (d,), True, _kept(shape, d))))


def _logsumexp(a, info, shape):
    axes = tuple(_attr(info, "axes"))
    keep = bool(_attr(info, "keepdim"))
    if not a[0].shape:
        return a[0]
    dim = axes[0] if len(axes) == 1 else axes
    return sx.call("logsumexp", (a[0],), shape, extras=(dim,), kwargs=(("keepdim", True),) if keep else ())


def _binary(name):
    return lambda a, i, s: sx.call(name, (a[0], a[1]), s, pointwise=True)


def _xlogy(a, info, shape):
    if a[0].kind == "num" and a[0].data != 0:  # xlogy(c, y) = c*log(y) for c != 0
        return sx.mul(a[0], sx.call("log", (a[1],), a[1].shape, pointwise=True))
    return sx.call("xlogy", (a[0], a[1]), shape, pointwise=True)


def _clamp1(a, info, shape):
    lo, hi = _attr(info, "min"), _attr(info, "max")
    kw = tuple((k, float(v)) for k, v in (("min", lo), ("max", hi)) if v is not None)
    return sx.call("clamp", (a[0],), shape, kwargs=kw, pointwise=True)


def _functional(name, *attrs, defaults=()):
    """An nn.functional activation: ``F.name(a, attr=value...)`` (attributes at their defaults left out)."""
    def rule(a, info, shape):
        kw = []
        for k, d in zip(attrs, defaults or (None,) * len(attrs)):
            v = _attr(info, k)
            if v is not None and v != d:
                kw.append((k, v))
        return sx.call(f"F.{name}", (a[0],), shape, kwargs=tuple(kw), pointwise=True)
    return rule


def _elu(a, info, shape):
    alpha, scale, inner = (float(_attr(info, k, 1.0)) for k in ("alpha", "scale", "input_scale"))
    if inner != 1.0:
        raise NoSymbolicForm("EluBackward0 with an input scale has no symbolic form")
    if scale != 1.0:  # selu
        return sx.call("F.selu", (a[0],), shape, pointwise=True)
    return sx.call("F.elu", (a[0],), shape, kwargs=(("alpha", alpha),) if alpha != 1.0 else (), pointwise=True)


# PyTorch's fused <activation>_backward(grad_output, x) ops: how each reads (what its kernel
# computes, as an expression of grad_output g and x).

def _num_attr(info, name, default=None):
    return sx.num(float(_attr(info, name, default)))


def _gt(x, v):
    return sx.compare(">", x, v)


def _hardtanh_bw(a, info, shape):
    g, x = a
    inside = sx.logical_and(_gt(x, _num_attr(info, "min_val")), sx.compare("<", x, _num_attr(info, "max_val")))
    return sx.where(inside, g, sx.num(0.0), shape)


def _leaky_bw(a, info, shape):
    g, x = a
    return sx.where(_gt(x, sx.num(0.0)), g, sx.mul(g, _num_attr(info, "negative_slope")), shape)


def _elu_bw(a, info, shape):
    g, x = a
    alpha, scale, inner = (_num_attr(info, k, 1.0) for k in ("alpha", "scale", "input_scale"))
    if _attr(info, "is_result"):
        neg = sx.mul(g, inner, sx.add(x, sx.mul(alpha, scale)))
    else:
        neg = sx.mul(g, inner, alpha, scale, sx.call("exp", (sx.mul(x, inner),), x.shape, pointwise=True))
    return sx.where(_gt(x, sx.num(0.0)), sx.mul(g, scale), neg, shape)


def _softplus_bw(a, info, shape):
    g, x = a
    bx = sx.mul(_num_attr(info, "beta"), x)
    return sx.where(_gt(bx, _num_attr(info, "threshold")), g,
                    sx.mul(g, sx.call("sigmoid", (bx,), bx.shape, pointwise=True)), shape)


def _hardswish_bw(a, info, shape):
    g, x = a
    mid = sx.mul(g, sx.add(sx.div(x, sx.num(3.0)), sx.num(0.5)))
    return sx.where(sx.compare("<=", x, sx.num(-3.0)), sx.num(0.0),
                    sx.where(sx.compare(">=", x, sx.num(3.0)), g, mid, shape), shape)


def _logsigmoid_bw(a, info, shape):  # d/dx log(sigmoid(x)) = sigmoid(-x)
    g, x = a
    return sx.mul(g, sx.call("sigmoid", (sx.neg(x),), x.shape, pointwise=True))


def _shrink_bw(a, info, shape):
    g, x = a
    lam = _num_attr(info, "lambd")
    outside = sx.logical_or(_gt(x, lam), sx.compare("<", x, sx.neg(lam)))
    return sx.where(outside, g, sx.num(0.0), shape)


_SQRT1_2 = 0.7071067811865476  # 1/sqrt(2)
_INV_SQRT_2PI = 0.3989422804014327  # 1/sqrt(2*pi)


def _gelu(a, info, shape):
    if _attr(info, "approximate", "none") != "none":
        raise NoSymbolicForm("GeluBackward0 with approximate='tanh' has no symbolic form")
    return sx.call("F.gelu", (a[0],), shape, pointwise=True)


def _gelu_backward(a, info, shape):
    """GeluBackwardBackward0(grad, x) is grad * gelu'(x) = grad * (Phi(x) + x*phi(x))."""
    if _attr(info, "approximate", "none") != "none":
        raise NoSymbolicForm("GeluBackwardBackward0 with approximate='tanh' has no symbolic form")
    g, x = a
    cdf = sx.mul(sx.num(0.5), sx.add(sx.num(1.0), sx.call("erf", (sx.mul(sx.num(_SQRT1_2), x),), x.shape,
                                                           pointwise=True)))
    pdf = sx.mul(sx.num(_INV_SQRT_2PI), sx.call("exp", (sx.mul(sx.num(-0.5), sx.power(x, sx.num(2.0))),),
                                                x.shape, pointwise=True))
    return sx.mul(g, sx.add(cdf, sx.mul(x, pdf)))


def _embed(a, info, shape, tr):
    """SliceBackwardBackward0(g): zeros of ``shape`` with ``g`` at ``index``.  An integer index
    (``x[1]``, ``W[:, 0]``) reads as ``g`` times a one-hot constant; slices as ``g`` padded with
    zeros (``F.pad``)."""
    idx = _attr(info, "index")
    items = idx if isinstance(idx, tuple) else (idx,)
    if any(it is Ellipsis for it in items):
        k = next(j for j, it in enumerate(items) if it is Ellipsis)
        rest = [it for it in items if it is not Ellipsis and it is not None]
        items = items[:k] + (slice(None),) * (len(shape) - len(rest)) + items[k + 1:]
    items = items + (slice(None),) * (len(shape) - len(items))
    if any(it is None or not isinstance(it, (slice, int, np.integer)) for it in items):
        raise NoSymbolicForm("SliceBackwardBackward0 of this index has no symbolic form")
    g = a[0]
    dtype = tr.node._out_meta[0][1].numpy
    whole = [isinstance(it, slice) and it.indices(n) == (0, n, 1) for it, n in zip(items, shape)]
    ints = [not isinstance(it, slice) for it in items]
    if all(w or i for w, i in zip(whole, ints)):
        hot_shape = tuple(n if i else 1 for n, i in zip(shape, ints))
        hot = np.zeros(hot_shape, dtype)
        hot[tuple(int(it) % n if i else 0 for it, n, i in zip(items, shape, ints))] = 1
        g = sx.reshape(g, tuple(1 if i else n for n, i in zip(shape, ints)))
        if g.kind == "num":
            return tr.array_constant(np.broadcast_to(hot * g.data, shape).astype(dtype))
        return sx.mul(g, tr.array_constant(hot))
    pads, kept = [], []
    for it, n in zip(items, shape):
        if isinstance(it, slice):
            start, stop, step = it.indices(n)
            if step != 1:
                raise NoSymbolicForm("SliceBackwardBackward0 of a strided slice has no symbolic form")
            stop = max(stop, start)
        else:
            start = int(it) % n
            stop = start + 1
        pads.append((start, n - stop))
        kept.append(stop - start)
    g = sx.reshape(g, tuple(kept))
    if g.kind == "num":
        arr = np.zeros(shape, dtype)
        arr[tuple(slice(b, n - e) for (b, e), n in zip(pads, shape))] = g.data
        return tr.array_constant(arr)
    return _pad(g, pads, shape)


def _pad(g, pads, shape):
    flat = []
    for before, after in reversed(pads):
        flat += [before, after]
    while len(flat) > 2 and flat[-2:] == [0, 0]:
        flat = flat[:-2]
    if not any(flat):
        return sx.reshape(g, shape)
    return sx.call("F.pad", (g,), shape, extras=(tuple(flat),))


#: node name -> how the node's output reads, from its arguments (expressions, one
#: per input; constants already turned into numbers or names), its recorded
#: call and its output shape.  Unary torch functions (sin, exp, ...) need no
#: entry: they read as their own function (see ``Translator.rule``).
RULES = {
    "AddBackward0": lambda a, i, s: sx.add(a[0], sx.mul(_alpha(i), a[1])),
    "AddBackward1": lambda a, i, s: sx.add(a[0], _other(i)),
    "SubBackward0": lambda a, i, s: sx.sub(a[0], sx.mul(_alpha(i), a[1])),
    "SubBackward1": lambda a, i, s: sx.sub(a[0], _other(i)),
    "RsubBackward1": lambda a, i, s: sx.sub(a[1], sx.mul(_alpha(i), a[0])),
    "MulBackward0": lambda a, i, s: sx.mul(a[0], a[1]),
    "MulBackward1": lambda a, i, s: sx.mul(a[0], _other(i)),
    "DivBackward0": lambda a, i, s: sx.div(a[0], a[1]),
    "DivBackward1": lambda a, i, s: sx.div(a[0], _other(i)),
    "NegBackward0": lambda a, i, s: sx.neg(a[0]),
    "ReciprocalBackward0": lambda a, i, s: sx.power(a[0], sx.num(-1.0)),
    "PowBackward0": _pow_scalar,
    "PowBackward1": lambda a, i, s: sx.power(a[0], a[1]),
    "PowBackward2": _pow_base,
    "MmBackward0": _matmul, "MvBackward0": _matmul, "DotBackward0": _matmul, "BmmBackward0": _matmul,
    "AddmmBackward0": lambda a, i, s: sx.add(sx.mul(_num_attr(i, "beta", 1), a[0]),
                                             sx.mul(_num_attr(i, "alpha", 1), sx.matmul(a[1], a[2], s))),
    "AddmvBackward0": lambda a, i, s: sx.add(sx.mul(_num_attr(i, "beta", 1), a[0]),
                                             sx.mul(_num_attr(i, "alpha", 1), sx.matmul(a[1], a[2], s))),
    "SumBackward0": _sum, "SumBackward1": _sum, "MeanBackward0": _mean, "MeanBackward1": _mean,
    "SumToSizeBackward0": lambda a, i, s: sx.sum_to(a[0], s),
    "ExpandBackward0": lambda a, i, s: sx.bcast(a[0], s),
    "ViewBackward0": lambda a, i, s: sx.reshape(a[0], s),
    "UnsafeViewBackward0": lambda a, i, s: sx.reshape(a[0], s),
    "ReshapeAliasBackward0": lambda a, i, s: sx.reshape(a[0], s),
    "SqueezeBackward0": lambda a, i, s: sx.reshape(a[0], s),
    "SqueezeBackward1": lambda a, i, s: sx.reshape(a[0], s),
    "SqueezeBackward2": lambda a, i, s: sx.reshape(a[0], s),
    "SqueezeBackward4": lambda a, i, s: sx.reshape(a[0], s),
    "UnsqueezeBackward0": lambda a, i, s: sx.reshape(a[0], s),
    "TBackward0": _transpose, "TransposeBackward0": _transpose,
    "PermuteBackward0": lambda a, i, s: sx.permute(a[0], _attr(i, "dims"), s),
    "CloneBackward0": lambda a, i, s: a[0],
    "AliasBackward0": lambda a, i, s: a[0],
    "ToCopyBackward0": lambda a, i, s: a[0],
    "TanhBackwardBackward0": _tanh_backward,
    "SigmoidBackwardBackward0": _sigmoid_backward,
    "ThresholdBackwardBackward0": _threshold_backward,
    "SelectBackward0": _select, "SliceBackward0": _select,
    "CatBackward0": lambda a, i, s: sx.joined("cat", a, _attr(i, "dim"), s),
    "StackBackward0": lambda a, i, s: sx.joined("stack", a, _attr(i, "dim"), s),
    "SoftmaxBackward0": _softmax("softmax"), "LogSoftmaxBackward0": _softmax("log_softmax"),
    "SoftmaxBackwardDataBackward0": _softmax_bw, "LogSoftmaxBackwardDataBackward0": _log_softmax_bw,
    "LogsumexpBackward0": _logsumexp,
    "XlogyBackward0": _xlogy, "HypotBackward0": _binary("hypot"),
    "ClampBackward1": _clamp1, "ClampBackward0": lambda a, i, s: sx.call("clamp", tuple(a), s, pointwise=True),
    "MaximumBackward0": _binary("maximum"), "MinimumBackward0": _binary("minimum"),
    "HardtanhBackward0": _functional("hardtanh", "min_val", "max_val", defaults=(-1.0, 1.0)),
    "LeakyReluBackward0": _functional("leaky_relu", "negative_slope", defaults=(0.01,)),
    "SoftplusBackward0": _functional("softplus", "beta", "threshold", defaults=(1.0, 20.0)),
    "EluBackward0": _elu,
    "SiluBackward0": _functional("silu"), "MishBackward0": _functional("mish"),
    "LogSigmoidBackward0": _functional("logsigmoid"), "HardsigmoidBackward0": _functional("hardsigmoid"),
    "HardswishBackward0": _functional("hardswish"),
    "SoftshrinkBackward0": _functional("softshrink", "lambd", defaults=(0.5,)),
    "HardshrinkBackward0": _functional("hardshrink", "lambd", defaults=(0.5,)),
    "HardtanhBackwardBackward0": _hardtanh_bw, "LeakyReluBackwardBackward0": _leaky_bw,
    "EluBackwardBackward0": _elu_bw, "SoftplusBackwardBackward0": _softplus_bw,
    "HardswishBackwardBackward0": _hardswish_bw, "LogSigmoidBackwardBackward0": _logsigmoid_bw,
    "SoftshrinkBackwardBackward0": _shrink_bw, "HardshrinkBackwardBackward0": _shrink_bw,
    "LogaddexpBackward0": _binary("logaddexp"), "Logaddexp2Backward0": _binary("logaddexp2"),
    "Atan2Backward0": _binary("atan2"),
    "GeluBackward0": _gelu, "GeluBackwardBackward0": _gelu_backward,
}

#: rules that also need the translator (constants from attributes)
_RULES_TR = {"WhereBackward0": _where, "SliceBackwardBackward0": _embed, "SelectBackwardBackward0": _embed,
             "MaskedFillBackward0": _masked_fill, "MaskedFillBackward1": _masked_fill}


def _unary_functions() -> dict:
    """op -> its torch function's name, for the ops ``unary()`` made (the op table's own names).
    The loaded op families' entries: an op a graph holds is one of theirs (and no two of the
    table's names share an op, so the order they loaded in does not matter)."""
    from ..ops._op import FUNCTIONS
    out = {}
    for name, fn in dict.items(FUNCTIONS):
        op = getattr(fn, "op", None)
        if op is not None and op not in out and getattr(fn, "__name__", name) == name:
            out[op] = name
    return out


def has_symbolic_form(op) -> bool:
    """Whether an op of the table reads as an expression (its derivative may still not)."""
    if op.name in RULES or op.name in _RULES_TR or op.name == "UnbindBackward0":
        return True
    return op in _unary_functions()
