"""F.embedding_bag: sums, means or maxima of bags of embedding rows (ATen's _embedding_bag).

A bag is the run of ``input`` from one offset to the next (a 2-D input: one bag a row).  Its
rows are added one after another in the weight's dtype (times ``per_sample_weights`` for
'sum'), a 'mean' divided by the count of rows that are not ``padding_idx``, a 'max' taken per
column (an empty bag: zeros).  The node is EmbeddingBagBackward0, with edges to the weight and
``per_sample_weights``; its gradient of the weight adds each bag's gradient (times 1 / count for
'mean', times the sample's weight) into the rows of the bag, or into the arg-max rows for 'max'
(the order of PyTorch's sorted dense backward and its axpy's lanes are not followed: a few
float32 ulps on rows that several bags share).  Under create_graph the weight's gradient is
_embedding_bag_backward's: an EmbeddingBagBackwardBackward0 node with edges to the gradient and
``per_sample_weights``, whose own derivative is not implemented; the per-sample weights' gradient
is a NotImplemented node (aten::_embedding_bag_per_sample_weights_backward, no derivative formula).
"""

from __future__ import annotations


import numpy as np

from .. import dtypes
from .._cpp_print import cpp_type_name
from ..autograd.graph import save_extra
from ..tensor import Tensor, _scalar_name
from ._not_implemented import not_implemented
from ._op import Op, export
from ._vec_math import fma
from .._warn_once import warn as _warn

_MODES = {"sum": 0, "mean": 1, "max": 2}


def _bags(n_input, offsets, include_last):
    """[(begin, end)] of each bag."""
    offs = [int(o) for o in offsets]
    if include_last:
        ends, offs = offs[1:], offs[:-1]
    else:
        ends = offs[1:] + [n_input]
    return list(zip(offs, ends))


def _embedding_bag_fwd(ctx, weight, psw, indices, bags, mode, padding_idx, psw_shape, last_to_end, freq):
    D = weight.shape[1]
    out = np.zeros((len(bags), D), weight.dtype)
    arg = np.full((len(bags), D), -1, np.int64) if mode == 2 else None
    w = psw
    n_total = len(indices)
    for b, (begin, end) in enumerate(bags):
        acc, count = np.zeros(D, weight.dtype), 0
        for k in range(begin, end):
            row = int(indices[k])
            if row == padding_idx:
                continue
            if mode == 2:
                v = weight[row]
                better = (count == 0) | (v > acc)
                acc = np.where(better, v, acc)
                arg[b] = np.where(better, row, arg[b])
            elif w is not None:  # (a multiply-add)
                acc = fma(np.full(D, w[k]), weight[row], acc)
            else:
                acc = acc + weight[row]
            count += 1
        if mode == 1 and count:
            # (with include_last_offset the last bag's count is read up to the input's end)
            if last_to_end and b == len(bags) - 1:
                count = count + n_total - end
            acc = acc / weight.dtype.type(count)
        out[b] = acc
    ctx.arg = arg
    return out


# (edges to the weight and per_sample_weights, None where there are none, as PyTorch's node has)
_embedding_bag = Op("EmbeddingBagBackward0", _embedding_bag_fwd, inputs=("weight", "per_sample_weights"),
                    saves=("weight", "per_sample_weights"))


# _embedding_bag_backward as an op of its own (recorded under create_graph when the gradient or the per-sample
# weights require grad): the value is computed by _embedding_bag_backward below
_embedding_bag_weight_backward = Op("EmbeddingBagBackwardBackward0", lambda ctx, *arrays, value: value,
                                    inputs=("grad", "per_sample_weights"), internal=True, jvp="unsupported")
_embedding_bag_weight_backward.runs_undefined = True  # (a not_implemented formula raises with no gradient too)


@_embedding_bag_weight_backward.derivative
def _(ctx, grad):
    raise NotImplementedError("the derivative for '_embedding_bag_backward' is not implemented.")


def _embedding_bag_backward(ctx, grad):
    g = grad._data
    weight = ctx.weight._data
    indices, bags, mode, padding_idx = ctx.indices, ctx.bags, ctx.mode, ctx.padding_idx
    if type(indices) is Tensor:  # (the saved input, checked against its version)
        indices = indices._data.astype(np.int64)
    psw_t = getattr(ctx, "per_sample_weights", None)
    psw = psw_t._data if psw_t is not None else None
    g_w = g_psw = None
    if ctx.needs(0):
        g_w = np.zeros(weight.shape, g.dtype)
        for b, (begin, end) in enumerate(bags):
            if mode == 2:
                for d in range(weight.shape[1]):
                    if ctx.arg[b, d] >= 0:
                        g_w[ctx.arg[b, d], d] += g[b, d]
                continue
            rows = [int(indices[k]) for k in range(begin, end) if int(indices[k]) != padding_idx]
            count = len(rows) + (len(indices) - end if ctx.last_to_end and b == len(bags) - 1 else 0)
            scale = g.dtype.type(1) / g.dtype.type(count) if mode == 1 and rows else None
            if mode == 1 and ctx.last_to_end and b == len(bags) - 1:
                end = len(indices)  # (mean's backward gives the rows after the last offset the last bag's share too)
            for k in range(begin, end):
                row = int(indices[k])
                if row == padding_idx:
                    continue
                alpha = psw[k] if psw is not None else scale  # (an axpy: multiply-adds)
                if ctx.freq is not None:  # scale_grad_by_freq: divided by the index's count in the input
                    alpha = (alpha if alpha is not None else g.dtype.type(1)) / g.dtype.type(ctx.freq[row])
                if alpha is not None:
                    g_w[row] = fma(g[b], np.full(g.shape[1], alpha, g.dtype), g_w[row])
                else:
                    g_w[row] = g_w[row] + g[b]
        g_w = _embedding_bag_weight_backward.apply((grad, psw_t), (g, psw), {"value": g_w})
    if psw is not None and ctx.needs(1):
        g_psw = np.zeros(len(indices), g.dtype)
        for b, (begin, end) in enumerate(bags):
            for k in range(begin, end):
                row = int(indices[k])
                if row != padding_idx:
                    g_psw[k] = _dot(g[b], weight[row])
        g_psw = not_implemented(g_psw.reshape(ctx.psw_shape), (grad, ctx.weight),
                                "aten::_embedding_bag_per_sample_weights_backward")
    return g_w, g_psw


_embedding_bag.derivative(_embedding_bag_backward)


def _freq(idx, num):
    """scale_grad_by_freq's counts as PyTorch's dense backward reads them: the count of the k-th
    smallest index, looked up at the row's number k (not the row's own count)."""
    ordered = np.sort(idx)
    counts = np.bincount(idx, minlength=num)[ordered] if idx.size else np.zeros(0, np.int64)
    return np.concatenate([counts, np.ones(max(0, num - counts.size), np.int64)])


def _dot(a, b):
    """The per-sample weight's gradient: the products added one after another."""
    total = a.dtype.type(0)
    for x, y in zip(a, b):
        total = total + x * y
    return total




@export(functional=True, torch=False)
def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    """Sums, means or maxima of bags of embedding rows, without building the per-index embeddings."""
    from ._op import FUNCTIONS

    if weight.dtype.name == "int64" and input.is_floating_point():
        _warn("Argument order of nn.functional.embedding_bag was changed. Usage `embedding_bag(weight, "
              "input, ...)` is deprecated, and should now be `embedding_bag(input, weight, ...)`.")
        weight, input = input, weight
    if per_sample_weights is not None and input.shape != per_sample_weights.shape:
        raise ValueError(f"embedding_bag: If per_sample_weights ({_size(per_sample_weights)}) is not None, then it "
                         f"must have the same shape as the input ({_size(input)})")
    if weight.ndim != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.ndim}")
    psw_shape = None if per_sample_weights is None else tuple(per_sample_weights.shape)
    if input.ndim == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             f"fixed length sequences. However, found offsets of type {_type_str(offsets)}")
        offsets = FUNCTIONS["arange"](0, input.numel(), input.shape[1], dtype=input.dtype)
        include_last_offset = False
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.ndim == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.ndim != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.ndim}")
    if mode not in _MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")
    if max_norm is not None:  # (F's _no_grad_embedding_renorm_: the looked-up rows rescaled in place)
        from .nn import _embedding_renorm_
        _embedding_renorm_(weight.detach(), input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
                                  "GitHub.")
    if padding_idx is not None and not -weight.shape[0] <= padding_idx < weight.shape[0]:
        raise RuntimeError(f"padding_idx must be within the number of embeddings, {-weight.shape[0]} through "
                           f"{weight.shape[0] - 1}, but got {padding_idx}")
    # (_embedding_bag_cpu_impl's promoteIndicesAndOffsets: both as their common type, then check_arguments; the
    # offsets' own dtype check and their same-type check cannot fail after it)
    common = dtypes.promote_types(offsets.dtype, input.dtype)
    if common.name not in ("int64", "int32"):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, "
                           f"Int; but got {cpp_type_name(common)} instead (while checking arguments for embedding_bag)")
    if weight.dtype.name not in ("float16", "bfloat16", "float32", "float64"):
        raise RuntimeError("Expected tensor for argument #1 'weight' to have one of the following scalar types: Half, "
                           f"BFloat16, Float, Double; but got {cpp_type_name(weight.dtype)} instead (while checking "
                           "arguments for embedding_bag)")
    if per_sample_weights is not None and per_sample_weights.dtype is not weight.dtype:
        raise RuntimeError(f"Expected tensor for argument #1 'weight' to have the same type as tensor for argument #1 "
                           f"'per_sample_weights'; but type {cpp_type_name(weight.dtype)} does not equal "
                           f"{cpp_type_name(per_sample_weights.dtype)} (while checking arguments for embedding_bag)")
    offs = offsets._data.astype(np.int64)
    n = input.numel()
    if offs.size:
        if offs[0] != 0:
            raise RuntimeError(f"offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start "
                               f"from position 0. However, got {int(offs[0])}\n[ torch.LongTensor{{}} ]")
        if offs[-1] > n:
            raise RuntimeError(f"offsets[-1] can not be greater than input's length {n} but got offsets[-1] of "
                               f"{int(offs[-1])}")
    idx = input._data.astype(np.int64)
    num = weight.shape[0]
    for k, v in enumerate(idx):
        if not 0 <= v < num:
            if weight.dtype.name == "float32" and mode != "max":  # (the fbgemm kernel's text; its threads race)
                raise RuntimeError(f"Index {k} of input takes value {int(v)} which is not in the valid range "
                                   f"[0, {num})")
            raise RuntimeError(f"embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be {int(v)}")
    pad = -1 if padding_idx is None else (padding_idx + num if padding_idx < 0 else padding_idx)
    bags = _bags(n, offs, include_last_offset)
    # ATen's fast path (fbgemm: float32/half/bfloat16, weight.stride(1) == 1, no padding_idx, not 'max') reads
    # the last offset; the others count bags from offset2bag: the last bag runs to the input's end
    last_to_end = bool(include_last_offset)
    if include_last_offset and bags and (mode == "max" or pad >= 0 or weight.stride(1) != 1 or weight.dtype.name
                                         not in ("float32", "float16", "bfloat16")):
        bags[-1], last_to_end = (bags[-1][0], n), False
    out = _embedding_bag.apply((weight, per_sample_weights),
                               [weight._data, None if per_sample_weights is None else per_sample_weights._data], {
        "indices": idx, "bags": bags, "mode": _MODES[mode], "padding_idx": pad, "psw_shape": psw_shape,
        "last_to_end": last_to_end, "freq": _freq(idx, num) if scale_grad_by_freq else None})
    # the indices and offsets saved as tensors: changed in place before the backward, PyTorch's error
    fn = out._grad_fn
    if fn is not None and type(fn) is _embedding_bag.node:
        save_extra(fn, "indices", input)
        save_extra(fn, "offsets", offsets, after="indices")
    return out


def _size(t):
    return "torch.Size([" + ", ".join(str(s) for s in t.shape) + "])"


def _type_str(v):
    return "<class 'torch.Tensor'>" if isinstance(v, Tensor) else str(type(v))
