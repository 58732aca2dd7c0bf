"""nn.functional layers: linear, bilinear, dropout, one_hot, embedding,
normalize, cosine_similarity, pairwise_distance (padding is in ``padding``);
and what the activation and loss families share (reduction handling, broadcasting, helpers).

Composite functions (``normalize``, ``linear`` on 3-D input, ``cross_entropy``
with label smoothing, ...) are written as PyTorch's ATen writes them, so the
graph shows the same chain of nodes.  ATen's C++ composites compute
``tensor + number`` through the Scalar overloads, whose nodes Python never
makes (``AddBackward1``, ``SubBackward1``, ``MulBackward1``, ``DivBackward1``,
and ``NormBackward1`` for ``at::norm``): they live here.

The composites use the core ops ``addmm``, ``linalg.vector_norm``, ``clamp_min``,
``xlogy`` and ``masked_fill`` from their families.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .. import dtypes
from .._limits import check_shape
from ..tensor import Tensor, _scalar_name, _wrap_dim, _wrap_dim_no_scalar
from .._cascade import cascade_sum
from ..autograd import graph
from ._argcheck import _raise_parser_error
from ._layout import c_order, iterator_layout
from ._op import Op, export, keep_tensor
from .linalg import addmm
from .matrix import _vector_norm, _vector_norm_fwd, empty_dim_refusal, vector_norm
from .selection import _CPP_NAMES, clamp_min
from .._warn_once import warn as _warn

# ---------------------------------------------------------------------------
# shared helpers (activation and loss families use them too)
# ---------------------------------------------------------------------------

REDUCTIONS = ("none", "mean", "sum")


def reduction_arg(reduction, size_average=None, reduce=None):
    """The reduction string, from ``reduction`` or the legacy ``size_average``/``reduce``: PyTorch's
    ``_Reduction.get_enum`` (strings only: the enum's number is a ValueError too)."""
    if size_average is not None or reduce is not None:
        return legacy_reduction(size_average, reduce)
    if isinstance(reduction, str):
        if reduction in REDUCTIONS:
            return reduction
        if reduction == "elementwise_mean":
            _warn("reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.")
            return "mean"
    raise ValueError(f"{reduction} is not a valid value for reduction")


def aten_reduction(reduction):
    """The torch-level losses' reduction: the enum only (a string fails in PyTorch's parser, whose
    message the public function's wrapper gives); at::Reduction's Mean (1) and Sum (2) reduce, any
    other number leaves the loss unreduced (ATen's apply_loss_reduction)."""
    if isinstance(reduction, Tensor) and reduction.ndim == 0 and reduction.dtype._kind == 1:
        reduction = reduction.item()  # (the parser's int takes a 0-d integral tensor)
    if not isinstance(reduction, numbers.Integral) or isinstance(reduction, bool):
        raise TypeError(f"reduction must be int, not {type(reduction).__name__}")
    if not -2 ** 63 <= reduction < 2 ** 63:
        raise ValueError("Overflow when unpacking long long")
    return {1: "mean", 2: "sum"}.get(int(reduction), "none")


def parse_torch_loss(key, args, tensors):
    """F's call of the torch-level loss ``key`` (its reduction's enum last), after F's own check of the
    reduction: the parser's checks in the order of ``args``, where one of the first ``tensors`` is no
    Tensor or a later one no plain number."""
    if not all(isinstance(a, Tensor) for a in args[:tensors]) \
            or not all(type(a) in (int, float) for a in args[tensors:]):
        from ._argcheck import _raise_parser_error
        _raise_parser_error(key, args, {})


def parse_signature(name, text, args):
    """PyTorch's parser's TypeError for calling ``name`` (printed signature ``text``: a torch._C._nn
    function that F calls, with no public name to generate it from) with ``args``."""
    from ._pyargs import signature_error
    message = signature_error(name, text, args, {})
    if message is not None:
        raise TypeError(message)


def legacy_reduction(size_average, reduce):
    """PyTorch's ``_Reduction.legacy_get_string``, with its deprecation warning."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if size_average and reduce:
        ret = "mean"
    elif reduce:
        ret = "sum"
    else:
        ret = "none"
    _warn(f"size_average and reduce args will be deprecated, please use reduction='{ret}' instead.",
          UserWarning)
    return ret


def apply_reduction(loss, reduction):
    """ATen's ``apply_loss_reduction``: MeanBackward0 / SumBackward0 / nothing."""
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def in_loss_storage(total, count, loss=None):
    """A reduced loss (0-d) as ATen's mse/smooth_l1/soft_margin/binary_cross_entropy return it: reduced into
    the unreduced loss's tensor, whose storage keeps its ``count`` elements (one at least): soft_margin's and
    binary_cross_entropy's the unreduced ``loss`` (in memory order) past element 0, mse's and smooth_l1's
    uninitialised (their meta function allocates the output, the kernel writes the loss elsewhere)."""
    if not isinstance(total, (np.ndarray, np.generic)):  # (lazy data stays lazy)
        return total
    buffer = np.empty(max(count, 1), total.dtype)
    if loss is not None and type(loss) is np.ndarray and loss.size == count:
        buffer[:count] = np.ravel(loss, order="K")
    buffer[0] = total
    return buffer[:1].reshape(())


def reduce_array(a, reduction, dtype):
    """The same on a numpy array (inside one op's forward)."""
    # astype, not np.asarray: a lazy (dask) array stays lazy
    if reduction == "mean" and a.size == 0:  # 0 / 0, without numpy's "Mean of empty slice" warning
        return np.asarray(np.nan, dtype)
    if reduction == "mean" or reduction == "sum":
        total = cascade_sum(a, tuple(range(a.ndim)), False) if a.dtype == dtype else None  # PyTorch's order
        if total is not None:
            return np.asarray(np.true_divide(total, a.size) if reduction == "mean" else total, dtype)
        if reduction == "mean":
            return np.mean(a).astype(dtype, copy=False)
        return np.sum(a).astype(dtype, copy=False)
    return a.astype(dtype, copy=False)


def const(array):
    """A tensor outside the graph (a mask, a count) for a backward formula."""
    return Tensor._make(np.asarray(array))


def broadcast_pair(a, b):
    """``torch.broadcast_tensors(a, b)``: only a tensor whose shape changes is expanded."""
    try:
        shape = np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        from .pointwise import _mismatch_message
        raise RuntimeError(_mismatch_message(a.shape, b.shape)) from None
    return (a if a.shape == shape else a.expand(shape)), (b if b.shape == shape else b.expand(shape))


def size_warning(input, target):
    _warn(
        f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
        "This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.",
        UserWarning)


def check_floating(input, kernel):
    """PyTorch's error for a float-only kernel called on an integer tensor."""
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_scalar_name(input.dtype)}\'')


def check_not_differentiable(tensor, arg, fname):
    """PyTorch refuses an input that requires grad where the op has no derivative for it."""
    from ..autograd import grad_mode

    if tensor is not None and tensor._requires_grad and grad_mode._state["enabled"]:
        raise RuntimeError(
            f"The function '{fname}' is not differentiable with respect to argument '{arg}'. "
            "This input cannot have requires_grad True.")


# ---------------------------------------------------------------------------
# linear
# ---------------------------------------------------------------------------

def _matmul(a, b):
    from .linalg import matmul
    return matmul(a, b)


def _contiguous(t):
    return type(t._data) is not np.ndarray or t._data.flags.c_contiguous


@export(functional=True, torch=False)
def linear(input, weight, bias=None, *, out=None):
    """y = input @ weight.T + bias, dispatched as ATen's ``linear`` does."""
    if out is not None:  # (linear_out: addmm_out for a 2-D input with a bias, else matmul_out then add_)
        from ..autograd import grad_mode
        if grad_mode._state["enabled"] and any(t is not None and t._requires_grad for t in (input, weight, bias, out)):
            raise RuntimeError("linear(): functions with out=... arguments don't support automatic differentiation, "
                               "but one of the arguments requires grad.")
        from . import linalg
        if input.ndim == 2 and bias is not None:
            return linalg.addmm(bias, input, weight.t(), out=out)
        linalg.matmul(input, weight.t(), out=out)
        return out if bias is None else out.add_(bias)
    if not input.ndim or not weight.ndim:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are {input.ndim}D and "
                           f"{weight.ndim}D")
    if weight.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {weight.ndim}D")
    if bias is not None and input.ndim == 2:
        return addmm(bias, input, weight.t())
    # ATen's is_bias_likely_fusable: a bias of one dim other than 1 (bias.squeeze() 1-D), contiguous
    if (bias is not None and input.ndim and (bias.ndim == 1 or sum(n != 1 for n in bias.shape) == 1)
            and _contiguous(bias) and _contiguous(input)):
        # _flatten_nd_linear, one addmm: (*, in) -> (N, in) -> (N, out) -> (*, out)
        flat = input.view(math.prod(input.shape[:-1]), input.shape[-1])
        out = addmm(bias, flat, weight.t())
        return out.view(*input.shape[:-1], out.shape[-1])
    out = _matmul(input, weight.t())
    # (ATen adds the bias in place: the output keeps its shape and dtype, and its version counts the add)
    return out if bias is None else out.add_(bias)


# _trilinear(i1, i2, i3, expand1, expand2, expand3, sumdim): the three inputs, unsqueezed at their
# expand dims, multiplied and summed over sumdim; bilinear is one call (x1 and x2 expanded around
# W, summed over i and j), and each gradient is another call with the output's gradient in its
# input's place (ATen's _trilinear_backward), so double backward records TrilinearBackward0 again.
_BILINEAR = ((1, 3), (0,), (1, 2), (2, 3))
_UNROLL = 1  # ATen's default unroll_dim


def _trilinear_fwd(ctx, a1, a2, a3, expand1, expand2, expand3, sumdim):
    if (expand1, expand2, expand3, sumdim) == _BILINEAR and a1.size and a2.size and a3.size:
        # x1 with W over i first, then that with x2 over j (the order decides where an inf
        # meets a product of the other sign and gives NaN); ATen adds the result into zeros
        if np.isfinite(a1).all() and np.isfinite(a2).all() and np.isfinite(a3).all():
            return np.matmul(np.tensordot(a1, a2, axes=([1], [1])), a3[:, :, None])[..., 0] + a1.dtype.type(0)
        with np.errstate(invalid="ignore", over="ignore"):  # (an inf or a NaN: every product made, as MKL's bmm
            t = (a1[:, None, :, None] * a2[None]).sum(2)   # makes them, so an inf times a zero is NaN; numpy's
            return (t * a3[:, None, :]).sum(-1) + a1.dtype.type(0)  # BLAS path left such terms out)
    total = a1.ndim + len(expand1)
    arrays, expands = (a1, a2, a3), (expand1, expand2, expand3)
    labels = [[i for i in range(total) if i not in e] for e in expands]  # each input's dims
    size = [0] * total
    for a, dims in zip(arrays, labels):
        for i, n in zip(dims, a.shape):
            size[i] = n  # (the last input that has the dim gives its size, as ATen)
    kept = [i for i in range(total) if i not in sumdim]
    shape = tuple(size[i] for i in kept)
    if not (a1.size and a2.size and a3.size) or 0 in shape:
        return np.zeros(shape, a1.dtype)
    # i1 with i2 over the summed dims i3 lacks, then with i3 over the rest (the unrolled dim last)
    sum12 = {i for i in sumdim if i in expand3 and i != _UNROLL}
    have12 = sorted(set(labels[0]) | set(labels[1]))
    buf_dims = [i for i in have12 if i not in sum12]
    buf = np.einsum(a1, labels[0], a2, labels[1], buf_dims, optimize=True)
    out_dims = [i for i in sorted(set(buf_dims) | set(labels[2])) if i not in sumdim or i == _UNROLL]
    out = np.einsum(buf, buf_dims, a3, labels[2], out_dims, optimize=True)
    if _UNROLL in sumdim and _UNROLL in out_dims:  # the unrolled slices added one after the other
        axis = out_dims.index(_UNROLL)
        acc = np.zeros(out.shape[:axis] + out.shape[axis + 1:], out.dtype)
        for k in range(out.shape[axis]):
            acc += np.take(out, k, axis=axis)
        out = acc
    # (added into ATen's zeros(output_size): no -0.0, laid out C-contiguous whatever the einsum's order)
    return np.ascontiguousarray(np.asarray(out, a1.dtype).reshape(shape) + a1.dtype.type(0))


_trilinear_op = Op("TrilinearBackward0", _trilinear_fwd, inputs=("i1", "i2", "i3"), saves=("i1", "i2", "i3"),
                   jvp="multilinear")


def _trilinear(i1, i2, i3, expand1, expand2, expand3, sumdim):
    return _trilinear_op(i1, i2, i3, expand1=tuple(expand1), expand2=tuple(expand2), expand3=tuple(expand3),
                         sumdim=tuple(sumdim))


@_trilinear_op.derivative
def _(ctx, grad):
    # _trilinear_backward: the output's gradient takes each input's place, expand and sum dims swapped
    x1, x2, x3 = ctx.i1, ctx.i2, ctx.i3
    e1, e2, e3, s = ctx.expand1, ctx.expand2, ctx.expand3, ctx.sumdim
    meta = ctx._input_meta
    g1 = _trilinear(grad, x2, x3, s, e2, e3, e1) if meta[0] is not None else None
    g2 = _trilinear(x1, grad, x3, e1, s, e3, e2) if meta[1] is not None else None
    g3 = _trilinear(x1, x2, grad, e1, e2, s, e3) if meta[2] is not None else None
    return g1, g2, g3


def _size(t, dim):
    """t.size(dim) with ATen's errors (a 0-d tensor has no dim)."""
    return t.shape[_wrap_dim_no_scalar(dim, t.ndim)]


@export(functional=True)
def bilinear(input1, input2, weight, bias=None):
    """y = x1^T W x2 + b over the last dims (ATen: views around one _trilinear)."""
    if not (input1.dtype is input2.dtype is weight.dtype) or (bias is not None and bias.dtype is not input1.dtype):
        names = [("input1", input1), ("input2", input2), ("weight", weight)] + ([("bias", bias)] * (bias is not None))
        got = ", ".join(f"{name}: {_CPP_NAMES[t.dtype.name]}" for name, t in names)
        raise RuntimeError(f"All tensors must have the same dtype, got {got}")
    if input1.ndim != input2.ndim:
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.ndim} and {input2.ndim}")
    for i in range(input1.ndim - 1):
        if input1.shape[i] != input2.shape[i]:
            raise RuntimeError(
                f"bilinear(): input batch dimensions do not match at dim {i}: got {input1.shape[i]} and "
                f"{input2.shape[i]}")
    # ATen's checks read weight.size(k) before the other side's size (its errors for a tensor of too few dims)
    w1, n1 = _size(weight, 1), _size(input1, input1.ndim - 1)
    if n1 != w1:
        raise RuntimeError(f"bilinear(): input1 size does not match weight size: got {n1} but expected {w1}")
    w2, n2 = _size(weight, 2), _size(input2, input2.ndim - 1)
    if n2 != w2:
        raise RuntimeError(f"bilinear(): input2 size does not match weight size: got {n2} but expected {w2}")
    if bias is not None:
        w0, nb = _size(weight, 0), _size(bias, 0)
        if nb != w0:
            raise RuntimeError(f"bilinear(): bias size does not match weight size: got {nb} but expected {w0}")
    out_shape = tuple(input1.shape[:-1]) + (weight.shape[0],)
    a = input1.reshape(-1, input1.shape[-1])
    b = input2.reshape(-1, input2.shape[-1])
    if input1.dtype is dtypes.bool_ and a.shape[0] and weight.shape[0]:  # (_trilinear's bmm; none when empty)
        raise NotImplementedError('"bmm" not implemented for \'Bool\'')
    out = _trilinear(a, weight, b, *_BILINEAR)
    out = out.reshape(*out_shape)
    return out + bias if bias is not None else out


# ---------------------------------------------------------------------------
# one_hot, embedding
# ---------------------------------------------------------------------------

@export(functional=True, torch=False)
def one_hot(tensor, num_classes=-1):
    """Integer class indices -> int64 one-hot rows (no gradient)."""
    if tensor.dtype is not dtypes.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    a = tensor._data
    if a.size == 0:
        if num_classes == -1:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        check_shape(a.shape + (num_classes,))
        return Tensor._make(np.zeros(a.shape + (num_classes,), np.int64))
    if a.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        num_classes = int(a.max()) + 1
    elif a.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    check_shape(a.shape + (num_classes,))
    # (one_hot fills a fresh zeros tensor: C order, whatever the indices' layout)
    return Tensor._make(c_order((a[..., None] == np.arange(num_classes)).astype(np.int64)))


def _embedding_fwd(ctx, w, indices, padding_idx, scale_grad_by_freq):
    return w[indices]


_embedding = Op("EmbeddingBackward0", _embedding_fwd, inputs=("weight",), jvp="linear",
                keeps={"indices": "indices"})


@_embedding.derivative
def _(ctx, grad):
    idx = ctx.indices  # (the saved tensor; the call's array where none was saved)
    return _embedding_backward(grad, indices=idx._data.astype(np.int64) if type(idx) is Tensor else idx,
                               num_weights=ctx.input_shape[0],
                               padding_idx=ctx.padding_idx, scale_grad_by_freq=ctx.scale_grad_by_freq)


def _embedding_backward_fwd(ctx, g, indices, num_weights, padding_idx, scale_grad_by_freq):
    """embedding_dense_backward: each row's gradient added into its weight row (scaled by 1 / its count
    with scale_grad_by_freq; none for padding_idx)."""
    if scale_grad_by_freq:
        values, inverse, counts = np.unique(indices.ravel(), return_inverse=True, return_counts=True)
        g = g * (1.0 / counts[inverse]).reshape(indices.shape).astype(g.dtype)[..., None]
    if padding_idx >= 0:  # (the kernel skips those rows: an inf or NaN there is not read, no inf * 0)
        g = np.where((indices == padding_idx)[..., None], g.dtype.type(0), g)
    out = np.zeros((num_weights,) + g.shape[indices.ndim:], g.dtype)
    np.add.at(out, indices, g)
    return out


# embedding_dense_backward is an op of its own (EmbeddingDenseBackwardBackward0)
_embedding_backward = Op("EmbeddingDenseBackwardBackward0", _embedding_backward_fwd, inputs=("grad_output",),
                         internal=True, jvp="linear", keeps={"indices": "indices"})


@_embedding_backward.derivative
def _(ctx, grad):
    # embedding_dense_double_backward: the rows picked again (the frequency scale is not applied again,
    # as PyTorch's note says; padding rows zero)
    from .scatter_gather import index_select
    idx = ctx.indices
    gg = index_select(grad, 0, Tensor._make(idx.reshape(-1)))
    if ctx.padding_idx >= 0:
        gg = gg.masked_fill(Tensor._make((idx == ctx.padding_idx).reshape(-1, 1)), 0)
    return gg.view(idx.shape + (-1,))


def _check_indices(indices, fname, position=1):
    if indices.dtype not in (dtypes.int64, dtypes.int32):
        from .._cpp_print import cpp_type_name
        # c10's toString of the tensor's type: torch.HalfTensor ..., and CPUBoolType for bool (sic)
        legacy = cpp_type_name(indices.dtype)
        raise RuntimeError(
            f"Expected tensor for argument #{position} 'indices' to have one of the following scalar types: Long, Int; "
            f"but got {legacy} instead (while checking arguments for {fname})")


def _embedding_impl(weight, indices, padding_idx, scale_grad_by_freq):
    if weight.ndim == 0 and weight.requires_grad and graph._state["enabled"]:
        weight.size(0)  # (autograd keeps weight.size(0) for the backward before the op runs: its IndexError)
    if weight.ndim != 2:  # (ATen's embedding checks the weight first)
        raise RuntimeError("'weight' must be 2-D")
    _check_indices(indices, "embedding")
    idx = indices._data.astype(np.int64)
    n = weight.shape[0]
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise IndexError("index out of range in self")
    check_shape(idx.shape + weight._data.shape[1:])
    out = _embedding(weight, indices=idx, padding_idx=padding_idx, scale_grad_by_freq=scale_grad_by_freq)
    return keep_tensor(out, _embedding, "indices", indices)  # (saved: changed in place, PyTorch's error)


@export(functional=True, torch=False)
def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    """Rows of ``weight`` picked by the indices ``input`` (EmbeddingBackward0), in the order of PyTorch's
    Python front: padding_idx against weight.size(0) (an AttributeError for a number), input.contiguous()
    and the renorm with max_norm, then torch.embedding's parser."""
    if padding_idx is not None:
        if padding_idx > 0:
            if padding_idx >= weight.size(0):
                raise AssertionError("Padding_idx must be within num_embeddings")
        elif padding_idx < 0:
            if padding_idx < -weight.size(0):
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    if max_norm is not None:
        input = input.contiguous()
        _embedding_renorm_(weight.detach(), input, max_norm, norm_type)
    args = (weight, input, padding_idx, scale_grad_by_freq, sparse)
    try:
        return _embedding_checked(*args)
    except Exception:  # torch.embedding's parser refuses first
        _raise_parser_error("torch.embedding", args, {})
        raise


_RENORM = "(Tensor input, Tensor indices, float max_norm, float norm_type)"


def _embedding_renorm_(weight, indices, max_norm, norm_type):
    """Rescale, in place and outside the graph, the looked-up rows whose norm exceeds max_norm."""
    from ._pyargs import signature_error

    message = signature_error("embedding_renorm_", _RENORM, (weight, indices, max_norm, norm_type), {})
    if message is not None:
        raise TypeError(message)
    max_norm, norm_type = float(max_norm), float(norm_type)
    if weight.ndim != 2:  # (checkDim, then checkScalarTypes)
        raise RuntimeError(f"Expected 2-dimensional tensor, but got {weight.ndim}-dimensional tensor for argument #1 "
                           "'self' (while checking arguments for embedding_renorm_)")
    _check_indices(indices, "embedding_renorm_", 2)
    w = weight._data
    rows = np.unique(indices._data.ravel())
    for r in rows:
        norm = np.sum(np.abs(w[r].astype(np.float64)) ** norm_type) ** (1.0 / norm_type)
        if norm > max_norm:
            w[r] *= w.dtype.type(max_norm / (norm + 1e-7))
    weight._vc[0] += 1


def _embedding_checked(weight, indices, padding_idx, scale_grad_by_freq, sparse):
    for value, kind in ((padding_idx, int), (scale_grad_by_freq, bool), (sparse, bool)):
        if type(value) is not kind:
            from ._pyargs import check

            if not check(kind.__name__, value):  # (the parser's message replaces this one)
                raise TypeError(f"embedding(): expected {kind.__name__}, got {type(value).__name__}")
    if sparse:
        raise RuntimeError("agrad has no sparse tensors; use embedding(..., sparse=False)")
    return _embedding_impl(weight, indices, int(padding_idx), bool(scale_grad_by_freq))


@export("embedding")
def torch_embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    return _embedding_checked(weight, indices, padding_idx, scale_grad_by_freq, sparse)


# ---------------------------------------------------------------------------
# normalize, cosine_similarity
# ---------------------------------------------------------------------------

@export(functional=True, torch=False)
def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """input / max(||input||_p, eps) along ``dim``, as torch.nn.functional.normalize writes it."""
    norm = vector_norm(input, p, dim, keepdim=True)
    if type(eps) is not float:  # (input.norm(p, dim, keepdim=True).clamp_min(eps): its parse)
        _raise_parser_error("method.clamp_min", (input, eps), {})
    denom = clamp_min(norm, eps).expand_as(input)
    if out is not None:
        from .pointwise import div
        return div(input, denom, out=out)
    return input / denom


def _cosine_similarity(x1, x2, dim=1, eps=1e-8):
    d = dtypes.result_type(x1, x2)
    if not d.is_floating_point:
        raise RuntimeError(
            f"expected common dtype to be floating point, yet common dtype is {_scalar_name(d)}")
    if not eps >= 0:
        raise RuntimeError(f"eps must be non-negative, got: {eps:g}")
    if not x1.dtype.is_floating_point:
        x1 = x1.to(d)
    if not x2.dtype.is_floating_point:
        x2 = x2.to(d)
    if x1.shape != x2.shape:
        try:
            shape = np.broadcast_shapes(x1.shape, x2.shape)
        except ValueError:
            from .pointwise import _mismatch_message
            raise RuntimeError(_mismatch_message(x1.shape, x2.shape)) from None
        x1, x2 = x1.expand(shape), x2.expand(shape)
    n1 = vector_norm(x1, 2, dim, keepdim=True).clone()
    n2 = vector_norm(x2, 2, dim, keepdim=True).clone()
    for n in (n1, n2):  # clamp_min_ under no_grad: changes the data, bumps the version
        np.maximum(n._data, n._data.dtype.type(eps), out=n._data)
        n._vc[0] += 1
    # (x1 / x1_norm) * (x2 / x2_norm) in C++: the right operand first (the nodes' order)
    right = x2 / n2
    return ((x1 / n1) * right).sum(dim)


@export(functional=True)
def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """Cosine of the angle between x1 and x2 along ``dim``."""
    return _cosine_similarity(x1, x2, dim, eps)


@export(functional=True)
def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """||x1 - x2 + eps||_p along the last dim (ATen: at::norm, NormBackward1)."""
    diff = x1 - x2
    if not diff.dtype.is_floating_point:  # an integer difference + eps promotes to the default dtype
        diff = diff.to(dtypes.get_default_dtype())
    diff = add_scalar(diff, eps)
    # at::norm(diff, p, output_dim - 1, keepdim): for 0-d inputs a dim too (the 0-d case of vector_norm's)
    axes = _norm_axes(-1, diff.ndim) if diff.ndim else (0,)
    p = float(p)
    if diff.ndim and diff.shape[-1] == 0 and (p < 0 or math.isinf(p)):  # (at::norm's vector_norm check)
        raise empty_dim_refusal(p, diff.ndim - 1)
    return _norm1(diff, ord=p, axes=axes, keepdim=keepdim, dtype=diff._data.dtype)


def _norm_axes(dim, ndim):
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, (list, tuple)):
        return tuple(sorted(_wrap_dim(d, ndim) for d in dim)) if len(dim) else tuple(range(ndim))
    return (_wrap_dim(dim, ndim),)


# at::norm(self, p, dim, keepdim) as ATen's composites call it: vector_norm's maths, its own node
_norm1 = Op("NormBackward1", _vector_norm_fwd, saves=("self", "result"), contiguous=True)
_norm1.derivative(_vector_norm._formula)


# ---------------------------------------------------------------------------
# the Scalar overloads of ATen's composites
# ---------------------------------------------------------------------------

def _scalar_fwd(np_fn):
    def fwd(ctx, a, other):
        if a.dtype.kind in "biu" and (isinstance(other, (float, np.floating)) or np_fn is np.true_divide):
            a = a.astype(dtypes.get_default_dtype().numpy)  # an integer tensor and a float: PyTorch's promotion
        # (TensorIterator's layout: the number an operand, so no fast set-up; a's strides sorted, those of
        # its dims of one element too)
        if a.dtype == np.float16:  # (the kernels' float math with the number read as float: mul, div)
            from .pointwise import _scalar_math
            return iterator_layout(np.asarray(_scalar_math(np_fn, a, other)), (a, 0))
        return iterator_layout(np.asarray(np_fn(a, a.dtype.type(other))), (a, 0))

    return fwd


_add_scalar = Op("AddBackward1", _scalar_fwd(np.add), jvp="element_wise")
_add_scalar.derivative(lambda ctx, grad: grad)
_sub_scalar = Op("SubBackward1", _scalar_fwd(np.subtract), internal=True, jvp="element_wise")  # only deep inside a loss
_sub_scalar.derivative(lambda ctx, grad: grad)
_mul_scalar = Op("MulBackward1", _scalar_fwd(np.multiply), jvp="linear")
_mul_scalar.derivative(lambda ctx, grad: grad * ctx.other)
_div_scalar = Op("DivBackward1", _scalar_fwd(np.true_divide), jvp="linear")
_div_scalar.derivative(lambda ctx, grad: grad / ctx.other)


def add_scalar(x, other):
    """``x + other`` as ATen's C++ writes it: AddBackward1."""
    return _add_scalar(x, other=other)


def sub_scalar(x, other):
    return _sub_scalar(x, other=other)


def mul_scalar(x, other):
    return _mul_scalar(x, other=other)


def div_scalar(x, other):
    return _div_scalar(x, other=other)
