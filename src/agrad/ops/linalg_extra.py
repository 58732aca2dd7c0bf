"""More linear algebra: outer, addmm/addmv/addbmm/baddbmm, einsum, tensordot, kron,
trace, diagonal/diag/diag_embed, tril/triu, cross, norms, det, slogdet/logdet, inv, solve.

Forwards are numpy; backwards are PyTorch's formulas (``derivatives.yaml``,
``FunctionsManual.cpp``) written with agrad ops, so they differentiate again.
einsum, tensordot and kron are composites built the way ATen builds them
(permute / reshape / bmm / mul), so their graphs show PyTorch's nodes.
"""

from __future__ import annotations

import collections
import numbers
import warnings

import numpy as np

from .. import dtypes
from ..autograd import grad_mode
from ..tensor import Tensor, _scalar_name, _wrap_dim
from ._op import FUNCTIONS, LINALG, Op, export, finish_out, inplace, method
from .linalg import bmm, dot, matmul, mm
from .reduction import dims as _dims
from .shape import _unsafe_view, _view, _viewable

INF = float("inf")


class _LinAlgError(RuntimeError):
    """PyTorch's ``torch.linalg.LinAlgError`` (``torch._C._LinAlgError``)."""


_LinAlgError.__module__ = "torch._C"
export("LinAlgError", linalg=True, torch=False)(_LinAlgError)


# helpers ------------------------------------------------------------------------------

def _fmt(shape):
    return "[" + ", ".join(str(s) for s in shape) + "]"


def _const(array):
    return Tensor._make(np.asarray(array))


def _unsqueeze2(t):
    return t.unsqueeze(-1).unsqueeze(-1)


def _require_float(t, who):
    if not t.dtype.is_floating_point:
        raise RuntimeError(f"{who}: Expected a floating point or complex tensor as input. Got {_scalar_name(t.dtype)}")


def _require_square(t, who):
    if t.ndim < 2:
        raise RuntimeError(f"{who}: The input tensor A must have at least 2 dimensions.")
    n, m = t._data.shape[-2:]
    if n != m:
        raise RuntimeError(f"{who}: A must be batches of square matrices, but they are {n} by {m} matrices")


def _same_dtype(a, b):
    if a.dtype is not b.dtype:
        from .linalg import _c
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {_c(a)} != {_c(b)}")


def _check_expand(self, shape):
    """PyTorch's expand error when ``self`` does not broadcast to the result ``shape``."""
    Tensor._make(self._data).expand(shape)


def _scaled(t, s):
    """maybe_multiply: t * s unless s is 1."""
    return t if s == 1 else t * s


# outer / ger ----------------------------------------------------------------------------

@export("outer", "ger", method=True)
def outer(input, vec2, *, out=None):
    if input.ndim != 1:
        raise RuntimeError(f"outer: Expected 1-D argument self, but got {input.ndim}-D")
    if vec2.ndim != 1:
        raise RuntimeError(f"outer: Expected 1-D argument vec2, but got {vec2.ndim}-D")
    return finish_out("outer", input.reshape(input._data.shape[0], 1) * vec2, out)


def _vecdot(x, y, *, dim=-1, out=None):
    """torch.linalg.vecdot: (x * y).sum(dim) (real tensors: no conjugation)."""
    if x.dtype is not y.dtype:
        raise RuntimeError(
            f"linalg.vecdot: Expected x and y to have the same dtype, but found x of type {_scalar_name(x.dtype)} "
            f"and y of type {_scalar_name(y.dtype)} instead")
    return finish_out("linalg_vecdot", (x * y).sum(dim), out)


export("vecdot", linalg=True, torch=False)(_vecdot)
export("matmul", linalg=True, torch=False)(matmul)


# addmm / addmv / addbmm / baddbmm ----------------------------------------------------------

def _add_scaled(self, prod, beta, alpha):
    """beta * self + alpha * prod, with self ignored when beta is 0 (as BLAS does)."""
    out = prod * alpha if alpha != 1 else prod
    if beta != 0:
        out = out + (self * beta if beta != 1 else self)
    return np.asarray(out, prod.dtype)


_addmm = Op("AddmmBackward0",
            lambda ctx, s, a, b, beta, alpha: _add_scaled(s, a @ b, beta, alpha),
            inputs=("self", "mat1", "mat2"), saves=("mat1", "mat2"),
            saves_for={"mat1": (2,), "mat2": (1,)})


@_addmm.derivative
def _(ctx, grad):
    meta = ctx._input_meta
    g_self = _scaled(grad, ctx.beta) if meta[0] is not None else None
    g1 = _scaled(grad.mm(ctx.mat2.t()), ctx.alpha) if meta[1] is not None else None
    g2 = _scaled(ctx.mat1.t().mm(grad), ctx.alpha) if meta[2] is not None else None
    return g_self, g1, g2


@export(method=True)
def addmm(input, mat1, mat2, *, beta=1, alpha=1, out=None):
    if mat1.ndim != 2:
        raise RuntimeError(f"mat1 must be a matrix, got {mat1.ndim}-D tensor")
    if mat2.ndim != 2:
        raise RuntimeError(f"mat2 must be a matrix, got {mat2.ndim}-D tensor")
    (n, m), (k, p) = mat1._data.shape, mat2._data.shape
    if m != k:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{m} and {k}x{p})")
    _same_dtype(mat1, mat2)
    _check_expand(input, (n, p))
    result = _addmm.apply((input, mat1, mat2), (input._data, mat1._data, mat2._data), {"beta": beta, "alpha": alpha})
    return finish_out("addmm", result, out)


_addmv = Op("AddmvBackward0",
            lambda ctx, s, a, v, beta, alpha: _add_scaled(s, a @ v, beta, alpha),
            inputs=("self", "mat", "vec"), saves=("mat", "vec"),
            saves_for={"mat": (2,), "vec": (1,)})


@_addmv.derivative
def _(ctx, grad):
    meta = ctx._input_meta
    g_self = _scaled(grad, ctx.beta) if meta[0] is not None else None
    g_mat = _scaled(grad.unsqueeze(1) * ctx.vec, ctx.alpha) if meta[1] is not None else None
    g_vec = _scaled(ctx.mat.t().mv(grad), ctx.alpha) if meta[2] is not None else None
    return g_self, g_mat, g_vec


@export(method=True)
def addmv(input, mat, vec, *, beta=1, alpha=1, out=None):
    if mat.ndim != 2 or vec.ndim != 1 or input.ndim > 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {input.ndim}, {mat.ndim}, {vec.ndim}")
    n, m = mat._data.shape
    size = input._data.shape[0] if input.ndim else 1
    if m != vec._data.shape[0] or not (size == n or size == 1):
        raise RuntimeError(f"size mismatch, got input ({size}), mat ({n}x{m}), vec ({vec._data.shape[0]})")
    result = _addmv.apply((input, mat, vec), (input._data, mat._data, vec._data), {"beta": beta, "alpha": alpha})
    return finish_out("addmv", result, out)


_baddbmm = Op("BaddbmmBackward0",
              lambda ctx, s, a, b, beta, alpha: _add_scaled(s, np.matmul(a, b), beta, alpha),
              inputs=("self", "batch1", "batch2"), saves=("batch1", "batch2"),
              saves_for={"batch1": (2,), "batch2": (1,)})


@_baddbmm.derivative
def _(ctx, grad):
    meta = ctx._input_meta
    g_self = _scaled(grad, ctx.beta) if meta[0] is not None else None
    g1 = _scaled(grad.bmm(ctx.batch2.transpose(1, 2)), ctx.alpha) if meta[1] is not None else None
    g2 = _scaled(ctx.batch1.transpose(1, 2).bmm(grad), ctx.alpha) if meta[2] is not None else None
    return g_self, g1, g2


def _check_batches(batch1, batch2):
    if batch1.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if batch2.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")


@export(method=True)
def baddbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    _check_batches(batch1, batch2)
    b, n, m = batch1._data.shape
    if batch2._data.shape[:2] != (b, m):
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{b}, {m}] but got: "
            f"[{batch2._data.shape[0]}, {batch2._data.shape[1]}].")
    _check_expand(input, (b, n, batch2._data.shape[2]))
    result = _baddbmm.apply((input, batch1, batch2), (input._data, batch1._data, batch2._data),
                            {"beta": beta, "alpha": alpha})
    return finish_out("baddbmm", result, out)


_addbmm = Op("AddbmmBackward0",
             lambda ctx, s, a, b, beta, alpha: _add_scaled(s, np.matmul(a, b).sum(0), beta, alpha),
             inputs=("self", "batch1", "batch2"), saves=("batch1", "batch2"),
              saves_for={"batch1": (2,), "batch2": (1,)})


@_addbmm.derivative
def _(ctx, grad):
    meta = ctx._input_meta
    g_self = _scaled(grad, ctx.beta) if meta[0] is not None else None
    g1 = g2 = None
    if meta[1] is not None:
        b2 = ctx.batch2
        g = grad.unsqueeze(0).expand((b2.shape[0],) + tuple(grad.shape))
        g1 = _scaled(g.bmm(b2.transpose(1, 2)), ctx.alpha)
    if meta[2] is not None:
        b1 = ctx.batch1
        g = grad.unsqueeze(0).expand((b1.shape[0],) + tuple(grad.shape))
        g2 = _scaled(b1.transpose(1, 2).bmm(g), ctx.alpha)
    return g_self, g1, g2


@export(method=True)
def addbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    _check_batches(batch1, batch2)
    if batch1._data.shape[0] != batch2._data.shape[0]:
        raise RuntimeError(
            f"batch1 and batch2 must have same number of batches, got {batch1._data.shape[0]} and "
            f"{batch2._data.shape[0]}")
    (_, n, m), (_, k, p) = batch1._data.shape, batch2._data.shape
    if m != k:
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({n}x{m} and {k}x{p})")
    _check_expand(input, (n, p))
    result = _addbmm.apply((input, batch1, batch2), (input._data, batch1._data, batch2._data),
                           {"beta": beta, "alpha": alpha})
    return finish_out("addbmm", result, out)


for _fn in (addmm, addmv, baddbmm, addbmm):
    method(_fn.__name__ + "_")(inplace(_fn))


# einsum (ATen's algorithm: align operands, then contract pairwise with bmm) ------------------

_ELLIPSIS = 52


def _subscript(c):
    return ord(c) - ord("A") if c.isupper() else ord(c) - ord("a") + 26


def _label(s):
    return chr(s + ord("A")) if s < 26 else chr(s - 26 + ord("a"))


def _sumproduct_pair(left, right, sum_dims):
    """(left * right).sum(sum_dims, keepdim=True) as permute -> reshape -> bmm -> view -> permute."""
    if not sum_dims:
        return left * right
    dim = left.ndim
    summed = set(sum_dims)
    lro, lo, ro = [], [], []
    lro_size = lo_size = ro_size = sum_size = 1
    for i in range(dim):
        sl, sr = left.shape[i] != 1, right.shape[i] != 1
        if i in summed:
            if sl and sr:
                if left.shape[i] != right.shape[i]:
                    raise RuntimeError("non-broadcast dimensions must match")
                sum_size *= left.shape[i]
            elif sl:
                left = left.sum(i, keepdim=True)
            elif sr:
                right = right.sum(i, keepdim=True)
        elif sl and sr:
            if left.shape[i] != right.shape[i]:
                raise RuntimeError("non-broadcast dimensions must match")
            lro.append(i)
            lro_size *= left.shape[i]
        elif sl:
            lo.append(i)
            lo_size *= left.shape[i]
        else:
            ro.append(i)
            ro_size *= right.shape[i]
    out_size = ([left.shape[d] for d in lro] + [left.shape[d] for d in lo] + [1] * len(sum_dims)
                + [right.shape[d] for d in ro])
    lperm = lro + lo + list(sum_dims) + ro
    rperm = lro + list(sum_dims) + ro + lo
    operm = [0] * len(out_size)
    for i, d in enumerate(lro + lo + list(sum_dims) + ro):
        operm[d] = i
    left = left.permute(lperm).reshape(lro_size, lo_size, sum_size)
    right = right.permute(rperm).reshape(lro_size, sum_size, ro_size)
    return bmm(left, right).view(out_size).permute(operm)


def _parse_ellipsis(text, i, message):
    """Index of the last '.' of an ellipsis starting at ``i``; PyTorch's error if it is not one."""
    if not (i + 2 < len(text) and text[i + 1] == "." and text[i + 2] == "."):
        raise RuntimeError(message)
    return i + 2


@export()
def einsum(equation, *operands):
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands:
        raise ValueError("einsum(): must specify the equation string and at least one operand, or at least one "
                         "operand and its subscripts list")
    num_ops = len(operands)
    arrow = equation.find("->")
    lhs = equation if arrow < 0 else equation[:arrow]

    op_labels = [[] for _ in range(num_ops)]
    ell_in_input = False
    cur = 0
    i = 0
    while i < len(lhs):
        c = lhs[i]
        if c == " ":
            pass
        elif c == ".":
            if ell_in_input:
                raise RuntimeError(f"einsum(): found '.' for operand {cur} for which an ellipsis was already found")
            i = _parse_ellipsis(lhs, i, f"einsum(): found '.' for operand {cur} that is not part of any ellipsis")
            op_labels[cur].append(_ELLIPSIS)
            ell_in_input = True
        elif c == ",":
            cur += 1
            if cur >= num_ops:
                raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
            ell_in_input = False
        else:
            if not (c.isascii() and c.isalpha()):
                raise RuntimeError(
                    f"einsum(): invalid subscript given at index {i} in the equation string, subscripts must be in "
                    "[a-zA-Z]")
            op_labels[cur].append(_subscript(c))
        i += 1
    if cur != num_ops - 1:
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")

    label_count = [0] * 52
    ell_num_dim = 0
    for k, op in enumerate(operands):
        nlabels = len(op_labels[k])
        has_ell = False
        for s in op_labels[k]:
            if s == _ELLIPSIS:
                nlabels -= 1
                has_ell = True
                ell_num_dim = max(ell_num_dim, op.ndim - nlabels)
            else:
                label_count[s] += 1
        if not (nlabels <= op.ndim if has_ell else nlabels == op.ndim):
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({nlabels}) "
                + ("is more than the number of dimensions (" if has_ell else "does not match the number of dimensions (")
                + f"{op.ndim}) for operand {k}" + ("" if has_ell else " and no ellipsis was given"))

    label_perm_index = [-1] * 52
    perm_index = 0
    ell_index = 0
    ell_in_output = False
    if arrow < 0:
        perm_index = ell_num_dim
        ell_in_output = True
        for s in range(52):
            if label_count[s] == 1:
                label_perm_index[s] = perm_index
                perm_index += 1
    else:
        rhs = equation[arrow + 2:]
        i = 0
        while i < len(rhs):
            c = rhs[i]
            if c == " ":
                pass
            elif c == ".":
                if ell_in_output:
                    raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) was already found")
                i = _parse_ellipsis(rhs, i, "einsum(): found '.' for output that is not part of any ellipsis (...)")
                ell_index = perm_index
                perm_index += ell_num_dim
                ell_in_output = True
            else:
                if not (c.isascii() and c.isalpha()):
                    raise RuntimeError(
                        f"einsum(): invalid subscript given at index {len(lhs) + 2 + i} in the equation string, "
                        "subscripts must be in [a-zA-Z]")
                s = _subscript(c)
                if not (label_count[s] > 0 and label_perm_index[s] == -1):
                    raise RuntimeError(
                        f"einsum(): output subscript {c}"
                        + (" appears more than once in the output" if label_perm_index[s] > -1
                           else " does not appear in the equation for any input operand"))
                label_perm_index[s] = perm_index
                perm_index += 1
            i += 1
    out_num_dim = perm_index
    if not ell_in_output:
        ell_index = perm_index
        perm_index += ell_num_dim
    for s in range(52):
        if label_count[s] > 0 and label_perm_index[s] == -1:
            label_perm_index[s] = perm_index
            perm_index += 1

    # align every operand to the dims out_dims + contraction dims
    label_size = [1] * 52
    ell_sizes = [1] * ell_num_dim
    dim_counts = [0] * perm_index
    ops = []
    for k, original in enumerate(operands):
        op = original
        permutation = [-1] * perm_index
        dim = 0
        for s in op_labels[k]:
            if s == _ELLIPSIS:
                ndim = original.ndim - (len(op_labels[k]) - 1)
                for j in range(ell_num_dim - ndim, ell_num_dim):
                    size = op.shape[dim]
                    if size != 1:
                        if not (ell_sizes[j] == 1 or ell_sizes[j] == size):
                            raise RuntimeError(
                                f"einsum(): dimension {dim} covered by ellipsis in operand {k}has size {size} which "
                                f"does not broadcast with previously seen ellipsis with size {ell_sizes[j]} for the "
                                "respective dimension")
                        ell_sizes[j] = size
                        dim_counts[ell_index + j] += 1
                    permutation[ell_index + j] = dim
                    dim += 1
            elif permutation[label_perm_index[s]] == -1:
                size = op.shape[dim]
                if size != 1:
                    if not (label_size[s] == 1 or label_size[s] == size):
                        raise RuntimeError(
                            f"einsum(): subscript {_label(s)} has size {size} for operand {k} which does not "
                            f"broadcast with previously seen size {label_size[s]}")
                    label_size[s] = size
                    dim_counts[label_perm_index[s]] += 1
                permutation[label_perm_index[s]] = dim
                dim += 1
            else:
                prev = permutation[label_perm_index[s]]
                if op.shape[dim] != op.shape[prev]:
                    raise RuntimeError(
                        f"einsum(): subscript {_label(s)} is repeated for operand {k} but the sizes don't match, "
                        f"{op.shape[dim]} != {op.shape[prev]}")
                op = diagonal(op, 0, prev, dim).movedim(-1, prev)
        for p in range(perm_index):
            if permutation[p] == -1:
                op = op.unsqueeze(dim)
                permutation[p] = dim
                dim += 1
        ops.append(op.permute(permutation))

    # contract left to right
    while len(ops) > 1:
        a, b = ops[0], ops[1]
        ops = ops[2:]
        sum_dims, a_dims, b_dims = [], [], []
        for dim in range(out_num_dim, perm_index):
            if a.shape[dim] != 1 and b.shape[dim] != 1:
                dim_counts[dim] -= 1
                if dim_counts[dim] == 1:
                    sum_dims.append(dim)
                    dim_counts[dim] = 0
            elif dim_counts[dim] == 1:
                if a.shape[dim] != 1:
                    a_dims.append(dim)
                    dim_counts[dim] = 0
                elif b.shape[dim] != 1:
                    b_dims.append(dim)
                    dim_counts[dim] = 0
        if a_dims:
            a = a.sum(a_dims, keepdim=True)
        if b_dims:
            b = b.sum(b_dims, keepdim=True)
        ops.insert(0, _sumproduct_pair(a, b, sum_dims))

    result = ops[0]
    if perm_index - out_num_dim > 0:
        if num_ops > 1:
            return result.view(list(result.shape[:out_num_dim]))
        return result.sum(list(range(out_num_dim, perm_index)))
    return result


# tensordot / kron --------------------------------------------------------------------------

@export()
def tensordot(a, b, dims=2, out=None):
    if isinstance(dims, Tensor):
        dims = dims.tolist()
    if isinstance(dims, (list, tuple)):
        if len(dims) != 2:
            raise RuntimeError(f"The `dims` argument must be a list of 2 lists or a number, but got {dims}")
        dims_a, dims_b = dims
        dims_a = [dims_a] if isinstance(dims_a, numbers.Integral) else list(dims_a)
        dims_b = [dims_b] if isinstance(dims_b, numbers.Integral) else list(dims_b)
    else:
        dims = int(dims)
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a.ndim, b.ndim):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a, dims_b = list(range(-dims, 0)), list(range(dims))
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    if a.dtype is not b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    csize = 1
    t1, t2 = a, b
    for da, db in zip(dims_a, dims_b):
        s1, s2 = a.shape[da], b.shape[db]
        if s2 == 1:
            t1 = t1.sum(da, keepdim=True)
        elif s1 == 1:
            t2 = t2.sum(db, keepdim=True)
        else:
            if s1 != s2:
                raise RuntimeError(f"contracted dimensions need to match, but first has size {s1} in dim {da} and "
                                   f"second has size {s2} in dim {db}")
            csize *= s1
    cd1 = set(_dims(dims_a, a.ndim)) if dims_a else set()
    cd2 = set(_dims(dims_b, b.ndim)) if dims_b else set()
    p1, p2, rsizes = [], [], []
    size1 = size2 = 1
    for i in range(a.ndim):
        if i not in cd1:
            p1.append(i)
            size1 *= t1.shape[i]
            rsizes.append(t1.shape[i])
    p1 += dims_a
    p2 += dims_b
    for i in range(b.ndim):
        if i not in cd2:
            p2.append(i)
            size2 *= t2.shape[i]
            rsizes.append(t2.shape[i])
    if size1 != 1 or size2 != 1:
        result = mm(t1.permute(p1).reshape(size1, csize), t2.permute(p2).reshape(csize, size2))
    else:  # a full contraction: a dot product (of the flattened operands when they are contiguous)
        t1, t2 = t1.permute(p1), t2.permute(p2)
        if t1.is_contiguous() and t2.is_contiguous():
            result = dot(t1.flatten(), t2.flatten())
        else:
            result = (t1.squeeze() * t2.squeeze()).sum()
    return finish_out("tensordot", result.reshape(rsizes), out)


def _unsafe(t, shape):
    """_unsafe_view: a view without view tracking (PyTorch refuses it where a view is impossible)."""
    if _viewable(t._data, tuple(shape)) is None:
        raise RuntimeError("view size is not compatible with input tensor's size and stride (at least one dimension "
                           "spans across two contiguous subspaces). Use .reshape(...) instead.")
    return _unsafe_view.apply((t,), (t._data,), {"shape": tuple(shape)})


@export(method=True)
def kron(input, other, *, out=None):
    maxdim = max(input.ndim, other.ndim)
    pad_a, pad_b = maxdim - input.ndim, maxdim - other.ndim
    a_shape, b_shape, r_shape = [], [], []
    for i in range(maxdim):
        sa = input.shape[i - pad_a] if i >= pad_a else 1
        sb = other.shape[i - pad_b] if i >= pad_b else 1
        r_shape.append(sa * sb)
        a_shape += [sa, 1]
        b_shape += [1, sb]
    return finish_out("kron", _unsafe(_unsafe(input, a_shape) * _unsafe(other, b_shape), r_shape), out)


# trace / diagonal / diag / diag_embed / tril / triu -------------------------------------------

def _trace_fwd(ctx, a):
    t = np.trace(a)
    return np.asarray(t, np.int64 if a.dtype.kind in "biu" else a.dtype)


_trace = Op("TraceBackward0", _trace_fwd)


@_trace.derivative
def _(ctx, grad):
    n, m = ctx.input_shape
    return grad * _const(np.eye(n, m, dtype=grad._data.dtype))


@export(method=True)
def trace(input):
    if input.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.ndim}")
    return _trace(input)


def _diag_view(a, offset, d1, d2):
    """A writeable numpy view of the diagonal of ``a`` over dims (d1, d2), appended as the last dim."""
    b = np.moveaxis(a, (d1, d2), (-2, -1))
    n1, n2 = b.shape[-2:]
    if offset >= 0:
        b = b[..., :, offset:]
        length = max(min(n1, n2 - offset), 0)
    else:
        b = b[..., -offset:, :]
        length = max(min(n1 + offset, n2), 0)
    return np.lib.stride_tricks.as_strided(
        b, b.shape[:-2] + (length,), b.strides[:-2] + (b.strides[-2] + b.strides[-1],),
        writeable=a.flags.writeable)


def _diagonal_fwd(ctx, a, offset, dim1, dim2):
    return _diag_view(a, offset, dim1, dim2)


def _diagonal_back(ctx, grad):
    return _diagonal_embed.apply((grad,), (grad._data,), {"shape": tuple(ctx.input_shape), "offset": ctx.offset,
                                                          "dim1": ctx.dim1, "dim2": ctx.dim2})


_diagonal = Op("DiagonalBackward0", _diagonal_fwd)
_diagonal.derivative(_diagonal_back)
_diagonal_copy = Op("DiagonalBackward0_copy",  # torch.diag of a matrix (diagonal_copy)
                    lambda ctx, a, offset, dim1, dim2: _diag_view(a, offset, dim1, dim2).copy())
_diagonal_copy.derivative(_diagonal_back)


def _diagonal_embed_fwd(ctx, g, shape, offset, dim1, dim2):
    out = np.zeros(shape, g.dtype)
    _diag_view(out, offset, dim1, dim2)[...] = g
    return out


# diagonal_backward: zeros of the input's shape with the gradient on the diagonal
_diagonal_embed = Op("DiagonalBackwardBackward0", _diagonal_embed_fwd, internal=True)
_diagonal_embed.derivative(lambda ctx, grad: diagonal(grad, ctx.offset, ctx.dim1, ctx.dim2))


def _diag_dims(ndim, dim1, dim2):
    d1, d2 = _wrap_dim(dim1, ndim), _wrap_dim(dim2, ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return d1, d2


@export(method=True)
def diagonal(input, offset=0, dim1=0, dim2=1):
    d1, d2 = _diag_dims(input.ndim, dim1, dim2)
    return _view(_diagonal, input, input._data, {"offset": int(offset), "dim1": d1, "dim2": d2})


def _linalg_diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    return diagonal(A, offset, dim1, dim2)


export("diagonal", linalg=True, torch=False)(_linalg_diagonal)


def _diag_embed_fwd(ctx, a, offset, dim1, dim2):
    n = a.shape[-1] + abs(offset)
    shape = list(a.shape[:-1])
    for pos in sorted((dim1, dim2)):
        shape.insert(pos, n)
    out = np.zeros(shape, a.dtype)
    _diag_view(out, offset, dim1, dim2)[...] = a
    return out


_diag_embed = Op("DiagEmbedBackward0", _diag_embed_fwd)
_diag_embed.derivative(lambda ctx, grad: diagonal(grad, ctx.offset, ctx.dim1, ctx.dim2))


@export(method=True)
def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    d1, d2 = _diag_dims(input.ndim + 1, dim1, dim2)
    return _diag_embed.apply((input,), (input._data,), {"offset": int(offset), "dim1": d1, "dim2": d2})


@export(method=True)
def diag(input, diagonal=0, *, out=None):
    if input.ndim == 1:
        result = diag_embed(input, diagonal, 0, 1)
    elif input.ndim == 2:
        result = _diagonal_copy.apply((input,), (input._data,), {"offset": int(diagonal), "dim1": 0, "dim2": 1})
    else:
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {input.ndim}D")
    return finish_out("diag", result, out)


def _triangle(name, np_fn):
    op = Op(f"{name.capitalize()}Backward0", lambda ctx, a, diagonal: np_fn(a, diagonal))

    def fn(input, diagonal=0, *, out=None):
        if input.ndim < 2:
            raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
        return finish_out(name, op.apply((input,), (input._data,), {"diagonal": int(diagonal)}), out)

    op.derivative(lambda ctx, grad: fn(grad, ctx.diagonal))
    fn.__name__ = name
    export(name, method=True)(fn)
    method(name + "_")(inplace(fn))
    return fn


tril = _triangle("tril", np.tril)
triu = _triangle("triu", np.triu)


# cross ---------------------------------------------------------------------------------------

def _cross_fwd(ctx, a, b, dim):
    shape = np.broadcast_shapes(a.shape, b.shape)
    return np.cross(np.broadcast_to(a, shape), np.broadcast_to(b, shape), axis=dim).astype(
        np.result_type(a, b), copy=False)


_cross = Op("LinalgCrossBackward0", _cross_fwd, inputs=("self", "other"), saves=("self", "other"),
            saves_for={"self": (1,), "other": (0,)})


@_cross.derivative
def _(ctx, grad):
    meta = ctx._input_meta
    g_self = _linalg_cross(ctx.other, grad, dim=ctx.dim) if meta[0] is not None else None
    g_other = _linalg_cross(grad, ctx.self, dim=ctx.dim) if meta[1] is not None else None
    return g_self, g_other


def _linalg_cross(input, other, *, dim=-1, out=None):
    if input.ndim != other.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    d = _wrap_dim(dim, input.ndim)
    if input._data.shape[d] != 3 or other._data.shape[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{input._data.shape[d]} and {other._data.shape[d]}")
    try:
        np.broadcast_shapes(input._data.shape, other._data.shape)
    except ValueError:
        from .pointwise import _mismatch_message
        raise RuntimeError(_mismatch_message(input._data.shape, other._data.shape)) from None
    d_out = dtypes.result_type(input, other)
    arrays = (input._data.astype(d_out.numpy, copy=False), other._data.astype(d_out.numpy, copy=False))
    return finish_out("linalg_cross", _cross.apply((input, other), arrays, {"dim": d}), out)


export("cross", linalg=True, torch=False)(_linalg_cross)


@export(method=True)
def cross(input, other, dim=None, *, out=None):
    if dim is None:
        warnings.warn(
            "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the dim explicitly "
            "or simply use torch.linalg.cross.\nThe default value of dim will change to agree with that of "
            "linalg.cross in a future release.", UserWarning, stacklevel=2)
        shape = np.broadcast_shapes(input._data.shape, other._data.shape)
        dim = next((i for i, s in enumerate(shape) if s == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    return _linalg_cross(input, other, dim=dim, out=out)


# norms ---------------------------------------------------------------------------------------

# torch.linalg.vector_norm (LinalgVectorNormBackward0) and amax/amin live in reduction_extra;
# the matrix norms here are built from them as ATen builds them.

def _vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    return LINALG["vector_norm"](x, ord, dim, keepdim, dtype=dtype, out=out)


def _ord_name(ord):
    if ord == INF:
        return "inf"
    if ord == -INF:
        return "-inf"
    return f"{ord:g}"


def _matrix_norm_impl(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    if A.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    dim = list(dim)
    if len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(str(d) for d in dim)}")
    d0, d1 = _wrap_dim(dim[0], A.ndim), _wrap_dim(dim[1], A.ndim)
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dim[0]}, {dim[1]})")
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    elif float(ord) not in (1, -1, 2, -2, INF, -INF):
        raise RuntimeError(f"linalg.matrix_norm: Order {_ord_name(float(ord))} not supported.")
    if not A.dtype.is_floating_point:
        raise RuntimeError(
            f"linalg.matrix_norm: Expected a floating point or complex tensor as input. Got {_scalar_name(A.dtype)}")
    if ord == "fro":
        return _vector_norm(A, 2, (d0, d1), keepdim, dtype=dtype, out=out)
    if ord == "nuc" or abs(float(ord)) == 2:
        raise NotImplementedError(f"agrad: linalg.matrix_norm with ord={ord!r} (it needs the SVD) is not supported yet")
    # 1 / inf: the max (min) over one dim of the 1-norm over the other, as ATen does
    reducer = FUNCTIONS.get("amax" if float(ord) > 0 else "amin")
    if reducer is None:
        raise NotImplementedError(f"agrad: linalg.matrix_norm with ord={ord!r} needs amax/amin")
    if abs(float(ord)) == INF:
        d0, d1 = d1, d0
    if not keepdim and d0 < d1:
        d1 -= 1
    result = reducer(_vector_norm(A, 1, (d0,), keepdim, dtype=dtype), d1, keepdim)
    return finish_out("linalg_matrix_norm", result, out)


export("matrix_norm", linalg=True, torch=False)(_matrix_norm_impl)


def _linalg_norm(A, ord=None, dim=None, keepdim=False, *, out=None, dtype=None):
    if dim is not None:
        dim = [dim] if isinstance(dim, numbers.Integral) else list(dim)
        if len(dim) not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {_fmt(dim)}")
    elif ord is not None and A.ndim not in (1, 2):
        raise RuntimeError(
            f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {A.ndim}D.")
    if isinstance(ord, str):
        return _matrix_norm_impl(A, ord, dim if dim is not None else (0, 1), keepdim, dtype=dtype, out=out)
    if ord is not None and ((dim is not None and len(dim) == 2) or (dim is None and A.ndim == 2)):
        return _matrix_norm_impl(A, ord, dim if dim is not None else (0, 1), keepdim, dtype=dtype, out=out)
    return _vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype, out=out)


export("norm", linalg=True, torch=False)(_linalg_norm)


# det / slogdet / logdet ----------------------------------------------------------------------------

def _det_fwd(ctx, a):
    return np.asarray(np.linalg.det(a), a.dtype)


_det = Op("LinalgDetBackward0", _det_fwd, inputs=("A",), saves=("A", "result"))


@_det.derivative
def _(ctx, grad):
    # linalg_det_backward: G = grad * det(A) * A^{-T}.  Without create_graph PyTorch solves with
    # an LU whose zero pivots are nudged to eps (so an exactly singular A gets G = 0); with it,
    # near-singular inputs take the cofactor matrix adj(A)^T (PyTorch computes it from the SVD).
    A, det = ctx.A, ctx.result
    if not grad_mode._state["enabled"]:
        return _unsqueeze2(grad * det) * _const(np.swapaxes(_perturbed_inverse(A._data), -1, -2))
    eps = np.finfo(A._data.dtype).eps
    if (np.abs(det._data) < 100 * eps).any():
        return _unsqueeze2(grad) * _adjugate(A).mT
    return _unsqueeze2(grad * det) * _inv(A).mT


def _perturbed_inverse(a):
    """A^{-1} from an LU with partial pivoting whose zero pivots are replaced by eps."""
    try:
        return np.linalg.inv(a)
    except np.linalg.LinAlgError:
        pass
    eps = np.finfo(a.dtype).eps
    flat = a.reshape((-1,) + a.shape[-2:])
    out = np.empty_like(flat)
    for b, m in enumerate(flat):
        n = m.shape[0]
        lu = np.array(m, dtype=m.dtype, copy=True)
        perm = np.arange(n)
        for j in range(n):
            p = j + int(np.argmax(np.abs(lu[j:, j])))
            if lu[p, j] != 0 and p != j:
                lu[[j, p]] = lu[[p, j]]
                perm[[j, p]] = perm[[p, j]]
            if lu[j, j] == 0:
                lu[j, j] = eps
            lu[j + 1:, j] /= lu[j, j]
            lu[j + 1:, j + 1:] -= np.outer(lu[j + 1:, j], lu[j, j + 1:])
        lower = np.tril(lu, -1) + np.eye(n, dtype=lu.dtype)
        upper = np.triu(lu)
        out[b] = np.linalg.solve(upper, np.linalg.solve(lower, np.eye(n, dtype=lu.dtype)[perm]))
    return out.reshape(a.shape)


def _adjugate(A):
    """adj(A) from the Faddeev-LeVerrier recursion: matmuls and traces only, so it is
    differentiable to any order, singular A included (PyTorch differentiates its SVD there)."""
    n = A.shape[-1]
    eye = _const(np.eye(n, dtype=A._data.dtype))
    m = eye.expand(tuple(A.shape))
    for k in range(2, n + 1):
        c = -diagonal(A.matmul(m), 0, -2, -1).sum(-1) / (k - 1)
        m = A.matmul(m) + _unsqueeze2(c) * eye
    return m if n % 2 else -m


def _linalg_det(A, *, out=None):
    _require_square(A, "linalg.det")
    _require_float(A, "linalg.det")
    return finish_out("linalg_det", _det(A), out)


export("det", linalg=True, torch=False)(_linalg_det)


@export(method=True)
def det(input):
    return _linalg_det(input)


def _slogdet_fwd(ctx, a):
    sign, logabs = np.linalg.slogdet(a)
    return np.asarray(sign, a.dtype), np.asarray(logabs, a.dtype)


_slogdet = Op("LinalgSlogdetBackward0", _slogdet_fwd, inputs=("A",), saves=("A",), outputs=None, multi_grad=True)


@_slogdet.derivative
def _(ctx, grads):
    # slogdet_backward, real case: only logabsdet has a gradient, g * A^{-T}
    g = grads[1]
    return _unsqueeze2(g) * _inv(ctx.A).mT


_slogdet_apply = _slogdet.node.apply


def _slogdet_node_apply(self, grads):
    if grads[1] is None:  # the sign alone carries no gradient: PyTorch returns an undefined one
        return (None,)
    return _slogdet_apply(self, grads)


_slogdet.node.apply = _slogdet_node_apply


def _slogdet_impl(A, who):
    _require_square(A, who)
    _require_float(A, who)
    sign, logabs = _slogdet(A)
    return _SlogdetResult(sign, logabs)


#: torch.return_types.slogdet
_SlogdetResult = collections.namedtuple("slogdet", ["sign", "logabsdet"])
_SlogdetResult.__module__ = "torch.return_types"


def _linalg_slogdet(A, *, out=None):
    return _slogdet_impl(A, "linalg.slogdet")


export("slogdet", linalg=True, torch=False)(_linalg_slogdet)


@export(method=True)
def slogdet(input):
    return _slogdet_impl(input, "linalg.slogdet")


@export(method=True)
def logdet(input):
    from .pointwise import where
    _require_square(input, "logdet")
    _require_float(input, "logdet")
    sign, logabs = _slogdet(input)
    return where(sign == -1, float("nan"), logabs)


# inv / solve ------------------------------------------------------------------------------------------

def _lu_zero_pivot(a):
    """1-based index of the first zero pivot of LU with partial pivoting (LAPACK getrf's info), or 0."""
    u = np.array(a, dtype=a.dtype, copy=True)
    n = u.shape[0]
    info = 0
    for j in range(n):
        p = j + int(np.argmax(np.abs(u[j:, j])))
        if u[p, j] != 0:
            if p != j:
                u[[j, p]] = u[[p, j]]
            u[j + 1:, j] /= u[j, j]
        elif info == 0:
            info = j + 1
        if j + 1 < n:
            u[j + 1:, j + 1:] -= np.outer(u[j + 1:, j], u[j, j + 1:])
    return info


def _singular_batch(a):
    """(batch index, zero pivot) of the first singular matrix in ``a``, or None."""
    flat = a.reshape((-1,) + a.shape[-2:])
    for b, m in enumerate(flat):
        info = _lu_zero_pivot(m)
        if info:
            return b, info
    return None


def _inv_fwd(ctx, a):
    bad = None
    try:
        out = np.linalg.inv(a)
    except np.linalg.LinAlgError:
        bad = _singular_batch(a) or (0, a.shape[-1])
    else:
        if a.size and not np.isfinite(out).all() and np.isfinite(a).all():
            bad = _singular_batch(a)
    if bad is not None:
        b, info = bad
        where = f"(Batch element {b}): " if a.ndim > 2 else ""
        raise _LinAlgError(f"linalg.inv: {where}The diagonal element {info} is zero, the inversion could not be "
                           "completed because the input matrix is singular.")
    return out.astype(a.dtype, copy=False)


_inv_op = Op("LinalgInvExBackward0", _inv_fwd, inputs=("A",), saves=("result",))


@_inv_op.derivative
def _(ctx, grad):
    r = ctx.result.mT
    return -(r.matmul(grad.matmul(r)))


def _inv(A):
    return _inv_op(A)


def _linalg_inv(A, *, out=None):
    _require_square(A, "linalg.inv")
    _require_float(A, "linalg.inv")
    return finish_out("linalg_inv", _inv(A), out)


export("inv", linalg=True, torch=False)(_linalg_inv)


@export("inverse", method=True)
def inverse(input, *, out=None):
    return _linalg_inv(input, out=out)


def _is_vector_rhs(A, B):
    return B.ndim == 1 or (B.ndim == A.ndim - 1 and tuple(B.shape) == tuple(A.shape[:-1]))


def _solve_fwd(ctx, a, b, left, vector):
    if not left:
        a = np.swapaxes(a, -1, -2)
        b = np.swapaxes(b, -1, -2)
    rhs = b[..., None] if vector else b
    batch = np.broadcast_shapes(a.shape[:-2], rhs.shape[:-2])
    try:
        x = np.linalg.solve(np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(rhs, batch + rhs.shape[-2:]))
    except np.linalg.LinAlgError:
        x = None
    if x is None or (x.size and not np.isfinite(x).all() and np.isfinite(a).all() and np.isfinite(b).all()):
        bad = _singular_batch(np.broadcast_to(a, batch + a.shape[-2:]))
        where = f"(Batch element {bad[0]}): " if bad is not None and len(batch) else ""
        raise _LinAlgError(f"torch.linalg.solve: {where}The solver failed because the input matrix is singular.")
    x = x[..., 0] if vector else x
    if not left:
        x = np.swapaxes(x, -1, -2)
    return x.astype(np.result_type(a, b), copy=False)


_solve_op = Op("LinalgSolveExBackward0", _solve_fwd, inputs=("A", "B"), saves=("A", "result"))


@_solve_op.derivative
def _(ctx, grad):
    # linalg_solve_backward: gB = solve(A^H, gX); gA = -gB X^H (left) or -X^H gB (right)
    meta = ctx._input_meta
    A, X, left, vector = ctx.A, ctx.result, ctx.left, ctx.vector
    g = grad.unsqueeze(-1) if vector else grad
    x = X.unsqueeze(-1) if vector else X
    g_b = _solve(A.mT, g, left, False)
    g_a = None
    if meta[0] is not None:
        g_a = -(g_b.matmul(x.mT)) if left else -(x.mT.matmul(g_b))
    g_b = g_b.squeeze(-1) if vector else g_b
    return g_a, (g_b if meta[1] is not None else None)


def _solve(A, B, left, vector):
    return _solve_op.apply((A, B), (A._data, B._data), {"left": left, "vector": vector})


def _linalg_solve(A, B, *, left=True, out=None):
    _require_square(A, "linalg.solve")
    _require_float(A, "linalg.solve")
    if A.dtype is not B.dtype:
        raise RuntimeError(
            f"linalg.solve: Expected A and B to have the same dtype, but found A of type {_scalar_name(A.dtype)} "
            f"and B of type {_scalar_name(B.dtype)} instead")
    vector = _is_vector_rhs(A, B)
    n = A.shape[-1]
    try:
        np.broadcast_shapes(B._data.shape[:-1 if vector else -2], A._data.shape[:-2])
    except ValueError:
        from .pointwise import _mismatch_message
        raise RuntimeError(_mismatch_message(B._data.shape[:-1 if vector else -2], A._data.shape[:-2])) from None
    rows, cols = (B.shape[-1], 1) if vector else (B.shape[-2], B.shape[-1])
    if (rows if left else cols) != n:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation {eq} "
                           f"({n}x{n} and {rows}x{cols})")
    return finish_out("linalg_solve", _solve(A, B, left, vector), out)


export("solve", linalg=True, torch=False)(_linalg_solve)
